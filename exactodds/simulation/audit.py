"""The rule audit of a hand log: every logged round replayed through § 629a.8-629a.10.

* :func:`audit_round` says which third card (taken or not) of one round breaks the
  drawing rules; :func:`audit_log` does it for a whole log, streaming, vectorised with
  numpy chunk by chunk, holding only counts (memory does not grow with the log).
* :class:`Auditor` is the one pass over a log's chunks the cross-check makes: it audits,
  counts each playable round's :class:`~exactodds.game.rules.Coup` (comparable or later in
  its shoe: the cut-card effect, ``docs/simulator.md``), feeds the card-sequence tally
  (:mod:`exactodds.simulation.sequence`) and settles the wagers read from the cards
  through the simulator's own :class:`~exactodds.simulation.settle.RoundSettler`
  (:class:`CardWagers`), the log's cards being in the one card code
  (:mod:`exactodds.game.cardcode`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.game.cardcode import ABSENT, CODE_RANK, CODE_SUIT, CODE_VALUE, CODES, NO_SUIT, code_text, face_of
from exactodds.game.cards import FACES, RANKS, Card, Shoe
from exactodds.game.rules import (
    Coup,
    banker_draws,
    is_natural,
    player_draws,
    point_count,
)
from exactodds.simulation import engine_link
from exactodds.simulation.handlog import (
    LogChunk,
    LogFile,
)
from exactodds.simulation.sequence import SequenceTally
from exactodds.simulation.settle import RoundSettler
from exactodds.simulation.simulate import (
    NCODES,
    Cover,
    decode,
    guaranteed_rounds,
)

KEPT_VIOLATIONS: Final = 1000
"""Violations kept with their round and line; beyond, only counted per message."""


# -- the rule audit ----------------------------------------------------------------------
@dataclass(frozen=True)
class Violation:
    """A logged round that breaks the dealing or drawing rules."""

    round: int
    line: int
    message: str


def _natural_text(p2: int, b2: int) -> str:
    hands = [f"{name} {t}" for name, t in (("Player", p2), ("Banker", b2)) if is_natural(t)]
    return " and ".join(hands)


def audit_round(player: Sequence[int], banker: Sequence[int]) -> list[str]:
    """Why a round with these card values (each hand in dealing order) breaks the rules.

    Empty when the round is dealt correctly. The Banker is judged on the Player's hand
    as actually dealt, so one wrong draw gives one message.
    """
    problems = []
    for name, hand in (("Player", player), ("Banker", banker)):
        if len(hand) < 2:
            problems.append(f"the {name} hand has {len(hand)} card; each hand is dealt two (§ 629a.8(c))")
        elif len(hand) > 3:
            problems.append(f"the {name} hand has {len(hand)} cards; no hand takes more than one "
                            "additional card (§ 629a.9(c))")
    if problems:
        return problems
    p2, b2 = point_count(player[:2]), point_count(banker[:2])
    p_drew, b_drew = len(player) == 3, len(banker) == 3
    if is_natural(p2) or is_natural(b2):
        nat = _natural_text(p2, b2)
        for name, drew in (("Player", p_drew), ("Banker", b_drew)):
            if drew:
                problems.append(f"{name} drew a third card though {nat} is a Natural: "
                                "neither hand draws (§ 629a.10(a))")
        return problems
    if p_drew != player_draws(p2):
        problems.append(f"Player {'drew' if p_drew else 'stood'} on {p2}: the Player draws on 0-5 and "
                        f"stands on 6-7 (§ 629a.10(b){'(2)' if p_drew else '(1)'})")
    third = player[2] if p_drew else None
    if b_drew != banker_draws(b2, third):
        verb = "drew" if b_drew else "stood"
        if third is None:
            problems.append(f"Banker {verb} on {b2} with the Player standing: the Banker then draws on "
                            "0-5 and stands on 6-7 (§ 629a.10(c)(1))")
        elif b2 <= 2:
            problems.append(f"Banker stood on {b2}: with 0-2 the Banker draws (§ 629a.10(c)(2)(i))")
        elif b2 == 7:
            problems.append("Banker drew on 7: the Banker stands on 7 (§ 629a.10(c)(2)(ii))")
        else:
            should = "draw" if banker_draws(b2, third) else "stay"
            problems.append(f"Banker {verb} on {b2} against a Player third card of {third}: "
                            f"Table 1 says {should} (§ 629a.10(c)(2)(iii))")
    return problems


@lru_cache(maxsize=1 << 16)
def _audit_cached(player: tuple[int, ...], banker: tuple[int, ...]) -> tuple[str, ...]:
    """:func:`audit_round`, memoised: a log repeats the same value patterns endlessly."""
    return tuple(audit_round(player, banker))


def _banker_table() -> npt.NDArray[np.bool_]:
    """``[banker two-card count, Player third card value (10: the Player stood)]`` -> draws."""
    t = np.zeros((10, 11), dtype=bool)
    for b in range(10):
        for v in range(11):
            t[b, v] = banker_draws(b, v if v < 10 else None)
    return t


_BANKER_DRAWS: Final = _banker_table()
_PLAYER_DRAWS: Final = np.array([player_draws(p) for p in range(10)], dtype=bool)
_NATURAL: Final = np.array([is_natural(p) for p in range(10)], dtype=bool)


@dataclass
class ShortShoes:
    """Shoes (other than the last) that dealt fewer rounds than the comparable prefix assumes."""

    count: int = 0
    fewest: int | None = None
    examples: list[tuple[int, int, int]] = field(default_factory=list)
    """(shoe number, rounds dealt, line of its first round) of the first few."""


@dataclass
class Audit:
    """The rule audit of a hand log, and the round results it read (as counts)."""

    rounds: int
    violations: list[Violation]
    comparable: Counter[Coup]
    not_comparable: Counter[Coup]
    unplayable: int
    guaranteed: int | None
    violating_rounds: int = 0
    by_message: Counter[str] = field(default_factory=Counter)
    shoes: int = 0
    short_shoes: ShortShoes = field(default_factory=ShortShoes)
    suitless_line: int | None = None
    """Line of the first card logged without a suit (``None``: every card has one)."""


class Auditor:
    """Audits a log chunk by chunk and accumulates counts; memory independent of length."""

    def __init__(self, shoe: Shoe, k: int | None, face_pairs: Sequence[tuple[str, str]],
                 sequence: SequenceTally) -> None:
        self.shoe = shoe
        self.k = k
        self.rounds = 0
        self.unplayable = 0
        self.violating = 0
        self.violations: list[Violation] = []
        self.by_message: Counter[str] = Counter()
        self.coups = np.zeros((2, NCODES), dtype=np.int64)
        self.face_limit = np.full(CODES, 1 << 30, dtype=np.int64)  # rank-only cards: no face limit
        self.face_limit[:len(FACES)] = shoe.counts
        self.rank_limit = np.array(shoe.rank_counts(), dtype=np.int64)
        self.shoe_number: int | None = None
        self.shoe_rounds = 0
        self.shoe_line = 0
        self.shoes = 0
        self.short = ShortShoes()
        self.suitless_line: int | None = None
        self.faces = CardWagers(face_pairs)
        self.sequence = sequence

    # -- per chunk
    def feed(self, ch: LogChunk) -> None:
        n = len(ch)
        self.rounds += n
        pn, bn = ch.player_cards, ch.banker_cards
        pc, bc = ch.player, ch.banker
        playable = (pn >= 2) & (pn <= 3) & (bn >= 2) & (bn <= 3)
        self.unplayable += int(n - playable.sum())
        pv = CODE_VALUE[pc].astype(np.int64)
        bv = CODE_VALUE[bc].astype(np.int64)
        p2 = (pv[:, 0] + pv[:, 1]) % 10
        b2 = (bv[:, 0] + bv[:, 1]) % 10
        natural = _NATURAL[p2] | _NATURAL[b2]
        p_drew, b_drew = pn == 3, bn == 3
        third = np.where(p_drew, pv[:, 2], 10)
        p_should = ~natural & _PLAYER_DRAWS[p2]
        b_should = ~natural & _BANKER_DRAWS[b2, third]
        bad = ~playable | (p_drew != p_should) | (b_drew != b_should)
        comp = self._composition(pc, bc, pn, bn)
        for j in np.flatnonzero(bad | comp):
            self._report(ch, int(j), pv, bv, bool(comp[j]))
        if self.suitless_line is None:
            cards = np.concatenate([pc, bc], axis=1)
            suitless = ((CODE_SUIT[cards] == NO_SUIT) & (cards != ABSENT)).any(axis=1)
            if suitless.any():
                self.suitless_line = int(ch.line[int(np.argmax(suitless))])
                self.faces.ranks_only(self.suitless_line)
        later = self._later(ch)
        pt = (pv.sum(axis=1)) % 10
        bt = (bv.sum(axis=1)) % 10
        code = pt * 40 + bt * 4 + (pn.astype(np.int64) - 2) * 2 + (bn.astype(np.int64) - 2)
        for part in (0, 1):
            sel = playable & (later == bool(part))
            self.coups[part] += np.bincount(code[sel], minlength=NCODES)
        self.faces.feed(pc, bc, playable, later)
        self.sequence.feed(ch, pc, bc, playable & ~later)

    def _composition(self, pc: npt.NDArray[np.int16], bc: npt.NDArray[np.int16],
                     pn: npt.NDArray[np.int16], bn: npt.NDArray[np.int16]) -> npt.NDArray[np.bool_]:
        """Rounds holding more copies of a face, or of a rank, than the shoe has (none can
        when the shoe holds at least 6 of every face and rank: a round has at most 6 cards)."""
        if self.face_limit.min() >= 6 and self.rank_limit.min() >= 6:
            return np.zeros(pc.shape[0], dtype=bool)
        cards = np.concatenate([pc, bc], axis=1).astype(np.int64)
        valid = cards != ABSENT
        suited = valid & (CODE_SUIT[cards] != NO_SUIT)
        same = (cards[:, :, None] == cards[:, None, :]) & suited[:, :, None] & suited[:, None, :]
        face_over = (same.sum(axis=2) > self.face_limit[cards]) & suited
        rank = CODE_RANK[cards].astype(np.int64)
        same_rank = (rank[:, :, None] == rank[:, None, :]) & valid[:, :, None] & valid[:, None, :]
        rank_over = (same_rank.sum(axis=2) > self.rank_limit[np.where(valid, rank, 0)]) & valid
        out: npt.NDArray[np.bool_] = (face_over | rank_over).any(axis=1)
        return out

    def _composition_text(self, cards: list[int]) -> str | None:
        faces = Counter(c for c in cards if CODE_SUIT[c] != NO_SUIT)
        for c, n in sorted(faces.items()):
            if n > self.face_limit[c]:
                return (f"the round holds {n} copies of {code_text(c)}; the shoe ({self.shoe.describe()}) "
                        f"has {self.face_limit[c]}")
        ranks = Counter(int(CODE_RANK[c]) for c in cards)
        for r, n in sorted(ranks.items()):
            if n > self.rank_limit[r]:
                return (f"the round holds {n} cards of rank {RANKS[r]}; the shoe ({self.shoe.describe()}) "
                        f"has {self.rank_limit[r]}")
        return None

    def _report(self, ch: LogChunk, j: int, pv: npt.NDArray[np.int64], bv: npt.NDArray[np.int64],
                comp: bool) -> None:
        pn, bn = int(ch.player_cards[j]), int(ch.banker_cards[j])
        player = tuple(int(v) for v in pv[j, :min(pn, 3)]) + (0,) * max(0, pn - 3)
        banker = tuple(int(v) for v in bv[j, :min(bn, 3)]) + (0,) * max(0, bn - 3)
        messages = list(_audit_cached(player, banker))
        if comp:
            cards = [int(c) for c in ch.player[j, :min(pn, 3)]] + [int(c) for c in ch.banker[j, :min(bn, 3)]]
            text = self._composition_text(cards)
            if text:
                messages.append(text)
        if not messages:
            return
        self.violating += 1
        for m in messages:
            self.by_message[m] += 1
            if len(self.violations) < KEPT_VIOLATIONS:
                self.violations.append(Violation(int(ch.round[j]), int(ch.line[j]), m))

    def _later(self, ch: LogChunk) -> npt.NDArray[np.bool_]:
        """Rounds after the k-th of their shoe; tracks shoe lengths on the way."""
        n = len(ch)
        if ch.shoe is None or self.k is None:
            return np.zeros(n, dtype=bool)
        shoe = ch.shoe
        new = np.empty(n, dtype=bool)
        new[0] = self.shoe_number is None or int(shoe[0]) != self.shoe_number
        new[1:] = shoe[1:] != shoe[:-1]
        starts = np.flatnonzero(new)
        run_start = np.maximum.accumulate(np.where(new, np.arange(n), 0))
        index = np.arange(n) - run_start  # 0-based index within the shoe
        if not new[0]:
            first_run = np.arange(n) < (starts[0] if starts.size else n)
            index[first_run] += self.shoe_rounds
        # shoes that end here: the carried one (if a new shoe starts at 0), then every run but the last
        if new[0] and self.shoe_number is not None:
            self._shoe_done(self.shoe_number, self.shoe_rounds, self.shoe_line)
        elif starts.size and not new[0]:
            self._shoe_done(self.shoe_number or 0, int(self.shoe_rounds + int(starts[0])), self.shoe_line)
        for a, b in itertools.pairwise(starts.tolist()):  # every run but the last (still open)
            self._shoe_done(int(shoe[a]), b - a, int(ch.line[a]))
        if starts.size:
            last = int(starts[-1])
            self.shoe_number, self.shoe_rounds, self.shoe_line = int(shoe[last]), n - last, int(ch.line[last])
        else:
            self.shoe_rounds += n
        later: npt.NDArray[np.bool_] = index >= self.k
        return later

    def _shoe_done(self, number: int, rounds: int, line: int) -> None:
        self.shoes += 1
        assert self.k is not None
        if rounds < self.k:
            self.short.count += 1
            self.short.fewest = rounds if self.short.fewest is None else min(self.short.fewest, rounds)
            if len(self.short.examples) < 5:
                self.short.examples.append((number, rounds, line))

    def audit(self) -> Audit:
        if self.shoe_number is not None:
            self.shoes += 1  # the last shoe, which may have been cut short by the end of the log
        comparable, later = (Counter({decode(i): int(c) for i, c in enumerate(row) if c}) for row in self.coups)
        return Audit(self.rounds, self.violations, comparable, later, self.unplayable, self.k, self.violating,
                     self.by_message, self.shoes, self.short, self.suitless_line)


def audit_log(log: LogFile, shoe: Shoe, cover: int | Cover) -> Audit:
    """Audit every round of ``log``; count each playable round's :class:`Coup`.

    A round whose hands have 2 or 3 cards is counted as dealt, right or wrong, so a
    wrong draw also shows in the statistics. In a log with shoe numbers, round ``k``
    of a shoe is comparable with the fresh-shoe figures when ``k`` is at most
    :func:`~exactodds.simulation.simulate.guaranteed_rounds` (shoes are assumed logged from
    their first round).
    """
    top = Cover.of(cover).top(shoe.size)
    auditor = Auditor(shoe, guaranteed_rounds(shoe.size, top) if log.has_shoes else None, (),
                       SequenceTally(shoe, False))
    for ch in log.chunks():
        auditor.feed(ch)
    return auditor.audit()


# -- wagers settled on the cards, through the one settler -----------------------------------------
MAX_FACE_ROUNDS: Final = 10**6
"""Most rounds whose cards settle the face-level wagers (``--faces``): the work per round is
bounded (each distinct group of a level is read once by the level, each result settled
once), a prefix of a log is a sample of it as good as any, and the bound is stated in
the report."""

class CardWagers:
    """Outcome counts of the wagers settled above the coup level, from each round's cards,
    by the simulator's own :class:`~exactodds.simulation.settle.RoundSettler` (a log's
    hands, in dealing order, are the settler's slots: one card code), on at most :data:`MAX_FACE_ROUNDS`
    playable rounds."""

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.settler = RoundSettler.of(pairs)
        self.dropped: list[str] = []
        self.settled = 0  # rounds settled so far (at most MAX_FACE_ROUNDS)
        self.unsettled = 0  # playable rounds past the bound, not settled

    def ranks_only(self, line: int) -> None:
        """The log gives ranks without suits: keep only the wagers whose settlement is suit-blind."""
        keep = [i for i, (w, t) in enumerate(self.settler.pairs) if _suit_blind(w.id, t.id)]
        self.dropped += [f"skipped {w.id} ({t.id}): its settlement reads suits, and the log gives ranks only "
                         f"(line {line})" for i, (w, t) in enumerate(self.settler.pairs) if i not in keep]
        self.settler.keep(keep)

    def feed(self, pc: npt.NDArray[np.int16], bc: npt.NDArray[np.int16],
             playable: npt.NDArray[np.bool_], later: npt.NDArray[np.bool_]) -> None:
        """Settle the playable rounds of a chunk (``later``: part 1, past the comparable prefix)."""
        if not self.settler.pairs:
            return
        sel = np.flatnonzero(playable)
        room = max(MAX_FACE_ROUNDS - self.settled, 0)
        if sel.size > room:
            self.unsettled += sel.size - room
            sel = sel[:room]
        self.settled += sel.size
        if sel.size:
            slots = face_of(np.concatenate([pc[sel], bc[sel]], axis=1))
            self.settler.feed(slots, later[sel].astype(np.int64))

    def bound_note(self) -> list[str]:
        """The note saying the face-level wagers were settled on the first rounds only, if so."""
        if not self.unsettled or not self.settler.pairs:
            return []
        return [f"the wagers settled on the cards are tested on the first {MAX_FACE_ROUNDS:,} playable rounds "
                f"of the log only (the bound on --faces work); the "
                f"{self.unsettled:,} later round(s) are tested on the round results only"]

    def families(self, later: bool) -> dict[tuple[str, str], dict[str, int]]:
        """Outcome counts per (wager, paytable) of the comparable rounds, or of the later ones."""
        return self.settler.families(int(later))


@cache
def _suit_blind(wager_id: str, paytable_id: str) -> bool:
    """Whether the wager's settlement never depends on suits, tried on many deals.

    Each probe deal is settled twice: every card a spade, and suits by position
    (S, H, D, C, S, H: every two cards of one hand differ in suit and in colour). Probes
    are seeded and weighted toward equal ranks (pairs, one rank throughout, six 0-value
    cards), where suit-reading pays concentrate.
    """
    w = engine_link.wager(wager_id)
    t = w.paytable(paytable_id)
    rng = np.random.default_rng(20240917)
    spread = ("S", "H", "D", "C", "S", "H")
    for i in range(3000):
        kind = i % 4  # any ranks; three ranks (pairs common); one rank; value-0 ranks only
        if kind == 0:
            ranks = rng.choice(13, size=6)
        elif kind == 1:
            ranks = rng.choice(3, size=6) + 7
        elif kind == 2:
            ranks = np.full(6, rng.integers(0, 13))
        else:
            ranks = rng.choice(4, size=6) + 9
        p = 2 + int(rng.integers(0, 2))
        b = 2 + int(rng.integers(0, 2))
        order = [0, 2, 4][:p] + [1, 3, 5][:b]
        one = [Card(RANKS[int(ranks[j])], "S") for j in order]
        two = [Card(RANKS[int(ranks[j])], spread[j]) for j in order]
        r1 = engine_link.round_result(w.level, one[:p], one[p:])
        r2 = engine_link.round_result(w.level, two[:p], two[p:])
        if engine_link.settle(w, t, r1) != engine_link.settle(w, t, r2):
            return False
    return True
