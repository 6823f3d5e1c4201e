"""The generated ``tables/`` tree: up to date with the catalogue, self-consistent, and
written all or none, touching only files the tool generated, never through a symbolic
link, and converging when runs share a folder (exactodds/report/tables.py, cli/tables.py)."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from exactodds.catalogue import CATALOGUE
from exactodds.cli import app as cli
from exactodds.cli.tables import register
from exactodds.errors import InputError
from exactodds.game.cards import falling_factorial
from exactodds.io.files import is_temporary_name
from exactodds.report import tables as tables_mod
from exactodds.report.spreadsheet import decimal_cell
from exactodds.report.tables import (
    DEFAULT_DECKS,
    GAME_FILES,
    GENERATED_NOTE,
    MANIFEST,
    build_tables,
    generated_files,
    index_row_from_json,
    normalize_decks,
    read_manifest,
    render_index,
    write_tables,
)

TABLES = Path(__file__).resolve().parents[1] / "tables"
REBUILD = "run `python scripts/build_tables.py` (or `exactodds tables --output tables`) and commit tables/"


@pytest.fixture(scope="module")
def built() -> dict[str, str]:
    return build_tables(DEFAULT_DECKS)


def tree(root: Path) -> dict[str, bytes | str]:
    """Every entry under ``root``: file bytes, or "dir"/"link -> target" (links not followed)."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            out[rel] = f"link -> {os.readlink(p)}" if p.is_symlink() else "dir" if p.is_dir() else p.read_bytes()
    return out


