"""The counting study: dealt compositions, exact per-round returns, strategies, partitions, CLI.

Every figure is checked against an independent computation: a card-by-card dealer
written here from § 629a.5 / § 629a.9(d) (not the simulator's vectorised one), the
per-composition reference :func:`~exactodds.figures.analysis.analyze`, each wager's own
``settle``, and Fractions summed round by round.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import slow
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import get_wager
from exactodds.cli.app import app
from exactodds.errors import InputError
from exactodds.figures.analysis import analyze
from exactodds.figures.eor import exact_net
from exactodds.game.cards import FACES, RANKS, Card, Shoe
from exactodds.game.rules import next_hand
from exactodds.inputs import parse_number
from exactodds.study import (
    LIMB,
    TC_GRID,
    _join,
    _split,
    build_spec,
    check_scheduler,
    deal_chunk,
    parse_tags,
    parse_trigger,
    run_study,
    running_counts,
    study_chunk,
    study_json,
)

runner = CliRunner()

BURN = {r: (10 if r in ("10", "J", "Q", "K") else 1 if r == "A" else int(r)) for r in RANKS}


@dataclass
class SlowRound:
    composition: Shoe
    player: list[Card]
    banker: list[Card]
    running_count: int


def slow_shoe(deck: Sequence[Card], cover: int, tags: Sequence[int], initial: int) -> list[SlowRound]:
    """Deal one shoe card by card from the regulation text, independently of the study:
    the first card exposed (and counted) and burned with as many more as its value, tens
    and faces as ten (§ 629a.5(f)); the cover card above the last ``cover`` cards
    (§ 629a.5(d)); one more round after the round it comes out in (§ 629a.9(d))."""
    tag = dict(zip(RANKS, tags))
    burn = 1 + BURN[deck[0].rank]
    remaining = Counter(deck[burn:])
    rc = initial + tag[deck[0].rank]
    pos, cover_at, last = burn, len(deck) - cover, False
    out = []
    while True:
        comp = Shoe.from_counts(remaining)
        player: list[Card] = []
        banker: list[Card] = []
        appeared = False
        while (hand := next_hand([c.value for c in player], [c.value for c in banker])) is not None:
            if pos == cover_at:
                appeared = True
            card = deck[pos]
            pos += 1
            remaining[card] -= 1
            (player if hand == "player" else banker).append(card)
        out.append(SlowRound(comp, player, banker, rc))
        rc += sum(tag[c.rank] for c in player + banker)
        if last:
            return out
        last = appeared


def slow_deck(seed: int, i: int, decks: int) -> list[Card]:
    """Shoe ``i`` of ``seed``: the documented rule, default_rng([seed, i]).permutation."""
    faces = np.repeat(np.arange(52, dtype=np.uint8), decks)
    return [FACES[f] for f in np.random.default_rng([seed, i]).permutation(faces)]


def slow_study(seed: int, shoes: int, decks: int, cover: int, tags: Sequence[int], initial: int) -> list[list[SlowRound]]:
    return [slow_shoe(slow_deck(seed, i, decks), cover, tags, initial) for i in range(shoes)]


def exact_round_net(wager: str, paytable: str, r: SlowRound) -> Fraction:
    """The round's actual net result by the wager's own settle on its level's reading."""
    w = get_wager(wager)
    t = w.paytable(paytable)
    name = w.settle(t, w.level.from_deal(r.player, r.banker))
    return exact_net(t.pays.get(name) or w.otherwise_pay(t), t)


def no_timing(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in ("seconds", "compositions_per_second")}


# -- dealing ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("decks,cover,seed", [(8, 14, 5), (1, 14, 9), (6, 40, 11)])
def test_compositions_and_counts_match_a_card_by_card_dealer(decks: int, cover: int, seed: int) -> None:
    tags = (1, 2, 2, 3, 2, 2, 1, 0, -1, -2, -2, -2, -2)
    d = deal_chunk(Shoe.standard(decks).counts, seed, cover, 3, 9)
    rc = running_counts(d, tags, 7)
    for local in range(6):
        slow = slow_shoe(slow_deck(seed, 3 + local, decks), cover, tags, 7)
        rows = np.flatnonzero(d.shoe == local)
        assert len(rows) == len(slow)
        for row, r in zip(rows, slow):
            assert tuple(d.composition[row].tolist()) == r.composition.counts
            assert int(rc[row]) == r.running_count
            dealt = [FACES[f] for f in d.faces[row][:len(r.player) + len(r.banker)]]
            assert sorted(map(str, dealt)) == sorted(map(str, r.player + r.banker))


