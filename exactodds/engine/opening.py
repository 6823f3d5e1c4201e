"""The *opening*: the first two cards of each hand, at a chosen card projection.

Wagers such as Perfect Pairs, Player/Banker Pair, House Money, Majestic Match, Lucky
Nines and Royal 9 are settled on the faces (rank, suit, colour) of the initial two
cards of the Player's and/or the Banker's hand -- cards 1 and 3 to the Player, 2 and 4
to the Banker (58 Pa. Code § 629a.8(c); § 631a.9(c)).

An :class:`OpeningSpec` names a *level* of results built from three choices:

``projection``
    A function ``Card -> label`` that keeps only the features of a card the wagers of
    that level read: :func:`face` (rank and suit, as a :class:`Face`), :func:`rank`,
    :func:`nine` (the face if it is a nine, else ``None``), or any other -- for Royal 9,
    for instance, ``lambda c: face(c) if c.rank in {"K", "Q", "J", "9"} else None``
    (17 classes). Faces with the same label form one *class*; the shoe's count of a class
    is the sum of its faces' counts. Labels must be hashable and should be cheap to hash
    (str, int, None, tuples of them such as :class:`Face`): results are dict keys. Define
    each projection once (not a fresh lambda per call): distributions are cached per
    spec, and functions compare by identity.
``hands``
    Which hands are read: ``("player", "banker")`` (the four initial cards),
    ``("player",)`` (cards 1 and 3) or ``("banker",)`` (cards 2 and 4). Cards that are
    not read are, like the cards dealt to no hand, summed out exactly by a falling
    factorial; this keeps a single-hand level at 52 × 52 face pairs.
``feature``
    Optional: a function of the projected :class:`Opening` that the results are keyed
    by instead of the opening itself, to keep the number of distinct results small.
    :func:`equality_pattern` keeps only which cards carry equal labels, which is all a
    "pair of the same rank" wager needs: the ranks of the four initial cards give 28,561
    openings but at most 15 patterns.

The result of a round at such a level is ``feature(Opening(player=(l1, l3),
banker=(l2, l4)))`` with ``lᵢ = projection(card i)``; a hand that is not read is ``()``.

Exact distribution. Over the universe of ordered ``U = min(N, 6)``-card sequences
off the top of the shoe (``shared/spec/WAGERS.md``), an ordered sequence of ``m``
read labels in which class ``c`` occurs ``k_c`` times occurs in

    Π_c n_c·(n_c−1)·…·(n_c−k_c+1)  ×  (N−m)·(N−m−1)·…·(N−U+1)

sequences. The first factor depends only on the multiset of classes, so the
shoe-independent structure (every label sequence, grouped by multiset, with its
result) is built once per level, and pricing a shoe costs one product per multiset.
When ``N ≥ 6`` every round is completed, so nothing is void. When ``N < 6`` a round
may need a card the shoe does not have and is then void (§ 629a.13(e)), which depends
on the point values of every card dealt: those shoes (at most 5! = 120 orderings of
physical cards) are dealt out card by card with the drawing rules of § 629a.10.

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

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal, NamedTuple

from exactodds.game.cards import FACES, POINT_VALUE, RED_SUITS, Card, Shoe, falling_factorial
from exactodds.engine.levels import LEVELS, Level, ResultDistribution
from exactodds.game.rules import next_hand

HandName = Literal["player", "banker"]
Projection = Callable[[Card], Hashable]
Feature = Callable[["Opening"], Hashable]

ROUND_CARDS: Final = 6
"""A baccarat round uses at most six cards: the depth of the universe (§ 629a.10)."""


class Opening(NamedTuple):
    """Projected labels of the Player's initial two cards (cards 1, 3) and the
    Banker's (cards 2, 4), in dealing order; ``()`` for a hand the level does not read."""

    player: tuple[Any, ...]
    banker: tuple[Any, ...]


# -- projections and features ----------------------------------------------------------

class Face(NamedTuple):
    """A card face as a plain tuple: the same ``rank``, ``suit``, ``colour`` and ``value``
    as :class:`~exactodds.game.cards.Card`, but hashed in C -- results are hashed many times
    per analysis, and hashing a frozen dataclass runs Python code each time."""

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


def face(card: Card) -> Face:
    """The card's face: rank and suit (hence colour)."""
    return Face(card.rank, card.suit)


def rank(card: Card) -> str:
    """The card's rank only (a "pair" is two cards of one rank, § 629a.7(a)(7)(i))."""
    return card.rank


def nine(card: Card) -> Face | None:
    """The card's face if it is a nine (its suit matters, § 631b.4(e)), else ``None``."""
    return Face(card.rank, card.suit) if card.rank == "9" else None


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


# -- the level -------------------------------------------------------------------------

_POSITIONS: Final[dict[tuple[HandName, ...], tuple[HandName, ...]]] = {
    ("player", "banker"): ("player", "banker", "player", "banker"),
    ("player",): ("player", "player"),
    ("banker",): ("banker", "banker"),
}
"""The hand of each read card, in dealing order (§ 629a.8(c))."""


@dataclass(frozen=True)
class _Structure:
    """Shoe-independent part of a level: the class of each face, the distinct results,
    and per multiset of classes (``((class, k), ...)``) the indices of the results of its
    label sequences with their multiplicities."""

    face_class: tuple[int, ...]
    n_classes: int
    cards: int
    results: tuple[Any, ...]
    entries: tuple[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], ...]


