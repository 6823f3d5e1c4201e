"""The single-shoe path (issue 19 item 4): the compiled one-shoe kernel equal to the exact
Python-int path on random shoes of every size and to the brute-force oracle on small
ones; the analysis's integer figures equal to the figures summed as Fractions."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import oracle
import pytest
from conftest import SMALL_SHOES
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE
from exactodds.engine.level import Level
from exactodds.engine.levels import COUP, DEAL_FACES, LEVELS
from exactodds.engine.single import compiled_kernel
from exactodds.figures.analysis import Analysis, analyze
from exactodds.game.cards import Shoe


@st.composite
def shoes(draw: Any, max_decks: int = 1000) -> Shoe:
    """A shoe of 1 to ``max_decks`` decks, each face depleted by a drawn amount (some faces
    gone, short shoes of a few cards included)."""
    decks = draw(st.integers(1, max_decks))
    cut = draw(st.lists(st.integers(0, decks), min_size=52, max_size=52))
    counts = tuple(decks - c for c in cut)
    assume(sum(counts) > 0)
    return Shoe(counts)


def _as_ints(counts: Any) -> list[int]:
    return [int(c) for c in counts]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from([lv for lv in LEVELS.values() if lv.name != "pair-coup"]), shoes())
def test_one_shoe_compiled_equals_python_ints(level: Level, shoe: Shoe) -> None:
    """Forced compiled, refused compiled: the same counts, universe and void as the object
    (Python-int) batch path, whatever the size (int64 below the bound, ints above it)."""
    dealt = level.dealt_shoe(shoe)
    exact = level.price_batch(np.array([dealt.counts]), dtype=object)
    for compiled in (True, False):
        got = level.price_one(dealt, compiled=compiled)
        assert got.universe == exact.universe and got.void == exact.void
        assert _as_ints(got.counts[0]) == _as_ints(exact.counts[0])


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(shoes(max_decks=30))
def test_one_shoe_compiled_equals_python_ints_pair_coup(shoe: Shoe) -> None:
    level = LEVELS["pair-coup"]
    exact = level.price_batch(np.array([shoe.counts]), dtype=object)
    assert _as_ints(level.price_one(shoe, compiled=True).counts[0]) == _as_ints(exact.counts[0])


def test_the_compiled_path_is_taken_where_numba_is_installed() -> None:
    """Forcing it loads the single-shoe kernel (so the tests above did compare it)."""
    pytest.importorskip("numba")
    assert compiled_kernel(True) is not None


@pytest.mark.parametrize("name", ["ten-low", "eleven-face-heavy"])
@pytest.mark.parametrize("level", [COUP, DEAL_FACES], ids=lambda lv: lv.name)
def test_one_shoe_compiled_against_the_oracle(level: Level, name: str) -> None:
    """Every ordered card sequence of a small shoe, dealt by the oracle's own transcription
    of § 629a.10 and read at the level, against the compiled single-shoe counts."""
    shoe = SMALL_SHOES[name]
    got = level.price_one(shoe, compiled=True)
    counts: Counter[Any] = Counter()
    void = 0
    for player, banker, ways in oracle.rounds(shoe):
        if player is oracle.VOID:
            void += ways
        else:
            counts[level.from_deal(player, banker)] += ways
    assert got.void[0] == void
    assert {r: int(c) for r, c in zip(level.results, got.counts[0]) if c} == dict(counts)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(shoes(max_decks=40))
def test_analysis_figures_equal_the_fraction_sums(shoe: Shoe) -> None:
    """Every paytable of the catalogue: the return, house edge and variance (integer
    moments from the settlement) against the same figures summed row by row in Fractions,
    and against a copy of the analysis that recomputes them from its rows."""
    for w in CATALOGUE.values():
        for p in w.paytables:
            a = analyze(w, p.id, shoe)
            ret = sum((r.pay.net * Fraction(r.count, a.total) for r in a.rows), Fraction(0))
            square = sum((r.pay.net ** 2 * Fraction(r.count, a.total) for r in a.rows), Fraction(0))
            assert (a.return_, a.house_edge, a.variance) == (ret, -ret, square - ret * ret), (w.id, p.id)
            again = Analysis.of_rows(a.wager, a.paytable, a.shoe, a.rows, a.meter_amounts, a.meters_given)
            assert again == a and again.moments == a.moments  # the moments recomputed from the rows
            assert (again.house_edge, again.variance) == (a.house_edge, a.variance)


START_UP_CHILD = """
import sys
from exactodds.cli.app import main
sys.argv = ["exactodds", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
heavy = sorted(m for m in ("numpy", "numba", "rich", "jinja2", "xlsxwriter", "scipy", "pandas") if m in sys.modules)
print(",".join(heavy), file=sys.stderr)
"""


@pytest.mark.parametrize(("args", "heavy"), [(["--help"], ""), (["list"], ""), (["analyze", "banker"], ""),
                                             (["analyze", "banker", "-d", "6"], ""),
                                             (["analyze", "banker", "-d", "9"], "numpy"),
                                             (["analyze", "banker", "-r", "9H"], "numpy")])
def test_start_up_imports_only_what_the_command_needs(args: list[str], heavy: str) -> None:
    """Issue 19 item 5: ``--help`` and ``list`` import no numpy (the engine binds it lazily,
    :mod:`exactodds.lazy`), nor does ``analyze`` of a standard shoe whose counts ship
    (:mod:`exactodds.engine.standard`); ``analyze`` of any other shoe imports only numpy;
    none imports numba, rich, Jinja2 or
    XlsxWriter (a one-shot analysis never loads the compiled kernels)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    res = subprocess.run([sys.executable, "-c", START_UP_CHILD, *args], capture_output=True, text=True, check=True,
                         cwd=root)
    lines = res.stderr.strip().splitlines()
    assert (lines[-1] if lines else "") == heavy, res.stderr


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(shoes(max_decks=12))
def test_rows_built_when_first_read_equal_the_constructed_analysis(shoe: Shoe) -> None:
    """:func:`analyze` leaves an analysis's rows unbuilt until read: the analysis still
    equals, field by field, one made by the constructor from rows summed afresh from the
    level's counts per result (void row included on short shoes), survives a copy and
    ``dataclasses.replace``, and its rows add up to the universe; its moments equal those
    recomputed from the rows."""
    import copy

    from exactodds.figures.analysis import VOID, OutcomeRow

    for w in CATALOGUE.values():
        for p in w.paytables[:2]:
            a = analyze(w, p.id, shoe)
            assert "rows" not in a.__dict__
            universe, counts, void = w.level.priced(shoe)
            by_name: dict[str, int] = dict.fromkeys(w.outcome_names(p), 0)
            for r, n in zip(w.level.results, counts):
                by_name[w.settle(p, r)] += int(n)
            if void:
                by_name[VOID] = void
            pays = {r.name: r.pay for r in a.rows}
            rows = tuple(OutcomeRow(name, pays[name], n, universe) for name, n in by_name.items())
            made = Analysis.of_rows(w, a.paytable, shoe, rows, a.meter_amounts, a.meters_given)
            assert a == made and a.moments == made.moments and a.rows == rows
            assert sum(r.count for r in a.rows) == a.total == universe
            back = copy.copy(analyze(w, p.id, shoe))
            assert back == made and (back.house_edge, back.variance) == (made.house_edge, made.variance)
            assert dataclasses.replace(analyze(w, p.id, shoe)) == made
            with pytest.raises(AttributeError):
                _ = a.no_such_figure  # type: ignore[attr-defined]


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_shipped_standard_shoe_analysis_equals_the_priced_one(decks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every catalogue paytable on a standard shoe: the analysis settled from the shipped
    counts without numpy (:mod:`exactodds.engine.standard`) equals, rows and figures, the
    one priced and tallied by the numpy path with the shipping turned off."""
    from exactodds.engine import level as level_mod
    from exactodds.figures.analysis import SESSION

    shoe = Shoe.standard(decks)
    COUP._cache.pop(shoe, None)  # priced by numpy in an earlier test: the shipped counts again
    shipped = {(w.id, p.id): analyze(w, p.id, shoe) for w in CATALOGUE.values() for p in w.paytables}
    assert isinstance(COUP.priced(shoe)[1], list)
    monkeypatch.setattr(level_mod, "standard_counts", lambda name, d: None)
    SESSION.clear()  # the same shoe object: priced anew, not the shipped counts' tally again
    for w in CATALOGUE.values():
        for p in w.paytables:
            a = analyze(w, p.id, shoe)
            b = shipped[w.id, p.id]
            assert (a.rows, a.house_edge, a.variance, a.to_dict()) == (b.rows, b.house_edge, b.variance, b.to_dict())
    assert not isinstance(COUP.priced(shoe)[1], list)
    COUP._cache.pop(shoe, None)


def _alone(w: Any, p: Any, shoe: Shoe) -> list[int]:
    """Counts per outcome of ``w`` under ``p`` for ``shoe``, each result settled alone in
    Python ints from the level's counts (void rounds not among them)."""
    names = w.outcome_names(p)
    alone = [0] * len(names)
    for r, n in zip(w.level.results, w.level.priced(shoe)[1]):
        alone[names.index(w.settle(p, r))] += int(n)
    return alone


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(shoes(max_decks=40), st.booleans())
def test_plan_tallies_equal_each_paytable_settled_alone(shoe: Shoe, kernel_loaded: bool) -> None:
    """The tallies a compiled plan reads (:mod:`exactodds.figures.plan`) -- one per shoe
    and level, shared by the paytables that split its results alike, and (compiled kernel
    loaded, int64 counts) every split of the level tallied in one pass over the results'
    atoms -- against each paytable settled alone, result by result in Python ints: every
    catalogue paytable, on random shoes of 1 to 40 decks (int64 counts and, beyond the
    bound, Python ints), short shoes included, with and without the kernel."""
    from exactodds.engine import single
    from exactodds.figures.plan import compile_plans

    if kernel_loaded:
        pytest.importorskip("numba")
        assert single.compiled_kernel(True) is not None
    saved = dict(single._state)
    if not kernel_loaded:
        single._state["kernel"] = None  # as where numba is missing: numpy pricing, a tally per split
    try:
        plans = compile_plans([(w, p) for w in CATALOGUE.values() for p in w.paytables])
        for plan in plans.values():
            tally = plan.tally(shoe)
            for i, t in enumerate(plan.terms):
                assert list(tally.outcome_counts(i)) == _alone(t.wager, t.paytable, shoe), (t.wager.id, t.paytable.id)
            int64 = isinstance(tally.counts, np.ndarray) and tally.counts.dtype == np.int64
            assert (tally.flat is not None) == (kernel_loaded and int64)  # the path under test was taken
    finally:
        single._state.clear()
        single._state.update(saved)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(shoes(max_decks=40))
def test_moments_from_the_one_pass_equal_the_fraction_sums(shoe: Shoe) -> None:
    """With the compiled kernel loaded, a new shoe's figures come from the one pass that
    tallies it (int64 moments, read only for a universe within the paytable's limit
    ``INT64_MAX // max(squares)``): every catalogue paytable, by the whole catalogue's plans
    and by :func:`analyze` (its session's plan of the pairs asked so far), its return,
    house edge, variance and rows against the Fraction sums of its rows settled alone in
    Python ints -- and the pass's path taken exactly where the bound holds on int64 counts."""
    from exactodds.engine import single
    from exactodds.engine.pricing import INT64_MAX
    from exactodds.figures.analysis import Session, analysis_of
    from exactodds.figures.plan import compile_plans

    pytest.importorskip("numba")
    assert single.compiled_kernel(True) is not None
    plans = compile_plans([(w, p) for w in CATALOGUE.values() for p in w.paytables])
    session = Session()
    taken = 0
    for plan in plans.values():
        tally = plan.tally(shoe)
        for i, t in enumerate(plan.terms):
            universe, counts, void = t.level.priced(shoe)
            int64 = isinstance(counts, np.ndarray) and counts.dtype == np.int64
            from_pass = tally.flat is not None and universe <= plan.limits[i]
            assert from_pass == (int64 and universe <= INT64_MAX // max((1, *t.squares))), (t.wager.id, t.paytable.id)
            taken += from_pass
            alone = _alone(t.wager, t.paytable, shoe)
            ret = sum((pay.net * Fraction(n, universe) for pay, n in zip(t.pays, alone)), Fraction(0))
            square = sum((pay.net ** 2 * Fraction(n, universe) for pay, n in zip(t.pays, alone)), Fraction(0))
            for a in (analysis_of(tally, i), session.analyze(t.wager, t.paytable.id, shoe)):
                assert (a.return_, a.house_edge, a.variance) == (ret, -ret, square - ret * ret), (t.wager.id, t.paytable.id)
                assert [r.count for r in a.rows][:len(alone)] == alone and sum(r.count for r in a.rows) == universe
    assert taken or sum(shoe.counts) > 26 * 52  # int64 shoes took it
