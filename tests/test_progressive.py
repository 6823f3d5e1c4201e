"""Progressives: deal-face levels against the oracle and direct formulas, the symbolic
return, break-even meters, Royal 9 positions and the must-hit-by mystery meters."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from math import ceil

import oracle
import pytest
import typer
from conftest import shoe_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import CATALOGUE
from exactodds.catalogue.progressives import DEFAULT_LAYOUT, royal9_wager
from exactodds.engine.levels import LEVELS, coup_distribution
from exactodds.errors import InputError
from exactodds.figures.analysis import analysis_json, analyze
from exactodds.figures.progressive import (
    MYSTERY_CONFIGS,
    expected_wagers_per_hit,
    meter_variable,
    mystery_long_run,
    progressive_figures,
)
from exactodds.game.cards import FACES, Card, Shoe, falling_factorial
from exactodds.game.rules import Coup, play

PROGRESSIVES = ("heavenly-9-progressive", "harmony", "royal-9")

# Small shoes with repeated faces, so that the one-suit / one-rank / personal-K9 cells fill.
FACE_SHOES = {
    "suited-nines": shoe_of("2S 2S AS 3S 5S 5S 2H 5H KS 9D"),
    "six-fives": shoe_of("5S 5S 5H 5D 5C 5S 8S 8H 8D 8C"),
    "zeros": shoe_of("KS KS KS KH QD JC 10S 3S 3S"),
    "royal": shoe_of("KS KS 9H 9H QD 9D JC 9S KH"),
    "royal-five": shoe_of("KS 9H KS 9H 2C"),
}


def engine(wager, table_id: str, shoe: Shoe) -> dict[str, int]:
    a = analyze(wager, table_id, shoe)
    return {("void" if r.name.startswith("Round void") else r.name): r.count for r in a.rows if r.count}


def brute(wager, table_id: str, shoe: Shoe, tallies: dict) -> dict[str, int]:
    if (shoe, wager.level) not in tallies:
        tallies[(shoe, wager.level)] = oracle.tally(shoe, wager.level.from_deal)
    counts, void = tallies[(shoe, wager.level)]
    out: Counter[str] = Counter()
    for result, n in counts.items():
        out[wager.settle(wager.paytable(table_id), result)] += n
    if void:
        out["void"] = void
    return dict(out)


def test_every_progressive_agrees_with_the_oracle_on_repeated_faces() -> None:
    tallies: dict = {}
    seen: Counter[str] = Counter()
    wagers = [CATALOGUE[w] for w in PROGRESSIVES] + [royal9_wager(p) for p in (2, 5)]
    for shoe in FACE_SHOES.values():
        for w in wagers:
            for t in w.paytables:
                rows = engine(w, t.id, shoe)
                assert rows == brute(w, t.id, shoe, tallies), (w.id, t.id)
                seen.update(name for name in rows if name in t.pays)
    # the rare cells were actually exercised
    for name in ("Player and Banker 3-card 9 tie, all cards same suit", "Tie with six-of-a-kind",
                 "Tie with four 8s, four cards dealt", "Tie with six 0-value cards",
                 "Personal king 9 v. personal king 9 (mega)", "Mega envy: any position's king 9 v. king 9"):
        assert seen[name] > 0, name


pool = st.sampled_from([Card(r, s) for r in ("A", "4", "5", "9", "K", "Q") for s in ("S", "H", "D")])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pool, min_size=1, max_size=8))
def test_level_distributions_equal_the_oracle(cards: list[Card]) -> None:
    shoe = Shoe.from_cards(cards)
    for level in (LEVELS["deal-faces"], LEVELS["royal-9-opening"]):
        d = level.distribution(shoe)
        counts, void = oracle.tally(shoe, level.from_deal)
        assert dict(d.counts) == dict(counts) and d.void == void, level.name


# -- direct formulas (8 decks) ------------------------------------------------------------

D = 8
N = 52 * D
SHOE = Shoe.standard(D)


def one_suit_shoe(suits: set[str]) -> Shoe:
    return Shoe(tuple(D if c.suit in suits else 0 for c in FACES))


def rows(wager_id: str, table: str | None = None) -> dict[str, int]:
    return {r.name: r.count for r in analyze(wager_id, table, SHOE).rows}


def test_heavenly_9_cells_by_single_suit_shoes() -> None:
    """One suit: 4 x the 3-card-9 ties of a shoe holding only spades (6-card rounds, no
    undealt factor); one colour: 2 x those of a black-only shoe; cells nested."""
    nine_tie = Coup(9, 9, 3, 3)
    suit = 4 * coup_distribution(one_suit_shoe({"S"})).counts[nine_tie]
    colour = 2 * coup_distribution(one_suit_shoe({"S", "C"})).counts[nine_tie]
    r = rows("heavenly-9-progressive")
    assert r["Player and Banker 3-card 9 tie, all cards same suit"] == suit
    assert r["Player and Banker 3-card 9 tie, all cards same colour"] == colour - suit
    ties = coup_distribution(SHOE).counts[nine_tie]
    assert suit + (colour - suit) + r["Player and Banker 3-card 9 tie"] == ties
    assert 0 < suit < colour < ties


def _cards_used(v: int) -> int:
    for m in (4, 5, 6):
        try:
            play([v] * m)
            return m
        except ValueError:
            continue
    raise AssertionError


def test_harmony_rank_cells_by_direct_formula() -> None:
    r = rows("harmony", "A")
    six = sum(falling_factorial(4 * D, 6) for v in [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0] if _cards_used(v) == 6)
    four = sum(falling_factorial(4 * D, 4) for v in [1, 2, 3, 4, 5, 6, 7, 9, 0, 0, 0, 0] if _cards_used(v) == 4)
    undealt = falling_factorial(N - 4, 2)
    assert r["Tie with six-of-a-kind"] == six
    assert r["Tie with four 8s, four cards dealt"] == falling_factorial(4 * D, 4) * undealt
    assert r["Tie with four-of-a-kind, four cards dealt"] == four * undealt
    zero_six = falling_factorial(16 * D, 6) if _cards_used(0) == 6 else 0
    assert r["Tie with six 0-value cards"] == zero_six - 4 * falling_factorial(4 * D, 6)


def test_harmony_colour_cell_by_single_colour_shoes() -> None:
    black = coup_distribution(one_suit_shoe({"S", "C"}))
    nb = 26 * D
    same_colour = sum(2 * n * falling_factorial(N - c.player_cards - c.banker_cards, 6 - c.player_cards - c.banker_cards)
                      // falling_factorial(nb - c.player_cards - c.banker_cards, 6 - c.player_cards - c.banker_cards)
                      for c, n in black.counts.items() if c.winner == "tie")
    level = LEVELS["deal-faces"].distribution(SHOE)
    assert same_colour == sum(n for res, n in level.counts.items() if res.tie and res.one_colour)
    single_suit = sum(4 * n * falling_factorial(N - c.player_cards - c.banker_cards, 6 - c.player_cards - c.banker_cards)
                      // falling_factorial(13 * D - c.player_cards - c.banker_cards,
                                           6 - c.player_cards - c.banker_cards)
                      for c, n in coup_distribution(one_suit_shoe({"S"})).counts.items() if c.winner == "tie")
    assert single_suit == sum(n for res, n in level.counts.items() if res.tie and res.colour == "suit")


@pytest.mark.parametrize("table", list("ABCDEFGHI"))
def test_harmony_cells_sum_to_the_tie_probability(table: str) -> None:
    a = analyze("harmony", table, SHOE)
    paid = sum(r.probability for r in a.rows if r.name in a.paytable.pays)
    ties = Fraction(sum(n for c, n in coup_distribution(SHOE).counts.items() if c.winner == "tie"), a.total)
    assert paid == ties


# -- the symbolic return ------------------------------------------------------------------

amounts = st.fractions(min_value=0, max_value=10**7, max_denominator=100)


@pytest.mark.parametrize("wager_id,table", [("heavenly-9-progressive", None), ("royal-9", "5usd"),
                                            ("royal-9", "1usd-to"), ("harmony", "E")])
def test_expression_reset_and_break_even(wager_id: str, table: str | None) -> None:
    a = analyze(wager_id, table, SHOE)
    f = progressive_figures(a)
    resets = {m.name: m.reset for m in f.meters}
    if all(v is not None for v in resets.values()):
        assert f.return_at_reset == a.return_ == f.at(resets)  # type: ignore[arg-type]
    for name, be in f.break_even.items():
        if be is None:
            continue
        priced = {m.name: (be if m.name == name else m.reset or 0) for m in f.meters}
        assert analyze(wager_id, table, SHOE, priced).return_ == 0


@settings(max_examples=10, deadline=None)
@given(amounts, amounts, amounts)
def test_expression_equals_pricing_at_any_meters(m1: Fraction, m2: Fraction, m3: Fraction) -> None:
    given_ = {"mega": m1, "major": m2, "minor": m3}
    a = analyze("royal-9", "1usd", SHOE, given_)
    assert progressive_figures(a).at(given_) == a.return_
    # linear: the meter coefficient is P(hit)/stake
    f = progressive_figures(a)
    assert f.expression.coeff(meter_variable("mega")) == f.hit_probability["mega"] / 1


def test_long_run_returns() -> None:
    f = progressive_figures(analyze("heavenly-9-progressive", None, SHOE))
    assert f.long_run == f.return_at_reset + Fraction(1, 10)
    g = progressive_figures(analyze("harmony", "B", SHOE))
    base = g.at({"harmony": Fraction(0)})
    assert g.long_run == base + Fraction(19, 100) + Fraction(5, 100)


def test_bad_meters_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown meter"):
        analyze("royal-9", "5usd", SHOE, {"jackpot": Fraction(1)})
    with pytest.raises(InputError, match="negative"):
        analyze("royal-9", "5usd", SHOE, {"mega": Fraction(-1)})


# -- Royal 9 -------------------------------------------------------------------------------

def test_royal_9_positions_are_symmetric_in_a_full_shoe() -> None:
    first = analyze(royal9_wager(1), "5usd", SHOE)
    for p in range(2, len(DEFAULT_LAYOUT) + 1):
        a = analyze(royal9_wager(p), "5usd", SHOE)
        assert [r.count for r in a.rows] == [r.count for r in first.rows]
        assert progressive_figures(a).expression == progressive_figures(first).expression


def test_royal_9_counts_by_direct_formula() -> None:
    r = {x.name: x.count for x in analyze("royal-9", "5usd", SHOE).rows}
    n, rest = D, falling_factorial(N - 4, 2)
    assert r["Personal king 9 v. personal king 9 (mega)"] == (2 * n * n) * (2 * (n - 1) * (n - 1)) * rest
    major_any = 2 * n * n * (N - 2) * (N - 3) * rest
    assert r["Personal king 9 on banker hand (major)"] == major_any - r["Personal king 9 v. personal king 9 (mega)"]
    assert r["Mega envy: any position's king 9 v. king 9"] == 8 * r["Personal king 9 v. personal king 9 (mega)"]
    # any Royal 9 on a hand: 2 x 12n (faces) x 4n (nines) ordered first-two cards
    one_hand = 2 * (12 * n) * (4 * n) * (N - 2) * (N - 3) * rest
    both = 2 * 12 * n * 4 * n * 2 * (12 * n - 1) * (4 * n - 1) * rest
    assert sum(c for name, c in r.items() if name != "No Royal 9") == 2 * one_hand - both


def test_royal_9_five_and_one_dollar_tables_are_proportional() -> None:
    five = progressive_figures(analyze("royal-9", "5usd", SHOE))
    one = progressive_figures(analyze("royal-9", "1usd", SHOE))
    assert five.return_at_reset == one.return_at_reset
    to5 = analyze("royal-9", "5usd-to", SHOE)
    assert to5.return_ > analyze("royal-9", "5usd", SHOE).return_


# -- mystery meters -----------------------------------------------------------------------

@pytest.mark.parametrize("config", MYSTERY_CONFIGS, ids=lambda c: c.id)
def test_mystery_expected_wagers_by_tail_sum(config) -> None:
    """E[K] = Σ_{k≥1} P(K ≥ k) = Σ_{j=0}^{⌈T⌉−1} (T − j)/T, T = (max − min)/(rate·stake)."""
    t = (config.maximum - config.minimum) / (config.rate * config.stake)
    tail = sum((t - j) / t for j in range(ceil(t)))
    assert expected_wagers_per_hit(config) == tail
    if t.denominator == 1:
        assert tail == (t + 1) / 2
    lr = mystery_long_run(config)
    cont = config.rate * (config.minimum + config.maximum) / (config.maximum - config.minimum)
    assert abs(lr - cont) < Fraction(1, 100)  # continuous-meter approximation c(L+H)/(H−L)


def test_mystery_cli_and_meter_option() -> None:
    from exactodds.cli import app as cli
    from exactodds.cli import progressive as cli_progressive

    app = typer.Typer()
    app.command("noop")(lambda: None)
    cli_progressive.register(app)
    out = CliRunner().invoke(app, ["mystery", "--format", "json"])
    assert out.exit_code == 0 and len(json.loads(out.stdout)["configurations"]) == 18
    with pytest.raises(InputError, match="NAME=AMOUNT"):
        cli.parse_meters(["mega"])
    assert cli.parse_meters(["mega=$62500.5"]) == {"mega": Fraction(125001, 2)}
    with pytest.raises(InputError, match="comma"):  # 62,5 is 62.5 to some readers, 625 to others (issue 25)
        cli.parse_meters(["mega=62,5"])


def test_json_of_a_progressive() -> None:
    doc = analysis_json(analyze("heavenly-9-progressive", None, SHOE))
    assert "M_heavenly_9" in doc["return_expression"] and doc["return"] == doc["return_expression"]
    assert doc["priced_at"] == {"heavenly-9": "10000/1"}
    assert Fraction(doc["return_at_reset"]) == -Fraction(doc["house_edge"])
    assert doc["meters"][0]["reset"] == "10000/1" and doc["break_even"]["heavenly-9"]
    priced = analysis_json(analyze("heavenly-9-progressive", None, SHOE, {"heavenly-9": Fraction(20000)}))
    assert Fraction(priced["return"]) > Fraction(doc["return_at_reset"])
