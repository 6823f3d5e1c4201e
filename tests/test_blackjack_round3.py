"""The round's Python made lighter (issue 27 item 5): what the speed-ups of the engine's round rely on.

* the split's pattern sum reads base values down to ``a = 2·limit − 4`` extra pair cards only
  (:func:`~exactodds.blackjack.split_pattern.deepest_extra`), checked against the forms themselves
  and against the hand solvers a solve builds;
* the role-merged integer weights (:func:`~exactodds.blackjack.split_pattern.rank_weights`, now
  merged before the forms are expanded) equal :func:`~exactodds.blackjack.split_pattern.pattern_form`'s
  coefficients merged afterwards (the way it was done);
* :meth:`~exactodds.blackjack.engine.Game.solve` walks :func:`~exactodds.blackjack.engine.initial_deals`
  in its own order (no sort), so that order must be ascending;
* the solvers of one up card share one dealer table.

The figures themselves are checked by the brute force and the peer (tests/test_blackjack.py,
tests/test_blackjack_peer.py) and, for these changes, by the figure hashes of the speed work.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.blackjack.engine import Game, initial_deals
from exactodds.blackjack.rules import AS_WRITTEN, STANDARD_RULES
from exactodds.blackjack.shoe import SpanishShoe
from exactodds.blackjack.split_pattern import deepest_extra, pattern_form, rank_weights, role_terms

SMALL = SpanishShoe((2, 2, 2, 2, 2, 2, 2, 2, 2, 8), {6: (1, 1, 0, 0), 7: (1, 0, 1, 0), 8: (0, 1, 1, 0)})
"""26 cards, 170 points (enough for four hands): every pair can be split and resplit."""


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 9), st.integers(8, 40), st.integers(2, 4))
def test_the_pattern_sum_reads_no_deeper_than_deepest_extra(p: int, others: int, limit: int) -> None:
    """Every base value the form reads has ``a ≤ deepest_extra(limit)``, and the deepest is read
    when the shoe holds the pair cards for it (the bound is tight, so no needed solver is left out)."""
    n = p + others
    deepest = deepest_extra(limit)
    read = {a for (_, _, a) in pattern_form(n, p, limit)}
    assert read <= set(range(deepest + 1))
    assert {a for _, a, _, _ in role_terms(n, p, limit)} == read
    assert {a for a, _, _ in rank_weights(n, p, limit)[1]} <= read
    if p > deepest:  # the pair cards for the deepest pattern are there: it is read
        assert max(read) == deepest


def test_deepest_extra_values() -> None:
    """Two hands: the walk stops at once (``X(0, 0)``); three and four hands: ``2·limit − 4``."""
    assert [deepest_extra(limit) for limit in (2, 3, 4)] == [0, 2, 4]
    assert max(a for (_, _, a) in pattern_form(400, 30, 4)) == 4


@pytest.mark.parametrize("rules", [STANDARD_RULES.with_(post_split="cdz", resplit_optional=False),
                                   AS_WRITTEN.with_(max_hands=4)], ids=["standard cdz", "spanish 4 hands cdp1"])
def test_a_solve_builds_no_solver_deeper_than_the_pattern_reads(rules: object) -> None:
    """The split solvers a whole solve builds (``(up, pair, extra)``) stay within
    :func:`deepest_extra` of the most hands the pair may reach, and reach it for some pair."""
    assert isinstance(rules, type(AS_WRITTEN))
    game = Game(SMALL, rules)
    game.solve()
    deepest = 0
    for (_, pair, extra) in game.solvers:
        if pair:
            most = rules.max_hands if (pair != 1 or rules.resplit_aces) else 2
            assert extra <= deepest_extra(most)
            deepest = max(deepest, extra)
    assert deepest == deepest_extra(rules.max_hands)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(4, 30), st.integers(2, 4))
def test_rank_weights_are_the_pattern_form_merged(p: int, others: int, limit: int) -> None:
    """:func:`rank_weights` (weights merged over roles before the forms are expanded) equals
    :func:`pattern_form`'s coefficients merged over roles afterwards, as integers over the least
    common denominator."""
    n = p + others
    try:
        form = pattern_form(n, p, limit)
    except ZeroDivisionError:  # a shoe too small for the pattern (tests/test_blackjack_splitsums.py)
        return
    merged: dict[tuple[str, int], Fraction] = {}
    for (_, kind, a), c in form.items():
        merged[(kind, a)] = merged.get((kind, a), Fraction(0)) + c
    den, rows = rank_weights(n, p, limit)
    got = {(kind, a): Fraction(w, den) for a, wx, wpv in rows for kind, w in (("x", wx), ("pv", wpv)) if w}
    assert got == {k: c for k, c in merged.items() if c}


def test_initial_deals_come_in_ascending_order() -> None:
    """The solve takes the deals in :func:`initial_deals`' order (by up card: an up card's solvers
    are released when the next one starts), so that order must be the sorted one; the ways add up
    to ``n(n−1)(n−2)``."""
    for shoe in (SMALL, SpanishShoe.standard(1)):
        deals = initial_deals(shoe)
        assert list(deals) == sorted(deals)
        n = shoe.size
        assert sum(deals.values()) == n * (n - 1) * (n - 2)


def test_the_solvers_of_an_up_card_share_one_dealer_table() -> None:
    """One dealer table per up card, taken once by the game (:attr:`Game.tables`) and given to
    every solver of that up card, unsplit and split."""
    game = Game(SMALL, STANDARD_RULES.with_(post_split="cdz"))
    game.solve()
    for up, table in game.tables.items():
        assert all(hs.dealer is table for (u, _, _), hs in game.solvers.items() if u == up)
    assert set(game.tables) == {u for (u, _, _) in game.solvers}


def test_the_rules_hash_is_the_dataclass_hash_kept() -> None:
    """:meth:`Rules.__hash__` is the hash of the fields' tuple (what the frozen dataclass gave), the
    same for equal rule sets built apart, the same when asked again (kept), never in ``vars`` (which
    the reports list), and the keeping stays bounded."""
    from dataclasses import fields

    from exactodds.blackjack import rules as rules_module
    from exactodds.blackjack.rules import Rules

    for rules in (AS_WRITTEN, STANDARD_RULES, STANDARD_RULES.with_(post_split="cdz", resplit_optional=False)):
        want = hash(tuple(getattr(rules, f.name) for f in fields(Rules)))
        assert hash(rules) == want and hash(rules) == want
        copy = Rules(**{f.name: getattr(rules, f.name) for f in fields(Rules)})
        assert copy == rules and copy is not rules and hash(copy) == want
        assert set(vars(rules)) == {f.name for f in fields(Rules)}
    assert hash(AS_WRITTEN) != hash(AS_WRITTEN.with_(hit_soft_17=True))
    for players in range(7):
        for redoubles in range(4):
            hash(AS_WRITTEN.with_(other_players=players, redoubles=redoubles))
    assert len(rules_module._HASHES) <= 16
    assert {AS_WRITTEN: 1}[Rules()] == 1
