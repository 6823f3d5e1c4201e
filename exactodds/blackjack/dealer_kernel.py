"""The compiled form of :class:`~exactodds.blackjack.dealer.DealerTable`'s two loops (numba; the
optional ``fast`` extra): the contraction of the dealer's compositions against the removed
multisets (:func:`contract`), Garner's mixed-radix reconstruction (:func:`garner`), and the
numerators' 32-bit limbs and float probabilities written straight from the residues (:func:`limbs`);
a whole request, every number of cards removed, in one call (:func:`batch`).

The same sums, in the same residues, as the numpy path, in another order. The numpy path sums
one value at a time for every distinct ``x``-tail at once (breadth first: a whole array per
level). Here the removed multisets are walked one row at a time (depth first): with the rows
sorted, a row shares the partial sums of the levels whose values it holds as many of as the row
before, and only the levels from the first value where it differs are summed again, into one
small flat buffer of slots (:func:`~exactodds.blackjack.dealer.sum_plan`). A group of one
composition holding none of the level's value (its factor ``ff(·, 0) = 1``; about half of the
groups, 8 decks) is no sum: it keeps its child's slot. Every other sum is one short loop of
multiply-adds with one reduction at its end (below 2⁶³ by the bound of
:mod:`~exactodds.blackjack.dealer`'s module doc: each product below 2⁵⁸, at most
:data:`~exactodds.blackjack.dealer.MOST_TERMS` of them), four primes side by side in one vector
(:data:`LANES`, :func:`_lane_sum`: the loop control, the plan's entries and the addresses shared;
the multiplies, additions and the reduction one vector instruction each, :data:`LANE_SUM`).

Integer arithmetic only (non-negative throughout; each reduction by Barrett's multiply,
:data:`REDUCTION`, Garner's digits too). Speed (issue 27, the 339 contractions of the standard
8-deck CDZ- game, warm, quiet machine): 0.32 s for one prime at a time with copies, 0.14-0.15 s
after the ``contract`` round (lanes, no copies, unsigned indices), 0.080 s now (the lanes one
vector: :data:`LANE_SUM`); the limbs of those 339 batches 0.032 → 0.019 s (each step one loop over
all the integers, vectorised: :func:`_limbs`); their 339 × 3 calls (contraction, check, limbs)
0.17 → 0.105 s as 20 calls of :func:`batch`. Imported only by :mod:`~exactodds.blackjack.dealer`
when numba is installed and ``EXACTODDS_PURE`` is not set; the tests hold both equal to the numpy
path and to a direct dealer recursion, and the vector sums to Python's integers.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import cgutils, types
from numba.extending import intrinsic

from exactodds.engine.kernel import _jit

REDUCTION = """A sum ``a`` of residue products (``0 ≤ a < 2⁶³``) is reduced modulo the odd prime ``q``
without a division (Barrett): with ``m = ⌊(2⁶⁴ − 1)/q⌋ = ⌊2⁶⁴/q⌋`` (``q`` odd), the high word of
the 128-bit product, ``t = ⌊a·m/2⁶⁴⌋`` (:func:`_mulhi`, one multiply), is ``⌊a/q⌋`` or one less:
``a·m/2⁶⁴ ≤ a/q`` and ``a·m/2⁶⁴ > a/q − a/2⁶⁴ > a/q − 1``. So ``r = a − t·q`` is in ``[0, 2q)``
(``t·q ≤ a``: no overflow) and one subtraction of ``q`` gives the residue. Integers only; the
integer division it replaces was most of the contraction's time (this is ~25 % faster)."""


