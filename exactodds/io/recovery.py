"""Recovery of a set of outputs a killed process left half renamed, and the removal of stale
temporaries (the "all or none, even across a kill" half of :mod:`exactodds.io.files`).

A set's journal (``.exo-….set``) lists each output as a :class:`Step`; the writer makes it
before any rename (:class:`exactodds.io.files.Journal`), and the next run writing into that
folder, finding the writer gone, rolls the set back here (:func:`clean_stale_temporaries`).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from exactodds.io.names import (
    BACKUP_NAME,
    FOREIGN_STALE_SECONDS,
    MARKER_NAME,
    MAX_MARKER_BYTES,
    TEMP_NAME,
    PathArg,
    host_tag,
    pid_alive,
    writer_gone,
)


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
        if m is not None and writer_gone(m, entry, now):
            recover(Path(entry.path))
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
        if m[1] == host_tag():
            stale = not pid_alive(int(m[2]))
        else:
            stale = now - st.st_mtime > FOREIGN_STALE_SECONDS
        if stale:
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(entry.name)
    return removed


@dataclass(frozen=True)
class Step:
    """One output of a set: its final path, its temporary (device and inode: renamed or not)
    and the backup of the file it replaces (None: there was none)."""

    final: str
    temp: str
    dev: int
    ino: int
    backup: str | None

    def as_json(self) -> dict[str, object]:
        return {"final": self.final, "temp": self.temp, "dev": self.dev, "ino": self.ino, "backup": self.backup}


def fsync_folder(folder: Path) -> None:
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


def roll_back(steps: Sequence[Step]) -> None:
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


def step_of(item: object) -> Step | None:
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
    return Step(final, temp, item["dev"], item["ino"], backup)


def recover(marker: Path) -> bool:
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
    steps = [step_of(item) for item in items] if isinstance(items, list) else [None]
    if any(step is None for step in steps):
        return False
    roll_back([step for step in steps if step is not None])
    try:
        os.unlink(marker)
    except OSError:
        pass
    return True


def keep_backup(final: str, backup: str) -> None:
    """``backup``: the file at ``final`` as it is (a hard link; a copy where links are not made)."""
    try:
        os.link(final, backup)
    except OSError:
        import shutil

        shutil.copy2(final, backup)


