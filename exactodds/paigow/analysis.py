"""Exact odds of a Pai Gow wager against the dealer's regulated house way.

Universe: the player receives 4 of the tiles of the set, then the dealer 4 of the
remaining tiles; every such pair of unordered 4-tile sets is equally likely. For the
32-tile set that is C(32,4)·C(28,4) = 35960·20475 = 736,281,000 deals. Tiles held by
other seats are unseen and do not change these probabilities.

Method (grouped, exact): the outcome of a deal depends only on the *kinds* of tile
held, so hands are grouped into distinct 4-tile hands (multisets of kinds). For
each distinct player hand ``P`` (drawn in ``ways(P)`` = Π C(n_k, p_k) ways) and
each distinct dealer hand ``D``, the number of dealer draws from what is left is
Π C(n_k − p_k, d_k). The dealer's setting (§ 535.10(d)) and the player's three
possible settings are fixed per hand, so each (P, setting) gets integer counts of
win, tie and loss over all dealer draws (numpy int64: each count ≤ C(28,4)), and the
totals are Python ints Σ ways(P)·count. Nothing is ever a float.

Player strategies:

* ``"house-way"`` -- the player sets every hand as the dealer would (§ 535.10(b)
  lets the dealer tell a player the house way on request);
* ``"optimal"`` -- for every distinct hand, the setting with the highest exact
  expected return against the dealer's house way, a win netting the payout after
  vigorish (0.95 at the exact 5% rate; re-optimised for each wager amount when the
  vigorish is rounded). Where settings tie in return the house way's is kept, then
  the first in tile order.

>>> a = paigow_analysis("house-way", tiles=["Twelve (6-6)", "Twelve (6-6)", "Two (1-1)", "Two (1-1)",
...     "Nine (4-5)", "Eight (2-6)", "Six (2-4)", "Three (1-2)", "Five (1-4)"])
>>> a.universe == a.wins + a.ties + a.losses == 126 * 5
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import ceil, comb, prod
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from exactodds.errors import InputError
from exactodds.exact import decimal, percent, ratio
from exactodds.version import __version__

from .hands import READING_COMPARE, READING_GEE_JOON, READING_ZERO, settings
from .house_way import (
    CITE_HOUSE_WAY,
    DEFAULT_READING,
    READING_HOUSE_WAY,
    HouseWayReading,
    Step,
    house_way_reading,
    house_way_setting,
)
from .outcomes import Hand, HandOutcomes
from .tiles import TILES, tile_counts

Strategy = Literal["house-way", "optimal"]
STRATEGIES: Final[tuple[Strategy, ...]] = ("house-way", "optimal")

VIGORISH_RATE: Final = Fraction(5, 100)
"""§ 535.10(k): 5% of the amount won."""
VIGORISH_INCREMENT: Final = Fraction(1, 4)
"""§ 535.10(k): the vigorish may be rounded up to 25 cents or its next multiple."""
DEFAULT_AMOUNTS: Final[tuple[Fraction, ...]] = tuple(
    [Fraction(k) for k in range(1, 26)] + [Fraction(5 * k) for k in range(6, 21)]
)
"""Wager amounts of the default vigorish table: $1 to $25 by $1, then $30 to $100 by $5.

