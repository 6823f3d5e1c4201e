"""The deal walks: every way a round can be dealt, once, independent of the shoe.

Cards are grouped into *classes* (point value 0..9 for wagers settled on point counts;
rank, face or any other projection for finer wagers). A walk deals class by class and
records each *deal shape* -- the class of every card a level reads -- grouped by its
multiset of classes, with the level's *result* of that shape. The output is a
:class:`ShapeTable` of small integer arrays; :mod:`exactodds.engine.pricing` turns it
into exact counts for any shoe. Two walks exist, and each is written once:

* :func:`third_card_walk` deals the round as § 629a.8-629a.10 direct: two cards to each
  hand, then the third cards Table 1 calls for. A *result function*
  ``result(player_classes, banker_classes)`` names what a level keeps of the round
  (the :class:`~exactodds.game.rules.Coup`; the Coup with the initial pairs for the
  House Money ride; ...). The two initial cards of a hand are dealt as an unordered
  pair with its number of orderings, so a result function must not depend on their
  order (every level's does not: totals, pairs, suits).
* :func:`opening_walk` deals the first cards a level reads (the four initial cards, a
  single hand's two, Spanish 21's player cards and up card) as every ordered sequence
  of classes, for levels that read no third card.

:func:`deal_shapes` is the plain ordered, card-position-by-position walk of the rounds;
the tests check the grouped walk against it.

>>> from exactodds.game.rules import Coup
>>> table = third_card_walk(VALUE_CLASSES.values, coup_result(VALUE_CLASSES.values))
>>> table.k.shape, table.shapes, len(table.results(coup_result(VALUE_CLASSES.values)))
((6958, 10), 339400, 205)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from exactodds.game.cards import FACES, POINT_VALUE, RANKS, Shoe
from exactodds.game.rules import Coup, banker_draws, is_natural, next_hand, player_draws
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy", globals(), "np")

MAX_CARDS_PER_ROUND: Final = 6
"""A baccarat round uses at most six cards (§ 629a.10): the depth of the universe."""

IntArray: TypeAlias = "npt.NDArray[np.int64]"


@dataclass(frozen=True)
class Classing:
    """A partition of the 52 faces into classes that share a point value."""

    name: str
    labels: tuple[str, ...]
    values: tuple[int, ...]
    counts: Callable[[Shoe], tuple[int, ...]]

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def face_class(self) -> tuple[int, ...]:
        """The class of each face of :data:`~exactodds.game.cards.FACES`."""
        index = {label: i for i, label in enumerate(self.labels)}
        key = (lambda f: str(f.value)) if self.name == "value" else (lambda f: f.rank)
        return tuple(index[key(f)] for f in FACES)


VALUE_CLASSES: Final = Classing(
    "value", tuple(str(v) for v in range(10)), tuple(range(10)), Shoe.value_counts
)
"""Ten classes, one per point value: enough for every wager settled on point counts."""

RANK_CLASSES: Final = Classing(
    "rank", RANKS, tuple(POINT_VALUE[r] for r in RANKS), Shoe.rank_counts
)
"""Thirteen classes, one per rank: a finer, independent enumeration of the same rounds."""

DealResult = Callable[[tuple[int, ...], tuple[int, ...]], Hashable]
"""``result(player_classes, banker_classes)``: what a level keeps of one dealt round."""

SequenceResult = Callable[[tuple[int, ...]], Hashable]
"""``result(classes)``: what a level keeps of the read cards, in dealing order."""


def coup_result(values: Sequence[int]) -> DealResult:
    """The result function of the coup level for classes with these point values.

    >>> coup_result(range(10))((3, 2, 8), (4, 1))
    Coup(player_total=3, banker_total=5, player_cards=3, banker_cards=2)
    """
    vals = tuple(values)

    def coup(player: tuple[int, ...], banker: tuple[int, ...]) -> Coup:
        return Coup(sum(vals[c] for c in player) % 10, sum(vals[c] for c in banker) % 10,
                    len(player), len(banker))

    return coup


@dataclass(frozen=True, eq=False)
class ShapeTable:
    """Deal shapes grouped by multiset of classes, with their results; shoe-independent.

    ``k[r, c]`` cards of class ``c`` make multiset ``r``; entry ``e`` says that
    ``mult[e]`` ordered shapes of multiset ``row[e]`` have result ``result[e]`` (entries
    sorted by result). ``rep[i]`` is one shape with result ``i`` (class indices, ``-1``
    padded; for a deal walk the Player's three slots then the Banker's), from which the
    result object is rebuilt by the level's result function: the table itself holds only
    integers, so it can be stored and shipped as arrays.
    """

    kind: str
    """``"deal"`` (:func:`third_card_walk`) or ``"sequence"`` (:func:`opening_walk`)."""
    k: npt.NDArray[np.int8]
    row: npt.NDArray[np.int32]
    result: npt.NDArray[np.int32]
    mult: IntArray
    rep: npt.NDArray[np.int16]

    @property
    def classes(self) -> int:
        return int(self.k.shape[1])

    @cached_property
    def cards(self) -> npt.NDArray[np.intp]:
        """Cards in each multiset."""
        out: npt.NDArray[np.intp] = self.k.sum(axis=1, dtype=np.intp)
        return out

    @property
    def shapes(self) -> int:
        """Number of ordered deal shapes the table stands for."""
        return int(self.mult.sum())

    def shape(self, i: int) -> tuple[tuple[int, ...], ...]:
        """The representative shape of result ``i``, as the result function's arguments."""
        return shape_args(self.kind, [int(x) for x in self.rep[i]])

    def results(self, fn: Callable[..., Hashable]) -> tuple[Hashable, ...]:
        """The result objects, rebuilt by ``fn`` from each representative shape."""
        return tuple(fn(*self.shape(i)) for i in range(len(self.rep)))

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The table as named arrays (for :func:`numpy.savez`)."""
        return {"k": self.k, "row": self.row, "result": self.result, "mult": self.mult, "rep": self.rep}

    @classmethod
    def from_arrays(cls, kind: str, arrays: Any) -> ShapeTable:
        """The inverse of :meth:`arrays`."""
        return cls(kind, np.asarray(arrays["k"], np.int8), np.asarray(arrays["row"], np.int32),
                   np.asarray(arrays["result"], np.int32), np.asarray(arrays["mult"], np.int64),
                   np.asarray(arrays["rep"], np.int16))

    def coarsen(self, classes: npt.NDArray[np.intp]) -> ShapeTable:
        """The same shapes with results merged into classes (``classes[i]``: the class of
        result ``i``, every class ``0..max`` used): entries of one multiset and one class
        become one. Pricing only what some wagers read -- the joint outcome of a study's
        wagers, say -- then visits fewer entries.

        >>> t = opening_walk(2, 2, lambda s: s)          # four results, one per sequence
        >>> c = t.coarsen(np.array([0, 1, 1, 0]))        # equal or not
        >>> len(c.rep), c.shapes == t.shapes, len(c.row) < len(t.row)
        (2, True, True)
        """
        new = np.asarray(classes, np.int64)[self.result]
        key = new * len(self.k) + self.row
        order = np.argsort(key, kind="stable")
        key, mult = key[order], self.mult[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        merged = key[starts]
        first = np.zeros(int(np.max(classes)) + 1, np.intp)
        first[np.asarray(classes)[::-1]] = np.arange(len(classes))[::-1]
        return ShapeTable(self.kind, self.k, (merged % len(self.k)).astype(np.int32),
                          (merged // len(self.k)).astype(np.int32), np.add.reduceat(mult, starts),
                          self.rep[first])

    def same_as(self, other: ShapeTable) -> bool:
        """Whether two tables hold the same shapes with the same results (as integers)."""
        mine = {(tuple(self.k[r]), tuple(self.rep[i]), int(m))
                for r, i, m in zip(self.row, self.result, self.mult)}
        theirs = {(tuple(other.k[r]), tuple(other.rep[i]), int(m))
                  for r, i, m in zip(other.row, other.result, other.mult)}
        return self.kind == other.kind and mine == theirs


def _table(kind: str, classes: int, grouped: dict[tuple[tuple[int, ...], Hashable], int],
           reps: dict[Hashable, tuple[int, ...]], width: int) -> ShapeTable:
    """Pack ``{(k vector, result): multiplicity}`` into a :class:`ShapeTable`."""
    results = sorted(reps, key=lambda r: reps[r])
    result_index = {r: i for i, r in enumerate(results)}
    multisets = sorted({k for k, _ in grouped})
    row_index = {k: i for i, k in enumerate(multisets)}
    entries = sorted((result_index[r], row_index[k], m) for (k, r), m in grouped.items())
    rep = np.full((len(results), width), -1, np.int16)
    for i, r in enumerate(results):
        rep[i, : len(reps[r])] = reps[r]
    return ShapeTable(
        kind,
        np.array(multisets, np.int8).reshape(len(multisets), classes),
        np.array([e[1] for e in entries], np.int32),
        np.array([e[0] for e in entries], np.int32),
        np.array([e[2] for e in entries], np.int64),
        rep,
    )


def third_card_walk(values: Sequence[int], result: DealResult) -> ShapeTable:
    """The one walk of a baccarat round over classes with these point values.

    The initial two cards of each hand are dealt as compositions (an unordered pair
    with its 1 or 2 orderings), then the third cards § 629a.10 calls for; each shape is
    recorded under its multiset of classes and ``result(player, banker)``.
    """
    size = len(values)
    pairs = [(a, b, 1 if a == b else 2) for a in range(size) for b in range(a, size)]
    grouped: dict[tuple[tuple[int, ...], Hashable], int] = defaultdict(int)
    reps: dict[Hashable, tuple[int, ...]] = {}

    def add(player: tuple[int, ...], banker: tuple[int, ...], mult: int) -> None:
        k = [0] * size
        for c in player + banker:
            k[c] += 1
        r = result(player, banker)
        grouped[(tuple(k), r)] += mult
        if r not in reps:
            reps[r] = (player + (-1,) * (3 - len(player))) + (banker + (-1,) * (3 - len(banker)))

    for pa, pb, pm in pairs:
        p2 = (values[pa] + values[pb]) % 10
        for ba, bb, bm in pairs:
            b2 = (values[ba] + values[bb]) % 10
            player, banker, mult = (pa, pb), (ba, bb), pm * bm
            if is_natural(p2) or is_natural(b2):
                add(player, banker, mult)
            elif player_draws(p2):
                for x in range(size):
                    if banker_draws(b2, values[x]):
                        for y in range(size):
                            add(player + (x,), banker + (y,), mult)
                    else:
                        add(player + (x,), banker, mult)
            elif banker_draws(b2, None):
                for y in range(size):
                    add(player, banker + (y,), mult)
            else:
                add(player, banker, mult)
    return _table("deal", size, grouped, reps, 6)


def opening_walk(classes: int, read: int, result: SequenceResult) -> ShapeTable:
    """Every ordered sequence of ``read`` classes, grouped by multiset, with its result.

    >>> t = opening_walk(2, 2, lambda s: s[0] == s[1])
    >>> t.k.tolist(), t.shapes
    ([[0, 2], [1, 1], [2, 0]], 4)
    """
    grouped: dict[tuple[tuple[int, ...], Hashable], int] = defaultdict(int)
    reps: dict[Hashable, tuple[int, ...]] = {}
    k = [0] * classes
    seq: list[int] = []

    def rec() -> None:
        if len(seq) == read:
            s = tuple(seq)
            r = result(s)
            grouped[(tuple(k), r)] += 1
            reps.setdefault(r, s)
            return
        for c in range(classes):
            seq.append(c)
            k[c] += 1
            rec()
            k[c] -= 1
            seq.pop()

    rec()
    return _table("sequence", classes, grouped, reps, read)


def deal_shapes(classing: Classing) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every deal shape as (Player's classes, Banker's classes), card position by position.

    The plain ordered walk of the rounds (no grouping), kept as an independent check of
    :func:`third_card_walk`.

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


def shape_args(kind: str, rep: list[int]) -> tuple[tuple[int, ...], ...]:
    """A representative shape (class indices, ``-1`` padded, as in :attr:`ShapeTable.rep`)
    as the result function's arguments: for a ``"deal"`` walk the Player's cards then the
    Banker's, else the one sequence.

    >>> shape_args("deal", [3, 4, -1, 9, 9, 2]), shape_args("sequence", [1, 2, -1])
    (((3, 4), (9, 9, 2)), ((1, 2),))
    """
    if kind == "deal":
        return tuple(c for c in rep[:3] if c >= 0), tuple(c for c in rep[3:] if c >= 0)
    return (tuple(c for c in rep if c >= 0),)
