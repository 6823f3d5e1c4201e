"""Paytable design: pays as symbols, the return as an exact expression, a solver and a sweep.

A designer asks "which pay (or commission, or meter amount) gives a house edge of 5%?".
The return of a wager under a paytable is ``Σ_o n_o·net_o / total`` with ``n_o`` the
engine's exact integer counts of each settled outcome (:func:`~exactodds.figures.analysis.analyze`)
and ``net_o`` the net pay per unit. Here each pay becomes a sympy ``Symbol`` (``pay_…``),
a commission rate ``c`` enters as ``net = 1 − c`` (§ 631a.8 "1 to 1 less commission"), a
progressive meter amount ``M`` as ``net = share·M/stake − 1``. Coefficients are built as
``sympy.Rational(count, total)`` straight from the integers -- no float, no ``nsimplify``.

**Which outcome a round settles on can depend on the pays.** A wager whose regulation ranks
its outcomes settles on the first that holds (``settle = "first"``); the return is then one
linear expression in the pays. Otherwise (``"highest"``) a round settles on the best-paying
outcome that holds, so the return is piecewise linear in one pay, with breaks where that pay
crosses another. :func:`solve_edge` therefore solves on each piece between those breaks (the
counts of a piece come from a paytable with the unknown strictly inside it) and keeps the
root that lies in its piece; the answer is re-checked by ``analyze`` on a paytable carrying it.

sympy is the ``[design]`` extra and is imported only inside these functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import ceil, floor
from typing import Any, Literal

from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.errors import InputError
from exactodds.exact import decimal, percent, ratio
from exactodds.figures.analysis import Analysis, analysis_of, analyze
from exactodds.figures.plan import compile_plan
from exactodds.game.cards import Shoe

Kind = Literal["pay", "commission", "meter"]

MAX_SWEEP_POINTS = 10_000
"""Most pays a sweep prices (each is one exact analysis)."""


def _sympy() -> Any:
    try:
        import sympy  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the [design] extra is installed with [test]
        raise InputError("exactodds design needs sympy: pip install 'exactodds[design]'") from None
    return sympy


def symbol_name(name: str, kind: Kind = "pay") -> str:
    """The symbol of an outcome's pay (``pay_Dragon_7``), a commission (``commission``) or a
    meter amount in dollars (``M_mega``).

    >>> symbol_name("Dragon 7"), symbol_name("x", "commission"), symbol_name("heavenly-9", "meter")
    ('pay_Dragon_7', 'commission', 'M_heavenly_9')
    """
    if kind == "commission":
        return "commission"
    prefix = "M_" if kind == "meter" else "pay_"
    return prefix + re.sub(r"\W", "_", name, flags=re.ASCII)


@dataclass(frozen=True)
class Unknown:
    """What a designer solves or sweeps for: an outcome's "N to 1" pay, the commission rate
    of a "1 to 1 less commission" pay, or the dollar amount of a progressive meter."""

    kind: Kind
    name: str
    """The outcome (pay, commission) or meter (meter) it sets."""
    outcome: str
    """The outcome whose net pay it moves (for a meter: the first outcome paying that meter)."""

    @property
    def symbol(self) -> str:
        return symbol_name(self.name, self.kind)

    def describe(self) -> str:
        if self.kind == "pay":
            return f"pay of {self.name!r} (N to 1)"
        if self.kind == "commission":
            return f"commission on {self.outcome!r}"
        return f"{self.name!r} meter amount (dollars)"

    def show(self, value: Fraction) -> str:
        """The value as a designer writes it: ``40 to 1``, ``5%``, ``$62,500``."""
        if self.kind == "pay":
            return f"{_short(value)} to 1"
        if self.kind == "commission":
            return percent(value, 4).rstrip("0").rstrip(".").replace(".%", "%") if value else "0%"
        return f"${_short(value)}"


def _short(x: Fraction) -> str:
    """An exact value as an integer, a terminating decimal, or ``p/q`` (≈decimal)."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d == 1:
        return decimal(x, 20).rstrip("0")
    text = ratio(x)
    return text if len(text) <= 20 else decimal(x, 6) + "…"


