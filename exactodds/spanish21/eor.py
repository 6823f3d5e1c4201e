"""Spanish 21 effects of removal: the exact change in the main wager's return when one card of
a rank is removed from the shoe (the blackjack EOR table), and a balanced count derived from it.

For a shoe ``S`` and a rank ``r``: ``E_r = R(S − r) − R(S)``, ``R`` the exact expected return
of composition-dependent play (:mod:`exactodds.blackjack.engine`; the player re-optimises for the
smaller shoe). Where suits matter (the 6s, 7s and 8s, whose suits the § 551.6(g) bonuses read) the
effect of the rank is the count-weighted mean over its suits, each removal solved exactly (the
reading baccarat's EOR states). The count is :func:`exactodds.figures.eor.balanced_count` over the
effects, weighted by the copies in the shoe. Unlike baccarat's, ``Σ n·R(S − card) = N·R(S)`` does
not hold: the strategy changes with the shoe (it holds for a fixed strategy only), so no such
identity is claimed. Each removal is a whole solve (minutes at six decks).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final

from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SUITED, SpanishShoe
from exactodds.exact import percent, ratio

LABELS: Final = {1: "A", 10: "J/Q/K"}
"""Rank labels: A, 2..9, and the 10-valued J, Q, K (the Spanish deck has no tens, § 551.3(a))."""
METHOD: Final = ("E = R(shoe − one card of the rank) − R(shoe), R the exact expected return of composition-dependent "
                 "play (the player re-optimises for each shoe); 6s, 7s, 8s: the mean over their suits weighted by "
                 "the copies of each, each suit removed and solved exactly; exactodds/spanish21/eor.py")


def _solve(shoe: SpanishShoe, rules: Rules) -> Fraction:
    from exactodds.blackjack.engine import Game

    return Game(shoe, rules).solve().expected


def effects_of_removal(shoe: SpanishShoe, rules: Rules,
                       progress: Callable[[int, int, str], None] | None = None) -> dict[str, Any]:
    """The effects of removal of every rank in ``shoe`` under ``rules`` (JSON-ready, the shape of
    baccarat's ``eor`` JSON: ``ranks[].card``, ``ranks[].effect`` as ``p/q``, the count)."""
    from exactodds.figures.eor import balanced_count

    types = list(shoe.types())
    steps = 1 + len(types)
    if progress is not None:
        progress(0, steps, "the full shoe")
    base = _solve(shoe, rules)
    after: dict[int, list[tuple[int, Fraction]]] = {}
    for i, (card, k) in enumerate(types, 1):
        if progress is not None:
            progress(i, steps, f"one {LABELS.get(card[0], str(card[0]))} removed")
        after.setdefault(card[0], []).append((k, _solve(shoe.remove(card), rules)))
    if progress is not None:
        progress(steps, steps, "done")
    rows = []
    effects: dict[str, Fraction] = {}
    weights: dict[str, int] = {}
    for v in sorted(after):
        label = LABELS.get(v, str(v))
        copies = sum(k for k, _ in after[v])
        mean_after = sum((k * r for k, r in after[v]), Fraction(0)) / copies
        effects[label], weights[label] = mean_after - base, copies
        rows.append((label, copies, mean_after))
    count = balanced_count(effects, weights)
    return {
        "shoe": {"cards": shoe.size, "value_counts": list(shoe.values),
                 "suits": {str(v): list(shoe.suits[v]) for v in SUITED}},
        "return": ratio(base),
        "ranks": [{"card": label, "copies": copies, "return_after": ratio(r), "effect": ratio(effects[label]),
                   "effect_percent": percent(effects[label], 6), "tag": count.tags.get(label, 0)}
                  for label, copies, r in rows],
        "identity": {"statement": "sum over cards of n*Return(shoe - card) = N*Return(shoe) holds for a fixed strategy "
                                  "only; composition-dependent play re-optimises for each shoe, so it is not claimed",
                     "holds": None},
        "count": {"tags": count.tags, "balanced": count.balanced, "imbalance": count.imbalance,
                  "r_squared": None if count.r_squared is None else ratio(count.r_squared),
                  "correlation": count.correlation},
        "method": METHOD,
    }


__all__ = ["LABELS", "METHOD", "effects_of_removal"]
