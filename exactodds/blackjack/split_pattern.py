"""The split's pattern sum as a linear form in the split hands' base values (§ 551.12), exactly.

:class:`~exactodds.blackjack.split_values._SplitValues` values a split (E. Farmer's method, see
:meth:`~exactodds.blackjack.engine.Game.split_value`) as a sum over the patterns of second cards of
``X(a, b)`` (a split hand whose second card may be anything, from the shoe less ``a`` extra pair
cards and ``b`` unseen non-pair cards) and ``N(a, b)`` (one whose second card is not a pair card).
Both come from two *base values* per ``a`` by the recursions

* ``X(a, b) = (X(a, b−1) − v·X(a+1, b−1)) / (1 − v)``, ``v = (p−a)/(n−a−b+1)``;
* ``N(a, 0) = (X(a, 0) − v·PV(a)) / (1 − v)``, ``v = (p−a)/(n−a)``, ``PV(a)`` the hand whose second
  card is a pair card;
* ``N(a, b) = (N(a, b−1) − v·N(a+1, b−1)) / (1 − v)``, ``v = (p−a)/(n−a−b)``;

(0 when ``a > p`` or ``v = 1``), ``n`` the cards left after the up card and the pair, ``p`` the pair
cards among them. Every step is linear with coefficients that depend on ``n``, ``p`` and the
pattern only, so the split's value is

    total = Σ over roles, ``a``:  cx(role, a)·X_role(a, 0) + cpv(role, a)·PV_role(a)

with rational coefficients fixed by ``(n, p, limit)``: :func:`pattern_form` runs the very same
recursions and pattern walk on *linear forms* (coefficient vectors) instead of numbers, once per
``(n, p, limit)``. Exact rational arithmetic makes the two evaluation orders equal to the last digit
(the same rational number, and a :class:`~fractions.Fraction` is in lowest terms), so the split's
value is a short integer dot product of the solvers' numerators (:func:`rank_weights`) plus the
suit corrections' few terms, instead of hundreds of Fraction operations per split.
tests/test_blackjack_splitsums.py checks the form against the recursion written out with numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import TypeVar

from exactodds.game.cards import falling_factorial

Form = dict[tuple[str, int], Fraction]
"""A linear form in the base values: ``("x", a)`` → coefficient of ``X(a, 0)``, ``("pv", a)`` →
coefficient of ``PV(a)``."""

ROLES = ("p1", "p2", "ex")
"""The hands' roles in the pattern sum (suits): the first pair card's hand (it gets the first
non-pair card), the second's (dealt last), and a resplit hand holding an extra pair card."""


def _lin(f: Form, cf: Fraction, g: Form, cg: Fraction) -> Form:
    """``cf·f + cg·g``."""
    out = {k: c * cf for k, c in f.items()}
    for k, c in g.items():
        out[k] = out.get(k, Fraction(0)) + c * cg
    return out


G = TypeVar("G")
"""What the terms of an expanded sum are grouped by (:func:`_expand`): a role, or one group for all."""

Weights = dict[tuple[str, str, int, int], Fraction]
"""The pattern sum before the forms are expanded: ``(role, kind, a, b)`` → Σ probability · hands,
``kind`` ``"x"`` for ``X(a, b)``, ``"n"`` for ``N(a, b)`` (:func:`_pattern_weights`)."""


def _pattern_weights(n: int, p: int, limit: int) -> Weights:
    """The walk over the patterns of second cards (every pair card resplit while there are fewer
    than ``limit`` hands): the weight of each hand value ``X(a, b)`` / ``N(a, b)`` by role, summed
    over the patterns that read it, so that each form is expanded once (:func:`_expand`), not once
    per pattern. A pattern with ``i`` extra pair cards and ``j`` non-pair second cards has
    probability ``ff(p, i)·ff(n−p, j)/ff(n, i+j)``."""
    weights: Weights = {}

    def add(prob: Fraction, terms: list[tuple[str, int, str, int, int]]) -> None:
        for role, count, kind, a, b in terms:
            key = (role, kind, a, b)
            weights[key] = weights.get(key, Fraction(0)) + prob * count

    def walk(hands: int, need: int, j: int) -> None:
        i = hands - 2
        prob = Fraction(falling_factorial(p, i) * falling_factorial(n - p, j), falling_factorial(n, i + j))
        if need == 0:  # every hand got a non-pair second card
            add(prob, [("p1", 1, "n", i, j - 1), ("p2", 1, "n", i, j - 1), ("ex", i, "n", i, j - 1)])
        elif hands == limit:  # the other ``need`` hands take any second card
            # roles (suits): the first pair card's hand gets the first non-pair card, the
            # second pair card's hand is dealt last, the others hold extra pair cards
            if j:
                add(prob, [("p1", 1, "n", i, j - 1), ("ex", j - 1, "n", i, j - 1),
                           ("p2", 1, "x", i, j), ("ex", need - 1, "x", i, j)])
            else:
                add(prob, [("p1", 1, "x", i, j), ("p2", 1, "x", i, j), ("ex", need - 2, "x", i, j)])
        else:
            walk(hands + 1, need + 1, j)
            walk(hands, need - 1, j + 1)

    walk(2, 2, 0)
    return weights


