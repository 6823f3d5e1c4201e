"""Study stage 4, aggregation: chunks combined exactly into the study's figures per
wager and strategy (:class:`StudyResult`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.exact import decimal, ratio, sqrt_decimal
from exactodds.figures.settlement import settlement
from exactodds.game.cards import falling_factorial
from exactodds.study.pricing import FamilyPart

# -- combining chunks ------------------------------------------------------------------------------
from exactodds.study.spec import BUCKET_LOW, FIXED_BITS, StudySpec, WagerSpec, _join, _Priced, _priced


@dataclass
class _FamilyTotal:
    """A family's aggregates over every chunk so far (integers only)."""

    k: int
    cards: int
    limbs: int
    count: npt.NDArray[np.int64] = field(init=False)
    exp: npt.NDArray[np.int64] = field(init=False)
    realized: tuple[list[int], list[int]] | None = None
    expected: tuple[list[int], list[int]] | None = None

    def __post_init__(self) -> None:
        self.count = np.zeros(self.k, np.int64)
        self.exp = np.zeros(((self.cards + 1) * self.k, self.limbs), np.int64)

    def add(self, part: FamilyPart) -> None:
        self.count += part.count
        self.exp[part.exp_index] += part.exp_limbs
        for name in ("realized", "expected"):
            got: tuple[list[int], list[int]] | None = getattr(part, name)
            if got is None:
                continue
            mine = getattr(self, name)
            setattr(self, name, got if mine is None else
                    ([a + b for a, b in zip(mine[0], got[0])], [a + b for a, b in zip(mine[1], got[1])]))

    def sums(self) -> npt.NDArray[Any]:
        """Exact numerator sums, ``(cards left, bin)`` Python ints."""
        return _join(self.exp.reshape(self.cards + 1, self.k, self.limbs))


@dataclass
class _WagerTotal:
    families: dict[str, _FamilyTotal]
    hist: npt.NDArray[np.int64] | None = None
    sample: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = field(default_factory=list)


# -- results ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Interval:
    """A 95 % interval (floats: a statistic of the observed shoes, for display)."""

    low: float
    high: float


@dataclass(frozen=True)
class StrategyResult:
    """One strategy's figures on one wager, per unit bet (exact unless said)."""

    strategy: str
    rounds: int
    bets: int
    shoes: int
    expected_win: Fraction
    """Σ of the exact returns of the rounds bet."""
    realized_win: Fraction
    """Σ of the actual net results of the rounds bet."""
    expected_interval: Interval | None
    realized_interval: Interval | None
    trigger: dict[str, Any] | None = None
    scan: tuple[dict[str, Any], ...] = ()
    realized_shoe_variance: Fraction | None = None
    """Sample variance (divisor shoes − 1) of the realized win per shoe, exact (docs/study.md)."""

    @property
    def win_per_100_rounds(self) -> Fraction:
        """Expected win per 100 rounds dealt (bet or not), in units of one bet."""
        return 100 * self.expected_win / self.rounds if self.rounds else Fraction(0)

    @property
    def sd_per_shoe(self) -> str | None:
        """Standard deviation of the realized win per shoe (a decimal: it is irrational)."""
        v = self.realized_shoe_variance
        return None if v is None else sqrt_decimal(v, 6)

    @property
    def desirability_index(self) -> float | None:
        """DI = 1000 · EV / SD per round dealt, with EV = expected win per round and SD per round
        = SD per shoe / √(rounds per shoe) (Schlesinger, *Blackjack Attack*, ch. 10)."""
        v = self.realized_shoe_variance
        if v is None or v == 0 or not self.rounds:
            return None
        per_shoe = self.rounds / self.shoes
        return 1000 * float(self.expected_win / self.rounds) / math.sqrt(float(v) / per_shoe)

    @property
    def score(self) -> float | None:
        """SCORE = DI² (10⁶ · (EV/SD)² per round): the win per 100 rounds of a Kelly bettor with
        a bankroll of 10,000 units; 0 when the expected win is not positive (no bet)."""
        di = self.desirability_index
        return None if di is None else (di * di if di > 0 else 0.0)

    @property
    def bets_per_shoe(self) -> Fraction:
        return Fraction(self.bets, self.shoes)

    @property
    def expected_win_per_shoe(self) -> Fraction:
        return self.expected_win / self.shoes

    @property
    def realized_win_per_shoe(self) -> Fraction:
        return self.realized_win / self.shoes

    @property
    def average_advantage(self) -> Fraction | None:
        """Mean exact return of the rounds bet (the player's edge when betting)."""
        return self.expected_win / self.bets if self.bets else None


