"""Writing outputs: every file a command writes goes through here.

The contract, for every output path a user names:

* ``-`` is standard output, written directly. So are the names of the process's own
  streams -- ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N`` (and a
  symbolic link to one of them): they are resolved to the file descriptor *before* any
  path logic and written through it, in place, so a shell's ``>>`` appends (``O_APPEND``
  is inherited with the descriptor) and a pipe works. The file such a descriptor happens
  to point at is never renamed over or replaced.
* A **regular file**, or a new name in an existing folder, is written **atomically**: the
  content goes to a temporary file in the same folder (which must therefore be writable),
  is flushed to disk, and is then renamed over the final name. A reader sees the old file
  or the new one, never a part; an error or an interrupt removes the temporary file and
  leaves the old file as it was.
  An existing file keeps its permission bits; a new one is made ``0644``.
* A **character device** or a **FIFO** is opened and written directly (never replaced,
  never truncated, never created); opening a FIFO waits for its reader, as a shell
  redirection does.
* A **symbolic link** is followed: what it points at is written by the rules above (a
  link to a regular file has its target replaced atomically and stays a link; a link to
  a device is written directly). A link to nothing is refused.
* Anything else -- a folder, a socket, a block device -- is refused.
* Every failure of the operating system (permission denied, read-only file system, no
  space left, disk quota, a name too long, ...) is an :class:`~exactodds.errors.InputError`
  ``cannot write '<path>': <reason>``, which the command line prints as one line (exit 2).

Temporary names are short and bounded, ``.exo-<tag>-<pid>-<random>.tmp`` (at most 32
bytes), so any final name the file system accepts can be written. ``<tag>`` identifies
this machine's boot and PID namespace and ``<pid>`` the writing process: before writing
into a folder, temporaries of this naming left there by a process that no longer runs
(a ``kill -9``, a power cut) are removed; those of a live process -- a concurrent run --
never are. Temporaries from another machine or namespace, whose process cannot be
checked, are removed once untouched for :data:`~exactodds.io.names.FOREIGN_STALE_SECONDS`.

Three ways to write:

* :func:`write_atomic` -- one text (or bytes) to one path;
* :func:`write_all` -- several outputs of one command, all or none: every temporary is
  written first, then all are renamed under a journal (below);
* :func:`atomic_writer` -- a context manager yielding a text file, for streaming a long
  output without holding it in memory; committed when the block ends normally, removed
  when it raises.

**All or none, even across a kill.** Renaming several files is not one atomic step. So when
one command replaces two or more regular files, a journal is written first: a marker
``.exo-<tag>-<pid>-<random>.set`` in the folder of the first file, listing every output (its
final path, its temporary, and a backup of the file it replaces: a hard link
``.exo-<tag>-<pid>-<random>.old`` beside it), flushed to disk before any final name changes.
Then the backups are made and the temporaries renamed; the marker's removal is the commit
point; then the backups are removed. An error or an interrupt between the renames rolls the
set back at once (every renamed file gets its old content back, or is removed if it was
new). A ``kill -9`` or a power cut there leaves the marker: the next run of exactodds that
writes into that folder (any command, any output there) finds it, sees its process gone,
and rolls the set back before writing. So a kill leaves either every new file, or every old
one plus the marker and backups until that next run. Devices, FIFOs and standard output
are written before the renames and cannot be taken back. A marker is honoured only if this
user owns it and it names only our temporary and backup names beside each output.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", "one\\n")
>>> with atomic_writer(folder / "b.txt") as fh:
...     _ = fh.write("streamed\\n")
>>> write_all([(folder / "a.txt", "two\\n"), (folder / "c.bin", b"\\x00")])
>>> sorted(p.name for p in folder.iterdir()), (folder / "a.txt").read_text()
(['a.txt', 'b.txt', 'c.bin'], 'two\\n')
>>> write_atomic(folder, "x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactodds.errors.InputError: cannot write '...': is a directory
>>> is_temporary_name(temporary_name()), is_temporary_name(".a.txt.tmp")
(True, False)
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TextIO

from exactodds.errors import InputError
from exactodds.io.names import (
    NEW_FILE_MODE,
    STDOUT,
    Content,
    PathArg,
    Writer,
    is_temporary_name,
    output_error,
    temporary_name,
)
from exactodds.io.recovery import Step, clean_stale_temporaries, fsync_folder, keep_backup, roll_back

__all__ = ["STDOUT", "Content", "Output", "PathArg", "Writer", "all_or_none", "atomic_writer", "check_folder",
           "check_writable", "clean_stale_temporaries", "folder_lock", "is_temporary_name", "output_error",
           "stream_fd", "temporary_name", "write_all", "write_atomic"]


# -- the journal of a set of outputs -------------------------------------------------------------
class Journal:
    """The renames of a set of two or more outputs, all or none (see the module docstring)."""

    def __init__(self, ops: Sequence[_Open], durable: bool) -> None:
        self.ops = [op for op in ops if op.tmp is not None]
        self.durable = durable
        self.marker: Path | None = None
        self.steps: list[Step] = []

    def commit(self) -> None:
        """Rename every temporary over its final name; on any failure, roll back."""
        if len(self.ops) < 2:  # one rename is atomic already
            for op in self.ops:
                op.commit()
            return
        try:
            self._begin()
            for step in self.steps:
                if step.backup is not None:
                    keep_backup(step.final, step.backup)
            for op in self.ops:
                op.commit()
        except BaseException as exc:
            roll_back(self.steps)
            for op in self.ops:
                op.tmp = None  # gone: renamed and rolled back, or removed
            self._end()
            if isinstance(exc, OSError):  # making the journal or a backup: one line, like any write failure
                raise output_error(exc, self.ops[0].target.shown) from exc
            raise
        if self.durable:
            for folder in {Path(step.final).parent for step in self.steps}:
                fsync_folder(folder)
        self._end()  # the commit point
        for step in self.steps:
            if step.backup is not None:
                try:
                    os.unlink(step.backup)
                except OSError:
                    pass

    def _begin(self) -> None:
        import json

        for op in self.ops:
            assert op.tmp is not None
            st = os.stat(op.tmp)
            final = op.target.path
            backup = None
            if os.path.lexists(final):
                backup = str(final.parent.absolute() / temporary_name(".old"))
            self.steps.append(Step(str(final.absolute()), str(op.tmp.absolute()), st.st_dev, st.st_ino, backup))
        folder = self.ops[0].target.path.parent
        marker = folder / temporary_name(".set")
        text = json.dumps({"outputs": [step.as_json() for step in self.steps]}, ensure_ascii=False)
        op = _Open(_Target(str(marker), marker, "atomic", 0o600), clean=False, durable=self.durable)
        try:
            op.put(text)
            op.finish()
            op.commit()
        except BaseException:
            op.discard()
            raise
        self.marker = marker
        if self.durable:
            fsync_folder(folder)

    def _end(self) -> None:
        if self.marker is not None:
            try:
                os.unlink(self.marker)
            except OSError:
                pass
            if self.durable:
                fsync_folder(self.marker.parent)
            self.marker = None


# -- targets ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Target:
    """Where an output goes and how: ``shown`` is the path as given (for messages)."""

    shown: str
    path: Path
    kind: Literal["stdout", "stream", "direct", "atomic"]
    mode: int = NEW_FILE_MODE
    fd: int = -1
    """For ``stdout`` (1) and ``stream`` targets: the process's file descriptor written."""


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return 255


