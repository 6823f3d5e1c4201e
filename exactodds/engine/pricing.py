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


@lru_cache(maxsize=64)
def _factor_index(table: ShapeTable, kmax: int) -> npt.NDArray[np.intp]:
    """Per multiset, the flat indices ``class·(kmax+1) + k`` of its falling-factorial
    factors, padded with the index of a column of ones."""
    classes = table.classes
    ones = classes * (kmax + 1)
    per_row = [[c * (kmax + 1) + int(k) for c, k in enumerate(row) if k] for row in table.k]
    width = max((len(f) for f in per_row), default=1)
    index = np.full((len(per_row), width), ones, np.intp)
    for r, f in enumerate(per_row):
        index[r, : len(f)] = f
    return index


@lru_cache(maxsize=64)
def _result_starts(table: ShapeTable) -> npt.NDArray[np.intp]:
    """The first entry of each result (entries are sorted by result)."""
    return np.flatnonzero(np.r_[True, table.result[1:] != table.result[:-1]]).astype(np.intp)


def dealt_weights(table: ShapeTable, n: npt.NDArray[Any], depth: int) -> npt.NDArray[Any]:
    """``w[b, r] = Π_c ff(n[b, c], k[r, c])``: ordered ways to deal multiset ``r`` from
    shoe ``b``'s class counts ``n`` (no undealt factor). ``n``'s dtype is kept."""
    index = _factor_index(table, depth)
    ff = falling_factorials(n, depth).reshape(n.shape[0], -1)
    flat = np.concatenate([ff, np.ones((n.shape[0], 1), dtype=ff.dtype)], axis=1)
    w = flat[:, index[:, 0]]
    for j in range(1, index.shape[1]):
        w = w * flat[:, index[:, j]]
    return w


def undealt(totals: npt.NDArray[Any], depth: int, dtype: type) -> npt.NDArray[Any]:
    """``u[b, m] = ff(N_b − m, depth − m)``: the cards of the universe no shape reads."""
    t = totals.astype(dtype)
    out = np.empty((len(t), depth + 1), dtype=dtype)
    out[:, depth] = 1
    for m in range(depth - 1, -1, -1):
        out[:, m] = out[:, m + 1] * (t - m)
    return out


def settle_entries(table: ShapeTable, weights: npt.NDArray[Any]) -> Counts:
    """Sum ``multiplicity × weight`` per result: ``(B, multisets) -> (B, results)``."""
    starts = _result_starts(table)
    mult = table.mult if weights.dtype != object else table.mult.astype(object)
    contrib = weights[:, table.row] * mult
    return np.add.reduceat(contrib, starts, axis=1)


def price(table: ShapeTable, n: npt.NDArray[Any], totals: npt.NDArray[Any], depth: int,
          dtype: type | None = None) -> Counts:
    """Exact counts of every result of ``table`` for each shoe of a batch.

    ``n[b, c]`` is shoe ``b``'s count of class ``c`` and ``totals[b]`` its number of
    cards (at least ``depth``: shorter shoes void rounds, which the level deals card by
    card). ``dtype``: ``np.int64`` or ``object``; by default :func:`exact_dtype` picks.
    """
    if dtype is None:
        dtype = exact_dtype(totals, depth)
    if len(totals) and int(np.min(totals)) < depth:
        raise ValueError("a shoe shorter than the round is priced card by card, not here")
    w = dealt_weights(table, np.asarray(n).astype(dtype), depth)
    w = w * undealt(np.asarray(totals), depth, dtype)[:, table.cards]
    return settle_entries(table, w)
