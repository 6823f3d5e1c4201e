"""The compiled kernel and the plan it shares with the numpy path: equal to exact Python
ints on random shoes of every size, without numba, and from an install folder the
process cannot write (numba's on-disk cache refused, issue 18)."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.engine.level import Level
from exactodds.engine.levels import COUP, DEAL_FACES, LEVELS
from exactodds.engine.pricing import exact_dtype, make_plan, node_ways, plan, settle, trie, undealt
from exactodds.game.cards import falling_factorial

ROOT = Path(__file__).resolve().parents[1]
KERNEL_LEVELS = [lv for lv in LEVELS.values() if lv.name != "pair-coup"]   # pair-coup: slow, below
"""Every level but pair-coup (its table is 5x the coup table; checked on fewer shoes)."""


def _shoes(data: Any, decks: int, count: int) -> npt.NDArray[np.int64]:
    """``count`` shoes of ``decks`` decks, each face depleted by a drawn amount: from full
    shoes to nearly empty ones (short shoes included)."""
    rows = []
    for _ in range(count):
        keep = data.draw(st.integers(0, decks))
        depleted = data.draw(st.lists(st.integers(0, decks), min_size=52, max_size=52))
        rows.append([max(keep - d, 0) if i % 3 else max(decks - d, 0) for i, d in enumerate(depleted)])
    return np.array(rows, np.int64)


def _agree(level: Level, shoes: npt.NDArray[np.int64]) -> None:
    """Kernel (forced), numpy int64, default path and Python ints: all equal, all exact."""
    totals = shoes.sum(axis=1)
    exact = level.price_batch(shoes, dtype=object)
    assert exact.counts.dtype == object
    for b, row in enumerate(exact.counts):
        assert sum(int(c) for c in row) + exact.void[b] == exact.universe[b] == \
            falling_factorial(int(totals[b]), min(int(totals[b]), level.depth))
    auto = level.price_batch(shoes)
    assert (auto.counts == exact.counts).all() and auto.void == exact.void
    if exact_dtype(totals, level.depth, level.headroom) is np.int64:
        for compiled in (True, False):
            forced = level.price_batch(shoes, dtype=np.int64, compiled=compiled)
            assert forced.counts.dtype == np.int64
            assert (forced.counts == exact.counts).all() and forced.void == exact.void


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from(KERNEL_LEVELS), st.integers(1, 1000), st.integers(1, 9))
def test_kernel_equals_python_ints_on_random_shoes_of_every_size(data: Any, level: Level, decks: int,
                                                                 count: int) -> None:
    """1 to 1,000 decks (int64 below the bound, Python ints above it), batches of 1 to 9
    shoes (a last partial lane block), short shoes mixed in."""
    _agree(level, _shoes(data, decks, count))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from([1, 2, 8, 27, 200]))
def test_kernel_equals_python_ints_pair_coup(data: Any, decks: int) -> None:
    _agree(LEVELS["pair-coup"], _shoes(data, decks, 3))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from([COUP, LEVELS["opening-player-faces"], LEVELS["opening-nines"]]),
       st.sampled_from([1, 2, 5, 27, 1000]), st.sampled_from([1, 33, 63, 65]))
def test_kernel_paths_equal_python_ints_on_batches_across_lane_blocks(data: Any, level: Level, decks: int,
                                                                     count: int) -> None:
    """Both compiled paths -- the lane walk with merged entry sets (coup) and the shoe-by-shoe
    direct path (the face and nines levels) -- on batches of 1 shoe, of part of a lane block,
    one short of it and one over it (blocks of 64 shoes), shoes of 1 to 1,000 decks and
    short shoes: equal to Python ints."""
    _agree(level, _shoes(data, decks, count))


def test_direct_path_is_taken_exactly_where_every_result_is_one_entry() -> None:
    """The shoe-by-shoe path prices the levels whose every result is one multiset (the
    faces and nines openings), not the summed ones (coup, rank pattern, Royal 9, ...); and it refuses a plan whose
    ``μ`` would exceed ``ff(depth, m)`` (the bound its docstring proves int64 with): the
    Player's two faces read in a one-card universe."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    assert kernel.LANES == 64                               # the batch sizes of the test above straddle it
    taken = {name for name, lv in LEVELS.items() if lv is not DEAL_FACES and
             kernel.direct(trie(lv.table), plan(lv.table), lv.depth) is not None}
    assert taken == {"opening-player-faces", "opening-banker-faces", "opening-nines"}
    faces = LEVELS["opening-player-faces"].table
    assert kernel.direct(trie(faces), plan(faces), 1) is None
    d = kernel.direct(trie(faces), plan(faces), 6)
    p = plan(faces)
    assert d.node.tolist() == p.slot.tolist() and (d.kind_mult[d.kind] == p.mult).all()
    assert (d.kind_cards[d.kind] == p.cards).all()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.integers(1, 27), st.sampled_from([1, 3, 64, 70]))
