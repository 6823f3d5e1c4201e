"""Writing outputs: every file a command writes goes through here.

A regular file is written atomically (a temporary file in the same folder, then a
rename), so a reader never sees a partial file and an error leaves none.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from exactodds.errors import InputError


def check_writable(path: str | os.PathLike[str]) -> Path:
    """The folder ``path`` would be written in; an input error if it cannot be a file there.

    Commands that write several files check them all first, so one bad path never
    leaves the others written.
    """
    target = Path(path)
    if target.is_dir():
        raise InputError(f"output path {str(target)!r} is a directory")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"output folder {str(folder)!r} does not exist")
    return folder


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` all at once: a temporary file in the same folder,
    then a rename, so a reader never sees a partial file and an error leaves none."""
    target = Path(path)
    folder = check_writable(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; reports are meant to be shared
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
