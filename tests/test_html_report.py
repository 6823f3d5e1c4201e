"""The HTML certificate: self-contained structure, and every figure in it equals the JSON report."""

from __future__ import annotations

import json
import re
import tomllib
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from exactodds.catalogue.files import load_wager_files, parse_wager_text
from exactodds.cli.app import app
from exactodds.exact import decimal, percent
from exactodds.game.cards import Shoe
from exactodds.games.certificate import certify
from exactodds.report.certify import render_report
from exactodds.report.html import meter_line, render_html

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"


class Page(HTMLParser):
    """Every start tag with its attributes and the text inside each element with data-path."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.figures: list[dict[str, str]] = []
        self.headings: list[tuple[str, str]] = []
        self._open: list[tuple[str, dict[str, str], list[str]]] = []
        self.stack: list[str] = []
        self.decl: list[str] = []

    def handle_decl(self, decl: str) -> None:
        self.decl.append(decl)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        self._open.append((tag, a, []))
        if tag not in ("meta", "br", "line", "circle", "polyline"):
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        if "data-path" in a:
            self.figures.append({**a, "tag": tag, "text": ""})

    def handle_endtag(self, tag: str) -> None:
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                name, a, text = self._open.pop(i)
                joined = "".join(text)
                if "data-path" in a:
                    self.figures.append({**a, "tag": name, "text": joined.strip()})
                if name in ("h2", "h3"):
                    self.headings.append((name, joined.strip()))
                for _, _, outer in self._open:
                    outer.append(joined)
                break

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def parse(html: str) -> Page:
    p = Page()
    p.feed(html)
    p.close()
    return p


def at(doc: Any, path: str) -> Any:
    x = doc
    for part in path.split("/"):
        x = x[int(part)] if isinstance(x, list) else x[part]
    return x


def expected_text(kind: str, value: Any) -> str:
    """How each kind of figure must read, from the JSON value alone."""
    if kind == "exact" and isinstance(value, str) and re.fullmatch(r"-?[0-9]+/1", value):
        return value[:-2]  # a whole number reads as one: "41", not "41/1"
    if kind in ("exact", "text", "hex"):
        return str(value)
    if kind == "count":
        return f"{value:,}"
    if kind == "tag":
        return ("+" if value >= 0 else "-") + str(abs(value))
    x = Fraction(value)
    if kind == "pct":
        return percent(x, 6)
    if kind == "dec":
        return decimal(x, 10)
    if kind == "money":
        return f"${decimal(x, 2)}"
    if kind == "onein":
        return "1 in "  # the prefix; the number is checked against 1/p by the caller
    if kind == "sig":
        return ""  # checked by the caller: a decimal to the page's significant digits
    raise AssertionError(kind)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    files = load_wager_files([str(EXAMPLES / "three-card-nine-progressive.toml"),
                              str(EXAMPLES / "monochrome.toml")])
    return certify(["dragon-7", "royal-9", "lucky-nines", *files], None, Shoe.standard(8), sensitivity_decks=(6, 7, 8))


@pytest.fixture(scope="module")
def page(report: dict[str, Any]) -> Page:
    return parse(render_html(report))


def test_a_self_contained_html_document(report: dict[str, Any], page: Page) -> None:
    html = render_html(report)
    assert html.startswith("<!DOCTYPE html>") and page.decl == ["DOCTYPE html"]
    names = [t for t, _ in page.tags]
    assert names.count("html") == names.count("head") == names.count("body") == names.count("style") == 1
    assert "img" not in names and "link" not in names and "iframe" not in names
    # one script element: the JSON report itself, as data (nothing executable)
    assert [a for t, a in page.tags if t == "script"] == [{"type": "application/json", "id": "exactodds-report"}]
    for tag, a in page.tags:
        assert "src" not in a, tag
        assert a.get("href", "#").startswith("#"), a  # only links inside the page
    assert "url(" not in html and "@import" not in html and "http://" not in html
    assert "@media print" in html and "@page" in html
    assert page.stack == [], page.stack  # every element closed
    ids = [a["id"] for _, a in page.tags if "id" in a]
    assert len(ids) == len(set(ids))


def test_sections_and_charts_per_entry(report: dict[str, Any], page: Page) -> None:
    entries = report["games"][0]["tables"]
    sections = [a for t, a in page.tags if t == "section" and a.get("id", "").startswith("t-baccarat--")]
    assert len(sections) == len(entries) == sum(1 for h, t in page.headings if h == "h2" and "— paytable" in t)
    h3 = [t for h, t in page.headings if h == "h3"]
    for title in ("Outcomes", "Figures", "Effects of removal", "Deck-count sensitivity", "Verification"):
        assert h3.count(title) == len(entries), title
    charts = [a["class"] for t, a in page.tags if t == "svg"]
    with_eor = sum(1 for x in entries if "ranks" in x["effects_of_removal"])
    meters = sum(len(x["outcome_table"].get("meters", [])) for x in entries)
    assert charts.count("chart eor") == with_eor >= 4
    assert charts.count("chart sensitivity") == len(entries)
    assert charts.count("chart meter") == meters == 13  # royal-9: four paytables of three meters; the file: one
    assert h3.count("Return against the meter") == 5
    assert h3.count("Wager file three-card-nine-progressive.toml") == 1


def test_every_figure_equals_the_json_report(report: dict[str, Any], page: Page) -> None:
    checked = 0
    for f in page.figures:
        value = at(report, f["data-path"])
        raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        assert f["data-value"] == raw, f
        if f["tag"] == "span":
            kind = f["data-kind"]
            want = expected_text(kind, value)
            if kind == "onein":
                shown = Fraction(f["text"].removeprefix("1 in "))
                assert f["text"].startswith(want) and abs(shown - 1 / Fraction(value)) <= shown / 10**5, f
            elif kind == "sig":  # the default 6 significant digits, rounded from the report's decimal
                digits = f["text"].lstrip("-0.").replace(".", "")
                assert len(digits) <= 6 or "." not in f["text"], f
                assert abs(Fraction(f["text"]) - Fraction(value)) <= abs(Fraction(value)) / 10**5, f
            else:
                assert f["text"] == want, f
        checked += 1
    paths = {f["data-path"] for f in page.figures}
    for i, x in enumerate(report["games"][0]["tables"]):
        a = x["outcome_table"]
        for j in range(len(a["outcomes"])):
            for key in ("count", "probability", "return", "pays_text"):
                assert f"games/0/tables/{i}/outcome_table/outcomes/{j}/{key}" in paths
        for key in ("house_edge", "hit_frequency", "variance", "std_dev", "return"):
            assert f"games/0/tables/{i}/outcome_table/{key}" in paths
        e = x["effects_of_removal"]
        for kind in ("ranks", "faces"):
            for j in range(len(e.get(kind, []))):
                assert f"games/0/tables/{i}/effects_of_removal/{kind}/{j}/effect" in paths
        for j in range(len(x["sensitivity"])):
            assert f"games/0/tables/{i}/sensitivity/{j}/house_edge" in paths
        for j in range(len(x["verification"]["second_method"].get("outcomes", []))):
            assert f"games/0/tables/{i}/verification/second_method/outcomes/{j}/count" in paths
    assert "fingerprint/value" in paths and checked > 500


def test_bars_point_the_way_of_the_effect_and_scale_with_it(report: dict[str, Any], page: Page) -> None:
    svgs = render_html(report).split("<svg ")[1:]
    eors = [s for s in svgs if s.startswith('class="chart eor"')]
    assert eors
    for svg in eors:
        sub = parse("<svg " + svg.split("</svg>")[0] + "</svg>")
        axis = [a for t, a in sub.tags if t == "line" and a.get("stroke") == "#24292f"]
        mid = float(axis[-1]["y1"])
        bars = [(Fraction(a["data-value"]), float(a["y"]), float(a["height"])) for t, a in sub.tags if t == "rect"]
        assert len(bars) == 13
        peak = max(abs(v) for v, _, _ in bars)
        tallest = max(h for v, _, h in bars if abs(v) == peak)
        for v, y, h in bars:
            if v > 0:
                assert abs(y + h - mid) < 0.02
            elif v < 0:
                assert abs(y - mid) < 0.02
            assert abs(h - max(float(abs(v) / peak) * tallest, 0.5)) < 0.02


def test_the_meter_line_is_the_exact_return(report: dict[str, Any]) -> None:
    """The plotted line meets the report's exact figures: the return at reset and zero at break-even."""
    lines = 0
    for x in report["games"][0]["tables"]:
        a = x["outcome_table"]
        for m in a.get("meters", []):
            intercept, slope = meter_line(a, m)
            priced = Fraction(a["priced_at"][m["name"]])
            if a["return_at_reset"] is not None:
                assert intercept + slope * priced == Fraction(a["return_at_reset"])
            be = a["break_even"][m["name"]]
            if be is not None:
                assert intercept + slope * Fraction(be) == 0
            lines += 1
    assert lines == 13


