"""Side wagers settled on point counts alone: Dragon Bonus, Golden Talons, Lucky Six
and the 5 Treasures wagers.

Sources: 58 Pa. Code § 629a.7(a)(4) and § 629a.12(e) (Dragon Bonus), § 631b.9
(Golden Talons), § 629c.2(c)(3),(k) and § 631b.5(c)(3),(k) (Lucky Six), § 631b.3
(5 Treasures). Every outcome is a predicate on a :class:`~exactodds.game.rules.Coup`; the
predicates are built from the small helpers below, which
:mod:`exactodds.catalogue.phoenix` shares, and every paytable is a row of data
transcribed from the regulation's table.

>>> from exactodds.game.rules import Coup
>>> wins_with("banker", 6, cards=3)(Coup(2, 6, 3, 3)), wins_with("banker", 6, cards=3)(Coup(6, 6, 3, 3))
(True, False)
>>> beats(9, 7)(Coup(7, 9, 2, 3)), beats(9, 7)(Coup(9, 7, 3, 2)), beats(9, 7)(Coup(9, 6, 3, 2))
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final, Literal

from exactodds.catalogue.model import Outcome, Pay, Paytable, Wager
from exactodds.game.rules import Coup

Hand = Literal["player", "banker"]
Side = Literal["player", "banker", "either"]
Predicate = Callable[[Coup], bool]
HANDS: Final[tuple[Hand, Hand]] = ("player", "banker")


# -- predicate helpers (shared with phoenix.py) ---------------------------------------

def other(hand: Hand) -> Hand:
    """The opposite hand."""
    return "banker" if hand == "player" else "player"


def total(c: Coup, hand: Hand) -> int:
    """That hand's final point count."""
    return c.player_total if hand == "player" else c.banker_total


def cards(c: Coup, hand: Hand) -> int:
    """Number of cards dealt to that hand (2 or 3)."""
    return c.player_cards if hand == "player" else c.banker_cards


def natural(c: Coup, hand: Hand) -> bool:
    """That hand is a Natural: 8 or 9 on its first two cards (§ 629a.1)."""
    return c.player_natural if hand == "player" else c.banker_natural


def _as_set(x: int | Collection[int]) -> frozenset[int]:
    return frozenset({x}) if isinstance(x, int) else frozenset(x)


def _hand_is(c: Coup, hand: Hand, totals: frozenset[int], n_cards: int | None) -> bool:
    return total(c, hand) in totals and (n_cards is None or cards(c, hand) == n_cards)


def wins_with(side: Side, totals: int | Collection[int], cards: int | None = None) -> Predicate:
    """``side`` wins the round (higher point count) with a total in ``totals``,
    holding exactly ``cards`` cards if given; ``"either"`` means Player or Banker."""
    wanted = _as_set(totals)
    hands: tuple[Hand, ...] = HANDS if side == "either" else (side,)

    def pred(c: Coup) -> bool:
        return any(c.winner == h and _hand_is(c, h, wanted, cards) for h in hands)

    return pred


def beats(winner_totals: int | Collection[int], loser_totals: int | Collection[int], *,
          winner_cards: int | None = None, loser_cards: int | None = None,
          side: Side = "either") -> Predicate:
    """A hand (``side``, or either) wins with a total in ``winner_totals`` over a losing
    hand with a total in ``loser_totals``; card counts of each hand are optional."""
    w_set, l_set = _as_set(winner_totals), _as_set(loser_totals)
    hands: tuple[Hand, ...] = HANDS if side == "either" else (side,)

    def pred(c: Coup) -> bool:
        return any(c.winner == h and _hand_is(c, h, w_set, winner_cards)
                   and _hand_is(c, other(h), l_set, loser_cards) for h in hands)

    return pred


def tie_at(totals: int | Collection[int]) -> Predicate:
    """The hands tie with a point count in ``totals`` (any number of cards)."""
    wanted = _as_set(totals)
    return lambda c: c.winner == "tie" and c.player_total in wanted


def both_hands(totals: int | Collection[int], cards: int | None = None) -> Predicate:
    """Each hand has a point count in ``totals`` (with exactly ``cards`` cards if given)."""
    wanted = _as_set(totals)
    return lambda c: all(_hand_is(c, h, wanted, cards) for h in HANDS)


