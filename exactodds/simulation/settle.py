"""Settle simulated rounds for every wager at every level: one mechanism, driven by the level.

A :class:`~exactodds.engine.level.Level` says how a dealt round is read
(``from_deal(player, banker)``) and which class each face belongs to (``face_class``);
a :class:`~exactodds.catalogue.model.Wager` settles a level's result
(``settle(paytable, result)``). :class:`RoundSettler` uses just that, for any wager --
the catalogue's (pairs, House Money, Lucky Nines, progressives, Match-The-Dealer...) or
a wager file's -- with no per-wager code:

1. each round's cards are laid out in six *slots*: the Player's cards 0-2 and the
   Banker's 3-5 in dealing order (an absent third card is a slot of its own), or, for a
   level that is not a baccarat round (Spanish 21's Match-The-Dealer, § 551.7), the
   player's two cards in slots 0-1 and the dealer's up and hole cards in 3-4;
2. rounds are grouped by the classes of the faces in the slots the level reads (declared
   by the level, ``Level.slots_read``; a test checks each declaration by a seeded trial),
   so ``from_deal`` runs once per distinct group, on a real round of the group, and its
   result is remembered across batches; a level that reads every card and names a group
   key (``Level.group_key``) is grouped by its result itself, computed for all rounds at
   once (:data:`GROUP_KEYS`: the point totals and third cards; one suit, colour or rank),
   else nearly every round would be a group of its own;
3. each wager settles each distinct result once; outcome counts are a ``bincount``.

Counts are exact integers. Each round is counted in one of two parts: 0 (fresh mode, or
a shoe-mode round dealt in every shoe: :func:`~exactodds.simulation.simulate.guaranteed_rounds`)
or 1 (a later shoe-mode round, not comparable with the exact fresh-shoe figures).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.catalogue.model import Paytable, Wager
from exactodds.engine.level import GroupKey, Level
from exactodds.game.cardcode import ABSENT as CARD_ABSENT
from exactodds.game.cards import FACES, RANKS, SUITS, Card, Shoe

ABSENT: Final = CARD_ABSENT
"""Slot value of a card not dealt (a third card not drawn): the one card code's "no card"
(:mod:`exactodds.game.cardcode`), so a hand log's cards are slots as they are read."""

SLOTS: Final = 6
"""Slots 0-2: the Player's cards (or the player's two); 3-5: the Banker's (or the dealer's)."""

MAX_KNOWN: Final = 1 << 22
"""Most distinct groups whose result is remembered across batches (memory bound)."""

_CARDS: Final = tuple(FACES) + (None,)


def baccarat_slots(faces: npt.NDArray[np.uint8], codes: npt.NDArray[np.uint16]) -> npt.NDArray[np.int64]:
    """Slots of baccarat rounds from their first six cards (dealing order) and coup codes.

    Cards 1 and 3 go to the Player, 2 and 4 to the Banker (§ 629a.8(c)); a Player third
    card is card 5; the Banker's third card is card 6 if the Player drew, else card 5
    (§ 629a.10).

    >>> import numpy as np
    >>> baccarat_slots(np.array([[0, 1, 2, 3, 4, 5]], np.uint8), np.array([0b01], np.uint16)).tolist()
    [[0, 2, 52, 1, 3, 4]]
    """
    f = faces.astype(np.int64)
    c = codes.astype(np.int64)
    p3 = (c >> 1 & 1).astype(bool)
    b3 = (c & 1).astype(bool)
    out = np.full((f.shape[0], SLOTS), ABSENT, dtype=np.int64)
    out[:, 0], out[:, 1], out[:, 3], out[:, 4] = f[:, 0], f[:, 2], f[:, 1], f[:, 3]
    out[p3, 2] = f[p3, 4]
    out[b3 & p3, 5] = f[b3 & p3, 5]
    out[b3 & ~p3, 5] = f[b3 & ~p3, 4]
    return out


