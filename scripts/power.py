#!/usr/bin/env python3
"""Detection power of ``exactodds crosscheck``: rounds needed to catch each fault.

For each faulty dealer (see ``exactodds.simulation.faults``) and a doubling number of
rounds, hand logs are dealt with several seeds and cross-checked at ``--alpha``; the
figure reported is the smallest number of rounds at which most seeds are caught. Rule
faults are measured twice: by the whole cross-check (the rule audit names the first
wrong round) and by the statistics alone (what a counts file or a log without the audit
would show). Printed, never asserted. Run: ``python scripts/power.py [--quick]``.

``--shoe`` measures instead the shoe-mode dealers of ``faults.shoe_rounds`` (issue 18):
for each defect class, the rounds (from a list of sizes up to its target) at which the
cross-check flags it at ``--alpha`` with Holm's correction, on 8-deck § 629a.5 logs
(burn, cover card 14 from the bottom, one more round); the 16-bit LCG at its first
repeated shoe (65,536 shoes). ``--false-alarms N`` cross-checks ``N`` correct shoe-mode
logs of ``--rounds`` rounds (seeds 10,000 on) and prints how many are flagged; with
``--vary`` every other log places its cover card 14-16 cards from the bottom, shoe by
shoe, its header saying ``cover=14..16`` or (every fourth log) no cover at all.

Issue 28: ``--shoe`` also measures the bottom-60-sorted shuffle and, with ``--vary``,
correct logs whose cover varies per shoe over 14..16 (header ``cover=14..16`` and no
cover header: they should pass at every size) and the dealer defects under that cover.
Every log is checked the way ``exactodds crosscheck`` checks it (``shoetests.log_cover``:
the header's cover, else at least 14 with the prefix surveyed from the log).

``--shufflecheck`` measures ``exactodds shufflecheck`` (issue 28) on the generated shufflers
of ``exactodds.simulation.shufflers``: for each, at 10^2, 10^3 and 10^4 shuffled 8-deck
orders (``--orders``), how many of ``--seeds`` files it flags and by which test, each file
written in the shuffle-file format and read back as a lab's would be; with ``--lcg``, the
16-bit LCG at 65,536 and 65,537 orders (its period). ``--shufflecheck --false-alarms N``
checks ``N`` files of correct orders (``--orders``, seeds 20,000..) and prints how many are
flagged.
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
from exactodds.simulation.faults import faulty_rounds, shoe_rounds
from exactodds.simulation.handlog import (
    LogFile,
    log_header,
    read_file,
    render_log_chunk,
)
from exactodds.simulation.shoetests import log_cover
from exactodds.simulation.simulate import Cover, DrawRules, HandLog, simulate

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


SHOE_TARGETS: list[tuple[str, str, list[int]]] = [
    ("riffle7", "7 GSR riffles of the previous shoe's discards", [10_000, 30_000, 100_000]),
    ("riffle3", "3 GSR riffles of the previous shoe's discards", [10_000, 30_000, 100_000]),
    ("riffle1strip", "1 GSR riffle of the discards + strip cut", [10_000, 30_000, 100_000]),
    ("replay", "1 in 100 shoes a replay of the shoe before (straddling pairs)", [10_000, 30_000, 100_000]),
    ("bottom", "Player's third card from the bottom 1 % of the time", [30_000, 100_000, 300_000, 1_000_000]),
    ("drop9", "1 in 200 Banker natural-9 wins dropped (renumbered)", [100_000, 300_000, 1_000_000, 3_000_000]),
    ("naive", "naive swap shuffle of factory order", [300_000, 1_000_000, 3_000_000, 10_000_000]),
    ("sorted60", "bottom 60 cards of every shoe left sorted", [10_000, 30_000, 100_000, 300_000, 1_000_000]),
]

VARY = Cover(14, 16)
FIXED = Cover(14, 14)
VARY_TARGETS: list[tuple[str, str, list[int], str | None]] = [
    ("none", "correct, cover 14-16 per shoe, header cover=14..16 (should pass)", [100_000, 1_000_000], "14..16"),
    ("none", "correct, cover 14-16 per shoe, no cover header (should pass)", [100_000, 1_000_000], None),
    ("bottom", "bottom dealing 1 %, cover 14-16, header cover=14..16", [30_000, 100_000], "14..16"),
    ("drop9", "1 in 200 natural-9 wins dropped, cover 14-16, header cover=14..16",
     [100_000, 300_000, 1_000_000], "14..16"),
    ("sorted60", "bottom 60 sorted, cover 14-16, no cover header", [10_000, 100_000, 1_000_000], None),
]


def shoe_write(path: str, rounds: int, fault: str, seed: int, cover: Cover = FIXED,
               header: str | None = "14") -> None:
    """A shoe-mode log dealt with ``cover`` (a range: drawn per shoe); ``header``: the
    ``# cover=`` written (``None``: none)."""
    meta: dict[str, object] = {"decks": 8} if header is None else {"decks": 8, "cover": header}
    with open(path, "wb") as fh:
        fh.write(log_header(meta, True))
        for b in shoe_rounds(rounds, fault, seed, batch=2048, cover=cover):
            fh.write(render_log_chunk(b))