def any_hand(totals: int | Collection[int], cards: int | None = None) -> Predicate:
    """At least one hand has a point count in ``totals`` (with ``cards`` cards if given)."""
    wanted = _as_set(totals)
    return lambda c: any(_hand_is(c, h, wanted, cards) for h in HANDS)


def any_of(*preds: Predicate) -> Predicate:
    """At least one of ``preds`` holds."""
    return lambda c: any(p(c) for p in preds)


def to_pay(cell: int | str) -> Pay:
    """A paytable cell as the regulation prints it: ``n`` is "n to 1", ``"push"`` a push."""
    return Pay.push() if cell == "push" else Pay.to(cell)


def paytables(names: Sequence[str], columns: Mapping[str, Sequence[int | str | None]],
              cite: str, notes: dict[str, str] | None = None) -> tuple[Paytable, ...]:
    """Paytables from a regulation's table: ``columns[id][i]`` pays ``names[i]``
    (``None`` = not offered on that paytable: the outcome loses)."""
    notes = notes or {}
    return tuple(
        Paytable(pid, {n: to_pay(cell) for n, cell in zip(names, col, strict=True) if cell is not None},
                 cite, notes.get(pid, ""))
        for pid, col in columns.items()
    )


# -- Dragon Bonus and Golden Talons -----------------------------------------------------

NATURAL_WIN: Final = "Natural win"
NATURAL_TIE: Final = "Natural tie"
WIN_MARGINS: Final = (9, 8, 7, 6, 5, 4)


def win_by(n: int) -> str:
    """Outcome name of a non-natural win by ``n`` points."""
    return f"Win by {n} points"


BONUS_ROWS: Final = (*(win_by(n) for n in WIN_MARGINS), NATURAL_WIN, NATURAL_TIE)
"""Rows of the Dragon Bonus / Golden Talons tables, in the regulation's order."""


def bonus_outcomes(hand: Hand) -> tuple[Outcome[Coup], ...]:
    """The outcomes of a Dragon Bonus (or Golden Talons) wager on ``hand``
    (§ 629a.7(a)(4)): a non-natural win by 4..9 points, a natural win (the hand is a
    Natural and wins: over a non-natural, or a natural 9 over a natural 8), a natural
    tie. They are mutually exclusive; anything else loses."""

    def margin(n: int) -> Predicate:
        return lambda c: not natural(c, hand) and total(c, hand) - total(c, other(hand)) == n

    return (
        *(Outcome(win_by(n), margin(n)) for n in WIN_MARGINS),
        Outcome(NATURAL_WIN, lambda c: natural(c, hand) and c.winner == hand),
        Outcome(NATURAL_TIE, lambda c: natural(c, hand) and natural(c, other(hand)) and c.winner == "tie"),
    )


DRAGON_BONUS_CITE: Final = "58 Pa. Code § 629a.12(e)"
DRAGON_BONUS_TABLE: Final[dict[str, tuple[int | str, ...]]] = {
    #     by 9 by 8 by 7 by 6 by 5 by 4 nat win  nat tie
    "A": (30, 10, 6, 4, 2, 1, 1, "push"),
    "B": (20, 8, 7, 4, 3, 1, 1, "push"),
    "C": (30, 10, 4, 4, 2, 2, 1, "push"),
}
"""§ 629a.12(e): the three Dragon Bonus paytables, column by column."""

GOLDEN_TALONS_CITE: Final = "58 Pa. Code § 631b.9(f)"
GOLDEN_TALONS_TABLE: Final[dict[str, tuple[int | str, ...]]] = {
    "A": (30, 10, 6, 4, 2, 1, 1, "push"),
    "B": (20, 10, 5, 4, 2, 1, 1, 2),
    "C": (30, 12, 5, 3, 3, 1, 1, "push"),
    "D": (20, 8, 7, 4, 3, 1, 1, "push"),
    "E": (30, 10, 4, 4, 2, 2, 1, "push"),
}
"""§ 631b.9(f): the five Golden Talons paytables (B pays a natural tie 2 to 1)."""

