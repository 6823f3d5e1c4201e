"""Issue 28 (items 1-3) and issue 25's ``--decks 0``: cover-card ranges, every card against
the cards left in its shoe, and the deck count read from identical faces.

Each figure is checked against something independent: the covers a shoe fits against
dealing its own logged cards again through ``deal_shoes`` with every burn and cover; the
per-card law against every ordering of a small shoe; the deck estimate against logs dealt
from 1, 2, 6 and 8 decks; the identical-faces probabilities against enumeration.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import run_simulation_cli
from hypothesis import given
from hypothesis import strategies as st

from exactodds.errors import InputError
from exactodds.game.cards import FACES, Shoe
from exactodds.simulation import faults
from exactodds.simulation.crosscheck import (
    SEQUENCE_WAGER,
    CrossCheck,
    IdenticalFaces,
    crosscheck_log,
    estimate_decks,
    pattern_probabilities,
)
from exactodds.simulation.handlog import LogFile, log_header, read_file, render_log_chunk
from exactodds.simulation.shoetests import SHOE_WAGER, ShoeTally, log_cover
from exactodds.simulation.simulate import (
    BURN_COUNT,
    STANDARD_RULES,
    Cover,
    HandLog,
    code_table,
    deal_shoes,
    simulate,
)

EIGHT = Shoe.standard(8)
COVER_CHECK = "rounds per shoe against the cover card"


def write(path: Path, batches: object, meta: dict[str, object] | None, shoes: bool = True) -> Path:
    with open(path, "wb") as fh:
        fh.write(log_header(meta, shoes))
        for b in batches:  # type: ignore[attr-defined]
            fh.write(render_log_chunk(b))
    return path


def check(path: Path, cover: int | Cover, shoe: Shoe = EIGHT, prefix: int | None = None) -> CrossCheck:
    """The cross-check, one wager only (the tests here are about the cards and the shoes)."""
    data = read_file(path)
    assert isinstance(data, LogFile)
    return crosscheck_log(data, shoe, cover, wagers=["banker"], prefix_cover=prefix)


def tally(path: Path, cover: int | Cover) -> ShoeTally:
    """The shoe accounting alone (no statistics): fast for many covers."""
    data = read_file(path)
    assert isinstance(data, LogFile)
    t = ShoeTally(EIGHT, cover, Cover.of(cover).top(EIGHT.size))
    for ch in data.chunks():
        t.feed(ch)
    t.finish()
    return t


def cover_broken(t: ShoeTally) -> int:
    return t.checks["cover"].failed


def broken(r: CrossCheck, name: str = COVER_CHECK) -> int:
    [c] = [c for c in r.accounting if c.name == name]
    return c.failed


# -- the range itself ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "cover"), [("14", Cover(14, 14)), ("14..30", Cover(14, 30)), (" 15 .. 15 ", Cover(15, 15)),
                                             ("14..", Cover(14, None))])
def test_cover_parses_a_number_or_a_range(text: str, cover: Cover) -> None:
    assert Cover.parse(text) == cover
    assert Cover.parse(str(cover)) == cover  # what a log header says reads back


@given(st.integers(0, 10**6), st.integers(0, 10**6) | st.none())
def test_a_cover_reads_back_from_its_text(low: int, span: int | None) -> None:
    cover = Cover(low, None if span is None else low + span)
    assert Cover.parse(str(cover)) == cover
    assert cover.exact == (span == 0)
    assert cover.top(416) == (low + span if span is not None else 416 - 12)


@pytest.mark.parametrize("text", ["", "x", "14-16", "16..14", "..16", "14...16", "1e3"])
def test_a_bad_cover_is_one_input_error(text: str) -> None:
    with pytest.raises(InputError, match="--cover"):
        Cover.parse(text)


# -- accounting against the range: each side of each bound ------------------------------------------
def _logged_shoe(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One 8-deck shoe dealt with cover 30 whose unlogged cards include every burn's exposed
    card: (deck, faces of its rounds, codes, the cards it did not log)."""
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(len(FACES), dtype=np.uint8), EIGHT.counts)
    table = code_table(STANDARD_RULES)
    while True:
        deck = rng.permutation(base)[None, :]
        _s, _r, codes, faces = deal_shoes(deck, 30, table, keep=True)
        assert faces is not None
        used = 4 + (codes.astype(np.int64) >> 1 & 1) + (codes.astype(np.int64) & 1)
        logged = np.concatenate([faces[i, :u] for i, u in enumerate(used.tolist())])
        rest = Counter(base.tolist())
        rest.subtract(logged.tolist())
        values = {int(BURN_COUNT[f]) for f, k in rest.items() if k > 0}
        if values >= set(range(1, 11)):
            unlogged = np.array(sorted(rest.elements()), dtype=np.uint8)
            return deck, faces, codes, unlogged


