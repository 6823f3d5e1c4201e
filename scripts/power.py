#!/usr/bin/env python3
"""Detection power of ``exactodds crosscheck``: rounds needed to catch each fault.

For each faulty dealer (see ``exactodds.simulation.faults``) and a doubling number of
rounds, hand logs are dealt with several seeds and cross-checked at ``--alpha``; the
figure reported is the smallest number of rounds at which most seeds are caught. Rule
faults are measured twice: by the whole cross-check (the rule audit names the first
wrong round) and by the statistics alone (what a counts file or a log without the audit
would show). Printed, never asserted. Run: ``python scripts/power.py [--quick]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exactodds.game import rules
from exactodds.game.cards import Shoe
from exactodds.simulation.crosscheck import crosscheck_log
from exactodds.simulation.faults import faulty_rounds
from exactodds.simulation.handlog import (
    LogFile,
    log_header,
    read_file,
    render_log_chunk,
)
from exactodds.simulation.simulate import DrawRules, HandLog, simulate

EIGHT = Shoe.standard(8)
BANKER_3_V_8 = DrawRules(banker_draws=lambda b, t: True if (b == 3 and t == 8) else rules.banker_draws(b, t))


def write(path: str, batches: list[HandLog]) -> None:
    with open(path, "wb") as fh:
        fh.write(log_header({"decks": 8}, False))
        fh.writelines(render_log_chunk(b) for b in batches)


def rule_fault(rounds: int, seed: int) -> list[HandLog]:
    out: list[HandLog] = []
    simulate(rounds, "fresh", EIGHT, seed=seed, draw_rules=BANKER_3_V_8, on_hands=out.append)
    return out


def detected(path: str, alpha: float, statistics_only: bool) -> bool:
    data = read_file(path)
    assert isinstance(data, LogFile)
    r = crosscheck_log(data, EIGHT, 14, alpha)
    if statistics_only:
        r = dataclasses.replace(r, audit=None)
    return not r.consistent


def rounds_needed(make: Callable[[int, int], list[HandLog]], alpha: float, seeds: int, start: int, cap: int,
                  statistics_only: bool = False) -> tuple[int | None, float]:
    t = time.process_time()
    n = start
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "log.csv")
        while n <= cap:
            hits = 0
            for seed in range(seeds):
                write(path, make(n, seed))
                hits += detected(path, alpha, statistics_only)
            if hits * 2 > seeds:
                return n, time.process_time() - t
            n *= 2
    return None, time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--alpha", type=float, default=0.001)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="lower caps")
    args = ap.parse_args()
    cap_slow = 1 << 17 if args.quick else 1 << 20
    faults: list[tuple[str, Callable[[int, int], list[HandLog]], int, int, bool]] = [
        ("Banker 3 draws v. a Player 8 (whole cross-check)", rule_fault, 250, 1 << 16, False),
        ("Banker 3 draws v. a Player 8 (statistics only)", rule_fault, 1000, 1 << 24, True),
        ("7 riffles from factory order, fresh shoe each round", lambda n, s: faulty_rounds(n, "riffle7", s),
         1000, cap_slow, False),
        ("naive swap shuffle from factory order", lambda n, s: faulty_rounds(n, "naive", s), 1000, cap_slow, False),
        ("uniform shuffle (control: should not be detected)", lambda n, s: faulty_rounds(n, "none", s),
         1 << 16, 1 << 16, False),
    ]
    print(f"Rounds needed for detection at alpha {args.alpha:g} (majority of {args.seeds} seeds; doubling):")
    for name, make, start, cap, stats in faults:
        n, cpu = rounds_needed(make, args.alpha, args.seeds, start, cap, stats)
        found = f"{n:,}" if n is not None else f"not detected up to {cap:,}"
        print(f"  {name:55s} {found:>28s}   ({cpu:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
