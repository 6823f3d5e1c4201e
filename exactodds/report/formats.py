"""Views of analyses, the catalogue and the wager list, rendered by the one dispatch
(:func:`exactodds.report.views.render_view`) as tables, JSON, CSV and Markdown.

Machine-readable output keeps integers as integers and every exact value as a
``"p/q"`` string; decimals appear only in human tables, derived from the exact value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, Final

from exactodds.catalogue.model import Wager
from exactodds.exact import decimal, percent, ratio
from exactodds.figures.analysis import Analysis, analysis_json
from exactodds.report.views import Block, Choice, Heading, Pairs, Table, View, render_view
from exactodds.version import __version__

FORMATS = ("table", "json", "csv", "markdown")
PROBABILITY_PLACES = 12


def _opt_ratio(x: Any) -> str | None:
    return None if x is None else ratio(x)


def _outcome_rows(a: Analysis) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [r.name, r.pay.text, f"{r.count:,}", decimal(r.probability, PROBABILITY_PLACES),
         decimal(r.contribution, PROBABILITY_PLACES)]
        for r in a.rows
    ]
    rows.append(["Total", "", f"{a.total:,}", decimal(1, PROBABILITY_PLACES),
                 decimal(a.return_, PROBABILITY_PLACES)])
    return rows


def _summary_pairs(a: Analysis) -> list[tuple[str, str]]:
    eor = a.element_of_risk
    return [
        ("Return", f"{ratio(a.return_)}  ({percent(a.return_, 6)})"),
        ("House edge", f"{ratio(a.house_edge)}  ({percent(a.house_edge, 6)})"),
        ("Hit frequency", f"{ratio(a.hit_frequency)}  ({percent(a.hit_frequency, 6)})"),
        ("Variance", ratio(a.variance)),  # a decimal to a person (views.human), p/q in JSON/CSV
        ("Standard deviation", str(a.std_dev)),
        ("Element of risk", "n/a (no pushes, or no round resolved)" if eor is None else f"{ratio(eor)}  ({percent(eor, 6)})"),
    ] + progressive_pairs(a)


def progressive_pairs(a: Analysis) -> list[tuple[str, str]]:
    """Progressives: the return in the meter amounts, break-even and long-run lines
    (none for a wager without meters)."""
    if not a.paytable.meters:
        return []
    from exactodds.figures.progressive import progressive_figures

    f = progressive_figures(a)
    lines = [("Return (meters M in $)", _readable(f.expression)),
             ("Priced at", ", ".join(f"{k} ${v}" for k, v in (a.meter_amounts or {}).items())),
             ("Return at reset", "n/a (reset not regulated)" if f.return_at_reset is None
              else f"{ratio(f.return_at_reset)}  ({percent(f.return_at_reset, 6)})")]
    for name, be in f.break_even.items():
        lines.append((f"Break-even {name} meter", "n/a" if be is None else
                      f"${decimal(be, 2)}  (to the cent; exact in --format json/csv)"))
    lr = f.long_run
    lines.append(("Long-run return", f"{ratio(lr)}  ({percent(lr, 6)})" if isinstance(lr, Fraction) else _readable(lr)))
    return lines


def _readable(form: Any) -> str:
    """A linear form (:class:`~exactodds.figures.progressive.Linear`) for a person: decimals,
    the exact form being in JSON and CSV."""
    return f"{form.readable()}  (decimals; exact form in --format json/csv)"


HEADERS = ["Outcome", "Pays", "Combinations", "Probability", "Return"]


def _title(a: Analysis) -> str:
    return f"{a.wager.name} -- paytable {a.paytable.id} -- {a.shoe.describe()}"


def _analysis_blocks(a: Analysis) -> list[Block]:
    cites = f"Wager: {a.wager.cite}. Paytable: {a.paytable.cite}."
    reading = [Choice(markdown=f"Reading: {a.wager.reading}"), Choice(markdown="")] if a.wager.reading else []
    return [Heading(_title(a), 3), Choice(markdown=""), cites, "", *reading,
            Table(HEADERS, _outcome_rows(a), ("left", "left", "right", "right", "right")), "",
            Pairs(_summary_pairs(a))]


ANALYSIS_CSV_COLUMNS: Final = (
    "table", "item", "pays", "pays_decimal", "pays_text", "count", "probability", "probability_decimal",
    "probability_one_in", "return", "return_decimal", "house_edge", "house_edge_decimal", "hit_frequency",
    "hit_frequency_decimal", "hit_frequency_one_in", "variance", "variance_decimal", "standard_deviation",
    "element_of_risk", "element_of_risk_decimal", "expression", "meter_amount", "meter_amount_decimal")
"""The analysis CSV's columns, one concept each, as in the certificate CSV (the ``table`` column
says what a row is: ``summary``, ``outcome``, ``total``, and for a progressive ``return_expression``,
``priced_at``, ``return_at_reset``, ``break_even``, ``long_run_return``)."""


def _csv_row(**cells: Any) -> list[Any]:
    """One analysis-CSV row: each cell in its column of :data:`ANALYSIS_CSV_COLUMNS`."""
    unknown = set(cells) - set(ANALYSIS_CSV_COLUMNS)
    if unknown:
        raise ValueError(f"not analysis CSV columns: {sorted(unknown)}")
    return [cells.get(c, "") for c in ANALYSIS_CSV_COLUMNS]


def _exact(name: str, x: Fraction | int | None, probability: bool = False) -> dict[str, str]:
    """An exact value's cells for :func:`_csv_row`: ``p/q``, its decimal (and 1-in-N)."""
    from exactodds.report.spreadsheet import exact_cells, exact_columns

    return dict(zip(exact_columns(name, probability), exact_cells(x, probability)))


