"""The certification report as one self-contained, printable HTML file.

:func:`render_html` is a view of the JSON report of :func:`exactodds.games.certificate.certify`
(as ``render_markdown`` is): nothing is recomputed, every figure is read from the
document. One file, no external asset, nothing executable: rendered by the Jinja2 template
``templates/certificate.html.j2`` with ``templates/certificate.css`` inline (a lab passes its
own with ``--template DIR``). Print rules (CSS paged media): A4, a summary and the contents
first, each wager on a new page, running header (wager and fingerprint) and "page N of M"
in the page margins, tables kept whole, no number broken across lines. The canonical JSON
report is embedded (``<script type="application/json" id="exactodds-report">``), so
``verify`` reads the page itself. Charts are inline SVG written by hand (in
:mod:`exactodds.report.html_charts`) --

* the effects of removal as a bar chart by rank (bars up where removing the rank raises
  the player's return),
* the deck-count sensitivity (house edge against decks),
* for a progressive, the return against each meter (a straight line: the return is
  linear in the meter), with the reset and the break-even meter marked,

plus the outcome table, the figures, the verification section (the second method per
wager, every check) and the fingerprint. A wager from a wager file shows its embedded
definition.

Every figure printed carries ``data-path`` (where it is in the JSON report, e.g.
``games/0/tables/0/outcome_table/house_edge``) and ``data-value`` (the JSON value), so a test --
or an auditor -- can check each one against the report. Decimals and chart coordinates
are derived from the exact values for display only.

>>> from exactodds.games.certificate import certify
>>> html = render_html(certify(["tie"], "8to1", sensitivity_decks=(8,), effects_of_removal=False))
>>> html.startswith("<!DOCTYPE html>") and html.count("<script") == html.count('<script type="application/json"') == 1
True
>>> 'data-path="games/0/tables/0/outcome_table/house_edge"' in html
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from exactodds.errors import InputError
from exactodds.exact import decimal, percent, significant
from exactodds.report.html_charts import eor_chart, meter_chart, meter_line, money, sensitivity_chart
from exactodds.report.html_charts import esc as _e
from exactodds.report.spreadsheet import decimal_cell
from exactodds.report.template import CSS_FILE, SHIPPED, TEMPLATE_FILE, load_template, render_bounded

RATIO: Final = re.compile(r"-?[0-9]+/[0-9]+")


# -- small builders ------------------------------------------------------------------------------

DEFAULT_DIGITS: Final = 6
"""Significant digits of the decimals a person reads on the page (σ, volatility index, 1 in N,
confidence ranges) unless ``--digits`` says otherwise; the exact values stay in the embedded JSON."""
MAX_DIGITS: Final = 15
"""The most significant digits a page may show: the report's decimals carry 15."""
DIGITS: ContextVar[int] = ContextVar("exactodds_page_digits", default=DEFAULT_DIGITS)
"""The digits of the page being rendered (set by :func:`render_html` for the one call, so the
many small builders need not pass it along)."""


def check_digits(digits: int) -> int:
    """``digits`` if it is 1 to :data:`MAX_DIGITS`, else an :class:`InputError`."""
    from exactodds.errors import InputError

    if not 1 <= digits <= MAX_DIGITS:
        raise InputError(f"--digits takes 1 to {MAX_DIGITS} significant digits, got {digits}")
    return digits


def show(kind: str, value: Any) -> str:
    """How a figure of ``kind`` is printed from its JSON value (the exact value, or a decimal
    derived from it: ``pct`` 6 places, ``dec`` 10 places, ``money`` cents, ``onein`` 1 in N and
    ``sig`` a decimal, both to the page's significant digits, :data:`DIGITS`)."""
    if kind == "exact" and isinstance(value, str) and value.endswith("/1") and RATIO.fullmatch(value):
        return value[:-2]  # a whole number reads as one ("9", not "9/1"); the JSON keeps "9/1"
    if kind in ("exact", "text", "hex"):
        return str(value)
    if kind == "count":
        return f"{value:,}"
    if kind == "tag":
        return f"{value:+d}"
    x = Fraction(value)
    if kind == "pct":
        return percent(x, 6)
    if kind == "dec":
        return decimal(x, 10)
    if kind == "money":
        return f"${decimal(x, 2)}"
    if kind == "onein":
        return f"1 in {decimal_cell(1 / x, DIGITS.get())}"
    if kind == "sig":
        return significant(x, DIGITS.get())
    raise ValueError(kind)


def _fig(path: str, value: Any, kind: str = "exact") -> str:
    """One figure: its text (:func:`show`), where it is in the JSON report and its JSON value."""
    raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return (f'<span class="fig {kind}" data-kind="{kind}" data-path="{_e(path)}" data-value="{_e(raw)}">'
            f'{_e(show(kind, value))}</span>')


