"""The compiled forms of :func:`exactodds.engine.pricing.price` (:func:`price_int64`) and of
the ``deal-faces`` level's cells (:func:`deal_faces_int64`) for large int64 batches.

The same arithmetic as the numpy path -- the prefix tree's one product per node, then
the sums of a :class:`~exactodds.engine.pricing.Plan` (one addition per entry, one
product per group) -- written as loops that numba compiles. Shoes are priced
:data:`LANES` at a time, side by side: every node and every entry is one short loop over
the lanes, which the compiler turns into vector instructions, and no temporary is the
size of ``batch × entries``. Used only for int64 batches (where the bound of
:mod:`exactodds.engine.pricing` proves int64 exact) and only when numba is installed
(the optional ``fast`` extra); the tests hold it equal to the numpy path and to the
exact Python-int path. Imported only by batch work: numba's import and compile cost is
never paid by a single analysis.

Numba's on-disk cache is used where the process may write it (beside this file, or
numba's user cache folder, or ``NUMBA_CACHE_DIR``); a user who can write none of them
(an installed package run by another user whose home is read-only) gets the same kernel
compiled in memory, never an error (:func:`_jit`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numba
import numpy as np
import numpy.typing as npt

from exactodds.engine.cells import face_cells

LANES: Final = 64
"""Shoes priced side by side: enough for the compiler to vectorise the loops over them."""

FACE_LANES: Final = 16
"""Shoes side by side in the ``deal-faces`` kernel, whose cells (6 per multiset) would
otherwise leave the caches."""


def _jit(fn: Callable[..., Any]) -> Any:
    """``numba.njit(fn)``, cached on disk where numba finds a writable cache folder, else
    compiled in memory (numba refuses ``cache=True`` with "no locator available" when it
    can write neither beside the source nor in the user's cache folder)."""
    try:
        return numba.njit(cache=True, nogil=True)(fn)
    except RuntimeError:
        return numba.njit(cache=False, nogil=True)(fn)


def _factors(nT: Any, b0: int, deepest: int, fac: Any) -> None:  # pragma: no cover
    """``fac[c, j, l] = max(n_c − j, 0)`` of shoe ``b0 + l``, ``j < deepest``: every factor a
    tree node can ask for (a node's ``prior`` is below the round's depth)."""
    for c in range(nT.shape[0]):
        for j in range(deepest):
            for lane in range(fac.shape[2]):
                f = nT[c, b0 + lane] - j
                fac[c, j, lane] = f if f > 0 else 0


_factors_c = _jit(_factors)


def _tree(fac: Any, parent: Any, cls: Any, prior: Any, ways: Any) -> None:  # pragma: no cover
    """``ways[i, l]``: the prefix-tree products of lane ``l``, node by node (parents first)."""
    lanes = ways.shape[1]
    for lane in range(lanes):
        ways[0, lane] = 1
    for i in range(1, parent.shape[0]):
        w, f, out = ways[parent[i]], fac[cls[i], prior[i]], ways[i]
        for lane in range(lanes):
            out[lane] = w[lane] * f[lane]


_tree_c = _jit(_tree)


def _settle(values: Any, undT: Any, b0: int, slot: Any, slot_ptr: Any, mult: Any, group_ptr: Any, cards: Any,
            pair_ptr: Any, out: Any) -> None:  # pragma: no cover
    """The plan's sums for lanes ``b0 .. b0 + LANES`` (see :class:`~exactodds.engine.pricing.Plan`):
    per group the sum of its values (additions only), times ``μ``; per pair times the
    undealt factor; per result the sum of its pairs (``out``, zeros on entry, is
    ``(results, lanes)``). A pair of one entry (every pair of a face level) is one product."""
    lanes = values.shape[1]
    acc = np.empty(lanes, np.int64)
    grp = np.empty(lanes, np.int64)
    for q in range(pair_ptr.shape[0] - 1):
        tot = out[q]
        for j in range(pair_ptr[q], pair_ptr[q + 1]):
            und = undT[cards[j]]
            first = group_ptr[j]
            if group_ptr[j + 1] - first == 1 and slot_ptr[first + 1] - slot_ptr[first] == 1:
                row, mu = values[slot[slot_ptr[first]]], mult[first]
                for lane in range(lanes):
                    tot[b0 + lane] += und[b0 + lane] * (mu * row[lane])
                continue
            grp[:] = 0
            for g in range(first, group_ptr[j + 1]):
                acc[:] = 0
                for e in range(slot_ptr[g], slot_ptr[g + 1]):
                    row = values[slot[e]]
                    for lane in range(lanes):
                        acc[lane] += row[lane]
                mu = mult[g]
                for lane in range(lanes):
                    grp[lane] += mu * acc[lane]
            for lane in range(lanes):
                tot[b0 + lane] += und[b0 + lane] * grp[lane]


_settle_c = _jit(_settle)


def _price(nT: Any, undT: Any, parent: Any, cls: Any, prior: Any, slot: Any, slot_ptr: Any, mult: Any,
           group_ptr: Any, cards: Any, pair_ptr: Any, out: Any) -> None:  # pragma: no cover
    ways = np.empty((parent.shape[0], LANES), np.int64)
    deepest = prior.max() + 1
    fac = np.empty((nT.shape[0], deepest, LANES), np.int64)
    for b0 in range(0, out.shape[1], LANES):
        _factors_c(nT, b0, deepest, fac)
        _tree_c(fac, parent, cls, prior, ways)
        _settle_c(ways, undT, b0, slot, slot_ptr, mult, group_ptr, cards, pair_ptr, out)


_price_c = _jit(_price)


def _index(a: npt.NDArray[Any]) -> npt.NDArray[np.uint32]:
    """An index array as unsigned 32-bit: the compiled loops then skip the wraparound test
    numba makes for signed indices (every index array here is small and non-negative)."""
    return np.ascontiguousarray(a, np.uint32)


def _indices(*arrays: npt.NDArray[Any]) -> tuple[npt.NDArray[np.uint32], ...]:
    return tuple(_index(a) for a in arrays)


def _lanes(a: npt.NDArray[Any], lanes: int = LANES) -> npt.NDArray[np.int64]:
    """``a`` (``(B, k)``) transposed to ``(k, B')``, ``B'`` a multiple of :data:`LANES`, the
    extra lanes copies of shoe 0 (priced and dropped)."""
    pad = -len(a) % lanes
    if pad:
        a = np.concatenate([a, np.repeat(a[:1], pad, axis=0)])
    return np.ascontiguousarray(a.T, np.int64)


def price_int64(n: npt.NDArray[np.int64], und: npt.NDArray[np.int64], t: Any, p: Any) -> npt.NDArray[np.int64]:
    """Counts per result, ``(batch, results)`` int64, of class counts ``n`` with undealt
    factors ``und``: ``t`` a :class:`~exactodds.engine.pricing.Trie`, ``p`` a
    :class:`~exactodds.engine.pricing.Plan` (taken as plain records of arrays, so that
    this module imports nothing of the engine but the cell formula)."""
    nT, undT = _lanes(n), _lanes(und)
    out = np.zeros((len(p.pair_ptr) - 1, nT.shape[1]), np.int64)
    _price_c(nT, undT, *_indices(t.parent, t.cls, t.prior, p.slot), p.slot_ptr, p.mult, p.group_ptr,
             _index(p.cards), p.pair_ptr, out)
    return out[:, :len(n)].T


_face_cells = _jit(face_cells)


def _deal_faces(derivedT: Any, ranksT: Any, undT: Any, parent: Any, cls: Any, prior: Any, row_node: Any,
                row_cards: Any, single: Any, slot: Any, slot_ptr: Any, mult: Any, group_ptr: Any, cards: Any,
                pair_ptr: Any, out: Any) -> None:  # pragma: no cover
    nodes, kinds, rows = parent.shape[0], derivedT.shape[0], row_node.shape[0]
    ways = np.empty((nodes, FACE_LANES), np.int64)
    deepest = prior.max() + 1
    fac = np.empty((derivedT.shape[1], deepest, FACE_LANES), np.int64)
    terms = np.zeros((3, rows, FACE_LANES), np.int64)         # T, S (sum over suits), C (over colours)
    cells = np.empty((rows * 6, FACE_LANES), np.int64)
    zero = np.int64(0)
    for b0 in range(0, out.shape[1], FACE_LANES):
        for j in range(kinds):
            _factors_c(derivedT[j], b0, deepest, fac)
            _tree_c(fac, parent, cls, prior, ways)
            term = terms[0 if j == 0 else 1 if j <= 4 else 2]
            first = j in (0, 1, 5)
            for r in range(rows):
                w, t = ways[row_node[r]], term[r]
                if first:
                    for lane in range(FACE_LANES):
                        t[lane] = w[lane]
                else:
                    for lane in range(FACE_LANES):
                        t[lane] += w[lane]
        for r in range(rows):
            m, v = row_cards[r], single[r]
            t, su, co = terms[0, r], terms[1, r], terms[2, r]
            k0, k1, k2, k3, k4, k5 = cells[6 * r], cells[6 * r + 1], cells[6 * r + 2], cells[6 * r + 3], \
                cells[6 * r + 4], cells[6 * r + 5]
            if v >= 0:
                rk, rs, rc = ranksT[0, v, m], ranksT[1, v, m], ranksT[2, v, m]
                for lane in range(FACE_LANES):
                    c0, c1, c2, c3, c4, c5 = _face_cells(t[lane], su[lane], co[lane], rk[b0 + lane], rs[b0 + lane],
                                                         rc[b0 + lane])
                    k0[lane], k1[lane], k2[lane], k3[lane], k4[lane], k5[lane] = c0, c1, c2, c3, c4, c5
            else:
                for lane in range(FACE_LANES):
                    c0, c1, c2, c3, c4, c5 = _face_cells(t[lane], su[lane], co[lane], zero, zero, zero)
                    k0[lane], k1[lane], k2[lane], k3[lane], k4[lane], k5[lane] = c0, c1, c2, c3, c4, c5
        _settle_c(cells, undT, b0, slot, slot_ptr, mult, group_ptr, cards, pair_ptr, out)


_deal_faces_c = _jit(_deal_faces)


def deal_faces_int64(derived: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64], und: npt.NDArray[np.int64],
                     t: Any, row_cards: npt.NDArray[np.intp], single: npt.NDArray[np.intp],
                     p: Any) -> npt.NDArray[np.int64]:
    """Counts per result of the ``deal-faces`` level, ``(batch, results)`` int64.

    The compiled form of
    :meth:`exactodds.engine.deal_faces.DealFacesLevel.price_classes`. Per lane block: the
    prefix tree's products for each of the 7 derived value-count vectors ``derived[b]``;
    per multiset ``r`` the counts ``T, S, C`` read off its node, the rank terms
    ``R, RS, RC`` from ``ranks[b, :, v, m]`` when it is ``m = row_cards[r]`` cards of the
    one value ``v = single[r]`` (else 0), and the six cells by the same
    :func:`~exactodds.engine.cells.face_cells`; then the plan's sums over the cells
    (slot ``6 r + cell``), with the undealt factor applied per group.

    int64 is exact here under the level's bound (``headroom × universe < 2^63``):
    every tree product is the ordered ways to deal a multiset's prefix from part of the
    shoe, so at most ``ff(N, d) ≤`` universe; ``S, C, R, RS, RC`` count subsets of the
    ``T`` sequences (their sums of 4 or 2 terms are those counts); the differences of
    ``face_cells`` stay within ``[−T, T]``; and the plan's partial sums are at most the
    universe (:class:`~exactodds.engine.pricing.Plan`). No intermediate exceeds the
    universe in absolute value (headroom 1 would do; the level declares 4).
    """
    derivedT = np.ascontiguousarray(np.stack([_lanes(derived[:, j, :], FACE_LANES) for j in range(derived.shape[1])]))
    b = len(derived)
    flat = ranks.reshape(b, -1)
    ranksT = _lanes(flat, FACE_LANES).reshape(ranks.shape[1:] + (-1,))
    undT = _lanes(und, FACE_LANES)
    out = np.zeros((len(p.pair_ptr) - 1, undT.shape[1]), np.int64)
    _deal_faces_c(derivedT, np.ascontiguousarray(ranksT), undT, *_indices(t.parent, t.cls, t.prior, t.row_node),
                  row_cards, single, _index(p.slot), p.slot_ptr, p.mult, p.group_ptr, _index(p.cards), p.pair_ptr,
                  out)
    return out[:, :b].T
