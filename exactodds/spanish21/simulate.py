"""Simulation of the computed strategy (a third method): rounds dealt from a freshly shuffled shoe
(a continuous shuffler, § 551.15), the player following the engine's composition-dependent
decisions, every hand settled by this module's own reading of § 551.6.

Rule sets without splitting (``max_hands=1``): the engine is exact there, so the mean must
agree with :func:`~exactodds.spanish21.engine.expected_return` within its standard error. The
random numbers come from NumPy's PCG64 (a seed makes a run reproducible); the statistics are
display figures, the exact return is the thing checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.errors import InputError
from exactodds.spanish21.engine import Game, hand_total
from exactodds.spanish21.rules import Rules
from exactodds.spanish21.shoe import CardType, SpanishShoe


@dataclass
class SimulationResult:
    """Sum and sum of squares of the round results (per unit), exact."""

    rounds: int
    total: Fraction
    total_sq: Fraction

    @property
    def mean(self) -> Fraction:
        """Mean return per round."""
        return self.total / self.rounds

    @property
    def variance_of_mean(self) -> Fraction:
        """Sample variance of the mean (its square root is the standard error)."""
        n = self.rounds
        return (self.total_sq - self.total * self.total / n) / (n - 1) / n


def _pay(cards: list[CardType], up: CardType, rules: Rules, doublings: int) -> Fraction:
    """Winning multiple of a 21 of three or more cards (§ 551.6(f),(g),(h))."""
    n = len(cards)
    if doublings and not rules.bonus_on_doubled:
        return Fraction(1)
    values = sorted(v for v, _ in cards)
    if n == 3 and rules.bonus_678_777 and values in ([6, 7, 8], [7, 7, 7]):
        suits = {s for _, s in cards}
        pay = Fraction(3) if suits == {0} else Fraction(2) if len(suits) == 1 else Fraction(3, 2)
        if values == [7, 7, 7] and len(suits) == 1 and up[0] == 7 and not doublings:
            pay += rules.super_bonus()
        return pay
    if n >= 5 and rules.bonus_21_cards:
        return Fraction(3, 2) if n == 5 else Fraction(2) if n == 6 else Fraction(3)
    return Fraction(1)


def simulate(shoe: SpanishShoe, rules: Rules, rounds: int, seed: int = 0) -> SimulationResult:
    """Play ``rounds`` rounds with the engine's optimal decisions (``rules.max_hands`` must be 1)."""
    import numpy as np

    if rules.max_hands != 1:
        raise InputError("the simulation plays rule sets without splitting (max hands 1)")
    game = Game(shoe, rules)
    game.solve()
    cards = [t for t, k in shoe.types() for _ in range(k)]
    rng = np.random.Generator(np.random.PCG64(seed))
    total = Fraction(0)
    total_sq = Fraction(0)
    decisions: dict[tuple[CardType, CardType, CardType], str] = {}
    for _ in range(rounds):
        order = [cards[i] for i in rng.permutation(len(cards))]
        c1, up, c2, hole = order[0], order[1], order[2], order[3]
        draws = iter(order[4:])
        bj_dealer = {up[0], hole[0]} == {1, 10}
        bj_player = {c1[0], c2[0]} == {1, 10}
        if bj_player:
            result = Fraction(0) if bj_dealer and not rules.blackjack_beats_dealer_blackjack else Fraction(3, 2)
        elif bj_dealer:
            result = Fraction(-1)
        else:
            key = (up, min(c1, c2), max(c1, c2))
            if key not in decisions:
                decisions[key] = game.decide(*key).best
            result = _play(game, rules, up, hole, [c1, c2], decisions[key], draws)
        total += result
        total_sq += result * result
    return SimulationResult(rounds, total, total_sq)


def _play(game: Game, rules: Rules, up: CardType, hole: CardType, hand: list[CardType], action: str,
          draws: object) -> Fraction:
    it = iter(draws)  # type: ignore[call-overload]
    solver = game.solver(up[0])
    doublings = 0

    def counts() -> tuple[int, ...]:
        out = [0] * 10
        for v, _ in hand:
            out[v - 1] += 1
        return tuple(out)

    if action == "surrender":
        return Fraction(-1, 2)
    while True:
        if action in ("hit", "double", "redouble"):
            hand.append(next(it))
            if action != "hit":
                doublings += 1
        elif action == "rescue":
            return Fraction(-1)
        else:  # stand
            break
        hard = sum(v for v, _ in hand)
        if hard > 21:
            return Fraction(-(1 << doublings))
        acts = solver.node_actions.get((counts(), doublings))
        action = max(acts, key=lambda a: acts[a]) if acts else "stand"
    bet = 1 << doublings
    hard = sum(v for v, _ in hand)
    total, _ = hand_total(hard, any(v == 1 for v, _ in hand))
    if total == 21 and len(hand) >= 3:
        return bet * _pay(hand, up, rules, doublings)
    dealer = [up, hole]
    while True:
        d_hard = sum(v for v, _ in dealer)
        d_total, soft = hand_total(d_hard, any(v == 1 for v, _ in dealer))
        if d_total > 17 or (d_total == 17 and not (soft and rules.hit_soft_17)):
            break
        dealer.append(next(it))
    if d_total > 21 or d_total < total:
        return Fraction(bet)
    return Fraction(0) if d_total == total else Fraction(-bet)


__all__ = ["SimulationResult", "simulate"]