def _mulhi_ir(typingctx: Any, a: Any, b: Any) -> Any:  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product of two uint64 (LLVM's ``i128`` multiply)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i128 = ir.IntType(128)
        wide = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        return builder.trunc(builder.lshr(wide, ir.Constant(i128, 64)), ir.IntType(64))
    return types.uint64(types.uint64, types.uint64), codegen


_mulhi: Any = intrinsic(_mulhi_ir)


def _reduce(a: Any, q: Any, m: Any) -> Any:  # pragma: no cover - compiled
    """``a mod q`` for ``0 ≤ a < 2⁶³``, ``m = ⌊2⁶⁴/q⌋`` (:data:`REDUCTION`)."""
    r = a - np.int64(_mulhi(np.uint64(a), m)) * q
    if r >= q:
        r -= q
    return r


reduce: Any = _jit(_reduce)


LANES: Final = 4
"""Primes summed side by side, one 128-bit row of four uint32 residues (the innermost axis of the
buffer and of the factors): a sum's loop control, its plan entries and its addresses are shared
by four primes, and its products, additions and reduction are one vector operation each
(:func:`_lane_sum`; more primes: chunks of four, one walk over the rows per chunk; fewer: the
spare lanes hold zeros). Measured on the 339 calls of the standard 8-deck game: 0.32 s (one
prime at a time) → 0.19 s (four int64 lanes, scalar) → 0.087 s (one vector of four)."""

LANE_SUM = """:func:`_lane_sum` in LLVM's vector types, written out because numba gave either scalar code
or gathers (its loop vectoriser widened the loop over a sum's terms, not the four lanes): per
term one 128-bit load of the four factors ``ff(B_v − x, d)`` and one of the four slot residues,
both zero-extended to 64-bit lanes, one ``vpmuludq`` (32 × 32 → 64 bits: each product below
2⁵⁸) and one addition; at the end of the sum, Barrett's reduction (:data:`REDUCTION`) on the four
lanes at once, its 64 × 64 → high-64 product from four 32 × 32 → 64 products: with
``a = a₁·2³² + a₀`` (``a < 2⁶³``, so ``a₁ < 2³¹``) and ``m = m₁·2³² + m₀`` (``m = ⌊2⁶⁴/q⌋ < 2³⁶``: the
primes are above 2²⁸, :func:`~exactodds.blackjack.dealer_store.primes_above`), the high word is ``a₁m₁ + ⌊(a₁m₀ + a₀m₁ + ⌊a₀m₀/2³²⌋)/2³²⌋`` (the middle sum below
``2⁶³ + 2³⁶ + 2³²``: no carry lost). The remainder ``r = a − t·q`` is in ``[0, 2q)``, below 2³²,
so it is computed in 32-bit lanes, modulo 2³² (the low words of ``a``, ``t`` and ``q``; one
32-bit multiply), less ``q`` when not below it, and stored as it is (a plain 128-bit store: the
next level's loads of it are forwarded; ~6 % faster than a 64-bit tail and a narrowing store). Integers
only, exact by these bounds; the tests hold it equal to the numpy path and to ``%``."""


def _lane_sum_ir(typingctx: Any, buf: Any, f: Any, terms: Any, first: Any, stop: Any, dst: Any, qs: Any,
                 ms: Any) -> Any:  # pragma: no cover - compiled
    """``buf[dst, :] = Σ_t f[d_t, :] · buf[src_t, :] mod qs`` over the terms ``first ≤ t < stop``
    (``terms[t] = src_t + d_t · 2³²``; at least one), four lanes at once (:data:`LANE_SUM`). ``buf`` and ``f``:
    C-contiguous uint32 arrays of :data:`LANES` columns; ``qs``, ``ms``: the four primes and their
    Barrett constants (tuples of uint64). No index is checked (the plan's are in range)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64, i32 = ir.IntType(64), ir.IntType(32)
        v64, v32 = ir.VectorType(i64, LANES), ir.VectorType(i32, LANES)
        buft, ft, termst = signature.args[:3]
        bufd = context.make_array(buft)(context, builder, args[0]).data
        fd = context.make_array(ft)(context, builder, args[1]).data
        termd = context.make_array(termst)(context, builder, args[2]).data

        def row(data: Any, index: Any) -> Any:  # the LANES residues of row ``index``
            at = builder.gep(data, [builder.shl(index, ir.Constant(i64, 2))])
            return builder.bitcast(at, v32.as_pointer())

        def vector(values: Any) -> Any:
            out = ir.Constant(v64, ir.Undefined)
            for k in range(LANES):
                out = builder.insert_element(out, builder.extract_value(values, k), ir.Constant(i32, k))
            return out

        def splat(c: int) -> Any:
            return ir.Constant(v64, [c] * LANES)
        q, m = vector(args[6]), vector(args[7])
        def product(t: Any) -> Any:  # term t's four products
            entry = builder.load(builder.gep(termd, [t]))
            fv = builder.zext(builder.load(row(fd, builder.lshr(entry, ir.Constant(i64, 32))), align=4), v64)
            bv = builder.zext(builder.load(row(bufd, builder.and_(entry, ir.Constant(i64, 0xFFFFFFFF))),
                                           align=4), v64)
            return builder.mul(fv, bv)
        lo = context.cast(builder, args[3], signature.args[3], types.int64)
        hi = context.cast(builder, args[4], signature.args[4], types.int64)
        acc = _cg.alloca_once(builder, v64)
        builder.store(product(lo), acc)  # a sum has a term at least (sum_plan)
        with _cg.for_range_slice(builder, builder.add(lo, ir.Constant(i64, 1)), hi, ir.Constant(i64, 1),
                                 inc=True) as (t, _):
            builder.store(builder.add(builder.load(acc), product(t)), acc)
        a = builder.load(acc)
        low, s32 = splat(0xFFFFFFFF), splat(32)
        a0, a1, m0, m1 = builder.and_(a, low), builder.lshr(a, s32), builder.and_(m, low), builder.lshr(m, s32)
        mid = builder.add(builder.add(builder.mul(a1, m0), builder.mul(a0, m1)),
                          builder.lshr(builder.mul(a0, m0), s32))
        t = builder.add(builder.mul(a1, m1), builder.lshr(mid, s32))
        q32 = builder.trunc(q, v32)  # the remainder in 32-bit lanes: below 2q < 2³⁰
        r = builder.sub(builder.trunc(a, v32), builder.mul(builder.trunc(t, v32), q32))
        r = builder.select(builder.icmp_unsigned("<", r, q32), r, builder.sub(r, q32))
        at = context.cast(builder, args[5], signature.args[5], types.int64)
        builder.store(r, row(bufd, at), align=4)
        return context.get_dummy_value()
    return types.void(buf, f, terms, first, stop, dst, qs, ms), codegen


_lane_sum: Any = intrinsic(_lane_sum_ir)
_cg: Any = cgutils  # numba's code-generation helpers: untyped


def _contract(orders: Any, ks: Any, lengths: Any, xa: Any, cols: Any, sizes: Any, nsums: Any, runs: Any,
              terms: Any, targets: Any, outs: Any, factors: Any, q: Any) -> Any:  # pragma: no cover - compiled
    """Residues ``(prime, row, group)`` of the sums of :meth:`DealerTable._residues`.

    Composition ``c``'s weight mod prime ``p`` is ``orders[p, c] · lengths[p, ks[c]]`` (its orders,
    and ``ff(n − k, K − k)`` for its ``k = ks[c]`` cards, each below ``p``); ``xa``: the removed multisets (rows,
    best sorted); per level ``l`` the value ``cols[l]`` summed out and the plan of
    :func:`~exactodds.blackjack.dealer.sum_plan` (``sizes``: the compositions and the slots;
    ``nsums[l]`` sums, sum ``s`` the terms ``runs[l, s] .. runs[l, s + 1]``, term ``t`` the slot
    ``terms[l, t] mod 2³²`` times ``ff(B_v − x, terms[l, t] >> 32)``, into the slot ``targets[l, s]``; the
    outcome groups in the slots ``outs``), and ``factors[k, l, x, d, j] = ff(B_v − x, d) mod p``
    for the prime ``p = q[LANES·k + j]`` (uint32, zero past the last prime; :data:`LANES`). Each
    sum, at most :data:`~exactodds.blackjack.dealer.MOST_TERMS` products below 2⁵⁸, so below 2⁶³,
    is reduced once (:data:`LANE_SUM`)."""
    nprimes, rows, nlevels = q.shape[0], xa.shape[0], cols.shape[0]
    out = np.empty((nprimes, rows, outs.shape[0]), dtype=np.int64)
    start = starts(xa, cols)
    buf = np.zeros((sizes[1], LANES), dtype=np.uint32)
    qs = np.empty(LANES, dtype=np.int64)
    ms = np.empty(LANES, dtype=np.uint64)
    for chunk in range(factors.shape[0]):
        first = chunk * LANES
        lanes = min(LANES, nprimes - first)
        for k in range(LANES):
            qs[k] = q[first + min(k, lanes - 1)]
            ms[k] = np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(qs[k])  # Barrett's constant (REDUCTION)
        qt = (np.uint64(qs[0]), np.uint64(qs[1]), np.uint64(qs[2]), np.uint64(qs[3]))
        mt = (ms[0], ms[1], ms[2], ms[3])
        for c in range(sizes[0]):  # the weights (a product of two residues: below 2⁵⁸)
            for k in range(lanes):
                buf[c, k] = reduce(orders[first + k, c] * lengths[first + k, ks[c]], qs[k], ms[k])
        for i in range(rows):
            for level in range(start[i], nlevels):  # the levels this row sums again
                f = factors[chunk, level, xa[i, cols[level]]]
                run, term, target = runs[level], terms[level], targets[level]
                prev = run[0]
                for s in range(nsums[level]):
                    nxt = run[s + 1]
                    _lane_sum(buf, f, term, prev, nxt, target[s], qt, mt)
                    prev = nxt
            for g in range(outs.shape[0]):
                for k in range(lanes):
                    out[first + k, i, g] = buf[outs[g], k]
    return out


def _sums_hold(residues: Any, xa: Any, col: int, e0: Any, e1: Any, q: Any) -> bool:  # pragma: no cover - compiled
    """Whether every row's outcome residues add up to ``e0[p] + e1[p] · xa[row, col]`` modulo
    each prime ``q[p]`` (the check of :meth:`DealerTable._residues`, without numpy's small
    reductions: ~0.1 ms a batch). Each sum of residues is below ``groups · 2²⁹``, each product
    ``e1 · x`` below ``2²⁹ · B_v``: every reduction's argument below 2⁶³ (:data:`REDUCTION`)."""
    nprimes, rows, groups = residues.shape
    for p in range(nprimes):
        qp = q[p]
        m = np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(qp)
        for i in range(rows):
            total = 0
            for g in range(groups):
                total += residues[p, i, g]
            if reduce(total, qp, m) != reduce(e0[p] + e1[p] * xa[i, col], qp, m):
                return False
    return True


