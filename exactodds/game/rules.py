"""Drawing rules of 58 Pa. Code § 629a.10 and the value-level result of a round.

The rules are data: Table 1 below is the regulation's table transcribed row for row
(the OCR of its header row is garbled; the header is the Player's third-card value
0..9, see ``docs/WAGERS.md``). The same rules appear in § 541.11 (Minibaccarat)
and § 545.11 (Baccarat).

>>> play([3, 4, 2, 5, 8])          # Player 3+2=5 draws an 8; Banker 4+5=9 is a natural
Traceback (most recent call last):
...
ValueError: the deal has more cards than the round uses
>>> play([3, 4, 2, 1, 8, 0])        # P 5 draws 8 -> 3; B 5 vs third card 8 stands
Traceback (most recent call last):
...
ValueError: the deal has more cards than the round uses
>>> play([3, 4, 2, 1, 8])
Coup(player_total=3, banker_total=5, player_cards=3, banker_cards=2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar


class _Valued(Protocol):
    @property
    def value(self) -> int: ...


C = TypeVar("C", bound=_Valued)

CITATION: Final = "58 Pa. Code § 629a.10 (also § 541.11, § 545.11)"

NATURALS: Final = frozenset({8, 9})
"""Two-card point counts that are a Natural (§ 629a.1); either stops the round (§ 629a.10(a))."""

PLAYER_DRAWS_ON: Final = frozenset(range(0, 6))
"""Player draws on 0-5, stays on 6-7 (§ 629a.10(b))."""

BANKER_DRAWS_WHEN_PLAYER_STAYS: Final = frozenset(range(0, 6))
"""If the Player stayed, the Banker draws on 0-5 (§ 629a.10(c)(1))."""

BANKER_ALWAYS_DRAWS: Final = frozenset({0, 1, 2})
"""If the Player drew, the Banker draws on 0-2 (§ 629a.10(c)(2)(i)) and stays on 7 ((ii))."""

TABLE_1: Final = """
          Value of the third card drawn by the Player's Hand
Banker    0  1  2  3  4  5  6  7  8  9
  3       D  D  D  D  D  D  D  D  S  D
  4       S  S  D  D  D  D  D  D  S  S
  5       S  S  S  S  D  D  D  D  S  S
  6       S  S  S  S  S  S  D  D  S  S
"""
"""§ 629a.10(c)(2)(iii) Table 1: D = Banker draws, S = Banker stays."""


def _parse_table_1(text: str) -> dict[int, frozenset[int]]:
    rows: dict[int, frozenset[int]] = {}
    for line in text.strip().splitlines()[2:]:
        banker, *marks = line.split()
        assert len(marks) == 10, line
        rows[int(banker)] = frozenset(v for v, m in enumerate(marks) if m == "D")
    return rows


BANKER_DRAWS_AGAINST: Final = _parse_table_1(TABLE_1)
"""Banker point count 3..6 -> the Player third-card values on which the Banker draws."""


def point_count(values: Sequence[int]) -> int:
    """A hand's Point Count: the sum of its card values mod 10 (§ 629a.1)."""
    return sum(values) % 10


def is_natural(two_card_total: int) -> bool:
    """8 or 9 on the first two cards (§ 629a.1)."""
    return two_card_total in NATURALS


def player_draws(player_total: int) -> bool:
    """Whether the Player's two-card hand draws, given neither hand is a Natural."""
    return player_total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether the Banker's two-card hand draws, given neither hand is a Natural.

    ``player_third`` is the value of the Player's third card, or ``None`` if the
    Player stayed.
    """
    if player_third is None:
        return banker_total in BANKER_DRAWS_WHEN_PLAYER_STAYS
    if banker_total in BANKER_ALWAYS_DRAWS:
        return True
    if banker_total in BANKER_DRAWS_AGAINST:
        return player_third in BANKER_DRAWS_AGAINST[banker_total]
    return False


@dataclass(frozen=True, order=True)
class Coup:
    """The value-level result of a round: final point counts and cards per hand.

    Every fixed-odds main wager and most side wagers are settled on this alone.
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``."""
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"

    @property
    def player_natural(self) -> bool:
        return self.player_cards == 2 and is_natural(self.player_total)

    @property
    def banker_natural(self) -> bool:
        return self.banker_cards == 2 and is_natural(self.banker_total)

    @property
    def dragon_7(self) -> bool:
        """Banker three-card 7 over a Player count below 7 (§ 629a.1)."""
        return self.banker_cards == 3 and self.banker_total == 7 and self.player_total < 7

    @property
    def panda_8(self) -> bool:
        """Player three-card 8 over a Banker count below 8 (§ 629a.1)."""
        return self.player_cards == 3 and self.player_total == 8 and self.banker_total < 8


def next_hand(player: Sequence[int], banker: Sequence[int]) -> str | None:
    """Which hand the next card goes to, or ``None`` when the round is complete.

    Dealing order (§ 629a.8(c)): cards 1 and 3 to the Player, 2 and 4 to the Banker,
    then the Player's third card if any, then the Banker's.
    """
    if len(player) < 2 or len(banker) < 2:
        return "player" if len(player) == len(banker) else "banker"
    p2, b2 = point_count(player[:2]), point_count(banker[:2])
    if is_natural(p2) or is_natural(b2):
        return None
    p_draws = player_draws(p2)
    if p_draws and len(player) == 2:
        return "player"
    if len(banker) == 2:
        third = player[2] if p_draws else None
        if banker_draws(b2, third):
            return "banker"
    return None


def play(values: Sequence[int]) -> Coup:
    """Play a deal given the point values of the cards in dealing order.

    The sequence must hold exactly the cards the round uses (4, 5 or 6).
    """
    player: list[int] = []
    banker: list[int] = []
    it = iter(values)
    while (hand := next_hand(player, banker)) is not None:
        try:
            card = next(it)
        except StopIteration:
            raise ValueError("the deal has fewer cards than the round needs") from None
        (player if hand == "player" else banker).append(card)
    if next(it, None) is not None:
        raise ValueError("the deal has more cards than the round uses")
    return Coup(point_count(player), point_count(banker), len(player), len(banker))


def deal_round(order: Iterable[C]) -> tuple[list[C], list[C]] | None:
    """Deal cards (anything with a point ``value``) card by card as § 629a.8(c) and
    § 629a.10 direct: the Player's and the Banker's cards, or ``None`` if the cards run out
    before the round is complete (a void round, § 629a.13(e)). Extra cards are not dealt.

    >>> from exactodds.game.cards import parse_card
    >>> [[str(c) for c in hand] for hand in deal_round(map(parse_card, "3S 4H 2C AD 8S QH".split()))]
    [['3S', '2C', '8S'], ['4H', 'AD']]
    >>> deal_round(map(parse_card, "3S 4H 2C".split())) is None
    True
    """
    player: list[C] = []
    banker: list[C] = []
    deck = iter(order)
    while (hand := next_hand([c.value for c in player], [c.value for c in banker])) is not None:
        card = next(deck, None)
        if card is None:
            return None
        (player if hand == "player" else banker).append(card)
    return player, banker
