"""The ``deal-faces`` level: the Coup plus suit, colour and rank facts about ALL dealt cards.

Heavenly 9 Progressive (58 Pa. Code § 631b.2(g)) pays on "all cards the same suit /
colour"; Harmony Progressive (§ 631b.10(g)) on six-of-a-kind, four-of-a-kind with four
cards dealt, four 8s, six 0-value cards and "hands consisting of all of the same
color". Those facts refine the value-level deal shapes of
:func:`exactodds.game.walk.shape_table` without a new walk.

Method. A value shape uses ``k_v`` cards of point value ``v`` (``m`` cards in all); the
faces that fill it are counted, exactly, by falling factorials ``ff``:

* all faces:                 ``T  = Π_v ff(n_v, k_v)``
* all one suit:              ``S  = Σ_s Π_v ff(n_{v,s}, k_v)``
* all one colour:            ``C  = Σ_c Π_v ff(n_{v,c}, k_v)``    (S ⊂ C)
* all one rank (one value):  ``R  = Σ_r ff(n_r, m)``
* one rank and one suit:     ``RS = Σ_r Σ_s ff(n_{r,s}, m)``
* one rank and one colour:   ``RC = Σ_r Σ_c ff(n_{r,c}, m)``

Inclusion-exclusion splits ``T`` into disjoint cells {suit, colour-not-suit, mixed} x
{one rank, not}; each cell is multiplied by the undealt factor ``ff(N−m, U−m)`` as in
the enumerator. Face events are symmetric in card positions given the value multiset,
so every ordered value shape of one multiset shares the cells.

>>> from exactodds.game.cards import Shoe
>>> d = deal_faces_distribution(Shoe.standard(8))
>>> d.universe == 4998398275503360 == sum(d.counts.values())
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from exactodds.game.cards import POINT_VALUE, RANKS, SUITS, Card, Shoe, falling_factorial
from exactodds.game.walk import MAX_CARDS_PER_ROUND, VALUE_CLASSES, shape_table
from exactodds.engine.levels import LEVELS, Level, ResultDistribution, coup_from_deal
from exactodds.game.rules import Coup

Colour = Literal["suit", "colour", "mixed"]
"""All dealt cards one suit; one colour but not one suit; neither."""

COLOURS: Final = {"red": ("H", "D"), "black": ("S", "C")}


@dataclass(frozen=True, order=True)
class DealFaces:
    """Result of a round at the ``deal-faces`` level.

    ``colour``: ``"suit"`` if every dealt card has one suit, ``"colour"`` if one colour
    but not one suit, else ``"mixed"``. ``one_rank``: every dealt card has one rank.
    ``single_value``: the point value shared by every dealt card, else ``None``.
    """

    coup: Coup
    colour: Colour
    one_rank: bool
    single_value: int | None

    @property
    def cards(self) -> int:
        """Cards dealt to the two hands (4, 5 or 6)."""
        return self.coup.player_cards + self.coup.banker_cards

    @property
    def tie(self) -> bool:
        return self.coup.winner == "tie"

    @property
    def one_colour(self) -> bool:
        """All dealt cards one colour (one suit included)."""
        return self.colour != "mixed"


def _face_counts(shoe: Shoe) -> tuple[list[list[int]], list[list[list[int]]]]:
    """``by_value_suit[v][s]`` and ``by_value_rank_suit[v] = [[n_{r,s} for s] for r of value v]``."""
    vs = [[0] * 4 for _ in range(10)]
    vrs: list[list[list[int]]] = [[] for _ in range(10)]
    for r, rank in enumerate(RANKS):
        row = list(shoe.counts[4 * r: 4 * r + 4])
        vrs[POINT_VALUE[rank]].append(row)
        for s in range(4):
            vs[POINT_VALUE[rank]][s] += row[s]
    return vs, vrs


SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}
COLOUR_SUITS: Final = tuple(tuple(SUIT_INDEX[s] for s in suits) for suits in COLOURS.values())


def face_cells(multiset: Sequence[tuple[int, int]], shoe: Shoe) -> dict[tuple[Colour, bool], int]:
    """Face assignments of one value multiset, split into disjoint (colour, one rank) cells.

    Counts ordered assignments of faces to the ``m`` positions (no undealt factor).
    """
    vs, vrs = _face_counts(shoe)
    return _cells(tuple(multiset), vs, vrs)


@lru_cache(maxsize=None)
def _ff(n: int, k: int) -> int:
    """Memoised falling factorial: the same few (count, k) pairs recur across multisets."""
    return falling_factorial(n, k)


def _cells(multiset: tuple[tuple[int, int], ...], vs: list[list[int]],
           vrs: list[list[list[int]]]) -> dict[tuple[Colour, bool], int]:
    ff = _ff
    total = 1
    for v, k in multiset:
        total *= ff(sum(vs[v]), k)
    suit = 0
    for s in range(4):
        p = 1
        for v, k in multiset:
            p *= ff(vs[v][s], k)
        suit += p
    colour = 0
    for suits in COLOUR_SUITS:
        p = 1
        for v, k in multiset:
            p *= ff(sum(vs[v][s] for s in suits), k)
        colour += p
    rank = rank_suit = rank_colour = 0
    if len(multiset) == 1:
        v, m = multiset[0]
        for row in vrs[v]:
            rank += ff(sum(row), m)
            rank_suit += sum(ff(n, m) for n in row)
            rank_colour += sum(ff(sum(row[s] for s in suits), m) for suits in COLOUR_SUITS)
    cells: dict[tuple[Colour, bool], int] = {
        ("suit", True): rank_suit,
        ("suit", False): suit - rank_suit,
        ("colour", True): rank_colour - rank_suit,
        ("colour", False): (colour - suit) - (rank_colour - rank_suit),
        ("mixed", True): rank - rank_colour,
        ("mixed", False): total - colour - rank + rank_colour,
    }
    assert all(n >= 0 for n in cells.values()) and sum(cells.values()) == total
    return cells


@lru_cache(maxsize=32)
def deal_faces_distribution(shoe: Shoe) -> ResultDistribution:
    """Exact counts of every :class:`DealFaces` result for ``shoe``; void rounds apart."""
    table = shape_table(VALUE_CLASSES)
    vs, vrs = _face_counts(shoe)
    total = shoe.size
    depth = min(total, MAX_CARDS_PER_ROUND)
    universe = falling_factorial(total, depth)
    undealt = {m: falling_factorial(total - m, depth - m) for m in range(4, depth + 1)}
    # accumulate on plain int/str tuples (cheap to hash); build the DealFaces keys once at the end
    acc: dict[tuple[int, str, bool, int | None], int] = defaultdict(int)
    for multiset, m, items in table.entries:
        if m > depth:
            continue  # void round (§ 629a.13(e))
        single = multiset[0][0] if len(multiset) == 1 else None
        cells = [(c, r, n * undealt[m]) for (c, r), n in _cells(multiset, vs, vrs).items() if n]
        for i, mult in items:
            for colour, one_rank, w in cells:
                acc[(i, colour, one_rank, single)] += mult * w
    counts = {DealFaces(table.coups[i], colour, one_rank, single): n
              for (i, colour, one_rank, single), n in acc.items()}
    void = universe - sum(counts.values())
    assert void >= 0
    return ResultDistribution(universe, counts, void)


def deal_faces_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> DealFaces:
    """The :class:`DealFaces` result of one finished round, read from its cards."""
    cards = [*player, *banker]
    suits = {c.suit for c in cards}
    colours = {c.colour for c in cards}
    colour: Colour = "suit" if len(suits) == 1 else "colour" if len(colours) == 1 else "mixed"
    values = {c.value for c in cards}
    return DealFaces(coup_from_deal(player, banker), colour, len({c.rank for c in cards}) == 1,
                     values.pop() if len(values) == 1 else None)


LEVELS["deal-faces"] = Level("deal-faces", deal_faces_distribution, deal_faces_from_deal)


# -- Royal 9: the first two cards of each hand (§ 629c.3(b),(e)) -------------------------

ROYAL_FACES: Final = ("K", "Q", "J")


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


def royal9_hand(a: Card, b: Card) -> Royal9Hand | None:
    """The Royal 9 reading of a hand's first two cards, or ``None``."""
    for face, nine in ((a, b), (b, a)):
        if face.rank in ROYAL_FACES and nine.rank == "9":
            return Royal9Hand(face.rank == "K", face.suit, nine.suit)
    return None