sums_hold: Any = _jit(_sums_hold)


def _starts(xa: Any, cols: Any) -> Any:  # pragma: no cover - compiled
    """Per row of ``xa``, the first level whose value's count differs from the row before (0 for
    the first row; the number of levels for a row equal to the one before on every level)."""
    rows = xa.shape[0]
    nlevels = cols.shape[0]
    start = np.zeros(rows, dtype=np.int64)
    for i in range(1, rows):
        s = nlevels
        for level in range(nlevels):
            if xa[i, cols[level]] != xa[i - 1, cols[level]]:
                s = level
                break
        start[i] = s
    return start


starts: Any = _jit(_starts)


def _radix_constants(q: Any) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """Barrett's constant of each prime (:data:`REDUCTION`) and ``q_j mod q_i`` (axes: i, j): the
    constants of :func:`_mixed_radix`, computed once per call of :func:`_garner` or :func:`_limbs`."""
    nprimes = q.shape[0]
    m = np.empty(nprimes, dtype=np.uint64)
    qmod = np.zeros((nprimes, nprimes), dtype=np.int64)
    for i in range(nprimes):
        m[i] = np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(q[i])
        for j in range(nprimes):
            qmod[i, j] = q[j] % q[i]
    return m, qmod


radix_constants: Any = _jit(_radix_constants)


