"""Local worker processes: the one mechanism behind ``--workers`` (issue 16 item 5).

``study`` and ``simulate`` share work out the same way: numbered jobs, each a pure
function of its number (its random stream is ``SeedSequence(seed, spawn_key=(number, ...))``),
run here or in ``workers`` spawned processes, and their results taken back **in job order**.
So the result never depends on ``workers``: the same seed gives the same figures serially
and in parallel, which the tests check.

Processes, not threads: the work is numpy and pure Python, and a process pool uses every
core whatever holds the interpreter lock. Processes are *spawned* (a fresh interpreter,
no state copied from a parent that may hold threads or open files); a job function and
its arguments must therefore be picklable (module-level functions, ``functools.partial``).

>>> list(ordered_map(abs, [-3, 1, -2], workers=1))
[3, 1, 2]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable
from typing import TYPE_CHECKING, Final, TypeVar

from exactodds.errors import InputError

if TYPE_CHECKING:
    from concurrent.futures import Future

J = TypeVar("J")
R = TypeVar("R")

MAX_WORKERS: Final = 64
"""Most local worker processes, whatever the machine."""

WORKERS_PER_CPU: Final = 2
"""Local worker processes allowed per CPU this process may use."""

IN_FLIGHT_PER_WORKER: Final = 2
"""Jobs submitted ahead per worker: enough to keep each busy, few enough that at most
``2 × workers`` results are ever held (memory stays bounded by the job size)."""


def max_workers() -> int:
    """Local processes allowed here: :data:`WORKERS_PER_CPU` per CPU this process may use,
    at most :data:`MAX_WORKERS` (the result never depends on the number)."""
    import os

    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, WORKERS_PER_CPU * cpus))


def check_workers(workers: object) -> int:
    """``workers`` if it is a whole number from 1 to :func:`max_workers`, else one input error
    line (the same wording in every command).

    >>> check_workers(1)
    1
    >>> check_workers(0)
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: --workers (local processes) must be from 1 to ...
    """
    cap = max_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= cap:
        raise InputError(f"--workers (local processes) must be from 1 to {cap} on this machine "
                         f"({WORKERS_PER_CPU} per CPU, at most {MAX_WORKERS}), got {workers!r}")
    return workers


def ordered_map(fn: Callable[[J], R], jobs: Iterable[J], workers: int) -> Generator[R, None, None]:
    """``fn(job)`` for each job, in job order: here when ``workers`` is 1, else in that many
    spawned processes with at most :data:`IN_FLIGHT_PER_WORKER` jobs per worker submitted
    ahead. ``jobs`` may be endless: close the iterator (or stop consuming it inside a
    ``with closing(...)``) and the pool is shut down, jobs not started cancelled."""
    if workers == 1:
        for job in jobs:
            yield fn(job)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        window: deque[Future[R]] = deque()
        it = iter(jobs)
        exhausted = False
        while True:
            while not exhausted and len(window) < IN_FLIGHT_PER_WORKER * workers:
                try:
                    window.append(pool.submit(fn, next(it)))
                except StopIteration:
                    exhausted = True
            if not window:
                return
            yield window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["IN_FLIGHT_PER_WORKER", "MAX_WORKERS", "WORKERS_PER_CPU", "check_workers", "max_workers", "ordered_map"]
