"""Spanish 21's Match-The-Dealer wager (58 Pa. Code § 551.7, 2010 temporary rules).

A different game from baccarat, priced by the same engine at the level
:data:`~exactodds.engine.levels.MATCH_THE_DEALER` (the shoe, the dealing order and the
universe are described in :mod:`exactodds.engine.spanish21`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from exactodds.catalogue.model import Outcome, Pay, Paytable, Wager
from exactodds.engine.levels import MATCH_THE_DEALER
from exactodds.engine.spanish21 import Matches

CITE: Final = "58 Pa. Code § 551.7"

# -- the wager ---------------------------------------------------------------------------------

MATCH_ROWS: Final[tuple[tuple[str, Matches], ...]] = (
    ("Two matches, both same suit", Matches(2, 0)),
    ("Two matches: one same suit, one other suit", Matches(1, 1)),
    ("Two matches, both other suit", Matches(0, 2)),
    ("One match, same suit", Matches(1, 0)),
    ("One match, other suit", Matches(0, 1)),
)
"""Every combination of matching cards; each is paid the sum of its cards' pays."""

PER_CARD: Final[dict[str, tuple[int, int, str]]] = {
    # paytable: (other suit "to 1", same suit "to 1", citation)
    "8-decks": (3, 12, "58 Pa. Code § 551.7(e)(2)"),
    "6-decks": (4, 9, "58 Pa. Code § 551.7(e)(1)"),
}
"""§ 551.7(e): the minimum odds per matching card, by number of decks ("8-decks" first:
it is the default, matching the engine's default 8-deck shoe)."""


def _combined(m: Matches, other: int, same: int) -> Pay:
    parts = [f"{same} to 1"] * m.same_suit + [f"{other} to 1"] * m.other_suit
    net = Fraction(same * m.same_suit + other * m.other_suit)
    text = parts[0] if len(parts) == 1 else f"{' + '.join(parts)} ({net} to 1)"
    return Pay(net, text)


def _paytables() -> tuple[Paytable, ...]:
    out = []
    for pid, (other, same, cite) in PER_CARD.items():
        decks = pid.split("-")[0]
        out.append(Paytable(pid, {name: _combined(m, other, same) for name, m in MATCH_ROWS}, cite,
                            f"{decks} decks: each matching card {other} to 1 (other suit), "
                            f"{same} to 1 (same suit), added up"))
    return tuple(out)


def _row(m: Matches) -> Any:
    return lambda r: r == m


match_the_dealer: Wager[Matches] = Wager(
    id="match-the-dealer",
    name="Match-The-Dealer (Spanish 21)",
    cite="58 Pa. Code § 551.7; § 551.3(a), § 551.8(d)",
    outcomes=tuple(Outcome(name, _row(m)) for name, m in MATCH_ROWS),
    otherwise="No match",
    paytables=_paytables(),
    level=MATCH_THE_DEALER,
    reading="A Spanish 21 wager, not baccarat: the shoe is the given one with its tens removed "
    "(§ 551.3(a): Shoe.standard(6) is six 48-card decks); a card matches the dealer's up card "
    "when it has the same rank (J, Q, K are distinct ranks) and is paid per matching card, same "
    "suit or other suit, the pays of two matching cards added (§ 551.7(a),(e)). Dealing order "
    "(§ 551.8(d)), one player: player, dealer up card, player, dealer hole card; the universe is "
    "those four cards. The paytables state the regulation's minimum odds; '6-decks' is regulated "
    "with six decks and '8-decks' with eight, but either can be priced on any shoe.",
)

WAGERS: tuple[Wager[Any], ...] = (match_the_dealer,)
