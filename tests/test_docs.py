"""Every documented command runs as written from a fresh clone (issue 25, What-6).

Each fenced ``sh`` block of ``README.md`` and ``docs/*.md`` is read; every command in it
that starts with ``exactodds`` (lines ending in ``\\`` joined, ``&&`` chains included) is run
by the shell, as written, in a temporary folder holding a copy of ``docs/examples/`` (the
inputs the documents name), commands of one document in order in one folder (so that
``certify ... -o d7.html`` is there for ``verify d7.html``), with this checkout's
``exactodds`` first on ``PATH``. Nothing is substituted. The documents' commands take about a
CPU-minute in all (measured 2026-11-26), so that test runs with ``EXACTODDS_SLOW=1``; the skip
lists and the shown outputs are checked on every run. Every command must exit 0 with nothing on
stderr, but for

* :data:`SLOW` -- named commands skipped, each with its reason (minutes of CPU, or reading
  what a skipped one writes); an entry no document holds any more fails the test;
* :data:`KNOWN_FAILING` -- commands that fail, some of the time, for a defect another engineer is
  fixing: run, their result not asserted (the defect depends on hash order, so a strict xfail
  would be flaky); strike an entry when the fix is merged.

The documented *outputs* of ``docs/wager-files.md`` are compared with what the commands print
now by ``scripts/doc_outputs.py --check`` (:func:`test_documented_outputs_are_current`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = ROOT / "docs" / "examples"

SLOW: dict[str, str] = {
    "exactodds certify --all --formats json,html,xlsx -o report":
        "certifies all 87 paytables with their effects of removal: minutes of CPU",
    "exactodds verify report.html": "reads the page of the skipped 'certify --all'",
    "exactodds certify --all --formats json,html,xlsx,csv,markdown -o report":
        "certifies all 87 paytables with their effects of removal: minutes of CPU",
    "exactodds simulate --rounds 10000000 --mode fresh": "10^7 rounds: about a CPU-minute with its settlement",
    "exactodds study dragon-7 panda-8 lucky-nines --shoes 2000 --seed 1 --strategy count --workers 2":
        "2,000 shoes priced before every round, in two processes",
    "exactodds study dragon-7 --shoes 200 --seed 1 --trace rounds.csv --plot dragon-7.svg":
        "200 shoes priced before every round with an exact trace",
    "exactodds spanish21 --decks 6": "the whole Spanish 21 game: about 15 s CPU",
    "exactodds spanish21 --decks 8 --wizard --h17 -f json": "the whole Spanish 21 game: about 15 s CPU",
    "exactodds certify --game spanish21 --decks 8 --max-hands 1 -f json -o s21.json && exactodds verify s21.json":
        "two whole Spanish 21 solves and distributions, then their re-computation by verify",
    "exactodds simulate --game spanish21 --max-hands 1 --rounds 200000 --seed 4 -f json":
        "two whole Spanish 21 solves and distributions, then 400,000 rounds",
    "exactodds eor --game spanish21 --wizard --decks 6 -f json": "14 whole Spanish 21 solves: long",
    "exactodds spanish21 --decks 8 --wizard --h17": "the whole Spanish 21 game: about 15 s CPU",
    "exactodds spanish21 --decks 6 -f csv -o chart.csv --html chart.html": "the whole Spanish 21 game: about 15 s CPU",
    "exactodds spanish21 --decks 6 --contributions": "the whole game once per rule changed: minutes of CPU",
    "exactodds paigow --reading docs/examples/casino-order.json":
        "a casino's own order is computed, not read from the shipped tables: about 6 s CPU",
    "exactodds certify --game paigow --reading high-hand-first -f json -o pg.json && exactodds verify pg.json":
        "Pai Gow's second method counts every hand afresh: about 10 s CPU, as much again for verify "
        "(tests/test_paigow.py certifies and verifies it)",
    "exactodds tables --output tables/": "every table at 6, 7 and 8 decks; tests/test_tables.py builds them",
    "exactodds blackjack --preset standard --decks 6 --h17 --post-split cdz -f json":
        "a whole 6-deck blackjack game with exact splits: tens of seconds of CPU",
    "exactodds blackjack --preset standard --decks 8 -f json": "a whole 8-deck blackjack game: tens of seconds of CPU",
    "exactodds blackjack --preset standard --shoe A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,10=4,J=4,Q=4,K=4 --s17 "
    "--double-after-split --max-hands 4 --post-split cdp1 -f json": "a whole 1-deck game with CDP1 splits: ~20 s CPU",
    "exactodds blackjack --preset standard --decks 6 --no-tens": "a whole 6-deck game: tens of seconds of CPU",
    "exactodds blackjack --preset spanish21 --decks 8": "the whole Spanish 21 game with exact splits: about 50 s CPU",
    "exactodds blackjack --preset wizard --h17 --decks 6": "the Wizard of Odds rule set, whole game: over a CPU-minute",
}
"""Documented commands not run here, each with its reason."""

KNOWN_FAILING: dict[str, str] = {}
"""Documented commands that fail in this branch for a defect another engineer is fixing."""


def _commands(doc: Path) -> list[str]:
    """The commands starting with ``exactodds`` of the fenced ``sh`` blocks of ``doc``, in order."""
    out = []
    for block in re.findall(r"^```sh\n(.*?)^```", doc.read_text(encoding="utf-8"), re.M | re.S):
        for line in block.replace("\\\n", " ").splitlines():
            text = " ".join(line.split("#")[0].split()) if line.lstrip().startswith("exactodds") else ""
            if text:
                out.append(text)
    return out


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(command, shell=True, cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
                          check=False)


def _folder(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "docs" / "examples")
    return tmp_path


def test_the_skip_lists_name_documented_commands() -> None:
    documented = {c for doc in DOCS for c in _commands(doc)}
    assert set(SLOW) - documented == set(), "strike these from SLOW: no document has them"
    assert set(KNOWN_FAILING) - documented == set(), "strike these from KNOWN_FAILING"
    assert not set(SLOW) & set(KNOWN_FAILING)


@pytest.mark.parametrize("doc", [d for d in DOCS if _commands(d)], ids=lambda d: d.name)
@pytest.mark.skipif(not os.environ.get("EXACTODDS_SLOW"), reason="about a CPU-minute in all: set EXACTODDS_SLOW=1")
def test_every_documented_command_runs_as_written(doc: Path, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    failures = []
    for command in _commands(doc):
        if command in SLOW:
            continue
        p = _run(command, folder)
        if command in KNOWN_FAILING:
            continue
        if p.returncode != 0 or p.stderr.strip() != "":
            failures.append(f"{command!r} exited {p.returncode}: {p.stderr.strip()[-300:]}")
    assert failures == [], "\n".join(failures)


def test_documented_outputs_are_current() -> None:
    """The outputs shown in docs/wager-files.md are what the commands print today
    (``scripts/doc_outputs.py`` regenerates them; ``--check`` only compares)."""
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "doc_outputs.py"), "--check"], capture_output=True,
                       text=True, timeout=600, check=False)
    assert p.returncode == 0 and p.stderr == "", f"run scripts/doc_outputs.py:\n{p.stdout}{p.stderr}"
