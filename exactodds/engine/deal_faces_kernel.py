"""The compiled form of the ``deal-faces`` level's batch pricing (:func:`deal_faces_int64`).

The level (:class:`exactodds.engine.deal_faces.DealFacesLevel`) splits every value multiset
of the coup table into six face cells by inclusion-exclusion over the ways of 7 derived
value-count vectors (:mod:`exactodds.engine.deal_faces`); this module computes those
ways by the depth-first :class:`~exactodds.engine.kernel.Walk` of the coup table's prefix
tree, lanes of shoes side by side, as :mod:`exactodds.engine.kernel` does for a plain
table. Kept apart from that module so each kernel can change alone; imported only by
batch work (numba's import and compile cost is never paid by a single analysis).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.engine.cells import face_cells
from exactodds.engine.kernel import Walk, _finish_c, _indices, _jit, _lanes, walk
from exactodds.engine.single_kernel import _terms_c

FACE_LANES: Final = 32
"""Shoes side by side in the ``deal-faces`` kernel."""


_face_cells = _jit(face_cells)


def _lane_terms(comp: Any, rank_value: Any, colours: Any, depth: int, b0: int, one: Any, one_ranks: Any,
                counts: Any, fac: Any, ranks: Any) -> None:  # pragma: no cover
    """The shoe-dependent inputs of lanes ``b0 ..`` from their face counts ``comp`` (rows
    past the batch: shoe 0, priced and dropped), each shoe's by the single-shoe kernel's
    :func:`~exactodds.engine.single_kernel._terms` (the level's ``_terms``, compiled):
    ``fac[c, j, k·lanes + l] = max(n_c − j, 0)`` of derived vector ``k`` of shoe ``b0 + l``
    (``j`` below the deepest node: every factor a tree node asks for; the 7 vectors of one
    class side by side, so that a node's 7 products are one loop) and ``ranks[i, v, m, l]``
    its rank terms. ``fac`` is uint32 (a count of the shoe's cards, far below ``2^32``
    wherever int64 is exact: ``N^6 > 2^63`` for ``N ≥ 2^11``), so that each node product
    ``int64 × uint32`` compiles to two 32-bit multiplies per lane instead of three
    (measured ~7 % faster in all). Each shoe's counts are kept in ``counts[k, c, l]``
    first and ``fac`` written lane by lane innermost (contiguous: ~2 % faster in all than
    each shoe's factors written at a stride of ``lanes``)."""
    kinds, lanes = one.shape[0], ranks.shape[3]
    for lane in range(lanes):
        b = b0 + lane if b0 + lane < comp.shape[0] else 0
        _terms_c(comp[b], rank_value, colours, depth, one, one_ranks)
        for k in range(kinds):
            for c in range(one.shape[1]):
                counts[k, c, lane] = one[k, c]
        for i in range(one_ranks.shape[0]):
            for v in range(one_ranks.shape[1]):
                for m in range(one_ranks.shape[2]):
                    ranks[i, v, m, lane] = one_ranks[i, v, m]
    for c in range(one.shape[1]):
        for j in range(fac.shape[1]):
            for k in range(kinds):
                for lane in range(lanes):
                    f = counts[k, c, lane] - j
                    fac[c, j, k * lanes + lane] = f if f > 0 else 0


_lane_terms_c = _jit(_lane_terms)


def _finish_outcomes(acc3: Any, undT: Any, b0: int, outcome: Any, which: Any, cards: Any, pair_ptr: Any,
                     from_sets: Any, out: Any) -> None:  # pragma: no cover
    """Counts of lanes ``b0 ..`` of the results summed from outcome sums (``from_sets``;
    the cells ``S``, ``C − S``, ``T − C`` of multisets of several values): per result the
    sum over its pairs of the undealt factor times cell ``which[j]`` of
    :func:`~exactodds.engine.cells.face_cells` (no rank terms) of the weighted ``(T, S,
    C)`` sums of pair ``j``'s outcome ``outcome[j]`` (:func:`_outcomes`: the weights are
    the pair's ``μ`` already)."""
    lanes = FACE_LANES
    zero = np.int64(0)
    for q in range(pair_ptr.shape[0] - 1):
        if not from_sets[q]:
            continue
        for lane in range(lanes):
            tot = zero
            for j in range(pair_ptr[q], pair_ptr[q + 1]):
                o, k = outcome[j], which[j]
                x = _face_cells(acc3[o, lane], acc3[o, lanes + lane], acc3[o, 2 * lanes + lane], zero, zero, zero)
                tot += undT[cards[j], b0 + lane] * (x[1] if k == 1 else x[3] if k == 3 else x[5])
            out[q, b0 + lane] = tot


_finish_outcomes_c = _jit(_finish_outcomes)


def _deal_faces(comp: Any, rank_value: Any, colours: Any, undT: Any, depth: Any, cls: Any, prior: Any, node_ptr: Any,
                group: Any, cell: Any, row_of: Any, weight_ptr: Any, weight_outcome: Any, weight: Any,
                outcome: Any, which: Any, from_sets: Any, row_cards: Any, single: Any, mult: Any, group_ptr: Any,
                cards: Any, pair_ptr: Any, out: Any) -> None:  # pragma: no cover
    """Per lane block: the depth-first walk with the 7 derived products of every node side
    by side (one row ``stack[d]`` of ``7 × lanes``, one loop per node); at a multiset of
    several values its ``(T, S, C)`` times each weight added to the sums of its outcomes
    (:func:`_outcomes`); at a multiset of one value its six cells (:func:`face_cells`),
    each added to the sums of the groups that read it; then
    :func:`~exactodds.engine.kernel._finish` for the results of those groups and
    :func:`_finish_outcomes` for the results read from outcomes. Arrays are indexed in
    place (no views taken in the loops: each view costs a reference count), and the lane
    count is the compile-time :data:`FACE_LANES`, so every loop's trip count is a constant
    (measured ~5 % faster than a run-time count here)."""
    lanes = FACE_LANES
    kinds, values, rounds = 7, 10, undT.shape[0]                 # rounds: the round's depth + 1
    width = kinds * lanes
    deepest = depth.max() if depth.shape[0] else 0
    stack = np.empty((deepest + 1, width), np.int64)
    fac = np.empty((values, deepest, width), np.uint32)
    one = np.empty((kinds, values), np.int64)
    one_ranks = np.empty((3, values, rounds), np.int64)
    counts = np.empty((kinds, values, lanes), np.int64)
    ranks = np.empty((3, values, rounds, lanes), np.int64)
    acc = np.empty((mult.shape[0], lanes), np.int64)
    outcomes = weight_outcome.max() + 1 if weight_outcome.shape[0] else 0
    acc3 = np.empty((outcomes, 3 * lanes), np.int64)
    tsc = np.empty(3 * lanes, np.int64)
    cellv = np.empty((6, lanes), np.int64)
    zero = np.int64(0)
    s1, s2, s3, s4, c1, c2 = lanes, 2 * lanes, 3 * lanes, 4 * lanes, 5 * lanes, 6 * lanes
    for b0 in range(0, out.shape[1], lanes):
        _lane_terms_c(comp, rank_value, colours, rounds - 1, b0, one, one_ranks, counts, fac, ranks)
        for e in range(group.shape[0]):                          # the only groups read from acc
            for lane in range(lanes):
                acc[group[e], lane] = 0
        acc3[:] = 0
        stack[0, :] = 1
        for i in range(depth.shape[0]):
            d, c, pr = depth[i], cls[i], prior[i]
            for x in range(width):
                stack[d, x] = stack[d - 1, x] * fac[c, pr, x]
            several = weight_ptr[i + 1] > weight_ptr[i]
            if not several and node_ptr[i + 1] == node_ptr[i]:
                continue
            for lane in range(lanes):
                tsc[lane] = stack[d, lane]
                tsc[lanes + lane] = stack[d, s1 + lane] + stack[d, s2 + lane] + stack[d, s3 + lane] + \
                    stack[d, s4 + lane]
                tsc[2 * lanes + lane] = stack[d, c1 + lane] + stack[d, c2 + lane]
            if several:
                for e in range(weight_ptr[i], weight_ptr[i + 1]):
                    o, wt = weight_outcome[e], weight[e]
                    for x in range(3 * lanes):
                        acc3[o, x] += wt * tsc[x]
            if node_ptr[i + 1] == node_ptr[i]:
                continue
            r = row_of[i]
            m, v = row_cards[r], single[r]
            for lane in range(lanes):
                t, su, co = tsc[lane], tsc[lanes + lane], tsc[2 * lanes + lane]
                if v >= 0:
                    x0, x1, x2, x3, x4, x5 = _face_cells(t, su, co, ranks[0, v, m, lane], ranks[1, v, m, lane],
                                                         ranks[2, v, m, lane])
                else:
                    x0, x1, x2, x3, x4, x5 = _face_cells(t, su, co, zero, zero, zero)
                cellv[0, lane], cellv[1, lane], cellv[2, lane] = x0, x1, x2
                cellv[3, lane], cellv[4, lane], cellv[5, lane] = x3, x4, x5
            for e in range(node_ptr[i], node_ptr[i + 1]):
                g, k = group[e], cell[e]
                for lane in range(lanes):
                    acc[g, lane] += cellv[k, lane]
        _finish_c(acc, undT, b0, mult, group_ptr, cards, pair_ptr, from_sets, out)
        _finish_outcomes_c(acc3, undT, b0, outcome, which, cards, pair_ptr, from_sets, out)


_deal_faces_c = _jit(_deal_faces)


@lru_cache(maxsize=8)
def _outcomes(w: Walk, p: Any) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32], npt.NDArray[np.uint32],
                                        npt.NDArray[np.uint32], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """(weight_ptr, weight_outcome, weight, outcome, which, from_sets): the walk's triple
    entries regrouped by *outcome*.

    Each pair ``j`` of a result summed from row sets (``from_sets``) reads one cell
    ``which[j]`` of its groups' row sets (:attr:`~exactodds.engine.kernel.Walk.fill_group`),
    so its sum is ``Σ_r w_j(r) · cell(r)`` over the multisets ``r``, with ``w_j(r)`` the
    sum of ``μ`` of its groups whose row set holds ``r``. Pairs with the same weights
    ``w_j`` (the suited, coloured and mixed results of one outcome of a wager) share one
    *outcome* ``outcome[j]`` whose weighted ``(T, S, C)`` sums serve all three cells: node
    ``i`` adds ``weight[e] · (T, S, C)`` to the sums of outcome ``weight_outcome[e]`` for
    ``e`` in ``weight_ptr[i]:weight_ptr[i+1]``. The coup table: 174 outcomes instead of
    2,812 row sets (134 KiB of sums per lane block rather than 2.2 MB, within L2) for
    33,739 additions instead of 33,538."""
    nodes, groups, results = len(w.depth), len(p.mult), len(p.pair_ptr) - 1
    pairs = len(p.cards)
    pair_of = np.repeat(np.arange(pairs), np.diff(p.group_ptr))
    group_result = np.repeat(np.arange(results), np.diff(p.pair_ptr))[pair_of]
    filled = np.zeros(groups, bool)
    filled[w.fill_group] = True
    from_sets = np.zeros(results, bool)
    from_sets[group_result[filled]] = True
    assert (filled == from_sets[group_result]).all()
    set_node = np.repeat(np.arange(nodes), np.diff(w.triple_ptr).astype(np.int64))
    members: list[list[int]] = [[] for _ in range(int(w.triple.max()) + 1 if len(w.triple) else 0)]
    for at, s in zip(set_node.tolist(), w.triple.tolist()):
        members[s].append(at)
    weights: dict[int, dict[int, int]] = {}
    which = np.zeros(pairs, np.uint8)
    read = np.full(pairs, -1, np.int64)
    for g, s, c in zip(w.fill_group.tolist(), w.fill_source.tolist(), w.fill_cell.tolist()):
        j, mu = int(pair_of[g]), int(p.mult[g])
        assert mu >= 1 and read[j] in (-1, c)                  # terms ≥ 0; one cell per pair
        read[j], which[j] = c, c
        wj = weights.setdefault(j, {})
        for at in members[s]:
            wj[at] = wj.get(at, 0) + mu
    ids: dict[tuple[tuple[int, int], ...], int] = {}
    outcome = np.zeros(pairs, np.uint32)
    entries: list[tuple[int, int, int]] = []
    for j, wj in weights.items():
        key = tuple(sorted(wj.items()))
        if key not in ids:
            ids[key] = len(ids)
            entries.extend((at, ids[key], wt) for at, wt in key)
        outcome[j] = ids[key]
    cells_read: dict[int, set[int]] = {}
    for j in weights:
        cells_read.setdefault(int(outcome[j]), set()).add(int(which[j]))
    assert all(r == {1, 3, 5} for r in cells_read.values())  # its T sum: three disjoint counts (the bound)
    e = np.array(sorted(entries), np.int64).reshape(-1, 3)
    ptr = np.searchsorted(e[:, 0], np.arange(nodes + 1)).astype(np.uint32)
    assert (e[:, 2] < 2 ** 32).all()            # uint32 weights: int64 × uint32 is two 32-bit multiplies
    return ptr, e[:, 1].astype(np.uint32), e[:, 2].astype(np.uint32), outcome, which, from_sets.astype(np.uint8)


def deal_faces_int64(comp: npt.NDArray[np.int64], rank_value: npt.NDArray[np.int64], colours: npt.NDArray[np.int64],
                     und: npt.NDArray[np.int64], t: Any, row_cards: npt.NDArray[np.intp], single: npt.NDArray[np.intp],
                     p: Any) -> npt.NDArray[np.int64]:
    """Counts per result of the ``deal-faces`` level, ``(batch, results)`` int64, of the
    shoes of face counts ``comp`` (``(batch, 52)``, rank-major, 4 suits per rank):
    ``rank_value`` the point value of each rank, ``colours`` the suit indices of each
    colour, ``und`` the undealt factors.

    The compiled form of
    :meth:`exactodds.engine.deal_faces.DealFacesLevel.price_classes`. Per lane block, each
    shoe's 7 derived value-count vectors and rank terms (the level's ``_terms``, computed
    in the kernel: no batch-sized temporaries, no transposes), then the depth-first
    :class:`~exactodds.engine.kernel.Walk` of the coup table's prefix tree with the 7
    products of every node side by side; at multiset ``r``'s node the counts ``T, S, C``.
    A multiset of several values has only the three cells ``S, C − S, T − C`` (no rank
    terms), and each pair of the plan that reads them reads one cell, with weights (its
    groups' ``μ`` summed per multiset) shared by the pairs of the three cells of an
    outcome of a wager: so its ``(T, S, C)`` times the weight is added once to the sums of
    each of its *outcomes* (:func:`_outcomes`), and each pair reads its cell from its
    outcome's sums by the same :func:`~exactodds.engine.cells.face_cells` -- a third of
    the additions of summing every cell, into sums that fit L2 (the coup table: 174
    outcomes of ``3 × 32`` lanes, 134 KiB; the 2,812 row sets of the groups took 2.2 MB
    and measured ~25 % slower in all). A multiset of ``m = row_cards[r]`` cards of the one
    value ``v = single[r]`` adds its six cells, with the rank terms ``R, RS, RC`` of
    value ``v`` and ``m`` cards, to the sums of the plan's groups that read them (slot
    ``6 r + cell``). Then the plan's products per group and per pair.

    int64 is exact here under the level's bound (``headroom × universe < 2^63``):
    every tree product is the ordered ways to deal a multiset's prefix from part of the
    shoe, so at most ``ff(N, d) ≤`` universe; ``S, C, R, RS, RC`` count subsets of the
    ``T`` sequences (their sums of 4 or 2 terms are those counts); the differences of
    ``face_cells`` stay within ``[−T, T]``; and the plan's partial sums are at most the
    universe (:class:`~exactodds.engine.pricing.Plan`). An outcome's sums add terms
    ``≥ 0`` (weights ``≥ 1``, counts ``S ≤ C ≤ T``), so every product and partial sum is
    at most the whole; its cell ``c`` is a pair's plan sum ``Σ_g μ_g Σ_{r ∈ g} cell_c(r)``,
    a count of rounds once times the undealt factor (``≥ 1``), and its ``T`` sum is the
    sum of its three cells, which count disjoint sets of rounds (the same values suited,
    coloured, mixed), so at most the universe as well; :func:`_finish_outcomes` forms the
    same pair sums, times the undealt factor, and the same result sums as the plan. No intermediate exceeds the universe in absolute value
    (headroom 1 would do; the level declares 4), and batches beyond the bound never
    reach this kernel (:meth:`~exactodds.engine.level.Level.price_batch` takes Python
    ints there).
    """
    w = walk(t, p, 6)
    b = len(comp)
    undT = _lanes(und, FACE_LANES)
    out = np.empty((len(p.pair_ptr) - 1, undT.shape[1]), np.int64)
    _deal_faces_c(np.ascontiguousarray(comp, np.int64), rank_value, colours, undT, w.depth, w.cls, w.prior, w.node_ptr,
                  w.group, w.cell, w.row_of, *_outcomes(w, p),
                  row_cards, single, p.mult, *_indices(p.group_ptr, p.cards, p.pair_ptr), out)
    return out[:, :b].T