On a multiple of $5 the rounded vigorish equals the exact 5%, so only the other
amounts differ from the exact-rate return."""

CITE: Final = (
    "58 Pa. Code §§ 535.3(a), (c); 535.4(a)-(g); 535.10(d) (dealer's setting), (f)-(j) (comparison), "
    "(k) (1 to 1 less 5% vigorish)"
)
CITE_VIGORISH: Final = "58 Pa. Code § 535.10(k)"

READING_DEAL: Final = (
    "Universe: the player's 4 tiles from the set, then the dealer's 4 from the rest, all equally likely; "
    "the house (dealer) banks -- player-bank and co-bank play (§ 535.11) are not analysed. Surrender "
    "(§ 535.10(e)) forfeits the whole wager, never better than playing on, so it is never taken."
)
READING_STRATEGY: Final = {
    "house-way": "Player strategy 'house-way': the player sets every hand by the dealer's rules of § 535.10(d).",
    "optimal": (
        "Player strategy 'optimal': for every distinct 4-tile hand the player takes, of its 3 possible "
        "settings, the one with the highest exact expected return against the dealer's house way (a win "
        "nets 1 less the vigorish; ties in return keep the house way's setting). Its counts are those of "
        "the settings optimal at the exact 5% rate; with a rounded vigorish it is re-optimised per amount."
    ),
}
READING_VIGORISH: Final = (
    "§ 535.10(k): a win is paid 1 to 1 less 5% of the amount won; 'return' nets 0.95 per unit won at the "
    "exact rate; rounded, the vigorish on a wager of A is ceil(0.05·A / 0.25)·0.25."
)


ReadingArg = str | HouseWayReading | None
"""A house-way reading: a built-in id, a file of the casino's order, a reading, or None (default)."""


def reading(strategy: Strategy, house_way: HouseWayReading = DEFAULT_READING) -> str:
    """Every reading taken for a result of this strategy, in one string."""
    return " ".join(
        (READING_DEAL, READING_COMPARE, READING_ZERO, READING_GEE_JOON, READING_HOUSE_WAY, house_way.text(),
         READING_STRATEGY[strategy], READING_VIGORISH)
    )


def vigorish(amount: Fraction | int, rate: Fraction = VIGORISH_RATE,
             increment: Fraction | None = VIGORISH_INCREMENT) -> Fraction:
    """Vigorish on a win of ``amount`` dollars: ⌈rate·amount / increment⌉·increment.

    ``increment=None`` gives the exact ``rate·amount`` (§ 535.10(k)).

    >>> vigorish(5), vigorish(10), vigorish(Fraction(15, 2)), vigorish(1)
    (Fraction(1, 4), Fraction(1, 2), Fraction(1, 2), Fraction(1, 4))
    >>> vigorish(Fraction(15, 2), increment=None)
    Fraction(3, 8)
    """
    a = _amount(amount)
    exact = rate * a
    if increment is None:
        return exact
    return ceil(exact / increment) * increment


def _amount(amount: Fraction | int) -> Fraction:
    if isinstance(amount, bool) or not isinstance(amount, (int, Fraction)):
        raise InputError(f"wager amount must be an int or Fraction of dollars, got {amount!r}")
    if amount <= 0:
        raise InputError(f"wager amount must be more than 0, got {amount}")
    return Fraction(amount)


# --------------------------------------------------------------------------- engine

Counts = tuple[int, ...]
IntArray = npt.NDArray[np.int64]


def distinct_hands(counts: Counts) -> list[Hand]:
    """Every distinct 4-tile hand (sorted tile kinds) that ``counts`` can deal.

    >>> len(distinct_hands(tile_counts()))
    8130
    """
    out: list[Hand] = []
    kinds = [k for k, n in enumerate(counts) for _ in range(min(n, 4))]

    def rec(start: int, chosen: list[int]) -> None:
        if len(chosen) == 4:
            out.append((chosen[0], chosen[1], chosen[2], chosen[3]))
            return
        prev = -1
        for i in range(start, len(kinds)):
            if kinds[i] == prev:
                continue
            prev = kinds[i]
            rec(i + 1, chosen + [kinds[i]])

    rec(0, [])
    return out


def ways(hand: Iterable[int], counts: Counts) -> int:
    """Number of unordered 4-tile draws from ``counts`` giving this hand: Π C(n_k, m_k)."""
    hand = tuple(hand)
    return prod(comb(counts[k], hand.count(k)) for k in set(hand))


