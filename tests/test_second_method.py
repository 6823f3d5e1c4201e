"""The second method of every level (exactodds.recount, run by exactodds.figures.second_method)
against the engine, the brute-force oracle, and itself corrupted; and certify's use of it."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from functools import lru_cache
from math import factorial
from typing import Any

import oracle
import pytest
from conftest import SMALL_SHOES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE
from exactodds.engine.levels import LEVELS, Level
from exactodds.engine.spanish21 import spanish_shoe
from exactodds.figures import analysis
from exactodds.figures import second_method as sm
from exactodds.figures.analysis import VOID, Analysis, analyze
from exactodds.game.cards import FACES, Shoe, falling_factorial
from exactodds.games.certificate import _second_method, build_report
from exactodds.recount import rank_walk
from exactodds.recount.base import INT64_LIMIT, int_dtype
from exactodds.recount.faces import FourFaces

EIGHT = Shoe.standard(8)
PAYTABLES = [(w, t) for w in CATALOGUE.values() for t in w.paytables]
BACCARAT = sorted(name for name in sm.METHODS if LEVELS[name].baccarat)


def engine_rows(wager: Any, table: Any, shoe: Shoe) -> dict[str, int]:
    a = analyze(wager, table.id, shoe)
    return {("void" if r.name == VOID else r.name): r.count for r in a.rows if r.count}


def second_rows(wager: Any, table: Any, shoe: Shoe) -> dict[str, int]:
    c = sm.outcome_counts(wager, table, shoe)
    assert c is not None, f"{wager.id}: no second method"
    out = {k: n for k, n in c.counts.items() if n}
    if c.void:
        out["void"] = c.void
    assert sum(out.values()) == c.universe
    return out


def assert_levels_agree(shoe: Shoe) -> None:
    """Result by result, every level: the second method equals the engine's distribution."""
    for name in sm.METHODS:
        d = LEVELS[name].distribution(shoe)
        rc = sm.recount(LEVELS[name], shoe)
        assert rc is not None
        assert (rc.universe, rc.void) == (d.universe, d.void), name
        assert dict(rc.counts) == {k: n for k, n in d.counts.items() if n}, name


def assert_catalogue_agrees(shoe: Shoe) -> None:
    for w, t in PAYTABLES:
        assert second_rows(w, t, shoe) == engine_rows(w, t, shoe), (w.id, t.id)


# -- full size -----------------------------------------------------------------------------------

def test_every_level_of_the_catalogue_has_a_second_method() -> None:
    levels = {w.level.name for w in CATALOGUE.values()}
    assert levels <= set(sm.METHODS), levels - set(sm.METHODS)
    assert len(PAYTABLES) == 87


def test_every_paytable_agrees_at_8_decks() -> None:
    assert_levels_agree(EIGHT)
    assert_catalogue_agrees(EIGHT)
    for w, t in PAYTABLES:  # and certify's comparison says so, naming the method
        entry = _second_method(analyze(w, t.id, EIGHT))
        assert entry["agrees"] is True, (w.id, t.id)
        assert entry["method"] == sm.METHODS[w.level.name]
        assert len(entry["outcomes"]) == len(w.outcome_names(t))
        assert all(row["agrees"] for row in entry["outcomes"])


full_shoes = st.lists(st.integers(min_value=0, max_value=8), min_size=52, max_size=52).filter(
    lambda c: sum(c) >= 6 and any(n for f, n in zip(FACES, c) if f.rank != "10")).map(lambda c: Shoe(tuple(c)))
depleted_eight = st.lists(st.sampled_from(FACES), max_size=120).map(EIGHT.remove)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(full_shoes, depleted_eight))
def test_random_depleted_shoes_agree(shoe: Shoe) -> None:
    assert_levels_agree(shoe)
    assert_catalogue_agrees(shoe)


def test_beyond_int64_python_integers_take_over() -> None:
    """28 decks: the universe passes 2^63, so the counts are Python integers -- still exact."""
    shoe = Shoe.standard(28)
    assert falling_factorial(shoe.size, 6) >= INT64_LIMIT and int_dtype(falling_factorial(shoe.size, 6)) is object
    for name in ("deal-faces", "opening-nines", "opening-player-faces"):
        d = LEVELS[name].distribution(shoe)
        rc = sm.recount(LEVELS[name], shoe)
        assert rc is not None and dict(rc.counts) == dict(d.counts) and rc.universe == d.universe


# -- small shoes: the brute-force oracle --------------------------------------------------------

@lru_cache(maxsize=32)
def oracle_deals(shoe: Shoe) -> tuple[Counter[Any], int]:
    return oracle.tally(shoe, lambda player, banker: (player, banker))


def assert_oracle_agrees(shoe: Shoe) -> None:
    deals, void = oracle_deals(shoe)
    for name in BACCARAT:
        expected: Counter[Any] = Counter()
        for (player, banker), ways in deals.items():
            expected[LEVELS[name].from_deal(player, banker)] += ways
        rc = sm.recount(LEVELS[name], shoe)
        assert rc is not None and rc.void == void, name
        assert dict(rc.counts) == dict(expected), name


def spanish_brute_force(shoe: Shoe) -> tuple[Counter[Any], int, int]:
    """Every ordered sequence of min(N, 4) physical cards of the Spanish shoe."""
    cards = spanish_shoe(shoe).cards()
    if len(cards) < 4:
        return Counter(), factorial(len(cards)), factorial(len(cards))
    out: Counter[Any] = Counter()
    for p1, up, p2, hole in itertools.permutations(cards, 4):
        out[LEVELS["spanish21-match"].from_deal([p1, p2], [up, hole])] += 1
    return out, sum(out.values()), 0