def find_unknown(wager: Wager[Any], table: Paytable, name: str) -> Unknown:
    """The unknown ``name`` names: a meter of the paytable, ``commission`` (the paytable's
    commission pay), or an outcome the paytable pays (its commission, meter or N-to-1 pay)."""
    meters = {m.name for m in table.meters}
    if name in meters:
        outcome = next((o for o, p in table.pays.items() if p.meter == name), name)
        return Unknown("meter", name, outcome)
    if name == "commission":
        found = [o for o, p in table.pays.items() if "commission" in p.text]
        if len(found) != 1:
            raise InputError(f"paytable {table.id!r} has {len(found)} commission pays; name the outcome instead")
        return Unknown("commission", found[0], found[0])
    if name not in table.pays:
        known = ", ".join([*table.pays, *sorted(meters)])
        raise InputError(f"{name!r} is not an outcome or meter paytable {wager.id}/{table.id} pays (it pays: {known})")
    pay = table.pays[name]
    if pay.meter is not None:
        return Unknown("meter", pay.meter, name)
    if "commission" in pay.text:
        return Unknown("commission", name, name)
    return Unknown("pay", name, name)


def current_value(table: Paytable, unknown: Unknown, meters: Mapping[str, Fraction] | None = None) -> Fraction:
    """The unknown's value in the paytable as it stands (a meter: given amount, else its reset)."""
    if unknown.kind == "meter":
        given = dict(meters or {})
        if unknown.name in given:
            return Fraction(given[unknown.name])
        reset = next(m.reset for m in table.meters if m.name == unknown.name)
        return reset or Fraction(0)
    net = table.pays[unknown.outcome].net
    return 1 - net if unknown.kind == "commission" else net


def with_value(table: Paytable, unknown: Unknown, value: Fraction) -> Paytable:
    """``table`` with the pay (or commission) set to ``value``; a meter is priced by amount, so
    its paytable is unchanged (pass the amount to ``analyze(meters=...)``)."""
    if unknown.kind == "meter":
        return table
    if unknown.kind == "commission":
        if not 0 <= value <= 1:
            raise InputError(f"a commission must be between 0% and 100%, got {percent(value)}")
        pay = Pay.commission(value)
    else:
        pay = Pay.to(value)
    return replace(table, pays={**table.pays, unknown.outcome: pay})


def _carrying(wager: Wager[Any], table: Paytable, unknown: Unknown, value: Fraction,
              meters: Mapping[str, Fraction] | None) -> tuple[Wager[Any], Paytable, dict[str, Fraction] | None]:
    """The wager, paytable and meter amounts carrying the unknown at ``value``."""
    new = with_value(table, unknown, value)
    amounts = dict(meters or {})
    if unknown.kind == "meter":
        if value < 0:
            raise InputError(f"meter {unknown.name!r} cannot be negative")
        amounts[unknown.name] = value
    return replace(wager, paytables=(new,)), new, amounts or None


def analyze_with(wager: Wager[Any], table: Paytable, shoe: Shoe, unknown: Unknown, value: Fraction,
                 meters: Mapping[str, Fraction] | None = None) -> Analysis:
    """The exact analysis with the unknown at ``value``: the plain ``analyze`` of a paytable
    (or meter amount) carrying it -- the check every design figure is held to."""
    w, new, amounts = _carrying(wager, table, unknown, value, meters)
    return analyze(w, new.id, shoe, amounts)


