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
checked, are removed once untouched for :data:`FOREIGN_STALE_SECONDS`.

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
import functools
import io
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TextIO

from exactodds.errors import InputError

STDOUT: Final = "-"
"""The output path meaning standard output."""

NEW_FILE_MODE: Final = 0o644
"""Permission bits of a newly created output (reports are meant to be shared)."""

FOREIGN_STALE_SECONDS: Final = 24 * 3600
"""Age after which a temporary of another machine or PID namespace is removed."""

TEMP_NAME: Final = re.compile(r"^\.exo-([0-9a-f]{6})-([1-9][0-9]{0,9})-[0-9a-f]{8}\.tmp$")
"""Our temporary names: ``.exo-<tag>-<pid>-<random>.tmp``; nothing else is ever cleaned."""
MARKER_NAME: Final = re.compile(r"^\.exo-([0-9a-f]{6})-([1-9][0-9]{0,9})-[0-9a-f]{8}\.set$")
"""The journal of a set of outputs being renamed (see the module docstring)."""
BACKUP_NAME: Final = re.compile(r"^\.exo-([0-9a-f]{6})-([1-9][0-9]{0,9})-[0-9a-f]{8}\.old$")
"""A backup of a file a set of outputs replaces, kept until the set is committed."""
MAX_MARKER_BYTES: Final = 1024 * 1024

Writer = Callable[[TextIO], None]
"""Writes an output's text into the file it is given (for :func:`write_all`)."""
Content = str | bytes | Writer
PathArg = str | os.PathLike[str]

_REASONS: Final = {
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.ENAMETOOLONG: "file name too long",
    errno.EISDIR: "is a directory",
    errno.ENOENT: "no such file or folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EFBIG: "file too large",
    errno.EPIPE: "broken pipe (the reader went away)",
    errno.ELOOP: "too many levels of symbolic links",
    errno.EIO: "input/output error",
}


def output_error(exc: OSError, path: PathArg) -> InputError:
    """The one-line :class:`InputError` for an operating-system failure writing ``path``.

    >>> str(output_error(OSError(errno.ENOSPC, "No space left on device"), "out.txt"))
    "cannot write 'out.txt': no space left on device"
    """
    reason = _REASONS.get(exc.errno or 0)
    if reason is None:
        text = exc.strerror or str(exc) or type(exc).__name__
        reason = text[:1].lower() + text[1:]
    return InputError(f"cannot write {os.fspath(path)!r}: {reason}")


# -- temporary names ----------------------------------------------------------------------------
@functools.cache
def _host_tag() -> str:
    """Six hex digits naming this boot of this machine and this PID namespace: a process id
    in a temporary name can be checked only where this tag is the same."""
    parts = []
    try:
        parts.append(Path("/proc/sys/kernel/random/boot_id").read_text().strip())
    except OSError:
        parts.append(os.uname().nodename if hasattr(os, "uname") else "")
    try:
        parts.append(str(os.stat("/proc/self/ns/pid").st_ino))
    except OSError:
        parts.append("")
    import hashlib

    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:6]


def temporary_name(ending: str = ".tmp") -> str:
    """A fresh temporary name for this process (bounded length, hidden, ``.tmp``; ``.set`` and
    ``.old`` for a journal and a backup)."""
    return f".exo-{_host_tag()}-{os.getpid()}-{secrets.token_hex(4)}{ending}"


def is_temporary_name(name: str) -> bool:
    """Whether ``name`` is one of our temporary names (the only files ever cleaned)."""
    return TEMP_NAME.match(name) is not None


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it runs, as another user
        return True
    return True


def clean_stale_temporaries(folder: PathArg, *, now: float | None = None) -> list[str]:
    """Remove our temporaries in ``folder`` whose writer is gone; return their names.

    Only regular files named like :data:`TEMP_NAME` are considered. One whose tag is this
    machine's and namespace's is removed when its process no longer runs (never one of a
    live process: a concurrent run's file stays); one from elsewhere when untouched for
    :data:`FOREIGN_STALE_SECONDS`. Best effort: an unreadable folder or an undeletable
    file is skipped silently (writing will report the real problem, if any).
    """
    removed: list[str] = []
    now = time.time() if now is None else now
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:  # first roll back any set a dead process left half renamed
        m = MARKER_NAME.match(entry.name)
        if m is not None and _writer_gone(m, entry, now):
            _recover(Path(entry.path))
    for entry in entries:
        m = TEMP_NAME.match(entry.name)
        backup = BACKUP_NAME.match(entry.name)
        if backup is not None:  # an orphan only after a kill between commit and clean-up: kept a day
            try:
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(st.st_mode) and now - st.st_mtime > FOREIGN_STALE_SECONDS:
                    os.unlink(entry.path)
                    removed.append(entry.name)
            except OSError:
                pass
            continue
        if m is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        if m[1] == _host_tag():
            stale = not _pid_alive(int(m[2]))
        else:
            stale = now - st.st_mtime > FOREIGN_STALE_SECONDS
        if stale:
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(entry.name)
    return removed


