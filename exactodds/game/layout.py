"""Table layouts: how the cards of one round are laid out into two hands.

A level's results are read off one dealt round (``from_deal(first hand, second hand)``);
its *layout* says which round that is:

``baccarat``
    Cards 1 and 3 to the Player, 2 and 4 to the Banker, third cards by the drawing rules
    (58 Pa. Code § 629a.8(c), § 629a.10): 4 to 6 cards.
``spanish21``
    Spanish 21's first four cards for one player: player, dealer's up card, player,
    dealer's hole card (§ 551.8(d)); the first hand is the player's two cards, the second
    the dealer's, up card first.

The simulator lays each round out in six *slots*, 0-2 the first hand's cards and 3-5 the
second's in dealing order (:attr:`Layout.slots`: the slots a round of the layout can fill).
This module sits on the bottom floor (it imports :mod:`exactodds.game.cards` and :mod:`exactodds.game.rules` only) so that
the engine, the second methods and the simulator share it.

>>> from exactodds.game.cards import parse_card
>>> cards = [parse_card(x) for x in "3S 4H 2C AD 8S QH".split()]
>>> [[str(c) for c in hand] for hand in BACCARAT.deal(cards)]
[['3S', '2C', '8S'], ['4H', 'AD']]
>>> [[str(c) for c in hand] for hand in SPANISH21.deal(cards)]
[['3S', '2C'], ['4H', 'AD']]
>>> SPANISH21.deal(cards[:3]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Final

from exactodds.game.cards import Card
from exactodds.game.rules import deal_round

SPANISH_ROUND: Final = 4
"""Cards dealt to one player and the dealer before a Spanish 21 wager settles (§ 551.8(d))."""


class Layout(str, Enum):
    """The table layout of a level's rounds (its value is the name shown in output)."""

    BACCARAT = "baccarat"
    SPANISH21 = "spanish21"

    @property
    def slots(self) -> tuple[int, ...]:
        """The slots a round of this layout can fill (0-2 first hand, 3-5 second hand):
        every one in baccarat; the player's two cards and the dealer's two in Spanish 21."""
        return (0, 1, 2, 3, 4, 5) if self is Layout.BACCARAT else (0, 1, 3, 4)

    def deal(self, order: Sequence[Card]) -> tuple[list[Card], list[Card]] | None:
        """The two hands of the round dealt from ``order`` card by card, or ``None`` when the
        cards run out before the round is complete (a void round, § 629a.13(e))."""
        if self is Layout.BACCARAT:
            return deal_round(order)
        if len(order) < SPANISH_ROUND:
            return None
        return [order[0], order[2]], [order[1], order[3]]


BACCARAT: Final = Layout.BACCARAT
SPANISH21: Final = Layout.SPANISH21

__all__ = ["BACCARAT", "SPANISH21", "SPANISH_ROUND", "Layout"]
