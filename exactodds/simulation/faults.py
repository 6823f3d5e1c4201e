"""Deliberately faulty dealers, to measure what the cross-check can detect.

A sound simulator shuffles every shoe uniformly at random. These deal fresh-shoe rounds
(each round the top of its own shuffled shoe) from shuffles that are not uniform:

* :func:`riffles` -- the shoe in factory order (each deck A-K of spades, hearts,
  diamonds, clubs), then ``times`` riffle shuffles (Gilbert-Shannon-Reeds model: a
  binomial cut, then cards dropped from each packet in proportion to its size);
* :func:`naive_swaps` -- factory order, then the classic mistake ``for i: swap(i,
  random(0..n-1))``, which does not give every order the same chance;

and :func:`deal_fresh` deals rounds from such shoes with any drawing rules, so rule
faults (:class:`~exactodds.simulation.simulate.DrawRules`) and shuffle faults go
through the same dealer. ``scripts/power.py`` measures the rounds needed to detect each.

:func:`shoe_rounds` deals **shoe-mode** logs (burn, cover card, one more round:
§ 629a.5, § 629a.9(d)) through the simulator's own
:func:`~exactodds.simulation.simulate.deal_shoes`, from correct or faulty shuffles and
dealers (:data:`SHOE_FAULTS`): shuffles that carry the previous shoe's order over (its
discards, in the order they left the shoe, riffled), a naive swap shuffle, a 16-bit
generator driving Fisher-Yates, a dealer who deals the Player's third card from the
bottom, a log that drops Banker natural-9 wins, and replayed shoes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.game.cards import FACES, Shoe
from exactodds.simulation.simulate import (
    BURN_COUNT,
    FACE_VALUE,
    MIN_COVER,
    STANDARD_RULES,
    Cover,
    DrawRules,
    HandLog,
    cards_used,
    code_table,
    deal_shoes,
    play_values,
)


def factory_order(shoe: Shoe) -> npt.NDArray[np.uint8]:
    """Face indices of ``shoe`` in factory order: deck after deck, each suit A to K.

    >>> [str(FACES[i]) for i in factory_order(Shoe.standard(1))[:3]]
    ['AS', '2S', '3S']
    """
    per_deck = [i for s in range(4) for i in range(s, len(FACES), 4)]  # suit-major, rank order
    copies = max(shoe.counts)
    out = [i for k in range(copies) for i in per_deck if shoe.counts[i] > k]
    return np.array(out, dtype=np.uint8)


def riffles(decks: npt.NDArray[np.uint8], times: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """``times`` Gilbert-Shannon-Reeds riffle shuffles of every row of ``decks``."""
    rows, n = decks.shape
    out = decks.copy()
    r = np.arange(rows)[:, None]
    for _ in range(times):
        cut = np.asarray(rng.binomial(n, 0.5, size=rows), dtype=np.int64)
        # which packet each position of the result comes from: a uniform arrangement of
        # ``cut`` top-packet and ``n - cut`` bottom-packet cards (the GSR interleaving)
        keys = rng.random((rows, n)).argsort(axis=1).argsort(axis=1)
        from_bottom = keys >= cut[:, None]
        top_index = np.cumsum(~from_bottom, axis=1) - 1
        bottom_index = cut[:, None] + np.cumsum(from_bottom, axis=1) - 1
        out = out[r, np.where(from_bottom, bottom_index, top_index)]
    return out


def naive_swaps(decks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """The biased shuffle ``for i in range(n): swap(deck[i], deck[random(0, n)])`` on every row."""
    rows, n = decks.shape
    out = decks.copy()
    r = np.arange(rows)
    for i in range(n):
        j = rng.integers(0, n, size=rows)
        a = out[r, i].copy()
        out[r, i] = out[r, j]
        out[r, j] = a
    return out


def deal_fresh(decks: npt.NDArray[np.uint8], draw_rules: DrawRules = STANDARD_RULES, first: int = 0) -> HandLog:
    """One round off the top of each row of ``decks`` (shuffled shoes of face indices)."""
    top = np.ascontiguousarray(decks[:, :6])
    codes = play_values(FACE_VALUE[top].T, code_table(draw_rules))
    return HandLog(top, codes, first=first)


def faulty_rounds(rounds: int, fault: str, seed: int, shoe: Shoe | None = None, batch: int = 4096,
                  draw_rules: DrawRules = STANDARD_RULES) -> list[HandLog]:
    """``rounds`` fresh-shoe rounds dealt with a shuffle fault: ``"riffle7"`` (seven riffles
    from factory order), ``"naive"`` (naive swaps from factory order) or ``"none"``
    (a uniform shuffle: numpy's permutation)."""
    shoe = shoe if shoe is not None else Shoe.standard(8)
    rng = np.random.default_rng(seed)
    base = factory_order(shoe)
    out = []
    done = 0
    while done < rounds:
        m = min(batch, rounds - done)
        decks = np.broadcast_to(base, (m, base.size))
        if fault == "riffle7":
            shuffled = riffles(np.ascontiguousarray(decks), 7, rng)
        elif fault == "naive":
            shuffled = naive_swaps(np.ascontiguousarray(decks), rng)
        elif fault == "none":
            shuffled = rng.permuted(decks, axis=1)
        else:
            raise ValueError(f"unknown fault {fault!r}")
        out.append(deal_fresh(shuffled, draw_rules, done))
        done += m
    return out


# -- shoe mode -----------------------------------------------------------------------------------
SHOE_FAULTS: Final = {
    "none": "a uniform shuffle of every shoe (numpy's permutation): a correct log",
    "riffle7": "7 GSR riffles of the previous shoe's discards",
    "riffle3": "3 GSR riffles of the previous shoe's discards",
    "riffle1strip": "1 GSR riffle of the previous shoe's discards, then a strip cut",
    "naive": "the naive swap shuffle (swap(i, random(0..n-1))) of factory order",
    "lcg16": "a 16-bit LCG driving Fisher-Yates from factory order (period 65,536 shoes)",
    "bottom": "1 % of the Player's third cards dealt from the bottom of the shoe",
    "drop9": "1 in 200 Banker natural-9 wins left out of the log (rounds renumbered)",
    "replay": "1 in 100 shoes a replay of the shoe before it (copies straddle the pairs (0,1), (2,3), ...)",
    "sorted60": "a uniform shuffle that leaves the bottom 60 cards of every shoe sorted (by rank, then suit)",
}
"""The shoe-mode dealers of :func:`shoe_rounds`, by name."""

LCG_A: Final = 25173
LCG_C: Final = 13849
"""The 16-bit linear congruential generator ``x -> (25173·x + 13849) mod 2^16`` (full
period: ``a ≡ 1 mod 4`` and ``c`` odd, Hull-Dobell)."""

BOTTOM_RATE: Final = 0.01
DROP_RATE: Final = 1 / 200
REPLAY_RATE: Final = 0.01


def strip_cut(deck: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """A strip cut: packets of 10-40 cards taken off the top one by one onto a new pile
    (so the packets' order is reversed, each packet's own order kept)."""
    cuts = np.cumsum(rng.integers(10, 41, size=deck.size // 10 + 1))
    packets = np.split(deck, cuts[cuts < deck.size])
    return np.concatenate(packets[::-1])


def lcg_states(seed: int) -> npt.NDArray[np.int64]:
    """The whole cycle of the 16-bit LCG from ``seed mod 2^16`` (65,536 states).

    >>> s = lcg_states(1)
    >>> int(s[0]), int(s[1]), len(set(s.tolist()))
    (1, 39022, 65536)
    """
    out = np.empty(1 << 16, dtype=np.int64)
    x = seed & 0xFFFF
    for i in range(1 << 16):
        out[i] = x
        x = (LCG_A * x + LCG_C) & 0xFFFF
    return out


def lcg_shuffles(base: npt.NDArray[np.uint8], states: npt.NDArray[np.int64], first: int,
                 shoes: int) -> npt.NDArray[np.uint8]:
    """Shoes ``first``..``first + shoes - 1`` of a Fisher-Yates shuffle of ``base`` driven by
    the LCG cycle ``states``: shoe ``s`` uses the ``n - 1`` states from ``s·(n - 1)`` on,
    ``j = x·(i + 1) >> 16`` for ``i = n-1 .. 1``. Since ``n - 1`` is odd for 8 decks the
    shoes repeat with period 65,536 exactly."""
    n = base.size
    out = np.array(np.broadcast_to(base, (shoes, n)))
    rows = np.arange(shoes)
    at = (np.arange(first, first + shoes, dtype=np.int64) * (n - 1)) % states.size
    for i in range(n - 1, 0, -1):
        j = (states[at] * (i + 1)) >> 16
        a = out[rows, i].copy()
        out[rows, i] = out[rows, j]
        out[rows, j] = a
        at = (at + 1) % states.size
    return out


def _round_starts(deck: npt.NDArray[np.uint8], shoe_of: npt.NDArray[np.int64],
                  codes: npt.NDArray[np.uint16]) -> npt.NDArray[np.int64]:
    """Position in its shoe of every dealt round's first card (rounds in shoe-major order)."""
    used = cards_used(codes).astype(np.int64)
    burn = 1 + BURN_COUNT[deck[:, 0]].astype(np.int64)
    ends = np.cumsum(used)
    first_of_shoe = np.flatnonzero(np.r_[True, shoe_of[1:] != shoe_of[:-1]])
    before = np.repeat(ends[first_of_shoe] - used[first_of_shoe], np.diff(np.r_[first_of_shoe, shoe_of.size]))
    return burn[shoe_of] + ends - used - before


def deal_bottom(deck: npt.NDArray[np.uint8], cover: int | npt.NDArray[np.int64], table: npt.NDArray[np.uint16], rate: float,
                rng: np.random.Generator) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                                   npt.NDArray[np.uint16], npt.NDArray[np.uint8] | None]:
    """Deal ``deck`` through :func:`~exactodds.simulation.simulate.deal_shoes` with a dealer
    who, in a round wholly above the cover card, gives the Player's third card from the
    bottom of the shoe with probability ``rate``.

    Exact model: taking the bottom card out and dealing it at the third card's place is the
    same as moving it there in the deck, and the cover card then lies one card less above
    the bottom. Bottom deals stop while fewer than 12 cards are under the cover (so the shoe
    can still finish: at 1 % that is 3 per shoe, far more than happen). Each pass deals every shoe, finds each shoe's next such round after those
    already done, moves the card, and deals again (rounds before are unchanged)."""
    deck = deck.copy()
    shoes, n = deck.shape
    covers = np.array(np.broadcast_to(np.asarray(cover, dtype=np.int64), (shoes,)))
    chance = rng.random((shoes, n // 4 + 1)) < rate
    done = np.full(shoes, -1, dtype=np.int64)
    while True:
        shoe_of, round_of, codes, faces = deal_shoes(deck, covers, table, keep=True)
        start = _round_starts(deck, shoe_of, codes)
        drew = (codes.astype(np.int64) >> 1 & 1).astype(bool)
        above = start + cards_used(codes) <= n - covers[shoe_of]
        room = covers[shoe_of] > 11  # the cards under the cover still finish two rounds (at most 11 cards)
        hit = drew & above & room & chance[shoe_of, round_of] & (round_of > done[shoe_of])
        idx = np.flatnonzero(hit)
        if not idx.size:
            return shoe_of, round_of, codes, faces
        first = idx[np.r_[True, shoe_of[idx][1:] != shoe_of[idx][:-1]]]  # each shoe's next one
        for i in first.tolist():
            s, pos = int(shoe_of[i]), int(start[i]) + 4
            deck[s, pos:] = np.r_[deck[s, -1], deck[s, pos:-1]]
            covers[s] -= 1
            done[s] = int(round_of[i])


def _drop_natural_nines(shoe_of: npt.NDArray[np.int64], codes: npt.NDArray[np.uint16],
                        faces: npt.NDArray[np.uint8], rate: float, rng: np.random.Generator,
                        ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16], npt.NDArray[np.uint8]]:
    """Leave out each Banker natural-9 win (Banker two cards making 9, the Player not 9:
    § 629a.10(a)) with probability ``rate``."""
    c = codes.astype(np.int64)
    banker_nine = (c // 4 % 10 == 9) & (c & 1 == 0) & (c // 40 != 9)
    keep = ~(banker_nine & (rng.random(c.size) < rate))
    return shoe_of[keep], codes[keep], faces[keep]


def shoe_rounds(rounds: int, fault: str, seed: int, shoe: Shoe | None = None, cover: int | Cover = MIN_COVER,
                batch: int = 256, rate: float | None = None) -> Iterator[HandLog]:
    """``rounds`` rounds dealt through the shoe (§ 629a.5, § 629a.9(d)) by the dealer
    ``fault`` of :data:`SHOE_FAULTS`, as hand-log batches (shoes numbered from 0, rounds
    consecutively). Shoes are shuffled in order, each from the previous one's discards
    where the fault says so; every shoe is dealt by ``deal_shoes``. Seeded: the same
    arguments give the same log. ``rate`` replaces the default rate of ``bottom``,
    ``drop9`` and ``replay`` (tests use strong defects on small logs). A ``cover`` range
    places each shoe's cover card uniformly in it (a dealer who varies it, § 629a.5(d):
    "at least 14 cards above the bottom")."""
    if fault not in SHOE_FAULTS:
        raise ValueError(f"unknown fault {fault!r}; one of {', '.join(SHOE_FAULTS)}")
    shoe = shoe if shoe is not None else Shoe.standard(8)
    rng = np.random.default_rng(seed)
    table = code_table(STANDARD_RULES)
    base = factory_order(shoe)
    states = lcg_states(seed) if fault == "lcg16" else None
    bottom = BOTTOM_RATE if rate is None else rate
    drop = DROP_RATE if rate is None else rate
    replay = REPLAY_RATE if rate is None else rate
    span = Cover.of(cover)
    if span.high is None:
        raise ValueError("shoe_rounds needs a closed cover range")
    prev = rng.permutation(base)  # the discards of the shoe before the log starts
    done = 0
    first_shoe = 0
    while done < rounds:
        if fault in ("none", "sorted60"):
            deck = rng.permuted(np.broadcast_to(base, (batch, base.size)), axis=1)
            if fault == "sorted60":
                deck[:, -60:] = np.sort(deck[:, -60:], axis=1)
        elif fault == "naive":
            deck = naive_swaps(np.array(np.broadcast_to(base, (batch, base.size))), rng)
        elif fault == "lcg16":
            assert states is not None
            deck = lcg_shuffles(base, states, first_shoe, batch)
        else:
            rows = []
            for s in range(first_shoe, first_shoe + batch):
                if fault.startswith("riffle"):
                    times = {"riffle7": 7, "riffle3": 3, "riffle1strip": 1}[fault]
                    row = riffles(prev[None, :], times, rng)[0]
                    if fault == "riffle1strip":
                        row = strip_cut(row, rng)
                elif fault == "replay" and s % 2 == 0 and s and rng.random() < 2 * replay:
                    row = prev  # a copy of shoe s - 1, which is in the pair before s's
                else:
                    row = rng.permutation(base)
                rows.append(row)
                prev = row
            deck = np.stack(rows)
        depth: int | npt.NDArray[np.int64] = span.low
        if not span.exact:
            depth = np.asarray(rng.integers(span.low, span.high + 1, size=deck.shape[0]), dtype=np.int64)
        if fault == "bottom":
            shoe_of, _round, codes, faces = deal_bottom(deck, depth, table, bottom, rng)
        else:
            shoe_of, _round, codes, faces = deal_shoes(deck, depth, table, keep=True)
        assert faces is not None
        if fault == "drop9":
            shoe_of, codes, faces = _drop_natural_nines(shoe_of, codes, faces, drop, rng)
        take = min(codes.size, rounds - done)
        yield HandLog(faces[:take], codes[:take], shoe_of[:take] + first_shoe, done)
        done += take
        first_shoe += batch
