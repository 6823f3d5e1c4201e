"""A wager's outcome counts by its level's second method: what ``certify`` compares.

Each level holds its second method (``Level.second_method``, an object of
:mod:`exactodds.recount`, which counts the level's results without the pricing engine and
does not import it); this module runs it for a shoe (:func:`recount`, cached per level and
shoe) and settles the results with the wager's own rule (:func:`outcome_counts`).

>>> from exactodds.catalogue import get_wager
>>> from exactodds.game.cards import Shoe
>>> w = get_wager("lucky-nines")
>>> c = outcome_counts(w, w.paytable("A"), Shoe.standard(8))
>>> c.universe == 4998398275503360 == sum(c.counts.values()), c.void
(True, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from exactodds.catalogue.model import Paytable, Wager
from exactodds.engine.level import Level
from exactodds.engine.levels import LEVELS
from exactodds.game.cards import Shoe
from exactodds.recount import SHORT_SHOE, Recount

METHODS: Final[dict[str, str]] = {
    name: level.second_method.describe() for name, level in LEVELS.items() if level.second_method is not None}
"""The second method of each level that has one, in words."""


@dataclass(frozen=True)
class OutcomeCounts:
    """A wager-paytable's outcome counts by the second method (void rounds apart)."""

    method: str
    universe: int
    counts: Mapping[str, int]
    void: int


@lru_cache(maxsize=256)
def recount(level: Level, shoe: Shoe) -> Recount | None:
    """The results of ``level`` for ``shoe`` by its second method (``None``: it has none)."""
    method = level.second_method
    return None if method is None else method.recount(level, shoe)


def outcome_counts(wager: Wager[Any], paytable: Paytable, shoe: Shoe) -> OutcomeCounts | None:
    """Outcome counts of ``wager`` under ``paytable`` for ``shoe`` by the second method of its
    level, settled with the wager's own rule; ``None`` if the level has no second method.

    Only the level's reading of one dealt round (``from_deal``) and its shoe, depth and
    layout are taken from the level, never a count."""
    rc = recount(wager.level, shoe)
    if rc is None:
        return None
    counts: dict[str, int] = {}
    for result, n in rc.counts.items():
        name = wager.settle(paytable, result)
        counts[name] = counts.get(name, 0) + n
    return OutcomeCounts(rc.method, rc.universe, counts, rc.void)


__all__ = ["METHODS", "SHORT_SHOE", "OutcomeCounts", "Recount", "outcome_counts", "recount"]
