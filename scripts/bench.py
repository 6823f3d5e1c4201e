#!/usr/bin/env python3
"""Speed figures for exactodds: CPU-time medians, each printed beside its target.

A benchmark, never a timed test: the machine is shared and wall-clock time swings 2x,
so every figure is CPU time (``time.process_time``; a child process's through
``resource.getrusage``), the median over repetitions, each on shoe compositions new to
the process (8 decks less a few random cards) so that no per-shoe cache helps.

Run: ``python scripts/bench.py`` (``--quick`` skips the slow figures, ``--json`` prints
machine-readable output, ``--runs N`` sets the repetitions, at least 20 by default).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from exactodds.catalogue import CATALOGUE, core  # noqa: E402
from exactodds.engine.levels import COUP, LEVELS  # noqa: E402
from exactodds.figures.analysis import analyze  # noqa: E402
from exactodds.game.cards import FACES, Shoe  # noqa: E402

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


def batch_rate(level_name: str, size: int, seed: int) -> float:
    """Compositions per CPU-second of one ``price_batch`` call on ``size`` new compositions
    (median of three batches)."""
    level = LEVELS[level_name]
    rates = []
    for r in range(3):
        comps = np.array([s.counts for s in fresh_shoes(size, seed + r)])
        t = time.process_time()
        level.price_batch(comps)
        rates.append(size / (time.process_time() - t))
    return statistics.median(rates)


def child_cpu(args: list[str], runs: int) -> float:
    """Median CPU seconds (user + system) of a fresh process running ``args``."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def main() -> None:
    runs = max(ARGS.runs, 20)
    if not ARGS.json:
        print(f"exactodds benchmark: CPU time, medians over {runs} new compositions unless stated; targets in brackets")
    whole_catalogue(Shoe.standard(8))  # every level's table loaded (shipped arrays), settlements built
    ms = 1000 * cpu_median(core_wagers, fresh_shoes(runs, 1))
    report("core wagers, 11 paytables, one new 8-deck composition", ms, "ms", "<= 0.5 ms", ms <= 0.5)
    ms = 1000 * cpu_median(whole_catalogue, fresh_shoes(runs, 2))
    n = sum(len(w.paytables) for w in CATALOGUE.values())
    report(f"whole catalogue, {n} paytables, one new composition", ms, "ms", "<= 25 ms", ms <= 25)
    COUP.price_batch(np.array([s.counts for s in fresh_shoes(20, 3)]))  # compile the kernel once
    rate = batch_rate("coup", 2000, 4)
    report("batch pricing, coup level (2,000 compositions a call)", rate, "comps/CPU-s", ">= 10,000", rate >= 10_000)
    for name in ("opening-player-faces", "opening-nines", "deal-faces"):
        LEVELS[name].price_batch(np.array([s.counts for s in fresh_shoes(20, 5)]))
        rate = batch_rate(name, 500, 6)
        report(f"batch pricing, {name} level", rate, "comps/CPU-s", ">= 1,000", rate >= 1000)
    exe = [sys.executable, "-m", "exactodds"]
    cpu = child_cpu([*exe, "analyze", "banker"], 7)
    report("`exactodds analyze banker`, whole process", cpu, "s", "<= 0.35 s", cpu <= 0.35, "median of 7 processes")
    cpu = child_cpu([*exe, "--help"], 5)
    report("`exactodds --help`, whole process", cpu, "s", "(no target)", None, "median of 5 processes")
    if ARGS.quick:
        return
    from exactodds.figures.eor import bench_eor

    times = []
    for _ in range(3):
        t = time.process_time()
        bench_eor()
        times.append(time.process_time() - t)
    report("effects of removal, whole catalogue, 8 decks", statistics.median(times), "s", "<= 2 s",
           statistics.median(times) <= 2, "median of 3")
    from exactodds.report import tables as tables_mod
    from exactodds.report.tables import paigow_files

    for level in LEVELS.values():
        level._cache.clear()
    tables_mod.paigow_files = dict  # the baccarat tables alone; Pai Gow is measured next
    t = time.process_time()
    files = tables_mod.build_tables((6, 7, 8))
    cpu = time.process_time() - t
    tables_mod.paigow_files = paigow_files
    report(f"tables/ for 6, 7, 8 decks ({len(files)} files rendered in memory)", cpu, "s", "<= 2 s", cpu <= 2)
    t = time.process_time()
    paigow_files()
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
    from exactodds.simulation.simulate import bench_simulate

    rate = bench_simulate(10_000_000)
    report("simulator, fresh mode, 10M rounds", rate / 1e6, "M rounds/s", ">= 10", rate >= 10e6)
    from exactodds.simulation.crosscheck import bench_crosscheck

    rate = bench_crosscheck()
    report("crosscheck, reading and auditing a 2M-round log", rate / 1e3, "k rounds/s", ">= 500", rate >= 500e3)
    try:
        from exactodds.figures.study import bench_study
    except ImportError:
        return
    f = bench_study()
    report(f"study: {int(f['core_shoes']):,} 8-deck shoes, 5 core wagers, {int(f['core_workers'])} workers",
           f["core_seconds"], "s wall", "(measured)", None, f"{f['core_compositions_per_second']:,.0f} comps/s wall")
    report("study: 100,000 shoes, extrapolated from that run", f["core_100k_shoes_minutes_extrapolated"],
           "min wall", "<= 5 min", f["core_100k_shoes_minutes_extrapolated"] <= 5)
    report("study: 100,000 shoes on two free cores (worker CPU time)", f["core_100k_shoes_minutes_on_free_cores"],
           "min", "<= 5 min", f["core_100k_shoes_minutes_on_free_cores"] <= 5)
    report("study: opening-level wagers (Perfect Pairs, Lucky Nines)", f["opening_compositions_per_second"],
           "comps/s", ">= 1,000", f["opening_compositions_per_second"] >= 1000)
    report("study: deal-faces-level wagers (Harmony, Heavenly 9)", f["deal_faces_compositions_per_second"],
           "comps/s", ">= 1,000", f["deal_faces_compositions_per_second"] >= 1000)



def bench_spanish21() -> None:
    """Spanish 21 (§ 551): one rule set, the whole game on 8 decks (composition-dependent), and the
    basic-strategy chart with its return; one run each (minutes of CPU), fresh caches."""
    if ARGS.quick:
        return
    from exactodds.spanish21 import engine
    from exactodds.spanish21.figures import basic_chart
    from exactodds.spanish21.rules import Rules
    from exactodds.spanish21.shoe import SpanishShoe

    engine._dealer.cache_clear()
    t = time.process_time()
    game = engine.Game(SpanishShoe.standard(8), Rules())
    result = game.solve()
    whole = time.process_time() - t
    report("spanish21: whole game, 8 decks, § 551 as written", whole, "s CPU", "<= 60", whole <= 60)
    t = time.process_time()
    basic_chart(game, result)
    chart = time.process_time() - t
    report("spanish21: strategy chart from the solved game", chart, "s CPU", "<= 10", chart <= 10)

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="skip the slow figures (EOR, tables, simulator, ...)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--runs", type=int, default=20, help="repetitions (at least 20)")
    ARGS = ap.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
    bench_spanish21()
    if ARGS.json:
        print(json.dumps({"figures": RESULTS, "machine": {"cpus": os.cpu_count()}}, indent=2))
