"""Running a study: chunks here, in processes or on a Dask cluster, combined in order
(:func:`run_study`, the library entry), and the benchmark."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Generator, Sequence
from contextlib import ExitStack, closing
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, Final

from exactodds.catalogue import get_wager
from exactodds.errors import InputError
from exactodds.game.cards import Shoe
from exactodds.inputs import shown
from exactodds.io.files import atomic_writer, check_writable
from exactodds.parallel import check_workers as check_local_workers
from exactodds.parallel import ordered_map
from exactodds.study.aggregation import StudyResult, _FamilyTotal, _finish_wager, _WagerTotal
from exactodds.study.output import plot_format, write_plot
from exactodds.study.pricing import ChunkResult, study_chunk, trace_header

# -- running chunks: here, in processes, or on a Dask cluster ------------------------------------------
from exactodds.study.spec import (
    BUCKET_HIGH,
    BUCKET_LOW,
    CHUNK_SHOES,
    CONNECT_SECONDS,
    Progress,
    StudySpec,
    _priced,
    build_spec,
)


def _chunks(spec: StudySpec, workers: int, scheduler: str | None) -> Generator[ChunkResult, None, None]:
    """Chunk results in chunk order, with at most a few chunks per worker in flight
    (:func:`exactodds.parallel.ordered_map`, the mechanism ``simulate --workers`` shares)."""
    n = spec.chunks
    if scheduler is not None:
        yield from _dask_chunks(spec, scheduler)
    else:
        with closing(ordered_map(partial(study_chunk, spec), range(n), min(workers, n))) as chunks:
            yield from chunks


def check_scheduler(address: str) -> None:
    """A Dask scheduler address must read ``tcp://HOST:PORT``, port 1-65535 (``tls://`` needs
    certificates, which ``study`` does not take).

    >>> check_scheduler("tcp://127.0.0.1:8786")
    >>> check_scheduler("127.0.0.1")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: --scheduler must be an address such as tcp://HOST:8786, got '127.0.0.1'
    """
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if not (sep and scheme in ("tcp", "tls") and colon and host.strip("[]") and port.isdigit()
            and 1 <= int(port) <= 65535 and not any(c.isspace() for c in address)):
        raise InputError(f"--scheduler must be an address such as tcp://HOST:8786, got {shown(address)}")
    if scheme == "tls":
        raise InputError(f"--scheduler {shown(address)}: a tls:// scheduler needs certificates, which study does "
                         "not take; connect over tcp:// (e.g. through an SSH tunnel)")


MAX_HANDSHAKE: Final = 1 << 20
"""Largest first message accepted from a scheduler (a Dask handshake is a few hundred bytes)."""


def probe_scheduler(address: str, seconds: float | None = None) -> None:
    """Check that a Dask scheduler answers at ``address`` before handing it to Dask.

    A Dask TCP comm starts with each side writing a handshake message: 8 bytes (little-endian)
    giving the length of the frames that follow, then the frames. So: connect within
    ``seconds`` (default :data:`CONNECT_SECONDS`), read the first 8 bytes within the same
    time, and require a plausible length (at most :data:`MAX_HANDSHAKE`) and those bytes.
    A port that stays silent, or sends anything else (an SSH or HTTP banner), is one
    input error -- Dask itself would wait for ever or try to allocate the banner's
    "length". ``tls://`` needs certificates, which ``study`` does not take: refused.
    """
    import socket
    import struct

    timeout = CONNECT_SECONDS if seconds is None else seconds
    check_scheduler(address)
    _, _, rest = address.partition("://")
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    where = f"the Dask scheduler at {address!r}"
    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as sock:
            sock.settimeout(timeout)
            head = _recv_exactly(sock, 8)
            (length,) = struct.unpack("<Q", head)
            if not 0 < length <= MAX_HANDSHAKE:
                raise InputError(f"{where} is not a Dask scheduler: its first bytes {head[:8]!r} are not a "
                                 "Dask message")
            _recv_exactly(sock, length)
    except InputError:
        raise
    except TimeoutError:
        raise InputError(f"no answer from {where} within {timeout:g} s (nothing listening, or not a Dask "
                         "scheduler)") from None
    except (OSError, ValueError, OverflowError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.__class__.__name__
        raise InputError(f"cannot connect to {where}: {reason}") from None


def _recv_exactly(sock: Any, n: int) -> bytes:
    """``n`` bytes from ``sock`` (an :class:`InputError` if it closes first)."""
    parts: list[bytes] = []
    got = 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            raise InputError("the --scheduler address closed the connection before a Dask handshake")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _dask_chunks(spec: StudySpec, address: str) -> Generator[ChunkResult, None, None]:
    """The same chunks on an existing Dask distributed cluster (``client.map`` over chunk
    indices, results gathered in order, a bounded window in flight)."""
    try:
        from dask import distributed
    except ImportError:  # pragma: no cover - a declared dependency
        raise InputError("study --scheduler needs dask: pip install 'exactodds[cluster]'") from None
    check_scheduler(address)
    probe_scheduler(address)
    try:
        client: Any = distributed.Client(address, timeout=f"{CONNECT_SECONDS}s",  # type: ignore[no-untyped-call]
                                         set_as_default=False)
    except Exception as exc:
        raise InputError(f"cannot connect to the Dask scheduler at {address!r}: "
                         f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    try:
        n = spec.chunks
        width = 2 * max(1, sum(client.nthreads().values()))
        first = list(range(min(width, n)))
        window = deque(client.map(study_chunk, [spec] * len(first), first, pure=False))
        nxt = len(first)
        while window:
            result: ChunkResult = window.popleft().result()
            if nxt < n:
                window.append(client.submit(study_chunk, spec, nxt, pure=False))
                nxt += 1
            yield result
    finally:
        client.close()


# -- the study ----------------------------------------------------------------------------------------
def check_workers(workers: int, scheduler: str | None) -> None:
    """``workers`` from 1 to :func:`~exactodds.parallel.max_workers`, not with ``scheduler``; a well-formed address."""
    check_local_workers(workers)
    if scheduler is not None and workers != 1:
        raise InputError("give --workers or --scheduler, not both")
    if scheduler is not None:
        check_scheduler(scheduler)


def run_spec(spec: StudySpec, workers: int = 1, scheduler: str | None = None, trace_path: str | None = None,
             progress: Progress | None = None) -> StudyResult:
    """Run a checked study: chunks here, in ``workers`` processes or on the Dask cluster at
    ``scheduler``, combined exactly; the trace streamed to ``trace_path``."""
    check_workers(workers, scheduler)
    start = time.perf_counter()
    totals = [_WagerTotal({}) for _ in spec.wagers]
    for w, t in zip(spec.wagers, totals):
        limbs = _priced(w, spec.cards).limbs
        t.families["perfect"] = _FamilyTotal(2, spec.cards, limbs)
        if spec.strategy == "count" and spec.thresholds is not None:
            t.families["count"] = _FamilyTotal(len(spec.thresholds.values) + 1, spec.cards, limbs)
        t.families["buckets"] = _FamilyTotal(BUCKET_HIGH - BUCKET_LOW + 1, spec.cards, limbs)
    rounds = shoes_done = 0
    worker_seconds = worker_cpu = warm_cpu = warm_pricing = 0.0
    warm_shoes = 0
    with ExitStack() as stack:
        trace = None
        if trace_path and spec.trace:  # streamed to a temporary, renamed when the study ends (io.files)
            trace = stack.enter_context(atomic_writer(trace_path))
            trace.write(trace_header(spec.wagers))
        with closing(_chunks(spec, workers, scheduler)) as chunks:
            for chunk in chunks:
                worker_seconds += chunk.seconds
                worker_cpu += chunk.cpu_seconds
                if chunk.warm:
                    warm_cpu += chunk.cpu_seconds
                    warm_pricing += chunk.pricing_cpu_seconds
                    warm_shoes += chunk.shoes
                rounds += chunk.rounds
                shoes_done += chunk.shoes
                for total, part in zip(totals, chunk.wagers):
                    for name, fam in part.families.items():
                        total.families[name].add(fam)
                    if part.hist is not None:
                        total.hist = part.hist if total.hist is None else total.hist + part.hist
                    if part.sample is not None and len(part.sample[0]):
                        total.sample.append(part.sample)
                if trace is not None and chunk.trace:
                    trace.write(chunk.trace)
                if progress is not None:
                    progress(shoes_done, spec.shoes, f"{shoes_done:,} shoes, {rounds:,} rounds")
    seconds = time.perf_counter() - start
    results = tuple(_finish_wager(w, t, spec, rounds) for w, t in zip(spec.wagers, totals))
    levels = {get_wager(w.wager).level for w in spec.wagers}
    plot_data = {w.label: (t.hist, t.sample) for w, t in zip(spec.wagers, totals)} if spec.plot else {}
    return StudyResult(spec, Shoe(spec.counts).decks, rounds, results, seconds, rounds * len(levels),
                       worker_seconds, worker_cpu, plot_data, warm_cpu, warm_shoes,
                       warm_pricing)


def run_study(wagers: Sequence[str], shoes: int, seed: int, shoe: Shoe | None = None, cover: int = 14,
              strategy: str = "perfect", tags: str | None = None, initial_count: int = 0,
              trigger_rc: str | int | None = None, trigger_tc: str | Fraction | None = None,
              workers: int = 1, scheduler: str | None = None, trace: str | None = None,
              plot: str | None = None, chunk_shoes: int = CHUNK_SHOES,
              progress: Progress | None = None) -> StudyResult:
    """The counting-vulnerability study (the library entry a notebook calls).

    ``wagers``: ``"WAGER[:PAYTABLE]"`` strings; ``shoe`` defaults to 8 decks; ``tags``:
    ``"A=1,4=-1,..."`` or ``"eor"`` (default: each wager's suggested balanced count);
    ``trace``: a CSV path (one row per round); ``plot``: an ``.svg`` or ``.png`` path.
    """
    shoe = shoe if shoe is not None else Shoe.standard(8)
    if trace is not None and plot is not None and Path(trace) == Path(plot):
        raise InputError("--trace and --plot name the same file")
    if trace is not None:
        check_writable(trace)
    if plot is not None:
        plot_format(plot)
        check_writable(plot)
    check_workers(workers, scheduler)
    spec = build_spec(wagers, shoes, seed, shoe, cover, strategy, tags, initial_count, trigger_rc, trigger_tc,
                      chunk_shoes, trace is not None, plot is not None)
    result = run_spec(spec, workers, scheduler, trace, progress)
    if plot is not None:
        write_plot(result, plot)
    return result


# -- benchmark ----------------------------------------------------------------------------------------------
def bench_study(shoes: int = 100_000, workers: int = 2, other_shoes: int = 50) -> dict[str, float]:
    """Speed figures (reported, never asserted): perfect play on the five core coup-level
    wagers (one ``price_batch`` per chunk serves all five) for ``shoes`` 8-deck shoes in
    ``workers`` processes, the whole run as a user starts it (pool start-up, each worker's
    loading, every chunk, the combination here) -- its wall time, the 10^6-shoe wall time
    extrapolated from it (linearly: start-up counted ten times, so an upper bound), the
    worker processes' CPU time and each worker's start-up; the study's own share (dealing,
    counts, aggregation) over pricing in the CPU of chunks run by an already started worker
    -- and the compositions per second of opening-level (Perfect Pairs, Lucky Nines) and
    deal-faces-level (Harmony, Heavenly 9 Progressive) wagers, in this process. CPU
    seconds give the rate a free core would reach on a shared (CPU-stolen) machine.

    Call it under ``if __name__ == "__main__":`` (worker processes are spawned)."""
    core = ["banker", "player", "tie", "dragon-7", "panda-8"]
    run_study(core, shoes=20, seed=0, workers=1, tags="A=0")  # this process's caches (as the command has them)
    start, here = time.perf_counter(), time.process_time()
    r = run_study(core, shoes=shoes, seed=1, workers=workers, tags="A=0")
    wall, parent_cpu = time.perf_counter() - start, time.process_time() - here
    per_shoe = r.warm_cpu_seconds / r.warm_shoes if r.warm_shoes else r.worker_cpu_seconds / shoes
    start_up = max(0.0, r.worker_cpu_seconds - r.warm_cpu_seconds - per_shoe * (shoes - r.warm_shoes))
    out = {"core_shoes": float(shoes), "core_workers": float(workers), "core_rounds": float(r.rounds),
           "core_seconds": wall, "core_compositions_per_second": r.rounds / wall,
           "core_parent_cpu_seconds": parent_cpu,
           "core_worker_cpu_seconds": r.worker_cpu_seconds,
           "core_cpu_compositions_per_second_per_core": r.rounds / r.worker_cpu_seconds,
           "core_100k_shoes_minutes": wall * 100_000 / shoes / 60,
           "core_1m_shoes_minutes_extrapolated": wall * 1_000_000 / shoes / 60,
           "core_100k_shoes_worker_cpu_minutes_per_core": r.worker_cpu_seconds * 100_000 / shoes / workers / 60,
           # each worker's start-up (numba's import, tables, plans) paid once, then the warm rate
           "core_worker_start_up_cpu_seconds": start_up,
           "core_overhead_share_of_pricing": (r.warm_cpu_seconds - r.warm_pricing_cpu_seconds)
           / r.warm_pricing_cpu_seconds if r.warm_pricing_cpu_seconds else float("nan")}
    for key, wagers in (("opening", ["perfect-pairs-player", "lucky-nines"]),
                        ("deal_faces", ["harmony", "heavenly-9-progressive"])):
        run_study(wagers, shoes=1, seed=0, tags="A=0")
        start = time.perf_counter()
        r = run_study(wagers, shoes=other_shoes, seed=2, workers=1, tags="A=0")
        out[f"{key}_compositions_per_second"] = r.rounds / (time.perf_counter() - start)
    return out
