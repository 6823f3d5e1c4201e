"""Figures for a wager, a paytable and a shoe: the outcome table and its summary.

>>> from exactodds.game.cards import Shoe
>>> a = analyze("banker", "5pct", Shoe.standard(8))
>>> a.total == 4998398275503360, percent(a.house_edge)
(True, '1.0579%')
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import repeat
from operator import mul
from typing import TYPE_CHECKING, Any, Final

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.errors import InputError
from exactodds.exact import Sqrt, percent, ratio, reduced
from exactodds.figures.plan import Plan, Tally, compile_plan, compile_plans
from exactodds.figures.settlement import scaled_nets
from exactodds.game.cards import Shoe
from exactodds.game.protocol import Outcome, OutcomeTable
from exactodds.version import __version__

if TYPE_CHECKING:
    from exactodds.engine.level import Level

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


@dataclass(frozen=True, repr=False, init=False)
class Analysis:
    """The exact analysis of one wager under one paytable for one shoe: a plain frozen value.

    Its outcome table is ``names``, ``pays`` and ``counts`` (of the universe ``total``;
    the void row last on a short shoe), read as :class:`OutcomeRow`\\ s by :attr:`rows`.
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
    names: tuple[str, ...]
    """Outcome names: those the paytable pays, in declared order, then ``otherwise`` (then
    :data:`VOID` on a short shoe)."""
    pays: tuple[Pay, ...]
    """The pay of each outcome (a progressive's meter pays priced at :attr:`meter_amounts`)."""
    counts: tuple[int, ...]
    """The count of each outcome; they add up to :attr:`total`."""
    meter_amounts: Mapping[str, Fraction] | None = None
    """Progressives: the meter amounts (dollars) the rows are priced at."""
    meters_given: bool = False
    """Progressives: whether those amounts were given (else: regulated resets, 0 if none)."""
    moments: tuple[int, int, int] = field(default=(0, 0, 1), compare=False)
    """``(Σ n·net·L, Σ n·(net·L)², L)`` in integers, ``L`` the nets' common denominator:
    the return and the variance each become one Fraction (derived from the pays and counts,
    hence not compared)."""

    def __init__(self, wager: Wager[Any], paytable: Paytable, shoe: Shoe, total: int, names: tuple[str, ...],
                 pays: tuple[Pay, ...], counts: tuple[int, ...], meter_amounts: Mapping[str, Fraction] | None = None,
                 meters_given: bool = False, moments: tuple[int, int, int] | None = None) -> None:
        """The fields as given; ``moments`` computed from the pays and counts unless given (a
        compiled plan's pass takes them). The fields are stored key by key in the instance's
        dict: the frozen dataclass's own ``__init__`` sets them one ``object.__setattr__`` at a
        time, three times slower, and a sweep over shoes makes one analysis per paytable per
        shoe. (That the counts add up to ``total`` is checked where they are tallied, and by
        :meth:`of_rows`.)"""
        if moments is None:
            scaled, den = scaled_nets(pays)
            moments = (sum(map(mul, counts, scaled)), sum(n * x * x for n, x in zip(counts, scaled)), den)
        d = self.__dict__
        d["wager"], d["paytable"], d["shoe"], d["total"], d["names"] = wager, paytable, shoe, total, names
        d["pays"], d["counts"], d["meter_amounts"], d["meters_given"], d["moments"] = \
            pays, counts, meter_amounts, meters_given, moments

    @classmethod
    def of_rows(cls, wager: Wager[Any], paytable: Paytable, shoe: Shoe, rows: Sequence[OutcomeRow],
                meter_amounts: Mapping[str, Fraction] | None = None, meters_given: bool = False) -> Analysis:
        """The analysis whose outcome table is ``rows`` (each of the same universe)."""
        total = rows[0].total if rows else 0
        assert all(r.total == total for r in rows) and sum(r.count for r in rows) == total, \
            "outcome counts must add up to the universe"
        return cls(wager, paytable, shoe, total, tuple(r.name for r in rows), tuple(r.pay for r in rows),
                   tuple(r.count for r in rows), meter_amounts, meters_given)

    @cached_property
    def rows(self) -> tuple[OutcomeRow, ...]:
        """The outcome table as rows (made when first read: a sweep over shoes reads only the
        figures, and a row object per outcome was a fifth of a new shoe's analysis)."""
        return tuple(map(OutcomeRow, self.names, self.pays, self.counts, repeat(self.total, len(self.names))))

    @property
    def return_(self) -> Fraction:
        """Expected net result per unit wagered."""
        first, _, den = self.moments
        return reduced(first, den * self.total)

    @property
    def house_edge(self) -> Fraction:
        first, _, den = self.moments
        return reduced(-first, den * self.total)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability of a positive net result."""
        return Fraction(sum(n for n, p in zip(self.counts, self.pays) if p.net > 0), self.total)

    @property
    def push_probability(self) -> Fraction:
        return Fraction(sum(n for n, p in zip(self.counts, self.pays) if p.net == 0), self.total)

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit wagered."""
        first, second, den = self.moments
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
                f"house edge {percent(self.house_edge)}, {len(self.names)} outcomes>")

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