def _analysis_csv(a: Analysis) -> list[list[Any]]:
    """One table: a ``summary`` row with the headline figures (return, house edge, hit frequency,
    variance, standard deviation, element of risk), the outcome rows and their ``total``, and,
    for a progressive, the return's linear form in the meters and its figures. Beside each
    exact ``p/q`` a decimal column (and 1-in-N for probabilities) that spreadsheets read as
    numbers (:mod:`exactodds.report.spreadsheet`)."""
    rows: list[list[Any]] = [list(ANALYSIS_CSV_COLUMNS)]
    rows.append(_csv_row(table="summary", item=a.wager.name, count=a.total, **_exact("return", a.return_),
                         **_exact("house_edge", a.house_edge), **_exact("hit_frequency", a.hit_frequency, True),
                         **_exact("variance", a.variance), standard_deviation=str(a.std_dev),
                         **_exact("element_of_risk", a.element_of_risk)))
    rows += [_csv_row(table="outcome", item=r.name, **_exact("pays", r.pay.net), pays_text=r.pay.text, count=r.count,
                      **_exact("probability", r.probability, True), **_exact("return", r.contribution))
             for r in a.rows]
    rows.append(_csv_row(table="total", item="Total", count=a.total, **_exact("probability", 1, True),
                         **_exact("return", a.return_)))
    if a.paytable.meters:
        from exactodds.figures.progressive import progressive_figures

        f = progressive_figures(a)
        rows.append(_csv_row(table="return_expression", item="return, meters M_... in $", expression=str(f.expression)))
        rows += [_csv_row(table="priced_at", item=k, **_exact("meter_amount", v))
                 for k, v in (a.meter_amounts or {}).items()]
        rows.append(_csv_row(table="return_at_reset", item="reset not regulated" if f.return_at_reset is None
                             else "return at reset", **_exact("return", f.return_at_reset)))
        rows += [_csv_row(table="break_even", item=k, **_exact("meter_amount", v)) for k, v in f.break_even.items()]
        lr = f.long_run
        rows.append(_csv_row(table="long_run_return", item="long-run return",
                             **(_exact("return", lr) if isinstance(lr, Fraction) else {"expression": str(lr)})))
    return rows


def analysis_view(a: Analysis) -> View:
    """One analysis: the JSON contract, the outcome table with its summary, the CSV rows."""
    return View(lambda: analysis_json(a), lambda: _analysis_blocks(a), lambda: _analysis_csv(a))


def render_analysis(a: Analysis, fmt: str) -> str:
    """One analysis in the chosen format."""
    return render_view(analysis_view(a), fmt)


def render_table(a: Analysis) -> str:
    """One analysis as a plain-text table."""
    return render_analysis(a, "table")


def render_markdown(a: Analysis) -> str:
    """One analysis as Markdown (the page of ``tables/``)."""
    return render_analysis(a, "markdown")