def _readable(form: str) -> str:
    """A linear form of the report (exact text) in decimals, for the Decimal column."""
    from exactodds.figures.progressive import Linear

    return Linear.parse(form).readable()


def _ratio(path: str, value: str | None) -> str:
    return '<span class="na badge">n/a</span>' if value is None else _fig(path, value)


def _pct(path: str, value: str | None) -> str:
    if value is None or not RATIO.fullmatch(value):  # n/a, or an expression in the meters or rates
        return ""
    return _fig(path, value, "pct")


def _count(path: str, value: int) -> str:
    return _fig(path, value, "count")


def _one_in(path: str, value: str) -> str:
    return "" if Fraction(value) == 0 else _fig(path, value, "onein")


def _badge(state: bool | None, yes: str = "holds", no: str = "FAILS", na: str = "n/a") -> str:
    if state is None:
        return f'<span class="badge na">{_e(na)}</span>'
    return f'<span class="badge {"ok" if state else "bad"}">{_e(yes if state else no)}</span>'


# -- sections ----------------------------------------------------------------------------------

def _outcomes(a: dict[str, Any], base: str, count: str = "Count") -> str:
    """An outcome table, the same for every table of every game entry (a wager-paytable's
    analysis, a player strategy's outcome table; ``count`` names the count column)."""
    rows = [('<table class="outcomes"><thead><tr><th>Outcome</th><th>Pays</th>'
            f'<th class="num">{_e(count)}</th><th>Probability (exact)</th><th class="num">Probability</th><th class="num">1 in N</th>'
            '<th>Return (exact)</th></tr></thead><tbody>')]
    for i, o in enumerate(a["outcomes"]):
        p = f"{base}/outcomes/{i}"
        rows.append(f'<tr><td>{_e(o["outcome"])}</td><td>{_fig(p + "/pays_text", o["pays_text"], "text")}'
                    f'</td><td class="num">{_count(p + "/count", o["count"])}</td>'
                    f'<td>{_ratio(p + "/probability", o["probability"])}</td>'
                    f'<td class="num">{_pct(p + "/probability", o["probability"])}</td>'
                    f'<td class="num">{_one_in(p + "/probability", o["probability"])}</td>'
                    f'<td>{_ratio(p + "/return", o["return"])}</td></tr>')
    rows.append(f'<tr class="total"><td>Total</td><td></td><td class="num">{_count(base + "/total", a["total"])}</td>'
                f'<td>1/1</td><td class="num">100%</td><td></td><td></td></tr></tbody></table>')
    return "".join(rows)


FIGURES: Final = (("return", "Return"), ("house_edge", "House edge"), ("hit_frequency", "Hit frequency"),
                  ("variance", "Variance"), ("element_of_risk", "Element of risk"))


def _figures(a: dict[str, Any], base: str) -> str:
    """The figures of an outcome table (:func:`_outcomes`), exact and in decimals, with a
    progressive's figures in its meters."""
    rows = [('<table class="figures"><thead><tr><th>Figure</th><th>Exact</th><th class="num">Decimal</th></tr>'
            '</thead><tbody>')]
    for key, label in FIGURES:
        v = a.get(key)
        p = f"{base}/{key}"
        if key == "return" and "return_expression" in a:
            shown = f'{_fig(p, v)} <span class="sub">(linear in the meters, $)</span>'
            dec = ""
        elif key == "variance":
            shown, dec = _ratio(p, v), _fig(p, v, "dec")
        else:
            shown, dec = _ratio(p, v), _pct(p, v)
        rows.append(f'<tr><td>{label}</td><td>{shown}</td><td class="num">{dec}</td></tr>')
    rows.append(f'<tr><td>Standard deviation</td><td></td><td class="num">'
                f'{_fig(base + "/std_dev", a["std_dev"], "sig")}</td></tr>')
    if "return_expression" in a:
        rr = a["return_at_reset"]
        rows.append(f'<tr><td>Return at reset</td><td>{_ratio(base + "/return_at_reset", rr)}</td>'
                    f'<td class="num">{_pct(base + "/return_at_reset", rr)}</td></tr>')
        for name, be in a["break_even"].items():
            p = f"{base}/break_even/{name}"
            dec = "" if be is None else _fig(p, be, "money")
            rows.append(f'<tr><td>Break-even {_e(name)} meter ($)</td><td>{_ratio(p, be)}</td>'
                        f'<td class="num">{dec}</td></tr>')
        lr = a["long_run_return"]
        dec = _pct(base + "/long_run_return", lr) if RATIO.fullmatch(lr) else _e(_readable(lr))
        rows.append(f'<tr><td>Long-run return</td><td>{_fig(base + "/long_run_return", lr)}</td>'
                    f'<td class="num">{dec}</td></tr>')
    rows.append("</tbody></table>")
    return "".join(rows)


