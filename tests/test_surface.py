"""The command-line surface (issue 16 items 4-7, issue 18's injection defects): cells a
spreadsheet cannot run, Markdown that cannot run script, one-line errors for missing
extras, clean help, every CSV one tidy table and no long fraction in a human view."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from exactodds.catalogue import get_wager
from exactodds.cli.app import app

runner = CliRunner()

HOSTILE = '''id = "hostile"
name = "<script>alert(1)</script> Eight"
cite = "test"
level = "coup"

[[outcomes]]
name = '=HYPERLINK("http://evil.example/","click")'
when = { winner = "banker", banker_total = 8, banker_cards = 3 }

[[paytables]]
id = "30to1"
pays = { '=HYPERLINK("http://evil.example/","click")' = "30 to 1" }
'''


def run(*args: str) -> tuple[int, str, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture
def hostile(tmp_path: Path) -> str:
    p = tmp_path / "hostile.toml"
    p.write_text(HOSTILE)
    return str(p)


def test_csv_neutralises_formula_cells(hostile: str) -> None:
    code, out, err = run("analyze", "hostile", "--wager-file", hostile, "-d", "1", "-f", "csv")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    cells = [c for row in rows for c in row]
    # the outcome is there, but as text a spreadsheet shows rather than runs
    assert "'=HYPERLINK(\"http://evil.example/\",\"click\")" in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    # negative exact values and decimals are data, kept as numbers
    negatives = [c for c in cells if c.startswith("-")]
    assert negatives and all(re.fullmatch(r"-[\d./]+", c) for c in negatives)


@pytest.mark.parametrize("value", ["=1+1", "+1+cmd", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "-cmd|' /C calc'!A0"])
def test_every_formula_start_is_neutralised(value: str) -> None:
    from exactodds.report.views import render_csv_rows

    [[cell]] = list(csv.reader(io.StringIO(render_csv_rows([[value]]), newline="")))
    assert cell == "'" + value.replace("\r", "\n")  # a CR inside a cell is a line break, quoted


def test_markdown_escapes_script_from_wager_names(hostile: str) -> None:
    code, out, err = run("analyze", "hostile", "--wager-file", hostile, "-d", "1", "-f", "markdown")
    assert code == 0, err
    assert "<script>" not in out and "&lt;script&gt;" in out


def test_missing_extra_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A command whose optional dependency is missing says which extra to install."""
    log = tmp_path / "hands.csv"
    assert run("simulate", "-n", "3000", "--seed", "1", "--log", str(log))[0] == 0
    for name in [m for m in sys.modules if m == "scipy" or m.startswith("scipy.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "scipy", None)
    code, out, err = run("crosscheck", str(log))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["exactodds: error: crosscheck needs scipy: pip install 'exactodds[stats]'"]


def test_require_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from exactodds.errors import InputError
    from exactodds.extras import require

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InputError, match=r"pip install 'exactodds\[plot\]'"):
        require("matplotlib", "study --plot")


@pytest.mark.parametrize("command", ["analyze", "eor", "list", "certify", "study", "simulate", "crosscheck",
                                     "tables", "shufflecheck"])
def test_help_renders_cleanly(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "\\[" not in out


# -- issue 16 item 4: every CSV one tidy table, no long fraction in a human view --------------------
CSV_COMMANDS = [
    ["list"],
    ["analyze", "banker"],
    ["analyze", "harmony"],
    ["analyze", "--all", "-d", "1"],
    ["eor", "tie"],
    ["eor", "--all", "-d", "1"],
    ["commission"],
    ["ride"],
    ["mystery"],
    ["paigow"],
    ["certify", "tie"],
    ["study", "banker", "tie", "-n", "3", "--seed", "1"],
    ["simulate", "-n", "3000", "--seed", "1", "-w", "dragon-7", "-w", "tie:8to1", "-w", "player-pair"],
    ["crosscheck", "HANDS", "-w", "dragon-7"],
]
"""Every command that writes CSV to its output (simulate's CSV files are checked below)."""

_FRACTION = re.compile(r"-?\d+/\d+")


def _tidy(text: str) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) >= 2, "a header and at least one row"
    assert all(len(r) == len(rows[0]) for r in rows), {len(r) for r in rows}
    assert len(set(rows[0])) == len(rows[0]) and all(rows[0]), "one header, distinct names"
    return rows


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A shoe-mode hand log for crosscheck (``HANDS`` in an argument list)."""
    log = tmp_path_factory.mktemp("surface") / "hands.csv"
    code, _, err = run("simulate", "-n", "3000", "--mode", "shoe", "--seed", "5", "-w", "banker", "--log", str(log))
    assert code == 0, err
    return str(log)


def _run_ok(args: list[str], hands: str = "") -> str:
    code, out, err = run(*(hands if a == "HANDS" else a for a in args))
    assert code == 0, (args, err)
    return out


@pytest.mark.parametrize("args", CSV_COMMANDS, ids=" ".join)
def test_every_csv_is_one_tidy_table_with_decimals(args: list[str], hands: str) -> None:
    rows = _tidy(_run_ok([*args, "-f", "csv"], hands))
    header = rows[0]
    for i, name in enumerate(header):
        cells = [r[i] for r in rows[1:] if r[i]]
        if cells and all(_FRACTION.fullmatch(c) for c in cells):  # an exact column ...
            assert f"{name}_decimal" in header, name                # ... has its decimal beside it
            j = header.index(f"{name}_decimal")
            for r in rows[1:]:
                if r[i]:
                    exact, shown = Fraction(r[i]), r[j]
                    places = len(shown.partition(".")[2])  # agrees with the exact value to the digits shown
                    assert abs(Fraction(shown) - exact) <= Fraction(1, 2 * 10**places), (name, r[i], shown)
                    if "." in shown.lstrip("-0."):                       # 15 significant digits (or more)
                        assert len(shown.lstrip("-0.").replace(".", "")) >= 12, (name, shown)


def test_all_csv_has_wager_and_paytable_columns() -> None:
    rows = _tidy(_run_ok(["eor", "--all", "-d", "1", "-f", "csv"]))
    assert rows[0][:2] == ["wager", "paytable"]
    from exactodds.catalogue import CATALOGUE
    assert {r[0] for r in rows[1:]} <= set(CATALOGUE) and len({(r[0], r[1]) for r in rows[1:]}) > 10


@pytest.mark.parametrize("args", CSV_COMMANDS, ids=" ".join)
@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_no_long_fraction_in_a_human_view(args: list[str], fmt: str, hands: str) -> None:
    code, out, err = run(*(hands if a == "HANDS" else a for a in args), "-f", fmt)
    if code == 2 and "is not one of" in err:
        pytest.skip(f"{args[0]} has no {fmt} format")
    assert code == 0, err
    fields = re.findall(r"(?<![\w./])-?\d+/\d+(?![\w/])", out)
    assert not [f for f in fields if len(f) > 20]


def test_simulate_csv_files_are_tidy(tmp_path: Path) -> None:
    log, counts = tmp_path / "log.csv", tmp_path / "counts.csv"
    code, _, err = run("simulate", "-n", "500", "--seed", "3", "--log", str(log), "--counts", str(counts))
    assert code == 0, err
    for f in (log, counts):  # a '# k=v' metadata line first (the hand-log format), then one table
        lines = f.read_text().splitlines(keepends=True)
        assert lines[0].startswith("# exactodds ")
        _tidy("".join(lines[1:]))


# -- issue 16 item 6: the notebook API ------------------------------------------------------------
def test_package_dir_lists_the_api() -> None:
    import exactodds

    assert {"analyze", "Analysis", "Shoe", "get_wager", "parse_card"} <= set(dir(exactodds))


def test_analyze_takes_the_cli_shoe_spec() -> None:
    from exactodds import Shoe, analyze

    by_spec = analyze("dragon-7", shoe="decks=6")
    by_shoe = analyze("dragon-7", shoe=Shoe.standard(6))
    assert by_spec.total == by_shoe.total == 312 * 311 * 310 * 309 * 308 * 307
    assert by_spec.house_edge == by_shoe.house_edge
    assert analyze("tie", shoe=6).total == by_shoe.total
    assert analyze("tie", shoe="KS=8,9H=7").shoe.size == 15


def test_analysis_repr_is_short_and_html_escaped(tmp_path: Path) -> None:
    from exactodds import analyze
    from exactodds.catalogue.files import load_wager_files
    from exactodds.exact import Sqrt

    a = analyze("banker")
    assert len(repr(a)) < 120 and "lambda" not in repr(a) and "1.0579%" in repr(a)
    assert a.std_dev == Sqrt(a.variance) and a.to_dict()["std_dev"] == str(a.std_dev)
    p = tmp_path / "hostile.toml"
    p.write_text(HOSTILE)
    [w] = load_wager_files([str(p)])
    html = analyze(w, shoe=1)._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html and "<table>" in html


# -- issue 16 item 5: one flag per concept ---------------------------------------------------------
@pytest.mark.parametrize("command", ["analyze", "eor", "certify"])
def test_wager_colon_paytable_equals_dash_p(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # certify's CSV quotes the fingerprint, which covers the time
    a = run(command, "dragon-7:40to1", "-d", "1", "-f", "csv")
    b = run(command, "dragon-7", "-p", "40to1", "-d", "1", "-f", "csv")
    assert a[0] == b[0] == 0 and a[1] == b[1]
    code, out, err = run(command, "dragon-7:40to1", "-p", "other", "-d", "1")
    assert code == 2 and out == "" and "paytable given twice" in err


def _flags(command: str) -> dict[str, str]:
    """Short flag -> long flag of a command, from its help."""
    out = run(command, "--help")[1]
    return dict(re.findall(r"^\s+(-\w), (--[\w-]+)", out, re.M))


@pytest.mark.parametrize("command", ["analyze", "eor", "certify", "study", "simulate", "crosscheck", "tables",
                                     "shufflecheck"])
def test_one_flag_per_concept(command: str) -> None:
    meaning = {"-s": "--shoe", "-w": "--wager", "-p": "--paytable", "-d": "--decks", "-f": "--format",
               "-o": "--output", "-r": "--remove"}
    for short, long in _flags(command).items():
        if short in meaning:
            assert long == meaning[short], (command, short, long)
    help_text = run(command, "--help")[1]
    if "--seed" in help_text:
        assert "-s, --seed" not in help_text


@pytest.mark.parametrize("args", [["simulate", "-n", "2000", "-w", "dragon-7", "-w", "lucky-nines"],
                                  ["crosscheck", "HANDS", "-w", "dragon-7"],
                                  ["certify", "tie", "dragon-7", "--all", "-d", "1", "--no-eor", "-f", "table"]],
                         ids=lambda a: a[0])
def test_wide_tables_fit_100_columns(args: list[str], hands: str) -> None:
    """The tables of simulate, crosscheck and certify's summary wrap to 100 columns (prose
    lines are left to the terminal); wrapped, not cut: every wager is still named."""
    if "--all" in args:
        args = ["certify", "--all", "-d", "1", "--no-eor", "-f", "table"]
    out = _run_ok(args, hands)
    table_lines = [line for line in out.splitlines() if "  " in line.strip()]  # rows have column gaps
    assert table_lines and max(len(line) for line in table_lines) <= 100, max(table_lines, key=len)
    assert "dragon-7" in out or "Dragon 7" in out


def test_list_fits_100_columns() -> None:
    code, out, _ = run("list")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 100
    from exactodds.catalogue import CATALOGUE
    assert all(w in out for w in CATALOGUE)  # wrapped, not cut


def test_dataframes_for_all_and_eor_are_exact() -> None:
    pytest.importorskip("pandas")
    from exactodds import analyze
    from exactodds.figures.eor import effects_of_removal
    from exactodds.figures.frames import catalogue_frame, eor_frame

    analyses = [analyze("banker", shoe=1), analyze("tie", shoe=1)]
    f = catalogue_frame(analyses)
    assert list(f["wager"]) == ["banker", "tie"] and list(f["house_edge"]) == [a.house_edge for a in analyses]
    e = effects_of_removal("tie", None, analyze("tie", shoe=1).shoe)
    g = eor_frame([e]).iloc[:len(e.ranks)]
    # the identity Σ copies · Return(shoe − card) = N · Return(shoe), exactly, from the frame's Fractions
    assert sum(c * r for c, r in zip(g["copies"], g["return_after"])) == e.shoe.size * e.base_return


def test_dataframes_for_study_and_simulate_are_exact() -> None:
    """Study and simulation frames: exact Fractions that equal the engine's figures, and the
    simulation's observed return recomputed here from its counts and the paytable's nets."""
    pytest.importorskip("pandas")
    from exactodds import analyze
    from exactodds.game.cards import Shoe
    from exactodds.simulation.frames import simulation_frame
    from exactodds.simulation.settle import RoundSettler, simulated_pairs
    from exactodds.simulation.simulate import simulate
    from exactodds.study import run_study
    from exactodds.study.frames import study_frame

    r = run_study(["banker", "tie"], shoes=3, seed=2, tags="A=0")
    f = study_frame(r)
    assert len(f) == sum(len(w.strategies) for w in r.wagers) and f.attrs["shoes"] == 3
    for row in f.itertuples():
        assert row.full_shoe_return == analyze(row.wager, row.paytable, shoe=8).return_
        assert isinstance(row.win_per_100_rounds, Fraction) and row.rounds == r.rounds
    pairs, _ = simulated_pairs(["dragon-7", "tie"], Shoe.standard(8))
    sim = simulate(3000, seed=6, settler=RoundSettler.of(pairs))
    g = simulation_frame(sim)
    assert set(zip(g["wager"], g["paytable"])) == set(pairs)
    for (w, t), part in g.groupby(["wager", "paytable"]):
        a = analyze(w, t, shoe=8)
        nets = {x.name: x.pay.net for x in a.rows}
        assert part["count"].sum() == 3000 and set(part["exact_return"]) == {a.return_}
        assert set(part["observed_return"]) == {sum(nets[o] * n for o, n in zip(part["outcome"], part["count"])) / 3000}


def test_figures_do_not_reach_up_into_report() -> None:
    import ast

    for path in (Path(__file__).resolve().parent.parent / "exactodds" / "figures").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and path.name in ("analysis.py", "progressive.py",
                                                                                 "frames.py"):
                assert not node.module.startswith("exactodds.report"), (path.name, node.module)


def test_help_loads_no_catalogue_engine_or_numpy() -> None:
    """Start-up (issue 19 item 5): ``exactodds --help`` builds the command line only."""
    import subprocess

    code = ("import sys\nsys.argv = ['exactodds', '--help']\nfrom exactodds.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('numpy', 'exactodds.catalogue', 'exactodds.engine', 'tabulate', 'scipy')"
            " if m in sys.modules]\nprint('HEAVY', heavy, file=sys.stderr)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    assert "HEAVY []" in res.stderr, res.stderr[-500:]


def test_commission_rules_named_on_the_command_line_are_the_library_s() -> None:
    from exactodds.cli.certify import COMMISSION_RULES
    from exactodds.figures.commission import RULES

    assert COMMISSION_RULES == tuple(RULES)


def test_pyproject_core_is_lean() -> None:
    """The core install carries no heavy optional dependency; each has its extra (issue 16 item 7)."""
    import tomllib

    from exactodds.extras import EXTRAS

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"])
    extras = project["optional-dependencies"]
    for module, extra in EXTRAS.items():
        assert module not in core, module
        assert any(module in d for d in extras[extra]), (module, extra)
    assert "exactodds[all]" in extras["test"]


# -- issue 16 item 5: simulate and crosscheck in the one format set ---------------------------------
def test_simulate_csv_rows_are_the_json_and_the_exact_figures() -> None:
    """One row per wager, paytable and outcome: its counts are the JSON's, they add up to the
    rounds, and the exact return beside them is the engine's (analyze, a separate path)."""
    import json

    from exactodds import analyze

    args = ["simulate", "-n", "2000", "--seed", "4", "-w", "dragon-7:40to1", "-w", "tie"]
    rows = _tidy(_run_ok([*args, "-f", "csv"]))
    doc = json.loads(_run_ok([*args, "-f", "json"]))
    h = rows[0]
    got = {(r[h.index("wager")], r[h.index("paytable")], r[h.index("outcome")]): r for r in rows[1:]}
    want = {(w["wager"], w["paytable"], o): n for w in doc["wagers"] for o, n in w["counts"].items()}
    assert {k: int(r[h.index("count")]) for k, r in got.items()} == want
    assert {(w, t) for w, t, _ in got} == {("dragon-7", "40to1"), ("tie", "8to1"), ("tie", "9to1")}
    for (w, t, _), r in got.items():
        assert Fraction(r[h.index("exact_return")]) == analyze(w, t).return_
        assert sum(n for k, n in want.items() if k[:2] == (w, t)) == 2000 == int(r[h.index("rounds_compared")])


