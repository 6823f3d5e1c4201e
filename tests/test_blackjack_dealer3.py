"""The dealer kernel's vector sums and vectorised limbs (:mod:`exactodds.blackjack.dealer_kernel`,
issue 27): each held to plain Python integers, at the edges of their int64 bounds.

The lane sum (:data:`~exactodds.blackjack.dealer_kernel.LANE_SUM`, four primes in one vector) is
driven through :func:`~exactodds.blackjack.dealer_kernel.contract` with a one-level plan made
here: random sums of 1 to 32 terms (:data:`~exactodds.blackjack.dealer.MOST_TERMS`), residues
drawn from ``0``, ``q − 1`` and anywhere between, on 1 to 8 primes (spare lanes, chunks); the
expected residue is the sum of the products modulo each prime in Python. The largest sum, 32
products of ``(q − 1)²``, is among the examples.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactodds.blackjack.dealer import MOST_TERMS, DealerTable
from exactodds.errors import InputError


def _both_paths() -> Iterator[bool]:
    """Run the loop body once compiled, once on the numpy path (``EXACTODDS_PURE``), the
    environment put back after; yields whether the numpy path is on, checked to be the one taken."""
    from exactodds.extras import PURE_ENV, compiled

    mp = pytest.MonkeyPatch()
    try:
        for pure in (False, True):
            if pure:
                mp.setenv(PURE_ENV, "1")
            else:
                mp.delenv(PURE_ENV, raising=False)
            assert (compiled("exactodds.blackjack.dealer_kernel") is None) == pure
            yield pure
    finally:
        mp.undo()

numba = pytest.importorskip("numba")

PRIMES = DealerTable((4,) * 9 + (16,), 10, False, floor=0, extra_cards=60).primes
"""Eight residue primes of the tables (the largest below 2²⁹)."""


def residue(q: int) -> st.SearchStrategy[int]:
    return st.sampled_from([0, 1, q - 1]) | st.integers(0, q - 1)


@st.composite
def plans(draw: st.DrawFn) -> tuple[list[int], list[list[int]], list[list[int]], list[list[int]]]:
    """Primes, then per sum its counts ``d`` (distinct, into the factor rows), per prime the
    compositions' weights and the factor rows (``d`` = 0..31) of one ``x``."""
    primes = list(PRIMES[:draw(st.integers(1, len(PRIMES)))])
    sums = draw(st.lists(st.lists(st.integers(0, MOST_TERMS - 1), min_size=1, max_size=MOST_TERMS, unique=True),
                         min_size=1, max_size=6))
    terms = sum(len(s) for s in sums)
    weights = [[draw(residue(q)) for _ in range(terms)] for q in primes]
    factors = [[draw(residue(q)) for _ in range(MOST_TERMS)] for q in primes]
    return primes, sums, weights, factors


def _extreme() -> tuple[list[int], list[list[int]], list[list[int]], list[list[int]]]:
    primes = list(PRIMES[:4])
    return (primes, [list(range(MOST_TERMS))], [[q - 1] * MOST_TERMS for q in primes],
            [[q - 1] * MOST_TERMS for q in primes])