@lru_cache(maxsize=16)
def hand_outcomes(counts: Counts, house_way: HouseWayReading = DEFAULT_READING) -> tuple[HandOutcomes, ...]:
    """Win/tie/loss counts of every setting of every distinct player hand of ``counts``
    against the dealer's house way under ``house_way``.

    Cached per tile set and reading: everything here is independent of the payout. For
    the regulation's 32 tiles and a built-in reading they are read from the arrays shipped
    in the package (:mod:`.cache`, rebuilt and compared by the tests).
    """
    from .cache import load_outcomes

    cached = load_outcomes(counts, house_way)
    if cached is not None:
        return cached
    return compute_hand_outcomes(counts, house_way)


def compute_hand_outcomes(counts: Counts, house_way: HouseWayReading = DEFAULT_READING) -> tuple[HandOutcomes, ...]:
    """:func:`hand_outcomes` computed, never read from the shipped cache."""
    if sum(counts) < 8:
        raise InputError(f"a deal needs at least 8 tiles, the set has {sum(counts)}")
    hands = distinct_hands(counts)
    n = len(hands)
    pad = len(TILES)
    dk = np.full((n, 4), pad, dtype=np.int64)    # distinct kinds of each hand (padded)
    dm = np.zeros((n, 4), dtype=np.int64)        # their multiplicities
    dh = np.empty(n, dtype=np.int64)             # dealer's high-hand key (house way)
    dl = np.empty(n, dtype=np.int64)             # dealer's low-hand key
    for j, h in enumerate(hands):
        for i, k in enumerate(sorted(set(h))):
            dk[j, i] = k
            dm[j, i] = h.count(k)
        s, _ = house_way_setting(h, house_way)
        dh[j], dl[j] = s.high_key, s.low_key
    top = max(counts)
    binom = np.array([[comb(a, b) for b in range(5)] for a in range(top + 1)], dtype=np.int64)
    base = np.array(list(counts) + [0], dtype=np.int64)
    dealer_total = comb(sum(counts) - 4, 4)
    out: list[HandOutcomes] = []
    for h in hands:
        rem = base.copy()
        for k in h:
            rem[k] -= 1
        w: IntArray = binom[rem[dk], dm].prod(axis=1)
        total = int(w.sum())
        assert total == dealer_total
        sets = settings(h)
        hw, step = house_way_setting(h, house_way)
        house_index = next(i for i, s in enumerate(sets) if (s.high_key, s.low_key) == (hw.high_key, hw.low_key))
        seen: dict[tuple[int, int], tuple[int, int, int]] = {}
        per: list[tuple[int, int, int]] = []
        for s in sets:
            key = (s.high_key, s.low_key)
            if key not in seen:
                high_higher = s.high_key > dh
                if s.low_is_zero:
                    wins, losses = 0, int(w[~high_higher].sum())
                else:
                    low_higher = s.low_key > dl
                    wins = int(w[high_higher & low_higher].sum())
                    losses = int(w[~(high_higher | low_higher)].sum())
                seen[key] = (wins, total - wins - losses, losses)
            per.append(seen[key])
        out.append(HandOutcomes(h, ways(h, counts), total, sets, tuple(per), house_index, step))
    return tuple(out)


def _resolve(tiles: Sequence[str] | Mapping[str, int] | None) -> Counts:
    return tile_counts(tiles)