def check_folder(folder: Path, shown: str) -> None:
    """An :class:`InputError` about ``shown`` unless ``folder`` exists, is a folder and can be
    written (a temporary file can be made in it)."""
    try:
        st = os.stat(folder)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            raise InputError(f"cannot write {shown!r}: folder {str(folder)!r} does not exist") from None
        raise output_error(exc, shown) from None
    if not stat.S_ISDIR(st.st_mode):
        raise InputError(f"cannot write {shown!r}: {str(folder)!r} is not a folder")
    effective = os.access in os.supports_effective_ids
    if not os.access(folder, os.W_OK | os.X_OK, effective_ids=effective):
        readonly = False
        try:
            readonly = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except (OSError, AttributeError):
            pass
        raise output_error(OSError(errno.EROFS if readonly else errno.EACCES, ""), shown)


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


_STREAM_NAMES: Final = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_FD_PATH: Final = re.compile(r"^/(?:dev|proc/(?:self|thread-self|(\d+))(?:/task/\d+)?)/fd/(\d{1,9})$")


def stream_fd(path: PathArg) -> int | None:
    """The file descriptor of this process that ``path`` names, or ``None`` for a plain path.

    ``/dev/stdout``, ``/dev/stderr``, ``/dev/stdin``, ``/dev/fd/N`` and ``/proc/self/fd/N``
    (also ``/proc/<this pid>/fd/N``) name a descriptor, and so does a symbolic link that
    leads to one, however many links and folders lie between: each step is looked at
    before it is followed, because following ``/proc/self/fd/N`` would reach the file the
    descriptor points at (and a rename would replace a user's file).

    >>> stream_fd("/dev/stdout"), stream_fd("/dev/fd/7"), stream_fd("/proc/self/fd/2"), stream_fd("out.txt")
    (1, 7, 2, None)
    """
    text = os.fspath(path)
    if text == STDOUT:
        return 1
    for _ in range(40):
        parent, name = os.path.split(os.path.abspath(text))
        try:
            real = os.path.join(os.path.realpath(parent), name)
        except (OSError, ValueError):
            return None
        for candidate in (os.path.normpath(os.path.abspath(text)), real):
            if candidate in _STREAM_NAMES:
                return _STREAM_NAMES[candidate]
            m = _FD_PATH.match(candidate)
            if m and (m[1] is None or int(m[1]) == os.getpid()):
                return int(m[2])
        try:
            if not stat.S_ISLNK(os.lstat(real).st_mode):
                return None
            text = os.path.join(os.path.dirname(real), os.readlink(real))
        except (OSError, ValueError):
            return None
    return None


