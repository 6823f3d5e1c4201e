"""The one place where the simulation package calls the pricing engine.

Everything the simulator and the cross-check need from the engine goes through these
few functions: the exact
analysis of a wager (``analyze``), the result of a dealt round at a level
(``Level.from_deal``), a wager's settlement of a result (``Wager.settle``), and the
exact distribution of round results (coups).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Paytable, Wager
from exactodds.engine.level import Level, ResultDistribution
from exactodds.engine.levels import COUP
from exactodds.figures.analysis import Analysis, analyze
from exactodds.game.cards import Card, Shoe


def exact_analysis(wager_id: str, paytable_id: str, shoe: Shoe) -> Analysis:
    """The exact analysis of ``wager_id`` under ``paytable_id`` for ``shoe``."""
    return analyze(wager_id, paytable_id, shoe)


def round_result(level: Level, player: Sequence[Card], banker: Sequence[Card]) -> Any:
    """The result of one dealt round (each hand's cards in dealing order) at ``level``."""
    return level.from_deal(player, banker)


def settle(wager: Wager[Any], table: Paytable, result: Any) -> str:
    """The outcome ``wager`` settles ``result`` on under ``table``."""
    return wager.settle(table, result)


def coup_distribution(shoe: Shoe) -> ResultDistribution:
    """Exact counts of every round result at the coup level (point and card counts)."""
    return COUP.distribution(shoe)


def is_baccarat_level(level: Level) -> bool:
    """Whether results at ``level`` are read from a baccarat round (not e.g. Spanish 21)."""
    return level.baccarat


def wager(wager_id: str) -> Wager[Any]:
    """The catalogue's wager ``wager_id`` (an input error if unknown)."""
    return get_wager(wager_id)
