"""Opening levels: the first two cards of each hand, read through a card projection.

Wagers such as Perfect Pairs, Player/Banker Pair, House Money, Majestic Match, Lucky
Nines and Royal 9 are settled on the faces (rank, suit, colour) of the initial two
cards of the Player's and/or the Banker's hand -- cards 1 and 3 to the Player, 2 and 4
to the Banker (58 Pa. Code § 629a.8(c); § 631a.9(c)). :func:`opening_level` makes a
:class:`~exactodds.engine.level.Level` of such results from three choices:

``projection``
    A function ``Card -> label`` that keeps only the features of a card the wagers of
    that level read: :func:`face` (rank and suit, as a :class:`Face`), :func:`rank`,
    :func:`nine` (the face if it is a nine, else ``None``), :func:`royal_class`. Faces
    with the same label form one *class*.
``hands``
    Which hands are read: ``("player", "banker")`` (the four initial cards),
    ``("player",)`` (cards 1 and 3) or ``("banker",)`` (cards 2 and 4). Cards that are
    not read are, like the cards dealt to no hand, summed out exactly by a falling
    factorial; this keeps a single-hand level at 52 × 52 face pairs.
``feature``
    Optional: a function of the projected :class:`Opening` that the results are keyed
    by instead of the opening itself, to keep the number of distinct results small
    (:func:`equality_pattern`: which cards carry equal labels, all a "pair" wager needs).

The result of a round is ``feature(Opening(player=(l1, l3), banker=(l2, l4)))`` with
``lᵢ = projection(card i)``; a hand that is not read is ``()``. The shapes are every
ordered sequence of read classes (:func:`~exactodds.game.walk.opening_walk`), priced by
the one pricing function; a shoe of fewer than six cards is dealt card by card because
whether a round completes depends on every card's point value.

>>> from exactodds.engine.levels import PLAYER_FACES, RANK_PATTERN
>>> from exactodds.game.cards import Shoe, parse_card
>>> PLAYER_FACES.from_deal([parse_card("QH"), parse_card("QD"), parse_card("2C")], [parse_card("9S"), parse_card("KC")])
Opening(player=(Face(rank='Q', suit='H'), Face(rank='Q', suit='D')), banker=())
>>> d = PLAYER_FACES.distribution(Shoe.standard(8))
>>> sum(d.counts.values()) == d.universe == 4998398275503360, len(d.counts)
(True, 2704)
>>> RANK_PATTERN.from_deal([parse_card("QH"), parse_card("QD")], [parse_card("9S"), parse_card("9C")])
Opening(player=(0, 0), banker=(1, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from exactodds.engine.level import Level, Suits
from exactodds.game.cards import FACES, POINT_VALUE, RED_SUITS, Card
from exactodds.game.walk import opening_walk

HandName = Literal["player", "banker"]
Projection = Callable[[Card], Hashable]
Feature = Callable[["Opening"], Hashable]


class Opening(NamedTuple):
    """Projected labels of the Player's initial two cards (cards 1, 3) and the
    Banker's (cards 2, 4), in dealing order; ``()`` for a hand the level does not read."""

    player: tuple[Any, ...]
    banker: tuple[Any, ...]


class Face(NamedTuple):
    """A card face as a plain tuple: the same ``rank``, ``suit``, ``colour`` and ``value``
    as :class:`~exactodds.game.cards.Card`, but hashed in C."""

    rank: str
    suit: str

    @property
    def colour(self) -> str:
        """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs."""
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def value(self) -> int:
        """Point value (§ 629a.1)."""
        return POINT_VALUE[self.rank]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


# -- projections and features ----------------------------------------------------------

def face(card: Card) -> Face:
    """The card's face: rank and suit (hence colour)."""
    return Face(card.rank, card.suit)


def rank(card: Card) -> str:
    """The card's rank only (a "pair" is two cards of one rank, § 629a.7(a)(7)(i))."""
    return card.rank


def nine(card: Card) -> Face | None:
    """The card's face if it is a nine (its suit matters, § 631b.4(e)), else ``None``."""
    return Face(card.rank, card.suit) if card.rank == "9" else None


ROYAL_FACES: Final = ("K", "Q", "J")