def test_direct_path_with_several_kinds_and_an_empty_result(data: Any, decks: int, count: int) -> None:
    """The direct path's general branch (several ``(μ, m)`` kinds, which no shipped level
    has) and a result no entry reaches: the Player's faces table with ``μ = 2`` on every
    other result and one result more, priced by the kernel and by the numpy path's
    :func:`~exactodds.engine.pricing.settle` over :func:`~exactodds.engine.pricing.node_ways`."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    table = LEVELS["opening-player-faces"].table
    t = trie(table)
    results = len(table.rep) + 1
    p = make_plan(t.row_node[table.row], table.cards[table.row], table.result, table.mult * (1 + table.result % 2),
                  results)
    d = kernel.direct(t, p, 6)
    assert d is not None and len(d.kind_mult) == 3 and 0 in d.kind_mult.tolist()
    shoes = _shoes(data, decks, count)
    shoes = shoes[shoes.sum(axis=1) >= 6]
    n = shoes.astype(np.int64)
    und = undealt(n.sum(axis=1), 6, np.int64)
    got = kernel.price_int64(n, und, t, p)
    assert got.shape == (len(n), results) and (got[:, -1] == 0).all()
    assert (got == settle(p, node_ways(t, n), und)).all()
    exact = settle(p, node_ways(t, n.astype(object)), undealt(n.sum(axis=1), 6, object))
    assert got.tolist() == exact.tolist()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-2**40, 2**40) | st.integers(0, 2**32 + 2), max_size=20))
def test_narrow_keeps_every_value(values: list[int]) -> None:
    """The dtype the kernels read factors and ``μ`` in: uint32 exactly when every value
    fits it, and the array in that dtype holds the same integers (no value truncated)."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    a = np.array(values, np.int64)
    narrow = kernel._narrow(a)
    assert (narrow is np.uint32) == all(0 <= v < 2**32 for v in values)
    assert a.astype(narrow).tolist() == values


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from([1, 2, 8]), st.sampled_from([1, 65]))
def test_kernel_wide_factors_and_multipliers_equal_python_ints(data: Any, decks: int, count: int) -> None:
    """The int64 reading of factors and ``μ`` (:func:`~exactodds.engine.kernel._narrow`'s
    guard, which no shoe under the int64 bound reaches) on the coup level, shoes of 1-8
    decks (int64 exact), short ones mixed in: forced for every array, the kernel still
    equals Python ints (and so the uint32 reading, which
    :func:`_agree`'s other tests hold equal to them)."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    shoes = _shoes(data, decks, count)
    exact = COUP.price_batch(shoes, dtype=object)
    narrow = kernel._narrow
    try:
        kernel._narrow = lambda a: np.int64
        wide = COUP.price_batch(shoes, dtype=np.int64, compiled=True)
        assert (wide.counts == exact.counts).all() and wide.void == exact.void
    finally:
        kernel._narrow = narrow


def test_entry_sets_sum_each_group_exactly_its_nodes() -> None:
    """The coup walk's merged sets: each group reads a set whose nodes are exactly the
    group's multisets, the sets are distinct, and every (node, set) addition is made once."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    t, p = trie(COUP.table), plan(COUP.table)
    w = kernel.walk(t, p)
    m = kernel.entry_sets(w, len(p.mult))
    trie_node = np.where(w.row_of >= 0, t.row_node[np.maximum(w.row_of, 0)], -1)
    walk_node = np.repeat(np.arange(len(w.depth)), np.diff(m.node_ptr.astype(np.int64)))
    members: dict[int, list[int]] = {}
    for at, k in zip(walk_node.tolist(), m.set_of.tolist()):
        members.setdefault(k, []).append(int(trie_node[at]))
    assert len(members) == m.sets < len(p.mult) and len(set(zip(walk_node.tolist(), m.set_of.tolist()))) == \
        len(m.set_of)
    assert len({tuple(sorted(v)) for v in members.values()}) == m.sets
    stored: list[int] = []                                  # each set started (stored) once, by its first node
    for i in range(len(w.depth)):
        starts, adds = m.set_of[m.node_ptr[i]:m.store_end[i]].tolist(), m.set_of[m.store_end[i]:m.node_ptr[i + 1]]
        assert set(adds.tolist()) <= set(stored) and not set(starts) & set(stored)
        stored += starts
    assert sorted(stored) == list(range(m.sets))
    for g in range(len(p.mult)):
        assert sorted(members[int(m.group_set[g])]) == sorted(p.slot[p.slot_ptr[g]:p.slot_ptr[g + 1]].tolist())


