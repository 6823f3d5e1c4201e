"""Spanish 21's Match-The-Dealer wager (58 Pa. Code § 551.7, 2010 temporary rules).

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

>>> d = distribution(Shoe.standard(6))
>>> d.universe == 288 * 287 * 286 * 285, sorted(d.counts)[:2]
(True, [Matches(same_suit=0, other_suit=0), Matches(same_suit=0, other_suit=1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final, NamedTuple

from exactodds.game.cards import FACES, RANKS, Card, Shoe, falling_factorial
from exactodds.errors import InputError
from exactodds.engine.levels import LEVELS, Level, ResultDistribution
from exactodds.catalogue.model import Outcome, Pay, Paytable, Wager

CITE: Final = "58 Pa. Code § 551.7"
REMOVED_RANK: Final = "10"
"""§ 551.3(a): the 10 of each suit is removed from each deck."""

DEAL_CARDS: Final = 4
"""Cards dealt to one player and the dealer before the wager is settled (§ 551.8(d))."""


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


@lru_cache(maxsize=64)
def distribution(shoe: Shoe) -> ResultDistribution:
    """Exact counts of each :class:`Matches` for the Spanish shoe of ``shoe``.

    For an up card of face ``f`` (``n_f`` copies, ``r_f`` cards of its rank), the other
    ``N − 1`` cards are ``n_f − 1`` same-suit matches, ``r_f − n_f`` other-suit matches
    and ``N − r_f`` non-matching; the player's two (ordered) cards are drawn from them by
    falling factorials, and the hole card from the ``N − 3`` left.
    """
    sp = spanish_shoe(shoe)
    total = sp.size
    universe = falling_factorial(total, min(total, DEAL_CARDS))
    if total < DEAL_CARDS:
        return ResultDistribution(universe, {}, universe)
    ranks = dict(zip(RANKS, sp.rank_counts()))
    acc: dict[Matches, int] = {}
    for f, n in zip(FACES, sp.counts):
        if not n:
            continue
        kinds = (n - 1, ranks[f.rank] - n, total - ranks[f.rank])  # same suit, other suit, none
        for i, a in enumerate(kinds):
            for j, b in enumerate(kinds):
                ways = n * a * (b - (i == j))
                if ways:
                    key = Matches((i == 0) + (j == 0), (i == 1) + (j == 1))
                    acc[key] = acc.get(key, 0) + ways
    hole = total - 3
    counts = {k: v * hole for k, v in acc.items()}
    assert sum(counts.values()) == universe
    return ResultDistribution(universe, counts, 0)


LEVEL: Final = Level("spanish21-match", distribution, from_deal, baccarat=False)
LEVELS[LEVEL.name] = LEVEL


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
    level=LEVEL.name,
    reading="A Spanish 21 wager, not baccarat: the shoe is the given one with its tens removed "
    "(§ 551.3(a): Shoe.standard(6) is six 48-card decks); a card matches the dealer's up card "
    "when it has the same rank (J, Q, K are distinct ranks) and is paid per matching card, same "
    "suit or other suit, the pays of two matching cards added (§ 551.7(a),(e)). Dealing order "
    "(§ 551.8(d)), one player: player, dealer up card, player, dealer hole card; the universe is "
    "those four cards. The paytables state the regulation's minimum odds; '6-decks' is regulated "
    "with six decks and '8-decks' with eight, but either can be priced on any shoe.",
)

WAGERS: tuple[Wager[Any], ...] = (match_the_dealer,)