def test_simulate_wager_colon_paytable_equals_dash_p() -> None:
    a = run("simulate", "-n", "500", "-w", "dragon-7:40to1", "-f", "csv")
    b = run("simulate", "-n", "500", "-w", "dragon-7", "-p", "40to1", "-f", "csv")
    assert a[0] == b[0] == 0 and a[1] == b[1] and "40to1" in a[1]
    for bad, says in ([["-w", "dragon-7:40to1", "-p", "other"], "paytable given twice"],
                      [["-w", "tie", "-w", "banker", "-p", "8to1"], "exactly one --wager"],
                      [["-w", "tie:nope"], "does not belong"]):
        code, out, err = run("simulate", "-n", "500", *bad)
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and says in err, err


def test_crosscheck_csv_is_the_json_report_row_by_row(hands: str) -> None:
    """The long tidy table holds every figure of the JSON report once, named by section, wager,
    paytable, outcome and path: rebuilt from the rows, the observed counts are the JSON's."""
    import json

    doc = json.loads(_run_ok(["crosscheck", hands, "-w", "dragon-7", "-f", "json"]))
    rows = _tidy(_run_ok(["crosscheck", hands, "-w", "dragon-7", "-f", "csv"]))
    assert rows[0] == ["section", "wager", "paytable", "outcome", "figure", "value", "value_decimal"]
    observed = {(r[1], r[2], r[3]): int(r[5]) for r in rows[1:] if r[0] == "comparable" and r[4] ==
                "families.outcomes.observed"}
    want = {(f["wager"], f["paytable"], o["outcome"]): o["observed"] for f in doc["comparable"]["families"]
            for o in f["outcomes"]}
    assert observed == want and ("dragon-7", "40to1", "Dragon 7") in observed
    verdict = [r[5] for r in rows if r[0] == "verdict"]
    assert verdict == [doc["verdict"]]
    for r in rows[1:]:  # a decimal beside every exact value, and only there
        assert bool(r[6]) == bool(re.fullmatch(r"-?\d+/\d+", r[5])), r
        if r[6]:
            assert abs(Fraction(r[6]) - Fraction(r[5])) < Fraction(1, 10**14) * max(1, abs(Fraction(r[5])))