@pytest.mark.parametrize("level", [COUP, DEAL_FACES, LEVELS["opening-player-faces"], LEVELS["royal-9-opening"]],
                         ids=lambda lv: lv.name)
def test_plan_sums_every_entry_once(level: Level) -> None:
    """The plan holds every entry of the table once, with its multiplicity and cards."""
    table = level.table
    p = plan(table) if level is not DEAL_FACES else DEAL_FACES._plan  # type: ignore[attr-defined]
    sizes = np.diff(p.slot_ptr)
    assert len(p.slot) == len(table.row) and sizes.min() >= 1
    per_group_mult = np.repeat(p.mult, sizes)
    assert int(per_group_mult.sum()) == int(table.mult.sum())
    assert p.pair_ptr[-1] == len(p.cards) and p.group_ptr[-1] == len(p.mult)


@pytest.mark.parametrize("level", [COUP, DEAL_FACES, LEVELS["opening-player-faces"], LEVELS["opening-rank-pattern"]],
                         ids=lambda lv: lv.name)
def test_depth_first_walk_visits_every_multiset_and_entry_once(level: Level) -> None:
    """The compiled kernel's walk (:func:`exactodds.engine.kernel.walk`), replayed here card by
    card: each node extends the path of its depth's parent by its class, in sorted order
    with the right prior count; each multiset of the table is one node, with exactly its
    card counts; and the entries met on the walk -- summed, direct, or (deal-faces) summed as
    a row set's triple and filled into each group of that row set -- are the plan's entries
    (multiset, cell, result, multiplicity, cards), each once."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    faces = level is DEAL_FACES
    table = level.coup.table if faces else level.table  # type: ignore[attr-defined]
    t = trie(table)
    p = level._plan if faces else plan(table)  # type: ignore[attr-defined]
    w = kernel.walk(t, p, 6 if faces else 1)
    group_pair = np.repeat(np.arange(len(p.cards)), np.diff(p.group_ptr))
    pair_result = np.repeat(np.arange(len(p.pair_ptr) - 1), np.diff(p.pair_ptr))
    node_row = {int(node): r for r, node in enumerate(t.row_node)}
    expected: Counter[tuple[int, ...]] = Counter()
    for g in range(len(p.mult)):
        j = int(group_pair[g])
        for slot in p.slot[p.slot_ptr[g]:p.slot_ptr[g + 1]].tolist():
            row, cell = (slot // 6, slot % 6) if faces else (node_row[slot], 0)
            expected[(row, cell, int(pair_result[j]), int(p.mult[g]), int(p.cards[j]))] += 1
    met: Counter[tuple[int, ...]] = Counter()
    path: list[int] = []
    rows = []
    row_sets: dict[int, list[int]] = {}
    for i in range(len(w.depth)):
        depth, cls = int(w.depth[i]), int(w.cls[i])
        del path[depth - 1:]
        assert len(path) == depth - 1 and (not path or path[-1] <= cls)
        assert int(w.prior[i]) == path.count(cls)
        path.append(cls)
        row = int(w.row_of[i])
        if row >= 0:
            rows.append(row)
            assert np.bincount(path, minlength=table.classes).tolist() == table.k[row].tolist()
        for e in range(int(w.node_ptr[i]), int(w.node_ptr[i + 1])):
            g = int(w.group[e])
            j = int(group_pair[g])
            met[(row, int(w.cell[e]), int(pair_result[j]), int(p.mult[g]), int(p.cards[j]))] += 1
        for e in range(int(w.direct_ptr[i]), int(w.direct_ptr[i + 1])):
            met[(row, 0, int(w.direct_result[e]), int(w.direct_mult[e]), int(w.direct_cards[e]))] += 1
            assert w.alone[int(w.direct_result[e])] == 1
        for e in range(int(w.triple_ptr[i]), int(w.triple_ptr[i + 1])):
            assert (table.k[row] > 0).sum() > 1                 # a multiset of several values
            row_sets.setdefault(int(w.triple[e]), []).append(row)
    for g, source, cell in zip(w.fill_group.tolist(), w.fill_source.tolist(), w.fill_cell.tolist()):
        assert cell in (1, 3, 5)                                # not one rank: S, C - S, T - C
        j = int(group_pair[g])
        for row in row_sets[source]:
            met[(row, cell, int(pair_result[j]), int(p.mult[g]), int(p.cards[j]))] += 1
    assert sorted(rows) == list(range(len(table.k)))
    assert met == expected and max(met.values()) == 1


def test_the_engine_prices_exactly_without_numba() -> None:
    """numba is an optional extra: with its import refused, every level prices a large
    batch by numpy, equal to Python ints, and the kernel module is never imported."""
    code = """