def _mixed_radix(residues: Any, r: int, c: int, q: Any, inv: Any, m: Any, qmod: Any,
                 digits: Any) -> None:  # pragma: no cover - compiled
    """Garner's mixed-radix digits of the integer whose residues are ``residues[:, r, c]`` (each
    below its prime) into ``digits`` (each ``d_i`` below ``q_i``; the integer is
    ``Σ d_i · Π_{j<i} q_j``); ``inv[i]`` the inverse of ``Π_{j<i} q_j`` modulo ``q_i``, ``m`` and
    ``qmod`` from :func:`_radix_constants`. The one digit loop of :func:`_garner` and
    :func:`_limbs`. Every reduction is Barrett's (no division): its argument is below 2⁶³, a
    product of two residues (primes below 2²⁹) plus one residue, or a residue below ``2·q_i``."""
    nprimes = q.shape[0]
    digits[0] = residues[0, r, c]
    for i in range(1, nprimes):
        qi = q[i]
        mi = m[i]
        v = reduce(digits[i - 1], qi, mi)
        for j in range(i - 2, -1, -1):
            v = reduce(v * qmod[i, j] + digits[j], qi, mi)
        digits[i] = reduce(reduce(residues[i, r, c] - v + qi, qi, mi) * inv[i], qi, mi)


