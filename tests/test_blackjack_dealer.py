"""The dealer's tables (:mod:`exactodds.blackjack.dealer`): the compiled kernel
(:mod:`exactodds.blackjack.dealer_kernel`, numba) equal to the numpy path (``EXACTODDS_PURE=1``),
and both equal to a plain dealer recursion over draw sequences written here, in Fractions.

Issue 27 item 5: the kernels make the whole game's dealer tables fast; these tests hold them to
the last digit: random shoes, both dealer rules (§ 551.13(b)), every up card, random sets of
removed multisets of several sizes, requests that overlap the ones before, a shoe whose
multiset codes outgrow int64, and the division-free reduction at its edges.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from exactodds.blackjack.dealer import OUTCOMES, DealerTable
from exactodds.errors import InputError
from exactodds.extras import PURE_ENV, compiled

Values = tuple[int, ...]

numba = pytest.importorskip("numba")


@cache
def plain(left: Values, hard: int, ace: bool, hole: bool, up: int, h17: bool) -> tuple[Fraction, ...] | None:
    """``P(the dealer ends on 17..21, bust; no dealer Blackjack)`` drawing from ``left`` (None: some
    draw sequence runs out of cards). The hole card is not a ten under an ace, nor an ace under a
    ten (the peek, § 551.8(e)); the dealer draws to 17, hitting soft 17 with ``h17``."""
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    if hard > 21:
        return (Fraction(0),) * 5 + (Fraction(1),)
    if not hole and (total > 17 or (total == 17 and not (h17 and total != hard))):
        return tuple(Fraction(int(total - 17 == j)) for j in range(OUTCOMES))
    n = sum(left)
    if n == 0:
        return None
    acc = [Fraction(0)] * OUTCOMES
    for i, c in enumerate(left):
        if c and not (hole and ((up == 1 and i == 9) or (up == 10 and i == 0))):
            sub = plain(left[:i] + (c - 1,) + left[i + 1:], hard + i + 1, ace or i == 0, False, up, h17)
            if sub is None:
                return None
            acc = [a + Fraction(c, n) * b for a, b in zip(acc, sub)]
    return tuple(acc)


def table_of(base: Values, up: int, h17: bool, removed: list[Values], pure: bool,
             monkeypatch: pytest.MonkeyPatch) -> DealerTable | None:
    """A table of ``base`` with ``removed`` asked for (half, then all: the second request overlaps
    the first), on the numpy path (``pure``) or the compiled one; None if the shoe is refused."""
    with monkeypatch.context() as m:
        if pure:
            m.setenv(PURE_ENV, "1")
        else:
            m.delenv(PURE_ENV, raising=False)
        assert (compiled("exactodds.blackjack.dealer_kernel") is None) == pure
        try:
            table = DealerTable(base, up, h17, floor=0)
            table.request_removed(removed[::2])
            table.request_removed(removed)
        except InputError:
            return None
    return table


def assert_same_store(fast: DealerTable, slow: DealerTable) -> None:
    """The two tables hold the same compositions, the same numerators (as Python ints, and as
    limbs row by row in code order) and the same float probabilities (the same operations)."""
    assert fast.stored() == slow.stored()
    assert np.array_equal(fast._codes, slow._codes)
    assert np.array_equal(fast.limbs[fast._at], slow.limbs[slow._at])
    assert np.array_equal(fast.prob[fast._at], slow.prob[slow._at])


shoes = st.tuples(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.integers(0, 12)).map(
    lambda t: tuple(t[0]) + (t[1],))


@given(shoes, st.integers(1, 10), st.booleans(), st.lists(st.lists(st.integers(0, 2), min_size=10, max_size=10),
                                                          min_size=1, max_size=12), st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_compiled_and_numpy_tables_equal_a_plain_recursion(base: Values, up: int, h17: bool, xs: list[list[int]],
                                                           rng: random.Random) -> None:
    """Random small shoes, every up card, both dealer rules, up to 12 removed multisets (clipped to
    the shoe): the compiled and numpy tables hold the same numerators, the same residues
    (:meth:`DealerTable.residues`, rows shuffled), and each composition's numerators over its
    denominator are the plain recursion's probabilities; a shoe the dealer can run out of is
    refused by both."""
    if sum(base) == 0:
        return
    removed = list(dict.fromkeys(tuple(min(x, b) for x, b in zip(row, base)) for row in xs))
    mp = pytest.MonkeyPatch()
    try:
        fast = table_of(base, up, h17, removed, False, mp)
        slow = table_of(base, up, h17, removed, True, mp)
        assert (fast is None) == (slow is None)
        event("refused" if fast is None else "computed")
        if fast is None or slow is None:  # a draw runs out of cards, or no hole card is possible at all
            assert any(plain(tuple(b - x for b, x in zip(base, r)), up, up == 1, True, up, h17) in (None, (0,) * 6)
                       for r in removed)
            return
        assert_same_store(fast, slow)
        assert len(fast.stored()) == len(removed)
        rows = np.array(removed, dtype=np.int64)[rng.sample(range(len(removed)), len(removed))]
        with mp.context() as m:
            m.delenv(PURE_ENV, raising=False)
            got = fast.residues(rows)
            m.setenv(PURE_ENV, "1")
            assert np.array_equal(got, slow.residues(rows))
        for x in removed:
            rem = tuple(b - y for b, y in zip(base, x))
            nums, den = fast.numerators(rem)
            want = plain(rem, up, up == 1, True, up, h17)
            assert want is not None
            assert [Fraction(v, den) for v in nums] == list(want)
    finally:
        mp.undo()


@pytest.mark.parametrize("up,h17", [(1, False), (6, True), (10, True)])
def test_eight_decks_compiled_equals_numpy_and_the_recursion(up: int, h17: bool,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """§ 551's 8-deck shoe less the up card, 400 random removals of 0..12 cards: both paths equal,
    every numerator; 5 of them against the plain recursion."""
    base = [32] * 9 + [96]
    base[up - 1] -= 1
    shoe = tuple(base)
    rng = random.Random(up)
    removed = []
    for _ in range(400):
        x = [0] * 10
        for _ in range(rng.randint(0, 12)):
            x[rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9))] += 1
        removed.append(tuple(x))
    removed = list(dict.fromkeys(removed))
    fast = table_of(shoe, up, h17, removed, False, monkeypatch)
    slow = table_of(shoe, up, h17, removed, True, monkeypatch)
    assert fast is not None and slow is not None
    assert_same_store(fast, slow)
    assert len(fast.stored()) == len(removed)
    for x in removed[:5]:
        rem = tuple(b - y for b, y in zip(shoe, x))
        nums, den = fast.numerators(rem)
        assert [Fraction(v, den) for v in nums] == list(plain(rem, up, up == 1, True, up, h17) or ())


def test_a_shoe_whose_codes_outgrow_int64(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2,000-card shoe: the removed multisets' mixed-radix codes are Python ints (object), the
    filter of those already computed still works (a second, overlapping request computes only
    the new ones), and the numerators equal a table of each composition alone."""
    base = (200,) * 9 + (200,)
    table = DealerTable(base, 7, False, floor=0)
    assert table._radix.dtype == object
    first = [(0,) * 10, (1,) + (0,) * 9, (0,) * 9 + (3,)]
    table.request_removed(first)
    computed: list[int] = []
    real = table._compute
    monkeypatch.setattr(table, "_compute", lambda xa, codes: (computed.append(len(xa)), real(xa, codes)))
    table.request_removed(first + [(2,) * 10])
    assert computed == [1] and len(table.stored()) == 4
    for x in first + [(2,) * 10]:
        rem = tuple(b - y for b, y in zip(base, x))
        assert table.numerators(rem) == DealerTable(rem, 7, False, 0).numerators(rem)


