"""Settle once, tally once: a wager's outcome for every result of its level, as an index.

Settling a round is the wager's rule (:meth:`~exactodds.catalogue.model.Wager.settle`);
it depends only on the result, never on the shoe. So per (wager, paytable) each result
of the level is settled once, into an integer outcome index, and the *tally* of any
shoe -- or of a batch of shoes, or of the rounds a simulator dealt -- is one integer
matrix product of the counts per result with a 0/1 matrix. ``Fraction``s appear only
afterwards, one per outcome. Every figure (analysis, effects of removal, certify, the
House Money ride, the simulator and crosscheck) tallies through :func:`settlement`.

>>> from exactodds.catalogue import get_wager
>>> banker = get_wager("banker")
>>> s = settlement(banker, banker.paytable("5pct"))
>>> s.names
('Banker wins', 'Tie', 'Player wins')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import TYPE_CHECKING, Any

from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.engine.pricing import Counts
from exactodds.engine.single import loaded_kernel
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from exactodds.engine.level import Level
    from exactodds.game.cards import Shoe
else:
    np = LazyModule("numpy", globals(), "np")


@dataclass(frozen=True, eq=False)
class Settlement:
    """One (wager, paytable): the outcome of each of its level's results."""

    wager: Wager[Any]
    paytable: Paytable
    names: tuple[str, ...]
    """Outcome names: those the paytable pays, in declared order, then ``otherwise``."""
    index: npt.NDArray[np.intp]
    """``index[i]``: the outcome result ``i`` of the level settles on."""

    @cached_property
    def pays(self) -> tuple[Pay, ...]:
        """The pay of each outcome (a meter pay is priced by the figures)."""
        return outcome_pays(self.wager, self.paytable, self.names)

    @cached_property
    def scaled_nets(self) -> tuple[tuple[int, ...], int]:
        """:func:`scaled_nets` of the pays as declared (a meter pay at the paytable's own figure)."""
        return scaled_nets(self.pays)

    @cached_property
    def _runs(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None:
        """``(order, starts)``: results sorted by outcome and where each outcome's run
        starts; None if some outcome has no result (a run of zero length)."""
        order = np.argsort(self.index, kind="stable").astype(np.intp)
        starts = np.searchsorted(self.index[order], np.arange(len(self.names))).astype(np.intp)
        return (order, starts) if bool(np.all(np.diff(np.r_[starts, len(order)]) > 0)) else None

    @cached_property
    def matrix(self) -> npt.NDArray[np.int64]:
        """``(results, outcomes)`` 0/1 matrix."""
        out = np.zeros((len(self.index), len(self.names)), np.int64)
        out[np.arange(len(self.index)), self.index] = 1
        return out

    def tally_one(self, counts: Counts) -> list[int]:
        """:meth:`tally` of one shoe's counts per result, as Python ints: the sum of each
        outcome's run of results (one gather, one ``reduceat``), else the matrix product."""
        runs = self._runs
        if runs is None or counts.dtype == object:
            out: list[int] = self.tally(counts).tolist()
            return out
        order, starts = runs
        summed: list[int] = np.add.reduceat(counts[order], starts).tolist()
        return summed

    def tally(self, counts: Counts) -> Counts:
        """Counts per outcome from counts per result (``(..., results) -> (..., outcomes)``),
        in the counts' own exact dtype."""
        matrix = self.matrix.astype(object) if counts.dtype == object else self.matrix
        out: Counts = counts @ matrix
        return out

    def return_numerators(self, counts: Counts, nets: tuple[Fraction, ...] | None = None) -> tuple[list[int], int]:
        """``(numerators, denominator)``: each shoe's return is ``numerator / (denominator ×
        its dealt total)``, from exact nets (default: the paytable's, fixed pays only)."""
        nets = nets or tuple(p.net for p in self.pays)
        den = int(np.lcm.reduce([Fraction(x).denominator for x in nets]))
        scaled = [int(Fraction(x) * den) for x in nets]
        tallied = self.tally(counts)
        rows = tallied.tolist() if tallied.ndim == 2 else [tallied.tolist()]
        return [sum(int(c) * s for c, s in zip(row, scaled)) for row in rows], den


def scaled_nets(pays: tuple[Pay, ...]) -> tuple[tuple[int, ...], int]:
    """``(scaled, L)``: each net pay times ``L``, the nets' common denominator, as integers
    (so a return or a variance is integer sums and one Fraction).

    >>> scaled_nets((Pay(Fraction(19, 20), "19 to 20"), Pay(Fraction(-1), "lose")))
    ((19, -20), 20)
    """
    den = lcm(*(p.net.denominator for p in pays))
    return tuple(p.net.numerator * (den // p.net.denominator) for p in pays), den


def outcome_pays(wager: Wager[Any], paytable: Paytable, names: tuple[str, ...]) -> tuple[Pay, ...]:
    """The pay of each named outcome: the paytable's, else the wager's ``otherwise`` pay."""
    return tuple(paytable.pays.get(n) or wager.otherwise_pay(paytable) for n in names)


_CACHE: dict[tuple[int, int], Settlement] = {}
_OUTCOMES: dict[tuple[int, int], tuple[Wager[Any], Paytable, tuple[str, ...], tuple[int, ...], tuple[Pay, ...]]] = {}
_SPLITS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Every outcome index :func:`outcomes` made, interned: paytables that split a level's
results alike (Banker 5% and 4%, say) share one tuple, whose ``id`` keys their shared
tally of a shoe (:class:`ShoeTallies`)."""


def outcomes(wager: Wager[Any], paytable: Paytable) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Pay, ...]]:
    """``(names, outcome index of each result, pays)`` of ``wager`` under ``paytable``, in
    Python ints (no numpy: a shipped standard shoe is settled by :func:`tally_ints`);
    each result settled once per pair, then cached. :func:`settlement` is built on it."""
    key = (id(wager), id(paytable))
    hit = _OUTCOMES.get(key)
    if hit is None or hit[0] is not wager or hit[1] is not paytable:
        names = tuple(wager.outcome_names(paytable))
        position = {n: i for i, n in enumerate(names)}
        index = tuple(position[wager.settle(paytable, r)] for r in wager.level.results)
        index = _SPLITS.setdefault(index, index)
        _splits_of(wager.level).add(index)
        hit = _OUTCOMES[key] = (wager, paytable, names, index, outcome_pays(wager, paytable, names))
    return hit[2], hit[3], hit[4]


def tally_ints(index: tuple[int, ...], size: int, counts: list[int]) -> list[int]:
    """Counts per outcome (``size`` of them) from counts per result, in Python ints: the
    :meth:`Settlement.tally` of one shoe without numpy.

    >>> tally_ints((0, 1, 0, 2), 3, [5, 6, 7, 8])
    [12, 6, 8]
    """
    out = [0] * size
    for i, n in zip(index, counts):
        out[i] += n
    return out


def settlement(wager: Wager[Any], paytable: Paytable) -> Settlement:
    """The settlement of ``wager`` under ``paytable`` (built once per pair, then cached)."""
    key = (id(wager), id(paytable))
    hit = _CACHE.get(key)
    if hit is not None and hit.wager is wager and hit.paytable is paytable:
        return hit
    names, index, _ = outcomes(wager, paytable)
    hit = _CACHE[key] = Settlement(wager, paytable, names, np.array(index, np.intp))
    return hit


class LevelSplits:
    """The distinct outcome splits (interned index tuples) of a level's results that
    :func:`outcomes` has made: a warm process tallies a new shoe by several of them in one
    compiled pass (:func:`~exactodds.engine.single_kernel.tally_splits`), those the
    previous shoe at the level was asked for (a sweep asks the same ones shoe after shoe),
    else all of them."""

    __slots__ = ("splits", "_packed", "_expected")

    def __init__(self) -> None:
        self.splits: dict[int, tuple[int, ...]] = {}
        """Each split by its ``id``."""
        self._packed: dict[tuple[int, ...], Packed] = {}
        self._expected: dict[tuple[tuple[int, ...], int], Packed] = {}

    def add(self, index: tuple[int, ...]) -> None:
        """Add the split ``index`` (an interned tuple), if new."""
        if index:
            self.splits.setdefault(id(index), index)

    def expected(self, expect: tuple[int, ...]) -> Packed:
        """:meth:`packed` of the splits ``expect`` names that this level knows, else of all
        it knows (memoized by ``expect`` and the number known: a sweep expects the same
        splits shoe after shoe)."""
        key = (expect, len(self.splits))
        hit = self._expected.get(key)
        if hit is None:
            if len(self._expected) >= 16:
                self._expected.clear()
            known = tuple(k for k in expect if k in self.splits)
            hit = self._expected[key] = self.packed(known or tuple(self.splits))
        return hit

    def packed(self, ids: tuple[int, ...]) -> Packed:
        """The splits of these ``id``s end to end, for the compiled tally (built once per set)."""
        hit = self._packed.get(ids)
        if hit is None:
            if len(self._packed) >= 16:
                self._packed.clear()
            start: dict[int, tuple[int, int]] = {}
            orders, bounds, size = [], [], 0
            for s, key in enumerate(ids):
                index = self.splits[key]
                n = max(index) + 1
                start[key] = (size, n)
                size += n
                idx = np.array(index, np.intp)
                order = np.argsort(idx, kind="stable")
                orders.append(order)
                bounds.append(np.searchsorted(idx[order], np.arange(n)) + s * len(idx))
            if not ids:
                return Packed({}, np.zeros(0, np.intp), np.zeros(1, np.intp))
            hit = self._packed[ids] = Packed(start, np.concatenate(orders).astype(np.intp),
                                             np.r_[np.concatenate(bounds), len(ids) * len(orders[0])].astype(np.intp))
        return hit


@dataclass(frozen=True)
class Packed:
    """Several outcome splits end to end: outcome ``j`` (of all, in turn) is settled on by
    the results ``order[bounds[j]:bounds[j + 1]]``; ``start`` maps a split's ``id`` to its
    first outcome and how many it has (its largest outcome index + 1; a paytable naming
    more has those never settled: zero)."""

    start: dict[int, tuple[int, int]]
    order: npt.NDArray[np.intp]
    bounds: npt.NDArray[np.intp]


_LEVEL_SPLITS: dict[Level, LevelSplits] = {}


def _splits_of(level: Level) -> LevelSplits:
    hit = _LEVEL_SPLITS.get(level)
    if hit is None:
        hit = _LEVEL_SPLITS[level] = LevelSplits()
    return hit


class ShoeTallies:
    """One shoe's exact counts per result at one level, and each outcome split's tally of
    them, made once per shoe: the paytables that split the results alike (the 11 core
    paytables have 7 splits) share one tally, as :meth:`Settlement.tally` would give it.
    In a process that has loaded the compiled single-shoe kernel, int64 counts are tallied
    in one pass, when a split is first asked for, by the splits ``expect`` names (those
    the previous shoe at the level was asked for), else by every split the level knows.

    >>> from exactodds.catalogue import get_wager
    >>> from exactodds.game.cards import Shoe
    >>> banker = get_wager("banker")
    >>> five, four = banker.paytable("5pct"), banker.paytable("4pct")
    >>> (_, i5, _), (_, i4, _) = outcomes(banker, five), outcomes(banker, four)
    >>> st = shoe_tallies(banker.level, Shoe.standard(8))
    >>> i5 is i4 and st.tally(i5, 3, banker, five) is st.tally(i4, 3, banker, four)
    True
    """

    __slots__ = ("shoe", "level", "universe", "counts", "void", "expect", "_tallies", "_flat")

    def __init__(self, shoe: Shoe, level: Level, universe: int, counts: Counts | list[int], void: int,
                 expect: tuple[int, ...] = ()) -> None:
        self.shoe, self.level, self.universe, self.counts, self.void = shoe, level, universe, counts, void
        self.expect = expect
        self._tallies: dict[int, tuple[int, ...]] = {}
        self._flat: tuple[dict[int, tuple[int, int]], list[int]] | None = None

    def tally(self, index: tuple[int, ...], size: int, wager: Wager[Any], paytable: Paytable) -> tuple[int, ...]:
        """Counts per outcome of the split ``index`` (as :func:`outcomes` gives it, of
        ``wager`` under ``paytable``; ``size`` outcomes), computed on first use: by
        :func:`tally_ints` for shipped counts (a list), from the one-pass tally where the
        compiled kernel is loaded and the pass had it, else by :meth:`Settlement.tally_one`."""
        hit = self._tallies.get(id(index))
        if hit is None:
            counts = self.counts
            if isinstance(counts, list):
                hit = tuple(tally_ints(index, size, counts))
            else:
                flat = self._flat or self._tally_all()
                at = flat[0].get(id(index)) if flat is not None else None
                if at is None or flat is None:
                    hit = tuple(settlement(wager, paytable).tally_one(counts))
                else:
                    first, n = at
                    hit = (*flat[1][first:first + n], *(0,) * (size - n))
            assert sum(hit) + self.void == self.universe, "outcome counts must add up to the universe"
            self._tallies[id(index)] = hit
        return hit

    def asked(self) -> tuple[int, ...]:
        """The ``id``s of the splits tallied on this shoe so far, in the order asked."""
        return tuple(self._tallies)

    def _tally_all(self) -> tuple[dict[int, tuple[int, int]], list[int]] | None:
        """The expected (else every known) split's tally of int64 counts in one compiled pass
        (None where the kernel is not loaded, or the counts are Python ints)."""
        kernel = loaded_kernel()
        counts = self.counts
        if kernel is None or not isinstance(counts, np.ndarray) or counts.dtype != np.int64:
            return None
        p = _splits_of(self.level).expected(self.expect)
        if not p.start:  # a level without results
            return None
        self._flat = (p.start, kernel.tally_splits(counts, p.order, p.bounds))
        return self._flat


_LAST: dict[Level, ShoeTallies] = {}
"""The last shoe tallied at each level (an analysis of every paytable of a shoe in turn
prices and tallies it once); one entry per level."""


def shoe_tallies(level: Level, shoe: Shoe) -> ShoeTallies:
    """The :class:`ShoeTallies` of ``shoe`` at ``level``: the last one made for that very
    shoe object, else a new one from :meth:`~exactodds.engine.level.Level.priced`, expecting
    the splits the previous shoe at the level was asked for."""
    hit = _LAST.get(level)
    if hit is None or hit.shoe is not shoe:
        expect = hit.asked() if hit is not None else ()
        hit = _LAST[level] = ShoeTallies(shoe, level, *level.priced(shoe), expect)
    return hit


def forget_shoe_tallies() -> None:
    """Drop the last shoe's tallies at every level (a test that changes how a level prices
    a shoe it priced before)."""
    _LAST.clear()
