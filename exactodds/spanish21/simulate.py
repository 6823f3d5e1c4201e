"""Simulation of the computed strategy (a third method): rounds dealt from a freshly shuffled shoe
(a continuous shuffler, § 551.15), the player following the engine's composition-dependent
decisions, every hand settled by this module's own reading of § 551.6.

Every rule set, splits included: the initial decision is the engine's best action for the
deal (:meth:`~exactodds.blackjack.engine.Game.decide`), a split hand's decisions those of the
post-split strategy (``cdz``: the unsplit hand's best among the actions open to a split hand;
``cdp1`` and ``cdp``: the first split hand's best), a pair dealt to a split hand is resplit
while the hand limit allows (§ 551.12(c)), and later decisions are the best action of the
engine's node for the hand's composition. The mean must agree with
:func:`~exactodds.blackjack.engine.expected_return` within its standard error (with splits the
engine's strategy may split to fewer hands, and ``cdp`` is not quite a strategy: differences far
below a simulation's resolution).

Dealing: a partial Fisher-Yates shuffle of the whole shoe per round (the cards of a round are a
uniformly random sequence without replacement whatever the array's order), the uniform numbers
from NumPy's PCG64 in blocks (a seed makes a run reproducible). Results are kept as exact
integers in units of ``1/scale``; the statistics are display figures, the exact return is the
thing checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from exactodds.blackjack.engine import Game, hand_total
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.settlement import engine_choice
from exactodds.blackjack.shoe import SPADES, CardType, SpanishShoe
from exactodds.errors import InputError

BLOCK = 1 << 16
"""Uniform numbers drawn from the generator at a time."""


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


class _Dealer:
    """Cards of one round after another: a partial Fisher-Yates shuffle of ``cards``."""

    def __init__(self, cards: list[CardType], seed: int) -> None:
        import numpy as np

        self.cards = cards
        self.rng = np.random.Generator(np.random.PCG64(seed))
        self.uniform: list[float] = []
        self.used = 0
        self.dealt = 0

    def new_round(self) -> None:
        """Shuffle back: the next card comes from the whole shoe again (§ 551.15)."""
        self.dealt = 0

    def __call__(self) -> CardType:
        if self.used == len(self.uniform):
            self.uniform = self.rng.random(BLOCK).tolist()
            self.used = 0
        u = self.uniform[self.used]
        self.used += 1
        cards, i = self.cards, self.dealt
        j = i + int(u * (len(cards) - i))
        cards[i], cards[j] = cards[j], cards[i]
        self.dealt = i + 1
        return cards[i]


def _counts(hand: list[CardType]) -> tuple[int, ...]:
    out = [0] * 10
    for v, _ in hand:
        out[v - 1] += 1
    return tuple(out)


def _bonus_pay(cards: list[CardType], up: CardType, rules: Rules, doublings: int, split: bool) -> Fraction:
    """Winning multiple of a 21 of three or more cards (§ 551.6(f),(g),(h))."""
    n = len(cards)
    if doublings and not rules.bonus_on_doubled:
        return Fraction(1)
    values = sorted(v for v, _ in cards)
    if n == 3 and rules.bonus_678_777 and values in ([6, 7, 8], [7, 7, 7]):
        suits = {s for _, s in cards}
        pay = Fraction(3) if suits == {SPADES} else Fraction(2) if len(suits) == 1 else Fraction(3, 2)
        if values == [7, 7, 7] and len(suits) == 1 and up[0] == 7 and not doublings and not split:
            pay += rules.super_bonus()
        return pay
    if n >= 5 and rules.bonus_21_cards:
        return Fraction(3, 2) if n == 5 else Fraction(2) if n == 6 else Fraction(3)
    return Fraction(1)


@dataclass
class _Hand:
    cards: list[CardType]
    split: bool
    doublings: int = 0
    status: str = "play"  # play, stood, bust, rescue


def simulate(shoe: SpanishShoe, rules: Rules, rounds: int, seed: int = 0, game: Game | None = None) -> SimulationResult:
    """Play ``rounds`` rounds with the engine's optimal decisions (``game``: an already solved
    :class:`Game` of ``shoe`` and ``rules``, else one is solved here)."""
    if game is None:
        game = Game(shoe, rules)
        game.solve()
    if rules.other_players and rules.super_bonus():
        raise InputError("the simulation deals one player: leave out the other players' envy bonus (§ 551.6(h))")
    scale = lcm(2, rules.super_bonus().denominator)
    total = 0
    total_sq = 0
    for result in simulate_rounds(shoe, rules, rounds, seed, game):
        x = result * scale
        if x.denominator != 1:
            raise AssertionError("internal: a result is not a whole number of 1/scale units")
        total += x.numerator
        total_sq += x.numerator * x.numerator
    return SimulationResult(rounds, Fraction(total, scale), Fraction(total_sq, scale * scale))


def simulate_rounds(shoe: SpanishShoe, rules: Rules, rounds: int, seed: int, game: Game) -> Iterator[Fraction]:
    """Each of ``rounds`` rounds' net result per unit, dealt from ``seed``, the player taking
    ``game``'s decisions (its policy: the composition-dependent best, or the basic chart; split
    hands by the post-split strategy, to the number of hands the engine chose)."""
    from exactodds.blackjack.distribution import split_limit

    deal = _Dealer([t for t, k in shoe.types() for _ in range(k)], seed)
    limits: dict[tuple[CardType, CardType, CardType], int] = {}
    decisions: dict[tuple[CardType, CardType, CardType], dict[CardType, str]] = {}

    def first_split_action(up: CardType, first: CardType, c: CardType, pair: CardType) -> str:
        return _split_action(game, up[0], first[0], _counts([first, c]), 0)

    for _ in range(rounds):
        deal.new_round()
        c1, up, c2, hole = deal(), deal(), deal(), deal()
        bj_dealer = {up[0], hole[0]} == {1, 10}
        if {c1[0], c2[0]} == {1, 10}:
            result = (Fraction(0) if bj_dealer and not rules.blackjack_beats_dealer_blackjack
                      else rules.blackjack_payout())
        elif bj_dealer:
            result = Fraction(-1)
        else:
            key = (up, min(c1, c2), max(c1, c2))
            if key not in decisions:  # the action by the card dealt first (a pair of two suits whose
                # order changes the split: :meth:`~exactodds.blackjack.engine.Decision.by_order`)
                decisions[key] = {first: act for first, _, act in game.decide(*key).by_order()}
            taken = decisions[key]
            action = taken.get(c1, next(iter(taken.values())))
            dealt = (up, c1, c2)
            if action == "split" and dealt not in limits:  # the number of hands for this order (§ 551.12(c))
                limits[dealt] = split_limit(game, *dealt)
            result = _round(game, rules, up, hole, c1, c2, action, deal, first_split_action, limits.get(dealt))
        yield result


def _round(game: Game, rules: Rules, up: CardType, hole: CardType, c1: CardType, c2: CardType, action: str,
           deal: Callable[[], CardType], first_split_action: Callable[[CardType, CardType, CardType, CardType], str],
           limit: int | None = None) -> Fraction:
    """One round after the peek found no dealer Blackjack (§ 551.8(e)): the player's hands, then
    the dealer's (§ 551.13), then settlement (§ 551.6)."""
    if action == "surrender":
        return Fraction(-1, 2)
    hands: list[_Hand] = []
    if action == "split":
        r = c1[0]
        if limit is None:
            limit = rules.max_hands if (r != 1 or rules.resplit_aces) else 2
        pending = [c1, c2]
        count = 2
        while pending:
            first = pending.pop(0)
            c = deal()
            if c[0] == r and count < limit:  # resplit (§ 551.12(c))
                pending += [c]
                count += 1
                pending.insert(0, first)
                continue
            hand = _Hand([first, c], True)
            _play(game, rules, up, hand, first_split_action(up, first, c, c2 if first is c1 else c1), deal)
            hands.append(hand)
    else:
        hand = _Hand([c1, c2], False)
        _play(game, rules, up, hand, action, deal)
        hands.append(hand)
    live = [h for h in hands if h.status == "stood"]
    dealer_total = 0
    if live:
        dealer = [up, hole]
        while True:
            d_hard = sum(v for v, _ in dealer)
            dealer_total, soft = hand_total(d_hard, any(v == 1 for v, _ in dealer))
            if dealer_total > 17 or (dealer_total == 17 and not (soft and rules.hit_soft_17)):
                break
            dealer.append(deal())
    result = Fraction(0)
    for h in hands:
        bet = 1 << h.doublings
        if h.status == "bust":
            result -= bet
        elif h.status == "rescue":
            result -= 1 if h.doublings <= 1 or rules.rescue_after_redouble == "all" else bet // 2
        else:
            total, _ = hand_total(sum(v for v, _ in h.cards), any(v == 1 for v, _ in h.cards))
            if total == 21 and len(h.cards) >= 3:  # § 551.6(b)(4): beats any dealer total
                if rules.player_21_wins or dealer_total != 21:
                    result += bet * _bonus_pay(h.cards, up, rules, h.doublings, h.split)
            elif dealer_total > 21 or dealer_total < total:
                result += bet
            elif dealer_total == total:
                if total == 21 and rules.split_21_beats_dealer_21:
                    result += bet
            else:
                result -= bet
    return result


def _play(game: Game, rules: Rules, up: CardType, hand: _Hand, action: str, deal: Callable[[], CardType]) -> None:
    """Play one hand from its first decision ``action`` to its end."""
    solver = game.solver(up[0])
    while True:
        if action in ("hit", "double", "redouble"):
            hand.cards.append(deal())
            if action != "hit":
                hand.doublings += 1
        elif action == "rescue":  # § 551.11(d)
            hand.status = "rescue"
            return
        else:  # stand
            hand.status = "stood"
            return
        hard = sum(v for v, _ in hand.cards)
        if hard > 21:
            hand.status = "bust"
            return
        if hand.split:
            action = _split_action(game, up[0], hand.cards[0][0], _counts(hand.cards), hand.doublings)
            continue
        action = engine_choice(solver, _counts(hand.cards), hand.doublings)  # the policy's, if any


def _split_action(game: Game, up: int, pair: int, hand: tuple[int, ...], doublings: int) -> str:
    """A split hand's action by the post-split strategy (module doc)."""
    return engine_choice(game.solver(up, pair, 0), hand, doublings)


__all__ = ["SimulationResult", "simulate", "simulate_rounds"]
