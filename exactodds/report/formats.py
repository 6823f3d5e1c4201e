"""Rendering analyses as tables (tabulate), JSON, CSV and Markdown, and atomic writes.

Machine-readable output keeps integers as integers and every exact value as a
``"p/q"`` string; decimals appear only in human tables, derived from the exact value.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from tabulate import tabulate

from exactodds import __version__
from exactodds.catalogue.model import Wager
from exactodds.exact import decimal, percent, ratio
from exactodds.figures.analysis import Analysis, OutcomeRow

FORMATS = ("table", "json", "csv", "markdown")
PROBABILITY_PLACES = 12


def _opt_ratio(x: Any) -> str | None:
    return None if x is None else ratio(x)


def analysis_json(a: Analysis) -> dict[str, Any]:
    """The JSON contract for one analysis (see README, "JSON contract")."""
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
                "name": r.name,
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
        "std_dev": a.std_dev,
        "element_of_risk": _opt_ratio(a.element_of_risk),
        "version": __version__,
    }
    if a.paytable.meters:  # progressives: additive keys (exactodds.figures.progressive)
        from exactodds.figures.progressive import progressive_json

        doc.update(progressive_json(a))
    return doc


def _pays_cell(r: OutcomeRow) -> str:
    return r.pay.text


def _outcome_rows(a: Analysis) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [r.name, _pays_cell(r), f"{r.count:,}", decimal(r.probability, PROBABILITY_PLACES),
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
        ("Variance", f"{ratio(a.variance)}  ({decimal(a.variance, 10)})"),
        ("Standard deviation", a.std_dev),
        ("Element of risk", "n/a (no pushes, or no round resolved)" if eor is None else f"{ratio(eor)}  ({percent(eor, 6)})"),
    ] + _progressive_pairs(a)


def _progressive_pairs(a: Analysis) -> list[tuple[str, str]]:
    """Progressives: the return in the meter amounts, break-even and long-run lines."""
    if not a.paytable.meters:
        return []
    from exactodds.figures.progressive import progressive_summary

    return progressive_summary(a)


HEADERS = ["Event", "Pays", "Combinations", "Probability", "Return"]


def _title(a: Analysis) -> str:
    return f"{a.wager.name} -- paytable {a.paytable.id} -- {a.shoe.describe()}"


def render_table(a: Analysis) -> str:
    body = tabulate(_outcome_rows(a), headers=HEADERS, colalign=("left", "left", "right", "right", "right"), disable_numparse=True)
    summary = tabulate(_summary_pairs(a), tablefmt="plain", disable_numparse=True)
    cites = f"Wager: {a.wager.cite}. Paytable: {a.paytable.cite}."
    return f"{_title(a)}\n{cites}\n\n{body}\n\n{summary}\n"


def render_markdown(a: Analysis) -> str:
    body = tabulate(_outcome_rows(a), headers=HEADERS, tablefmt="github",
                    colalign=("left", "left", "right", "right", "right"), disable_numparse=True)
    lines = [f"### {_title(a)}", "", f"Wager: {a.wager.cite}. Paytable: {a.paytable.cite}.", ""]
    if a.wager.reading:
        lines += [f"Reading: {a.wager.reading}", ""]
    lines += [body, ""]
    lines += [f"- **{k}**: {v}" for k, v in _summary_pairs(a)]
    return "\n".join(lines) + "\n"


def render_csv(a: Analysis) -> str:
    """Outcome rows; beside each exact ``p/q`` a decimal column (and 1-in-N for probabilities)
    that spreadsheets read as numbers (:mod:`exactodds.report.spreadsheet`)."""
    from exactodds.report.spreadsheet import exact_cells, exact_columns

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["event", *exact_columns("pays"), "pays_text", "count", *exact_columns("probability", True),
                *exact_columns("return")])
    for r in a.rows:
        w.writerow([r.name, *exact_cells(r.pay.net), r.pay.text, r.count, *exact_cells(r.probability, True),
                    *exact_cells(r.contribution)])
    w.writerow(["Total", "", "", "", a.total, *exact_cells(1, True), *exact_cells(a.return_)])
    return out.getvalue()


def render_json(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_analysis(a: Analysis, fmt: str) -> str:
    """One analysis in the chosen format."""
    if fmt == "json":
        return render_json(analysis_json(a))
    if fmt == "csv":
        return render_csv(a)
    if fmt == "markdown":
        return render_markdown(a)
    return render_table(a)


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


def render_catalogue(analyses: Sequence[Analysis], fmt: str) -> str:
    """Every analysis in one table, sorted by house edge."""
    rows = catalogue_rows(analyses)
    shoe = analyses[0].shoe if analyses else None
    if fmt == "json":
        return render_json({
            "shoe": shoe.to_json() if shoe else None,
            "wagers": [
                {**r, "house_edge": ratio(r["house_edge"]), "element_of_risk": _opt_ratio(r["element_of_risk"]),
                 "hit_frequency": ratio(r["hit_frequency"])}
                for r in rows
            ],
            "version": __version__,
        })
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        from exactodds.report.spreadsheet import exact_cells, exact_columns

        w.writerow(["wager", "paytable", *exact_columns("house_edge"), *exact_columns("element_of_risk"),
                    *exact_columns("hit_frequency", True), "std_dev", "cite"])
        for r in rows:
            w.writerow([r["wager"], r["paytable"], *exact_cells(r["house_edge"]), *exact_cells(r["element_of_risk"]),
                        *exact_cells(r["hit_frequency"], True), r["std_dev"], r["cite"]])
        return out.getvalue()
    table = [
        [r["wager"], r["paytable"], percent(r["house_edge"], 4),
         "" if r["element_of_risk"] is None else percent(r["element_of_risk"], 4),
         percent(r["hit_frequency"], 4), r["std_dev"][:8], r["cite"]]
        for r in rows
    ]
    headers = ["Wager", "Paytable", "House edge", "Element of risk", "Hit frequency", "Std dev", "Cite"]
    body = tabulate(table, headers=headers, tablefmt="github" if fmt == "markdown" else "simple",
                    colalign=("left", "left", "right", "right", "right", "right", "left"), disable_numparse=True)
    title = f"Every wager and paytable, {shoe.describe() if shoe else ''}, sorted by house edge"
    return f"{'## ' if fmt == 'markdown' else ''}{title}\n\n{body}\n"


def render_wager_list(wagers: Iterable[Wager[Any]], fmt: str) -> str:
    """Every wager id with its paytables and citation."""
    items: list[dict[str, Any]] = [
        {"wager": w.id, "name": w.name, "cite": w.cite, "default_paytable": w.default_paytable.id,
         "paytables": [{"id": p.id, "cite": p.cite, "note": p.note} for p in w.paytables]}
        for w in wagers
    ]
    if fmt == "json":
        return render_json({"wagers": items, "version": __version__})
    if fmt == "csv":  # one row per wager and paytable: a spreadsheet needs no list inside a cell
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["wager", "name", "paytable", "default", "wager_cite", "paytable_cite"])
        for i in items:
            for p in i["paytables"]:
                w.writerow([i["wager"], i["name"], p["id"], "yes" if p["id"] == i["default_paytable"] else "no",
                            i["cite"], p["cite"]])
        return out.getvalue()
    rows = [[i["wager"], i["name"], ", ".join(p["id"] for p in i["paytables"]), i["cite"]] for i in items]
    headers = ["Wager", "Name", "Paytables (default first)", "Cite"]
    if fmt == "markdown":
        return "## Wagers\n\n" + tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True) + "\n"
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True) + "\n"


# -- Pai Gow (ch. 535) ------------------------------------------------------------------------
def paigow_json(analyses: Sequence[Any], vigorish_rows: Sequence[Any],
                strategy_rows: Sequence[Any] | None = None) -> dict[str, Any]:
    """The Pai Gow document: both strategies' figures, returns by wager amount and, if
    given, the strategy table; exact values as ``"p/q"``."""
    doc: dict[str, Any] = {
        "game": "pai-gow",
        "strategies": [a.to_dict() for a in analyses],
        "vigorish_by_amount": [
            {"amount": ratio(r.amount), "vigorish": ratio(r.vigorish), "net_win": ratio(r.net_win),
             "return_house_way": ratio(r.return_house_way), "return_optimal": ratio(r.return_optimal),
             "cite": r.cite} for r in vigorish_rows],
        "version": __version__,
    }
    if strategy_rows is not None:
        doc["strategy_table"] = [r.to_dict() for r in strategy_rows]
    return doc


def render_paigow(analyses: Sequence[Any], vigorish_rows: Sequence[Any], fmt: str,
                  strategy_rows: Sequence[Any] | None = None) -> str:
    """Pai Gow figures (and the strategy table, if given) in the chosen format."""
    from exactodds.paigow import STRATEGY_HEADERS, VIGORISH_HEADERS, paigow_summary_rows, to_rows

    if fmt == "json":
        return render_json(paigow_json(analyses, vigorish_rows, strategy_rows))
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        if strategy_rows is not None:
            w.writerow(STRATEGY_HEADERS)
            w.writerows(to_rows(strategy_rows))
            return out.getvalue()
        w.writerow(["strategy", "wins", "ties", "losses", "universe", "p_win", "p_tie", "p_loss",
                    "return_vigorish", "return_vigorish_decimal", "house_edge", "house_edge_decimal"])
        for a in analyses:
            w.writerow([a.strategy, a.wins, a.ties, a.losses, a.universe, ratio(a.p_win), ratio(a.p_tie),
                        ratio(a.p_loss), ratio(a.return_vigorish), decimal(a.return_vigorish, 12),
                        ratio(a.house_edge), decimal(a.house_edge, 12)])
        return out.getvalue()
    md = fmt == "markdown"
    style = "github" if md else "simple"
    parts = [f"{'## ' if md else ''}Pai Gow (tiles) against the house way of 58 Pa. Code § 535.10(d)", ""]
    if strategy_rows is not None:
        parts += [tabulate(to_rows(strategy_rows), headers=list(STRATEGY_HEADERS), tablefmt=style,
                           disable_numparse=True), ""]
        return "\n".join(parts)
    for a in analyses:
        parts += [f"{'### ' if md else ''}Player strategy: {a.strategy}", "",
                  tabulate(paigow_summary_rows(a), tablefmt=style if md else "plain", disable_numparse=True,
                           headers=["figure", "value"] if md else ()), "",
                  f"Reading: {a.reading}", ""]
    parts += [f"{'### ' if md else ''}Return by wager amount, vigorish rounded up to 25¢ (§ 535.10(k))", "",
              tabulate(to_rows(vigorish_rows), headers=list(VIGORISH_HEADERS), tablefmt=style,
                       disable_numparse=True), ""]
    return "\n".join(parts)
