"""The dealer's numerators as stored integers: the residue primes, Garner's reconstruction, the
limb store and the Python-int view (:class:`NumeratorStore`, the base of
:class:`~exactodds.blackjack.dealer.DealerTable`).

Why a module of its own: :mod:`~exactodds.blackjack.dealer` computes the numerators of the
dealer's outcomes modulo primes (the contraction, and which compositions to compute); this one
owns what happens to residues once they exist, whichever way they were summed.

*Primes.* The largest primes below 2²⁹ (:data:`PRIME_BOUND`), as few as make a product above the
largest numerator (:func:`primes_above`): a product of two residues is below 2⁵⁸, which bounds
every int64 sum of the contraction (:mod:`~exactodds.blackjack.dealer`'s module doc).

*Garner.* The Chinese remainder theorem in Garner's mixed-radix form gives each numerator from
its residues (:meth:`NumeratorStore.reconstruct`): digits ``d_i < q_i`` with the integer
``Σ d_i · Π_{j<i} q_j``, in int64 (compiled: :func:`~exactodds.blackjack.dealer_kernel.garner`;
numpy: :meth:`NumeratorStore._digits`, the oracle).

*One store, as limbs.* Each composition's six numerators are written once, straight from the
residues (Garner's digits, then Horner in 32-bit limbs: compiled,
:func:`~exactodds.blackjack.dealer_kernel.limbs`, or :meth:`NumeratorStore._to_limbs`), into one
array of :attr:`NumeratorStore.width` limbs, with their float probabilities beside
(:attr:`NumeratorStore.prob`, the compiled solvers' decision pass only: the limbs summed from the
top, at most 15 roundings for 16 limbs, then ``fl(1/ff(n, K))`` and the product, two more: within
a relative ``17·2⁻⁵³ < 2⁻⁴⁸`` of the exact ratio). The compiled solvers read these arrays; the
Python ints (:attr:`NumeratorStore.cache`) are built from the limbs of a batch when one of its
compositions is first read (:meth:`NumeratorStore._build`), for the Python solvers and the
distribution (25 MB of arrays for a whole 8-deck game, not 72 MB of tuples).
"""

from __future__ import annotations

import sys
from bisect import bisect_right
from collections.abc import Iterable
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.errors import InputError
from exactodds.extras import compiled

Values = tuple[int, ...]
IntArray = npt.NDArray[np.int64]

OUTCOMES: Final = 6
"""Final 17, 18, 19, 20, 21, bust."""

