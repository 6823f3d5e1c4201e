"""Testing a continuous shuffler's delivered stream, card by card, against the cards in
the machine (:class:`StreamTally`); read by :func:`exactodds.simulation.shufflecheck.check_shuffles`.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from exactodds.errors import InputError
from exactodds.game.cards import FACES, RANKS, Shoe
from exactodds.simulation.shoetests import MIN_PAIRS
from exactodds.simulation.shufflelaws import SHUFFLE_WAGER, repeat_test, z_test
from exactodds.simulation.statistics import Cell, ChiSquare, FamilyTest, norm_two_sided

WINDOW: Final = 24
"""Continuous shuffler: delivered cards hashed per window to find repeated sequences."""


# -- continuous shufflers ----------------------------------------------------------------------------
@dataclass
class _Pairs:
    """Chances of one event and its hits: per machine size ``s``, [chances, Σ m, Σ m²]."""

    hits: int = 0
    by_size: dict[int, list[int]] = field(default_factory=dict)


class StreamTally:
    """A continuous shuffler's delivered cards, tested card by card against the machine's content.

    The machine starts holding the whole shoe; every delivered card leaves it, and at a
    reinsertion point the cards named (or, with none named, every card delivered since the
    last point, in delivery order) go back. An ideal machine delivers each card uniformly
    from the cards it holds, so each card's conditional law is known exactly and every
    statistic below is a sum of martingale differences with exact conditional means and
    variances, accumulated per machine size in integers:

    * **rank uniformity**: for each rank, delivered cards of that rank against ``Σ n_r/s``
      (``s`` cards in the machine); the 13 two-sided z-tests, Bonferroni over the ranks;
    * **same face again**: a card followed by another copy of its face;
    * **successor retained**: a card followed by the card that followed it when it was last
      reinserted (the input order's neighbours delivered together again);
    * **repeated sequences**: successive windows of :data:`WINDOW` delivered cards hashed;
      p-value the union bound ``C(W,2)·(c/s_min)^WINDOW`` (``c`` the most copies of a face,
      ``s_min`` the fewest cards the machine held).
    """

    def __init__(self, shoe: Shoe) -> None:
        self.shoe = shoe
        self.machine = list(shoe.counts)
        self.size = shoe.size
        self.since: list[int] = []
        self.successor: dict[int, int] = {}
        self.cards = 0
        self.points = 0
        self.rank_obs: dict[int, list[int]] = {}
        self.rank_sum: dict[int, list[int]] = {}
        self.rank_sq: dict[int, list[int]] = {}
        self.pair = {"same": _Pairs(), "successor": _Pairs()}
        self.prev: int | None = None
        self.window: list[int] = []
        self.windows: dict[bytes, int] = {}
        self.repeats = 0
        self.first_repeat: tuple[int, int] | None = None
        self.smallest = shoe.size

    def deliver(self, f: int, where: str) -> None:
        if self.machine[f] == 0:
            raise InputError(f"{where}: {FACES[f]} delivered but every copy is out of the machine (mark the "
                             "reinsertions with a '>' line)")
        s = self.size
        self.smallest = min(self.smallest, s)
        r = f // 4
        ranks = self.rank_obs.setdefault(s, [0] * len(RANKS))
        sums = self.rank_sum.setdefault(s, [0] * len(RANKS))
        sqs = self.rank_sq.setdefault(s, [0] * len(RANKS))
        ranks[r] += 1
        for q in range(len(RANKS)):
            m = sum(self.machine[4 * q:4 * q + 4])
            sums[q] += m
            sqs[q] += m * m
        if self.prev is not None:
            self._pair("same", self.prev, f, s)
            nxt = self.successor.get(self.prev)
            if nxt is not None:
                self._pair("successor", nxt, f, s)
        self.machine[f] -= 1
        self.size -= 1
        self.since.append(f)
        self.prev = f
        self.cards += 1
        self.window.append(f)
        if len(self.window) == WINDOW:
            key = hashlib.blake2b(bytes(self.window), digest_size=16).digest()
            before = self.windows.get(key)
            if before is None:
                self.windows[key] = self.cards
            else:
                self.repeats += 1
                if self.first_repeat is None:
                    self.first_repeat = (self.cards, before)
            self.window = []

    def _pair(self, what: str, target: int, f: int, s: int) -> None:
        """One chance of the event "the next card is ``target``": probability m/s exactly."""
        tally = self.pair[what]
        m = self.machine[target]
        acc = tally.by_size.setdefault(s, [0, 0, 0])
        acc[0] += 1
        acc[1] += m
        acc[2] += m * m
        tally.hits += f == target

    def reinsert(self, faces: list[int] | None, where: str) -> None:
        back = self.since if faces is None else faces
        out = [c - m for c, m in zip(self.shoe.counts, self.machine)]
        for f in back:
            if out[f] == 0:
                raise InputError(f"{where}: {FACES[f]} reinserted but no copy of it is out of the machine")
            out[f] -= 1
        for f in back:
            self.machine[f] += 1
        self.size += len(back)
        for a, b in zip(back, back[1:]):
            self.successor[a] = b
        self.since = []
        self.points += 1

    def tests(self) -> list[FamilyTest]:
        out = [self._ranks()]
        for what, name in (("same", "same face again: a card followed by another copy of its face"),
                           ("successor", "successor retained: a card followed by the card after it when last "
                                         "reinserted")):
            hits, by_size = self.pair[what].hits, self.pair[what].by_size
            mean = sum((Fraction(a[1], s) for s, a in by_size.items()), Fraction(0))
            var = sum((Fraction(a[1] * s - a[2], s * s) for s, a in by_size.items()), Fraction(0))
            count = sum(a[0] for a in by_size.values())
            z = float(hits - mean) / math.sqrt(float(var)) if var > 0 else 0.0
            out.append(z_test(name + " (exact conditional mean and variance)", count, "cards", hits, mean, z,
                               count >= MIN_PAIRS and var > 0))
        w = self.cards // WINDOW
        c = max(self.shoe.counts)
        one = Fraction(c, self.smallest) ** WINDOW if self.smallest else Fraction(1)
        out.append(repeat_test(f"repeated sequences: successive windows of {WINDOW} delivered cards hashed", w,
                                self.repeats, min(Fraction(1), one), w * (w - 1) // 2))
        return out

    def _ranks(self) -> FamilyTest:
        zs = []
        cells = []
        for r, rank in enumerate(RANKS):
            obs = sum(v[r] for v in self.rank_obs.values())
            mean = sum((Fraction(self.rank_sum[s][r], s) for s in self.rank_obs), Fraction(0))
            var = sum((Fraction(self.rank_sum[s][r] * s - self.rank_sq[s][r], s * s) for s in self.rank_obs),
                      Fraction(0))
            z = float(obs - mean) / math.sqrt(float(var)) if var > 0 else 0.0
            zs.append(z)
            cells.append(Cell(rank, obs, mean / max(1, self.cards), mean, z if var > 0 else None))
        worst = max(zs, key=abs)
        p = min(1.0, len(RANKS) * norm_two_sided(worst))
        conclusive = self.cards >= MIN_PAIRS * len(RANKS)
        name = "rank uniformity: each rank against the machine's content (13 z-tests, Bonferroni)"
        key = ("shuffle ranks", name, tuple((c.observed, c.expected) for c in cells))
        return FamilyTest(SHUFFLE_WAGER, name, self.cards, tuple(cells),
                          ChiSquare(worst * worst, 1, p if conclusive else 1.0, len(cells), (), (), conclusive, key, "z"),
                          None)
