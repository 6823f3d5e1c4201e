"""The simulator against independent references.

* the vectorised drawing table against :func:`exactodds.game.rules.next_hand`, exhaustively;
* the shoe-mode dealer against a slow card-by-card dealer written here from § 629a.5(f)
  and § 629a.9(d);
* fresh-mode frequencies on tiny shoes (where sampling with replacement, or a biased
  shuffle, would be far off) against the exact enumerator;
* reproducibility: the same seed gives the same counts whatever the number of worker processes.
"""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from exactodds.catalogue import get_wager
from exactodds.engine.levels import coup_distribution
from exactodds.errors import InputError
from exactodds.figures.analysis import analyze
from exactodds.game.cards import FACES, Card, Shoe
from exactodds.game.rules import Coup, next_hand, point_count
from exactodds.simulation.crosscheck import results_fit
from exactodds.simulation.simulate import (
    FRESH_BATCH,
    bench_simulate,
    code_table,
    coup_code,
    deal_shoes,
    decode,
    guaranteed_rounds,
    outcome_counts,
    play_values,
    simulate,
)


def reference_round(values: list[int]) -> tuple[Coup, int]:
    """Deal cards one by one as rules.next_hand says; the Coup and the cards used."""
    player: list[int] = []
    banker: list[int] = []
    it = iter(values)
    while (hand := next_hand(player, banker)) is not None:
        (player if hand == "player" else banker).append(next(it))
    return Coup(point_count(player), point_count(banker), len(player), len(banker)), len(player) + len(banker)


def test_code_table_matches_rules_exhaustively() -> None:
    # every (player 2-card count, banker 2-card count, card 5, card 6): 10,000 rounds
    rows = [(p2, b2, 0, 0, v5, v6) for p2 in range(10) for b2 in range(10) for v5 in range(10) for v6 in range(10)]
    # cards 1, 3 to the Player and 2, 4 to the Banker: put the counts on cards 1 and 2
    deals = [[p2, b2, 0, 0, v5, v6] for p2, b2, _, _, v5, v6 in rows]
    codes = play_values(np.array(deals, dtype=np.uint8).T, code_table())
    for deal, code in zip(deals, codes.tolist()):
        assert decode(code) == reference_round(deal)[0], deal


def test_coup_code_round_trips() -> None:
    for pt in range(10):
        for bt in range(10):
            for pc in (2, 3):
                for bc in (2, 3):
                    c = Coup(pt, bt, pc, bc)
                    assert decode(coup_code(c)) == c


