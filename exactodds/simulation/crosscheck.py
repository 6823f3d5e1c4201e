"""Cross-checking simulators against the exact figures: rule audit and statistics.

Library functions a notebook can call; every result is a dataclass.

* :func:`audit_round` replays one logged round through § 629a.8-629a.10 and says
  which third card (taken or not) breaks the drawing rules; :func:`audit_log` does it
  for a whole log, streaming, vectorised with numpy chunk by chunk, holding only counts
  (memory does not grow with the log).
* :func:`goodness_of_fit` tests observed outcome counts against exact probabilities:
  Pearson's chi-square with cells of expected count below 5 merged, per-outcome
  z-scores, and, for a wager, the observed return against the exact return. Expected
  counts are exact Fractions (``n·p``) and the statistic is summed exactly; only the
  p-value is a float (``scipy.stats``).
* Card-sequence tests (:func:`sequence_tests`) look at the dealt cards themselves, which
  outcome frequencies cannot: consecutive-rank transitions, rank by dealing position,
  and shoe-to-shoe (round-to-round) dependence.
* :func:`focused_tests`: one binomial test per outcome class (naturals by total, each
  main wager's winning event, third-card draws by total), exact ``p`` from the engine, so
  a small concentrated fault is not diluted in the omnibus chi-square.
* Logs with a ``shoe`` column also get the shoe-level tests and the shoe accounting of
  :mod:`exactodds.simulation.shoetests` (carry-over between shoes, neighbours, position in
  the shoe, repeated shoes; composition, rounds per shoe against the cover card, burn).
* :func:`crosscheck_log` and :func:`crosscheck_counts` put these together with Holm's
  step-down correction over every distinct test (identical tests counted once), so the
  chance of a false alarm is at most ``alpha``, and give a verdict: consistent,
  INCONSISTENT, or inconclusive when the sample is too small for any test.

The cut-card effect (see ``docs/simulator.md``): in a shoe dealt to the cover card,
round ``k`` of a shoe has exactly the fresh-shoe distribution when every shoe deals at
least ``k`` rounds (:func:`~exactodds.simulation.simulate.guaranteed_rounds`); later rounds exist
only in some shoes, chosen by the cards, and are not directly comparable. Their round
results are reported separately and left out of the verdict; their cards enter it through
the shoe-level test of each card against the cards left in its shoe, whose exact law holds
at every depth (:meth:`~exactodds.simulation.shoetests.ShoeTally.left_tests`). The cover
card may lie anywhere in a range (:class:`~exactodds.simulation.simulate.Cover`); the
prefix comes from its highest cover.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.catalogue import CATALOGUE
from exactodds.engine.levels import COUP
from exactodds.errors import InputError
from exactodds.game.cards import RANKS, SUITS, Card, Shoe
from exactodds.game.rules import (
    Coup,
    banker_draws,
    is_natural,
    player_draws,
    point_count,
)
from exactodds.io.progress import Progress
from exactodds.simulation import engine_link
from exactodds.simulation.handlog import (
    CODE_RANK,
    CODE_SUIT,
    CODE_VALUE,
    NO_CARD,
    NO_SUIT,
    CountsFile,
    LogChunk,
    LogFile,
    code_text,
)
from exactodds.simulation.simulate import (
    NCODES,
    Cover,
    decode,
    guaranteed_rounds,
    outcome_counts,
)
from exactodds.simulation.statistics import (
    MIN_EXPECTED,
    MIN_RETURN_ROUNDS,
    Cell,
    ChiSquare,
    FamilyTest,
    chi_square,
    make_cells,
    min_return_rounds,
    norm_two_sided,
    return_test,
    z_score,
)

DEFAULT_ALPHA: Final = 0.001
KEPT_VIOLATIONS: Final = 1000
"""Violations kept with their round and line; beyond, only counted per message."""

RESULTS_FAMILY: Final = ("round results", COUP.name)
"""The family of every distinct round result (point counts and card counts)."""

SEQUENCE_WAGER: Final = "card sequence"
"""The ``wager`` name of the card-sequence tests."""


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


class _Auditor:
    """Audits a log chunk by chunk and accumulates counts; memory independent of length."""

    def __init__(self, shoe: Shoe, k: int | None, face_pairs: Sequence[tuple[str, str]],
                 sequence: _SequenceTally) -> None:
        self.shoe = shoe
        self.k = k
        self.rounds = 0
        self.unplayable = 0
        self.violating = 0
        self.violations: list[Violation] = []
        self.by_message: Counter[str] = Counter()
        self.coups = np.zeros((2, NCODES), dtype=np.int64)
        self.face_limit = np.full(128, 1 << 30, dtype=np.int64)
        for r, rank in enumerate(RANKS):
            for s, suit in enumerate(SUITS):
                self.face_limit[r * 5 + s] = shoe.count(Card(rank, suit))
        self.rank_limit = np.array(shoe.rank_counts(), dtype=np.int64)
        self.shoe_number: int | None = None
        self.shoe_rounds = 0
        self.shoe_line = 0
        self.shoes = 0
        self.short = ShortShoes()
        self.suitless_line: int | None = None
        self.faces = _FaceSettler(face_pairs)
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
            suitless = ((CODE_SUIT[cards] == NO_SUIT) & (cards != NO_CARD)).any(axis=1)
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
        self.faces.feed(pc, bc, pn, bn, playable, later)
        self.sequence.feed(ch, pc, bc, playable & ~later)

    def _composition(self, pc: npt.NDArray[np.int16], bc: npt.NDArray[np.int16],
                     pn: npt.NDArray[np.int16], bn: npt.NDArray[np.int16]) -> npt.NDArray[np.bool_]:
        """Rounds holding more copies of a face, or of a rank, than the shoe has (none can
        when the shoe holds at least 6 of every face and rank: a round has at most 6 cards)."""
        if self.face_limit.min() >= 6 and self.rank_limit.min() >= 6:
            return np.zeros(pc.shape[0], dtype=bool)
        cards = np.concatenate([pc, bc], axis=1).astype(np.int64)
        valid = cards != NO_CARD
        suited = valid & (CODE_SUIT[cards] != NO_SUIT)
        same = (cards[:, :, None] == cards[:, None, :]) & suited[:, :, None] & suited[:, None, :]
        face_over = (same.sum(axis=2) > self.face_limit[cards]) & suited
        rank = CODE_RANK[cards].astype(np.int64)
        same_rank = (rank[:, :, None] == rank[:, None, :]) & valid[:, :, None] & valid[:, None, :]
        rank_over = (same_rank.sum(axis=2) > self.rank_limit[np.where(valid, rank, 0)]) & valid
        out: npt.NDArray[np.bool_] = (face_over | rank_over).any(axis=1)
        return out

    def _composition_text(self, cards: list[int]) -> str | None:
        faces = Counter(c for c in cards if c % 5 != NO_SUIT)
        for c, n in sorted(faces.items()):
            if n > self.face_limit[c]:
                return (f"the round holds {n} copies of {code_text(c)}; the shoe ({self.shoe.describe()}) "
                        f"has {self.face_limit[c]}")
        ranks = Counter(c // 5 for c in cards)
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
    auditor = _Auditor(shoe, guaranteed_rounds(shoe.size, top) if log.has_shoes else None, (),
                       _SequenceTally(shoe, False))
    for ch in log.chunks():
        auditor.feed(ch)
    return auditor.audit()


# -- face-level wagers, settled from the cards -------------------------------------------------
_CARDS: Final = {r * 5 + s: Card(rank, suit) for r, rank in enumerate(RANKS) for s, suit in enumerate(SUITS)}
for _r, _rank in enumerate(RANKS):
    _CARDS[_r * 5 + NO_SUIT] = Card(_rank, "S")  # ranks-only logs: only suit-blind wagers are settled


MAX_FACE_ROUNDS: Final = 10**6
"""Most rounds whose cards settle the face-level wagers (``--faces``): each distinct deal
is settled by the engine in Python (measured ~100 µs of CPU per round over every face-level
wager), so the work is bounded at ~100 s of CPU; a prefix of a log is a sample of it as
good as any, and the bound is stated in the report."""


class _FaceSettler:
    """Outcome counts of wagers settled above the coup level, from each round's cards.

    Per level, the rounds of a chunk are grouped by the faces at the positions the level
    reads (declared: ``Level.slots_read``), so the level's ``from_deal`` runs once per distinct
    group, on the group's first round, and each wager's ``settle`` once per result.
    """

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.pairs = list(pairs)
        self._setup([(engine_link.wager(w), engine_link.wager(w).paytable(t)) for w, t in self.pairs])
        self.counts = [np.zeros((2, len(n)), dtype=np.int64) for n in self.names]
        self.dropped: list[str] = []
        self.settled = 0  # rounds settled so far (at most MAX_FACE_ROUNDS)
        self.unsettled = 0  # playable rounds past the bound, not settled

    def _setup(self, wagers: list[tuple[Any, Any]]) -> None:
        self.wagers = wagers
        self.names = [w.outcome_names(t) for w, t in wagers]
        self.levels = sorted({w.level for w, _ in wagers}, key=lambda lv: lv.name)

    def ranks_only(self, line: int) -> None:
        """The log gives ranks without suits: keep only the wagers whose settlement is suit-blind."""
        keep = [i for i, (w, t) in enumerate(self.wagers) if _suit_blind(w.id, t.id)]
        for i, (wid, tid) in enumerate(self.pairs):
            if i not in keep:
                self.dropped.append(f"skipped {wid} ({tid}): its settlement reads suits, and the log gives "
                                    f"ranks only (line {line})")
        self.pairs = [self.pairs[i] for i in keep]
        self._setup([self.wagers[i] for i in keep])
        self.counts = [self.counts[i] for i in keep]

    def feed(self, pc: npt.NDArray[np.int16], bc: npt.NDArray[np.int16], pn: npt.NDArray[np.int16],
             bn: npt.NDArray[np.int16], playable: npt.NDArray[np.bool_], later: npt.NDArray[np.bool_]) -> None:
        if not self.pairs:
            return
        sel = np.flatnonzero(playable)
        room = MAX_FACE_ROUNDS - self.settled
        if sel.size > room:
            self.unsettled += sel.size - max(room, 0)
            sel = sel[:max(room, 0)]
        self.settled += sel.size
        if not sel.size:
            return
        c = np.concatenate([pc[sel], bc[sel]], axis=1).astype(np.int64)
        part = later[sel].astype(np.int64)
        for level in self.levels:
            read = level.slots_read
            key = np.zeros(sel.size, dtype=np.int64)
            for j in read:
                key = key << 7 | c[:, j]
            _uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            results = []
            for i in first.tolist():
                row = c[i].tolist()
                player = [_CARDS[x] for x in row[:3] if x != NO_CARD]
                banker = [_CARDS[x] for x in row[3:] if x != NO_CARD]
                results.append(engine_link.round_result(level, player, banker))
            for k, (w, t) in enumerate(self.wagers):
                if w.level != level:
                    continue
                names = self.names[k]
                outcome = np.array([names.index(_settle_cached(w, t, r)) for r in results], dtype=np.int64)
                counts = self.counts[k]
                idx = outcome[inverse.ravel()] * 2 + part
                counts += np.bincount(idx, minlength=2 * counts.shape[1]).reshape(-1, 2).T

    def bound_note(self) -> list[str]:
        """The note saying the face-level wagers were settled on the first rounds only, if so."""
        if not self.unsettled or not self.pairs:
            return []
        return [f"the wagers settled on the cards are tested on the first {MAX_FACE_ROUNDS:,} playable rounds "
                f"of the log only (the bound on --faces work); the "
                f"{self.unsettled:,} later round(s) are tested on the round results only"]

    def families(self, later: bool) -> dict[tuple[str, str], dict[str, int]]:
        return {pair: {name: int(n) for name, n in zip(names, counts[int(later)])}
                for pair, names, counts in zip(self.pairs, self.names, self.counts)}


_SETTLED: dict[tuple[int, int, Any], str] = {}


def _settle_cached(w: Any, t: Any, result: Any) -> str:
    key = (id(w), id(t), result)
    out = _SETTLED.get(key)
    if out is None:
        out = engine_link.settle(w, t, result)
        if len(_SETTLED) < 1 << 20:
            _SETTLED[key] = out
    return out


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


# -- card-sequence tallies ---------------------------------------------------------------------
class _SequenceTally:
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
        out.append(_fixed_fit("rank transitions (cards 1>2, 3>4)",
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
        out.append(_fixed_fit(label, pair_obs, {f"{name[a]}|{name[b]}": p for (a, b), p in across.items()}))
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
        return _fixed_fit(f"identical {what} among cards 1-4 of a round, against {shoe.decks} deck(s)",
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


def _fixed_fit(label: str, observed: Mapping[str, int], probs: Mapping[str, Fraction]) -> FamilyTest:
    cells = make_cells(observed, probs)
    return FamilyTest(SEQUENCE_WAGER, label, sum(observed.values()), tuple(cells), chi_square(cells), None)


def goodness_of_fit(wager_id: str, paytable_id: str, observed: Mapping[str, int], shoe: Shoe,
                    alpha: float = DEFAULT_ALPHA) -> FamilyTest:
    """Test a wager's observed outcome counts against its exact analysis for ``shoe``."""
    a = engine_link.exact_analysis(wager_id, paytable_id, shoe)
    probs = {r.name: r.probability for r in a.rows}
    nets = {r.name: r.pay.net for r in a.rows}
    cells = make_cells(observed, probs)
    unknown = [k for k in observed if k not in probs]
    if unknown:
        raise InputError(f"{wager_id} ({paytable_id}) has no outcome {unknown[0]!r}")
    n = sum(observed.values())
    rt = return_test(observed, nets, a.return_, a.variance, alpha, min_return_rounds(probs, nets)) if n else None
    return FamilyTest(wager_id, paytable_id, n, tuple(cells), chi_square(cells), rt)