def _covers_that_fit(logged: np.ndarray, rounds: int, unlogged: np.ndarray) -> set[int]:
    """Brute force: the covers for which some burn of 2-11 cards (§ 629a.5(f)) deals the
    logged cards in exactly the logged number of rounds, re-dealt through ``deal_shoes``."""
    table = code_table(STANDARD_RULES)
    n = EIGHT.size
    rows, covers = [], []
    for burn in range(2, 12):
        first = next(int(i) for i, f in enumerate(unlogged.tolist()) if BURN_COUNT[f] == burn - 1)
        others = np.delete(unlogged, first)
        deck = np.concatenate([unlogged[first:first + 1], others[:burn - 1], logged, others[burn - 1:]])
        assert deck.size == n
        for c in range(12, n - 11):  # lower covers can run a shoe out of cards
            rows.append(deck)
            covers.append(c)
    shoe_of, _r, _c, _f = deal_shoes(np.stack(rows), np.array(covers, dtype=np.int64), table)
    dealt = np.bincount(shoe_of, minlength=len(rows))
    return {covers[i] for i in np.flatnonzero(dealt == rounds).tolist()}


@pytest.fixture(scope="module")
def one_shoe(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[int]]:
    deck, faces, codes, unlogged = _logged_shoe(28)
    used = 4 + (codes.astype(np.int64) >> 1 & 1) + (codes.astype(np.int64) & 1)
    logged = np.concatenate([faces[i, :u] for i, u in enumerate(used.tolist())])
    fits = _covers_that_fit(logged, codes.size, unlogged)
    # the shoe, then one round of a second shoe (the log's last shoe is never checked)
    log = HandLog(np.concatenate([faces, faces[:1]]), np.concatenate([codes, codes[:1]]),
                  np.r_[np.zeros(codes.size, dtype=np.int64), 1])
    return write(tmp_path_factory.mktemp("cover") / "one.csv", [log], {"decks": 8}), fits


def test_the_brute_force_finds_the_cover_the_shoe_was_dealt_with(one_shoe: tuple[Path, set[int]]) -> None:
    _path, fits = one_shoe
    assert 30 in fits and min(fits) > 20
    assert fits == set(range(min(fits), max(fits) + 1))  # one run of covers, burn by burn


def test_range_accounting_on_each_side_of_each_bound(one_shoe: tuple[Path, set[int]]) -> None:
    path, fits = one_shoe
    lo, hi = min(fits), max(fits)
    # the lowest cover of the range against too many cards, the highest against too few;
    # the reading that ends the shoe with the round the cover card starts allows lo - 1 (noted)
    cases = [(Cover(hi + 1, hi + 3), 1, "too many cards"), (Cover(hi, hi + 3), 0, None),
             (Cover(lo - 5, lo - 2), 1, "too few cards"), (Cover(lo - 5, lo - 1), 0, None),
             (Cover(lo, lo), 0, None), (Cover(hi, hi), 0, None), (Cover(hi + 1, hi + 1), 1, "too many cards"),
             (Cover(lo - 2, lo - 2), 1, "too few cards"), (Cover(lo - 9, hi + 9), 0, None)]
    for cover, bad, why in cases:
        t = tally(path, cover)
        assert cover_broken(t) == bad, (cover, fits, t.checks["cover"].examples)
        if why:
            assert why in t.checks["cover"].examples[0]
    t = tally(path, Cover(lo - 1, lo - 1))
    assert cover_broken(t) == 0 and t.last_at_cover == 1
    r = check(path, Cover(hi + 1, hi + 3))  # and the verdict says so
    assert any(f.startswith("accounting, rounds per shoe against the cover card") and "too many cards" in f
               for f in r.failures()), r.failures()


