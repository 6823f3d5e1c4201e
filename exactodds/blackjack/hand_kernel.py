"""The numba loops of the compiled hand solver (:mod:`exactodds.blackjack.compiled`): the reach of
a plan over the flat node graph, the node values of a plan in residues (with the float pass that
proposes composition-dependent decisions), and the Chinese-remainder reconstruction.

Imported only when numba (the ``fast`` extra) is installed; :mod:`exactodds.blackjack.compiled`
holds the plans and the float margin's proof, :mod:`exactodds.blackjack.solver_residues` the
primes, the bounds and their proof, :mod:`exactodds.blackjack.node_graph` the graph; this module
only the loops.
Numba's on-disk cache is used where the process may write it, else the loops are compiled in
memory (the project's one rule for it, :func:`exactodds.engine.kernel._jit`).

Integer bounds (int64): every residue is below a prime ``q < 2²⁹``; a product of two residues is
below 2⁵⁸ and each loop adds at most 16 such products before reducing (the ten card values of a
draw; the at most 16 limbs of a dealer numerator), so a sum stays below 2⁶²; a card count is
below every prime (:class:`~exactodds.blackjack.compiled.CompiledSolver` checks the shoe); a
stand's signed combination of six 32-bit limbs with coefficients of size at most 96 stays below 2⁴²,
taken as two 21-bit halves times ``2^(32·j)`` and ``2^(32·j+21)`` modulo the prime (products below
2⁵⁰, at most 32 of them summed before the one reduction).
A reduction in the value loops is :func:`_mod`'s (a float quotient corrected, no division: the
loops spent most of their time dividing), exact for every ``|x| < 2⁶²``.
"""

from __future__ import annotations

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
                kids = kid0 if code == HIT else kidd
                for i in range(top):
                    if base[i] - hands[k, i] > 0:
                        child = kids[k, i]
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


@_jit
def _mod(x: int, q: int, qinv: float) -> int:  # pragma: no cover (compiled)
    """``x mod q`` (``|x| < 2⁶²``, ``2²⁸ < q < 2²⁹``, ``qinv`` the float of ``1/q``) without a division:
    the float quotient ``x·qinv`` (three roundings: relative error below 2⁻⁵¹) of a quotient below
    2³⁴ is within 2⁻¹⁷ of ``x/q``, so its truncation ``t`` is within one of the truncated quotient and
    ``x − t·q`` (no overflow: ``|t·q| ≤ |x| + q``) is within ``(−2q, 2q)``, brought into ``[0, q)``.
    The primes are the largest below 2²⁹ (:func:`~exactodds.blackjack.dealer.primes_above`; the
    solver checks each is above 2²⁸)."""
    t = int(x * qinv)
    r = x - t * q
    if r < 0:
        r += q
        if r < 0:
            r += q
    elif r >= q:
        r -= q
        if r >= q:
            r -= q
    return r


@_jit
def _stand_value(k: int, s: int, n: int, drow: Any, coef: Any, dprob: Any, limbs: Any, lpow: Any, scale_q: Any,
                 primes: Any, qinv: Any, combo: Any, act: Any, actf: Any, floats: bool) -> None:  # pragma: no cover
    """Standing at node ``k`` (slot ``s``): the dealer's outcomes against the hand's pays (the float
    only with ``floats``: a plan that decides every node reads none, and skips a row of reads)."""
    r = drow[k]
    width = limbs.shape[2]
    fsum = 0.0
    if floats:
        for o in range(6):
            fsum += coef[k, o] * dprob[r, o]
    actf[k, s] = fsum / 2.0
    for j in range(width):  # the combination, limb by limb (signed, below 2⁴²), as 21-bit halves
        c = 0
        for o in range(6):
            c += coef[k, o] * np.int64(limbs[r, o, j])
        combo[0, j] = c & 0x1FFFFF
        combo[1, j] = c >> 21  # (floor: |c >> 21| < 2²¹, and c = (c >> 21)·2²¹ + (c & (2²¹ − 1)))
    for p in range(len(primes)):
        q = primes[p]
        qi = qinv[p]
        total = 0
        for j in range(width):  # each product below 2⁵⁰, at most 32 of them: below 2⁵⁵, one reduction
            total += combo[0, j] * lpow[0, j, p] + combo[1, j] * lpow[1, j, p]
        act[k, s, p] = _mod(_mod(total, q, qi) * scale_q[n, p], q, qi)


@_jit
def _rescue_value(k: int, s: int, n: int, rem: Any, up: int, floor: int, resc: Any, fac: Any, primes: Any,
                  act: Any, actf: Any) -> int:  # pragma: no cover (compiled)
    """A rescue at node ``k`` (§ 551.11(d)): 0, or -2 below the denominator floor."""
    if n - 1 < floor:
        return -2
    if up == 1:
        clear = n - rem[9]
        fclear = clear / n
    elif up == 10:
        clear = n - rem[0]
        fclear = clear / n
    else:
        clear = n
        fclear = 1.0
    actf[k, s] = resc[k] * fclear / 2.0
    for p in range(len(primes)):
        q = primes[p]
        if up == 1 or up == 10:
            nb = clear % q * fac[n - 1 - floor, p] % q
        else:
            nb = fac[n - floor, p]
        act[k, s, p] = (resc[k] % q) * nb % q
    return 0


