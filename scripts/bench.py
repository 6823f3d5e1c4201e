"""Speed figures for exactodds: CPU-time medians, each printed beside its target.

A benchmark, never a timed test: the machine is shared and wall-clock time swings 2x,
so every figure is CPU time (``time.process_time``; a child process's through
``resource.getrusage``), the median over repetitions, each on shoe compositions new to
the process (8 decks less a few random cards) so that no per-shoe cache helps. Pricing
figures also give the same-run ratio to a plain-Python reference (:func:`reference_coup`:
the coup level's exact counts by nested loops over value classes, no numpy), so a figure
read on a loaded machine can be compared with one read on a free one.

Structure: one function per group of figures, each followed by its registry line
``FIGURES.append((function, slow))``; add a group as a function and one registry line at
the end (above the ``__main__`` block).

Run: ``python scripts/bench.py`` (``--quick`` skips the slow figures, ``--json`` prints
machine-readable output, ``--runs N`` sets the repetitions, at least 20 by default).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from exactodds.catalogue import CATALOGUE, core  # noqa: E402
from exactodds.engine.level import Level  # noqa: E402
from exactodds.engine.levels import COUP, DEAL_FACES, LEVELS, NINES, PLAYER_FACES, RANK_PATTERN  # noqa: E402
from exactodds.figures.analysis import analyze  # noqa: E402
from exactodds.game.cards import FACES, Shoe  # noqa: E402
from exactodds.game.rules import Coup, banker_draws, is_natural, player_draws  # noqa: E402

RESULTS: list[dict[str, Any]] = []


def report(name: str, value: float, unit: str, target: str, met: bool | None, note: str = "") -> None:
    """Print one figure beside its target and keep it for ``--json``."""
    RESULTS.append({"figure": name, "value": round(value, 4), "unit": unit, "target": target,
                    "met": met, "note": note})
    mark = "" if met is None else ("  ok" if met else "  MISSED")
    if not ARGS.json:
        print(f"  {name:<58} {value:>12,.3f} {unit:<14} [{target}]{mark}{'  ' + note if note else ''}")


def fresh_shoes(count: int, seed: int, decks: int = 8) -> list[Shoe]:
    """``count`` compositions never priced before: ``decks`` decks less 1-12 random cards."""
    rng = np.random.default_rng(seed)
    base = Shoe.standard(decks)
    out = []
    for _ in range(count):
        k = int(rng.integers(1, 13))
        cards = [FACES[int(i)] for i in rng.choice(len(FACES), size=k, replace=False)]
        out.append(base.remove(cards))
    return out


def cpu_median(fn: Callable[[Shoe], object], shoes: list[Shoe]) -> float:
    """Median CPU seconds of ``fn(shoe)`` over the shoes."""
    times = []
    for shoe in shoes:
        t = time.process_time()
        fn(shoe)
        times.append(time.process_time() - t)
    return statistics.median(times)


def core_wagers(shoe: Shoe) -> None:
    for w in core.WAGERS:
        for p in w.paytables:
            a = analyze(w, p.id, shoe)
            _ = (a.house_edge, a.variance)  # the figures, not only the counts


def whole_catalogue(shoe: Shoe) -> None:
    for w in CATALOGUE.values():
        for p in w.paytables:
            a = analyze(w, p.id, shoe)
            _ = (a.house_edge, a.variance)  # the figures, not only the counts


def child_cpu(args: list[str], runs: int) -> float:
    """Median CPU seconds (user + system) of a fresh process running ``args``."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


Figure = tuple[Callable[[], None], bool]
FIGURES: list[Figure] = []
"""(function printing a group of figures, slow) in running order: the registry."""

REFERENCE: dict[str, float] = {}
"""CPU seconds per composition of :func:`reference_coup`, measured once per run."""