def test_a_correct_log_with_a_cover_varying_per_shoe_passes_under_its_range(tmp_path: Path) -> None:
    path = write(tmp_path / "vary.csv", faults.shoe_rounds(15_000, "none", 7, cover=Cover(14, 16)),
                 {"decks": 8, "cover": "14..16"})
    r = check(path, Cover(14, 16))
    assert r.consistent, r.failures()
    assert broken(r) == 0 and broken(r, "burn against the exposed card") == 0
    note = next(n for n in r.notes if n.startswith("accounting, cover:"))
    assert "14 to 16" in note and "observed" in note
    # one exact cover cannot explain every shoe (the false alarm) ...
    assert cover_broken(tally(path, 14)) > 0 and cover_broken(tally(path, 16)) > 0
    # ... and with no cover in the header, at least 14 with the prefix surveyed from the first shoes passes
    bare = write(tmp_path / "bare.csv", faults.shoe_rounds(15_000, "none", 7, cover=Cover(14, 16)), {"decks": 8})
    data = read_file(bare)
    cover, prefix, note2 = log_cover(str(bare), data.meta, EIGHT.size)
    assert cover == Cover(14, None) and prefix is not None and prefix >= 16 and note2 and "first" in note2
    r = check(bare, cover, prefix=prefix)
    assert r.consistent, r.failures()


def test_dealer_defects_still_break_a_range(tmp_path: Path) -> None:
    bottom = write(tmp_path / "b.csv", faults.shoe_rounds(20_000, "bottom", 3, cover=Cover(14, 16), rate=0.3),
                   {"decks": 8, "cover": "14..16"})
    t = tally(bottom, Cover(14, 16))
    assert cover_broken(t) > 0 and any("too many cards" in e for e in t.checks["cover"].examples)
    drop = write(tmp_path / "d.csv", faults.shoe_rounds(20_000, "drop9", 3, cover=Cover(14, 16), rate=0.3),
                 {"decks": 8, "cover": "14..16"})
    t = tally(drop, Cover(14, 16))
    assert cover_broken(t) > 0 and any("too few cards" in e for e in t.checks["cover"].examples)


def test_simulate_draws_the_cover_per_shoe_within_the_range() -> None:
    sim = simulate(30_000, "shoe", EIGHT, seed=4, cover=Cover(14, 16), keep_hands=True)
    fixed = simulate(30_000, "shoe", EIGHT, seed=4, cover=14, keep_hands=True)
    assert sim.log is not None and fixed.log is not None and sim.log.shoe is not None
    assert sim.meta["guaranteed_rounds"] == 66  # from the highest cover, 16
    # the same shuffles: the rounds differ only where a shoe's cover moved its last rounds
    assert (sim.log.faces[:60] == fixed.log.faces[:60]).all()
    assert not np.array_equal(np.bincount(sim.log.shoe), np.bincount(fixed.log.shoe)[:np.bincount(sim.log.shoe).size])


# -- every card against the cards left in its shoe -----------------------------------------------------
def test_each_logged_card_has_the_law_of_the_cards_left_given_the_cards_before() -> None:
    """Every ordering of a 9-card shoe (aces, 2s, 3s: burns of 2, 3, 4 cards, § 629a.5(f)):
    whatever the exposed card, the first logged cards follow ``left_x / (N - j)`` exactly."""
    cards = ["A"] * 3 + ["2"] * 3 + ["3"] * 3
    burn = {"A": 2, "2": 3, "3": 4}
    n = len(cards)
    joint: Counter[tuple[str, ...]] = Counter()
    orders = set(itertools.permutations(cards))  # the distinct orders, each equally likely
    for order in orders:
        joint[order[burn[order[0]]:][:3]] += 1
    total = len(orders)
    for prefix_len in range(3):
        seen: Counter[tuple[str, ...]] = Counter()
        nxt: Counter[tuple[str, ...]] = Counter()
        for seq, k in joint.items():
            seen[seq[:prefix_len]] += k
            nxt[seq[:prefix_len + 1]] += k
        for seq, k in nxt.items():
            before = seq[:-1]
            left = cards.count(seq[-1]) - before.count(seq[-1])
            assert Fraction(k, seen[before]) == Fraction(left, n - prefix_len), seq
    assert sum(joint.values()) == total


def _left_tests(r: CrossCheck) -> list[tuple[float, bool]]:
    return [(f.chi_square.p_value, f.chi_square.conclusive) for f in r.comparable.families
            if f.wager == SHOE_WAGER and f.paytable.startswith("each card against the cards left")]


