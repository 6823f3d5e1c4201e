"""Spanish 21 through the game seam (issue 26): the exact distribution of a round's net result.

The distribution (:mod:`exactodds.blackjack.distribution`) is checked against the card-by-card
brute force (:func:`exactodds.blackjack.bruteforce.brute_force_distribution`, written apart from
the engine) on small shoes -- every net's probability equal, splits, resplits and suited bonuses
included -- and its mean against the engine's expected return (an identity). The game's hooks
(:class:`exactodds.spanish21.game.Spanish21`) are run on a small shoe (the certified shoes take
minutes): the certificate entry, the simulator against the exact return, the rules record and the
command line's rule options.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from exactodds.blackjack.bruteforce import brute_force, brute_force_distribution
from exactodds.blackjack.distribution import distribution
from exactodds.blackjack.engine import Game
from exactodds.blackjack.rules import WIZARD_RULES, Rules
from exactodds.blackjack.settlement import settle_vector
from exactodds.blackjack.shoe import SpanishShoe
from exactodds.errors import InputError
from exactodds.game.protocol import rules_record
from exactodds.spanish21 import game as s21

NO_SUITS = {6: (0, 0, 0, 0), 7: (0, 0, 0, 0), 8: (0, 0, 0, 0)}
SMALL = SpanishShoe((1, 1, 0, 0, 0, 1, 2, 1, 0, 4), {6: (1, 0, 0, 0), 7: (1, 1, 0, 0), 8: (1, 0, 0, 0)})
"""A 6-7-8 of spades is possible (3 to 1, § 551.6(g)(2))."""
SEVENS = SpanishShoe((1, 1, 0, 0, 0, 0, 4, 0, 0, 4), {6: (0, 0, 0, 0), 7: (3, 1, 0, 0), 8: (0, 0, 0, 0)})
"""Suited 7-7-7 against a dealer 7 (§ 551.6(h))."""
PAIRS = SpanishShoe((2, 0, 0, 0, 0, 0, 1, 2, 0, 8), {6: (0, 0, 0, 0), 7: (1, 0, 0, 0), 8: (1, 1, 0, 0)})
NINES = SpanishShoe((1, 0, 0, 0, 0, 0, 0, 0, 3, 10), NO_SUITS)
ACES = SpanishShoe((2, 0, 0, 0, 0, 0, 0, 0, 0, 16), NO_SUITS)
SPLIT_SEVENS = SpanishShoe((1, 0, 0, 0, 0, 1, 3, 1, 0, 9), {6: (1, 0, 0, 0), 7: (2, 1, 0, 0), 8: (0, 1, 0, 0)})
"""7s to split with a 6 and an 8 about: split hands that make a mixed or suited 6-7-8 / 7-7-7."""

STANDARD = dict(player_21_wins=False, bonus_21_cards=False, bonus_678_777=False, rescue=False,
                blackjack_beats_dealer_blackjack=False, hit_split_aces=False, resplit_aces=False)

SLOW = pytest.mark.skipif(not os.environ.get("EXACTODDS_SLOW"), reason="a bigger tree: set EXACTODDS_SLOW=1")
CASES = [
    pytest.param("678 spades, no split", SMALL, Rules(max_hands=1), marks=SLOW),
    pytest.param("678 spades, h17, double any, redouble", SMALL,
                 Rules(max_hands=1, hit_soft_17=True, double_any_cards=True, redoubles=1), marks=SLOW),
    pytest.param("678 spades, bonus on doubled", SMALL,
                 Rules(max_hands=1, bonus_on_doubled=True, double_any_cards=True), marks=SLOW),
    ("sevens, super bonus $5", SEVENS, Rules(max_hands=1, super_bonus_bet=Fraction(5))),
    ("sevens, no surrender or rescue", SEVENS, Rules(max_hands=1, surrender=False, rescue=False)),
    ("pairs, two hands, cdp1", PAIRS, Rules(max_hands=2)),
    ("pairs, two hands, cdz, standard", PAIRS, Rules(max_hands=2, post_split="cdz", **STANDARD)),
    pytest.param("nines, three hands, cdp1", NINES, Rules(max_hands=3, bonus_678_777=False), marks=SLOW),
    ("nines, three hands, always resplit, cdz", NINES, Rules(max_hands=3, post_split="cdz", resplit_optional=False,
                                                             bonus_678_777=False)),
    ("aces, four hands, resplit and hit aces", ACES, Rules(max_hands=4)),
    pytest.param("split sevens with suited bonuses, two hands", SPLIT_SEVENS, Rules(max_hands=2), marks=SLOW),
]


@pytest.mark.parametrize("name,shoe,rules", CASES)
def test_distribution_equals_the_brute_force_and_its_mean_the_engine(name: str, shoe: SpanishShoe,
                                                                     rules: Rules) -> None:
    """Every net's probability equals the card-by-card brute force's; the mean is the engine's return."""
    engine = Game(shoe, rules)
    result = engine.solve()
    got = distribution(engine)
    assert got.probabilities == brute_force_distribution(shoe, rules)
    assert sum(got.probabilities.values()) == 1
    assert got.mean == result.expected == brute_force(shoe, rules)
    assert len(got.probabilities) >= 4  # a distribution, not a point


