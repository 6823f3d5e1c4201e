"""Baccarat (58 Pa. Code ch. 629a) through the game seam: an adapter, nothing more.

A wager-paytable's outcome table is today's level engine and catalogue, unchanged
(:func:`exactodds.figures.analysis.analyze` then
:meth:`~exactodds.figures.analysis.Analysis.outcome_table`): the seam reads the analysis
after it is made, so the pricing path and its speed are untouched. The second method is the
level's own (:func:`exactodds.figures.second_method.outcome_counts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from exactodds.game.protocol import STANDARD_52, Game, Outcome, OutcomeTable, rule
from exactodds.game.rules import CITATION


@dataclass(frozen=True)
class BaccaratRules:
    """What a baccarat outcome table is priced under: the wager, its paytable, the shoe."""

    wager: str = rule("banker", name="wager", section="58 Pa. Code § 629a.11", flag="WAGER")
    paytable: str = rule("", name="paytable (empty: the wager's first)", section="58 Pa. Code § 629a.11",
                         flag="--paytable")
    decks: int = rule(8, name="decks in the shoe", section="58 Pa. Code § 629a.5", flag="--decks")


@dataclass(frozen=True)
class BaccaratShoe:
    """The rules record of a certificate's baccarat entry: what every wager-paytable of it is
    priced under -- the shoe (any composition, ``--shoe``; the regulation's six to eight decks,
    § 629a.3(a), by default eight) and the drawing rules (§ 629a.10, the entry's schedule)."""

    shoe: str = rule("8 decks (416 cards)", name="the shoe (any composition may be priced)",
                     section="58 Pa. Code § 629a.3(a)", flag="--shoe, --decks, --remove")
    drawing_rules: str = rule("Table 1", name="drawing rules (fixed by the regulation)", section=CITATION,
                              flag="(none)")


class Baccarat(Game):
    """Baccarat and its side wagers, dealt by the rules of § 629a.10."""

    id: ClassVar[str] = "baccarat"
    title: ClassVar[str] = "Baccarat"
    citation: ClassVar[str] = f"58 Pa. Code ch. 629a; drawing rules {CITATION}"
    deck = STANDARD_52
    rules_type: ClassVar[type] = BaccaratRules
    by_wager: ClassVar[bool] = True

    def outcome_table(self, rules: Any, strategy: str = "as dealt") -> OutcomeTable:
        from exactodds.figures.analysis import analyze  # the catalogue and engine: only when a table is made
        from exactodds.game.cards import Shoe

        return analyze(rules.wager, rules.paytable or None, Shoe.standard(rules.decks)).outcome_table()

    def second_method(self, rules: Any, strategy: str = "as dealt") -> tuple[str, OutcomeTable] | None:
        from exactodds.figures.analysis import VOID, analyze
        from exactodds.figures.second_method import outcome_counts
        from exactodds.game.cards import Shoe

        a = analyze(rules.wager, rules.paytable or None, Shoe.standard(rules.decks))
        second = outcome_counts(a.wager, a.paytable, a.shoe)
        if second is None:
            return None
        counts = dict(second.counts)
        if second.void:
            counts[VOID] = second.void
        first = a.outcome_table()
        return second.method, OutcomeTable(
            tuple(Outcome(o.name, o.net, o.pays_text, counts.get(o.name, 0)) for o in first.outcomes),
            second.universe, first.strategy, first.universe)


__all__ = ["Baccarat", "BaccaratRules", "BaccaratShoe"]