def _check_strategy(strategy: str) -> Strategy:
    if strategy not in STRATEGIES:
        raise InputError(f"unknown Pai Gow strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    return strategy


def _choices(outcomes: Sequence[HandOutcomes], strategy: Strategy, net_win: Fraction) -> list[int]:
    if strategy == "house-way":
        return [o.house_index for o in outcomes]
    return [o.best_index(net_win) for o in outcomes]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class PaiGowAnalysis:
    """Exact result of one player strategy against the dealer's house way.

    Counts are ints over ``universe`` equally likely deals; every probability,
    return and edge is an exact Fraction. ``return_vigorish`` is per unit wagered
    with a win netting 0.95 (§ 535.10(k) at the exact rate); ``return_even_money``
    is the same settings with wins paid 1 to 1 and no vigorish (for reference).
    """

    strategy: Strategy
    tiles: int
    distinct_player_hands: int
    player_hands: int
    dealer_hands: int
    universe: int
    wins: int
    ties: int
    losses: int
    p_win: Fraction
    p_tie: Fraction
    p_loss: Fraction
    return_even_money: Fraction
    return_vigorish: Fraction
    house_edge: Fraction
    vigorish_rate: Fraction
    reading: str
    cite: str
    house_way_reading: str = DEFAULT_READING.id
    """The id of the reading of § 535.10(d)(2),(3) taken (see :mod:`.house_way`)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ints as ints, exact values as ``"p/q"``, decimals only for display."""
        exact = {
            "p_win": self.p_win, "p_tie": self.p_tie, "p_loss": self.p_loss,
            "return_even_money": self.return_even_money, "return_vigorish": self.return_vigorish,
            "house_edge": self.house_edge, "vigorish_rate": self.vigorish_rate,
        }
        d: dict[str, Any] = {
            "game": "pai-gow",
            "strategy": self.strategy,
            "house_way_reading": self.house_way_reading,
            "tiles": self.tiles,
            "distinct_player_hands": self.distinct_player_hands,
            "player_hands": self.player_hands,
            "dealer_hands": self.dealer_hands,
            "universe": self.universe,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
        }
        d.update({k: ratio(v) for k, v in exact.items()})
        d["display"] = {
            "p_win": decimal(self.p_win, 10), "p_tie": decimal(self.p_tie, 10), "p_loss": decimal(self.p_loss, 10),
            "return_even_money": percent(self.return_even_money, 6),
            "return_vigorish": percent(self.return_vigorish, 6), "house_edge": percent(self.house_edge, 6),
        }
        d["reading"] = self.reading
        d["cite"] = self.cite
        return d


def paigow_analysis(strategy: Strategy = "house-way",
                    tiles: Sequence[str] | Mapping[str, int] | None = None,
                    house_way: ReadingArg = None) -> PaiGowAnalysis:
    """Exact win/tie/loss and return of a player ``strategy`` against the house way.

    ``tiles`` restricts the set (tile names, a name repeated for a second copy, or a
    mapping name -> number); the default is the regulation's 32 tiles. ``house_way`` is
    the reading of § 535.10(d)(2),(3) (:func:`.house_way.house_way_reading`).
    """
    strategy = _check_strategy(strategy)
    hw = house_way_reading(house_way)
    counts = _resolve(tiles)
    net = 1 - VIGORISH_RATE
    wins, ties, losses = _totals(counts, hw, strategy, net)
    distinct = len(_arrays(counts, hw)[0])
    n = sum(counts)
    player_hands, dealer_hands = comb(n, 4), comb(n - 4, 4)
    universe = player_hands * dealer_hands
    if wins + ties + losses != universe:  # pragma: no cover - an internal invariant
        raise AssertionError("Pai Gow counts do not add up to the universe")
    ret = (net * wins - losses) / Fraction(universe)
    return PaiGowAnalysis(
        strategy=strategy, tiles=n, distinct_player_hands=distinct,
        player_hands=player_hands, dealer_hands=dealer_hands, universe=universe,
        wins=wins, ties=ties, losses=losses,
        p_win=Fraction(wins, universe), p_tie=Fraction(ties, universe), p_loss=Fraction(losses, universe),
        return_even_money=Fraction(wins - losses, universe), return_vigorish=ret, house_edge=-ret,
        vigorish_rate=VIGORISH_RATE, reading=reading(strategy, hw), cite=CITE, house_way_reading=hw.id,
    )


def return_for_amount(amount: Fraction | int, strategy: Strategy = "house-way",
                      tiles: Sequence[str] | Mapping[str, int] | None = None,
                      house_way: ReadingArg = None) -> Fraction:
    """Exact expected return per unit wagered for a wager of ``amount`` dollars with
    the vigorish rounded up to 25 cents (§ 535.10(k)); ``"optimal"`` is re-optimised
    for that amount's net win.
    """
    strategy = _check_strategy(strategy)
    a = _amount(amount)
    net = 1 - vigorish(a) / a
    return _total_return(_resolve(tiles), house_way_reading(house_way), strategy, net)


INT64_SAFE: Final = 1 << 62


@lru_cache(maxsize=16)
def _arrays(counts: Counts, house_way: HouseWayReading) -> tuple[IntArray, IntArray, IntArray, int]:
    """ways (n), win/tie/loss counts per setting (n x 3 x 3), house-way index (n), and the
    universe: from the shipped tables when they hold ``counts`` and the reading (no hand
    objects are built then), else from :func:`hand_outcomes`."""
    from .cache import load_arrays

    data = load_arrays(counts, house_way)
    if data is not None:
        w, c, house = data["ways"], data["counts"], data["house_index"].astype(np.int64)
        universe = sum(a * b for a, b in zip(w.tolist(), data["dealer_hands"].tolist()))
        return w, c, house, universe
    outcomes = hand_outcomes(counts, house_way)
    w = np.array([o.ways for o in outcomes], dtype=np.int64)
    c = np.array([o.counts for o in outcomes], dtype=np.int64).reshape(len(outcomes), 3, 3)
    house = np.array([o.house_index for o in outcomes], dtype=np.int64)
    return w, c, house, sum(o.ways * o.dealer_hands for o in outcomes)


def _picks(counts: Counts, house_way: HouseWayReading, strategy: Strategy, net: Fraction) -> IntArray | None:
    """The setting each hand is played with (as :func:`_choices`), vectorised in int64 when
    a bound proves every value ``num·wins − den·losses`` and every sum of them exact
    ((|num| + den) · largest count · Σ ways < 2^62); ``None`` beyond the bound."""
    num, den = net.numerator, net.denominator
    w, c, house, _ = _arrays(counts, house_way)
    if (abs(num) + den) * max(int(c.max(initial=0)), 1) * max(int(w.sum()), 1) >= INT64_SAFE:
        return None
    if strategy == "house-way":
        return house
    values = num * c[:, :, 0] - den * c[:, :, 2]
    rows = np.arange(len(w))
    # the best setting; the house way's where it ties the best (as HandOutcomes.best_index)
    return np.where(values[rows, house] == values.max(axis=1), house, values.argmax(axis=1))


def _totals(counts: Counts, house_way: HouseWayReading, strategy: Strategy, net: Fraction) -> tuple[int, int, int]:
    """Σ ways·(wins, ties, losses) of the strategy's settings: Python ints, exact."""
    pick = _picks(counts, house_way, strategy, net)
    if pick is None:
        wins = ties = losses = 0
        outcomes = hand_outcomes(counts, house_way)
        for o, i in zip(outcomes, _choices(outcomes, strategy, net)):
            wins += o.ways * o.counts[i][0]
            ties += o.ways * o.counts[i][1]
            losses += o.ways * o.counts[i][2]
        return wins, ties, losses
    w, c, _, _ = _arrays(counts, house_way)
    chosen = c[np.arange(len(w)), pick]  # n x 3; each column sum is below the bound checked
    wins, ties, losses = (int(x) for x in (w[:, None] * chosen).sum(axis=0))
    return wins, ties, losses


def _total_return(counts: Counts, house_way: HouseWayReading, strategy: Strategy, net: Fraction) -> Fraction:
    """Σ ways·(net·wins − losses) of the strategy's settings over the universe, exactly."""
    wins, _, losses = _totals(counts, house_way, strategy, net)
    return (net * wins - losses) / Fraction(_arrays(counts, house_way)[3])


@dataclass(frozen=True)
class VigorishRow:
    """Returns per unit for one wager amount with the vigorish rounded to 25 cents."""

    amount: Fraction
    vigorish: Fraction
    net_win: Fraction
    return_house_way: Fraction
    return_optimal: Fraction
    cite: str = CITE_VIGORISH

    def to_row(self) -> tuple[str, ...]:
        """Display strings in the order of :data:`VIGORISH_HEADERS`."""
        return (
            f"${decimal(self.amount, 2)}", f"${decimal(self.vigorish, 2)}", decimal(self.net_win, 6),
            ratio(self.return_house_way), percent(self.return_house_way, 4),
            ratio(self.return_optimal), percent(self.return_optimal, 4),
        )


VIGORISH_HEADERS: Final = (
    "amount", "vigorish", "net win per unit", "return house way", "return house way %",
    "return optimal", "return optimal %",
)


def vigorish_table(amounts: Iterable[Fraction | int] = DEFAULT_AMOUNTS,
                   tiles: Sequence[str] | Mapping[str, int] | None = None,
                   house_way: ReadingArg = None) -> list[VigorishRow]:
    """Exact returns of both strategies for each wager amount, vigorish rounded (§ 535.10(k))."""
    rows = []
    for amount in amounts:
        a = _amount(amount)
        v = vigorish(a)
        rows.append(VigorishRow(a, v, 1 - v / a, return_for_amount(a, "house-way", tiles, house_way),
                                return_for_amount(a, "optimal", tiles, house_way)))
    return rows


@dataclass(frozen=True)
class StrategyRow:
    """How to set one distinct 4-tile player hand, under both strategies.

    ``ways`` is how many of the C(32,4) player deals are this hand; ``dealer_hands``
    how many dealer hands can face it; counts are (win, tie, loss) over those;
    returns are exact, per unit, with the exact 5% vigorish.
    """

    hand: tuple[str, str, str, str]
    ways: int
    dealer_hands: int
    house_way_step: Step
    house_way_high: str
    house_way_low: str
    house_way_counts: tuple[int, int, int]
    house_way_return: Fraction
    optimal_high: str
    optimal_low: str
    optimal_counts: tuple[int, int, int]
    optimal_return: Fraction
    cite: str = CITE_HOUSE_WAY
    house_way_reading: str = DEFAULT_READING.id

    @property
    def same(self) -> bool:
        """True when the optimal setting is the house way's (or ranks identically)."""
        return self.house_way_counts == self.optimal_counts

    def to_row(self) -> tuple[str, ...]:
        """Display strings in the order of :data:`STRATEGY_HEADERS`."""
        return (
            ", ".join(self.hand), str(self.ways), self.house_way_step, self.house_way_high, self.house_way_low,
            ratio(self.house_way_return), decimal(self.house_way_return, 6),
            self.optimal_high, self.optimal_low, ratio(self.optimal_return), decimal(self.optimal_return, 6),
            "yes" if self.same else "no", self.house_way_reading,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready row (exact returns as ``"p/q"``)."""
        return {
            "hand": list(self.hand), "ways": self.ways, "dealer_hands": self.dealer_hands,
            "house_way": {"step": self.house_way_step, "high_hand": self.house_way_high,
                          "low_hand": self.house_way_low, "win_tie_loss": list(self.house_way_counts),
                          "return": ratio(self.house_way_return)},
            "optimal": {"high_hand": self.optimal_high, "low_hand": self.optimal_low,
                        "win_tie_loss": list(self.optimal_counts), "return": ratio(self.optimal_return)},
            "cite": self.cite, "house_way_reading": self.house_way_reading,
        }


STRATEGY_HEADERS: Final = (
    "hand", "ways", "house way §535.10(d)", "house high hand", "house low hand", "house return",
    "house return (dec)", "optimal high hand", "optimal low hand", "optimal return", "optimal return (dec)",
    "same", "house-way reading",
)


def strategy_table(tiles: Sequence[str] | Mapping[str, int] | None = None,
                   house_way: ReadingArg = None) -> list[StrategyRow]:
    """For every distinct 4-tile player hand: the house way's and the optimal setting,
    with exact returns (5% vigorish at the exact rate), hands in the tile order of
    § 535.4(f).
    """
    net = 1 - VIGORISH_RATE
    rows = []
    hw = house_way_reading(house_way)
    for o in hand_outcomes(_resolve(tiles), hw):
        b = o.best_index(net)
        hs, bs = o.settings[o.house_index], o.settings[b]
        h_high, h_low = hs.names()
        b_high, b_low = bs.names()
        rows.append(StrategyRow(
            hand=(TILES[o.hand[0]].name, TILES[o.hand[1]].name, TILES[o.hand[2]].name, TILES[o.hand[3]].name),
            ways=o.ways, dealer_hands=o.dealer_hands, house_way_step=o.house_step,
            house_way_high=h_high, house_way_low=h_low, house_way_counts=o.counts[o.house_index],
            house_way_return=o.expected_return(o.house_index, net),
            optimal_high=b_high, optimal_low=b_low, optimal_counts=o.counts[b],
            optimal_return=o.expected_return(b, net), house_way_reading=hw.id,
        ))
    return rows


def to_rows(rows: Iterable[StrategyRow] | Iterable[VigorishRow]) -> list[tuple[str, ...]]:
    """Display rows of a strategy or vigorish table, for :data:`STRATEGY_HEADERS`
    or :data:`VIGORISH_HEADERS` respectively."""
    return [r.to_row() for r in rows]


def paigow_json(analyses: Sequence[PaiGowAnalysis], vigorish_rows: Sequence[VigorishRow],
                strategy_rows: Sequence[StrategyRow] | None = None) -> dict[str, Any]:
    """The Pai Gow document: both strategies' figures, returns by wager amount and, if
    given, the strategy table; exact values as ``"p/q"``."""
    readings = sorted({a.house_way_reading for a in analyses})
    doc: dict[str, Any] = {
        "game": "pai-gow",
        "house_way_reading": readings[0] if len(readings) == 1 else readings,
        "strategies": [a.to_dict() for a in analyses],
        "vigorish_by_amount": [
            {"amount": ratio(r.amount), "vigorish": ratio(r.vigorish), "net_win": ratio(r.net_win),
             "return_house_way": ratio(r.return_house_way), "return_optimal": ratio(r.return_optimal),
             "cite": r.cite} for r in vigorish_rows],
        "version": __version__,
    }
    if strategy_rows is not None:
        doc["strategy_table"] = [r.to_dict() for r in strategy_rows]
    return doc



def paigow_summary_rows(analysis: PaiGowAnalysis) -> list[tuple[str, str]]:
    """(label, display value) rows summarising an analysis, for a plain table."""
    a = analysis
    return [
        ("game", "Pai Gow (tiles)"),
        ("player strategy", a.strategy),
        ("house-way reading, § 535.10(d)(2),(3)", a.house_way_reading),
        ("tiles in set", str(a.tiles)),
        ("distinct player hands", str(a.distinct_player_hands)),
        ("deals (player 4, dealer 4)", f"{a.universe:,} = {a.player_hands:,} x {a.dealer_hands:,}"),
        ("wins", f"{a.wins:,}"),
        ("ties (push)", f"{a.ties:,}"),
        ("losses", f"{a.losses:,}"),
        ("P(win)", f"{ratio(a.p_win)} = {decimal(a.p_win, 10)}"),
        ("P(tie)", f"{ratio(a.p_tie)} = {decimal(a.p_tie, 10)}"),
        ("P(loss)", f"{ratio(a.p_loss)} = {decimal(a.p_loss, 10)}"),
        ("return, wins 1 to 1 (no vigorish)", f"{ratio(a.return_even_money)} = {percent(a.return_even_money, 6)}"),
        ("return, 5% vigorish", f"{ratio(a.return_vigorish)} = {percent(a.return_vigorish, 6)}"),
        ("house edge, 5% vigorish", f"{ratio(a.house_edge)} = {percent(a.house_edge, 6)}"),
        ("cite", a.cite),
    ]


def bench_paigow() -> float:
    """CPU seconds (``time.process_time``) for the whole exact analysis, both
    strategies, from a cold cache."""
    hand_outcomes.cache_clear()
    _arrays.cache_clear()
    house_way_setting.cache_clear()
    settings.cache_clear()
    start = time.process_time()
    for strategy in STRATEGIES:
        paigow_analysis(strategy)
    strategy_table()
    return time.process_time() - start