@given(plans())
@example(_extreme())
@settings(max_examples=60, deadline=None)
def test_the_lane_sums_equal_python_integers(plan: tuple[list[int], list[list[int]], list[list[int]],
                                                         list[list[int]]]) -> None:
    """One level of sums, each term a composition's weight times its factor ``ff(·, d)``: the
    compiled contraction's residues (vector lanes, Barrett's reduction on them) equal Python's
    ``Σ weight · factor mod q`` for every prime and sum."""
    from exactodds.blackjack.dealer_kernel import LANES, contract

    primes, sums, weights, factors = plan
    terms = sum(len(s) for s in sums)
    chunks = -(-len(primes) // LANES)
    q = np.array(primes, dtype=np.int64)
    orders = np.array(weights, dtype=np.int64)
    ks = np.zeros(terms, dtype=np.int64)
    lengths = np.ones((len(primes), 1), dtype=np.int64)  # weight = orders · 1
    xa = np.zeros((1, 10), dtype=np.int64)
    cols = np.zeros(1, dtype=np.int64)
    sizes = np.array([terms, terms + len(sums)], dtype=np.int64)
    nsums = np.array([len(sums)], dtype=np.int64)
    runs = np.array([np.cumsum([0] + [len(s) for s in sums])], dtype=np.uint64)
    entries = np.array([[t + (d << 32) for t, d in enumerate(d for s in sums for d in s)]], dtype=np.uint64)
    targets = np.array([terms + np.arange(len(sums))], dtype=np.uint64)
    outs = (terms + np.arange(len(sums))).astype(np.uint64)
    table = np.zeros((chunks * LANES, 1, 1, MOST_TERMS), dtype=np.uint32)
    table[:len(primes), 0, 0, :] = np.array(factors, dtype=np.uint32)
    packed = np.ascontiguousarray(np.moveaxis(table.reshape((chunks, LANES, 1, 1, MOST_TERMS)), 1, -1))
    got = contract(orders, ks, lengths, xa, cols, sizes, nsums, runs, entries, targets, outs, packed, q)
    for p, qp in enumerate(primes):
        at = 0
        for j, s in enumerate(sums):
            want = sum(weights[p][at + i] * factors[p][d] for i, d in enumerate(s)) % qp
            assert got[p, 0, j] == want
            at += len(s)


@given(st.sampled_from(PRIMES), st.data())
@settings(max_examples=40, deadline=None)
def test_the_vectorised_reduction_equals_the_remainder(q: int, data: st.DataObject) -> None:
    """:func:`~exactodds.blackjack.dealer_kernel.reduce_wide` (the limbs' Barrett reduction, its
    high product from 32-bit products) is ``a % q`` at the edges of its range ``0 ≤ a < 2⁶³``."""
    from exactodds.blackjack.dealer_kernel import reduce_wide

    m = np.uint64((1 << 64) // q)
    k = data.draw(st.integers(0, (2 ** 63 - 1) // q))
    for a in (0, q - 1, q, 2 * q - 1, k * q, k * q + q - 1, 32 * (q - 1) ** 2, 2 ** 63 - 1,
              data.draw(st.integers(0, 2 ** 63 - 1))):
        a = min(a, 2 ** 63 - 1)
        assert int(reduce_wide(np.uint64(a), np.uint64(q), m)) == a % q


@given(st.sampled_from([(4,) * 9 + (16,), (32,) * 9 + (96,)]), st.integers(1, 10),
       st.lists(st.lists(st.integers(0, 3), min_size=10, max_size=10), min_size=1, max_size=12), st.data())
@settings(max_examples=25, deadline=None)
def test_compiled_row_search_equals_numpy(base: tuple[int, ...], up: int, xs: list[list[int]],
                                          data: st.DataObject) -> None:
    """:meth:`DealerTable.rows_of` compiled (:func:`~exactodds.blackjack.dealer_kernel.find_rows`)
    and in numpy: the same rows for multisets computed before, the missing ones computed on both
    (the same numerators), and a count out of the shoe's range refused by both."""
    removed = np.minimum(np.array(xs, dtype=np.int64), np.array(base, dtype=np.int64))
    first = removed[:data.draw(st.integers(0, len(removed)))]
    tables = []
    for _ in _both_paths():
        table = DealerTable(base, up, False, floor=0)
        table.request_array(first)
        rows = table.rows_of(removed)  # (the rest computed here)
        assert np.array_equal(rows, table.rows_of(removed))
        tables.append((table, rows))
        bad = removed.copy()
        bad[0, data.draw(st.integers(0, 9))] = data.draw(st.sampled_from([-1, 10 ** 6]))
        with pytest.raises(InputError, match="more cards than the shoe"):
            table.rows_of(bad)
    (fast, fast_rows), (slow, slow_rows) = tables
    assert np.array_equal(fast_rows, slow_rows)
    assert np.array_equal(fast.limbs[fast_rows], slow.limbs[slow_rows])


@given(st.sampled_from([(4,) * 9 + (16,), (32,) * 9 + (96,), (1, 0, 2, 0, 0, 0, 0, 0, 0, 5)]), st.data())
@settings(max_examples=25, deadline=None)
def test_compiled_decode_equals_numpy(base: tuple[int, ...], data: st.DataObject) -> None:
    """:meth:`DealerTable._decode` compiled (:func:`~exactodds.blackjack.dealer_kernel.decode`) and
    in numpy gives back the removed multisets of their codes (:meth:`DealerTable.codes_of`), the
    shoe's extremes (nothing out, everything out) included."""
    rows = [[data.draw(st.integers(0, b)) for b in base] for _ in range(data.draw(st.integers(1, 30)))]
    hands = np.array(rows + [[0] * 10, list(base)], dtype=np.int64)
    for _ in _both_paths():
        table = DealerTable(base, 10, False, floor=0)
        assert np.array_equal(table._decode(table.codes_of(hands)), hands)


@given(st.lists(st.lists(st.integers(0, 40), min_size=10, max_size=10), min_size=1, max_size=60))
@settings(max_examples=40, deadline=None)
def test_rows_grouped_by_size_as_a_stable_sort(rows: list[list[int]]) -> None:
    """:func:`~exactodds.blackjack.dealer_kernel.by_size` (the compiled grouping of a request's rows
    by their number of cards) is numpy's stable argsort of the row sums: the same order, rows,
    group starts and sizes."""
    from exactodds.blackjack.dealer_kernel import by_size

    xa = np.array(rows, dtype=np.int64)
    sums = xa.sum(axis=1)
    order = np.argsort(sums, kind="stable")
    starts = np.concatenate([[0], np.flatnonzero(np.diff(sums[order])) + 1, [len(xa)]])
    got_rows, got_order, bounds, sizes = by_size(xa)
    assert np.array_equal(got_order, order) and np.array_equal(got_rows, xa[order])
    assert np.array_equal(bounds, starts) and np.array_equal(sizes, sums[order][starts[:-1]])
