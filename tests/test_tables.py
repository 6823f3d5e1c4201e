"""The generated ``tables/`` tree: up to date with the catalogue, self-consistent, and
written atomically with stale files removed (exactodds/tables.py, cli_tables.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from exactodds.cli import app as cli
from exactodds.game.cards import falling_factorial
from exactodds.catalogue import CATALOGUE
from exactodds.cli.tables import register
from exactodds.errors import InputError
from exactodds.engine.levels import LEVELS
from exactodds.report.tables import DEFAULT_DECKS, build_tables, generated_files, normalize_decks, write_tables

TABLES = Path(__file__).resolve().parents[1] / "tables"
REBUILD = "run `python scripts/build_tables.py` (or `exactodds tables --out tables`) and commit tables/"


@pytest.fixture(scope="module")
def built() -> dict[str, str]:
    return build_tables(DEFAULT_DECKS)


def test_committed_tables_match_a_fresh_build(built: dict[str, str]) -> None:
    if not TABLES.is_dir():
        pytest.fail(f"tables/ is missing: {REBUILD}")
    committed = generated_files(TABLES)
    missing = sorted(set(built) - set(committed))
    extra = sorted(set(committed) - set(built))
    assert not missing, f"{len(missing)} tables missing (e.g. {missing[:3]}): {REBUILD}"
    assert not extra, f"{len(extra)} stale tables (e.g. {extra[:3]}): {REBUILD}"
    stale = [rel for rel, text in built.items() if committed[rel].read_text(encoding="utf-8") != text]
    assert not stale, f"{len(stale)} tables out of date (e.g. {stale[:3]}): {REBUILD}"


def test_every_wager_paytable_and_deck_count_has_both_twins(built: dict[str, str]) -> None:
    expected = {f"{d}-decks/{w.id}--{p.id}.{ext}" for d in DEFAULT_DECKS for w in CATALOGUE.values()
                for p in w.paytables for ext in ("md", "json")}
    assert set(built) == expected | {"README.md"}
    index = built["README.md"]
    assert all(f"({rel})" in index for rel in expected)


def test_json_twins_are_exact_and_add_up(built: dict[str, str]) -> None:
    """Counts sum to the total, the total is the universe N(N-1)...(N-5) (baccarat wagers), and the exact
    return, recomputed from the counts and pays, is the one stated."""
    for rel, text in built.items():
        if not rel.endswith(".json"):
            continue
        doc = json.loads(text)
        decks = int(rel.split("-", 1)[0])
        assert doc["shoe"]["decks"] == decks, rel
        if CATALOGUE[doc["wager"]].level.baccarat:  # not Spanish 21
            assert doc["total"] == falling_factorial(52 * decks, 6), rel
        assert sum(o["count"] for o in doc["outcomes"]) == doc["total"], rel
        ret = sum((Fraction(o["pays"]) * Fraction(o["count"], doc["total"]) for o in doc["outcomes"]), Fraction(0))
        if not any(o.get("meter") for o in doc["outcomes"]):
            stated = doc["return_at_reset"] if "meters" in doc else doc["return"]
            if stated is not None:
                assert Fraction(stated) == ret == -Fraction(doc["house_edge"]), rel
        md = built[rel[: -len("json")] + "md"]
        assert f"{doc['total']:,}" in md and doc["house_edge"] in md, rel


def test_markdown_table_has_the_columns_and_totals(built: dict[str, str]) -> None:
    md = built["8-decks/lucky-six--12to1-20to1.md"]
    assert "| Event" in md and "Combinations" in md and "Probability" in md and "Return" in md
    assert "| Total " in md and "4,998,398,275,503,360" in md
    assert "186,173,936,904,192" in md and "83,058,367,551,488" in md  # published Lucky Six counts
    assert "**House edge**" in md


def test_deck_order_and_repeats_do_not_matter() -> None:
    """Determinism across processes is what the committed-tables test checks; within the
    build, deck counts are put in one canonical order."""
    assert normalize_decks([8, 6, 8, 7]) == normalize_decks((6, 7, 8)) == (6, 7, 8)


def test_write_tables_writes_and_removes_stale(tmp_path: Path, built: dict[str, str]) -> None:
    out = tmp_path / "tables"
    report = write_tables(out, (7, 8))
    assert report.written == report.files and not report.removed
    on_disk = {rel: p.read_text(encoding="utf-8") for rel, p in generated_files(out).items()}
    assert {rel: t for rel, t in on_disk.items() if rel != "README.md"} == \
        {rel: t for rel, t in built.items() if rel.startswith(("7-", "8-"))}
    (out / "notes.txt").write_text("kept")
    (out / "8-decks" / "gone--A.json").write_text("{}")
    (out / "9-decks").mkdir()
    (out / "9-decks" / "gone--B.md").write_text("old")
    report = write_tables(out, (8,))
    assert report.written == 1  # only the index changes
    assert set(report.removed) >= {"8-decks/gone--A.json", "9-decks/gone--B.md"}
    assert not (out / "7-decks").exists() and not (out / "9-decks").exists()
    assert (out / "notes.txt").read_text() == "kept"
    assert set(generated_files(out)) == {rel for rel in built if rel.startswith("8-")} | {"README.md"}
    assert not list(out.rglob("*.tmp"))


@pytest.mark.parametrize("decks", [(), (0,), (1001,), (True,)])
def test_bad_decks_write_nothing(tmp_path: Path, decks: tuple) -> None:
    with pytest.raises(InputError):
        write_tables(tmp_path / "t", decks)
    assert not (tmp_path / "t").exists()


def _app():
    if not any(c.name == "tables" for c in cli.app.registered_commands):
        register(cli.app)  # until cli.py registers it itself
    return cli.app


def test_cli_tables_command(tmp_path: Path, built: dict[str, str]) -> None:
    runner = CliRunner()
    r = runner.invoke(_app(), ["tables", "--decks", "8", "--decks", "8", "--out", str(tmp_path / "t")])
    assert r.exit_code == 0, r.output
    assert r.stdout.count("\n") == 1 and "stale removed" in r.stdout
    assert set(generated_files(tmp_path / "t")) == {rel for rel in built if rel.startswith("8-")} | {"README.md"}
    r = runner.invoke(_app(), ["tables", "--decks", "0", "--out", str(tmp_path / "u")])
    assert r.exit_code == 2 and r.stdout == "" and not (tmp_path / "u").exists()
    (tmp_path / "file").write_text("x")
    r = runner.invoke(_app(), ["tables", "--decks", "8", "--out", str(tmp_path / "file")])
    assert r.exit_code == 2 and r.stdout == ""