import builtins, json, sys
real = builtins.__import__
def refuse(name, *a, **k):
    if name == "numba" or name.startswith("numba."):
        raise ImportError("no numba here")
    return real(name, *a, **k)
builtins.__import__ = refuse
import numpy as np
from exactodds.engine.levels import LEVELS
from exactodds.game.cards import Shoe
rng = np.random.default_rng(4)
shoes = np.array(Shoe.standard(8).counts) - rng.integers(0, 3, size=(40, 52))
out = {}
for name in ("coup", "deal-faces", "opening-nines"):
    fast = LEVELS[name].price_batch(shoes)
    exact = LEVELS[name].price_batch(shoes, dtype=object)
    out[name] = [str(fast.counts.dtype), bool((fast.counts == exact.counts).all())]
out["kernel"] = "exactodds.engine.kernel" in sys.modules
print(json.dumps(out))
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    got = json.loads(res.stdout)
    assert got.pop("kernel") is False
    assert got == {name: ["int64", True] for name in ("coup", "deal-faces", "opening-nines")}


KERNEL_CHILD = """
import json, sys
import numpy as np
from exactodds.engine.levels import COUP, DEAL_FACES
from exactodds.game.cards import Shoe
shoes = np.array([Shoe.standard(d).counts for d in (1, 2, 6, 8)] * 5)
out = {name: lv.price_batch(shoes, compiled=True).counts[:4].astype(str).tolist()
       for name, lv in (("coup", COUP), ("deal-faces", DEAL_FACES))}
import exactodds.engine.kernel as k
out["kernel"] = k.__file__
print(json.dumps(out))
"""


