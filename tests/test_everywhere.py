"""A wager is a wager everywhere (issue 16 item 1) and study's input hardening (issue 18).

* one wager-file mechanism (``--wager-file`` and ``$EXACTODDS_WAGERS`` folders) for every
  command that takes a wager;
* a TOML wager that is not in the catalogue runs through analyze, study, simulate and
  certify, each compared with the exact figures;
* the simulator settles every wager at every level (checked round by round against a
  hand assembly written here, and statistically against the exact returns), takes
  ``--shoe``/``--remove``, and its standard error, interval and z are recomputed here;
* study: absurd triggers, too many workers and bad schedulers are one error line.
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest
from conftest import slow
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.cli.app import app
from exactodds.cli.wagerfiles import WAGERS_ENV, resolve_wagers, wager_file_paths, wagers_registered
from exactodds.errors import InputError
from exactodds.figures.analysis import analyze
from exactodds.game.cards import FACES, Shoe
from exactodds.game.rules import deal_round
from exactodds.game.shoespec import resolve_shoe
from exactodds.simulation.settle import RoundSettler, simulated_pairs
from exactodds.simulation.simulate import decode, estimate_return, simulate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
SUITED = str(EXAMPLES / "player-suited-start.toml")
runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, list(args), env=env)


def one_error_line(r: Any) -> str:
    assert r.exit_code == 2, r.output
    assert r.stdout == "", r.stdout
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("exactodds: error: "), r.stderr
    return str(r.stderr)


# -- one mechanism for wager files -------------------------------------------------------------------
def test_folders_come_first_and_an_explicit_file_follows(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    shutil.copy(SUITED, a / "suited.toml")
    shutil.copy(EXAMPLES / "monochrome.toml", b / "mono.toml")
    (b / "notes.txt").write_text("not a wager")
    env = {WAGERS_ENV: f"{a}:{b}"}
    assert wager_file_paths(["x.toml"], env) == [str(a / "suited.toml"), str(b / "mono.toml"), "x.toml"]
    assert [w.id for w in resolve_wagers(None, env)] == ["player-suited-start", "monochrome"]
    assert resolve_wagers(None, {}) == []
    with wagers_registered([str(EXAMPLES / "dragon-7-30to1.toml")], env) as ws:
        assert {"player-suited-start", "monochrome"} <= set(CATALOGUE)
        assert "30to1" in [t.id for t in get_wager("dragon-7").paytables] and len(ws) == 3
    assert "monochrome" not in CATALOGUE and "30to1" not in [t.id for t in get_wager("dragon-7").paytables]


@slow("6 s of CPU (every wager command once more)")
def test_the_wager_folder_is_honoured_by_every_wager_command(tmp_path: Path) -> None:
    shutil.copy(SUITED, tmp_path / "suited.toml")
    env = {WAGERS_ENV: str(tmp_path)}
    [w] = resolve_wagers([SUITED], {})
    exact = analyze(w, None, Shoe.standard(8)).return_
    doc = json.loads(run("analyze", "player-suited-start", "-f", "json", env=env).stdout)
    assert Fraction(doc["return"]) == exact
    sim = run("simulate", "-n", "2000", "-w", "player-suited-start", "-f", "json", env=env)
    assert sim.exit_code == 0, sim.output
    assert Fraction(json.loads(sim.stdout)["wagers"][0]["exact_return"]) == exact
    st = run("study", "player-suited-start", "-n", "1", "--seed", "1", "-f", "json", env=env)
    assert st.exit_code == 0, st.output
    eor = run("eor", "player-suited-start", "-f", "json", env=env)
    assert eor.exit_code == 0, eor.output
    assert "player-suited-start" not in CATALOGUE


@pytest.mark.parametrize("folder", ["missing", "file.toml"])
def test_a_bad_wager_folder_is_one_line(folder: str, tmp_path: Path) -> None:
    (tmp_path / "file.toml").write_text("id = 1\n")
    err = one_error_line(run("analyze", "banker", env={WAGERS_ENV: str(tmp_path / folder)}))
    assert WAGERS_ENV in err


def test_a_bad_file_in_the_folder_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("id = [\n")
    err = one_error_line(run("simulate", "-n", "10", env={WAGERS_ENV: str(tmp_path)}))
    assert "bad.toml" in err


# -- done when: a TOML wager through analyze, study, simulate and certify --------------------------
def test_a_toml_wager_runs_through_analyze_study_simulate_and_certify(tmp_path: Path) -> None:
    [w] = resolve_wagers([SUITED], {})
    shoe = Shoe.standard(8)
    exact = analyze(w, None, shoe)
    # analyze (its counts are held against the brute-force oracle in test_wager_files)
    doc = json.loads(run("analyze", "--wager-file", SUITED, "player-suited-start", "-f", "json").stdout)
    assert Fraction(doc["return"]) == exact.return_ and doc["total"] == exact.total
    # certify: the certificate's figures are analyze's, and verify holds without the file
    report = tmp_path / "cert.json"
    r = run("certify", "--wager-file", SUITED, "player-suited-start", "--no-eor", "-f", "json", "-o", str(report))
    assert r.exit_code == 0, r.output
    cert = json.loads(report.read_text())
    assert Fraction(cert["games"][0]["tables"][0]["outcome_table"]["return"]) == exact.return_
    assert Fraction(cert["games"][0]["tables"][0]["outcome_table"]["variance"]) == exact.variance
    assert run("verify", str(report)).exit_code == 0
    # simulate: observed against exact, every figure recomputed here
    sim = run("simulate", "--wager-file", SUITED, "-w", "player-suited-start", "-n", "60000", "--seed", "5",
              "-f", "json")
    assert sim.exit_code == 0, sim.output
    item = json.loads(sim.stdout)["wagers"][0]
    check_estimate(item, exact)
    assert abs(item["z"]) < 5
    # study: every round's exact return in the trace equals analyze on that round's shoe
    trace = tmp_path / "trace.csv"
    st = run("study", "--wager-file", SUITED, "player-suited-start", "-n", "2", "--seed", "3", "--trace", str(trace),
             "-f", "json")
    assert st.exit_code == 0, st.output
    rows = list(csv.DictReader(io.StringIO(trace.read_text())))
    assert len(rows) > 100
    for row in rows[:: max(1, len(rows) // 8)]:
        counts = [int(row[r]) for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")]
        assert sum(counts) == int(row["cards_left"])
    assert "player-suited-start" not in CATALOGUE


def test_a_toml_wager_studied_in_worker_processes_matches_one_process() -> None:
    args = ["study", "--wager-file", SUITED, "player-suited-start", "-n", "4", "--seed", "9", "--chunk-shoes", "2",
            "-f", "json"]
    one = run(*args)
    two = run(*args, "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a["wagers"] == b["wagers"]


def test_ride_takes_banker_or_player_paytables_only(tmp_path: Path) -> None:
    """§ 629a.8(c)(3): the payout rides on "the Player or Banker wager". One rule for the catalogue
    and wager files (issue 25: a file's coup-level side wager was accepted, a catalogue one not)."""
    table = tmp_path / "banker-3pct.toml"
    table.write_text('wager = "banker"\ncite = "test"\n\n[[paytables]]\nid = "3pct"\n'
                     'pays = { "Banker wins" = "97/100 to 1" }\n')
    r = run("ride", "--wager-file", str(table), "banker", "-p", "3pct", "-f", "json")
    assert r.exit_code == 0, r.output
    for args in (["--wager-file", str(EXAMPLES / "banker-three-card-eight.toml"), "banker-three-card-eight"],
                 ["tie"], ["dragon-7"]):
        assert "§ 629a.8(c)(3)" in one_error_line(run("ride", *args))
    err = one_error_line(run("ride", "--wager-file", SUITED, "player-suited-start"))
    assert "coup" in err


# -- the simulator: every wager, every level ------------------------------------------------------------
def check_estimate(item: dict[str, Any], exact: Any) -> None:
    """Recompute the observed return, standard error, interval and z from the counts."""
    nets = {r.name: r.pay.net for r in exact.rows}
    counts = item["counts"]
    n = sum(counts.values())
    values = [(nets[k], c) for k, c in counts.items()]
    mean = sum(v * c for v, c in values) / Fraction(n)
    s2 = sum(c * (v - mean) ** 2 for v, c in values) / Fraction(n - 1)
    se = math.sqrt(s2 / n)
    sigma = math.sqrt(sum(Fraction(r.count, exact.total) * (r.pay.net - exact.return_) ** 2 for r in exact.rows))
    assert Fraction(item["observed_return"]) == mean
    assert item["standard_error"] == pytest.approx(se, rel=1e-12)
    q = NormalDist().inv_cdf(0.975)
    assert item["interval_95"] == pytest.approx([float(mean) - q * se, float(mean) + q * se], rel=1e-9, abs=1e-12)
    assert Fraction(item["exact_return"]) == exact.return_
    assert item["z"] == pytest.approx(float(mean - exact.return_) / (sigma / math.sqrt(n)), rel=1e-9)


@pytest.mark.parametrize("mode", ["fresh", "shoe"])
def test_the_settler_equals_settling_each_round_by_hand(mode: str) -> None:
    """Grouping and remembered results change nothing: every baccarat wager's counts equal
    settling each kept round one by one (levels read from the round's own cards)."""
    pairs = [(w, t) for w in CATALOGUE.values() if w.level.baccarat for t in w.paytables[:1]]
    settler = RoundSettler(pairs)
    sim = simulate(3000, mode, Shoe.standard(2), seed=11, keep_hands=True, settler=settler)  # type: ignore[arg-type]
    assert sim.log is not None
    k = sim.meta.get("guaranteed_rounds")
    later = np.zeros(sim.rounds, dtype=bool)
    if mode == "shoe":
        assert sim.log.shoe is not None and k is not None
        shoe = sim.log.shoe.tolist()
        idx = 0
        for i in range(sim.rounds):
            idx = idx + 1 if i and shoe[i] == shoe[i - 1] else 0
            later[i] = idx >= k
    expected: dict[tuple[str, str], Counter[str]] = {(w.id, t.id): Counter() for w, t in pairs}
    for i, (faces, code) in enumerate(zip(sim.log.faces.tolist(), sim.log.codes.tolist())):
        if later[i]:
            continue
        # the round dealt again card by card from the drawing rules (game.rules.deal_round),
        # not from the simulator's coup code: an independent assembly of the hands
        dealt = deal_round(FACES[f] for f in faces)
        assert dealt is not None
        player, banker = dealt
        assert (len(player), len(banker)) == (decode(code).player_cards, decode(code).banker_cards)
        for w, t in pairs:
            expected[(w.id, t.id)][w.settle(t, w.level.from_deal(player, banker))] += 1
    got = settler.families(0)
    for key, counts in expected.items():
        assert {o: n for o, n in got[key].items() if n} == dict(counts), key


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, len(FACES) - 1), min_size=1, max_size=8, unique=True), st.integers(0, 2**32 - 1))
def test_a_group_key_is_a_function_of_the_result_and_back(pool: list[int], seed: int) -> None:
    """The levels that declare a group key (coup, deal-faces) group rounds by a key of their
    result computed for all rounds at once (``GROUP_KEYS``): rounds with one key have one result (read by the level
    from the round's own cards), and rounds with one result one key. Deals from a few faces
    make one suit, one colour, one rank and one value common."""
    from exactodds.engine.levels import LEVELS
    from exactodds.simulation.settle import ABSENT, GROUP_KEYS, hands

    rng = np.random.default_rng(seed)
    slots = rng.choice(np.array(pool), size=(400, 6))
    slots[rng.random(400) < 0.5, 2] = ABSENT
    slots[rng.random(400) < 0.5, 5] = ABSENT
    levels = [lv for lv in LEVELS.values() if lv.group_key is not None]
    assert {lv.name for lv in levels} >= {"coup", "deal-faces"}
    for level in levels:
        assert level.group_key is not None
        key_of, size = GROUP_KEYS[level.group_key]
        keys = key_of(slots).tolist()
        assert 0 <= min(keys) and max(keys) < size, level.name
        results = [level.from_deal(*hands(row)) for row in slots.tolist()]
        assert len(set(zip(keys, results))) == len(set(keys)) == len(set(results)), level.name


