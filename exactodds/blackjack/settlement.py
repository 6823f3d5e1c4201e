"""A split hand's settlement and decisions as the engine takes them, shared by the two walks of
the round's distribution (:mod:`exactodds.blackjack.distribution`, state by state, the tests'
second method; :mod:`exactodds.blackjack.splitjoint`, by values) -- below both, so neither
imports the other for them: the net of a standing hand for each dealer outcome
(§ 551.6(b),(c),(f),(g),(h)), the 6-7-8 / 7-7-7 pay by suits, and the action an engine node takes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from exactodds.blackjack.dealer import OUTCOMES
from exactodds.blackjack.hands import HandSolver, choose, decision_class
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SPADES, CardType, Values

ZERO: Final = Fraction(0)
ONE: Final = Fraction(1)

NetVector = tuple[Fraction, ...]
"""A hand's net for each dealer outcome (17..21, bust)."""


def engine_choice(solver: HandSolver, hand: Values, doublings: int) -> str:
    """The action the engine's node ``(hand, doublings)`` takes (``"bust"`` past 21): the same
    rule as :meth:`HandSolver.value` -- the policy's ranking, else the post-split chooser, else
    the best value, first-listed on a tie."""
    if sum((i + 1) * c for i, c in enumerate(hand)) > 21:
        return "bust"
    solver.value(hand, doublings)
    acts = solver.node_actions.get((hand, doublings))
    ranking = solver.policy(decision_class(solver.up, hand, doublings, solver.split)) if solver.policy else None
    if acts is None:  # one action open, or a fixed strategy's node (only the action it takes valued)
        hard = sum((i + 1) * c for i, c in enumerate(hand))
        names = solver.open_actions(hand, doublings, hard)
        taken = next((a for a in ranking or () if a in names), None)
        if taken is not None or len(names) == 1:
            return taken or names[0]
        acts = solver.action_values(hand, doublings, names, hard, solver.rem(hand))
    if ranking is None and solver.chooser is not None:
        return solver.chooser(hand, doublings, acts)
    return choose(acts, ranking)


def bonus_pay(cards: tuple[CardType, CardType, CardType]) -> Fraction:
    """§ 551.6(g)(1)-(4): a three-card 6-7-8 / 7-7-7 pays 3 to 2 mixed, 2 to 1 suited, 3 to 1 in spades."""
    suits = {s for _, s in cards}
    if len(suits) == 1:
        return Fraction(3) if suits == {SPADES} else Fraction(2)
    return Fraction(3, 2)


def settle_vector(rules: Rules, total: int, ncards: int, doublings: int, pay: Fraction | None = None,
                  extra: Fraction = ZERO) -> NetVector:
    """A standing hand's net for each dealer outcome (§ 551.6(b),(c),(f),(g)): ``pay`` the
    winning multiple of a three-card 6-7-8 / 7-7-7 (None: 1 to 1, or the 5/6/7-card 21 bonus),
    ``extra`` the super bonus (§ 551.6(h))."""
    bet = 1 << doublings
    if total == 21 and ncards >= 3:
        if pay is None:
            pay = ONE
            if rules.bonus_21_cards and ncards >= 5 and (doublings == 0 or rules.bonus_on_doubled):
                pay = Fraction(3, 2) if ncards == 5 else Fraction(2) if ncards == 6 else Fraction(3)
        win = bet * pay + extra
        return tuple(win if (rules.player_21_wins or o != 4) else ZERO for o in range(OUTCOMES))
    if total == 21 and rules.split_21_beats_dealer_21:
        return (Fraction(bet),) * OUTCOMES
    out = []
    for o in range(OUTCOMES):
        dealer = 22 if o == 5 else 17 + o
        out.append(Fraction(bet if dealer > 21 or dealer < total else 0 if dealer == total else -bet))
    return tuple(out)


__all__ = ["NetVector", "bonus_pay", "engine_choice", "settle_vector"]