def test_bonus_nets_land_on_their_own_rows() -> None:
    """The 6-7-8 in spades pays 3 to 1 (§ 551.6(g)(2)), the super bonus at $5 adds $1,000/$5 (§ 551.6(h))."""
    assert Fraction(3) in distribution(Game(SMALL, Rules(max_hands=1))).probabilities  # engine only: fast
    sb = distribution(Game(SEVENS, Rules(max_hands=1, super_bonus_bet=Fraction(5)))).probabilities
    assert any(net > 100 for net in sb)  # 2 (suited) + 200 (the $1,000 on $5)


def test_split_nets_reach_beyond_one_hand() -> None:
    """Split and doubled hands settle together: nets beyond ±2 exist with four hands of aces."""
    nets = distribution(Game(ACES, Rules(max_hands=4))).probabilities
    assert max(nets) >= 3 or min(nets) <= -3


def test_settle_vector_reads_the_rules() -> None:
    """A three-card 21 beats a dealer 21 as written (§ 551.6(b)(4)); standard: it pushes."""
    assert settle_vector(Rules(), 21, 3, 0)[4] == 1
    assert settle_vector(Rules(player_21_wins=False), 21, 3, 0)[4] == 0
    assert settle_vector(Rules(), 18, 2, 1) == (2, 0, -2, -2, -2, 2)  # doubled 18 against 17..21, bust


def test_cdp_with_resplits_is_refused() -> None:
    with pytest.raises(InputError, match="cdp"):
        distribution(Game(NINES, Rules(max_hands=3, post_split="cdp", bonus_678_777=False)))


# -- the game seam --------------------------------------------------------------------------
SEAM_SHOE = SpanishShoe((2, 1, 0, 0, 0, 1, 2, 2, 0, 8), {6: (1, 0, 0, 0), 7: (1, 1, 0, 0), 8: (1, 1, 0, 0)})


