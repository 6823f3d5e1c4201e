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
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.engine.pricing import INT64_MAX, Counts
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
    :func:`outcomes` has made, and the paytables' moment weights over them: a warm process
    tallies a new shoe by several splits, and takes several paytables' moments, in one
    compiled pass (:func:`~exactodds.engine.single_kernel.tally_splits`): those the
    previous shoe at the level was asked for (a sweep asks the same ones shoe after shoe),
    else all of them."""

    __slots__ = ("splits", "moments", "_packed", "_expected")

    def __init__(self) -> None:
        self.splits: dict[int, tuple[int, ...]] = {}
        """Each split by its ``id``."""
        self.moments: dict[int, Moments] = {}
        """Each paytable's moment weights by the ``id`` of its owner (who registered them)."""
        self._packed: dict[tuple[tuple[int, ...], tuple[int, ...]], Packed] = {}
        self._expected: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], Packed] = {}

    def add(self, index: tuple[int, ...]) -> None:
        """Add the split ``index`` (an interned tuple), if new."""
        if index:
            self.splits.setdefault(id(index), index)

    def add_moments(self, owner: object, index: tuple[int, ...], scaled: tuple[int, ...],
                    squares: tuple[int, ...]) -> None:
        """Register the moments ``Σ n_o·scaled[o]`` and ``Σ n_o·squares[o]`` over the
        outcome counts ``n`` of the split ``index``, under the key ``id(owner)`` (``owner``
        is kept, so the key stays its own). They are taken in the compiled pass for a shoe
        whose universe is at most ``INT64_MAX // max(squares)``: every partial sum is then
        at most the universe times the largest weight (``|x| ≤ x²`` for integers). Weights
        beyond int64 (a limit of 0) are not registered: every shoe is beyond it; nor are more
        than :data:`MAX_MOMENTS` (a paytable search makes paytables by the thousand: theirs
        are summed in Python)."""
        limit = INT64_MAX // max((1, *squares))
        if limit and id(index) in self.splits and id(owner) not in self.moments and len(self.moments) < MAX_MOMENTS:
            self.moments[id(owner)] = Moments(owner, id(index), scaled, squares, limit)

    def expected(self, expect: tuple[int, ...], expect_moments: tuple[int, ...] = ()) -> Packed:
        """:meth:`packed` of the splits and moments named that this level knows, else of all
        it knows (memoized by what is expected and the number known: a sweep expects the
        same shoe after shoe)."""
        key = (expect, expect_moments, len(self.splits), len(self.moments))
        hit = self._expected.get(key)
        if hit is None:
            if len(self._expected) >= 16:
                self._expected.clear()
            known = tuple(k for k in expect if k in self.splits) or tuple(self.splits)
            moments = tuple(k for k in expect_moments if k in self.moments) or tuple(self.moments)
            hit = self._expected[key] = self.packed(known, moments)
        return hit

    def packed(self, ids: tuple[int, ...], moment_ids: tuple[int, ...] = ()) -> Packed:
        """The splits of these ``id``s end to end, then the moments of these ``id``s whose
        split is among them, for the compiled tally (built once per set)."""
        hit = self._packed.get((ids, moment_ids))
        if hit is None:
            if len(self._packed) >= 16:
                self._packed.clear()
            if not ids:
                none = np.zeros(0, np.intp)
                return Packed({}, {}, none, np.zeros(1, np.intp), np.zeros(1, np.intp), none, np.zeros(0, np.int64))
            start: dict[int, tuple[int, int]] = {}
            orders, bounds, size = [], [], 0
            for s, key in enumerate(ids):
                index = self.splits[key]
                n = max(index) + 1
                start[key] = (size, n)
                size += n
                idx = np.array(index, np.intp)
                order = np.argsort(idx, kind="stable")      # a permutation: each result in one outcome
                orders.append(order)
                bounds.append(np.searchsorted(idx[order], np.arange(n)) + s * len(idx))
            at: dict[int, tuple[int, int]] = {}
            ptr, pos, weight = [0], list[int](), list[int]()
            for key in moment_ids:
                m = self.moments[key]
                if m.split not in start:
                    continue
                first, n = start[m.split]
                at[key] = (size + 2 * len(at), m.limit)
                for row in (m.scaled, m.squares):           # outcomes past the split's n settle nothing
                    pos += range(first, first + n)
                    weight += row[:n]
                    ptr.append(len(pos))
            hit = self._packed[ids, moment_ids] = Packed(
                start, at, np.concatenate(orders).astype(np.intp),
                np.r_[np.concatenate(bounds), len(ids) * len(orders[0])].astype(np.intp),
                np.array(ptr, np.intp), np.array(pos, np.intp), np.array(weight, np.int64))
        return hit


