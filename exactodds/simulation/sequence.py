"""Card-sequence tests of a hand log: the dealt cards themselves, which outcome
frequencies cannot see.

* :class:`SequenceTally`: consecutive-rank transitions, rank by dealing position, and
  shoe-to-shoe (round-to-round) dependence, on the four initial cards of comparable rounds
  (§ 629a.8(c)); exact expected counts from the shoe's ranks;
* :class:`IdenticalFaces`: identical cards among a round's four initial cards, what the
  deck count decides most directly: the test of a log against its shoe, and
  :func:`estimate_decks` for a log that states no deck count and has no shoe column.

The shoe-level tests of logs with a ``shoe`` column are in :mod:`exactodds.simulation.shoetests`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.game.cardcode import CODE_RANK, CODE_SUIT, NO_SUIT
from exactodds.game.cards import RANKS, Shoe
from exactodds.simulation.handlog import (
    LogChunk,
)
from exactodds.simulation.statistics import (
    Cell,
    FamilyTest,
    chi_square,
    make_cells,
    z_score,
)

SEQUENCE_WAGER: Final = "card sequence"
"""The ``wager`` name of the card-sequence tests."""


# -- card-sequence tallies ---------------------------------------------------------------------
class SequenceTally:
    """Counts on the ranks of the four initial cards of comparable rounds (cards 1-4 in
    dealing order: Player, Banker, Player, Banker, § 629a.8(c)).

    * transitions: ranks of the disjoint consecutive pairs (card 1, card 2), (card 3, card 4);
    * position: rank by dealing position 1-4;
    * shoe to shoe: rank of card ``j`` of round ``k`` in one shoe against card ``j`` of round
      ``k`` in the next (disjoint pairs of shoes; a round is a shoe in a log without shoes).
    """

    def __init__(self, shoe: Shoe, shoes: bool) -> None:
        self.shoe = shoe
        self.shoes = shoes
        self.transitions = np.zeros(169, dtype=np.int64)
        self.position = np.zeros(4 * 13, dtype=np.int64)
        self.pairs = np.zeros(169, dtype=np.int64)
        self.held: npt.NDArray[np.int64] | None = None  # fresh: the unpaired round; shoe: the held shoe
        self.held_shoe: int | None = None
        self.current: list[npt.NDArray[np.int64]] = []
        self.current_shoe: int | None = None
        self.shoe_ordinal = 0
        self.alike = IdenticalFaces()  # logs without a shoe column: identical faces among cards 1-4

    def feed(self, ch: LogChunk, pc: npt.NDArray[np.int16], bc: npt.NDArray[np.int16],
             use: npt.NDArray[np.bool_]) -> None:
        ranks = np.stack([CODE_RANK[pc[:, 0]], CODE_RANK[bc[:, 0]], CODE_RANK[pc[:, 1]], CODE_RANK[bc[:, 1]]],
                         axis=1).astype(np.int64)
        r = ranks[use]
        if not self.shoes:
            self.alike.feed(pc[use], bc[use])
        self.transitions += np.bincount(np.concatenate([r[:, 0] * 13 + r[:, 1], r[:, 2] * 13 + r[:, 3]]),
                                        minlength=169)
        self.position += np.bincount((np.arange(4) * 13 + r).ravel(), minlength=52)
        if not self.shoes or ch.shoe is None:
            if self.held is not None:
                r = np.concatenate([self.held, r])
            even = r.shape[0] // 2 * 2
            self.held = r[even:] if even < r.shape[0] else None
            a, b = r[0:even:2], r[1:even:2]
            self.pairs += np.bincount((a * 13 + b).ravel(), minlength=169)
            return
        shoe = ch.shoe[use]
        if shoe.size == 0:
            return
        cuts = np.flatnonzero(np.diff(shoe)) + 1
        for part_shoe, part in zip(np.split(shoe, cuts), np.split(r, cuts)):
            number = int(part_shoe[0])
            if number != self.current_shoe:
                self._close_shoe()
                self.current_shoe = number
            self.current.append(part)
        # bounded: a shoe's comparable rounds are at most guaranteed_rounds

    def _close_shoe(self) -> None:
        if self.current_shoe is None:
            return
        rounds = np.concatenate(self.current) if self.current else np.zeros((0, 4), dtype=np.int64)
        self.current = []
        if self.shoe_ordinal % 2 == 0:
            self.held = rounds
        elif self.held is not None:
            m = min(self.held.shape[0], rounds.shape[0])
            self.pairs += np.bincount((self.held[:m] * 13 + rounds[:m]).ravel(), minlength=169)
            self.held = None
        self.shoe_ordinal += 1

    def finish(self) -> None:
        if self.shoes:
            self._close_shoe()

    def tests(self) -> list[FamilyTest]:
        """The three card-sequence tests (exact expected counts from the shoe's ranks)."""
        n = list(self.shoe.rank_counts())
        total = self.shoe.size
        rank_p = [Fraction(k, total) for k in n]
        within = {(a, b): Fraction(n[a] * (n[b] - (a == b)), total * (total - 1))
                  for a in range(13) for b in range(13)}
        across = {(a, b): rank_p[a] * rank_p[b] for a in range(13) for b in range(13)}
        out = []
        name = RANKS
        trans_obs = {f"{name[a]}>{name[b]}": int(self.transitions[a * 13 + b]) for a in range(13) for b in range(13)}
        out.append(fixed_fit("rank transitions (cards 1>2, 3>4)",
                              trans_obs, {f"{name[a]}>{name[b]}": p for (a, b), p in within.items()}))
        # rank by position: each position's row has its own total; expected = row total x p
        rows = []
        for pos in range(4):
            row = self.position[pos * 13:(pos + 1) * 13]
            m = int(row.sum())
            rows.append([Cell(f"card {pos + 1} {name[a]}", int(row[a]), rank_p[a] / 4, m * rank_p[a],
                              z_score(int(row[a]), m, rank_p[a])) for a in range(13)])
        cells = [c for row_cells in rows for c in row_cells]
        out.append(FamilyTest(SEQUENCE_WAGER, "rank by dealing position (cards 1-4)", int(self.position.sum()) // 4,
                              tuple(cells), chi_square(cells, rows), None))
        label = "shoe to shoe (round k of one shoe v. the next)" if self.shoes else \
            "round to round (cards 1-4 of a round v. the next)"
        pair_obs = {f"{name[a]}|{name[b]}": int(self.pairs[a * 13 + b]) for a in range(13) for b in range(13)}
        out.append(fixed_fit(label, pair_obs, {f"{name[a]}|{name[b]}": p for (a, b), p in across.items()}))
        if not self.shoes:
            test = self.alike.test(self.shoe)
            if test is not None:
                out.append(test)
        return out


# -- the deck count, from identical faces within rounds (logs without a shoe column) ---------------
PAIR_PATTERNS: Final = (0, 1, 2, 3, 6)
"""Pairs of equal cards among a round's four initial cards: 0 all different, 1 one pair,
2 two pairs, 3 three of a kind, 6 four of a kind (the number says the pattern)."""

ESTIMATE_ROUNDS: Final = 200_000
"""Rounds read to estimate the deck count of a log that states none and has no shoe column."""

MAX_ESTIMATED_DECKS: Final = 8

DEFAULT_DECKS: Final = 8
"""The deck count assumed when a log states none and its identical faces do not favour another."""

EVIDENCE: Final = 100
"""How many times as likely as :data:`DEFAULT_DECKS` an estimated deck count must make the
log's identical-face patterns to replace it (a few rounds never move it)."""


def pattern_probabilities(kinds: int, copies: int) -> dict[int, Fraction]:
    """Exact probability of each :data:`PAIR_PATTERNS` among the first four cards of a
    shuffled shoe of ``kinds`` kinds of card, ``copies`` of each (52 faces × decks, or 13
    ranks × 4·decks): ordered sequences by how the four positions split into equal cards,
    over ``(N)₄``.

    >>> p = pattern_probabilities(52, 1)
    >>> p[0], p[1]
    (Fraction(1, 1), Fraction(0, 1))
    >>> sum(pattern_probabilities(52, 8).values())
    Fraction(1, 1)
    """
    n = kinds * copies

    def falling(a: int, k: int) -> int:
        out = 1
        for i in range(k):
            out *= a - i
        return out

    total = falling(n, 4)
    c = copies
    ways = {
        0: falling(kinds, 4) * c**4,
        1: 6 * falling(kinds, 3) * falling(c, 2) * c * c,
        2: 3 * falling(kinds, 2) * falling(c, 2) ** 2,
        3: 4 * falling(kinds, 2) * falling(c, 3) * c,
        6: kinds * falling(c, 4),
    }
    return {k: Fraction(v, total) for k, v in ways.items()}


class IdenticalFaces:
    """Counts rounds by the pairs of identical cards among their four initial cards (faces
    when every card has a suit, else ranks): what the deck count decides most directly
    (one deck has no two equal faces; eight decks give 0.10 pairs a round)."""

    def __init__(self) -> None:
        self.faces = np.zeros(7, dtype=np.int64)
        self.ranks = np.zeros(7, dtype=np.int64)
        self.suited = True

    def feed(self, pc: npt.NDArray[np.int16], bc: npt.NDArray[np.int16]) -> None:
        cards = np.stack([pc[:, 0], bc[:, 0], pc[:, 1], bc[:, 1]], axis=1).astype(np.int64)
        if self.suited and (CODE_SUIT[cards] == NO_SUIT).any():
            self.suited = False
        rk = CODE_RANK[cards].astype(np.int64)
        same_face = np.zeros(cards.shape[0], dtype=np.int64)
        same_rank = np.zeros(cards.shape[0], dtype=np.int64)
        for a, b in itertools.combinations(range(4), 2):
            same_face += cards[:, a] == cards[:, b]
            same_rank += rk[:, a] == rk[:, b]
        self.faces += np.bincount(same_face, minlength=7)
        self.ranks += np.bincount(same_rank, minlength=7)

    def _basis(self, decks: int) -> tuple[str, npt.NDArray[np.int64], dict[int, Fraction]]:
        if self.suited:
            return "faces", self.faces, pattern_probabilities(52, decks)
        return "ranks", self.ranks, pattern_probabilities(13, 4 * decks)

    def rounds(self) -> int:
        return int(self.faces.sum())

    def likelihoods(self) -> dict[int, float]:
        """Log-likelihood of the counts under 1 to 8 decks (``-inf``: impossible)."""
        out = {}
        for d in range(1, MAX_ESTIMATED_DECKS + 1):
            _, counts, probs = self._basis(d)
            ll = 0.0
            for k in PAIR_PATTERNS:
                n = int(counts[k])
                if n:
                    p = probs[k]
                    ll = -math.inf if p == 0 or ll == -math.inf else \
                        ll + n * (math.log(p.numerator) - math.log(p.denominator))
            out[d] = ll
        return out

    def estimate(self) -> tuple[int, str] | None:
        """The most likely of 1-8 standard decks, and the estimate in words (``None``: no rounds)."""
        rounds = self.rounds()
        if not rounds:
            return None
        ll = self.likelihoods()
        best = max(ll, key=lambda d: ll[d])
        what, counts, _ = self._basis(best)
        pairs = int(sum(k * int(counts[k]) for k in PAIR_PATTERNS))
        expect = ", ".join(f"{d} deck(s) {float(rounds * self._mean_pairs(d)):,.1f}" for d in (1, 2, 4, 6, 8))
        seen = (f"the first {rounds:,} round(s) hold {pairs:,} pair(s) of identical {what} among their four initial "
                f"cards (expected: {expect})")
        if ll[best] - ll[DEFAULT_DECKS] < math.log(EVIDENCE):
            return DEFAULT_DECKS, (
                f"decks: {DEFAULT_DECKS} assumed (no --decks option, no '# decks=' comment and no shoe column): "
                f"{seen}; no count of 1-{MAX_ESTIMATED_DECKS} decks is {EVIDENCE} times as likely as "
                f"{DEFAULT_DECKS} (exact likelihood of the rounds' patterns). Every expectation depends on it, so "
                "give --decks if the shoe differs")
        return best, (f"decks: {best} estimated from identical {what} within rounds (no --decks option, no '# decks=' "
                      f"comment and no shoe column): {seen}; {best} is the most likely of 1-{MAX_ESTIMATED_DECKS} "
                      f"decks, {math.exp(min(700.0, ll[best] - ll[DEFAULT_DECKS])):.3g} times as likely as "
                      f"{DEFAULT_DECKS} (exact likelihood of the rounds' patterns). The log is tested under it; give "
                      "--decks if the shoe differs")

    def _mean_pairs(self, decks: int) -> Fraction:
        _, _, probs = self._basis(decks)
        return sum((k * p for k, p in probs.items()), Fraction(0))

    def test(self, shoe: Shoe) -> FamilyTest | None:
        """Identical cards among the four initial cards against the exact pattern
        probabilities of ``shoe`` (standard shoes only): a log from another deck count fails."""
        if shoe.decks is None or not self.rounds():
            return None
        what, counts, probs = self._basis(shoe.decks)
        label = {0: "all different", 1: "one pair", 2: "two pairs", 3: "three alike", 6: "four alike"}
        observed = {label[k]: int(counts[k]) for k in PAIR_PATTERNS}
        return fixed_fit(f"identical {what} among cards 1-4 of a round, against {shoe.decks} deck(s)",
                          observed, {label[k]: p for k, p in probs.items()})


def estimate_decks(log: Iterable[LogChunk], rounds: int = ESTIMATE_ROUNDS) -> tuple[int, str] | None:
    """The deck count of a log without a shoe column, estimated from its first ``rounds``
    rounds (:class:`IdenticalFaces`), and the estimate in words; ``None``: no rounds."""
    alike = IdenticalFaces()
    seen = 0
    for ch in log:
        ok = (ch.player_cards >= 2) & (ch.banker_cards >= 2)
        take = np.flatnonzero(ok)[:max(0, rounds - seen)]
        alike.feed(ch.player[take], ch.banker[take])
        seen += take.size
        if seen >= rounds:
            break
    return alike.estimate()


def fixed_fit(label: str, observed: Mapping[str, int], probs: Mapping[str, Fraction]) -> FamilyTest:
    cells = make_cells(observed, probs)
    return FamilyTest(SEQUENCE_WAGER, label, sum(observed.values()), tuple(cells), chi_square(cells), None)
