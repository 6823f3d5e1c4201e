#!/usr/bin/env python3
"""Speed figures for exactodds, printed (never asserted): compare with the targets.

Run: ``python scripts/bench.py`` (``--quick`` skips the slow naive reference).

Targets (from the issues):
- core wagers (banker x6 paytables, player, tie x2, dragon-7, panda-8) for one 8-deck
  composition: <= 20 ms in-process, warm (the shoe-independent deal-shape table built).
- the whole catalogue (every wager and paytable) for one 8-deck composition: <= 200 ms.
- the tables/ build for 6/7/8 decks: <= 30 s.
- effects of removal for the whole catalogue at 8 decks: <= 60 s.
- simulator, fresh mode, main wagers: >= 10 million rounds per second.
- crosscheck, reading and auditing a hand log: >= 500,000 rounds per second (CPU).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exactodds.figures.analysis import analyze  # noqa: E402
from exactodds.game.cards import FACES, POINT_VALUE, RANKS, Shoe  # noqa: E402
from exactodds.catalogue import CATALOGUE, core  # noqa: E402
from exactodds.game.walk import RANK_CLASSES, VALUE_CLASSES, shape_table  # noqa: E402
from exactodds.engine.levels import coup_level_distribution  # noqa: E402
from exactodds.game.rules import banker_draws  # noqa: E402


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def core_wagers(shoe: Shoe) -> None:
    """Price every core wager and paytable from scratch for ``shoe``."""
    coup_level_distribution.cache_clear()
    for w in core.WAGERS:
        for p in w.paytables:
            a = analyze(w, p.id, shoe)
            a.house_edge, a.variance


def whole_catalogue(shoe: Shoe) -> None:
    """Price every wager and paytable of the catalogue for ``shoe`` (a shoe not seen before)."""
    for w in CATALOGUE.values():
        for p in w.paytables:
            a = analyze(w, p.id, shoe)
            a.house_edge, a.variance


def second_method_catalogue(shoe: Shoe) -> None:
    """certify's second method (exactodds.figures.second_method) for every wager and paytable."""
    from exactodds.figures.second_method import outcome_counts
    for w in CATALOGUE.values():
        for p in w.paytables:
            outcome_counts(w, p, shoe)


def cpu_ms(fn: Callable[[], object]) -> float:
    t = time.process_time()
    fn()
    return 1000 * (time.process_time() - t)


def naive_rank_loop(shoe: Shoe) -> int:
    """Reference: a plain 13-rank nested loop over every ordered deal, weights as it goes."""
    n = list(shoe.rank_counts())
    total = shoe.size
    v = [POINT_VALUE[r] for r in RANKS]
    banker_wins = 0
    R = range(13)
    for a in R:
        wa = n[a]; n[a] -= 1
        for b in R:
            wb = wa * n[b]; n[b] -= 1
            for c in R:
                wc = wb * n[c]; n[c] -= 1
                for d in R:
                    wd = wc * n[d]; n[d] -= 1
                    p, q = (v[a] + v[c]) % 10, (v[b] + v[d]) % 10
                    if wd:
                        if p >= 8 or q >= 8 or (p >= 6 and q >= 6):
                            banker_wins += wd * (total - 4) * (total - 5) * (q > p)
                        elif p <= 5:
                            for x in R:
                                wx = wd * n[x]; n[x] -= 1
                                p3 = (p + v[x]) % 10
                                if banker_draws(q, v[x]):
                                    for y in R:
                                        banker_wins += wx * n[y] * ((q + v[y]) % 10 > p3)
                                else:
                                    banker_wins += wx * (total - 5) * (q > p3)
                                n[x] += 1
                        else:
                            for y in R:
                                banker_wins += wd * n[y] * (total - 5) * ((q + v[y]) % 10 > p)
                    n[d] += 1
                n[c] += 1
            n[b] += 1
        n[a] += 1
    return banker_wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="skip the naive reference loop")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    shoe = Shoe.standard(8)
    print("exactodds benchmark (in-process, median of runs; targets in brackets)")
    t = time.perf_counter()
    shape_table(VALUE_CLASSES)
    print(f"  deal-shape table, value classes (once per process): {1000 * (time.perf_counter() - t):8.1f} ms")
    t = time.perf_counter()
    shape_table(RANK_CLASSES)
    print(f"  deal-shape table, rank classes (verification only): {1000 * (time.perf_counter() - t):8.1f} ms")
    paytables = sum(len(w.paytables) for w in core.WAGERS)
    core_ms = median_ms(lambda: core_wagers(shoe), args.runs)
    print(f"  core wagers ({paytables} paytables), one 8-deck shoe:  {core_ms:8.2f} ms   [<= 20 ms]")
    ms6 = median_ms(lambda: core_wagers(Shoe.standard(6)), args.runs)
    print(f"  core wagers ({paytables} paytables), one 6-deck shoe:  {ms6:8.2f} ms")
    whole_catalogue(shoe)  # build every level's shoe-independent structure once
    n = sum(len(w.paytables) for w in CATALOGUE.values())
    # each run prices a composition not seen before (8 decks less one card), so no per-shoe cache helps
    fresh = iter(shoe.remove([face]) for face in FACES)
    ms = median_ms(lambda: whole_catalogue(next(fresh)), max(3, args.runs // 3))
    print(f"  whole catalogue ({n} paytables), one 8-deck shoe: {ms:8.1f} ms   [<= 200 ms]")
    cold = cpu_ms(lambda: second_method_catalogue(shoe))  # builds its shoe-independent structures
    fresh2 = iter(shoe.remove([face]) for face in reversed(FACES))
    warm = statistics.median(cpu_ms(lambda: second_method_catalogue(next(fresh2))) for _ in range(5))
    print(f"  second method, whole catalogue, 8 decks (CPU):  {cold:8.1f} ms cold, {warm:.1f} ms per new shoe "
          f"[<= 2 s]")
    if not args.quick:
        from exactodds.report.tables import build_tables
        t = time.perf_counter()
        build_tables([6, 7, 8])
        print(f"  tables/ build, 6/7/8 decks (in memory):         {time.perf_counter() - t:8.1f} s    [<= 30 s]")
        try:
            from exactodds.simulation.simulate import bench_simulate
            rate = bench_simulate(10_000_000)
            print(f"  simulator, fresh mode, 10M rounds:              {rate / 1e6:8.1f} M rounds/s [>= 10]")
        except ImportError:
            print("  simulator: not available")
        from exactodds.simulation.crosscheck import bench_crosscheck
        print(f"  crosscheck, 2M-round hand log (CPU):            {bench_crosscheck() / 1e3:8.0f} k rounds/s [>= 500]")
        from exactodds.figures.eor import bench_eor
        print(f"  effects of removal, whole catalogue, 8 decks:   {bench_eor():8.1f} s    [<= 60 s]")
        t = time.perf_counter()
        naive = naive_rank_loop(shoe)
        naive_ms = 1000 * (time.perf_counter() - t)
        print(f"  naive 13-rank nested loop, Banker wins only:      {naive_ms:8.1f} ms "
              f"({naive_ms / core_ms:.0f}x the time of all core wagers; agrees: {naive == 2_292_252_566_437_888})")


if __name__ == "__main__":
    main()