def _progressive(a: dict[str, Any], base: str) -> str:
    if "meters" not in a:
        return ""
    priced = ", ".join(f"{k} {money(Fraction(v))}" for k, v in a["priced_at"].items())
    out = ['<h3>Return against the meter</h3>',
           (f'<p class="sub">Return = <code class="wrap">{_e(a["return_expression"])}</code> (meters M in dollars, '
           f'stake {_e(money(Fraction(a["stake"])))}); figures above priced at {_e(priced)}. Each line holds '
           'the other meters at their priced amounts.</p><div class="grid2">')]
    for i, m in enumerate(a["meters"]):
        out.append(f'<figure>{meter_chart(a, m)}<figcaption>Meter {_e(m["name"])}: reset '
                   f'{_e("not regulated" if m["reset"] is None else money(Fraction(m["reset"])))}; '
                   f'hit probability {_ratio(f"{base}/meters/{i}/hit_probability", m["hit_probability"])}'
                   f'</figcaption></figure>')
    out.append("</div>")
    return "".join(out)


def _effects(e: dict[str, Any], base: str) -> str:
    if "skipped" in e:
        return f'<h3>Effects of removal</h3><p>Not computed: {_e(e["skipped"])}.</p>'
    out = ['<h3>Effects of removal</h3>',
           (f'<figure>{eor_chart(e["ranks"], base + "/ranks")}<figcaption>Change in the return (per unit wagered) '
           'when one card of each rank leaves the shoe; green: removing it helps the player.</figcaption></figure>'),
           ('<table class="eor"><thead><tr><th>Card removed</th><th class="num">Copies</th><th>Effect (exact)</th>'
           '<th class="num">Effect</th><th class="num">Tag</th></tr></thead><tbody>')]
    for kind in ("ranks", "faces"):
        for i, r in enumerate(e[kind]):
            p = f"{base}/{kind}/{i}"
            tag = _fig(p + "/tag", r["tag"], "tag") if "tag" in r else ""
            out.append(f'<tr><td>{_e(r["card"])}</td><td class="num">{_count(p + "/copies", r["copies"])}</td>'
                       f'<td>{_ratio(p + "/effect", r["effect"])}</td><td class="num">{_pct(p + "/effect", r["effect"])}'
                       f'</td><td class="num">{tag}</td></tr>')
    c = e["count"]
    out.append(f'</tbody></table><p>Identity Σ n·Return(shoe − card) = N·Return(shoe): '
               f'{_badge(e["identity"]["holds"])}. Suggested count ({"balanced" if c["balanced"] else "not balanced"}), '
               'correlation '
               f'with the effects {_e(c["correlation"] or "n/a")}.</p>')
    return "".join(out)


def _sensitivity(rows: Sequence[dict[str, Any]], base: str) -> str:
    out = ['<h3>Deck-count sensitivity</h3><div class="grid2"><figure>', sensitivity_chart(rows, base),
           '<figcaption>House edge against the number of decks.</figcaption></figure>',
           ('<table class="sensitivity"><thead><tr><th class="num">Decks</th><th>House edge (exact)</th>'
           '<th class="num">House edge</th><th class="num">Hit frequency</th></tr></thead><tbody>')]
    for i, d in enumerate(rows):
        p = f"{base}/{i}"
        out.append(f'<tr><td class="num">{_count(p + "/decks", d["decks"])}</td>'
                   f'<td>{_ratio(p + "/house_edge", d["house_edge"])}</td>'
                   f'<td class="num">{_pct(p + "/house_edge", d["house_edge"])}</td>'
                   f'<td class="num">{_pct(p + "/hit_frequency", d["hit_frequency"])}</td></tr>')
    out.append("</tbody></table></div>")
    return "".join(out)


def _verification(v: dict[str, Any], base: str) -> str:
    sm = v["second_method"]
    out = ['<h3>Verification</h3>']
    if sm["agrees"] is None:
        out.append(f'<p>Second method: {_e(sm["statement"])} {_badge(None)}</p>')
    else:
        statement = sm["statement"][:1].upper() + sm["statement"][1:]
        out.append(f'<p>Second method: {_e(sm["method"])}. {_e(statement)}: '
                   f'{_badge(sm["agrees"], "AGREES exactly", "DISAGREES")}</p>'
                   '<table class="second"><thead><tr><th>Outcome</th><th class="num">Count (second method)</th>'
                   '<th>Agrees</th></tr></thead><tbody>')
        for i, o in enumerate(sm["outcomes"]):
            p = f"{base}/second_method/outcomes/{i}"
            out.append(f'<tr><td>{_e(o["outcome"])}</td><td class="num">{_count(p + "/count", o["count"])}</td>'
                       f'<td>{_badge(o["agrees"], "yes", "NO")}</td></tr>')
        out.append(f'</tbody></table><p>Return recomputed from those counts: '
                   f'{_ratio(base + "/second_method/return", sm["return"])}</p>')
    return "".join(out) + _checks(v)