def reference_coup(n: list[int]) -> dict[Coup, int]:
    """Exact coup counts of a shoe of value counts ``n`` (10 values) in plain Python.

    Every ordered deal of value classes (§ 629a.8: Player, Banker, Player, Banker, then
    the third cards Table 1 calls for), each weighted by the ways to deal it (the count of
    its class at that moment), cards read by no hand collapsed into a falling factorial:
    the reference the pricing figures are compared with, and a check on them (the
    benchmark asserts both agree).
    """
    total = sum(n)
    c = list(n)
    counts: dict[Coup, int] = {}

    def add(coup: Coup, ways: int) -> None:
        counts[coup] = counts.get(coup, 0) + ways

    for p1 in range(10):
        w1 = c[p1]
        if not w1:
            continue
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            if not w2:
                continue
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                if not w3:
                    continue
                c[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    if not w4:
                        continue
                    c[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if is_natural(pt) or is_natural(bt) or not player_draws(pt):
                        if not (is_natural(pt) or is_natural(bt)) and banker_draws(bt, None):
                            for b3 in range(10):
                                if c[b3]:
                                    add(Coup(pt, (bt + b3) % 10, 2, 3), w4 * c[b3] * (total - 5))
                        else:
                            add(Coup(pt, bt, 2, 2), w4 * (total - 4) * (total - 5))
                    else:
                        for p3 in range(10):
                            w5 = w4 * c[p3]
                            if not w5:
                                continue
                            c[p3] -= 1
                            pt3 = (pt + p3) % 10
                            if banker_draws(bt, p3):
                                for b3 in range(10):
                                    if c[b3]:
                                        add(Coup(pt3, (bt + b3) % 10, 3, 3), w5 * c[b3])
                            else:
                                add(Coup(pt3, bt, 3, 2), w5 * (total - 5))
                            c[p3] += 1
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return counts


def reference_seconds() -> float:
    """CPU seconds per composition of the plain-Python reference (median of three new
    compositions), checked against the engine's counts on each."""
    if COUP.name not in REFERENCE:
        times = []
        for shoe in fresh_shoes(3, 99):
            t = time.process_time()
            ref = reference_coup(list(shoe.value_counts()))
            times.append(time.process_time() - t)
            assert ref == dict(COUP.distribution(shoe).counts), "reference and engine disagree"
        REFERENCE[COUP.name] = statistics.median(times)
    return REFERENCE[COUP.name]


def ratio(seconds_per_composition: float) -> str:
    """The same-run speed-up over the plain-Python reference, as a note."""
    return f"{reference_seconds() / seconds_per_composition:,.0f}x the plain-Python reference"


def batch_rate(level: Level, size: int, seed: int, compiled: bool | None = None, runs: int = 5) -> float:
    """Compositions per CPU-second of one ``price_batch`` call on ``size`` new compositions
    (median of ``runs`` batches). ``compiled``: the numba kernel (True) or numpy (False)."""
    rates = []
    for r in range(runs):
        comps = np.array([s.counts for s in fresh_shoes(size, seed + r)])
        t = time.process_time()
        level.price_batch(comps, compiled=compiled)
        rates.append(size / (time.process_time() - t))
    return statistics.median(rates)


def single_composition() -> None:
    """Issue 19 item 4: one new shoe, in process, the figures (house edge, variance) of
    the core wagers and of the whole catalogue."""
    from exactodds.engine.single import COMPILED_AFTER

    runs = max(ARGS.runs, 200)  # 200 new shoes: 20 ms of core wagers, 0.2 s of catalogue, a steadier median
    # warm-up: every level's table loaded (shipped arrays), settlements built, and more single-shoe
    # pricings than COMPILED_AFTER (the catalogue prices 8 levels a shoe), so the process is warm;
    # then the measured function itself on 20 shoes of its own (the interpreter specialises a code
    # path over its first runs: the first 20 timed shoes read ~5 % slower without this)
    for shoe in fresh_shoes(COMPILED_AFTER // 8 + 2, 0):
        whole_catalogue(shoe)
    for shoe in fresh_shoes(20, 7):
        core_wagers(shoe)
    s = cpu_median(core_wagers, fresh_shoes(runs, 1))
    report("core wagers, 11 paytables, one new 8-deck composition", 1000 * s, "ms", "<= 0.1 ms", s <= 1e-4,
           ratio(s))
    for shoe in fresh_shoes(20, 8):
        whole_catalogue(shoe)
    s = cpu_median(whole_catalogue, fresh_shoes(runs, 2))
    n = sum(len(w.paytables) for w in CATALOGUE.values())
    report(f"whole catalogue, {n} paytables, one new composition", 1000 * s, "ms", "<= 3 ms", s <= 3e-3, ratio(s))


FIGURES.append((single_composition, False))


def batch_pricing() -> None:
    """Issue 19 item 1: ``price_batch`` rates per level, by the numba kernel (when numba is
    installed: the ``fast`` extra) and by the pure numpy path (same exact counts); and the
    player-faces rate at 64 rows a call, where the per-call work outside the kernel shows."""
    try:
        import numba  # noqa: F401
        paths: tuple[bool, ...] = (True, False)
    except ImportError:
        paths = (False,)
    targets = {COUP: 80_000, PLAYER_FACES: 200_000, NINES: 200_000, RANK_PATTERN: 200_000, DEAL_FACES: 20_000}
    for level, target in targets.items():
        name = level.name
        size = 2048 if level is not DEAL_FACES else 512
        for compiled in paths:
            level.price_batch(np.array([s.counts for s in fresh_shoes(64, 3)]), compiled=compiled)
            rate = batch_rate(level, size if compiled else size // 4, 4, compiled)
            how = "numba kernel" if compiled else "numpy, no numba"
            report(f"batch pricing, {name} level, {how}", rate, "comps/CPU-s", f">= {target:,}" if compiled else
                   "(measured)", rate >= target if compiled else None, ratio(1 / rate))
    if True in paths:                       # the batch a counting study makes: one shoe's ~80 rounds a call
        rate = batch_rate(PLAYER_FACES, 64, 40, True, runs=41)
        report("batch pricing, opening-player-faces level, 64 rows a call", rate, "comps/CPU-s", "(measured)", None,
               ratio(1 / rate))


FIGURES.append((batch_pricing, False))


def incremental_pricing() -> None:
    """Issue 19 item 2, measured rather than built: consecutive rounds of a dealt 8-deck
    shoe differ by 4-6 cards; a round's tree products that read no class those cards
    changed could be reused from the previous round. The share of reusable coup-level
    products bounds what incremental pricing could save before any bookkeeping; the
    batch kernel is the baseline it would have to beat."""
    from exactodds.engine.pricing import trie

    t = trie(COUP.table)
    depth = np.zeros(len(t.parent), np.intp)
    paths = np.zeros((len(t.parent), 10), bool)                   # classes on each node's path
    for level in t.levels:
        nodes = np.arange(level.start, level.stop)
        paths[nodes] = paths[t.parent[nodes]]
        paths[nodes, t.cls[nodes]] = True
        depth[nodes] = depth[t.parent[nodes]] + 1
    rng = np.random.default_rng(8)
    shares = []
    for _ in range(20):
        order = rng.permutation(np.repeat(np.arange(10), [128] + [32] * 9))
        for start in range(0, 300, 5):                          # a round's 4-6 cards, roughly
            changed = np.zeros(10, bool)
            changed[order[start:start + 5]] = True
            shares.append(float((~(paths[1:] & changed).any(axis=1)).mean()))
    share = statistics.median(shares)
    report("incremental pricing: coup tree products reusable round to round", 100 * share, "%",
           "(measured; build if it wins)", None,
           f"not built: every group sum changes every round (the additions into them are ~85% of the "
           f"coup kernel), and the tree's products, the only reusable part, are under 15%: at most "
           f"~{15 * share:.0f}% to gain before bookkeeping")


FIGURES.append((incremental_pricing, False))


def start_up() -> None:
    """Issue 19 item 5 (the engine loads numpy and its tables lazily; a standard shoe's coup
    counts ship, :mod:`exactodds.engine.standard`, so ``analyze banker`` imports no numpy):
    whole-process CPU time of ``--help``, ``list`` and ``analyze banker`` against 3x
    ``import typer``. The package's
    bytecode is compiled first, as an install does (under ``PYTHONDONTWRITEBYTECODE`` every
    process would otherwise compile every module from source)."""
    import compileall

    compileall.compile_dir(str(ROOT / "exactodds"), quiet=2)
    exe = [sys.executable, "-m", "exactodds"]
    typer = child_cpu([sys.executable, "-c", "import typer"], 7)
    for args, runs in ((["analyze", "banker"], 7), (["list"], 7), (["--help"], 5)):
        cpu = child_cpu([*exe, *args], runs)
        report(f"`exactodds {' '.join(args)}`, whole process", cpu, "s", f"<= 3x import typer ({3 * typer:.2f} s)",
               cpu <= 3 * typer, f"median of {runs} processes")


FIGURES.append((start_up, False))


def removal_and_tables() -> None:
    """Effects of removal, the generated tables, Pai Gow, the second method."""
    from exactodds.figures.eor import bench_eor

    times = []
    for _ in range(3):
        t = time.process_time()
        bench_eor()
        times.append(time.process_time() - t)
    report("effects of removal, whole catalogue, 8 decks", statistics.median(times), "s", "<= 2 s",
           statistics.median(times) <= 2, "median of 3")
    from exactodds.report import tables as tables_mod
    from exactodds.report.tables import game_files

    for level in LEVELS.values():
        level._cache.clear()
    tables_mod.game_files = dict  # the baccarat tables alone; the games' files (Pai Gow) are measured next
    t = time.process_time()
    files = tables_mod.build_tables((6, 7, 8))
    cpu = time.process_time() - t
    tables_mod.game_files = game_files
    report(f"tables/ for 6, 7, 8 decks ({len(files)} files rendered in memory)", cpu, "s", "<= 2 s", cpu <= 2)
    t = time.process_time()
    game_files()
    cpu = time.process_time() - t
    report("Pai Gow, both strategies and the vigorish table (in tables/)", cpu, "s", "<= 60 s", cpu <= 60)
    from exactodds.figures import second_method as sm

    shoes = fresh_shoes(3, 7)
    times = []
    for shoe in shoes:
        t = time.process_time()
        for w in CATALOGUE.values():
            for p in w.paytables:
                sm.outcome_counts(w, p, shoe)
        times.append(time.process_time() - t)
    report("second method, whole catalogue, one new composition", statistics.median(times), "s", "(no target)",
           None, "median of 3")


FIGURES.append((removal_and_tables, True))


def simulation() -> None:
    """The simulator and crosscheck."""
    from exactodds.simulation.simulate import bench_simulate

    rate = bench_simulate(10_000_000)
    report("simulator, fresh mode, 10M rounds", rate / 1e6, "M rounds/s", ">= 10", rate >= 10e6)
    from exactodds.simulation.settle import RoundSettler
    from exactodds.simulation.simulate import simulate

    pairs = [(w, t) for w in CATALOGUE.values() for t in w.paytables]
    t0 = time.process_time()
    simulate(1_000_000, "fresh", Shoe.standard(8), seed=3, settler=RoundSettler(pairs))
    cpu = time.process_time() - t0
    report(f"simulate: 1M rounds dealt and settled for all {len(pairs)} paytables", 1 / cpu, "M rounds/CPU-s",
           "(measured)", None, "the `simulate` command's default: every wager settled")
    from exactodds.simulation.crosscheck import bench_crosscheck

    rate = bench_crosscheck()
    report("crosscheck, reading and auditing a 2M-round log", rate / 1e3, "k rounds/s", ">= 500", rate >= 500e3)
    rate = bench_crosscheck(2_000_000, mode="shoe")
    report("crosscheck, 2M-round shoe log, every shoe test on (issue 18)", rate / 1e3, "k rounds/s", ">= 300",
           rate >= 300e3)


FIGURES.append((simulation, True))


def crosscheck_memory() -> None:
    """Issue 18 item 6: peak memory of ``exactodds crosscheck`` on a 10^7-round shoe log
    (streaming: sufficient statistics per shoe), a child process's maximum resident set.

    Read as the child's own ``VmHWM`` (Linux ``/proc/self/status``): ``ru_maxrss`` survives
    ``execve``, so a child forked from this process (by then several hundred MB) would report
    the bench's own peak (423-443 MB measured that way, against ~135 MB for the crosscheck)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "shoe.csv")
        subprocess.run([sys.executable, "-m", "exactodds", "simulate", "--rounds", "10000000", "--mode", "shoe",
                        "--seed", "18", "-w", "banker", "--log", log], check=True, capture_output=True)
        # the crosscheck in a process of its own, which reports its own peak and CPU time
        probe = ("import resource, runpy, sys\n"
                 f"sys.argv = ['exactodds', 'crosscheck', {log!r}, '-o', {os.path.join(d, 'r.txt')!r}]\n"
                 "try:\n    runpy.run_module('exactodds', run_name='__main__')\nexcept SystemExit:\n    pass\n"
                 "u = resource.getrusage(resource.RUSAGE_SELF)\n"
                 "peak = u.ru_maxrss\n"
                 "try:\n"
                 "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
                 "    peak = int(status.split()[0])\n"
                 "except (OSError, IndexError, ValueError):\n"
                 "    pass\n"
                 "print(peak, u.ru_utime + u.ru_stime)\n")
        out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    rss, cpu_text = out.split()[-2:]
    cpu = float(cpu_text)
    mb = int(rss) / 1024
    report("crosscheck, 10^7-round shoe log: peak memory", mb, "MB", "<= 200", mb <= 200,
           f"whole process, {1e7 / cpu / 1e3:.0f}k rounds per CPU-s")


FIGURES.append((crosscheck_memory, True))


def study() -> None:
    """Issue 19 item 3: the counting study, 100,000 shoes x five core wagers on two cores,
    run in full as a user runs it (wall time from the call to the result, pool start-up and
    loading included), and 10^6 shoes extrapolated from it."""
    try:
        from exactodds.study import bench_study
    except ImportError:
        return
    f = bench_study()
    shoes, workers = int(f["core_shoes"]), int(f["core_workers"])
    minutes = f["core_100k_shoes_minutes"]
    report(f"study: {shoes:,} 8-deck shoes x 5 core wagers, {workers} workers", minutes, "min wall", "<= 1 min",
           minutes <= 1, f"{f['core_rounds']:,.0f} rounds, {f['core_compositions_per_second']:,.0f} comps/s wall, "
           f"this process {f['core_parent_cpu_seconds']:.1f} s CPU")
    million = f["core_1m_shoes_minutes_extrapolated"]
    report("study: 10^6 shoes, extrapolated from that run", million, "min wall", "<= 10 min", million <= 10,
           "x10, the start-up counted ten times")
    cpu = f["core_100k_shoes_worker_cpu_minutes_per_core"]
    report("study: 100,000 shoes, worker CPU time per core", cpu, "min", "<= 1 min", cpu <= 1,
           f"what two free cores would take; each worker's start-up {f['core_worker_start_up_cpu_seconds']:.1f} s "
           f"CPU in all, {f['core_cpu_compositions_per_second_per_core']:,.0f} comps per CPU-s")
    share = 100 * f["core_overhead_share_of_pricing"]
    report("study: own work (dealing, counts, aggregation) / pricing", share, "%", "<= 10 %", share <= 10,
           "CPU of warm chunks")
    report("study: opening-level wagers (Perfect Pairs, Lucky Nines)", f["opening_compositions_per_second"],
           "comps/s", "(measured)", None)
    report("study: deal-faces-level wagers (Harmony, Heavenly 9)", f["deal_faces_compositions_per_second"],
           "comps/s", "(measured)", None)


FIGURES.append((study, True))


def paigow_figures() -> None:
    """Pai Gow from the exact tables shipped in the package (issue 19 item 5): whole
    `paigow` processes, and the two tables/ files per reading from a cold in-process cache."""
    from exactodds.paigow.analysis import _arrays, hand_outcomes
    from exactodds.report.tables import game_files

    exe = [sys.executable, "-m", "exactodds"]
    for extra in ([], ["--reading", "high-hand-first"]):
        cpu = child_cpu([*exe, "paigow", *extra], 5)
        report(f"`exactodds paigow {' '.join(extra)}`, whole process".replace(" `", "`"), cpu, "s", "< 1 s",
               cpu < 1, "median of 5 processes")
    times = []
    for _ in range(3):
        hand_outcomes.cache_clear()
        _arrays.cache_clear()
        t = time.process_time()
        game_files()
        times.append(time.process_time() - t)
    cpu = statistics.median(times)
    report("Pai Gow files of tables/ (both readings), cold cache", cpu, "s", "< 1 s", cpu < 1, "median of 3")


FIGURES.append((paigow_figures, True))


def bench_rationals(n: int = 20_000, n_left_to_right: int = 4_000) -> None:
    """Exact sums of many rationals with ~45-digit denominators: ``Fraction`` left to right,
    ``gmpy2.mpq`` left to right (if installed), and :func:`exactodds.exact.rational_sum`
    (pairwise ``Fraction``), all checked equal. Left-to-right sums are O(n²) in digits, so
    they run on ``n_left_to_right`` terms (the 20,000-term figure is ~25x that)."""
    import random
    from fractions import Fraction

    from exactodds.exact import rational_sum

    rng = random.Random(45)
    terms = [Fraction(rng.randrange(1, 10**44), rng.randrange(10**44, 10**45)) for _ in range(n)]
    head = terms[:n_left_to_right]
    t = time.process_time()
    exact = sum(head, Fraction(0))
    report(f"rationals: Fraction sum left to right, {len(head):,} terms", time.process_time() - t, "s",
           "(reference)", None)
    try:
        import gmpy2
    except ImportError:
        report("rationals: gmpy2.mpq (not installed)", 0.0, "s", "(skipped)", None)
    else:
        t = time.process_time()
        acc = gmpy2.mpq(0)
        for x in head:
            acc += gmpy2.mpq(x.numerator, x.denominator)
        got = Fraction(int(acc.numerator), int(acc.denominator))
        report(f"rationals: gmpy2.mpq left to right, {len(head):,} terms", time.process_time() - t, "s",
               "(faster than Fraction?)", None)
        assert got == exact
    t = time.process_time()
    assert rational_sum(head) == exact
    report(f"rationals: rational_sum (pairwise), {len(head):,} terms", time.process_time() - t, "s",
           "(faster than both)", None)
    t = time.process_time()
    rational_sum(terms)
    report(f"rationals: rational_sum (pairwise), {n:,} terms", time.process_time() - t, "s", "(measured)", None)


FIGURES.append((bench_rationals, True))


def _fresh_blackjack() -> None:
    """Empty the blackjack engine's process-wide caches (dealer tables, hand shapes, children, open
    actions, the hand lists), so that a figure measures what a fresh process would do."""
    from exactodds.blackjack import compiled, hands, node_graph, split_pattern
    from exactodds.spanish21 import figures

    node_graph._GRAPHS.clear()
    compiled._POLICY_PLANS.clear()
    compiled._SCRATCH.clear()
    compiled._NODE_SCRATCH.clear()
    hands._TABLES.clear()
    hands._OPENS.clear()
    hands._SHAPES.clear()
    hands._CHILDREN.clear()
    for cached in (hands._hands, hands._removed, hands._dealt, hands._falling, compiled._primes,
                   compiled._factorials, compiled._limb_powers, compiled._residues, compiled._comb_residues, compiled._bounds,
                   split_pattern.pattern_form,
                   split_pattern.rank_weights, split_pattern.role_terms, figures._orders):
        cached.cache_clear()


def bench_spanish21() -> None:
    """Spanish 21 (§ 551): one rule set, the whole game on 8 decks (composition-dependent), and the
    basic-strategy chart from the solved game; one run each (about 15 s of CPU), fresh dealer tables."""
    if ARGS.quick:
        return
    from exactodds.blackjack import engine
    from exactodds.blackjack.rules import Rules
    from exactodds.blackjack.shoe import SpanishShoe
    from exactodds.spanish21.figures import basic_chart

    _fresh_blackjack()
    t = time.process_time()
    game = engine.Game(SpanishShoe.standard(8), Rules())
    result = game.solve()
    whole = time.process_time() - t
    report("spanish21: whole game, 8 decks, § 551 as written", whole, "s CPU", "<= 60", whole <= 60)
    t = time.process_time()
    basic_chart(game, result)
    chart = time.process_time() - t
    report("spanish21: strategy chart from the solved game", chart, "s CPU", "<= 10", chart <= 10)


FIGURES.append((bench_spanish21, True))


def bench_blackjack() -> None:
    """Issue 27's targets: § 551 as written, 8 decks, the whole game with the basic chart (solve,
    chart, the chart's return) <= 3 s CPU and <= 300 MB; standard rules, 8 decks, CDZ-, within 2x
    the peer's CPU (Farmer's calculator, when ``scripts/peer_blackjack.py`` is present and has built it).

    With numba (the ``fast`` extra) the engine's hand solvers are compiled
    (:mod:`exactodds.blackjack.compiled`): numba's import and the kernels' load (from the on-disk
    cache, or their compilation on a first run) are measured on their own line, before the targets;
    each target is also measured on the Python path (``EXACTODDS_PURE=1``) for comparison, and with
    the dealer's tables left from the run before (the hand solvers and the round alone). Each time is
    the median of 3 runs from empty engine caches (a single run swings by a second on the shared
    machine); the memory is a fresh child process's peak over the whole game, imports included."""
    if ARGS.quick:
        return
    from exactodds.blackjack import compiled, engine
    from exactodds.blackjack.rules import STANDARD_RULES, Rules
    from exactodds.blackjack.shoe import SpanishShoe
    from exactodds.spanish21.figures import spanish21_analysis

    if compiled.solver_class() is compiled.CompiledSolver:
        t = time.process_time()
        _fresh_blackjack()
        first = engine.Game(SpanishShoe.standard(1), Rules()).solver(5)
        assert isinstance(first, compiled.CompiledSolver)
        first.evaluated()  # import, load or compile
        spanish21_analysis(SpanishShoe.standard(1), Rules(), 1, basic=True)  # every other kernel (chart, dealer)
        report("blackjack: numba import and the kernels' load (with a one-deck game)", time.process_time() - t,
               "s CPU", "(first run: compiles)", None)

    # the objects the earlier groups left are not this game's: out of the collector's sweeps (a user's
    # run starts in a fresh process), as a fresh process would have them
    gc.collect()
    gc.freeze()

    def whole_game() -> None:
        spanish21_analysis(SpanishShoe.standard(8), Rules(), 8, basic=True)

    def standard() -> None:
        engine.Game(SpanishShoe.from_shoe(Shoe.standard(8), tens=True),
                    STANDARD_RULES.with_(post_split="cdz", resplit_optional=False)).solve()

    def timed(fn: Callable[[], None], pure: bool = False, fresh: bool = True, runs: int = 3) -> float:
        """The median CPU seconds of ``runs`` runs of ``fn``, each from empty engine caches (``fresh``)."""
        old = os.environ.get("EXACTODDS_PURE")
        if pure:
            os.environ["EXACTODDS_PURE"] = "1"
        try:
            times = []
            for _ in range(runs):
                if fresh:
                    _fresh_blackjack()
                t = time.process_time()
                fn()
                times.append(time.process_time() - t)
            return statistics.median(times)
        finally:
            if pure and old is None:
                del os.environ["EXACTODDS_PURE"]

    dealer_runs: list[float] = []
    whole_runs: list[float] = []
    for _ in range(3):
        with _dealer_cpu() as dealer:
            whole_runs.append(timed(whole_game, runs=1))
        dealer_runs.append(dealer[0])
    whole = statistics.median(whole_runs)
    report("blackjack: § 551 as written, 8 decks, whole game with the basic chart", whole, "s CPU", "<= 3",
           whole <= 3, f"(median of 3: {', '.join(f'{w:.2f}' for w in whole_runs)})")
    part = statistics.median(dealer_runs)
    report("blackjack: of which the dealer's tables", part, "s CPU", "<= 1",
           part <= 1, "(compiled)" if "exactodds.blackjack.dealer_kernel" in sys.modules else "(numpy path)")
    peak = _whole_game_peak_mb()
    report("blackjack: peak memory of a process running it (numba loaded)", peak, "MB", "<= 300", peak <= 300)
    report("blackjack:   the same, dealer tables kept (hand solvers and round)", timed(whole_game, fresh=False),
           "s CPU", "(measured)", None)
    # ours and the peer's interleaved (3 solves in a fresh process, then 3 peer runs, three times):
    # the shared host's speed swings by half for minutes at a time, so both see the same phases
    peer_run, recorded = _peer_runner()
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(3):
        ours += _standard_in_fresh_process()
        if peer_run is not None:
            theirs += [peer_run() for _ in range(3)]
    std = statistics.median(ours)
    peer = statistics.median(theirs) if theirs else recorded
    how = "measured beside it" if theirs else "recorded"
    report("blackjack: standard rules, 8 decks, CDZ-, composition-dependent", std, "s CPU",
           "<= 2x peer" + (f" ({2 * peer:.2f}, {how})" if peer is not None else " (peer not built)"),
           None if peer is None else std <= 2 * peer,
           f"(fresh processes, median of 9: {min(ours):.2f}-{max(ours):.2f}"
           + (f"; peer {min(theirs):.2f}-{max(theirs):.2f}" if theirs else "") + ")")
    report("blackjack:   the same in this process, after the groups before", timed(standard), "s CPU",
           "(measured)", None)
    report("blackjack:   the same, dealer tables kept (hand solvers and round)", timed(standard, fresh=False),
           "s CPU", "(measured)", None)
    if compiled.solver_class() is compiled.CompiledSolver:
        report("blackjack:   § 551 whole game, Python hand solvers (EXACTODDS_PURE=1)", timed(whole_game, pure=True, runs=1),
               "s CPU", "(comparison)", None)
        report("blackjack:   standard CDZ-, Python hand solvers (EXACTODDS_PURE=1)", timed(standard, pure=True, runs=1),
               "s CPU", "(comparison)", None)
    gc.unfreeze()


def _standard_in_fresh_process() -> list[float]:
    """The standard 8-deck CDZ- game's CPU seconds in a fresh process, as a user's run has it: the
    kernels loaded first (a one-deck game), then three solves from empty engine caches
    (:func:`_fresh_blackjack`); the three. Measured in a child, as a user's run starts; the
    in-process figure is printed beside it (on this shared host either can be the slower one: the
    host's speed swings by half for minutes at a time)."""
    code = ("import sys, time; sys.path.insert(0, 'scripts'); import bench; "
            "from exactodds.blackjack import dealer_kernel, engine, hand_kernel; "
            "from exactodds.blackjack.rules import STANDARD_RULES; "
            "from exactodds.blackjack.shoe import SpanishShoe; "
            "from exactodds.game.cards import Shoe; "
            "rules = STANDARD_RULES.with_(post_split='cdz', resplit_optional=False); "
            "engine.Game(SpanishShoe.from_shoe(Shoe.standard(1), tens=True), rules).solve(); "
            "out = []\n"
            "for _ in range(3):\n"
            "    bench._fresh_blackjack(); t = time.process_time(); "
            "engine.Game(SpanishShoe.from_shoe(Shoe.standard(8), tens=True), rules).solve(); "
            "out.append(time.process_time() - t)\n"
            "print(*out)")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return [float(x) for x in got.stdout.split()[-3:]]


def _whole_game_peak_mb() -> float:
    """The peak resident memory (MB) of a fresh process that runs § 551's whole 8-deck game with the
    basic chart, its imports included (numba's, with the ``fast`` extra): what a user's run holds.
    Read as the child's own ``VmHWM`` (``/proc/self/status``): its ``ru_maxrss`` would carry over,
    through the exec, the pages of this process it was forked from."""
    code = ("from exactodds.blackjack.rules import Rules; "
            "from exactodds.blackjack.shoe import SpanishShoe; "
            "from exactodds.spanish21.figures import spanish21_analysis; "
            "spanish21_analysis(SpanishShoe.standard(8), Rules(), 8, basic=True); "
            "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return int(out.stdout.split()[-1]) / 1024


@contextmanager
def _dealer_cpu() -> Iterator[list[float]]:
    """CPU seconds spent in the dealer's tables (:class:`~exactodds.blackjack.dealer.DealerTable`:
    built, asked for compositions, residues, the rows the compiled solvers read, the Python ints
    the Python solvers read) while the block runs: the outermost calls timed."""
    from exactodds.blackjack.dealer import DealerTable

    spent = [0.0]
    depth = [0]
    saved = {name: getattr(DealerTable, name) for name in ("__init__", "request", "request_removed", "residues",
                                                              "rows_of", "raw")}

    def timed(fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            if depth[0]:
                return fn(*args, **kwargs)
            depth[0] += 1
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - t
                depth[0] -= 1
        return run

    for name, fn in saved.items():
        setattr(DealerTable, name, timed(fn))
    try:
        yield spent
    finally:
        for name, fn in saved.items():
            setattr(DealerTable, name, fn)


def _peer_runner() -> tuple[Callable[[], float] | None, float | None]:
    """The peer's engine on standard 8 decks CDZ- (case ``8d-s17-das-cdz`` of
    ``scripts/peer_blackjack.py``): a function that runs it once and returns its CPU seconds, when
    ``EXACTODDS_PEER_SRC`` names its checkout and g++ builds it (else None); and the figure recorded
    beside its printed values in ``tests/data/peer_blackjack.json`` (measured on this machine kind)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import peer_blackjack

    case = next(c for c in peer_blackjack.CASES if c.name == "8d-s17-das-cdz")
    data = Path(__file__).resolve().parent.parent / "tests" / "data" / "peer_blackjack.json"
    found = [c for c in json.loads(data.read_text())["cases"] if c["name"] == case.name]
    recorded = float(found[0]["engine_cpu_seconds"]) if found else None
    source = os.environ.get("EXACTODDS_PEER_SRC")
    if source:
        try:
            core = peer_blackjack.build_core(Path(source), Path.home() / ".cache" / "exactodds" / "peer")
            return (lambda: float(peer_blackjack.peer_engine_cpu_seconds(case, core))), recorded
        except Exception as exc:  # the bench reports what it can
            print(f"  (peer not run: {exc})")
    return None, recorded


FIGURES.append((bench_blackjack, True))


def main() -> None:
    runs = max(ARGS.runs, 20)
    if not ARGS.json:
        print(f"exactodds benchmark: CPU time, medians over {runs} new compositions unless stated; targets in brackets")
    for fn, slow in FIGURES:
        if not (slow and ARGS.quick):
            fn()


# Add a group of figures above: a function, then its line ``FIGURES.append((function, slow))``.

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="skip the slow figures (EOR, tables, simulator, ...)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--runs", type=int, default=20, help="repetitions (at least 20)")
    ARGS = ap.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
    if ARGS.json:
        print(json.dumps({"figures": RESULTS, "machine": {"cpus": os.cpu_count()}}, indent=2))
