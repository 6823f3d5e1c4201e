"""scripts/peer_blackjack.py and the figures it recorded (issue 27, item 3).

The peer is Eric Farmer's blackjack strategy calculator (possibly-wrong/blackjack, C++, GPL),
driven through its console. These tests check the recorded JSON (shape, provenance, the cases
equal the script's CASES, and an identity between its printed figures), the console answers
against a model of the peer's prompt sequence (strategy.cpp's ``main``), the reading of its
output through a stand-in program, the script's one-line errors, and -- only when g++ and
``EXACTODDS_PEER_SRC`` (a checkout of the peer) are present -- that a rebuilt peer still prints
the recorded value on the fastest case.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import stat
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "peer_blackjack.json"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("peer_blackjack", ROOT / "scripts" / "peer_blackjack.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["peer_blackjack"] = module
    spec.loader.exec_module(module)
    return module


peer = _load()


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


# -- the recorded JSON -------------------------------------------------------------------------

def test_provenance(document: dict[str, Any]) -> None:
    p = document["peer"]
    assert p["repo"] == "possibly-wrong/blackjack"
    assert re.fullmatch(r"[0-9a-f]{40}", p["commit"])
    assert re.fullmatch(r"[0-9a-f]{64}", p["source_sha256"])
    assert p["program"] == peer.PROGRAM
    assert "Basic Strategy Calculator version" in p["version"]
    assert "g++ -O2" in p["how"] and "percent of the initial wager" in p["how"]
    assert p["fixed_answers"] == peer.FIXED_ANSWERS
    assert p["case_fields"] == [f for f in peer.PeerCase.__dataclass_fields__]


def test_cases_equal_script(document: dict[str, Any]) -> None:
    """The JSON holds exactly the script's CASES, in order, every field equal."""
    keys = set(peer.PeerCase.__dataclass_fields__)
    recorded = [{k: v for k, v in c.items() if k in keys} for c in document["cases"]]
    assert recorded == [c.record() for c in peer.CASES]
    assert [peer.PeerCase(**{**r, "counts": tuple(r["counts"])}) for r in recorded] == list(peer.CASES)