def shoe_check(path: str, alpha: float) -> tuple[bool, list[str]]:
    """Cross-check ``path`` as ``exactodds crosscheck`` does (8 decks): its header's cover, else
    at least 14 with the comparable prefix surveyed from the log."""
    data = read_file(path)
    assert isinstance(data, LogFile)
    cover, prefix, _ = log_cover(path, data.meta, EIGHT.size)
    r = crosscheck_log(data, EIGHT, cover, alpha, prefix_cover=prefix)
    return not r.consistent, r.failures()


def vary_power(alpha: float, seeds: int, cap: int) -> None:
    print(f"Shoe-mode logs, 8 decks, cover card 14-16 cards from the bottom drawn per shoe: flagged by crosscheck at "
          f"alpha {alpha:g} (Holm), of {seeds} seed(s):", flush=True)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "log.csv")
        for fault, name, sizes, header in VARY_TARGETS:
            for n in [s for s in sizes if s <= cap]:
                t = time.process_time()
                hits = 0
                why = ""
                for seed in range(seeds):
                    shoe_write(path, n, fault, 500 + seed, VARY, header)
                    flagged, fails = shoe_check(path, alpha)
                    hits += flagged
                    why = why or (fails[0][:90] if fails else "")
                print(f"  {name:66s} {n:>10,}: {hits} of {seeds} flagged  {why}  ({time.process_time() - t:.0f} s CPU)",
                      flush=True)
                if fault != "none" and hits * 2 > seeds:
                    break


def shoe_power(alpha: float, seeds: int, cap: int, lcg: bool) -> None:
    print(f"Shoe-mode logs, 8 decks, cover 14: rounds at which crosscheck flags each defect at alpha {alpha:g} "
          f"(Holm), majority of {seeds} seed(s):", flush=True)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "log.csv")
        for fault, name, sizes in SHOE_TARGETS:
            t = time.process_time()
            found, why = None, ""
            for n in [s for s in sizes if s <= cap]:
                hits = 0
                for seed in range(seeds):
                    shoe_write(path, n, fault, seed)
                    flagged, fails = shoe_check(path, alpha)
                    hits += flagged
                    why = why or (fails[0][:90] if fails else "")
                if hits * 2 > seeds:
                    found = n
                    break
            text = f"{found:,}" if found else f"not flagged up to {min(cap, sizes[-1]):,}"
            print(f"  {name:62s} {text:>24s}  by: {why}  ({time.process_time() - t:.0f} s CPU)", flush=True)
        if lcg:
            t = time.process_time()
            per_shoe = None
            out = []
            for shoes in (1 << 16, (1 << 16) + 1):
                # every round of shoes 0 .. shoes-2 and the first 6 rounds (at least 24 cards) of the last
                rounds = 0
                for b in shoe_rounds(90 * shoes, "lcg16", 1, batch=4096):
                    assert b.shoe is not None
                    rounds += int((b.shoe < shoes - 1).sum())
                rounds += 6
                per_shoe = rounds
                shoe_write(path, rounds, "lcg16", 1)
                flagged, fails = shoe_check(path, alpha)
                out.append((shoes, rounds, flagged, fails[0][:90] if fails else ""))
            for shoes, rounds, flagged, why in out:
                print(f"  16-bit LCG + Fisher-Yates, {shoes:,} shoes ({rounds:,} rounds): "
                      f"{'flagged by: ' + why if flagged else 'not flagged'}", flush=True)
            print(f"  ({time.process_time() - t:.0f} s CPU; {per_shoe:,} rounds)", flush=True)


def false_alarms(logs: int, rounds: int, alpha: float, vary: bool = False, first: int = 0) -> None:
    flagged = 0
    kinds = {"cover 14": 0, "cover 14-16, header 14..16": 0, "cover 14-16, no header": 0}
    t = time.process_time()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "log.csv")
        for i in range(first, first + logs):
            seed = 10_000 + i
            if vary and i % 2:
                header = None if i % 4 == 3 else "14..16"
                kind = "cover 14-16, no header" if header is None else "cover 14-16, header 14..16"
                shoe_write(path, rounds, "none", seed, VARY, header)
            else:
                kind = "cover 14"
                shoe_write(path, rounds, "none", seed)
            kinds[kind] += 1
            bad, fails = shoe_check(path, alpha)
            if bad:
                flagged += 1
                print(f"  seed {seed} ({kind}): flagged: {fails}", flush=True)
            if (i - first + 1) % 25 == 0:
                print(f"  ... {i - first + 1} logs, {flagged} flagged, {time.process_time() - t:.0f} s CPU", flush=True)
    made = ", ".join(f"{v} {k}" for k, v in kinds.items() if v)
    print(f"False alarms: {flagged} of {logs} correct shoe-mode logs of {rounds:,} rounds ({made}; seeds "
          f"{10_000 + first:,}-{10_000 + first + logs - 1:,}) flagged at alpha {alpha:g} (expected at most "
          f"{alpha * logs:g}); {time.process_time() - t:.0f} s CPU", flush=True)