def _resolve(path: PathArg) -> _Target:
    """How ``path`` would be written; an :class:`InputError` if it cannot be. Writes nothing."""
    shown = os.fspath(path)
    if shown == "":
        raise InputError("the output path is empty")
    if "\0" in shown:
        raise InputError(f"the output path {shown!r} contains a NUL byte, which no file name can")
    fd = stream_fd(shown)
    if fd == 1:
        return _Target(shown, Path(STDOUT), "stdout", fd=1)
    if fd is not None:
        try:
            st_fd = os.fstat(fd)
        except OSError as exc:
            if exc.errno == errno.EBADF:
                raise InputError(f"cannot write {shown!r}: file descriptor {fd} is not open") from None
            raise output_error(exc, shown) from None
        if stat.S_ISDIR(st_fd.st_mode):
            raise output_error(OSError(errno.EISDIR, ""), shown)
        return _Target(shown, Path(shown), "stream", fd=fd)
    if shown.endswith(("/", os.sep)):  # Path() would drop the slash and write a file of that name
        raise output_error(OSError(errno.EISDIR, ""), shown)
    p = Path(shown)
    try:
        st: os.stat_result | None = os.lstat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise output_error(exc, shown) from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        try:
            p = Path(os.path.realpath(p, strict=True))
            st = os.stat(p)
        except FileNotFoundError:
            raise InputError(f"cannot write {shown!r}: a symbolic link to a missing file") from None
        except OSError as exc:
            raise output_error(exc, shown) from None
    if st is None or stat.S_ISREG(st.st_mode):
        folder = p.parent
        check_folder(folder, shown)
        if len(os.fsencode(p.name)) > _name_max(folder):
            raise output_error(OSError(errno.ENAMETOOLONG, ""), shown)
        mode = NEW_FILE_MODE if st is None else stat.S_IMODE(st.st_mode)
        return _Target(shown, p, "atomic", mode)
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return _Target(shown, p, "direct")
    if stat.S_ISDIR(st.st_mode):
        raise output_error(OSError(errno.EISDIR, ""), shown)
    raise InputError(f"cannot write {shown!r}: it is {_kind_of(st.st_mode)}; an output is a regular "
                     "file, a character device, a FIFO or '-' (standard output)")


def check_writable(path: PathArg) -> Path:
    """The file ``path`` would write (links followed; ``Path('-')`` for standard output), or an
    :class:`InputError` saying why it cannot be written. Writes nothing.

    Commands that write several files check them all before any work, so one bad path never
    leaves the others written (:func:`write_all` checks again, and writes all or none).
    """
    return _resolve(path).path


# -- open outputs -------------------------------------------------------------------------------
class _Raw(io.FileIO):
    """The raw file every output is written through (one place to fail, also in tests)."""


class _Text(io.TextIOWrapper):
    """UTF-8 text file whose operating-system failures are one-line :class:`InputError` s."""

    def __init__(self, buffer: io.BufferedWriter, shown: str) -> None:
        super().__init__(buffer, encoding="utf-8", newline="")
        self.shown = shown

    def write(self, s: str) -> int:
        try:
            return super().write(s)
        except OSError as exc:
            raise output_error(exc, self.shown) from exc

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as exc:
            raise output_error(exc, self.shown) from exc