def _checks(v: dict[str, Any]) -> str:
    """The checks of a verification section, and whether every one of the mathematics holds."""
    out = ['<ul class="checks">']
    for c in v["checks"]:
        state = None if c.get("applies") is False else c["holds"]
        if c.get("kind") == "game":  # a finding about the game, not a check of the mathematics
            out.append(f'<li>{_e(c["check"])}: {_badge(state, "the house keeps an edge", "PLAYER ADVANTAGE")} '
                       '<span class="sub">(about the game, not the mathematics)</span></li>')
        else:
            out.append(f'<li>{_e(c["check"])}: {_badge(state)}</li>')
    out.append(f'</ul><p>Every check of the mathematics: {_badge(v["all_hold"], "all hold", "NOT ALL HOLD")}</p>')
    return "".join(out)


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v).__name__)


def as_toml(content: dict[str, Any]) -> str:
    """An embedded wager file written back as TOML (its content as read; comments are not kept).

    >>> print(as_toml({"wager": "dragon-7", "paytables": [{"id": "x", "pays": {"Dragon 7": "30 to 1"}}]}))
    wager = "dragon-7"
    <BLANKLINE>
    [[paytables]]
    id = "x"
    pays = { "Dragon 7" = "30 to 1" }
    <BLANKLINE>
    """
    tables = {k: v for k, v in content.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)}
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in content.items() if k not in tables]
    for k, items in tables.items():
        for item in items:
            lines += ["", f"[[{_toml_key(k)}]]"] + [f"{_toml_key(a)} = {_toml_value(b)}" for a, b in item.items()]
    return "\n".join(lines) + "\n"


def _definition(doc: dict[str, Any], wager: str) -> str:
    defs = [d for d in doc["inputs"].get("definitions", [])
            if d["content"].get("id") == wager or d["content"].get("wager") == wager]
    out = []
    for d in defs:
        out.append(f'<h3>Wager file {_e(d["file"])}</h3><p class="sub">As read (comments are not kept); SHA-256 '
                   'of the submitted file: '
                   f'<code class="wrap">{_e(d["sha256"])}</code>; embedded in the report\'s inputs, so '
                   '<code>exactodds verify</code> rebuilds the wager from the report alone.</p>'
                   f'<pre class="definition">{_e(as_toml(d["content"]))}</pre>')
    return "".join(out)


def table_anchor(g: dict[str, Any], x: dict[str, Any]) -> str:
    """The id of a table's section of the page (a wager-paytable, a player strategy)."""
    return f't-{g["game"]}--{x["id"].replace("/", "--")}'


def game_anchor(g: dict[str, Any]) -> str:
    """The id of a game entry's section of the page."""
    return f'g-{g["game"]}'


EMBED_ID: Final = "exactodds-report"
EMBEDDED: Final = re.compile(r'<script type="application/json" id="exactodds-report">(.*?)</script>', re.S)


def _css_text(x: Any) -> str:
    """A CSS string's content (inside double quotes, inside a ``<style>`` element)."""
    return re.sub(r'[\\"<>\n\r]', lambda m: f"\\{ord(m.group()):x} ", str(x))


def embedded_json(doc: dict[str, Any]) -> str:
    """The report as embedded in the page: its JSON (sorted keys) with ``<``, ``>`` and ``&``
    written as ``\\u`` escapes, so no text of it can end the script element."""
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _pct_text(x: str | None) -> str:
    return "n/a" if x is None or not RATIO.fullmatch(x) else percent(Fraction(x), 4)


def shoe_line(doc: dict[str, Any]) -> str:
    """What a report deals from, every game's deck in words (the page's title line).

    >>> shoe_line({"games": [{"title": "Baccarat", "deck": {"description": "8 decks (416 cards)"}},
    ...                      {"title": "Pai Gow (tiles)", "deck": {"description": "32 tiles"}}]})
    'Baccarat: 8 decks (416 cards); Pai Gow (tiles): 32 tiles'
    """
    return "; ".join(f"{g['title']}: {g['deck']['description']}" for g in doc["games"])


@dataclass(frozen=True)
class SummaryRow:
    """One row of every view's summary table: a table of a game entry (a wager-paytable, a
    player strategy), whatever the game -- its ``title``, the ``game`` id and the table's ``id``
    (as in the CSV), the HTML ``anchor`` of its section, its house edge and par sheet with their
    JSON paths, and its flags."""

    title: str
    game: str
    id: str
    anchor: str
    house_edge: str
    house_edge_path: str
    par_sheet: dict[str, Any]
    par_sheet_path: str
    player_advantage: bool
    all_hold: bool


