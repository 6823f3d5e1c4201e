"""Settle once, tally once: a wager's outcome for every result of its level, as an index.

Settling a round is the wager's rule (:meth:`~exactodds.catalogue.model.Wager.settle`);
it depends only on the result, never on the shoe. So per (wager, paytable) each result
of the level is settled once, into an integer outcome index, and the *tally* of any
shoe -- or of a batch of shoes, or of the rounds a simulator dealt -- is one integer
matrix product of the counts per result with a 0/1 matrix. ``Fraction``s appear only
afterwards, one per outcome. A pair is compiled once into its :class:`Terms` (split,
pays, integer-scaled nets and their squares; :func:`compile_terms`, keyed by value: a
wager and a paytable hash by what they hold), which :mod:`exactodds.figures.plan` tallies
shoes by; :func:`settlement` gives the same split as arrays for batches (effects of
removal, the House Money ride, the study, the simulator and crosscheck).

>>> from exactodds.catalogue import get_wager
>>> banker = get_wager("banker")
>>> s = settlement(banker, banker.paytable("5pct"))
>>> s.names
('Banker wins', 'Tie', 'Player wins')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm
from typing import TYPE_CHECKING, Any

from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.engine.pricing import Counts
from exactodds.errors import InputError
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from exactodds.engine.level import Level
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


def meter_amounts(table: Paytable, meters: Mapping[str, Fraction] | None) -> dict[str, Fraction]:
    """Meter amounts to price ``table`` at: those given, else each meter's regulated reset
    (0 where the regulation sets none). Unknown names and negative amounts are input errors."""
    known = {m.name: m for m in table.meters}
    given = dict(meters or {})
    for name, amount in given.items():
        if name not in known:
            raise InputError(f"unknown meter {name!r} for paytable {table.id!r} "
                             f"(its meters: {', '.join(known) or 'none'})")
        if Fraction(amount) < 0:
            raise InputError(f"meter {name!r} cannot be negative, got {amount}")
    return {n: Fraction(given[n]) if n in given else (m.reset or Fraction(0)) for n, m in known.items()}


def priced_pay(pay: Pay, table: Paytable, amounts: Mapping[str, Fraction]) -> Pay:
    """A meter pay with its net per unit at the given amounts: share·M/stake − 1."""
    if pay.meter is None:
        return pay
    stake = table.stake or Fraction(1)
    return Pay(pay.share * amounts[pay.meter] / stake - 1, pay.text, pay.meter, pay.share)


@dataclass(frozen=True, eq=False)
class Terms:
    """One (wager, paytable) compiled: what every figure reads of the pair, made once from
    its rule (:meth:`~exactodds.catalogue.model.Wager.settle`) and its pays. The outcome
    names, the ``split`` (the outcome each result of the level settles on), the pays as
    declared, the pays priced (a progressive's meter pays at the regulated resets), their
    nets scaled to integers over the common denominator ``den`` and the squares of those
    (the return and the variance are then integer dot products with a shoe's tally)."""

    wager: Wager[Any]
    paytable: Paytable
    names: tuple[str, ...]
    split: tuple[int, ...]
    declared: tuple[Pay, ...]
    """The pay of each outcome as declared (a meter pay at its fixed part)."""
    pays: tuple[Pay, ...]
    """The pay of each outcome priced: a meter pay at the regulated resets (0 where none)."""
    scaled: tuple[int, ...]
    squares: tuple[int, ...]
    den: int
    resets: Mapping[str, Fraction] | None
    """A progressive's meter amounts at the regulated resets (0 where none); else None."""

    @property
    def level(self) -> Level:
        return self.wager.level

    def at_meters(self, meters: Mapping[str, Fraction]) -> tuple[tuple[Pay, ...], tuple[int, ...], tuple[int, ...],
                                                                 int, dict[str, Fraction]]:
        """``(pays, scaled, squares, den, amounts)`` with every meter pay priced at ``meters``
        (:func:`meter_amounts`: unknown names and negative amounts are input errors)."""
        amounts = meter_amounts(self.paytable, meters)
        pays = tuple(priced_pay(p, self.paytable, amounts) for p in self.declared)
        scaled, den = scaled_nets(pays)
        return pays, scaled, tuple(x * x for x in scaled), den, amounts


@lru_cache(maxsize=1024)
def compile_terms(wager: Wager[Any], paytable: Paytable) -> Terms:
    """The :class:`Terms` of ``wager`` under ``paytable``: each result of the level settled
    once, in Python ints (no numpy: a shipped standard shoe is settled by :func:`tally_ints`).
    Keyed by value (a wager and a paytable hash by what they hold), so an equal pair made
    anew (a design sweep, a wager file read twice) is the same terms."""
    names = tuple(wager.outcome_names(paytable))
    position = {n: i for i, n in enumerate(names)}
    split = tuple(position[wager.settle(paytable, r)] for r in wager.level.results)
    declared = outcome_pays(wager, paytable, names)
    pays, resets = declared, None
    if paytable.meters:
        resets = meter_amounts(paytable, None)
        pays = tuple(priced_pay(p, paytable, resets) for p in declared)
    scaled, den = scaled_nets(pays)
    return Terms(wager, paytable, names, split, declared, pays, scaled, tuple(x * x for x in scaled), den, resets)


def outcomes(wager: Wager[Any], paytable: Paytable) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Pay, ...]]:
    """``(names, outcome index of each result, pays as declared)`` of ``wager`` under
    ``paytable`` (:func:`compile_terms`)."""
    t = compile_terms(wager, paytable)
    return t.names, t.split, t.declared


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


@lru_cache(maxsize=256)
def settlement(wager: Wager[Any], paytable: Paytable) -> Settlement:
    """The settlement of ``wager`` under ``paytable`` as arrays (keyed by value, as
    :func:`compile_terms`)."""
    t = compile_terms(wager, paytable)
    return Settlement(wager, paytable, t.names, np.array(t.split, np.intp))