def analysis_of(tally: Tally, i: int, meters: Mapping[str, Fraction] | None = None,
                shoe: Shoe | None = None) -> Analysis:
    """The analysis of pair ``i`` of ``tally``'s plan for its shoe: the outcome counts and
    moments the tally holds (void rounds push: a row of their own, net 0), a progressive's
    meter pays at the regulated resets, or at ``meters`` (name -> dollars) where given."""
    plan, flat = tally.plan, tally.flat
    t = plan.terms[i]
    counts = tally.outcome_counts(i)
    amounts: dict[str, Fraction] | None
    if meters:  # amounts given: every meter pay priced at them
        pays, scaled, squares, den, amounts = t.at_meters(meters)
        moments = (sum(map(mul, counts, scaled)), sum(map(mul, counts, squares)), den)
    else:
        pays, amounts = t.pays, (dict(t.resets) if t.resets is not None else None)  # a copy per analysis
        if flat is not None and tally.universe <= plan.limits[i]:  # from the pass (Tally.moments, inlined)
            at = plan.packed.moments_at[i]
            moments = (flat[at], flat[at + 1], t.den)
        else:
            moments = (*tally.moments(i), t.den)
    names, void = t.names, tally.void
    if void:
        names, pays, counts = (*names, VOID), (*pays, Pay.push()), (*counts, void)
    return Analysis(t.wager, t.paytable, shoe or tally.shoe, tally.universe, names, pays, counts, amounts,
                    bool(meters), moments)


def analyses(plan: Plan, shoe: Shoe) -> list[Analysis]:
    """The analysis of every pair of ``plan`` for ``shoe``, in the plan's order: one
    pricing and one tally of the shoe (:meth:`~exactodds.figures.plan.Plan.tally`)."""
    tally = plan.tally(shoe)
    return [analysis_of(tally, i, shoe=shoe) for i in range(len(plan.terms))]


def analyze_pairs(pairs: Sequence[tuple[Wager[Any], Paytable]], shoe: Shoe,
                  plans: Mapping[Level, Plan] | None = None) -> list[Analysis]:
    """The analysis of each (wager, paytable) of ``pairs`` for ``shoe``, in order: one
    compiled plan per level (``plans``, as :func:`~exactodds.figures.plan.compile_plans`
    makes them of these very pairs: a caller analysing several shoes compiles once), one
    tally of the shoe per level."""
    plans = compile_plans(pairs) if plans is None else plans
    by_level = {level: iter(analyses(plan, shoe)) for level, plan in plans.items()}
    return [next(by_level[w.level]) for w, _ in pairs]


