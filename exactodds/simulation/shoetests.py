"""Shoe-level tests and shoe accounting for hand logs dealt through the shoe.

A log with a ``shoe`` column shows every card each shoe dealt to the rounds, in dealing
order (§ 629a.8(c): Player, Banker, Player, Banker, then the third cards). What a
gaming lab's battery asks of such a log, and frequencies of round results cannot see:

**The window.** Every shoe deals at least ``K`` rounds
(:func:`~exactodds.simulation.simulate.guaranteed_rounds`), so at least ``4K`` cards;
the first ``F`` (``F`` = ``4K`` rounded down to a multiple of 3) logged cards of each
shoe are its *window*. Under a uniform shuffle the window is **exactly** a uniform
sample of ``F`` cards drawn without replacement from the full shoe: the burn size
depends only on the exposed first card (§ 629a.5(f)), and given that card the rest of
the shoe is uniformly ordered, so the cards after the burn have the law of cards
``2 .. F + 1``. Every expectation below is computed from that, in integers.

Tests (each a p-value entering the verdict's Holm family):

* **carry-over** (consecutive shoes): ``S`` = how many adjacent pairs of a shoe's window
  are an adjacent pair of the previous shoe's window (as faces, in order). Given the
  previous window ``P``, ``E[S] = (F-1)·Σⱼ n(Pⱼ)(n(Pⱼ₊₁) - [Pⱼ=Pⱼ₊₁]) / (N(N-1))``
  exactly, so ``S - E[S|P]`` is a martingale difference; ``z = Σ(S-E) / √Σ(S-E)²``
  (self-normalised, martingale CLT). A shuffle that carries the discards' order over
  (too few riffles) keeps adjacent cards adjacent.
* **same-rank neighbours** and **value serial correlation** within the window
  (i.i.d. across shoes, exact per-shoe means, self-normalised ``z``);
* **neighbours' rank step**: the rank of each window card minus the one before, mod 13
  (13 cells, exact ``Σ n_r(n_{r+k} - [k=0]) / (N(N-1))``), Pearson's chi-square: a shuffle
  that leaves traces of new-deck order (the naive swap) shifts it;
* **rank (and suit) by position in the shoe**: the window's thirds (early, middle,
  late) against each other, a contingency chi-square (given the window's cards, their
  split into thirds is uniform);
* **rank (and suit) composition of the window**: Pearson's chi-square against the
  exact ``n_r/N``, scaled by the finite-population factor ``(N-1)/(N-F)`` (each window is
  multivariate hypergeometric);
* **repeated shoes**: the first :data:`RUN` logged cards of every shoe are hashed; a
  repeat is flagged at once. Its p-value is the union bound ``C(M,2)·Π c/(N-i)``
  (``M`` shoes, ``c`` the most copies of one card), exact and below 10⁻³⁰ for 8 decks.

Accounting, each a named check that fails the verdict on any broken shoe (complete
shoes only: the log's last shoe may be cut short by the end of the log):

* **composition**: no shoe logs more copies of a card (or rank) than the shoe holds;
* **rounds per shoe against the cover card** (§ 629a.9(d)): some burn of 2-11 cards
  (§ 629a.5(f)) puts the cover card in the second-to-last logged round of the shoe (or
  at the start of the last: some dealers, PyBaccarat among them, end the shoe with the
  round the cover card starts; such shoes are counted in a note, not failed, since they
  move no comparable round);
* **burn against the exposed card** (§ 629a.5(f)): for one such burn size, a card
  whose value makes that burn (an ace for 2, ..., a ten-count for 11) is among the cards
  the shoe did not log.

Memory: one shoe's rounds are held until the shoe ends, plus one window and one hash per
shoe; every statistic is a running sum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.game.cardcode import ABSENT, CODE_RANK, CODE_SUIT, CODE_VALUE, CODES, NO_SUIT, RANK_ONLY
from exactodds.game.cards import RANKS, SUITS, Card, Shoe
from exactodds.simulation.handlog import LogChunk
from exactodds.simulation.simulate import MAX_BURN, Cover, guaranteed_rounds
from exactodds.simulation.statistics import (
    Cell,
    ChiSquare,
    FamilyTest,
    chi_square,
    make_cells,
    norm_two_sided,
)

SHOE_WAGER: Final = "shoe"
"""The ``wager`` name of the shoe-level tests in a cross-check's families."""

RUN: Final = 24
"""Logged cards per shoe hashed to find repeated shoes."""

MIN_PAIRS: Final = 30
"""Self-normalised z-tests need at least this many shoes (or pairs of shoes)."""

_KEY: Final = CODES  # card codes are below it (:mod:`exactodds.game.cardcode`)
_FACES: Final = 52  # codes 0-51: the faces; RANK_ONLY + rank·4: a rank logged without a suit


@dataclass
class AccountingCheck:
    """One named accounting check: shoes checked, shoes breaking it, the first few."""

    name: str
    rule: str
    checked: int = 0
    failed: int = 0
    examples: list[str] = field(default_factory=list)
    unit: str = "shoe"

    def add(self, checked: int, bad: list[str], total_bad: int) -> None:
        self.checked += checked
        self.failed += total_bad
        self.examples += bad[:max(0, 3 - len(self.examples))]