class Moments(NamedTuple):
    """A paytable's moment weights over the outcomes of a split (:meth:`LevelSplits.add_moments`)."""

    owner: object
    split: int
    scaled: tuple[int, ...]
    squares: tuple[int, ...]
    limit: int
    """The largest universe for which the compiled pass's int64 moments are exact."""


@dataclass(frozen=True)
class Packed:
    """Several outcome splits end to end, then several paytables' moments: outcome ``j``
    (of all, in turn) is settled on by the results ``order[bounds[j]:bounds[j + 1]]``;
    ``start`` maps a split's ``id`` to its first outcome and how many it has (its largest
    outcome index + 1; a paytable naming more has those never settled: zero); ``moments``
    maps a moments ``id`` to where its two sums follow the outcomes, and its universe
    limit; moment sum ``k`` is ``Σ form_weight[e] × outcome[form_at[e]]`` over
    ``form_ptr[k] <= e < form_ptr[k + 1]``."""

    start: dict[int, tuple[int, int]]
    moments: dict[int, tuple[int, int]]
    order: npt.NDArray[np.intp]
    bounds: npt.NDArray[np.intp]
    form_ptr: npt.NDArray[np.intp]
    form_at: npt.NDArray[np.intp]
    form_weight: npt.NDArray[np.int64]


MAX_MOMENTS: Final = 512
"""At most this many paytables' moments registered per level (the catalogue has 87 in all)."""

_LEVEL_SPLITS: dict[Level, LevelSplits] = {}


def _splits_of(level: Level) -> LevelSplits:
    hit = _LEVEL_SPLITS.get(level)
    if hit is None:
        hit = _LEVEL_SPLITS[level] = LevelSplits()
    return hit


def register_moments(level: Level, owner: object, index: tuple[int, ...], scaled: tuple[int, ...],
                     squares: tuple[int, ...]) -> None:
    """:meth:`LevelSplits.add_moments` at ``level``: a paytable's moments, for the
    compiled pass to take with the tallies of a new shoe."""
    _splits_of(level).add_moments(owner, index, scaled, squares)


