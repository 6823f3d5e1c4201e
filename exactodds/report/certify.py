"""The certification report's views: Markdown and CSV of the JSON document built by
:func:`exactodds.figures.certify.certify` (the HTML view is :mod:`exactodds.report.html`).

Nothing is recomputed: every figure is read from the document, so each view shows the
figures :func:`exactodds.figures.certify.verify_report` checks.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Final

from exactodds.errors import InputError
from exactodds.exact import decimal, parse_ratio, percent, ratio
from exactodds.report.figure_views import EOR_HEADERS
from exactodds.report.views import Block, Table, View, render_view


# -- Markdown --------------------------------------------------------------------------------------
def _pct(x: str | None, places: int = 6) -> str:
    return "n/a" if x is None else percent(parse_ratio(x), places)


def _report_blocks(doc: dict[str, Any]) -> list[Block]:
    """The report for people: Markdown, every figure exact with a rounded decimal beside it."""
    shoe = doc["shoe"]
    s = doc["summary"]
    out: list[Block] = [f"# Certification report -- exactodds {doc.get('version')}", "",
           f"- Generated (UTC): {doc.get('generated_utc')}",
           f"- Shoe: {shoe['description']}; inputs: `{json.dumps(doc['inputs'], sort_keys=True)}`",
           f"- Fingerprint (SHA-256 of the canonical JSON): `{doc['fingerprint']['value']}`",
           (f"- Paytables certified: {s['paytables']}; second method agrees on {s['second_method_agrees']}, "
            f"not available for {s['no_second_method']}; every check holds: {'yes' if s['all_checks_hold'] else 'NO'}"),
           "", "Verify this report: `exactodds verify REPORT.json` recomputes every figure from the inputs above.",
           ("It checks the JSON report (`exactodds certify --format json`) only: this Markdown is a view for "
            "reading, and no tool can verify it -- keep the JSON report beside it and verify that."),
           "", "## Method", "", doc["method"], "", "## Readings", ""]
    out += [f"- {r}" for r in doc["readings"]]
    for x in doc["entries"]:
        a = x["analysis"]
        out += ["", f"## {a['name']} -- paytable {x['paytable']}", "",
                f"- Wager: {x['citations']['wager']}", f"- Paytable: {x['citations']['paytable']}"]
        if x["readings"]["wager"]:
            out.append(f"- Reading: {x['readings']['wager']}")
        if x["readings"]["paytable"]:
            out.append(f"- Paytable note: {x['readings']['paytable']}")
        rows = [[o["name"], o["pays_text"], f"{o['count']:,}", o["probability"], o["return"]] for o in a["outcomes"]]
        summed = sum((parse_ratio(o["return"]) for o in a["outcomes"]), Fraction(0))
        rows.append(["Total", "", f"{a['total']:,}", "1/1", ratio(summed)])
        out += ["", "### Outcomes", "",
                Table(["Event", "Pays", "Combinations", "Probability", "Return"], rows), "", "### Figures", ""]
        for key, label in (("return", "Return"), ("house_edge", "House edge"), ("hit_frequency", "Hit frequency"),
                           ("variance", "Variance"), ("element_of_risk", "Element of risk")):
            v = a.get(key)
            if key == "return" and "return_expression" in a:
                text = f"{v} (linear in the meters M_..., in dollars)"
            else:
                text = "n/a" if v is None else (f"{v} ({decimal(parse_ratio(v), 10)})" if key == "variance"
                                                else f"{v} ({_pct(v)})")
            out.append(f"- {label}: {text}")
        out.append(f"- Standard deviation: {a['std_dev']}")
        if "return_expression" in a:
            priced = ", ".join(f"{k} ${v}" for k, v in a["priced_at"].items())
            at_reset = a["return_at_reset"]
            out.append(f"- Return at reset: {'n/a (reset not regulated)' if at_reset is None else at_reset}"
                       + ("" if at_reset is None else f" ({_pct(at_reset)})") + f"; figures above priced at {priced}")
            for name, be in a["break_even"].items():
                out.append(f"- Break-even {name} meter: " + ("n/a" if be is None else
                                                             f"${be} (${decimal(parse_ratio(be), 2)})"))
            lr = a["long_run_return"]
            out.append(f"- Long-run return: {lr}" + (f" ({_pct(lr)})" if "*" not in lr else
                                                     " (linear in the unregulated increment rates)"))
        e = x["effects_of_removal"]
        out += ["", "### Effects of removal", ""]
        if "skipped" in e:
            out.append(f"Not computed: {e['skipped']}.")
        else:
            erows = [[r["card"], f"{r['copies']:,}", r["effect"], r["effect_percent"], str(r.get("tag", ""))]
                     for r in [*e["ranks"], *e["faces"]]]
            out += [Table(EOR_HEADERS, erows), "",
                    (f"Identity Σ n·Return(shoe − card) = N·Return(shoe): {e['identity']['holds']}. "
                     f"Suggested count {e['count']['tags']} (balanced: {e['count']['balanced']}), "
                     f"correlation {e['count']['correlation']}.")]
        srows = [[d["decks"], d["house_edge"], _pct(d["house_edge"]), _pct(d["hit_frequency"])] for d in x["sensitivity"]]
        out += ["", "### Deck-count sensitivity", "",
                Table(["Decks", "House edge (exact)", "House edge", "Hit frequency"], srows), "",
                "### Verification", ""]
        sm = x["verification"]["second_method"]
        if sm["agrees"] is None:
            out.append(f"- Second method: {sm['statement']}.")
        else:
            out.append(f"- Second method ({sm['method']}): {sm['statement']}: "
                       f"{'AGREES exactly' if sm['agrees'] else 'DISAGREES'} (return {sm['return']}).")
        for c in x["verification"]["checks"]:
            state = "n/a" if c.get("applies") is False else ("holds" if c["holds"] else "FAILS")
            out.append(f"- {c['check']}: {state}.")
    if "paigow" in doc:
        out += _paigow_blocks(doc["paigow"])
    return out


def _paigow_blocks(p: dict[str, Any]) -> list[Block]:
    """The Pai Gow section: both strategies, returns by wager amount, the checks."""
    out: list[Block] = ["", "## Pai Gow (tiles), 58 Pa. Code ch. 535", ""]
    for s in p["strategies"]:
        out += [f"### Player strategy: {s['strategy']}", "",
                Table(["Figure", "Exact", "Decimal"], [
                    ["Deals", f"{s['universe']:,}", ""], ["Wins", f"{s['wins']:,}", ""],
                    ["Ties (push)", f"{s['ties']:,}", ""], ["Losses", f"{s['losses']:,}", ""],
                    ["Return, 5% vigorish", s["return_vigorish"], s["display"]["return_vigorish"]],
                    ["House edge", s["house_edge"], s["display"]["house_edge"]]]), "",
                f"Reading: {s['reading']}", ""]
    out += ["### Return by wager amount, vigorish rounded up to 25¢ (§ 535.10(k))", "",
            Table(["Amount", "Vigorish", "Return, house way", "Return, optimal"],
                  [[f"${decimal(parse_ratio(r['amount']), 2)}", f"${decimal(parse_ratio(r['vigorish']), 2)}",
                    r["return_house_way"], r["return_optimal"]]
                   for r in p["vigorish_by_amount"]]), "",
            "### Verification", "", f"- Second method: {p['verification']['second_method']['statement']}."]
    out += [f"- {c['check']}: {'holds' if c['holds'] else 'FAILS'}." for c in p["verification"]["checks"]]
    return out


def _report_csv(doc: dict[str, Any]) -> list[list[Any]]:
    """The report's tables as one CSV: outcome rows, effects of removal and sensitivity."""
    from exactodds.report.spreadsheet import text_cells

    rows: list[list[Any]] = []

    # beside each exact p/q a decimal that spreadsheets read as a number; probabilities also as 1 in N
    rows.append(["table", "wager", "paytable", "key", "pays_or_copies", "pays_or_copies_decimal", "count_or_decks",
                "probability_or_effect", "probability_or_effect_decimal", "probability_one_in",
                "return_or_edge", "return_or_edge_decimal"])
    for x in doc["entries"]:
        for o in x["analysis"]["outcomes"]:
            rows.append(["outcome", x["wager"], x["paytable"], o["name"], *text_cells(o["pays"]), o["count"],
                        *text_cells(o["probability"], True), *text_cells(o["return"])])
        e = x["effects_of_removal"]
        for r in [*e.get("ranks", []), *e.get("faces", [])]:
            rows.append(["effect_of_removal", x["wager"], x["paytable"], r["card"], r["copies"], "", "",
                        *text_cells(r["effect"]), "", *text_cells(r["return_after"])])
        for d in x["sensitivity"]:
            rows.append(["sensitivity", x["wager"], x["paytable"], "decks", "", "", d["decks"], "", "", "",
                        *text_cells(d["house_edge"])])
    for s in doc.get("paigow", {}).get("strategies", []):
        rows.append(["pai_gow", "pai-gow", s["strategy"], "win probability / house edge", "", "", s["universe"],
                     *text_cells(s["p_win"], True), *text_cells(s["house_edge"])])
    return rows