def summary_rows(doc: dict[str, Any]) -> list[SummaryRow]:
    """Every row of the summary tables: every table of every game entry, in order."""
    return [SummaryRow(x["title"], g["game"], x["id"], table_anchor(g, x), x["outcome_table"]["house_edge"],
                       f"games/{i}/tables/{j}/outcome_table/house_edge", x["par_sheet"],
                       f"games/{i}/tables/{j}/par_sheet", x["player_advantage"], x["verification"]["all_hold"])
            for i, g in enumerate(doc["games"]) for j, x in enumerate(g["tables"])]


def _summary(doc: dict[str, Any]) -> str:
    found = summary_rows(doc)
    rows = ['<table class="summary"><thead><tr><th>Table</th><th class="num">House edge</th>'
            '<th class="num">Hit frequency</th><th class="num">1 in N</th><th class="num">σ</th>'
            '<th class="num">VI 90 %</th><th class="num">VI 95 %</th><th class="num">Max. win per unit</th>'
            '<th>Player advantage</th><th>Mathematics</th></tr></thead><tbody>']
    for r in found:
        ps, base = r.par_sheet, r.par_sheet_path
        mp = ps["maximum_payout"]
        rows.append(
            f'<tr><td><a href="#{_e(r.anchor)}">{_e(r.title)}</a></td>'
            f'<td class="num">{_pct(r.house_edge_path, r.house_edge)}</td>'
            f'<td class="num">{_pct(base + "/hit_frequency", ps["hit_frequency"])}</td>'
            f'<td class="num">{"" if ps["hit_one_in"] is None else _fig(base + "/hit_one_in", ps["hit_one_in"], "sig")}</td>'
            f'<td class="num">{_fig(base + "/standard_deviation", ps["standard_deviation"], "sig")}</td>'
            f'<td class="num">{_fig(base + "/volatility_index/90", ps["volatility_index"]["90"], "sig")}</td>'
            f'<td class="num">{_fig(base + "/volatility_index/95", ps["volatility_index"]["95"], "sig")}</td>'
            f'<td class="num">{"—" if mp is None else _fig(base + "/maximum_payout/pays_text", mp["pays_text"], "text")}</td>'
            f'<td>{_badge(not r.player_advantage, "no", "YES: favours the player")}</td>'
            f'<td>{_badge(r.all_hold, "every check holds", "A CHECK FAILS")}</td></tr>')
    rows.append("</tbody></table>")
    return "".join(rows)


CYCLE: Final = "Cycle (the universe's equally likely elements: card sequences, tile deals)"
"""What the par sheet calls its cycle, whatever the game."""


def _par_sheet(ps: dict[str, Any], base: str, player_advantage: bool,
               cycle: str = CYCLE) -> str:
    mp = ps["maximum_payout"]
    out = ['<h3>Par sheet</h3>']
    if player_advantage:
        out.append('<p class="advantage">PLAYER ADVANTAGE: this paytable returns more than the amount wagered '
                   'to the player in the long run (return above 0). The mathematics may hold; the game favours '
                   'the player.</p>')
    out.append('<table class="parsheet"><thead><tr><th>Figure</th><th class="num">Value</th></tr></thead><tbody>')
    items = [("Standard deviation σ (per unit wagered)", _fig(base + "/standard_deviation", ps["standard_deviation"], "sig")),
             ("Volatility index, 90 % (z·σ)", _fig(base + "/volatility_index/90", ps["volatility_index"]["90"], "sig")),
             ("Volatility index, 95 % (z·σ)", _fig(base + "/volatility_index/95", ps["volatility_index"]["95"], "sig")),
             ("Volatility index, 99 % (z·σ)", _fig(base + "/volatility_index/99", ps["volatility_index"]["99"], "sig")),
             ("Hit frequency", _pct(base + "/hit_frequency", ps["hit_frequency"])
              + ("" if ps["hit_one_in"] is None else " (1 in " + _fig(base + "/hit_one_in", ps["hit_one_in"], "sig") + ")")),
             (cycle, _count(base + "/cycle", ps["cycle"]))]
    if mp is not None:
        items += [("Maximum win per unit wagered", f'{_fig(base + "/maximum_payout/pays_text", mp["pays_text"], "text")} '
                   f'({_e(mp["outcome"])}; 1 in {_fig(base + "/maximum_payout/one_in", mp["one_in"], "sig")})'),
                  ("Maximum paid per round per unit wagered (win + wager returned)",
                   _fig(base + "/maximum_payout/paid_per_round_per_unit", mp["paid_per_round_per_unit"]))]
    out += [f'<tr><td>{label}</td><td class="num">{value}</td></tr>' for label, value in items]
    out.append('</tbody></table><h3>Confidence ranges of the player\'s result</h3>'
               '<table class="confidence"><thead><tr><th class="num">Rounds N</th><th class="num">Expected (units)</th>'
               '<th class="num">90 % range (units)</th><th class="num">95 % range (units)</th>'
               '<th class="num">95 % range (% of wagers)</th></tr></thead><tbody>')
    for i, c in enumerate(ps["confidence_ranges"]):
        p = f"{base}/confidence_ranges/{i}"
        out.append(f'<tr><td class="num">{_count(p + "/rounds", c["rounds"])}</td>'
                   f'<td class="num">{_fig(p + "/expected_result", c["expected_result"], "dec")}</td>'
                   f'<td class="num">{_fig(p + "/result_90/0", c["result_90"][0], "sig")} to '
                   f'{_fig(p + "/result_90/1", c["result_90"][1], "sig")}</td>'
                   f'<td class="num">{_fig(p + "/result_95/0", c["result_95"][0], "sig")} to '
                   f'{_fig(p + "/result_95/1", c["result_95"][1], "sig")}</td>'
                   f'<td class="num">{_fig(p + "/return_95/0", c["return_95"][0], "text")} to '
                   f'{_fig(p + "/return_95/1", c["return_95"][1], "text")}</td></tr>')
    out.append(f'</tbody></table><p class="sub">{_e(ps["definition"])}</p>')
    return "".join(out)


