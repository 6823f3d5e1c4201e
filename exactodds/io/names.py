"""Names and messages of the writing floor (:mod:`exactodds.io`): what a temporary, a journal
marker and a backup are called, how old a foreign one must be to be removed, and the one-line
:class:`~exactodds.errors.InputError` for any operating-system failure of a write.

A temporary is ``.exo-<tag>-<pid>-<random>.tmp`` (at most 32 bytes): ``<tag>`` names this boot
of this machine and this PID namespace, ``<pid>`` the writing process, so a leftover can be told
from a concurrent run's file (see :mod:`exactodds.io.files`).

>>> is_temporary_name(temporary_name()), is_temporary_name(".a.txt.tmp")
(True, False)
"""

from __future__ import annotations

import errno
import functools
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Final, TextIO

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
def host_tag() -> str:
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
    return f".exo-{host_tag()}-{os.getpid()}-{secrets.token_hex(4)}{ending}"


def is_temporary_name(name: str) -> bool:
    """Whether ``name`` is one of our temporary names (the only files ever cleaned)."""
    return TEMP_NAME.match(name) is not None


def pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it runs, as another user
        return True
    return True


def writer_gone(m: re.Match[str], entry: os.DirEntry[str], now: float) -> bool:
    """Whether the process that wrote the file named ``m`` no longer runs (this machine's), or
    the file is older than :data:`FOREIGN_STALE_SECONDS` (another machine's)."""
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    if m[1] == host_tag():
        return not pid_alive(int(m[2]))
    return now - st.st_mtime > FOREIGN_STALE_SECONDS


