"""Progressive wagers: Heavenly 9 Progressive, Harmony Progressive (A-I) and Royal 9.

Sources: 58 Pa. Code § 631b.2 (Heavenly 9 Progressive), § 631b.10 (Harmony
Progressive), § 629c.3 (Royal 9). Meter pays are :meth:`Pay.meter_pay`; the exact return
as a function of the meter amounts, the break-even meters and the long-run return are in
:mod:`exactodds.figures.progressive`. Each paytable lists its outcomes in the regulation's order
and settles on the first that holds (``settle_rule="first"``): the meter outranks the
fixed pays, which are themselves in decreasing order in every paytable here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from exactodds.catalogue.model import Meter, Outcome, Pay, Paytable, Wager
from exactodds.engine.deal_faces import DealFaces
from exactodds.engine.levels import DEAL_FACES, ROYAL_9_OPENING
from exactodds.engine.opening import OpeningResult

# -- Heavenly 9 Progressive (§ 631b.2) ----------------------------------------------------

H9_SUIT = "Player and Banker 3-card 9 tie, all cards same suit"
H9_COLOUR = "Player and Banker 3-card 9 tie, all cards same colour"
H9_TIE = "Player and Banker 3-card 9 tie"
H9_BANKER = "Banker 3-card 9"
H9_PLAYER = "Player 3-card 9"


def _three_card_9_tie(r: DealFaces) -> bool:
    c = r.coup
    return c.player_cards == 3 and c.banker_cards == 3 and c.player_total == 9 == c.banker_total


heavenly_9_progressive: Wager[DealFaces] = Wager(
    id="heavenly-9-progressive",
    name="Heavenly 9 Progressive",
    cite="58 Pa. Code § 631b.2",
    level=DEAL_FACES,
    outcomes=(
        Outcome(H9_SUIT, lambda r: _three_card_9_tie(r) and r.colour == "suit"),
        Outcome(H9_COLOUR, lambda r: _three_card_9_tie(r) and r.one_colour),
        Outcome(H9_TIE, _three_card_9_tie),
        Outcome(H9_BANKER, lambda r: r.coup.banker_cards == 3 and r.coup.banker_total == 9),
        Outcome(H9_PLAYER, lambda r: r.coup.player_cards == 3 and r.coup.player_total == 9),
    ),
    otherwise="No 3-card 9",
    settle_rule="first",
    paytables=(
        Paytable(
            "progressive",
            {H9_SUIT: Pay.meter_pay("heavenly-9"), H9_COLOUR: Pay.for_(299), H9_TIE: Pay.for_(60),
             H9_BANKER: Pay.for_(9), H9_PLAYER: Pay.for_(8)},
            "58 Pa. Code § 631b.2(i)",
            "100% of meter / 299 / 60 / 9 / 8 for 1; seed $10,000, increment 10%; $5 wager",
            meters=(Meter("heavenly-9", Fraction(10_000), Fraction(1, 10), cite="58 Pa. Code § 631b.2(i)"),),
            stake=Fraction(5),
        ),
    ),
    reading="'All cards' are the six cards dealt (a 3-card 9 tie always has six). Outcomes are ranked as "
    "listed in § 631b.2(g),(i), one per round (a 3-card 9 tie is not also paid as a Banker or Player 3-card "
    "9). The meter is paid in all (like the 'for 1' pays) to a $5 wager, the minimum of § 631b.2(c); "
    "the seed is house funded (no reserve is named).",
)

# -- Harmony Progressive (§ 631b.10) -----------------------------------------------------

SIX_KIND = "Tie with six-of-a-kind"
FOUR_8S = "Tie with four 8s, four cards dealt"
FOUR_KIND = "Tie with four-of-a-kind, four cards dealt"
SIX_ZERO = "Tie with six 0-value cards"
TIE_0 = "Tie with 0"
TIE_1_5 = "Tie with 1-5"
TIE_6_9 = "Tie with 6-9"
TIE_COLOUR = "Tie, all cards same colour"
ANY_TIE = "Any tie"
TIE_5 = "5 card tie"
TIE_6 = "6 card tie"
TIE_4 = "4 card tie"

HARMONY_OUTCOMES: tuple[Outcome[DealFaces], ...] = tuple(
    Outcome(name, (lambda p: lambda r: r.tie and p(r))(pred))
    for name, pred in (
        (SIX_KIND, lambda r: r.cards == 6 and r.one_rank),
        (FOUR_8S, lambda r: r.cards == 4 and r.single_value == 8),
        (FOUR_KIND, lambda r: r.cards == 4 and r.one_rank),
        (SIX_ZERO, lambda r: r.cards == 6 and r.single_value == 0),
        (TIE_0, lambda r: r.coup.player_total == 0),
        (TIE_1_5, lambda r: 1 <= r.coup.player_total <= 5),
        (TIE_6_9, lambda r: 6 <= r.coup.player_total <= 9),
        (TIE_COLOUR, lambda r: r.one_colour),
        (ANY_TIE, lambda r: True),
        (TIE_5, lambda r: r.cards == 5),
        (TIE_6, lambda r: r.cards == 6),
        (TIE_4, lambda r: r.cards == 4),
    )
)

_HARMONY_TABLES: dict[str, tuple[tuple[str, int], ...]] = {
    # § 631b.10(i): outcome -> "N for 1"; the first row (six-of-a-kind) is 100% of the meter
    "A": ((FOUR_8S, 1000), (FOUR_KIND, 300), (SIX_ZERO, 100), (TIE_0, 20), (TIE_1_5, 6), (TIE_6_9, 3)),
    "B": ((FOUR_8S, 1000), (FOUR_KIND, 200), (SIX_ZERO, 100), (TIE_0, 20), (TIE_1_5, 5), (TIE_6_9, 3)),
    "C": ((FOUR_8S, 600), (FOUR_KIND, 300), (SIX_ZERO, 100), (TIE_0, 20), (TIE_1_5, 5), (TIE_6_9, 5)),
    "D": ((FOUR_8S, 600), (FOUR_KIND, 300), (SIX_ZERO, 200), (TIE_COLOUR, 20), (ANY_TIE, 3)),
    "E": ((FOUR_8S, 1000), (FOUR_KIND, 300), (SIX_ZERO, 100), (TIE_COLOUR, 20), (ANY_TIE, 3)),
    "F": ((FOUR_8S, 300), (FOUR_KIND, 300), (SIX_ZERO, 100), (TIE_COLOUR, 20), (ANY_TIE, 5)),
    "G": ((FOUR_8S, 600), (FOUR_KIND, 200), (SIX_ZERO, 100), (TIE_5, 10), (TIE_6, 3), (TIE_4, 3)),
    "H": ((FOUR_8S, 1000), (FOUR_KIND, 200), (SIX_ZERO, 50), (TIE_5, 8), (TIE_6, 4), (TIE_4, 3)),
    "I": ((FOUR_8S, 300), (FOUR_KIND, 300), (SIX_ZERO, 50), (TIE_5, 10), (TIE_6, 6), (TIE_4, 4)),
}

_HARMONY_RATES: dict[str, tuple[Fraction, Fraction]] = {
    # § 631b.10(j): (incrementation rate, reserve incrementation rate)
    **{t: (Fraction(15, 100), Fraction(3, 100)) for t in "ACDFGI"},
    **{t: (Fraction(19, 100), Fraction(5, 100)) for t in "BEH"},
}


def _harmony_paytable(tid: str) -> Paytable:
    inc, reserve = _HARMONY_RATES[tid]
    pays = {SIX_KIND: Pay.meter_pay("harmony"), **{o: Pay.for_(n) for o, n in _HARMONY_TABLES[tid]}}
    return Paytable(
        tid, pays, "58 Pa. Code § 631b.10(i),(j)",
        f"paytable {tid}; increment {inc * 100}%, reserve {reserve * 100}%",
        meters=(Meter("harmony", None, inc, reserve, reset_funded_by_reserve=True,
                      cite="58 Pa. Code § 631b.10(j)"),),
        stake=Fraction(1),
    )


harmony: Wager[DealFaces] = Wager(
    id="harmony",
    name="Harmony Progressive",
    cite="58 Pa. Code § 631b.10",
    level=DEAL_FACES,
    outcomes=HARMONY_OUTCOMES,
    otherwise="No tie, or a tie the paytable does not pay",
    settle_rule="first",
    paytables=tuple(_harmony_paytable(t) for t in "ABCDEFGHI"),
    reading="Wins only on a tie (§ 631b.10(h)). Six-/four-of-a-kind: every dealt card of one rank; "
    "'only four cards were dealt': neither hand drew. 'Hands consisting of all of the same color': every "
    "dealt card red, or every one black. One outcome per round, ranked as the paytable lists them. The "
    "meter is paid in all; its reseed is not regulated and is funded by the reserve rate of § 631b.10(j), "
    "so the return at reset is not defined and meter amounts are per $1 of wager.",
)

# -- Royal 9 (§ 629c.3) -------------------------------------------------------------------

ROYAL_MEGA = "Personal king 9 v. personal king 9 (mega)"
ROYAL_MAJOR = "Personal king 9 on banker hand (major)"
ROYAL_MINOR = "Personal king 9 on player hand (minor)"
ROYAL_ENVY = "Mega envy: any position's king 9 v. king 9"
ROYAL_SUITED_TIE = "Suited Royal 9 tie hand"
ROYAL_TIE = "Royal 9 tie hand"
ROYAL_SUITED = "Suited Royal 9"
ROYAL_9 = "Royal 9"

DEFAULT_LAYOUT: tuple[tuple[str, str], ...] = (
    ("S", "H"), ("S", "D"), ("S", "C"), ("H", "S"), ("H", "D"), ("H", "C"), ("D", "S"), ("D", "H"), ("D", "C"))
"""(king suit, nine suit) printed at positions 1..9. § 629c.3(e)(5) makes them distinct but
does not list them; this reading takes nine of the twelve off-suit combinations."""

_ROYAL_FIXED = ((ROYAL_ENVY, (5000, 1000)), (ROYAL_SUITED_TIE, (1500, 300)), (ROYAL_TIE, (250, 50)),
                (ROYAL_SUITED, (50, 10)), (ROYAL_9, (25, 5)))
_ROYAL_RESETS = {5: (50_000, 450, 450), 1: (10_000, 90, 90)}


def _royal_paytable(stake: int, reading: str) -> Paytable:
    col = 0 if stake == 5 else 1
    sub = "f" if stake == 5 else "g"
    pays: dict[str, Pay] = {ROYAL_MEGA: Pay.meter_pay("mega"), ROYAL_MAJOR: Pay.meter_pay("major"),
                            ROYAL_MINOR: Pay.meter_pay("minor")}
    for name, amounts in _ROYAL_FIXED:
        a = amounts[col]
        if reading == "for":
            pays[name] = Pay(Fraction(a, stake) - 1, f"${a:,} for the ${stake} wager")
        else:
            pays[name] = Pay(Fraction(a, stake), f"${a:,} to the ${stake} wager")
    cite = f"58 Pa. Code § 629c.3({sub})"
    meters = tuple(Meter(n, Fraction(r), None, cite=f"{cite}(2)")
                   for n, r in zip(("mega", "major", "minor"), _ROYAL_RESETS[stake]))
    pid = f"{stake}usd" + ("" if reading == "for" else "-to")
    note = (f"${stake} wager; fixed amounts {'paid in all' if reading == 'for' else 'paid on top of the wager'}; "
            f"meter resets ${_ROYAL_RESETS[stake][0]:,}/${_ROYAL_RESETS[stake][1]}/${_ROYAL_RESETS[stake][2]}")
    return Paytable(pid, pays, cite, note, meters=meters, stake=Fraction(stake))


def _has(combo: tuple[str, str]) -> Callable[[Any], bool]:
    return lambda h: h is not None and h.combination == combo


def royal9_wager(position: int = 1, layout: Sequence[tuple[str, str]] = DEFAULT_LAYOUT) -> Wager[OpeningResult]:
    """The Royal 9 wager at one player position (its personal king-9 is ``layout[position-1]``)."""
    if len(set(layout)) != len(layout) or not 1 <= position <= len(layout):
        raise ValueError("layout combinations must be distinct and position in 1..len(layout)")
    mine = tuple(layout[position - 1])
    others = frozenset(tuple(c) for c in layout) - {mine}
    is_mine = _has(mine)  # type: ignore[arg-type]

    def envy(r: OpeningResult) -> bool:
        p, b = r
        return p is not None and b is not None and p.combination is not None \
            and p.combination == b.combination and p.combination in others

    outcomes: tuple[Outcome[OpeningResult], ...] = (
        Outcome(ROYAL_MEGA, lambda r: is_mine(r[0]) and is_mine(r[1])),
        Outcome(ROYAL_MAJOR, lambda r: is_mine(r[1])),
        Outcome(ROYAL_MINOR, lambda r: is_mine(r[0])),
        Outcome(ROYAL_ENVY, envy),
        Outcome(ROYAL_SUITED_TIE, lambda r: r[0] is not None and r[1] is not None and r[0].suited and r[1].suited),
        Outcome(ROYAL_TIE, lambda r: r[0] is not None and r[1] is not None),
        Outcome(ROYAL_SUITED, lambda r: any(h is not None and h.suited for h in r)),
        Outcome(ROYAL_9, lambda r: r[0] is not None or r[1] is not None),
    )
    suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return Wager(
        id="royal-9" if position == 1 and tuple(layout) == DEFAULT_LAYOUT else f"royal-9-position-{position}",
        name=f"Royal 9 Progressive (position {position}: K{suit[mine[0]]} 9{suit[mine[1]]})",
        cite="58 Pa. Code § 629c.3",
        level=ROYAL_9_OPENING,
        outcomes=outcomes,
        otherwise="No Royal 9",
        settle_rule="first",
        paytables=tuple(_royal_paytable(s, rd) for rd in ("for", "to") for s in (5, 1)),
        reading="Royal 9: a king, queen or jack and a nine as a hand's first two cards (§ 629c.3(b)); the "
        "personal combination of a position is a (king suit, nine suit); the nine layout combinations are "
        "not listed by the regulation: positions 1-9 take K-9 of suits "
        + ", ".join(f"{suit[k]}{suit[n]}" for k, n in layout)
        + ". One outcome per round, ranked as § 629c.3(f),(g) list them, the meters first (a personal "
        "king-9 that is also, e.g., part of a suited Royal 9 tie pays the meter). Fixed dollar amounts are "
        "read as paid in all for the wager (paytables 5usd, 1usd); 5usd-to, 1usd-to read them as paid on top "
        "of the returned wager. Meters are paid in all. Rates of progression are left to the Rules "
        "Submission (§ 629c.3(f)(2),(g)(2)). Settled on the first four cards, but a round the shoe cannot "
        "finish is void as every round is (§ 629a.13(e)).",
    )


royal_9 = royal9_wager(1)

WAGERS: tuple[Wager[Any], ...] = (heavenly_9_progressive, harmony, royal_9)