def test_the_composition_is_the_deck_below_the_round() -> None:
    d = deal_chunk(Shoe.standard(8).counts, 1, 14, 0, 20)
    for row in range(0, len(d.code), 7):
        s, p = int(d.shoe[row]), int(d.position[row])
        left = np.bincount(d.deck[s, p:], minlength=52)
        assert left.tolist() == d.composition[row].tolist()
        assert d.deck[s, p:p + 6].tolist() == d.faces[row].tolist()


# -- exact per-round returns ---------------------------------------------------------------------------
@pytest.mark.parametrize("wagers", [
    ["banker", "dragon-7", "tie:9to1"],                                     # coup
    ["perfect-pairs-player:A", "lucky-nines:A", "house-money", "royal-9:1usd"],  # openings
    ["harmony:A", "heavenly-9-progressive"],                               # deal-faces (meters at resets)
])
def test_trace_returns_equal_analyze_on_the_same_compositions(wagers: list[str], tmp_path: Path) -> None:
    trace = tmp_path / "rounds.csv"
    shoes = 1 if "harmony:A" in wagers else 2
    run_study(wagers, shoes=shoes, seed=21, tags="A=1", trace=str(trace))
    rows = list(csv.reader(io.StringIO(trace.read_text())))
    header, body = rows[0], rows[1:]
    assert header[:16] == ["shoe", "round", "cards_left", "A", "2", "3", "4", "5", "6", "7", "8", "9",
                           "T", "J", "Q", "K"]
    slow = slow_study(21, shoes, 8, 14, [0] * 13, 0)
    assert len(body) == sum(len(s) for s in slow)
    rng = np.random.default_rng(0)
    sample = sorted(rng.choice(len(body), size=min(12, len(body)), replace=False).tolist()) + [len(body) - 1]
    for i in sample:
        row = body[i]
        r = slow[int(row[0])][int(row[1])]
        assert [int(x) for x in row[2:16]] == [r.composition.size, *r.composition.rank_counts()]
        for col, spec in zip(row[16:16 + len(wagers)], header[16:16 + len(wagers)]):
            wager, paytable = spec.split(":")
            assert Fraction(col) == analyze(wager, paytable, r.composition).return_, (spec, i)


def test_trace_carries_running_and_true_count(tmp_path: Path) -> None:
    """The trace's running count (the wager's tags over the cards seen, burn card included)
    and true count (× 52 / cards left) equal a card-by-card dealer's."""
    tags = (1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, -1)
    text = ",".join(f"{r}={t}" for r, t in zip(RANKS, tags))
    trace = tmp_path / "t.csv"
    run_study(["tie"], shoes=2, seed=5, tags=text, trace=str(trace))
    rows = list(csv.DictReader(io.StringIO(trace.read_text())))
    slow = [r for shoe in slow_study(5, 2, 8, 14, tags, 0) for r in shoe]
    assert len(rows) == len(slow)
    for row, r in zip(rows, slow):
        tc = Fraction(52 * r.running_count, r.composition.size)
        assert int(row["rc:tie:8to1"]) == r.running_count
        assert Fraction(row["tc:tie:8to1"]) == tc
        assert float(row["tc_decimal:tie:8to1"]) == pytest.approx(float(tc), abs=5e-7)
        exact = Fraction(row["tie:8to1"])  # issue 25: the return has its decimal beside it too
        assert abs(Fraction(row["return_decimal:tie:8to1"]) - exact) <= abs(exact) / 10**14


