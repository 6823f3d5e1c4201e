"""The Spanish 21 shoe: counts by point value, with suits kept where a bonus reads them.

§ 551.3(a): six or eight decks of 48 cards (each standard deck less its four tens); J, Q and
K count 10 (§ 551.3(b)), so the engine works on ten *values* (A=1, 2..9, 10 = J/Q/K). Suits
matter only to the 6-7-8 and 7-7-7 bonuses (§ 551.6(g)(1)-(4), (h)), so the shoe also keeps
the suit counts of the sixes, sevens and eights.

A *card type* is ``(value, suit)``: ``suit`` is 0..3 (spades, hearts, diamonds, clubs) for a
6, 7 or 8 and ``-1`` for every other value.

>>> s = SpanishShoe.standard(6)
>>> s.size, s.values[9], s.values[0], s.suits[7]
(288, 72, 24, (6, 6, 6, 6))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from exactodds.errors import InputError
from exactodds.game.cards import FACES, SUITS, Shoe

SUITED: Final = (6, 7, 8)
"""Values whose suits a bonus reads (§ 551.6(g)(1)-(4))."""

SPADES: Final = 0
"""Suit index of spades (§ 551.6(g)(2),(4): the spades pays)."""

CardType = tuple[int, int]
"""``(value 1..10, suit 0..3 or -1)``."""

Values = tuple[int, ...]
"""Ten counts, index ``v - 1`` for value ``v`` (ace = 1, 10 = J/Q/K)."""


@dataclass(frozen=True)
class SpanishShoe:
    """Counts by value (``values[v-1]``) and, for 6/7/8, by suit (``suits[v]``)."""

    values: Values
    suits: dict[int, tuple[int, int, int, int]]

    def __post_init__(self) -> None:
        if len(self.values) != 10 or any(n < 0 for n in self.values):
            raise InputError("a Spanish 21 shoe needs ten non-negative value counts")
        for v in SUITED:
            if sum(self.suits[v]) != self.values[v - 1] or any(n < 0 for n in self.suits[v]):
                raise InputError(f"the suit counts of the {v}s do not add up to their count")

    def __hash__(self) -> int:
        return hash((self.values, tuple(self.suits[v] for v in SUITED)))

    @classmethod
    def standard(cls, decks: int) -> SpanishShoe:
        """``decks`` 48-card decks (§ 551.3(a))."""
        if not 1 <= decks <= 1000:
            raise InputError(f"--decks must be 1 to 1000, got {decks}")
        return cls.from_shoe(Shoe.standard(decks))

    @classmethod
    def from_shoe(cls, shoe: Shoe, tens: bool = False) -> SpanishShoe:
        """The blackjack shoe of a project :class:`Shoe`: its tens removed (§ 551.3(a)) unless
        ``tens`` (standard blackjack's 52-card decks)."""
        values = [0] * 10
        suits = {v: [0, 0, 0, 0] for v in SUITED}
        for face, n in zip(FACES, shoe.counts):
            if (face.rank == "10" and not tens) or not n:
                continue
            v = 10 if face.rank in ("10", "J", "Q", "K") else (1 if face.rank == "A" else int(face.rank))
            values[v - 1] += n
            if v in suits:
                suits[v][SUITS.index(face.suit)] += n
        out = cls(tuple(values), {v: (s[0], s[1], s[2], s[3]) for v, s in suits.items()})
        if out.size < 4:
            raise InputError("a Spanish 21 round needs at least four cards once the tens are removed (§ 551.3(a))")
        return out

    @property
    def size(self) -> int:
        """Cards in the shoe."""
        return sum(self.values)

    def count(self, card: CardType) -> int:
        """Copies of ``card`` in the shoe."""
        v, s = card
        return self.suits[v][s] if v in SUITED else self.values[v - 1]

    def types(self) -> Iterator[tuple[CardType, int]]:
        """Every card type present, with its count."""
        for v in range(1, 11):
            if v in SUITED:
                for s in range(4):
                    if self.suits[v][s]:
                        yield (v, s), self.suits[v][s]
            elif self.values[v - 1]:
                yield (v, -1), self.values[v - 1]

    def remove(self, *cards: CardType) -> SpanishShoe:
        """The shoe less ``cards`` (an error if one is missing)."""
        values = list(self.values)
        suits = {v: tuple(self.suits[v]) for v in SUITED}  # (an untouched value's tuple shared: immutable)
        for v, s in cards:
            if values[v - 1] <= 0:
                raise InputError("cannot remove a card the shoe does not hold")
            values[v - 1] -= 1
            if v in SUITED:
                counts = list(suits[v])
                if counts[s] <= 0:
                    raise InputError("cannot remove a card the shoe does not hold")
                counts[s] -= 1
                suits[v] = (counts[0], counts[1], counts[2], counts[3])
        # checked here (no count negative, the suits add up as they did): not again in __post_init__
        out = object.__new__(SpanishShoe)
        object.__setattr__(out, "values", tuple(values))
        object.__setattr__(out, "suits", suits)
        return out


def value_counts(cards: tuple[CardType, ...] | list[CardType]) -> Values:
    """The value counts of a list of card types."""
    out = [0] * 10
    for v, _ in cards:
        out[v - 1] += 1
    return tuple(out)
