"""The certification report as one self-contained, printable HTML file.

:func:`render_html` is a view of the JSON report of :func:`exactodds.figures.certify.certify`
(as ``render_markdown`` is): nothing is recomputed, every figure is read from the
document. One file, no external asset, no script: CSS inline (with print rules: A4, one
wager per page, tables kept whole), charts as inline SVG written here by hand --

* the effects of removal as a bar chart by rank (bars up where removing the rank raises
  the player's return),
* the deck-count sensitivity (house edge against decks),
* for a progressive, the return against each meter (a straight line: the return is
  linear in the meter), with the reset and the break-even meter marked,

plus the outcome table, the figures, the verification section (the second method per
wager, every check) and the fingerprint. A wager from a wager file shows its embedded
definition.

Every figure printed carries ``data-path`` (where it is in the JSON report, e.g.
``entries/0/analysis/house_edge``) and ``data-value`` (the JSON value), so a test --
or an auditor -- can check each one against the report. Decimals and chart coordinates
are derived from the exact values for display only.

>>> from exactodds.figures.certify import certify
>>> html = render_html(certify(["tie"], "8to1", sensitivity_decks=(8,), effects_of_removal=False))
>>> html.startswith("<!DOCTYPE html>") and "<script" not in html and 'data-path="entries/0/analysis/house_edge"' in html
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import Any, Final

from exactodds.exact import decimal, percent
from exactodds.report.spreadsheet import decimal_cell

RATIO: Final = re.compile(r"-?[0-9]+/[0-9]+")

CSS: Final = """
:root { --ink: #1b1f23; --muted: #5b6670; --rule: #d0d7de; --up: #1a7f37; --down: #b42318; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { font: 14px/1.45 -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; color: var(--ink);
       margin: 0 auto; max-width: 1100px; padding: 24px 32px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 0 0 6px; padding-top: 8px; border-top: 3px solid var(--ink); }
