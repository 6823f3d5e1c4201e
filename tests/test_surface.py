"""The command-line surface (issue 16 items 4-7, issue 18's injection defects): cells a
spreadsheet cannot run, Markdown that cannot run script, one-line errors for missing
extras, clean help, every CSV one tidy table and no long fraction in a human view."""

from __future__ import annotations

import csv
import io
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

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


@pytest.mark.parametrize("command", ["analyze", "eor", "list", "certify", "study", "simulate", "tables"])
def test_help_renders_cleanly(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "\\[" not in out