class _Open:
    """One output being written: a temporary file, a device or FIFO, or standard output."""

    def __init__(self, target: _Target, *, clean: bool = True, durable: bool = True) -> None:
        self.target = target
        self.durable = durable
        self.tmp: Path | None = None
        self.file: _Text | None = None
        self._stream: TextIO | None = None
        if target.kind == "stdout":
            return
        if target.kind == "stream" and target.fd == 2:
            self._stream = sys.stderr
            return
        try:
            if target.kind == "stream":
                fd = os.dup(target.fd)  # ours to close; the process keeps its own (and O_APPEND)
                if hasattr(os, "set_inheritable"):
                    os.set_inheritable(fd, False)
            elif target.kind == "atomic":
                folder = target.path.parent
                if clean:
                    clean_stale_temporaries(folder)
                fd = self._create_temporary(folder)
            else:
                fd = os.open(target.path, os.O_WRONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
                mode = os.fstat(fd).st_mode
                if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):  # changed since it was checked
                    os.close(fd)
                    raise InputError(f"cannot write {target.shown!r}: it changed while being opened")
        except OSError as exc:
            self.discard()
            raise output_error(exc, target.shown) from exc
        self.file = _Text(io.BufferedWriter(_Raw(fd, "w", closefd=True)), target.shown)

    def _create_temporary(self, folder: Path) -> int:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
        for _ in range(100):
            tmp = folder / temporary_name()
            try:
                fd = os.open(tmp, flags, 0o600)
            except FileExistsError:
                continue
            self.tmp = tmp
            return fd
        raise FileExistsError(errno.EEXIST, "no free temporary name")

    def text(self) -> TextIO:
        """The text file to write into."""
        if self.file is not None:
            return self.file
        return self._stream if self._stream is not None else sys.stdout

    def put(self, content: Content) -> None:
        """Write ``content`` (text, bytes, or a writer given the text file)."""
        if isinstance(content, str):
            self.text().write(content)
        elif isinstance(content, bytes | bytearray | memoryview):
            out = self.text()
            out.flush()
            try:
                out.buffer.write(content)
            except OSError as exc:
                raise output_error(exc, self.target.shown) from exc
        else:
            content(self.text())

    def finish(self) -> None:
        """Everything written reaches the file (and the disk, for a temporary); closed."""
        if self.file is None:
            try:
                self.text().flush()
            except OSError as exc:
                raise output_error(exc, self.target.shown) from exc
            return
        try:
            self.file.flush()
            if self.tmp is not None:
                fd = self.file.fileno()
                if self.durable:
                    os.fsync(fd)
                os.fchmod(fd, self.target.mode)
            self.file.close()
        except OSError as exc:
            raise output_error(exc, self.target.shown) from exc

    def commit(self) -> None:
        """Rename the temporary over the final name (nothing to do for a direct output)."""
        if self.tmp is None:
            return
        try:
            os.replace(self.tmp, self.target.path)
        except OSError as exc:
            raise output_error(exc, self.target.shown) from exc
        self.tmp = None

    def discard(self) -> None:
        """Close quietly and remove the temporary, if any: nothing is left behind."""
        if self.file is not None:
            try:
                self.file.close()
            except Exception:
                try:
                    os.close(self.file.fileno())
                except (OSError, ValueError):
                    pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


def _identity(t: _Target) -> set[str]:
    """Strings naming the file written, whatever path names it (for refusing duplicates):
    the descriptor for a stream, the path, and the file's device and inode where it exists
    (so ``-o out.txt`` is refused beside standard output redirected to ``out.txt``)."""
    keys = {f"fd:{t.fd}"} if t.kind in ("stdout", "stream") else {os.path.realpath(t.path)}
    try:
        st = os.fstat(t.fd) if t.fd >= 0 else os.stat(t.path)
    except OSError:
        return keys
    if stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        keys.add(f"inode:{st.st_dev}:{st.st_ino}")
    return keys


def _targets(paths: Sequence[PathArg]) -> list[_Target]:
    """Each output resolved and checked; the same file named twice is refused."""
    targets = [_resolve(path) for path in paths]
    seen: set[str] = set()
    for t in targets:
        keys = _identity(t)
        if keys & seen:
            raise InputError(f"the same file is named for two outputs: {t.shown!r}")
        seen |= keys
    return targets


