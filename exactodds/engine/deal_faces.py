"""The ``deal-faces`` level: the Coup plus suit, colour and rank facts about ALL dealt cards.

Heavenly 9 Progressive (58 Pa. Code § 631b.2(g)) pays on "all cards the same suit /
colour"; Harmony Progressive (§ 631b.10(g)) on six-of-a-kind, four-of-a-kind with four
cards dealt, four 8s, six 0-value cards and "hands consisting of all of the same
color". Those facts refine the coup level's value shapes without a new walk.

Method. A value multiset uses ``k_v`` cards of point value ``v`` (``m`` cards in all);
the faces that fill it are counted, exactly, by the one pricing function applied to
*derived* class counts:

* all faces:                 ``T  = Π_v ff(n_v, k_v)``                  (the shoe's value counts)
* all one suit:              ``S  = Σ_s Π_v ff(n_{v,s}, k_v)``          (each suit's value counts)
* all one colour:            ``C  = Σ_c Π_v ff(n_{v,c}, k_v)``          (each colour's)
* all one rank (one value):  ``R  = Σ_r ff(n_r, m)``
* one rank and one suit:     ``RS = Σ_r Σ_s ff(n_{r,s}, m)``
* one rank and one colour:   ``RC = Σ_r Σ_c ff(n_{r,c}, m)``

Inclusion-exclusion splits ``T`` into six disjoint *cells* {suit, colour-not-suit,
mixed} x {one rank, not}; each cell is multiplied by the undealt factor
``ff(N−m, U−m)``. Face events are symmetric in card positions given the value
multiset, so every ordered value shape of one multiset shares the cells: the coup
table's entries, each split over the six cells, are this level's entries.

>>> from exactodds.engine.levels import DEAL_FACES
>>> from exactodds.game.cards import Shoe
>>> d = DEAL_FACES.distribution(Shoe.standard(8))
>>> d.universe == 4998398275503360 == sum(d.counts.values())
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

from exactodds.engine.cells import CELLS, Colour, face_cells
from exactodds.engine.level import Level
from exactodds.engine.pricing import (
    KERNEL_MIN_BATCH,
    Counts,
    Plan,
    _kernel,
    falling_factorials,
    make_plan,
    node_ways,
    numpy_chunk,
    settle,
    trie,
    undealt,
)
from exactodds.game.cards import FACES, POINT_VALUE, RANKS, SUITS, Card
from exactodds.game.rules import Coup, point_count
from exactodds.game.walk import ShapeTable
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy", globals(), "np")

COLOUR_SUITS: Final = ((1, 2), (0, 3))
"""Suit indices (in :data:`SUITS` order S, H, D, C) of red and of black."""


@dataclass(frozen=True, order=True)
class DealFaces:
    """Result of a round at the ``deal-faces`` level.

    ``colour``: ``"suit"`` if every dealt card has one suit, ``"colour"`` if one colour
    but not one suit, else ``"mixed"``. ``one_rank``: every dealt card has one rank.
    ``single_value``: the point value shared by every dealt card, else ``None``.
    """

    coup: Coup
    colour: Colour
    one_rank: bool
    single_value: int | None

    @property
    def cards(self) -> int:
        """Cards dealt to the two hands (4, 5 or 6)."""
        return self.coup.player_cards + self.coup.banker_cards

    @property
    def tie(self) -> bool:
        return self.coup.winner == "tie"

    @property
    def one_colour(self) -> bool:
        """All dealt cards one colour (one suit included)."""
        return self.colour != "mixed"


def deal_faces_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> DealFaces:
    """The :class:`DealFaces` result of one finished round, read from its cards."""
    cards = [*player, *banker]
    suits = {c.suit for c in cards}
    colours = {c.colour for c in cards}
    colour: Colour = "suit" if len(suits) == 1 else "colour" if len(colours) == 1 else "mixed"
    values = {c.value for c in cards}
    coup = Coup(point_count([c.value for c in player]), point_count([c.value for c in banker]),
                len(player), len(banker))
    return DealFaces(coup, colour, len({c.rank for c in cards}) == 1, values.pop() if len(values) == 1 else None)


_RANK_VALUE: Final = tuple(POINT_VALUE[r] for r in RANKS)


@dataclass(frozen=True, eq=False)
class DealFacesLevel(Level):
    """The coup level's value shapes, each split into the six face cells."""

    coup: Level | None = None

    @cached_property
    def _expanded(self) -> tuple[ShapeTable, npt.NDArray[np.int8], tuple[DealFaces, ...]]:
        """(entries with their cell, cell of each entry, results) built from the coup table."""
        assert self.coup is not None
        t = self.coup.table
        single = np.where((t.k > 0).sum(axis=1) == 1, t.k.argmax(axis=1), -1)  # value of one-class rows
        e = len(t.row)
        row = np.repeat(t.row, len(CELLS))
        cell = np.tile(np.arange(len(CELLS), dtype=np.int8), e)
        coup_idx = np.repeat(t.result, len(CELLS)).astype(np.int64)
        single_e = single[row]
        keep = (single_e >= 0) | ~np.isin(cell, (0, 2, 4))  # one rank needs a single value
        row, cell, coup_idx, single_e = row[keep], cell[keep], coup_idx[keep], single_e[keep]
        mult = np.repeat(t.mult, len(CELLS))[keep]
        key = (coup_idx * len(CELLS) + cell) * 11 + (single_e + 1)
        uniq, result = np.unique(key, return_inverse=True)
        order = np.argsort(result, kind="stable")
        coups = self.coup.results
        results = tuple(
            DealFaces(coups[int(u) // 11 // len(CELLS)],  # type: ignore[arg-type]
                      CELLS[int(u) // 11 % len(CELLS)][0], CELLS[int(u) // 11 % len(CELLS)][1],
                      None if int(u) % 11 == 0 else int(u) % 11 - 1)
            for u in uniq)
        rep = np.zeros((len(uniq), 1), np.int16)
        table = ShapeTable("deal", t.k, row[order].astype(np.int32), result[order].astype(np.int32),
                           mult[order], rep)
        return table, cell[order], results

    @cached_property
    def table(self) -> ShapeTable:
        return self._expanded[0]

    @cached_property
    def results(self) -> tuple[Hashable, ...]:
        return self._expanded[2]

    @cached_property
    def _rows(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """(cards ``m`` of each multiset, its single value or ``-1`` if it has several)."""
        assert self.coup is not None
        k = self.coup.table.k
        single = np.where((k > 0).sum(axis=1) == 1, k.argmax(axis=1), -1).astype(np.intp)
        return self.coup.table.cards.astype(np.intp), single

    @cached_property
    def _plan(self) -> Plan:
        """The :class:`~exactodds.engine.pricing.Plan` of the expanded table, its values the
        cells (slot ``6 × multiset + cell``)."""
        table, cell, results = self._expanded
        m, _ = self._rows
        return make_plan(table.row.astype(np.intp) * len(CELLS) + cell, m[table.row], table.result, table.mult,
                         len(results))

    def _terms(self, n: npt.NDArray[Any], dtype: type) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """The shoe-dependent inputs of :func:`face_cells`, for a batch of face counts ``n``.

        ``derived[b, j, v]``: the 7 derived value-count vectors (``j = 0`` the shoe, ``1..4``
        each suit of :data:`SUITS`, ``5..6`` each colour of :data:`COLOUR_SUITS`).
        ``ranks[b, i, v, m]``: the rank terms of an ``m``-card multiset of value ``v`` alone,
        ``i = 0, 1, 2`` for ``R, RS, RC`` (summed over the ranks of value ``v``)."""
        b = n.shape[0]
        by_rank_suit = n.reshape(b, len(RANKS), len(SUITS))
        vs: npt.NDArray[Any] = np.zeros((b, 10, len(SUITS)), dtype=dtype)
        for r in range(len(RANKS)):
            vs[:, _RANK_VALUE[r], :] += by_rank_suit[:, r, :]
        derived = np.stack([vs.sum(axis=2)] + [vs[:, :, s] for s in range(len(SUITS))]
                           + [vs[:, :, list(c)].sum(axis=2) for c in COLOUR_SUITS], axis=1)
        per_rank = np.stack([
            falling_factorials(by_rank_suit.sum(axis=2), self.depth),
            falling_factorials(by_rank_suit, self.depth).sum(axis=2),
            sum(falling_factorials(by_rank_suit[:, :, list(c)].sum(axis=2), self.depth) for c in COLOUR_SUITS),
        ], axis=1)                                                                  # (b, 3, 13, depth+1)
        ranks: npt.NDArray[Any] = np.zeros((b, 3, 10, self.depth + 1), dtype=dtype)
        for r in range(len(RANKS)):
            ranks[:, :, _RANK_VALUE[r], :] += per_rank[:, :, r, :]
        return derived, ranks

    def price_classes(self, n: npt.NDArray[Any], totals: npt.NDArray[Any], dtype: type,
                      compiled: bool | None = None) -> Counts:
        """Cells by inclusion-exclusion (:func:`face_cells`) from the value weights of
        derived class counts, times the undealt factor, summed per result.

        ``n`` holds face counts (this level's classes are the 52 faces). ``compiled``: the
        numba kernel :func:`exactodds.engine.deal_faces_kernel.deal_faces_int64` (int64 only); by
        default for batches of at least :data:`~exactodds.engine.pricing.KERNEL_MIN_BATCH`
        shoes, as :func:`~exactodds.engine.pricing.price` does."""
        assert self.coup is not None
        t = trie(self.coup.table)
        m, single = self._rows
        p = self._plan
        if compiled is None:
            compiled = n.shape[0] >= KERNEL_MIN_BATCH
        kernel = _kernel("deal_faces_kernel") if compiled and dtype is np.int64 else None
        if kernel is not None:
            rank_value, colours = self._kernel_constants
            compiled_counts: Counts = kernel.deal_faces_int64(n, rank_value, colours,
                                                              undealt(totals, self.depth, dtype), t, m, single, p)
            return compiled_counts
        step = numpy_chunk(len(p.slot))
        parts = [self._cells_priced(n[i:i + step], totals[i:i + step], dtype) for i in range(0, len(n), step)]
        counts: Counts = parts[0] if len(parts) == 1 else np.concatenate(parts)
        return counts

    @cached_property
    def _kernel_constants(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The point value of each rank and the suits of each colour, as the kernel takes them."""
        return np.array(_RANK_VALUE, np.int64), np.array(COLOUR_SUITS, np.int64)

    def price_one_compiled(self, kernel: ModuleType, comp: npt.NDArray[np.int64],
                           und: npt.NDArray[np.int64]) -> Counts:
        """One shoe by the compiled single-shoe kernel
        (:func:`exactodds.engine.single_kernel.deal_faces_one`): the same cells and sums."""
        assert self.coup is not None
        m, single = self._rows
        rank_value, colours = self._kernel_constants
        out: Counts = kernel.deal_faces_one(comp, rank_value, colours, und, trie(self.coup.table),
                                            np.asarray(m, np.int64), np.asarray(single, np.int64), self._plan)
        return out

    def _cells_priced(self, n: npt.NDArray[Any], totals: npt.NDArray[Any], dtype: type) -> Counts:
        """The numpy path of :meth:`price_classes` for one step of shoes."""
        assert self.coup is not None
        t = trie(self.coup.table)
        m, single = self._rows
        derived, ranks = self._terms(n, dtype)
        b = n.shape[0]
        ways = node_ways(t, derived.transpose(1, 0, 2).reshape(7 * b, -1)).reshape(7, b, -1)[:, :, t.row_node]
        value = np.maximum(single, 0)
        rank, rank_suit, rank_colour = (np.where(single >= 0, ranks[:, i, value, m], 0) for i in range(3))
        cells = np.stack(face_cells(ways[0], ways[1:5].sum(axis=0), ways[5:7].sum(axis=0), rank, rank_suit,
                                    rank_colour), axis=2)                            # (b, rows, 6)
        return settle(self._plan, cells.reshape(b, -1), undealt(totals, self.depth, dtype))


def deal_faces_level(name: str, coup: Level) -> DealFacesLevel:
    """The deal-faces level over ``coup``'s value shapes."""
    return DealFacesLevel(
        name, "the Coup plus suit, colour and rank facts of all dealt cards",
        tuple(range(len(FACES))), coup.walk, coup.result, deal_faces_from_deal,
        suits="symmetric",
        suits_reason="its results read only 'all dealt cards one suit', 'one colour', ranks and "
        "point values, which a relabelling of suits that keeps or swaps the colours leaves "
        "unchanged; those relabellings carry any suit to any other",
        headroom=4, coup=coup)
