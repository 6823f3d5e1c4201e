"""``simulate --game``: real rounds of a game of the seam, against its exact figures.

:func:`simulate_game` asks the game (:meth:`exactodds.game.protocol.Game.simulate`) to deal
``rounds`` rounds under each player strategy from one seed, each round's net result per unit,
and sets the sample beside the exact table (:meth:`~exactodds.game.protocol.Game.outcome_table`):
per outcome the count dealt and the count expected; the sample mean net result per unit (exact,
``p/q``); its standard error from the exact σ, ``SE = σ/√n``; and ``z = (mean − R)/SE`` with ``R``
the exact return (|z| beyond 4 would say the simulator or the table is wrong). Where the exact
table is out of reach at this size (:class:`~exactodds.errors.OutOfReach`: a Spanish 21 round with
resplits from a full shoe) the exact return still is (:meth:`~exactodds.game.protocol.Game.exact_return`):
the rows are the nets dealt, with no expected count, and SE comes from the sample's own σ
(``s² = Σ(x − mean)²/(n − 1)``, exact), which the output states. Counts and the mean are exact; SE
and z are irrational and shown as decimals from integer square roots (no float).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from exactodds.errors import InputError, OutOfReach
from exactodds.exact import decimal, ratio, significant, sqrt_fraction
from exactodds.game.protocol import Game, OutcomeTable
from exactodds.version import __version__

if TYPE_CHECKING:
    from exactodds.io.progress import Progress

Z_LIMIT: Final = 4
"""|z| at most this: the sample agrees with the exact return."""

EXACT_SIGMA: Final = "the exact σ"
SAMPLE_SIGMA: Final = "the sample's σ (the exact distribution is out of reach at this size)"


def simulate_game(game: Game, rules: Any, rounds: int, seed: int, progress: Progress | None = None) -> dict[str, Any]:
    """Every strategy of ``game`` dealt ``rounds`` times from ``seed``, against the exact figures;
    ``progress`` told as each strategy's work advances (its share of one bar)."""
    out = []
    count = len(game.strategies)
    for k, s in enumerate(game.strategies):
        told: Progress | None = None
        if progress is not None:
            def told(done: int, total: int, label: str, k: int = k, report: Progress = progress) -> None:
                report(k * total + done, count * total, label)
        dealt = game.simulate(rules, s, rounds, seed, told)
        if dealt is None:
            raise InputError(f"{game.title} has no simulator")
        tally = Counter(dealt)
        mean = sum((net * n for net, n in tally.items()), Fraction(0)) / rounds
        table: OutcomeTable | None
        why: str | None = None
        try:
            table = game.outcome_table(rules, s)
            exact = table.return_
        except OutOfReach as e:
            table, why = None, str(e)
            exact = game.exact_return(rules, s)
        if table is not None:
            nets = [o.net for o in table.outcomes]
            if len(set(nets)) != len(nets) or not set(tally) <= set(nets):
                raise AssertionError("internal: a dealt net is not one row of the exact table")
            variance, sigma_from = table.variance, EXACT_SIGMA
            rows = [{"outcome": o.name, "pays": ratio(o.net), "count": tally.get(o.net, 0),
                     "expected_count": ratio(table.probability(o) * rounds)} for o in table.outcomes]
        else:
            variance = (sum((n * (net - mean) ** 2 for net, n in tally.items()), Fraction(0)) / (rounds - 1)
                        if rounds > 1 else Fraction(0))
            sigma_from = SAMPLE_SIGMA
            rows = [{"outcome": f"net {ratio(net)}", "pays": ratio(net), "count": tally[net], "expected_count": None}
                    for net in sorted(tally)]
        se = sqrt_fraction(variance / rounds, 40)
        z = None if se == 0 else (mean - exact) / se
        out.append({
            "strategy": s, "outcomes": rows,
            "mean": ratio(mean), "mean_decimal": decimal(mean, 8),
            "exact_return": ratio(exact), "exact_return_decimal": decimal(exact, 8),
            "standard_error": significant(se, 15), "standard_error_from": sigma_from, "out_of_reach": why,
            "z": None if z is None else significant(z, 6),
            "agrees": z is None or abs(z) <= Z_LIMIT})
    return {"game": game.id, "title": game.title, "rounds": rounds, "seed": seed, "strategies": out,
            "statement": f"z = (mean − exact return)/SE, SE = σ/√rounds (σ as each strategy states); "
                         f"|z| ≤ {Z_LIMIT} agrees",
            "version": __version__}


__all__ = ["Z_LIMIT", "simulate_game"]