def test_returns_past_the_int64_bound_are_exact(tmp_path: Path) -> None:
    """27 decks: counts fit int64 but numerator × 8 does not: the Python-int path."""
    trace = tmp_path / "t.csv"
    run_study(["tie"], shoes=1, seed=4, shoe=Shoe.standard(27), tags="A=1", trace=str(trace))
    body = list(csv.reader(io.StringIO(trace.read_text())))[1:]
    slow = slow_study(4, 1, 27, 14, [0] * 13, 0)[0]
    for i in (0, len(body) // 2, len(body) - 1):
        assert Fraction(body[i][16]) == analyze("tie", "8to1", slow[i].composition).return_


@given(st.lists(st.integers(-2**200, 2**200), min_size=1, max_size=20))
def test_limbs_join_back_exactly(values: list[int]) -> None:
    limbs = max(3, -(-(max(abs(v) for v in values).bit_length() + 2) // LIMB))
    parts = _split(np.array(values, dtype=object), limbs)
    assert _join(parts).tolist() == values
    assert _join(parts.sum(axis=0)) == sum(values)     # limb sums add without carries


@given(st.lists(st.integers(-(2**63) + 1, 2**63 - 1), min_size=1, max_size=20))
def test_int64_limbs_join_back_exactly(values: list[int]) -> None:
    assert _join(_split(np.array(values, dtype=np.int64), 3)).tolist() == values


# -- strategies against round-by-round Fractions -------------------------------------------------------
def brute_force(wager: str, paytable: str, slow: list[list[SlowRound]]) -> list[list[tuple[Fraction, Fraction, Fraction]]]:
    """(exact return, true count, actual net) of every round, shoe by shoe."""
    return [[(analyze(wager, paytable, r.composition).return_, Fraction(52 * r.running_count, r.composition.size),
              exact_round_net(wager, paytable, r)) for r in shoe] for shoe in slow]


def t_interval(values: list[Fraction]) -> tuple[float, float]:
    from scipy import stats

    x = np.array([float(v) for v in values])
    half = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x))
    return x.mean() - half, x.mean() + half


@pytest.mark.parametrize("wager,paytable,trigger", [("dragon-7", "40to1", Fraction(3, 2)),
                                                    ("tie", "8to1", None)])
def test_strategy_figures_equal_round_by_round_fractions(wager: str, paytable: str, trigger: Fraction | None) -> None:
    shoes, seed = 4, 77
    tags = (0, -1, -1, -2, -2, -2, -3, 4, 3, 1, 1, 1, 1)
    text = ",".join(f"{r}={t}" for r, t in zip(RANKS, tags))
    result = run_study([f"{wager}:{paytable}"], shoes=shoes, seed=seed, strategy="count", tags=text,
                       trigger_tc=None if trigger is None else str(trigger), chunk_shoes=3)
    data = brute_force(wager, paytable, slow_study(seed, shoes, 8, 14, tags, 0))
    w = result.wagers[0]
    flat = [x for shoe in data for x in shoe]
    assert w.rounds == result.rounds == len(flat)
    assert w.positive_rounds == sum(1 for r, _, _ in flat if r > 0)
    assert w.mean_return == sum(r for r, _, _ in flat) / len(flat)

    def figures(bet: Any) -> tuple[int, Fraction, Fraction, list[Fraction]]:
        per_shoe = [sum((n for r, tc, n in shoe if bet(r, tc)), Fraction(0)) for shoe in data]
        return (sum(1 for r, tc, _ in flat if bet(r, tc)), sum((r for r, tc, _ in flat if bet(r, tc)), Fraction(0)),
                sum(per_shoe, Fraction(0)), per_shoe)

    perfect, count = w.strategies
    bets, expected, realized, per_shoe = figures(lambda r, tc: r > 0)
    assert (perfect.bets, perfect.expected_win, perfect.realized_win) == (bets, expected, realized)
    assert perfect.expected_win_per_shoe == expected / shoes
    assert perfect.realized_interval is not None
    assert (perfect.realized_interval.low, perfect.realized_interval.high) == pytest.approx(t_interval(per_shoe))
    # the industry figures (docs/study.md) from the same round-by-round fractions
    mean = sum(per_shoe, Fraction(0)) / shoes
    var = sum(((x - mean) ** 2 for x in per_shoe), Fraction(0)) / (shoes - 1)
    assert perfect.realized_shoe_variance == var
    assert perfect.win_per_100_rounds == 100 * expected / len(flat)
    if var == 0:  # never bet (or the same result every shoe): no spread, no index
        assert perfect.desirability_index is None and perfect.score is None
    else:
        di = 1000 * float(expected / len(flat)) / math.sqrt(float(var) / (len(flat) / shoes))
        assert perfect.desirability_index == pytest.approx(di, rel=1e-12)
        assert perfect.score == pytest.approx(max(di, 0) ** 2, rel=1e-12)
    if trigger is None:   # the scan: the best true-count trigger among those that bet
        scores = {t: figures(lambda r, tc, t=t: tc >= t) for t in TC_GRID}
        betting = [t for t in TC_GRID if scores[t][0]]
        best = max(betting, key=lambda t: (scores[t][1], t))
        assert count.trigger == {"kind": "tc", "value": f"{best.numerator}/{best.denominator}",
                                 "scanned": True, "at_edge": best in (TC_GRID[0], TC_GRID[-1])}
        trigger = best
    bets, expected, realized, per_shoe = figures(lambda r, tc: tc >= trigger)
    assert (count.bets, count.expected_win, count.realized_win) == (bets, expected, realized)
    assert count.average_advantage == (expected / bets if bets else None)
    for b in w.buckets:
        inside = [r for r, tc, _ in flat if (b.low == -10 and tc < -9) or (b.low == 10 and tc >= 10)
                  or (-10 < b.low < 10 and b.low <= tc < b.low + 1)]
        assert b.rounds == len(inside)
        assert b.mean_return == (sum(inside, Fraction(0)) / len(inside) if inside else None)


def test_running_count_trigger_and_initial_count() -> None:
    tags = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1)     # unbalanced: an initial count
    text = ",".join(f"{r}={t}" for r, t in zip(RANKS, tags))
    result = run_study(["panda-8"], shoes=3, seed=8, strategy="count", tags=text, initial_count=-4, trigger_rc=2)
    slow = slow_study(8, 3, 8, 14, tags, -4)
    data = brute_force("panda-8", "25to1", slow)
    bet = [r for shoe, rounds in zip(data, slow) for (r, _, _), sr in zip(shoe, rounds) if sr.running_count >= 2]
    count = result.wagers[0].strategies[1]
    assert count.trigger is not None and count.trigger["kind"] == "rc" and not count.trigger["scanned"]
    assert count.bets == len(bet) and count.expected_win == sum(bet, Fraction(0))


