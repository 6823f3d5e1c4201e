"""Cards and the shoe.

A card is a rank and a suit; its point value is the rank's face value with the ace
worth 1 and tens and face cards worth 0 (58 Pa. Code § 629a.1, "Point Count").
A :class:`Shoe` is an immutable count of each of the 52 card faces, so any
composition -- a full 8-deck shoe, a depleted end-of-shoe, a single deck -- is one
value of one type.

>>> shoe = Shoe.standard(8)
>>> shoe.size, shoe.decks
(416, 8)
>>> shoe.remove([parse_card("KS"), parse_card("9H")]).size
414
>>> parse_card("10d"), parse_card("TD").value
(Card(rank='10', suit='D'), 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from exactodds.errors import InputError

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank symbols in rank order; ``T`` is read as ``10``."""

SUITS: Final = ("S", "H", "D", "C")
"""Spades, hearts, diamonds, clubs."""

SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS: Final = frozenset({"H", "D"})

POINT_VALUE: Final = {r: (i + 1 if i < 9 else 0) for i, r in enumerate(RANKS)}
"""Point value of each rank: A=1, 2..9 face value, 10/J/Q/K=0 (§ 629a.1)."""

FACE_RANKS: Final = frozenset({"J", "Q", "K"})


@dataclass(frozen=True, order=True)
class Card:
    """One card face: a rank from :data:`RANKS` and a suit from :data:`SUITS`."""

    rank: str
    suit: str

    @property
    def value(self) -> int:
        """Point value (§ 629a.1)."""
        return POINT_VALUE[self.rank]

    @property
    def colour(self) -> str:
        """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs."""
        return "red" if self.suit in RED_SUITS else "black"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


FACES: Final = tuple(Card(r, s) for r in RANKS for s in SUITS)
"""The 52 card faces, rank-major: AS, AH, AD, AC, 2S, ..."""

FACE_INDEX: Final = {card: i for i, card in enumerate(FACES)}


def parse_rank(text: str) -> str:
    """Read a rank symbol (``A``, ``2``..``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``).

    >>> parse_rank("t"), parse_rank("q")
    ('10', 'Q')
    """
    t = text.strip().upper()
    if t in ("T", "1O"):
        t = "10"
    if t == "1":
        t = "A"
    if t not in RANKS:
        raise InputError(f"unknown card rank {text!r} (expected A, 2-9, 10 or T, J, Q, K)")
    return t


def parse_card(text: str) -> Card:
    """Read a card such as ``KS``, ``10h``, ``TD``; the suit letter is required."""
    t = text.strip().upper()
    if len(t) < 2 or t[-1] not in SUITS:
        raise InputError(f"unknown card {text!r} (expected rank then suit, e.g. KS, 10H, 9D)")
    return Card(parse_rank(t[:-1]), t[-1])


def falling_factorial(n: int, k: int) -> int:
    """``n·(n−1)·…·(n−k+1)``: ordered ways to draw ``k`` cards from ``n``; 0 if k > n.

    >>> falling_factorial(416, 6)
    4998398275503360
    >>> falling_factorial(3, 4)
    0
    """
    out = 1
    for i in range(k):
        out *= n - i
        if out <= 0:
            return 0
    return out


def largest_within(bound: Callable[[int], int], limit: int, start: int = 0, cap: int = 2**63) -> int:
    """The largest ``n`` in ``start .. cap`` with ``bound(n) ≤ limit``, for a ``bound`` that
    never decreases as ``n`` grows (``start − 1`` when even ``bound(start)`` exceeds it): an
    exact bisection over Python ints, for the shoe sizes up to which an int64 bound holds.

    >>> largest_within(lambda n: falling_factorial(n, 6), 2**63 - 1)    # 27 decks and 46 cards
    1450
    >>> largest_within(lambda n: n, 5, start=9), largest_within(lambda n: 0, 1, cap=99)
    (8, 99)
    """
    if bound(start) > limit:
        return start - 1
    low, high = start, cap
    while low < high:                                           # bound(low) ≤ limit throughout
        mid = (low + high + 1) // 2
        low, high = (mid, high) if bound(mid) <= limit else (low, mid - 1)
    return low


MAX_CARDS: Final = 52 * 1000
"""Upper bound on a shoe's size: 1,000 decks; larger is treated as an input error."""


