"""The blackjack engine's splits, exactly: equal to the card-by-card brute force on small shoes.

The brute force (:mod:`exactodds.blackjack.bruteforce`) plays the whole round in the physical
order, split hands one after the other with every card seen, each split hand by the stated
post-split strategy (its decisions computed there from its own lone-hand values), a pair dealt
to a split hand resplit while under the number of hands chosen at the split. The engine values
the split by the pattern of second cards (:class:`exactodds.blackjack.engine.Game`). Both are
exact rationals, so they must be equal, to the last digit, with splits and resplits, under
standard and Spanish 21 rules. Bigger trees run with ``EXACTODDS_SLOW=1``.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import pytest

from exactodds.blackjack.bruteforce import brute_force
from exactodds.blackjack.engine import Game
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SpanishShoe

NO_SUITS = {6: (0, 0, 0, 0), 7: (0, 0, 0, 0), 8: (0, 0, 0, 0)}
NINES = SpanishShoe((1, 0, 0, 0, 0, 0, 0, 0, 3, 10), NO_SUITS)
"""Three 9s to split (up to three hands), an ace and tens: 128 points, enough for three hands."""
ACES = SpanishShoe((2, 0, 0, 0, 0, 0, 0, 0, 0, 16), NO_SUITS)
"""Two aces and tens: split aces, resplit when the rules allow (to four hands)."""
PAIRS = SpanishShoe((2, 0, 0, 0, 0, 0, 1, 2, 0, 8), {6: (0, 0, 0, 0), 7: (1, 0, 0, 0), 8: (1, 1, 0, 0)})
"""Pairs of aces, 8s and tens (the shoe on which the old per-hand split method was 0.0155 points off)."""

SUITED_SPLITS = SpanishShoe((0, 0, 0, 0, 0, 1, 3, 2, 0, 8), {6: (1, 0, 0, 0), 7: (2, 1, 0, 0), 8: (1, 1, 0, 0)})
"""Split 7s and 8s whose hands can draw a suited or mixed 6-7-8 and 7-7-7 (§ 551.6(g)(1)-(4)): the
suit-aware post-split decision and the suits of the pair cards (the old averaged suit term was
0.00013 (cdp1) and 0.00019 (cdz) off the brute force here)."""

STANDARD: dict[str, Any] = dict(player_21_wins=False, bonus_21_cards=False, bonus_678_777=False, rescue=False,
                                blackjack_beats_dealer_blackjack=False, hit_split_aces=False,
                                resplit_aces=False)
"""Standard blackjack's differences from § 551 (the engine's ``standard`` preset reads the same)."""

CASES: list[tuple[str, SpanishShoe, Rules]] = [
    ("pairs, spanish, cdp1", PAIRS, Rules(max_hands=2)),
    ("pairs, spanish, cdz", PAIRS, Rules(max_hands=2, post_split="cdz")),
    ("pairs, spanish, cdp (= cdp1 with two hands)", PAIRS, Rules(max_hands=2, post_split="cdp")),
    ("pairs, standard, cdz, no double after split", PAIRS,
     Rules(max_hands=2, post_split="cdz", double_after_split=False, **STANDARD)),
    ("nines, spanish, three hands, cdp1", NINES, Rules(max_hands=3, bonus_678_777=False)),
    ("nines, spanish, three hands, cdz, always resplit", NINES,
     Rules(max_hands=3, post_split="cdz", resplit_optional=False, bonus_678_777=False)),
    ("nines, standard, three hands, cdp1, h17, 10-11 doubles", NINES,
     Rules(max_hands=3, hit_soft_17=True, double_totals="10-11", **STANDARD)),
    ("aces, spanish, four hands, resplit and hit aces", ACES, Rules(max_hands=4)),
    ("aces, standard, four hands, resplit aces, one card", ACES,
     Rules(max_hands=4, **{**STANDARD, "resplit_aces": True})),
    ("aces, standard 6:5, surrender, no resplit of aces", ACES,
     Rules(max_hands=4, blackjack_pays="6:5", **STANDARD)),
    ("suited 6-7-8 / 7-7-7 on split hands, cdp1", SUITED_SPLITS, Rules(max_hands=2)),
    ("suited 6-7-8 / 7-7-7 on split hands, cdz", SUITED_SPLITS, Rules(max_hands=2, post_split="cdz")),
    ("suited 6-7-8 / 7-7-7 on split hands, cdp", SUITED_SPLITS, Rules(max_hands=2, post_split="cdp")),
    ("suited 6-7-8 / 7-7-7 on split hands, bonus on doubled hands, h17", SUITED_SPLITS,
     Rules(max_hands=2, bonus_on_doubled=True, hit_soft_17=True)),
]


@pytest.mark.parametrize("name,shoe,rules", CASES, ids=[c[0] for c in CASES])
def test_splits_equal_the_brute_force(name: str, shoe: SpanishShoe, rules: Rules) -> None:
    engine = Game(shoe, rules).solve().expected
    assert engine == brute_force(shoe, rules)


def test_splitting_changes_the_value_so_the_check_has_teeth() -> None:
    """The shoes above make splitting matter: the return with splits differs from the return
    without (else the equality would not test the split)."""
    for shoe, rules in ((NINES, Rules(max_hands=3, bonus_678_777=False)), (ACES, Rules(max_hands=4)),
                        (PAIRS, Rules(max_hands=2))):
        assert Game(shoe, rules).solve().expected != Game(shoe, rules.with_(max_hands=1)).solve().expected


def test_post_split_strategies_are_ordered() -> None:
    """cdz takes the unsplit hand's decisions, cdp1 the first split hand's best: on a shoe where
    they differ, cdp1 is at least cdz; resplitting by choice is at least always resplitting."""
    base = Rules(max_hands=3, bonus_678_777=False)
    cdz = Game(NINES, base.with_(post_split="cdz")).solve().expected
    cdp1 = Game(NINES, base).solve().expected
    assert cdp1 >= cdz
    always = Game(NINES, base.with_(resplit_optional=False)).solve().expected
    assert cdp1 >= always


@pytest.mark.skipif(not os.environ.get("EXACTODDS_SLOW"), reason="minutes of CPU: set EXACTODDS_SLOW=1")
@pytest.mark.parametrize("post_split", ["cdp1", "cdz"])
@pytest.mark.parametrize("standard", [False, True])
def test_splits_equal_the_brute_force_bigger_shoes(post_split: str, standard: bool) -> None:
    shoe = SpanishShoe((1, 0, 0, 0, 0, 0, 1, 4, 0, 9), {6: (0, 0, 0, 0), 7: (1, 0, 0, 0), 8: (1, 1, 1, 1)})
    extra: dict[str, Any] = STANDARD if standard else {"bonus_678_777": False}
    rules = Rules(max_hands=3, post_split=post_split, **extra)
    assert Game(shoe, rules).solve().expected == brute_force(shoe, rules)
    nines = SpanishShoe((1, 0, 0, 0, 0, 0, 0, 0, 4, 13), NO_SUITS)
    rules = rules.with_(max_hands=4)
    assert Game(nines, rules).solve().expected == brute_force(nines, rules)


def test_the_order_of_a_suited_pair_matters_with_resplits() -> None:
    """With resplits the first pair card's hand gets the first non-pair card and the second's is
    dealt last, so with the suit bonus a pair of 7s of two suits is worth a different amount in
    each order (the engine values each order, as the player who saw it does); without resplits,
    or without the bonus, both orders are worth the same."""
    shoe = SpanishShoe((0, 0, 0, 0, 0, 1, 4, 2, 0, 8), {6: (1, 0, 0, 0), 7: (2, 2, 0, 0), 8: (1, 1, 0, 0)})
    up, a, b = (10, -1), (7, 0), (7, 1)
    always = Rules(max_hands=3, resplit_optional=False)
    game = Game(shoe, always)
    assert game.split_value(up, a, b) != game.split_value(up, b, a)
    for rules in (always.with_(max_hands=2), always.with_(bonus_678_777=False)):
        game = Game(shoe, rules)
        assert game.split_value(up, a, b) == game.split_value(up, b, a)


@pytest.mark.skipif(not os.environ.get("EXACTODDS_SLOW"), reason="a minute of CPU: set EXACTODDS_SLOW=1")
@pytest.mark.parametrize("post_split", ["cdp1", "cdz"])
def test_suited_splits_with_resplits_equal_the_brute_force(post_split: str) -> None:
    """Three hands, always resplit, a pair of 7s of two suits: the hands' roles and each order."""
    shoe = SpanishShoe((0, 0, 0, 0, 0, 1, 4, 2, 0, 8), {6: (1, 0, 0, 0), 7: (2, 2, 0, 0), 8: (1, 1, 0, 0)})
    rules = Rules(max_hands=3, resplit_optional=False, post_split=post_split)
    assert Game(shoe, rules).solve().expected == brute_force(shoe, rules)


