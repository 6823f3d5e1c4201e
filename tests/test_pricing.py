"""The pricing engine: int64 against exact Python ints on both sides of the bound, the
compiled kernel against numpy, the batch API, and the shipped shape tables against the walks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import SLOW, slow_param
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.engine import level as level_module
from exactodds.engine import standard
from exactodds.engine.level import Level
from exactodds.engine.levels import COUP, LEVELS, SHIPPED, STANDARD
from exactodds.engine.pricing import INT64_MAX, exact_dtype, int64_cards, int64_exact, price, undealt, undealt_table
from exactodds.game.cards import FACES, Shoe, falling_factorial
from exactodds.game.walk import ShapeTable, shape_args

SHAPES = Path(__file__).resolve().parents[1] / "exactodds" / "engine" / "shapes"


def test_the_int64_bound_is_where_the_universe_passes_2_63() -> None:
    """27 decks (1,404 cards) fit, 28 (1,456) do not: the bound is the universe itself."""
    last = max(n for n in range(6, 2000) if falling_factorial(n, 6) <= INT64_MAX)
    assert int64_exact(falling_factorial(last, 6)) and not int64_exact(falling_factorial(last + 1, 6))
    assert 1404 <= last < 1456
    assert exact_dtype([52 * 27], 6) is np.int64 and exact_dtype([52 * 28], 6) is object
    assert COUP.price_batch(np.array([Shoe.standard(27).counts])).counts.dtype == np.int64
    assert COUP.price_batch(np.array([Shoe.standard(28).counts])).counts.dtype == object


def _random_shoes(rng: np.random.Generator, decks: int, k: int) -> np.ndarray:
    base = np.full((k, 52), decks, dtype=np.int64)
    return base - rng.integers(0, min(decks, 3) + 1, size=(k, 52))


@pytest.mark.parametrize("decks", [1, 8, 27, 28, 100, 1000])
@pytest.mark.parametrize("level", [lv for lv in LEVELS.values()], ids=lambda lv: lv.name)
def test_int64_equals_python_ints_on_both_sides_of_the_bound(level: Level, decks: int) -> None:
    """The same shoes priced by the default path (int64 below the bound, object above it),
    forced onto exact Python ints, and one by one: all equal, and add up to the universe."""
    shoes = _random_shoes(np.random.default_rng(decks), decks, 3)
    auto = level.price_batch(shoes)
    exact = level.price_batch(shoes, dtype=object)
    bound_holds = exact_dtype(shoes.sum(axis=1), level.depth, level.headroom) is np.int64
    assert auto.counts.dtype == (np.int64 if bound_holds else object)
    assert exact.counts.dtype == object
    assert (auto.counts == exact.counts).all()
    for b, row in enumerate(shoes):
        one = level.price_batch(row[None, :])
        assert (one.counts[0] == exact.counts[b]).all()
        total = sum(int(c) for c in exact.counts[b]) + exact.void[b]
        assert total == exact.universe[b] == falling_factorial(int(row.sum()), min(int(row.sum()), level.depth))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FACES), min_size=1, max_size=7))
def test_short_shoes_are_dealt_card_by_card_alike_in_every_path(cards: list) -> None:
    """Shoes of fewer than six cards (void rounds) and just above: int64, object, batch."""
    counts = Shoe.from_cards(cards).counts
    for level in (COUP, LEVELS["opening-rank-pattern"], LEVELS["deal-faces"]):
        batch = level.price_batch(np.array([counts, counts]))
        exact = level.price_batch(np.array([counts]), dtype=object)
        assert (batch.counts[1] == exact.counts[0]).all() and batch.void[1] == exact.void[0]
        assert sum(int(c) for c in exact.counts[0]) + exact.void[0] == exact.universe[0]


@pytest.mark.parametrize("level", [lv for lv in LEVELS.values() if lv.name != "deal-faces"], ids=lambda lv: lv.name)
def test_compiled_kernel_equals_numpy(level: Level) -> None:
    """The numba kernel (large int64 batches) against the numpy path, shoe by shoe."""
    shoes = _random_shoes(np.random.default_rng(7), 8, 20)
    n = shoes @ level.projection
    totals = shoes.sum(axis=1)
    compiled = price(level.table, n, totals, level.depth, np.int64, compiled=True)
    plain = price(level.table, n, totals, level.depth, np.int64, compiled=False)
    assert (compiled == plain).all()


def test_batch_equals_single_analyses() -> None:
    """A batch of a shoe and its removals equals pricing each shoe alone (the EOR use)."""
    shoe = Shoe.standard(6)
    shoes = [shoe, *(shoe.remove([f]) for f in FACES[:20])]
    batch = COUP.price_batch(np.array([s.counts for s in shoes]))
    for b, s in enumerate(shoes):
        universe, counts, void = COUP.priced(s)
        assert (batch.counts[b] == counts).all() and batch.universe[b] == universe and batch.void[b] == void


@pytest.mark.parametrize("level", [slow_param(lv, "9 s of CPU") if lv.name == "pair-coup" else lv for lv in SHIPPED],
                         ids=lambda lv: lv.name)
def test_shipped_tables_equal_the_walks(level: Level) -> None:
    """Every shipped ``engine/shapes/*.npz`` is exactly what the level's walk builds."""
    with np.load(SHAPES / f"{level.name}.npz", allow_pickle=False) as arrays:
        shipped = ShapeTable.from_arrays(level.kind, arrays)
    walked = level.walk()
    assert shipped.same_as(walked)
    assert shipped.results(level.result) == walked.results(level.result)


@pytest.mark.parametrize("name", [lv.name for lv in STANDARD])
def test_shipped_standard_shoes_equal_the_pricing(name: str) -> None:
    """``engine/shapes/standard.json`` (issue 19 item 5): each shipped representative shape
    is the shape table's, the results rebuilt from them are the table's, and the counts of
    every shipped deck count are what the object (Python-int) path prices for that
    standard shoe, universe and no void."""
    level = LEVELS[name]
    assert level.standard
    reps = standard.standard_reps(name)
    assert reps == level.table.rep.tolist()
    assert tuple(level.result(*shape_args(level.kind, rep)) for rep in reps) == level.table.results(level.result)
    for decks in standard.DECKS:
        exact = level.price_batch(np.array([[decks] * 52]), dtype=object)
        assert list(standard.standard_counts(name, decks) or ()) == [int(c) for c in exact.counts[0]]
        universe, counts, void = level.priced(Shoe.standard(decks))
        assert [int(c) for c in counts] == [int(c) for c in exact.counts[0]]
        assert (universe, void) == (exact.universe[0], 0) == (exact.universe[0], exact.void[0])
    assert standard.standard_counts(name, standard.DECKS[-1] + 1) is None
    assert standard.standard_counts("deal-faces", 8) is None


@given(st.integers(1, 1000), st.lists(st.integers(0, 2), min_size=52, max_size=52))
def test_standard_decks_names_only_standard_shoes(decks: int, cut: list[int]) -> None:
    """A shoe is read as standard (its counts shipped) exactly when every face has the
    same count, and then as that many decks."""
    counts = tuple(max(decks - c, 0) for c in cut)
    got = standard.standard_decks(counts)
    assert got == (counts[0] if len(set(counts)) == 1 else None)


# 10 examples with EXACTODDS_SLOW=1 (CI's slow step), 4 in the README's test command (6 s -> 2.5 s)
@settings(max_examples=10 if SLOW else 4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 6), st.integers(0, 2**32 - 1), st.sampled_from(["coup", "opening-rank-pattern", "deal-faces"]))
def test_pricing_by_classes_equals_summing_the_full_counts(k: int, seed: int, name: str) -> None:
    """``price_batch(..., classes=...)`` (a coarsened table, or the full counts summed for a
    level that prices otherwise) equals summing the full counts per class, on full and short
    shoes, in int64 and in Python ints."""
    level = LEVELS[name]
    rng = np.random.default_rng(seed)
    classes = np.unique(rng.integers(0, k, size=len(level.results)), return_inverse=True)[1].ravel()
    onehot = np.zeros((len(classes), int(classes.max()) + 1), np.int64)
    onehot[np.arange(len(classes)), classes] = 1
    shoes = np.vstack([_random_shoes(rng, 8, 20), Shoe.from_cards(FACES[:5]).counts])
    for dtype in (None, object):
        full = level.price_batch(shoes, dtype=dtype)
        coarse = level.price_batch(shoes, dtype=dtype, classes=classes)
        assert (coarse.counts == full.counts @ onehot.astype(full.counts.dtype)).all()
        assert coarse.universe == full.universe and coarse.void == full.void
    only_full = shoes[:20]
    assert (level.price_batch(only_full, classes=classes).counts == level.price_batch(only_full).counts @ onehot).all()


@settings(max_examples=10, deadline=None)
@given(st.lists(st.lists(st.integers(0, 10**6), min_size=52, max_size=52), min_size=1, max_size=5),
       st.sampled_from([np.int64, object]))
def test_class_counts_are_the_faces_summed_per_class(rows: list[list[int]], dtype: type) -> None:
    """Every level's class counts (one ``reduceat`` over the faces ordered by class) equal
    the face counts times the level's 0/1 projection matrix, in both dtypes."""
    comp = np.array(rows, dtype=object).astype(dtype)
    for level in LEVELS.values():
        n = level.class_counts(comp, dtype)
        assert n.dtype == np.dtype(dtype) and n.tolist() == (comp @ level.projection.astype(dtype)).tolist()


@pytest.mark.parametrize("headroom", [1, 4, 1000])
@pytest.mark.parametrize("depth", [1, 2, 3, 6, 9])
def test_int64_cards_is_the_last_shoe_size_whose_universe_passes(depth: int, headroom: int) -> None:
    """The memoized bound :func:`exact_dtype` compares with: the universe of that many cards
    passes :func:`int64_exact`, one card more does not (computed here by hand); and
    :func:`exact_dtype` agrees with the direct test on both sides of it."""
    last = int64_cards(depth, headroom)
    assert int64_exact(falling_factorial(last, depth), headroom)
    assert not int64_exact(falling_factorial(last + 1, depth), headroom)
    for n in (0, depth, last - 1, last, last + 1, 2 * last):
        expected = np.int64 if int64_exact(falling_factorial(n, depth), headroom) else object
        assert exact_dtype([n, 0], depth, headroom) is expected
        assert exact_dtype(np.array([n], dtype=object), depth, headroom) is expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 5000) | st.sampled_from([1450, 1451, 4095, 4096]), min_size=1, max_size=30),
       st.sampled_from([1, 2, 3, 4, 6]))
def test_memoized_undealt_factors_and_universes_equal_the_direct_computation(totals: list[int], depth: int) -> None:
    """The int64 undealt factors read from :func:`undealt_table` (shoes up to the bound and
    4,095 cards) equal the column loop in Python ints and ``ff(N − m, depth − m)`` itself,
    come as a new array (writing it leaves the table alone), and fall back to the loop
    beyond the table; the universes memoized per size (the memo forgetting everything past 3
    sizes here) equal ``ff(N, min(N, depth))``."""
    t = np.array(totals, np.int64)
    exact = undealt(t, depth, object)
    for n, row in zip(totals, exact.tolist()):
        if n >= depth:
            assert row == [falling_factorial(n - m, depth - m) for m in range(depth + 1)]
    if exact_dtype(t, depth) is np.int64:
        table = undealt_table(depth)
        before = table.copy()
        fast = undealt(t, depth, np.int64)
        assert fast.dtype == np.int64 and fast.tolist() == exact.tolist()
        fast[:] = -1
        assert not table.flags.writeable and (table == before).all()
    kept = level_module.UNIVERSES_KEPT
    try:
        level_module.UNIVERSES_KEPT = 3                     # type: ignore[misc]
        expected = tuple(falling_factorial(n, min(n, depth)) for n in totals)
        assert level_module.universes(t, depth) == expected == level_module.universes(t.astype(object), depth)
    finally:
        level_module.UNIVERSES_KEPT = kept                  # type: ignore[misc]