@dataclass(frozen=True)
class Shoe:
    """An immutable shoe: ``counts[i]`` copies of ``FACES[i]``.

    Build one with :meth:`standard`, :meth:`from_counts` or :meth:`remove`; every
    constructor validates (no negative count, not empty, not absurdly large).
    """

    counts: tuple[int, ...]

    def __hash__(self) -> int:
        """The counts' hash, computed once: a shoe keys the pricing caches at every analysis
        of it (the dataclass's own hash would rehash the 52 counts each time).

        >>> hash(Shoe.standard(6)) == hash(Shoe.standard(6)) == hash((6,) * 52)
        True
        """
        known: int | None = self.__dict__.get("_hash")
        if known is None:
            known = self.__dict__["_hash"] = hash(self.counts)
        return known

    def __post_init__(self) -> None:
        if len(self.counts) != len(FACES):
            raise InputError(f"a shoe needs a count for each of the 52 faces, got {len(self.counts)}")
        for card, n in zip(FACES, self.counts):
            if not isinstance(n, int) or isinstance(n, bool):
                raise InputError(f"count of {card} must be a whole number, got {n!r}")
            if n < 0:
                raise InputError(f"count of {card} is negative ({n})")
        total = sum(self.counts)
        if total == 0:
            raise InputError("the shoe is empty")
        if total > MAX_CARDS:
            raise InputError(f"the shoe holds {total:,} cards; at most {MAX_CARDS:,} are accepted")
        self.__dict__["_size"] = total  # kept: pricing a new shoe reads it (a frozen dataclass's own cache, as _hash)

    # -- constructors -------------------------------------------------------------
    @classmethod
    def standard(cls, decks: int) -> Shoe:
        """``decks`` standard 52-card decks (regulated games use 6 to 8)."""
        if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
            raise InputError(f"decks must be a whole number of at least 1, got {decks!r}")
        if decks * 52 > MAX_CARDS:
            raise InputError(f"{decks} decks is too many; at most {MAX_CARDS // 52} are accepted")
        return cls((decks,) * len(FACES))

    @classmethod
    def from_counts(cls, counts: Mapping[Card, int]) -> Shoe:
        """A shoe from explicit face counts; faces not named have count 0."""
        out = [0] * len(FACES)
        for card, n in counts.items():
            if card not in FACE_INDEX:
                raise InputError(f"unknown card {card!r}")
            out[FACE_INDEX[card]] = n
        return cls(tuple(out))

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Shoe:
        """A shoe holding exactly the given cards (repeats allowed)."""
        out = [0] * len(FACES)
        for card in cards:
            out[FACE_INDEX[card]] += 1
        return cls(tuple(out))

    def remove(self, cards: Iterable[Card]) -> Shoe:
        """This shoe less the given cards; removing a card that is not there is an error."""
        out = list(self.counts)
        for card in cards:
            i = FACE_INDEX[card]
            if out[i] == 0:
                raise InputError(f"cannot remove {card}: none left in the shoe")
            out[i] -= 1
        return Shoe(tuple(out))

    # -- views -----------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cards in the shoe (counted once, when the shoe is made)."""
        known: int | None = self.__dict__.get("_size")
        return known if known is not None else sum(self.counts)

    @property
    def decks(self) -> int | None:
        """The deck count if this is exactly ``d`` full standard decks, else ``None``."""
        first = self.counts[0]
        return first if all(n == first for n in self.counts) else None

    def count(self, card: Card) -> int:
        """Copies of one face."""
        return self.counts[FACE_INDEX[card]]

    def rank_counts(self) -> tuple[int, ...]:
        """Cards of each rank, in :data:`RANKS` order."""
        return tuple(sum(self.counts[4 * r : 4 * r + 4]) for r in range(len(RANKS)))

    def value_counts(self) -> tuple[int, ...]:
        """Cards of each point value 0..9."""
        out = [0] * 10
        for rank, n in zip(RANKS, self.rank_counts()):
            out[POINT_VALUE[rank]] += n
        return tuple(out)

    def cards(self) -> list[Card]:
        """Every card in the shoe, faces in :data:`FACES` order, repeats included."""
        return [card for card, n in zip(FACES, self.counts) for _ in range(n)]

    REPR_CARDS: ClassVar[int] = 8
    """Most removed (or present) faces :meth:`__repr__` lists before it only counts them."""

    def __repr__(self) -> str:
        """A short line, not the 52 counts (issue 25): the standard shoe it is, or the one it
        is short of and the cards removed, or (a shoe far from any standard one) the faces it holds.

        >>> Shoe.standard(8), Shoe.standard(8).remove([Card("9", "S"), Card("9", "S"), Card("K", "H")])
        (<Shoe 8 decks (416 cards)>, <Shoe 413 cards: 8 decks less 9S×2, KH>)
        >>> Shoe.from_counts({Card("K", "S"): 8, Card("9", "H"): 7})
        <Shoe 15 cards: 9H×7, KS×8>
        """
        if self.decks is not None:
            return f"<Shoe {self.describe()}>"

        def listed(pairs: list[tuple[Card, int]]) -> str:
            if len(pairs) > self.REPR_CARDS:
                return f"{sum(n for _, n in pairs):,} cards of {len(pairs)} faces"
            return ", ".join(f"{c}×{n}" if n > 1 else str(c) for c, n in pairs)

        base = max(self.counts)
        removed = [(c, base - n) for c, n in zip(FACES, self.counts) if n < base]
        if 2 * sum(n for _, n in removed) <= 52 * base:
            return f"<Shoe {self.size:,} cards: {base} deck{'s' if base != 1 else ''} less {listed(removed)}>"
        return f"<Shoe {self.size:,} cards: {listed([(c, n) for c, n in zip(FACES, self.counts) if n])}>"

    def describe(self) -> str:
        """Short human description, e.g. ``8 decks (416 cards)``."""
        d = self.decks
        if d is not None:
            return f"{d} deck{'s' if d != 1 else ''} ({self.size:,} cards)"
        return f"custom shoe ({self.size:,} cards)"

    def to_json(self) -> dict[str, object]:
        """The ``shoe`` object of the JSON contract: ``decks`` (int or null), ``cards``,
        and, for a non-standard shoe, the count of every face present."""
        out: dict[str, object] = {"decks": self.decks, "cards": self.size}
        if self.decks is None:
            out["counts"] = {str(c): n for c, n in zip(FACES, self.counts) if n}
        return out