# inlined into its callers by numba (its own IR, before LLVM): a call of a compiled function that
# takes arrays costs their reference counts and the call itself; inlined, Garner's digits of one
# numerator take 5 ns, not 33-57 ns
mixed_radix: Any = _jit(_mixed_radix, inline="always")


def _garner(residues: Any, q: Any, inv: Any) -> Any:  # pragma: no cover - compiled
    """The mixed-radix digits of :meth:`DealerTable._reconstruct`, two to a limb: axes (limb,
    row, column), each limb below 2⁵⁸ (``digit + q_i · digit'``)."""
    nprimes, rows, cols = residues.shape
    nlimbs = (nprimes + 1) // 2
    out = np.zeros((nlimbs, rows, cols), dtype=np.int64)
    digits = np.empty(nprimes, dtype=np.int64)
    m, qmod = radix_constants(q)
    for r in range(rows):
        for c in range(cols):
            mixed_radix(residues, r, c, q, inv, m, qmod, digits)
            for k in range(nlimbs):
                limb = digits[2 * k]
                if 2 * k + 1 < nprimes:
                    limb += q[2 * k] * digits[2 * k + 1]
                out[k, r, c] = limb
    return out


def _reduce_wide(a: Any, q: Any, m: Any) -> Any:  # pragma: no cover - compiled
    """``a mod q`` for ``0 ≤ a < 2⁶³`` (uint64), ``m = ⌊2⁶⁴/q⌋``, ``q > 2²⁸``: Barrett's reduction
    (:data:`REDUCTION`) with its high product from four 32 × 32 → 64 products and its remainder
    modulo 2³² (:data:`LANE_SUM`'s), so that a loop of them over an array is vectorised."""
    low = np.uint64(0xFFFFFFFF)
    a0, a1, m0, m1 = a & low, a >> np.uint64(32), m & low, m >> np.uint64(32)
    mid = a1 * m0 + a0 * m1 + ((a0 * m0) >> np.uint64(32))
    t = a1 * m1 + (mid >> np.uint64(32))
    r = (a - (t & low) * (q & low)) & low
    return r if r < q else r - q


reduce_wide: Any = _jit(_reduce_wide, inline="always")