def test_committed_tables_match_a_fresh_build(built: dict[str, str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``exactodds tables --output tables`` into an empty folder makes exactly the committed
    tree, byte for byte (manifest included, nothing more, nothing less)."""
    if not TABLES.is_dir():
        pytest.fail(f"tables/ is missing: {REBUILD}")
    monkeypatch.setattr(tables_mod, "build_tables", lambda decks, progress=None: dict(built) if decks == DEFAULT_DECKS else None)
    write_tables(tmp_path / "tables")
    fresh, committed = tree(tmp_path / "tables"), tree(TABLES)
    missing = sorted(set(fresh) - set(committed))
    extra = sorted(set(committed) - set(fresh))
    assert not missing, f"{len(missing)} files missing (e.g. {missing[:3]}): {REBUILD}"
    assert not extra, f"{len(extra)} stale files (e.g. {extra[:3]}): {REBUILD}"
    stale = [rel for rel in fresh if committed[rel] != fresh[rel]]
    assert not stale, f"{len(stale)} files out of date (e.g. {stale[:3]}): {REBUILD}"
    assert set(generated_files(TABLES)) == set(built)


def test_every_wager_paytable_and_deck_count_has_both_twins(built: dict[str, str]) -> None:
    expected = {f"{d}-decks/{w.id}--{p.id}.{ext}" for d in DEFAULT_DECKS for w in CATALOGUE.values()
                for p in w.paytables for ext in ("md", "json")}
    assert set(built) == expected | {"README.md", *GAME_FILES}
    index = built["README.md"]
    assert all(f"({rel})" in index for rel in expected)


def test_json_twins_are_exact_and_add_up(built: dict[str, str]) -> None:
    """Counts sum to the total, the total is the universe N(N-1)...(N-5) (baccarat wagers), and the exact
    return, recomputed from the counts and pays, is the one stated."""
    for rel, text in built.items():
        if not rel.endswith(".json") or rel in GAME_FILES:
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
        edge = doc["house_edge"]  # shown exactly where short, else as its 15-digit decimal (issue 16 item 4)
        shown = edge if len(edge) <= 20 else decimal_cell(Fraction(edge))
        assert f"{doc['total']:,}" in md and shown in md, rel


def test_markdown_table_has_the_columns_and_totals(built: dict[str, str]) -> None:
    md = built["8-decks/lucky-six--12to1-20to1.md"]
    assert "| Outcome" in md and "Combinations" in md and "Probability" in md and "Return" in md
    assert "| Total " in md and "4,998,398,275,503,360" in md
    assert "186,173,936,904,192" in md and "83,058,367,551,488" in md  # published Lucky Six counts
    assert "**House edge**" in md


def test_deck_order_and_repeats_do_not_matter() -> None:
    """Determinism across processes is what the committed-tables test checks; within the
    build, deck counts are put in one canonical order."""
    assert normalize_decks([8, 6, 8, 7]) == normalize_decks((6, 7, 8)) == (6, 7, 8)



# -- writing a folder: only what is ours, never through a link, runs add up --------------------
def subset(built: dict[str, str], decks: Sequence[int], extra: dict[str, str] | None = None) -> dict[str, str]:
    """What ``build_tables(decks)`` returns, cut from the full build (plus ``extra`` tables)."""
    files = {rel: t for rel, t in built.items() if rel != "README.md" and (rel in GAME_FILES or int(rel.split("-")[0]) in decks)}
    files.update(extra or {})
    rows = [index_row_from_json(rel, t) for rel, t in files.items() if rel.endswith(".json")]
    files["README.md"] = render_index(r for r in rows if r is not None)
    return files


BUILD_TABLES = tables_mod.build_tables
"""The real build, kept before any test replaces it."""


@pytest.fixture
def fake_build(built: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, str]]:
    """``build_tables`` served from the full build (the writing is under test, not the maths);
    tests may add tables per deck count in the returned dict (e.g. one of a retired wager)."""
    extra: dict[str, dict[str, str]] = {}

    def fake(decks: Sequence[int], progress: object = None) -> dict[str, str]:
        more = {rel: t for d in normalize_decks(decks) for rel, t in extra.get(str(d), {}).items()}
        return subset(built, normalize_decks(decks), more)

    monkeypatch.setattr(tables_mod, "build_tables", fake)
    return extra


def retired(built: dict[str, str], decks: int) -> dict[str, str]:
    """A table pair of a wager no longer in the catalogue, as an older build made it."""
    doc = json.loads(built[f"{decks}-decks/tie--8to1.json"])
    doc["wager"], doc["paytable"] = "retired", "A"
    md = built[f"{decks}-decks/tie--8to1.md"].replace("tie--8to1", "retired--A")
    return {f"{decks}-decks/retired--A.json": json.dumps(doc, indent=2) + "\n", f"{decks}-decks/retired--A.md": md}


def no_temporaries(root: Path) -> bool:
    return not any(is_temporary_name(p.name) for p in root.rglob("*"))


def run_cli(*args: str):
    return CliRunner().invoke(_app(), list(args))


def assert_one_line_error(r, *fragments: str) -> None:
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error: "), r.stderr
    assert all(f in lines[0] for f in fragments), (fragments, lines[0])


def test_write_tables_writes_the_tables_an_index_and_a_manifest(tmp_path: Path, built: dict[str, str],
                                                                fake_build: dict) -> None:
    out = tmp_path / "tables"
    report = write_tables(out, (7, 8))
    expected = subset(built, (7, 8))
    assert report.written == report.files == len(expected) and not report.removed
    assert {rel: p.read_text(encoding="utf-8") for rel, p in generated_files(out).items()} == expected
    manifest = read_manifest(out)
    assert manifest is not None and set(manifest) == set(expected)
    assert all(manifest[rel] == hashlib.sha256((out / rel).read_bytes()).hexdigest() for rel in expected)
    assert sorted(os.listdir(out)) == sorted([MANIFEST, "7-decks", "8-decks", "README.md", *GAME_FILES])
    assert no_temporaries(out)
    again = write_tables(out, (8, 7))
    assert again.written == 0 and not again.removed


def test_other_deck_counts_and_files_not_ours_are_left_alone(tmp_path: Path, built: dict[str, str],
                                                             fake_build: dict) -> None:
    """Issue 9: `--decks 8` deleted the 7-deck tables and a user's out/7-decks/q1--summary.md."""
    out = tmp_path / "out"
    write_tables(out, (7,))
    (out / "7-decks" / "q1--summary.md").write_text("my notes")
    (out / "notes.txt").write_text("kept")
    (out / "8-decks").mkdir()
    (out / "8-decks" / "mine--A.json").write_text("{}")  # looks generated; is not
    before = tree(out)
    report = write_tables(out, (8,))
    assert report.removed == ()
    after = tree(out)
    assert {rel: v for rel, v in after.items() if rel.startswith(("7-", "notes", "8-decks/mine"))} == \
        {rel: v for rel, v in before.items() if rel.startswith(("7-", "notes", "8-decks/mine"))}
    assert after["README.md"] == subset(built, (7, 8))["README.md"].encode()  # the index lists both
    assert set(generated_files(out)) == set(subset(built, (7, 8)))


def test_stale_tables_are_removed_from_the_decks_asked_and_with_prune_from_all(
        tmp_path: Path, built: dict[str, str], fake_build: dict) -> None:
    out = tmp_path / "out"
    fake_build.update({"7": retired(built, 7), "8": retired(built, 8)})
    write_tables(out, (7, 8))
    assert "retired" in (out / "README.md").read_text()
    (out / "7-decks" / "q1--summary.md").write_text("my notes")
    fake_build.clear()  # the wager leaves the catalogue
    report = write_tables(out, (8,))
    assert report.removed == ("8-decks/retired--A.json", "8-decks/retired--A.md")
    assert (out / "7-decks" / "retired--A.md").exists()  # 7 decks were not asked for
    assert "8-decks/retired" not in (out / "README.md").read_text()
    assert "7-decks/retired--A.md" in (out / "README.md").read_text()
    report = write_tables(out, (8,), prune=True)
    # 7-deck tables and the retired pair (not the index, nor the deck-independent Pai Gow files)
    assert len(report.removed) == len(subset(built, (7,))) - 1 - len(GAME_FILES) + 2
    assert sorted(os.listdir(out / "7-decks")) == ["q1--summary.md"]  # the user's file, so the folder stays
    assert set(generated_files(out)) == set(subset(built, (8,)))
    assert (out / "README.md").read_text() == subset(built, (8,))["README.md"]
    (out / "7-decks" / "q1--summary.md").unlink()
    write_tables(out, (7,))
    write_tables(out, (8,), prune=True)
    assert not (out / "7-decks").exists()  # emptied by the prune: removed


def test_a_readme_or_table_we_did_not_write_is_not_overwritten(tmp_path: Path, built: dict[str, str],
                                                               fake_build: dict) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "README.md").write_text("# My project\n")
    before = tree(tmp_path)
    assert_one_line_error(run_cli("tables", "--decks", "8", "-o", str(out)), "README.md", "not written by exactodds")
    assert tree(tmp_path) == before  # no deck folder, no manifest, no temporary
    (out / "README.md").unlink()
    (out / "8-decks").mkdir()
    (out / "8-decks" / "banker--5pct.md").write_text("mine")
    before = tree(tmp_path)
    assert_one_line_error(run_cli("tables", "--decks", "8", "-o", str(out)), "banker--5pct.md")
    assert tree(tmp_path) == before
    (out / "8-decks" / "banker--5pct.md").write_text(built["8-decks/banker--5pct.md"])  # identical: adopted
    assert run_cli("tables", "--decks", "8", "-o", str(out)).exit_code == 0
    assert "8-decks/banker--5pct.md" in read_manifest(out)


def test_symbolic_links_are_never_followed(tmp_path: Path, built: dict[str, str], fake_build: dict) -> None:
    """Issue 9: files deleted through a link out/9-decks, 174 files written through out/8-decks."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    write_tables(out, (6, 7))
    # a deck folder to be written that is a link: refused, nothing written anywhere
    (out / "8-decks").symlink_to(elsewhere)
    before = tree(tmp_path)
    assert_one_line_error(run_cli("tables", "--decks", "8", "-o", str(out)), "8-decks", "symbolic link")
    assert tree(tmp_path) == before
    (out / "8-decks").unlink()
    # generated tables moved away behind a link: not ours to delete any more, even with --prune
    shutil.move(str(out / "6-decks"), str(elsewhere / "6-decks"))
    (out / "6-decks").symlink_to(elsewhere / "6-decks")
    moved = tree(elsewhere)
    r = run_cli("tables", "--decks", "7", "-o", str(out), "--prune")
    assert r.exit_code == 0, r.output
    assert tree(elsewhere) == moved and (out / "6-decks").is_symlink()
    assert (out / "README.md").read_text() == subset(built, (7,))["README.md"]
    # a link at a path to be written is not written through
    victim = tmp_path / "victim.md"
    victim.write_text("precious")
    (out / "7-decks" / "tie--8to1.md").unlink()
    (out / "7-decks" / "tie--8to1.md").symlink_to(victim)
    before = tree(tmp_path)
    assert_one_line_error(run_cli("tables", "--decks", "7", "-o", str(out)), "tie--8to1.md", "symbolic link")
    assert tree(tmp_path) == before
    # the output folder itself
    (tmp_path / "link-out").symlink_to(out)
    assert_one_line_error(run_cli("tables", "--decks", "7", "-o", str(tmp_path / "link-out")), "symbolic link")
    assert tree(tmp_path) == before | {"link-out": f"link -> {out}"}


def test_a_deck_folder_that_is_a_file_and_a_bad_manifest_are_refused(tmp_path: Path, fake_build: dict) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "8-decks").write_text("x")
    before = tree(tmp_path)
    assert_one_line_error(run_cli("tables", "--decks", "8", "-o", str(out)), "not a folder")
    assert tree(tmp_path) == before
    (out / "8-decks").unlink()
    (out / "victim.md").write_text("x")
    for bad in ('{"generator": "exactodds tables", "files": ["../victim.md"]}', "not json", '{"files": []}'):
        (out / MANIFEST).write_text(bad)
        before = tree(tmp_path)
        assert_one_line_error(run_cli("tables", "--decks", "8", "-o", str(out)), MANIFEST)
        assert tree(tmp_path) == before


def test_a_folder_written_before_the_manifest_is_adopted(tmp_path: Path, built: dict[str, str],
                                                         fake_build: dict) -> None:
    """Older versions wrote no manifest: their Markdown carries the generated note, and a
    JSON twin goes with its Markdown; anything else stays someone else's."""
    out = tmp_path / "out"
    fake_build["8"] = retired(built, 8)
    write_tables(out, (8,))
    fake_build.clear()
    (out / MANIFEST).unlink()
    (out / "8-decks" / "tie--8to1.md").write_text(f"old figures\n{GENERATED_NOTE}\n")
    (out / "8-decks" / "mine--A.md").write_text("my table")
    (out / "8-decks" / "mine--A.json").write_text("{}")
    report = write_tables(out, (8,))
    assert report.removed == ("8-decks/retired--A.json", "8-decks/retired--A.md")
    assert (out / "8-decks" / "tie--8to1.md").read_text() == built["8-decks/tie--8to1.md"]
    assert (out / "8-decks" / "mine--A.md").read_text() == "my table"
    assert set(read_manifest(out) or ()) == set(subset(built, (8,)))


def _write_in_child(out: Path, decks: tuple[int, ...], barrier) -> None:
    barrier.wait(timeout=120)
    write_tables(out, decks)


def test_concurrent_runs_with_different_decks_converge(tmp_path: Path, built: dict[str, str],
                                                       fake_build: dict) -> None:
    """Issue 9: concurrent runs crashed (FileNotFoundError) and left a README listing missing
    files. Here a dozen processes start together on one folder; all succeed, and the folder
    ends as one run for all the deck counts would leave it."""
    ctx = multiprocessing.get_context("fork")
    out = tmp_path / "out"
    jobs = [(6,), (7,), (8,), (6, 8), (7, 8), (6, 7, 8)] * 2
    barrier = ctx.Barrier(len(jobs))
    procs = [ctx.Process(target=_write_in_child, args=(out, d, barrier)) for d in jobs]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
    assert [p.exitcode for p in procs] == [0] * len(jobs)
    assert {rel: p.read_text(encoding="utf-8") for rel, p in generated_files(out).items()} == built
    index = (out / "README.md").read_text()
    links = [part.split(")")[0] for part in index.split("](")[1:]]
    assert len(links) == len(built) - 1 and all((out / rel).is_file() for rel in links)
    assert no_temporaries(out)


@pytest.mark.parametrize("decks", [(), (0,), (1001,), (True,)])
def test_bad_decks_write_nothing(tmp_path: Path, decks: tuple) -> None:
    with pytest.raises(InputError):
        write_tables(tmp_path / "t", decks)
    assert not (tmp_path / "t").exists()


def _app():
    if not any(c.name == "tables" for c in cli.app.registered_commands):
        register(cli.app)  # until cli.py registers it itself
    return cli.app


def test_cli_tables_command(tmp_path: Path, built: dict[str, str], fake_build: dict) -> None:
    runner = CliRunner()
    r = runner.invoke(_app(), ["tables", "--decks", "8", "--decks", "8", "--output", str(tmp_path / "t")])
    assert r.exit_code == 0, r.output
    assert r.stdout.count("\n") == 1 and "stale removed" in r.stdout and r.stderr == ""
    assert set(generated_files(tmp_path / "t")) == {rel for rel in built if rel.startswith("8-")} | {
        "README.md", *GAME_FILES}
    r = runner.invoke(_app(), ["tables", "--decks", "0", "-o", str(tmp_path / "u")])
    assert_one_line_error(r, "--decks")
    assert not (tmp_path / "u").exists()
    (tmp_path / "file").write_text("x")
    assert_one_line_error(runner.invoke(_app(), ["tables", "--decks", "8", "-o", str(tmp_path / "file")]),
                          "not a folder")
    assert_one_line_error(runner.invoke(_app(), ["tables", "--decks", "8", "-o", "-"]), "standard output")
    assert_one_line_error(runner.invoke(_app(), ["tables", "-o", str(tmp_path / "no" / "t")]), "does not exist")
    assert sorted(os.listdir(tmp_path)) == ["file", "t"]
    assert_one_line_error(runner.invoke(_app(), ["tables", "-o", "a", "--out", "b"]), "--output")


def test_cli_out_is_a_hidden_alias(tmp_path: Path, built: dict[str, str], fake_build: dict) -> None:
    r = CliRunner().invoke(_app(), ["tables", "--decks", "7", "--out", str(tmp_path / "t")])
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    assert set(generated_files(tmp_path / "t")) == set(subset(built, (7,)))
    helptext = CliRunner().invoke(_app(), ["tables", "--help"]).stdout
    assert "--output" in helptext and "--prune" in helptext and "--out " not in helptext


def test_the_cli_default_decks_are_the_library_s() -> None:
    from exactodds.cli.tables import DEFAULT_DECKS as CLI_DEFAULT

    assert CLI_DEFAULT == DEFAULT_DECKS


def test_progress_reaches_the_end() -> None:
    """The progress callback of a real build: every step counted, ending at done == total."""
    seen: list[tuple[int, int, str]] = []
    files = BUILD_TABLES((8,), lambda d, t, label: seen.append((d, t, label)))
    assert files and seen[-1][0] == seen[-1][1] == 2 and [s[2] for s in seen[:2]] == ["8 decks", "Pai Gow (tiles)"]


# -- issue 18 re-audit: a planted manifest, two pairs with one file name -----------------------
def test_a_planted_manifest_deletes_and_overwrites_nothing_of_a_user(tmp_path: Path, built: dict[str, str],
                                                                     fake_build: dict) -> None:
    """A manifest someone else wrote lists a user's files (at paths the tool could generate,
    even with their true hashes): they are neither removed as stale nor overwritten."""
    out = tmp_path / "out"
    (out / "8-decks").mkdir(parents=True)
    notes = {"8-decks/retired--A.md": "my notes\n", "8-decks/retired--A.json": '{"mine": 1}\n',
             "8-decks/tie--8to1.md": "my own tie table\n"}
    for rel, text in notes.items():
        (out / rel).write_text(text)
    for digest in (lambda t: hashlib.sha256(t.encode()).hexdigest(), lambda t: "0" * 64):
        planted = {"generator": "exactodds tables", "files": {rel: digest(t) for rel, t in notes.items()}}
        (out / MANIFEST).write_text(json.dumps(planted))
        before = tree(tmp_path)
        # the user's tie table is in the way: one line, nothing changed
        assert_one_line_error(run_cli("tables", "--decks", "8", "-o", str(out)), "tie--8to1.md",
                              "not written by exactodds")
        assert tree(tmp_path) == before
    (out / "8-decks" / "tie--8to1.md").unlink()
    report = write_tables(out, (8,), prune=True)
    assert report.removed == ()
    assert (out / "8-decks" / "retired--A.md").read_text() == "my notes\n"
    assert (out / "8-decks" / "retired--A.json").read_text() == '{"mine": 1}\n'


def test_a_generated_file_edited_since_is_no_longer_ours(tmp_path: Path, built: dict[str, str],
                                                         fake_build: dict) -> None:
    """The manifest's hash ties ownership to the content written: a table the user edited
    (note kept) is refused rather than overwritten, and an unchanged one is replaced."""
    out = tmp_path / "out"
    fake_build["8"] = retired(built, 8)
    write_tables(out, (8,))
    edited = out / "8-decks" / "retired--A.md"
    edited.write_text(edited.read_text() + "\nMy remarks.\n")
    fake_build.clear()
    report = write_tables(out, (8,))
    assert report.removed == ("8-decks/retired--A.json",)  # its twin was unchanged: stale, removed
    assert edited.read_text().endswith("My remarks.\n")


def test_two_pairs_with_one_file_name_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``coll--y`` + ``z`` and ``coll`` + ``y--z`` would both be ``coll--y--z.*``: one table
    silently lost. Refused with one line, nothing written."""
    def wager(wid: str, pid: str) -> str:
        return (f'id = "{wid}"\nname = "{wid}"\nlevel = "coup"\n[[outcomes]]\nname = "B"\n'
                f'when = {{ winner = "banker" }}\n[[paytables]]\nid = "{pid}"\npays = {{ "B" = "1 to 1" }}\n')

    (tmp_path / "a.toml").write_text(wager("coll--y", "z"))
    (tmp_path / "b.toml").write_text(wager("coll", "y--z"))
    monkeypatch.setattr(tables_mod, "game_files", lambda: {})
    monkeypatch.setattr(tables_mod, "all_analyses", lambda decks: [
        a for a in BUILD_ALL(decks) if a.wager.id.startswith("coll")])
    out = tmp_path / "out"
    r = run_cli("tables", "--decks", "1", "-o", str(out), "--wager-file", str(tmp_path / "a.toml"),
                "--wager-file", str(tmp_path / "b.toml"))
    assert_one_line_error(r, "'coll--y'", "'y--z'", "coll--y--z")
    assert not out.exists()


BUILD_ALL = tables_mod.all_analyses


def test_a_paytable_note_is_escaped_in_markdown(tmp_path: Path) -> None:
    """Issue 25: a wager file's paytable note went into the table's Markdown raw."""
    from exactodds.catalogue.files import load_wager_files
    from exactodds.figures.analysis import analyze
    from exactodds.game.cards import Shoe
    from exactodds.report.tables import render_table_markdown

    p = tmp_path / "noted.toml"
    p.write_text('id = "noted"\nname = "Noted"\ncite = "test"\nlevel = "coup"\n\n'
                 '[[outcomes]]\nname = "Banker eight"\nwhen = { winner = "banker", banker_total = 8 }\n\n'
                 '[[paytables]]\nid = "A"\nnote = "<img src=x onerror=alert(1)> & pays 5/2"\n'
                 'pays = { "Banker eight" = "5/2 to 1" }\n')
    [w] = load_wager_files([str(p)])
    page = render_table_markdown(analyze(w, shoe=Shoe.standard(1)))
    assert "<img" not in page and "Paytable note: &lt;img src=x onerror=alert(1)&gt; &amp; pays 2.5" in page
