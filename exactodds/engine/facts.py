"""The documented facts of a level's result: what a wager file's ``when`` may test.

A wager settled at a level reads that level's *result* of a round (a
:class:`~exactodds.game.rules.Coup`, an :class:`~exactodds.engine.opening.Opening`, …).
A wager file cannot run code, so it names *facts* of the result instead: each
:class:`Fact` has a name, a type (``bool``, ``int`` or ``choice``), its allowed values,
its meaning, the regulation it comes from, and a reader that takes it off a result. A
fact that does not apply to a round (the winner's total on a tie) reads ``None``, which
no condition matches.

This module holds the vocabulary (the :class:`Fact` type and the fact tables of each
kind of result, with their citations); :mod:`exactodds.engine.levels` gives each level its
table (``Level.facts``) and its note, and :mod:`exactodds.catalogue.facts` reads them from
the levels for wager files, the JSON Schema and ``docs/wager-files.md``.

>>> from exactodds.game.rules import Coup
>>> c = Coup(player_total=4, banker_total=7, player_cards=3, banker_cards=3)
>>> [f.read(c) for f in coup_facts(is_coup) if f.name in ("winner", "dragon_7", "winner_total", "margin")]
['banker', 7, 3, True]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from exactodds.game.cards import POINT_VALUE, RANKS, RED_SUITS, SUITS
from exactodds.game.rules import Coup

Kind = Literal["bool", "int", "choice"]


@dataclass(frozen=True)
class Fact:
    """One fact of a level's result, as a wager file names it."""

    name: str
    kind: Kind
    values: tuple[Any, ...]
    """Every value the fact can take (``None`` apart: "no value")."""
    meaning: str
    cite: str
    read: Callable[[Any], Any]
    """The fact's value for one result of the level (``None``: it does not apply)."""

    def allowed(self) -> str:
        """The allowed values in words, e.g. ``0 to 9`` or ``"banker", "player", "tie"``."""
        if self.kind == "bool":
            return "true, false"
        if self.kind == "int":
            lo, hi = min(self.values), max(self.values)
            return f"{lo} to {hi}" if list(self.values) == list(range(lo, hi + 1)) else ", ".join(map(str, self.values))
        return ", ".join(f'"{v}"' for v in self.values)


BOOL: Final = (False, True)
TOTALS: Final = tuple(range(10))
HAND_CARDS: Final = (2, 3)
COLOURS: Final = ("red", "black")

POINT_COUNT: Final = "58 Pa. Code § 629a.1 (Point Count)"
DRAWING: Final = "58 Pa. Code § 629a.10"
WINNING: Final = "58 Pa. Code § 629a.7(a)(1)-(3)"
NATURAL: Final = "58 Pa. Code § 629a.1 (Natural)"
DEALING: Final = "58 Pa. Code § 629a.8(c) (cards 1, 3 to the Player; 2, 4 to the Banker)"
PAIR: Final = "58 Pa. Code § 629a.7(a)(7)(i) (a pair: two cards of the same rank)"
DEAL_FACES_CITE: Final = "58 Pa. Code § 631b.2(g), § 631b.10(g) (all cards the same suit / colour / rank)"
NINES_CITE: Final = "58 Pa. Code § 631b.4(d),(e) (nines among the four initial cards)"
ROYAL_CITE: Final = "58 Pa. Code § 629c.3(b),(e) (Royal 9: a king, queen or jack and a nine)"
MATCH_CITE: Final = "58 Pa. Code § 551.7(a),(e) (a card matching the dealer's up card in rank)"


# -- coup ------------------------------------------------------------------------------------

def _winner_side(c: Coup, what: str) -> Any:
    w = c.winner
    if w == "tie":
        return None
    loser = "banker" if w == "player" else "player"
    side = w if what.startswith("winner") else loser
    return getattr(c, f"{side}_{what.split('_', 1)[1]}")