BURN = {r: (10 if v == 0 else v) for r, v in (("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6),
                                             ("7", 7), ("8", 8), ("9", 9), ("10", 0), ("J", 0), ("Q", 0), ("K", 0))}


def slow_deal(deck: list[Card], cover: int) -> list[Coup]:
    """A card-by-card dealer written from the regulation text, independently of simulate.py."""
    pos = 1 + BURN[deck[0].rank]      # § 629a.5(f): expose the first card, burn its value (tens as ten)
    cover_at = len(deck) - cover      # § 629a.5(d): the cover card lies above the last `cover` cards
    rounds: list[Coup] = []
    last_hand = False
    while True:
        player: list[int] = []
        banker: list[int] = []
        cover_appeared = not rounds and pos > cover_at   # out with the burn: the first round is the one it starts
        while (hand := next_hand(player, banker)) is not None:
            if pos == cover_at:       # the cover card comes out before this card (§ 629a.9(d))
                cover_appeared = True
            (player if hand == "player" else banker).append(deck[pos].value)
            pos += 1
        rounds.append(Coup(point_count(player), point_count(banker), len(player), len(banker)))
        if last_hand:                 # "at the completion of one more hand" the shoe is done
            return rounds
        last_hand = cover_appeared    # the hand is completed, then "last hand"


@pytest.mark.parametrize("decks,cover", [(1, 14), (1, 20), (6, 14), (8, 30), (1, 41), (1, 45), (1, 52), (2, 100)])
def test_shoe_dealer_matches_slow_dealer(decks: int, cover: int) -> None:
    """The numpy and the compiled dealer deal as the card-by-card dealer, including a cover card
    placed within reach of the burn (the library takes any cover; the command line refuses
    those), where the first round is the one the cover card starts."""
    rng = np.random.default_rng(2024 + decks + cover)
    shoe = np.repeat(np.arange(52, dtype=np.uint8), decks)
    deck = np.stack([rng.permutation(shoe) for _ in range(40)])
    shoe_of, round_of, codes, _ = deal_shoes(deck, cover, code_table())
    if importlib.util.find_spec("numba") is not None:
        fast = deal_shoes(deck, cover, code_table(), compiled=True)
        assert [a.tolist() for a in fast[:3]] == [shoe_of.tolist(), round_of.tolist(), codes.tolist()]
    for s in range(deck.shape[0]):
        expected = slow_deal([FACES[i] for i in deck[s]], cover)
        got = codes[shoe_of == s].tolist()
        assert [decode(c) for c in got] == expected, s
        assert round_of[shoe_of == s].tolist() == list(range(len(expected)))
        assert len(expected) >= guaranteed_rounds(deck.shape[1], cover)


def test_guaranteed_rounds_is_attained_by_the_worst_shoe() -> None:
    # all ten-valued cards: the burn takes 11 and every round takes 6 (both hands draw on 0)
    deck = np.full((1, 416), 51, dtype=np.uint8)  # KC
    _, round_of, codes, _ = deal_shoes(deck, 14, code_table())
    assert round_of.size == guaranteed_rounds(416, 14) == 67
    assert {decode(c) for c in codes.tolist()} == {Coup(0, 0, 3, 3)}


def chi_square_p(sim_counts: dict[Coup, int], shoe: Shoe) -> float:
    return results_fit(sim_counts, shoe).chi_square.p_value


@pytest.mark.parametrize("cards", ["AS 2H 3D 4C 5S 6H 7D", "KS KH 9D 9C 8S 3H 2D 6C 5S AS", "AS 2S 3S 4S 5S 6S"])
def test_fresh_mode_on_tiny_shoes_matches_enumerator(cards: str) -> None:
    # on a 6-10 card shoe, drawing with replacement or a biased shuffle is grossly wrong
    from exactodds.game.cards import parse_card
    shoe = Shoe.from_cards(parse_card(t) for t in cards.split())
    sim = simulate(60_000, "fresh", shoe, seed=11)
    p = chi_square_p(sim.coup_counts(), shoe)
    assert p > 1e-4
    exact = coup_distribution(shoe)
    assert set(sim.coup_counts()) <= set(exact.counts)


def test_fresh_mode_eight_decks_matches_enumerator() -> None:
    sim = simulate(400_000, "fresh", Shoe.standard(8), seed=3)
    assert sim.counts.sum() == 400_000
    assert chi_square_p(sim.coup_counts(), Shoe.standard(8)) > 1e-4


def test_shoe_mode_comparable_rounds_match_enumerator() -> None:
    sim = simulate(200_000, "shoe", Shoe.standard(8), seed=8)
    assert sim.counts.sum() == 200_000
    assert sim.comparable is not None and 0 < sim.comparable.sum() < 200_000
    assert chi_square_p(sim.coup_counts(comparable_only=True), Shoe.standard(8)) > 1e-4


def test_same_seed_same_result_whatever_the_workers() -> None:
    n = FRESH_BATCH + 1000
    a = simulate(n, seed=99, workers=1)
    b = simulate(n, seed=99, workers=2)
    c = simulate(n, seed=100)
    assert np.array_equal(a.counts, b.counts)
    assert not np.array_equal(a.counts, c.counts)
    s1 = simulate(30_000, "shoe", seed=4, workers=1, keep_hands=True)
    s2 = simulate(30_000, "shoe", seed=4, workers=2, keep_hands=True)
    assert np.array_equal(s1.counts, s2.counts)
    assert s1.log is not None and s2.log is not None
    assert np.array_equal(s1.log.faces, s2.log.faces)


def test_worker_processes_settle_exactly_as_one_process() -> None:
    """``--workers`` is processes (as in study): batches dealt in spawned processes and taken
    back in order give the serial run's round counts, hands and settled outcome counts;
    shoe mode with more rounds than one batch of shoes holds, so several batches run at once."""
    from exactodds.simulation.settle import RoundSettler, simulated_pairs

    k = guaranteed_rounds(Shoe.standard(8).size, 14)
    n = k * 2048 + 5000  # more than one batch of 2,048 shoes is sure to deal: two batches go to two processes
    runs = []
    for workers in (1, 2):
        pairs, _ = simulated_pairs(["banker", "dragon-7"], Shoe.standard(8))
        runs.append(simulate(n, "shoe", seed=21, workers=workers, settler=RoundSettler.of(pairs)))
    one, two = runs
    assert one.counts.sum() == n and one.shoes == two.shoes
    assert np.array_equal(one.counts, two.counts) and np.array_equal(one.comparable, two.comparable)
    assert one.settled is not None and two.settled is not None
    assert one.settled.families() == two.settled.families() and one.settled.families(0) == two.settled.families(0)


def test_hand_log_cards_reproduce_codes() -> None:
    sim = simulate(5000, seed=1, keep_hands=True)
    assert sim.log is not None
    for faces, code in zip(sim.log.faces.tolist(), sim.log.codes.tolist()):
        coup, _used = reference_round([FACES[f].value for f in faces])
        assert coup == decode(code)


def test_outcome_counts_agree_with_analysis() -> None:
    # settling the exact coup counts must give analyze()'s outcome counts
    shoe = Shoe.standard(6)
    dist = coup_distribution(shoe)
    for wid, tid in [("banker", "ez"), ("banker", "commission-free"), ("tie", "8to1"), ("panda-8", "25to1")]:
        w = get_wager(wid)
        got = outcome_counts(dist.counts, w, w.paytable(tid))
        a = analyze(wid, tid, shoe)
        assert got == {r.name: r.count for r in a.rows}
        assert sum(Fraction(n, dist.universe) * a.rows[i].pay.net for i, n in enumerate(got.values())) == a.return_


@pytest.mark.parametrize("kwargs,match", [
    ({"rounds": 0}, "rounds"), ({"rounds": 10, "mode": "deck"}, "mode"),
    ({"rounds": 10, "mode": "shoe", "cover": 13}, "629a.5"), ({"rounds": 10, "workers": 0}, "workers"),
])
def test_bad_arguments(kwargs: dict, match: str) -> None:
    with pytest.raises(InputError, match=match):
        simulate(**kwargs)


def test_bench_simulate_reports_a_rate() -> None:
    assert bench_simulate(200_000) > 0


FORMULA_WAGER = '''id = "formula"
name = "Formula"
cite = "test"
level = "coup"
otherwise = "@SUM(1+1)*cmd|' /C calc'!A0"

[[outcomes]]
name = "=HYPERLINK(\\"http://evil.example/\\",\\"x\\")"
when = { winner = "banker" }

[[paytables]]
id = "A"
pays = { "=HYPERLINK(\\"http://evil.example/\\",\\"x\\")" = "1 to 1" }
'''


def test_counts_file_neutralises_outcome_names_and_names_its_wager_file(tmp_path: Path) -> None:
    """Issue 25: simulate --counts wrote a wager file's outcome names as they are (a formula a
    spreadsheet runs) and did not say which wager file its outcomes are of."""
    import csv
    import hashlib

    from conftest import run_simulation_cli

    wf = tmp_path / "my wager.toml"
    wf.write_text(FORMULA_WAGER)
    counts = tmp_path / "c.csv"
    code, _, err = run_simulation_cli("simulate", "-n", "2000", "-w", "formula", "--wager-file", str(wf),
                                      "--counts", str(counts), "--seed", "3")
    assert code == 0, err
    text = counts.read_text()
    meta = text.splitlines()[0]
    assert "wager_files=my%20wager.toml" in meta
    assert f"wager_files_sha256={hashlib.sha256(wf.read_bytes()).hexdigest()}" in meta
    rows = list(csv.reader(text.splitlines()[1:]))
    names = {r[2] for r in rows[1:]}
    assert names == {"'=HYPERLINK(\"http://evil.example/\",\"x\")", "'@SUM(1+1)*cmd|' /C calc'!A0"}
    assert sum(int(r[3]) for r in rows[1:]) == 2000
    code, out, err = run_simulation_cli("crosscheck", str(counts), "--wager-file", str(wf), "-f", "json")
    assert code in (0, 1) and err == "", err   # read back: the quote taken off, the outcomes known
    assert "HYPERLINK" in out


def test_wagers_positional_as_in_every_other_command() -> None:
    """Issue 25: simulate named its wagers only with -w while analyze, eor, certify and study take
    them as arguments; both spellings now, one meaning (mixed too)."""
    import json

    from conftest import run_simulation_cli

    runs = [run_simulation_cli("simulate", "-n", "3000", *args, "-f", "json")
            for args in (["dragon-7:40to1", "tie"], ["-w", "dragon-7:40to1", "-w", "tie"], ["tie", "-w", "dragon-7:40to1"])]
    assert all(code == 0 for code, _, _ in runs), runs
    docs = [json.loads(out) for _, out, _ in runs]
    key = sorted((x["wager"], x["paytable"], x["observed_return"]) for x in docs[0]["wagers"])
    assert key and all(sorted((x["wager"], x["paytable"], x["observed_return"]) for x in d["wagers"]) == key
                       for d in docs)
