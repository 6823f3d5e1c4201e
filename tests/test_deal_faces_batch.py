"""The ``deal-faces`` level's batch pricing: the compiled kernel against the numpy path and
exact Python ints, on depleted, large, one-suit, one-colour and short shoes, and against
pricing each shoe alone."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from conftest import slow_param
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.engine import deal_faces_kernel as kernel
from exactodds.engine.deal_faces import CELLS, DealFacesLevel, face_cells
from exactodds.engine.levels import DEAL_FACES
from exactodds.engine.pricing import KERNEL_MIN_BATCH, exact_dtype
from exactodds.game.cards import FACES, Shoe

assert isinstance(DEAL_FACES, DealFacesLevel)
LEVEL: DealFacesLevel = DEAL_FACES


def _depleted(rng: np.random.Generator, decks: int, k: int) -> npt.NDArray[np.int64]:
    """``k`` shoes of ``decks`` decks, each face depleted by 0 to 3 (at most ``decks``)."""
    return np.full((k, 52), decks, np.int64) - rng.integers(0, min(decks, 3) + 1, size=(k, 52))


def _only(decks: int, keep: set[str], rng: np.random.Generator, k: int) -> npt.NDArray[np.int64]:
    """Depleted shoes holding only the faces of the suits ``keep``."""
    mask = np.array([c.suit in keep for c in FACES])
    return _depleted(rng, decks, k) * mask


def _three_ways(comps: npt.NDArray[Any]) -> tuple[Any, Any, Any]:
    """(compiled int64, numpy int64, numpy object) counts of the full shoes ``comps``."""
    n = comps @ LEVEL.projection
    totals = comps.sum(axis=1)
    compiled = LEVEL.price_classes(n, totals, np.int64, compiled=True)
    plain = LEVEL.price_classes(n, totals, np.int64, compiled=False)
    exact = LEVEL.price_classes(n.astype(object), totals.astype(object), object, compiled=False)
    return compiled, plain, exact


def _check(comps: npt.NDArray[Any]) -> None:
    compiled, plain, exact = _three_ways(comps)
    assert compiled.dtype == plain.dtype == np.int64 and exact.dtype == object
    assert (compiled == plain).all() and (compiled == exact).all()
    for b, row in enumerate(comps):                                   # every round of the universe
        n = int(row.sum())
        assert sum(int(c) for c in exact[b]) == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)


CASES = {
    "8 decks depleted": lambda rng: _depleted(rng, 8, 21),           # 21: a last, partial kernel chunk
    "1 deck depleted": lambda rng: _depleted(rng, 1, 18),
    "20 decks depleted": lambda rng: _depleted(rng, 20, 17),
    "one suit": lambda rng: np.concatenate([_only(8, {s}, rng, 4) for s in "SHDC"]),
    "one colour": lambda rng: np.concatenate([_only(8, {"H", "D"}, rng, 5), _only(2, {"S", "C"}, rng, 5)]),
    "two suits of two colours": lambda rng: _only(3, {"S", "H"}, rng, 6),
    "one rank": lambda rng: np.concatenate([np.eye(52, dtype=np.int64)[[i]] * 7 for i in range(0, 52, 5)]),
}


@pytest.mark.parametrize("case", [slow_param(c, "5-8 s of CPU") if c in {"8 decks depleted", "1 deck depleted"} else c for c in CASES], ids=list(CASES))
def test_compiled_equals_numpy_and_python_ints(case: str) -> None:
    _check(CASES[case](np.random.default_rng(len(case))))


def test_compiled_is_exact_up_to_the_universe_itself() -> None:
    """27 decks: above the level's bound (headroom 4), so batches go to Python ints; the
    kernel's intermediates never exceed the universe, so forced onto int64 it still agrees."""
    comps = _depleted(np.random.default_rng(27), 27, KERNEL_MIN_BATCH)
    comps[0] = Shoe.standard(27).counts
    totals = comps.sum(axis=1)
    assert exact_dtype(totals, LEVEL.depth, LEVEL.headroom) is object
    assert exact_dtype(totals, LEVEL.depth) is np.int64
    batch = LEVEL.price_batch(comps)
    assert batch.counts.dtype == object
    compiled = LEVEL.price_classes(comps @ LEVEL.projection, totals, np.int64, compiled=True)
    assert (compiled == batch.counts).all()


