"""The command line through typer's CliRunner: results, the JSON contract, every error path."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from exactodds.catalogue import CATALOGUE
from exactodds.cli.app import app
from exactodds.figures.analysis import analyze
from exactodds.game.cards import Shoe

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_analyze_banker_json_reproduces_published_counts() -> None:
    r = run("analyze", "banker", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["total"] == 4_998_398_275_503_360 and isinstance(doc["total"], int)
    counts = {o["outcome"]: o["count"] for o in doc["outcomes"]}
    assert counts == {"Banker wins": 2_292_252_566_437_888, "Tie": 475_627_426_473_216,
                      "Player wins": 2_230_518_282_592_256}
    # the figures are consistent with the counts, recomputed here from the JSON alone
    ret = sum(Fraction(o["pays"]) * Fraction(o["count"], doc["total"]) for o in doc["outcomes"])
    assert Fraction(doc["return"]) == ret == -Fraction(doc["house_edge"])
    assert Fraction(doc["hit_frequency"]) == Fraction(counts["Banker wins"], doc["total"])
    second = sum(Fraction(o["pays"]) ** 2 * Fraction(o["count"], doc["total"]) for o in doc["outcomes"])
    assert Fraction(doc["variance"]) == second - ret**2
    push = Fraction(counts["Tie"], doc["total"])
    assert Fraction(doc["element_of_risk"]) == Fraction(doc["house_edge"]) / (1 - push)
    assert doc["shoe"] == {"decks": 8, "cards": 416}


def _no_floats(x: object) -> None:
    assert not isinstance(x, float)
    if isinstance(x, dict):
        for v in x.values():
            _no_floats(v)
    if isinstance(x, list):
        for v in x:
            _no_floats(v)


@pytest.mark.parametrize("wager,paytable", [(w.id, p.id) for w in CATALOGUE.values() for p in w.paytables])
def test_every_paytable_json_is_exact(wager: str, paytable: str) -> None:
    r = run("analyze", wager, "--paytable", paytable, "--decks", "6", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    _no_floats(doc)
    assert sum(o["count"] for o in doc["outcomes"]) == doc["total"]
    assert sum(Fraction(o["probability"]) for o in doc["outcomes"]) == 1
    exact_keys = ["house_edge", "hit_frequency", "variance"]
    if "meters" in doc:  # a progressive without --meter: return is the expression in the meters
        assert doc["return"] == doc["return_expression"] and "M_" in doc["return"]
        if doc["return_at_reset"] is not None:
            assert Fraction(doc["return_at_reset"]) == -Fraction(doc["house_edge"])
    else:
        exact_keys.append("return")
    for key in exact_keys:
        p, q = doc[key].split("/")
        assert int(q) > 0 and Fraction(int(p), int(q)) == Fraction(doc[key])


def test_table_csv_markdown_formats() -> None:
    table = run("analyze", "tie", "--paytable", "9to1")
    assert table.exit_code == 0 and "475,627,426,473,216" in table.stdout and "9 to 1" in table.stdout
    csv = run("analyze", "tie", "--format", "csv")
    lines = csv.stdout.strip().splitlines()
    assert lines[0].startswith("table,item,pays") and lines[1].startswith("summary,Tie,")
    assert lines[-1].startswith("total,Total,")
    md = run("analyze", "dragon-7", "--format", "markdown")
    assert "| Dragon 7" in md.stdout and "§ 629a.12(f)" in md.stdout


def test_decks_option_changes_the_shoe() -> None:
    doc = json.loads(run("analyze", "player", "--decks", "6", "--format", "json").stdout)
    a = analyze("player", None, Shoe.standard(6))
    assert doc["total"] == a.total and doc["shoe"]["decks"] == 6


def test_list_names_every_wager_and_paytable() -> None:
    doc = json.loads(run("list", "--format", "json").stdout)
    listed = {(w["wager"], p["id"]) for w in doc["wagers"] for p in w["paytables"]}
    assert listed == {(w.id, p.id) for w in CATALOGUE.values() for p in w.paytables}
    assert run("list").exit_code == 0


def test_all_is_sorted_by_house_edge() -> None:
    doc = json.loads(run("analyze", "--all", "--format", "json").stdout)
    edges = [Fraction(w["house_edge"]) for w in doc["wagers"]]
    assert edges == sorted(edges) and len(edges) == sum(len(w.paytables) for w in CATALOGUE.values())


def test_output_file_is_written(tmp_path: Path) -> None:
    out = tmp_path / "banker.json"
    r = run("analyze", "banker", "--format", "json", "--output", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    assert json.loads(out.read_text())["wager"] == "banker"


@pytest.mark.parametrize("args,needle", [
    (["analyze", "bankr"], "unknown wager 'bankr'"),
    (["analyze", "banker", "--paytable", "9to1"], "does not belong to wager 'banker'"),
    (["analyze", "tie", "--paytable", "nope"], "paytable 'nope'"),
    (["analyze", "tie", "--decks", "0"], "--decks"),
    (["analyze", "tie", "--decks", "-3"], "--decks"),
    (["analyze", "tie", "--decks", "100000"], "--decks"),
    (["analyze", "tie", "--decks", "eight"], "--decks"),
    (["analyze", "tie", "--format", "xml"], "--format"),
    (["analyze", "tie", "--bogus"], "--bogus"),
    (["analyze"], "missing WAGER"),
    (["analyze", "tie", "--all"], "--all"),
    (["frobnicate"], "frobnicate"),
])
def test_bad_input_is_one_line_exit_2_no_stdout(args: list[str], needle: str) -> None:
    r = run(*args)
    assert r.exit_code == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error:") and needle in lines[0]


def test_bad_output_path_leaves_no_file(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "x.json"
    r = run("analyze", "banker", "--output", str(missing))
    assert r.exit_code == 2 and not missing.exists()
    assert list(tmp_path.iterdir()) == []