def test_the_per_card_test_passes_correct_logs_at_about_its_level(tmp_path: Path) -> None:
    ps = []
    for seed in range(3):
        path = write(tmp_path / f"ok{seed}.csv", faults.shoe_rounds(12_000, "none", 40 + seed, cover=Cover(14, 16)),
                     {"decks": 8, "cover": "14..16"})
        r = check(path, Cover(14, 16))
        tests = _left_tests(r)
        assert len(tests) == 10 and all(conclusive for _p, conclusive in tests)
        assert set(r.adjusted) >= {f.chi_square.key for f in r.comparable.families if f.wager == SHOE_WAGER
                                   and f.chi_square.conclusive}  # each bin is in the Holm family
        ps += [p for p, _c in tests]
    # 30 p-values of correct logs: none extreme, spread over (0, 1)
    assert min(ps) > 1e-4, ps
    assert 0.2 < float(np.mean(ps)) < 0.8, ps
    assert sum(p < 0.5 for p in ps) in range(6, 25), ps


def test_a_shuffle_leaving_the_bottom_60_cards_sorted_fails(tmp_path: Path) -> None:
    path = write(tmp_path / "sorted.csv", faults.shoe_rounds(10_000, "sorted60", 2), {"decks": 8, "cover": 14})
    r = check(path, 14)
    assert not r.consistent
    late = [p for p, _c in _left_tests(r)[-2:]]
    assert max(late) < 1e-12, late
    assert any("each card against the cards left" in f for f in r.failures())
    # the cut-card prefix alone does not see it: its round-results and window tests pass
    assert all("each card against" in f for f in r.failures()), r.failures()


# -- the deck count from identical faces -------------------------------------------------------------
@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_pattern_probabilities_match_enumeration(decks: int) -> None:
    """Against every ordered 4-card draw of a small shoe of ``kinds`` kinds (faces stand in)."""
    kinds = 4
    shoe = [k for k in range(kinds) for _ in range(decks)]
    tally: Counter[int] = Counter()
    for draw in itertools.permutations(range(len(shoe)), 4):
        same = sum(shoe[a] == shoe[b] for a, b in itertools.combinations(draw, 2))
        tally[same] += 1
    total = sum(tally.values())
    probs = pattern_probabilities(kinds, decks)
    assert {k: Fraction(v, total) for k, v in tally.items()} == {k: p for k, p in probs.items() if p}


@pytest.mark.parametrize(("decks", "rounds"), [(1, 20_000), (2, 20_000), (6, 200_000), (8, 200_000)])
def test_the_deck_count_is_estimated_from_identical_faces(tmp_path: Path, decks: int, rounds: int) -> None:
    batches: list[HandLog] = []
    simulate(rounds, "fresh", Shoe.standard(decks), seed=decks, on_hands=batches.append)
    path = write(tmp_path / "fresh.csv", batches, None, shoes=False)
    data = read_file(path)
    assert isinstance(data, LogFile)
    found = estimate_decks(data.chunks())
    assert found is not None
    assert found[0] == decks, found[1]
    # 8 decks is what a log stating none is assumed to hold unless its faces say otherwise
    assert f"decks: {decks} {'assumed' if decks == 8 else 'estimated'}" in found[1], found[1]


def test_a_log_from_another_deck_count_fails_for_its_identical_faces(tmp_path: Path) -> None:
    batches: list[HandLog] = []
    simulate(20_000, "fresh", Shoe.standard(1), seed=1, on_hands=batches.append)
    path = write(tmp_path / "one.csv", batches, None, shoes=False)
    r = check(path, 14, shoe=EIGHT)
    assert not r.consistent
    assert any(f.startswith(f"{SEQUENCE_WAGER} (identical faces among cards 1-4 of a round, against 8 deck(s))")
               for f in r.failures()), r.failures()
    # and an 8-deck log read as one deck shows an impossible pair at once
    batches = []
    simulate(2_000, "fresh", EIGHT, seed=1, on_hands=batches.append)
    r = check(write(tmp_path / "eight.csv", batches, None, shoes=False), 14, shoe=Shoe.standard(1))
    assert any("impossible outcome observed" in f and "identical faces" in f for f in r.failures()), r.failures()