DOCUMENT_LABELS: Final = (("game", "Game"), ("jurisdiction", "Jurisdiction"), ("submitter", "Submitter"),
                          ("lab", "Laboratory"), ("analyst", "Analyst"), ("revision", "Revision"),
                          ("date", "Date"), ("table_maximum", "Table maximum"))


def _document(doc: dict[str, Any]) -> str:
    d = doc.get("document")
    prog = doc["program"]
    rows = [f"<dt>{label}</dt><dd>{_e(d[k])}</dd>" for k, label in DOCUMENT_LABELS if d and d.get(k) is not None]
    for i, ap in enumerate((d or {}).get("approval", [])):
        rows.append(f"<dt>Approval {i + 1}</dt><dd>{_e(ap.get('name', ''))}, {_e(ap.get('role', ''))}"
                    f"{', ' + _e(ap['date']) if ap.get('date') else ''}</dd>")
    rows.append(f'<dt>Program</dt><dd>exactodds {_e(prog["version"])}, package SHA-256 '
                f'<code class="wrap">{_fig("program/sha256", prog["sha256"], "hex")}</code></dd>')
    return f'<dl class="meta document">{"".join(rows)}</dl>'


def _advantage(doc: dict[str, Any]) -> str:
    flagged = doc["summary"]["player_advantage"]
    if not flagged:
        return '<p class="sub">Player advantage: none — every certified return is at most 0.</p>'
    return ('<p class="advantage">PLAYER ADVANTAGE: ' + ", ".join(_e(x) for x in flagged)
            + " favour the player (return above 0, or a player strategy beats the game). This is a finding about "
              "the game, apart from the mathematics.</p>")


INPUT_LABELS: Final = {"wagers": "Wagers", "paytable": "Paytable", "shoe": "Shoe", "sensitivity_decks":
                        "Sensitivity decks", "effects_of_removal": "Effects of removal"}
"""What the page calls the report's inputs (any other is named from its key)."""


def input_value(v: Any) -> str:
    """One input of the report as a person reads it: ``yes``/``no``, ``default`` for none,
    lists joined by commas, a mapping as ``key value`` pairs.

    >>> input_value({"counts": {"AS": 1, "KS": 3}}), input_value([6, 7, 8]), input_value(None), input_value(True)
    ('counts: AS 1, KS 3', '6, 7, 8', 'not given', 'yes')
    """
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "not given"
    if isinstance(v, list):
        return ", ".join(input_value(x) for x in v) or "none"
    if isinstance(v, dict):
        if all(not isinstance(x, (dict, list)) for x in v.values()):
            return ", ".join(f"{k} {input_value(x)}" for k, x in sorted(v.items()))
        return "; ".join(f"{k}: {input_value(x)}" for k, x in sorted(v.items()))
    return str(v)


def input_items(inputs: dict[str, Any]) -> list[tuple[str, str]]:
    """The report's inputs (its wager files apart) as ``(label, value)`` lines, in key order: the
    page shows them as a definition list, never as raw JSON (the JSON is embedded)."""
    return [(INPUT_LABELS.get(k, k.replace("_", " ").capitalize()),
             "every wager of the catalogue" if k == "wagers" and v is None else input_value(v))
            for k, v in sorted(inputs.items()) if k != "definitions"]