def _limbs(residues: Any, q: Any, inv: Any, columns: Any, scale: float, limbs: Any, prob: Any,
           at: int) -> int:  # pragma: no cover - compiled
    """The integers of ``residues`` (axes: prime, row, group) written as little-endian 32-bit
    limbs into ``limbs[at + row, columns[group], :]`` and as floats times ``scale`` into
    ``prob[at + row, columns[group]]`` (the other columns left as they are); returns 0, or -1 if
    an integer outgrew the limbs (the caller's bound broken; nothing written).

    Garner's mixed-radix digits ``d_i`` (below ``q_i``), then Horner from the last digit,
    ``X = X·q_i + d_i``, in the limbs: a limb times a prime is below 2⁶¹ and the carry below 2³²,
    so every step stays in uint64; every partial ``X`` is at most the final one, so the limbs
    that hold the final integer hold each step. The float is Horner over the limbs from the top
    (each ``·2³²`` exact, one rounding per addition), then one rounding for ``scale``. Each step
    is one loop over all the integers (axes: digit or limb, integer), which numba vectorises:
    ~37 ns → ~12 ns an integer (3 primes)."""
    nprimes, rows, groups = residues.shape
    n = rows * groups
    width = limbs.shape[2]
    flat = residues.reshape((nprimes, n))
    low = np.uint64(0xFFFFFFFF)
    m, qmod = radix_constants(q)
    digits = np.empty((nprimes, n), dtype=np.uint64)
    v = np.empty(n, dtype=np.uint64)
    for k in range(n):
        digits[0, k] = np.uint64(flat[0, k])
    for i in range(1, nprimes):  # Garner's digits (_mixed_radix's, each bound the same)
        qi, mi, inv_i = np.uint64(q[i]), m[i], np.uint64(inv[i])
        for k in range(n):
            v[k] = reduce_wide(digits[i - 1, k], qi, mi)
        for j in range(i - 2, -1, -1):
            c = np.uint64(qmod[i, j])
            for k in range(n):
                v[k] = reduce_wide(v[k] * c + digits[j, k], qi, mi)
        for k in range(n):
            digits[i, k] = reduce_wide(reduce_wide(np.uint64(flat[i, k]) + qi - v[k], qi, mi) * inv_i, qi, mi)
    acc = np.zeros((width, n), dtype=np.uint64)
    for k in range(n):
        acc[0, k] = digits[nprimes - 1, k]
    failed = np.uint64(0)
    for i in range(nprimes - 2, -1, -1):  # Horner: X = X·q_i + d_i, limb by limb
        qi = np.uint64(q[i])
        for k in range(n):
            v[k] = digits[i, k]  # the carry
        for w in range(width):
            for k in range(n):
                t = (acc[w, k] & low) * qi + v[k]
                acc[w, k] = t & low
                v[k] = t >> np.uint64(32)
        for k in range(n):
            failed |= v[k]
    if failed != 0:
        return -1
    f = np.zeros(n, dtype=np.float64)
    for w in range(width - 1, -1, -1):
        for k in range(n):
            f[k] = f[k] * 4294967296.0 + float(acc[w, k])
    for r in range(rows):
        for g in range(groups):
            k = r * groups + g
            c = columns[g]
            for w in range(width):
                limbs[at + r, c, w] = np.uint32(acc[w, k])
            prob[at + r, c] = f[k] * scale
    return 0


contract: Any = _jit(_contract)
garner: Any = _jit(_garner)
limbs: Any = _jit(_limbs)


def _batch(orders: Any, ks: Any, lengths: Any, xa: Any, bounds: Any, cols: Any, sizes: Any, nsums: Any, runs: Any,
           terms: Any, targets: Any, outs: Any, factors: Any, q: Any, col: int, e0: Any, e1: Any, inv: Any,
           columns: Any, scales: Any, store: Any, prob: Any, at: int) -> int:  # pragma: no cover - compiled
    """A whole request of :meth:`DealerTable._compute` in one call: per group ``g`` of rows of one
    size (``bounds[g] .. bounds[g + 1]`` of ``xa``), its contraction (:func:`contract`, with
    ``lengths[g]``), its sum check (:func:`sums_hold`, with ``e0[g]``, ``e1[g]``) and its limbs and
    probabilities (:func:`limbs`, with ``scales[g]``, into the rows from ``at + bounds[g]``), the
    groups in order, as the numpy path takes them. Returns 0; 1 when a group's sums fail the
    check (the shoe ran out of cards), 2 when a numerator outgrew the limbs (rows of the groups
    before are written). One call, not three per size (339 × 3 calls of the 8-deck game: their
    dispatch and the Python around them)."""
    for g in range(bounds.shape[0] - 1):
        rows = xa[bounds[g]:bounds[g + 1]]
        residues = contract(orders, ks, lengths[g], rows, cols, sizes, nsums, runs, terms, targets, outs, factors, q)
        if not sums_hold(residues, rows, col, e0[g], e1[g], q):
            return 1
        if limbs(residues, q, inv, columns, scales[g], store, prob, at + bounds[g]) != 0:
            return 2
    return 0


batch: Any = _jit(_batch)