def test_compiled_face_cells_are_the_formula() -> None:
    """The kernel compiles :func:`face_cells` itself: same cells on arbitrary integers, and
    the six cells of consistent counts partition ``T``."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        t, s, c, r, rs, rc = (int(x) for x in rng.integers(-10**15, 10**15, size=6))
        assert kernel._face_cells(t, s, c, r, rs, rc) == face_cells(t, s, c, r, rs, rc)
    assert len(face_cells(*range(6))) == len(CELLS)
    for _ in range(200):
        rs = int(rng.integers(0, 10**6))
        s, rc = rs + int(rng.integers(0, 10**6)), rs + int(rng.integers(0, 10**6))
        c = max(s, rc) + int(rng.integers(0, 10**6))
        r = rc + int(rng.integers(0, 10**6))
        t = c + r + int(rng.integers(0, 10**6))
        cells = face_cells(t, s, c, r, rs, rc)
        assert sum(cells) == t


def test_batches_use_the_kernel_exactly_when_priced_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """int64 batches of ``KERNEL_MIN_BATCH`` shoes or more go through the kernel; smaller or
    object batches do not; all agree."""
    calls: list[int] = []
    real = kernel.deal_faces_int64

    def spy(derived: Any, *args: Any) -> Any:
        calls.append(len(derived))
        return real(derived, *args)

    monkeypatch.setattr(kernel, "deal_faces_int64", spy)
    comps = _depleted(np.random.default_rng(5), 6, KERNEL_MIN_BATCH)
    big = LEVEL.price_batch(comps)
    small = LEVEL.price_batch(comps[:-1])
    exact = LEVEL.price_batch(comps, dtype=object)
    assert calls == [KERNEL_MIN_BATCH]
    assert (big.counts[:-1] == small.counts).all() and (big.counts == exact.counts).all()


def test_batch_with_short_shoes_equals_each_shoe_alone() -> None:
    """A kernel batch mixing full shoes with shoes of fewer than six cards (dealt card by
    card by the level): each row equals ``distribution`` of that shoe alone."""
    rng = np.random.default_rng(11)
    full = _depleted(rng, 8, 12)
    short = np.zeros((6, 52), np.int64)
    for i, size in enumerate((1, 2, 3, 4, 5, 5)):
        for f in rng.choice(52, size=size, replace=False):
            short[i, f] += 1
    comps = np.concatenate([full[:6], short, full[6:]])
    batch = LEVEL.price_batch(comps)
    assert batch.counts.dtype == np.int64
    for b, row in enumerate(comps):
        shoe = Shoe(tuple(int(x) for x in row))
        d = LEVEL.distribution(shoe)
        got = {r: int(c) for r, c in zip(LEVEL.results, batch.counts[b]) if c}
        assert got == dict(d.counts) and batch.void[b] == d.void and batch.universe[b] == d.universe


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.integers(0, 3), min_size=52, max_size=52).filter(lambda c: sum(c) >= 6),
                min_size=1, max_size=9))
def test_random_small_shoes_compiled_equals_python_ints(shoes: list[list[int]]) -> None:
    """Sparse shoes, many faces absent (zero weights, empty cells), any batch size."""
    _check(np.array(shoes, np.int64))


def test_single_shoe_does_not_import_numba() -> None:
    """One analysis prices one shoe by numpy: numba's import is paid only by batches."""
    code = ("import sys\nfrom exactodds.engine.levels import DEAL_FACES\nfrom exactodds.game.cards import Shoe\n"
            "DEAL_FACES.distribution(Shoe.standard(8))\nprint('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.integers(1, 27), st.integers(1, 3 * kernel.FACE_LANES + 5))
def test_kernel_equals_numpy_and_python_ints_on_random_batches(data: Any, decks: int, size: int) -> None:
    """The compiled kernel (forced) on random batches of 1 to ``3 × FACE_LANES + 5`` shoes
    (a last lane block partly padded, or several blocks), 1 to 27 decks (27: sums near
    the int64 bound), depleted anywhere
    from not at all to short shoes of fewer than six cards (dealt card by card, the rest
    through the kernel): equal to the numpy int64 path on the whole batch and to exact
    Python ints on a few drawn rows; each row's counts and void rounds sum to its universe."""
    rows = []
    for _ in range(size):
        keep = data.draw(st.integers(0, decks), label="kept of the depleted faces")
        cut = data.draw(st.lists(st.integers(0, decks), min_size=52, max_size=52), label="depletion")
        rows.append([max(keep - d, 0) if i % 4 else max(decks - d, 0) for i, d in enumerate(cut)])
    comps = np.array(rows, np.int64)
    compiled = LEVEL.price_batch(comps, dtype=np.int64, compiled=True)
    plain = LEVEL.price_batch(comps, dtype=np.int64, compiled=False)
    assert compiled.counts.dtype == np.int64 and (compiled.counts == plain.counts).all()
    assert compiled.void == plain.void
    for b in range(size):
        assert sum(int(c) for c in compiled.counts[b]) + compiled.void[b] == compiled.universe[b]
    picked = sorted(set(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=3), label="exact rows")))
    exact = LEVEL.price_batch(comps[picked], dtype=object)
    assert (compiled.counts[picked] == exact.counts).all()


