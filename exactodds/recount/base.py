"""What every second method shares: the level it reads, the recount, exact integer helpers,
and the brute-force deal of a short shoe.

A :class:`SecondMethod` counts a level's results for one shoe without the pricing engine.
It sees the level only through :class:`Reading` -- its name, its number of cards
(``depth``), its table layout, the shoe it deals from and its reading of one dealt round
(``from_deal``) -- never a count: the engine's pricing code is not imported here (a test
checks the import graph of :mod:`exactodds.recount`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cache
from math import factorial
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, TypeAlias

from exactodds.game.cards import Card, Shoe
from exactodds.game.layout import Layout
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy", globals(), "np")

Array: TypeAlias = "npt.NDArray[Any]"
FromDeal = Callable[[Sequence[Card], Sequence[Card]], Hashable]
Deal = tuple[tuple[Card, ...], tuple[Card, ...]]
"""A representative round: (Player's cards, Banker's cards); for Spanish 21 (player's
cards, dealer's cards with the up card first)."""

INT64_LIMIT: Final = 2**63
SHORT_SHOE: Final = ("brute-force deal of every ordering of the shoe's physical cards, card by card; a round "
                     "the shoe cannot finish is void")


class Reading(Protocol):
    """What a second method reads of a level (a :class:`~exactodds.engine.level.Level` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def depth(self) -> int: ...

    @property
    def layout(self) -> Layout: ...

    @property
    def from_deal(self) -> FromDeal: ...

    def dealt_shoe(self, shoe: Shoe) -> Shoe: ...


class Recount(NamedTuple):
    """A level's round results for one shoe, counted by the second method.

    ``sum(counts.values()) + void == universe``; results are the level's own objects.
    """

    level: str
    method: str
    universe: int
    counts: Mapping[Any, int]
    void: int


class SecondMethod:
    """A level's second method: :meth:`describe` says it in words, :meth:`recount` runs it.

    Method objects are built once, with the levels that hold them, and compared by identity.
    A method counts the universe -- ordered sequences of ``U = min(N, depth)`` cards off the
    top of the shoe the level deals from -- per *key* (a group of cells with one result),
    :meth:`keyed`, and reads each key's result once, by the level's ``from_deal``, on a
    representative round of the key (:meth:`reps`), so that both methods settle identical
    objects. A key too coarse would put some cells' counts on another result: it would show
    as a disagreement, not hide one. A shoe shorter than the round is dealt card by card.
    """

    def describe(self) -> str:
        """The method in words (the certificate quotes it)."""
        raise NotImplementedError

    def reps(self) -> tuple[Deal, ...]:
        """A representative round of each key (shoe-independent)."""
        raise NotImplementedError

    def keyed(self, level: Reading, shoe: Shoe) -> tuple[Array, int]:
        """Counts per key (in :meth:`reps` order) and the universe, for a shoe of at least
        ``level.depth`` cards (the shoe the level deals from)."""
        raise NotImplementedError

    def recount(self, level: Reading, shoe: Shoe) -> Recount:
        """The results of ``level`` for ``shoe`` (the shoe asked for: the level's own shoe is
        taken from it, e.g. Spanish 21's without tens, § 551.3(a))."""
        dealt = level.dealt_shoe(shoe)
        if dealt.size < level.depth:
            universe, counts, void = brute_force(dealt.cards(), level.layout, level.from_deal)
            return Recount(level.name, SHORT_SHOE, universe, counts, void)
        keyed, universe = self.keyed(level, dealt)
        out: dict[Any, int] = {}
        for result, n in zip(_results(self, level.from_deal), keyed.tolist()):
            if n:
                out[result] = out.get(result, 0) + int(n)
        assert sum(out.values()) == universe
        return Recount(level.name, self.describe(), universe, out, 0)


@cache
def _results(method: SecondMethod, from_deal: FromDeal) -> tuple[Any, ...]:
    """The level's result for each key's representative round (shoe-independent)."""
    return tuple(from_deal(*deal) for deal in method.reps())


def brute_force(cards: Sequence[Card], layout: Layout, from_deal: FromDeal) -> tuple[int, dict[Any, int], int]:
    """Universe, result counts and void count over every ordering of ``cards`` (all of them:
    ``U = N`` for a short shoe), each dealt card by card by ``layout`` (§ 629a.8(c),
    § 629a.10; Spanish 21 § 551.8(d)); a round the cards cannot finish is void (§ 629a.13(e))."""
    counts: dict[Any, int] = {}
    void = 0
    for order in itertools.permutations(cards):
        d = layout.deal(order)
        if d is None:
            void += 1
        else:
            r = from_deal(*d)
            counts[r] = counts.get(r, 0) + 1
    return factorial(len(cards)), counts, void


# -- exact integer helpers -------------------------------------------------------------------------

def int_dtype(universe: int) -> Any:
    """``int64`` when every count is at most ``universe`` < 2^63 (every intermediate number is
    a count of ordered card sequences, at most the universe), else ``object`` (Python integers)."""
    return np.int64 if universe < INT64_LIMIT else object


def falling(n: Array, k: int) -> list[Array]:
    """``[ff(n, 0), …, ff(n, k)]`` elementwise (0 once ``j > n``; never negative)."""
    out = [np.ones_like(n)]
    for j in range(1, k + 1):
        out.append(out[-1] * (n - (j - 1)))
    return out


def face_counts(shoe: Shoe, dtype: Any) -> Array:
    """The shoe's count of each of the 52 faces, in ``dtype``."""
    return np.array([int(x) for x in shoe.counts], dtype=dtype)


def accumulate(index: Array, values: Array, size: int, dtype: Any) -> Array:
    """``out[i] = Σ values[index == i]``, exactly (integer or object arithmetic, no float)."""
    out = np.zeros(size, dtype=dtype)
    np.add.at(out, index, values)
    return out