def render_csv(a: Analysis) -> str:
    """One analysis as CSV, exact and decimal columns side by side."""
    return render_analysis(a, "csv")


def catalogue_rows(analyses: Sequence[Analysis]) -> list[dict[str, Any]]:
    """One summary row per analysis, sorted by house edge (lowest first)."""
    ordered = sorted(analyses, key=lambda a: (a.house_edge, a.wager.id, a.paytable.id))
    return [
        {
            "wager": a.wager.id,
            "paytable": a.paytable.id,
            "house_edge": a.house_edge,
            "element_of_risk": a.element_of_risk,
            "hit_frequency": a.hit_frequency,
            "std_dev": a.std_dev,
            "cite": a.paytable.cite,
        }
        for a in ordered
    ]


def catalogue_view(analyses: Sequence[Analysis]) -> View:
    """Every analysis in one table, sorted by house edge."""
    rows = catalogue_rows(analyses)
    shoe = analyses[0].shoe if analyses else None

    def doc() -> dict[str, Any]:
        return {
            "shoe": shoe.to_json() if shoe else None,
            "wagers": [
                {**r, "house_edge": ratio(r["house_edge"]), "element_of_risk": _opt_ratio(r["element_of_risk"]),
                 "hit_frequency": ratio(r["hit_frequency"]), "std_dev": str(r["std_dev"])}
                for r in rows
            ],
            "version": __version__,
        }

    def csv_rows() -> list[list[Any]]:
        from exactodds.report.spreadsheet import exact_cells, exact_columns

        return [["wager", "paytable", *exact_columns("house_edge"), *exact_columns("element_of_risk"),
                 *exact_columns("hit_frequency", True), "std_dev", "cite"],
                *([r["wager"], r["paytable"], *exact_cells(r["house_edge"]), *exact_cells(r["element_of_risk"]),
                   *exact_cells(r["hit_frequency"], True), str(r["std_dev"]), r["cite"]] for r in rows)]

    def text() -> list[Block]:
        table = [
            [r["wager"], r["paytable"], percent(r["house_edge"], 4),
             "" if r["element_of_risk"] is None else percent(r["element_of_risk"], 4),
             percent(r["hit_frequency"], 4), r["std_dev"].decimal(6), r["cite"]]
            for r in rows
        ]
        headers = ["Wager", "Paytable", "House edge", "Element of risk", "Hit frequency", "Std dev", "Cite"]
        title = f"Every wager and paytable, {shoe.describe() if shoe else ''}, sorted by house edge"
        return [Heading(title, 2), "",
                Table(headers, table, ("left", "left", "right", "right", "right", "right", "left"))]

    return View(doc, text, csv_rows)


def render_catalogue(analyses: Sequence[Analysis], fmt: str) -> str:
    """Every analysis in one table, sorted by house edge."""
    return render_view(catalogue_view(analyses), fmt)


def wager_list_view(wagers: Iterable[Wager[Any]]) -> View:
    """Every wager id with its paytables and citation."""
    items: list[dict[str, Any]] = [
        {"wager": w.id, "name": w.name, "cite": w.cite, "default_paytable": w.default_paytable.id,
         "paytables": [{"id": p.id, "cite": p.cite, "note": p.note} for p in w.paytables]}
        for w in wagers
    ]

    def csv_rows() -> list[list[Any]]:  # one row per wager and paytable: a spreadsheet needs no list inside a cell
        return [["wager", "name", "paytable", "default", "wager_cite", "paytable_cite"],
                *([i["wager"], i["name"], p["id"], "yes" if p["id"] == i["default_paytable"] else "no",
                   i["cite"], p["cite"]] for i in items for p in i["paytables"])]

    def text() -> list[Block]:
        rows = [[i["wager"], i["name"], ", ".join(p["id"] for p in i["paytables"]), i["cite"]] for i in items]
        return [Choice(markdown="## Wagers"), Choice(markdown=""),
                Table(["Wager", "Name", "Paytables (default 1st)", "Cite"], rows, wrap=(None, 14, 23, 16))]

    return View(lambda: {"wagers": items, "version": __version__}, text, csv_rows)


def render_wager_list(wagers: Iterable[Wager[Any]], fmt: str) -> str:
    """Every wager id with its paytables and citation."""
    return render_view(wager_list_view(wagers), fmt)