def _walk_and_plan() -> tuple[Any, Any]:
    from exactodds.engine.kernel import walk
    from exactodds.engine.pricing import trie

    assert LEVEL.coup is not None
    p = LEVEL._plan
    return walk(trie(LEVEL.coup.table), p, len(CELLS)), p


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_outcome_sums_are_the_groups_row_set_sums(seed: int) -> None:
    """The kernel's regrouping (:func:`kernel._outcomes`) against the walk's own records:
    for arbitrary counts ``S ≤ C ≤ T`` per multiset of several values (Python ints, up
    to ``2^52``), every pair's ``Σ_g μ_g · cell(Σ_{r ∈ row set of g} (T, S, C))`` read
    group by group from the row sets (:attr:`Walk.fill_group`, :attr:`Walk.triple`)
    equals its cell of its outcome's weighted sums; and every outcome's pairs read all
    three cells (its ``T`` sum is a sum of disjoint counts: the int64 bound)."""
    w, p = _walk_and_plan()
    ptr, out_of, weight, outcome, which, from_sets = kernel._outcomes(w, p)
    rng = np.random.default_rng(seed)
    nodes = len(w.depth)
    t = [int(x) for x in rng.integers(0, 2**52, size=nodes)]
    c = [int(rng.integers(0, x + 1)) for x in t]
    s = [int(rng.integers(0, x + 1)) for x in c]
    tsc = [(t[i], s[i], c[i]) for i in range(nodes)]
    sets: dict[int, list[int]] = {}
    for i in range(nodes):
        for e in range(int(w.triple_ptr[i]), int(w.triple_ptr[i + 1])):
            sets.setdefault(int(w.triple[e]), []).append(i)
    pair_of = np.repeat(np.arange(len(p.cards)), np.diff(p.group_ptr))
    expected: dict[int, int] = {}
    for g, src, k in zip(w.fill_group.tolist(), w.fill_source.tolist(), w.fill_cell.tolist()):
        total = [sum(tsc[i][x] for i in sets[src]) for x in range(3)]
        cellv = face_cells(total[0], total[1], total[2], 0, 0, 0)[k]
        j = int(pair_of[g])
        expected[j] = expected.get(j, 0) + int(p.mult[g]) * cellv
    sums: dict[int, list[int]] = {}
    for i in range(nodes):
        for e in range(int(ptr[i]), int(ptr[i + 1])):
            acc = sums.setdefault(int(out_of[e]), [0, 0, 0])
            for x in range(3):
                acc[x] += int(weight[e]) * tsc[i][x]
    got = {j: face_cells(*sums[int(outcome[j])], 0, 0, 0)[int(which[j])] for j in expected}
    assert got == expected
    cells_read: dict[int, set[int]] = {}
    for j in expected:
        cells_read.setdefault(int(outcome[j]), set()).add(int(which[j]))
    assert set(cells_read) == set(sums) and all(r == {1, 3, 5} for r in cells_read.values())
    results = np.repeat(np.arange(len(p.pair_ptr) - 1), np.diff(p.pair_ptr))
    assert set(np.flatnonzero(from_sets).tolist()) == {int(results[j]) for j in expected}