def test_a_true_count_exactly_on_the_trigger_bets() -> None:
    """TC = 52·RC/N compared as integers: a round whose true count equals the trigger bets."""
    tags = (1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, -1)
    text = ",".join(f"{r}={t}" for r, t in zip(RANKS, tags))
    slow = slow_study(3, 1, 8, 14, tags, 0)[0]
    tcs = [Fraction(52 * r.running_count, r.composition.size) for r in slow]
    trigger = sorted(t for t in tcs if t.denominator > 1)[len(tcs) // 3]
    result = run_study(["player"], shoes=1, seed=3, strategy="count", tags=text, trigger_tc=str(trigger))
    assert result.wagers[0].strategies[1].bets == sum(1 for t in tcs if t >= trigger)
    assert sum(1 for t in tcs if t >= trigger) > sum(1 for t in tcs if t > trigger)


# -- the same result whatever the partition --------------------------------------------------------------
COUNT_ARGS: dict[str, Any] = {"wagers": ["dragon-7", "perfect-pairs-player:A"], "shoes": 9, "seed": 2024,
                               "strategy": "count", "tags": "eor"}


def test_chunking_does_not_change_the_result() -> None:
    a = run_study(**COUNT_ARGS, chunk_shoes=9)
    b = run_study(**COUNT_ARGS, chunk_shoes=2)
    assert no_timing(study_json(a)) == no_timing(study_json(b))


@slow("5 s of CPU (a Dask cluster started)")
def test_local_workers_and_a_dask_cluster_give_identical_results(tmp_path: Path) -> None:
    local = no_timing(study_json(run_study(**COUNT_ARGS, chunk_shoes=4)))
    pooled = no_timing(study_json(run_study(**COUNT_ARGS, chunk_shoes=2, workers=2)))
    assert pooled == local
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        clustered = no_timing(study_json(run_study(**COUNT_ARGS, chunk_shoes=3, scheduler=cluster.scheduler_address)))
        out = tmp_path / "cluster.json"
        r = runner.invoke(app, ["study", "dragon-7", "perfect-pairs-player:A", "--shoes", "9", "--seed", "2024",
                                "--strategy", "count", "--tags", "eor", "--scheduler", cluster.scheduler_address,
                                "--format", "json", "--output", str(out)])
        assert r.exit_code == 0, r.output
    assert clustered == local
    from exactodds.report.views import json_with_decimals

    assert no_timing(json.loads(out.read_text())) == json_with_decimals(local)  # output: a decimal beside each p/q


def test_cli_workers_2_reproduces_the_local_run() -> None:
    args = ["study", "tie", "--shoes", "5", "--seed", "31", "--strategy", "count", "--trigger-tc", "1.5",
            "--format", "json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--workers", "2", "--chunk-shoes", "2"])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert no_timing(json.loads(one.stdout)) == no_timing(json.loads(two.stdout))