def _net_symbolic(pay: Pay, table: Paytable, symbols: Mapping[str, Any],
                  meters: Mapping[str, Fraction]) -> Any:
    sp = _sympy()
    if pay.meter is not None:
        stake = table.stake or Fraction(1)
        m = symbols.get(symbol_name(pay.meter, "meter"))
        amount = m if m is not None else sp.Rational(meters[pay.meter].numerator, meters[pay.meter].denominator)
        return sp.Rational(pay.share.numerator * stake.denominator, pay.share.denominator * stake.numerator) * amount - 1
    return sp.Rational(pay.net.numerator, pay.net.denominator)


def return_expression(a: Analysis, unknowns: Sequence[Unknown]) -> Any:
    """The return of analysis ``a`` as an exact sympy expression in the unknowns' symbols:
    ``Σ Rational(count, total)·net``, the outcome counts those of ``a`` (so for a
    ``"highest"`` wager the expression holds while the pays keep their order)."""
    sp = _sympy()
    symbols = {u.symbol: sp.Symbol(u.symbol) for u in unknowns}
    by_outcome = {u.outcome: u for u in unknowns if u.kind != "meter"}
    amounts = dict(a.meter_amounts or {})
    expr = sp.Integer(0)
    for row in a.rows:
        u = by_outcome.get(row.name)
        if u is None:
            net = _net_symbolic(row.pay, a.paytable, symbols, amounts)
        elif u.kind == "commission":
            net = 1 - symbols[u.symbol]
        else:
            net = symbols[u.symbol]
        expr += sp.Rational(row.count, a.total) * net
    return sp.expand(expr)


def all_unknowns(wager: Wager[Any], table: Paytable) -> list[Unknown]:
    """Every pay, commission and meter of the paytable (losses and pushes stay numbers)."""
    out: list[Unknown] = []
    seen: set[str] = set()
    for name, pay in table.pays.items():
        if pay.net in (0, -1) and pay.meter is None:
            continue
        u = find_unknown(wager, table, name)
        if u.symbol not in seen:
            seen.add(u.symbol)
            out.append(u)
    return out


def _to_fraction(x: Any) -> Fraction:
    p, q = x.as_numer_denom()
    return Fraction(int(p), int(q))


def linear_terms(expr: Any) -> tuple[tuple[str, Fraction], ...]:
    """A linear expression's exact coefficients, ``("", constant)`` first, then by symbol.

    >>> import sympy
    >>> linear_terms(sympy.Rational(1, 3) * sympy.Symbol("pay_x") - sympy.Rational(1, 2))
    (('', Fraction(-1, 2)), ('pay_x', Fraction(1, 3)))
    """
    sp = _sympy()
    poly = sp.Poly(expr, *sorted(expr.free_symbols, key=str)) if expr.free_symbols else None
    if poly is not None and poly.total_degree() > 1:
        raise ValueError("not a linear expression")
    coeffs = expr.as_coefficients_dict()
    const = _to_fraction(coeffs.get(sp.Integer(1), sp.Integer(0)))
    terms = sorted((str(k), _to_fraction(v)) for k, v in coeffs.items() if k != 1)
    return (("", const), *terms)


@dataclass(frozen=True)
class Solution:
    """The exact pay for a target edge, the nearest allowed pays either side, and their edges."""

    wager: Wager[Any]
    paytable: Paytable
    shoe: Shoe
    unknown: Unknown
    target_edge: Fraction
    value: Fraction | None
    """The exact solution (``None`` when no value gives the target edge)."""
    expression: str
    """The return as an exact expression in the unknown, on the piece holding the solution."""
    terms: tuple[tuple[str, Fraction], ...]
    """The same expression's exact coefficients (:func:`linear_terms`)."""
    step: Fraction | None
    below: tuple[Fraction, Fraction] | None
    """(pay, exact house edge) of the nearest allowed pay at or below the solution."""
    above: tuple[Fraction, Fraction] | None
    edge_at_solution: Fraction | None
    """``analyze``'s house edge with the solution in the paytable (equals the target)."""


