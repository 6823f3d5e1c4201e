"""The enumerator against published figures, a second walk, and the brute-force oracle."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import oracle
import pytest
from conftest import SMALL_SHOES, slow_param
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE
from exactodds.engine.level import Level
from exactodds.engine.levels import COUP, coup_distribution
from exactodds.figures.analysis import analyze
from exactodds.game.cards import FACES, Shoe, falling_factorial
from exactodds.game.rules import BANKER_DRAWS_AGAINST, Coup, point_count
from exactodds.game.walk import RANK_CLASSES, VALUE_CLASSES, deal_shapes


def winners(shoe: Shoe) -> Counter[str]:
    d = coup_distribution(shoe)
    out: Counter[str] = Counter()
    for coup, n in d.counts.items():
        out[coup.winner] += n
    return out


# -- published figures ---------------------------------------------------------------

def test_eight_decks_published_counts() -> None:
    w = winners(Shoe.standard(8))
    assert w["banker"] == 2_292_252_566_437_888
    assert w["player"] == 2_230_518_282_592_256
    assert w["tie"] == 475_627_426_473_216
    assert sum(w.values()) == 4_998_398_275_503_360


def test_six_decks_published_counts() -> None:
    w = winners(Shoe.standard(6))
    assert (w["banker"], w["player"], w["tie"]) == (
        403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288)


def test_dragon_7_and_panda_8_published_counts() -> None:
    rows = {r.name: r.count for r in analyze("dragon-7", None, Shoe.standard(8)).rows}
    assert rows["Dragon 7"] == 112_633_011_329_024
    rows = {r.name: r.count for r in analyze("panda-8", None, Shoe.standard(8)).rows}
    assert rows["Panda 8"] == 172_660_763_262_976


# -- the drawing rules against the regulation's own table --------------------------

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.mark.skipif(not SEED.is_dir(), reason="shared/seeds not beside the checkout")
def test_table_1_matches_the_regulation_text() -> None:
    text = next(SEED.glob("000_*.txt")).read_text()
    rows = re.findall(r"^([3-6])\t((?:[DS]\t?){10})$", text, flags=re.M)
    assert [int(b) for b, _ in rows] == [3, 4, 5, 6]
    for banker, marks in rows:
        draws = {v for v, m in enumerate(marks.split()) if m == "D"}
        assert draws == set(BANKER_DRAWS_AGAINST[int(banker)])


# -- a second walk of the same rounds -----------------------------------------------

def test_composition_walk_equals_ordered_walk() -> None:
    """The grouped table (unordered initial pairs) equals grouping the ordered walk."""
    ordered: Counter[tuple[tuple[int, ...], Coup]] = Counter()
    for player, banker in deal_shapes(VALUE_CLASSES):
        coup = Coup(point_count(player), point_count(banker), len(player), len(banker))
        ordered[(tuple(sorted(player + banker)), coup)] += 1
    table = COUP.table
    grouped: Counter[tuple[tuple[int, ...], Coup]] = Counter()
    for r, i, n in zip(table.row, table.result, table.mult):
        cards = tuple(c for c, k in enumerate(table.k[r]) for _ in range(k))
        grouped[(cards, COUP.results[i])] += int(n)
    assert grouped == ordered


shoe_counts = st.lists(st.integers(min_value=0, max_value=40), min_size=52, max_size=52).filter(
    lambda c: sum(c) > 0)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe_counts)
def test_rank_classes_agree_with_value_classes(counts: list[int]) -> None:
    shoe = Shoe(tuple(counts))
    by_value = coup_distribution(shoe, VALUE_CLASSES)
    by_rank = coup_distribution(shoe, RANK_CLASSES)
    assert by_value == by_rank


@settings(max_examples=40, deadline=None)
@given(shoe_counts)
def test_counts_add_up_to_the_universe(counts: list[int]) -> None:
    shoe = Shoe(tuple(counts))
    d = coup_distribution(shoe)
    assert d.universe == falling_factorial(shoe.size, min(shoe.size, 6))
    assert sum(d.counts.values()) + d.void == d.universe
    assert all(n > 0 for n in d.counts.values())
    if shoe.size >= 6:
        assert d.void == 0


def test_cost_does_not_grow_with_decks() -> None:
    """The same multisets are priced whatever the deck count (structure is shoe-free)."""
    assert len(COUP.table.k) < 8008  # multisets of 4..6 of 10 classes
    for decks in (1, 8, 1000):
        assert sum(coup_distribution(Shoe.standard(decks)).counts.values()) == falling_factorial(52 * decks, 6)


# -- the brute-force oracle --------------------------------------------------------

@lru_cache(maxsize=16)
def oracle_deals(shoe: Shoe) -> tuple[Counter, int]:
    """One brute-force pass per shoe: ways of each distinct (Player cards, Banker cards)."""
    return oracle.tally(shoe, lambda player, banker: (player, banker))


@lru_cache(maxsize=64)
def oracle_tally(shoe: Shoe, level: Level) -> tuple[Counter, int]:
    """The brute-force deals read at one level, shared by every wager of that level."""
    deals, void = oracle_deals(shoe)
    out: Counter = Counter()
    for (player, banker), ways in deals.items():
        out[level.from_deal(player, banker)] += ways
    return out, void


def oracle_rows(wager_id: str, paytable_id: str, shoe: Shoe) -> dict[str, int]:
    wager = CATALOGUE[wager_id]
    table = wager.paytable(paytable_id)
    counts, void = oracle_tally(shoe, wager.level)
    out: Counter[str] = Counter()
    for result, n in counts.items():
        out[wager.settle(table, result)] += n
    if void:
        out["void"] = void
    return dict(out)


def engine_rows(wager_id: str, paytable_id: str, shoe: Shoe) -> dict[str, int]:
    a = analyze(wager_id, paytable_id, shoe)
    return {("void" if r.name.startswith("Round void") else r.name): r.count for r in a.rows if r.count}


ALL_PAYTABLES = [(w.id, p.id) for w in CATALOGUE.values() if w.level.baccarat for p in w.paytables]


@pytest.mark.parametrize("shoe_name", [slow_param(name, "10 s of CPU") if name in {"twelve-mixed", "thirteen-pairs"}
                                       else name for name in sorted(SMALL_SHOES)])
def test_every_wager_agrees_with_the_oracle(shoe_name: str) -> None:
    shoe = SMALL_SHOES[shoe_name]
    for wager_id, paytable_id in ALL_PAYTABLES:
        assert engine_rows(wager_id, paytable_id, shoe) == oracle_rows(wager_id, paytable_id, shoe), (
            wager_id, paytable_id)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FACES), min_size=1, max_size=8))
def test_random_small_shoes_agree_with_the_oracle(cards: list) -> None:
    shoe = Shoe.from_cards(cards)
    for wager_id, paytable_id in ALL_PAYTABLES:
        assert engine_rows(wager_id, paytable_id, shoe) == oracle_rows(wager_id, paytable_id, shoe)


def test_oracle_is_not_vacuous() -> None:
    """The oracle sees all three winners and void rounds where the shoe is short."""
    counts, void = oracle.tally(SMALL_SHOES["twelve-mixed"], lambda p, b: (point_count([c.value for c in p]) >
                                                                            point_count([c.value for c in b])))
    assert set(counts) == {True, False} and void == 0
    _, void5 = oracle.tally(SMALL_SHOES["five-cards"], lambda p, b: 0)
    assert void5 > 0
