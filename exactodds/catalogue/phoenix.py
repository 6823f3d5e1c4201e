"""Rising Phoenix Baccarat bonus wagers (58 Pa. Code § 631b.8(g)(4)(i)-(xviii), (h)(2)).

Each bonus wager is its own wager with one winning event and one pay, declared as one
row of data: (id, name, subparagraph, event, pays "to 1"). "Wins" means the named hand
has the higher point count (§ 631b.8(g)(1)-(2)). The Player Pair and Banker Pair
bonus wagers ((g)(4)(xix)-(xx)) are declared with the other pair wagers.

>>> [w.id for w in WAGERS][:3]
['sun-7', 'moon-8', 'nine-over-seven']
>>> len(WAGERS)
18
"""

from __future__ import annotations

from typing import Any, Final

from exactodds.catalogue.model import Outcome, Pay, Paytable, Wager
from exactodds.catalogue.side import Predicate, beats, both_hands, tie_at, wins_with
from exactodds.game.rules import Coup

PAYS_CITE: Final = "58 Pa. Code § 631b.8(h)(2)"

BONUS_WAGERS: Final[tuple[tuple[str, str, str, Predicate, int], ...]] = (
    ("sun-7", "Sun 7: Banker wins with three cards totalling 7", "i",
     wins_with("banker", 7, cards=3), 40),
    ("moon-8", "Moon 8: Player wins with three cards totalling 8", "ii",
     wins_with("player", 8, cards=3), 25),
    ("nine-over-seven", "9 over 7: either hand wins with 9 over a losing 7", "iii",
     beats(9, 7), 25),
    ("two-card-8-over-two-card-1", "2-card 8 over a 2-card 1", "iv",
     beats(8, 1, winner_cards=2, loser_cards=2), 50),
    ("player-three-card-6", "Player wins with a 3-card 6", "v",
     wins_with("player", 6, cards=3), 40),
    ("banker-1-or-2", "Banker wins with 1 or 2", "vi",
     wins_with("banker", (1, 2)), 60),
    ("both-8-or-9", "Player and Banker have an 8 or 9", "vii",
     both_hands((8, 9)), 20),
    ("one-over-zero", "1 over 0: either hand wins with 1 over a losing 0", "viii",
     beats(1, 0), 90),
    ("three-card-6-over-three-card-3", "3-card 6 over 3-card 3", "ix",
     beats(6, 3, winner_cards=3, loser_cards=3), 150),
    ("three-card-8-over-three-card-0", "3-card 8 over 3-card 0", "x",
     beats(8, 0, winner_cards=3, loser_cards=3), 130),
    ("banker-over-two-card-7", "Banker wins over a 2-card Player 7", "xi",
     beats(range(10), 7, loser_cards=2, side="banker"), 30),
    ("three-card-9-over-three-card-6", "3-card 9 over 3-card 6", "xii",
     beats(9, 6, winner_cards=3, loser_cards=3), 200),
    ("three-card-9-over-three-card-8", "3-card 9 over 3-card 8", "xiii",
     beats(9, 8, winner_cards=3, loser_cards=3), 200),
    ("player-three-card-8-over-three-card-0", "Player wins with a 3-card 8 over a 3-card Banker 0", "xiv",
     beats(8, 0, winner_cards=3, loser_cards=3, side="player"), 250),
    ("tie-0", "Tie with 0", "xv", tie_at(0), 150),
    ("tie-1-3", "Tie with 1, 2 or 3", "xvi", tie_at((1, 2, 3)), 70),
    ("tie-4-7", "Tie with 4, 5, 6 or 7", "xvii", tie_at((4, 5, 6, 7)), 15),
    ("tie-8-9", "Tie with 8 or 9", "xviii", tie_at((8, 9)), 40),
)
"""§ 631b.8(g)(4) events and § 631b.8(h)(2) odds, one row per bonus wager."""

READING: Final = (
    "Point counts count regardless of the number of cards unless the event names a 2-card or "
    "3-card hand; 'either hand wins ... over' means the winning hand (Player or Banker) has the "
    "first count and the losing hand the second. Rising Phoenix is dealt from 6 or 8 decks "
    "(§ 631b.8(f)); other shoes are analysed for comparison only.")


def _bonus(wid: str, name: str, sub: str, event: Predicate, pays: int) -> Wager[Coup]:
    return Wager(
        id=wid,
        name=f"{name} (Rising Phoenix)",
        cite=f"58 Pa. Code § 631b.8(g)(4)({sub}), (h)(2)",
        outcomes=(Outcome(name, event),),
        paytables=(Paytable(f"{pays}to1", {name: Pay.to(pays)}, PAYS_CITE),),
        reading=READING,
    )


WAGERS: tuple[Wager[Any], ...] = tuple(_bonus(*row) for row in BONUS_WAGERS)