def test_chunk_aggregates_do_not_grow_with_the_study() -> None:
    spec = build_spec(["banker"], 10**8, 1, Shoe.standard(8), tags="A=1,K=-1", strategy="count")
    assert spec.thresholds is not None and spec.thresholds.values == TC_GRID   # balanced: true counts
    part = study_chunk(spec, 123_456).wagers[0].families["count"]
    assert len(part.count) == len(TC_GRID) + 1
    assert part.exp_index.max() < (416 + 1) * (len(TC_GRID) + 1)
    unbalanced = build_spec(["banker"], 10, 1, Shoe.standard(8), tags="A=1", strategy="count", initial_count=-3)
    assert unbalanced.thresholds is not None and unbalanced.thresholds.kind == "rc"
    assert [int(v) for v in unbalanced.thresholds.values] == list(range(-3, 32 - 3 + 1))


# -- command line ---------------------------------------------------------------------------------------
def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_cli_formats() -> None:
    base = ["study", "dragon-7", "--shoes", "2", "--seed", "1"]
    table = run(*base)
    assert table.exit_code == 0 and "perfect" in table.stdout and "dragon-7:40to1" in table.stdout
    doc = json.loads(run(*base, "--format", "json").stdout)
    s = doc["wagers"][0]["strategies"][0]
    for key in ("rounds", "bets", "bets_per_shoe", "expected_win_per_shoe", "realized_win_per_shoe",
                "realized_win_per_shoe_interval", "average_advantage"):
        assert key in s
    assert Fraction(s["expected_win_per_shoe"]) == Fraction(s["expected_win_per_shoe"])
    rows = list(csv.DictReader(io.StringIO(run(*base, "--format", "csv").stdout)))
    assert rows[0]["wager"] == "dragon-7" and Fraction(rows[0]["expected_win_per_shoe"]) == \
        Fraction(s["expected_win_per_shoe"])
    assert run(*base, "--format", "markdown").stdout.startswith("## Counting study")


