"""The residue arithmetic of the compiled hand solver (:mod:`exactodds.blackjack.compiled`): the
residue primes and a solver's bounds, the tables the loops read (factorials, limb powers, the
basic chart's ways), the dealer table's numerators as the loops read them, the loops' reused
working arrays, and the Chinese-remainder reconstruction of the numerators read.
Why its own module: these are numeric constants and tables, shared by every solver of a shoe size
and proven once here; the solver module keeps the plans and the evaluation.

*The bound.* A node's numerator (over ``SCALE · n!/floor!``, ``n`` the cards left) is computed
modulo primes below 2²⁹ (int64 bounds: :mod:`exactodds.blackjack.hand_kernel`) and the Chinese
remainder theorem gives back the numerators read (:func:`ints`). A node's value per unit wagered
is at most ``3 · 2^D`` in size (``D`` the most doublings, ``2^D`` units wagered, a 3-to-1
seven-card 21 the best pay), so ``|numerator| ≤ B = 3 · 2^D · SCALE · |base|!/floor!``; the
primes' product exceeds ``2B``, and ``x + B`` (in ``[0, 2B]``) is reconstructed, so every
numerator, negative too, comes back exactly. An unsplit solver's primes cover ``ff(|base|, 21) · B``
too: the basic chart's sums of its recorded actions weighted by the ordered draws of their hands
(at most ``ff(|base|, n)`` for the hands of ``n`` cards) are summed in residues and reconstructed
once each (:meth:`~exactodds.blackjack.compiled.CompiledSolver.class_sums`).
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from math import comb
from types import ModuleType
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.blackjack.dealer import DealerTable, primes_above
from exactodds.blackjack.dealer_store import _product, garner_constants
from exactodds.blackjack.hands import SCALE, _falling
from exactodds.errors import InputError

IntArray = npt.NDArray[np.int64]

LANES: Final = 8
"""A solver's residue primes come in a multiple of 8 (15 needed: 16; 23: 24): the loops over the
primes are vectorised and a remainder runs one prime at a time (measured on the standard 8-deck
game's 470 evaluations, kernel alone: 0.050 s with the primes needed, 0.039 s padded)."""

_HAND_KERNEL: list[ModuleType] = []
"""The compiled loops' module once imported (asked for a few times per solver: no import each time)."""


def _kernel() -> ModuleType:
    """The compiled loops (:mod:`exactodds.blackjack.hand_kernel`; ImportError without numba)."""
    if not _HAND_KERNEL:
        from exactodds.blackjack import hand_kernel

        _HAND_KERNEL.append(hand_kernel)
    return _HAND_KERNEL[0]


class _DealerStore:
    """A dealer table's numerators as the compiled solvers read them: a view of the table's own
    arrays (:attr:`DealerTable.limbs`, 32-bit limbs; :attr:`DealerTable.prob`, the floats of the
    decision pass), rows found by the removed multiset (``x = base − rem``, as the table counts
    from its own shoe); a composition the table lacks is computed in one batch per solver
    (:meth:`DealerTable.rows_of`). No Python int is built for a composition."""

    def __init__(self, table: DealerTable) -> None:
        if table.width > 16:  # the loops' int64 bound (hand_kernel) allows 16 limbs
            raise InputError("internal: a dealer numerator over 512 bits")
        self.table = weakref.ref(table)
        self.width = table.width
        self.scale_res: dict[tuple[int, ...], tuple[int, int, IntArray]] = {}

    def _table(self) -> DealerTable:
        table = self.table()
        assert table is not None
        return table

    def rows(self, x: IntArray) -> IntArray:
        """The rows of the compositions ``base − x`` (``x`` by row), computing what is missing."""
        return self._table().rows_of(x)

    @property
    def limbs(self) -> npt.NDArray[np.uint32]:
        """The numerators' limbs (axes: row, outcome, limb; read after :meth:`rows`)."""
        return self._table().limbs

    @property
    def prob(self) -> npt.NDArray[np.float64]:
        """The numerators as float probabilities (axes: row, outcome), for the decision pass only."""
        return self._table().prob

    def scale_residues(self, primes: tuple[int, ...], size: int) -> IntArray:
        """``(n − K)!/floor!`` (the factor :meth:`DealerTable.raw` returns) modulo each prime, by
        ``n`` (-1 for an ``n`` not computed)."""
        per_n = self._table().per_n
        got = self.scale_res.get(primes)
        if got is None or got[0] != len(per_n) or got[1] < size:
            out = np.full((size + 1, len(primes)), -1, dtype=np.int64)
            for n, (_, _, s, _) in per_n.items():
                if n <= size:
                    out[n] = [s % q for q in primes]
            got = self.scale_res[primes] = (len(per_n), size, out)
        return got[2]


_STORES: weakref.WeakKeyDictionary[DealerTable, _DealerStore] = weakref.WeakKeyDictionary()


def _store(table: DealerTable) -> _DealerStore:
    got = _STORES.get(table)
    if got is None:
        got = _STORES[table] = _DealerStore(table)
    return got


@lru_cache(maxsize=32)
def _primes(bits: int) -> tuple[tuple[int, ...], IntArray, IntArray, IntArray]:
    """The primes whose product exceeds ``2^bits`` (:func:`primes_above`, then the next ones down to
    a multiple of :data:`LANES`), as an array, Garner's
    constants (the inverse of the product of the primes before each, modulo it) and the products
    of the primes before each modulo every prime (``[j, i]``: ``q_0 ⋯ q_(j−1) mod q_i``)."""
    primes = primes_above(1 << bits, LANES)
    if min(primes) <= 1 << 28:  # the loops' reduction needs them above 2²⁸ (hand_kernel._mod)
        raise InputError("internal: too many residue primes for the hand solver's bound")
    garner = garner_constants(primes)
    prods = [_product(primes[:j]) for j in range(len(primes))]
    radix = np.array([[pj % q for q in primes] for pj in prods], dtype=np.int64)
    return primes, np.array(primes, dtype=np.int64), np.array(garner, dtype=np.int64), radix


@lru_cache(maxsize=256)
def _bounds(size: int, floor: int, d_most: int, split: bool) -> tuple[int, int, tuple[tuple[int, ...], IntArray,
                                                                                     IntArray, IntArray], IntArray]:
    """A solver's numeric constants, shared by the solvers of one shoe size (hundreds a solve):
    :attr:`CompiledSolver.bound` (a node's numerator: ``3·2^d_most·SCALE·ff(size, size − floor)``),
    :attr:`CompiledSolver.chart_bound` (an unsplit solver's bound on :meth:`CompiledSolver.class_sums`:
    the ordered draws of the hands of ``n`` cards add up to ``ff(size, n) ≤ ff(size, 21)``, each
    numerator at most ``bound``; its primes cover it, so those sums come back exactly from their
    residues), the residue primes covering twice the larger (:func:`_primes`) and ``bound``'s residues."""
    bound = 3 * (1 << d_most) * SCALE * _falling(size, floor)
    chart_bound = 0 if split else bound * _falling(size, size - min(size, 21))
    primes = _primes((2 * max(bound, chart_bound)).bit_length())
    return bound, chart_bound, primes, _residues(bound, primes[0])


@lru_cache(maxsize=256)
def _residues(x: int, primes: tuple[int, ...]) -> IntArray:
    """``x`` modulo each prime (a solver's bound: the solvers of one shoe size share it)."""
    return np.array([x % q for q in primes], dtype=np.int64)


@lru_cache(maxsize=64)
def _factorials(floor: int, size: int, primes: tuple[int, ...]) -> IntArray:
    """``m!/floor!`` modulo each prime for ``m = floor .. size`` (row ``m − floor``)."""
    out = np.ones((size - floor + 1, len(primes)), dtype=np.int64)
    for i in range(1, size - floor + 1):
        m = floor + i
        out[i] = [(int(out[i - 1, j]) * m) % q for j, q in enumerate(primes)]
    return out


@lru_cache(maxsize=8)
def _comb_residues() -> IntArray:
    """``C(a, b)`` for ``a, b ≤ 21`` (below 2²⁰: below every prime)."""
    return np.array([[comb(a, b) for b in range(22)] for a in range(22)], dtype=np.int64)


def _ways_table(base: IntArray, primes: tuple[int, ...]) -> IntArray:
    """``C(left, h) · ff(base_v, h)`` modulo each prime, by ``(v, left, h)`` (``left, h ≤ 21``): the
    factor of value ``v`` in the ordered draws from ``base`` that give a hand holding ``h`` cards of
    it and ``left`` of it and above (a multinomial's binomial times the draws of those cards;
    :func:`exactodds.blackjack.hand_kernel.class_sums`)."""
    q = np.array(primes, dtype=np.int64)
    ff = np.ones((10, 22, len(primes)), dtype=np.int64)  # ff(base_v, h) mod q (0 past base_v)
    for h in range(1, 22):
        ff[:, h] = ff[:, h - 1] * (np.maximum(base - h + 1, 0)[:, None] % q) % q
    table: IntArray = _comb_residues()[None, :, :, None] * ff[:, None, :, :] % q
    return table


@lru_cache(maxsize=64)
def _limb_powers(primes: tuple[int, ...], width: int) -> IntArray:
    """``2^(32·j)`` (``[0, j]``) and ``2^(32·j + 21)`` (``[1, j]``) modulo each prime, by limb ``j``:
    the weights of a limb combination's low and high 21-bit halves (:func:`hand_kernel._stand_value`)."""
    return np.array([[[pow(2, 32 * j + 21 * h, q) for q in primes] for j in range(width)] for h in (0, 1)],
                    dtype=np.int64)


_Work = tuple[IntArray, npt.NDArray[np.float64], IntArray, npt.NDArray[np.float64]]
_SCRATCH: dict[tuple[int, int], _Work] = {}
_NODE_SCRATCH: dict[int, tuple[IntArray, npt.NDArray[np.int8], IntArray, IntArray, IntArray]] = {}


def _node_scratch(n: int) -> tuple[IntArray, npt.NDArray[np.int8], IntArray, IntArray, IntArray]:
    """The walk's and the loops' per-node working arrays for ``n`` nodes (dealer rows, orders,
    reached nodes, stands, removed multisets), reused by every evaluation and never cleared: the
    walk writes the reached nodes, stands and removed multisets it returns; a dealer row is read
    only at a stand the walk listed (written just before), an order only at a reached node, which
    :func:`hand_kernel._taken` writes first. A solver whose orders are kept allocates its own."""
    got = _NODE_SCRATCH.get(n)
    if got is None:
        _NODE_SCRATCH.clear()
        got = _NODE_SCRATCH[n] = (np.empty(n, dtype=np.int64), np.empty((n, 3), dtype=np.int8),
                                  np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                                  np.empty((n, 10), dtype=np.int64))
    return got


def _scratch(n: int, p: int) -> _Work:
    """The evaluation's working arrays (node and action residues and floats) for ``n`` nodes and
    ``p`` primes, reused by every evaluation (one runs at a time; what it keeps it copies out): the
    loops read only what they wrote in the same evaluation (a reached node's valued actions, a
    reached child), so they are never cleared."""
    got = _SCRATCH.get((n, p))
    if got is None:
        _SCRATCH.clear()  # (one set kept: memory; another number of primes allocates anew)
        got = _SCRATCH[(n, p)] = (np.empty((n, p), dtype=np.int64), np.empty(n), np.empty((n, 3, p), dtype=np.int64),
                                  np.empty((n, 3)))
    return got



def ints(residues: npt.NDArray[np.int64] | npt.NDArray[np.uint32], bound: int, offset: IntArray,
         primes: tuple[tuple[int, ...], IntArray, IntArray, IntArray]) -> list[int]:
    """The numerators of ``residues`` (rows; axes: ..., prime), by the Chinese remainder theorem:
    each in ``[−bound, bound]`` (``offset``: ``bound``'s residues; the primes' product, :func:`_primes`,
    exceeds twice it)."""
    plist, primes_a, garner, radix = primes
    rows = np.ascontiguousarray(residues.reshape(-1, len(plist)), dtype=np.int64)
    out = limbs_out(len(rows), len(plist))
    _kernel().reconstruct(rows, offset, primes_a, garner, radix, out)
    return from_limbs(out, bound)


def limbs_out(rows: int, n_primes: int) -> IntArray:
    """The array :func:`~exactodds.blackjack.hand_kernel.reconstruct` writes ``rows`` integers
    into (32-bit limbs; the primes' product below ``2^(29·n_primes)``, and a limb more)."""
    return np.empty((rows, (29 * n_primes) // 32 + 2), dtype=np.int64)


def from_limbs(out: IntArray, bound: int) -> list[int]:
    """The integers of :func:`~exactodds.blackjack.hand_kernel.reconstruct`'s limbs, less ``bound``."""
    raw = out.astype(np.uint32).tobytes()
    step = 4 * out.shape[1]
    return [int.from_bytes(raw[i:i + step], "little") - bound for i in range(0, len(raw), step)]
