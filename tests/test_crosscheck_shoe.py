"""Shoe-level tests, shoe accounting and focused tests of the cross-check (issue 18).

Each detector is shown to fire on a small log with a strong defect, dealt by the faulty
dealers of ``exactodds.simulation.faults`` (through the simulator's own ``deal_shoes``),
and a correct shoe-mode log is shown to pass. The exact expectations are checked against
brute-force enumeration over the shoe's cards and over every ordering of small decks.
Power at the issue's defect sizes is measured by ``scripts/power.py``, not here.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import run_simulation_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.game.cardcode import card_code
from exactodds.game.cards import FACES, RANKS, Shoe
from exactodds.simulation import faults
from exactodds.simulation.crosscheck import FOCUSED_WAGER, CrossCheck, crosscheck_log, focused_tests
from exactodds.simulation.handlog import LogFile, log_header, read_file, render_log_chunk
from exactodds.simulation.shoetests import SHOE_WAGER, ShoeTally
from exactodds.simulation.simulate import BURN_COUNT, HandLog, simulate

EIGHT = Shoe.standard(8)


def write(path: Path, batches: list[HandLog] | object, meta: dict[str, object] | None = None) -> Path:
    with open(path, "wb") as fh:
        fh.write(log_header(meta if meta is not None else {"decks": 8, "cover": 14}, True))
        for b in batches:  # type: ignore[attr-defined]
            fh.write(render_log_chunk(b))
    return path


def check(path: Path, shoe: Shoe = EIGHT, cover: int = 14) -> CrossCheck:
    data = read_file(path)
    assert isinstance(data, LogFile)
    return crosscheck_log(data, shoe, cover)


def family(r: CrossCheck, start: str) -> tuple[float, bool]:
    """(p-value, failed under Holm) of the one shoe/focused test whose name starts so."""
    [f] = [f for f in r.comparable.families if f.wager in (SHOE_WAGER, FOCUSED_WAGER) and f.paytable.startswith(start)]
    return f.chi_square.p_value, r.failed(f)[0]


def accounting(r: CrossCheck) -> dict[str, int]:
    return {c.name: c.failed for c in r.accounting}


@pytest.fixture(scope="module")
def correct(tmp_path_factory: pytest.TempPathFactory) -> CrossCheck:
    path = tmp_path_factory.mktemp("shoe") / "correct.csv"
    return check(write(path, faults.shoe_rounds(40_000, "none", 5)))


def test_correct_shoe_log_passes_every_new_test(correct: CrossCheck) -> None:
    assert correct.consistent, correct.failures()
    assert accounting(correct) == {"composition": 0, "rounds per shoe against the cover card": 0,
                                   "burn against the exposed card": 0, "round numbers": 0}
    assert all(c.checked > 400 for c in correct.accounting)
    shoe = [f for f in correct.comparable.families if f.wager == SHOE_WAGER]
    focused = [f for f in correct.comparable.families if f.wager == FOCUSED_WAGER]
    assert len(shoe) == 9 + 10 and all(f.chi_square.conclusive for f in shoe)  # 10: each card v. the cards left, by depth
    assert len(focused) == 29 and sum(f.chi_square.conclusive for f in focused) >= 25
    # every conclusive test, new ones included, is one entry of the Holm family
    keys = {f.chi_square.key for f in shoe + focused if f.chi_square.conclusive}
    assert keys <= set(correct.adjusted)


@pytest.mark.parametrize(("fault", "rounds", "rate", "test"), [
    ("riffle3", 20_000, None, "carry-over"),
    ("riffle1strip", 20_000, None, "carry-over"),
    ("replay", 20_000, 0.2, "repeated shoes"),
])
def test_shuffle_defects_are_caught_by_their_test(tmp_path: Path, fault: str, rounds: int, rate: float | None,
                                                  test: str) -> None:
    r = check(write(tmp_path / "f.csv", faults.shoe_rounds(rounds, fault, 3, rate=rate)))
    p, failed = family(r, test)
    assert failed and p < 1e-6, (p, r.failures())
    assert not r.consistent
    if fault == "replay":
        assert any("repeats shoe" in n for n in r.notes)


@pytest.mark.parametrize(("fault", "check_name"), [
    ("bottom", "rounds per shoe against the cover card"),
    ("drop9", "rounds per shoe against the cover card"),
])
def test_dealer_defects_break_the_shoe_accounting(tmp_path: Path, fault: str, check_name: str) -> None:
    r = check(write(tmp_path / "f.csv", faults.shoe_rounds(20_000, fault, 3, rate=0.3)))
    assert accounting(r)[check_name] > 0
    assert any(f.startswith(f"accounting, {check_name}") for f in r.failures())


def test_a_shoe_logged_twice_breaks_the_composition(tmp_path: Path) -> None:
    [b] = list(faults.shoe_rounds(2_000, "none", 9, batch=40))
    one = b.shoe == b.shoe[0]
    twice = HandLog(np.concatenate([b.faces[one], b.faces[one], b.faces[~one]]),
                    np.concatenate([b.codes[one], b.codes[one], b.codes[~one]]),
                    np.concatenate([b.shoe[one], b.shoe[one], b.shoe[~one]]))
    r = check(write(tmp_path / "twice.csv", [twice]))
    assert accounting(r)["composition"] == 1
    assert accounting(r)["rounds per shoe against the cover card"] == 1


def test_lcg_shoes_repeat_with_period_65536() -> None:
    base = faults.factory_order(EIGHT)
    states = faults.lcg_states(11)
    a = faults.lcg_shuffles(base, states, 0, 2)
    b = faults.lcg_shuffles(base, states, 1 << 16, 2)
    assert (a == b).all() and not (a[0] == a[1]).all()
    assert sorted(a[0].tolist()) == sorted(base.tolist())


def test_bottom_dealing_moves_the_bottom_card_and_the_cover() -> None:
    """With rate 1 every Player third card above the cover comes from the bottom: the shoe
    is the same cards, and each such card is the card that was at the bottom."""
    rng = np.random.default_rng(4)
    deck = rng.permutation(faults.factory_order(EIGHT))[None, :]
    table = faults.code_table()
    shoe_of, _, codes, dealt = faults.deal_bottom(deck, 14, table, 1.0, rng)
    assert dealt is not None
    drew = (codes.astype(np.int64) >> 1 & 1).astype(bool)
    thirds = dealt[drew, 4].tolist()
    bottom = deck[0, ::-1].tolist()
    assert thirds[:3] == bottom[:3]


def test_window_is_a_uniform_sample_after_the_burn() -> None:
    """The claim every shoe test rests on, by enumeration: in a shuffled shoe burned as
    § 629a.5(f) says (the exposed card and as many more as its value), the cards after the
    burn are distributed as cards drawn without replacement from the whole shoe. Every
    distinct ordering of a 7-card shoe of aces, 2s and 3s (burns of 2, 3 and 4 cards)."""
    cards = [0, 0, 0, 4, 4, 8, 8]  # face indices: three aces, two 2s, two 3s (spades)
    n = len(cards)
    first: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    orders = set(itertools.permutations(cards))
    for perm in orders:
        burn = 1 + int(BURN_COUNT[perm[0]])
        first[FACES[perm[burn]].rank] += 1
        pairs[(FACES[perm[burn]].rank, FACES[perm[burn + 1]].rank)] += 1
    ranks = Counter(FACES[c].rank for c in cards)
    assert len(ranks) == 3 and max(1 + int(BURN_COUNT[c]) for c in cards) + 2 <= n
    for rank, k in ranks.items():
        assert Fraction(first[rank], len(orders)) == Fraction(k, n)
    for (a, b), k in pairs.items():
        assert Fraction(k, len(orders)) == Fraction(ranks[a] * (ranks[b] - (a == b)), n * (n - 1))


def test_exact_expectations_match_a_brute_force_over_the_shoe() -> None:
    """The per-pair expectations the shoe tests use, against counting every ordered pair
    of distinct physical cards of an 8-deck shoe."""
    t = ShoeTally(EIGHT, 14)
    ranks = [RANKS.index(c.rank) for c in EIGHT.cards()]
    values = [c.value for c in EIGHT.cards()]
    steps: Counter[int] = Counter()
    same = 0
    prod = 0
    for i, j in itertools.permutations(range(len(ranks)), 2):
        steps[(ranks[j] - ranks[i]) % 13] += 1
        same += ranks[i] == ranks[j]
        prod += values[i] * values[j]
    assert same == t.same_rank_mean and prod == t.value_mean
    tests = {f.paytable: f for f in t.tests()}
    [step] = [f for name, f in tests.items() if name.startswith("neighbours' rank step")]
    for cell in step.cells:
        assert cell.probability == Fraction(steps[int(cell.name[1:])], t.nn1)


def test_carry_over_expectation_by_enumeration() -> None:
    """E[pairs of a fresh sample adjacent as in the previous window] from the tally's
    integers, against every ordered sample of a small multiset."""
    shoe = Shoe.standard(1)
    t = ShoeTally(shoe, 14)
    prev = np.array([card_code(*c) for c in (("A", "S"), ("2", "S"), ("A", "S"), ("3", "S"))], dtype=np.int64)
    c = t.copies
    q = int((c[prev[:-1]] * (c[prev[1:]] - (prev[:-1] == prev[1:]))).sum())
    # brute force: one ordered pair of distinct physical cards of the 52
    codes = [card_code(card.rank, card.suit) for card in shoe.cards()]
    adjacent = Counter(zip(prev[:-1].tolist(), prev[1:].tolist()))
    hits = sum(adjacent[(codes[i], codes[j])] for i, j in itertools.permutations(range(52), 2))
    assert Fraction(hits, 52 * 51) == Fraction(q, t.nn1)


def test_focused_probabilities_are_the_engines() -> None:
    """Each class probability is the engine's exact coup count over its universe; the
    winning events partition the rounds."""
    from exactodds.simulation import engine_link

    d = engine_link.coup_distribution(EIGHT)
    coups = Counter({c: 1 for c in d.counts})
    tests = {f.paytable: f for f in focused_tests(coups, EIGHT)}
    wins = [tests[k].cells[0].probability for k in tests if k.split(" (")[0] in ("Banker wins", "Player wins", "Tie")]
    assert sum(wins) == 1
    nine = tests["Banker natural 9 (§ 629a.10(a))"].cells[0].probability
    assert nine == Fraction(sum(n for c, n in d.counts.items()
                                if c.banker_cards == 2 and c.banker_total == 9 and c.player_cards == 2), d.universe)


def test_pybaccarat_log_is_clean_but_its_cover_reading_is_stated() -> None:
    log = Path("/work/shared/data/third-party-logs/pybaccarat-engine-shoe-mode.csv")
    if not log.exists():
        pytest.skip("third-party logs not present")
    r = check(log)
    assert r.consistent, r.failures()
    assert any(n.startswith("accounting, cover card at the start of a round") for n in r.notes)


def test_decks_are_inferred_and_stated(tmp_path: Path) -> None:
    path = write(tmp_path / "six.csv", faults.shoe_rounds(3_000, "none", 2, shoe=Shoe.standard(6)), {"cover": 14})
    code, out, err = run_simulation_cli("crosscheck", str(path))
    assert code == 0, out + err
    assert "decks: 6 inferred from the log" in out and "6 decks (312 cards)" in out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks=st.integers(1, 8), cover=st.integers(14, 30), seed=st.integers(0, 2**32))
def test_correct_logs_never_break_the_accounting(tmp_path_factory: pytest.TempPathFactory, decks: int, cover: int,
                                                  seed: int) -> None:
    shoe = Shoe.standard(decks)
    if shoe.size - cover < 12:
        return
    sim = simulate(1_500, "shoe", shoe, seed=seed, cover=cover, keep_hands=True)
    assert sim.log is not None
    path = write(tmp_path_factory.mktemp("prop") / "log.csv", [sim.log], {"decks": decks, "cover": cover})
    r = check(path, shoe, cover)
    assert not any(c.failed for c in r.accounting), r.failures()
    assert not any(n.startswith("accounting, cover card at the start") for n in r.notes)


def test_missing_round_numbers_fail_the_accounting(tmp_path: Path) -> None:
    path = write(tmp_path / "log.csv", faults.shoe_rounds(3_000, "none", 8))
    lines = path.read_text().splitlines()
    gap = tmp_path / "gap.csv"
    gap.write_text("\n".join(lines[:500] + lines[501:]) + "\n")  # one round left out, numbers not redone
    r = check(gap)
    assert accounting(r)["round numbers"] == 1
    assert any(f.startswith("accounting, round numbers: 1 of") for f in r.failures())
    assert accounting(check(path))["round numbers"] == 0


def test_a_repeat_is_flagged_in_the_last_open_shoe(tmp_path: Path) -> None:
    """The log ends 6 rounds into a shoe that replays an earlier one: flagged at once."""
    [b] = list(faults.shoe_rounds(3_000, "none", 12, batch=40))
    first = b.shoe == b.shoe[0]
    head = np.flatnonzero(first)[:6]
    log = HandLog(np.concatenate([b.faces, b.faces[head]]), np.concatenate([b.codes, b.codes[head]]),
                  np.concatenate([b.shoe, np.full(6, int(b.shoe[-1]) + 1)]))
    r = check(write(tmp_path / "replay.csv", [log]))
    p, failed = family(r, "repeated shoes")
    assert failed and p < 1e-20
    assert not family(check(write(tmp_path / "clean.csv", [b])), "repeated shoes")[1]