def coup_facts(coup: Callable[[Any], Coup]) -> tuple[Fact, ...]:
    """The coup facts, read through ``coup`` (the level's way to its Coup)."""
    return (
        Fact("winner", "choice", ("banker", "player", "tie"),
             "the hand with the higher point count wins; equal counts are a tie", WINNING,
             lambda r: coup(r).winner),
        Fact("player_total", "int", TOTALS, "the Player hand's final point count", POINT_COUNT,
             lambda r: coup(r).player_total),
        Fact("banker_total", "int", TOTALS, "the Banker hand's final point count", POINT_COUNT,
             lambda r: coup(r).banker_total),
        Fact("player_cards", "int", HAND_CARDS, "cards in the Player hand (3: it drew)", DRAWING,
             lambda r: coup(r).player_cards),
        Fact("banker_cards", "int", HAND_CARDS, "cards in the Banker hand (3: it drew)", DRAWING,
             lambda r: coup(r).banker_cards),
        Fact("cards", "int", (4, 5, 6), "cards dealt to the two hands together", DRAWING,
             lambda r: coup(r).player_cards + coup(r).banker_cards),
        Fact("player_natural", "bool", BOOL, "the Player's first two cards count 8 or 9", NATURAL,
             lambda r: coup(r).player_natural),
        Fact("banker_natural", "bool", BOOL, "the Banker's first two cards count 8 or 9", NATURAL,
             lambda r: coup(r).banker_natural),
        Fact("natural", "bool", BOOL, "either hand is a natural", NATURAL,
             lambda r: coup(r).player_natural or coup(r).banker_natural),
        Fact("winner_total", "int", TOTALS, "the winning hand's point count (no value on a tie)", POINT_COUNT,
             lambda r: _winner_side(coup(r), "winner_total")),
        Fact("loser_total", "int", TOTALS, "the losing hand's point count (no value on a tie)", POINT_COUNT,
             lambda r: _winner_side(coup(r), "loser_total")),
        Fact("winner_cards", "int", HAND_CARDS, "cards in the winning hand (no value on a tie)", DRAWING,
             lambda r: _winner_side(coup(r), "winner_cards")),
        Fact("loser_cards", "int", HAND_CARDS, "cards in the losing hand (no value on a tie)", DRAWING,
             lambda r: _winner_side(coup(r), "loser_cards")),
        Fact("margin", "int", TOTALS, "the winning hand's point count less the losing hand's (0 on a tie)",
             POINT_COUNT, lambda r: abs(coup(r).player_total - coup(r).banker_total)),
        Fact("dragon_7", "bool", BOOL, "the Banker wins with a three-card 7 (over a Player count below 7)",
             "58 Pa. Code § 629a.1 (Dragon 7)", lambda r: coup(r).dragon_7),
        Fact("panda_8", "bool", BOOL, "the Player wins with a three-card 8 (over a Banker count below 8)",
             "58 Pa. Code § 629a.1 (Panda 8)", lambda r: coup(r).panda_8),
    )


def is_coup(r: Any) -> Coup:
    """The result itself, a :class:`Coup` (the coup level's way to its Coup)."""
    assert isinstance(r, Coup)
    return r


# -- deal-faces ------------------------------------------------------------------------------

def deal_faces_facts() -> tuple[Fact, ...]:
    """The coup facts plus the suit, colour and rank facts of every dealt card (§ 631b.2(g), § 631b.10(g))."""
    return (*coup_facts(lambda r: r.coup),
            Fact("colour", "choice", ("suit", "colour", "mixed"),
                 'every card dealt to the hands is of one suit ("suit"), of one colour but not one suit '
                 '("colour"), or neither ("mixed")', DEAL_FACES_CITE, lambda r: r.colour),
            Fact("one_suit", "bool", BOOL, "every card dealt to the hands is of one suit", DEAL_FACES_CITE,
                 lambda r: r.colour == "suit"),
            Fact("one_colour", "bool", BOOL, "every card dealt to the hands is red, or every one black",
                 DEAL_FACES_CITE, lambda r: r.colour != "mixed"),
            Fact("one_rank", "bool", BOOL, "every card dealt to the hands is of one rank", DEAL_FACES_CITE,
                 lambda r: r.one_rank),
            Fact("single_value", "int", TOTALS,
                 "the point value every dealt card shares (no value when they differ)", DEAL_FACES_CITE,
                 lambda r: r.single_value))


