"""Progress on stderr for long work, drawn by rich, only when stderr is a terminal.

Library functions take an optional :data:`Progress` callback ``(done, total, label)``
and know nothing of terminals; the command line passes :func:`stderr_progress`'s
callback. Nothing is ever written to stdout, and nothing at all when stderr is a file
or a pipe (CI logs, redirected runs).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Progress = Callable[[int, int, str], None]
"""Called as ``progress(done, total, label)`` as work advances; ``done == total`` at the end."""


@contextmanager
def stderr_progress(description: str = "working") -> Iterator[Progress | None]:
    """A rich progress bar on stderr for the ``with`` block, or ``None`` off a terminal.

    >>> import io, contextlib
    >>> with contextlib.redirect_stderr(io.StringIO()), stderr_progress() as p:
    ...     p is None
    True
    """
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as RichProgress

    bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), TextColumn("{task.fields[label]}"),
                       console=Console(file=sys.stderr), transient=True)
    task: list[Any] = []

    def update(done: int, total: int, label: str) -> None:
        if not task:
            task.append(bar.add_task(description, total=total, label=""))
        bar.update(task[0], completed=done, total=total, label=label[:40])

    with bar:
        yield update
