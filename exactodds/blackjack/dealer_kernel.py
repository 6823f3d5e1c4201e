"""The compiled form of :class:`~exactodds.blackjack.dealer.DealerTable`'s two loops (numba; the
optional ``fast`` extra): the contraction of the dealer's compositions against the removed
multisets (:func:`contract`), Garner's mixed-radix reconstruction (:func:`garner`), and the
numerators' 32-bit limbs and float probabilities written straight from the residues (:func:`limbs`).

The same sums, in the same residues, as the numpy path, in another order. The numpy path sums
one value at a time for every distinct ``x``-tail at once (breadth first: a whole array per
level). Here the removed multisets are walked one row at a time (depth first): with the rows
sorted, a row shares the partial sums of the levels whose values it holds as many of as the row
before, and only the levels from the first value where it differs are summed again, into one
small buffer per level. So the only arrays are the output and ``levels × groups`` residues, and
every residue sum is one short loop of multiply-adds with one reduction at its end (below 2⁶³
by the bound of :mod:`~exactodds.blackjack.dealer`'s module doc: each product below 2⁵⁸, at most
:data:`~exactodds.blackjack.dealer.MOST_TERMS` of them). A group of one composition holding none
of the level's value (its factor ``ff(·, 0) = 1``; a third to a half of the groups, 8 decks) is a
copy, with neither product nor reduction.

Integer arithmetic only (int64, non-negative throughout; each reduction by Barrett's multiply,
:data:`REDUCTION`). Imported only by
:mod:`~exactodds.blackjack.dealer` when numba is installed and ``EXACTODDS_PURE`` is not set;
the tests hold both equal to the numpy path and to a direct dealer recursion.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import types
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


def _contract(w: Any, xa: Any, cols: Any, ng: Any, dv: Any, ps: Any, factors: Any, q: Any) -> Any:  # pragma: no cover - compiled
    """Residues ``(prime, row, group)`` of the sums of :meth:`DealerTable._residues`.

    ``w[p, c]``: composition ``c``'s weight mod prime ``p``; ``xa``: the removed multisets (rows,
    best sorted); per level ``l``: the value ``cols[l]`` summed out, the ``ng[l]`` groups it
    sums (their counts ``dv[l, :ng[l]]`` of that value), the groups of the next level as runs
    ``ps[l, g] .. ps[l, g + 1]`` of them, and ``factors[p, l, x, d] = ff(B_v − x, d) mod p``."""
    nprimes = q.shape[0]
    rows = xa.shape[0]
    nlevels = cols.shape[0]
    groups = ng[nlevels]
    out = np.empty((nprimes, rows, groups), dtype=np.int64)
    start = np.zeros(rows, dtype=np.int64)
    for i in range(1, rows):  # the first level whose value's count differs from the row before
        s = nlevels
        for level in range(nlevels):
            if xa[i, cols[level]] != xa[i - 1, cols[level]]:
                s = level
                break
        start[i] = s
    width = 0
    for level in range(nlevels + 1):
        width = max(width, ng[level])
    buf = np.empty((nlevels + 1, width), dtype=np.int64)
    for p in range(nprimes):
        qp = q[p]
        m = np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(qp)  # Barrett's constant (REDUCTION)
        for c in range(ng[0]):
            buf[0, c] = w[p, c]
        for i in range(rows):
            s = start[i] if i > 0 else 0
            if s == nlevels:
                for g in range(groups):
                    out[p, i, g] = out[p, i - 1, g]
                continue
            for level in range(s, nlevels):
                x = xa[i, cols[level]]
                for g in range(ng[level + 1]):
                    lo = ps[level, g]
                    if ps[level, g + 1] == lo + 1 and dv[level, lo] == 0:  # one child, factor ff(·, 0) = 1
                        buf[level + 1, g] = buf[level, lo]
                        continue
                    acc = 0
                    for c in range(lo, ps[level, g + 1]):
                        acc += factors[p, level, x, dv[level, c]] * buf[level, c]
                    buf[level + 1, g] = reduce(acc, qp, m)  # one reduction per sum (REDUCTION)
            for g in range(groups):
                out[p, i, g] = buf[nlevels, g]
    return out


def _mixed_radix(residues: Any, r: int, c: int, q: Any, inv: Any, digits: Any) -> None:  # pragma: no cover - compiled
    """Garner's mixed-radix digits of the integer whose residues are ``residues[:, r, c]`` into
    ``digits`` (each ``d_i`` below ``q_i``; the integer is ``Σ d_i · Π_{j<i} q_j``); ``inv[i]`` the
    inverse of ``Π_{j<i} q_j`` modulo ``q_i``. The one digit loop of :func:`_garner` and :func:`_limbs`."""
    nprimes = q.shape[0]
    digits[0] = residues[0, r, c]
    for i in range(1, nprimes):
        qi = q[i]
        v = digits[i - 1] % qi
        for j in range(i - 2, -1, -1):
            v = (v * (q[j] % qi) + digits[j]) % qi
        digits[i] = (residues[i, r, c] - v + qi) % qi * inv[i] % qi


mixed_radix: Any = _jit(_mixed_radix)


def _garner(residues: Any, q: Any, inv: Any) -> Any:  # pragma: no cover - compiled
    """The mixed-radix digits of :meth:`DealerTable._reconstruct`, two to a limb: axes (limb,
    row, column), each limb below 2⁵⁸ (``digit + q_i · digit'``)."""
    nprimes, rows, cols = residues.shape
    nlimbs = (nprimes + 1) // 2
    out = np.zeros((nlimbs, rows, cols), dtype=np.int64)
    digits = np.empty(nprimes, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            mixed_radix(residues, r, c, q, inv, digits)
            for k in range(nlimbs):
                limb = digits[2 * k]
                if 2 * k + 1 < nprimes:
                    limb += q[2 * k] * digits[2 * k + 1]
                out[k, r, c] = limb
    return out


def _limbs(residues: Any, q: Any, inv: Any, columns: Any, scale: float, limbs: Any, prob: Any,
           at: int) -> int:  # pragma: no cover - compiled
    """The integers of ``residues`` (axes: prime, row, group) written as little-endian 32-bit
    limbs into ``limbs[at + row, columns[group], :]`` and as floats times ``scale`` into
    ``prob[at + row, columns[group]]`` (the other columns left as they are); returns 0, or -1 if
    an integer outgrew the limbs (the caller's bound broken).

    Garner's mixed-radix digits ``d_i`` (below ``q_i``), then Horner from the last digit,
    ``X = X·q_i + d_i``, in the limbs: a limb times a prime is below 2⁶¹ and the carry below 2³²,
    so every step stays in uint64; every partial ``X`` is at most the final one, so the limbs
    that hold the final integer hold each step. The float is Horner over the limbs from the top
    (each ``·2³²`` exact, one rounding per addition), then one rounding for ``scale``."""
    nprimes, rows, groups = residues.shape
    width = limbs.shape[2]
    digits = np.empty(nprimes, dtype=np.int64)
    acc = np.empty(width, dtype=np.uint64)
    mask = np.uint64(0xFFFFFFFF)
    for r in range(rows):
        for g in range(groups):
            mixed_radix(residues, r, g, q, inv, digits)
            for w in range(width):
                acc[w] = 0
            acc[0] = np.uint64(digits[nprimes - 1])
            for i in range(nprimes - 2, -1, -1):
                qi = np.uint64(q[i])
                carry = np.uint64(digits[i])
                for w in range(width):
                    t = acc[w] * qi + carry
                    acc[w] = t & mask
                    carry = t >> np.uint64(32)
                if carry != 0:
                    return -1
            c = columns[g]
            f = 0.0
            for w in range(width - 1, -1, -1):
                limbs[at + r, c, w] = np.uint32(acc[w])
                f = f * 4294967296.0 + float(acc[w])
            prob[at + r, c] = f * scale
    return 0


contract: Any = _jit(_contract)
garner: Any = _jit(_garner)
limbs: Any = _jit(_limbs)

__all__ = ["contract", "garner", "limbs", "reduce"]
