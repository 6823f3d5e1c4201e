"""The compiled bookkeeping of the study's dealing and aggregation (numba; the optional
``fast`` extra).

:func:`bookkeeping` is, for a chunk dealt by the simulator's dealer
(:func:`exactodds.simulation.simulate.deal_shoes`), the same two arrays the numpy path of
:func:`exactodds.study.dealing.deal_chunk` derives with bincounts and cumulative
sums: the position of every round's first card and the composition before the round
(the shoe less its burn, § 629a.5(f), less the cards dealt in the shoe's earlier rounds).
One pass over the rounds, each array written once: the numpy path's
temporaries of ``(rounds, 52)`` were a fifth of the study's time beside the pricing. Integer
additions and subtractions of card counts only (int64: a count is at most the shoe's
cards). Imported only where the study deals, and only when numba is installed; the tests
hold it equal to the numpy path.

:func:`dense_group_sum` is :func:`exactodds.study.pricing.group_sum` for keys below a
small bound (cards left × bins, shoe × bins): one pass adding each row into its key's sums
instead of a sort and a gather; the same int64 additions (in another order: two's-complement
addition is associative, so the sums are the same); :func:`family_sums` does one family's
whole aggregation (rounds per bin, limb sums, per-shoe sums) in one such pass.

:func:`shuffled` deals each shoe exactly as ``numpy.random.default_rng([seed, i]).shuffle``
does (numpy's SeedSequence, PCG64 and Fisher-Yates, spelled out): building numpy's three
generator objects per shoe cost four times the shuffle itself. Unsigned integers only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.kernel import _jit


def _book(deck: Any, shoe: Any, faces: Any, used: Any, counts: Any, burn: Any,
          position: Any, composition: Any) -> None:  # pragma: no cover - compiled
    """Fill ``position`` and ``composition`` round by round (rows shoe-major)."""
    nf = counts.shape[0]
    left = np.empty(nf, np.int64)
    pos = 0
    for r in range(shoe.shape[0]):
        if r == 0 or shoe[r] != shoe[r - 1]:
            s = shoe[r]
            for f in range(nf):
                left[f] = counts[f]
            for j in range(burn[s]):
                left[deck[s, j]] -= 1
            pos = burn[s]
        position[r] = pos
        for f in range(nf):
            composition[r, f] = left[f]
        for j in range(used[r]):
            left[faces[r, j]] -= 1
        pos += used[r]


_book_c = _jit(_book)


def bookkeeping(deck: npt.NDArray[np.uint8], shoe: npt.NDArray[np.int64], faces: npt.NDArray[np.uint8],
                used: npt.NDArray[np.int64], counts: npt.NDArray[np.int64], burn: npt.NDArray[np.int64],
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per round (rows shoe-major): the position of its first card in its shoe and the
    composition before it."""
    rows, nf = len(shoe), len(counts)
    position = np.empty(rows, np.int64)
    composition = np.empty((rows, nf), np.int64)
    _book_c(np.ascontiguousarray(deck), np.ascontiguousarray(shoe, np.int64), np.ascontiguousarray(faces),
            np.ascontiguousarray(used, np.int64), np.ascontiguousarray(counts, np.int64),
            np.ascontiguousarray(burn, np.int64), position, composition)
    return position, composition


def _dense(keys: Any, values: Any, seen: Any, sums: Any) -> None:  # pragma: no cover - compiled
    """``sums[key] += values[row]`` and ``seen[key] = 1`` for every row."""
    width = values.shape[1]
    for r in range(keys.shape[0]):
        k = keys[r]
        seen[k] = 1
        for j in range(width):
            sums[k, j] += values[r, j]


_dense_c = _jit(_dense)


