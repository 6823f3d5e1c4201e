"""Views of the paytable-design figures (:mod:`exactodds.figures.design`): the return as an
expression, a solution with its bracketing pays, and a sweep -- through the one format
dispatch (:func:`exactodds.report.views.render_view`), and a sweep's chart (matplotlib).
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

from exactodds.exact import decimal, percent, ratio
from exactodds.figures.analysis import Analysis
from exactodds.figures.design import Solution, SweepRow, Unknown, all_unknowns, linear_terms, return_expression
from exactodds.report.views import Pairs, Table, View, render_view
from exactodds.version import __version__


def dec15(x: Fraction) -> str:
    """``x`` to 15 significant digits, rounded from the exact value (no float)."""
    if x == 0:
        return "0"
    a = abs(x)
    exp = len(str(a.numerator // a.denominator)) if a >= 1 else -len(str(a.denominator // a.numerator)) + 1
    places = max(0, 15 - exp)
    text = decimal(x, places)
    return text.rstrip("0").rstrip(".") if "." in text else text


def readable(terms: tuple[tuple[str, Fraction], ...]) -> str:
    """A linear expression for a person: 15-significant-digit decimals (no long fraction),
    e.g. ``0.0225334037474785*pay_Dragon_7 - 0.977464…``; the exact form is in JSON and CSV."""
    parts = [(c, f"{dec15(abs(c))}*{v}") for v, c in terms if v and c] + \
        [(c, dec15(abs(c))) for v, c in terms if not v and c]
    if not parts:
        return "0"
    out = ("-" if parts[0][0] < 0 else "") + parts[0][1]
    for c, text in parts[1:]:
        out += (" - " if c < 0 else " + ") + text
    return out


def _exact(x: Fraction) -> str:
    """The exact value where it is short enough for a person, else nothing."""
    t = ratio(x)
    return t if len(t) <= 20 else ""


def expression_view(a: Analysis) -> View:
    """The return of one analysis as an exact expression in every pay, commission and meter."""
    unknowns = all_unknowns(a.wager, a.paytable)
    expr = return_expression(a, unknowns)

    def doc() -> dict[str, Any]:
        return {"wager": a.wager.id, "paytable": a.paytable.id, "cite": a.paytable.cite, "shoe": a.shoe.to_json(),
                "settle": a.wager.settle_rule,
                "symbols": [{"symbol": u.symbol, "kind": u.kind, "sets": u.name, "outcome": u.outcome} for u in unknowns],
                "return_expression": str(expr), "return": ratio(a.return_), "return_decimal": dec15(a.return_),
                "outcomes": [{"outcome": r.name, "count": r.count, "probability": ratio(r.probability),
                              "probability_decimal": dec15(r.probability)} for r in a.rows],
                "total": a.total, "version": __version__}

    def text() -> list[Any]:
        return [f"{a.wager.name} ({a.paytable.id}), {a.shoe.describe()} -- {a.paytable.cite}", "",
                Table(["symbol", "sets", "now"], [[u.symbol, u.describe(), u.show(_now(a, u))] for u in unknowns]),
                "", "Return per unit wagered (holds while the pays keep their order; exact form in JSON/CSV):",
                readable(linear_terms(expr)),
                "", Pairs([("return now", f"{dec15(a.return_)} {_exact(a.return_)}".strip()),
                           ("house edge now", percent(a.house_edge))])]

    def csv() -> list[list[Any]]:
        return [["wager", "paytable", "return_expression", "return", "return_decimal"],
                [a.wager.id, a.paytable.id, str(expr), ratio(a.return_), dec15(a.return_)]]

    return View(doc, text, csv)


def _now(a: Analysis, u: Unknown) -> Fraction:
    from exactodds.figures.design import current_value

    return current_value(a.paytable, u, a.meter_amounts)


def solution_view(s: Solution) -> View:
    """A solution: exact value, the re-analysed edge, and the nearest allowed values either side."""
    def pair(p: tuple[Fraction, Fraction] | None) -> dict[str, str] | None:
        if p is None:
            return None
        return {"value": ratio(p[0]), "value_decimal": dec15(p[0]), "shown": s.unknown.show(p[0]),
                "house_edge": ratio(p[1]), "house_edge_decimal": dec15(p[1])}

    def doc() -> dict[str, Any]:
        return {"wager": s.wager.id, "paytable": s.paytable.id, "cite": s.paytable.cite, "shoe": s.shoe.to_json(),
                "solve_for": s.unknown.symbol, "kind": s.unknown.kind, "sets": s.unknown.name,
                "target_edge": ratio(s.target_edge), "target_edge_decimal": dec15(s.target_edge),
                "value": None if s.value is None else ratio(s.value),
                "value_decimal": None if s.value is None else dec15(s.value),
                "return_expression": s.expression,
                "house_edge_reanalysed": None if s.edge_at_solution is None else ratio(s.edge_at_solution),
                "step": None if s.step is None else ratio(s.step), "below": pair(s.below), "above": pair(s.above),
                "version": __version__}

    def rows() -> list[list[str]]:
        out = []
        if s.value is not None:
            out.append(["exact solution", s.unknown.show(s.value), percent(s.target_edge, 6)])
        for label, p in (("nearest below", s.below), ("nearest above", s.above)):
            if p is not None:
                out.append([label, s.unknown.show(p[0]), percent(p[1], 6)])
        return out

    def text() -> list[Any]:
        head = [f"{s.wager.name} ({s.paytable.id}), {s.shoe.describe()} -- {s.paytable.cite}",
                f"Solve the {s.unknown.describe()} for a house edge of {percent(s.target_edge, 6)}", ""]
        if s.value is None:
            return [*head, "No value of it gives that house edge."]
        return [*head, "Return on the piece holding the solution (exact form in JSON/CSV):", readable(s.terms), "",
                Table(["", "value", "house edge"], rows()), "",
                f"Re-analysed with the exact solution: house edge {percent(s.edge_at_solution or Fraction(0), 6)}"
                + (" (exactly the target)" if s.edge_at_solution == s.target_edge else "")]

    def csv() -> list[list[Any]]:
        out: list[list[Any]] = [["row", "value", "value_decimal", "house_edge", "house_edge_decimal"]]
        if s.value is not None:
            out.append(["solution", ratio(s.value), dec15(s.value), ratio(s.target_edge), dec15(s.target_edge)])
        for label, p in (("below", s.below), ("above", s.above)):
            if p is not None:
                out.append([label, ratio(p[0]), dec15(p[0]), ratio(p[1]), dec15(p[1])])
        return out

    return View(doc, text, csv)


def sweep_view(unknown: Unknown, rows: list[SweepRow]) -> View:
    """Edge by value: one exact analysis per row."""
    first = rows[0].analysis

    def doc() -> dict[str, Any]:
        return {"wager": first.wager.id, "paytable": first.paytable.id, "shoe": first.shoe.to_json(),
                "sweep": unknown.symbol, "kind": unknown.kind, "sets": unknown.name,
                "rows": [{"value": ratio(r.value), "value_decimal": dec15(r.value),
                          "return": ratio(r.analysis.return_), "return_decimal": dec15(r.analysis.return_),
                          "house_edge": ratio(r.analysis.house_edge),
                          "house_edge_decimal": dec15(r.analysis.house_edge)} for r in rows],
                "version": __version__}

    def text() -> list[Any]:
        return [f"{first.wager.name} ({first.paytable.id}), {first.shoe.describe()}: house edge by the "
                f"{unknown.describe()}", "",
                Table([unknown.kind, "house edge", "return"],
                      [[unknown.show(r.value), percent(r.analysis.house_edge, 6), dec15(r.analysis.return_)]
                       for r in rows])]

    def csv() -> list[list[Any]]:
        return [["wager", "paytable", "symbol", "value", "value_decimal", "house_edge", "house_edge_decimal"],
                *[[first.wager.id, first.paytable.id, unknown.symbol, ratio(r.value), dec15(r.value),
                   ratio(r.analysis.house_edge), dec15(r.analysis.house_edge)] for r in rows]]

    return View(doc, text, csv)


def sweep_plot(unknown: Unknown, rows: list[SweepRow], fmt: str = "png") -> bytes:
    """A chart of house edge by value (matplotlib, the ``[plot]`` extra). Plotted points are
    display values taken from the exact decimals."""
    from exactodds.extras import PLOT_METADATA, quiet_pyplot

    xs = [float(dec15(r.value)) for r in rows]  # display only
    ys = [float(dec15(r.analysis.house_edge * 100)) for r in rows]  # display only
    with quiet_pyplot("design --plot") as plt:
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot(xs, ys, marker="o")
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.set_xlabel(unknown.describe())
        ax.set_ylabel("house edge (%)")
        a = rows[0].analysis
        ax.set_title(f"{a.wager.name} ({a.paytable.id}), {a.shoe.describe()}")
        buf = io.BytesIO()
        try:
            fig.savefig(buf, format=fmt, metadata=PLOT_METADATA[fmt])
        finally:
            plt.close(fig)
    return buf.getvalue()


def render(view: View, fmt: str) -> str:
    """One design view in table, markdown, csv or json."""
    return render_view(view, fmt)
