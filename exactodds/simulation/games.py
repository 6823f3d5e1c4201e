"""``simulate --game``: real rounds of a game of the seam, against its exact outcome table.

:func:`simulate_game` asks the game (:meth:`exactodds.game.protocol.Game.simulate`) to deal
``rounds`` rounds under each player strategy from one seed, and sets the sample beside the
exact table (:meth:`~exactodds.game.protocol.Game.outcome_table`): per outcome the count dealt
and the count expected; the sample mean net result per unit (exact, ``p/q``); its standard
error from the exact σ, ``SE = σ/√n``; and ``z = (mean − R)/SE`` with ``R`` the exact return
(|z| beyond 4 would say the simulator or the table is wrong). Counts and the mean are exact;
SE and z are irrational and shown as decimals from integer square roots (no float).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any, Final

from exactodds.errors import InputError
from exactodds.exact import ratio, significant, sqrt_fraction
from exactodds.game.protocol import Game
from exactodds.version import __version__

Z_LIMIT: Final = 4
"""|z| at most this: the sample agrees with the exact return."""


def simulate_game(game: Game, rules: Any, rounds: int, seed: int) -> dict[str, Any]:
    """Every strategy of ``game`` dealt ``rounds`` times from ``seed``, against the exact table."""
    out = []
    for s in game.strategies:
        dealt = game.simulate(rules, s, rounds, seed)
        if dealt is None:
            raise InputError(f"{game.title} has no simulator")
        t = game.outcome_table(rules, s)
        tally = Counter(dealt)
        mean = sum((t.outcomes[i].net * n for i, n in tally.items()), Fraction(0)) / rounds
        se = sqrt_fraction(t.variance / rounds, 40)
        z = None if se == 0 else (mean - t.return_) / se
        out.append({
            "strategy": s,
            "outcomes": [{"outcome": o.name, "pays": ratio(o.net), "count": tally.get(i, 0),
                          "expected_count": ratio(t.probability(o) * rounds)} for i, o in enumerate(t.outcomes)],
            "mean": ratio(mean), "exact_return": ratio(t.return_), "standard_error": significant(se, 15),
            "z": None if z is None else significant(z, 6),
            "agrees": z is None or abs(z) <= Z_LIMIT})
    return {"game": game.id, "title": game.title, "rounds": rounds, "seed": seed, "strategies": out,
            "statement": f"z = (mean − exact return)/SE, SE = σ/√rounds from the exact σ; |z| ≤ {Z_LIMIT} agrees",
            "version": __version__}


__all__ = ["Z_LIMIT", "simulate_game"]