def _as_other_user() -> list[str] | None:
    """A command prefix running as a user who cannot write the copy, or None."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    probe = subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "true"],
                           capture_output=True)
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if probe.returncode == 0 else None


@pytest.mark.skipif(not os.environ.get("EXACTODDS_SLOW"), reason="10 s of CPU (a copy of the package, numba compiling "
                    "in memory): set EXACTODDS_SLOW=1; CI runs it")
def test_compiled_kernel_runs_from_a_read_only_install() -> None:
    """A read-only copy of the package, run by a user who can write neither it nor a home
    folder (numba then has no on-disk cache): the kernel compiles in memory and the
    counts are exact (equal to Python ints computed here)."""
    prefix = _as_other_user()
    if prefix is None:
        pytest.skip("no way to run as a user who cannot write the copy (not root, no setpriv)")
    reach = subprocess.run([*prefix, sys.executable, "-c", "import numpy, numba"], capture_output=True, cwd="/",
                           env={**os.environ, "HOME": "/nonexistent"})
    if reach.returncode != 0:  # e.g. this checkout and its venv under a private (0700) temporary folder
        pytest.skip("the other user cannot run this interpreter with its packages: " + reach.stderr.decode()[-200:])
    top = Path(tempfile.mkdtemp(prefix="exactodds-ro-"))
    try:
        shutil.copytree(ROOT / "exactodds", top / "exactodds",
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
        for path in [top, *top.rglob("*")]:
            mode = path.stat().st_mode
            path.chmod((mode | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
                        | (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH if path.is_dir() else 0))
                       & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        env.update(PYTHONPATH=str(top), HOME="/nonexistent", XDG_CACHE_HOME="/nonexistent/.cache",
                   PYTHONDONTWRITEBYTECODE="1")
        res = subprocess.run([*prefix, sys.executable, "-c", KERNEL_CHILD], capture_output=True, text=True,
                             env=env, cwd="/", timeout=600)
        assert res.returncode == 0, res.stderr[-2000:]
        got = json.loads(res.stdout)
        assert got.pop("kernel").startswith(str(top))
        assert not list(top.rglob("*.nbi"))                          # nothing written into the copy
        shoes = np.array([[d] * 52 for d in (1, 2, 6, 8)])
        for name, level in (("coup", COUP), ("deal-faces", DEAL_FACES)):
            exact = level.price_batch(shoes, dtype=object).counts
            assert got[name] == [[str(int(c)) for c in row] for row in exact]
    finally:
        for path in [top, *top.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
        shutil.rmtree(top)


def _node_depths(t: Any) -> npt.NDArray[np.int64]:
    """Each trie node's number of cards (its depth), from the trie's level slices."""
    depth = np.zeros(len(t.parent), np.int64)
    for d, level in enumerate(t.levels, 1):
        depth[level] = d
    return depth


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from(["opening-nines", "opening-player-faces"]), st.sampled_from([1, 2, 8]),
       st.sampled_from([1, 5, 64, 70]))
def test_fused_direct_kernel_equals_python_ints_on_random_one_entry_plans(data: Any, name: str, decks: int,
                                                                         count: int) -> None:
    """The fused direct kernel (inner ways, one scaled product per (kind, parent), one packed
    read a result) on random one-entry plans over an opening level's trie: results at nodes of
    every depth (the root included, ``m = 0``), random ``μ`` up to ``ff(6, m)`` (several
    kinds), results no entry reaches; shoes of 1-8 decks with classes at 0. A real table's
    counts are each at most the universe (its entries count disjoint sequences); a random
    ``μ`` up to 720 makes a count up to 720 universes, which int64 holds up to 8 decks
    (checked). Equal to the numpy path's :func:`~exactodds.engine.pricing.settle` over
    :func:`~exactodds.engine.pricing.node_ways` in Python ints; and its ``limit`` is where
    the scaled product ``μ × ff(N − m, 6 − m) × ff(N, m − 1)`` of some kind first passes
    2**63 − 1 (computed here by hand)."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    level = LEVELS[name]
    t = trie(level.table)
    depth_of = _node_depths(t)
    results = data.draw(st.integers(1, 40))
    node = data.draw(st.lists(st.integers(0, len(t.parent) - 1), min_size=results, max_size=results))
    reached = [True] + data.draw(st.lists(st.booleans(), min_size=results - 1, max_size=results - 1))
    entries = [(q, v, int(depth_of[v]), data.draw(st.integers(1, falling_factorial(6, int(depth_of[v])))))
               for q, (v, on) in enumerate(zip(node, reached)) if on]
    q_, v_, m_, mu_ = (np.array(c, np.int64) for c in zip(*entries))
    p = make_plan(v_, m_, q_, mu_, results)
    d = kernel.direct(t, p, 6)
    assert d is not None and len(d.parent) <= len(t.parent) and d.reads.shape == (results,)
    kinds = list(zip(d.kind_mult.tolist(), d.kind_cards.tolist()))

    def scaled(n: int) -> int:
        return max(mu * falling_factorial(n - m, 6 - m) * falling_factorial(n, max(m - 1, 0)) for mu, m in kinds)
    assert scaled(d.limit) <= 2**63 - 1 < scaled(d.limit + 1)
    shoes = _shoes(data, decks, count)
    shoes = shoes[shoes.sum(axis=1) >= 6]
    n = level.class_counts(shoes, np.int64)
    totals = shoes.sum(axis=1)
    got = kernel.price_int64(n, undealt(totals, 6, np.int64), t, p)
    exact = settle(p, node_ways(t, n.astype(object)), undealt(totals, 6, object))
    assert max((int(c) for row in exact for c in row), default=0) <= 2**63 - 1        # the premise: int64 holds them
    assert got.dtype == np.int64 and got.shape == (len(n), results) and got.tolist() == exact.tolist()