@pytest.mark.parametrize("args,needle", [
    (["dragn-7"], "unknown wager"),
    (["tie:nope"], "paytable 'nope'"),
    (["match-the-dealer"], "not a baccarat wager"),
    (["tie", "tie:8to1"], "named twice"),
    (["tie", "--shoes", "0"], "--shoes"),
    (["tie", "--shoes", "-5"], "--shoes"),
    (["tie", "--shoes", "100000000000000000000000"], "--shoes"),
    (["tie", "--seed", "-1"], "--seed"),
    (["tie", "--decks", "40"], "at most 27 decks"),
    (["tie", "--cover", "3"], "--cover"),
    (["tie", "--tags", "A=1,Z=2"], "unknown rank 'Z'"),
    (["tie", "--tags", "A=one"], "whole number"),
    (["tie", "--tags", "A"], "RANK=TAG"),
    (["tie", "--tags", "A=1,a=2"], "twice"),
    (["tie", "--tags", "A=1000"], "between"),
    (["tie", "--strategy", "count", "--trigger-rc", "1", "--trigger-tc", "2"], "not both"),
    (["tie", "--trigger-tc", "2"], "apply to --strategy count"),
    (["tie", "--strategy", "count", "--trigger-tc", "1e400"], "--trigger-tc"),
    (["tie", "--strategy", "count", "--trigger-tc", "x"], "--trigger-tc"),
    (["tie", "--strategy", "count", "--trigger-rc", "1.5"], "whole number"),
    (["tie", "--initial-count", "99999999999"], "--initial-count"),
    (["tie", "--workers", "0"], "--workers"),
    (["tie", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"], "not both"),
    (["tie", "--scheduler", "localhost"], "--scheduler"),
    (["tie", "--plot", "x.gif"], ".png, .svg or .pdf"),
    (["tie", "--plot", "x"], ".png, .svg or .pdf"),
    (["tie", "--strategy", "sometimes"], "--strategy"),
    (["tie", "--chunk-shoes", "0"], "chunk size"),
])
def test_bad_input_is_one_line_exit_2(args: list[str], needle: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    full = ["study", *args]
    if "--shoes" not in args:
        full += ["--shoes", "2"]
    if "--seed" not in args:
        full += ["--seed", "1"]
    monkeypatch.chdir(tmp_path)
    r = run(*full)
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error:") and needle in lines[0], lines
    assert list(tmp_path.iterdir()) == []


def test_unwritable_trace_and_shared_names_leave_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "trace.csv"
    r = run("study", "tie", "--shoes", "2", "--seed", "1", "--trace", str(missing))
    assert r.exit_code == 2 and "does not exist" in r.stderr and r.stdout == ""
    same = tmp_path / "a.csv"
    r = run("study", "tie", "--shoes", "2", "--seed", "1", "--trace", str(same), "--output", str(same))
    assert r.exit_code == 2 and "same file" in r.stderr
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target in (blocker / "t.csv", tmp_path):                 # a folder that is a file; a folder
        r = run("study", "tie", "--shoes", "2", "--seed", "1", "--trace", str(target))
        assert r.exit_code == 2 and r.stderr.startswith("exactodds: error:") and r.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"] and blocker.read_text() == "x"


def test_trace_into_a_fifo_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    r = run("study", "tie", "--shoes", "1", "--seed", "1", "--trace", str(fifo))
    reader.join(timeout=60)
    assert r.exit_code == 0, r.output
    assert fifo.is_fifo() and got and got[0].startswith("shoe,round,cards_left,A,")
    assert len(got[0].splitlines()) == 1 + json.loads(
        run("study", "tie", "--shoes", "1", "--seed", "1", "--format", "json").stdout)["study"]["rounds"]


@pytest.mark.parametrize("name,magic", [("p.svg", b"<?xml"), ("p.png", b"\x89PNG")])
def test_plot_is_written(name: str, magic: bytes, tmp_path: Path) -> None:
    out = tmp_path / name
    r = run("study", "dragon-7", "tie", "--shoes", "2", "--seed", "1", "--plot", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_matplotlib_and_dask_load_only_when_asked() -> None:
    code = ("import sys; from exactodds.study import run_study; "
            "run_study(['tie'], shoes=1, seed=1, tags='A=1'); "
            "print(any(m.startswith(('matplotlib', 'dask', 'distributed')) for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- parsing ---------------------------------------------------------------------------------------------
@settings(max_examples=200)
@given(st.text(max_size=30))
def test_tags_parse_or_fail_with_an_input_error(text: str) -> None:
    try:
        tags = parse_tags(text)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert len(tags) == 13 and all(isinstance(t, int) for t in tags)


@settings(max_examples=200)
@given(st.text(max_size=20))
def test_triggers_parse_or_fail_with_an_input_error(text: str) -> None:
    try:
        value = parse_trigger(text, "--trigger-tc")
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert value == parse_number(text, "x") and abs(value) <= 10**6


def test_scheduler_addresses() -> None:
    check_scheduler("tcp://127.0.0.1:8786")
    for bad in ("tls://[::1]:8786", "tcp://host", "http://h:1", "tcp://h:0", "tcp://h:99999", "tcp:// h:1", "tcp://:80"):
        with pytest.raises(InputError):
            check_scheduler(bad)


def test_bench_study_reports_rates() -> None:
    from exactodds.study import bench_study

    figures = bench_study(shoes=4, workers=1, other_shoes=1)
    start_up = figures.pop("core_worker_start_up_cpu_seconds")
    assert all(v > 0 for v in figures.values())
    # one worker, this process, warmed first: no start-up left
    assert start_up == 0
    assert figures["core_100k_shoes_minutes"] == pytest.approx(figures["core_seconds"] * 100_000 / 4 / 60)
    assert figures["core_1m_shoes_minutes_extrapolated"] == pytest.approx(10 * figures["core_100k_shoes_minutes"])
    assert figures["core_100k_shoes_worker_cpu_minutes_per_core"] == pytest.approx(
        figures["core_worker_cpu_seconds"] * 100_000 / 4 / 60)


def test_a_trace_that_cannot_be_finished_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while the trace streams (io.files' raw write fails): one input error,
    and neither the trace nor its temporary is left."""
    import exactodds.io.files as files

    def full(self: object, data: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files._Raw, "write", full)
    with pytest.raises(InputError, match="(?i)no space left"):
        run_study(["dragon-7"], shoes=2, seed=1, tags="A=1", trace=str(tmp_path / "t.csv"))
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_starts_without_the_study_libraries() -> None:
    code = ("import sys; import exactodds.cli.app; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'scipy', 'matplotlib', 'dask', 'distributed'}) "
            "+ [m for m in sys.modules if m == 'exactodds.study'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.integers(0, 2**32 - 1))
def test_cards_before_each_round_and_composition_by_plain_sums(rounds: list[int], seed: int) -> None:
    """The composition before each round (dealing stage), against the definition summed
    round by round: the cards removed by the same shoe's earlier rounds, and the shoe less
    its burn less those."""
    from exactodds.study.dealing import _before_and_left

    rng = np.random.default_rng(seed)
    shoe = np.repeat(np.arange(len(rounds)), rounds)
    removed = rng.integers(0, 3, (len(shoe), 52))
    left = rng.integers(20, 60, (len(rounds), 52))
    before, composition = _before_and_left(removed, shoe, left)
    for r in range(len(shoe)):
        earlier = [removed[x] for x in range(r) if shoe[x] == shoe[r]]
        expected = [sum(int(e[f]) for e in earlier) for f in range(52)]
        assert before[r].tolist() == expected
        assert composition[r].tolist() == [int(left[shoe[r], f]) - expected[f] for f in range(52)]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.integers(14, 26), st.integers(0, 2**32 - 1), st.integers(0, 1000))
def test_compiled_dealing_bookkeeping_equals_the_numpy_path(decks: int, cover: int, seed: int, first: int) -> None:
    """The compiled per-round bookkeeping (study/kernel.py) gives the numpy path's
    positions, cards dealt before and compositions, array for array; and the composition is
    the deck below the round's first card (the definition)."""
    pytest.importorskip("numba")
    counts = Shoe.standard(decks).counts
    fast = deal_chunk(counts, seed, cover, first, first + 3, compiled=True)
    slow = deal_chunk(counts, seed, cover, first, first + 3, compiled=False)
    for name in ("position", "dealt_before", "composition"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.dtype == b.dtype == np.int64 and a.tolist() == b.tolist()
    for row in range(len(fast.code)):
        s, p = int(fast.shoe[row]), int(fast.position[row])
        assert np.bincount(fast.deck[s, p:], minlength=52).tolist() == fast.composition[row].tolist()
        assert fast.cards_left[row] == fast.composition[row].sum()
        burn = int(fast.burn[s])
        assert np.bincount(fast.deck[s, burn:p], minlength=52).tolist() == fast.dealt_before[row].tolist()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(-2**40, 2**40), st.integers(-2**40, 2**40)),
                min_size=1, max_size=60), st.booleans())
def test_group_sums_compiled_and_sorted_equal_plain_sums(rows: list[tuple[int, int, int]], flat: bool) -> None:
    """:func:`group_sum` by the compiled one-pass kernel and by the sort, against Python sums per key."""
    pytest.importorskip("numba")
    from exactodds.study.pricing import group_sum

    keys = np.array([r[0] for r in rows], np.int64)
    values = np.array([r[1] for r in rows] if flat else [r[1:] for r in rows], np.int64)
    expected: dict[int, list[int]] = {}
    for k, *v in rows:
        got = expected.setdefault(k, [0, 0])
        got[0] += v[0]
        got[1] += v[1]
    for compiled in (True, False):
        k, s = group_sum(keys, values, compiled)
        assert k.tolist() == sorted(expected)
        assert s.tolist() == [expected[x][0] if flat else expected[x] for x in sorted(expected)]


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 8), st.lists(st.integers(14, 30), min_size=1, max_size=4), st.integers(0, 2**32 - 1),
       st.booleans())
def test_compiled_dealer_equals_the_simulators_numpy_dealer(decks: int, covers: list[int], seed: int,
                                                            keep: bool) -> None:
    """The compiled dealer (simulation/deal_kernel.py) deals every shoe as the simulator's numpy
    dealer does (§ 629a.5(f) burn, § 629a.9(d) cover card): shoes, rounds, coup codes and faces
    equal, dtypes too, with one cover or one per shoe."""
    pytest.importorskip("numba")
    from exactodds.simulation.simulate import code_table, deal_shoes
    from exactodds.study.dealing import shuffled_shoes

    deck = shuffled_shoes(Shoe.standard(decks).counts, seed, 0, len(covers))
    for cover in (covers[0], np.array(covers, np.int64)):
        fast = deal_shoes(deck, cover, code_table(), keep, compiled=True)
        slow = deal_shoes(deck, cover, code_table(), keep, compiled=False)
        for a, b in zip(fast, slow):
            assert (a is None and b is None) or (a is not None and b is not None and a.dtype == b.dtype
                                                 and a.tolist() == b.tolist())


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 52), min_size=52, max_size=52), st.one_of(st.integers(0, 2**32 - 1),
       st.integers(0, 2**200)), st.one_of(st.integers(0, 10**6), st.integers(2**32 - 3, 2**40)),
       st.integers(1, 4))