@pytest.fixture
def small_shoe(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The game's shoe made small (a whole 48-card deck takes minutes)."""
    s21.clear_solved()
    monkeypatch.setattr(s21.Spanish21Rules, "shoe_values", lambda self: SEAM_SHOE)
    yield
    s21.clear_solved()


def test_game_entry_holds_and_carries_the_variance(small_shoe: None) -> None:
    from exactodds.figures.entry import game_entry

    game = s21.Spanish21()
    rules = game.rules({"max_hands": 2})
    entry = game_entry(game, rules)
    checks = {c["check"]: c["holds"] for c in entry["verification"]["checks"]}
    checks |= {f'{x["id"]}: {c["check"]}': c["holds"] for x in entry["tables"] for c in x["verification"]["checks"]}
    math = {k: v for k, v in checks.items() if "house keeps an edge" not in k}
    assert all(math.values()) and len(math) >= 8
    assert entry["verification"]["all_hold"] and all(x["verification"]["all_hold"] for x in entry["tables"])
    assert entry["deck"]["description"] == "8 decks of 48 cards (384)"
    engine_rules = rules.engine_rules()
    for item in entry["tables"]:
        table = game.outcome_table(rules, item["id"])
        dist = s21.solved(rules)[item["id"]][1]
        assert Fraction(item["outcome_table"]["variance"]) == dist.variance == table.variance
        assert table.return_ == Game(SEAM_SHOE, engine_rules, s21.solved(rules)[item["id"]][0].policy
                                     ).solve().expected
    assert entry["tables"][1]["par_sheet"]["standard_deviation"]


def test_simulator_agrees_with_the_exact_return(small_shoe: None) -> None:
    from exactodds.simulation.games import simulate_game

    game = s21.Spanish21()
    out = simulate_game(game, game.rules({"max_hands": 2}), 5000, 4)
    assert [s["agrees"] for s in out["strategies"]] == [True, True]
    assert sum(o["count"] for o in out["strategies"][0]["outcomes"]) == 5000


def test_simulator_where_the_distribution_is_out_of_reach(small_shoe: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Resplits from a full shoe put the exact distribution out of reach (OutOfReach, before any
    solve); the simulation still sets its mean beside the engine's exact return, SE from the sample's
    own σ (exact: the sample variance of the nets dealt, checked by :func:`statistics.variance`)."""
    import statistics

    from exactodds.blackjack import splitjoint
    from exactodds.errors import OutOfReach
    from exactodds.simulation.games import SAMPLE_SIGMA, simulate_game

    shoe = SpanishShoe((1, 0, 0, 0, 0, 1, 2, 4, 0, 9), {6: (1, 0, 0, 0), 7: (1, 1, 0, 0), 8: (2, 1, 1, 0)})
    monkeypatch.setattr(s21.Spanish21Rules, "shoe_values", lambda self: shoe)  # 8s resplit to three hands
    monkeypatch.setattr(splitjoint, "RESPLIT_CARDS_LIMIT", shoe.size - 1)  # this shoe now counts as full
    game = s21.Spanish21()
    rules = game.rules({"max_hands": 3})
    with pytest.raises(OutOfReach):
        game.outcome_table(rules, "composition-dependent")
    told: list[tuple[int, int]] = []
    out = simulate_game(game, rules, 3000, 4, lambda done, total, label: told.append((done, total)))
    fractions = [Fraction(d, t) for d, t in told]
    assert fractions == sorted(fractions) and fractions[-1] == 1 and len(told) > 4  # the bar moves, solves and rounds
    for item in out["strategies"]:
        assert item["standard_error_from"] == SAMPLE_SIGMA and "out of reach" in item["out_of_reach"]
        assert all(o["expected_count"] is None for o in item["outcomes"])
        assert sum(o["count"] for o in item["outcomes"]) == 3000
        nets = game.simulate(rules, item["strategy"], 3000, 4)
        assert Fraction(item["mean"]) == statistics.mean(nets)
        se = Fraction(item["standard_error"])
        assert abs(se * se - statistics.variance(nets) / 3000) < Fraction(1, 10 ** 12)
        engine = s21.engines(rules)[item["strategy"]][0]
        assert Fraction(item["exact_return"]) == Game(shoe, engine.rules, engine.policy).solve().own_hands
        assert item["agrees"]


def test_rules_record_maps_onto_the_engine_rules() -> None:
    game = s21.Spanish21()
    assert game.rules().engine_rules() == Rules()
    assert game.rules({"wizard": True}).engine_rules() == WIZARD_RULES
    assert game.rules({"wizard": True, "hit_soft_17": True}).engine_rules() == WIZARD_RULES.with_(hit_soft_17=True)
    assert game.rules({"super_bonus_bet": "25"}).engine_rules().super_bonus() == 200
    record = rules_record(game.rules())
    assert all(r["section"].startswith("58 Pa. Code § 551") for r in record)
    for bad in ({"max_hands": 7}, {"post_split": "x"}, {"decks": 0}, {"super_bonus_bet": "lots"},
                {"post_split": "cdp"}):
        with pytest.raises(InputError):
            game.rules(bad)


@pytest.mark.parametrize("args", [
    ["certify", "--game", "spanish21", "--max-hands", "7"],
    ["certify", "--h17"],
    ["certify", "--game", "spanish21", "--post-split", "nope"],
    ["simulate", "--game", "spanish21", "--decks", "0"],
])
def test_bad_rule_options_are_one_line(args: list[str]) -> None:
    from exactodds.cli.app import app

    got = CliRunner().invoke(app, args)
    assert got.exit_code == 2
    assert got.stdout == ""
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error:")


# -- effects of removal -----------------------------------------------------------------------
EOR_SHOE = SpanishShoe((1, 0, 0, 0, 0, 0, 2, 0, 0, 6), {6: (0, 0, 0, 0), 7: (1, 1, 0, 0), 8: (0, 0, 0, 0)})
"""An ace, a 7 of spades and one of hearts, six J/Q/K: every removal leaves a shoe a round cannot exhaust."""


def _brute_effects(shoe: SpanishShoe, rules: Rules) -> dict[str, Fraction]:
    """E_rank by the brute force: the suits of a rank averaged by their copies."""
    base = brute_force(shoe, rules)
    sums: dict[int, list[tuple[int, Fraction]]] = {}
    for card, k in shoe.types():
        sums.setdefault(card[0], []).append((k, brute_force(shoe.remove(card), rules)))
    labels = {1: "A", 10: "J/Q/K"}
    return {labels.get(v, str(v)): sum((k * r for k, r in xs), Fraction(0)) / sum(k for k, _ in xs) - base
            for v, xs in sums.items()}


def test_effects_of_removal_equal_the_brute_force() -> None:
    """Engine on shoe-minus-card vs shoe equals the brute force's, rank by rank (7s: both suits)."""
    from exactodds.spanish21.eor import effects_of_removal

    rules = Rules(max_hands=1)
    doc = effects_of_removal(EOR_SHOE, rules)
    got = {r["card"]: Fraction(r["effect"]) for r in doc["ranks"]}
    assert got == _brute_effects(EOR_SHOE, rules)
    assert {r["card"]: r["copies"] for r in doc["ranks"]} == {"A": 1, "7": 2, "J/Q/K": 6}
    assert sum(r["copies"] * r["tag"] for r in doc["ranks"]) == 0 or not doc["count"]["balanced"]


def test_eor_command_game_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """``eor --game spanish21 -f json``: baccarat's eor shape, each exact effect with its decimal."""
    import json

    from exactodds.cli.app import app

    monkeypatch.setattr(s21.Spanish21Rules, "shoe_values", lambda self: EOR_SHOE)
    got = CliRunner().invoke(app, ["eor", "--game", "spanish21", "--max-hands", "1", "--decks", "6", "-f", "json"])
    assert got.exit_code == 0, got.stderr
    doc = json.loads(got.stdout)
    assert [r["card"] for r in doc["ranks"]] == ["A", "7", "J/Q/K"]
    assert all("/" in r["effect"] and "effect_decimal" in r for r in doc["ranks"])
    assert doc["deck"]["description"] == "6 decks of 48 cards (288)"
    bad = CliRunner().invoke(app, ["eor", "banker", "--game", "spanish21"])
    assert bad.exit_code == 2 and bad.stdout == "" and bad.stderr.startswith("exactodds: error:")


def test_a_split_joint_too_large_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A split joint over its budget is refused (one InputError), never left to exhaust memory."""
    from exactodds.blackjack import splitjoint

    monkeypatch.setattr(splitjoint, "MAX_TRANSITIONS", 3)
    with pytest.raises(InputError, match="too large here") as refused:
        distribution(Game(PAIRS, Rules(max_hands=2)))
    assert "\n" not in str(refused.value)
