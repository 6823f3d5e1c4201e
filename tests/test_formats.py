"""Every file what its name says (issue 25, What 2): on every command with ``-o/--output`` a known
ending picks the format, ``-f`` disagreeing with it and an unknown ending are refused in one line;
the certificate as a real PDF (bookmarks, numbered contents, running header) and the terminal
summary that never breaks a number.

The commands are enumerated from the typer app, so a new command with ``-o`` and ``-f`` is
covered here -- and fails :func:`test_every_command_with_an_output_is_covered` until it is given
arguments that run it quickly in :data:`ARGS`.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import click
import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.cli.app import app
from exactodds.exact import significant
from exactodds.game.cards import Shoe
from exactodds.games.certificate import certify
from exactodds.report.certify import render_report
from exactodds.report.views import ENDINGS, FORMAT_OF_ENDING

runner = CliRunner()

ARGS: dict[str, list[str]] = {
    "analyze": ["banker"],
    "blackjack": ["--preset", "standard", "-s", "A=1,2=1,6=1,7=2,8=1,K=4", "--max-hands", "1", "--no-basic"],
    "certify": ["tie", "-p", "8to1", "--no-eor", "--sensitivity-decks", "8"],
    "commission": [],
    "crosscheck": ["HANDS"],
    "design": ["dragon-7", "--sweep", "Dragon 7=30..31"],
    "eor": ["tie", "-d", "1"],
    "list": [],
    "midhand": ["-s", "A=4,2=4,3=4"],
    "mystery": [],
    "paigow": [],
    "render": ["REPORT"],
    "ride": ["-d", "1"],
    "simulate": ["-n", "10", "--seed", "1"],
    "shufflecheck": ["ORDERS"],
    "spanish21": ["-s", "A=1,2=1,6=1,7=2,8=1,K=4", "--max-hands", "1", "--no-basic"],
    "study": ["banker", "-n", "1", "--seed", "1", "-d", "1"],
}
"""Arguments that run each command with an output quickly (HANDS: a hand log, REPORT: a JSON
report, ORDERS: a file of 1-deck shuffled orders, all made once below)."""


def output_commands() -> dict[str, tuple[str, ...]]:
    """Every command of the app with ``-o`` and ``-f``, and the formats its ``-f`` offers."""
    group = typer.main.get_command(app)
    assert isinstance(group, click.Group)
    out = {}
    for name, cmd in group.commands.items():
        params = {p.name: p for p in cmd.params}
        if "output" in params and "fmt" in params:
            out[name] = tuple(getattr(params["fmt"].type, "choices", ()))
    return out


COMMANDS = output_commands()
CASES = [(c, f) for c, formats in sorted(COMMANDS.items()) for f in formats if f in ENDINGS]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("inputs")
    hands, report = folder / "hands.csv", folder / "report.json"
    r = runner.invoke(app, ["simulate", "-n", "300", "--mode", "shoe", "--seed", "5", "-w", "banker", "--log", str(hands)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["certify", "tie", "-p", "8to1", "--no-eor", "--sensitivity-decks", "8", "-o", str(report)])
    assert r.exit_code == 0, r.output
    from exactodds.simulation.shufflers import write_orders

    orders = folder / "orders.txt"
    with open(orders, "w") as fh:
        write_orders(fh, 5, "uniform", 1, Shoe.standard(1))
    return {"HANDS": str(hands), "REPORT": str(report), "ORDERS": str(orders)}


def needs_weasyprint() -> None:
    """Skip unless WeasyPrint (the [pdf] extra) imports and finds its Pango system library."""
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        pytest.skip(f"the [pdf] extra is not usable here: {exc}")


def args_of(command: str, inputs: dict[str, str]) -> list[str]:
    return [command, *(inputs.get(a, a) for a in ARGS[command])]


def one_error_line(r: Any) -> str:
    assert r.exit_code == 2, r.output
    assert r.stdout == "", r.stdout
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("exactodds: error: "), r.stderr
    return str(r.stderr)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)


def is_format(fmt: str, data: bytes) -> None:
    """``data`` is a file of format ``fmt``, read by a reader of that format."""
    if fmt == "pdf":
        assert data.startswith(b"%PDF-")
        import pypdf

        assert len(pypdf.PdfReader(io.BytesIO(data)).pages) >= 1
        return
    if fmt == "xlsx":
        import openpyxl

        assert data.startswith(b"PK")
        assert openpyxl.load_workbook(io.BytesIO(data)).sheetnames
        return
    text = data.decode("utf-8")
    if fmt == "json":
        json.loads(text)
        return
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), "one table"
        assert len(set(rows[0])) == len(rows[0]) and all(rows[0]), "one header, distinct names"
    elif fmt == "html":
        page = _Page()
        page.feed(text)
        assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
        assert {"html", "head", "body", "table"} <= set(page.tags)
    elif fmt == "markdown":  # a heading, a list item or a GitHub table
        assert re.search(r"^(#{1,6} |- |\|[-|: ]+\|$)", text, re.M), text[:200]
    elif fmt == "table":  # plain text: no Markdown table, no HTML
        assert not re.search(r"^\|[-|: ]+\|$", text, re.M) and not text.lstrip().startswith("<")
    else:
        raise AssertionError(fmt)


def test_every_command_with_an_output_is_covered() -> None:
    assert set(COMMANDS) == set(ARGS), "give each command with -o quick arguments in ARGS"
    assert {"analyze", "certify", "eor", "simulate", "design"} <= set(COMMANDS)


@pytest.mark.parametrize("command, fmt", CASES, ids=[f"{c}-{f}" for c, f in CASES])
def test_the_file_ending_picks_the_format(command: str, fmt: str, inputs: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / f"out{ENDINGS[fmt]}"
    if fmt == "pdf":
        needs_weasyprint()
    r = runner.invoke(app, [*args_of(command, inputs), "-o", str(out)])
    if r.exit_code == 2 and "no CSV form" in r.stderr:  # a view without a table form says so
        one_error_line(r)
        assert not out.exists()
        return
    assert r.exit_code == 0, r.output
    is_format(fmt, out.read_bytes())
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_or_disagreeing_ending_is_refused(command: str, inputs: dict[str, str], tmp_path: Path) -> None:
    """One line, exit 2, nothing written: before any work is done."""
    offered = COMMANDS[command]
    for name in ("c.docx", "s.tar.gz", "x.pdf" if "pdf" not in offered else "x.xls"):
        r = runner.invoke(app, [*args_of(command, inputs), "-o", str(tmp_path / name)])
        assert "cannot write a ." in one_error_line(r)
    other = next(f for f in offered if f != "json")
    r = runner.invoke(app, [*args_of(command, inputs), "-f", other, "-o", str(tmp_path / "b.json")])
    assert f"-f {other} disagrees with" in one_error_line(r)
    assert list(tmp_path.iterdir()) == []


def test_a_name_without_an_ending_a_device_or_a_fifo_takes_f_or_the_default(tmp_path: Path) -> None:
    import os

    plain = tmp_path / "report"
    assert runner.invoke(app, ["analyze", "tie", "-f", "json", "-o", str(plain)]).exit_code == 0
    json.loads(plain.read_text())
    fifo = tmp_path / "pipe.xyz"  # a FIFO's name says nothing of what flows through it
    os.mkfifo(fifo)
    import threading

    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = runner.invoke(app, ["list", "-f", "csv", "-o", str(fifo)])
    reader.join(10)
    assert r.exit_code == 0, r.output
    assert got and got[0].startswith(b"wager,name,")


def test_the_one_rule_names_each_ending() -> None:
    assert {FORMAT_OF_ENDING[e] for e in (".md", ".markdown")} == {"markdown"}
    assert all(FORMAT_OF_ENDING[ENDINGS[f]] == f for f in ENDINGS)


# -- the terminal summary ------------------------------------------------------------------------------
def test_certify_table_never_breaks_a_number() -> None:
    """``certify -f table``: every σ, VI and 1 in N (6 significant digits) whole on one line, and
    the table fits 100 columns."""
    doc = certify(["banker", "player", "tie", "dragon-7", "panda-8"], None, Shoe.standard(8), sensitivity_decks=(8,),
                  effects_of_removal=False)
    text = str(render_report(doc, "table"))
    assert max(len(line) for line in text.splitlines()) <= 100
    for x in doc["games"][0]["tables"]:
        ps = x["par_sheet"]
        for v in (ps["standard_deviation"], ps["volatility_index"]["95"], ps["hit_one_in"]):
            assert re.search(rf"(?<![\d.]){re.escape(significant(Fraction(v), 6))}(?![\d.])", text), (v, text)


# -- the PDF ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], bytes]:
    needs_weasyprint()
    folder = tmp_path_factory.mktemp("pdf")
    r = runner.invoke(app, ["certify", "dragon-7", "-d", "6", "--sensitivity-decks", "6,8", "-o", str(folder / "c.pdf"),
                            "-o", str(folder / "c.json")])
    assert r.exit_code == 0, r.output
    return json.loads((folder / "c.json").read_text()), (folder / "c.pdf").read_bytes()


def _outline(items: Any, reader: Any, depth: int = 0) -> Iterator[tuple[int, str, int]]:
    for item in items:
        if isinstance(item, list):
            yield from _outline(item, reader, depth + 1)
        else:
            yield depth, item.title, reader.get_destination_page_number(item)


def test_certify_writes_a_pdf_with_bookmarks_and_numbered_contents(pdf: tuple[dict[str, Any], bytes]) -> None:
    import pypdf

    doc, data = pdf
    assert data.startswith(b"%PDF-")
    reader = pypdf.PdfReader(io.BytesIO(data))
    pages = [p.extract_text() for p in reader.pages]
    title = doc["games"][0]["tables"][0]["title"]
    # the entry starts on the page whose text opens with its running header and its heading
    entry_page = next(i for i, t in enumerate(pages) if title in t and "Outcomes" in t)
    bookmarks = list(_outline(reader.outline, reader))
    assert (0, "Certification report", 0) in bookmarks
    assert (1, title, entry_page) in bookmarks  # a bookmark per part, pointing at its page
    assert any(depth == 2 and name == "Par sheet" for depth, name, _ in bookmarks)
    # the contents give that page's number (1-based), after dot leaders
    contents = next(t for t in pages if "Contents" in t)
    assert re.search(rf"{re.escape(title)}\s*\.+\s*{entry_page + 1}\b", contents), contents
    # running header: the wager on its pages, the fingerprint on every page; "page N of M" at the foot
    fp = doc["fingerprint"]["value"][:16]
    assert all(fp in t for t in pages) and pages[entry_page].count(title) >= 2
    assert all(f"page {i + 1} of {len(pages)}" in t for i, t in enumerate(pages))
    # figures at 6 significant digits; inputs as a list, never raw JSON
    sd = doc["games"][0]["tables"][0]["par_sheet"]["standard_deviation"]
    assert significant(Fraction(sd), 6) in pages[0] and sd not in "".join(pages)
    assert '"sensitivity_decks"' not in "".join(pages) and "Sensitivity decks" in pages[0]


def test_the_pdf_is_reproducible_and_fetches_nothing(tmp_path: Path) -> None:
    needs_weasyprint()
    import struct
    import zlib

    from exactodds.report.pdf import render_pdf

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))
    (tmp_path / "secret.png").write_bytes(png)
    inline = "data:image/png;base64," + base64.b64encode(png).decode()
    page = ('<!DOCTYPE html><html><head><style>@import url("file:///etc/passwd");</style></head><body>'
            '<h1>x</h1><img src="{}"></body></html>')
    assert b"/Image" not in render_pdf(page.format(f"file://{tmp_path}/secret.png"))  # the file was not read ...
    drawn = render_pdf(page.format(inline))
    assert b"/Image" in drawn  # ... though the same picture inline is drawn
    assert drawn == render_pdf(page.format(inline)) and drawn.startswith(b"%PDF-")  # the same bytes each time


def test_without_the_extra_pdf_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint: ModuleNotFoundError
    out = tmp_path / "c.pdf"
    r = runner.invoke(app, ["certify", "tie", "-p", "8to1", "--no-eor", "--sensitivity-decks", "8", "-o", str(out)])
    assert one_error_line(r) == "exactodds: error: PDF output needs weasyprint: pip install 'exactodds[pdf]'\n"
    assert list(tmp_path.iterdir()) == []


# -- the workbook ------------------------------------------------------------------------------------------
def shown(cell: Any) -> str:
    """The text a spreadsheet shows for ``cell`` under its number format."""
    v, f = cell.value, cell.number_format
    if not isinstance(v, (int, float)) or f == "General":
        return str(v)
    if f.endswith("%"):
        return f"{v * 100:.{len(f.partition('.')[2]) - 1}f}%"
    places = len(f.partition(".")[2])
    return f"{v:{',' if '#,##' in f else ''}.{places}f}" + (" " if f.startswith("$") else "")


def test_the_workbook_is_one_a_lab_can_hand_on() -> None:
    """Number formats (%, thousands, fixed digits), widths, frozen headers, and each count beyond
    Excel's 15 digits as exact text beside it (checked against the JSON report)."""
    import openpyxl

    doc = certify(["dragon-7"], None, Shoe.standard(8), sensitivity_decks=(6, 8))
    wb = openpyxl.load_workbook(io.BytesIO(render_report(doc, "xlsx")))  # type: ignore[arg-type]
    summary, entry = wb["Summary"], wb.worksheets[2]  # the game entry's sheet, then its tables' sheets
    assert all(ws.freeze_panes for ws in wb.worksheets)
    header_row = int(summary.freeze_panes[1:]) - 1  # the summary table's header is the last frozen row
    headers = [c.value for c in summary[header_row]]
    assert headers[:4] == ["Game", "Table", "Sheet", "House edge"]
    row = {h: c for h, c in zip(headers, summary[header_row + 1])}
    assert row["House edge"].number_format.endswith("%") and row["Hit frequency"].number_format.endswith("%")
    assert row["Standard deviation"].number_format == "0.000000" and row["Hit 1 in N"].number_format == "0.000000"
    for ws in wb.worksheets:  # every column at least as wide as its longest header or number
        for r in ws.iter_rows():
            for c in r:
                if c.value is not None and (isinstance(c.value, (int, float)) or c.font.b) and sum(
                        1 for x in r if x.value is not None) > 1:
                    width = next(d.width for d in ws.column_dimensions.values() if d.min <= c.column <= d.max)
                    assert width >= min(len(shown(c)), 58), (ws.title, c.coordinate, c.value, width)
    cells = list(entry.iter_rows())
    outcome_header = next(i for i, r in enumerate(cells) if r[0].value == "Outcome")
    names = [c.value for c in cells[outcome_header]]
    assert names[3:5] == ["Count", "Count (exact, text)"]
    counts = {o["outcome"]: o["count"] for o in doc["games"][0]["tables"][0]["outcome_table"]["outcomes"]}
    counts["Total"] = doc["games"][0]["tables"][0]["outcome_table"]["total"]
    seen = 0
    for r in cells[outcome_header + 1: outcome_header + 1 + len(counts)]:
        n, text = r[3].value, r[4].value
        assert r[3].number_format == "#,##0"
        if r[0].value == "Total":  # live: the sum of the counts above (LibreOffice recalculates it: test_live_workbook)
            assert n == f"=SUM(D{r[3].row - len(counts) + 1}:D{r[3].row - 1})"
        else:
            assert n == counts[r[0].value]
        if counts[r[0].value] >= 10**15:  # beyond Excel's 15 digits: the exact integer as text
            assert text == str(counts[r[0].value]) and r[4].data_type == "s"
            seen += 1
        else:
            assert text is None
    assert seen >= 2  # "No Dragon 7" and the total: 16 digits
    assert any(r[0].value == "Cycle (the universe's equally likely elements)" and r[2].value == str(doc["games"][0]["tables"][0]["par_sheet"]["cycle"])
               for r in cells)


