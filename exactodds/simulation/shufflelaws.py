"""The exact laws of a uniform shuffle, and the test records built on them.

Under a uniform shuffle every arrangement of the shoe's multiset is equally likely; the
statistics of :mod:`exactodds.simulation.shufflecheck` (whole orders) and
:mod:`exactodds.simulation.shufflestream` (a continuous shuffler) have exact conditional
means and variances from the laws here, computed in integers and Fractions: the chance
that one copy precedes another (:func:`precede`), the spacing of copies
(:func:`gap_law`), the moments of retained pairs (:func:`pair_moments`), the number of
arrangements (:func:`arrangements`). Every test is a
:class:`~exactodds.simulation.statistics.FamilyTest` of the wager :data:`SHUFFLE_WAGER`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.game.cards import FACES, Shoe
from exactodds.simulation.shoetests import z_family
from exactodds.simulation.statistics import Cell, ChiSquare, FamilyTest, norm_two_sided

SHUFFLE_WAGER: Final = "shuffle"
"""The ``wager`` name of every shuffle test (they share the cross-check's test records)."""

NFACES: Final = len(FACES)


# -- exact laws ------------------------------------------------------------------------------------
@cache
def precede(a: int, b: int, k: int, j: int) -> Fraction:
    """P(the ``j``-th of ``b`` copies of one face comes before the ``k``-th of ``a`` copies of
    another) in a uniform arrangement: of the first ``k + j - 1`` of those ``a + b`` cards,
    at least ``j`` are of the second face (a hypergeometric tail).

    >>> precede(1, 1, 1, 1), precede(2, 2, 1, 2), precede(2, 2, 2, 1)
    (Fraction(1, 2), Fraction(1, 6), Fraction(5, 6))
    """
    first = k + j - 1
    ways = sum(math.comb(first, i) * math.comb(a + b - first, b - i) for i in range(j, min(b, first) + 1))
    return Fraction(ways, math.comb(a + b, b))


def gap_law(n: int, c: int) -> dict[int, Fraction]:
    """Distance ``d`` between two successive copies of a face with ``c`` copies among ``n``
    cards, uniformly arranged: ``P(d) = C(n - d, c - 1) / C(n, c)`` (the ``c + 1`` spacings are
    exchangeable).

    >>> gap_law(3, 2)
    {1: Fraction(2, 3), 2: Fraction(1, 3)}
    """
    total = math.comb(n, c)
    return {d: Fraction(math.comb(n - d, c - 1), total) for d in range(1, n - c + 2)}


def set_partitions(items: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into blocks (Bell-number many).

    >>> sum(1 for _ in set_partitions(range(4)))
    15
    """
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]


_PAIR_PRODUCTS: Final = {2: ((0, 1), (0, 1)), 3: ((0, 1), (1, 2)), 4: ((0, 1), (2, 3))}
"""Positions of the two pair weights in ``E[w(X0,X1)²]``, ``E[w(X0,X1) w(X1,X2)]`` and
``E[w(X0,X1) w(X2,X3)]``."""


def pair_moment_sums(w: npt.NDArray[np.int64], c: npt.NDArray[np.int64], k: int) -> npt.NDArray[np.int64]:
    """``Σ_s w(s_p, s_q) w(s_r, s_t) Π_f c_f^(m_f(s))`` over sequences ``s`` of ``k`` faces (the
    weights at the positions of :data:`_PAIR_PRODUCTS`, ``c^(m)`` falling factorials), for each
    matrix of the batch ``w`` (``rows × 52 × 52``); divided by ``N^(k)`` it is the expectation of
    that product in a uniform arrangement. Each falling factorial is expanded over set
    partitions (``c^(m) = Σ_π Π_B (-1)^(|B|-1) (|B|-1)! c``), so every term is a contraction
    of the two weights with one copy-count vector per block (:func:`_contract`), in integers."""
    total = np.zeros(w.shape[0], dtype=np.int64)
    for part in set_partitions(list(range(k))):
        block = {pos: i for i, b in enumerate(part) for pos in b}
        sign = 1
        for b in part:
            sign *= (-1) ** (len(b) - 1) * math.factorial(len(b) - 1)
        pairs = [(block[x], block[y]) for x, y in _PAIR_PRODUCTS[k]]
        total += sign * _contract(w, c, pairs, len(part))
    return total


def _contract(w: npt.NDArray[np.int64], c: npt.NDArray[np.int64], pairs: list[tuple[int, int]],
              blocks: int) -> npt.NDArray[np.int64]:
    """``Σ over face assignments of the blocks of w[B(x), B(y)] · w[B(u), B(v)] · Π_B c[B]``
    for ``pairs = [(B(x), B(y)), (B(u), B(v))]``, per row of ``w``: each block's copy counts
    multiplied into the first weight that has it, blocks in one weight only summed out, then the
    two weights multiplied over the blocks they share. ``O(rows · 52²)``."""
    factors: list[tuple[npt.NDArray[np.int64], list[int]]] = []
    for x, y in pairs:
        factors.append((np.diagonal(w, axis1=1, axis2=2).copy(), [x]) if x == y else (w.copy(), [x, y]))
    for b in range(blocks):
        for arr, letters in factors:
            if b in letters:
                shape = [1] * arr.ndim
                shape[1 + letters.index(b)] = c.size
                arr *= c.reshape(shape)
                break
    (a, la), (b2, lb) = factors
    shared = set(la) & set(lb)
    a, la = _sum_private(a, la, shared)
    b2, lb = _sum_private(b2, lb, shared)
    if not la:
        out: npt.NDArray[np.int64] = a * b2
        return out
    if la != lb:
        b2 = b2.transpose(0, 2, 1)
    out = (a * b2).reshape(a.shape[0], -1).sum(axis=1)
    return out


def _sum_private(arr: npt.NDArray[np.int64], letters: list[int], shared: set[int]
                 ) -> tuple[npt.NDArray[np.int64], list[int]]:
    """Sum ``arr`` over its letters not in ``shared`` (axis 0 is the batch)."""
    for i in reversed(range(len(letters))):
        if letters[i] not in shared:
            arr = arr.sum(axis=1 + i)
            letters = letters[:i] + letters[i + 1:]
    return arr, letters


def pair_moments(w: npt.NDArray[np.int64], c: npt.NDArray[np.int64]
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """:func:`pair_moment_sums` for ``k`` = 2, 3, 4 at once, from its 22 partition terms written
    out as a dozen sums over ``w`` (``S = cᵀwc``, ``r = wc``, ``l = cᵀw``, ``D`` the diagonal):
    the same integers (checked against the general expansion in the tests), in a few passes."""
    cc = c[:, None] * c[None, :]
    r = (w * c[None, None, :]).sum(axis=2)
    left = (w * c[None, :, None]).sum(axis=1)
    d = np.diagonal(w, axis1=1, axis2=2)
    sq = (w * w * cc).sum(axis=(1, 2))
    tr = (w * w.transpose(0, 2, 1) * cc).sum(axis=(1, 2))
    s = (r * c).sum(axis=1)
    dc = (d * c).sum(axis=1)
    cr2, cl2, crl = (c * r * r).sum(axis=1), (c * left * left).sum(axis=1), (c * r * left).sum(axis=1)
    cdr, cdl, cd2 = (c * d * r).sum(axis=1), (c * d * left).sum(axis=1), (c * d * d).sum(axis=1)
    t2 = sq - cd2
    t3 = crl - cdr - cdl - tr + 2 * cd2
    t4 = s * s - 2 * dc * s - cr2 - cl2 - 2 * crl + dc * dc + sq + tr + 4 * cdr + 4 * cdl - 6 * cd2
    return t2, t3, t4


def arrangements(shoe: Shoe) -> int:
    """Distinct orders of the shoe's cards: ``N! / Π c_f!``."""
    out = math.factorial(shoe.size)
    for c in shoe.counts:
        out //= math.factorial(c)
    return out


def factory_faces(shoe: Shoe) -> npt.NDArray[np.uint8]:
    """The shoe in factory order (deck after deck, each suit A to K), as face indices."""
    from exactodds.simulation.faults import factory_order

    return factory_order(shoe)


# -- test records ----------------------------------------------------------------------------------
def z_test(name: str, count: int, unit: str, observed: int, expected: Fraction, z: float,
            conclusive: bool) -> FamilyTest:
    """A z-test (exact variance) as a one-degree-of-freedom test record."""
    p = norm_two_sided(z) if conclusive else 1.0
    cell = Cell(f"{unit} (observed v. exact expected)", observed, expected / max(count, 1), expected,
                z if conclusive else None)
    key = ("shuffle z", name, observed, expected, z)
    return FamilyTest(SHUFFLE_WAGER, name, count, (cell,), ChiSquare(z * z, 1, p, 1, (), (), conclusive, key, "z"), None)


def self_normalised(name: str, count: int, unit: str, observed: int, expected_num: int, scale: int,
                     sum_sq: int) -> FamilyTest:
    """:func:`~exactodds.simulation.shoetests.z_family` (``Σ(x - E)/√Σ(x - E)²``), as a shuffle test."""
    fam = z_family(name, observed, Fraction(expected_num, scale), sum_sq, scale, count, unit)
    return replace(fam, wager=SHUFFLE_WAGER)


def repeat_test(name: str, count: int, repeats: int, bound_one: Fraction, pairs: int) -> FamilyTest:
    """Repeats among ``count`` hashed items; p-value: the union bound ``pairs · bound_one``."""
    bound = min(Fraction(1), pairs * bound_one)
    p = float(bound) if repeats else 1.0
    cell = Cell("repeats of an earlier one", repeats, bound_one, Fraction(0), None)
    key = ("shuffle repeats", name, count, repeats)
    return FamilyTest(SHUFFLE_WAGER, name, count, (cell,),
                      ChiSquare(float(repeats), 1, p, 1, (), (), count >= 2, key, "repeat bound"), None)


class RunningSum:
    """Running sums of a self-normalised test: observed, ``scale``·expected, ``Σ(scale·x - num)²``."""

    def __init__(self, name: str, unit: str, scale: int) -> None:
        self.name, self.unit, self.scale = name, unit, scale
        self.observed = 0
        self.expected = 0
        self.sum_sq = 0
        self.count = 0

    def add(self, x: npt.NDArray[np.int64], num: npt.NDArray[np.int64] | int) -> None:
        xs = x.tolist()
        nums = num.tolist() if isinstance(num, np.ndarray) else [num] * len(xs)
        for xi, ni in zip(xs, nums):
            d = xi * self.scale - ni
            self.sum_sq += d * d
            self.observed += xi
            self.expected += ni
        self.count += len(xs)

    def test(self) -> FamilyTest:
        return self_normalised(self.name, self.count, self.unit, self.observed, self.expected, self.scale, self.sum_sq)