def coup_name(c: Coup) -> str:
    """A round result as text, e.g. ``P5(3) B7(2)``."""
    return f"P{c.player_total}({c.player_cards}) B{c.banker_total}({c.banker_cards})"


def results_fit(coups: Mapping[Coup, int], shoe: Shoe) -> FamilyTest:
    """Test the distribution of round results (every point/card-count combination)."""
    d = engine_link.coup_distribution(shoe)
    probs = {coup_name(c): Fraction(n, d.universe) for c, n in sorted(d.counts.items())}
    observed = {coup_name(c): n for c, n in coups.items()}
    cells = make_cells(observed, probs)
    return FamilyTest(*RESULTS_FAMILY, sum(coups.values()), tuple(cells), chi_square(cells), None)


# -- focused tests, beside the omnibus chi-square ----------------------------------------------
FOCUSED_WAGER: Final = "outcome class"
"""The ``wager`` name of the focused per-class tests."""

MIN_FOCUSED: Final = 10
"""A focused test is made when the class expects at least this many rounds, and its complement too."""


def _two(c: Coup) -> bool:
    return c.player_cards == 2 and c.banker_cards == 2


FOCUSED_CLASSES: Final[tuple[tuple[str, Any], ...]] = (
    *((f"Player natural {t} (§ 629a.10(a))", (lambda c, t=t: c.player_cards == 2 and c.player_total == t
                                              and (c.banker_cards == 2))) for t in (8, 9)),
    *((f"Banker natural {t} (§ 629a.10(a))", (lambda c, t=t: c.banker_cards == 2 and c.banker_total == t
                                              and c.player_cards == 2)) for t in (8, 9)),
    ("Banker natural 9 wins", lambda c: _two(c) and c.banker_total == 9 and c.player_total < 9),
    ("Player natural 9 wins", lambda c: _two(c) and c.player_total == 9 and c.banker_total < 9),
    ("Banker wins (§ 629a.11)", lambda c: c.winner == "banker"),
    ("Player wins (§ 629a.11)", lambda c: c.winner == "player"),
    ("Tie (§ 629a.11)", lambda c: c.winner == "tie"),
    *((f"Player draws, final total {t} (§ 629a.10(b))", (lambda c, t=t: c.player_cards == 3 and c.player_total == t))
      for t in range(10)),
    *((f"Banker draws, final total {t} (§ 629a.10(c))", (lambda c, t=t: c.banker_cards == 3 and c.banker_total == t))
      for t in range(10)),
)
"""Classes of round results tested one by one: naturals by total, each main wager's
winning event, third-card draws by final total (each a set of coups)."""