class Session:
    """The plans :func:`analyze` tallies through, keyed by value, and the last shoe's tally
    at each level.

    :func:`analyze` is asked for one pair at a time; the session keeps, per level, the
    plan of the pairs asked at that level so far (at most ``max_pairs``; past that it
    starts again from the pair asked), so that an analysis of several paytables of one
    shoe prices and tallies it once. Plans are kept in an LRU of ``max_plans`` keyed by
    their level and pairs (a wager and a paytable hash by value): the same pairs asked
    again, in a new wager object or not, find their plan compiled.

    >>> s = Session()
    >>> s.analyze("banker", "5pct", Shoe.standard(8)).total == s.analyze("banker", "4pct", 8).total
    True
    """

    def __init__(self, max_plans: int = 32, max_pairs: int = 128) -> None:
        self.max_plans, self.max_pairs = max_plans, max_pairs
        self._plans: OrderedDict[tuple[Level, tuple[tuple[Wager[Any], Paytable], ...]], Plan] = OrderedDict()
        self._working: dict[Level, Plan] = {}
        self._last: dict[Level, Tally] = {}

    def plan(self, level: Level, pairs: tuple[tuple[Wager[Any], Paytable], ...]) -> Plan:
        """The compiled plan of ``pairs`` at ``level``: from the LRU, else compiled."""
        key = (level, pairs)
        hit = self._plans.get(key)
        if hit is None:
            hit = self._plans[key] = compile_plan(level, pairs)
            if len(self._plans) > self.max_plans:
                self._plans.popitem(last=False)
        else:
            self._plans.move_to_end(key)
        return hit

    def _grow(self, level: Level, pair: tuple[Wager[Any], Paytable]) -> Plan:
        """The level's plan with ``pair`` added (the pairs asked at the level so far, at most
        ``max_pairs``: past that, a plan of ``pair`` alone)."""
        plan = self._working.get(level)
        kept = tuple((t.wager, t.paytable) for t in plan.terms) \
            if plan is not None and len(plan.terms) < self.max_pairs else ()
        plan = self._working[level] = self.plan(level, (*kept, pair))
        return plan

    def analyze(self, wager: str | Wager[Any], paytable: str | None = None, shoe: Shoe | str | int | None = None,
                meters: Mapping[str, Fraction] | None = None) -> Analysis:
        """:func:`analyze` through this session: the pair's number in the level's plan (a
        pair new to the level: the plan with it added), the shoe's tally by that plan (the
        last one, if of this shoe and plan), the analysis read from it."""
        w = get_wager(wager) if isinstance(wager, str) else wager
        table = w.paytable(paytable)
        if type(shoe) is not Shoe:
            shoe = as_shoe(shoe)
        level = w.level
        plan = self._working.get(level)
        i = plan.find(w, table) if plan is not None else None
        if plan is None or i is None:
            plan = self._grow(level, (w, table))
            i = len(plan.terms) - 1
        last = self._last.get(level)
        if last is None or last.plan is not plan or (last.shoe is not shoe and last.shoe != shoe):
            last = self._last[level] = plan.tally(shoe)
        return analysis_of(last, i, meters, shoe)

    def clear(self) -> None:
        """Forget every plan and tally (a test that changes how a level prices a shoe)."""
        self._plans.clear()
        self._working.clear()
        self._last.clear()


SESSION: Final = Session()
"""The session :func:`analyze` goes through."""


def analyze(wager: str | Wager[Any], paytable: str | None = None, shoe: Shoe | str | int | None = None,
            meters: Mapping[str, Fraction] | None = None) -> Analysis:
    """Price ``wager`` under ``paytable`` (default: the catalogue's) for ``shoe`` (default 8 decks).

    ``shoe`` is a :class:`Shoe`, a number of decks, or the command line's ``--shoe`` spec
    (``"decks=6"``, ``"KS=8,9H=7,..."``, a .json/.csv file; :mod:`exactodds.game.shoespec`).

    Progressives: ``meters`` (name -> dollars) prices the meter pays; without it the rows
    are priced at the regulated resets and :mod:`exactodds.figures.progressive` gives the exact
    expression in the meter amounts.

    One pair at a time, through :data:`SESSION` (its compiled plans); a caller that knows
    its pairs compiles them once (:func:`analyze_pairs`, :func:`analyses`).
    """
    return SESSION.analyze(wager, paytable, shoe, meters)


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