class ShoeTallies:
    """One shoe's exact counts per result at one level, and each outcome split's tally of
    them, made once per shoe: the paytables that split the results alike (the 11 core
    paytables have 7 splits) share one tally, as :meth:`Settlement.tally` would give it.
    In a process that has loaded the compiled single-shoe kernel, int64 counts are tallied
    in one pass, when a split is first asked for, by the splits ``expect`` names (those
    the previous shoe at the level was asked for), else by every split the level knows;
    the same pass takes the moments ``expect_moments`` names (else all registered).

    >>> from exactodds.catalogue import get_wager
    >>> from exactodds.game.cards import Shoe
    >>> banker = get_wager("banker")
    >>> five, four = banker.paytable("5pct"), banker.paytable("4pct")
    >>> (_, i5, _), (_, i4, _) = outcomes(banker, five), outcomes(banker, four)
    >>> st = shoe_tallies(banker.level, Shoe.standard(8))
    >>> i5 is i4 and st.tally(i5, 3, banker, five) is st.tally(i4, 3, banker, four)
    True
    """

    __slots__ = ("shoe", "level", "universe", "counts", "void", "expect", "expect_moments", "_tallies", "_asked",
                 "_asked_moments", "_flat")

    def __init__(self, shoe: Shoe, level: Level, universe: int, counts: Counts | list[int], void: int,
                 expect: tuple[int, ...] = (), expect_moments: tuple[int, ...] = ()) -> None:
        self.shoe, self.level, self.universe, self.counts, self.void = shoe, level, universe, counts, void
        self.expect, self.expect_moments = expect, expect_moments
        self._tallies: dict[int, tuple[int, ...]] = {}
        self._asked: dict[int, None] = {}
        self._asked_moments: dict[int, None] = {}
        self._flat: tuple[Packed, list[int]] | None = None

    def settled(self, index: tuple[int, ...]) -> list[int] | None:
        """The one-pass tally of the split ``index`` as a new list of its first outcomes'
        counts (the outcomes after them settle no result: zero), or None where there is no
        such pass (the kernel not loaded, Python-int counts, a split the pass left out)."""
        self._asked[id(index)] = None
        return self._slot(index)

    def _slot(self, index: tuple[int, ...]) -> list[int] | None:
        """The one-pass tally's counts of the split ``index`` (its first outcomes), or None."""
        flat = self._flat or self._tally_all()
        at = flat[0].start.get(id(index)) if flat is not None else None
        if at is None or flat is None:
            return None
        first, n = at
        return flat[1][first:first + n]

    def moments(self, key: int, index: tuple[int, ...]) -> tuple[int, int] | None:
        """The two moments registered under ``key`` (:func:`register_moments`, over the
        split ``index``) from the one-pass tally, or None: no such pass, moments it left
        out, or a universe beyond their int64 limit."""
        self._asked[id(index)] = None
        self._asked_moments[key] = None
        flat = self._flat or self._tally_all()
        at = flat[0].moments.get(key) if flat is not None else None
        if at is None or flat is None or self.universe > at[1]:
            return None
        i = at[0]
        return flat[1][i], flat[1][i + 1]

    def tally(self, index: tuple[int, ...], size: int, wager: Wager[Any], paytable: Paytable) -> tuple[int, ...]:
        """Counts per outcome of the split ``index`` (as :func:`outcomes` gives it, of
        ``wager`` under ``paytable``; ``size`` outcomes), computed on first use: by
        :func:`tally_ints` for shipped counts (a list), from the one-pass tally where the
        compiled kernel is loaded and the pass had it, else by :meth:`Settlement.tally_one`."""
        hit = self._tallies.get(id(index))
        if hit is None:
            self._asked[id(index)] = None
            counts = self.counts
            if isinstance(counts, list):
                hit = tuple(tally_ints(index, size, counts))
            else:
                settled = self._slot(index)
                if settled is None:
                    hit = tuple(settlement(wager, paytable).tally_one(counts))
                else:
                    hit = (*settled, *(0,) * (size - len(settled)))
            assert sum(hit) + self.void == self.universe, "outcome counts must add up to the universe"
            self._tallies[id(index)] = hit
        return hit

    def asked(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The ``id``s of the splits, then of the moments, asked for on this shoe so far, in
        the order asked."""
        return tuple(self._asked), tuple(self._asked_moments)

    def _tally_all(self) -> tuple[Packed, list[int]] | None:
        """The expected (else every known) split's tally of int64 counts, and the expected
        moments, in one compiled pass (None where the kernel is not loaded, or the counts
        are Python ints)."""
        kernel = loaded_kernel()
        counts = self.counts
        if kernel is None or not isinstance(counts, np.ndarray) or counts.dtype != np.int64:
            return None
        p = _splits_of(self.level).expected(self.expect, self.expect_moments)
        if not p.start:  # a level without results
            return None
        flat = kernel.tally_splits(counts, p.order, p.bounds, p.form_ptr, p.form_at, p.form_weight)
        first, n = next(iter(p.start.values()))   # every split settles every result once (packed): one sum checks all
        assert sum(flat[first:first + n]) + self.void == self.universe, "outcome counts must add up to the universe"
        self._flat = (p, flat)
        return self._flat


_LAST: dict[Level, ShoeTallies] = {}
"""The last shoe tallied at each level (an analysis of every paytable of a shoe in turn
prices and tallies it once); one entry per level."""


def shoe_tallies(level: Level, shoe: Shoe) -> ShoeTallies:
    """The :class:`ShoeTallies` of ``shoe`` at ``level``: the last one made for that very
    shoe object, else a new one from :meth:`~exactodds.engine.level.Level.priced`, expecting
    the splits and moments the previous shoe at the level was asked for."""
    hit = _LAST.get(level)
    if hit is None or hit.shoe is not shoe:
        expect = hit.asked() if hit is not None else ((), ())
        hit = _LAST[level] = ShoeTallies(shoe, level, *level.priced(shoe), *expect)
    return hit


def forget_shoe_tallies() -> None:
    """Drop the last shoe's tallies at every level (a test that changes how a level prices
    a shoe it priced before)."""
    _LAST.clear()
