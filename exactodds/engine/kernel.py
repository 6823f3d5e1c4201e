"""The compiled form of :func:`exactodds.engine.pricing.price` (:func:`price_int64`) for large
int64 batches, and the walk and helpers the ``deal-faces`` kernel
(:mod:`exactodds.engine.deal_faces_kernel`) shares.

The same sums as the numpy path -- the prefix tree's one product per node, then the
sums of a :class:`~exactodds.engine.pricing.Plan` (one addition per entry, one product
per group and per pair) -- in another order. The numpy path writes every node's product
for every shoe into a table and then gathers the entries from it; at 8 decks that table
is megabytes per block of shoes, so reading it dominated the kernel. Here the tree is
walked depth first (:class:`Walk`): one product per depth is alive, and each node's
product is added at once to the sums of the groups its entries belong to (or, for a
result of one entry, written at once), so the only array the walk keeps is the group
sums -- one sum per distinct set of nodes, shared by the groups that sum the same nodes
(:class:`EntrySets`). Shoes are priced :data:`LANES` at a time, side by side: every node
and every entry is one short loop over the lanes, which the compiler turns into vector
instructions (the lane count is a run-time value, so it checks aliasing once per loop
instead of giving up). The sums outgrow L2 (1.4 MB for the coup table), so every addition
prefetches the sum it will meet :data:`PREFETCH_AHEAD` entries on, and factors and ``μ``
are read as uint32 where they fit (:func:`_narrow`: fewer multiplies, the same int64
products). A plan whose every result is at most one entry (the opening faces
and nines levels) needs no sums at all: it is priced shoe by shoe (:class:`Direct`), the
tree's last level fused into the output (only the inner nodes' ways are formed; each
result is one product of a scaled parent and a factor), its results written straight into
the ``(batch, results)`` array the caller reads.
Used only for int64 batches (where the bound of :mod:`exactodds.engine.pricing` proves
int64 exact) and only when numba is installed (the optional ``fast`` extra); the tests
hold it equal to the numpy path and to the exact Python-int path, and replay the walk.
Imported only by batch work: numba's import and compile cost is never paid by a single
analysis.

Numba's on-disk cache is used where the process may write it (beside this file, or
numba's user cache folder, or ``NUMBA_CACHE_DIR``); a user who can write none of them
(an installed package run by another user whose home is read-only) gets the same kernel
compiled in memory, never an error (:func:`_jit`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import cgutils, types
from numba.extending import intrinsic

from exactodds.game.cards import falling_factorial, largest_within

LANES: Final = 64
"""Shoes priced side by side by the walk: enough for the compiler to vectorise the loops over
them and to pay each entry's loop set-up once per 64 shoes. The sums (sets × lanes × 8
bytes: 1.4 MB for the coup table's 2,814 sets) miss the 512 KiB L2 either way; with the
merged sets 64 lanes measured ~4 % faster than 32 and 16 lanes ~20 % slower (coup level,
kernel alone, interleaved A/B runs); with the prefetch, 32 lanes ~20 % slower than 64."""


def _jit(fn: Callable[..., Any], **options: Any) -> Any:
    """``numba.njit(fn)``, cached on disk where numba finds a writable cache folder, else
    compiled in memory (numba refuses ``cache=True`` with "no locator available" when it
    can write neither beside the source nor in the user's cache folder). ``options``: more of
    numba's (e.g. ``inline="always"`` for a small helper inlined into its callers)."""
    try:
        return numba.njit(cache=True, nogil=True, **options)(fn)
    except RuntimeError:
        return numba.njit(cache=False, nogil=True, **options)(fn)


PREFETCH_AHEAD: Final = 4
"""The walk asks the CPU for the sum an addition 4 entries ahead will read and write
(:func:`_prefetch`), so that it is on its way from L3 while the additions before it run:
the coup sums are 1.4 MB at 64 lanes, beyond the 512 KiB L2. Measured ~7 % faster on the
coup level (interleaved A/B runs; 2, 3, 6 and 16 ahead within noise of 4, 32 ahead no
gain)."""


def _prefetch_ir(typingctx: Any, ary: Any, row: Any, col: Any) -> Any:  # pragma: no cover
    """A hint, no more: LLVM's ``llvm.prefetch`` (write, keep in L2) of the cache line of
    ``ary[row, col]``. It changes no value and cannot fault, so exactness is untouched."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty, rowty, colty = signature.args
        array = context.make_array(aryty)(context, builder, args[0])
        at = [context.cast(builder, args[1], rowty, types.intp), context.cast(builder, args[2], colty, types.intp)]
        pointer = builder.bitcast(_cg.get_item_pointer(context, builder, aryty, array, at),
                                  ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fn = _cg.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]),
                                        "llvm.prefetch.p0i8")
        builder.call(fn, [pointer, ir.Constant(i32, 1), ir.Constant(i32, 2), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(ary, row, col), codegen


_prefetch: Any = intrinsic(_prefetch_ir)
_cg: Any = cgutils                                          # numba's code-generation helpers: untyped


@dataclass(frozen=True, eq=False)
class Walk:
    """A plan's prefix tree in depth-first order, each node with the groups its values join.

    Node ``i`` (root excluded) is at ``depth[i]``, extends the last node visited at depth
    ``depth[i] − 1`` by one card of class ``cls[i]`` (of which that node holds
    ``prior[i]``). Its entries are ``node_ptr[i]:node_ptr[i+1]``: entry ``e`` adds value
    ``cell[e]`` of the node (0 for a plain plan; one of the six face cells for
    ``deal-faces``) to the sum of group ``group[e]``. Walking the nodes in this order
    keeps only one product per depth alive, so no table of node products is ever written:
    each node's product goes straight into the group sums, which are the one array that
    stays in memory (and in cache).

    An entry that is its result's only term (one pair, one group, one entry: every entry
    of a face level) is *direct* instead: ``direct_ptr[i]:direct_ptr[i+1]`` of node ``i``,
    its result written at once as ``direct_mult × (und[m] × value)`` (``m = direct_cards``,
    the node's depth: one undealt product per node), and :func:`_finish` skips the results
    marked ``alone``.
    """

    depth: npt.NDArray[np.uint32]
    cls: npt.NDArray[np.uint32]
    prior: npt.NDArray[np.uint32]
    node_ptr: npt.NDArray[np.uint32]
    group: npt.NDArray[np.uint32]
    cell: npt.NDArray[np.uint32]
    row_of: npt.NDArray[np.int64]
    """The multiset of each visited node, ``-1`` for a node that is only a prefix."""
    direct_ptr: npt.NDArray[np.uint32]
    direct_result: npt.NDArray[np.uint32]
    direct_mult: npt.NDArray[np.int64]
    direct_cards: npt.NDArray[np.uint32]
    alone: npt.NDArray[np.uint8]
    """Per result: 1 when its one entry is direct."""
    triple_ptr: npt.NDArray[np.uint32]
    """``deal-faces`` only: node ``i``'s *triple* entries ``triple_ptr[i]:triple_ptr[i+1]``.
    A multiset of several values has only the cells {suit, colour, mixed} × not one rank,
    ``S, C − S, T − C``; its entries are summed as one ``(T, S, C)`` triple into the sums
    of row set ``triple[e]`` (the groups that sum the same multisets share it), and each
    such group is then filled from its row set's sums (``fill_*``)."""
    triple: npt.NDArray[np.uint32]
    fill_group: npt.NDArray[np.uint32]
    fill_source: npt.NDArray[np.uint32]
    fill_cell: npt.NDArray[np.uint32]


@lru_cache(maxsize=64)
def walk(t: Any, p: Any, cells: int = 1) -> Walk:
    """The :class:`Walk` of trie ``t`` and plan ``p`` whose value slots are ``cells ×
    multiset + cell`` (``cells = 1``: the slots are the tree's nodes themselves, and an
    entry alone in its result is direct; ``cells > 1``: every entry is summed)."""
    nodes = len(t.parent)
    depth = np.zeros(nodes, np.int64)
    for level in t.levels:
        depth[level] = depth[t.parent[level]] + 1
    deepest = int(depth.max(initial=0))
    base = int(t.cls.max(initial=0)) + 2
    key = np.zeros(nodes, np.int64)                       # digits cls + 1, padded: preorder
    for level in t.levels:
        key[level] = key[t.parent[level]] + (t.cls[level] + 1) * base ** (deepest - depth[level])
    order = np.argsort(key, kind="stable")[1:]            # the root first, then dropped
    position = np.empty(nodes, np.int64)
    position[order] = np.arange(len(order))
    group = np.repeat(np.arange(len(p.mult)), np.diff(p.slot_ptr))
    pair = np.repeat(np.arange(len(p.cards)), np.diff(p.group_ptr))[group]
    results = len(p.pair_ptr) - 1
    result = np.repeat(np.arange(results), np.diff(p.pair_ptr))[pair]
    terms = np.bincount(result, minlength=results)
    alone = ((terms == 1) if cells == 1 else np.zeros(results, bool)).astype(np.uint8)
    if cells == 1:
        node, cell = p.slot, np.zeros(len(p.slot), np.int64)
    else:
        node, cell = t.row_node[p.slot // cells], p.slot % cells
    at = position[node]
    direct = alone[result] == 1
    several = np.zeros(len(at), bool) if cells == 1 else t.prior[node] < depth[node] - 1   # several values
    triples: list[tuple[int, int]] = []                   # (walk position, row set)
    fills: list[tuple[int, int, int]] = []                # (group, row set, cell)
    if several.any():
        sets: dict[tuple[int, ...], int] = {}
        for g in np.unique(group[several]).tolist():
            span = slice(int(p.slot_ptr[g]), int(p.slot_ptr[g + 1]))
            members = tuple(sorted(set(at[span].tolist())))
            if members not in sets:
                sets[members] = len(sets)
                triples.extend((a, sets[members]) for a in members)
            fills.append((g, sets[members], int(cell[span.start])))
    tri = np.array(sorted(triples), np.int64).reshape(-1, 2)
    fill = np.array(fills, np.int64).reshape(-1, 3)
    direct &= ~several
    rest = ~direct & ~several
    summed = np.flatnonzero(rest)[np.lexsort((group[rest], cell[rest], at[rest]))]
    single = np.flatnonzero(direct)[np.argsort(at[direct], kind="stable")]
    assert (p.cards[pair[single]] == depth[node[single]]).all()    # a direct entry's m: its node's depth
    row_of = np.full(len(order), -1, np.int64)
    row_of[position[t.row_node]] = np.arange(len(t.row_node))
    u32 = np.uint32
    every = np.arange(len(order) + 1)
    return Walk(depth[order].astype(u32), t.cls[order].astype(u32), t.prior[order].astype(u32),
                np.searchsorted(at[summed], every).astype(u32), group[summed].astype(u32),
                cell[summed].astype(u32), row_of,
                np.searchsorted(at[single], every).astype(u32), result[single].astype(u32),
                p.mult[group[single]].astype(np.int64), p.cards[pair[single]].astype(u32), alone,
                np.searchsorted(tri[:, 0], every).astype(u32), tri[:, 1].astype(u32),
                fill[:, 0].astype(u32), fill[:, 1].astype(u32), fill[:, 2].astype(u32))


@dataclass(frozen=True, eq=False)
class EntrySets:
    """A plain walk's summed entries with the groups that sum the same nodes merged.

    Groups of different results (or cards, or ``μ``) often sum exactly the same nodes
    (the coup table: 3,126 groups, 2,814 distinct node sets): such groups share one sum,
    so the walk adds each node's product once per distinct *set* instead of once per
    group (the coup table: 33,548 additions per shoe instead of 35,564). Node ``i``
    *starts* the sums of sets ``set_of[node_ptr[i]:store_end[i]]`` (the first node of
    the walk each of them meets: its product is stored, so the sums are never cleared)
    and adds its product to those of ``set_of[store_end[i]:node_ptr[i+1]]``; group ``g``
    reads the sum of set ``group_set[g]``. The same additions of the same products as
    the plan's, so the same bound holds (each sum is a group's sum)."""

    node_ptr: npt.NDArray[np.uint32]
    store_end: npt.NDArray[np.uint32]
    set_of: npt.NDArray[np.uint32]
    group_set: npt.NDArray[np.uint32]
    sets: int


@lru_cache(maxsize=64)
def entry_sets(w: Walk, groups: int) -> EntrySets:
    """The :class:`EntrySets` of walk ``w`` (a plain walk, ``cells = 1``) of a plan of
    ``groups`` groups."""
    nodes = len(w.depth)
    node = np.repeat(np.arange(nodes), np.diff(w.node_ptr).astype(np.int64))
    members: list[list[int]] = [[] for _ in range(groups)]
    for at, g in zip(node.tolist(), w.group.tolist()):
        members[g].append(at)
    ids: dict[tuple[int, ...], int] = {}
    for m in sorted(set(map(tuple, members))):              # numbered by first node: sums met together lie together
        ids[m] = len(ids)
    group_set = np.array([ids[tuple(m)] for m in members], np.int64)
    pairs = np.unique(np.stack([node, group_set[w.group]], axis=1), axis=0).reshape(-1, 2)
    first = np.zeros(len(pairs), bool)
    first[np.unique(pairs[:, 1], return_index=True)[1]] = True   # pairs sorted by node: each set's first node
    order = np.lexsort((~first, pairs[:, 0]))                      # per node, the stores before the additions
    node_ptr = np.searchsorted(pairs[order, 0], np.arange(nodes + 1))
    store_end = node_ptr[:-1] + np.bincount(pairs[first, 0], minlength=nodes)
    return EntrySets(node_ptr.astype(np.uint32), store_end.astype(np.uint32), pairs[order, 1].astype(np.uint32),
                     group_set.astype(np.uint32), len(ids))


def _factors(nT: Any, b0: int, deepest: int, fac: Any) -> None:  # pragma: no cover
    """``fac[c, j, l] = max(n_c − j, 0)`` of shoe ``b0 + l``, ``j < deepest``: every factor a
    tree node can ask for (a node's ``prior`` is below the round's depth). ``fac`` is
    uint32 when every count is below 2**32 (:func:`_narrow`), else int64."""
    for c in range(nT.shape[0]):
        for j in range(deepest):
            for lane in range(fac.shape[2]):
                f = nT[c, b0 + lane] - j
                fac[c, j, lane] = f if f > 0 else 0


_factors_c = _jit(_factors)


def _finish_sets(acc: Any, group_set: Any, undT: Any, b0: int, mult: Any, group_ptr: Any, cards: Any,
                 pair_ptr: Any, alone: Any, out: Any) -> None:  # pragma: no cover
    """Counts of lanes ``b0 ..`` from the sums ``acc`` of entry sets, group ``g`` reading
    the sum ``acc[group_set[g]]`` of its set: per group times ``μ``, per pair times the
    undealt factor, per result the sum of its pairs (every ``out`` cell written but those
    of results ``alone``, which the walk wrote). Each group prefetches the sum of the group
    :data:`PREFETCH_AHEAD` on (~4 % of the coup level: the sums are read in group order, not
    in memory order). ``mult`` may be uint32 (:func:`_narrow`):
    each ``μ`` is widened to int64 before its product, which the compiler then forms
    with two 32-bit multiplies instead of three."""
    lanes = acc.shape[1]
    tot = np.empty(lanes, np.int64)
    grp = np.empty(lanes, np.int64)
    groups = group_set.shape[0]
    for q in range(pair_ptr.shape[0] - 1):
        if alone[q]:
            continue
        tot[:] = 0
        for j in range(pair_ptr[q], pair_ptr[q + 1]):
            und = undT[cards[j]]
            grp[:] = 0
            for g in range(group_ptr[j], group_ptr[j + 1]):
                if g + PREFETCH_AHEAD < groups:
                    ahead = group_set[g + PREFETCH_AHEAD]
                    for lane in range(0, lanes, 8):
                        _prefetch(acc, ahead, lane)
                mu, a = np.int64(mult[g]), acc[group_set[g]]
                for lane in range(lanes):
                    grp[lane] += mu * a[lane]
            for lane in range(lanes):
                tot[lane] += und[b0 + lane] * grp[lane]
        o = out[q]
        for lane in range(lanes):
            o[b0 + lane] = tot[lane]


_finish_sets_c = _jit(_finish_sets)


def _finish(acc: Any, undT: Any, b0: int, mult: Any, group_ptr: Any, cards: Any, pair_ptr: Any, alone: Any,
            out: Any) -> None:  # pragma: no cover
    """Counts of lanes ``b0 ..`` from the group sums ``acc`` (one sum per group):
    :func:`_finish_sets` with every group its own set."""
    _finish_sets_c(acc, np.arange(mult.shape[0]).astype(np.uint32), undT, b0, mult, group_ptr, cards, pair_ptr,
                   alone, out)


_finish_c = _jit(_finish)


def _price(nT: Any, undT: Any, depth: Any, cls: Any, prior: Any, node_ptr: Any, store_end: Any, set_of: Any, sets: int,
           group_set: Any, direct_ptr: Any, direct_result: Any, direct_mult: Any, direct_cards: Any, alone: Any,
           mult: Any, group_ptr: Any, cards: Any, pair_ptr: Any, out: Any, fac: Any) -> None:  # pragma: no cover
    """Per lane block: the depth-first walk, each node's product ``stack[d] = stack[d − 1] ×
    max(n_c − prior, 0)`` stored into the sums of the sets it starts and added at once to
    the others of its entries (:class:`EntrySets`), each addition prefetching the sum of
the one :data:`PREFETCH_AHEAD` entries on; then :func:`_finish_sets`. ``fac``
    (``(classes, deepest, lanes)``, filled per block by :func:`_factors`) sets the lanes;
    uint32 when :func:`_narrow` allows it: each factor is widened to int64 before its
    product, which the compiler then forms with two 32-bit multiplies instead of three
    (~5 % of the coup kernel)."""
    lanes = fac.shape[2]
    deepest = depth.max() if depth.shape[0] else 0
    stack = np.empty((deepest + 1, lanes), np.int64)
    acc = np.empty((sets, lanes), np.int64)
    weighted = np.empty(lanes, np.int64)
    entries = set_of.shape[0]
    for b0 in range(0, out.shape[1], lanes):
        _factors_c(nT, b0, deepest, fac)
        stack[0, :] = 1
        for i in range(depth.shape[0]):
            d = depth[i]
            src, f, dst = stack[d - 1], fac[cls[i], prior[i]], stack[d]
            for lane in range(lanes):
                dst[lane] = src[lane] * np.int64(f[lane])
            if direct_ptr[i + 1] > direct_ptr[i]:       # the node's multiset: m = its depth cards
                und = undT[direct_cards[direct_ptr[i]]]
                for lane in range(lanes):
                    weighted[lane] = und[b0 + lane] * dst[lane]
                for e in range(direct_ptr[i], direct_ptr[i + 1]):
                    o, mu = out[direct_result[e]], direct_mult[e]
                    if mu == 1:
                        for lane in range(lanes):
                            o[b0 + lane] = weighted[lane]
                    else:
                        for lane in range(lanes):
                            o[b0 + lane] = mu * weighted[lane]
            for e in range(node_ptr[i], store_end[i]):  # the first node of these sets: no clearing
                a = acc[set_of[e]]
                for lane in range(lanes):
                    a[lane] = dst[lane]
            for e in range(store_end[i], node_ptr[i + 1]):
                if e + PREFETCH_AHEAD < entries:       # the sum 4 entries on: every 64-byte line of it
                    ahead = set_of[e + PREFETCH_AHEAD]
                    for lane in range(0, lanes, 8):
                        _prefetch(acc, ahead, lane)
                a = acc[set_of[e]]
                for lane in range(lanes):
                    a[lane] += dst[lane]
        _finish_sets_c(acc, group_set, undT, b0, mult, group_ptr, cards, pair_ptr, alone, out)


_price_c = _jit(_price)


@dataclass(frozen=True, eq=False)
class Direct:
    """A plan whose every result is at most one entry (the opening faces and nines levels:
    the Player's faces 2,704 results, one multiset each), priced shoe by shoe with no sums
    at all, the tree's last level fused into the output.

    Result ``q`` is ``μ × und[m] × ways[node[q]]``; its ``(μ, m)`` is *kind* ``kind[q]``
    (few kinds: one for the Player's faces), and its node's ways are its parent's times one
    factor, ``ways[node] = ways[parent] × max(n_c − prior, 0)``. So per shoe only the
    *inner* nodes -- the parents of result nodes and their ancestors (53 of the faces
    trie's 1,431: the root and one card) -- have their ways computed (``parent``, ``cls``,
    ``prior``: renumbered, parents first); then each distinct (kind, parent) of a result
    gets its *scaled* ways ``coef[kind] × ways[parent]`` (``coef[k] = kind_mult[k] ×
    und[kind_cards[k]]``; 52 for the faces), and result ``q`` is one product,
    ``scaled[at[q]] × fac[factor[q]]``, where ``fac`` holds every ``max(n_c − j, 0)``,
    ``j < stride``, of the shoe (``fac[c × stride + j]``) and a last 1 (for a result whose
    node is the root, ``m = 0``, or that no entry reaches, ``μ = 0``). The two indices
    are one uint64, ``reads[q] = at[q] << 32 | factor[q]``, read sequentially beside the
    results written (one load a result instead of two: ~12 % of the faces kernel at 256
    rows); ``scaled`` and ``fac`` are a few hundred bytes. The results are written shoe by shoe in the
    ``(batch, results)`` layout the caller reads, with no lanes, no padding and no
    transpose. ``node`` and ``kind`` (each result's node and kind) are kept for the tests.

    int64 bound. ``coef × ways[parent]`` is at most ``μ × ff(N − m, depth − m) × ff(N, m −
    1)`` (a parent holds ``m − 1`` of the shoe's ``N`` cards), which grows with ``N``:
    ``limit`` is the largest ``N`` at which it is at most ``2**63 − 1`` for every kind, and
    the fused kernel is used only for batches no larger (:func:`price_int64`). The result
    itself is the count, at most the universe (see :func:`direct`). (The scaled bound is
    ``μ/(N − m + 1)`` times the universe, so where the universe's own bound holds it can
    pass ``2**63`` only if ``μ > N − m + 1``, i.e. ``N < μ + m − 1 ≤ 726`` in a 6-card round,
    where it is below ``720 × 726**5 < 2**63``: for the 6-card levels the limit -- 6,211
    cards for the Player's faces, against the universe's 1,450 -- never sends a batch to the
    walk. It is checked per batch all the same.)
    """

    parent: npt.NDArray[np.uint32]
    cls: npt.NDArray[np.uint32]
    prior: npt.NDArray[np.int64]
    kind_mult: npt.NDArray[np.int64]
    kind_cards: npt.NDArray[np.uint32]
    scaled_kind: npt.NDArray[np.uint32]
    scaled_parent: npt.NDArray[np.uint32]
    stride: int
    reads: npt.NDArray[np.uint64]
    limit: int
    node: npt.NDArray[np.uint32]
    kind: npt.NDArray[np.uint32]


def _scaled_limit(kinds: list[tuple[int, int]], depth: int) -> int:
    """The largest ``N`` at which ``μ × ff(N − m, depth − m) × ff(N, m − 1)`` is at most
    ``2**63 − 1`` for every kind ``(μ, m)`` (:class:`Direct`; the bound never decreases as
    ``N`` grows).

    >>> _scaled_limit([(1, 2)], 6)                   # ff(N, 1) × ff(N − 2, 4): the Player's faces
    6211
    """
    return largest_within(lambda n: max(mu * falling_factorial(n - m, depth - m) * falling_factorial(n, max(m - 1, 0))
                                        for mu, m in kinds), 2**63 - 1, start=depth)


@lru_cache(maxsize=64)
def direct(t: Any, p: Any, depth: int) -> Direct | None:
    """The :class:`Direct` form of trie ``t`` and plan ``p`` in a universe of ``depth``
    cards, or None when some result sums several entries, or when some ``μ`` exceeds
    ``ff(depth, m)`` or some ``m`` is not the number of cards of the result's node (then
    the bounds below would not be proved; no table here has either).

    int64 is exact for shoes under the bound of :mod:`exactodds.engine.pricing`: a node's
    ways are at most ``ff(N, m)``; ``μ`` counts placements of the ``m`` dealt cards among
    the universe's ``depth`` positions, checked here to be at most ``ff(depth, m) ≤
    ff(N, m)`` (every priced shoe has ``N ≥ depth``), so ``coef = μ × und[m] ≤ ff(N, m) ×
    ff(N − m, depth − m) =`` universe, and ``coef × ways`` is the result's count, at most
    the universe. The fused order forms it as ``(coef × ways[parent]) × max(n_c − prior,
    0)``: the factor is at most ``N``, ``ways[parent] ≤ ff(N, m − 1)``, and the one other
    product, ``coef × ways[parent]``, has its own bound (:class:`Direct`'s ``limit``).
    """
    results = len(p.pair_ptr) - 1
    pairs, groups, entries = np.diff(p.pair_ptr), np.diff(p.group_ptr), np.diff(p.slot_ptr)
    if len(pairs) == 0 or pairs.max() > 1 or groups.max(initial=1) > 1 or entries.max(initial=1) > 1:
        return None
    present = np.flatnonzero(pairs == 1)
    j = p.pair_ptr[present]                                     # each present result's pair = its group's pair
    g = p.group_ptr[j]
    mult, cards = np.zeros(results, np.int64), np.zeros(results, np.int64)
    node = np.zeros(results, np.int64)
    mult[present], cards[present], node[present] = p.mult[g], p.cards[j], p.slot[p.slot_ptr[g]]
    if any(mu > falling_factorial(depth, int(m)) for mu, m in zip(mult.tolist(), cards.tolist())):
        return None
    node_depth = np.zeros(len(t.parent), np.int64)
    for d, level in enumerate(t.levels, 1):
        node_depth[level] = d
    if (cards[present] != node_depth[node[present]]).any():    # m is the node's cards: the bounds rely on it
        return None
    kinds, kind = np.unique(np.stack([mult, cards], axis=1), axis=0, return_inverse=True)
    kind = kind.ravel()
    parent = np.asarray(t.parent, np.int64)
    leaf = node > 0
    up = np.where(leaf, parent[node], 0)                        # each result's parent (the root: itself)
    inner = np.zeros(len(parent), bool)
    inner[0] = True
    frontier = np.unique(up)
    while len(frontier):                                        # the parents and every ancestor
        frontier = frontier[~inner[frontier]]
        inner[frontier] = True
        frontier = np.unique(parent[frontier])
    keep = np.flatnonzero(inner)                                # trie order: parents first
    renumber = np.zeros(len(parent), np.int64)
    renumber[keep] = np.arange(len(keep))
    classes = int(np.max(t.cls, initial=0)) + 1
    prior = np.asarray(t.prior, np.int64)
    stride = int(prior[node[leaf]].max(initial=0)) + 1
    factor = np.where(leaf, np.asarray(t.cls, np.int64)[node] * stride + prior[node], classes * stride)
    pair_key = kind * len(keep) + renumber[up]
    scaled, at = np.unique(pair_key, return_inverse=True)
    limit = _scaled_limit([(int(mu), int(m)) for mu, m in kinds.tolist()], depth)
    return Direct(_index(renumber[parent[keep]]), _index(np.asarray(t.cls)[keep]), np.ascontiguousarray(prior[keep]),
                  np.ascontiguousarray(kinds[:, 0], np.int64), _index(kinds[:, 1]),
                  _index(scaled // len(keep)), _index(scaled % len(keep)), stride,
                  (at.ravel().astype(np.uint64) << np.uint64(32)) | factor.astype(np.uint64), limit, _index(node),
                  _index(kind))


def _price_direct(n: Any, und: Any, parent: Any, cls: Any, prior: Any, kind_mult: Any, kind_cards: Any,
                  scaled_kind: Any, scaled_parent: Any, stride: int, reads: Any, out: Any) -> None:  # pragma: no cover
    """Shoe by shoe (:class:`Direct`): the inner nodes' ways ``ways[i] = ways[parent[i]] ×
    max(n_c − prior, 0)``, the factors ``fac[c × stride + j] = max(n_c − j, 0)`` and a last
    1, one ``coef`` per kind, one scaled product per (kind, parent), then one pass writing
    the shoe's results in order, ``out[b, q] = scaled[at[q]] × fac[factor[q]]`` (both
    indices unpacked from ``reads[q]``)."""
    ways = np.empty(parent.shape[0], np.int64)
    classes = n.shape[1]
    fac = np.empty(classes * stride + 1, np.int64)
    fac[classes * stride] = 1
    coef = np.empty(kind_mult.shape[0], np.int64)
    scaled = np.empty(scaled_kind.shape[0], np.int64)
    for b in range(n.shape[0]):
        nb, ub, o = n[b], und[b], out[b]
        ways[0] = 1
        for i in range(1, parent.shape[0]):
            f = nb[cls[i]] - prior[i]
            ways[i] = ways[parent[i]] * (f if f > 0 else 0)
        for c in range(classes):
            for j in range(stride):
                f = nb[c] - j
                fac[c * stride + j] = f if f > 0 else 0
        for k in range(kind_mult.shape[0]):
            coef[k] = kind_mult[k] * ub[kind_cards[k]]
        for s in range(scaled_kind.shape[0]):
            scaled[s] = coef[scaled_kind[s]] * ways[scaled_parent[s]]
        for q in range(reads.shape[0]):
            r = reads[q]
            o[q] = scaled[r >> np.uint64(32)] * fac[r & np.uint64(0xFFFFFFFF)]


_price_direct_c = _jit(_price_direct)


def _index(a: npt.NDArray[Any]) -> npt.NDArray[np.uint32]:
    """An index array as unsigned 32-bit: the compiled loops then skip the wraparound test
    numba makes for signed indices (every index array here is small and non-negative)."""
    return np.ascontiguousarray(a, np.uint32)


def _small(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """An array of small non-negative integers (node indices, classes, counts of cards, μ) in
    the narrowest unsigned type that holds them (uint8, uint16, else uint32; beyond that a
    ValueError, never a wrapped value): the single-shoe kernel's arrays. One shoe's
    walk streams the trie and the plan once, and the fewer bytes it streams, the less of
    the analysis that follows it (Python objects) it pushes out of the core's 512 KiB L2.
    The coup level's arrays fall from ~370 KB to ~190 KB, and a new shoe's core-wager
    figures are ~2 % faster (interleaved A/B, 16 pairs).

    >>> [_small(np.array(a)).dtype.name for a in ([0, 255], [256], [70_000], [])]
    ['uint8', 'uint16', 'uint32', 'uint8']
    """
    top = int(a.max()) if a.size else 0
    if a.size and (int(a.min()) < 0 or top >= 2**32):  # a check, not an assert: it guards a narrowing
        raise ValueError(f"expected integers in 0 .. 2**32 - 1, got {int(a.min())} .. {top}")
    return np.ascontiguousarray(a, np.uint8 if top < 2**8 else np.uint16 if top < 2**16 else np.uint32)


def _indices(*arrays: npt.NDArray[Any]) -> tuple[npt.NDArray[np.uint32], ...]:
    return tuple(_index(a) for a in arrays)


def _lanes(a: npt.NDArray[Any], lanes: int = LANES) -> npt.NDArray[np.int64]:
    """``a`` (``(B, k)``) transposed to ``(k, B')``, ``B'`` a multiple of :data:`LANES`, the
    extra lanes copies of shoe 0 (priced and dropped)."""
    pad = -len(a) % lanes
    if pad:
        a = np.concatenate([a, np.repeat(a[:1], pad, axis=0)])
    return np.ascontiguousarray(a.T, np.int64)


def _narrow(a: npt.NDArray[Any]) -> type:
    """uint32 when every value of ``a`` lies in ``0 .. 2**32 − 1``, else int64: the dtype in
    which the kernels read factors and ``μ``. They widen each such value to int64 before
    multiplying, so the products are the same int64 products either way (no value is ever
    truncated: the range is checked here), only formed with fewer multiplies when the
    compiler knows an operand's upper half is zero. Under the int64 bound every count is far
    below 2**32 (``ff(N, 2) < 2**63``), so the wide case is only a guard.

    >>> _narrow(np.array([0, 84])), _narrow(np.array([2**32])), _narrow(np.array([-1]))
    (<class 'numpy.uint32'>, <class 'numpy.int64'>, <class 'numpy.int64'>)
    """
    small = a.size == 0 or (int(a.min()) >= 0 and int(a.max()) < 2**32)
    return np.uint32 if small else np.int64


def price_int64(n: npt.NDArray[np.int64], und: npt.NDArray[np.int64], t: Any, p: Any) -> npt.NDArray[np.int64]:
    """Counts per result, ``(batch, results)`` int64, of class counts ``n`` with undealt
    factors ``und``: ``t`` a :class:`~exactodds.engine.pricing.Trie`, ``p`` a
    :class:`~exactodds.engine.pricing.Plan` (taken as plain records of arrays, so that
    this module imports nothing of the engine but the cell formula).

    The same sums as the plan's: each group's sum gathers the same node products, by the
    depth-first :class:`Walk` instead of from a table of them, groups that sum the same
    nodes sharing one sum (:class:`EntrySets`); int64 is exact under the same bound
    (:class:`~exactodds.engine.pricing.Plan`: every partial sum is at most the universe).
    A plan whose every result is one entry is priced shoe by shoe (:class:`Direct`, whose
    docstring gives its bound) and returned C-ordered; the walk's counts are the
    transpose of its ``(results, lanes)`` array."""
    depth = und.shape[1] - 1
    d = direct(t, p, depth)
    if d is not None and (depth == 0 or int(und[:, depth - 1].max(initial=0)) + depth - 1 <= d.limit):
        counts = np.empty((len(n), len(p.pair_ptr) - 1), np.int64)
        _price_direct_c(np.ascontiguousarray(n, np.int64), np.ascontiguousarray(und, np.int64), d.parent, d.cls,
                        d.prior, d.kind_mult, d.kind_cards, d.scaled_kind, d.scaled_parent, d.stride, d.reads,
                        counts)
        return counts
    w = walk(t, p)
    m = entry_sets(w, len(p.mult))
    nT, undT = _lanes(n), _lanes(und)
    out = np.empty((len(p.pair_ptr) - 1, nT.shape[1]), np.int64)
    deepest = int(w.depth.max(initial=0))
    fac: npt.NDArray[Any] = np.empty((nT.shape[0], deepest, LANES), _narrow(nT))
    _price_c(nT, undT, w.depth, w.cls, w.prior, m.node_ptr, m.store_end, m.set_of, m.sets, m.group_set, w.direct_ptr,
             w.direct_result, w.direct_mult, w.direct_cards, w.alone, p.mult.astype(_narrow(p.mult)),
             *_indices(p.group_ptr, p.cards, p.pair_ptr), out, fac)
    return out[:, :len(n)].T
