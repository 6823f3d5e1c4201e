"""The compiled single-shoe forms of the pricing (numba; see :mod:`exactodds.engine.single`).

:func:`price_one` is :func:`exactodds.engine.pricing.price` for one shoe and
:func:`deal_faces_one` the ``deal-faces`` level's cells
(:meth:`exactodds.engine.deal_faces.DealFacesLevel.price_classes`) for one shoe: the same
prefix-tree products and the same :class:`~exactodds.engine.pricing.Plan` sums, as plain
loops over one shoe (no lanes, no temporaries the size of the table). int64 only, under
the bound of :mod:`exactodds.engine.pricing` (every partial sum at most ``headroom ×``
the universe); the callers fall back to the object path beyond it. Imported only once a
process has priced :data:`~exactodds.engine.single.COMPILED_AFTER` compositions.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.cells import face_cells
from exactodds.engine.kernel import _index, _jit, _small


def _tree(n: Any, parent: Any, cls: Any, prior: Any, ways: Any) -> None:  # pragma: no cover
    """``ways[i]``: ordered ways to deal prefix-tree node ``i`` from class counts ``n``."""
    ways[0] = 1
    for i in range(1, parent.shape[0]):
        f = n[cls[i]] - prior[i]
        ways[i] = ways[parent[i]] * f if f > 0 else 0


_tree_c = _jit(_tree)


def _sums(values: Any, und: Any, slot: Any, weight: Any, pair_entry: Any, cards: Any, pair_ptr: Any,
          out: Any) -> None:  # pragma: no cover
    """The plan's sums: per pair the sum of its entries' values times their ``μ``
    (``weight``), times the undealt factor ``und[m]``, per result the sum of its pairs
    (``out``). One loop per pair over its entries, four running sums, rather than one per
    ``μ`` group: the coup level's 3,126 groups are 205 pairs, and the loop exits saved
    outweigh the multiply per entry (~8 % faster). The same integers as the plan's
    grouped sums, in another order, all non-negative: every partial sum is at most the
    count of its result, hence exact in int64 under the bound of
    :mod:`exactodds.engine.pricing`."""
    for q in range(pair_ptr.shape[0] - 1):
        tot = 0
        for j in range(pair_ptr[q], pair_ptr[q + 1]):
            e, end = pair_entry[j], pair_entry[j + 1]
            a0 = a1 = a2 = a3 = 0
            while e + 4 <= end:
                a0 += np.int64(weight[e]) * values[slot[e]]
                a1 += np.int64(weight[e + 1]) * values[slot[e + 1]]
                a2 += np.int64(weight[e + 2]) * values[slot[e + 2]]
                a3 += np.int64(weight[e + 3]) * values[slot[e + 3]]
                e += 4
            while e < end:
                a0 += np.int64(weight[e]) * values[slot[e]]
                e += 1
            tot += und[cards[j]] * ((a0 + a1) + (a2 + a3))
        out[q] = tot


_sums_c = _jit(_sums)


def _price(comp: Any, face_class: Any, und: Any, parent: Any, cls: Any, prior: Any, slot: Any, weight: Any,
           pair_entry: Any, cards: Any, pair_ptr: Any, classes: int, out: Any) -> None:  # pragma: no cover
    n = np.zeros(classes, np.int64)
    for f in range(comp.shape[0]):                       # the class counts: each face's count to its class
        n[face_class[f]] += comp[f]
    ways = np.empty(parent.shape[0], np.int64)
    _tree_c(n, parent, cls, prior, ways)
    _sums_c(ways, und, slot, weight, pair_entry, cards, pair_ptr, out)


_price_c = _jit(_price)

@lru_cache(maxsize=64)
def _args(t: Any, p: Any) -> tuple[npt.NDArray[Any], ...]:
    """The trie's and plan's arrays as the loops take them, per (trie, plan) pair (both
    compare by identity and live as long as their level: the cache holds them, so a key is
    never another pair's)."""
    slot_ptr = np.asarray(p.slot_ptr)
    return (_small(t.parent), _small(t.cls), _small(t.prior), _index(t.row_node), _small(p.slot),
            _small(np.repeat(p.mult, np.diff(slot_ptr))), _index(slot_ptr[p.group_ptr]),
            _small(p.cards), _index(p.pair_ptr), p.slot)


def price_one(comp: npt.NDArray[np.int64], face_class: npt.NDArray[np.uint32], classes: int,
              und: npt.NDArray[np.int64], t: Any, p: Any) -> npt.NDArray[np.int64]:
    """Counts per result (int64) of one shoe of face counts ``comp`` (``(52,)``), each face
    of class ``face_class[f]`` (``classes`` of them; the class counts are summed in the
    loop), undealt factors ``und`` (``(depth + 1,)``): ``t`` a
    :class:`~exactodds.engine.pricing.Trie`, ``p`` a :class:`~exactodds.engine.pricing.Plan`."""
    parent, cls, prior, _, slot, weight, pair_entry, cards, pair_ptr, _ = _args(t, p)
    out = np.empty(len(pair_ptr) - 1, np.int64)
    _price_c(comp, face_class, und, parent, cls, prior, slot, weight, pair_entry, cards, pair_ptr,
             classes, out)
    return out


_face_cells = _jit(face_cells)


def _ff(n: Any, k: Any) -> Any:  # pragma: no cover
    """``n·(n−1)·…·(n−k+1)``, 0 once ``k > n``."""
    out = 1
    for i in range(k):
        out *= n - i if n > i else 0
    return out


_ff_c = _jit(_ff)


def _terms(comp: Any, rank_value: Any, colours: Any, depth: int, derived: Any, ranks: Any) -> None:  # pragma: no cover
    """The inputs of the cells from one shoe's face counts ``comp`` (rank-major, 4 suits
    per rank), as :meth:`~exactodds.engine.deal_faces.DealFacesLevel._terms` defines them:
    ``derived[j, v]`` the value counts of the shoe (``j = 0``), of each suit (1-4) and of
    each colour (5-6); ``ranks[i, v, k]`` summed over the ranks of value ``v``: ``ff`` of
    the rank's count (``R``), ``Σ_suits ff`` (``RS``), ``Σ_colours ff`` (``RC``)."""
    derived[:] = 0
    ranks[:] = 0
    for r in range(rank_value.shape[0]):
        v = rank_value[r]
        whole = 0
        for s in range(4):
            c = comp[4 * r + s]
            whole += c
            derived[1 + s, v] += c
            for k in range(depth + 1):
                ranks[1, v, k] += _ff_c(c, k)
        derived[0, v] += whole
        for k in range(depth + 1):
            ranks[0, v, k] += _ff_c(whole, k)
        for j in range(colours.shape[0]):
            c = comp[4 * r + colours[j, 0]] + comp[4 * r + colours[j, 1]]
            derived[5 + j, v] += c
            for k in range(depth + 1):
                ranks[2, v, k] += _ff_c(c, k)


_terms_c = _jit(_terms)


def _deal_faces(comp: Any, rank_value: Any, colours: Any, und: Any, parent: Any, cls: Any, prior: Any,
                row_node: Any, row_cards: Any, single: Any, slot: Any, weight: Any, pair_entry: Any,
                cards: Any, pair_ptr: Any, out: Any) -> None:  # pragma: no cover
    rows = row_node.shape[0]
    derived = np.empty((7, 10), np.int64)
    ranks = np.empty((3, 10, und.shape[0]), np.int64)
    _terms_c(comp, rank_value, colours, und.shape[0] - 1, derived, ranks)
    ways = np.empty(parent.shape[0], np.int64)
    terms = np.zeros((3, rows), np.int64)                 # T, S (sum over suits), C (over colours)
    for j in range(derived.shape[0]):
        _tree_c(derived[j], parent, cls, prior, ways)
        term = terms[0 if j == 0 else 1 if j <= 4 else 2]
        for r in range(rows):
            term[r] += ways[row_node[r]]
    cells = np.empty(rows * 6, np.int64)
    zero = np.int64(0)
    for r in range(rows):
        v, m = single[r], row_cards[r]
        if v >= 0:
            c = _face_cells(terms[0, r], terms[1, r], terms[2, r], ranks[0, v, m], ranks[1, v, m], ranks[2, v, m])
        else:
            c = _face_cells(terms[0, r], terms[1, r], terms[2, r], zero, zero, zero)
        for i in range(6):
            cells[6 * r + i] = c[i]
    _sums_c(cells, und, slot, weight, pair_entry, cards, pair_ptr, out)


_deal_faces_c = _jit(_deal_faces)


def deal_faces_one(comp: npt.NDArray[np.int64], rank_value: npt.NDArray[np.int64],
                   colours: npt.NDArray[np.int64], und: npt.NDArray[np.int64], t: Any,
                   row_cards: npt.NDArray[np.intp], single: npt.NDArray[np.intp], p: Any) -> npt.NDArray[np.int64]:
    """Counts per result (int64) of the ``deal-faces`` level for one shoe of face counts
    ``comp``: ``rank_value`` the point value of each rank, ``colours`` the suit indices of
    each colour; the derived counts by :func:`_terms`, the six cells of each multiset by
    :func:`~exactodds.engine.cells.face_cells`, then the plan's sums (slot ``6 r + cell``).
    Exact in int64 under the level's bound, for the reasons
    :func:`exactodds.engine.deal_faces_kernel.deal_faces_int64` gives."""
    parent, cls, prior, row_node, slot, weight, pair_entry, cards, pair_ptr, _ = _args(t, p)
    out = np.empty(len(pair_ptr) - 1, np.int64)
    _deal_faces_c(comp, rank_value, colours, und, parent, cls, prior, row_node, row_cards, single, slot, weight,
                  pair_entry, cards, pair_ptr, out)
    return out


def _tally(counts: Any, order: Any, bounds: Any, form_ptr: Any, form_at: Any, form_weight: Any,
           out: Any) -> None:  # pragma: no cover
    """``out[j]``: the sum of ``counts[order[e]]`` over ``bounds[j] <= e < bounds[j + 1]``
    (each outcome of each split a run of the results it settles, summed in a register);
    then, after those ``J`` sums, ``out[J + k]``: the sum of ``form_weight[e] ×
    out[form_at[e]]`` over ``form_ptr[k] <= e < form_ptr[k + 1]`` (weighted sums of the
    outcomes' counts: a paytable's moments)."""
    outcomes = bounds.shape[0] - 1
    for j in range(outcomes):
        acc = 0
        for e in range(bounds[j], bounds[j + 1]):
            acc += counts[order[e]]
        out[j] = acc
    for k in range(form_ptr.shape[0] - 1):
        acc = 0
        for e in range(form_ptr[k], form_ptr[k + 1]):
            acc += form_weight[e] * out[form_at[e]]
        out[outcomes + k] = acc


_tally_c = _jit(_tally)


def tally_splits(counts: npt.NDArray[np.int64], order: npt.NDArray[np.intp], bounds: npt.NDArray[np.intp],
                 form_ptr: npt.NDArray[np.intp], form_at: npt.NDArray[np.intp],
                 form_weight: npt.NDArray[np.int64]) -> memoryview:
    """Counts per outcome of several outcome splits of one shoe's counts per result, end to
    end (outcome ``j`` the results ``order[bounds[j]:bounds[j + 1]]``), followed by weighted
    sums of those outcome counts (form ``k``: ``form_weight[e] ×`` outcome ``form_at[e]``
    for ``form_ptr[k] <= e < form_ptr[k + 1]``). One pass for every paytable of a level
    instead of one array operation per split, and a paytable's two moments without a
    Python loop. Returned as a memoryview of the int64 sums: an item read is a Python int,
    and a caller reads the few it needs (converting all of them was most of the cost).

    Exact in int64: each outcome sum is of distinct results' counts, hence at most the
    universe, which bounds the int64 counts (:func:`price_one`). A form's sum (and each
    partial sum) is at most the universe times its largest ``|weight|``: its caller reads
    it only for a shoe whose universe passes that bound; beyond it the value is not used."""
    out = np.empty(len(bounds) - 1 + len(form_ptr) - 1, np.int64)
    _tally_c(counts, order, bounds, form_ptr, form_at, form_weight, out)
    return memoryview(out)  # type: ignore[arg-type]  # each item read is a Python int: a caller reads a few of hundreds (no tolist)