def test_names_are_escaped_and_the_definition_reads_back(tmp_path: Path) -> None:
    text = (EXAMPLES / "banker-three-card-eight.toml").read_text().replace(
        'name = "Banker Three-Card Eight"', 'name = "Banker <b>3-card</b> 8 & \\"more\\""')
    w = parse_wager_text(text, "odd.toml")
    doc = certify([w], None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)
    html = render_html(doc)
    assert "<b>3-card</b>" not in html and "Banker &lt;b&gt;3-card&lt;/b&gt; 8 &amp; &quot;more&quot;" in html
    pre = re.search(r'<pre class="definition">(.*?)</pre>', html, re.DOTALL)
    assert pre is not None
    from html import unescape
    assert tomllib.loads(unescape(pre.group(1))) == doc["inputs"]["definitions"][0]["content"]


def test_certify_format_html_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "certificate.html"
    r = CliRunner().invoke(app, ["certify", "--wager-file", str(EXAMPLES / "dragon-7-30to1.toml"), "dragon-7",
                                 "--decks", "6", "--format", "html", "--output", str(out)])
    assert r.exit_code == 0 and r.stdout == "", r.output
    html = out.read_text(encoding="utf-8")
    page = parse(html)
    assert [t for h, t in page.headings if h == "h2" and "— paytable" in t] == [
        "Dragon 7 Insurance (EZ Baccarat) — paytable 40to1",
                                                         "Dragon 7 Insurance (EZ Baccarat) — paytable 30to1"]
    doc = json.loads(CliRunner().invoke(app, ["certify", "--wager-file", str(EXAMPLES / "dragon-7-30to1.toml"),
                                              "dragon-7", "--decks", "6", "--format", "json"]).stdout)
    figures = [f for f in page.figures if not f["data-path"].startswith("fingerprint")]
    assert len(figures) > 50
    for f in figures:  # the same figures as the JSON report of another run (only the time differs)
        value = at(doc, f["data-path"])
        assert f["data-value"] == (value if isinstance(value, str) else json.dumps(value))
    assert render_report(doc, "html").count('data-path="') == html.count('data-path="')
