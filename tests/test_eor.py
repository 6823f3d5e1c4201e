"""Effects of removal: the exact identity, the brute-force oracle on small shoes, a
second enumeration at 8 decks, the suit-symmetry claim, and the count system."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache

import oracle
import pytest
from conftest import shoe_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE
from exactodds.engine.level import Level
from exactodds.engine.levels import LEVELS, coup_distribution
from exactodds.figures.analysis import analyze
from exactodds.figures.eor import DistributionCache, balanced_count, effects_for, effects_of_removal, price
from exactodds.game.cards import RANKS, SUITS, Card, Shoe
from exactodds.game.walk import RANK_CLASSES
from exactodds.report.figure_views import render_eor

ALL = [(w, t) for w in CATALOGUE.values() for t in w.paytables]
BACCARAT = [(w, t) for w, t in ALL if w.level.baccarat]
COUP = [(w, t) for w, t in ALL if w.level.name == "coup"]


def test_identity_holds_exactly_for_every_coup_wager_at_8_and_6_decks() -> None:
    for decks in (8, 6):
        results, skipped = effects_for(COUP, Shoe.standard(decks))
        assert not skipped and len(results) == len(COUP)
        for e in results:
            n = e.shoe.size
            # Σ over every face, weights n_f, written out here rather than read from the result
            lhs = sum((e.shoe.count(f.card) * f.return_after for f in e.faces), Fraction(0))
            assert lhs == n * e.base_return, (e.wager.id, e.paytable.id)
            assert sum((x.copies * x.effect for x in e.ranks), Fraction(0)) == 0
            assert e.identity_holds


def test_identity_holds_for_every_level_on_a_depleted_shoe() -> None:
    shoe = shoe_of("AS 9S 9H 9D KS KH QC 8D 8C 7S 5H 3D 2C JH 10S 4C")
    results, skipped = effects_for(ALL, shoe)
    assert not skipped
    for e in results:
        lhs = sum((e.shoe.count(f.card) * f.return_after for f in e.faces), Fraction(0))
        assert lhs == shoe.size * e.base_return, (e.wager.id, e.paytable.id)


@lru_cache(maxsize=64)
def _oracle_counts(shoe: Shoe, level: Level) -> tuple[Counter, int]:
    return oracle.tally(shoe, level.from_deal)


def _oracle_return(wager, table, shoe: Shoe) -> Fraction:
    counts, void = _oracle_counts(shoe, wager.level)
    total = sum(counts.values()) + void
    acc = Fraction(0)
    for result, n in counts.items():
        pay = table.pays.get(wager.settle(table, result)) or wager.otherwise_pay(table)
        if pay.meter is not None:
            from exactodds.figures.settlement import meter_amounts, priced_pay
            pay = priced_pay(pay, table, meter_amounts(table, None))
        acc += pay.net * n
    return acc / total


@pytest.mark.parametrize("cards", ["AS 9H 9D KC QS 8H 3D 5C", "9S 9H KS KH QD 7C 2S 6D", "KS QS JS 9S 9H 8C 4D 10H"])
def test_every_effect_agrees_with_the_brute_force_oracle(cards: str) -> None:
    shoe = shoe_of(cards)
    results, _ = effects_for(BACCARAT, shoe)
    for e in results:
        assert e.base_return == _oracle_return(e.wager, e.paytable, shoe)
        for f in e.faces:
            assert f.return_after == _oracle_return(e.wager, e.paytable, shoe.remove([f.card])), (e.wager.id, f.label)


def test_price_equals_the_analysis_for_every_wager() -> None:
    cache = DistributionCache()
    for shoe in (Shoe.standard(8), shoe_of("AS 9S 9H 9D KS KH QC 8D 8C 7S 5H")):
        for w, t in ALL:
            assert price(w, t, cache.get(w.level, shoe)) == analyze(w, t.id, shoe).return_, (w.id, t.id)


def test_dragon_7_effects_against_the_rank_class_enumeration() -> None:
    """Each 8-deck removal recomputed by the independent 13-rank-class walk."""
    e = effects_of_removal("dragon-7")
    for x in e.ranks:
        shoe = Shoe.standard(8).remove([Card(x.rank, "S")])
        d = coup_distribution(shoe, RANK_CLASSES)
        wins = sum(n for c, n in d.counts.items() if c.dragon_7)
        assert x.return_after == Fraction(40 * wins - (d.universe - wins), d.universe)
    by = {x.rank: x.effect for x in e.ranks}
    assert by["8"] > by["9"] > 0 > by["7"]  # removing 8s/9s helps the Dragon 7 bettor, 7s hurt
    assert e.count.balanced and e.count.tags["8"] > 0 > e.count.tags["7"]


@pytest.mark.parametrize("level", [lv for lv in LEVELS.values() if lv.suits == "symmetric"], ids=lambda lv: lv.name)
def test_suit_symmetric_levels_really_are(level: Level) -> None:
    """The claim that lets one face per rank stand for four, checked on a suit-uniform shoe."""
    shoe = Shoe.from_counts({Card(r, s): 2 for r in ("9", "K", "8", "3", "A") for s in SUITS})
    pairs = [(w, t) for w, t in ALL if w.level == level]
    dists = {Card(r, s): level.distribution(shoe.remove([Card(r, s)])) for r in ("9", "K") for s in SUITS}
    for w, t in pairs:
        for r in ("9", "K"):
            assert len({price(w, t, dists[Card(r, s)]) for s in SUITS}) == 1, (w.id, t.id, r)


def test_suit_sensitive_wagers_list_their_faces() -> None:
    shoe = shoe_of("AS 9S 9H 9D KS KH QC 8D 8C 7S 5H 3D 2C JH 10S 4C 9C")
    if "lucky-nines" in CATALOGUE:
        e = effects_of_removal("lucky-nines", None, shoe)
        assert "9" in e.suit_sensitive_ranks  # the diamond 9 is paid on its own
        assert {f.label for f in e.shown_faces} >= {"9S", "9D"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.integers(-4, 4), min_size=12, max_size=12).map(lambda t: [*t, -sum(t)])
       .filter(lambda t: abs(t[-1]) <= 4 and any(t)))
def test_count_recovers_proportional_balanced_tags(tags: list[int]) -> None:
    top = max(abs(t) for t in tags)
    effects = {r: Fraction(t, 977) for r, t in zip(RANKS, tags)}
    c = balanced_count(effects, {r: 32 for r in RANKS}, max_tag=top)
    assert c.balanced and c.imbalance == 0
    assert c.r_squared == 1 and c.correlation == "1.000000"
    got_top = max(abs(v) for v in c.tags.values())
    assert [c.tags[r] * top for r in RANKS] == [t * got_top for t in tags]  # proportional


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fractions(-10, 10), min_size=13, max_size=13), st.lists(st.integers(0, 40), min_size=13, max_size=13))
def test_count_is_integer_and_balanced_when_it_says_so(effects: list[Fraction], weights: list[int]) -> None:
    c = balanced_count(dict(zip(RANKS, effects)), dict(zip(RANKS, weights)))
    assert all(isinstance(v, int) and abs(v) <= 4 for v in c.tags.values())
    assert c.imbalance == sum(w * c.tags[r] for r, w in zip(RANKS, weights))
    assert c.balanced == (c.imbalance == 0)
    assert c.r_squared is None or 0 <= c.r_squared <= 1


def test_render_formats() -> None:
    e = effects_of_removal("banker", "5pct", Shoe.standard(6))
    assert "holds exactly" in render_eor(e, "table")
    assert render_eor(e, "csv").count("\n") == 14
    assert '"holds": true' in render_eor(e, "json")


def test_effects_of_removal_at_given_meters_are_analyze_at_those_meters() -> None:
    """Issue 25: --meter was on analyze and design only. eor prices a progressive at the given
    meters: every effect is analyze(shoe - card, meters) - analyze(shoe, meters), exactly."""
    import json

    from typer.testing import CliRunner

    from exactodds.cli.app import app

    shoe, meters = Shoe.standard(2), {"mega": Fraction(62500), "major": Fraction(1200)}
    e = effects_of_removal("royal-9", "5usd", shoe, meters=meters)
    reset = effects_of_removal("royal-9", "5usd", shoe)
    base = analyze("royal-9", "5usd", shoe, meters).return_
    assert e.base_return == base != reset.base_return       # the meters matter at 2 decks
    for x in [*e.faces[:: 7], *e.ranks[:: 4]]:
        cards = [x.card] if x.card is not None else []
        if cards:
            assert x.effect == analyze("royal-9", "5usd", shoe.remove(cards), meters).return_ - base, x.label
    doc = json.loads(CliRunner().invoke(app, ["eor", "royal-9", "-d", "2", "--meter", "mega=62500",
                                              "--meter", "major=1200", "-f", "json"]).stdout)
    assert {k: v for k, v in doc["meters"].items() if "_" not in k} == {"mega": "62500/1", "major": "1200/1",
                                                                        "minor": "450/1"}
    assert Fraction(doc["return"]) == base
    assert "meters" not in json.loads(CliRunner().invoke(app, ["eor", "tie", "-d", "1", "-f", "json"]).stdout)
