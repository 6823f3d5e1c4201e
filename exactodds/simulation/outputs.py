"""All-or-none output files for the simulation commands, streamed through temporaries.

# TODO(lead): use report.files -- this is a minimal local stand-in for the coming
# ``report.files.atomic_writer(path)`` (streaming) and ``write_all(...)``
# (all-or-nothing); swap it at merge.

A command that writes several files (``simulate --log L --counts C -o R``) opens them
all through one :class:`Staging`: each regular file is written to a temporary file in
its own folder; :meth:`Staging.commit` renames them all into place only once every one
is complete, and any error removes every temporary, so either all outputs appear or none
does (and an existing file keeps its old content). A target that exists and is not a
regular file (a FIFO, a terminal) is never replaced: it is opened and written in place.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> with all_or_none() as s:
...     s.open(d / "a.txt").write(b"A")
...     s.open(d / "b.txt").write(b"B")
1
1
>>> sorted(p.name for p in d.iterdir())
['a.txt', 'b.txt']
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from exactodds.errors import InputError

_TEMP_NAME_MAX = 40
"""Characters of the target's name kept in its temporary's name (names are limited to 255 bytes)."""


def _reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


class Staging:
    """Temporaries for several outputs: :meth:`commit` renames all, :meth:`abort` removes all."""

    def __init__(self) -> None:
        self._staged: list[tuple[str, Path, BinaryIO]] = []
        self._direct: list[BinaryIO] = []

    def open(self, path: str | os.PathLike[str]) -> BinaryIO:
        """A binary file to write ``path``'s content to (a temporary until :meth:`commit`)."""
        target = Path(path)
        try:
            st = os.stat(target)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise InputError(f"cannot write {str(target)!r}: {_reason(exc)}") from None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise InputError(f"output path {str(target)!r} is a directory")
        try:
            if st is not None and not stat.S_ISREG(st.st_mode):
                fh: BinaryIO = open(target, "wb")  # noqa: SIM115 (a FIFO or device: never replaced; closed at commit)
                self._direct.append(fh)
                return fh
            folder = target.parent if str(target.parent) else Path(".")
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:_TEMP_NAME_MAX]}.", suffix=".tmp", dir=folder)
        except OSError as exc:
            raise InputError(f"cannot write {str(target)!r}: {_reason(exc)}") from None
        fh = os.fdopen(fd, "wb")
        self._staged.append((tmp, target, fh))
        return fh

    def commit(self) -> None:
        """Flush every temporary to disk, then rename them all into place."""
        try:
            for _, _, fh in self._staged:
                fh.flush()
                os.fsync(fh.fileno())
                fh.close()
            for fh in self._direct:
                fh.close()
            for tmp, _, _ in self._staged:
                os.chmod(tmp, 0o644)  # mkstemp makes 0600; outputs are meant to be shared
        except OSError as exc:
            self.abort()
            raise InputError(f"cannot write the output files: {_reason(exc)}") from None
        for tmp, target, _ in self._staged:
            os.replace(tmp, target)
        self._staged.clear()

    def abort(self) -> None:
        """Close and remove every temporary (the targets are left as they were)."""
        for tmp, _, fh in self._staged:
            try:
                fh.close()
            except OSError:
                pass
            if os.path.exists(tmp):
                os.unlink(tmp)
        for fh in self._direct:
            try:
                fh.close()
            except OSError:
                pass
        self._staged.clear()
        self._direct.clear()


@contextmanager
def all_or_none() -> Iterator[Staging]:
    """A :class:`Staging` committed when the block ends normally, aborted otherwise.

    An ``OSError`` while writing (a full disk, a name too long) becomes one
    :class:`~exactodds.errors.InputError` line; nothing is left behind.
    """
    staging = Staging()
    try:
        yield staging
    except OSError as exc:
        staging.abort()
        raise InputError(f"cannot write the output files: {_reason(exc)}") from None
    except BaseException:
        staging.abort()
        raise
    staging.commit()


def write_all(texts: Mapping[str, str]) -> None:
    """Write every ``path: text`` or none of them."""
    with all_or_none() as s:
        for path, text in texts.items():
            s.open(path).write(text.encode("utf-8"))
