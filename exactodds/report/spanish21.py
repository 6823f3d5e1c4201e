"""Views of the Spanish 21 figures: table / Markdown / CSV / JSON through :mod:`exactodds.report.views`,
and an HTML strategy chart."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import Any, Final

from exactodds.blackjack.rules import CITES
from exactodds.exact import decimal, parse_ratio, percent, ratio
from exactodds.report.views import Block, Heading, Pairs, Table, View, render_view, sections_csv
from exactodds.spanish21.figures import Spanish21Analysis, chart_rows, summary_pairs

COLUMNS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")

LEGEND: Final = ("S stand, H hit, D double (§ 551.11), R surrender (§ 551.9), P split (§ 551.12), "
                 "RS rescue (§ 551.11(d)), RD redouble")


RULE_HEADERS: Final = ("Rule", "Section", "Certified", "As written", "Changed")
"""Columns of the rules table of a certificate's Spanish 21 section (every view)."""


def rule_value(value: object) -> str:
    """A recorded rule value for people: yes/no, a whole number, dollars, or none.

    >>> rule_value(True), rule_value(3), rule_value("25/1"), rule_value(None), rule_value("cdp1")
    ('yes', '3', '$25.00', 'none', 'cdp1')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and "/" in value:
        return f"${decimal(parse_ratio(value), 2)}"
    if isinstance(value, str):  # a choice: 3:2, 10-11, cdp1, all
        return value
    return "none" if value is None else str(value)


def rule_rows(rule_set: list[dict[str, Any]]) -> list[list[str]]:
    """The rules a certificate records (:func:`exactodds.blackjack.rules.rules_record`), one row
    each under :data:`RULE_HEADERS`: named as in § 551, its section, the certified value, the
    value as written, and ``CHANGED`` where they differ."""
    return [[r["name"], r["section"], rule_value(r["value"]), rule_value(r["as_written"]),
             "CHANGED" if r["changed"] else ""] for r in rule_set]


def changed_rules(rule_set: list[dict[str, Any]], none: str = "none (§ 551 as written)") -> str:
    """The rules a certificate changes from the text, in the order of its rule set (the one
    order every view shows, whatever order a JSON reader gives a mapping), or ``none``.

    >>> changed_rules([{"name": "Dealer draws to a soft 17", "section": "§ 551.13(b)", "value": True,
    ...                 "changed": True}, {"name": "Surrender", "section": "§ 551.9", "value": True,
    ...                 "changed": False}])
    'Dealer draws to a soft 17 (§ 551.13(b)): yes'
    """
    return "; ".join(f"{r['name']} ({r['section']}): {rule_value(r['value'])}" for r in rule_set if r["changed"]) \
        or none


def spanish21_view(a: Spanish21Analysis) -> View:
    """The analysis as a :class:`View` (CSV: the chart rows, or the summary without a chart)."""

    def text() -> list[Block]:
        title = ("Spanish 21 main wager (58 Pa. Code ch. 551)" if a.preset == "spanish21"
                 else f"Blackjack main wager, preset {a.preset}")
        blocks: list[Block] = [Heading(title, 2), "",
                               Pairs(summary_pairs(a))]
        if a.contributions:
            blocks += ["", Heading("Rule contributions (house edge with the change, and its effect)", 3), "",
                       Table(["change", "house edge", "effect"],
                             [[n, percent(-x, 4), percent(a.expected - x, 4)] for n, x in a.contributions])]
        if a.chart is not None:
            rows = chart_rows(a.chart)
            blocks += ["", Heading("Basic (total-dependent) strategy by dealer up card", 3), "", LEGEND, "",
                       Table(["hand", *COLUMNS], [[r["hand"], *(r[c] for c in COLUMNS)] for r in rows])]
        blocks += ["", Heading("Rules read", 3), ""]
        blocks += [f"- {k}: {v}" for k, v in CITES.items()]
        return blocks

    def csv() -> list[list[Any]]:
        """One table: a ``summary`` row with the figures (exact, a decimal beside each), the rule
        contributions, then the chart's rows (:func:`exactodds.report.views.sections_csv`)."""
        figures: dict[str, Fraction | None] = {
            "expected_return": a.expected, "house_edge": -a.expected, "expected_return_basic_strategy": a.expected_basic,
            "insurance_return": a.insurance, "super_bonus_probability": a.super_bonus_probability,
            "match_the_dealer_return": None if a.match_the_dealer is None else a.match_the_dealer[1]}
        shown = {k: v for k, v in figures.items() if v is not None}
        changed = ", ".join(f"{k}={v}" for k, v in a.rules.changed().items()) or "none"
        parts: list[tuple[str, Sequence[str], Sequence[Sequence[Any]]]] = [
            ("summary", ["cards", "rules_changed", *shown], [[a.shoe.size, changed, *(ratio(v) for v in shown.values())]])]
        if a.contributions:
            parts.append(("rule_contribution", ["change", "expected_return", "effect_on_house_edge"],
                          [[n, ratio(x), ratio(a.expected - x)] for n, x in a.contributions]))
        if a.chart is not None:
            parts.append(("chart", ["hand", *COLUMNS], [[r["hand"], *(r[c] for c in COLUMNS)] for r in chart_rows(a.chart)]))
        return sections_csv(parts)

    return View(a.to_json, text, csv)


def render_spanish21(a: Spanish21Analysis, fmt: str) -> str:
    """The analysis in ``fmt`` (table, markdown, csv, json)."""
    return render_view(spanish21_view(a), fmt)


_COLOURS: Final = {"S": "#f4d03f", "H": "#ffffff", "D": "#58d68d", "R": "#ec7063", "P": "#5dade2",
                   "RS": "#f1948a", "RD": "#2ecc71"}


def chart_html(a: Spanish21Analysis) -> str:
    """A self-contained HTML page of the basic-strategy chart with the key figures."""
    if a.chart is None:
        raise ValueError("no chart computed")
    head = "".join(f"<th>{c}</th>" for c in COLUMNS)
    body = []
    for r in chart_rows(a.chart):
        cells = "".join(f'<td style="background:{_COLOURS.get(r[c], "#ddd")}">{escape(r[c])}</td>' for c in COLUMNS)
        body.append(f"<tr><th>{escape(r['hand'])}</th>{cells}</tr>")
    summary = "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>" for k, v in summary_pairs(a))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Spanish 21 strategy</title>"
            "<style>table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px;"
            "text-align:center;font-family:sans-serif}</style></head><body>"
            "<h1>Spanish 21 basic strategy (58 Pa. Code ch. 551)</h1>"
            f"<ul>{summary}</ul><p>{escape(LEGEND)}</p>"
            f"<table><tr><th>hand \\ up</th>{head}</tr>{''.join(body)}</table></body></html>\n")


__all__ = ["RULE_HEADERS", "changed_rules", "chart_html", "render_spanish21", "rule_rows", "rule_value", "spanish21_view"]