def _writer_gone(m: re.Match[str], entry: os.DirEntry[str], now: float) -> bool:
    """Whether the process that wrote the file named ``m`` no longer runs (this machine's), or
    the file is older than :data:`FOREIGN_STALE_SECONDS` (another machine's)."""
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    if m[1] == _host_tag():
        return not _pid_alive(int(m[2]))
    return now - st.st_mtime > FOREIGN_STALE_SECONDS


# -- the journal of a set of outputs -------------------------------------------------------------
@dataclass(frozen=True)
class _Step:
    """One output of a set: its final path, its temporary (device and inode: renamed or not)
    and the backup of the file it replaces (None: there was none)."""

    final: str
    temp: str
    dev: int
    ino: int
    backup: str | None

    def as_json(self) -> dict[str, object]:
        return {"final": self.final, "temp": self.temp, "dev": self.dev, "ino": self.ino, "backup": self.backup}


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _roll_back(steps: Sequence[_Step]) -> None:
    """Give every output of a set its old content back (or remove it, if it was new), wherever
    the renames stopped; remove every temporary and backup. Best effort, idempotent."""
    for step in steps:
        try:
            st: os.stat_result | None = os.lstat(step.final)
        except OSError:
            st = None
        renamed = st is not None and (st.st_dev, st.st_ino) == (step.dev, step.ino)
        try:
            if renamed:
                if step.backup is None:
                    os.unlink(step.final)
                elif os.path.lexists(step.backup):
                    os.replace(step.backup, step.final)
            elif step.backup is not None and os.path.lexists(step.backup):
                os.unlink(step.backup)
            if os.path.lexists(step.temp):
                os.unlink(step.temp)
        except OSError:
            continue


def _step_of(item: object) -> _Step | None:
    """A journal entry as read back, or None unless it names only our names beside its output."""
    if not isinstance(item, dict) or set(item) != {"final", "temp", "dev", "ino", "backup"}:
        return None
    final, temp, backup = item["final"], item["temp"], item["backup"]
    if not (isinstance(final, str) and isinstance(temp, str) and isinstance(item["dev"], int)
            and isinstance(item["ino"], int) and (backup is None or isinstance(backup, str))):
        return None
    folder = os.path.dirname(final)
    if not os.path.isabs(final) or os.path.dirname(temp) != folder or not TEMP_NAME.match(os.path.basename(temp)):
        return None
    if backup is not None and (os.path.dirname(backup) != folder or not BACKUP_NAME.match(os.path.basename(backup))):
        return None
    return _Step(final, temp, item["dev"], item["ino"], backup)


def _recover(marker: Path) -> bool:
    """Roll back the set a dead process left in ``marker``, then remove the marker; False (and
    nothing touched) when the marker is not this user's or not one of ours."""
    import json

    try:
        fd = os.open(marker, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "geteuid") and st.st_uid != os.geteuid()) \
                or st.st_mode & 0o022 or st.st_size > MAX_MARKER_BYTES:
            return False
        with os.fdopen(os.dup(fd), "rb") as fh:
            raw = fh.read(MAX_MARKER_BYTES + 1)
    finally:
        os.close(fd)
    try:
        items = json.loads(raw.decode("utf-8"))["outputs"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return False
    steps = [_step_of(item) for item in items] if isinstance(items, list) else [None]
    if any(step is None for step in steps):
        return False
    _roll_back([step for step in steps if step is not None])
    try:
        os.unlink(marker)
    except OSError:
        pass
    return True


class _Journal:
    """The renames of a set of two or more outputs, all or none (see the module docstring)."""

    def __init__(self, ops: Sequence[_Open], durable: bool) -> None:
        self.ops = [op for op in ops if op.tmp is not None]
        self.durable = durable
        self.marker: Path | None = None
        self.steps: list[_Step] = []

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
                    _backup(step.final, step.backup)
            for op in self.ops:
                op.commit()
        except BaseException as exc:
            _roll_back(self.steps)
            for op in self.ops:
                op.tmp = None  # gone: renamed and rolled back, or removed
            self._end()
            if isinstance(exc, OSError):  # making the journal or a backup: one line, like any write failure
                raise output_error(exc, self.ops[0].target.shown) from exc
            raise
        if self.durable:
            for folder in {Path(step.final).parent for step in self.steps}:
                _fsync_folder(folder)
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
            self.steps.append(_Step(str(final.absolute()), str(op.tmp.absolute()), st.st_dev, st.st_ino, backup))
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
            _fsync_folder(folder)

    def _end(self) -> None:
        if self.marker is not None:
            try:
                os.unlink(self.marker)
            except OSError:
                pass
            if self.durable:
                _fsync_folder(self.marker.parent)
            self.marker = None


def _backup(final: str, backup: str) -> None:
    """``backup``: the file at ``final`` as it is (a hard link; a copy where links are not made)."""
    try:
        os.link(final, backup)
    except OSError:
        import shutil

        shutil.copy2(final, backup)


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
        _Journal(staged, durable).commit()
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
        _Journal(ops, durable).commit()
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