def focused_tests(coups: Mapping[Coup, int], shoe: Shoe) -> list[FamilyTest]:
    """One binomial test per outcome class of :data:`FOCUSED_CLASSES`: the number of rounds
    in the class against ``n·p``, ``p`` the exact probability from the engine's coup counts,
    ``z = (O - np)/√(np(1-p))``, two-sided. A small fault concentrated in one class (1 in
    200 Banker natural-9 wins dropped) is diluted in the 200-cell round-results
    chi-square; here it has its own test. Each enters the verdict's Holm family."""
    d = engine_link.coup_distribution(shoe)
    n = sum(coups.values())
    out = []
    for name, member in FOCUSED_CLASSES:
        p = Fraction(sum(k for c, k in d.counts.items() if member(c)), d.universe)
        o = sum(k for c, k in coups.items() if member(c))
        e = n * p
        conclusive = e >= MIN_FOCUSED and n - e >= MIN_FOCUSED
        z = z_score(o, n, p)
        pv = norm_two_sided(z) if conclusive and z is not None else 1.0
        zz = z if z is not None else 0.0
        out.append(FamilyTest(FOCUSED_WAGER, name, n, (Cell(name, o, p, e, z),),
                              ChiSquare(zz * zz, 1, pv, 1, (), (), conclusive, ("focused", name, o, n), "z"), None))
    return out