_BONUS_READING: Final = (
    "A natural win is the chosen hand being a Natural and winning (over a non-natural hand, "
    "or a natural 9 over a natural 8); it pays the natural-win odds only, whatever the margin. "
    "'Win by N' is a non-natural hand beating the other by exactly N points (4..9); a win by "
    "less than 4, any loss and a non-natural tie lose; a natural tie is the natural-tie row.")


def _dragon_bonus(hand: Hand) -> Wager[Coup]:
    return Wager(
        id=f"dragon-bonus-{hand}",
        name=f"Dragon Bonus ({hand.capitalize()})",
        cite="58 Pa. Code § 629a.7(a)(4), § 629a.12(e)",
        outcomes=bonus_outcomes(hand),
        paytables=paytables(BONUS_ROWS, DRAGON_BONUS_TABLE, DRAGON_BONUS_CITE),
        reading=_BONUS_READING + " (§ 629a.7(a)(4)(i)-(iii))",
    )


def _golden_talons(hand: Hand) -> Wager[Coup]:
    return Wager(
        id=f"golden-talons-{hand}",
        name=f"Golden Talons ({hand.capitalize()})",
        cite="58 Pa. Code § 631b.9",
        outcomes=bonus_outcomes(hand),
        paytables=paytables(BONUS_ROWS, GOLDEN_TALONS_TABLE, GOLDEN_TALONS_CITE,
                            {"B": "a natural tie pays 2 to 1"}),
        reading=_BONUS_READING + " § 631b.9(e) does not define the events itself; they are read as "
        "the Dragon Bonus events of § 629a.7(a)(4), and § 631b.9(g) confirms the natural-win rule.",
    )


# -- Lucky Six ------------------------------------------------------------------------

LUCKY_SIX_TWO: Final = "Banker wins with a two-card 6"
LUCKY_SIX_THREE: Final = "Banker wins with a three-card 6"

lucky_six: Wager[Coup] = Wager(
    id="lucky-six",
    name="Lucky Six",
    cite="58 Pa. Code § 629c.2(c)(3),(k); § 631b.5(c)(3),(k)",
    outcomes=(Outcome(LUCKY_SIX_TWO, wins_with("banker", 6, cards=2)),
              Outcome(LUCKY_SIX_THREE, wins_with("banker", 6, cards=3))),
    paytables=paytables((LUCKY_SIX_TWO, LUCKY_SIX_THREE), {"12to1-20to1": (12, 20)},
                        "58 Pa. Code § 629c.2(k), § 631b.5(k)",
                        {"12to1-20to1": "two cards 12 to 1, three cards 20 to 1"}),
    reading="Wins when the Banker's point count is 6 and higher than the Player's; a 6-6 tie loses.",
)


# -- 5 Treasures (§ 631b.3) --------------------------------------------------------------

TREASURES_CITE: Final = "58 Pa. Code § 631b.3(h)"
FORTUNE_7: Final = "Fortune 7: Banker wins with a 3-card 7"
GOLDEN_8: Final = "Golden 8: Player wins with a 3-card 8"
HEAVENLY_9_BOTH: Final = "Heavenly 9, Player and Banker: both hands have a 3-card 9"
HEAVENLY_9_ONE: Final = "Heavenly 9, Player or Banker: one hand has a 3-card 9"
BLAZING_3: Final = "3-Card Blazing 7's: both hands are 3-card 7s"
BLAZING_2: Final = "2-Card Blazing 7's: both hands are 2-card 7s"

fortune_7_event = wins_with("banker", 7, cards=3)
golden_8_event = wins_with("player", 8, cards=3)
heavenly_9_both = both_hands(9, cards=3)
heavenly_9_any = any_hand(9, cards=3)
blazing_3_event = both_hands(7, cards=3)
blazing_2_event = both_hands(7, cards=2)

TREASURE_EVENTS: Final[dict[str, Predicate]] = {
    FORTUNE_7: fortune_7_event,
    GOLDEN_8: golden_8_event,
    HEAVENLY_9_BOTH: heavenly_9_both,
    HEAVENLY_9_ONE: heavenly_9_any,
    BLAZING_3: blazing_3_event,
    BLAZING_2: blazing_2_event,
}
"""Each row of the § 631b.3(h) table and the event that pays it."""

