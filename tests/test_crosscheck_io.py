"""Crosscheck input bounds found by the re-audit of issue 18, and ``--wager-file``.

* round number 10**15 is accepted (the message says "at most 1,000,000,000,000,000"), 10**15 + 1 is not;
* distinct ``# k=v`` comments before the header keep a bounded metadata table, and the
  keys crosscheck reads (``decks=``, ``cover=`` ...) are kept however many come first;
* ``--faces`` settles at most ``MAX_FACE_ROUNDS`` rounds and says so;
* ``crosscheck --wager-file FILE`` tests a wager from a TOML file, counted independently here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_simulation_cli

from exactodds.game.cards import Shoe
from exactodds.simulation import audit
from exactodds.simulation import crosscheck as cc
from exactodds.simulation.handlog import MAX_META_KEYS, MAX_NUMBER, LogFile, read_file, render_log
from exactodds.simulation.simulate import simulate

EIGHT = Shoe.standard(8)
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
ROWS = "1,6C 8S,8D QS\n"


def _log(tmp: Path, first_round: int) -> Path:
    path = tmp / "log.csv"
    path.write_text(f"# decks=8\nround,player,banker\n{first_round},6C 8S,8D QS\n{first_round + 1},2H 3D,KS 9C\n")
    return path


@pytest.mark.parametrize("first", [MAX_NUMBER - 1, 1])
def test_round_number_at_the_stated_limit_is_accepted(tmp_path: Path, first: int) -> None:
    code, out, err = run_simulation_cli("crosscheck", str(_log(tmp_path, first)))
    assert code in (0, 1) and err == "", err  # read and tested (two rounds: inconclusive)
    assert "Verdict" in out


@pytest.mark.parametrize("first", [MAX_NUMBER, 10**16, 10**40])
def test_round_number_past_the_limit_is_one_line_naming_the_limit(tmp_path: Path, first: int) -> None:
    code, out, err = run_simulation_cli("crosscheck", str(_log(tmp_path, first)))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "too large (at most 1,000,000,000,000,000)" in err, err


def test_distinct_comments_keep_a_bounded_metadata_table(tmp_path: Path) -> None:
    path = tmp_path / "comments.csv"
    junk = "".join(f"# key{i}=value{i} other{i}={'x' * 2000}\n" for i in range(5000))
    path.write_text(junk + "# decks=6 cover=20\nround,player,banker\n" + ROWS)
    data = read_file(path)
    assert isinstance(data, LogFile)
    try:
        assert len(data.meta) <= MAX_META_KEYS + 2
        assert data.meta["decks"] == "6" and data.meta["cover"] == "20"
        assert all(len(k) <= 1024 and len(v) <= 1024 for k, v in data.meta.items())
    finally:
        data.close()


def test_faces_work_is_bounded_and_the_bound_is_stated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sim = simulate(300, "fresh", EIGHT, seed=5, keep_hands=True)
    assert sim.log is not None
    path = tmp_path / "log.csv"
    path.write_text(render_log(sim.log, {"decks": 8}))
    monkeypatch.setattr(audit, "MAX_FACE_ROUNDS", 120)
    data = read_file(path)
    assert isinstance(data, LogFile)
    result = cc.crosscheck_log(data, EIGHT, 14, wagers=["player-pair"])
    fam = [f for f in result.comparable.families if getattr(f, "wager", None) == "player-pair"]
    assert fam and all(f.rounds == 120 for f in fam)
    assert any("first 120 playable rounds" in s and "180 later" in s for s in result.skipped), result.skipped


def _colour(card: str) -> str:
    return "red" if card[-1] in "HD" else "black"


def test_crosscheck_takes_a_toml_wager(tmp_path: Path) -> None:
    sim = simulate(2000, "fresh", EIGHT, seed=11, keep_hands=True)
    assert sim.log is not None
    path = tmp_path / "log.csv"
    text = render_log(sim.log, {"decks": 8})
    path.write_text(text)
    code, out, err = run_simulation_cli("crosscheck", "--wager-file", str(EXAMPLES / "monochrome.toml"),
                                        "-w", "monochrome", str(path), "-f", "json")
    assert code == 0, err
    fam = next(f for f in json.loads(out)["comparable"]["families"] if f.get("wager") == "monochrome")
    observed = {o["outcome"]: o["observed"] for o in fam["outcomes"]}
    # independent count from the log's text: every card of both hands one suit / one colour
    one_suit = one_colour = {4: 0, 5: 0, 6: 0}
    one_suit, one_colour = dict(one_suit), dict(one_colour)
    for line in text.splitlines():
        if not line or line.startswith(("#", "round")):
            continue
        cards = " ".join(line.split(",")[1:3]).split()
        if len({c[-1] for c in cards}) == 1:
            one_suit[len(cards)] += 1
        elif len({_colour(c) for c in cards}) == 1:
            one_colour[len(cards)] += 1
    assert observed["All cards one suit"] == sum(one_suit.values())
    assert observed["All cards one colour, four cards"] == one_colour[4]
    assert observed["All cards one colour, five or six cards"] == one_colour[5] + one_colour[6]
    assert fam["rounds"] == sum(observed.values()) == 2000


def test_crosscheck_wager_file_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "t"\nname = \n')
    log = _log(tmp_path, 1)
    code, out, err = run_simulation_cli("crosscheck", "--wager-file", str(bad), str(log))
    assert code == 2 and out == "" and err.count("\n") == 1 and "bad.toml" in err


def test_missing_round_numbers_are_counted_and_stated(tmp_path: Path) -> None:
    sim = simulate(400, "fresh", EIGHT, seed=3, keep_hands=True)
    assert sim.log is not None
    lines = render_log(sim.log, {"decks": 8}).splitlines()
    head, rows = lines[:2], lines[2:]
    kept = [r for i, r in enumerate(rows) if i not in (10, 11, 250)]  # rounds 11, 12 and 251 dropped
    path = tmp_path / "gaps.csv"
    path.write_text("\n".join(head + kept) + "\n")
    data = read_file(path)
    assert isinstance(data, LogFile)
    result = cc.crosscheck_log(data, EIGHT, 14)
    note = [n for n in result.notes if n.startswith("accounting, round numbers")]
    assert len(note) == 1 and "3 round number(s) missing" in note[0] and "round 13 follows round 10" in note[0]
    whole = tmp_path / "whole.csv"
    whole.write_text("\n".join(lines) + "\n")
    data = read_file(whole)
    assert isinstance(data, LogFile)
    assert not [n for n in cc.crosscheck_log(data, EIGHT, 14).notes if "round numbers" in n]


def test_decks_assumed_is_stated(tmp_path: Path) -> None:
    path = tmp_path / "nodecks.csv"
    path.write_text("round,player,banker\n" + ROWS)
    code, out, err = run_simulation_cli("crosscheck", str(path))
    assert "decks: 8 assumed" in out, out + err
    code, out, err = run_simulation_cli("crosscheck", "--decks", "8", str(path))
    assert "decks: 8 assumed" not in out


def test_card_spellings_read_alike(tmp_path: Path) -> None:
    """``10H``, ``Th``, ``th``, ``10♥`` and ``T♡`` are one card; a log spelled with symbols
    reads as the same log spelled with letters."""
    from exactodds.simulation.handlog import parse_logged_card

    assert len({parse_logged_card(t) for t in ["10H", "Th", "th", "10♥", "T♡"]}) == 1
    sim = simulate(200, "fresh", EIGHT, seed=9, keep_hands=True)
    assert sim.log is not None
    text = render_log(sim.log, {"decks": 8})
    symbols = text.splitlines()[0] + "\n" + "\n".join(
        line.translate(str.maketrans("SHDC", "♠♥♦♣")) for line in text.splitlines()[1:]) + "\n"
    a, b = tmp_path / "letters.csv", tmp_path / "symbols.csv"
    a.write_text(text)
    b.write_text(symbols, encoding="utf-8")
    rounds = []
    for path in (a, b):
        data = read_file(path)
        assert isinstance(data, LogFile)
        rounds.append([(r.round, r.player, r.banker) for r in data.rounds()])
        data.close()
    assert rounds[0] == rounds[1] and len(rounds[0]) == 200


def test_column_mapping_reads_another_simulators_header(tmp_path: Path) -> None:
    sim = simulate(300, "shoe", EIGHT, seed=4, keep_hands=True)
    assert sim.log is not None
    text = render_log(sim.log, {"decks": 8, "cover": 14})
    own = tmp_path / "own.csv"
    own.write_text(text)
    lines = text.splitlines()
    header = lines[1].split(",")
    theirs = {"round": "Hand_Number", "player": "p_cards", "banker": "b_cards", "shoe": "shoe_id"}
    # their column order differs too: shoe first, then round, banker, player
    order = ["shoe", "round", "banker", "player"]
    rows = [",".join(dict(zip(header, r.split(",")))[c] for c in order) for r in lines[2:]]
    other = tmp_path / "other.csv"
    other.write_text(lines[0] + "\n" + ",".join(theirs[c] for c in order) + "\n" + "\n".join(rows) + "\n")
    mapping = ",".join(f"{k}={v}" for k, v in theirs.items())
    a = run_simulation_cli("crosscheck", str(own), "-f", "json")
    b = run_simulation_cli("crosscheck", "--columns", mapping, str(other), "-f", "json")
    assert a[0] == b[0] == 0, b[2]
    ja, jb = json.loads(a[1]), json.loads(b[1])
    assert ja["comparable"] == jb["comparable"] and ja["audit"] == jb["audit"]


@pytest.mark.parametrize(("mapping", "message"), [
    ("round=hand_no", "--columns round=hand_no: the file has no column 'hand_no'"),
    ("rnd=hand_number", "--columns: 'rnd' is not a hand-log column"),
    ("round", "--columns: 'round' is not NAME=COLUMN"),
    ("round=a,round=b", "--columns: 'round' is mapped twice"),
])
def test_a_wrong_column_mapping_is_one_line_naming_the_column(tmp_path: Path, mapping: str, message: str) -> None:
    path = tmp_path / "log.csv"
    path.write_text("hand_number,player,banker\n" + ROWS)
    code, out, err = run_simulation_cli("crosscheck", "--columns", mapping, str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
