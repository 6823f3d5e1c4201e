"""The one pricing function: a shape table and a batch of shoes to exact counts.

Over the universe of ordered ``U``-card sequences off the top of a shoe of ``N`` cards
(``U = 6`` for baccarat, ``docs/WAGERS.md`` "Universe"), a shape that uses ``k_c`` cards
of class ``c`` (``m`` cards in all) occurs in

    Π_c n_c·(n_c−1)·…·(n_c−k_c+1)  ×  (N−m)·(N−m−1)·…·(N−U+1)

sequences: the first factor depends only on the multiset of classes, the second counts
the cards dealt to no hand (or read by no wager), collapsed rather than enumerated.
:func:`price` computes, for every shoe of a batch at once, the weight of every
multiset of a :class:`~exactodds.game.walk.ShapeTable` and sums
``multiplicity × weight`` per result: a few vectorised numpy operations whatever the
number of decks.

Exactness. Every factor, product and partial sum is a non-negative integer at most the
universe ``N!/(N−U)!``, so numpy int64 is exact while ``headroom × universe < 2^63``
(``U = 6``: up to 1,450 cards, 27 decks and a fraction). Beyond that bound -- or when a
caller asks -- the same operations run on numpy object arrays of Python ints, which are
exact at any size. :func:`exact_dtype` makes the choice; nothing is ever a float.

>>> from exactodds.game.walk import VALUE_CLASSES, coup_result, third_card_walk
>>> table = third_card_walk(VALUE_CLASSES.values, coup_result(VALUE_CLASSES.values))
>>> n = np.array([[128, 32, 32, 32, 32, 32, 32, 32, 32, 32]])     # 8 decks by value
>>> counts = price(table, n, np.array([416]), 6)
>>> int(counts.sum()) == falling_factorial(416, 6), counts.dtype
(True, dtype('int64'))
>>> bool(price(table, n, np.array([416]), 6, object).sum() == counts.sum())
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from exactodds.game.cards import falling_factorial, largest_within
from exactodds.game.walk import ShapeTable
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy", globals(), "np")

INT64_MAX: Final = 2**63 - 1

Counts: TypeAlias = "npt.NDArray[Any]"
"""Exact integer counts: numpy int64 where a bound proves it exact, else object (Python ints)."""


def int64_exact(universe: int, headroom: int = 1) -> bool:
    """Whether int64 holds every partial sum of a universe this large, with ``headroom``.

    >>> int64_exact(falling_factorial(27 * 52, 6)), int64_exact(falling_factorial(28 * 52, 6))
    (True, False)
    """
    return headroom * universe <= INT64_MAX


@lru_cache(maxsize=64)
def int64_cards(depth: int, headroom: int = 1) -> int:
    """The most cards a shoe may hold for its universe ``ff(N, depth)`` to pass
    :func:`int64_exact` with ``headroom``: the universe never shrinks as ``N`` grows, so
    a shoe passes exactly when ``N`` is at most this (memoized: one comparison a batch).

    >>> int64_cards(6), int64_cards(6, 4)        # 27 decks and 46 cards; deal-faces' headroom 4
    (1450, 1151)
    """
    return largest_within(lambda n: headroom * falling_factorial(n, depth), INT64_MAX)


def exact_dtype(totals: npt.ArrayLike, depth: int, headroom: int = 1) -> type:
    """``np.int64`` if every shoe of ``totals`` (cards) passes the bound, else ``object``."""
    flat = np.asarray(totals).ravel()
    if flat.dtype == object:
        largest = max((int(t) for t in flat), default=0)
    else:
        largest = int(flat.max()) if flat.size else 0
    return np.int64 if largest <= int64_cards(depth, headroom) else object


def falling_factorials(n: npt.NDArray[Any], kmax: int) -> npt.NDArray[Any]:
    """``out[..., k] = n·(n−1)·…·(n−k+1)`` for ``k = 0..kmax`` (0 once ``k > n``), exactly.

    >>> falling_factorials(np.array([3, 5]), 4).tolist()
    [[1, 3, 6, 6, 0], [1, 5, 20, 60, 120]]
    """
    out = np.empty(n.shape + (kmax + 1,), dtype=n.dtype)
    out[..., 0] = 1
    for k in range(1, kmax + 1):
        out[..., k] = out[..., k - 1] * np.maximum(n - (k - 1), 0)
    return out


@dataclass(frozen=True, eq=False)
class Trie:
    """The multisets of a table as paths of a prefix tree of sorted class sequences.

    Node ``i`` extends its ``parent[i]`` by one card of class ``cls[i]``, of which the
    parent already holds ``prior[i]``; so the ordered ways to deal node ``i`` from class
    counts ``n`` are ``ways[parent[i]] · max(n[cls[i]] − prior[i], 0)`` -- one product per
    node. Nodes are numbered by depth, so each depth is one slice (parents come first).
    """

    parent: npt.NDArray[np.intp]
    cls: npt.NDArray[np.intp]
    prior: npt.NDArray[np.int64]
    levels: tuple[slice, ...]
    """Node slices of depth 1, 2, ..."""
    row_node: npt.NDArray[np.intp]
    """The node of each multiset of the table."""
    entry_ptr: npt.NDArray[np.intp]
    """Entries of multiset ``r`` (in :attr:`by_row` order) are ``entry_ptr[r]:entry_ptr[r+1]``."""
    by_row: npt.NDArray[np.intp]
    """Entry indices sorted by multiset."""


def distinct(a: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The distinct values of ``a``, sorted: ``np.unique`` without its test for masked
    arrays, which imports ``numpy.ma`` (a fifth of numpy's import time) into every process
    that prices a table.

    >>> distinct(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    s = np.sort(a)
    out: npt.NDArray[np.int64] = s[np.r_[True, s[1:] != s[:-1]]] if len(s) else s
    return out


@lru_cache(maxsize=64)
def trie(table: ShapeTable) -> Trie:
    """The prefix tree of ``table``'s multisets (built once per table, by array operations).

    Node order: by depth, then lexicographically by class sequence (the root is node 0).
    A sequence of depth ``d`` is keyed by the integer whose base-``classes + 1`` digits are
    its classes plus one, so a prefix's parent is found by integer division.
    """
    k = table.k.astype(np.int64)
    classes, cards = k.shape[1], k.sum(axis=1)
    deepest = int(cards.max()) if len(k) else 0
    flat = np.repeat(np.tile(np.arange(classes), len(k)), k.ravel())   # sorted class sequences, end to end
    offset = np.cumsum(cards) - cards
    seq = np.full((len(k), deepest), -1, np.int64)
    for j in range(deepest):
        has = cards > j
        seq[has, j] = flat[offset[has] + j]
    base = classes + 1
    keys = [np.zeros(1, np.int64)]                                 # the root
    row_key = np.zeros(len(k), np.int64)
    for d in range(1, deepest + 1):
        has = cards >= d
        row_key = np.where(has, row_key * base + seq[:, d - 1] + 1, row_key)
        keys.append(distinct(row_key[has]))
    starts = np.cumsum([0] + [len(x) for x in keys])
    parent = [np.zeros(1, np.intp)]
    cls = [np.zeros(1, np.intp)]
    prior = [np.zeros(1, np.int64)]
    for d in range(1, deepest + 1):
        kd = keys[d]
        parent.append((starts[d - 1] + np.searchsorted(keys[d - 1], kd // base)).astype(np.intp))
        digits = np.stack([(kd // base**i) % base - 1 for i in range(d)], axis=1)   # last class first
        cls.append(digits[:, 0].astype(np.intp))
        prior.append((digits[:, 1:] == digits[:, :1]).sum(axis=1).astype(np.int64))
    row_node = np.zeros(len(k), np.intp)
    for d in range(1, deepest + 1):
        at = cards == d
        row_node[at] = starts[d] + np.searchsorted(keys[d], row_key[at])
    by_row = np.argsort(table.row, kind="stable").astype(np.intp)
    return Trie(
        np.concatenate(parent), np.concatenate(cls), np.concatenate(prior),
        tuple(slice(int(starts[d]), int(starts[d + 1])) for d in range(1, deepest + 1)),
        row_node,
        np.searchsorted(table.row[by_row], np.arange(len(k) + 1)).astype(np.intp),
        by_row,
    )


def node_ways(t: Trie, n: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``ways[b, i]``: ordered ways to deal prefix-tree node ``i`` from shoe ``b``'s class
    counts ``n`` (one product per node, depth by depth). ``n``'s dtype is kept."""
    ways = np.maximum(n[:, t.cls] - t.prior, 0)
    ways[:, 0] = 1
    for nodes in t.levels:
        ways[:, nodes] *= ways[:, t.parent[nodes]]
    return ways