def shuffle_file(path: str, orders: int, shuffler: str, seed: int) -> None:
    from exactodds.simulation.shufflers import write_orders

    with open(path, "w") as fh:
        write_orders(fh, orders, shuffler, seed)


def shuffle_flagged(path: str, alpha: float) -> tuple[bool, list[str]]:
    from exactodds.simulation.shufflecheck import check_shuffles

    r = check_shuffles(path, alpha=alpha)
    return not r.consistent, r.failures()


def shufflecheck_power(alpha: float, seeds: int, sizes: list[int], lcg: bool, only: list[str] | None = None) -> None:
    from exactodds.simulation.shufflers import SHUFFLERS

    print(f"Shuffled 8-deck orders: files flagged by shufflecheck at alpha {alpha:g} (Holm), of {seeds} seed(s) "
          "per size:", flush=True)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "orders.txt")
        for name, what in SHUFFLERS.items():
            if only is not None and name not in only:
                continue
            cells = []
            for n in sizes:
                t = time.process_time()
                hits, why = 0, ""
                for seed in range(seeds):
                    shuffle_file(path, n, name, seed)
                    flagged, fails = shuffle_flagged(path, alpha)
                    hits += flagged
                    why = why or (fails[0].split(":")[0] if fails else "")
                cells.append(f"{n:,}: {hits}/{seeds}" + (f" ({why})" if why else "") +
                             f" [{time.process_time() - t:.0f} s]")
            print(f"  {name:13s} {what}\n      " + "; ".join(cells), flush=True)
        if lcg:
            for n in (1 << 16, (1 << 16) + 1):
                t = time.process_time()
                shuffle_file(path, n, "lcg16", 1)
                flagged, fails = shuffle_flagged(path, alpha)
                print(f"  lcg16 at {n:,} orders: {'flagged by ' + fails[0][:100] if flagged else 'not flagged'} "
                      f"[{time.process_time() - t:.0f} s]", flush=True)


def shufflecheck_false_alarms(files: int, orders: int, alpha: float) -> None:
    flagged = 0
    t = time.process_time()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "orders.txt")
        for i in range(files):
            shuffle_file(path, orders, "uniform", 20_000 + i)
            bad, fails = shuffle_flagged(path, alpha)
            if bad:
                flagged += 1
                print(f"  seed {20_000 + i}: flagged: {fails}", flush=True)
            if (i + 1) % 25 == 0:  # a run cut short still says what it checked
                print(f"  after {i + 1} files: {flagged} flagged ({time.process_time() - t:.0f} s CPU)", flush=True)
    print(f"False alarms: {flagged} of {files} files of {orders:,} correct 8-deck orders flagged at alpha {alpha:g} "
          f"(expected at most {alpha * files:g}); {time.process_time() - t:.0f} s CPU", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--alpha", type=float, default=0.001)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="lower caps")
    ap.add_argument("--shoe", action="store_true", help="shoe-mode defects (issue 18)")
    ap.add_argument("--cap", type=int, default=10_000_000, help="--shoe: largest log tried")
    ap.add_argument("--lcg", action="store_true", help="--shoe or --shufflecheck: also the 16-bit LCG at its period "
                    "(~11 M rounds; 65,537 orders)")
    ap.add_argument("--false-alarms", type=int, default=0, metavar="N", help="cross-check N correct shoe-mode logs")
    ap.add_argument("--rounds", type=int, default=100_000, help="--false-alarms: rounds per log")
    ap.add_argument("--first", type=int, default=0, help="--false-alarms: the first log's number (seed 10,000 + it)")
    ap.add_argument("--vary", action="store_true", help="--false-alarms: every other log with a cover varying over "
                    "14..16; --shoe: the varying-cover table instead of the defect table")
    ap.add_argument("--shufflecheck", action="store_true", help="shuffled orders: generated shufflers (issue 28)")
    ap.add_argument("--orders", type=int, nargs="+", default=[100, 1000, 10_000],
                    help="--shufflecheck: orders per file (--false-alarms: the first)")
    ap.add_argument("--shufflers", nargs="+", help="--shufflecheck: only these generated shufflers")
    args = ap.parse_args()
    if args.shufflecheck:
        if args.false_alarms:
            shufflecheck_false_alarms(args.false_alarms, args.orders[0], args.alpha)
        else:
            shufflecheck_power(args.alpha, args.seeds, args.orders, args.lcg, args.shufflers)
        return
    if args.false_alarms:
        false_alarms(args.false_alarms, args.rounds, args.alpha, args.vary, args.first)
        return
    if args.shoe and args.vary:
        vary_power(args.alpha, args.seeds, args.cap)
        return
    if args.shoe:
        shoe_power(args.alpha, args.seeds, args.cap, args.lcg)
        return
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