PRIME_BOUND: Final = 1 << 29
"""The primes are below 2²⁹: a product of two residues is below 2⁵⁸, and a sum of at most
:data:`~exactodds.blackjack.dealer.MOST_TERMS` such products stays below 2⁶³ in int64."""


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3,215,031,751 (bases 2, 3, 5, 7).

    >>> [p for p in range(2, 30) if is_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    """
    if n < 2:
        return False
    for p in (2, 3, 5, 7):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes_above(bound: int, multiple_of: int = 1) -> tuple[int, ...]:
    """The largest primes below 2²⁹, as few as make a product greater than ``bound``, and then
    the next ones down until their number is a multiple of ``multiple_of`` (for loops over lanes
    of primes: more primes only make the product larger).

    >>> len(primes_above(1 << 60)), len(primes_above(1 << 60, 8))
    (3, 8)
    """
    out: list[int] = []
    prod, p = 1, PRIME_BOUND - 1
    while prod <= bound or len(out) % multiple_of:
        while not is_prime(p):
            p -= 1
        out.append(p)
        prod *= p
        p -= 1
    return tuple(out)


def garner_constants(primes: tuple[int, ...]) -> list[int]:
    """Garner's constants of ``primes``: the inverse of the product of the primes before each,
    modulo it (the mixed-radix digits of the Chinese remainder theorem).

    >>> garner_constants((5, 7, 11))  # 1; 5·3 ≡ 1 (mod 7); 35·6 ≡ 1 (mod 11)
    [1, 3, 6]
    """
    return [pow(_product(primes[:i]), -1, q) for i, q in enumerate(primes)]


KERNEL: Final = "exactodds.blackjack.dealer_kernel"

KERNEL_MIN_ROWS: Final = 64
"""A batch (a request's new compositions) of at least this many imports the compiled kernel
(numba's import and first call cost about 0.6 s of CPU and 130 MB once per process: a small
shoe's game, or one composition's dealer, never pays them); once it is imported, every batch
uses it."""


def _kernel(rows: int) -> Any:
    """The compiled kernel module (:mod:`~exactodds.blackjack.dealer_kernel`) for a batch of
    ``rows`` compositions, or None for the numpy path: numba missing, ``EXACTODDS_PURE=1``
    (:func:`exactodds.extras.compiled`), or a small batch before anything imported it."""
    if rows < KERNEL_MIN_ROWS and KERNEL not in sys.modules:
        return None
    return compiled(KERNEL)


class NumeratorStore:
    """The residues' integers, kept: Garner's reconstruction, the numerators of each computed
    composition as 32-bit limbs and float probabilities (rows appended batch by batch), and
    their Python ints built on first reading (module doc).

    A subclass (:class:`~exactodds.blackjack.dealer.DealerTable`) computes the residues, gives
    the batches' codes (:meth:`_span`) and decodes them (:meth:`_decode`) into the removed
    multisets of its shoe :attr:`base`.
    """

    base: Values

    def __init__(self, primes: tuple[int, ...], width: int) -> None:
        self.primes = primes
        self.q: IntArray = np.array(primes, dtype=np.int64)
        self.garner = garner_constants(primes)
        """Garner's constants: the inverse of the product of the primes before each, modulo it."""
        self._garner: IntArray = np.array(self.garner, dtype=np.int64)
        self.pair_weights = [_product(primes[:i]) for i in range(0, len(primes), 2)]
        """Weights of the mixed-radix digits taken two at a time (each pair below 2⁵⁸)."""
        self.width = width
        """32-bit limbs to a numerator (the subclass's bound on its numerators)."""
        self._limbs = np.zeros((0, OUTCOMES, width), dtype=np.uint32)
        self._prob = np.zeros((0, OUTCOMES), dtype=np.float64)
        self._used = 0
        """Rows of :attr:`limbs` and :attr:`prob` filled (the arrays grow by half again when full)."""
        self.cache: dict[Values, tuple[int, ...]] = {}
        """The numerators as Python ints of the compositions of the batches read, built from
        :attr:`limbs` on first reading (the compiled solvers read the limbs, never these)."""
        self._spans: list[int] = []
        """The first row of each batch stored (ascending)."""
        self._span_codes: list[npt.NDArray[Any] | None] = []
        """The codes of each batch's rows, in row order, until its Python ints are built (:meth:`_build`)."""

    def _decode(self, codes: npt.NDArray[Any]) -> IntArray:
        """The removed multisets (rows) of ``codes`` (the subclass's codes)."""
        raise NotImplementedError

    def _span(self, start: int, codes: npt.NDArray[Any]) -> None:
        """Record a batch of rows from ``start`` and their codes in row order (:meth:`_build`)."""
        self._spans.append(start)
        self._span_codes.append(codes)

    @property
    def limbs(self) -> npt.NDArray[np.uint32]:
        """Each computed composition's numerators (axes: row, outcome 17..21 and bust, limb) over
        ``ff(n, K)``, as :attr:`width` little-endian 32-bit limbs (rows: :meth:`~exactodds.blackjack.dealer.DealerTable.rows_of`)."""
        return self._limbs[:self._used]

    @property
    def prob(self) -> npt.NDArray[np.float64]:
        """:attr:`limbs` as float probabilities, each within a relative 2⁻⁴⁸ of the exact ratio
        (module doc): for the compiled solvers' decision pass only, never a figure."""
        return self._prob[:self._used]

    def _reserve(self, need: int) -> None:
        """Room for ``need`` rows in :attr:`limbs` and :attr:`prob` (grown by half again: amortised)."""
        if need > len(self._limbs):
            at, size = self._used, max(need, len(self._limbs) * 3 // 2, 256)
            limbs, prob = np.zeros((size,) + self._limbs.shape[1:], dtype=np.uint32), np.zeros((size, OUTCOMES))
            limbs[:at], prob[:at] = self._limbs[:at], self._prob[:at]
            self._limbs, self._prob = limbs, prob

    def _put(self, residues: IntArray, den: int, columns: IntArray) -> IntArray:
        """Store the integers of ``residues`` (axes: prime, row, outcome group; group ``g`` in the
        outcome column ``columns[g]``) as limbs, and as probabilities over ``den``, in new rows
        (returned): compiled
        (:func:`~exactodds.blackjack.dealer_kernel.limbs`) or :meth:`_to_limbs`."""
        rows = residues.shape[1]
        at = self._used
        self._reserve(at + rows)
        scale = 1 / den  # correctly rounded (Python's integer true division)
        kernel = _kernel(rows)
        if kernel is not None:
            failed = kernel.limbs(np.ascontiguousarray(residues), self.q, self._garner, columns, scale,
                                  self._limbs, self._prob, at)
        else:
            limbs, prob, failed = self._to_limbs(residues, scale, self.width)
            self._limbs[at:at + rows, columns, :] = limbs
            self._prob[at:at + rows, columns] = prob
        if failed:
            raise InputError("internal: a dealer numerator outgrew its bound")
        self._used = at + rows
        return np.arange(at, at + rows, dtype=np.int64)

    def _to_limbs(self, residues: IntArray, scale: float,
                  width: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.float64], int]:
        """The numpy path of the compiled :func:`~exactodds.blackjack.dealer_kernel.limbs` (its
        oracle; the same operations, whole arrays at once): the integers of ``residues`` as
        ``width`` limbs (axes: row, group, limb), as floats times ``scale``, and 1 if one outgrew
        the limbs."""
        primes = self.primes
        digits = self._digits(residues)
        acc = np.zeros((width,) + residues.shape[1:], dtype=np.uint64)
        acc[0] = digits[-1]
        failed = 0
        for i in range(len(primes) - 2, -1, -1):  # X = X·q_i + d_i: a limb times q_i below 2⁶¹
            carry = digits[i].astype(np.uint64)
            for w in range(width):
                t = acc[w] * np.uint64(primes[i]) + carry
                acc[w], carry = t & np.uint64(0xFFFFFFFF), t >> np.uint64(32)
            failed |= int(carry.any())
        f = np.zeros(residues.shape[1:], dtype=np.float64)
        for w in range(width - 1, -1, -1):
            f = f * 4294967296.0 + acc[w].astype(np.float64)
        return np.moveaxis(acc, 0, -1).astype(np.uint32), f * scale, failed

    def reconstruct(self, residues: IntArray) -> list[list[int]]:
        """The non-negative integers below the primes' product of ``residues`` (axes: prime, row, column)."""
        return self._reconstruct(residues)

    def _reconstruct(self, residues: IntArray) -> list[list[int]]:
        """The integers of the residues (axes: prime, composition, outcome group), by row."""
        flat = iter(self._numbers(residues))
        return [list(row) for row in zip(*[flat] * residues.shape[2])]

    def _numbers(self, residues: IntArray) -> list[int]:
        """The integers of the residues (axes: prime, composition, outcome group) by Garner's
        algorithm, flat (composition-major): mixed-radix digits in int64, two digits to a limb
        (compiled, or :meth:`_limbs_of`), the limbs joined as Python ints by numpy's object loops."""
        kernel = _kernel(residues.shape[1])
        if kernel is not None:
            limbs: IntArray = kernel.garner(np.ascontiguousarray(residues), self.q, np.array(self.garner, np.int64))
        else:
            limbs = self._limbs_of(residues)
        if len(limbs) == 1:
            out: list[int] = limbs[0].ravel().tolist()
            return out
        total = limbs[0].ravel().astype(object)
        for limb, weight in zip(limbs[1:], self.pair_weights[1:]):
            total += limb.ravel().astype(object) * weight
        joined: list[int] = total.tolist()
        return joined

    def _digits(self, residues: IntArray) -> list[IntArray]:
        """Garner's mixed-radix digits of the residues (axes: prime, ...), one array per prime."""
        primes = self.primes
        digits: list[IntArray] = [residues[0]]
        for i in range(1, len(primes)):
            q = primes[i]
            v = digits[i - 1] % q
            for j in range(i - 2, -1, -1):
                v = (v * (primes[j] % q) + digits[j]) % q
            digits.append((residues[i] - v) % q * self.garner[i] % q)
        return digits

    def _limbs_of(self, residues: IntArray) -> IntArray:
        """The numpy path of Garner's digits (the compiled kernel's oracle), two to a limb (each
        below 2⁵⁸; axes: limb, composition, outcome group)."""
        primes = self.primes
        digits = self._digits(residues)
        return np.stack([digits[i] + (primes[i] * digits[i + 1] if i + 1 < len(digits) else 0)
                         for i in range(0, len(digits), 2)])

    def _build(self, row: int) -> None:
        """The Python ints of the batch holding ``row``, into :attr:`cache`, once (a Python solver
        reads nearly every composition of a batch it asked for: numpy's object loops at once)."""
        i = bisect_right(self._spans, row) - 1
        codes = self._span_codes[i]
        if codes is None:
            return
        self._span_codes[i] = None
        start = self._spans[i]
        x = self._decode(codes)
        limbs = self._limbs[start:start + len(codes)]
        total = limbs[:, :, -1].astype(object)
        for j in range(self.width - 2, -1, -1):
            total = total * (1 << 32) + limbs[:, :, j].astype(object)
        rems = (np.array(self.base, dtype=x.dtype) - x).tolist()
        self.cache.update(zip(map(tuple, rems), map(tuple, total.tolist())))

    def _ints(self, row: int) -> tuple[int, ...]:
        """The numerators of row ``row`` of :attr:`limbs` as Python ints."""
        data = self._limbs[row].astype("<u4", copy=False).tobytes()
        step = 4 * self.width
        return tuple(int.from_bytes(data[o * step:(o + 1) * step], "little") for o in range(OUTCOMES))


def _product(xs: Iterable[int]) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


__all__ = ["KERNEL", "KERNEL_MIN_ROWS", "OUTCOMES", "PRIME_BOUND", "NumeratorStore", "is_prime", "primes_above"]
