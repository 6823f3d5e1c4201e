"""The numba loops of the compiled hand solver (:mod:`exactodds.blackjack.compiled`): the reach of
a plan over the flat node graph, the node values of a plan in residues (with the float pass that
proposes composition-dependent decisions), and the Chinese-remainder reconstruction.

Imported only when numba (the ``fast`` extra) is installed; :mod:`exactodds.blackjack.compiled`
holds the plans and the float margin's proof, :mod:`exactodds.blackjack.solver_residues` the
primes, the bounds and their proof, :mod:`exactodds.blackjack.node_graph` the graph; this module
only the loops.
Numba's on-disk cache is used where the process may write it, else the loops are compiled in
memory (the project's one rule for it, :func:`exactodds.engine.kernel._jit`).

Integer bounds (int64): every residue is below a prime ``q < 2²⁹``; a card count, and the cards
left ``n``, are below 2²⁰ (:class:`~exactodds.blackjack.compiled.CompiledSolver` checks the shoe).
A draw adds at most ten products ``count · residue`` (each below 2⁴⁹) and takes off its busting
draws ``x = 2·bet·lost`` (``lost ≤ n(n−1) < 2⁴⁰``, ``bet ≤ 16``: ``x < 2⁴⁵``) as its low 20 bits
times a factorial's residue and the rest (below 2²⁵) times ``2²⁰`` times it: below 2⁵⁵ in all
before its one reduction. A stand's signed combination of six 32-bit limbs with coefficients of size at most 96
stays below 2⁴², taken as two 21-bit halves times ``2^(32·j)·s`` and ``2^(32·j+21)·s`` modulo the
prime (``s`` the scale of ``n`` cards left, folded into the weights once per call: products below
2⁵⁰, at most 32 of them summed before the one reduction). Garner's and the chart's sums: below.
A reduction is :func:`_mod`'s (a float quotient corrected, no division, no branch), exact for
every ``|x| < 2⁶²``.

Speed: the loops over the primes are innermost and branch-free (the compiler vectorises them);
the helpers the node loop calls take scalars only (an array passed per node cost two atomic
reference counts each: half the loop's time, measured); the stands and rescues, which no decision
changes, are valued in passes of their own before the nodes.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from exactodds.engine.kernel import _jit

STAND, HIT, DOUBLE, RESCUE, REDOUBLE = 0, 1, 2, 3, 4
"""Action codes (:data:`exactodds.blackjack.compiled.ACTIONS`)."""


@_jit
def reach(roots: Any, valued: Any, opens: Any, nopen: Any, kid0: Any, kidd: Any, hands: Any, hard: Any,
          base: Any, reached: Any) -> None:  # pragma: no cover (compiled)
    """Mark in ``reached`` every node the plan visits from ``roots``: nodes are in topological
    order (more cards first), so a walk from the last node to the first sees a parent before its
    children; a child is visited when a valued hit/double/redouble draws a card the shoe holds."""
    n_nodes = len(roots)
    for k in range(n_nodes):
        reached[k] = roots[k]
    for k in range(n_nodes - 1, -1, -1):
        if not reached[k]:
            continue
        ok = True
        for v in range(10):
            if hands[k, v] > base[v]:
                ok = False
        if not ok:
            reached[k] = 0
            continue
        room = 21 - hard[k]
        top = room if room < 10 else 10
        for s in range(nopen[k]):
            if not valued[k, s]:
                continue
            code = opens[k, s]
            if code == HIT or code == DOUBLE or code == REDOUBLE:
                for i in range(top):
                    if base[i] - hands[k, i] > 0:
                        # (no array variable chosen per node: each such choice costs reference counts)
                        child = kid0[k, i] if code == HIT else kidd[k, i]
                        if child >= 0:
                            reached[child] = 1


@_jit
def walk(roots: Any, valued: Any, opens: Any, nopen: Any, kid0: Any, kidd: Any, hands: Any, hard: Any,
         base: Any, offset: Any, reached: Any, at: Any, stands: Any, removed: Any) -> Any:  # pragma: no cover
    """:func:`reach`, then the reached nodes ascending (``at``), those of them that value standing
    (``stands``) and the dealer's removed multiset of each (``removed``: ``offset + hand``, the
    table's ``B − x`` being the cards the hand leaves); returns how many of each (one call where
    numpy took six array operations a solver)."""
    reach(roots, valued, opens, nopen, kid0, kidd, hands, hard, base, reached)
    m = 0
    s = 0
    for k in range(len(reached)):
        if reached[k]:
            at[m] = k
            m += 1
            if valued[k, 0]:
                stands[s] = k
                for v in range(10):
                    removed[s, v] = hands[k, v] + offset[v]
                s += 1
    return m, s


@partial(_jit, inline="always")
def _mod(x: int, q: int, qinv: float) -> int:  # pragma: no cover (compiled)
    """``x mod q`` (``|x| < 2⁶²``, ``2²⁸ < q < 2²⁹``, ``qinv`` the float of ``1/q``) without a division:
    the float quotient ``x·qinv`` (three roundings: relative error below 2⁻⁵¹) of a quotient below
    2³⁴ is within 2⁻¹⁷ of ``x/q``, so its truncation ``t`` is within one of the truncated quotient and
    ``r = x − t·q`` (no overflow: ``|t·q| ≤ |x| + q``) is within ``(−2q, 2q)``: ``q`` added twice where
    negative (``r >> 63`` is −1 then, 0 else) brings it into ``[0, 2q)``, ``q`` taken once where not
    below it into ``[0, q)``. No branch, so that the loops over the primes vectorise; inlined where
    used (a call per residue cost more than the reduction). The primes are the largest below 2²⁹
    (:func:`~exactodds.blackjack.dealer.primes_above`; the solver checks each is above 2²⁸)."""
    t = int(x * qinv)
    r = x - t * q
    r += q & (r >> 63)
    r += q & (r >> 63)
    r -= q & ~((r - q) >> 63)
    return r


@_jit
def _stands(at: Any, valued: Any, opens: Any, coef: Any, drow: Any, limbs: Any, lpn: Any, nlo: int, dprob: Any,
            base: Any, hands: Any, primes: Any, qinv: Any, tot: Any, act: Any, actf: Any,
            floats: bool) -> None:  # pragma: no cover (compiled)
    """Standing at every reached node (``at``) that values it (slot 0): the dealer's outcomes against the
    hand's pays, independent of any decision, so in one pass before the nodes. The float only with
    ``floats`` (a plan that decides every node reads none, and skips a row of reads). ``lpn[n − nlo,
    h, j]``: the weights of the limb combination's 21-bit halves times the scale of ``n`` cards left
    (module doc), so one reduction per prime."""
    n_primes = len(primes)
    width = limbs.shape[2]
    for k in at:
        if not valued[k, 0] or opens[k, 0] != STAND:
            continue
        n = 0
        for v in range(10):
            n += base[v] - hands[k, v]
        r = drow[k]
        fsum = 0.0
        if floats:
            for o in range(6):
                fsum += coef[k, o] * dprob[r, o]
        actf[k, 0] = fsum / 2.0
        for p in range(n_primes):
            tot[p] = 0
        i = n - nlo
        for j in range(width):  # the combination, limb by limb (signed, below 2⁴²), as 21-bit halves
            c = 0
            for o in range(6):
                c += coef[k, o] * np.int64(limbs[r, o, j])
            lo = c & 0x1FFFFF
            hi = c >> 21  # (floor: |c >> 21| < 2²¹, and c = (c >> 21)·2²¹ + (c & (2²¹ − 1)))
            for p in range(n_primes):  # each product below 2⁵⁰, at most 32 of them: below 2⁵⁵
                tot[p] += lo * lpn[i, 0, j, p] + hi * lpn[i, 1, j, p]
        for p in range(n_primes):
            act[k, 0, p] = _mod(tot[p], primes[p], qinv[p])


@_jit
def _rescues(at: Any, valued: Any, opens: Any, nopen: Any, hands: Any, base: Any, resc: Any, fac: Any,
             primes: Any, up: int, floor: int, act: Any, actf: Any) -> int:  # pragma: no cover (compiled)
    """Every rescue of the reached nodes ``at`` (§ 551.11(d)), independent of any decision: 0, or -2 below the
    denominator floor."""
    for k in at:
        for s in range(nopen[k]):
            if not valued[k, s] or opens[k, s] != RESCUE:
                continue
            n = 0
            for v in range(10):
                n += base[v] - hands[k, v]
            if n - 1 < floor:
                return -2
            clear = n - (base[9] - hands[k, 9]) if up == 1 else n - (base[0] - hands[k, 0]) if up == 10 else n
            actf[k, s] = resc[k] * (clear / n if up == 1 or up == 10 else 1.0) / 2.0
            for p in range(len(primes)):
                q = primes[p]
                if up == 1 or up == 10:
                    nb = clear % q * fac[n - 1 - floor, p] % q
                else:
                    nb = fac[n - floor, p]
                act[k, s, p] = (resc[k] % q) * nb % q
    return 0


@partial(_jit, inline="always")
def _choose(fixed: int, m: int, exact: int, v0: int, v1: int, v2: int, f0: float, f1: float, f2: float,
            margin: float, o0: int, o1: int, o2: int) -> tuple[int, int, int, int]:  # pragma: no cover
    """The slot a node takes and its order of the valued slots (``v``), best first (-1 padded): the
    fixed slot, the only one valued, the order already decided exactly (``exact``: ``o``), or by
    the floats ``f`` (first listed on equal floats), the slot -1 when two consecutive ones are
    within ``margin`` (the caller decides exactly). Scalars only: an array argument would cost a
    reference count per node."""
    if fixed >= 0 or m == 1:
        choice = 0 if v0 else 1 if v1 else 2
        choice = fixed if m > 1 else choice
        return choice, choice, -1, -1
    if exact:
        return o0, o0, o1, o2
    a = 0 if v0 else 1 if v1 else 2  # the valued slots in order (m is 2 or 3)
    b = 1 if v0 and v1 else 2
    c = 2 if m == 3 else -1
    fs = (f0, f1, f2)
    if fs[b] > fs[a]:
        a, b = b, a
    if c >= 0 and fs[c] > fs[b]:
        b, c = c, b
        if fs[b] > fs[a]:
            a, b = b, a
    proven = fs[a] - fs[b] > margin and (c < 0 or fs[b] - fs[c] > margin)
    return (a if proven else -1), a, b, c


@_jit
def _nodes(start: int, at: Any, valued: Any, fixed: Any, exact: Any, order: Any, opens: Any, nopen: Any,
           kid0: Any, kidd: Any, hands: Any, hard: Any, dbl: Any, fac: Any, fac2: Any, primes: Any, qinv: Any,
           base: Any, up: int, floor: int, margin: float, rem: Any, acc: Any, val: Any, valf: Any, act: Any,
           actf: Any) -> int:  # pragma: no cover (compiled)
    """The nodes from ``start`` on, children first (the stands and rescues valued before): each
    hit, double or redouble from the children's values, a busting card lost on the spot unless
    the dealer has Blackjack (§ 551.8(e)); then the action taken (:func:`_choose`). :func:`evaluate`
    says what it returns."""
    n_primes = len(primes)
    for k in at:
        if k < start:
            continue
        n = 0
        for v in range(10):
            rem[v] = base[v] - hands[k, v]
            n += rem[v]
        room = 21 - hard[k]
        for s in range(nopen[k]):
            code = opens[k, s]
            if not valued[k, s] or code == STAND or code == RESCUE:
                continue
            hit = code == HIT
            bet = 1 if hit else 2 << dbl[k]
            for p in range(n_primes):
                acc[p] = 0
            fsum = 0.0
            for i in range(min(room, 10)):
                c = rem[i]
                if c > 0:
                    child = kid0[k, i] if hit else kidd[k, i]
                    fsum += c * valf[child]
                    for p in range(n_primes):  # a count below 2²⁰ (the caller checks): products below 2⁴⁹
                        acc[p] += c * val[child, p]
            fv = fsum / n
            x = fr = 0  # the busting draws, lost (over n·(n−1) with a peeking up card, else n)
            if room < 10:
                n1 = n - 1
                busting = 0
                for i in range(room, 10):
                    busting += rem[i]
                peek = up == 1 or up == 10
                fr = n1 - 1 - floor if peek else n1 - floor
                if fr < 0:
                    return -2
                lost = busting
                if up == 1:
                    lost = busting * (n1 - rem[9]) + rem[9]
                elif up == 10:
                    lost = busting * (n1 - rem[0]) + (rem[0] if room == 0 else 0)
                fv -= bet * (lost / (n * n1)) if peek else bet * (lost / n)
                x = 2 * bet * lost  # (below 2⁴⁵) in 20-bit halves: products below 2⁵⁴
            for p in range(n_primes):
                act[k, s, p] = _mod(acc[p] - (x & 0xFFFFF) * fac[fr, p] - (x >> 20) * fac2[fr, p], primes[p], qinv[p])
            actf[k, s] = fv
        m = valued[k, 0] + valued[k, 1] + valued[k, 2]
        choice, order[k, 0], order[k, 1], order[k, 2] = _choose(
            fixed[k], m, exact[k], valued[k, 0], valued[k, 1], valued[k, 2], actf[k, 0], actf[k, 1], actf[k, 2], margin,
            order[k, 0], order[k, 1], order[k, 2])
        if choice < 0:
            return int(k)
        valf[k] = actf[k, choice]
        for p in range(n_primes):
            val[k, p] = act[k, choice, p]
    return -1


@_jit
def evaluate(start: int, at: Any, valued: Any, fixed: Any, exact: Any, order: Any, opens: Any, nopen: Any,
             kid0: Any, kidd: Any, hands: Any, hard: Any, dbl: Any, coef: Any, resc: Any, drow: Any, limbs: Any,
             lpow: Any, dprob: Any, scale_q: Any, fac: Any, primes: Any, base: Any, up: int, floor: int,
             margin: float, val: Any, valf: Any, act: Any, actf: Any, floats: bool) -> int:  # pragma: no cover
    """The values of the reached nodes (``at``, ascending) from node ``start`` on (the plan fixed where ``fixed >= 0``,
    else the best action), in residues (``val``, ``act``) and in floats (``valf``, ``actf``; the
    stands' floats zero unless ``floats``: only for a plan that leaves a node undecided).

    Returns -1 when done, ``k`` when node ``k``'s best action is not proven by the floats (two
    candidates within ``margin``): the caller compares them exactly, writes ``order[k]`` and
    ``exact[k] = 1`` and calls again from ``k`` (the stands and rescues, valued in the first
    call, are kept); -2 when a composition falls below the denominator floor (a shoe too small
    for the shared denominators).
    """
    n_primes = len(primes)
    qinv = np.empty(n_primes)
    for p in range(n_primes):
        qinv[p] = 1.0 / primes[p]
    size = 0
    for v in range(10):
        size += base[v]
    nlo = max(size - 21, 0)  # (a hand holds at most 21 cards: n ≥ size − 21)
    width = limbs.shape[2]
    lpn = np.zeros((size - nlo + 1, 2, width, n_primes), np.int64)  # limb weights times the scale of n
    for i in range(size - nlo + 1):
        if scale_q[nlo + i, 0] >= 0:  # (an n the dealer's table computed)
            for h in range(2):
                for j in range(width):
                    for p in range(n_primes):
                        lpn[i, h, j, p] = _mod(lpow[h, j, p] * scale_q[nlo + i, p], primes[p], qinv[p])
    fac2 = np.empty_like(fac)  # 2²⁰ times the factorials: a bust term's high half
    for i in range(fac.shape[0]):
        for p in range(n_primes):
            fac2[i, p] = _mod(fac[i, p] << 20, primes[p], qinv[p])
    acc = np.zeros(n_primes, np.int64)
    if start == 0:
        _stands(at, valued, opens, coef, drow, limbs, lpn, nlo, dprob, base, hands, primes, qinv, acc, act, actf,
                floats)
        if _rescues(at, valued, opens, nopen, hands, base, resc, fac, primes, up, floor, act, actf) < 0:
            return -2
    done: int = _nodes(start, at, valued, fixed, exact, order, opens, nopen, kid0, kidd, hands, hard, dbl, fac,
                       fac2, primes, qinv, base, up, floor, margin, np.zeros(10, np.int64), acc, val, valf, act, actf)
    return done


@_jit
def reconstruct(res: Any, offset: Any, primes: Any, garner: Any, radix: Any, out: Any) -> None:  # pragma: no cover
    """``out[r]``: the little-endian 32-bit limbs of the integer ``X`` in ``[0, Πq)`` with
    ``X ≡ res[r] + offset`` modulo each prime (Garner's mixed radix, then Horner in limbs).
    ``radix[j, i]`` is ``q_0 ⋯ q_(j−1)`` modulo ``q_i``: the digits so far valued modulo ``q_i`` as
    one sum of products (each below 2⁵⁸, reduced every 15 terms: below 2⁶²), not a chain of reductions."""
    n_primes = len(primes)
    digits = np.zeros(n_primes, np.int64)
    qinv = np.empty(n_primes)
    for i in range(n_primes):
        qinv[i] = 1.0 / primes[i]
    width = out.shape[1]
    for r in range(res.shape[0]):
        for i in range(n_primes):
            q = primes[i]
            qi = qinv[i]
            v = 0
            for j in range(i):
                v += digits[j] * radix[j, i]
                if j % 15 == 14:
                    v = _mod(v, q, qi)
            x = _mod(res[r, i] + offset[i], q, qi)
            digits[i] = _mod(_mod(x - _mod(v, q, qi), q, qi) * garner[i], q, qi)
        for w in range(width):
            out[r, w] = 0
        out[r, 0] = digits[n_primes - 1]
        used = 1
        for i in range(n_primes - 2, -1, -1):  # X = X·q_i + d_i: limbs below 2³², products below 2⁶¹
            carry = digits[i]
            for w in range(used):
                t = out[r, w] * primes[i] + carry
                out[r, w] = t & 0xFFFFFFFF
                carry = t >> 32
            while carry:  # (the number grows by at most 29 bits a step: a limb or two more)
                out[r, used] = carry & 0xFFFFFFFF
                carry >>= 32
                used += 1


@_jit
def collect(at: Any, retain: Any, twos: Any, val: Any, act: Any, offset: Any, primes: Any, garner: Any, radix: Any,
            vals: Any, kept: Any, out: Any) -> None:  # pragma: no cover (compiled)
    """What an evaluation keeps, out of the reused working arrays in one call: the values of the
    reached nodes ``at`` (``vals``) and the actions of the retained nodes (``kept``), as 32-bit
    words (residues below 2²⁹), and the values of the nodes ``twos`` reconstructed (``out``:
    :func:`reconstruct` of the residues plus ``offset``)."""
    n_primes = len(primes)
    for i in range(len(at)):
        for p in range(n_primes):
            vals[i, p] = val[at[i], p]
    for i in range(len(retain)):
        for s in range(3):
            for p in range(n_primes):
                kept[i, s, p] = act[retain[i], s, p]
    rows = np.empty((len(twos), n_primes), np.int64)
    for i in range(len(twos)):
        for p in range(n_primes):
            rows[i, p] = val[twos[i], p]
    reconstruct(rows, offset, primes, garner, radix, out)


@_jit
def class_sums(hands: Any, rows: Any, groups: Any, table: Any, primes: Any, out: Any) -> None:  # pragma: no cover
    """``out[g]``: ``Σ ways · numerator`` modulo each prime over the (node, slot) pairs of group
    ``g`` (``groups[i, s]``, -1: not summed), node ``i``'s hand ``hands[i]`` and action residues
    ``rows[i, s]``. ``ways`` (the ordered draws giving the hand) is the product over its values
    ``v`` held of ``table[v, cards of value ≥ v, count]`` (a binomial of the multinomial times
    ``ff(base_v, count)``). Each product is reduced before it is added: sums below 2²⁹ · nodes."""
    n_primes = len(primes)
    w = np.empty(n_primes, np.int64)
    qinv = np.empty(n_primes)
    for p in range(n_primes):
        qinv[p] = 1.0 / primes[p]
    for i in range(hands.shape[0]):
        for p in range(n_primes):
            w[p] = 1
        left = 0
        for v in range(9, -1, -1):
            h = hands[i, v]
            left += h
            if h > 0:
                for p in range(n_primes):
                    w[p] = _mod(w[p] * table[v, left, h, p], primes[p], qinv[p])
        for s in range(3):
            g = groups[i, s]
            if g >= 0:
                for p in range(n_primes):
                    out[g, p] += _mod(w[p] * np.int64(rows[i, s, p]), primes[p], qinv[p])
    for g in range(out.shape[0]):
        for p in range(n_primes):
            out[g, p] %= primes[p]