def _head(doc: dict[str, Any]) -> str:
    s = doc["summary"]
    fp = doc["fingerprint"]["value"]
    inputs = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in input_items(doc["inputs"]))
    return (f'<dl class="meta"><dt>Tables certified</dt><dd>{_count("summary/tables", s["tables"])}</dd>'
            f'<dt>Second method agrees</dt><dd>{_count("summary/second_method_agrees", s["second_method_agrees"])}'
            f' (none available for {_count("summary/no_second_method", s["no_second_method"])})</dd>'
            f'<dt>Every check of the mathematics holds</dt><dd>{_badge(s["all_checks_hold"], "yes", "NO")} '
            f'<span class="sub">({_e(s["checks_cover"])})</span></dd>'
            f'<dt>Inputs</dt><dd><dl class="inputs">{inputs}</dl>'
            f'{"+ embedded wager files" if doc["inputs"].get("definitions") else ""}</dd>'
            f'<dt>Decimals</dt><dd>σ, volatility index, 1 in N and confidence ranges to {DIGITS.get()} significant '
            'digits, percentages to 6 places; the exact values are in the embedded JSON report</dd></dl>'
            f'<div class="fingerprint">Fingerprint (SHA-256 of the canonical JSON report): '
            f'<code class="wrap">{_fig("fingerprint/value", fp, "hex")}</code><br>'
            '<span class="sub">The JSON report is embedded in this page: <code>exactodds verify THIS.html</code> '
            'recomputes every figure from its inputs and checks that this page is its rendering; '
            '<code>exactodds render REPORT.json -f html</code> makes this page again from a verified report.</span>'
            '</div>')


def _schedule(sc: dict[str, Any]) -> str:
    """A schedule of a game entry (Pai Gow's hold by wager amount, baccarat's drawing rules)."""
    return (f'<h3>{_e(sc["title"])} ({_e(sc["cite"])})</h3><table class="schedule"><thead><tr>'
            + "".join(f"<th>{_e(c)}</th>" for c in sc["columns"]) + "</tr></thead><tbody>"
            + "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in sc["rows"])
            + "</tbody></table>")


def _game(g: dict[str, Any], i: int) -> str:
    """The head of a game entry (:mod:`exactodds.figures.entry`), whatever the game: its deck,
    rules record, readings, schedules and the entry's own checks (its tables follow, :func:`_table`)."""
    pa = g["player_advantage"]
    out = [f'<section class="game" id="{_e(game_anchor(g))}"><h2>{_e(g["title"])}</h2>'
           f'<p class="cite">{_e(g["citation"])}</p><p>Deck: {_e(g["deck"]["description"])} '
           f'({_e(g["deck"]["title"])})</p>'
           f'<p class="{"advantage" if pa["tables"] else "sub"}">{_e(pa["statement"])}.</p>'
           '<h3>Rules certified</h3><table class="rules"><thead><tr><th>Rule</th><th>Section</th><th>Option</th>'
           '<th>Value</th></tr></thead><tbody>']
    out += [f'<tr><td>{_e(r["name"])}</td><td>{_e(r["section"])}</td><td><code>{_e(r["flag"])}</code></td>'
            f'<td>{_e(r["value"])}</td></tr>' for r in g["rules"]]
    out.append('</tbody></table><h3>Readings</h3><ul>' + "".join(f"<li>{_e(r)}</li>" for r in g["readings"]) + "</ul>")
    out += [_schedule(sc) for sc in g["schedules"]]
    out.append(f'<h3>Checks of {_e(g["title"])}</h3>' + _checks(g["verification"]) + "</section>")
    return "".join(out)


def _table(doc: dict[str, Any], i: int, j: int, x: dict[str, Any]) -> str:
    """One table of a game entry -- a wager-paytable, a player strategy -- whatever the game: its
    outcome table, figures and par sheet, and whatever else it carries (citations, a wager file,
    a progressive's meters, effects of removal, deck-count sensitivity), then its verification."""
    base = f"games/{i}/tables/{j}"
    t, tb = x["outcome_table"], f"{base}/outcome_table"
    out = [f'<section class="entry" id="{_e(table_anchor(doc["games"][i], x))}"><h2>{_e(x["title"])}</h2>']
    if "level" in x:
        out.append(f'<p class="sub">wager <code>{_e(x["wager"])}</code>, level <code>{_e(x["level"])}</code></p>')
    if "citations" in x:
        readings = "".join(f"<dt>{label}</dt><dd>{_e(text)}</dd>" for label, text in
                           (("Reading", x["readings"]["wager"]), ("Paytable note", x["readings"]["paytable"])) if text)
        out.append(f'<dl class="meta"><dt>Wager</dt><dd>{_e(x["citations"]["wager"])}</dd><dt>Paytable</dt>'
                   f'<dd>{_e(x["citations"]["paytable"])}</dd>{readings}</dl>')
    if "wager" in x:
        out.append(_definition(doc, x["wager"]))
    if "universe" in t:
        out.append(f'<p class="sub">Universe: {_e(t["universe"])} ({_e(t["basis"])})</p>')
    out += ['<h3>Outcomes</h3>', _outcomes(t, tb), '<h3>Figures</h3>', _figures(t, tb),
            _par_sheet(x["par_sheet"], base + "/par_sheet", x["player_advantage"]), _progressive(t, tb)]
    if "effects_of_removal" in x:
        out.append(_effects(x["effects_of_removal"], base + "/effects_of_removal"))
    if "sensitivity" in x:
        out.append(_sensitivity(x["sensitivity"], base + "/sensitivity"))
    out += [_verification(x["verification"], base + "/verification"), "</section>"]
    return "".join(out)