def _forms(n: int, p: int) -> tuple[Callable[[int, int], Form], Callable[[int, int], Form]]:
    """``X(a, b)`` and ``N(a, b)`` as linear forms in the base values (the recursions of the
    module doc; 0 when ``a > p`` or ``v = 1``), memoised."""
    xs: dict[tuple[int, int], Form] = {}
    ns: dict[tuple[int, int], Form] = {}

    def x(a: int, b: int) -> Form:
        if (a, b) not in xs:
            if a > p:
                xs[(a, b)] = {}
            elif b == 0:
                xs[(a, b)] = {("x", a): Fraction(1)}
            else:
                v = Fraction(p - a, n - a - b + 1)
                xs[(a, b)] = {} if v == 1 else _lin(x(a, b - 1), 1 / (1 - v), x(a + 1, b - 1), -v / (1 - v))
        return xs[(a, b)]

    def nonpair(a: int, b: int) -> Form:
        if (a, b) not in ns:
            if a > p:
                ns[(a, b)] = {}
            elif b == 0:
                v = Fraction(p - a, n - a)
                ns[(a, b)] = {} if v == 1 else {("x", a): 1 / (1 - v), ("pv", a): -v / (1 - v)}
            else:
                v = Fraction(p - a, n - a - b)
                ns[(a, b)] = {} if v == 1 else _lin(nonpair(a, b - 1), 1 / (1 - v), nonpair(a + 1, b - 1),
                                                    -v / (1 - v))
        return ns[(a, b)]

    return x, nonpair


def _expand(n: int, p: int, weights: Mapping[tuple[G, str, int, int], Fraction]) -> dict[tuple[G, str, int], Fraction]:
    """``Σ weight · form`` by ``(group, kind of base value, a)``: each weighted hand value's form
    (:func:`_forms`) once; every form the walk reads is built (a shoe too small for a pattern
    divides by zero, as the recursion on numbers does)."""
    x, nonpair = _forms(n, p)
    total: dict[tuple[G, str, int], Fraction] = {}
    for (group, kind, a, b), w in weights.items():
        form = x(a, b) if kind == "x" else nonpair(a, b)
        if not w:
            continue
        for (base, at), c in form.items():
            key = (group, base, at)
            total[key] = total.get(key, Fraction(0)) + w * c
    return total


@lru_cache(maxsize=512)
def pattern_form(n: int, p: int, limit: int) -> dict[tuple[str, str, int], Fraction]:
    """The split's value when every pair card dealt to a split hand is resplit while there are
    fewer than ``limit`` hands, as ``(role, kind, a)`` → coefficient of that role's base value
    ``kind`` (``"x"``: ``X(a, 0)``, ``"pv"``: ``PV(a)``) — the recursions of the module doc, on forms:
    the patterns' weights by hand value (:func:`_pattern_weights`), each form expanded once."""
    return {key: c for key, c in _expand(n, p, _pattern_weights(n, p, limit)).items() if c}


@lru_cache(maxsize=512)
def rank_weights(n: int, p: int, limit: int) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The form of :func:`pattern_form` with the roles merged (a hand's rank-only base values are
    the same in every role), in integers: ``(L, ((a, wx, wpv), ...))`` with the split's rank-only
    value ``Σ (wx·X(a, 0) + wpv·PV(a)) / L``, ``L`` the least common denominator of the coefficients.
    The patterns' weights are merged before the forms are expanded (fewer Fraction steps than
    merging :func:`pattern_form`'s terms; the same rational numbers)."""
    weights: Weights = {}
    for (_, kind, a, b), w in _pattern_weights(n, p, limit).items():
        weights[("", kind, a, b)] = weights.get(("", kind, a, b), Fraction(0)) + w
    merged = {(kind, a): c for (_, kind, a), c in _expand(n, p, weights).items() if c}
    den = lcm(*(c.denominator for c in merged.values())) if merged else 1
    rows = sorted({a for _, a in merged})
    return den, tuple((a, int(merged.get(("x", a), 0) * den), int(merged.get(("pv", a), 0) * den)) for a in rows)


@lru_cache(maxsize=512)
def role_terms(n: int, p: int, limit: int) -> tuple[tuple[str, int, Fraction, Fraction], ...]:
    """The form of :func:`pattern_form` by role and ``a``: ``(role, a, cx, cpv)``, the coefficients
    of ``X_role(a, 0)`` and ``PV_role(a)`` (for the suit parts, which differ by role)."""
    form = pattern_form(n, p, limit)
    keys = sorted({(role, a) for role, _, a in form})
    zero = Fraction(0)
    return tuple((role, a, form.get((role, "x", a), zero), form.get((role, "pv", a), zero)) for role, a in keys)


def deepest_extra(limit: int) -> int:
    """The most extra pair cards ``a`` whose base values ``X(a, 0)`` / ``PV(a)`` the pattern sum of
    ``limit`` hands can read (:func:`pattern_form`): ``2·limit − 4`` from three hands on, 0 for two.

    Why: the walk stops as soon as there are ``limit`` hands, so every hand has its non-pair second
    card only while there are at most ``limit − 1`` hands (``N(i, j−1)`` with ``j = i + 2`` hands:
    ``a ≤ i + j − 1 = 2·hands − 3 ≤ 2·limit − 5``); at ``limit`` hands, reached by a resplit while
    a hand still waited (``j ≤ limit − 2`` non-pair cards dealt, ``i = limit − 2``), ``X(i, j)`` and
    ``N(i, j−1)`` read ``a ≤ i + j ≤ 2·limit − 4``; with two hands the walk stops at once (``X(0, 0)``).
    The hand solvers a split needs are those of ``a`` = 0 to this (at most the pair cards left):
    tests/test_blackjack_round3.py checks it against the forms."""
    return 2 * limit - 4 if limit > 2 else 0