def z_family(name: str, total: int, expected: Fraction, sum_sq: int, scale: int, count: int,
              unit: str) -> FamilyTest:
    """A self-normalised z-test as a one-degree-of-freedom family (``z²`` ~ chi-square(1),
    two-sided). ``total``/``expected``: observed and exact expected sums; ``sum_sq``: the
    sum of squared per-shoe deviations, each scaled by ``scale``."""
    diff = Fraction(total) - expected
    conclusive = count >= MIN_PAIRS and sum_sq > 0
    z = float(diff * scale) / math.sqrt(sum_sq) if sum_sq > 0 else 0.0
    p = norm_two_sided(z) if conclusive else 1.0
    cell = Cell(f"{unit} (observed v. exact expected)", total, expected / max(count, 1), expected,
                z if conclusive else None)
    key = ("shoe z", name, total, expected, sum_sq)
    return FamilyTest(SHOE_WAGER, name, count, (cell,), ChiSquare(z * z, 1, p, 1, (), (), conclusive, key, "z"), None)


def _chi2(name: str, count: int, cells: list[Cell], stat: Fraction, df: int, conclusive: bool) -> FamilyTest:
    from scipy import stats

    p = float(stats.chi2.sf(float(stat), df)) if conclusive else 1.0
    key = ("shoe chi2", name, tuple((c.observed, c.expected) for c in cells))
    return FamilyTest(SHOE_WAGER, name, count, tuple(cells),
                      ChiSquare(float(stat), df, p, len(cells), (), (), conclusive, key), None)


@dataclass(frozen=True)
class CoverFit:
    """Which covers each complete shoe's logged rounds allow, burn size by burn size.

    With ``D`` cards logged, ``u_last`` and ``u_pen`` in the last two rounds and ``X = D -
    u_last - u_pen`` before them, a burn of ``b`` cards (§ 629a.5(f)) puts the cover card
    in the second-to-last round (§ 629a.9(d): that round is finished and one more is dealt)
    for covers ``n - b - X - u_pen + 1 .. n - b - X`` (cards above the bottom,
    § 629a.5(d)); the reading that ends the shoe with the round the cover card starts
    allows ``n - b - X - u_pen`` as well. Arrays, one entry a shoe.
    """

    n: int
    before: npt.NDArray[np.int64]
    u_pen: npt.NDArray[np.int64]

    def strict_low(self, burn: int) -> npt.NDArray[np.int64]:
        out: npt.NDArray[np.int64] = self.n - burn - self.before - self.u_pen + 1
        return out

    def strict_high(self, burn: int) -> npt.NDArray[np.int64]:
        out: npt.NDArray[np.int64] = self.n - burn - self.before
        return out

    def variant(self, burn: int) -> npt.NDArray[np.int64]:
        out: npt.NDArray[np.int64] = self.n - burn - self.before - self.u_pen
        return out


def cover_fits(n: int, dealt: npt.NDArray[np.int64], u_last: npt.NDArray[np.int64],
               u_pen: npt.NDArray[np.int64]) -> CoverFit:
    """:class:`CoverFit` of shoes of an ``n``-card shoe logging ``dealt`` cards, ``u_last`` and
    ``u_pen`` of them in the last round and the one before (0: a one-round shoe)."""
    return CoverFit(n, dealt - u_last - u_pen, u_pen)


