"""The Match-The-Dealer level of Spanish 21 (58 Pa. Code § 551.7, 2010 temporary rules).

A different game from baccarat, analysed with the same engine:

Shoe
    Spanish 21 uses six or eight 48-card decks: standard decks with the four tens
    removed, jacks, queens and kings kept (§ 551.3(a)). :func:`spanish_shoe` maps a
    baccarat :class:`~exactodds.game.cards.Shoe` to the Spanish shoe by removing its tens,
    so ``Shoe.standard(6)`` stands for the regulated six 48-card decks (288 cards) and
    a composition that already holds no tens (a depleted Spanish shoe) is used as it is.
Dealing order
    § 551.8(d): one card to each player's box, one card face up to the dealer (the *up
    card*), a second card to each box, the dealer's hole card. The wager is settled
    right after these (§ 551.7(d)). For one player: card 1 and card 3 are the player's,
    card 2 is the dealer's up card, card 4 the hole card. Other players' cards, had
    there been any, are unseen and do not change the distribution (exchangeability).
Universe
    Ordered sequences of ``U = min(N, 4)`` cards off the top of the Spanish shoe
    (``N·(N−1)·(N−2)·(N−3)``): the four cards dealt before settlement, hole card
    included although no wager reads it, as the baccarat figures count the cards dealt
    to no hand. A shoe of fewer than four cards cannot deal the round: every sequence is
    void and the wager pushes.
Match
    A player's card *matches* the up card when it has the same rank (§ 551.7(a),(e);
    J, Q and K are different ranks although each counts 10); it is paid "same suit" or
    "different suit" per matching card, and both cards' pays add up (§ 551.7(a)).

>>> from exactodds.engine.levels import MATCH_THE_DEALER
>>> from exactodds.game.cards import Shoe
>>> d = MATCH_THE_DEALER.distribution(Shoe.standard(6))
>>> d.universe == 288 * 287 * 286 * 285, sorted(d.counts)[:2]
(True, [Matches(same_suit=0, other_suit=0), Matches(same_suit=0, other_suit=1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from exactodds.engine.level import Level
from exactodds.errors import InputError
from exactodds.game.cards import FACES, Card, Shoe
from exactodds.game.layout import SPANISH21, SPANISH_ROUND
from exactodds.game.walk import opening_walk

REMOVED_RANK: Final = "10"
"""§ 551.3(a): the 10 of each suit is removed from each deck."""

DEAL_CARDS: Final = SPANISH_ROUND
"""Cards dealt to one player and the dealer before the wager is settled (§ 551.8(d)): the
level's depth."""


class Matches(NamedTuple):
    """How many of the player's two cards match the dealer's up card in rank, by suit."""

    same_suit: int
    other_suit: int


def spanish_shoe(shoe: Shoe) -> Shoe:
    """The Spanish 21 shoe for ``shoe``: the same composition with every ten removed
    (§ 551.3(a)). A shoe of tens only is an input error."""
    counts = tuple(0 if f.rank == REMOVED_RANK else n for f, n in zip(FACES, shoe.counts))
    if not any(counts):
        raise InputError("match-the-dealer: the shoe holds no card once the tens are removed (§ 551.3(a))")
    return Shoe(counts)


def matches(player: Sequence[Card], up_card: Card) -> Matches:
    """The :class:`Matches` of the player's two cards against the dealer's up card."""
    same = sum(1 for c in player[:2] if c == up_card)
    other = sum(1 for c in player[:2] if c.rank == up_card.rank and c.suit != up_card.suit)
    return Matches(same, other)


def from_deal(player: Sequence[Card], dealer: Sequence[Card]) -> Matches:
    """The result of one deal: the player's first two cards and the dealer's cards,
    the up card first."""
    if len(player) < 2 or not dealer:
        raise ValueError("the wager is settled on the player's two cards and the dealer's up card")
    if any(c.rank == REMOVED_RANK for c in (*player[:2], dealer[0])):
        raise ValueError("a Spanish 21 deck holds no tens (§ 551.3(a))")
    return matches(player, dealer[0])


def match_result(classes: tuple[int, ...]) -> Matches:
    """The result of the read faces (face indices): player card, up card, player card."""
    up = FACES[classes[1]]
    return matches([FACES[classes[0]], FACES[classes[2]]], up)


def match_level(name: str) -> Level:
    """The level: faces of the player's two cards and the dealer's up card, 4-card universe,
    Spanish 21's layout (§ 551.8(d))."""
    return Level(name, "the player's two cards against the dealer's up card (Spanish 21)",
                 tuple(range(len(FACES))), lambda: opening_walk(len(FACES), 3, match_result), match_result,
                 from_deal, kind="sequence", depth=DEAL_CARDS, layout=SPANISH21, suits="symmetric",
                 suits_reason="a match reads only equal ranks and equal suits, which any relabelling of "
                 "the suits keeps", shoe_map=spanish_shoe)
