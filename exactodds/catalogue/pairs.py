"""Wagers settled on the faces of the initial two cards of each hand.

House Money (58 Pa. Code § 629a.7(a)(7), § 629a.12(h)), Perfect Pairs (§ 629c.1,
§ 631b.1), Player Pair and Banker Pair (§ 629c.2(c),(g), § 631b.5(c),(g),
§ 631b.8(g)(4)(xix)-(xx)), Majestic Match (§ 631b.7) and Lucky Nines (§ 631b.4).
Every outcome is a predicate on an :class:`~exactodds.engine.opening.Opening` at one of the
levels of :mod:`exactodds.engine.opening`: the faces of one hand's two cards, the rank
pattern of the four initial cards, or the nines among them.

>>> from exactodds.game.cards import parse_card
>>> from exactodds.engine.levels import PLAYER_FACES
>>> o = PLAYER_FACES.from_deal([parse_card("7H"), parse_card("7D")], [parse_card("2S"), parse_card("3S")])
>>> perfect_pairs_player.settle(perfect_pairs_player.paytable("A"), o)
'Colored pair'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from exactodds.catalogue.model import Outcome, Pay, Paytable, Wager
from exactodds.engine.level import Level
from exactodds.engine.levels import BANKER_FACES, NINES, PLAYER_FACES, RANK_PATTERN
from exactodds.engine.opening import Face, Opening

HandName = str
TwoCards = tuple[Face, Face]


def _hand(name: HandName) -> Callable[[Opening], TwoCards]:
    """The named hand's two cards from a single-hand faces opening."""
    return (lambda o: o.player) if name == "player" else (lambda o: o.banker)


def _level(name: HandName) -> Level:
    return PLAYER_FACES if name == "player" else BANKER_FACES


# -- House Money (§ 629a.7(a)(7), § 629a.12(h)) --------------------------------------------

BOTH_PAIRS: Final = "Player and Banker Pair"
ONE_PAIR: Final = "Player or Banker Pair"


def _is_pair(two: tuple[Any, ...]) -> bool:
    return bool(two[0] == two[1])


house_money: Wager[Opening] = Wager(
    id="house-money",
    name="House Money",
    cite="58 Pa. Code § 629a.7(a)(7), § 629a.12(h)",
    outcomes=(
        Outcome(BOTH_PAIRS, lambda o: _is_pair(o.player) and _is_pair(o.banker)),
        Outcome(ONE_PAIR, lambda o: _is_pair(o.player) != _is_pair(o.banker)),
    ),
    otherwise="No pair",
    paytables=(Paytable("15to1-3to1", {BOTH_PAIRS: Pay.to(15), ONE_PAIR: Pay.to(3)},
                        "58 Pa. Code § 629a.12(h)", "both hands a pair 15 to 1; one hand 3 to 1"),),
    level=RANK_PATTERN,
    reading="A pair is two cards of the same rank regardless of suit (§ 629a.7(a)(7)(i)); "
    "'Player or Banker Pair' is a pair on exactly one hand. The wager is priced as taken in cash: "
    "the option to add the payout to a Player or Banker wager (§ 629a.11) is a separate decision.",
)


# -- Perfect Pairs (§ 629c.1, § 631b.1) ------------------------------------------------------

PERFECT: Final = "Perfect pair"
COLORED: Final = "Colored pair"
MIXED: Final = "Mixed pair"
PERFECT_PAIRS_TABLE: Final[dict[str, tuple[int, int, int]]] = {
    #     perfect colored mixed   (to 1)
    "A": (25, 12, 6),
    "B": (30, 10, 5),
    "C": (25, 15, 5),
}
"""§ 629c.1(d) and § 631b.1(e): the same three paytables in both chapters."""


def _perfect_pairs(hand: HandName) -> Wager[Opening]:
    cards = _hand(hand)

    def perfect(o: Opening) -> bool:
        a, b = cards(o)
        return a == b

    def colored(o: Opening) -> bool:
        a, b = cards(o)
        return a.rank == b.rank and a.colour == b.colour and a.suit != b.suit

    def mixed(o: Opening) -> bool:
        a, b = cards(o)
        return a.rank == b.rank and a.colour != b.colour

    return Wager(
        id=f"perfect-pairs-{hand}",
        name=f"Perfect Pairs ({hand.capitalize()})",
        cite="58 Pa. Code § 629c.1; § 631b.1",
        outcomes=(Outcome(PERFECT, perfect), Outcome(COLORED, colored), Outcome(MIXED, mixed)),
        otherwise="No pair",
        paytables=tuple(
            Paytable(pid, {PERFECT: Pay.to(p), COLORED: Pay.to(c), MIXED: Pay.to(m)},
                     "58 Pa. Code § 629c.1(d), § 631b.1(e)")
            for pid, (p, c, m) in PERFECT_PAIRS_TABLE.items()),
        level=_level(hand),
        reading="Same rank means the same rank symbol (two jacks, two 4s; a J and a Q are not a "
        "pair). Perfect pair: same rank and suit; colored pair: same rank and colour, different "
        "suits; mixed pair: same rank, different colours (§ 629c.1(e), § 631b.1(a)). The three "
        "are mutually exclusive. A wager on each hand is its own wager (§ 631b.1(d)(1)).",
    )


# -- Player Pair, Banker Pair (§ 629c.2, § 631b.5, § 631b.8) -----------------------------------