@_jit
def _draw_value(k: int, s: int, code: int, n: int, rem: Any, room: int, kid0: Any, kidd: Any, dbl: Any, valf: Any,
                val: Any, primes: Any, qinv: Any, up: int, floor: int, fac: Any, acc: Any, act: Any,
                actf: Any) -> int:  # pragma: no cover (compiled)
    """Hit, double or redouble at node ``k``: each card's child, a busting card lost on the spot
    (unless the dealer has Blackjack); 0, or -2 below the denominator floor."""
    n_primes = len(primes)
    top = room if room < 10 else 10
    kids = kid0 if code == HIT else kidd
    after = 0 if code == HIT else dbl[k] + 1
    bet = 1 << after
    for p in range(n_primes):
        acc[p] = 0
    fsum = 0.0
    for i in range(top):
        c = rem[i]
        if c > 0:
            child = kids[k, i]
            fsum += c * valf[child]
            for p in range(n_primes):  # a count is below every prime (the caller checks)
                acc[p] += c * val[child, p]
    fv = fsum / n
    if room < 10:
        n1 = n - 1
        busting = 0
        for i in range(room, 10):
            busting += rem[i]
        if up == 1 or up == 10:
            if n1 - 1 < floor:
                return -2
            if up == 1:
                lost = busting * (n1 - rem[9]) + rem[9]
            else:
                lost = busting * (n1 - rem[0]) + (rem[0] if room == 0 else 0)
            fv -= bet * (lost / (n * n1))
        else:
            if n1 < floor:
                return -2
            lost = busting
            fv -= bet * (lost / n)
        for p in range(n_primes):
            q = primes[p]
            qi = qinv[p]
            f = fac[n1 - 1 - floor, p] if (up == 1 or up == 10) else fac[n1 - floor, p]
            loss = _mod(_mod(2 * bet * lost, q, qi) * f, q, qi)  # (2·bet·lost below 2⁴⁰)
            acc[p] = _mod(acc[p] - loss, q, qi)
    else:
        for p in range(n_primes):
            acc[p] = _mod(acc[p], primes[p], qinv[p])
    actf[k, s] = fv
    for p in range(n_primes):
        act[k, s, p] = acc[p]
    return 0


@_jit
def _taken(k: int, m: int, valued: Any, fixed: Any, exact: Any, order: Any, nopen: Any, margin: float,
           actf: Any) -> int:  # pragma: no cover (compiled)
    """The slot of the action taken at node ``k`` (``m`` slots valued), or -1 when the floats do
    not prove the best (two candidates within ``margin``: the caller decides exactly)."""
    if fixed[k] >= 0 or m == 1:
        choice = fixed[k]
        if m == 1:
            for s in range(nopen[k]):
                if valued[k, s]:
                    choice = s
        order[k, 0] = choice
        order[k, 1] = -1
        order[k, 2] = -1
        return int(choice)
    if exact[k]:
        return int(order[k, 0])
    # the valued slots by float value, best first (first listed on equal floats)
    cnt = 0
    for s in range(nopen[k]):
        if valued[k, s]:
            order[k, cnt] = s
            cnt += 1
    for a in range(1, cnt):
        b = a
        while b > 0 and actf[k, order[k, b]] > actf[k, order[k, b - 1]]:
            t = order[k, b]
            order[k, b] = order[k, b - 1]
            order[k, b - 1] = t
            b -= 1
    for a in range(cnt, 3):
        order[k, a] = -1
    for a in range(cnt - 1):
        if not actf[k, order[k, a]] - actf[k, order[k, a + 1]] > margin:
            return -1
    return int(order[k, 0])


@_jit
def evaluate(start: int, reached: Any, valued: Any, fixed: Any, exact: Any, order: Any, opens: Any, nopen: Any,
             kid0: Any, kidd: Any, hands: Any, hard: Any, dbl: Any, coef: Any, resc: Any, drow: Any, limbs: Any,
             lpow: Any, dprob: Any, scale_q: Any, fac: Any, primes: Any, base: Any, up: int, floor: int,
             margin: float, val: Any, valf: Any, act: Any, actf: Any, floats: bool) -> int:  # pragma: no cover
    """The values of the reached nodes from ``start`` on (the plan fixed where ``fixed >= 0``,
    else the best action), in residues (``val``, ``act``) and in floats (``valf``, ``actf``; the
    stands' floats zero unless ``floats``: only for a plan that leaves a node undecided).

    Returns -1 when done, ``k`` when node ``k``'s best action is not proven by the floats (two
    candidates within ``margin``): the caller compares them exactly, writes ``order[k]`` and
    ``exact[k] = 1`` and calls again from ``k``; -2 when a composition falls below the denominator
    floor (a shoe too small for the shared denominators).
    """
    n_primes = len(primes)
    rem = np.zeros(10, np.int64)
    acc = np.zeros(n_primes, np.int64)
    qinv = np.empty(n_primes)
    for p in range(n_primes):
        qinv[p] = 1.0 / primes[p]
    combo = np.zeros((2, limbs.shape[2]), np.int64)
    for k in range(start, len(reached)):
        if not reached[k]:
            continue
        n = 0
        for v in range(10):
            rem[v] = base[v] - hands[k, v]
            n += rem[v]
        m = 0
        for s in range(nopen[k]):
            if not valued[k, s]:
                continue
            m += 1
            code = opens[k, s]
            if code == STAND:
                _stand_value(k, s, n, drow, coef, dprob, limbs, lpow, scale_q, primes, qinv, combo, act, actf, floats)
            elif code == RESCUE:
                if _rescue_value(k, s, n, rem, up, floor, resc, fac, primes, act, actf) < 0:
                    return -2
            elif _draw_value(k, s, code, n, rem, 21 - hard[k], kid0, kidd, dbl, valf, val, primes, qinv, up, floor, fac,
                             acc, act, actf) < 0:
                return -2
        choice = _taken(k, m, valued, fixed, exact, order, nopen, margin, actf)
        if choice < 0:
            return k
        valf[k] = actf[k, choice]
        for p in range(n_primes):
            val[k, p] = act[k, choice, p]
    return -1


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