def ordered(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every object's keys in sorted order: the order the page embeds it in (and
    a JSON reader gives back), so that a view rendered at certification time and one rendered
    again from the embedded report iterate every object -- meters, break-even, a wager file's
    TOML keys -- alike, and a page is the same bytes whichever way it was made."""
    out: dict[str, Any] = json.loads(json.dumps(doc, sort_keys=True, ensure_ascii=False))
    return out


def render_html(doc: dict[str, Any], template_dir: str | Path | None = None, digits: int = DEFAULT_DIGITS) -> str:
    """The report as one self-contained HTML page, rendered by the Jinja2 template
    ``certificate.html.j2`` (a lab's ``template_dir`` overrides it and ``certificate.css``);
    the canonical JSON report is embedded in it, so ``verify`` reads the page itself.
    ``digits``: significant digits of σ, the volatility index, 1 in N and the confidence
    ranges (1 to 15; the page records them, :func:`page_digits`, so ``verify`` renders it again
    alike).

    Deterministic: the page depends only on the report's content (:func:`ordered`), the
    digits and the template. Every template runs in Jinja2's sandbox; a lab's in a bounded
    child process (:mod:`exactodds.report.template`): a template is code."""
    token = DIGITS.set(check_digits(digits))
    try:
        return _render_html(doc, template_dir, digits)
    finally:
        DIGITS.reset(token)


def page_digits(page: str) -> int:
    """The significant digits a page records (``<meta name="exactodds-digits">``), else the default."""
    m = re.search(r'<meta name="exactodds-digits" content="([0-9]{1,2})">', page)
    return int(m.group(1)) if m and 1 <= int(m.group(1)) <= MAX_DIGITS else DEFAULT_DIGITS


def _render_html(doc: dict[str, Any], template_dir: str | Path | None, digits: int) -> str:
    """:func:`render_html` once the digits are set."""
    template = load_template(template_dir)
    env = template.environment()
    doc = ordered(doc)
    from markupsafe import Markup as m
    fp = doc["fingerprint"]["value"]
    entries: list[dict[str, Any]] = []
    sections: list[dict[str, Any]] = []
    for i, g in enumerate(doc["games"]):
        tables: list[dict[str, Any]] = []
        for j, x in enumerate(g["tables"]):
            tables.append({"anchor": table_anchor(g, x), "page": f"p{len(entries)}", "title": x["title"],
                           "header": x["title"],
                           "badge": m(_badge(x["verification"]["second_method"]["agrees"], "second method agrees",
                                             "SECOND METHOD DISAGREES", "no second method")),
                           "body": m(_table(doc, i, j, x))})
            entries.append(tables[-1])
        sections.append({"title": g["title"], "anchor": game_anchor(g), "body": m(_game(g, i)), "tables": tables})
    d = doc.get("document") or {}
    shoe = shoe_line(doc)
    title = f"Certification report — exactodds {doc.get('version')} — {shoe}"
    context = dict(
        version=doc.get("version"), template_id=template.ident, title=title, css_text=_css_text,
        header_left=(d.get("game") or "exactodds certification report"),
        footer_left=" · ".join(str(d[k]) for k in ("lab", "revision") if d.get(k)) or shoe,
        fingerprint=fp, digits=digits, entries=entries, sections=sections, document=d, shoe=shoe,
        generated=doc.get("generated_utc"), document_block=m(_document(doc)), advantage_block=m(_advantage(doc)),
        head_block=m(_head(doc)), summary_block=m(_summary(doc)),
        embedded=m(embedded_json(doc)))

    def render() -> str:
        import jinja2

        try:
            css = env.get_template(CSS_FILE).render()
            page: str = env.get_template(TEMPLATE_FILE).render(css=m(css), **context)
        except (jinja2.TemplateError, TypeError, ValueError, LookupError, AttributeError, ArithmeticError) as exc:
            raise InputError(f"template: {' '.join(str(exc).split())[:300]}") from None
        return page

    return render() if template.sha256 is None else render_bounded(render)


def embedded_report(page: str) -> str | None:
    """The JSON report embedded in a page made by :func:`render_html` (None: there is none).
    A page with two such blocks is refused: which one would a reader believe?"""
    found = EMBEDDED.findall(page)
    if len(found) > 1:
        raise ValueError("the page embeds more than one report")
    return found[0] if found else None


__all__ = ["CSS_FILE", "DEFAULT_DIGITS", "SHIPPED", "TEMPLATE_FILE", "check_digits", "embedded_json", "embedded_report",
           "eor_chart", "meter_chart", "meter_line", "ordered", "page_digits", "render_html",
           "sensitivity_chart"]