def _pair(hand: HandName) -> Wager[Opening]:
    cards = _hand(hand)
    outcome = f"{hand.capitalize()} pair"

    def pair(o: Opening) -> bool:
        a, b = cards(o)
        return a.rank == b.rank

    sub = "1" if hand == "player" else "2"
    phoenix = "xix" if hand == "player" else "xx"
    return Wager(
        id=f"{hand}-pair",
        name=f"{hand.capitalize()} Pair",
        cite=f"58 Pa. Code § 629c.2(c)({sub}),(g); § 631b.5(c)({sub}),(g); "
        f"§ 631b.8(g)(4)({phoenix}),(h)(2)",
        outcomes=(Outcome(outcome, pair),),
        otherwise="No pair",
        paytables=(Paytable("11to1", {outcome: Pay.to(11)},
                            "58 Pa. Code § 629c.2(g), § 631b.5(g), § 631b.8(h)(2)"),),
        level=_level(hand),
        reading="A pair is the initial two cards of the hand of the same rank, any suits "
        "(two 9s, two queens); a 10 and a J are not a pair.",
    )


# -- Majestic Match (§ 631b.7) ------------------------------------------------------------------

ROYAL_MATCH: Final = "Royal Match (suited K and Q)"
SUITED_MATCH: Final = "Suited Match (any other suited)"


def _majestic_match(hand: HandName) -> Wager[Opening]:
    cards = _hand(hand)

    def royal(o: Opening) -> bool:
        a, b = cards(o)
        return a.suit == b.suit and {a.rank, b.rank} == {"K", "Q"}

    def suited(o: Opening) -> bool:
        a, b = cards(o)
        return a.suit == b.suit and {a.rank, b.rank} != {"K", "Q"}

    return Wager(
        id=f"majestic-match-{hand}",
        name=f"Majestic Match ({hand.capitalize()})",
        cite="58 Pa. Code § 631b.7",
        outcomes=(Outcome(ROYAL_MATCH, royal), Outcome(SUITED_MATCH, suited)),
        otherwise="No match",
        paytables=(Paytable("25to1-2.5to1", {ROYAL_MATCH: Pay.to(25), SUITED_MATCH: Pay.to("5/2")},
                            "58 Pa. Code § 631b.7(d)", "2.5 to 1 is exactly 5/2"),),
        level=_level(hand),
        reading="Royal Match: a king and a queen of the same suit (§ 631b.7(e)(1)). Suited Match: "
        "any two cards of the same suit that are not a king and a queen (§ 631b.7(e)(2)) -- this "
        "includes two cards of the same rank and suit (e.g. two 7 of hearts from a multi-deck "
        "shoe) and K-K or Q-Q of one suit. This reading reproduces the published return "
        "-697/10790 at 8 decks.",
    )


# -- Lucky Nines (§ 631b.4) -----------------------------------------------------------------------

LUCKY_NINES_ROWS: Final = ("4 Nines", "3 Nines Same Suit", "3 Nines", "2 Nines Same Suit",
                           "2 Nines", "1 Nine Diamonds", "1 Nine")
"""Rows of the § 631b.4(e) table, in its order."""

LUCKY_NINES_TABLE: Final[dict[str, tuple[int, ...]]] = {
    "A": (500, 250, 20, 8, 5, 2, 1),
    "B": (500, 250, 30, 12, 5, 2, 1),
    "C": (1000, 500, 35, 16, 5, 2, 1),
    "D": (2000, 500, 15, 10, 4, 2, 1),
}
"""§ 631b.4(e): the four Lucky Nines paytables (all "to 1"), column by column."""


def _nines(o: Opening) -> list[Face]:
    return [c for c in (*o.player, *o.banker) if c is not None]


def _n_nines(k: int, same_suit: bool = False, diamond: bool = False) -> Callable[[Opening], bool]:
    """Exactly ``k`` nines among the four initial cards; all of one suit / a diamond if asked."""

    def pred(o: Opening) -> bool:
        nines = _nines(o)
        if len(nines) != k:
            return False
        if same_suit and len({c.suit for c in nines}) != 1:
            return False
        return not diamond or all(c.suit == "D" for c in nines)

    return pred


LUCKY_NINES_EVENTS: Final[dict[str, Callable[[Opening], bool]]] = {
    "4 Nines": _n_nines(4),
    "3 Nines Same Suit": _n_nines(3, same_suit=True),
    "3 Nines": _n_nines(3),
    "2 Nines Same Suit": _n_nines(2, same_suit=True),
    "2 Nines": _n_nines(2),
    "1 Nine Diamonds": _n_nines(1, diamond=True),
    "1 Nine": _n_nines(1),
}

lucky_nines: Wager[Opening] = Wager(
    id="lucky-nines",
    name="Lucky Nines",
    cite="58 Pa. Code § 631b.4",
    outcomes=tuple(Outcome(r, LUCKY_NINES_EVENTS[r]) for r in LUCKY_NINES_ROWS),
    otherwise="No nine",
    paytables=tuple(
        Paytable(pid, {r: Pay.to(p) for r, p in zip(LUCKY_NINES_ROWS, col, strict=True)},
                 "58 Pa. Code § 631b.4(e)")
        for pid, col in LUCKY_NINES_TABLE.items()),
    level=NINES,
    reading="Counts the nines among the four initial cards (Player's two and Banker's two, "
    "§ 631b.4(d)). 'k Nines' is exactly k nines; 'Same Suit' is all of those nines of one suit; "
    "'1 Nine Diamonds' is exactly one nine, a diamond. Only the highest-paying row is paid. "
    "Reading the rows as 'at least k' settles every deal the same way on every paytable.",
)

perfect_pairs_player = _perfect_pairs("player")
perfect_pairs_banker = _perfect_pairs("banker")

WAGERS: tuple[Wager[Any], ...] = (
    house_money,
    perfect_pairs_player, perfect_pairs_banker,
    _pair("player"), _pair("banker"),
    _majestic_match("player"), _majestic_match("banker"),
    lucky_nines,
)
