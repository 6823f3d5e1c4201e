"""The statistics of a cross-check: cells with exact probabilities, Pearson's chi-square,
z-tests, the return test, and a family of tests (one wager's, the round results', the
cards', the shoes') whose p-values enter the verdict's Holm correction.

Every expected count and probability is a :class:`~fractions.Fraction`, and so is each
chi-square statistic until its p-value is taken; floats appear only in observed statistics
and p-values (``scipy.stats``, imported when a test is made). Shared by
:mod:`exactodds.simulation.crosscheck` (round results, wagers, card sequences) and
:mod:`exactodds.simulation.shoetests` (shoe-level tests), so neither imports the other.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

MIN_EXPECTED: Final = 5
"""Cells whose expected count is below this are merged before the chi-square test."""

MIN_RETURN_ROUNDS: Final = 30
"""The return test needs at least this many rounds, and more for skewed wagers (see
:func:`min_return_rounds`)."""


@dataclass(frozen=True)
class Cell:
    """One outcome: observed count, exact probability and expected count, z-score."""

    name: str
    observed: int
    probability: Fraction
    expected: Fraction
    z: float | None


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's chi-square over the (merged) cells.

    ``conclusive`` is false when the sample is too small for the test: fewer than two
    groups of cells expecting at least 5 rounds each (and no impossible outcome seen).
    """

    statistic: float
    df: int
    p_value: float
    groups: int
    merged: tuple[tuple[str, ...], ...]
    impossible: tuple[str, ...]
    conclusive: bool = True
    key: tuple[Any, ...] = ()
    method: str = "chi-square"
    """How ``p_value`` is computed: ``"chi-square"``, ``"z"`` (a two-sided z-test given as
    ``z²`` on one degree of freedom) or ``"repeat bound"`` (shoe-level tests)."""


@dataclass(frozen=True)
class ReturnTest:
    """Observed return per unit wagered against the exact return.

    ``conclusive`` is false with fewer rounds than ``min_rounds`` (:func:`min_return_rounds`).
    """

    observed: Fraction
    exact: Fraction
    ci_low: float
    ci_high: float
    confidence: float
    z: float
    p_value: float
    min_rounds: int = 0
    conclusive: bool = True
    key: tuple[Any, ...] = ()


@dataclass(frozen=True)
class FamilyTest:
    """The tests of one wager under one paytable (or of the round results, or of the cards)."""

    wager: str
    paytable: str
    rounds: int
    cells: tuple[Cell, ...]
    chi_square: ChiSquare
    return_test: ReturnTest | None

    def p_values(self) -> list[float]:
        """The p-values of this family's conclusive tests (chi-square, then return if any)."""
        return [t[1] for t in self.tests()]

    def tests(self) -> list[tuple[tuple[Any, ...], float]]:
        """``(identity key, p-value)`` of each conclusive test; equal keys are one test."""
        out = []
        if self.chi_square.conclusive:
            out.append((self.chi_square.key, self.chi_square.p_value))
        if self.return_test is not None and self.return_test.conclusive:
            out.append((self.return_test.key, self.return_test.p_value))
        return out


def merge_cells(cells: list[Cell]) -> list[tuple[tuple[str, ...], int, Fraction]]:
    """Groups of cells, merging the smallest until every group expects at least 5."""
    heap: list[tuple[Fraction, tuple[str, ...], int]] = [(c.expected, (c.name,), c.observed) for c in cells]
    heapq.heapify(heap)
    while len(heap) > 1 and heap[0][0] < MIN_EXPECTED:
        e1, n1, o1 = heapq.heappop(heap)
        e2, n2, o2 = heapq.heappop(heap)
        heapq.heappush(heap, (e1 + e2, n1 + n2, o1 + o2))
    return sorted(((names, o, e) for e, names, o in heap), key=lambda g: g[0])


def chi2_sf(stat: float, df: int) -> float:
    from scipy import stats  # heavy: only when a test is made

    return float(stats.chi2.sf(stat, df))


def norm_two_sided(z: float) -> float:
    from scipy import stats

    return float(2 * stats.norm.sf(abs(z)))


