"""Main wagers (Banker, Player, Tie) and the EZ Baccarat insurance wagers.

Sources: 58 Pa. Code § 629a.7, § 629a.12 (Midibaccarat), § 541.13 (Minibaccarat,
2010 temporary rules), § 629c.2 and § 631b.5 (commission-free), § 631b.8 (Rising
Phoenix). Outcome predicates read a :class:`~exactodds.game.rules.Coup`.
"""

from __future__ import annotations

from fractions import Fraction

from exactodds.catalogue.model import Outcome, Pay, Paytable, Wager
from exactodds.game.rules import Coup

DRAGON_7 = "Banker wins with a three-card 7 (Dragon 7)"
BANKER_SIX = "Banker wins with 6 points"
BANKER_WINS = "Banker wins"
PLAYER_WINS = "Player wins"
TIE = "Tie"

banker: Wager[Coup] = Wager(
    id="banker",
    name="Banker",
    cite="58 Pa. Code § 629a.7(a)(1), § 629a.12(c); § 541.13(c),(f); § 629c.2(i); § 631b.8(g)(1)(iv)",
    outcomes=(
        Outcome(DRAGON_7, lambda c: c.dragon_7),
        Outcome(BANKER_SIX, lambda c: c.winner == "banker" and c.banker_total == 6),
        Outcome(BANKER_WINS, lambda c: c.winner == "banker"),
        Outcome(TIE, lambda c: c.winner == "tie"),
    ),
    otherwise=PLAYER_WINS,
    settle_rule="first",
    paytables=(
        Paytable("5pct", {BANKER_WINS: Pay.commission(Fraction(5, 100)), TIE: Pay.push()},
                 "58 Pa. Code § 629a.12(c)", "1 to 1 less 5% commission; a tie pushes"),
        Paytable("4pct", {BANKER_WINS: Pay.commission(Fraction(4, 100)), TIE: Pay.push()},
                 "58 Pa. Code § 541.13(c)", "Minibaccarat: 1 to 1 less 4% commission"),
        Paytable("tie-vig", {BANKER_WINS: Pay.to(1),
                             TIE: Pay.forfeit(Fraction(1, 4), "25% of the wager taken")},
                 "58 Pa. Code § 541.13(f)",
                 "no commission on wins; a vigorish of 25% of the wager is charged on a tie"),
        Paytable("ez", {DRAGON_7: Pay.push(), BANKER_WINS: Pay.to(1), TIE: Pay.push()},
                 "58 Pa. Code § 629a.7(a)(1)(i),(iii), § 629a.12(c)",
                 "EZ Baccarat: no vigorish; a Banker win by a Dragon 7 pushes"),
        Paytable("commission-free", {BANKER_SIX: Pay.to(1, 2), BANKER_WINS: Pay.to(1), TIE: Pay.push()},
                 "58 Pa. Code § 629c.2(i), § 631b.5(i)",
                 "no commission; a win with a point count of 6 pays 1 to 2"),
        Paytable("phoenix-commission-free", {DRAGON_7: Pay.push(), BANKER_WINS: Pay.to(1), TIE: Pay.push()},
                 "58 Pa. Code § 631b.8(g)(1)(iv)",
                 "Rising Phoenix commission-free: a win by a three-card 7 pushes"),
    ),
    reading="One outcome per round, in the order listed: a Banker win that is a Dragon 7 (or wins "
    "with 6) is settled on that row where the paytable names it, else as an ordinary Banker win.",
)

player: Wager[Coup] = Wager(
    id="player",
    name="Player",
    cite="58 Pa. Code § 629a.7(a)(2), § 629a.12(a)",
    outcomes=(Outcome(PLAYER_WINS, lambda c: c.winner == "player"),
              Outcome(TIE, lambda c: c.winner == "tie")),
    otherwise=BANKER_WINS,
    settle_rule="first",
    paytables=(Paytable("1to1", {PLAYER_WINS: Pay.to(1), TIE: Pay.push()}, "58 Pa. Code § 629a.12(a)",
                        "1 to 1; a tie pushes (also on EZ tables: a Panda 8 wins 1 to 1)"),),
)

tie: Wager[Coup] = Wager(
    id="tie",
    name="Tie",
    cite="58 Pa. Code § 629a.7(a)(3), § 629a.12(b)",
    outcomes=(Outcome(TIE, lambda c: c.winner == "tie"),),
    otherwise="No tie",
    paytables=(
        Paytable("8to1", {TIE: Pay.to(8)}, "58 Pa. Code § 629a.12(b)", "8 to 1"),
        Paytable("9to1", {TIE: Pay.to(9)}, "58 Pa. Code § 629a.12(b)", '"at least 8 to 1": 9 to 1'),
    ),
)

dragon_7: Wager[Coup] = Wager(
    id="dragon-7",
    name="Dragon 7 Insurance (EZ Baccarat)",
    cite="58 Pa. Code § 629a.7(a)(5), § 629a.12(f)",
    outcomes=(Outcome("Dragon 7", lambda c: c.dragon_7),),
    otherwise="No Dragon 7",
    paytables=(Paytable("40to1", {"Dragon 7": Pay.to(40)}, "58 Pa. Code § 629a.12(f)"),),
    reading="Dragon 7: a three-card Banker 7 over a Player count below 7 (§ 629a.1).",
)

panda_8: Wager[Coup] = Wager(
    id="panda-8",
    name="Panda 8 Insurance (EZ Baccarat)",
    cite="58 Pa. Code § 629a.7(a)(6), § 629a.12(g)",
    outcomes=(Outcome("Panda 8", lambda c: c.panda_8),),
    otherwise="No Panda 8",
    paytables=(Paytable("25to1", {"Panda 8": Pay.to(25)}, "58 Pa. Code § 629a.12(g)"),),
    reading="Panda 8: a three-card Player 8 over a Banker count below 8 (§ 629a.1).",
)

WAGERS = (banker, player, tie, dragon_7, panda_8)