@given(st.integers(0, 40), st.integers(1, 5), st.data())
@settings(max_examples=30, deadline=None)
def test_compiled_garner_equals_numpy(extra: int, rows: int, data: st.DataObject) -> None:
    """Garner's digits, two to a limb: the kernel's equal the numpy path's (tables of 2 to 7
    primes), for residues from 0 to ``q − 1``; and the integers they join to have those residues
    (the Chinese remainder theorem)."""
    from exactodds.blackjack.dealer_kernel import garner

    table = DealerTable((4,) * 9 + (16,), 10, False, floor=0, extra_cards=extra)
    primes = table.primes
    residues = np.array([[[data.draw(st.sampled_from([0, q - 1, q // 2]) | st.integers(0, q - 1))
                           for _ in range(OUTCOMES)] for _ in range(rows)] for q in primes], dtype=np.int64)
    limbs = garner(residues, table.q, np.array(table.garner, dtype=np.int64))
    assert np.array_equal(limbs, table._limbs_of(residues))
    for r, row in enumerate(table.reconstruct(residues)):
        for c, value in enumerate(row):
            assert 0 <= value < math.prod(primes)
            assert [value % q for q in primes] == residues[:, r, c].tolist()


def test_the_python_ints_are_built_on_reading_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """:attr:`DealerTable.cache` (the Python ints) holds only the compositions read by
    :meth:`DealerTable.raw`; a caller that empties it (memory) still reads every composition, from
    the limbs, without computing it again, to the same numerators."""
    base = (4,) * 9 + (16,)
    table = DealerTable(base, 9, True, floor=0)
    removed = [(0,) * 10, (1, 0, 2) + (0,) * 7, (0,) * 9 + (4,)]
    table.request_removed(removed)
    assert not table.cache and len(table.stored()) == 3
    kept = {rem: table.raw(rem)[0] for rem in table.stored()}
    assert table.cache == kept == table.stored()
    table.cache.clear()
    monkeypatch.setattr(table, "_compute", lambda xa, codes: pytest.fail("computed again"))
    table.request_removed(removed)  # (known: nothing computed)
    assert not table.cache
    for rem, nums in kept.items():
        assert table.raw(rem)[0] == nums
    assert table.cache == kept


@given(st.integers(0, 40), st.integers(1, 5), st.data())
@settings(max_examples=30, deadline=None)
def test_compiled_limbs_equal_numpy_and_garner(extra: int, rows: int, data: st.DataObject) -> None:
    """The numerators' 32-bit limbs written from the residues (tables of 2 to 7 primes: up to 7
    limbs): the kernel's (:func:`~exactodds.blackjack.dealer_kernel.limbs`) equal the numpy path's
    limb for limb and float for float; the limbs join to the integers of Garner's Python path
    (:meth:`DealerTable.reconstruct`); each float is within a relative 2⁻⁴⁸ of the exact ratio;
    and a width too small for an integer is reported by both."""
    from exactodds.blackjack.dealer_kernel import limbs as kernel_limbs

    table = DealerTable((4,) * 9 + (16,), 10, False, floor=0, extra_cards=extra)
    primes = table.primes
    residues = np.array([[[data.draw(st.sampled_from([0, q - 1, q // 2]) | st.integers(0, q - 1))
                           for _ in range(OUTCOMES)] for _ in range(rows)] for q in primes], dtype=np.int64)
    width = -(-math.prod(primes).bit_length() // 32)
    scale = 1 / data.draw(st.integers(1, math.prod(primes)))
    columns = np.arange(OUTCOMES, dtype=np.int64)
    out = np.zeros((rows + 1, OUTCOMES, width), dtype=np.uint32)
    prob = np.zeros((rows + 1, OUTCOMES))
    assert kernel_limbs(residues, table.q, table._garner, columns, scale, out, prob, 1) == 0
    want, fwant, failed = table._to_limbs(residues, scale, width)
    assert not failed and not out[0].any() and not prob[0].any()
    assert np.array_equal(out[1:], want) and np.array_equal(prob[1:], fwant)
    for r, row in enumerate(table.reconstruct(residues)):
        for c, value in enumerate(row):
            assert int.from_bytes(out[1 + r, c].astype("<u4").tobytes(), "little") == value
            exact = Fraction(value) * Fraction(scale)
            assert abs(Fraction(prob[1 + r, c]) - exact) <= exact * Fraction(1, 2 ** 48)
    big = max(value for row in table.reconstruct(residues) for value in row)
    if big >= 1 << 32:  # one limb too few for the largest
        narrow = -(-big.bit_length() // 32) - 1
        small = np.zeros((rows, OUTCOMES, narrow), dtype=np.uint32)
        assert kernel_limbs(residues, table.q, table._garner, columns, scale, small, prob, 0) == -1
        assert table._to_limbs(residues, scale, narrow)[2] == 1


wide_shoes = st.sampled_from([(4,) * 9 + (16,), (32,) * 9 + (96,), (400,) * 10, (60,) * 4 + (4,) * 5 + (20,)])


@given(wide_shoes, st.integers(1, 10), st.booleans(), st.lists(st.lists(st.integers(0, 3), min_size=10, max_size=10),
                                                               min_size=1, max_size=8))
@example((400,) * 10, 2, True, [[0] * 10, [1, 2, 0, 0, 0, 0, 0, 0, 0, 3], [0] * 9 + [2]])  # 5 limbs
@settings(max_examples=25, deadline=None)
def test_stored_numerators_equal_the_python_int_path(base: Values, up: int, h17: bool, xs: list[list[int]]) -> None:
    """A small, an 8-deck, a 4,000-card (5 limbs to a numerator) and a lopsided shoe, random removed
    multisets: each composition's numerators read from the stored limbs (:meth:`DealerTable.raw`),
    compiled and numpy paths alike, equal the residues joined as Python ints by Garner's path
    (:meth:`DealerTable.reconstruct`, the conversion of before), and their probabilities the
    floats within a relative 2⁻⁴⁸."""
    removed = list(dict.fromkeys(tuple(min(x, b) for x, b in zip(row, base)) for row in xs))
    mp = pytest.MonkeyPatch()
    try:
        fast = table_of(base, up, h17, removed, False, mp)
        slow = table_of(base, up, h17, removed, True, mp)
        assert fast is not None and slow is not None
        assert_same_store(fast, slow)
        event(f"{fast.width} limbs")
        ints = fast.reconstruct(fast.residues(np.array(removed, dtype=np.int64)))
        rows = fast.rows_of(np.array(removed, dtype=np.int64))
        for x, want, row in zip(removed, ints, rows.tolist()):
            rem = tuple(b - y for b, y in zip(base, x))
            nums, _ = fast.raw(rem)
            assert list(nums) == want
            den = fast.per_n[sum(rem)][0]
            for value, f in zip(nums, fast.prob[row].tolist()):
                exact = Fraction(value, den)
                assert abs(Fraction(f) - exact) <= exact * Fraction(1, 2 ** 48)
    finally:
        mp.undo()


def test_the_compiled_solvers_build_no_python_int(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27: a compiled hand solver reads the dealer's numerators from the table's limbs
    (:meth:`DealerTable.rows_of`), never as Python ints: after it evaluates, its table's
    :attr:`DealerTable.cache` is empty, and its stand values equal the Python solver's."""
    from exactodds.blackjack import compiled as compiled_solvers
    from exactodds.blackjack import engine, hands
    from exactodds.blackjack.rules import Rules
    from exactodds.blackjack.shoe import SpanishShoe

    monkeypatch.delenv(PURE_ENV, raising=False)
    hands._TABLES.clear()
    game = engine.Game(SpanishShoe.standard(1), Rules())
    solver = game.solver(6)
    assert isinstance(solver, compiled_solvers.CompiledSolver)
    solver.evaluated()
    table = solver.dealer
    assert table.limbs.shape[0] > 0 and not table.cache
    monkeypatch.setenv(PURE_ENV, "1")
    hands._TABLES.clear()
    python = engine.Game(SpanishShoe.standard(1), Rules()).solver(6)
    assert not isinstance(python, compiled_solvers.CompiledSolver)
    for hand in [(0, 0, 0, 0, 0, 0, 0, 0, 1, 1), (0, 1, 0, 0, 0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 1, 0, 0, 0, 0, 0)]:
        assert solver.value(hand) == python.value(hand)


@given(st.sampled_from(DealerTable((4,) * 9 + (16,), 10, False, floor=0, extra_cards=40).primes + (3, 65537)),
       st.data())
@settings(max_examples=40, deadline=None)
def test_barrett_reduction_equals_the_remainder(q: int, data: st.DataObject) -> None:
    """The contraction's division-free reduction (:func:`~exactodds.blackjack.dealer_kernel.reduce`,
    Barrett's, :data:`~exactodds.blackjack.dealer_kernel.REDUCTION`) is ``a % q`` for residue
    primes (and small odd primes), at the edges: 0, around multiples of ``q``, the largest sum
    ``32·(q − 1)²``, the int64 limit, and anywhere between."""
    from exactodds.blackjack.dealer_kernel import reduce

    m = np.uint64((1 << 64) // q)
    k = data.draw(st.integers(0, (2 ** 63 - 1) // q))
    for a in (0, q - 1, q, 2 * q - 1, k * q, k * q + q - 1, 32 * (q - 1) ** 2, 2 ** 63 - 1,
              data.draw(st.integers(0, 2 ** 63 - 1))):
        a = min(a, 2 ** 63 - 1)
        assert reduce(np.int64(a), np.int64(q), m) == a % q


@given(shoes | st.just((4,) * 9 + (16,)), st.integers(1, 10), st.integers(0, 60),
       st.lists(st.lists(st.integers(0, 2), min_size=10, max_size=10), min_size=1, max_size=20))
@settings(max_examples=30, deadline=None)
def test_compiled_contraction_in_chunks_of_lanes_equals_numpy(base: Values, up: int, extra: int,
                                                              xs: list[list[int]]) -> None:
    """The compiled contraction sums :data:`~exactodds.blackjack.dealer_kernel.LANES` primes side
    by side: with 1 to 8 primes (``extra_cards`` up to 60: spare lanes, one chunk, several
    chunks) its residues equal the numpy path's (:meth:`DealerTable._contract`, the oracle) on
    the same sorted rows, and both equal the weights times the factors summed directly."""
    from exactodds.blackjack.dealer_kernel import LANES, contract

    try:
        table = DealerTable(base, up, False, floor=0, extra_cards=extra)
    except InputError:
        return
    event(f"chunks of lanes: {-(-len(table.primes) // LANES)}")
    xa = np.unique(np.minimum(np.array(xs, dtype=np.int64), np.array(base, dtype=np.int64)), axis=0)
    n = table.size - int(xa[0].sum())
    xa = xa[xa.sum(axis=1) == xa[0].sum()]
    w, _ = table._weights(n)
    got = contract(table.orders, table.k, table._lengths(n)[0], xa, *table._kernel_arrays(LANES), table.q)
    assert np.array_equal(got, table._contract(w, xa))
    for r, x in enumerate(xa.tolist()):  # the sum over the compositions, one product each
        prod = w.copy()
        for v in range(10):
            prod = prod * table.factors[v][:, x[v], :][:, table.d[:, v]] % table.p[:, :, 0]
        for j, o in enumerate(table.out_index):
            mask = np.array([comp_out == o for comp_out in _outcomes(table)])
            assert (prod[:, mask].sum(axis=1) % table.q == got[:, r, j]).all()


def _outcomes(table: DealerTable) -> list[int]:
    """The outcome of each of ``table``'s compositions, in its order (:attr:`DealerTable.d`)."""
    from exactodds.blackjack.dealer import dealer_compositions

    found = dealer_compositions(table.up, table.h17, table.base)
    return [found[tuple(row)][1] for row in table.d.tolist()]


@pytest.mark.parametrize("base,up", [((1, 3, 0, 0, 0, 0, 0, 0, 0, 0), 5), ((2, 2, 1, 0, 0, 0, 0, 0, 0, 0), 4)])
@pytest.mark.parametrize("pure", [False, True])
def test_a_short_shoe_is_refused_by_the_sum_check(base: Values, up: int, pure: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A shoe where some of the dealer's draws run out of cards (and others finish) is refused by
    the sum check of :meth:`DealerTable._residues` on both paths (compiled:
    :func:`~exactodds.blackjack.dealer_kernel.sums_hold`), and the plain recursion agrees that a
    draw runs out."""
    if pure:
        monkeypatch.setenv(PURE_ENV, "1")
    else:
        monkeypatch.delenv(PURE_ENV, raising=False)
        compiled("exactodds.blackjack.dealer_kernel")
    table = DealerTable(base, up, False, floor=0)
    with pytest.raises(InputError, match="ran out of cards"):
        table.request_removed([(0,) * 10])
    assert plain(base, up, up == 1, True, up, False) is None


@pytest.mark.parametrize("base,up", [((4,) * 9 + (16,), 6), ((200,) * 10, 7)])
def test_requests_by_codes_equal_requests_by_rows(base: Values, up: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """:meth:`DealerTable.request_codes` (the engine's chosen hands moved by pair cards as codes,
    repeats included; int64 codes and a huge shoe's object codes) computes the same compositions
    with the same numerators as :meth:`DealerTable.request_array` of the moved rows, and only the
    new ones on a second, overlapping request; a code out of the codes' range is refused."""
    rng = random.Random(7)
    hands = np.array([[rng.randint(0, min(2, b)) for b in base] for _ in range(40)], dtype=np.int64)
    by_codes, by_rows = DealerTable(base, up, False, floor=0), DealerTable(base, up, False, floor=0)
    codes = by_codes.codes_of(hands)
    assert (by_codes._decode(codes) == hands).all()  # the digits back (int64, or object digit by digit)
    moved = np.concatenate([codes, codes + 2 * by_codes.radix(3), codes[:5]])
    by_codes.request_codes(moved)
    rows = np.concatenate([hands, hands + 2 * np.eye(10, dtype=np.int64)[2], hands[:5]])
    by_rows.request_array(rows)
    assert by_codes.stored() == by_rows.stored() and len(by_codes.stored()) == len({tuple(r) for r in rows.tolist()})
    computed: list[int] = []
    real = by_codes._compute

    def counted(xa: np.ndarray, c: np.ndarray) -> None:
        computed.append(len(xa))
        real(xa, c)
    monkeypatch.setattr(by_codes, "_compute", counted)
    extra = by_codes.codes_of(np.array([[1] * 10], dtype=np.int64))
    by_codes.request_codes(np.concatenate([moved, extra]))
    assert computed == ([] if extra[0] in set(moved.tolist()) else [1])
    whole = by_codes.codes_of(np.array([base], dtype=np.int64))  # the largest code: the whole shoe out
    for wrong in (whole + 1, whole * 0 - 1):
        with pytest.raises(InputError, match="more cards than the shoe"):
            by_codes.request_codes(wrong)
