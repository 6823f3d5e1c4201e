"""Simulate the computed Spanish 21 strategy against the exact return (issue 17, item 4).

Plays ``--rounds`` rounds (default 10⁷) of the engine's composition-dependent strategy from a
freshly shuffled shoe each round (:mod:`exactodds.spanish21.simulate`), under § 551 as written
unless ``--wizard`` / ``--h17`` are given, and prints the observed mean, its standard error,
the exact return and z. Too slow for the test suite (minutes of CPU); the result of a run is
recorded in docs/spanish21.md.

Run: ``python scripts/spanish21_simulation.py --decks 8 --rounds 10000000 --seed 20261124``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exactodds.blackjack.engine import Game
from exactodds.blackjack.rules import WIZARD_RULES, Rules
from exactodds.blackjack.shoe import SpanishShoe
from exactodds.spanish21.simulate import simulate


def main() -> None:
    """Parse the options, solve, simulate, print one line of figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--wizard", action="store_true", help="the Wizard of Odds table's rules")
    ap.add_argument("--h17", action="store_true", help="dealer hits soft 17")
    args = ap.parse_args()
    rules = (WIZARD_RULES if args.wizard else Rules()).with_(hit_soft_17=args.h17)
    shoe = SpanishShoe.standard(args.decks)
    t = time.process_time()
    game = Game(shoe, rules)
    exact = game.solve().expected
    solve = time.process_time() - t
    t = time.process_time()
    sim = simulate(shoe, rules, args.rounds, args.seed, game=game)
    run = time.process_time() - t
    se = math.sqrt(sim.variance_of_mean)  # a statistic of observed data (display only)
    z = float(sim.mean - exact) / se
    print(f"decks={args.decks} rules={rules.changed() or 'as written'} rounds={args.rounds:,} seed={args.seed}")
    print(f"exact return {float(exact):.6%}  observed mean {float(sim.mean):.6%}  SE {se:.6%}  z {z:+.3f}  "
          f"({'within' if abs(z) <= 3 else 'OUTSIDE'} 3 SE)")
    print(f"CPU: solve {solve:.1f} s, simulation {run:.1f} s ({args.rounds / run:,.0f} rounds per CPU second)")


if __name__ == "__main__":
    main()