# -- putting it together -------------------------------------------------------------------------
Chosen = Sequence[str] | Mapping[str, str | None]
"""The wagers a cross-check tests: ids (every paytable of each), or wager id -> the one
paytable to test (``None``: every paytable), as ``-w WAGER:PAYTABLE`` gives."""


def wager_tables(wagers: Chosen | None = None, cards: bool = True, faces: bool = False,
                 ) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[str]]:
    """(wager, paytable) pairs settled at the coup level, pairs settled on the cards
    (pairs, suits, ...), and messages for the wagers skipped.

    ``cards``: the source has the dealt cards (a hand log), so wagers settled on them can
    be tested. Without ``wagers``: every coup-level wager, and with ``faces`` every wager
    settled on the cards too (slower: their results are read group by group). Named
    ``wagers`` are taken whatever their level, when ``cards`` allows; a wager mapped to a
    paytable is tested under that paytable only.

    >>> wager_tables({"banker": "ez", "dragon-7": None}, cards=False)[0]
    [('banker', 'ez'), ('dragon-7', '40to1')]
    """
    chosen: dict[str, str | None] = dict(wagers) if isinstance(wagers, Mapping) else dict.fromkeys(wagers or ())
    coup: list[tuple[str, str]] = []
    face: list[tuple[str, str]] = []
    skipped: list[str] = []
    untested: list[str] = []
    for wid in (list(chosen) if chosen else list(CATALOGUE)):
        w = engine_link.wager(wid)
        table = chosen.get(wid)
        pairs = [(w.id, p.id) for p in w.paytables if table is None or p.id == table]
        if w.level is COUP:
            coup += pairs
        elif not engine_link.is_baccarat_level(w.level):
            skipped.append(f"skipped {w.id}: settled at level {w.level.name!r}, which is not a baccarat round")
        elif not cards:
            skipped.append(f"skipped {w.id}: settled on the cards (level {w.level.name!r}); a counts-only "
                           "simulation does not deal them")
        elif chosen or faces:
            face += pairs
        else:
            untested.append(w.id)
    if untested:
        skipped.append(f"not tested, settled on the cards (--faces, or --wager ID, settles them from the logged "
                       f"cards): {', '.join(untested)}")
    return coup, face, skipped


