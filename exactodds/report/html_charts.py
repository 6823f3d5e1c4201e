"""The charts of the HTML page (:mod:`exactodds.report.html`): inline SVG drawn from the
report's exact figures -- effect of removal by rank, house edge against the number of decks,
the return against a progressive meter.

Every value is exact (:class:`~fractions.Fraction`) up to the drawing: a float is made only
for an SVG coordinate (:func:`_num`), and every label is the exact figure's decimal. Each
bar and point carries the JSON path and exact value of what it shows (``data-path``,
``data-value``), as the page's tables do, so that a reader can check it against the report.
Apart from html.py so that neither is over 800 lines (issue 29); it imports nothing of html.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import Any

from exactodds.exact import decimal, percent


def esc(x: Any) -> str:
    """``x`` as HTML text, quotes escaped too (safe in an attribute): the page's one escape."""
    return escape(str(x), quote=True)


_e = esc


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
    """An axis label in whole dollars (display only)."""
    return f"${round(x):,}"


def money(x: Fraction) -> str:
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
    for x, label in marks:  # a label near the right edge ends at its line, so it is never cut off
        at, anchor = (sx(x) - 3, ' text-anchor="end"') if sx(x) > left + (width - left - right) * 2 / 3 else (sx(x) + 3, "")
        out.append(f'<line x1="{sx(x):.2f}" x2="{sx(x):.2f}" y1="{top}" y2="{height - bottom}" stroke="#8c959f" '
                   f'stroke-dasharray="2 3"/><text x="{at:.2f}" y="{top + 10}"{anchor}>{_e(label)}</text>')
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


__all__ = ["eor_chart", "esc", "meter_chart", "meter_line", "money", "sensitivity_chart"]