def royal_class(card: Card) -> tuple[str, str]:
    """Royal 9 classes (§ 629c.3(e)): king by suit, nine by suit, queen-or-jack by suit,
    any other card -- thirteen classes."""
    if card.rank in ("K", "9"):
        return card.rank, card.suit
    if card.rank in ("Q", "J"):
        return "QJ", card.suit
    return "other", ""


def equality_pattern(opening: Opening) -> Opening:
    """Relabel an opening by order of first appearance in dealing order (cards 1-4), so
    only *which cards carry equal labels* is kept.

    >>> equality_pattern(Opening(("Q", "5"), ("7", "Q")))
    Opening(player=(0, 2), banker=(1, 0))
    """
    index: dict[Any, int] = {}
    for x in opening.player[:1] + opening.banker[:1] + opening.player[1:] + opening.banker[1:]:
        index.setdefault(x, len(index))
    return Opening(tuple(index[x] for x in opening.player), tuple(index[x] for x in opening.banker))


@dataclass(frozen=True, order=True)
class Royal9Hand:
    """A hand whose first two cards are a face card and a nine (a Royal 9, § 629c.3(e)(1))."""

    king: bool
    face_suit: str
    nine_suit: str

    @property
    def suited(self) -> bool:
        """Suited Royal 9 (§ 629c.3(e)(2))."""
        return self.face_suit == self.nine_suit

    @property
    def combination(self) -> tuple[str, str] | None:
        """(king suit, nine suit) for a king-9, the personal combinations of § 629c.3(e)(5)."""
        return (self.face_suit, self.nine_suit) if self.king else None


OpeningResult = tuple[Royal9Hand | None, Royal9Hand | None]
"""(Player's first two cards, Banker's first two cards) as Royal 9 facts."""


def royal9_hand(a: tuple[str, str], b: tuple[str, str]) -> Royal9Hand | None:
    """The Royal 9 reading of a hand's first two cards (as :func:`royal_class` labels)."""
    for f, n in ((a, b), (b, a)):
        if f[0] in ("K", "QJ") and n[0] == "9":
            return Royal9Hand(f[0] == "K", f[1], n[1])
    return None


def royal9_feature(opening: Opening) -> OpeningResult:
    """Royal 9 facts of the four initial cards."""
    return royal9_hand(*opening.player), royal9_hand(*opening.banker)


# -- the level factory -------------------------------------------------------------------

_POSITIONS: Final[dict[tuple[HandName, ...], tuple[HandName, ...]]] = {
    ("player", "banker"): ("player", "banker", "player", "banker"),
    ("player",): ("player", "player"),
    ("banker",): ("banker", "banker"),
}
"""The hand of each read card, in dealing order (§ 629a.8(c))."""


def opening_level(name: str, description: str, projection: Projection,
                  hands: tuple[HandName, ...] = ("player", "banker"), feature: Feature | None = None, *,
                  suits: Suits = "read", suits_reason: str = "") -> Level:
    """A level of opening results: ``projection``, ``hands`` read and ``feature``."""
    if hands not in _POSITIONS:
        raise ValueError(f"hands must be one of {list(_POSITIONS)}, got {hands!r}")
    positions = _POSITIONS[hands]
    labels: dict[Hashable, int] = {}
    face_class = tuple(labels.setdefault(projection(f), len(labels)) for f in FACES)
    names = list(labels)

    def of_labels(read: Sequence[Hashable]) -> Hashable:
        player = tuple(x for x, h in zip(read, positions) if h == "player")
        banker = tuple(x for x, h in zip(read, positions) if h == "banker")
        opening = Opening(player, banker)
        return opening if feature is None else feature(opening)

    def result(classes: tuple[int, ...]) -> Hashable:
        return of_labels([names[c] for c in classes])

    def from_deal(player: Sequence[Card], banker: Sequence[Card]) -> Hashable:
        if len(player) < 2 or len(banker) < 2:
            raise ValueError("a round deals two initial cards to each hand")
        dealt = {"player": iter(player[:2]), "banker": iter(banker[:2])}
        return of_labels([projection(next(dealt[h])) for h in positions])

    return Level(name, description, face_class, lambda: opening_walk(len(names), len(positions), result),
                 result, from_deal, kind="sequence", suits=suits, suits_reason=suits_reason)