def opening_from_deal(player: Sequence[Card], banker: Sequence[Card]) -> OpeningResult:
    """Royal 9 facts of a finished round (only the first two cards of each hand count)."""
    return royal9_hand(player[0], player[1]), royal9_hand(banker[0], banker[1])


_OPENING_CLASSES: Final = (
    [("K", s) for s in SUITS] + [("9", s) for s in SUITS] + [("QJ", s) for s in SUITS] + [("other", "")]
)
"""Thirteen classes of a card for Royal 9: king by suit, nine by suit, queen-or-jack by suit, other."""


def _opening_class_counts(shoe: Shoe) -> list[int]:
    out = []
    for kind, suit in _OPENING_CLASSES:
        if kind == "other":
            out.append(shoe.size - sum(out))
        else:
            ranks = ("Q", "J") if kind == "QJ" else (kind,)
            out.append(sum(shoe.count(Card(r, suit)) for r in ranks))
    return out


def _class_hand(a: int, b: int) -> Royal9Hand | None:
    for f, n in ((a, b), (b, a)):
        fk, fs = _OPENING_CLASSES[f]
        nk, ns = _OPENING_CLASSES[n]
        if fk in ("K", "QJ") and nk == "9":
            return Royal9Hand(fk == "K", fs, ns)
    return None


