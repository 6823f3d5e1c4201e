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

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.game.cards import falling_factorial
from exactodds.game.walk import ShapeTable

INT64_MAX: Final = 2**63 - 1

Counts = npt.NDArray[Any]
"""Exact integer counts: numpy int64 where a bound proves it exact, else object (Python ints)."""


def int64_exact(universe: int, headroom: int = 1) -> bool:
    """Whether int64 holds every partial sum of a universe this large, with ``headroom``.

    >>> int64_exact(falling_factorial(27 * 52, 6)), int64_exact(falling_factorial(28 * 52, 6))
    (True, False)
    """
    return headroom * universe <= INT64_MAX


def exact_dtype(totals: npt.ArrayLike, depth: int, headroom: int = 1) -> type:
    """``np.int64`` if every shoe of ``totals`` (cards) passes the bound, else ``object``."""
    largest = max((int(t) for t in np.ravel(totals)), default=0)
    return np.int64 if int64_exact(falling_factorial(largest, depth), headroom) else object


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


@lru_cache(maxsize=64)
def trie(table: ShapeTable) -> Trie:
    """The prefix tree of ``table``'s multisets (built once per table)."""
    prefixes: set[tuple[int, ...]] = {()}
    sequences = [tuple(c for c, kc in enumerate(k) for _ in range(kc)) for k in table.k.tolist()]
    for seq in sequences:
        prefixes.update(seq[:d] for d in range(1, len(seq) + 1))
    order = sorted(prefixes, key=lambda p: (len(p), p))
    node = {p: i for i, p in enumerate(order)}
    depth = np.array([len(p) for p in order])
    return Trie(
        np.array([node[p[:-1]] if p else 0 for p in order], np.intp),
        np.array([p[-1] if p else 0 for p in order], np.intp),
        np.array([p[:-1].count(p[-1]) if p else 0 for p in order], np.int64),
        tuple(slice(int(np.searchsorted(depth, d)), int(np.searchsorted(depth, d, side="right")))
              for d in range(1, int(depth.max()) + 1)),
        np.array([node[seq] for seq in sequences], np.intp),
        np.searchsorted(table.row[np.argsort(table.row, kind="stable")], np.arange(len(table.k) + 1)).astype(np.intp),
        np.argsort(table.row, kind="stable").astype(np.intp),
    )


def dealt_weights(table: ShapeTable, n: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``w[b, r] = Π_c ff(n[b, c], k[r, c])``: ordered ways to deal multiset ``r`` from
    shoe ``b``'s class counts ``n`` (no undealt factor), by the prefix tree. ``n``'s dtype
    is kept."""
    t = trie(table)
    ways = np.maximum(n[:, t.cls] - t.prior, 0)
    ways[:, 0] = 1
    for nodes in t.levels:
        ways[:, nodes] *= ways[:, t.parent[nodes]]
    return ways[:, t.row_node]


@lru_cache(maxsize=64)
def _result_starts(table: ShapeTable) -> npt.NDArray[np.intp]:
    """The first entry of each result (entries are sorted by result)."""
    return np.flatnonzero(np.r_[True, table.result[1:] != table.result[:-1]]).astype(np.intp)


def undealt(totals: npt.NDArray[Any], depth: int, dtype: type) -> npt.NDArray[Any]:
    """``u[b, m] = ff(N_b − m, depth − m)``: the cards of the universe no shape reads."""
    t: npt.NDArray[Any] = totals.astype(dtype)
    out: npt.NDArray[Any] = np.empty((len(t), depth + 1), dtype=dtype)
    out[:, depth] = 1
    for m in range(depth - 1, -1, -1):
        out[:, m] = out[:, m + 1] * (t - m)
    return out


def settle_entries(table: ShapeTable, weights: npt.NDArray[Any]) -> Counts:
    """Sum ``multiplicity × weight`` per result: ``(B, multisets) -> (B, results)``."""
    starts = _result_starts(table)
    mult = table.mult if weights.dtype != object else table.mult.astype(object)
    contrib = weights[:, table.row] * mult
    summed: Counts = np.add.reduceat(contrib, starts, axis=1)
    return summed


KERNEL_MIN_BATCH: Final = 16
"""Batches of at least this many int64 shoes go through the compiled kernel, if numba is there."""


def _kernel() -> Any:
    """The compiled kernel module, or None without numba."""
    try:
        from exactodds.engine import kernel
    except ImportError:  # pragma: no cover - numba is a declared dependency
        return None
    return kernel


def price(table: ShapeTable, n: npt.NDArray[Any], totals: npt.NDArray[Any], depth: int,
          dtype: type | None = None, compiled: bool | None = None) -> Counts:
    """Exact counts of every result of ``table`` for each shoe of a batch.

    ``n[b, c]`` is shoe ``b``'s count of class ``c`` and ``totals[b]`` its number of
    cards (at least ``depth``: shorter shoes void rounds, which the level deals card by
    card). ``dtype``: ``np.int64`` or ``object``; by default :func:`exact_dtype` picks.
    ``compiled``: use the numba kernel (int64 only); by default for batches of at least
    :data:`KERNEL_MIN_BATCH` shoes.
    """
    if dtype is None:
        dtype = exact_dtype(totals, depth)
    if len(totals) and int(np.min(totals)) < depth:
        raise ValueError("a shoe shorter than the round is priced card by card, not here")
    n = np.asarray(n).astype(dtype)
    und = undealt(np.asarray(totals), depth, dtype)
    if compiled is None:
        compiled = len(n) >= KERNEL_MIN_BATCH
    kernel = _kernel() if compiled and dtype is np.int64 else None
    if kernel is not None:
        t = trie(table)
        compiled_counts: Counts = kernel.price_int64(n, und, t.parent, t.cls, t.prior, t.row_node,
                                  table.cards.astype(np.int64), t.entry_ptr, t.by_row, table.result,
                                  table.mult, len(table.rep))
        return compiled_counts
    w = dealt_weights(table, n) * und[:, table.cards]
    return settle_entries(table, w)