def sequence_slots(faces: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Slots of a non-baccarat deal (Spanish 21): cards dealt player, dealer, player, dealer,
    the dealer's first card face up (the order the match level reads them in)."""
    f = faces.astype(np.int64)
    out = np.full((f.shape[0], SLOTS), ABSENT, dtype=np.int64)
    out[:, 0], out[:, 1], out[:, 3], out[:, 4] = f[:, 0], f[:, 2], f[:, 1], f[:, 3]
    return out


def hands(slots: Sequence[int]) -> tuple[list[Card], list[Card]]:
    """The Player's (or player's) and Banker's (or dealer's) cards of one round's slots."""
    player = [_CARDS[s] for s in slots[:3] if s != ABSENT]
    banker = [_CARDS[s] for s in slots[3:] if s != ABSENT]
    return player, banker  # type: ignore[return-value]


_VALUE: Final = np.array([c.value for c in FACES] + [10], np.int64)         # 10: no card
_SUIT: Final = np.array([SUITS.index(c.suit) for c in FACES] + [-1], np.int64)
_RED: Final = np.array([c.colour == "red" for c in FACES] + [False], bool)
_RANK: Final = np.array([RANKS.index(c.rank) for c in FACES] + [-1], np.int64)


def _coup_parts(slots: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Each round's coup as one number ``((P·10 + B)·2 + P3)·2 + B3`` (final points, third
    card or not, § 629a.10) and whether a card is dealt in each slot."""
    present = slots != ABSENT
    v = np.where(present, _VALUE[slots], 0)
    player, banker = v[:, :3].sum(axis=1) % 10, v[:, 3:].sum(axis=1) % 10
    return ((player * 10 + banker) * 2 + present[:, 2]) * 2 + present[:, 5], present


def coup_keys(slots: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A group key of each round for the ``coup`` level: its result, the :class:`Coup`
    itself, as a number (:func:`_coup_parts`)."""
    return _coup_parts(slots)[0]


def deal_faces_keys(slots: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A group key of each round for the ``deal-faces`` level: its result (the coup; one
    suit, one colour or mixed; one rank; the single point value: :class:`DealFaces`) as a
    number, so that rounds with one key have one result.

    >>> from exactodds.game.cards import parse_card
    >>> row = lambda *t: [FACES.index(parse_card(x)) if x else ABSENT for x in t]
    >>> k = deal_faces_keys(np.array([row("9S", "KS", "", "8S", "QS", ""), row("9H", "JH", "", "8H", "KH", ""),
    ...                               row("9H", "JD", "", "8H", "KH", ""), row("9H", "JC", "", "8H", "KH", "")]))
    >>> bool(k[0] == k[1]), bool(k[1] == k[2]), bool(k[2] == k[3])
    (True, False, False)
    """
    coup, present = _coup_parts(slots)
    first = slots[:, :1]

    def same(attr: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
        return ((attr[slots] == attr[first]) | ~present).all(axis=1)  # type: ignore[no-any-return]

    colour = np.where(same(_SUIT), 0, np.where(same(_RED), 1, 2))
    single = np.where(same(_VALUE), _VALUE[slots[:, 0]], 10)
    return ((coup * 3 + colour) * 2 + same(_RANK)) * 11 + single


GROUP_KEYS: Final[dict[GroupKey, tuple[Callable[[npt.NDArray[np.int64]], npt.NDArray[np.int64]], int]]] = {
    "points": (coup_keys, 400), "points-faces": (deal_faces_keys, 400 * 3 * 2 * 11)}
"""For a level that reads every card (its result is made of point totals, suits or ranks of
all of them), a vectorised key of each round's result, by the level's declared
``group_key``, and the keys' range: grouping by the faces read would make nearly every
round a group of its own. Any other level is grouped by the faces in the slots it reads."""


class _LevelGroups:
    """The results of one level, remembered by group key across batches."""

    def __init__(self, level: Level) -> None:
        self.level = level
        joint = None if level.group_key is None else GROUP_KEYS[level.group_key]
        self.joint = None if joint is None else joint[0]
        self.dense = None if joint is None else np.full(joint[1], -1, np.int64)
        """With a result key of small range: the result index of each key seen, else -1."""
        self.read = () if joint else level.slots_read
        cls = np.asarray(level.face_class, dtype=np.int64)
        width = int(cls.max()) + 2
        self.classes = np.append(cls, width - 1)
        self.radix = width ** np.arange(len(self.read), dtype=np.int64)[::-1]
        self.keys = np.zeros(0, dtype=np.int64)
        self.index = np.zeros(0, dtype=np.int64)
        self.results: list[Any] = []
        self.result_pos: dict[Any, int] = {}

    def results_of(self, slots: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Index into :attr:`results` of every round's result."""
        if self.joint is not None and self.dense is not None:
            key = self.joint(slots)
            for k in np.unique(key[self.dense[key] < 0]).tolist():    # keys not seen before: few
                r = self.level.from_deal(*hands(slots[int(np.argmax(key == k))].tolist()))
                self.dense[k] = self.result_pos.setdefault(r, len(self.results))
                if self.dense[k] == len(self.results):
                    self.results.append(r)
            return self.dense[key]
        if self.read:
            key = self.classes[slots[:, list(self.read)]] @ self.radix
        else:
            key = np.zeros(slots.shape[0], dtype=np.int64)
        uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        pos = np.searchsorted(self.keys, uniq)
        pos_c = np.minimum(pos, max(self.keys.size - 1, 0))
        found = (self.keys.size > 0) & (self.keys[pos_c] == uniq) if self.keys.size else np.zeros(uniq.size, bool)
        out = np.empty(uniq.size, dtype=np.int64)
        out[found] = self.index[pos_c[found]]
        new = np.flatnonzero(~found)
        for i in new.tolist():
            r = self.level.from_deal(*hands(slots[first[i]].tolist()))
            j = self.result_pos.get(r)
            if j is None:
                j = self.result_pos[r] = len(self.results)
                self.results.append(r)
            out[i] = j
        if new.size and self.keys.size + new.size <= MAX_KNOWN:
            keys = np.concatenate([self.keys, uniq[new]])
            index = np.concatenate([self.index, out[new]])
            order = np.argsort(keys, kind="stable")
            self.keys, self.index = keys[order], index[order]
        return out[inverse.ravel()]


class RoundSettler:
    """Outcome counts of ``pairs`` (wager, paytable) from batches of dealt rounds.

    Feed it with :meth:`feed` (slots of baccarat rounds) or :meth:`feed_level` (slots of
    rounds dealt for one non-baccarat level); read :meth:`families`.
    """

    @classmethod
    def of(cls, pairs: Sequence[tuple[str, str]]) -> RoundSettler:
        """A settler of (wager id, paytable id) pairs, looked up in the catalogue."""
        from exactodds.catalogue import get_wager

        return cls([(get_wager(w), get_wager(w).paytable(t)) for w, t in pairs])

    def __init__(self, pairs: Sequence[tuple[Wager[Any], Paytable]]) -> None:
        self.pairs = list(pairs)
        self.names = [w.outcome_names(t) for w, t in self.pairs]
        self.counts = [np.zeros((2, len(n)), dtype=np.int64) for n in self.names]
        self.groups: dict[Level, _LevelGroups] = {}
        self.outcome_of: list[list[int]] = [[] for _ in self.pairs]
        """Per pair: the outcome index of each of its level's distinct results so far."""

    @property
    def levels(self) -> list[Level]:
        """The levels of the wagers, baccarat and not, in first-appearance order."""
        return list(dict.fromkeys(w.level for w, _ in self.pairs))

    def _outcomes(self, k: int, g: _LevelGroups) -> npt.NDArray[np.int64]:
        w, t = self.pairs[k]
        known = self.outcome_of[k]
        names = self.names[k]
        for r in g.results[len(known):]:
            known.append(names.index(w.settle(t, r)))
        return np.asarray(known, dtype=np.int64)

    def feed_level(self, level: Level, slots: npt.NDArray[np.int64], part: npt.NDArray[np.int64] | None = None,
                   ) -> None:
        """Count rounds of ``level`` given their slots; ``part`` (0 or 1 per round) or all 0."""
        if not slots.shape[0]:
            return
        g = self.groups.get(level)
        if g is None:
            g = self.groups[level] = _LevelGroups(level)
        res = g.results_of(slots)
        p = np.zeros(slots.shape[0], dtype=np.int64) if part is None else part.astype(np.int64)
        for k, (w, _t) in enumerate(self.pairs):
            if w.level is not level:
                continue
            outcome = self._outcomes(k, g)[res]
            n = self.counts[k].shape[1]
            self.counts[k] += np.bincount(p * n + outcome, minlength=2 * n).reshape(2, n)

    def keep(self, indices: Sequence[int]) -> None:
        """Keep only the pairs at ``indices`` (their counts so far too): a cross-check drops
        the wagers a log cannot settle once it learns so (a log that gives ranks only)."""
        self.pairs = [self.pairs[i] for i in indices]
        self.names = [self.names[i] for i in indices]
        self.counts = [self.counts[i] for i in indices]
        self.outcome_of = [self.outcome_of[i] for i in indices]

    def feed(self, slots: npt.NDArray[np.int64], part: npt.NDArray[np.int64] | None = None) -> None:
        """Count baccarat rounds (slots from :func:`baccarat_slots`) for every baccarat level."""
        for level in self.levels:
            if level.baccarat:
                self.feed_level(level, slots, part)

    def families(self, part: int | None = None) -> dict[tuple[str, str], dict[str, int]]:
        """Outcome counts per (wager id, paytable id): part 0, part 1, or both (``None``)."""
        out = {}
        for (w, t), names, counts in zip(self.pairs, self.names, self.counts):
            row = counts.sum(axis=0) if part is None else counts[part]
            out[(w.id, t.id)] = {name: int(n) for name, n in zip(names, row)}
        return out


def result_indices(level: Level, slots: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Each round's result as its index in ``level.results``, read by the settler's own
    grouping (``from_deal`` once per distinct group of what the level reads, on a real
    round of the group): what the study weighs each dealt round by."""
    g = _LevelGroups(level)
    res = g.results_of(slots)
    table = np.array([level.result_index[r] for r in g.results], dtype=np.intp)
    out: npt.NDArray[np.intp] = table[res] if res.size else np.zeros(0, dtype=np.intp)
    return out


def simulated_pairs(wagers: Sequence[str] | None, shoe: Shoe) -> tuple[list[tuple[str, str]], list[str]]:
    """(wager id, paytable id) of every paytable of ``wagers`` (default: every wager in the
    catalogue as registered now, wager files included) that a simulation of ``shoe`` can
    settle, and a message for each one it cannot (a level whose own shoe cannot be made
    from ``shoe``)."""
    from exactodds.catalogue import CATALOGUE, get_wager
    from exactodds.errors import InputError

    pairs: list[tuple[str, str]] = []
    skipped: list[str] = []
    for wid in dict.fromkeys(wagers if wagers else list(CATALOGUE)):
        w = get_wager(wid)
        if not w.level.baccarat:
            try:
                w.level.dealt_shoe(shoe)
            except (InputError, ValueError) as exc:
                skipped.append(f"skipped {w.id}: its level {w.level.name!r} cannot deal from this shoe ({exc})")
                continue
        pairs += [(w.id, t.id) for t in w.paytables]
    return pairs, skipped


__all__ = ["ABSENT", "GROUP_KEYS", "RoundSettler", "baccarat_slots", "hands", "result_indices", "sequence_slots",
           "simulated_pairs"]
