"""The split's pattern sum as a linear form (exactodds/blackjack/split_pattern.py), checked against
the recursion it replaces, written out here with numbers as the engine had it (the oracle).

The recursions for ``X(a, b)`` and ``N(a, b)`` and the walk over the patterns of second cards are
linear in the base values ``X(a, 0)`` and ``PV(a)``; the engine now evaluates them once per
``(n, p, limit)`` on coefficient vectors and takes a dot product per split. Both are exact, so they
must agree to the last digit: for arbitrary base values (hypothesis, including shoes where a
``v = 1`` step or ``a > p`` cuts the recursion), and for the real splits of a game (suits and roles
included). The end-to-end check against the card-by-card brute force is tests/test_blackjack.py.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.blackjack.engine import Game, _SplitValues
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SpanishShoe
from exactodds.blackjack.split_pattern import ROLES, pattern_form, rank_weights, role_terms
from exactodds.game.cards import falling_factorial

Base = Callable[[int, str], tuple[Fraction, Fraction]]
"""``(a, role)`` → ``(X(a, 0), PV(a))`` of a hand in that role."""


def recursion_total(n: int, p: int, limit: int, base: Base) -> Fraction:
    """The pattern sum as the engine computed it before the linear form: the recursions on numbers."""
    zero = Fraction(0)

    def x(a: int, b: int, role: str) -> Fraction:
        if a > p:
            return zero
        if b == 0:
            return base(a, role)[0]
        v = Fraction(p - a, n - a - b + 1)
        return zero if v == 1 else (x(a, b - 1, role) - v * x(a + 1, b - 1, role)) / (1 - v)

    def nonpair(a: int, b: int, role: str) -> Fraction:
        if a > p:
            return zero
        if b == 0:
            v = Fraction(p - a, n - a)
            xv, pv = base(a, role)
            return zero if v == 1 else (xv - v * pv) / (1 - v)
        v = Fraction(p - a, n - a - b)
        return zero if v == 1 else (nonpair(a, b - 1, role) - v * nonpair(a + 1, b - 1, role)) / (1 - v)

    def prob(i: int, j: int) -> Fraction:
        return Fraction(falling_factorial(p, i) * falling_factorial(n - p, j), falling_factorial(n, i + j))

    def walk(hands: int, need: int, j: int) -> Fraction:
        i = hands - 2
        if need == 0:
            return prob(i, j) * (nonpair(i, j - 1, "p1") + nonpair(i, j - 1, "p2") + i * nonpair(i, j - 1, "ex"))
        if hands == limit:
            if j:
                done = nonpair(i, j - 1, "p1") + (j - 1) * nonpair(i, j - 1, "ex")
                rest = x(i, j, "p2") + (need - 1) * x(i, j, "ex")
            else:
                done = zero
                rest = x(i, j, "p1") + x(i, j, "p2") + (need - 2) * x(i, j, "ex")
            return prob(i, j) * (done + rest)
        return walk(hands + 1, need + 1, j) + walk(hands, need - 1, j + 1)

    return walk(2, 2, 0)


def form_total(n: int, p: int, limit: int, base: Base) -> Fraction:
    """The same sum from :func:`pattern_form`."""
    return sum((c * base(a, role)[0 if kind == "x" else 1]
                for (role, kind, a), c in pattern_form(n, p, limit).items()), Fraction(0))


fractions = st.fractions(min_value=-3, max_value=3, max_denominator=1000)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.integers(1, 30), st.integers(2, 4), st.data())
def test_the_form_equals_the_recursion_for_any_base_values(p: int, others: int, limit: int,
                                                           data: st.DataObject) -> None:
    """Arbitrary base values per ``(a, role)``: the form, its role-merged integer weights and its
    per-role terms give the recursion's value exactly (small ``others`` reach ``v = 1`` and
    ``a > p``; the smallest divide by zero in both)."""
    n = p + others
    table = {(a, role): (data.draw(fractions), data.draw(fractions)) for a in range(p + 1) for role in ROLES}

    def base(a: int, role: str) -> tuple[Fraction, Fraction]:
        return table[(a, role)]

    try:
        want = recursion_total(n, p, limit, base)
    except ZeroDivisionError:  # a shoe too small for the pattern (never a game's: Game refuses it)
        with pytest.raises(ZeroDivisionError):
            pattern_form(n, p, limit)
        return
    assert form_total(n, p, limit, base) == want
    assert sum((cx * table[(a, role)][0] + cpv * table[(a, role)][1]
                for role, a, cx, cpv in role_terms(n, p, limit)), Fraction(0)) == want
    # one value per a for every role (rank only): the merged integer weights
    den, rows = rank_weights(n, p, limit)
    merged = sum((wx * table[(a, "p1")][0] + wpv * table[(a, "p1")][1] for a, wx, wpv in rows), Fraction(0))
    assert merged / den == recursion_total(n, p, limit, lambda a, _role: table[(a, "p1")])


def test_the_form_has_teeth() -> None:
    """A base value changed changes both sides (the forms are not trivially zero)."""
    n, p = 20, 3

    def ones(a: int, role: str) -> tuple[Fraction, Fraction]:
        return Fraction(1), Fraction(1)

    def bumped(a: int, role: str) -> tuple[Fraction, Fraction]:
        return Fraction(2 if (a, role) == (0, "p1") else 1), Fraction(1)

    for limit in (2, 3, 4):
        assert form_total(n, p, limit, bumped) != form_total(n, p, limit, ones)
        assert form_total(n, p, limit, bumped) == recursion_total(n, p, limit, bumped)


def _game_base(values: _SplitValues) -> Base:
    """A split's real base values as Fractions: the rank-only numerators over their scale, plus
    the suit parts of the role when the pair reads suits."""

    def base(a: int, role: str) -> tuple[Fraction, Fraction]:
        x, pv = values.base(a)
        scale = values._scale()
        out = (Fraction(x, scale), Fraction(pv, scale))
        if values.suits is not None:
            sx, spv = values.suit_part(a, role)
            out = (out[0] + sx, out[1] + spv)
        return out

    return base


PAIRS = [((1, -1), (1, -1)), ((9, -1), (9, -1)), ((8, 0), (8, 1)), ((8, 1), (8, 0)), ((7, 0), (7, 1)),
         ((7, 1), (7, 0)), ((6, 3), (6, 2))]
"""Aces and 9s (rank only), suited 8s, 7s and 6s of two suits in each order."""


def test_the_engine_total_equals_the_recursion_on_a_real_game() -> None:
    """One deck of Spanish 21, four hands, resplit aces, cdp and cdz: every pair against a few up
    cards, each limit, suited 7s and 8s in both orders (roles and suits read): ``total`` equals the
    recursion on the same base values."""
    shoe = SpanishShoe.standard(1)
    checked = 0
    for rules in (Rules(max_hands=4, post_split="cdp"), Rules(max_hands=4, post_split="cdz", bonus_on_doubled=True)):
        game = Game(shoe, rules)
        for up in ((10, -1), (7, 2), (1, -1)):
            for p1, p2 in PAIRS:
                if up in (p1, p2):
                    continue
                left = shoe.remove(up, p1, p2)
                game.split_context = (up, (p1, p2), left)
                values = _SplitValues(game, up[0], p1[0], left.values)
                for limit in range(2, min(4, 2 + values.p) + 1):
                    got = values.total(limit)
                    assert got == recursion_total(values.n, values.p, limit, _game_base(values))
                    checked += 1
    assert checked > 50


UNEVEN = SpanishShoe.standard(1).remove((6, 0), (8, 1), (8, 2), (7, 2))
"""One deck less four 6-7-8s: the suits of those values uneven."""
UNEVEN_PAIRS = [((8, 0), (8, 3)), ((8, 3), (8, 0)), ((7, 0), (7, 1)), ((7, 1), (7, 0)), ((7, 0), (7, 3)),
                ((7, 3), (7, 1)), ((6, 2), (6, 1)), ((6, 3), (6, 1)), ((9, -1), (9, -1))]
"""Pairs of :data:`UNEVEN`, some of the same values and other suits (the same shoe left but its suits)."""


def test_split_memos_are_keyed_by_all_they_read() -> None:
    """The memos the split values share (rank values by shoe left; suit parts, configurations and
    decided weights by suit context, role and second card; decision tables by hand) give every
    split the value it gets computed alone, memos emptied first: one deck, suited pairs in both
    orders against several up cards, optimal play (cdp1, cdp) and a fixed chart's play; a shoe
    with its 6-7-8 suits uneven, so that the second cards and roles differ."""
    shoe = UNEVEN
    for rules, policy in ((Rules(max_hands=3), False), (Rules(max_hands=3, post_split="cdp"), False),
                          (Rules(max_hands=3, bonus_on_doubled=True), True)):
        game = Game(shoe, rules)
        if policy:  # a fixed strategy: the solved game's own decisions by class
            from exactodds.spanish21.figures import basic_chart

            game = Game(shoe, rules, basic_chart(game, game.solve()))
        deals = [(up, p1, p2) for up in ((10, -1), (7, 3), (6, 3), (6, 2)) for p1, p2 in UNEVEN_PAIRS
                 if up not in (p1, p2)]
        shared = [game.split_value(*deal) for deal in deals]
        alone = []
        for deal in deals:
            game.split_memos.clear()
            game.suit_corrections.clear()
            game.split_decisions.clear()
            alone.append(game.split_value(*deal))
        assert shared == alone