@dataclass(frozen=True)
class Bucket:
    """Rounds whose true count lies in ``[low, low + 1)`` (the end buckets are open)."""

    low: int
    label: str
    rounds: int
    mean_return: Fraction | None


@dataclass(frozen=True)
class WagerResult:
    """Every figure of the study for one wager."""

    spec: WagerSpec
    level: str
    full_shoe_return: Fraction
    rounds: int
    positive_rounds: int
    mean_return: Fraction
    """The exact return averaged over every round dealt (cut-card effect included)."""
    buckets: tuple[Bucket, ...]
    strategies: tuple[StrategyResult, ...]

    @property
    def positive_share(self) -> Fraction:
        return Fraction(self.positive_rounds, self.rounds)


@dataclass(frozen=True)
class StudyResult:
    """The study: its settings, its figures per wager, and how long it took."""

    spec: StudySpec
    decks: int | None
    rounds: int
    wagers: tuple[WagerResult, ...]
    seconds: float
    compositions: int
    worker_seconds: float = 0.0
    """Wall seconds the chunks took where they ran, added up (the study's work)."""
    worker_cpu_seconds: float = 0.0
    """CPU seconds of the processes that ran the chunks, added up (free of other load)."""
    plot_data: dict[str, tuple[npt.NDArray[np.int64] | None, list[Any]]] = field(default_factory=dict, repr=False)
    warm_cpu_seconds: float = 0.0
    """The part of :attr:`worker_cpu_seconds` spent on chunks run by an already started
    process (:attr:`~exactodds.study.pricing.ChunkResult.warm`)."""
    warm_shoes: int = 0
    """Shoes of those chunks."""
    warm_pricing_cpu_seconds: float = 0.0
    """The part of :attr:`warm_cpu_seconds` spent pricing compositions."""


def _universes(cards: int, depth: int) -> list[int]:
    return [falling_factorial(n, depth) for n in range(cards + 1)]