def test_cases_cover_the_brief() -> None:
    """At least ten cases; 1, 2, 6, 8 decks; every rule the peer varies, both ways; odd and Spanish shoes."""
    cases = peer.CASES
    assert len(cases) >= 10 and len({c.name for c in cases}) == len(cases)
    standard = {sum(c.counts) // 52 for c in cases if c.counts == peer.decks(sum(c.counts) // 52)}
    assert {1, 2, 6, 8} <= standard
    assert any(c.counts == peer.spanish_decks(sum(c.counts) // 48) for c in cases)
    odd = [c for c in cases if c.counts not in (peer.decks(sum(c.counts) // 52), peer.spanish_decks(sum(c.counts) // 48))]
    assert len(odd) >= 2
    for field in ("h17", "double_after_split", "resplit_aces", "surrender"):
        assert {getattr(c, field) for c in cases} == {False, True}, field
    assert {c.max_hands for c in cases} == {2, 4}
    assert {c.post_split for c in cases} == {"cdz", "cdp1", "cdp"}
    assert {c.double_totals for c in cases} == {"any", "9-11", "10-11"}
    assert {c.blackjack_pays for c in cases} == {"3:2", "6:5", "1:1"}


def test_printed_values(document: dict[str, Any]) -> None:
    """Each figure as the peer prints it (%14.9lf, stripped) sits in its 'Total |' line; the echoed rules match."""
    for c, case in zip(document["cases"], peer.CASES):
        assert re.fullmatch(r"-?\d+\.\d{9}", c["printed"]), c["name"]
        assert re.fullmatch(rf"  Total \| +{re.escape(c['printed'])}( \+/- \d+\.\d{{9}})?", c["line"]), c["name"]
        # the peer gives a standard deviation exactly when it computes the distribution: CDZ-, no resplits
        assert ("+/-" in c["line"]) == (case.post_split == "cdz" and case.max_hands == 2), c["name"]
        assert c["header"] == peer.expected_header(case)
        assert isinstance(c["cpu_seconds"], float) and c["cpu_seconds"] > 0
        assert isinstance(c["engine_cpu_seconds"], float) and c["engine_cpu_seconds"] > 0
        assert -25 < Fraction(c["printed"]) < 5, c["name"]  # percent, not a fraction of the wager


def test_total_is_the_up_card_average(document: dict[str, Any]) -> None:
    """Identity: the total is the per-up-card values weighted by the up card's probability.

    Each printed value is rounded to 1e-9 (percent) and the weights sum to 1, so the weighted sum of
    the printed per-up-card values is within 1e-9 of the printed total (exact arithmetic).
    """
    for c in document["cases"]:
        n = sum(c["counts"])
        weighted = sum(Fraction(k, n) * Fraction(c["printed_by_up_card"][r]) for k, r in zip(c["counts"], peer.RANKS))
        assert abs(weighted - Fraction(c["printed"])) <= Fraction(1, 10**9), c["name"]


def test_rule_effects(document: dict[str, Any]) -> None:
    """Orderings every blackjack analyst knows, on the recorded figures of otherwise equal rules."""
    v = {c["name"]: Fraction(c["printed"]) for c in document["cases"]}
    # CDP1 and CDP optimise post-split play over CDZ-: never worse, same rules and shoe
    assert v["8d-s17-das-cdp"] >= v["8d-s17-das-cdp1"] >= v["8d-s17-das-cdz"]
    assert v["8d-s17-das-cdp"] > v["8d-s17-das-cdz"]
    # Spanish decks (fewer tens) cost the player several percent
    assert v["spanish-8d-h17-das-d9-cdz"] < v["8d-s17-das-cdz"] - 1


def test_docs_table_shows_the_recorded_figures(document: dict[str, Any]) -> None:
    """docs/blackjack.md lists every case with the figure the peer printed (and no other case)."""
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z0-9-]+)` \|.*\| (-?\d+\.\d{9}) \|",
                                                       (ROOT / "docs" / "blackjack.md").read_text(), re.M)}
    assert rows == {c["name"]: c["printed"] for c in document["cases"]}


# -- the console answers and the output reader ----------------------------------------------------

def _read_like_the_peer(lines: list[str]) -> dict[str, Any]:
    """The rules strategy.cpp's main() builds from these lines (its scanf sequence, re-read from the source)."""
    tokens = iter(" ".join(lines).split())

    def yes() -> bool:
        return next(tokens)[0] in "Yy"

    assert next(tokens) == "0"  # number of decks 0: enter the shoe
    counts = tuple(int(next(tokens)) for _ in range(10))
    h17 = yes()
    double_any = yes()
    double9 = True if double_any else yes()
    double_soft, double_after_hit, das, resplit = yes(), yes(), yes(), yes()
    rsa = yes() if resplit else False
    cdz = yes()
    cdp1 = True if cdz else yes()
    surrender = yes()
    payoff = Fraction(next(tokens))
    filename = next(tokens)
    assert (next(tokens), next(tokens)) == ("0", "0")
    assert next(tokens, None) is None
    return {"counts": counts, "h17": h17, "double_totals": "any" if double_any else ("9-11" if double9 else "10-11"),
            "double_soft": double_soft, "double_after_hit": double_after_hit, "double_after_split": das,
            "max_hands": 4 if resplit else 2, "resplit_aces": rsa, "post_split": "cdz" if cdz else ("cdp1" if cdp1 else "cdp"),
            "surrender": surrender, "payoff": payoff, "filename": filename}


cases = st.builds(
    peer.PeerCase, name=st.from_regex(r"[a-z][a-z0-9-]{0,20}", fullmatch=True),
    counts=st.tuples(*[st.integers(0, 200)] * 10).filter(lambda t: sum(t) >= 20), h17=st.booleans(),
    double_after_split=st.booleans(), double_totals=st.sampled_from(["any", "9-11", "10-11"]),
    resplit_aces=st.just(False), max_hands=st.sampled_from([2, 4]), surrender=st.booleans(),
    blackjack_pays=st.sampled_from(["3:2", "6:5", "1:1"]), post_split=st.sampled_from(["cdz", "cdp1", "cdp"]))


@settings(max_examples=200, deadline=None)
@given(cases, st.booleans())
def test_answers_are_read_as_meant(case: Any, rsa: bool) -> None:
    if rsa and case.max_hands == 4:
        case = peer.PeerCase(**{**case.__dict__, "resplit_aces": True})
    got = _read_like_the_peer(peer.answers(case))
    for field in ("counts", "h17", "double_totals", "double_after_split", "max_hands", "resplit_aces", "post_split", "surrender"):
        assert got[field] == getattr(case, field), field
    assert (got["double_soft"], got["double_after_hit"]) == (True, False)
    assert got["payoff"] == Fraction(*map(int, case.blackjack_pays.split(":")))
    assert got["filename"] == "out.txt"
    # the engine-only driver gets the BJRules / BJStrategy arguments strategy.cpp builds from these answers
    args = peer.core_arguments(case)
    assert tuple(map(int, args[:10])) == case.counts and Fraction(args[21]) == got["payoff"]
    double9 = got["double_totals"] != "10-11"
    rules = [got["h17"], got["double_totals"] == "any", double9, got["double_soft"], got["double_after_hit"],
             got["double_after_split"], got["max_hands"] == 4, got["resplit_aces"], got["surrender"],
             got["post_split"] == "cdz", got["post_split"] != "cdp"]
    assert args[10:21] == ["1" if f else "0" for f in rules]
    header = peer.expected_header(case)
    assert header.startswith("Shoe(" + ", ".join(map(str, case.counts)) + ")")
    assert ("BJ pays" in header) == (case.blackjack_pays != "3:2")


@pytest.mark.parametrize("change, message", [
    ({"max_hands": 3}, "2 hands or"), ({"resplit_aces": True, "max_hands": 2}, "needs max_hands 4"),
    ({"double_totals": "9"}, "double_totals"), ({"blackjack_pays": "7:5"}, "blackjack_pays"),
    ({"post_split": "cdp2"}, "post_split"), ({"counts": (4,) * 9}, "10 integers"),
    ({"counts": (-1,) + (4,) * 9}, "10 integers"), ({"counts": (1,) * 10}, "too small"), ({"name": "Bad Name"}, "name"),
])
def test_unsupported_cases_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        peer.PeerCase(**{**peer.CASES[0].__dict__, **change})


FAKE = '''#!{python}
# A stand-in for the peer's strategy program: reads the console answers, writes an output file.
import sys
tokens = sys.stdin.read().split()
counts, name = tokens[1:11], tokens[-3]
print("Blackjack Basic Strategy Calculator version 0.0 (stand-in)")
{exit}
with open(name, "w") as f:
    f.write("Shoe(" + ", ".join(counts) + "), {rules}\\n\\n")
    f.write("    Up  |\\n   card | Overall expected value (%)\\n---\\n")
    for up in ["2", "3", "4", "5", "6", "7", "8", "9", "10"]:
        f.write("%6s  | %14s\\n" % (up, "1.000000000"))
    f.write("     A  | %14s\\n---\\n  Total | %14s\\n" % ("-2.000000000", "{total}"))
'''


def _fake(tmp_path: Path, *, rules: str, total: str = "-0.123456789", exit: str = "") -> Path:
    path = tmp_path / "fake-strategy"
    path.write_text(FAKE.format(python=sys.executable, rules=rules, total=total, exit=exit))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_run_reads_a_stand_in(tmp_path: Path) -> None:
    case = peer.CASES[0]
    rules = peer.expected_header(case).split("), ", 1)[1]
    r = peer.run(case, _fake(tmp_path, rules=rules))
    assert (r.printed, r.by_up_card["A"], r.by_up_card["T"]) == ("-0.123456789", "-2.000000000", "1.000000000")
    assert r.header == peer.expected_header(case) and "stand-in" in r.version and r.cpu_seconds >= 0
    assert peer.peer_value(case, _fake(tmp_path, rules=rules, total="12.000000001")) == "12.000000001"


@pytest.mark.parametrize("kind, message", [
    ("misread", "read case"), ("status", "exited with status 3"), ("nofile", "no output file"), ("format", "no 'Total |' line"),
])
def test_run_refuses_a_wrong_peer(tmp_path: Path, kind: str, message: str) -> None:
    case = peer.CASES[0]
    rules = peer.expected_header(case).split("), ", 1)[1]
    fake = {"misread": lambda: _fake(tmp_path, rules=rules.replace("H17", "S17")),
            "status": lambda: _fake(tmp_path, rules=rules, exit="sys.exit(3)"),
            "nofile": lambda: _fake(tmp_path, rules=rules, exit="sys.exit(0)"),
            "format": lambda: _fake(tmp_path, rules=rules, total="-0.12")}[kind]()
    with pytest.raises(peer.PeerError, match=message):
        peer.run(case, fake)


# -- the script's command line ----------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    ([], "--source DIR"), (["--source", "/nonexistent-peer"], "no such directory"),
    (["--source", "{tmp}", "--commit", "abc"], "40-digit"), (["--source", "{tmp}"], "not a git work tree"),
    (["--source", "{tmp}", "--commit", "a" * 40], "not a checkout"),
])
def test_main_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                  argv: list[str], message: str) -> None:
    monkeypatch.delenv("EXACTODDS_PEER_SRC", raising=False)
    out = tmp_path / "out.json"
    with pytest.raises(SystemExit) as e:
        peer.main([a.replace("{tmp}", str(tmp_path)) for a in argv] + ["--output", str(out), "--build-dir", str(tmp_path / "b")])
    captured = capsys.readouterr()
    assert e.value.code == 2 and captured.out == ""
    assert captured.err.startswith("exactodds: error: ") and captured.err.count("\n") == 1 and message in captured.err
    assert not out.exists()


def test_build_stays_outside_the_repository(tmp_path: Path) -> None:
    src = tmp_path / "peer"
    for s in peer.SOURCES:
        (src / "src" / s).parent.mkdir(parents=True, exist_ok=True)
        (src / "src" / s).write_text("// empty\n")
    with pytest.raises(peer.PeerError, match="inside the repository"):
        peer.build(src, ROOT / "build-peer")
    assert not (ROOT / "build-peer").exists()


# -- the live peer (opt-in) ---------------------------------------------------------------------------

LIVE_SOURCE = os.environ.get("EXACTODDS_PEER_SRC")


@pytest.mark.skipif(shutil.which("g++") is None or not LIVE_SOURCE,
                    reason="needs g++ and EXACTODDS_PEER_SRC (a checkout of possibly-wrong/blackjack)")
def test_live_peer_prints_the_recorded_value(document: dict[str, Any]) -> None:
    """Rebuild (or reuse the build of the same sources) and re-run the fastest recorded case."""
    assert LIVE_SOURCE is not None
    source = Path(LIVE_SOURCE)
    assert peer.source_digest(source) == document["peer"]["source_sha256"], "EXACTODDS_PEER_SRC holds other sources"
    build_dir = Path(os.environ.get("EXACTODDS_PEER_BUILD", Path.home() / ".cache" / "exactodds" / "peer"))
    binary = peer.build(source, build_dir)
    fastest = min(document["cases"], key=lambda c: c["cpu_seconds"])
    case = next(c for c in peer.CASES if c.name == fastest["name"])
    r = peer.run(case, binary)
    assert (r.printed, r.by_up_card, r.header) == (fastest["printed"], fastest["printed_by_up_card"], fastest["header"])
    assert peer.core_run(case, peer.build_core(source, build_dir))[0] == fastest["printed"]