# -- pair-coup -------------------------------------------------------------------------------

def pair_coup_facts() -> tuple[Fact, ...]:
    """The coup facts plus a pair on each hand's first two cards (§ 629a.7(a)(7)(i))."""
    return (*coup_facts(lambda r: r[2]),
            Fact("player_pair", "bool", BOOL, "the Player's first two cards are of one rank", PAIR, lambda r: r[0]),
            Fact("banker_pair", "bool", BOOL, "the Banker's first two cards are of one rank", PAIR, lambda r: r[1]))


# -- opening faces (one hand) ----------------------------------------------------------------

def _colour(suit: str) -> str:
    return "red" if suit in RED_SUITS else "black"


def two_faces_facts(hand: str) -> tuple[Fact, ...]:
    """Facts of one hand's initial two cards (the level's result holds that hand's faces)."""
    H = hand.capitalize()

    def two(r: Any) -> Any:
        return getattr(r, hand)

    def card(i: int, what: str) -> Callable[[Any], Any]:
        if what == "colour":
            return lambda r: _colour(two(r)[i].suit)
        return lambda r: getattr(two(r)[i], what)

    order = ("first", "second")
    facts = [
        Fact(f"{hand}_pair", "bool", BOOL, f"the {H}'s first two cards are of one rank", PAIR,
             lambda r: two(r)[0].rank == two(r)[1].rank),
        Fact(f"{hand}_suited", "bool", BOOL, f"the {H}'s first two cards are of one suit", DEALING,
             lambda r: two(r)[0].suit == two(r)[1].suit),
        Fact(f"{hand}_same_colour", "bool", BOOL, f"the {H}'s first two cards are of one colour", DEALING,
             lambda r: _colour(two(r)[0].suit) == _colour(two(r)[1].suit)),
        Fact(f"{hand}_two_card_total", "int", TOTALS, f"the point count of the {H}'s first two cards",
             POINT_COUNT, lambda r: (POINT_VALUE[two(r)[0].rank] + POINT_VALUE[two(r)[1].rank]) % 10),
    ]
    for i, nth in enumerate(order):
        facts += [
            Fact(f"{hand}_{nth}_rank", "choice", RANKS, f"the rank of the {H}'s {nth} card", DEALING,
                 card(i, "rank")),
            Fact(f"{hand}_{nth}_suit", "choice", SUITS, f"the suit of the {H}'s {nth} card "
                 "(S spades, H hearts, D diamonds, C clubs)", DEALING, card(i, "suit")),
            Fact(f"{hand}_{nth}_colour", "choice", COLOURS, f"the colour of the {H}'s {nth} card", DEALING,
                 card(i, "colour")),
        ]
    return tuple(facts)


# -- opening rank pattern, nines, Royal 9, Match-The-Dealer ----------------------------------

def rank_pattern_facts() -> tuple[Fact, ...]:
    """Facts of which of the four initial cards share a rank."""
    return (
        Fact("player_pair", "bool", BOOL, "the Player's first two cards are of one rank", PAIR,
             lambda r: r.player[0] == r.player[1]),
        Fact("banker_pair", "bool", BOOL, "the Banker's first two cards are of one rank", PAIR,
             lambda r: r.banker[0] == r.banker[1]),
        Fact("distinct_ranks", "int", (1, 2, 3, 4), "how many different ranks the four initial cards show",
             DEALING, lambda r: len({*r.player, *r.banker})),
    )


def _nines(r: Any) -> list[Any]:
    return [c for c in (*r.player, *r.banker) if c is not None]


