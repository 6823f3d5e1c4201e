"""The compiled forms of :func:`exactodds.engine.pricing.price` (:func:`price_int64`) and of
the ``deal-faces`` level's cells (:func:`deal_faces_int64`) for large int64 batches.

The same arithmetic as the numpy path -- the prefix tree's one product per node, the
undealt factor, ``multiplicity × weight`` summed per result -- written as loops that
numba compiles, so a batch of compositions costs no temporaries the size of
``batch × entries``. Used only for int64 batches (where the bound of
:mod:`exactodds.engine.pricing` proves int64 exact) and only when numba is installed;
the tests hold it equal to the numpy path and to the exact Python-int path. Imported
only by batch work: numba's import and compile cost is never paid by a single analysis.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from exactodds.engine.deal_faces import face_cells


@numba.njit(cache=True, nogil=True)  # type: ignore[misc, unused-ignore]
def _price(n: Any, und: Any, parent: Any, cls: Any, prior: Any, row_node: Any, row_cards: Any,
           entry_ptr: Any, result: Any, mult: Any, out: Any) -> None:  # pragma: no cover
    ways = np.empty(parent.shape[0], np.int64)
    for b in range(n.shape[0]):
        ways[0] = 1
        for i in range(1, parent.shape[0]):
            f = n[b, cls[i]] - prior[i]
            ways[i] = ways[parent[i]] * f if f > 0 else 0
        for r in range(row_node.shape[0]):
            w = ways[row_node[r]]
            if w == 0:
                continue
            w *= und[b, row_cards[r]]
            for p in range(entry_ptr[r], entry_ptr[r + 1]):
                out[b, result[p]] += mult[p] * w


def price_int64(n: npt.NDArray[np.int64], und: npt.NDArray[np.int64], parent: npt.NDArray[np.intp],
                cls: npt.NDArray[np.intp], prior: npt.NDArray[np.int64], row_node: npt.NDArray[np.intp],
                row_cards: npt.NDArray[np.int64], entry_ptr: npt.NDArray[np.intp], by_row: npt.NDArray[np.intp],
                result: npt.NDArray[np.int32], mult: npt.NDArray[np.int64], results: int) -> npt.NDArray[np.int64]:
    """Counts per result, ``(batch, results)`` int64 (see the module doc)."""
    out = np.zeros((n.shape[0], results), np.int64)
    _price(np.ascontiguousarray(n, np.int64), np.ascontiguousarray(und, np.int64), parent, cls, prior,
           row_node, row_cards, entry_ptr, result[by_row], mult[by_row], out)
    return out


_face_cells = numba.njit(cache=True, nogil=True)(face_cells)

CHUNK = 4
"""Shoes whose cells :func:`deal_faces_int64` lays side by side, so that its sum per result
reads each entry once for all of them (a loop the compiler vectorises)."""


@numba.njit(cache=True, nogil=True)  # type: ignore[misc, unused-ignore]
def _deal_faces(derived: Any, ranks: Any, und: Any, parent: Any, cls: Any, prior: Any, row_node: Any,
                row_cards: Any, single: Any, result_ptr: Any, slot: Any, mult: Any,
                out: Any) -> None:  # pragma: no cover
    nodes, kinds, rows = parent.shape[0], derived.shape[2], row_node.shape[0]
    ways = np.empty((nodes, kinds), np.int64)
    cells = np.zeros((rows * 6, CHUNK), np.int64)
    acc = np.empty(CHUNK, np.int64)
    for b0 in range(0, derived.shape[0], CHUNK):
        shoes = min(CHUNK, derived.shape[0] - b0)
        cells[:, shoes:] = 0
        for c in range(shoes):
            b = b0 + c
            for j in range(kinds):
                ways[0, j] = 1
            for i in range(1, nodes):
                k, q = cls[i], parent[i]
                for j in range(kinds):
                    ways[i, j] = ways[q, j] * max(derived[b, k, j] - prior[i], 0)
            for r in range(rows):
                node = row_node[r]
                total = ways[node, 0]
                if total == 0:
                    for i in range(6):
                        cells[r * 6 + i, c] = 0
                    continue
                m, v = row_cards[r], single[r]
                rank = ranks[b, 0, v, m] if v >= 0 else 0
                rank_suit = ranks[b, 1, v, m] if v >= 0 else 0
                rank_colour = ranks[b, 2, v, m] if v >= 0 else 0
                cell = _face_cells(total, ways[node, 1] + ways[node, 2] + ways[node, 3] + ways[node, 4],
                                   ways[node, 5] + ways[node, 6], rank, rank_suit, rank_colour)
                u = und[b, m]
                for i in range(6):
                    cells[r * 6 + i, c] = cell[i] * u
        for q in range(result_ptr.shape[0] - 1):
            acc[:] = 0
            for p in range(result_ptr[q], result_ptr[q + 1]):
                w, e = mult[p], slot[p]
                for c in range(CHUNK):
                    acc[c] += w * cells[e, c]
            for c in range(shoes):
                out[b0 + c, q] = acc[c]


def deal_faces_int64(derived: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64], und: npt.NDArray[np.int64],
                     parent: npt.NDArray[np.intp], cls: npt.NDArray[np.intp], prior: npt.NDArray[np.int64],
                     row_node: npt.NDArray[np.intp], row_cards: npt.NDArray[np.intp], single: npt.NDArray[np.intp],
                     row: npt.NDArray[np.int32], cell: npt.NDArray[np.int8], result: npt.NDArray[np.int32],
                     mult: npt.NDArray[np.int64], results: int) -> npt.NDArray[np.int64]:
    """Counts per result of the ``deal-faces`` level, ``(batch, results)`` int64.

    The compiled form of
    :meth:`exactodds.engine.deal_faces.DealFacesLevel.price_classes`. Per shoe ``b``: the
    prefix tree's products for the 7 derived value-count vectors ``derived[b]`` at once;
    per multiset ``r`` the counts ``T, S, C`` read off its node, the rank terms
    ``R, RS, RC`` from ``ranks[b, :, v, m]`` when it is ``m = row_cards[r]`` cards of the
    one value ``v = single[r]`` (else 0), and the six cells by the same
    :func:`~exactodds.engine.deal_faces.face_cells`, times the undealt factor
    ``und[b, m]``. Then, for :data:`CHUNK` shoes at a time, each result is the sum of
    ``mult × cell`` over its entries (``row``, ``cell``, ``result``, ``mult``: the level's
    table, sorted by result).

    int64 is exact here under the level's bound (``headroom × universe < 2^63``):
    every tree product is the ordered ways to deal a multiset's prefix from part of the
    shoe, so at most ``ff(N, d) ≤`` universe; ``S, C, R, RS, RC`` count subsets of the
    ``T`` sequences (their sums of 4 or 2 terms are those counts); the differences of
    ``face_cells`` stay within ``[−T, T]``; a cell times the undealt factor is at most
    ``ff(N, m)·ff(N−m, U−m) =`` universe; and each ``mult × cell`` and every partial sum
    per result counts part of the universe. No intermediate exceeds the universe in
    absolute value (headroom 1 would do; the level declares 4). Unused lanes of a last,
    partial chunk hold zeros.
    """
    out = np.zeros((derived.shape[0], results), np.int64)
    result_ptr = np.searchsorted(result, np.arange(results + 1)).astype(np.intp)
    _deal_faces(np.ascontiguousarray(derived.transpose(0, 2, 1), np.int64), np.ascontiguousarray(ranks, np.int64),
                np.ascontiguousarray(und, np.int64), parent, cls, prior, row_node, row_cards, single, result_ptr,
                row.astype(np.intp) * 6 + cell, mult, out)
    return out