def test_compiled_shuffle_equals_numpys_generators(counts: list[int], seed: int, first: int, shoes: int) -> None:
    """The compiled shuffle (study/kernel.py) deals the very shoes numpy's
    ``default_rng([seed, i]).shuffle`` deals, for any shoe (empty and one-card ones too), seeds of
    one to seven 32-bit words and shoe numbers of one and two words -- and without the numpy
    check inside :func:`shuffled_shoes`, which would hide a difference."""
    pytest.importorskip("numba")
    from exactodds.study.kernel import shuffled

    faces = np.repeat(np.arange(52, dtype=np.uint8), counts)
    got = shuffled(faces, seed, first, first + shoes)
    for row, i in zip(got, range(first, first + shoes)):
        expected = faces.copy()
        np.random.default_rng([seed, i]).shuffle(expected)
        assert row.tolist() == expected.tolist()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(14, 420), st.integers(0, 5),
                          st.integers(-2**30, 2**30), st.integers(-2**40, 2**40), st.integers(0, 2**24 - 1)),
                min_size=1, max_size=80), st.booleans())
def test_family_aggregates_in_one_compiled_pass_equal_plain_sums(rows: list[tuple[int, int, int, int, int, int]],
                                                                  with_shoe: bool) -> None:
    """One family's aggregates (study/pricing._family) by the compiled one-pass kernel
    and by the numpy path, both against plain Python sums: rounds per bin, limb sums per
    (cards left, bin), and per threshold candidate Σ and Σ² over shoes of the wins in bins above it."""
    pytest.importorskip("numba")
    from exactodds.study.pricing import _family

    k, shoes = 5, 6
    bins = np.array([r[0] for r in rows], np.intp)
    cards = np.array([r[1] for r in rows], np.int64)
    shoe = np.array([r[2] for r in rows], np.int64)
    net = np.array([r[3] for r in rows], np.int64)
    fixed = np.array([r[4] for r in rows], np.int64)
    limbs = np.array([[r[5], r[5] // 3, -r[5]] for r in rows], np.int64)
    count = [sum(1 for r in rows if r[0] == b) for b in range(k)]
    exp: dict[int, list[int]] = {}
    for (b, c, *_), limb in zip(rows, limbs.tolist()):
        got = exp.setdefault(c * k + b, [0, 0, 0])
        for j in range(3):
            got[j] += limb[j]

    def moments(col: int) -> tuple[list[int], list[int]]:
        x = [[sum(r[col] for r in rows if r[2] == s and r[0] > c) for s in range(shoes)] for c in range(k - 1)]
        return [sum(v) for v in x], [sum(v * v for v in xs) for xs in x]

    for compiled in (True, False):
        part = (_family(bins, k, cards, limbs, shoe, shoes, net, fixed, compiled) if with_shoe
                else _family(bins, k, cards, limbs, compiled=compiled))
        assert part.count.tolist() == count
        assert part.exp_index.tolist() == sorted(exp)
        assert part.exp_limbs.tolist() == [exp[key] for key in sorted(exp)]
        assert (part.realized, part.expected) == ((moments(3), moments(4)) if with_shoe else (None, None))


def test_every_levels_universe_is_the_falling_factorial_of_the_cards_left() -> None:
    """The study divides each round's numerator by ``ff(cards left, depth)``, the level's
    universe, in its exact sums and (as a float looked up by cards left) in the plot and the
    expected-win interval: every level's ``price_batch`` universe is that falling factorial."""
    from exactodds.engine.levels import LEVELS
    from exactodds.game.cards import falling_factorial

    d = deal_chunk(Shoe.standard(1).counts, 4, 14, 0, 1)
    comps = d.composition[::3]
    for level in LEVELS.values():
        priced = level.price_batch(comps)
        assert list(priced.universe) == [falling_factorial(int(n), level.depth) for n in comps.sum(axis=1)]


def test_per_process_plans_are_rebuilt_when_the_catalogue_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The settlements and joint classes a process keeps across chunks (pricing._plans) are
    the catalogue's own: reused while the wager is the same object, rebuilt when it is replaced
    (a wager file registered anew), read-only either way."""
    import copy

    from exactodds.catalogue import CATALOGUE
    from exactodds.study.pricing import _plans

    spec = build_spec(["tie", "dragon-7"], 2, 1, Shoe.standard(8), 14, "perfect", "A=0", 0, None, None, 2,
                      False, False)
    first = _plans(spec)
    assert _plans(spec) is first
    assert all(not a.flags.writeable for arrays in first[1].values() for a in arrays)
    monkeypatch.setitem(CATALOGUE, "tie", copy.copy(CATALOGUE["tie"]))
    again = _plans(spec)
    assert again is not first and again[0][0].wager is CATALOGUE["tie"]
    assert [p.scaled for p in again[0]] == [p.scaled for p in first[0]]