def _exact_sum(sums: Sequence[Any] | npt.NDArray[Any], universe: Sequence[int], den: int) -> Fraction:
    """``Σ_N sums[N] / (den × universe[N])`` exactly, over one common denominator."""
    present = [n for n, s in enumerate(sums) if s]
    if not present:
        return Fraction(0)
    common = math.lcm(*(universe[n] for n in present))
    return Fraction(sum(int(sums[n]) * (common // universe[n]) for n in present), den * common)


def _interval(total: int, squares: int, n: int, scale: Fraction) -> Interval | None:
    """Mean ± t₀.₉₇₅ × s/√n of per-shoe values ``x/scale`` from their exact Σ and Σ²."""
    if n < 2:
        return None
    from scipy.stats import t as student

    var = Fraction(squares * n - total * total, n * (n - 1)) / (scale * scale)
    half = float(student.ppf(0.975, n - 1)) * math.sqrt(float(var) / n)
    mean = float(Fraction(total, n) / scale)
    return Interval(mean - half, mean + half)


def _strategy(name: str, fam: _FamilyTotal, c: int, sums: npt.NDArray[Any], universe: Sequence[int], den: int,
              shoes: int, rounds: int, trigger: dict[str, Any] | None = None,
              scan: tuple[dict[str, Any], ...] = ()) -> StrategyResult:
    assert fam.realized is not None and fam.expected is not None
    bets = int(fam.count[c + 1:].sum())
    expected = _exact_sum(sums[:, c + 1:].sum(axis=1), universe, den)
    realized = Fraction(fam.realized[0][c], den)
    total, squares = fam.realized[0][c], fam.realized[1][c]
    shoe_var = Fraction(squares * shoes - total * total, shoes * (shoes - 1) * den * den) if shoes > 1 else None
    return StrategyResult(name, rounds, bets, shoes, expected, realized,
                          _interval(fam.expected[0][c], fam.expected[1][c], shoes, Fraction(1 << FIXED_BITS)),
                          _interval(fam.realized[0][c], fam.realized[1][c], shoes, Fraction(den)),
                          trigger, scan, shoe_var)


def _finish_wager(w: WagerSpec, total: _WagerTotal, spec: StudySpec, rounds: int) -> WagerResult:
    p = _priced(w, spec.cards)
    universe = _universes(spec.cards, p.wager.level.depth)
    perfect = total.families["perfect"]
    strategies = [_strategy("perfect", perfect, 0, perfect.sums(), universe, p.den, spec.shoes, rounds)]
    if "count" in total.families:
        assert spec.thresholds is not None
        fam = total.families["count"]
        sums = fam.sums()
        suffix = np.cumsum(sums[:, ::-1], axis=1)[:, ::-1]                  # Σ over bins ≥ k
        th = spec.thresholds
        exp = [_exact_sum(suffix[:, c + 1], universe, p.den) for c in range(len(th.values))]
        bets = [int(fam.count[c + 1:].sum()) for c in range(len(th.values))]
        betting = [c for c in range(len(th.values)) if bets[c]] or [len(th.values) - 1]
        best = max(betting, key=lambda c: (exp[c], c))
        scan = tuple({"trigger": ratio(th.values[c]), "bets_per_shoe": decimal(Fraction(bets[c], spec.shoes), 4),
                      "expected_win_per_shoe": decimal(exp[c] / spec.shoes, 6)}
                     for c in range(len(th.values)) if 0 < bets[c] < rounds) if th.scanned else ()
        trigger: dict[str, Any] = {"kind": th.kind, "value": ratio(th.values[best]), "scanned": th.scanned,
                                   "at_edge": th.scanned and best in (0, len(th.values) - 1)}
        if not any(w.tags):
            trigger["note"] = ("every tag is 0 (for this wager every rank's effect of removal is equal, so a "
                               "linear count carries no information): the count bets every round or none")
        strategies.append(_strategy("count", fam, best, sums, universe, p.den, spec.shoes, rounds, trigger, scan))
    bucket_fam = total.families["buckets"]
    bsums = bucket_fam.sums()
    buckets = []
    for b in range(bucket_fam.k):
        low = BUCKET_LOW + b
        label = f"<{low + 1}" if b == 0 else f">={low}" if b == bucket_fam.k - 1 else str(low)
        n = int(bucket_fam.count[b])
        mean = _exact_sum(bsums[:, b], universe, p.den) / n if n else None
        buckets.append(Bucket(low, label, n, mean))
    mean_all = _exact_sum(bsums.sum(axis=1), universe, p.den) / rounds
    full = _full_return(p, spec.counts)
    return WagerResult(w, p.wager.level.name, full, rounds, int(perfect.count[1]), mean_all, tuple(buckets),
                       tuple(strategies))


def _full_return(p: _Priced, counts: Sequence[int]) -> Fraction:
    priced = p.wager.level.price_batch(np.array([counts], np.int64))
    nums, den = settlement(p.wager, p.table).return_numerators(priced.counts, tuple(Fraction(x, p.den) for x in p.scaled))
    return Fraction(nums[0], den * priced.universe[0])


