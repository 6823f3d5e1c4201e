"""The par sheet a lab files (issue 15) and verify hardening (issue 18, certificates).

Par-sheet figures are checked against an independent computation from the outcome table
(Decimal square roots at 50 digits, the normal quantiles from ``statistics``); the views
are checked to carry them; the command line is run as a user would (subprocesses), with
every file in a temporary folder.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import statistics
import subprocess
import sys
from decimal import Decimal, getcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import slow
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.errors import InputError
from exactodds.exact import significant
from exactodds.figures.parsheet import ROUNDS, Z
from exactodds.game.cards import Shoe
from exactodds.games.certificate import certify, fingerprint, verify_report
from exactodds.report.certify import CSV_COLUMNS, render_report

ROOT = Path(__file__).resolve().parent.parent
FAVOURABLE = """wager = "dragon-7"
cite = "a paytable that favours the player"

[[paytables]]
id = "60to1"
pays = { "Dragon 7" = "60 to 1" }
"""


def run(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1700000000", **(env or {})}
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, env=full,
                          cwd=cwd, timeout=600)


def refingerprint(doc: dict[str, Any]) -> dict[str, Any]:
    doc["fingerprint"]["value"] = fingerprint(doc)
    return doc


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return certify(["tie", "dragon-7"], shoe=Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)


# -- par-sheet figures against an independent computation ---------------------------------------
def _independent(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    getcontext().prec = 50
    total = sum(o["count"] for o in outcomes)
    pays = [(o["count"], Fraction(o["pays"])) for o in outcomes]
    mean = sum((n * x for n, x in pays), Fraction(0)) / total
    second = sum((n * x * x for n, x in pays), Fraction(0)) / total
    var = second - mean * mean
    sigma = (Decimal(var.numerator) / Decimal(var.denominator)).sqrt()
    return {"mean": mean, "sigma": sigma, "total": total,
            "hit": Fraction(sum(n for n, x in pays if x > 0), total),
            "max": max(x for n, x in pays if n > 0 and x > 0)}


def _close(text: str, value: Decimal, rel: str = "1e-13") -> bool:
    return abs(Decimal(text) - value) <= abs(value) * Decimal(rel) + Decimal("1e-30")


def test_normal_quantiles_are_the_stated_ones() -> None:
    nd = statistics.NormalDist()
    assert abs(float(Z["90"]) - nd.inv_cdf(0.95)) < 1e-15
    assert abs(float(Z["95"]) - nd.inv_cdf(0.975)) < 1e-15
    assert abs(float(Z["99"]) - nd.inv_cdf(0.995)) < 1e-15


def test_par_sheet_figures_equal_an_independent_computation(small: dict[str, Any]) -> None:
    for x in small["games"][0]["tables"]:
        ps, ind = x["par_sheet"], _independent(x["outcome_table"]["outcomes"])
        z90, z95, z99 = (Decimal(statistics.NormalDist().inv_cdf(q)) for q in (0.95, 0.975, 0.995))
        assert _close(ps["standard_deviation"], ind["sigma"])
        assert _close(ps["volatility_index"]["90"], z90 * ind["sigma"], "1e-12")
        assert _close(ps["volatility_index"]["95"], z95 * ind["sigma"], "1e-12")
        assert _close(ps["volatility_index"]["99"], z99 * ind["sigma"], "1e-12")
        assert Fraction(ps["hit_frequency"]) == ind["hit"] and _close(ps["hit_one_in"], Decimal(1) / (
            Decimal(ind["hit"].numerator) / Decimal(ind["hit"].denominator)))
        assert ps["cycle"] == ind["total"]
        assert Fraction(ps["maximum_payout"]["win_per_unit"]) == ind["max"]
        assert Fraction(ps["maximum_payout"]["paid_per_round_per_unit"]) == ind["max"] + 1
        assert [c["rounds"] for c in ps["confidence_ranges"]] == list(ROUNDS)
        for c in ps["confidence_ranges"]:
            n = c["rounds"]
            centre = Decimal(ind["mean"].numerator) * n / Decimal(ind["mean"].denominator)
            assert Fraction(c["expected_result"]) == n * ind["mean"]
            half = z95 * ind["sigma"] * Decimal(n).sqrt()
            assert _close(c["result_95"][0], centre - half, "1e-11") and _close(c["result_95"][1], centre + half, "1e-11")
            half = z90 * ind["sigma"] * Decimal(n).sqrt()
            assert _close(c["result_90"][0], centre - half, "1e-11") and _close(c["result_90"][1], centre + half, "1e-11")
        assert x["player_advantage"] is False


def test_par_sheet_figures_are_in_every_view(small: dict[str, Any]) -> None:
    from io import BytesIO

    openpyxl = pytest.importorskip("openpyxl")
    md, csv, html = (str(render_report(small, f)) for f in ("markdown", "csv", "html"))
    wb = openpyxl.load_workbook(BytesIO(render_report(small, "xlsx")))  # type: ignore[arg-type]
    cells = {str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None}
    numbers = {significant(Fraction(repr(c.value)), 15) for ws in wb.worksheets for row in ws.iter_rows()
               for c in row if isinstance(c.value, float)}
    for x in small["games"][0]["tables"]:
        ps = x["par_sheet"]
        for text in (ps["volatility_index"]["90"], ps["volatility_index"]["95"], ps["confidence_ranges"][2]["result_95"][0],
                     ps["hit_one_in"], ps["maximum_payout"]["pays_text"]):
            assert text in md and text in html, text
        assert ps["volatility_index"]["95"] in csv and ps["maximum_payout"]["win_per_unit"] in csv
        assert ps["volatility_index"]["95"] in numbers and ps["maximum_payout"]["win_per_unit"] in cells
    for needle in ("confidence", "volatil", "maximum"):
        assert needle in md.lower() and needle in html.lower()


def test_xlsx_cells_equal_the_exact_values(small: dict[str, Any]) -> None:
    from io import BytesIO

    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.load_workbook(BytesIO(render_report(small, "xlsx")))  # type: ignore[arg-type]
    assert wb.sheetnames[0] == "Summary" and len(wb.sheetnames) == 2 + len(small["games"][0]["tables"])
    pairs = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for left, right in zip(row, row[1:]):
                if isinstance(left.value, (int, float)) and isinstance(right.value, str) and "/" in right.value:
                    exact = Fraction(right.value)
                    assert significant(Fraction(repr(left.value)), 15) == significant(exact, 15)
                    pairs += 1
    assert pairs > 20
    assert wb["Summary"]["B2"].value == small["fingerprint"]["value"]


def test_markdown_has_no_python_reprs_and_csv_no_overloaded_columns() -> None:
    doc = certify(["dragon-7"], sensitivity_decks=(8,))
    md = str(render_report(doc, "markdown"))
    for repr_text in ("True", "False", "None", "{'", "['"):
        assert repr_text not in md, repr_text
    assert not any("_or_" in c for c in CSV_COLUMNS) and len(set(CSV_COLUMNS)) == len(CSV_COLUMNS)
    header = str(render_report(doc, "csv")).splitlines()[0].split(",")
    assert header == list(CSV_COLUMNS)


# -- player advantage ---------------------------------------------------------------------------
def test_a_player_favourable_paytable_is_flagged_in_every_view(tmp_path: Path) -> None:
    f = tmp_path / "fav.toml"
    f.write_text(FAVOURABLE)
    out = tmp_path / "fav"
    r = run("certify", "--wager-file", str(f), "dragon-7", "-p", "60to1", "--no-eor", "--sensitivity-decks", "8",
            "--formats", "json,markdown,csv,html,xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "fav.json").read_text())
    x = doc["games"][0]["tables"][0]
    assert Fraction(x["outcome_table"]["return"]) > 0 and x["player_advantage"] is True
    assert doc["summary"]["player_advantage"] == ["baccarat/dragon-7/60to1"]
    game = [c for c in x["verification"]["checks"] if c.get("kind") == "game"]
    assert len(game) == 1 and game[0]["holds"] is False
    assert x["verification"]["all_hold"] is True and doc["summary"]["all_checks_hold"] is True  # the mathematics holds
    assert "PLAYER ADVANTAGE" in (tmp_path / "fav.md").read_text()
    assert "PLAYER ADVANTAGE" in (tmp_path / "fav.html").read_text()
    assert ",yes," in (tmp_path / "fav.csv").read_text()
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.load_workbook(tmp_path / "fav.xlsx")
    assert any("PLAYER ADVANTAGE" == c.value for row in wb.worksheets[2].iter_rows() for c in row)
    assert run("verify", str(tmp_path / "fav.json")).returncode == 0


def test_pai_gow_optimal_play_that_beats_the_game_is_flagged() -> None:
    doc = certify([], games=[("paigow", {"house_way_reading": "high-hand-first"})], sensitivity_decks=(8,),
                  effects_of_removal=False)
    pa = doc["games"][0]["player_advantage"]
    beats = [s["id"] for s in doc["games"][0]["tables"] if Fraction(s["outcome_table"]["return"]) > 0]
    assert pa["tables"] == beats == ["optimal"]  # optimal play against the high-hand-first house way wins
    assert doc["summary"]["player_advantage"] == [f"paigow/{s}" for s in beats]
    if beats:
        assert "PLAYER ADVANTAGE" in str(render_report(doc, "markdown")).upper()
        assert "PLAYER ADVANTAGE" in str(render_report(doc, "html"))


# -- one run, many formats; render; HTML verifies ----------------------------------------------
@slow("9 s of CPU (every view of a par sheet, twice)")
def test_one_run_many_views_one_fingerprint_and_reproducible(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    outs = [tmp_path / n for n in ("c.json", "c.html", "c.xlsx")]
    r = run("certify", "dragon-7", *[a for o in outs for a in ("-o", str(o))])
    assert r.returncode == 0 and r.stdout == "", r.stderr
    doc = json.loads(outs[0].read_text())
    fp = doc["fingerprint"]["value"]
    assert doc["generated_utc"] == "2023-11-14T22:13:20Z"
    assert fp in outs[1].read_text()
    assert openpyxl.load_workbook(outs[2])["Summary"]["B2"].value == fp
    for o in outs[:2]:
        v = run("verify", str(o))
        assert v.returncode == 0 and "HOLDS" in v.stdout, v.stdout + v.stderr
    again = run("render", str(outs[0]), "-f", "html", "-o", str(tmp_path / "d.html"))
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "d.html").read_bytes() == outs[1].read_bytes()
    second = tmp_path / "second"
    second.mkdir()
    run("certify", "dragon-7", "--formats", "json,html,xlsx", "-o", str(second / "c"))
    for o in outs:
        assert (second / o.name).read_bytes() == o.read_bytes(), o.name
    # a changed byte in the embedded JSON: does not hold
    page = outs[1].read_text()
    start = page.index('id="exactodds-report">')
    at = page.index('"house_edge":"', start) + len('"house_edge":"') + 1
    digit = page[at]
    assert digit.isdigit()
    bad = tmp_path / "bad.html"
    bad.write_text(page[:at] + str((int(digit) + 1) % 10) + page[at + 1:])
    v = run("verify", str(bad))
    assert v.returncode == 1 and "DOES NOT HOLD" in v.stdout
    # a visible figure changed, the embedded report intact: does not hold either
    edited = tmp_path / "edited.html"
    edited.write_text(page.replace("7.611334%", "1.611334%", 1))
    assert page != edited.read_text() and run("verify", str(edited)).returncode == 1
    # render refuses a report that does not hold, and writes nothing
    forged = json.loads(outs[0].read_text())
    forged["games"][0]["tables"][0]["outcome_table"]["house_edge"] = "1/100"
    (tmp_path / "forged.json").write_text(json.dumps(refingerprint(forged)))
    r = run("render", str(tmp_path / "forged.json"), "-f", "html", "-o", str(tmp_path / "f.html"))
    assert r.returncode == 1 and r.stdout == "" and not (tmp_path / "f.html").exists()


def test_several_outputs_are_all_or_none(tmp_path: Path) -> None:
    good = tmp_path / "c.json"
    r = run("certify", "tie", "-p", "8to1", "--no-eor", "-o", str(good), "-o", str(tmp_path / "no" / "c.html"))
    assert r.returncode == 2 and r.stderr.startswith("exactodds: error:") and r.stderr.count("\n") == 1
    assert not good.exists() and r.stdout == ""
    for args in (["-o", str(tmp_path / "a.json"), "-o", str(tmp_path / "a.rtf")],
                 ["-f", "json", "-o", str(tmp_path / "a.json"), "-o", str(tmp_path / "a.html")],
                 ["--formats", "json,json", "-o", str(tmp_path / "a")], ["--formats", "json,docx", "-o", str(tmp_path / "a")],
                 ["--formats", "json"], ["-f", "xlsx"], ["--sensitivity-decks", "0,8"], ["--sensitivity-decks", "8,8"],
                 ["--sensitivity-decks", "1e9"], ["--document", str(tmp_path / "missing.toml")]):
        r = run("certify", "tie", "-p", "8to1", "--no-eor", *args)
        assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("exactodds: error:"), (args, r.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_sensitivity_decks_and_document_control(tmp_path: Path) -> None:
    d = tmp_path / "doc.toml"
    d.write_text('game = "Tie <b>"\njurisdiction = "PA"\nlab = "Lab"\nrevision = "2"\n'
                 '[[approval]]\nname = "R"\nrole = "reviewer"\n')
    r = run("certify", "tie", "-p", "8to1", "--no-eor", "--sensitivity-decks", "1,2,4,6,8", "--document", str(d),
            "-o", str(tmp_path / "t.json"), "-o", str(tmp_path / "t.html"), "-o", str(tmp_path / "t.md"))
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "t.json").read_text())
    assert [s["decks"] for s in doc["games"][0]["tables"][0]["sensitivity"]] == [1, 2, 4, 6, 8]
    assert doc["document"]["game"] == "Tie <b>" and doc["document"]["approval"] == [{"name": "R", "role": "reviewer"}]
    html = (tmp_path / "t.html").read_text()
    assert "Tie &lt;b&gt;" in html and "Tie <b>" not in html.split('id="exactodds-report">')[0]
    assert "Approval 1: R, reviewer" in (tmp_path / "t.md").read_text()
    assert run("verify", str(tmp_path / "t.json")).returncode == 0
    d.write_text('game = "x"\nsubmiter = "typo"\n')
    r = run("certify", "tie", "--document", str(d), "-o", str(tmp_path / "u.json"))
    assert r.returncode == 2 and "submiter" in r.stderr and not (tmp_path / "u.json").exists()
    s = run("schema", "document")
    assert s.returncode == 0 and json.loads(s.stdout)["additionalProperties"] is False


def test_verify_reports_the_program(small: dict[str, Any]) -> None:
    v = verify_report(copy.deepcopy(small))
    assert v.holds and any(n.startswith("same program") for n in v.notes)
    other = copy.deepcopy(small)
    other["program"]["sha256"] = "0" * 64
    v = verify_report(refingerprint(other))
    assert v.holds and any(n.startswith("a different program") for n in v.notes)
    assert not any("entry order matters" in n for n in v.notes)  # said only where it may explain a difference


def test_verify_names_the_table_order_where_tables_differ(small: dict[str, Any]) -> None:
    swapped = copy.deepcopy(small)
    swapped["games"][0]["tables"].reverse()
    v = verify_report(refingerprint(swapped))
    assert not v.holds and any("table order matters" in n for n in v.notes)


def test_the_program_hash_covers_the_shipped_tables() -> None:
    """Every file the package ships -- its modules and each package-data file pyproject.toml
    names (shape tables, standard shoes' counts, Pai Gow arrays, templates) -- is in the
    program hash: a table determines figures as much as the code does."""
    import tomllib
    from pathlib import Path

    import exactodds
    from exactodds.games.certificate import program_files

    root = Path(exactodds.__file__).resolve().parent
    project = Path(__file__).resolve().parent.parent / "pyproject.toml"
    data = tomllib.loads(project.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    shipped = {p for package, globs in data.items() for g in globs
               for p in (root.parent / package.replace(".", "/")).glob(g)}
    shipped |= {p for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    assert any(p.suffix == ".npz" for p in shipped) and any(p.suffix == ".json" for p in shipped)
    assert shipped <= set(program_files()), sorted(map(str, shipped - set(program_files())))


# -- verify hardening (issue 18) ----------------------------------------------------------------
@pytest.fixture(scope="module")
def from_file(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from exactodds.catalogue.files import registered_files

    folder = tmp_path_factory.mktemp("wf")
    f = folder / "d30.toml"
    f.write_text((ROOT / "docs/examples/dragon-7-30to1.toml").read_text())
    with registered_files([f]) as ws:
        return certify(ws, "30to1", sensitivity_decks=(8,), effects_of_removal=False)


def test_a_certificate_is_tied_to_its_wager_file(from_file: dict[str, Any]) -> None:
    assert verify_report(copy.deepcopy(from_file)).holds
    d0 = from_file["inputs"]["definitions"][0]
    assert "text" in d0
    import hashlib
    assert d0["sha256"] == hashlib.sha256(d0["text"].encode()).hexdigest()
    changes = []
    other_hash = copy.deepcopy(from_file)
    other_hash["inputs"]["definitions"][0]["sha256"] = hashlib.sha256(b"another file").hexdigest()
    changes.append(other_hash)
    for name in ("../../x.toml", "a/b.toml", ".."):
        renamed = copy.deepcopy(from_file)
        renamed["inputs"]["definitions"][0]["file"] = name
        changes.append(renamed)
    text_changed = copy.deepcopy(from_file)
    text_changed["inputs"]["definitions"][0]["text"] += "# a comment\n"
    changes.append(text_changed)
    no_text = copy.deepcopy(from_file)
    del no_text["inputs"]["definitions"][0]["text"]
    changes.append(no_text)
    extra = copy.deepcopy(from_file)
    unused = dict(d0, file="unused.toml", text=FAVOURABLE,
                  sha256=hashlib.sha256(FAVOURABLE.encode()).hexdigest())
    import tomllib
    unused["content"] = tomllib.loads(FAVOURABLE)
    extra["inputs"]["definitions"].append(unused)
    changes.append(extra)
    for i, doc in enumerate(changes):
        v = verify_report(refingerprint(doc))
        assert not v.holds and v.problems, i


def test_grafted_sections_and_reordered_entries_do_not_hold(small: dict[str, Any]) -> None:
    grafted = copy.deepcopy(small)
    grafted["games"] = [{"game": "paigow", "strategies": [], "schedules": [], "verification": {}}]
    v = verify_report(refingerprint(grafted))
    assert not v.holds
    swapped = copy.deepcopy(small)
    swapped["games"][0]["tables"].reverse()
    v = verify_report(refingerprint(swapped))
    assert not v.holds and v.problems


def test_verify_bounds_its_work_in_one_line(tmp_path: Path, from_file: dict[str, Any]) -> None:
    import hashlib

    big = copy.deepcopy(from_file)
    d = big["inputs"]["definitions"][0]
    d["text"] = d["text"] + "#" + "x" * (70 * 1024) + "\n"
    d["sha256"] = hashlib.sha256(d["text"].encode()).hexdigest()
    f = tmp_path / "big.json"
    f.write_text(json.dumps(refingerprint(big)))
    r = run("verify", str(f))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("exactodds: error:")
    assert r.stderr.count("\n") == 1 and "KiB" in r.stderr


def test_certify_paigow_refuses_a_paytable_it_would_ignore(tmp_path: Path) -> None:
    r = run("certify", "--paigow", "-p", "X", "-o", str(tmp_path / "p.json"))
    assert r.returncode == 2 and "paytable" in r.stderr and not (tmp_path / "p.json").exists()


# -- print ----------------------------------------------------------------------------------------
def test_the_printed_page_has_page_numbers_and_contents(tmp_path: Path, small: dict[str, Any]) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None or shutil.which("pdftotext") is None:
        pytest.skip("no headless browser (chromium) or pdftotext installed: the print test needs both")
    page = tmp_path / "c.html"
    page.write_text(str(render_report(small, "html")))
    pdf = tmp_path / "c.pdf"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", page.as_uri()], capture_output=True, timeout=300,
                   env={**os.environ, "HOME": str(tmp_path)})
    assert pdf.exists()
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          timeout=120).stdout
    pages = text.split("\f")
    pages = [p for p in pages if p.strip()]
    assert len(pages) >= 4
    for i, p in enumerate(pages, 1):
        assert f"page {i} of {len(pages)}" in p, i
        assert small["fingerprint"]["value"][:16] in p
    assert "Contents" in text and "Summary of every certified table" in pages[0]
    for x in small["games"][0]["tables"]:  # each wager starts a page, its name in the running header
        name = x["outcome_table"]["name"]
        assert any(p.lstrip().startswith(name) for p in pages), name


# -- command-line inputs (property tests) and a lab's template ---------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_sensitivity_decks_parse_or_refuse_in_one_line(text: str) -> None:
    from exactodds.cli.certify import parse_decks_list

    try:
        decks = parse_decks_list(text)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert decks == tuple(int(p.strip()) for p in text.split(","))   # str.strip takes more than int() does (\x1f)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["game", "lab", "revision", "other", "approval"]),
                       st.one_of(st.text(max_size=250), st.integers(), st.lists(st.dictionaries(
                           st.sampled_from(["name", "role", "date", "x"]), st.text(max_size=5)), max_size=3))))
def test_document_control_reads_back_or_is_refused_in_one_line(raw: dict[str, Any]) -> None:
    from exactodds.report.document import parse_document

    text = "\n".join(f"{k} = {json.dumps(v)}" for k, v in raw.items() if k != "approval")
    for a in raw.get("approval", []) if isinstance(raw.get("approval"), list) else []:
        text += "\n[[approval]]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in a.items())
    try:
        doc = parse_document(text)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert set(doc) <= {"game", "lab", "revision", "approval"}
    assert all(isinstance(v, str) and 0 < len(v) <= 200 for k, v in doc.items() if k != "approval")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["a.json", "a.html", "b.md", "c.csv", "d.xlsx", "-", "e.txt", "a.json"]), max_size=4),
       st.sampled_from([None, "json", "html", "xlsx"]), st.sampled_from([None, "json,html", "xlsx", "json,,html"]))
def test_output_plans_are_unambiguous_or_refused(outs: list[str], fmt: str | None, formats: str | None) -> None:
    from exactodds.cli.certify import ReportFormat, output_plan

    try:
        plan = output_plan(None if fmt is None else ReportFormat(fmt), formats, outs or None)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert plan and all(f in ("json", "html", "xlsx", "markdown", "csv", "table") for _, f in plan)
    if len(plan) > 1:
        assert len({p for p, _ in plan}) == len(plan) or formats is None


def test_a_labs_template_renders_and_verifies_with_it(tmp_path: Path, small: dict[str, Any]) -> None:
    """A lab's template: the report records its SHA-256 (certify --template), render uses it,
    verify without it is "report holds, page NOT verified" (exit 3), with it exit 0; an edited
    page, or another template, never exits 0."""
    from exactodds.report.html import SHIPPED
    from exactodds.report.template import load_template

    lab = tmp_path / "lab"
    lab.mkdir()
    (lab / "certificate.html.j2").write_text((SHIPPED / "certificate.html.j2").read_text().replace(
        "<header>", '<header><p class="letterhead">Example Test Lab</p>'))
    report = tmp_path / "r.json"
    plain_report = tmp_path / "plain.json"
    plain_report.write_text(json.dumps(small))
    refused = run("render", str(plain_report), "-f", "html", "--template", str(lab), "-o", str(tmp_path / "r.html"))
    assert refused.returncode == 2 and "does not record this template" in refused.stderr
    assert not (tmp_path / "r.html").exists()
    recorded = copy.deepcopy(small)
    recorded["template"] = load_template(lab).record()
    report.write_text(json.dumps(refingerprint(recorded)))
    r = run("render", str(report), "-f", "html", "--template", str(lab), "-o", str(tmp_path / "r.html"))
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "r.html").read_text()
    assert "Example Test Lab" in page and 'content="custom sha256:' + recorded["template"]["sha256"] in page
    plain = run("verify", str(tmp_path / "r.html"))
    assert plain.returncode == 3 and "PAGE NOT VERIFIED" in plain.stdout and "HOLDS:" not in plain.stdout
    checked = run("verify", str(tmp_path / "r.html"), "--template", str(lab))
    assert checked.returncode == 0 and "byte for byte" in checked.stdout
    other = tmp_path / "other"
    other.mkdir()
    (other / "certificate.css").write_text("body { color: red }\n")
    assert run("verify", str(tmp_path / "r.html"), "--template", str(other)).returncode == 3
    (tmp_path / "r.html").write_text(page.replace("Example Test Lab", "Another Lab"))
    assert run("verify", str(tmp_path / "r.html"), "--template", str(lab)).returncode == 1
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "certificate.html.j2").write_text("{{ nothing_of_this_name }}")
    r = run("certify", "tie", "--no-eor", "--sensitivity-decks", "8", "--template", str(bad),
            "-o", str(tmp_path / "x.html"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and not (tmp_path / "x.html").exists()