def _find_rows(removed: Any, radix: Any, most: Any, codes: Any, at: Any, out: Any) -> int:  # pragma: no cover
    """:meth:`DealerTable.rows_of`'s search in one pass: for each row of ``removed`` its code
    ``Σ x_v · radix[v]`` (int64: the caller's codes fit), found by bisection in the sorted
    ``codes``, and its row ``at[j]`` into ``out`` (-1 where not found). Returns the number not
    found, or -1 at once for a count below 0 or above ``most[v]`` (the shoe's: no code of a
    multiset out of range is formed, none can alias another's)."""
    m = codes.shape[0]
    missing = 0
    for i in range(removed.shape[0]):
        code = 0
        for v in range(removed.shape[1]):
            x = removed[i, v]
            if x < 0 or x > most[v]:
                return -1
            code += x * radix[v]
        lo, hi = 0, m
        while lo < hi:
            mid = (lo + hi) >> 1
            if codes[mid] < code:
                lo = mid + 1
            else:
                hi = mid
        if lo < m and codes[lo] == code:
            out[i] = at[lo]
        else:
            out[i] = -1
            missing += 1
    return missing


find_rows: Any = _jit(_find_rows)


def _decode(codes: Any, sizes: Any) -> Any:  # pragma: no cover - compiled
    """The digits of the mixed-radix ``codes`` (non-negative int64), last digit of base
    ``sizes[-1]`` first: :meth:`DealerTable._decode` in one pass, each quotient by Barrett's
    multiply, not a division (:data:`REDUCTION`: with ``m = ⌊(2⁶⁴ − 1)/s⌋`` the high word of
    ``a·m`` is ``⌊a/s⌋`` or one less for any ``s ≥ 1`` and ``a < 2⁶⁴``; one correction)."""
    n, width = codes.shape[0], sizes.shape[0]
    out = np.empty((n, width), dtype=np.int64)
    m = np.empty(width, dtype=np.uint64)
    for v in range(width):
        m[v] = np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(sizes[v])
    for i in range(n):
        left = np.uint64(codes[i])
        for v in range(width - 1, -1, -1):
            base = np.uint64(sizes[v])
            rest = _mulhi(left, m[v])
            digit = left - rest * base
            if digit >= base:
                digit -= base
                rest += np.uint64(1)
            out[i, v] = np.int64(digit)
            left = rest
    return out


decode: Any = _jit(_decode)


def _by_size(xa: Any) -> tuple[Any, Any, Any, Any]:  # pragma: no cover - compiled
    """The rows of ``xa`` (non-negative counts) grouped by their sums, ascending, each group in
    the rows' order (a stable counting sort: :meth:`DealerTable._compute`'s ``argsort``, row sums
    and copy in two passes): the rows so ordered, where each came from, where each group starts
    (and the end), and each group's sum."""
    n, width = xa.shape
    sizes = np.empty(n, dtype=np.int64)
    most = 0
    for i in range(n):
        s = 0
        for v in range(width):
            s += xa[i, v]
        sizes[i] = s
        most = max(most, s)
    at = np.zeros(most + 2, dtype=np.int64)
    for i in range(n):
        at[sizes[i] + 1] += 1
    groups = 0
    for s in range(most + 1):
        groups += at[s + 1] > 0
        at[s + 1] += at[s]
    bounds = np.empty(groups + 1, dtype=np.int64)
    group_sizes = np.empty(groups, dtype=np.int64)
    g = 0
    for s in range(most + 1):
        if at[s + 1] > at[s]:
            bounds[g], group_sizes[g] = at[s], s
            g += 1
    bounds[groups] = n
    order = np.empty(n, dtype=np.int64)
    out = np.empty((n, width), dtype=np.int64)
    for i in range(n):
        k = at[sizes[i]]
        at[sizes[i]] = k + 1
        order[k] = i
        for v in range(width):
            out[k, v] = xa[i, v]
    return out, order, bounds, group_sizes


by_size: Any = _jit(_by_size)

__all__ = ["LANES", "batch", "by_size", "contract", "decode", "find_rows", "garner", "limbs", "reduce", "reduce_wide",
           "starts", "sums_hold"]