def _pieces(table: Paytable, unknown: Unknown, wager: Wager[Any]) -> list[tuple[Fraction | None, Fraction | None]]:
    """Intervals of the unknown on which every round settles on the same outcome."""
    if wager.settle_rule == "first":
        return [(None, None)]
    others = {p.net for o, p in table.pays.items() if o != unknown.outcome and p.meter is None}
    others.add(wager.otherwise_pay(table).net)
    if unknown.kind == "commission":  # net = 1 − c: breaks at c = 1 − net
        breaks = sorted({1 - n for n in others})
    elif unknown.kind == "pay":
        breaks = sorted(others)
    else:  # net = share·M/stake − 1
        pay = table.pays[unknown.outcome]
        stake = table.stake or Fraction(1)
        breaks = sorted({(n + 1) * stake / pay.share for n in others} if pay.share else set())
    bounds: list[Fraction | None] = [None, *breaks, None]
    return list(zip(bounds[:-1], bounds[1:]))


def _inside(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    if lo is None and hi is None:
        return Fraction(0)
    if lo is None:
        assert hi is not None
        return hi - 1
    if hi is None:
        return lo + 1
    return (lo + hi) / 2


def _domain(unknown: Unknown) -> tuple[Fraction | None, Fraction | None]:
    if unknown.kind == "commission":
        return Fraction(0), Fraction(1)
    if unknown.kind == "meter":
        return Fraction(0), None
    return Fraction(-1), None  # a pay below "−1 to 1" would take more than the stake


def solve_edge(wager: Wager[Any], table: Paytable, shoe: Shoe, unknown: Unknown, target_edge: Fraction,
               step: Fraction | None = None, meters: Mapping[str, Fraction] | None = None) -> Solution:
    """The exact value of ``unknown`` that gives ``target_edge``, solved piece by piece
    (module docstring), and -- with ``step`` (e.g. 1 for whole "N to 1" pays) -- the nearest
    multiples of ``step`` on both sides with their exact edges from ``analyze``."""
    sp = _sympy()
    if step is not None and step <= 0:
        raise InputError("--step must be positive")
    x = sp.Symbol(unknown.symbol)
    d_lo, d_hi = _domain(unknown)
    value: Fraction | None = None
    expression = ""
    terms: tuple[tuple[str, Fraction], ...] = ()
    for lo, hi in _pieces(table, unknown, wager):
        if d_lo is not None and hi is not None and hi < d_lo or d_hi is not None and lo is not None and lo > d_hi:
            continue
        probe = _inside(lo, hi)
        if d_lo is not None and probe < d_lo:
            probe = d_lo if hi is None or d_lo < hi else probe
        if d_hi is not None and probe > d_hi:
            probe = d_hi if lo is None or d_hi > lo else probe
        a = analyze_with(wager, table, shoe, unknown, probe, meters)
        expr = return_expression(a, [unknown])
        roots = sp.solve(sp.Eq(-expr, sp.Rational(target_edge.numerator, target_edge.denominator)), x)
        if not roots:
            continue
        root = _to_fraction(roots[0])
        if (lo is None or root >= lo) and (hi is None or root <= hi) \
                and (d_lo is None or root >= d_lo) and (d_hi is None or root <= d_hi):
            value, expression, terms = root, str(expr), linear_terms(expr)
            break
    below = above = None
    edge_at = None
    if value is not None:
        edge_at = analyze_with(wager, table, shoe, unknown, value, meters).house_edge
        if step is not None:
            lo_v = floor(value / step) * step
            hi_v = ceil(value / step) * step
            below = (Fraction(lo_v), analyze_with(wager, table, shoe, unknown, Fraction(lo_v), meters).house_edge)
            above = (Fraction(hi_v), analyze_with(wager, table, shoe, unknown, Fraction(hi_v), meters).house_edge)
    return Solution(wager, table, shoe, unknown, target_edge, value, expression, terms, step, below, above, edge_at)


@dataclass(frozen=True)
class SweepRow:
    value: Fraction
    analysis: Analysis


def sweep(wager: Wager[Any], table: Paytable, shoe: Shoe, unknown: Unknown, start: Fraction, stop: Fraction,
          step: Fraction, meters: Mapping[str, Fraction] | None = None) -> list[SweepRow]:
    """The exact analysis at ``start, start+step, …, ≤ stop``: the paytables (or meter
    amounts) carrying each value compiled into one plan
    (:func:`~exactodds.figures.plan.compile_plan`), the shoe priced and tallied once, each
    analysis read from that tally as :func:`analyze_with` would make it."""
    if step <= 0:
        raise InputError("a sweep step must be positive")
    if stop < start:
        raise InputError("a sweep must run from a smaller to a larger value (e.g. 30..50)")
    n = (stop - start) // step + 1
    if n > MAX_SWEEP_POINTS:
        raise InputError(f"a sweep of {n:,} values is too long (at most {MAX_SWEEP_POINTS:,})")
    values = [start + i * step for i in range(int(n))]
    carrying = [_carrying(wager, table, unknown, v, meters) for v in values]
    tally = compile_plan(wager.level, [(w, t) for w, t, _ in carrying]).tally(shoe)
    return [SweepRow(v, analysis_of(tally, i, amounts, shoe)) for i, (v, (_, _, amounts)) in enumerate(zip(values, carrying))]


def parse_range(text: str, what: str) -> tuple[str, Fraction, Fraction, Fraction | None]:
    """``NAME=LO..HI`` or ``NAME=LO..HI:STEP`` (a sweep).

    >>> parse_range("Dragon 7=30..50:0.5", "--sweep")
    ('Dragon 7', Fraction(30, 1), Fraction(50, 1), Fraction(1, 2))
    """
    from exactodds.inputs import parse_number, shown

    name, sep, rng = text.rpartition("=")
    lo_t, dots, rest = rng.partition("..")
    if not sep or not name.strip() or not dots:
        raise InputError(f"{what} must be NAME=LO..HI or NAME=LO..HI:STEP, got {shown(text)}")
    hi_t, colon, step_t = rest.partition(":")
    lo, hi = parse_number(lo_t, f"{what} start"), parse_number(hi_t, f"{what} end")
    step = parse_number(step_t, f"{what} step") if colon else None
    return name.strip(), lo, hi, step


def parse_edge(text: str) -> Fraction:
    """A target house edge: ``5%``, ``0.05`` or ``1/20``, below 100 %.

    A house edge of 100 % or more would need every round to lose the whole stake or more, which
    no pay can give (a wager loses at most its stake): such a target is refused here, in one
    line, rather than searched for and reported as "no solution" (issue 25). A negative target
    (the player's advantage) has no such bound and is searched for.

    >>> parse_edge("5%"), parse_edge("1/20"), parse_edge("-2.5%")
    (Fraction(1, 20), Fraction(1, 20), Fraction(-1, 40))
    >>> parse_edge("150%")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: --target-edge must be below 100% (a wager loses at most its stake), got '150%'
    """
    from exactodds.inputs import parse_number, shown

    t = text.strip()
    edge = parse_number(t[:-1], "--target-edge") / 100 if t.endswith("%") else parse_number(t, "--target-edge")
    if edge >= 1:
        raise InputError(f"--target-edge must be below 100% (a wager loses at most its stake), got {shown(text)}")
    return edge


def sympy_text(expr: Any) -> str:
    """The expression as sympy prints it (exact rationals), for JSON and CSV."""
    return str(expr)


__all__ = ["Solution", "SweepRow", "Unknown", "all_unknowns", "analyze_with", "current_value", "find_unknown",
           "linear_terms",
           "parse_edge", "parse_range", "return_expression", "solve_edge", "sweep", "symbol_name", "with_value"]