def chi_square(cells: Sequence[Cell], rows: Sequence[Sequence[Cell]] | None = None) -> ChiSquare:
    """Pearson's chi-square of ``cells`` (exact statistic, ``scipy.stats`` p-value).

    Cells of probability 0 are left out of the sum; a count in one is an impossible
    outcome and makes the p-value 0. With ``rows`` (independent multinomial rows, each
    with its own total, together holding ``cells``), cells are merged within their row
    and each row takes one degree of freedom.
    """
    impossible = tuple(c.name for c in cells if c.probability == 0 and c.observed > 0)
    groups: list[tuple[tuple[str, ...], int, Fraction]] = []
    parts = rows if rows is not None else [cells]
    for part in parts:
        groups += merge_cells([c for c in part if c.probability > 0])
    stat = sum(((o - e) ** 2 / e for _, o, e in groups if e > 0), Fraction(0))
    df = len(groups) - len(parts)
    merged = tuple(names for names, _, _ in groups if len(names) > 1)
    conclusive = bool(impossible) or (df >= 1 and all(e >= MIN_EXPECTED for _, _, e in groups))
    if impossible:
        p = 0.0
    elif df < 1:
        p = 1.0
    else:
        p = chi2_sf(stat.numerator / stat.denominator, df)
    key = ("chi2", tuple((e, o) for _, o, e in groups), impossible)
    return ChiSquare(float(stat), df, p, len(groups), merged, impossible, conclusive, key)


def z_score(observed: int, n: int, p: Fraction) -> float | None:
    if n == 0 or p in (0, 1):
        return None
    return float(observed - n * p) / math.sqrt(float(n * p * (1 - p)))


def make_cells(observed: Mapping[str, int], probabilities: Mapping[str, Fraction]) -> list[Cell]:
    """Cells for every outcome with a probability or an observation."""
    n = sum(observed.values())
    names = list(probabilities) + [k for k in observed if k not in probabilities]
    out = []
    for name in names:
        p = probabilities.get(name, Fraction(0))
        o = observed.get(name, 0)
        out.append(Cell(name, o, p, n * p, z_score(o, n, p)))
    return out


def min_return_rounds(probabilities: Mapping[str, Fraction], nets: Mapping[str, Fraction]) -> int:
    """Rounds the return test needs: at least 30, and Cochran's rule ``n > 25·γ₁²`` for a
    skewed wager (γ₁ the skewness of one round's net; Cochran, *Sampling Techniques*, 1977,
    § 2.15), computed exactly: ``25·μ₃²/σ⁶``.

    >>> min_return_rounds({"win": Fraction(1, 2), "lose": Fraction(1, 2)}, {"win": Fraction(1), "lose": Fraction(-1)})
    30
    """
    mean = sum((p * nets[k] for k, p in probabilities.items()), Fraction(0))
    var = sum((p * (nets[k] - mean) ** 2 for k, p in probabilities.items()), Fraction(0))
    if var == 0:
        return MIN_RETURN_ROUNDS
    mu3 = sum((p * (nets[k] - mean) ** 3 for k, p in probabilities.items()), Fraction(0))
    cochran = 25 * mu3 * mu3 / (var * var * var)
    return max(MIN_RETURN_ROUNDS, math.floor(cochran) + 1)


def return_test(observed: Mapping[str, int], nets: Mapping[str, Fraction], exact: Fraction,
                variance: Fraction, alpha: float, min_rounds: int = MIN_RETURN_ROUNDS) -> ReturnTest:
    """The observed return (exact Fraction) against the exact one.

    ``z = (observed − exact) / √(variance / n)`` with the exact variance of one round;
    the confidence interval (level ``1 − alpha``) uses the observed standard deviation.
    """
    from scipy import stats

    n = sum(observed.values())
    total = sum((nets[k] * o for k, o in observed.items()), Fraction(0))
    mean = total / n
    second = sum((nets[k] ** 2 * o for k, o in observed.items()), Fraction(0)) / n
    sample_var = (second - mean**2) * n / (n - 1) if n > 1 else Fraction(0)
    q = float(stats.norm.isf(alpha / 2))
    half = q * math.sqrt(float(sample_var) / n)
    diff = mean - exact
    if variance == 0:
        z = 0.0 if diff == 0 else math.copysign(math.inf, float(diff))
        key: tuple[Any, ...] = ("return", diff == 0, n)
    else:
        z = float(diff) / math.sqrt(float(variance) / n)
        key = ("return", diff * diff / variance, diff > 0, n)
    p = norm_two_sided(z)
    return ReturnTest(mean, exact, float(mean) - half, float(mean) + half, 1 - alpha, z, p, min_rounds,
                      n >= min_rounds, key)
