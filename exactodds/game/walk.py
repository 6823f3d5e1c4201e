"""The recursive composition enumerator.

Cards are grouped into *classes* (point value 0..9 for wagers settled on point
counts; rank for wagers that need ranks). A recursive walk deals class by class, as
§ 629a.8-629a.10 direct, and records every *deal shape*: the class of each card the
round uses (4, 5 or 6 cards). The walk depends only on the classing, never on the
shoe, so it runs once per process.

A shoe prices a shape by exact falling factorials: a shape that uses ``k_c`` cards of
class ``c`` (``m`` cards in all) occurs in

    Π_c n_c·(n_c−1)·…·(n_c−k_c+1)  ×  (N−m)·(N−m−1)·…·(N−U+1)

ordered sequences of ``U = min(N, 6)`` cards off the top of the shoe: the second
factor counts the cards dealt to no hand, which are collapsed, not enumerated. Shapes
with the same multiset of classes share one weight, so pricing a shoe costs one
product per multiset (7,722 for value classes) whatever the number of decks.

The universe is ``N·(N−1)·…·(N−U+1)`` (8 decks: 4,998,398,275,503,360). A round the
shoe cannot finish (fewer than 6 cards left) is void and every wager on it pushes
(§ 629a.13(e)); those sequences are counted as ``void``.

>>> from exactodds.game.cards import Shoe
>>> dist = coup_distribution(Shoe.standard(8))
>>> dist.universe
4998398275503360
>>> sum(dist.counts.values()) + dist.void == dist.universe
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from exactodds.game.cards import POINT_VALUE, RANKS, Shoe, falling_factorial
from exactodds.game.rules import Coup, banker_draws, is_natural, next_hand, player_draws

MAX_CARDS_PER_ROUND: Final = 6


@dataclass(frozen=True)
class Classing:
    """A partition of the 52 faces into classes that share a point value."""

    name: str
    labels: tuple[str, ...]
    values: tuple[int, ...]
    counts: Callable[[Shoe], tuple[int, ...]]

    def __len__(self) -> int:
        return len(self.labels)


VALUE_CLASSES: Final = Classing(
    "value", tuple(str(v) for v in range(10)), tuple(range(10)), Shoe.value_counts
)
"""Ten classes, one per point value: enough for every wager settled on point counts."""

RANK_CLASSES: Final = Classing(
    "rank", RANKS, tuple(POINT_VALUE[r] for r in RANKS), Shoe.rank_counts
)
"""Thirteen classes, one per rank: a finer, independent enumeration of the same rounds."""


def deal_shapes(classing: Classing) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every deal shape as (Player's classes, Banker's classes), by a recursive walk.

    >>> sum(1 for _ in deal_shapes(VALUE_CLASSES))
    339400
    """
    values = classing.values
    classes = range(len(classing))
    player: list[int] = []
    banker: list[int] = []

    def rec(pv: list[int], bv: list[int]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        hand = next_hand(pv, bv)
        if hand is None:
            yield tuple(player), tuple(banker)
            return
        cards, vals = (player, pv) if hand == "player" else (banker, bv)
        for c in classes:
            cards.append(c)
            vals.append(values[c])
            yield from rec(pv, bv)
            cards.pop()
            vals.pop()

    yield from rec([], [])


@dataclass(frozen=True)
class ShapeTable:
    """Deal shapes grouped by multiset of classes; shoe-independent.

    ``entries[i] = (multiset, cards, ((coup index, number of shapes), ...))`` where
    ``multiset`` lists ``(class, count)`` pairs and ``cards`` is its size.
    """

    classing: Classing
    coups: tuple[Coup, ...]
    entries: tuple[tuple[tuple[tuple[int, int], ...], int, tuple[tuple[int, int], ...]], ...]

    @property
    def shapes(self) -> int:
        """Number of ordered deal shapes the table stands for."""
        return sum(n for _, _, items in self.entries for _, n in items)


_BITS: Final = 3  # a class occurs at most 6 times in a round: 3 bits per class


@lru_cache(maxsize=None)
def shape_table(classing: Classing) -> ShapeTable:
    """Group every deal shape by its multiset of classes and its :class:`Coup`.

    The walk deals *compositions*: each hand's two initial cards as an unordered pair
    with its number of orderings (1 or 2), then the third cards the rules call for.
    A multiset is packed into one integer (3 bits per class) so that adding a card is
    one addition. :func:`deal_shapes` is the ordered, card-position-by-position walk
    of the same rounds; the tests check that both give the same table.
    """
    values = classing.values
    size = len(classing)
    bit = [1 << (_BITS * c) for c in range(size)]
    pairs = [(a, b, 1 if a == b else 2) for a in range(size) for b in range(a, size)]
    grouped: dict[int, dict[tuple[int, int, int, int], int]] = defaultdict(lambda: defaultdict(int))

    def add(key: int, coup: tuple[int, int, int, int], mult: int) -> None:
        grouped[key][coup] += mult

    for pa, pb, pm in pairs:
        p2 = (values[pa] + values[pb]) % 10
        for ba, bb, bm in pairs:
            b2 = (values[ba] + values[bb]) % 10
            key, mult = bit[pa] + bit[pb] + bit[ba] + bit[bb], pm * bm
            if is_natural(p2) or is_natural(b2):
                add(key, (p2, b2, 2, 2), mult)
            elif player_draws(p2):
                for x in range(size):
                    p3 = (p2 + values[x]) % 10
                    if banker_draws(b2, values[x]):
                        for y in range(size):
                            add(key + bit[x] + bit[y], (p3, (b2 + values[y]) % 10, 3, 3), mult)
                    else:
                        add(key + bit[x], (p3, b2, 3, 2), mult)
            elif banker_draws(b2, None):
                for y in range(size):
                    add(key + bit[y], (p2, (b2 + values[y]) % 10, 2, 3), mult)
            else:
                add(key, (p2, b2, 2, 2), mult)

    coups = tuple(sorted({Coup(*c) for by_coup in grouped.values() for c in by_coup}))
    index = {(c.player_total, c.banker_total, c.player_cards, c.banker_cards): i for i, c in enumerate(coups)}
    mask = (1 << _BITS) - 1
    entries = []
    for key, by_coup in sorted(grouped.items()):
        multiset = tuple((c, (key >> (_BITS * c)) & mask) for c in range(size) if (key >> (_BITS * c)) & mask)
        cards = sum(k for _, k in multiset)
        entries.append((multiset, cards, tuple(sorted((index[c], n) for c, n in by_coup.items()))))
    return ShapeTable(classing, coups, tuple(entries))


@dataclass(frozen=True)
class CoupDistribution:
    """Exact counts of each :class:`Coup` over the universe of ordered card sequences.

    ``sum(counts.values()) + void == universe`` always holds.
    """

    shoe: Shoe
    universe: int
    counts: dict[Coup, int]
    void: int

    @property
    def dealt(self) -> int:
        """Sequences of the universe that complete a round (not void)."""
        return self.universe - self.void


def coup_distribution(shoe: Shoe, classing: Classing = VALUE_CLASSES) -> CoupDistribution:
    """The joint distribution of round results for ``shoe``, priced from the shape table."""
    table = shape_table(classing)
    n = classing.counts(shoe)
    total = shoe.size
    depth = min(total, MAX_CARDS_PER_ROUND)
    universe = falling_factorial(total, depth)
    ff = [[falling_factorial(nc, k) for k in range(MAX_CARDS_PER_ROUND + 1)] for nc in n]
    undealt = {m: falling_factorial(total - m, depth - m) for m in range(4, depth + 1)}
    acc = [0] * len(table.coups)
    for multiset, m, items in table.entries:
        if m > depth:
            continue  # the shoe runs out during this round: void (§ 629a.13(e))
        w = undealt[m]
        for c, k in multiset:
            w *= ff[c][k]
        if w:
            for i, mult in items:
                acc[i] += mult * w
    counts = {coup: a for coup, a in zip(table.coups, acc) if a}
    void = universe - sum(counts.values())
    assert void >= 0
    return CoupDistribution(shoe, universe, counts, void)