REPORT_FORMATS: Final = ("markdown", "json", "csv", "html")
"""A report has no plain-table view: its many tables read best as Markdown."""


def report_view(doc: dict[str, Any]) -> View:
    """The report document itself (JSON), its Markdown and its CSV."""
    return View(lambda: doc, lambda: _report_blocks(doc), lambda: _report_csv(doc))


def render_markdown(doc: dict[str, Any]) -> str:
    """The report for people: Markdown, every figure exact with a rounded decimal beside it."""
    return render_view(report_view(doc), "markdown")


def render_csv(doc: dict[str, Any]) -> str:
    """The report's tables as one CSV: outcome rows, effects of removal and sensitivity."""
    return render_view(report_view(doc), "csv")


def render_report(doc: dict[str, Any], fmt: str) -> str:
    """The report in ``markdown``, ``json``, ``csv`` or ``html`` (any other format is an InputError)."""
    if fmt == "html":  # one self-contained printable file (exactodds.report.html)
        from exactodds.report.html import render_html

        return render_html(doc)
    if fmt not in REPORT_FORMATS:
        raise InputError(f"a certification report is written as {', '.join(REPORT_FORMATS)}, not {fmt!r}")
    return render_view(report_view(doc), fmt)


__all__ = ["REPORT_FORMATS", "render_csv", "render_markdown", "render_report", "report_view"]