# -- issue 16 item 5: certify's terminal summary ------------------------------------------------------
def test_certify_table_is_the_summary_of_the_same_report(tmp_path: Path) -> None:
    """``certify -f table`` (or ``-o FILE.txt``) is the summary of the one report: its fingerprint
    and each house edge are the JSON's (written by the same run), and it fits 100 columns."""
    import json

    from exactodds.exact import percent

    js, txt = tmp_path / "c.json", tmp_path / "c.txt"
    code, out, err = run("certify", "dragon-7", "-d", "6", "--no-eor", "-o", str(js), "-o", str(txt))
    assert code == 0 and out == "", err
    doc, text = json.loads(js.read_text()), txt.read_text()
    assert doc["fingerprint"]["value"] in text and "Status" in text
    for x in doc["games"][0]["tables"]:
        assert percent(Fraction(x["outcome_table"]["house_edge"]), 4) in text
    assert max(len(line) for line in text.splitlines()) <= 100
    code, out, err = run("certify", "tie", "-d", "6", "--no-eor", "-f", "table")
    assert code == 0 and "Tie" in out and max(len(line) for line in out.splitlines()) <= 100, err


def _wager_families(doc: dict[str, Any], wager: str = "banker") -> dict[tuple[str, str], Any]:
    """(wager, paytable) -> that family's comparable-round JSON in a crosscheck report, less its
    Holm-adjusted p-values (they depend on how many tests the run holds)."""
    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "holm_p_value"}
        return [strip(v) for v in x] if isinstance(x, list) else x

    return {(f["wager"], f["paytable"]): strip(f) for f in doc["comparable"]["families"] if f["wager"] == wager}


def test_crosscheck_takes_wager_colon_paytable_and_dash_p(hands: str) -> None:
    """crosscheck -w WAGER:P and -w WAGER -p P test that one paytable, with the very figures the
    same log gives for it when the wager is named bare (every paytable); an unknown paytable or
    -p without one --wager is one error line."""
    every = _wager_families(json.loads(_run_ok(["crosscheck", "HANDS", "-w", "banker", "-f", "json"], hands)))
    assert {t for _, t in every} == {p.id for p in get_wager("banker").paytables} and len(every) > 1
    for args in (["-w", "banker:ez"], ["-w", "banker", "-p", "ez"]):
        one = _wager_families(json.loads(_run_ok(["crosscheck", "HANDS", *args, "-f", "json"], hands)))
        assert list(one) == [("banker", "ez")] and one[("banker", "ez")] == every[("banker", "ez")]
    for args in (["-w", "banker:nope"], ["-p", "ez"], ["-w", "banker", "-w", "tie", "-p", "ez"]):
        code, out, err = run("crosscheck", hands, *args)
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("exactodds: error:"), err