def assert_spanish_agrees(shoe: Shoe) -> None:
    counts, universe, void = spanish_brute_force(shoe)
    rc = sm.recount(LEVELS["spanish21-match"], shoe)
    assert rc is not None and (rc.universe, rc.void) == (universe, void)
    assert dict(rc.counts) == dict(counts)


@pytest.mark.parametrize("name", ["ten-low", "eleven-face-heavy", "five-cards", "four-cards", "three-cards"])
def test_small_shoes_against_the_oracle(name: str) -> None:
    assert_oracle_agrees(SMALL_SHOES[name])
    assert_spanish_agrees(SMALL_SHOES[name])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FACES), min_size=1, max_size=8))
def test_random_small_shoes_against_the_oracle(cards: list[Any]) -> None:
    shoe = Shoe.from_cards(cards)
    assert_oracle_agrees(shoe)
    if any(c.rank != "10" for c in cards):
        assert_spanish_agrees(shoe)


def test_short_shoes_are_dealt_card_by_card() -> None:
    """Fewer than six cards (Spanish 21: four): the method is the brute-force deal, with void rounds."""
    five = SMALL_SHOES["five-cards"]
    c = sm.outcome_counts(CATALOGUE["lucky-nines"], CATALOGUE["lucky-nines"].paytable("A"), five)
    assert c is not None and c.method == sm.SHORT_SHOE and c.universe == 120 and c.void > 0
    mtd = CATALOGUE["match-the-dealer"]
    c = sm.outcome_counts(mtd, mtd.default_paytable, SMALL_SHOES["three-cards"])
    assert c is not None and c.universe == c.void == 6 and not c.counts


# -- independence and failure -------------------------------------------------------------------

def test_the_engine_counts_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every level's distribution broken, the second method still counts (only
    ``from_deal``, the reading of one round, comes from the engine)."""
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the second method called the engine")
    for method in ("price_batch", "priced", "distribution", "price_classes"):
        monkeypatch.setattr(Level, method, broken)
    shoe = EIGHT.remove(FACES[:7])  # a shoe no test has priced before
    sm.recount.cache_clear()
    rank_walk.rank_walk.cache_clear()
    for w, t in PAYTABLES:
        c = sm.outcome_counts(w, t, shoe)
        spanish = not w.level.baccarat
        size, depth = (spanish_shoe(shoe).size, 4) if spanish else (shoe.size, 6)
        assert c is not None and sum(c.counts.values()) == c.universe == falling_factorial(size, depth)


ONE_PER_LEVEL = {w.level.name: w for w in CATALOGUE.values()}


@pytest.mark.parametrize("level", sorted(ONE_PER_LEVEL))
def test_a_corrupted_count_is_detected(level: str) -> None:
    """Move one round from one outcome to another (the total unchanged): certify's
    comparison flags both rows and disagrees."""
    w = ONE_PER_LEVEL[level]
    a = analyze(w, None, EIGHT)
    rows = list(a.rows)
    i, j = 0, len(rows) - 1
    rows[i] = dataclasses.replace(rows[i], count=rows[i].count + 1)
    rows[j] = dataclasses.replace(rows[j], count=rows[j].count - 1)
    bad = Analysis.of_rows(a.wager, a.paytable, a.shoe, rows)
    entry = _second_method(bad)
    assert entry["agrees"] is False
    assert [r["agrees"] for r in entry["outcomes"]] == [k not in (i, j) for k in range(len(rows))]
    assert _second_method(a)["agrees"] is True


def test_a_corrupted_second_method_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other way round: one round of the second method moved from its commonest result to
    another (the total unchanged), and the report says so."""
    real = FourFaces.keyed

    def skewed(self: FourFaces, level: Any, shoe: Shoe) -> Any:
        counts, universe = real(self, level, shoe)
        counts = counts.copy()
        k = int(counts.argmax())
        counts[k] -= 1
        counts[(k + 1) % len(counts)] += 1
        return counts, universe

    monkeypatch.setattr(FourFaces, "keyed", skewed)
    monkeypatch.setattr(sm, "recount", sm.recount.__wrapped__)  # no cached recount
    doc = build_report({"wagers": ["lucky-nines"], "paytable": None, "shoe": {"decks": 8},
                        "sensitivity_decks": [8], "effects_of_removal": False})
    assert doc["games"][0]["tables"][0]["verification"]["second_method"]["agrees"] is False
    assert doc["summary"]["all_checks_hold"] is False


def test_the_level_engine_itself_corrupted_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong engine count for a non-coup level now shows in the report."""
    nines = LEVELS["opening-nines"]
    real = Level.priced

    def skewed(self: Level, shoe: Shoe) -> Any:
        universe, counts, void = real(self, shoe)
        if self is nines:
            counts = counts.copy()
            counts[int(counts.argmax())] += 1
            universe += 1
        return universe, counts, void

    monkeypatch.setattr(Level, "priced", skewed)
    monkeypatch.setattr(analysis, "SESSION", analysis.Session())  # no tally of the real counts kept
    doc = build_report({"wagers": ["lucky-nines"], "paytable": None, "shoe": {"decks": 8},
                        "sensitivity_decks": [8], "effects_of_removal": False})
    assert doc["games"][0]["tables"][0]["verification"]["second_method"]["agrees"] is False