def test_split_pattern_probabilities_add_up() -> None:
    """Identity: with every hand's value 1 the split's value is the expected number of hands,
    which a direct walk over second cards gives too (3 pair cards in 14: 2, 3 or 4 hands); with
    every base value 1 the pattern sum's linear form (:func:`pattern_form`) sums to it."""
    from exactodds.blackjack.split_pattern import pattern_form, rank_weights

    left = (1, 0, 0, 0, 0, 0, 0, 0, 3, 10)
    n, p = sum(left), left[8]

    def hands(limit: int, h: int, need: int, pairs: int, nonpairs: int) -> Fraction:
        if need == 0 or h == limit:
            return Fraction(h)
        left_cards = n - pairs - nonpairs
        q = Fraction(p - pairs, left_cards)
        return q * hands(limit, h + 1, need + 1, pairs + 1, nonpairs) + (1 - q) * hands(limit, h, need - 1, pairs,
                                                                                       nonpairs + 1)

    for limit in (2, 3, 4):
        assert sum(pattern_form(n, p, limit).values()) == hands(limit, 2, 2, 0, 0)
        den, rows = rank_weights(n, p, limit)
        assert Fraction(sum(wx + wpv for _, wx, wpv in rows), den) == hands(limit, 2, 2, 0, 0)