def test_direct_refuses_a_plan_whose_cards_are_not_its_nodes() -> None:
    """The fused kernel's bounds read ``m`` as the result node's number of cards: a plan that
    says otherwise is left to the walk (``direct`` gives None)."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    table = LEVELS["opening-player-faces"].table
    t = trie(table)
    p = make_plan(t.row_node[table.row], table.cards[table.row] + 1, table.result, table.mult, len(table.rep))
    assert kernel.direct(t, p, 6) is None


@pytest.mark.parametrize("name", ["opening-player-faces", "opening-nines"])
def test_batches_beyond_the_fused_limit_take_the_walk(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch with a shoe larger than the fused kernel's ``limit`` (lowered here to 6
    cards: no real shoe under the int64 bound passes 6,210) is priced by the walk instead,
    equal to Python ints; the fused kernel is not called."""
    kernel = pytest.importorskip("exactodds.engine.kernel")
    level = LEVELS[name]
    real = kernel.direct
    monkeypatch.setattr(kernel, "direct", lambda t, p, depth: dataclasses.replace(real(t, p, depth), limit=6))

    def refuse(*args: Any) -> None:
        raise AssertionError("the fused kernel was called beyond its limit")
    monkeypatch.setattr(kernel, "_price_direct_c", refuse)
    shoes = _shoes_seeded(8, 20)
    got = level.price_batch(shoes, dtype=np.int64, compiled=True)
    assert got.counts.tolist() == level.price_batch(shoes, dtype=object).counts.tolist()


def _shoes_seeded(decks: int, count: int) -> npt.NDArray[np.int64]:
    """``count`` random shoes of ``decks`` decks less up to 3 of each face."""
    return np.full((count, 52), decks, np.int64) - np.random.default_rng(decks).integers(0, 4, size=(count, 52))