@lru_cache(maxsize=32)
def opening_distribution(shoe: Shoe) -> ResultDistribution:
    """Exact counts of :data:`OpeningResult` over the universe, void rounds apart.

    A full-enough shoe (N ≥ 6) never voids: every ordered 4-tuple of the 13 classes is
    priced by falling factorials times the undealt factor ``ff(N−4, 2)``. A shoe of
    fewer than six cards is enumerated card by card (at most 5! orders), the rounds it
    cannot finish being void (§ 629a.13(e)) as for every other level.
    """
    total = shoe.size
    depth = min(total, MAX_CARDS_PER_ROUND)
    universe = falling_factorial(total, depth)
    acc: dict[OpeningResult, int] = defaultdict(int)
    if total >= MAX_CARDS_PER_ROUND:
        n = _opening_class_counts(shoe)
        rest = falling_factorial(total - 4, depth - 4)
        hands = {(a, b): _class_hand(a, b) for a in range(13) for b in range(13)}
        for p1 in range(13):
            for b1 in range(13):
                for p2 in range(13):
                    for b2 in range(13):
                        k: dict[int, int] = defaultdict(int)
                        for c in (p1, b1, p2, b2):
                            k[c] += 1
                        w = rest
                        for c, kc in k.items():
                            w *= falling_factorial(n[c], kc)
                        if w:
                            acc[(hands[p1, p2], hands[b1, b2])] += w
    else:
        acc.update(_small_shoe_opening(shoe))
    counts = {r: c for r, c in acc.items() if c}
    void = universe - sum(counts.values())
    assert void >= 0
    return ResultDistribution(universe, counts, void)


def _small_shoe_opening(shoe: Shoe) -> dict[OpeningResult, int]:
    """Card-by-card count for a shoe of fewer than six cards (every order of every card)."""
    from itertools import permutations

    from exactodds.game.rules import next_hand

    cards = shoe.cards()
    out: dict[OpeningResult, int] = defaultdict(int)
    for order in permutations(range(len(cards))):
        player: list[Card] = []
        banker: list[Card] = []
        it = iter(order)
        complete = True
        while (hand := next_hand([c.value for c in player], [c.value for c in banker])) is not None:
            i = next(it, None)
            if i is None:
                complete = False
                break
            (player if hand == "player" else banker).append(cards[i])
        if complete:
            out[opening_from_deal(player, banker)] += 1
    return out


LEVELS["royal-9-opening"] = Level("royal-9-opening", opening_distribution, opening_from_deal)