def coup_wager_tables(wagers: Chosen | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """(wager, paytable) pairs of every coup-level wager (or of those named), and the
    messages for wagers skipped because they are settled on more than the coup."""
    coup, _, skipped = wager_tables(wagers, cards=False)
    return coup, skipped


@dataclass
class Section:
    """Tests of one set of rounds: all comparable rounds, or the shoe-mode tail."""

    rounds: int
    families: list[FamilyTest]

    def p_values(self) -> list[float]:
        """Every conclusive test's p-value, family by family."""
        return [p for f in self.families for p in f.p_values()]


def _section(coups: Mapping[Coup, int], shoe: Shoe, pairs: Sequence[tuple[str, str]], alpha: float,
             face_counts: Mapping[tuple[str, str], Mapping[str, int]] | None = None) -> Section:
    n = sum(coups.values())
    fams = []
    if n:
        fams.append(results_fit(coups, shoe))
        for wid, tid in pairs:
            w = engine_link.wager(wid)
            fams.append(goodness_of_fit(wid, tid, outcome_counts(coups, w, w.paytable(tid)), shoe, alpha))
        for (wid, tid), observed in (face_counts or {}).items():
            fams.append(goodness_of_fit(wid, tid, observed, shoe, alpha))
    return Section(n, fams)


def holm(tests: Iterable[tuple[tuple[Any, ...], float]], alpha: float) -> dict[tuple[Any, ...], float]:
    """Holm-adjusted p-values of distinct tests (equal keys counted once): a test fails
    at family-wise level ``alpha`` when its adjusted p-value is below ``alpha``.

    >>> adj = holm([(("a",), 0.01), (("b",), 0.04), (("a",), 0.01)], 0.05)
    >>> adj[("a",)], adj[("b",)]
    (0.02, 0.04)
    """
    distinct: dict[tuple[Any, ...], float] = {}
    for key, p in tests:
        distinct.setdefault(key, p)
    order = sorted(distinct.items(), key=lambda kv: kv[1])
    m = len(order)
    out: dict[tuple[Any, ...], float] = {}
    running = 0.0
    for i, (key, p) in enumerate(order):
        running = max(running, min(1.0, (m - i) * p))
        out[key] = running
    return out


@dataclass
class CrossCheck:
    """The full result of a cross-check, verdict included."""

    source: str
    kind: str
    shoe: Shoe
    alpha: float
    comparable: Section
    not_comparable: Section | None = None
    audit: Audit | None = None
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    accounting: list[Any] = field(default_factory=list)
    """Named accounting checks (:class:`~exactodds.simulation.shoetests.AccountingCheck`)."""
    cover: dict[str, Any] | None = None
    """Shoe-mode logs: the cover range used (``low``, ``high``: ``None`` for no upper bound),
    the cover the comparable prefix comes from, and the narrowest range of covers the
    complete shoes fit (``observed_low``, ``observed_high``; ``None`` when no shoe shows it)."""

    @property
    def adjusted(self) -> dict[tuple[Any, ...], float]:
        """Holm-adjusted p-value of every distinct conclusive test behind the verdict
        (computed once for the families as they are)."""
        tag = (self.alpha, tuple(id(f) for f in self.comparable.families))
        cached = self.__dict__.get("_holm")
        if cached is None or cached[0] != tag:
            cached = (tag, holm((t for f in self.comparable.families for t in f.tests()), self.alpha))
            self.__dict__["_holm"] = cached
        out: dict[tuple[Any, ...], float] = cached[1]
        return out

    @property
    def tests(self) -> int:
        """Number of distinct conclusive tests behind the verdict (identical ones once)."""
        return len(self.adjusted)

    @property
    def inconclusive_tests(self) -> int:
        """Tests not made because the sample is too small for them."""
        out = 0
        for f in self.comparable.families:
            out += not f.chi_square.conclusive
            out += f.return_test is not None and not f.return_test.conclusive
        return out

    @property
    def threshold(self) -> float:
        """The smallest per-test level of Holm's procedure: ``alpha`` / number of tests."""
        return self.alpha / max(1, self.tests)

    def failed(self, f: FamilyTest) -> tuple[bool, bool]:
        """Whether ``f``'s chi-square, and its return test, fail (Holm at ``alpha``)."""
        adj = self.adjusted
        chi = f.chi_square.conclusive and adj.get(f.chi_square.key, 1.0) < self.alpha
        rt = f.return_test is not None and f.return_test.conclusive and \
            adj.get(f.return_test.key, 1.0) < self.alpha
        return chi, rt

    def failures(self) -> list[str]:
        """Why the input is inconsistent with the exact figures (empty if it is not)."""
        out = []
        if self.audit is not None and self.audit.violating_rounds:
            out.append(f"{self.audit.violating_rounds} round(s) break the drawing rules (§ 629a.8-629a.10)")
        for check in self.accounting:
            if check.failed:
                out.append(f"accounting, {check.name}: {check.failed:,} of {check.checked:,} {check.unit}(s) break it "
                           f"({check.rule}); first: {'; '.join(check.examples)}")
        adj = self.adjusted
        for f in self.comparable.families:
            label = f"{f.wager} ({f.paytable})"
            chi, rt = self.failed(f)
            if f.chi_square.impossible:
                out.append(f"{label}: impossible outcome observed: {', '.join(f.chi_square.impossible)}")
            elif chi:
                out.append(f"{label}: {f.chi_square.method} p = {f.chi_square.p_value:.3g} "
                           f"(Holm-adjusted {adj[f.chi_square.key]:.3g} < {self.alpha:g})")
            if rt and f.return_test is not None:
                out.append(f"{label}: observed return differs from the exact return, "
                           f"z = {f.return_test.z:.2f}, p = {f.return_test.p_value:.3g} "
                           f"(Holm-adjusted {adj[f.return_test.key]:.3g})")
        return out

    @property
    def consistent(self) -> bool:
        """No rule broken and no test failed (an inconclusive result is not inconsistent)."""
        return not self.failures()

    @property
    def verdict(self) -> str:
        """``"inconsistent"``, ``"inconclusive"`` (no test could be made) or ``"consistent"``."""
        if self.failures():
            return "inconsistent"
        return "inconclusive" if self.tests == 0 else "consistent"


def _check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {alpha}")


def crosscheck_log(log: LogFile, shoe: Shoe, cover: int | Cover, alpha: float = DEFAULT_ALPHA,
                   wagers: Chosen | None = None, progress: Progress | None = None,
                   faces: bool = False, prefix_cover: int | None = None) -> CrossCheck:
    """Audit a hand log, then test the round results, the wagers (coup-level ones from the
    round results; with ``faces`` or when named, those settled on the cards, from the
    cards) and the card sequence.

    ``cover``: cards under the cover card (§ 629a.5(d)), one number or a :class:`Cover`
    range; the comparable prefix comes from its highest cover, or, for a range with no
    upper bound, from ``prefix_cover``
    (:func:`~exactodds.simulation.shoetests.survey_cover` chooses one from the log).
    The log is read once, streaming; ``progress`` is told the bytes read.
    """
    _check_alpha(alpha)
    start = time.process_time()
    span = Cover.of(cover)
    if span.high is None and prefix_cover is None:
        prefix_cover = span.top(shoe.size)  # the most any shoe can have: the shortest prefix
    top = span.high if span.high is not None else int(prefix_cover or span.low)
    coup_pairs, face_pairs, skipped = wager_tables(wagers, True, faces)
    k = guaranteed_rounds(shoe.size, top) if log.has_shoes else None
    tally = _SequenceTally(shoe, log.has_shoes)
    auditor = _Auditor(shoe, k, face_pairs, tally)
    from exactodds.simulation.shoetests import ShoeTally

    shoes = ShoeTally(shoe, span, top) if log.has_shoes else None
    log.set_progress(progress)
    for ch in log.chunks():
        auditor.feed(ch)
        if shoes is not None:
            shoes.feed(ch)
    tally.finish()
    audit = auditor.audit()
    skipped += auditor.faces.dropped
    skipped += auditor.faces.bound_note()
    section = _section(audit.comparable, shoe, coup_pairs, alpha, auditor.faces.families(False))
    if section.rounds:
        section.families += focused_tests(audit.comparable, shoe)
        section.families += tally.tests()
    result = CrossCheck(log.path, "log", shoe, alpha, section, audit=audit, skipped=skipped)
    if shoes is not None:
        open_rounds = shoes.finish()
        if section.rounds:
            section.families += shoes.tests()
        result.accounting = list(shoes.checks.values())
        result.cover = {"low": span.low, "high": span.high, "prefix_cover": top,
                        "observed_low": shoes.fit_low, "observed_high": shoes.fit_high}
        checked = ", ".join(f"{c.name} ({c.checked:,} shoes, {c.failed:,} broken)" for c in result.accounting)
        result.notes.append(f"accounting, shoe by shoe (the last shoe, {open_rounds:,} round(s), may be cut short by "
                            f"the end of the log and is not checked): {checked}")
        result.notes += [n for n in (shoes.range_note(), shoes.cover_note(), shoes.repeat_note()) if n]
    order = log.order
    if order is not None:
        from exactodds.simulation.shoetests import AccountingCheck

        gaps = AccountingCheck("round numbers", "round numbers follow on without gaps" +
                               (" within each shoe" if log.has_shoes else ""), unit="round number")
        gaps.checked = order.rounds + order.missing
        gaps.failed = order.missing
        if order.first_gap is not None:
            gaps.examples.append("round {2} follows round {1} at line {0}".format(*order.first_gap))
        result.accounting.append(gaps)
    if order is not None and order.missing and order.first_gap is not None:
        line, before, after = order.first_gap
        within = " within a shoe" if log.has_shoes else ""
        result.notes.append(
            f"accounting, round numbers: {order.missing:,} round number(s) missing{within} (first: "
            f"round {after} follows round {before} at line {line}); rounds left out of a log bias every "
            "count, so a complete log should have none")
    if audit.unplayable:
        result.notes.append(f"{audit.unplayable} round(s) with a hand of fewer than 2 or more than 3 cards "
                            "are left out of the statistics")
    if audit.suitless_line is not None:
        result.notes.append(f"the log gives ranks without suits (first at line {audit.suitless_line}): "
                            "wagers that read suits are skipped and the duplicate-card check counts ranks only")
    if audit.guaranteed is not None:
        result.not_comparable = _section(audit.not_comparable, shoe, coup_pairs, alpha, auditor.faces.families(True))
        result.notes.append(
            f"dealt through the shoe: rounds 1-{audit.guaranteed} of each shoe are dealt in every shoe "
            f"(cover card {span.describe()} cards from the bottom, the prefix from a cover of {top}, § 629a.5(d), "
            f"§ 629a.9(d)) and are tested against "
            f"the fresh-shoe figures; the {result.not_comparable.rounds:,} later round(s) are not directly "
            "comparable (cut-card effect): their round results are reported apart, outside the verdict, and "
            "their cards enter it through the test of each card against the cards left in its shoe")
        short = audit.short_shoes
        if short.count:
            fewest = short.fewest or 0
            suggest = max(top, shoe.size - 6 * fewest - 4)
            examples = ", ".join(f"shoe {s} (line {line}) dealt {r}" for s, r, line in short.examples)
            result.notes.append(
                f"{short.count:,} of the {audit.shoes - 1:,} complete shoe(s) dealt fewer rounds than the "
                f"{audit.guaranteed} every shoe deals with the cover card {top} cards from the bottom "
                f"({examples}{', ...' if short.count > len(short.examples) else ''}): that simulator places "
                f"its cover card higher, so the split above is not the right one; give its --cover "
                f"(a cover of {suggest} or more makes every shoe deal at least {fewest} rounds)")
    if result.verdict == "inconclusive":
        result.notes.append(_too_few(section.rounds))
    result.seconds = time.process_time() - start
    return result


def _too_few(rounds: int) -> str:
    return (f"inconclusive: {rounds:,} comparable round(s) are too few for any test (a chi-square needs two "
            f"groups of cells expecting {MIN_EXPECTED} rounds each, a return test at least "
            f"{MIN_RETURN_ROUNDS} rounds); no rule is broken")


def crosscheck_counts(counts: CountsFile, shoe: Shoe, alpha: float = DEFAULT_ALPHA) -> CrossCheck:
    """Test the outcome counts of every wager in a counts file."""
    _check_alpha(alpha)
    fams = []
    skipped = []
    for (wid, tid), observed in counts.families.items():
        w = engine_link.wager(wid)
        if not engine_link.is_baccarat_level(w.level) and w.level is not COUP:
            skipped.append(f"skipped {wid} ({tid}): settled at level {w.level.name!r}, not a baccarat round")
            continue
        if sum(observed.values()) == 0:
            skipped.append(f"skipped {wid} ({tid}): no rounds")
            continue
        fams.append(goodness_of_fit(wid, tid, observed, shoe, alpha))
    if not fams:
        raise InputError(f"{counts.path}: no wager with counts to test")
    rounds = max(f.rounds for f in fams)
    result = CrossCheck(counts.path, "counts", shoe, alpha, Section(rounds, fams), skipped=skipped)
    if counts.meta.get("mode") == "shoe" and counts.meta.get("subset") != "comparable":
        result.notes.append("counts from a game dealt through the shoe pool every round, including rounds "
                            "that exist only in some shoes (cut-card effect): they are not directly comparable "
                            "to fresh-shoe figures, and a failure may be that effect")
    if result.verdict == "inconclusive":
        result.notes.append(_too_few(rounds))
    return result


def bench_crosscheck(rounds: int = 2_000_000, path: str | None = None, mode: str = "fresh") -> float:
    """Rounds per second (CPU time) of reading, auditing and testing a hand log of
    ``rounds`` rounds dealt in ``mode`` (``"shoe"``: every shoe-level test and accounting
    check on), written first to ``path`` or a temporary file, not timed."""
    import os
    import tempfile

    from exactodds.simulation.handlog import log_header, render_log_chunk
    from exactodds.simulation.simulate import HandLog, simulate

    shoe = Shoe.standard(8)
    fd, tmp = tempfile.mkstemp(suffix=".csv") if path is None else (None, path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(log_header({"decks": 8, "cover": 14}, mode == "shoe"))
            def sink(batch: HandLog) -> None:
                fh.write(render_log_chunk(batch))
            simulate(rounds, "shoe" if mode == "shoe" else "fresh", shoe, seed=2024, on_hands=sink)
        if fd is not None:
            os.close(fd)
        crosscheck_log(_open_log(tmp), shoe, 14)  # warm the caches (exact figures, hands)
        start = time.process_time()
        crosscheck_log(_open_log(tmp), shoe, 14)
        return rounds / (time.process_time() - start)
    finally:
        if path is None:
            os.unlink(tmp)


def _open_log(path: str) -> LogFile:
    from exactodds.simulation.handlog import read_file

    data = read_file(path)
    assert isinstance(data, LogFile)
    return data
