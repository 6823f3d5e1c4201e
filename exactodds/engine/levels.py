"""Levels of detail at which wagers are settled.

A wager's outcomes are predicates on a *result*; its ``level`` names which result:
``"coup"`` (final point counts and card counts, :class:`~exactodds.game.rules.Coup`) for
every wager settled on point counts. Each level has two ways to get results: the exact
distribution for a shoe (from the enumerator) and the result of one dealt round from
its actual cards, which the brute-force tests and the simulator use. Finer levels
(ranks, suits of the first cards) register here the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from exactodds.game.cards import Card, Shoe
from exactodds.game.walk import coup_distribution
from exactodds.game.rules import Coup, point_count


@dataclass(frozen=True)
class ResultDistribution:
    """Exact counts of round results at one level, plus void rounds (§ 629a.13(e)).

    ``sum(counts.values()) + void == universe``.
    """

    universe: int
    counts: Mapping[Any, int]
    void: int


@dataclass(frozen=True)
class Level:
    """How to price results at one level of detail, and how to read one dealt round."""

    name: str
    distribution: Callable[[Shoe], ResultDistribution]
    from_deal: Callable[[Sequence[Card], Sequence[Card]], Any]
    baccarat: bool = True
    """False for a level whose results are not a baccarat round (e.g. Spanish 21's
    Match-The-Dealer): the baccarat brute-force oracle does not apply to it."""


@lru_cache(maxsize=64)
def coup_level_distribution(shoe: Shoe) -> ResultDistribution:
    """Coup counts for ``shoe`` (cached: many wagers read the same distribution)."""
    d = coup_distribution(shoe)
    return ResultDistribution(d.universe, d.counts, d.void)


def coup_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> Coup:
    """The :class:`Coup` of a finished round from its cards."""
    return Coup(point_count([c.value for c in player]), point_count([c.value for c in banker]),
                len(player), len(banker))


LEVELS: dict[str, Level] = {"coup": Level("coup", coup_level_distribution, coup_from_deal)}
