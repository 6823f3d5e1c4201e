"""Mid-hand odds: conditioned outcome tables and the Appendix 3 table against the brute-force
oracle (tests/oracle.py) on small shoes, identities with the unconditional engine counts, and
the published 8-deck figures."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from fractions import Fraction

import oracle
import pytest
from conftest import shoe_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import get_wager
from exactodds.cli.app import app
from exactodds.engine.levels import coup_distribution
from exactodds.errors import InputError
from exactodds.exact import decimal
from exactodds.figures.analysis import analyze
from exactodds.figures.midhand import WINNERS, Seen, analyze_seen, midhand_table, parse_seen
from exactodds.game.cards import Shoe

POOL = shoe_of("7S 7H 3D 9S 9S KD QC AS 2C 6H 5D 8C").cards()


def brute_seen(wager_id: str, shoe: Shoe, seen: Seen) -> Counter[str]:
    """Outcome counts over every ordered full sequence of ``shoe`` whose hands start with the
    seen cards (oracle: every physical card distinct, drawing rules transcribed apart)."""
    w = get_wager(wager_id)
    table = w.default_paytable
    out: Counter[str] = Counter()
    for player, banker, ways in oracle.rounds(shoe):
        assert player is not oracle.VOID  # shoes of six cards or more
        if list(player[:len(seen.player)]) != list(seen.player) or list(banker[:len(seen.banker)]) != list(seen.banker):
            continue
        if len(player) < len(seen.player) or len(banker) < len(seen.banker):
            continue
        out[w.settle(table, w.level.from_deal(player, banker))] += ways
    return out


def copies(shoe: Shoe, seen: Seen) -> int:
    """Ways to pick the seen physical cards from the shoe (the oracle counts each copy)."""
    left, ways = dict(zip(shoe.cards(), [0] * shoe.size)), 1
    for c in shoe.cards():
        left[c] += 1
    for c in seen.cards:
        ways *= left[c]
        left[c] -= 1
    return ways


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(range(len(POOL))), min_size=7, max_size=9, unique=True),
       st.integers(0, 3), st.integers(0, 2),
       st.sampled_from(["banker", "dragon-7", "tie", "perfect-pairs-player", "house-money", "lucky-nines"]))
def test_conditioned_tables_against_the_oracle(picks, n_player, n_banker, wager_id) -> None:
    shoe = Shoe.from_cards(POOL[i] for i in picks)
    cards = shoe.cards()
    seen = Seen(tuple(cards[:n_player]), tuple(cards[n_player:n_player + n_banker]))
    brute = brute_seen(wager_id, shoe, seen)
    if sum(brute.values()) == 0:  # cards the hands would not draw: refused
        with pytest.raises(InputError, match="cannot occur"):
            analyze_seen(wager_id, None, shoe, seen)
        return
    a = analyze_seen(wager_id, None, shoe, seen)
    k = copies(shoe, seen)
    assert {r.name: r.count * k for r in a.rows if r.count} == {n: c for n, c in brute.items() if c}
    assert sum(r.count for r in a.rows) == a.total


def test_weighted_conditional_tables_are_the_unconditional_table() -> None:
    """Σ over the Player's first card f of (copies of f) × counts given f = analyze's counts."""
    shoe = shoe_of("9S 9S 9H KD KD QC 3S 3S 4H 6D 6D 7C 8C AS")
    for wager_id in ("banker", "dragon-7", "perfect-pairs-player"):
        total: Counter[str] = Counter()
        for face in set(shoe.cards()):
            a = analyze_seen(wager_id, None, shoe, Seen((face,), ()))
            for r in a.rows:
                total[r.name] += shoe.count(face) * r.count
        whole = analyze(wager_id, None, shoe)
        assert {r.name: r.count for r in whole.rows} == dict(total)


@pytest.mark.parametrize("text", ["7S 7H 3D 9S KD QC AS 2C", "9S 9H 9D 8C 8C 2S 3H KD KH"])
def test_midhand_table_against_the_oracle(text) -> None:
    shoe = shoe_of(text)
    rows, universe = midhand_table(shoe)
    two: Counter[tuple[int, str]] = Counter()
    three: Counter[tuple[int, int, str]] = Counter()
    for player, banker, ways in oracle.rounds(shoe):
        t = sum(c.value for c in player[:2]) % 10
        win = "Player wins" if (sum(c.value for c in player) % 10) > (sum(c.value for c in banker) % 10) else \
            "Banker wins" if (sum(c.value for c in player) % 10) < (sum(c.value for c in banker) % 10) else "Tie"
        two[(t, win)] += ways
        three[(t, banker[0].value, win)] += ways
    for r in rows:
        for i, name in enumerate(WINNERS):
            expect = two[(r.player_total, name)] if r.banker_card is None else three[(r.player_total, r.banker_card, name)]
            assert r.counts[i] == expect, (r, name)
    assert sum(r.total for r in rows if r.stage == "two cards") == universe


def test_midhand_8_decks_identity_and_published_figures() -> None:
    shoe = Shoe.standard(8)
    rows, universe = midhand_table(shoe)
    d = coup_distribution(shoe)
    by_winner = Counter({"Player wins": 0, "Banker wins": 0, "Tie": 0})
    for coup, n in d.counts.items():
        by_winner[{"player": "Player wins", "banker": "Banker wins", "tie": "Tie"}[coup.winner]] += n
    for stage in ("two cards", "three cards"):
        sums = [sum(r.counts[i] for r in rows if r.stage == stage) for i in range(3)]
        assert sums == [by_winner[n] for n in WINNERS] and universe == d.universe
    # Wizard of Odds, baccarat Appendix 3, "Probabilities after Two Player Cards" (8 decks)
    published = {0: ("0.278792", "0.654627", "0.066581"), 5: ("0.358488", "0.537849", "0.103663"),
                 9: ("0.905475", "0.000000", "0.094525")}
    for r in rows:
        if r.stage == "two cards" and r.player_total in published:
            assert tuple(decimal(r.probability(i), 6) for i in range(3)) == published[r.player_total]
    # ... and "Player Win after Three Cards", banker card 0, player total 0: 0.306893
    (r00,) = [r for r in rows if r.stage == "three cards" and r.player_total == 0 and r.banker_card == 0]
    assert decimal(r00.probability(0), 6) == "0.306893"


runner = CliRunner()


def test_cli_seen_and_midhand_formats() -> None:
    r = runner.invoke(app, ["analyze", "banker", "--seen", "player=9H,5C", "--seen", "banker=KD", "-f", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    a = analyze_seen("banker", None, Shoe.standard(8), parse_seen(["player=9H,5C", "banker=KD"]))
    assert doc["total"] == a.total and doc["seen"] == "player=9H,5C banker=KD" and "universe_reading" in doc
    assert Fraction(doc["house_edge"]) == a.house_edge
    r = runner.invoke(app, ["midhand", "-d", "1", "-f", "csv"])
    assert r.exit_code == 0
    table = list(csv.reader(io.StringIO(r.stdout)))
    assert len(table) == 111 and len({len(row) for row in table}) == 1
    from exactodds.report.midhand import midhand_view
    from exactodds.report.views import render_view

    rows, universe = midhand_table(Shoe.standard(1))
    view = midhand_view(rows, universe, Shoe.standard(1))
    assert render_view(view, "csv") == r.stdout
    assert len(json.loads(render_view(view, "json"))["states"]) == 110
    for fmt in ("table", "markdown"):  # no fraction reaches a human view
        text = render_view(view, fmt)
        assert "/" not in text.replace("https://wizardofodds.com/games/baccarat/appendix/3/", "")
    for bad in (["analyze", "banker", "--seen", "dealer=9H"],
                ["analyze", "banker", "--seen", "player=9H,9H,9H,9H"],
                ["analyze", "banker", "--seen", "player=9H,8C,2D"],  # a natural: no third card
                ["analyze", "banker", "--seen", "player=XX"],
                ["analyze", "--all", "--seen", "player=9H"],
                ["analyze", "harmony", "--seen", "player=9H"]):  # reads suits of all cards: too many sequences
        r = runner.invoke(app, bad)
        assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith("exactodds: error:"), bad