def dealt_weights(table: ShapeTable, n: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``w[b, r] = Π_c ff(n[b, c], k[r, c])``: ordered ways to deal multiset ``r`` from
    shoe ``b``'s class counts ``n`` (no undealt factor), by the prefix tree. ``n``'s dtype
    is kept."""
    t = trie(table)
    return node_ways(t, n)[:, t.row_node]


@dataclass(frozen=True, eq=False)
class Plan:
    """A table's entries regrouped so that pricing is sums first, products last.

    ``count[q] = Σ_e mult[e] · value[slot[e]] · und[cards[e]]`` over the entries ``e`` of
    result ``q`` (``value``: the prefix-tree ways of the entry's multiset, or a
    ``deal-faces`` cell). Entries of one result with the same number of cards ``m`` and
    the same multiplicity ``μ`` share both factors, so

        count[q] = Σ_m und[m] · Σ_μ μ · Σ_{e in (q, m, μ)} value[slot[e]]

    -- one addition per entry and one product per *group* ``(q, m, μ)`` (the coup table:
    35,564 entries, 3,126 groups, 205 ``(q, m)`` pairs). Exactness: each entry's
    ``mult · value · und`` counts a set of sequences of the universe, disjoint from every
    other entry's, and ``und ≥ 1``; so every partial sum here is at most the count of
    the union of those sets, hence at most the universe, as for the entry-by-entry sum.
    """

    slot: npt.NDArray[np.intp]
    """The value each entry reads, entries in group order."""
    slot_ptr: npt.NDArray[np.intp]
    """Entries of group ``g`` are ``slot[slot_ptr[g]:slot_ptr[g+1]]``."""
    mult: npt.NDArray[np.int64]
    """``μ`` of each group."""
    group_ptr: npt.NDArray[np.intp]
    """Groups of pair ``j`` (one result, one number of cards) are ``group_ptr[j]:group_ptr[j+1]``."""
    cards: npt.NDArray[np.intp]
    """``m`` of each pair."""
    pair_ptr: npt.NDArray[np.intp]
    """Pairs of result ``q`` are ``pair_ptr[q]:pair_ptr[q+1]`` (empty for a result no entry has)."""


def make_plan(slot: npt.NDArray[Any], cards: npt.NDArray[Any], result: npt.NDArray[Any],
              mult: npt.NDArray[Any], results: int) -> Plan:
    """The :class:`Plan` of entries (value ``slot``, ``cards``, ``result``, ``mult``)."""
    order = np.lexsort((slot, mult, cards, result))
    v, m, q, mu = slot[order], cards[order], result[order], mult[order]
    new_result = np.r_[True, q[1:] != q[:-1]]
    new_pair = new_result | np.r_[True, m[1:] != m[:-1]]
    new_group = new_pair | np.r_[True, mu[1:] != mu[:-1]]
    groups, pairs = np.flatnonzero(new_group), np.flatnonzero(new_pair)
    return Plan(
        v.astype(np.intp),
        np.r_[groups, len(v)].astype(np.intp),
        mu[groups].astype(np.int64),
        np.r_[np.searchsorted(groups, pairs), len(groups)].astype(np.intp),
        m[pairs].astype(np.intp),
        np.searchsorted(q[pairs], np.arange(results + 1)).astype(np.intp),
    )


@lru_cache(maxsize=64)
def plan(table: ShapeTable) -> Plan:
    """The :class:`Plan` of ``table``, its values the prefix-tree nodes (built once per table)."""
    t = trie(table)
    return make_plan(t.row_node[table.row], table.cards[table.row], table.result, table.mult, len(table.rep))


def settle(p: Plan, values: npt.NDArray[Any], und: npt.NDArray[Any]) -> Counts:
    """Counts per result by the plan: ``values`` ``(B, slots)``, ``und`` ``(B, depth+1)``,
    both of the dtype the counts take (int64 under the bound, else object)."""
    results = len(p.pair_ptr) - 1
    out: Counts = np.zeros((values.shape[0], results), dtype=values.dtype)
    if len(p.slot) == 0:
        return out
    grouped = np.add.reduceat(values[:, p.slot], p.slot_ptr[:-1], axis=1)
    grouped *= p.mult if values.dtype != object else p.mult.astype(object)
    paired = np.add.reduceat(grouped, p.group_ptr[:-1], axis=1) * und[:, p.cards]
    present = np.flatnonzero(p.pair_ptr[1:] > p.pair_ptr[:-1])
    out[:, present] = np.add.reduceat(paired, p.pair_ptr[present], axis=1)
    return out


def numpy_chunk(entries: int) -> int:
    """Shoes per numpy step, so that a ``(shoes, entries)`` temporary stays near 2^21 cells."""
    return max(1, 2**21 // max(entries, 1))


UNDEALT_ROWS: Final = 4096
"""Shoe sizes (0 .. 4,095 cards, 78 decks) whose int64 undealt factors :func:`undealt` reads
from one table per depth (:func:`undealt_table`) instead of computing them."""


@lru_cache(maxsize=16)
def undealt_table(depth: int) -> npt.NDArray[np.int64]:
    """``undealt(N, depth)`` of every ``N`` from 0 to the int64 bound (:func:`int64_cards`;
    at most :data:`UNDEALT_ROWS` rows), one row per ``N``: computed once in Python ints
    and read-only, so an int64 batch's factors are one row lookup per shoe (a 64-shoe batch
    paid ~14 µs for the column loop). Every entry fits: ``|u[m]| ≤ ff(N, depth)`` for
    ``N ≥ depth``, and the rows below ``depth`` are products of at most ``depth`` factors
    each smaller than ``depth``."""
    rows = min(int64_cards(depth) + 1, UNDEALT_ROWS)
    table: npt.NDArray[np.int64] = undealt(np.arange(rows), depth, object).astype(np.int64)
    table.setflags(write=False)
    return table


def undealt(totals: npt.NDArray[Any], depth: int, dtype: type) -> npt.NDArray[Any]:
    """``u[b, m] = ff(N_b − m, depth − m)``: the cards of the universe no shape reads (for
    an int64 batch of shoes in :func:`undealt_table`'s range, its rows, copied)."""
    if dtype is np.int64 and totals.dtype != object and totals.size:
        table = undealt_table(depth)
        if 0 <= int(totals.min()) and int(totals.max()) < len(table):
            looked_up: npt.NDArray[Any] = table.take(totals, axis=0)   # a new array (take: 4x faster than [])
            return looked_up
    t: npt.NDArray[Any] = totals.astype(dtype)
    out: npt.NDArray[Any] = np.empty((len(t), depth + 1), dtype=dtype)
    out[:, depth] = 1
    for m in range(depth - 1, -1, -1):
        out[:, m] = out[:, m + 1] * (t - m)
    return out


KERNEL_MIN_BATCH: Final = 16
"""Batches of at least this many int64 shoes go through the compiled kernel, if numba is there."""


@lru_cache(maxsize=8)
def _kernel(module: str = "kernel") -> Any:
    """The compiled kernel module ``exactodds.engine.<module>`` (:mod:`~exactodds.engine.kernel`,
    or :mod:`~exactodds.engine.deal_faces_kernel`), or None without numba (the optional
    ``fast`` extra). Memoized: the import machinery is not paid per batch."""
    try:
        return importlib.import_module(f"exactodds.engine.{module}")
    except ImportError:
        return None


def price(table: ShapeTable, n: npt.NDArray[Any], totals: npt.NDArray[Any], depth: int,
          dtype: type | None = None, compiled: bool | None = None) -> Counts:
    """Exact counts of every result of ``table`` for each shoe of a batch.

    ``n[b, c]`` is shoe ``b``'s count of class ``c`` and ``totals[b]`` its number of
    cards (at least ``depth``: shorter shoes void rounds, which the level deals card by
    card). ``dtype``: ``np.int64`` or ``object``; by default :func:`exact_dtype` picks.
    ``compiled``: use the numba kernel (int64 only, when numba is installed); by default
    for batches of at least :data:`KERNEL_MIN_BATCH` shoes. Both paths compute the same
    sums of the same :class:`Plan`.
    """
    totals = np.asarray(totals)
    if dtype is None:
        dtype = exact_dtype(totals, depth)
    if len(totals) and int(totals.min()) < depth:
        raise ValueError("a shoe shorter than the round is priced card by card, not here")
    n = np.asarray(n).astype(dtype, copy=False)                  # read only: no copy needed
    und = undealt(totals, depth, dtype)
    if compiled is None:
        compiled = len(n) >= KERNEL_MIN_BATCH
    kernel = _kernel() if compiled and dtype is np.int64 else None
    t, p = trie(table), plan(table)
    if kernel is not None:
        compiled_counts: Counts = kernel.price_int64(n, und, t, p)
        return compiled_counts
    step = numpy_chunk(len(p.slot))
    parts = [settle(p, node_ways(t, n[i:i + step]), und[i:i + step]) for i in range(0, len(n), step)]
    counts: Counts = parts[0] if len(parts) == 1 else np.concatenate(parts) if parts else \
        np.zeros((0, len(table.rep)), dtype)
    return counts