def test_every_catalogue_wager_is_simulated_and_agrees_with_its_exact_return() -> None:
    r = run("simulate", "-n", "40000", "--seed", "2", "-f", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["skipped"] == []
    got = {(w["wager"], w["paytable"]) for w in doc["wagers"]}
    assert got == {(w.id, t.id) for w in CATALOGUE.values() for t in w.paytables}
    levels = {w["level"] for w in doc["wagers"]}
    assert {"coup", "deal-faces", "opening-player-faces", "opening-rank-pattern", "opening-nines",
            "royal-9-opening", "spanish21-match"} <= levels
    for item in doc["wagers"]:
        exact = analyze(item["wager"], item["paytable"], Shoe.standard(8))
        check_estimate(item, exact)
        assert abs(item["z"]) < 5, item["wager"]


def test_the_shoe_and_removals_are_simulated() -> None:
    """Three nines removed: the simulation agrees with the depleted shoe's exact returns and is far
    from the full shoe's (so the test would catch a simulator that ignored --remove)."""
    r = run("simulate", "-n", "100000", "--seed", "4", "-d", "1", "-r", "3*9", "-w", "lucky-nines", "-w", "banker",
            "-f", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    shoe = resolve_shoe(1, None, "3*9")
    assert sum(shoe.rank_counts()) == 49
    assert doc["shoe"] == shoe.to_json()
    for item in doc["wagers"]:
        check_estimate(item, analyze(item["wager"], item["paytable"], shoe))
        assert abs(item["z"]) < 5
    nines = next(i for i in doc["wagers"] if i["wager"] == "lucky-nines")
    full = analyze("lucky-nines", nines["paytable"], Shoe.standard(1)).return_
    assert abs(Fraction(nines["observed_return"]) - full) > 10 * nines["standard_error"]


def test_shoe_mode_compares_the_comparable_rounds() -> None:
    r = run("simulate", "-n", "30000", "-m", "shoe", "--seed", "8", "-w", "perfect-pairs-player", "-w", "house-money",
            "-w", "match-the-dealer", "-f", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    for item in doc["wagers"]:
        assert abs(item["z"]) < 5
        if item["level"] != "spanish21-match":
            assert item["rounds"] == doc["comparable_rounds"] and item["all_rounds"]["rounds"] == 30000


def test_simulated_pairs_cover_every_wager() -> None:
    pairs, skipped = simulated_pairs(None, Shoe.standard(8))
    assert skipped == [] and len(pairs) == sum(len(w.paytables) for w in CATALOGUE.values())


def test_estimate_of_a_known_sample() -> None:
    e = estimate_return({"w": 1, "l": 3}, {"w": Fraction(2), "l": Fraction(-1)}, Fraction(-1, 4), Fraction(3, 2))
    assert e is not None and e.observed == Fraction(-1, 4) and e.z == 0.0
    assert e.se_squared == Fraction(9, 16)  # s² = (3·... )/3: values 2,-1,-1,-1, mean -1/4, Σ(x-m)² = 27/4


# -- study: one line for absurd or unreachable inputs ----------------------------------------------------
@pytest.mark.parametrize("args", [
    ["--strategy", "count", "--trigger-tc", "1e100000000"],
    ["--strategy", "count", "--trigger-tc", "1e-100000000"],
    ["--strategy", "count", "--trigger-rc", "1e100000000"],
    ["--strategy", "count", "--trigger-tc", "9" * 5000],
    ["--workers", "256"],
    ["--scheduler", "tls://127.0.0.1:8786"],
])
def test_study_absurd_inputs_are_one_line(args: list[str]) -> None:
    one_error_line(run("study", "banker", "-n", "2", "--seed", "1", *args))


@pytest.fixture()
def listener() -> Iterator[tuple[socket.socket, list[socket.socket]]]:
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    accepted: list[socket.socket] = []
    yield srv, accepted
    for c in accepted:
        c.close()
    srv.close()


def _serve(srv: socket.socket, accepted: list[socket.socket], banner: bytes | None) -> None:
    def loop() -> None:
        try:
            conn, _ = srv.accept()
        except OSError:
            return
        accepted.append(conn)
        if banner is not None:
            conn.sendall(banner)

    threading.Thread(target=loop, daemon=True).start()


@pytest.mark.parametrize("banner", [None, b"SSH-2.0-OpenSSH_9.6\r\n", b"HTTP/1.1 400 Bad Request\r\n\r\n"])
def test_a_scheduler_that_is_not_dask_is_one_line(banner: bytes | None, listener: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import exactodds.study.run as study

    srv, accepted = listener
    _serve(srv, accepted, banner)
    monkeypatch.setattr(study, "CONNECT_SECONDS", 1)
    port = srv.getsockname()[1]
    err = one_error_line(run("study", "banker", "-n", "2", "--seed", "1", "--scheduler", f"tcp://127.0.0.1:{port}"))
    assert ("no answer" in err) if banner is None else ("not a Dask scheduler" in err)


def test_a_closed_port_is_one_line() -> None:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    err = one_error_line(run("study", "banker", "-n", "2", "--seed", "1", "--scheduler", f"tcp://127.0.0.1:{port}"))
    assert "cannot connect" in err


def test_study_probe_refuses_before_dask() -> None:
    from exactodds.study import probe_scheduler

    with pytest.raises(InputError, match="tls"):
        probe_scheduler("tls://127.0.0.1:1")
