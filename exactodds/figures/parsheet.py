"""Par-sheet figures of an exact outcome table: what a gaming lab files beside it.

Every figure is derived from one exact :class:`~exactodds.game.protocol.OutcomeTable` (its
outcome counts and net pays) -- the one input of every game (issue 26: a baccarat
wager-paytable by :meth:`~exactodds.figures.analysis.Analysis.outcome_table`, a Pai Gow
strategy by its game's hook) -- so a certificate's ``verify`` recomputes them like the rest:

* **standard deviation** σ of one round's net result per unit wagered (√variance);
* **volatility index** ``VI = z·σ`` at 90 %, 95 % and 99 % (``z`` the two-sided normal quantile:
  the player's result after N rounds lies within ``N·R ± VI·√N`` units with about that
  confidence, R the return per unit);
* **confidence ranges** of the player's result after N = 10³ … 10⁷ rounds, in units
  (``N·R ± z·σ·√N``) and as a percentage of the amount wagered (``R ± z·σ/√N``: the
  hold's range);
* **maximum payout**: the largest win per unit wagered (the odds, ``X to 1``), the outcome
  that pays it, its probability and "1 in N", and what one round pays back per unit
  wagered (the win plus the wager returned);
* **hit frequency** and "1 in N"; the **cycle** (the number of equally likely card
  sequences the counts add up to);
* **player advantage**: whether the return is above 0 (the paytable favours the player).

Exact values are ``p/q``; the irrational ones (anything with σ) are decimals with 15
significant digits, computed from ``⌊√x·10⁴⁰⌋`` in integers (no float anywhere).

>>> from exactodds.figures.analysis import analyze
>>> from exactodds.game.cards import Shoe
>>> p = par_sheet(analyze("tie", "8to1", Shoe.standard(8)).outcome_table())
>>> p["volatility_index"]["95"], p["maximum_payout"]["win_per_unit"], p["player_advantage"]
('5.17601444240683', '8/1', False)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from exactodds.exact import percent, ratio, significant, sqrt_fraction
from exactodds.game.protocol import OutcomeTable

Z: Final = {"90": Fraction("1.6448536269514722"), "95": Fraction("1.9599639845400542"),
             "99": Fraction("2.5758293035489008")}
"""Two-sided standard normal quantiles (Φ⁻¹(0.95), Φ⁻¹(0.975), Φ⁻¹(0.995)) to 17 significant digits."""

ROUNDS: Final = (10**3, 10**4, 10**5, 10**6, 10**7)
"""The round counts of the confidence-range table."""

PLACES: Final = 40
"""Decimal places of the integer square roots behind every σ figure."""

DEFINITION: Final = (
    "σ: standard deviation of one round's net result per unit wagered (√variance). Volatility index "
    "VI = z·σ with z = 1.6448536269514722 (90 %), 1.9599639845400542 (95 %) or 2.5758293035489008 (99 %), "
    "the two-sided normal "
    "quantiles: after N rounds the player's net result lies within N·R ± VI·√N units (R the return per "
    "unit) with about that confidence, i.e. within R ± VI/√N of the amount wagered (the hold's range). "
    "Normal approximation; it needs N large against the wager's longest odds.")


def _sig(x: Fraction) -> str:
    return significant(x, 15)


def _pair(centre: Fraction, half: Fraction) -> list[str]:
    return [_sig(centre - half), _sig(centre + half)]


def par_sheet(t: OutcomeTable) -> dict[str, Any]:
    """The par-sheet figures of one exact outcome table (see the module docstring): the one
    function every game's par sheet comes from."""
    r, var = t.return_, t.variance
    sigma = sqrt_fraction(var, PLACES)
    paying = [o for o in t.outcomes if o.count > 0 and o.net > 0]
    top = max(paying, key=lambda o: o.net, default=None)
    hit = t.hit_frequency
    ranges = []
    for n in ROUNDS:
        spread = sqrt_fraction(var * n, PLACES)  # σ·√N, units
        per_unit = sqrt_fraction(var / n, PLACES)  # σ/√N, per unit wagered
        ranges.append({
            "rounds": n, "expected_result": ratio(n * r),
            "result_90": _pair(n * r, Z["90"] * spread), "result_95": _pair(n * r, Z["95"] * spread),
            "return_90": [percent(x, 4) for x in (r - Z["90"] * per_unit, r + Z["90"] * per_unit)],
            "return_95": [percent(x, 4) for x in (r - Z["95"] * per_unit, r + Z["95"] * per_unit)]})
    return {
        "definition": DEFINITION,
        "standard_deviation": _sig(sigma),
        "volatility_index": {k: _sig(z * sigma) for k, z in Z.items()},
        "hit_frequency": ratio(hit),
        "hit_one_in": None if hit == 0 else _sig(1 / hit),
        "cycle": t.total,
        "maximum_payout": None if top is None else {
            "outcome": top.name, "win_per_unit": ratio(top.net), "pays_text": top.pays_text,
            "paid_per_round_per_unit": ratio(top.net + 1),
            "probability": ratio(t.probability(top)), "one_in": _sig(1 / t.probability(top))},
        "confidence_ranges": ranges,
        "player_advantage": r > 0,
    }


def player_advantage_check(t: OutcomeTable, what: str = "a paytable") -> dict[str, Any]:
    """The ``checks`` entry of the player-advantage flag: about the game, not the mathematics."""
    return {"check": "the house keeps an edge: return to the player ≤ 0 (" + what + " that favours the player "
                     "is flagged, whatever the mathematics)",
            "kind": "game", "holds": t.return_ <= 0}


__all__ = ["DEFINITION", "ROUNDS", "Z", "par_sheet", "player_advantage_check"]