class ShoeTally:
    """Streams a shoe-mode log's chunks; holds one open shoe and running sums."""

    def __init__(self, shoe: Shoe, cover: int | Cover, prefix_cover: int | None = None) -> None:
        self.shoe = shoe
        self.cover = Cover.of(cover)
        n = self.n = shoe.size
        self.low = self.cover.low
        self.high = self.cover.top(n)  # the accounting's highest cover (open range: the most a shoe can have)
        if self.cover.high is None and prefix_cover is None:
            raise ValueError("an open cover range needs prefix_cover (see survey_cover)")
        self.prefix_cover = self.cover.high if self.cover.high is not None else int(prefix_cover or 0)
        self.nn1 = n * (n - 1)
        k = guaranteed_rounds(n, self.prefix_cover)
        self.window = 3 * (4 * k // 3)
        self.copies = np.zeros(_KEY, dtype=np.int64)  # copies of a card code in the shoe (ranks-only: of the rank)
        self.rank_n = np.array(shoe.rank_counts(), dtype=np.int64)
        self.copies[:_FACES] = shoe.counts
        self.copies[RANK_ONLY + np.arange(13) * 4] = self.rank_n
        self.suit_n = np.array([sum(shoe.count(Card(r, s)) for r in RANKS) for s in SUITS], dtype=np.int64)
        values = CODE_VALUE[np.arange(13) * 4].astype(np.int64)
        self.same_rank_mean = int((self.rank_n * (self.rank_n - 1)).sum())
        sv = int((self.rank_n * values).sum())
        self.value_mean = sv * sv - int((self.rank_n * values * values).sum())
        # running state
        self.pending: list[tuple[npt.NDArray[np.int64], ...]] = []
        self.prev_window: npt.NDArray[np.int64] | None = None
        self.shoes = 0
        self.windows = 0
        self.suitless = False
        self.carry = [0, 0, 0, 0]  # pairs, sum S·N(N-1), sum (F-1)·Q, sum E²
        self.same = [0, 0, 0]  # shoes, sum G, sum E²
        self.value = [0, 0, 0]
        self.rank_third = np.zeros((3, 13), dtype=np.int64)
        self.steps = np.zeros(13, dtype=np.int64)  # neighbours' rank difference, mod 13
        self.suit_third = np.zeros((3, 4), dtype=np.int64)
        self.seen: dict[bytes, int] = {}
        # card by card against the cards left (by logged index j in the shoe): observed ranks, and
        # the sum over shoes of the ranks left before the card (its exact conditional law is left/(n - j))
        self.card_limit = n - self.prefix_cover - MAX_BURN  # a round starting past this may exist only for some burns
        self.left_obs = np.zeros((n, 13), dtype=np.int64)
        self.prefix_shoes = np.zeros(n + 1, dtype=np.int64)  # shoes by the cards they tally
        self.prefix_ranks = np.zeros((n + 1, 13), dtype=np.int64)  # ... and the ranks of those cards
        self.hashed = 0
        self.repeats = 0
        self.first_repeat: tuple[int, int] | None = None
        self.last_at_cover = 0  # shoes that fit only if the round the cover card starts is the last
        self.last_at_cover_first: str | None = None
        self.fit_low: int | None = None  # the lowest of the highest covers the shoes allow (standard reading)
        self.fit_high: int | None = None  # the highest of the lowest covers the shoes allow
        self.checks = {
            "composition": AccountingCheck(
                "composition", "no shoe logs more copies of a card, or of a rank, than the shoe holds"),
            "cover": AccountingCheck(
                "rounds per shoe against the cover card",
                f"some burn of 2-{MAX_BURN} cards (§ 629a.5(f)) and some cover card {self.cover.describe()} cards "
                "from the bottom (§ 629a.5(d)) put the cover card in the second-to-last round of the shoe, one more "
                "round following (§ 629a.9(d)), or at the start of the last round (a reading that deals one hand "
                "fewer, stated in a note): too many cards for the lowest cover (cards dealt from the bottom) or too "
                "few for the highest (rounds left out) break it"),
            "burn": AccountingCheck(
                "burn against the exposed card",
                "for such a burn size, a card whose value makes that burn (ace: 2 cards, ..., ten-count: 11) is "
                "among the cards the shoe did not log (§ 629a.5(f))"),
        }

    # -- streaming
    def feed(self, ch: LogChunk) -> None:
        assert ch.shoe is not None
        cards = np.stack([ch.player[:, 0], ch.banker[:, 0], ch.player[:, 1], ch.banker[:, 1],
                          ch.player[:, 2], ch.banker[:, 2]], axis=1).astype(np.int64)
        rows: tuple[npt.NDArray[np.int64], ...] = (cards, ch.shoe.astype(np.int64), ch.line.astype(np.int64))
        if self.pending:
            rows = tuple(np.concatenate([p[i] for p in self.pending] + [rows[i]]) for i in range(3))
            self.pending = []
        shoe = rows[1]
        starts = np.flatnonzero(np.r_[True, shoe[1:] != shoe[:-1]])
        last = int(starts[-1])
        if last > 0:
            self._shoes(rows[0][:last], shoe[:last], rows[2][:last], starts[:-1])
        self.pending = [tuple(r[last:] for r in rows)]

    def finish(self) -> int:
        """Ends the log; the open shoe is left out of the accounting and the window tests
        (it may be cut short) but hashed for repeats, which need only its first cards.
        Returns the rounds of that shoe."""
        left = sum(int(p[0].shape[0]) for p in self.pending)
        if left:  # a repeat needs only the shoe's first cards: hash the open shoe too
            cards = np.concatenate([p[0] for p in self.pending])
            flat = cards[cards != ABSENT]
            number = int(self.pending[0][1][0])
            self._repeats(flat, np.zeros(1, dtype=np.int64), np.array([flat.size]), np.array([number]))
        self.pending = []
        return left

    def _shoes(self, cards: npt.NDArray[np.int64], shoe: npt.NDArray[np.int64], line: npt.NDArray[np.int64],
               starts: npt.NDArray[np.int64]) -> None:
        """Complete shoes: rounds ``cards`` (dealing order, ABSENT where none) from ``starts``."""
        nshoes = starts.size
        valid = cards != ABSENT
        used = valid.sum(axis=1)
        flat = cards[valid]
        rounds = np.diff(np.r_[starts, cards.shape[0]])
        run = np.repeat(np.arange(nshoes), rounds)
        dealt = np.bincount(run, weights=used, minlength=nshoes).astype(np.int64)
        first_card = np.cumsum(dealt) - dealt
        ends = starts + rounds - 1
        u_last = used[ends]
        u_pen = np.where(rounds >= 2, used[np.maximum(ends - 1, 0)], 0)
        self.shoes += nshoes
        card_shoe = np.repeat(np.arange(nshoes), dealt)
        per = np.bincount(card_shoe * _KEY + flat, minlength=nshoes * _KEY).reshape(nshoes, _KEY)
        ranks = per[:, :_FACES].reshape(nshoes, 13, 4).sum(axis=2) + \
            per[:, RANK_ONLY:RANK_ONLY + _FACES].reshape(nshoes, 13, 4).sum(axis=2)
        self._accounting(per, ranks, dealt, rounds, u_last, u_pen, shoe[starts], line[starts])
        if not self.suitless and (CODE_SUIT[flat] == NO_SUIT).any():
            self.suitless = True
        self._repeats(flat, first_card, dealt, shoe[starts])
        self._left(flat, used, run, first_card, card_shoe, nshoes)
        f = self.window
        full = np.flatnonzero(dealt >= f)
        if full.size:
            win = flat[first_card[full, None] + np.arange(f)]
            self._windows(win, contiguous=bool(full.size == nshoes))

    def _accounting(self, per: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64], dealt: npt.NDArray[np.int64],
                    rounds: npt.NDArray[np.int64], u_last: npt.NDArray[np.int64], u_pen: npt.NDArray[np.int64],
                    numbers: npt.NDArray[np.int64], lines: npt.NDArray[np.int64]) -> None:
        nshoes = dealt.size

        def where(i: int) -> str:
            return f"shoe {int(numbers[i])} (line {int(lines[i])})"

        over = (per[:, :_FACES] > self.copies[None, :_FACES]).any(axis=1) | \
            (ranks > self.rank_n[None, :]).any(axis=1)
        bad = np.flatnonzero(over)
        self.checks["composition"].add(nshoes, [f"{where(i)} logs more copies of a card than the shoe holds"
                                                for i in bad[:3].tolist()], int(bad.size))
        fit = cover_fits(self.n, dealt, u_last, u_pen)
        unlogged = self.rank_n[None, :] - ranks
        strict = np.zeros(nshoes, dtype=bool)
        variant = np.zeros(nshoes, dtype=bool)
        sized = np.zeros(nshoes, dtype=bool)
        for b in range(2, MAX_BURN + 1):
            rank_cols = [0] if b == 2 else [b - 2] if b <= 10 else [9, 10, 11, 12]
            avail = (unlogged[:, rank_cols] > 0).any(axis=1)
            s_lo, s_hi, v_at = fit.strict_low(b), fit.strict_high(b), fit.variant(b)
            s_ok = (u_pen > 0) & (s_lo <= self.high) & (s_hi >= self.low)
            v_ok = (self.low <= v_at) & (v_at <= self.high)
            strict |= s_ok & avail
            variant |= v_ok & avail
            sized |= s_ok | v_ok
        two = np.flatnonzero(u_pen > 0)
        if two.size:
            hi_fit, lo_fit = int(fit.strict_high(2)[two].min()), int(fit.strict_low(MAX_BURN)[two].max())
            self.fit_low = hi_fit if self.fit_low is None else min(self.fit_low, hi_fit)
            self.fit_high = lo_fit if self.fit_high is None else max(self.fit_high, lo_fit)
        most = fit.strict_high(2)  # the highest cover the shoe allows (smallest burn)
        least = fit.variant(MAX_BURN)  # the lowest (largest burn, the reading that deals one hand fewer)

        def why(i: int) -> str:
            if most[i] < self.low:
                return (f"too many cards: even a burn of 2 puts the cover card at most {int(most[i])} cards from the "
                        f"bottom, below the lowest cover {self.low} (cards dealt from the bottom?)")
            return (f"too few cards: even a burn of {MAX_BURN} puts the cover card at least {int(least[i])} cards from "
                    f"the bottom, above the highest cover {self.high} (rounds left out of the log?)")

        bad = np.flatnonzero(~sized)
        self.checks["cover"].add(nshoes, [f"{where(i)} logs {int(dealt[i])} cards in {int(rounds[i])} rounds: "
                                          f"{why(i)}" for i in bad[:3].tolist()], int(bad.size))
        bad = np.flatnonzero(sized & ~strict & ~variant)
        self.checks["burn"].add(int(sized.sum()), [f"{where(i)}: every burn size that fits its rounds needs an "
                                                   "exposed card the shoe logged in full" for i in bad[:3].tolist()],
                                int(bad.size))
        late = np.flatnonzero(~strict & variant)
        self.last_at_cover += int(late.size)
        if late.size and self.last_at_cover_first is None:
            self.last_at_cover_first = where(int(late[0]))

    def _left(self, flat: npt.NDArray[np.int64], used: npt.NDArray[np.int64], run: npt.NDArray[np.int64],
              first_card: npt.NDArray[np.int64], card_shoe: npt.NDArray[np.int64], nshoes: int) -> None:
        """Tallies each card of a round that exists whatever the burn and the cover (one
        starting at most :attr:`card_limit` logged cards into its shoe): by logged index
        ``j`` and rank, and, per shoe, the ranks of those cards by how many there are
        (:meth:`left_sums` makes the sums of the ranks left from these, in integers)."""
        round_start = np.cumsum(used) - used - first_card[run]  # the round's first card, within its shoe
        j = np.arange(flat.size) - first_card[card_shoe]
        keep = np.repeat(round_start <= self.card_limit, used) & (j < self.n)
        if not keep.any():
            return
        rk = CODE_RANK[flat[keep]].astype(np.int64)
        jk = j[keep]
        self.left_obs += np.bincount(jk * 13 + rk, minlength=self.n * 13).reshape(self.n, 13)
        prefix = np.bincount(card_shoe[keep], minlength=nshoes)  # cards tallied per shoe (a prefix of it)
        self.prefix_shoes += np.bincount(prefix, minlength=self.n + 1)
        self.prefix_ranks += np.bincount(prefix[card_shoe[keep]] * 13 + rk,
                                         minlength=(self.n + 1) * 13).reshape(self.n + 1, 13)

    def left_sums(self) -> npt.NDArray[np.int64]:
        """``[j, x]``: the sum over the shoes tallied at logged index ``j`` of the cards of rank
        ``x`` not logged before it. With ``m`` the cards a shoe tallies, ``O`` the tallies by
        index and ``F[m]`` the ranks of the shoes tallying ``m``: ``#{m > j}·n_x -
        (Σ_{i<j} O[i, x] - Σ_{m ≤ j} F[m, x])`` (a shoe that stopped by ``j`` is taken
        back out of the cards logged before ``j``)."""
        n = self.n
        shoes_past = self.prefix_shoes[::-1].cumsum()[::-1][1:]  # [j]: shoes tallying more than j cards
        before = np.cumsum(self.left_obs, axis=0) - self.left_obs  # [j]: tallied cards at indices below j
        stopped = np.cumsum(self.prefix_ranks, axis=0)[:n]  # [j]: ranks of shoes tallying at most j cards
        out: npt.NDArray[np.int64] = shoes_past[:, None] * self.rank_n[None, :] - (before - stopped)
        return out

    def _repeats(self, flat: npt.NDArray[np.int64], first_card: npt.NDArray[np.int64],
                 dealt: npt.NDArray[np.int64], numbers: npt.NDArray[np.int64]) -> None:
        ok = np.flatnonzero(dealt >= RUN)
        if not ok.size:
            return
        heads = flat[first_card[ok, None] + np.arange(RUN)].astype(np.int8)
        for i, key in zip(ok.tolist(), (bytes(r) for r in heads)):
            number = int(numbers[i])
            earlier = self.seen.setdefault(key, number)
            self.hashed += 1
            if earlier != number:
                self.repeats += 1
                if self.first_repeat is None:
                    self.first_repeat = (number, earlier)

    def _windows(self, win: npt.NDArray[np.int64], contiguous: bool) -> None:
        f = self.window
        s = win.shape[0]
        self.windows += s
        rk = CODE_RANK[win].astype(np.int64)
        third = np.arange(f) * 3 // f
        self.rank_third += np.bincount((third * 13 + rk).ravel(), minlength=39).reshape(3, 13)
        if not self.suitless:
            su = CODE_SUIT[win].astype(np.int64)
            self.suit_third += np.bincount((third * 4 + np.minimum(su, 3)).ravel(), minlength=12).reshape(3, 4)
        # neighbours within a window (i.i.d. across shoes)
        self.steps += np.bincount(((rk[:, 1:] - rk[:, :-1]) % 13).ravel(), minlength=13)
        g = (rk[:, 1:] == rk[:, :-1]).sum(axis=1)
        e = g * self.nn1 - (f - 1) * self.same_rank_mean
        self._acc(self.same, g, e)
        v = CODE_VALUE[win].astype(np.int64)
        vp = (v[:, 1:] * v[:, :-1]).sum(axis=1)
        self._acc(self.value, vp, vp * self.nn1 - (f - 1) * self.value_mean)
        # carry-over between consecutive shoes
        if not contiguous:
            self.prev_window = None  # a shoe without a window breaks the chain; restart after it
        both = win if self.prev_window is None else np.concatenate([self.prev_window[None, :], win])
        self.prev_window = win[-1]
        if both.shape[0] < 2:
            return
        prev, cur = both[:-1], both[1:]
        t = prev.shape[0]
        square = _KEY * _KEY
        offset = (np.arange(t, dtype=np.int64) * square)[:, None]
        pk = (prev[:, :-1] * _KEY + prev[:, 1:] + offset).ravel()
        ck = np.sort((cur[:, :-1] * _KEY + cur[:, 1:] + offset).ravel())
        keys, copies = np.unique(pk, return_counts=True)
        at = np.minimum(np.searchsorted(keys, ck), keys.size - 1)
        match = keys[at] == ck
        hits = np.bincount(ck[match] // square, weights=copies[at[match]], minlength=t).astype(np.int64)
        c = self.copies
        q = (c[prev[:, :-1]] * (c[prev[:, 1:]] - (prev[:, :-1] == prev[:, 1:]))).sum(axis=1)
        e = hits * self.nn1 - (f - 1) * q
        self.carry[0] += t
        self.carry[1] += int(hits.sum())
        self.carry[2] += int(q.sum())
        self.carry[3] += sum(x * x for x in e.tolist())

    @staticmethod
    def _acc(acc: list[int], stat: npt.NDArray[np.int64], dev: npt.NDArray[np.int64]) -> None:
        acc[0] += int(stat.size)
        acc[1] += int(stat.sum())
        acc[2] += sum(x * x for x in dev.tolist())

    # -- results
    def tests(self) -> list[FamilyTest]:
        """The shoe-level tests (see the module docstring), each a family of one test."""
        f, nn1 = self.window, self.nn1
        out = [
            z_family(f"carry-over: adjacent pairs of a shoe's first {f} cards adjacent again in the next shoe",
                      self.carry[1], Fraction((f - 1) * self.carry[2], nn1), self.carry[3], nn1, self.carry[0],
                      "pairs adjacent again"),
            z_family(f"same-rank neighbours in a shoe's first {f} cards", self.same[1],
                      Fraction(self.same[0] * (f - 1) * self.same_rank_mean, nn1), self.same[2], nn1, self.same[0],
                      "neighbours of one rank"),
            z_family(f"value serial correlation in a shoe's first {f} cards (sum of neighbours' value products)",
                      self.value[1], Fraction(self.value[0] * (f - 1) * self.value_mean, nn1), self.value[2], nn1,
                      self.value[0], "sum of value products"),
        ]
        n = self.rank_n
        steps = {f"+{k}": Fraction(int(sum(n[r] * (n[(r + k) % 13] - (k == 0)) for r in range(13))), nn1)
                 for k in range(13)}
        cells = make_cells({f"+{k}": int(self.steps[k]) for k in range(13)}, steps)
        out.append(FamilyTest(SHOE_WAGER, f"neighbours' rank step (rank of the next card minus this one's, mod 13) "
                              f"in a shoe's first {f} cards", self.windows, tuple(cells), chi_square(cells), None))
        out.append(self._position("rank", self.rank_third, RANKS))
        out.append(self._composition("rank", self.rank_third.sum(axis=0), self.rank_n, RANKS))
        if not self.suitless:
            out.append(self._position("suit", self.suit_third, SUITS))
            out.append(self._composition("suit", self.suit_third.sum(axis=0), self.suit_n, SUITS))
        out.append(self._repeat_test())
        out += self.left_tests()
        return out

    LEFT_BINS: Final = 10
    """Depth bins of the card-by-card test (logged index ``j``: bin ``10·j // n``)."""

    def left_tests(self) -> list[FamilyTest]:
        """Each logged card against the cards left in its shoe, one chi-square per depth bin.

        Under a uniform shuffle, given the cards logged before it, a card's rank is ``x``
        with probability exactly ``left_x / (n - j)`` (``j`` cards logged before it): the
        burned cards are unseen, and the exposed card, the only one whose value decides
        anything, is then like one more unseen card (its posterior given the logged cards is
        proportional to the cards left of each face). Only cards of rounds that every burn
        (2-11) and every cover up to the prefix's exist in are tallied, so the choice of
        cards looks only at cards before them: the cut-card region enters, without the
        cut-card bias. Per bin, ``O`` (ranks seen) against ``E = Σ left/(n - j)`` (exact) in
        Pearson's form: ``O - E`` is a martingale whose covariance ``Σ (diag p - p pᵀ)`` is
        at most Pearson's ``n (diag p̄ - p̄ p̄ᵀ)``, so the chi-square is valid and slightly
        conservative. A shuffle that leaves the bottom of the shoe ordered fails here.
        """
        out = []
        n = self.n
        left_sum = self.left_sums()
        bins = np.arange(n) * self.LEFT_BINS // n
        for b in range(self.LEFT_BINS):
            rows = np.flatnonzero(bins == b)
            obs = self.left_obs[rows].sum(axis=0)
            total = int(obs.sum())
            common = math.lcm(*(n - j for j in rows.tolist()))  # one denominator: integer sums, exact
            weights = [common // (n - j) for j in rows.tolist()]
            expected = [Fraction(sum(int(left_sum[j, x]) * w for j, w in zip(rows.tolist(), weights)), common)
                        for x in range(13)]
            cells = []
            for x, name in enumerate(RANKS):
                e = expected[x]
                o = int(obs[x])
                p = e / total if total else Fraction(0)
                z = float((o - e) / math.sqrt(e * (1 - p))) if e and p < 1 else None
                cells.append(Cell(name, o, p, e, z))
            first, last = int(rows[0]) + 1, int(rows[-1]) + 1
            out.append(FamilyTest(SHOE_WAGER, f"each card against the cards left in its shoe, logged cards "
                                  f"{first}-{last} (rank v. the exact remaining composition)", total, tuple(cells),
                                  chi_square(cells), None))
        return out

    def _position(self, what: str, table: npt.NDArray[np.int64], names: tuple[str, ...]) -> FamilyTest:
        rows = table.sum(axis=1)
        cols = table.sum(axis=0)
        total = int(table.sum())
        cells = []
        stat = Fraction(0)
        for i, part in enumerate(("early", "middle", "late")):
            for j, name in enumerate(names):
                if not cols[j]:
                    continue
                e = Fraction(int(rows[i]) * int(cols[j]), total)
                o = int(table[i, j])
                stat += (o - e) ** 2 / e
                cells.append(Cell(f"{part} {name}", o, Fraction(int(cols[j]), total) / 3, e,
                                  float((o - e) / math.sqrt(float(e))) if e else None))
        df = 2 * (int((cols > 0).sum()) - 1)
        conclusive = total > 0 and df > 0 and all(c.expected >= 5 for c in cells)
        return _chi2(f"{what} by position in the shoe (thirds of the first {self.window} cards)",
                     self.windows, cells, stat, df, conclusive)

    def _composition(self, what: str, observed: npt.NDArray[np.int64], n: npt.NDArray[np.int64],
                     names: tuple[str, ...]) -> FamilyTest:
        f, size = self.window, self.n
        cells = []
        stat = Fraction(0)
        for j, name in enumerate(names):
            p = Fraction(int(n[j]), size)
            e = self.windows * f * p
            o = int(observed[j])
            if e:
                stat += (o - e) ** 2 / e
            cells.append(Cell(name, o, p, e, None))
        stat = stat * (size - 1) / (size - f) if size > f else stat
        conclusive = self.windows > 0 and all(c.expected >= 5 for c in cells if c.probability)
        return _chi2(f"{what} composition of the first {f} cards (finite-population chi-square)",
                     self.windows, cells, stat, int((n > 0).sum()) - 1, conclusive)

    def _repeat_test(self) -> FamilyTest:
        m = self.hashed
        most = int(self.rank_n.max()) if self.suitless else int(self.copies[:_FACES].max())
        one = Fraction(1)
        for i in range(RUN):
            one *= Fraction(most, self.n - i)
        bound = min(Fraction(1), m * (m - 1) // 2 * one)
        p = float(bound) if self.repeats else 1.0
        name = f"repeated shoes (first {RUN} logged cards of every shoe hashed)"
        key = ("shoe repeats", m, self.repeats)
        cell = Cell("shoes repeating an earlier shoe", self.repeats, one, Fraction(0), None)
        return FamilyTest(SHOE_WAGER, name, m, (cell,),
                          ChiSquare(float(self.repeats), 1, p, 1, (), (), m >= 2, key, "repeat bound"), None)

    def cover_note(self) -> str | None:
        """Shoes ended by the round the cover card starts, a reading of § 629a.9(d) that
        deals one hand fewer (not held against the verdict: it moves no comparable round)."""
        if not self.last_at_cover:
            return None
        return (f"accounting, cover card at the start of a round: {self.last_at_cover:,} shoe(s) (first: "
                f"{self.last_at_cover_first}) fit the cover card only if the round it starts is the shoe's last; "
                "§ 629a.9(d) completes that hand and deals one more. This moves only rounds after the comparable "
                "prefix, so it is stated, not failed")

    def range_note(self) -> str:
        """The cover range used and, from the shoes, the narrowest range they fit."""
        allows = f"{self.low}..{self.high}" if self.cover.high is not None else \
            f"{self.low} or more (up to {self.high}, leaving room for the largest burn)"
        used = f"cover card {self.cover.describe()} cards from the bottom (§ 629a.5(d)); accounting allows {allows}"
        if self.fit_low is None or self.fit_high is None:
            return f"accounting, cover: {used}"
        lo, hi = self.fit_low, self.fit_high
        if lo == hi:
            seen = f"a cover of {lo} fits every complete shoe (some burn of 2-{MAX_BURN} cards)"
        elif lo > hi:
            seen = f"any one cover from {max(hi, 1)} to {lo} fits every complete shoe (some burn of 2-{MAX_BURN} cards)"
        else:
            seen = (f"the complete shoes need covers from at most {lo} to at least {hi} (some shoe fits no cover "
                    f"above {lo}, some none below {hi}, whatever the burn)")
        return f"accounting, cover: {used}; observed: {seen}"

    def repeat_note(self) -> str | None:
        """Where the first repeated shoe is, if any."""
        if self.first_repeat is None:
            return None
        a, b = self.first_repeat
        return (f"shoe {a} repeats shoe {b}: their first {RUN} logged cards are the same, in order "
                f"({self.repeats:,} repeated shoe(s) in all); a uniform shuffle repeats with probability below "
                "the bound in the test's p-value")


INFER_SHOES: Final = 50
"""Complete shoes read to infer the deck count of a log that does not state it."""


def infer_decks(log: Iterable[LogChunk]) -> tuple[int, str] | None:
    """The smallest standard shoe a shoe-mode log fits, and the inference in words, from
    its first :data:`INFER_SHOES` complete shoes: at least as many decks as the most
    copies of one card (suits logged) in one shoe, and enough cards for the most cards
    logged in one shoe plus a burn of at least 2 (§ 629a.5(f)) and a card under the cover.
    ``None`` when the log shows no complete shoe.

    The rule audit and the shoe accounting then check the inference: a log from a larger
    shoe than inferred breaks "rounds per shoe against the cover card" in most shoes.
    """
    copies = 0
    most = 0
    shoes = 0
    current: int | None = None
    counts = np.zeros(_KEY, dtype=np.int64)
    cards = 0
    for ch in log:
        assert ch.shoe is not None
        for j in range(len(ch)):
            number = int(ch.shoe[j])
            if number != current:
                if current is not None:
                    shoes += 1
                    copies = max(copies, int(counts[:_FACES].max()))
                    most = max(most, cards)
                    if shoes >= INFER_SHOES:
                        break
                current, cards = number, 0
                counts[:] = 0
            row = [int(c) for c in ch.player[j]] + [int(c) for c in ch.banker[j]]
            for c in row:
                if c != ABSENT:
                    counts[c] += 1
                    cards += 1
        else:
            continue
        break
    if not shoes:
        return None
    by_cards = -(-(most + MAX_BURN_MIN + 1) // 52)
    decks = max(copies, by_cards, 1)
    return decks, (f"decks: {decks} inferred from the log (no --decks option and no '# decks=' comment): in its first "
                   f"{shoes:,} complete shoe(s) one card appears up to {copies} time(s) in a shoe and a shoe logs up to "
                   f"{most:,} cards, which with a burn of at least {MAX_BURN_MIN} cards (§ 629a.5(f)) and a card left "
                   f"under the cover need {by_cards} deck(s); the smallest such shoe is used, and the shoe accounting "
                   "below checks it. Give --decks if the shoe differs")


MAX_BURN_MIN: Final = 2
"""The smallest burn: the exposed card and one more (an ace, § 629a.5(f))."""


def survey_cover(log: Iterable[LogChunk], n: int, low: int) -> tuple[int, str] | None:
    """The cover the comparable prefix is taken from when the cover range has no upper
    bound: the highest cover any of the log's first :data:`INFER_SHOES` complete shoes
    allows (its smallest burn, 2 cards, § 629a.5(f)), at least ``low``. Every one of those
    shoes deals at least the rounds :func:`guaranteed_rounds` gives for it; a later shoe
    with a higher cover is counted among the short shoes in the report. Returns the cover
    and the choice in words, or ``None`` when the log shows no complete shoe.
    """
    current: int | None = None
    rounds: list[int] = []
    tops: list[int] = []
    for ch in log:
        assert ch.shoe is not None
        used = ((ch.player != ABSENT).sum(axis=1) + (ch.banker != ABSENT).sum(axis=1)).astype(np.int64)
        for number, u in zip(ch.shoe.tolist(), used.tolist()):
            if number != current:
                if current is not None and len(rounds) >= 2:
                    tops.append(n - 2 - (sum(rounds) - rounds[-1] - rounds[-2]))
                    if len(tops) >= INFER_SHOES:
                        break
                current, rounds = number, []
            rounds.append(u)
        else:
            continue
        break
    if not tops:
        return None
    top = max(low, min(max(tops), n - MAX_BURN - 1))
    return top, (f"cover: {low} or more cards from the bottom (no upper bound given, § 629a.5(d)); the comparable "
                 f"prefix is taken from a cover of {top}, the highest any of the first {len(tops):,} complete shoe(s) "
                 f"allows (a burn of 2 cards): every shoe with a cover up to {top} deals rounds 1-"
                 f"{guaranteed_rounds(n, top)}. Give --cover LOW..HIGH to fix it")


def log_cover(path: str, meta: dict[str, str], n: int, given: Cover | None = None,
              columns: dict[str, str] | None = None) -> tuple[Cover, int | None, str | None]:
    """The cover range a shoe-mode log is checked under, the cover its comparable prefix
    comes from (``None``: the range's high end) and, when that is chosen from the log, the
    choice in words: ``given`` (``--cover``), else the file's ``# cover=`` (a number or
    ``LOW..HIGH``), else the regulation's "at least 14" with no upper bound (§ 629a.5(d)),
    the prefix then from :func:`survey_cover` (the file is read a second time, its first
    shoes only)."""
    from exactodds.simulation.handlog import LogFile, read_file
    from exactodds.simulation.simulate import MIN_COVER

    span = given
    if span is None and "cover" in meta:
        span = Cover.parse(meta["cover"], f"{path}: comment metadata cover")
        if span.low < MIN_COVER:
            from exactodds.errors import InputError

            raise InputError(f"{path}: comment metadata cover={meta['cover'][:20]}: the cover card lies at least "
                             f"{MIN_COVER} cards above the bottom (§ 629a.5(d))")
    if span is None:
        span = Cover(MIN_COVER, None)
    if span.high is not None:
        return span, None, None
    again = read_file(path, columns)
    assert isinstance(again, LogFile)
    try:
        surveyed = survey_cover(again.chunks(), n, span.low)
    finally:
        again.close()
    return (span, None, None) if surveyed is None else (span, surveyed[0], surveyed[1])