def dense_group_sum(keys: npt.NDArray[np.int64], values: npt.NDArray[np.int64], size: int,
                    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct ``keys`` (ascending, each in ``0..size-1``) and the sum of ``values`` rows
    (or entries, for a 1-d ``values``) per key, in int64."""
    two = values.reshape(len(values), -1)
    seen = np.zeros(size, np.uint8)
    sums = np.zeros((size, two.shape[1]), np.int64)
    _dense_c(np.ascontiguousarray(keys, np.int64), np.ascontiguousarray(two, np.int64), seen, sums)
    present = np.flatnonzero(seen)
    out = sums[present]
    return present.astype(np.int64), out if values.ndim == 2 else out[:, 0]


# -- the shuffle: numpy's default_rng([seed, i]).shuffle, compiled ------------------------------------
# numpy's SeedSequence (bit_generator.pyx), PCG64 (pcg64.h: the 128-bit LCG, XSL-RR output, 32-bit
# draws as the two halves of one 64-bit output) and Generator.shuffle (Fisher-Yates from the end,
# random_interval's masked rejection), spelled out in unsigned 64-bit integers so numba keeps them
# unsigned: every constant is a np.uint64, 32-bit values are kept masked.
_M32 = np.uint64(0xFFFFFFFF)
_INIT_A, _MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_INIT_B, _MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_MIX_L, _MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
_MUL_HIGH, _MUL_LOW = np.uint64(2549297995355413924), np.uint64(4865540595714422341)  # PCG's 128-bit multiplier
_S16, _S32, _S63, _S58 = np.uint64(16), np.uint64(32), np.uint64(63), np.uint64(58)
_ONE, _ZERO = np.uint64(1), np.uint64(0)


def _hashmix(value: Any, const: Any) -> Any:  # pragma: no cover - compiled
    """SeedSequence's ``hashmix``: ``const[0]`` is the running hash constant (updated)."""
    value = (value ^ const[0]) & _M32
    const[0] = (const[0] * _MULT_A) & _M32
    value = (value * const[0]) & _M32
    return value ^ (value >> _S16)


def _mix(x: Any, y: Any) -> Any:  # pragma: no cover - compiled
    result = (_MIX_L * x - _MIX_R * y) & _M32
    return result ^ (result >> _S16)


def _mulhi(a: Any, b: Any) -> Any:  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product ``a × b``."""
    a0, a1, b0, b1 = a & _M32, a >> _S32, b & _M32, b >> _S32
    p00, p01, p10 = a0 * b0, a0 * b1, a1 * b0
    mid = (p00 >> _S32) + (p01 & _M32) + (p10 & _M32)
    return a1 * b1 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32)


def _step(st: Any) -> None:  # pragma: no cover - compiled
    """One PCG64 step in place: ``state = state × multiplier + inc`` mod 2^128 (``st``: state
    high, state low, inc high, inc low)."""
    sh, sl, ih, il = st[0], st[1], st[2], st[3]
    hi = _mulhi_c(sl, _MUL_LOW) + sl * _MUL_HIGH + sh * _MUL_LOW
    lo = sl * _MUL_LOW
    low = lo + il
    st[0] = hi + ih + (_ONE if low < lo else _ZERO)
    st[1] = low


_hashmix_c, _mix_c, _mulhi_c = _jit(_hashmix), _jit(_mix), _jit(_mulhi)
_step_c = _jit(_step)


def _shuffle(faces: Any, seed_words: Any, start: Any, stop: Any, out: Any) -> None:  # pragma: no cover - compiled
    """Row ``r`` of ``out``: ``faces`` shuffled by ``Generator(PCG64(SeedSequence([seed, start + r])))``."""
    n = faces.shape[0]
    ns = seed_words.shape[0]
    entropy = np.zeros(ns + 2, np.uint64)
    entropy[:ns] = seed_words
    mixer = np.zeros(4, np.uint64)
    const = np.zeros(1, np.uint64)
    words = np.zeros(8, np.uint64)
    st = np.zeros(4, np.uint64)
    for r in range(stop - start):
        i = np.uint64(start + r)                        # its 32-bit words (0 is one word, 0)
        m = ns
        entropy[m] = i & _M32
        m += 1
        if i >> _S32:
            entropy[m] = i >> _S32
            m += 1
        const[0] = _INIT_A                              # SeedSequence.mix_entropy, pool size 4
        for k in range(4):
            mixer[k] = _hashmix_c(entropy[k] if k < m else _ZERO, const)
        for s in range(4):
            for d in range(4):
                if s != d:
                    mixer[d] = _mix_c(mixer[d], _hashmix_c(mixer[s], const))
        for s in range(4, m):
            for d in range(4):
                mixer[d] = _mix_c(mixer[d], _hashmix_c(entropy[s], const))
        h = _INIT_B                                     # generate_state(4, uint64): 8 words of 32 bits
        for k in range(8):
            v = (mixer[k % 4] ^ h) & _M32
            h = (h * _MULT_B) & _M32
            v = (v * h) & _M32
            words[k] = v ^ (v >> _S16)
        init_high, init_low = words[0] | (words[1] << _S32), words[2] | (words[3] << _S32)
        seq_high, seq_low = words[4] | (words[5] << _S32), words[6] | (words[7] << _S32)
        st[0], st[1] = _ZERO, _ZERO                     # pcg64 srandom: inc = seq << 1 | 1, two steps
        st[2] = (seq_high << _ONE) | (seq_low >> _S63)
        st[3] = (seq_low << _ONE) | _ONE
        _step_c(st)
        low = st[1] + init_low
        st[0] = st[0] + init_high + (_ONE if low < st[1] else _ZERO)
        st[1] = low
        _step_c(st)
        row = out[r]
        for k in range(n):
            row[k] = faces[k]
        have = False
        spare = _ZERO
        for k in range(n - 1, 0, -1):                   # Generator.shuffle: Fisher-Yates from the end
            top = np.uint64(k)
            mask = top
            mask |= mask >> np.uint64(1)
            mask |= mask >> np.uint64(2)
            mask |= mask >> np.uint64(4)
            mask |= mask >> np.uint64(8)
            mask |= mask >> np.uint64(16)
            while True:                                 # random_interval: 32-bit draws, masked, rejected
                if have:
                    draw = spare
                    have = False
                else:
                    _step_c(st)
                    x = st[0] ^ st[1]                   # XSL-RR output
                    rot = st[0] >> _S58
                    word = (x >> rot) | (x << ((np.uint64(64) - rot) & _S63))
                    spare = word >> _S32
                    have = True
                    draw = word & _M32
                j = draw & mask
                if j <= top:
                    break
            jj = np.int64(j)
            row[k], row[jj] = row[jj], row[k]


_shuffle_c = _jit(_shuffle)


def seed_words(seed: int) -> npt.NDArray[np.uint64]:
    """The 32-bit words SeedSequence makes of a non-negative ``seed`` (least significant
    first; 0 is one word).

    >>> seed_words(0).tolist(), seed_words(2**32 + 5).tolist()
    ([0], [5, 1])
    """
    if seed < 0:
        raise ValueError("a seed must be non-negative")
    words = [0] if seed == 0 else []
    while seed:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
    return np.array(words, np.uint64)


def shuffled(faces: npt.NDArray[np.uint8], seed: int, start: int, stop: int) -> npt.NDArray[np.uint8]:
    """Rows ``start..stop-1``: ``faces`` shuffled as ``np.random.default_rng([seed, i]).shuffle``
    shuffles it (shoe numbers below 2^63)."""
    out = np.empty((stop - start, len(faces)), np.uint8)
    _shuffle_c(np.ascontiguousarray(faces, np.uint8), seed_words(seed), np.int64(start), np.int64(stop), out)
    return out


# -- one family's aggregates in one pass ---------------------------------------------------------------
def _families(bins: Any, k: Any, cards: Any, low: Any, limbs: Any, shoe: Any, net: Any, fixed: Any,
              count: Any, seen: Any, exp: Any, per_net: Any, per_fixed: Any,
              with_shoe: bool) -> None:  # pragma: no cover - compiled
    """Round by round: ``count[bin] += 1``, the round's limbs into its (cards left, bin) row
    of ``exp`` (marked in ``seen``), and (``with_shoe``) its net and fixed-point return into
    its (shoe, bin) cell of ``per_net``/``per_fixed``."""
    width = limbs.shape[1]
    for r in range(bins.shape[0]):
        b = bins[r]
        count[b] += 1
        key = (cards[r] - low) * k + b
        seen[key] = 1
        for j in range(width):
            exp[key, j] += limbs[r, j]
        if with_shoe:
            s = shoe[r]
            per_net[s, b] += net[r]
            per_fixed[s, b] += fixed[r]


_families_c = _jit(_families)


def family_sums(bins: npt.NDArray[np.intp], k: int, cards: npt.NDArray[np.int64], limbs: npt.NDArray[np.int64],
                shoe: npt.NDArray[np.int64] | None = None, shoes: int = 0,
                net: npt.NDArray[np.int64] | None = None, fixed: npt.NDArray[np.int64] | None = None,
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
                           npt.NDArray[np.int64] | None, npt.NDArray[np.int64] | None]:
    """One family's aggregates in one pass (what :func:`exactodds.study.pricing._family`
    otherwise gets from a bincount and three group sums): the rounds per bin, the distinct
    keys ``cards × k + bin`` (ascending) with the limb sums per key, and (with ``shoe``) the
    ``(shoes, k)`` sums of ``net`` and ``fixed`` per shoe and bin. The same int64 additions
    in another order (two's-complement addition is associative: the same sums). Keys span
    ``(max − min cards left + 1) × k`` rows: the caller keeps that small."""
    low = int(cards.min())
    rows = (int(cards.max()) - low + 1) * k
    count = np.zeros(k, np.int64)
    seen = np.zeros(rows, np.uint8)
    exp = np.zeros((rows, limbs.shape[1]), np.int64)
    with_shoe = shoe is not None
    per_net = np.zeros((shoes if with_shoe else 0, k), np.int64)
    per_fixed = np.zeros_like(per_net)
    empty = np.zeros(0, np.int64)
    _families_c(np.ascontiguousarray(bins, np.int64), np.int64(k), np.ascontiguousarray(cards, np.int64),
                np.int64(low), np.ascontiguousarray(limbs, np.int64),
                empty if shoe is None else np.ascontiguousarray(shoe, np.int64),
                empty if net is None else np.ascontiguousarray(net, np.int64),
                empty if fixed is None else np.ascontiguousarray(fixed, np.int64),
                count, seen, exp, per_net, per_fixed, with_shoe)
    present = np.flatnonzero(seen)
    return (count, (present + low * k).astype(np.int64), exp[present],
            per_net if with_shoe else None, per_fixed if with_shoe else None)