def test_digits_are_stated_recorded_and_verified(tmp_path: Path) -> None:
    """``--digits 9``: σ to 9 significant digits on the page, which records them, so ``verify``
    renders the page again alike; the same page claiming 6 digits is not its report's rendering."""
    page = tmp_path / "t.html"
    r = runner.invoke(app, ["certify", "tie", "-p", "8to1", "--no-eor", "--sensitivity-decks", "8", "--digits", "9",
                            "-o", str(page)])
    assert r.exit_code == 0, r.output
    html = page.read_text()
    doc = json.loads(re.search(r'id="exactodds-report">(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    sd = doc["games"][0]["tables"][0]["par_sheet"]["standard_deviation"]
    assert f">{significant(Fraction(sd), 9)}<" in html and f">{significant(Fraction(sd), 6)}<" not in html
    assert "to 9 significant digits" in html and '<meta name="exactodds-digits" content="9">' in html
    assert runner.invoke(app, ["verify", str(page)]).exit_code == 0
    page.write_text(html.replace('content="9">', 'content="6">'))
    assert runner.invoke(app, ["verify", str(page)]).exit_code == 1
    r = runner.invoke(app, ["certify", "tie", "--digits", "16", "-o", str(tmp_path / "x.html")])
    assert r.exit_code == 2 and not (tmp_path / "x.html").exists()


def test_every_table_fits_the_printed_page() -> None:
    """Laid out by WeasyPrint, no box of any page -- the summary, a progressive's outcomes and its
    return in the meters, the effects of removal -- reaches past the right margin (the page was
    clipped there before: 15-digit decimals and whole p/q that could not wrap)."""
    needs_weasyprint()
    import weasyprint

    from exactodds.report.html import render_html

    doc = certify(["royal-9"], "5usd", Shoe.standard(8), sensitivity_decks=(6, 8))
    pages = weasyprint.HTML(string=render_html(doc)).render().pages
    if not hasattr(pages[0], "_page_box"):
        pytest.skip("this WeasyPrint lays out its pages otherwise")

    def boxes(box: Any) -> Iterator[Any]:  # the page's content (its margin boxes hold the running header)
        if type(box).__name__ != "PageBox":
            yield box
        for child in getattr(box, "children", None) or []:
            if type(child).__name__ != "MarginBox":
                yield from boxes(child)

    right_margin = 12 * 96 / 25.4  # certificate.html.j2: @page margin 16mm 12mm, in CSS px
    for number, page in enumerate(pages, 1):
        edge = page.width - right_margin + 0.5
        over = [(type(b).__name__, getattr(b, "text", "")[:30]) for b in boxes(page._page_box)
                if hasattr(b, "margin_width") and b.position_x + b.margin_width() > edge]
        assert not over, (number, over[:5])


@settings(max_examples=200, deadline=None)
@given(stem=st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"), min_size=1, max_size=12),
       ending=st.sampled_from(["", ".json", ".JSON", ".csv", ".md", ".markdown", ".txt", ".html", ".htm", ".xlsx",
                               ".pdf", ".docx", ".tar.gz", ".", ".Csv"]),
       given_fmt=st.sampled_from([None, "table", "json", "csv", "markdown", "html", "xlsx", "pdf"]),
       offered=st.sampled_from([("table", "json", "csv", "markdown"),
                                ("markdown", "json", "csv", "html", "xlsx", "pdf", "table")]))
def test_the_rule_picks_checks_or_refuses(stem: str, ending: str, given_fmt: str | None,
                                          offered: tuple[str, ...]) -> None:
    """For any new file name: the ending's format when it names one the command offers (and -f
    agrees), -f or the default when there is no ending; else one line refusing it."""
    from exactodds.errors import InputError
    from exactodds.report.views import output_format

    path = f"/nonexistent-folder-exactodds/{stem}{ending}"
    suffix = Path(path).suffix.lower() if Path(path).suffix else ""
    named = FORMAT_OF_ENDING.get(suffix)
    try:
        got = output_format(given_fmt, path, offered, "table", "cmd")
    except InputError as exc:
        assert "\n" not in str(exc)
        assert (suffix and named not in offered) or (given_fmt is not None and named is not None and given_fmt != named)
        return
    assert got == (given_fmt or named or "table")
    assert named is None or got == named


def test_libreoffice_recalculates_the_wager_sheets(tmp_path: Path) -> None:
    """Each wager-paytable's sheet has the live outcome table of a game entry (issue 26 items 2, 5):
    LibreOffice recalculates every formula cell of the workbook to the exact figure of the engine's
    table (:func:`live_workbook.check_recalculation`), and with the Tie paid one unit more and the
    Dragon 7 ten units less typed into their cells (every paytable), to the engine's exact figures
    at those pays. A progressive's sheet (Harmony: pays in its meter) has no formula. Skipped
    without LibreOffice."""
    import dataclasses
    from fractions import Fraction

    pytest.importorskip("openpyxl")
    import live_workbook

    from exactodds.figures.analysis import analyze
    from exactodds.report.workbook import render_xlsx

    live_workbook.office()
    doc = certify(["tie", "dragon-7", "harmony"], None, Shoe.standard(1), sensitivity_decks=(1,),
                  effects_of_removal=False)
    new_pay = {"Tie": Fraction(1), "Dragon 7": Fraction(-10)}  # added to the pay
    live = {}
    for x in doc["games"][0]["tables"]:
        if "meters" in x["outcome_table"]:
            continue
        t = analyze(x["wager"], x["paytable"], Shoe.standard(1)).outcome_table()
        assert [(o.name, o.count) for o in t.outcomes] == [(o["outcome"], o["count"]) for o in x["outcome_table"]["outcomes"]]
        changed = dataclasses.replace(t, outcomes=tuple(dataclasses.replace(o, net=o.net + new_pay.get(o.name, 0))
                                                        for o in t.outcomes))
        live[x["title"]] = ([t], [changed])
    assert len(live) == sum(1 for x in doc["games"][0]["tables"] if x["wager"] != "harmony") >= 3
    assert live_workbook.check_recalculation(render_xlsx(doc), live, tmp_path) > 0


def test_a_live_count_beyond_a_doubles_integers_is_a_number_with_its_exact_text() -> None:
    """A live table's counts are numbers the formulas read, also beyond 2**53 (20 decks: 19-digit
    counts), where the cell holds a double (to 1e-15) and the exact integer stands beside it as text."""
    from fractions import Fraction

    import openpyxl

    doc = certify(["tie"], "8to1", Shoe.standard(20), sensitivity_decks=(20,), effects_of_removal=False)
    ws = openpyxl.load_workbook(io.BytesIO(render_report(doc, "xlsx"))).worksheets[2]  # type: ignore[arg-type]
    a = doc["games"][0]["tables"][0]["outcome_table"]
    rows = {r[0].value: r for r in ws.iter_rows() if r[0].value in {o["outcome"] for o in a["outcomes"]}}
    assert len(rows) == len(a["outcomes"]) and a["total"] >= 2**53
    for o in a["outcomes"]:
        count, text, p = rows[o["outcome"]][3], rows[o["outcome"]][4], rows[o["outcome"]][5]
        assert isinstance(count.value, float | int) and text.value == str(o["count"]) and text.data_type == "s"
        assert abs(Fraction(count.value) - o["count"]) <= Fraction(o["count"], 10**15)  # a double, as stored
        assert str(p.value).startswith("=D")  # live: the probability a formula over the counts