# -- the three ways to write --------------------------------------------------------------------
def write_all(items: Sequence[tuple[PathArg, Content]], *, durable: bool = True) -> None:
    """Write every ``(path, content)`` of one command, all or none.

    ``content`` is text, bytes, or a :data:`Writer` called with the text file. Every path is
    checked first; then every regular-file output is written to its temporary, then the
    direct outputs (devices, FIFOs, standard output) are written, and only then are the
    temporaries renamed, in order, under a journal (module docstring): a failure or an
    interrupt at any point before the last rename leaves every regular file as it was, and a
    kill there is rolled back by the next run writing into the first file's folder.

    ``durable`` flushes each temporary to the disk (``fsync``) before it is renamed, so that
    even a power cut leaves the old file or the new one, never an empty one; it costs a few
    milliseconds a file, and may be turned off for outputs regenerated at will.
    """
    targets = _targets([path for path, _ in items])
    staged: list[_Open] = []
    cleaned: set[Path] = set()
    try:
        order = [i for i, t in enumerate(targets) if t.kind == "atomic"] + \
                [i for i, t in enumerate(targets) if t.kind != "atomic"]
        for i in order:
            t = targets[i]
            op = _Open(t, clean=t.path.parent not in cleaned, durable=durable)
            cleaned.add(t.path.parent)
            staged.append(op)
            op.put(items[i][1])
            op.finish()
        Journal(staged, durable).commit()
    except BaseException:
        for op in staged:
            op.discard()
        raise


def write_atomic(path: PathArg, data: str | bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` all at once (see the module contract): a reader never sees
    a partial file, and an error leaves none (``durable`` as for :func:`write_all`)."""
    write_all([(path, data)], durable=durable)


@contextmanager
def atomic_writer(path: PathArg, *, durable: bool = True) -> Iterator[TextIO]:
    """A UTF-8 text file for ``path``, committed when the block ends without an exception.

    For a regular file the writes go to a temporary that is renamed over ``path`` at the
    end, or removed if the block raises (or is interrupted); a device, FIFO or ``-`` is
    written as the block goes. Write failures are one-line :class:`InputError` s
    (``durable`` as for :func:`write_all`).
    """
    op = _Open(_resolve(path), durable=durable)
    try:
        yield op.text()
        op.finish()
        op.commit()
    except BaseException:
        op.discard()
        raise


class Output:
    """One streamed output of :func:`all_or_none`: text or bytes, written as they come."""

    def __init__(self, op: _Open) -> None:
        self._op = op

    def write(self, data: str | bytes) -> None:
        """Append ``data``; a write failure is a one-line :class:`InputError`."""
        self._op.put(data)


@contextmanager
def all_or_none(paths: Sequence[PathArg], *, durable: bool = True) -> Iterator[list[Output]]:
    """Several streamed outputs of one command, all or none.

    Yields one :class:`Output` per path, in order. Regular files are written to
    temporaries that are renamed into place only when the block ends normally; if it
    raises (or is interrupted), every temporary is removed and no file is changed. A
    device, FIFO or ``-`` is written as the block goes (it cannot be taken back). The
    same file named twice is refused. (:func:`write_all` is the form for contents known in
    advance: it holds one file open at a time -- ``tables`` writes hundreds -- and opens
    devices and FIFOs only after every temporary is written.)
    """
    targets = _targets(paths)
    ops: list[_Open] = []
    cleaned: set[Path] = set()
    try:
        for t in targets:
            ops.append(_Open(t, clean=t.path.parent not in cleaned, durable=durable))
            cleaned.add(t.path.parent)
        yield [Output(op) for op in ops]
        for op in ops:
            op.finish()
        Journal(ops, durable).commit()
    except BaseException:
        for op in ops:
            op.discard()
        raise


# -- folders ------------------------------------------------------------------------------------
@contextmanager
def folder_lock(folder: PathArg) -> Iterator[int]:
    """Hold an exclusive advisory lock on ``folder`` (``flock`` on the folder itself, so no
    lock file is left behind): runs that update one folder's set of files take turns.

    ``folder`` must be a real folder, not a symbolic link. Yields the open folder's file
    descriptor (its ``fstat`` tells whether the path still names the locked folder), or -1
    without ``fcntl`` (not POSIX), where there is no lock.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        yield -1
        return
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(folder, flags)
    except OSError as exc:
        raise output_error(exc, folder) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)

