"""Figures for a wager, a paytable and a shoe: the outcome table and its summary.

>>> from exactodds.game.cards import Shoe
>>> a = analyze("banker", "5pct", Shoe.standard(8))
>>> a.total == 4998398275503360, percent(a.house_edge)
(True, '1.0579%')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import repeat
from math import lcm
from operator import mul
from typing import TYPE_CHECKING, Any, NamedTuple

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.errors import InputError
from exactodds.exact import Sqrt, percent, ratio, reduced
from exactodds.figures.settlement import ShoeTallies, outcomes, register_moments, scaled_nets, shoe_tallies
from exactodds.game.cards import Shoe
from exactodds.game.protocol import Outcome, OutcomeTable
from exactodds.version import __version__

VOID = "Round void: shoe ran out (§ 629a.13(e))"
"""The row for rounds a short shoe cannot finish; every wager pushes on them."""


@dataclass(frozen=True, slots=True)
class OutcomeRow:
    """One line of an outcome table: its count of the universe ``total``."""

    name: str
    pay: Pay
    count: int
    total: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.count, self.total)

    @property
    def contribution(self) -> Fraction:
        """This outcome's part of the return: net pay times probability."""
        return self.pay.net * self.probability


@dataclass(frozen=True, repr=False)
class Analysis:
    """The exact analysis of one wager under one paytable for one shoe.

    Exact figures (``return_``, ``house_edge``, ``variance``, ...) are Fractions; ``std_dev``
    is an exact :class:`~exactodds.exact.Sqrt` of the variance (usually irrational).
    In a notebook the analysis shows as a short line (``repr``) or its outcome table
    (``_repr_html_``).

    >>> analyze("tie", shoe="decks=8")
    <Analysis tie (8to1), 8 decks (416 cards): house edge 14.3596%, 2 outcomes>
    """

    wager: Wager[Any]
    paytable: Paytable
    shoe: Shoe
    total: int
    rows: tuple[OutcomeRow, ...]
    meter_amounts: Mapping[str, Fraction] | None = None
    """Progressives: the meter amounts (dollars) the rows are priced at."""
    meters_given: bool = False
    """Progressives: whether those amounts were given (else: regulated resets, 0 if none)."""

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise type every unknown attribute Any
        def __getattr__(self, name: str) -> Any:
            """``rows`` of an analysis :func:`analyze` made: built on first use from the
            names, pays and counts it holds (a sweep over shoes reads only the figures, and
            making a row object per outcome was a fifth of a new shoe's analysis)."""
            parts = self.__dict__.get("_parts") if name == "rows" else None
            if parts is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            names, pays, counts = parts
            if isinstance(counts, tuple) and len(counts) == 2 and isinstance(counts[0], ShoeTallies):
                counted, split = counts      # the figures came from the compiled pass: the counts from it now
                counts = counted.settled(split) or counted.tally(split, len(names), self.wager, self.paytable)
            if len(counts) < len(names):  # the one-pass tally's slice: the outcomes after it settle nothing
                counts = (*counts, *repeat(0, len(names) - len(counts)))
            assert sum(counts) == self.total, "outcome counts must add up to the universe"
            rows = self.__dict__["rows"] = tuple(map(OutcomeRow, names, pays, counts, repeat(self.total, len(names))))
            return rows

    @classmethod
    def _made(cls, wager: Wager[Any], paytable: Paytable, shoe: Shoe, total: int,
              parts: tuple[tuple[str, ...], tuple[Pay, ...], Sequence[int] | tuple[ShoeTallies, tuple[int, ...]]],
              meter_amounts: Mapping[str, Fraction] | None,
              meters_given: bool, moments: tuple[int, int, int]) -> Analysis:
        """The analysis :func:`analyze` made, its rows left as ``parts`` (names, pays, and
        counts or the shoe's tallies and split to read them from; :attr:`rows` builds them
        when first read) and its integer ``moments``
        already in hand; equal, field by field, to the one the constructor makes."""
        a = object.__new__(cls)
        d = a.__dict__                      # filled key by key: ~30 % faster than update() with keywords
        d["wager"], d["paytable"], d["shoe"], d["total"] = wager, paytable, shoe, total
        d["meter_amounts"], d["meters_given"], d["_parts"], d["_moments"] = meter_amounts, meters_given, parts, moments
        return a

    @cached_property
    def _moments(self) -> tuple[int, int, int]:
        """``(Σ n·net·L, Σ n·(net·L)², L)`` in integers, ``L`` the nets' common denominator:
        the return and the variance each become one Fraction."""
        den = lcm(*(r.pay.net.denominator for r in self.rows))
        scaled = [(r.count, r.pay.net.numerator * (den // r.pay.net.denominator)) for r in self.rows]
        return sum(n * x for n, x in scaled), sum(n * x * x for n, x in scaled), den

    @property
    def return_(self) -> Fraction:
        """Expected net result per unit wagered."""
        first, _, den = self._moments
        return reduced(first, den * self.total)

    @property
    def house_edge(self) -> Fraction:
        first, _, den = self._moments
        return reduced(-first, den * self.total)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability of a positive net result."""
        return Fraction(sum(r.count for r in self.rows if r.pay.net > 0), self.total)

    @property
    def push_probability(self) -> Fraction:
        return Fraction(sum(r.count for r in self.rows if r.pay.net == 0), self.total)

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit wagered."""
        first, second, den = self._moments
        total = self.total
        return reduced(second * total - first * first, (den * total) ** 2)

    @property
    def std_dev(self) -> Sqrt:
        """Standard deviation, exactly: :class:`~exactodds.exact.Sqrt` of the variance (√variance
        is usually irrational, so it is held as its exact square). It compares, hashes and scales
        exactly like the Fractions beside it, and shows (``str``) as a decimal correctly rounded
        to 10 places by integer square root -- the JSON ``std_dev`` member. Never a float."""
        return Sqrt(self.variance)

    def __repr__(self) -> str:
        """A short line: wager, paytable, shoe, house edge, number of outcomes."""
        return (f"<Analysis {self.wager.id} ({self.paytable.id}), {self.shoe.describe()}: "
                f"house edge {percent(self.house_edge)}, {len(self.rows)} outcomes>")

    def _repr_html_(self) -> str:
        """The outcome table and summary as HTML (Jupyter), every name escaped."""
        from html import escape

        head = "".join(f"<th>{h}</th>" for h in ("Outcome", "Pays", "Count", "Probability", "Return (%)"))
        body = "".join(
            f"<tr><td>{escape(r.name)}</td><td>{escape(r.pay.text)}</td><td>{r.count:,}</td>"
            f"<td>{percent(r.probability, 6)}</td><td>{percent(r.contribution, 6)}</td></tr>"
            for r in self.rows)
        return (f"<p><b>{escape(self.wager.name)}</b> ({escape(self.paytable.id)}), {escape(self.shoe.describe())}"
                f" &mdash; house edge {percent(self.house_edge)}, std dev {self.std_dev}</p>"
                f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")

    @property
    def element_of_risk(self) -> Fraction | None:
        """House edge per unit of resolved wager, where pushes can happen; else None."""
        push = self.push_probability
        if push == 0 or push == 1:  # no pushes, or nothing resolved (e.g. every round void)
            return None
        return self.house_edge / (1 - push)

    def outcome_table(self) -> OutcomeTable:
        """The analysis as the game seam's exact outcome table (:mod:`exactodds.game.protocol`):
        its rows' names, nets, pays in words and counts over the universe of card sequences.
        Read after the figures: the pricing path never builds it."""
        return OutcomeTable(tuple(Outcome(r.name, r.pay.net, r.pay.text, r.count) for r in self.rows), self.total,
                            "as dealt (no player decision)",
                            f"ordered card sequences off the top of the shoe, {self.shoe.describe()}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract as a plain dict (:func:`analysis_json`):
        integers as ints, exact values as ``"p/q"`` strings."""
        return analysis_json(self)

    def to_frame(self) -> Any:
        """The outcome table as a pandas DataFrame, exact values as Fraction objects
        (:func:`exactodds.figures.frames.analysis_frame`; needs the ``pandas`` extra)."""
        from exactodds.figures.frames import analysis_frame

        return analysis_frame(self)

    def summary(self) -> str:
        """One line for humans."""
        return (f"{self.wager.id} ({self.paytable.id}), {self.shoe.describe()}: "
                f"house edge {percent(self.house_edge)}")


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


def as_shoe(shoe: Shoe | str | int | None) -> Shoe:
    """A :class:`Shoe` from what :func:`analyze` accepts: a Shoe, a number of decks, a shoe
    spec, or None (8 decks); anything else is an input error."""
    if isinstance(shoe, bool) or not isinstance(shoe, Shoe | int | str | None):
        raise InputError(f"shoe must be a Shoe, a number of decks or a shoe spec, got {type(shoe).__name__}")
    if isinstance(shoe, int):
        from exactodds.game.shoespec import resolve_shoe

        return resolve_shoe(shoe)
    if isinstance(shoe, str):
        from exactodds.game.shoespec import parse_shoe_spec

        return parse_shoe_spec(shoe)
    return shoe if shoe is not None else Shoe.standard(8)


def analyze(wager: str | Wager[Any], paytable: str | None = None, shoe: Shoe | str | int | None = None,
            meters: Mapping[str, Fraction] | None = None) -> Analysis:
    """Price ``wager`` under ``paytable`` (default: the catalogue's) for ``shoe`` (default 8 decks).

    ``shoe`` is a :class:`Shoe`, a number of decks, or the command line's ``--shoe`` spec
    (``"decks=6"``, ``"KS=8,9H=7,..."``, a .json/.csv file; :mod:`exactodds.game.shoespec`).

    Progressives: ``meters`` (name -> dollars) prices the meter pays; without it the rows
    are priced at the regulated resets and :mod:`exactodds.figures.progressive` gives the exact
    expression in the meter amounts.
    """
    w = get_wager(wager) if isinstance(wager, str) else wager
    table = w.paytable(paytable)
    if type(shoe) is not Shoe:
        shoe = as_shoe(shoe)
    t = _TERMS.get(id(table))
    if t is None or t.table is not table or t.wager is not w:
        t = _terms(w, table)
    counted = shoe_tallies(w.level, shoe)
    amounts = dict(t.resets) if t.resets is not None else None  # the regulated resets: a copy per analysis
    void = counted.void
    if not (meters or void):
        pair = counted.moments(id(t), t.split)  # from the compiled pass, where it took them exactly
        if pair is not None:                    # (the rows' counts: read when the rows are)
            return Analysis._made(w, table, shoe, counted.universe, (t.names, t.pays, (counted, t.split)), amounts,
                                  False, (*pair, t.den))
    names, pays, scaled, squares, den = t.names, t.pays, t.scaled, t.squares, t.den
    tallied: Sequence[int] | None = None if void else counted.settled(t.split)  # the rows pad it when read
    if tallied is None:
        tallied = counted.tally(t.split, len(names), w, table)
    if meters:  # amounts given: every meter pay priced at them
        amounts = meter_amounts(table, meters)
        pays = tuple(priced_pay(p, table, amounts) for p in outcomes(w, table)[2])
        scaled, den = scaled_nets(pays)
        squares = tuple(x * x for x in scaled)
    # the figures' integer moments (the void row pushes: net 0, it adds nothing)
    moments = (sum(map(mul, tallied, scaled)), sum(map(mul, tallied, squares)), den)
    if void:
        names, pays, tallied = (*names, VOID), (*pays, Pay.push()), (*tallied, void)
    return Analysis._made(w, table, shoe, counted.universe, (names, pays, tallied), amounts, bool(meters), moments)


class _Terms(NamedTuple):
    """What :func:`analyze` reads of one (wager, paytable), made once per pair: the outcome
    names, the split of the level's results (:func:`~exactodds.figures.settlement.outcomes`),
    the pays (a progressive's at its regulated resets), their nets scaled to integers over
    the common denominator ``den`` and the squares of those (the two moments are then
    integer dot products with a shoe's tally)."""

    wager: Wager[Any]
    table: Paytable
    names: tuple[str, ...]
    split: tuple[int, ...]
    pays: tuple[Pay, ...]
    scaled: tuple[int, ...]
    squares: tuple[int, ...]
    den: int
    resets: dict[str, Fraction] | None
    """A progressive's meter amounts at the regulated resets (0 where none); else None."""


_TERMS: dict[int, _Terms] = {}


def _terms(w: Wager[Any], table: Paytable) -> _Terms:
    """The :class:`_Terms` of ``w`` under ``table`` (built once per pair, then cached; keyed
    by the paytable's ``id``, checked to be this very pair)."""
    hit = _TERMS.get(id(table))
    if hit is None or hit.wager is not w or hit.table is not table:
        names, index, pays = outcomes(w, table)
        resets = None
        if table.meters:
            resets = meter_amounts(table, None)
            pays = tuple(priced_pay(p, table, resets) for p in pays)
        scaled, den = scaled_nets(pays)
        hit = _TERMS[id(table)] = _Terms(w, table, names, index, pays, scaled, tuple(x * x for x in scaled),
                                         den, resets)
        register_moments(w.level, hit, index, hit.scaled, hit.squares)
    return hit


def analysis_json(a: Analysis) -> dict[str, Any]:
    """The JSON contract for one analysis (see README, "JSON contract"): the analysis as
    data, integers as ints and exact values as ``"p/q"``; every output format starts here."""
    eor = a.element_of_risk
    doc = {
        "wager": a.wager.id,
        "name": a.wager.name,
        "cite": a.wager.cite,
        "paytable": a.paytable.id,
        "paytable_cite": a.paytable.cite,
        "reading": a.wager.reading or None,
        "shoe": a.shoe.to_json(),
        "total": a.total,
        "outcomes": [
            {
                "outcome": r.name,
                "pays": ratio(r.pay.net),
                "pays_text": r.pay.text,
                "count": r.count,
                "probability": ratio(r.probability),
                "return": ratio(r.contribution),
            }
            for r in a.rows
        ],
        "return": ratio(a.return_),
        "house_edge": ratio(a.house_edge),
        "hit_frequency": ratio(a.hit_frequency),
        "variance": ratio(a.variance),
        "std_dev": str(a.std_dev),
        "element_of_risk": None if eor is None else ratio(eor),
        "version": __version__,
    }
    if a.paytable.meters:  # progressives: additive keys (exactodds.figures.progressive)
        from exactodds.figures.progressive import progressive_json

        doc.update(progressive_json(a))
    return doc