def _cli(*args: str) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from exactodds.cli.app import app

    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_blackjack_command_json_equals_the_brute_force_per_preset() -> None:
    """``blackjack --preset standard`` keeps the 10s and plays standard rules; ``--preset
    spanish21`` takes them out (§ 551.3(a)); options change one rule each; the JSON's exact
    return equals the brute force of the same shoe and rules."""
    import json

    from exactodds.blackjack.rules import STANDARD_RULES

    spec = "A=1,9=3,K=10"
    code, out, err = _cli("blackjack", "--preset", "standard", "--shoe", spec, "--max-hands", "2", "--h17",
                          "--post-split", "cdz", "--no-basic", "-f", "json")
    assert code == 0, err
    doc = json.loads(out)
    rules = STANDARD_RULES.with_(max_hands=2, hit_soft_17=True, post_split="cdz")
    assert Fraction(doc["expected_return"]["exact"]) == brute_force(NINES, rules)
    assert Fraction(doc["house_edge"]["exact"]) == -Fraction(doc["expected_return"]["exact"])
    assert doc["preset"] == "standard" and doc["shoe"]["cards"] == 14
    # the same shoe with 10s of rank "10": the Spanish preset removes them, the standard one keeps them
    code, out, err = _cli("blackjack", "--preset", "spanish21", "--shoe", "A=1,9=3,K=10,10=4", "--max-hands", "2",
                          "--no-bonuses", "--no-basic", "-f", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["shoe"]["cards"] == 14
    assert Fraction(doc["expected_return"]["exact"]) == brute_force(NINES, Rules(max_hands=2, bonus_21_cards=False,
                                                                                   bonus_678_777=False))


@pytest.mark.parametrize("bad", [
    ["--preset", "casino"], ["--double-totals", "8-11"], ["--blackjack-pays", "2:1"], ["--post-split", "cdx"],
    ["--rescue-after-redouble", "some"], ["--max-hands", "5"], ["--redouble", "4"], ["--decks", "0"],
    ["--remove", "A,A,A"], ["--shoe", "A=1,K=2"],
])
def test_blackjack_command_bad_input_is_one_line(bad: list[str]) -> None:
    code, out, err = _cli("blackjack", "--shoe", "A=2,K=40", "--max-hands", "2", "--no-basic", *bad) \
        if bad[0] not in ("--shoe", "--decks") else _cli("blackjack", "--max-hands", "2", "--no-basic", *bad)
    assert code == 2 and out == "" and err.startswith("exactodds: error:") and err.count("\n") == 1, err


def test_presets_and_aliases() -> None:
    """Presets only set defaults: ``spanish21 --wizard --h17`` = ``blackjack --preset wizard --h17``;
    each old spanish21 flag is one side of a pair."""
    from exactodds.cli.options import spanish21_rules

    assert spanish21_rules(wizard=True, h17=True) == spanish21_rules("wizard", h17=True)
    assert spanish21_rules("standard", surrender=True).surrender and not spanish21_rules("standard").surrender
    assert spanish21_rules(surrender=False).changed() == {"surrender": False}
    assert spanish21_rules("standard", bonuses=True).bonus_678_777
    assert spanish21_rules(bj_push=True).blackjack_beats_dealer_blackjack is False


def test_progress_moves_and_ends_at_its_total() -> None:
    """The analysis reports progress per initial deal over every solve (strategy, basic chart):
    never backwards, ending at its total (the command line draws it with rich on a terminal)."""
    from exactodds.spanish21.figures import spanish21_analysis

    seen: list[tuple[int, int]] = []
    spanish21_analysis(PAIRS, Rules(max_hands=2), basic=True, progress=lambda d, t, _: seen.append((d, t)))
    assert len(seen) > 10 and len({t for _, t in seen}) == 1
    done = [d for d, _ in seen]
    assert done == sorted(done) and done[-1] == seen[-1][1]


def test_many_aces_with_extra_pair_cards_out() -> None:
    """Regression: with 22-25 aces of each value's 23 the split solvers' hands (21 aces, the pair's
    other ace and up to four extra aces out) exceed the shoe and must be left out, not priced (the
    dealer table's sum check refused them: 'the shoe ran out', 6 decks, four hands); the solver of
    split aces with four extra aces out now builds, and its values of a hand add up: standing on
    soft 12 loses or wins at most one unit per no-Blackjack chance."""
    shoe = SpanishShoe((23,) * 10, {6: (6, 6, 6, 5), 7: (6, 6, 6, 5), 8: (6, 6, 6, 5)})
    game = Game(shoe, Rules(max_hands=4))
    hs = game.solver(1, 1, 4)
    hand = (2,) + (0,) * 9
    stand = hs.fraction(hand, hs.stand(hand, 0))
    assert -1 <= stand <= 1 and stand != 0


def test_a_batch_of_shoes_equals_each_shoe_alone() -> None:
    """The dealer table's batch (the sum one value at a time over the distinct tails of many removed
    multisets, of several sizes) against a table made for each shoe alone (a batch of one): equal
    numerators, exactly, for 300 random removals from 2 decks under both dealer rules."""
    import random

    from exactodds.blackjack.dealer import DealerTable

    base = (8, 8, 8, 8, 8, 8, 8, 8, 8, 32)
    rng = random.Random(27)
    removed = {tuple(rng.randint(0, 3) for _ in range(9)) + (rng.randint(0, 6),) for _ in range(300)}
    for up, h17 in ((1, False), (6, True), (10, False)):
        table = DealerTable(base, up, h17, floor=0)
        table.request_removed(removed)
        for x in sorted(removed)[::15]:
            rem = tuple(b - y for b, y in zip(base, x))
            assert table.numerators(rem) == DealerTable(rem, up, h17, 0).numerators(rem)


def test_released_nodes_are_recomputed_to_the_same_values() -> None:
    """A solve frees each up card's node values (and the actions of split hands with extra pair
    cards out) once its deals are valued; asked again, a node is recomputed: the same value and
    actions as in a fresh game, and the split's value unchanged."""
    rules = Rules(max_hands=3, bonus_678_777=False)
    game = Game(NINES, rules)
    game.solve()
    fresh = Game(NINES, rules)
    hand = (1,) + (0,) * 7 + (1, 0)  # a split 9 with an ace, against a ten, one extra 9 out
    split = game.solver(10, 9, 1)
    assert not split.memo and not split.node_actions
    assert split.value(hand) == fresh.solver(10, 9, 1).value(hand)
    assert split.node_actions == fresh.solver(10, 9, 1).node_actions and split.node_actions
    up, nine = (10, -1), (9, -1)
    assert game.split_value(up, nine, nine) == fresh.split_value(up, nine, nine)


def test_rules_reading_no_suit_decide_each_suited_deal_as_alone() -> None:
    """Under rules that read no suit (no 6-7-8 / 7-7-7 bonus) the solve decides each rank triple
    once and gives its suited deals copies: each deal's decision equals the deal decided alone in a
    fresh game, with its own cards; the expected equals the brute force; with the bonus, the suits
    of deals of equal ranks do change their values (so the copies are only taken without it)."""
    rules = Rules(max_hands=2, bonus_678_777=False)
    result = Game(SUITED_SPLITS, rules).solve()
    alone = Game(SUITED_SPLITS, rules)
    ranks = set()
    for (up, c1, c2), (_, d) in result.deals.items():
        assert (d.up, d.cards) == (up, (c1, c2)) and d == alone.decide(up, c1, c2)
        ranks.add((up[0], c1[0], c2[0]))
    assert len(ranks) < len(result.deals)
    assert result.expected == brute_force(SUITED_SPLITS, rules)
    suited = Game(SUITED_SPLITS, rules.with_(bonus_678_777=True)).solve().deals
    values: dict[tuple[int, int, int], set[Fraction]] = {}
    for (up, c1, c2), (_, d) in suited.items():
        values.setdefault((up[0], c1[0], c2[0]), set()).add(d.value)
    assert any(len(v) > 1 for v in values.values())


def test_initial_deals_count_every_ordered_deal_of_the_cards() -> None:
    """:func:`initial_deals` (ways by products of falling factorials) equals the count of every
    ordered deal of three distinct physical cards (player, up, player; § 551.8(d)) of a small
    suited shoe, by deal, in ascending order."""
    from exactodds.blackjack.engine import initial_deals

    shoe = SpanishShoe((2, 0, 1, 0, 0, 2, 3, 1, 0, 3), {6: (1, 1, 0, 0), 7: (2, 0, 0, 1), 8: (0, 0, 1, 0)})
    cards = [card for card, k in shoe.types() for _ in range(k)]
    counted: dict[tuple[tuple[int, int], ...], int] = {}
    for i, c1 in enumerate(cards):
        for j, up in enumerate(cards):
            for k, c2 in enumerate(cards):
                if len({i, j, k}) == 3:
                    key = (up, min(c1, c2), max(c1, c2))
                    counted[key] = counted.get(key, 0) + 1
    deals = initial_deals(shoe)
    assert deals == counted and list(deals) == sorted(deals)
    assert sum(deals.values()) == len(cards) * (len(cards) - 1) * (len(cards) - 2)


def test_the_shoe_line_names_the_decks_it_holds() -> None:
    """The human view's shoe line counts the cards of each deck from the shoe itself: a standard
    deck keeps its 52 cards (four 10s), a Spanish one 48 (§ 551.3(a)); it once said 48 for both."""
    code, out, err = _cli("blackjack", "--preset", "standard", "--decks", "1", "--max-hands", "2", "--no-basic")
    assert code == 0, err
    assert "52 cards, 1 deck of 52" in out
    code, out, err = _cli("blackjack", "--preset", "spanish21", "--decks", "1", "--max-hands", "2", "--no-basic")
    assert code == 0, err
    assert "48 cards, 1 deck of 48" in out