h3 { font-size: 15px; margin: 22px 0 6px; color: var(--accent); }
.sub { color: var(--muted); margin: 0 0 14px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 10px 0 16px; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; }
code, .fig, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.fig.exact, .fig.hex, .wrap { overflow-wrap: anywhere; word-break: break-all; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 12.5px; }
th, td { border-bottom: 1px solid var(--rule); padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
tr.total td { font-weight: 600; border-top: 2px solid var(--ink); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; font-size: 12px; }
.ok { background: #dafbe1; color: #116329; } .bad { background: #ffebe9; color: #a40e26; }
.na { background: #eaeef2; color: #57606a; }
figure { margin: 8px 0 14px; } figcaption { color: var(--muted); font-size: 12px; }
svg { max-width: 100%; height: auto; font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; }
svg text { font-size: 11px; fill: #24292f; }
nav ol { columns: 2; margin: 6px 0 18px; padding-left: 20px; }
.fingerprint { background: #f6f8fa; border: 1px solid var(--rule); padding: 8px 10px; border-radius: 6px; }
pre.definition { background: #f6f8fa; border: 1px solid var(--rule); padding: 8px; font-size: 11.5px;
                 white-space: pre-wrap; overflow-wrap: anywhere; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; align-items: start; }
.fig.text { font-family: inherit; font-size: inherit; }
section.entry { margin-top: 28px; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10.5px; }
  nav { display: none; }
  section.entry { break-before: page; margin-top: 0; }
  table, figure, .fingerprint, pre.definition { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  table { font-size: 9.5px; }
  code, .fig, .mono { font-size: 9px; }
  .grid2 { grid-template-columns: 1fr 1fr; }
  a { color: inherit; text-decoration: none; }
}
"""


# -- small builders ------------------------------------------------------------------------------

def _e(x: Any) -> str:
    return escape(str(x), quote=True)


def show(kind: str, value: Any) -> str:
    """How a figure of ``kind`` is printed from its JSON value (the exact value, or a decimal
    derived from it: ``pct`` 6 places, ``dec`` 10 places, ``money`` cents, ``onein`` 1 in N)."""
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
        return f"1 in {decimal_cell(1 / x, 6)}"
    raise ValueError(kind)


def _fig(path: str, value: Any, kind: str = "exact") -> str:
    """One figure: its text (:func:`show`), where it is in the JSON report and its JSON value."""
    raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return (f'<span class="fig {kind}" data-kind="{kind}" data-path="{_e(path)}" data-value="{_e(raw)}">'
            f'{_e(show(kind, value))}</span>')


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


def _num(x: Fraction) -> float:
    """A coordinate for a chart (display only)."""
    return float(x)


# -- charts ------------------------------------------------------------------------------------------

def _ticks(lo: Fraction, hi: Fraction, n: int = 4) -> list[Fraction]:
    """About ``n`` round tick values covering ``[lo, hi]``."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / n
    step = Fraction(1)
    while step > raw:
        step /= 10
    while step * 10 <= raw:
        step *= 10
    for m in (1, 2, 5, 10):
        if step * m >= raw:
            step *= m
            break
    first = (lo / step).__ceil__() * step
    out = []
    t = first
    while t <= hi:
        out.append(t)
        t += step
    return out


def _short_pct(x: Fraction) -> str:
    """A tick label: the percentage without trailing zeros (``-20%``, ``35.95%``)."""
    number = percent(x, 4)[:-1]
    number = number.rstrip("0").rstrip(".") if "." in number else number
    return ("0" if number in ("-0", "") else number) + "%"


def _money_tick(x: Fraction) -> str:
    return f"${round(x):,}"


def _money(x: Fraction) -> str:
    """Dollars with cents and thousands separators (display only)."""
    whole, _, cents = decimal(x, 2).partition(".")
    return f"${int(whole):,}.{cents}"


def eor_chart(ranks: Sequence[dict[str, Any]], base: str) -> str:
    """Bar chart of the effect of removing one card of each rank (``base``: the JSON path of ranks)."""
    width, height, left, right, top, bottom = 660, 250, 70, 12, 14, 30
    effects = [Fraction(r["effect"]) for r in ranks]
    peak = max((abs(x) for x in effects), default=Fraction(0)) or Fraction(1)
    plot_h = height - top - bottom
    mid = top + plot_h / 2

    def y(v: Fraction) -> float:
        return mid - _num(v / peak) * plot_h / 2

    band = (width - left - right) / max(len(ranks), 1)
    out = [(f'<svg class="chart eor" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
           f'aria-label="Effect of removal by rank">')]
    for t in _ticks(-peak, peak, 4):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(t):.2f}" y2="{y(t):.2f}" stroke="#e5e8eb"/>'
                   f'<text x="{left - 6}" y="{y(t) + 4:.2f}" text-anchor="end">{_e(_short_pct(t))}</text>')
    for i, (r, v) in enumerate(zip(ranks, effects)):
        x = left + i * band + band * 0.15
        top_y, bottom_y = (y(v), mid) if v >= 0 else (mid, y(v))
        colour = "var(--up)" if v >= 0 else "var(--down)"
        out.append(f'<rect class="bar" x="{x:.2f}" y="{top_y:.2f}" width="{band * 0.7:.2f}" '
                   f'height="{max(bottom_y - top_y, 0.5):.2f}" fill="{colour}" data-path="{_e(base)}/{i}/effect" '
                   f'data-value="{_e(r["effect"])}"><title>{_e(r["card"])}: {_e(r["effect_percent"])}</title></rect>'
                   f'<text x="{x + band * 0.35:.2f}" y="{height - bottom + 16}" text-anchor="middle">'
                   f'{_e(r["card"])}</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{mid:.2f}" y2="{mid:.2f}" stroke="#24292f"/>'
               f'<text x="14" y="{mid:.2f}" transform="rotate(-90 14 {mid:.2f})" text-anchor="middle">'
               'change in return</text></svg>')
    return "".join(out)


def _line_chart(points: Sequence[tuple[Fraction, Fraction]], x_label: str, y_label: str, cls: str,
                marks: Sequence[tuple[Fraction, str]] = (), paths: Sequence[str] = (), values: Sequence[str] = (),
                x_money: bool = False, zero_line: bool = True, x_ticks: Sequence[Fraction] | None = None) -> str:
    """A line through ``points`` (x, y as exact values; y shown in %), with vertical ``marks``."""
    width, height, left, right, top, bottom = 440, 230, 84, 18, 16, 40
    xs = [p[0] for p in points] + [m[0] for m in marks]
    ys = [p[1] for p in points] + ([Fraction(0)] if zero_line else [])
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1
    pad = (y1 - y0) / 10 or abs(y1) / 10 or Fraction(1, 1000)
    y0, y1 = y0 - pad, y1 + pad

    def sx(v: Fraction) -> float:
        return left + _num((v - x0) / (x1 - x0)) * (width - left - right)

    def sy(v: Fraction) -> float:
        return top + _num((y1 - v) / (y1 - y0)) * (height - top - bottom)

    out = [(f'<svg class="chart {cls}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
           f'aria-label="{_e(y_label)} against {_e(x_label)}">')]
    for t in _ticks(y0, y1, 4):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{sy(t):.2f}" y2="{sy(t):.2f}" stroke="#e5e8eb"/>'
                   f'<text x="{left - 6}" y="{sy(t) + 4:.2f}" text-anchor="end">{_e(_short_pct(t))}</text>')
    for t in (x_ticks if x_ticks is not None else _ticks(x0, x1, 4)):
        label = _money_tick(t) if x_money else decimal(t, 0)
        out.append(f'<text x="{sx(t):.2f}" y="{height - bottom + 16}" text-anchor="middle">{_e(label)}</text>')
    if zero_line and y0 < 0 < y1:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{sy(Fraction(0)):.2f}" y2="{sy(Fraction(0)):.2f}" '
                   'stroke="#24292f" stroke-dasharray="4 3"/>')
    for x, label in marks:
        out.append(f'<line x1="{sx(x):.2f}" x2="{sx(x):.2f}" y1="{top}" y2="{height - bottom}" stroke="#8c959f" '
                   f'stroke-dasharray="2 3"/><text x="{sx(x) + 3:.2f}" y="{top + 10}">{_e(label)}</text>')
    coords = " ".join(f"{sx(x):.2f},{sy(y):.2f}" for x, y in points)
    out.append(f'<polyline points="{coords}" fill="none" stroke="var(--accent)" stroke-width="2"/>')
    for i, (x, y) in enumerate(points):
        attrs = f' data-path="{_e(paths[i])}" data-value="{_e(values[i])}"' if i < len(paths) else ""
        out.append(f'<circle class="point" cx="{sx(x):.2f}" cy="{sy(y):.2f}" r="3.5" fill="var(--accent)"{attrs}/>')
    out.append(f'<text x="{(left + width - right) / 2:.2f}" y="{height - 6}" text-anchor="middle">{_e(x_label)}</text>'
               f'<text x="12" y="{(top + height - bottom) / 2:.2f}" transform="rotate(-90 12 '
               f'{(top + height - bottom) / 2:.2f})" text-anchor="middle">{_e(y_label)}</text></svg>')
    return "".join(out)


def sensitivity_chart(rows: Sequence[dict[str, Any]], base: str) -> str:
    """House edge against the number of decks."""
    pts = [(Fraction(d["decks"]), Fraction(d["house_edge"])) for d in rows]
    return _line_chart(pts, "decks", "house edge", "sensitivity", paths=[f"{base}/{i}/house_edge" for i in range(len(rows))],
                       values=[d["house_edge"] for d in rows], zero_line=False, x_ticks=[p[0] for p in pts])


def meter_line(a: dict[str, Any], meter: dict[str, Any]) -> tuple[Fraction, Fraction]:
    """(intercept, slope) of the return against one meter, the others at their priced amounts.

    The return at the priced meters is the sum of the outcome rows' returns; a meter
    amount M adds ``hit_probability × M / stake`` (each meter pay is share·M in all).
    """
    at_priced = sum((Fraction(o["return"]) for o in a["outcomes"]), Fraction(0))
    slope = Fraction(meter["hit_probability"]) / Fraction(a["stake"])
    priced = Fraction(a["priced_at"].get(meter["name"], "0"))
    return at_priced - slope * priced, slope


def meter_chart(a: dict[str, Any], meter: dict[str, Any]) -> str:
    """The return against one meter's amount (a straight line), reset and break-even marked."""
    intercept, slope = meter_line(a, meter)
    priced = Fraction(a["priced_at"].get(meter["name"], "0"))
    be = a["break_even"].get(meter["name"])
    candidates = [priced] + ([Fraction(be)] if be is not None else [])
    top = max(candidates) * Fraction(5, 4) or Fraction(1000)
    marks = [(priced, "priced" if priced else "0")]
    if be is not None and Fraction(be) != priced:
        marks.append((Fraction(be), "break-even"))
    pts = [(Fraction(0), intercept), (top, intercept + slope * top)]
    return _line_chart(pts, f"{meter['name']} meter ($)", "return", "meter", marks=marks, x_money=True)


# -- sections ----------------------------------------------------------------------------------

def _outcomes(a: dict[str, Any], base: str) -> str:
    rows = [('<table class="outcomes"><thead><tr><th>Event</th><th>Pays</th><th class="num">Combinations</th>'
            '<th>Probability (exact)</th><th class="num">Probability</th><th class="num">1 in N</th>'
            '<th>Return (exact)</th></tr></thead><tbody>')]
    for i, o in enumerate(a["outcomes"]):
        p = f"{base}/outcomes/{i}"
        rows.append(f'<tr><td>{_e(o["name"])}</td><td>{_fig(p + "/pays_text", o["pays_text"], "text")}'
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
                f'{_fig(base + "/std_dev", a["std_dev"], "text")}</td></tr>')
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
        rows.append(f'<tr><td>Long-run return</td><td>{_fig(base + "/long_run_return", lr)}</td>'
                    f'<td class="num">{_pct(base + "/long_run_return", lr)}</td></tr>')
    rows.append("</tbody></table>")
    return "".join(rows)


def _progressive(a: dict[str, Any], base: str) -> str:
    if "meters" not in a:
        return ""
    priced = ", ".join(f"{k} {_money(Fraction(v))}" for k, v in a["priced_at"].items())
    out = ['<h3>Return against the meter</h3>',
           (f'<p class="sub">Return = <code class="wrap">{_e(a["return_expression"])}</code> (meters M in dollars, '
           f'stake {_e(_money(Fraction(a["stake"])))}); figures above priced at {_e(priced)}. Each line holds '
           'the other meters at their priced amounts.</p><div class="grid2">')]
    for i, m in enumerate(a["meters"]):
        out.append(f'<figure>{meter_chart(a, m)}<figcaption>Meter {_e(m["name"])}: reset '
                   f'{_e("not regulated" if m["reset"] is None else _money(Fraction(m["reset"])))}; '
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
    out.append('<ul class="checks">')
    for c in v["checks"]:
        state = None if c.get("applies") is False else c["holds"]
        out.append(f'<li>{_e(c["check"])}: {_badge(state)}</li>')
    out.append(f'</ul><p>Every check of this paytable: {_badge(v["all_hold"], "all hold", "NOT ALL HOLD")}</p>')
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


def _anchor(x: dict[str, Any]) -> str:
    return f'e-{x["wager"]}--{x["paytable"]}'


def _entry(doc: dict[str, Any], i: int, x: dict[str, Any]) -> str:
    a, base = x["analysis"], f"entries/{i}"
    readings = "".join(f"<dt>{label}</dt><dd>{_e(text)}</dd>" for label, text in
                       (("Reading", x["readings"]["wager"]), ("Paytable note", x["readings"]["paytable"])) if text)
    return "".join([
        f'<section class="entry" id="{_e(_anchor(x))}"><h2>{_e(a["name"])} — paytable {_e(x["paytable"])}</h2>',
        f'<p class="sub">wager <code>{_e(x["wager"])}</code>, level <code>{_e(x["level"])}</code></p>',
        (f'<dl class="meta"><dt>Wager</dt><dd>{_e(x["citations"]["wager"])}</dd><dt>Paytable</dt>'
        f'<dd>{_e(x["citations"]["paytable"])}</dd>{readings}</dl>'),
        _definition(doc, x["wager"]),
        '<h3>Outcomes</h3>', _outcomes(a, base + "/analysis"),
        '<h3>Figures</h3>', _figures(a, base + "/analysis"),
        _progressive(a, base + "/analysis"),
        _effects(x["effects_of_removal"], base + "/effects_of_removal"),
        _sensitivity(x["sensitivity"], base + "/sensitivity"),
        _verification(x["verification"], base + "/verification"),
        "</section>"])


def render_html(doc: dict[str, Any]) -> str:
    """The report as one self-contained HTML document (a view: verify reads the JSON)."""
    s = doc["summary"]
    fp = doc["fingerprint"]["value"]
    toc = "".join(f'<li><a href="#{_e(_anchor(x))}">{_e(x["analysis"]["name"])} — {_e(x["paytable"])}</a> '
                  f'{_badge(x["verification"]["all_hold"], "verified", "NOT VERIFIED")}</li>' for x in doc["entries"])
    head = (f'<header><h1>Certification report</h1><p class="sub">exactodds {_e(doc.get("version"))} · '
            f'{_e(doc["shoe"]["description"])} · generated {_e(doc.get("generated_utc"))} (UTC)</p>'
            f'<dl class="meta"><dt>Paytables certified</dt><dd>{_count("summary/paytables", s["paytables"])}</dd>'
            f'<dt>Second method agrees</dt><dd>{_count("summary/second_method_agrees", s["second_method_agrees"])}'
            f' (none available for {_count("summary/no_second_method", s["no_second_method"])})</dd>'
            f'<dt>Every check holds</dt><dd>{_badge(s["all_checks_hold"], "yes", "NO")}</dd>'
            f'<dt>Inputs</dt><dd><code class="wrap">{_e(json.dumps({k: v for k, v in doc["inputs"].items() if k != "definitions"}, sort_keys=True))}</code>'
            f'{" + embedded wager files" if doc["inputs"].get("definitions") else ""}</dd></dl>'
            f'<div class="fingerprint">Fingerprint (SHA-256 of the canonical JSON report): '
            f'<code class="wrap">{_fig("fingerprint/value", fp, "hex")}</code><br>'
            '<span class="sub">Verify with <code>exactodds verify REPORT.json</code> on the JSON report '
            '(<code>certify --format json</code>), which recomputes every figure from its inputs; this page is a '
            'view of it for reading and printing.</span></div></header>')
    method = (f'<section id="method"><h3>Method</h3><p>{_e(doc["method"])}</p><h3>Readings</h3><ul>'
              + "".join(f"<li>{_e(r)}</li>" for r in doc["readings"]) + "</ul></section>")
    body = "".join(_entry(doc, i, x) for i, x in enumerate(doc["entries"]))
    foot = (f'<footer><p class="sub">End of report · fingerprint <code class="wrap">{_e(fp)}</code></p></footer>')
    title = f"Certification report — exactodds {doc.get('version')} — {doc['shoe']['description']}"
    return ("<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, '
            f'initial-scale=1"><meta name="generator" content="exactodds {_e(doc.get("version"))}">'
            f'<title>{_e(title)}</title><style>{CSS}</style></head><body>{head}'
            f'<nav><h3>Contents</h3><ol>{toc}</ol></nav>{method}{body}{foot}</body></html>\n')


__all__ = ["eor_chart", "meter_chart", "meter_line", "render_html", "sensitivity_chart"]