TREASURES_TABLE: Final[dict[str, tuple[int | None, ...]]] = {
    #    F7  G8  H9 both  H9 one  3-card B7  2-card B7
    "A": (40, 25, 75, 10, 400, None),
    "B": (40, 25, 75, 10, 200, 50),
}
"""§ 631b.3(h): paytables A and B. They differ only on Blazing 7's: A pays a 3-card
Blazing 7's 400 to 1 and does not offer the 2-card one ("N/A"); B pays 200 and 50."""

_TREASURE_ROWS: Final = tuple(TREASURE_EVENTS)


def _treasure_tables(rows: Sequence[str]) -> tuple[Paytable, ...]:
    """The § 631b.3(h) columns restricted to ``rows`` (one 5 Treasures wager's rows)."""
    idx = [_TREASURE_ROWS.index(r) for r in rows]
    cols = {pid: tuple(col[i] for i in idx) for pid, col in TREASURES_TABLE.items()}
    return paytables(rows, cols, TREASURES_CITE)


def _treasure(wid: str, name: str, cite: str, rows: Sequence[str], reading: str = "") -> Wager[Coup]:
    return Wager(id=wid, name=name, cite=f"58 Pa. Code {cite}",
                 outcomes=tuple(Outcome(r, TREASURE_EVENTS[r]) for r in rows),
                 paytables=_treasure_tables(rows), reading=reading)


fortune_7 = _treasure("fortune-7", "5 Treasures: Fortune 7 Bonus", "§ 631b.3(f)(1),(h)", (FORTUNE_7,),
                      "The Banker wins (higher point count) with a three-card 7.")
golden_8 = _treasure("golden-8", "5 Treasures: Golden 8 Bonus", "§ 631b.3(f)(2),(h)", (GOLDEN_8,),
                     "The Player wins (higher point count) with a three-card 8.")
heavenly_9 = _treasure(
    "heavenly-9", "5 Treasures: Heavenly 9 Bonus", "§ 631b.3(f)(3),(h)", (HEAVENLY_9_BOTH, HEAVENLY_9_ONE),
    "Either hand holding a three-card 9 wins, whichever hand wins the round; both hands holding one "
    "pays the higher (75 to 1) row only.")
blazing_7s = _treasure(
    "blazing-7s", "5 Treasures: Blazing 7's Bonus", "§ 631b.3(f)(4),(h)", (BLAZING_3, BLAZING_2),
    "Both hands total 7 with the same number of cards: both three-card 7s ('3-Card Blazing 7's') "
    "or both two-card 7s ('2-Card Blazing 7's', offered on paytable B only, 'N/A' on A, so it loses "
    "there). A 7-7 with one two-card and one three-card hand matches neither row and loses.")

COVER_ALL_PAY: Final = 6


def _cover_all() -> Wager[Coup]:
    """Cover All (§ 631b.3(f)(5)): one outcome per row of the four bonus wagers, each paid
    6 to 1 where that row is offered on the paytable (so 2-card Blazing 7's on B only)."""
    rows = _TREASURE_ROWS
    cols = {pid: tuple(None if cell is None else COVER_ALL_PAY for cell in col)
            for pid, col in TREASURES_TABLE.items()}
    return Wager(
        id="cover-all", name="5 Treasures: Cover All Bonus", cite="58 Pa. Code § 631b.3(f)(5),(h)",
        outcomes=tuple(Outcome(r, TREASURE_EVENTS[r]) for r in rows),
        paytables=paytables(rows, cols, TREASURES_CITE,
                            {p: "6 to 1 when any of the four bonus wagers wins under this paytable"
                             for p in TREASURES_TABLE}),
        reading="Wins 6 to 1 when any of Fortune 7, Golden 8, Heavenly 9 or Blazing 7's would win "
        "under the same paytable: on A a 2-card Blazing 7's is not a winning event, on B it is. The "
        "rows show which bonus event occurred (the events are mutually exclusive); each pays 6 to 1.",
    )


cover_all = _cover_all()

WAGERS: tuple[Wager[Any], ...] = (
    *(_dragon_bonus(h) for h in HANDS),
    *(_golden_talons(h) for h in HANDS),
    lucky_six,
    fortune_7, golden_8, heavenly_9, blazing_7s, cover_all,
)