@dataclass(frozen=True)
class OpeningSpec:
    """A level of opening results: ``projection``, ``hands`` read and ``feature``."""

    name: str
    projection: Projection
    hands: tuple[HandName, ...] = ("player", "banker")
    feature: Feature | None = None

    def __post_init__(self) -> None:
        if self.hands not in _POSITIONS:
            raise ValueError(f"hands must be one of {list(_POSITIONS)}, got {self.hands!r}")

    def result(self, labels: Sequence[Hashable]) -> Any:
        """The result of the read labels, given in dealing order of the read cards."""
        player = tuple(x for x, h in zip(labels, _POSITIONS[self.hands]) if h == "player")
        banker = tuple(x for x, h in zip(labels, _POSITIONS[self.hands]) if h == "banker")
        opening = Opening(player, banker)
        return opening if self.feature is None else self.feature(opening)

    def from_deal(self, player: Sequence[Card], banker: Sequence[Card]) -> Any:
        """The result of one dealt round from its actual cards."""
        p = [self.projection(c) for c in player[:2]]
        b = [self.projection(c) for c in banker[:2]]
        if len(p) < 2 or len(b) < 2:
            raise ValueError("a round deals two initial cards to each hand")
        dealt = {"player": iter(p), "banker": iter(b)}
        return self.result([next(dealt[h]) for h in _POSITIONS[self.hands]])

    def distribution(self, shoe: Shoe) -> ResultDistribution:
        """Exact counts of each result over the universe for ``shoe`` (cached)."""
        return _distribution(self, shoe)

    def level(self) -> Level:
        """This spec as a :class:`~exactodds.engine.levels.Level`."""
        return Level(self.name, self.distribution, self.from_deal)


@lru_cache(maxsize=None)
def _structure(spec: OpeningSpec) -> _Structure:
    """Enumerate every sequence of class labels once, grouped by multiset of classes."""
    labels: dict[Hashable, int] = {}
    face_class = tuple(labels.setdefault(spec.projection(f), len(labels)) for f in FACES)
    names = list(labels)
    m = len(_POSITIONS[spec.hands])
    index: dict[Any, int] = {}
    grouped: dict[tuple[tuple[int, int], ...], Counter[int]] = defaultdict(Counter)
    for seq in itertools.product(range(len(names)), repeat=m):
        multiset = tuple(sorted(Counter(seq).items()))
        result = spec.result([names[c] for c in seq])
        grouped[multiset][index.setdefault(result, len(index))] += 1
    entries = tuple((ms, tuple(by_result.items())) for ms, by_result in grouped.items())
    return _Structure(face_class, len(names), m, tuple(index), entries)


@lru_cache(maxsize=256)
def _distribution(spec: OpeningSpec, shoe: Shoe) -> ResultDistribution:
    if shoe.size < ROUND_CARDS:
        return _short_shoe_distribution(spec, shoe)
    st = _structure(spec)
    n = [0] * st.n_classes
    for c, k in zip(st.face_class, shoe.counts):
        n[c] += k
    ff = [[falling_factorial(nc, k) for k in range(st.cards + 1)] for nc in n]
    acc = [0] * len(st.results)
    for multiset, by_result in st.entries:
        w = 1
        for c, k in multiset:
            w *= ff[c][k]
        if w:
            for i, mult in by_result:
                acc[i] += w * mult
    total = shoe.size
    undealt = falling_factorial(total - st.cards, ROUND_CARDS - st.cards)  # a common factor
    counts = {result: a * undealt for result, a in zip(st.results, acc) if a}
    universe = falling_factorial(total, ROUND_CARDS)
    assert sum(counts.values()) == universe
    return ResultDistribution(universe, counts, 0)


def _short_shoe_distribution(spec: OpeningSpec, shoe: Shoe) -> ResultDistribution:
    """N < 6: deal every ordering of the shoe's physical cards (N! ≤ 120) by § 629a.10;
    a round that needs a card the shoe lacks is void (§ 629a.13(e))."""
    cards = shoe.cards()
    counts: Counter[Any] = Counter()
    void = 0
    for order in itertools.permutations(cards):
        player: list[Card] = []
        banker: list[Card] = []
        deck = iter(order)
        while (hand := next_hand([c.value for c in player], [c.value for c in banker])) is not None:
            card = next(deck, None)
            if card is None:
                break
            (player if hand == "player" else banker).append(card)
        if hand is not None:
            void += 1
        else:
            counts[spec.from_deal(player, banker)] += 1
    return ResultDistribution(falling_factorial(len(cards), len(cards)), dict(counts), void)


# -- the levels this module registers ----------------------------------------------------

PLAYER_FACES: Final = OpeningSpec("opening-player-faces", face, ("player",))
"""Faces of the Player's initial two cards: Perfect Pairs, Player Pair, Majestic Match."""

BANKER_FACES: Final = OpeningSpec("opening-banker-faces", face, ("banker",))
"""Faces of the Banker's initial two cards."""

RANK_PATTERN: Final = OpeningSpec("opening-rank-pattern", rank, ("player", "banker"), equality_pattern)
"""Which of the four initial cards share a rank (House Money)."""

NINES: Final = OpeningSpec("opening-nines", nine, ("player", "banker"))
"""The nines (with suits) among the four initial cards (Lucky Nines)."""

for _spec in (PLAYER_FACES, BANKER_FACES, RANK_PATTERN, NINES):
    LEVELS[_spec.name] = _spec.level()