def _nine_suit(r: Any) -> str | None:
    suits = {c.suit for c in _nines(r)}
    return suits.pop() if len(suits) == 1 else None


def nines_facts() -> tuple[Fact, ...]:
    """Facts of the nines, with suits, among the four initial cards (§ 631b.4(d),(e))."""
    return (
        Fact("nines", "int", (0, 1, 2, 3, 4), "how many nines the four initial cards hold", NINES_CITE,
             lambda r: len(_nines(r))),
        Fact("player_nines", "int", (0, 1, 2), "how many nines the Player's first two cards hold", NINES_CITE,
             lambda r: sum(c is not None for c in r.player)),
        Fact("banker_nines", "int", (0, 1, 2), "how many nines the Banker's first two cards hold", NINES_CITE,
             lambda r: sum(c is not None for c in r.banker)),
        Fact("nines_one_suit", "bool", BOOL, "there is a nine and every nine is of one suit", NINES_CITE,
             lambda r: _nine_suit(r) is not None),
        Fact("nine_suit", "choice", SUITS, "the suit every nine shares (no value without a nine, or when "
             "the nines' suits differ)", NINES_CITE, _nine_suit),
    )


def _royal(i: int, what: str) -> Callable[[Any], Any]:
    """Reader of one Royal 9 fact of hand ``i`` (0 Player, 1 Banker)."""
    def read(r: Any) -> Any:
        h = r[i]
        if what == "royal_9":
            return h is not None
        if what in ("suited", "king"):
            return h is not None and getattr(h, what)
        return None if h is None else getattr(h, what)
    return read


def royal_facts() -> tuple[Fact, ...]:
    """Royal 9 facts of each hand's first two cards (§ 629c.3(b),(e))."""
    facts: list[Fact] = []
    for i, hand in enumerate(("player", "banker")):
        H = hand.capitalize()
        facts += [
            Fact(f"{hand}_royal_9", "bool", BOOL, f"the {H}'s first two cards are a king, queen or jack and a nine",
                 ROYAL_CITE, _royal(i, "royal_9")),
            Fact(f"{hand}_suited_royal_9", "bool", BOOL, f"the {H}'s Royal 9 is of one suit", ROYAL_CITE,
                 _royal(i, "suited")),
            Fact(f"{hand}_king_9", "bool", BOOL, f"the {H}'s Royal 9 is a king and a nine", ROYAL_CITE,
                 _royal(i, "king")),
            Fact(f"{hand}_royal_face_suit", "choice", SUITS,
                 f"the suit of the king, queen or jack of the {H}'s Royal 9 (no value without one)", ROYAL_CITE,
                 _royal(i, "face_suit")),
            Fact(f"{hand}_royal_nine_suit", "choice", SUITS,
                 f"the suit of the nine of the {H}'s Royal 9 (no value without one)", ROYAL_CITE,
                 _royal(i, "nine_suit")),
        ]
    facts.append(Fact("royal_9_tie", "bool", BOOL, "both hands are a Royal 9", ROYAL_CITE,
                      lambda r: r[0] is not None and r[1] is not None))
    return tuple(facts)


def match_facts() -> tuple[Fact, ...]:
    """Match-The-Dealer facts: the player's cards matching the up card in rank (§ 551.7(a),(e))."""
    return (
        Fact("matches", "int", (0, 1, 2), "how many of the player's two cards match the dealer's up card in rank",
             MATCH_CITE, lambda r: r.same_suit + r.other_suit),
        Fact("same_suit_matches", "int", (0, 1, 2), "matching cards also of the up card's suit", MATCH_CITE,
             lambda r: r.same_suit),
        Fact("other_suit_matches", "int", (0, 1, 2), "matching cards of another suit", MATCH_CITE,
             lambda r: r.other_suit),
    )


__all__ = ["Fact", "Kind", "coup_facts", "deal_faces_facts", "is_coup", "match_facts", "nines_facts",
           "pair_coup_facts", "rank_pattern_facts", "royal_facts", "two_faces_facts"]