@given(st.lists(st.sampled_from([0, 1, 2, 3, 6]), min_size=1, max_size=40))
def test_the_estimate_is_the_likeliest_deck_count(patterns: list[int]) -> None:
    alike = IdenticalFaces()
    for k in patterns:
        alike.faces[k] += 1
    ll = alike.likelihoods()
    found = alike.estimate()
    assert found is not None
    best = found[0]
    top = max(ll.values())
    if top - ll[8] < math.log(100):  # not 100 times as likely as 8 decks: 8 stays
        assert best == 8 and "decks: 8 assumed" in found[1]
    else:
        assert ll[best] == top and f"decks: {best} estimated" in found[1]
    if any(k for k in patterns):
        assert best != 1  # one deck holds no two identical faces


# -- the command line ------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [["--decks", "0"], ["--decks", "-0"], ["-d", "0"], ["--decks", "1001"]])
def test_crosscheck_refuses_decks_zero(tmp_path: Path, args: list[str]) -> None:
    path = write(tmp_path / "l.csv", faults.shoe_rounds(200, "none", 1), {"cover": 14})
    code, out, err = run_simulation_cli(*["crosscheck", str(path), *args])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("exactodds: error: --decks must be between 1 and 1,000")


def test_crosscheck_refuses_a_header_of_decks_zero(tmp_path: Path) -> None:
    path = write(tmp_path / "l.csv", faults.shoe_rounds(200, "none", 1), {"decks": 0, "cover": 14})
    code, out, err = run_simulation_cli(*["crosscheck", str(path)])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "decks=0" in err


@pytest.mark.parametrize(("cover", "words"), [("13..20", "at least|between"), ("16..14", "high end"),
                                               ("x", "number of cards or a range")])
def test_crosscheck_refuses_a_bad_cover(tmp_path: Path, cover: str, words: str) -> None:
    path = write(tmp_path / "l.csv", faults.shoe_rounds(200, "none", 1), {"decks": 8})
    for args, where in (([f"--cover={cover}"], str(path)), ([], None)):
        if where is None:
            path2 = write(tmp_path / "h.csv", faults.shoe_rounds(200, "none", 1), {"decks": 8, "cover": cover})
            code, out, err = run_simulation_cli(*["crosscheck", str(path2)])
        else:
            code, out, err = run_simulation_cli(*["crosscheck", where, *args])
        assert code == 2 and out == "" and err.count("\n") == 1, err


        assert re.search(words, err), err


def test_simulate_writes_a_cover_range_crosscheck_reads_back(tmp_path: Path) -> None:
    log = tmp_path / "v.csv"
    code, _out, err = run_simulation_cli("simulate", "-n", "3000", "--mode", "shoe", "--cover", "14..16",
                                         "-w", "banker", "--log", str(log), "-o", str(tmp_path / "r.txt"))
    assert code == 0, err
    assert "cover=14..16" in log.read_text().splitlines()[0]
    assert "cover card 14 to 16 cards from the bottom, drawn shoe by shoe" in (tmp_path / "r.txt").read_text()
    code, out, err = run_simulation_cli(*["crosscheck", str(log), "-w", "banker"])
    assert code == 0, out + err
    assert "cover card 14 to 16 cards from the bottom" in out
    code, out, err = run_simulation_cli("crosscheck", str(log), "-w", "banker", "-f", "json")
    assert code == 0, err
    cover = json.loads(out)["cover"]
    assert (cover["low"], cover["high"], cover["prefix_cover"]) == (14, 16, 16)
    assert cover["observed_low"] <= 16 and cover["observed_high"] >= 14
    code, out, err = run_simulation_cli(*["simulate", "-n", "10", "--mode", "shoe", "--cover", "14.."])
    assert code == 2 and out == "" and "high end" in err


def test_a_cover_range_deals_the_same_whatever_the_workers() -> None:
    """Each batch draws its shoes' covers from its own generator (the reproducibility contract)."""
    rounds = 2 * 2048 * 70  # two batches of shoes
    one = simulate(rounds, "shoe", EIGHT, seed=9, cover=Cover(14, 20), workers=1)
    two = simulate(rounds, "shoe", EIGHT, seed=9, cover=Cover(14, 20), workers=2)
    assert (one.counts == two.counts).all() and one.comparable is not None and two.comparable is not None
    assert (one.comparable == two.comparable).all() and one.shoes == two.shoes
