"""Exact expected values of the main Spanish 21 wager (58 Pa. Code § 551), composition-dependent.

Every probability and value is a :class:`~fractions.Fraction`; nothing is rounded.

Method
------
*Peek.* § 551.8(e): with an A, K, Q or J up, the dealer checks for Blackjack before any
decision; a dealer Blackjack settles every hand (a player Blackjack wins 3 to 2, § 551.6(b)(3);
any other hand loses its original wager only, § 551.6(c), § 551.9(a)(2), § 551.11(c),
§ 551.12(d)). Every player decision is therefore made knowing the dealer has no Blackjack. The
engine values a decision node by ``E[payoff · 1{no dealer Blackjack} | cards seen]`` (the
*unnormalised* value): the dealer's hole card is drawn, by exchangeability, after the
player's cards, and the Blackjack hole cards are left out of the dealer's distribution
(:func:`dealer_outcomes`). All actions at a node share the factor P(no Blackjack | cards seen),
so the best action is the same as with the conditional values, and the round's value is the
unnormalised value plus the Blackjack branch.

*Dealer.* The dealer's final-total weights for every composition a solver's hands can leave
are computed in one batch per up card by :class:`~exactodds.blackjack.dealer.DealerTable`
(dealer hands as compositions, exact by residues and a proven bound) and shared by every
:class:`Game` on the same shoe and dealer rule (:func:`dealer_table`).

*Hands.* A hand is valued for its exact composition (the cards of the hand and the up card
removed from the shoe): stand, hit, double (one card, then stand, rescue § 551.11(d), or
redouble when the rules allow), surrender (§ 551.9, first two cards, not after a split).

*Suits.* Only a three-card 6-7-8 or 7-7-7 reads suits (§ 551.6(g)(1)-(4), (h)), and a
three-card 21 ends the hand, so suits enter only at a two-card hand about to draw: its hit
(and, with bonuses on doubled hands, its double) value gets the exact bonus for each suit of
the completing card, with the suits of the player's cards and the up card removed.

*Splits*, exactly, for a stated post-split strategy (``rules.post_split``: ``cdz`` the
unsplit hand's decision for the hand's cards, ``cdp1`` the first split hand's best reused,
``cdp`` the best by number of pair cards removed) and the number of hands chosen at the split
(``rules.resplit_optional``): :meth:`Game.split_value` sums over the pattern of second cards,
each hand valued for its own shoe (:class:`_SplitValues`; the method of E. Farmer's analysis of
splitting, written here from the identities). Equal to the full game tree of
:mod:`exactodds.blackjack.bruteforce` playing the same strategy on small shoes, to the last
digit (tests/test_blackjack.py). The suit part of a split 6-7-8 / 7-7-7 bonus (§ 551.6(g)(1)-(4))
is in that sum too: a suit-aware first decision of the split hand, each hand's role (the first
pair card's hand finishes first, the second's is dealt last, resplit hands hold random-suit pair
cards) and the suits averaged given the ranks (:meth:`_SplitValues._suit_correction`); with
resplits each order of a pair of two suits is valued (:meth:`Game.decide`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from operator import mul, sub
from typing import Final

from exactodds.blackjack.dealer import DealerTable, hand_total
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SPADES, SUITED, CardType, SpanishShoe, Values
from exactodds.errors import InputError
from exactodds.game.cards import falling_factorial

ZERO: Final = Fraction(0)
ONE: Final = Fraction(1)
POINTS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
"""Point value of each value index (aces 1)."""
HAND_POINTS_MAX: Final = 31
"""Most points (aces as 1) a hand can hold when it stops: 20 before its last card, plus 10."""

Dist = tuple[Fraction, ...]
"""Dealer outcome weights: final 17, 18, 19, 20, 21, bust."""

ClassKey = tuple[object, ...]
"""A total-dependent decision class (see :func:`decision_class`)."""

Policy = Callable[[ClassKey], tuple[str, ...]]
"""A fixed strategy: the actions of a decision class, best first (the first available is taken)."""

Chooser = Callable[[Values, int, Mapping[str, int]], str]
"""A split hand's post-split strategy: the action taken at a node (hand, doublings) among its
available actions (their numerators given, first-listed on a tie)."""


def decision_class(up: int, hand: Values, doublings: int, split: bool) -> ClassKey:
    """The total-dependent class of a hand of three or more cards, or of a doubled hand:
    ``("multi", up, soft, total, cards (6 = six or more), split)`` or
    ``("doubled", up, soft, total, doublings)``."""
    hard = sum((i + 1) * c for i, c in enumerate(hand))
    total, soft = hand_total(hard, hand[0] > 0)
    if doublings:
        return ("doubled", up, soft, total, doublings)
    return ("multi", up, soft, total, min(sum(hand), 6), split)


def two_card_class(up: int, a: int, b: int, split: bool) -> ClassKey:
    """The class of a two-card hand: ``("two", up, "pair"|"soft"|"hard", value-or-total, split)``."""
    if a == b:
        return ("two", up, "pair", a, split)
    hard = a + b
    total, soft = hand_total(hard, 1 in (a, b))
    return ("two", up, "soft" if soft else "hard", total, split)


def choose(acts: Mapping[str, Fraction | int], ranking: tuple[str, ...] | None) -> str:
    """The action taken: the first of ``ranking`` available, else the best value."""
    if ranking:
        for a in ranking:
            if a in acts:
                return a
    return max(acts, key=lambda a: acts[a])


def max_of(acts: Mapping[str, Fraction], ranking: tuple[str, ...] | None) -> Fraction:
    """The value of the action taken (:func:`choose`)."""
    return acts[choose(acts, ranking)]


def no_blackjack(rem: Values, up: int) -> Fraction:
    """P(the hole card does not give the dealer Blackjack) for the cards left (§ 551.8(e))."""
    n = sum(rem)
    if up == 1:
        return Fraction(n - rem[9], n)
    if up == 10:
        return Fraction(n - rem[0], n)
    return ONE


@cache
def _falling(n: int, floor: int) -> int:
    """n! / floor! (1 when n == floor; below the floor the shared denominator would be wrong)."""
    if n < floor:
        raise InputError("internal: a composition fell below the denominator floor")
    return 1 if n == floor else n * _falling(n - 1, floor)


def dealer_table(shoe: Values, up: int, h17: bool, floor: int) -> DealerTable:
    """The :class:`~exactodds.blackjack.dealer.DealerTable` of the shoe ``shoe`` less the up card
    ``up``, shared by every :class:`Game` on that shoe (a basic-strategy solve, a rule change
    with the same dealer rule); at most :data:`TABLES_KEPT` are kept."""
    key = (shoe, up, h17, floor)
    got = _TABLES.get(key)
    if got is None:
        if len(_TABLES) >= TABLES_KEPT:
            _TABLES.pop(next(iter(_TABLES)))
        got = _TABLES[key] = DealerTable(_sub(shoe, up), up, h17, floor)
    return got


TABLES_KEPT: Final = 40
_TABLES: dict[tuple[Values, int, bool, int], DealerTable] = {}


def dealer_outcomes(rem: Values, up: int, h17: bool) -> Dist:
    """``E[1{dealer ends on t} · 1{no dealer Blackjack}]`` for t = 17..21 and bust.

    ``rem`` holds the cards the hole card and the draws come from; with an ace (10) up a
    10-value (ace) hole card is excluded, so the weights add up to P(no Blackjack)
    (§ 551.8(e), § 551.13(b)). The dealer draws to 17 and stands on every 17 (or hits soft 17).

    >>> from exactodds.blackjack.shoe import SpanishShoe
    >>> d = dealer_outcomes(SpanishShoe.standard(1).remove((1, -1)).values, 1, False)
    >>> sum(d) == 1 - Fraction(12, 47)
    True
    """
    nums, den = DealerTable(rem, up, h17, 0).numerators(rem)
    return tuple(Fraction(x, den) for x in nums)


@cache
def _removed(pair: int, extra: int = 0) -> tuple[Values, ...]:
    """The cards a solver's standing hands take from the shoe less the up card: every hand of
    :func:`_hands` (holding a ``pair`` card, with the pair's other card and ``extra`` more pair
    cards, for a split hand)."""
    if not pair:
        return _hands()
    more = 1 + extra
    return tuple(h[:pair - 1] + (h[pair - 1] + more,) + h[pair:] for h in _hands() if h[pair - 1])


@cache
def _dealt(cap: Values, pair: int, extra: int) -> tuple[Values, ...]:
    """:func:`_removed` less the hands the shoe ``cap`` cannot deal."""
    removed = _removed(pair, extra)
    if min(cap) < 22 + extra:  # a hand of 21 aces, the pair's other card and the extra pair cards
        # exceed the shoe: only the hands it can deal
        removed = tuple(x for x in removed if all(a <= b for a, b in zip(x, cap)))
    return removed


def _hands() -> tuple[Values, ...]:
    """Every hand composition of two or more cards and at most 21 hard points (those that stand)."""
    out: list[Values] = []

    def rec(i: int, hand: tuple[int, ...], points: int) -> None:
        if i == 10:
            if sum(hand) >= 2:
                out.append(hand)
            return
        k = 0
        while points + k * (i + 1) <= 21:
            rec(i + 1, hand + (k,), points + k * (i + 1))
            k += 1

    rec(0, (), 0)
    return tuple(out)


def _add(values: Values, v: int) -> Values:
    return values[:v - 1] + (values[v - 1] + 1,) + values[v:]


def _sub(values: Values, v: int) -> Values:
    return values[:v - 1] + (values[v - 1] - 1,) + values[v:]


SCALE: Final = 2
"""Common factor of the solver's integer numerators: the 3-to-2 pays (§ 551.6(g)(5)) stay whole."""


class HandSolver:
    """Values of one hand's decisions against one up card, the hand's cards drawn from ``base``.

    ``base`` is the shoe less the up card (and, for a split hand, less the pair's other
    card ``pair``); a hand is a tuple of value counts; the cards left are ``base - hand``.

    Every value is an integer numerator over ``SCALE · n!/floor!`` (``n``: the cards left):
    a draw's values over ``(n−1)!/floor!`` weighted by the card counts land on ``n!/floor!``
    without a division, so the recursion runs in integers (:meth:`denominator`).
    """

    def __init__(self, base: Values, up: int, rules: Rules, split: bool, floor: int = 0,
                 policy: Policy | None = None, dealer: DealerTable | None = None, pair: int = 0,
                 extra: int = 0, chooser: Chooser | None = None) -> None:
        self.base, self.up, self.rules, self.split, self.floor = base, up, rules, split, floor
        self.policy, self.chooser = policy, chooser
        self.locked = split and pair == 1 and not rules.hit_split_aces
        """Split aces that take one card and stand (§ 551.12(c) as varied: no draw on split aces)."""
        self.size = sum(base)
        self.dealer = dealer if dealer is not None else DealerTable(base, up, rules.hit_soft_17, floor)
        self.memo: dict[tuple[Values, int], int] = {}
        self.node_actions: dict[tuple[Values, int], dict[str, int]] = {}
        """Numerators of every action of each decision node (over :meth:`denominator`); under a
        fixed strategy only a split hand's first decision (its suit bonus reads it): memory."""
        self.dealer.request_removed(_dealt(self.dealer.base, pair, extra), [("hands", pair, extra)])

    def rem(self, hand: Values) -> Values:
        """The cards left."""
        return tuple(b - h for b, h in zip(self.base, hand))

    def denominator(self, hand: Values) -> int:
        """The denominator of the numerators of ``hand``'s node."""
        return SCALE * _falling(self.size - sum(hand), self.floor)

    def fraction(self, hand: Values, numerator: int) -> Fraction:
        """A numerator of ``hand``'s node as a value."""
        return Fraction(numerator, self.denominator(hand))

    def _no_blackjack(self, rem: Values) -> int:
        """P(no dealer Blackjack) over ``n!/floor!`` (§ 551.8(e))."""
        n = sum(rem)
        if self.up == 1:
            return (n - rem[9]) * _falling(n - 1, self.floor)
        if self.up == 10:
            return (n - rem[0]) * _falling(n - 1, self.floor)
        return _falling(n, self.floor)

    def stand(self, hand: Values, doublings: int, rem: Values | None = None, hard: int | None = None) -> int:
        """Value of standing, ``2**doublings`` units wagered (§ 551.6(b),(c),(f),(g));
        ``rem`` and ``hard`` (the cards left, the hand's hard points) when the caller has them."""
        rules = self.rules
        if hard is None:
            hard = sum(map(mul, POINTS, hand))
        total, _ = hand_total(hard, hand[0] > 0)
        ncards = sum(hand)
        d, scale = self.dealer.raw(self.rem(hand) if rem is None else rem)
        bet = 1 << doublings
        if total == 21 and ncards >= 3:
            pay = SCALE
            if rules.bonus_21_cards and ncards >= 5 and (doublings == 0 or rules.bonus_on_doubled):
                pay = 3 if ncards == 5 else 4 if ncards == 6 else 6  # 3:2, 2:1, 3:1 (§ 551.6(g)(5)-(7))
            if rules.player_21_wins:  # § 551.6(b)(4)
                return bet * pay * sum(d) * scale
            return bet * pay * (sum(d) - d[4]) * scale  # standard: 21 pushes a dealer 21
        if total == 21 and rules.split_21_beats_dealer_21:
            return SCALE * bet * sum(d) * scale
        t = total - 17
        if t < 0:
            return SCALE * bet * (d[5] - d[0] - d[1] - d[2] - d[3] - d[4]) * scale
        return SCALE * bet * (d[5] + sum(d[:t]) - sum(d[t + 1:5])) * scale

    def _draw(self, hand: Values, rem: Values, doublings: int, hard: int) -> int:
        """The numerator of drawing one card to ``hand`` (``hard`` points): each card's node, a
        card that busts the hand valued on the spot (the wager lost unless the dealer has Blackjack)."""
        acc = 0
        value, memo = self.value, self.memo
        room = 21 - hard  # the highest value index that does not bust
        for i in range(min(room, 10)):
            c = rem[i]
            if c:
                child = hand[:i] + (hand[i] + 1,) + hand[i + 1:]
                got = memo.get((child, doublings))
                if got is None:
                    got = value(child, doublings, hard + i + 1, rem[:i] + (c - 1,) + rem[i + 1:])
                acc += c * got
        if room < 10:
            n1 = sum(rem) - 1
            busting = sum(rem[room:])
            if self.up == 1:  # the hole card may not be a 10 (§ 551.8(e))
                lost = (busting * (n1 - rem[9]) + rem[9]) * _falling(n1 - 1, self.floor)
            elif self.up == 10:
                lost = (busting * (n1 - rem[0]) + (rem[0] if room == 0 else 0)) * _falling(n1 - 1, self.floor)
            else:
                lost = busting * _falling(n1, self.floor)
            acc -= SCALE * (1 << doublings) * lost
        return acc

    def can_double(self, hand: Values) -> bool:
        """§ 551.11(a): first two cards (of a hand or split pair) unless any number is allowed;
        a first-two-card double only on the totals the rules allow (``double_totals``, ``double_soft``)."""
        rules = self.rules
        if self.split and not rules.double_after_split:
            return False
        if sum(hand) != 2:
            return rules.double_any_cards
        total, soft = hand_total(hand[0] + sum(map(mul, POINTS[1:], hand[1:])), hand[0] > 0)
        return rules.double_total_allowed(total, soft)

    def open_actions(self, hand: Values, doublings: int, hard: int) -> list[str]:
        """The actions open at the node ``(hand, doublings)`` of a hand of ``hard`` points (21 or
        less), in the engine's order (a tie goes to the first listed): stand; before any double,
        hit and double (§ 551.11(a)); after one, rescue (§ 551.11(d)) and redouble."""
        total, _ = hand_total(hard, hand[0] > 0)
        rules = self.rules
        names = ["stand"]
        if doublings == 0:
            if total < 21 and not (self.locked and sum(hand) == 2):
                names.append("hit")
                if self.can_double(hand):
                    names.append("double")
        else:
            if rules.rescue_loss(doublings) is not None:
                names.append("rescue")
            if doublings <= rules.redoubles and total < 21:
                names.append("redouble")
        return names

    def action_values(self, hand: Values, doublings: int, names: list[str], hard: int, rem: Values) -> dict[str, int]:
        """The unnormalised value of each action ``names`` at the node ``(hand, doublings)``
        (its ``hard`` points, the cards ``rem`` left)."""
        acts: dict[str, int] = {}
        for name in names:
            if name == "stand":
                acts[name] = self.stand(hand, doublings, rem, hard)
            elif name == "rescue":
                loss = self.rules.rescue_loss(doublings)
                assert loss is not None
                acts[name] = -SCALE * loss * self._no_blackjack(rem)
            else:  # hit, double, redouble: one more card, 0, 1 or one more doubling
                acts[name] = self._draw(hand, rem, 0 if name == "hit" else doublings + 1, hard)
        return acts

    def value(self, hand: Values, doublings: int = 0, hard: int | None = None, rem: Values | None = None) -> int:
        """Best value of a hand holding ``hand``; ``doublings`` > 0 is a doubled hand that has
        just received its card (stand, rescue or redouble); ``hard`` and ``rem`` (its hard points,
        the cards left) when the caller has them."""
        key = (hand, doublings)
        got = self.memo.get(key)
        if got is not None:
            return got
        if hard is None:
            hard = sum(map(mul, POINTS, hand))
        if rem is None:
            rem = tuple(map(sub, self.base, hand))
        if hard > 21:
            out = -SCALE * (1 << doublings) * self._no_blackjack(rem)
        else:
            names = self.open_actions(hand, doublings, hard)
            ranking = None
            if self.policy is not None and len(names) > 1:
                ranking = self.policy(decision_class(self.up, hand, doublings, self.split))
            keep = len(names) > 1 and (self.policy is None or (self.split and sum(hand) == 2))
            if ranking and not keep:  # a fixed strategy: only the action it takes is valued
                taken = next((a for a in ranking if a in names), None)
                if taken is not None:
                    names = [taken]
            acts = self.action_values(hand, doublings, names, hard, rem)
            if ranking is None and self.chooser is not None and len(acts) > 1:
                out = acts[self.chooser(hand, doublings, acts)]
            else:
                out = acts[choose(acts, ranking)]
            if keep:
                self.node_actions[key] = acts
        self.memo[key] = out
        return out

    def actions(self, hand: Values, locked: bool = False) -> dict[str, Fraction]:
        """Unnormalised value of each action on a two-card hand (no split, surrender or suit bonus);
        ``locked``: a split ace that may not draw (stand only)."""
        hard = sum((i + 1) * c for i, c in enumerate(hand))
        total, _ = hand_total(hard, hand[0] > 0)
        rem = self.rem(hand)
        out = {"stand": self.stand(hand, 0, rem, hard)}
        if total < 21 and not locked:
            out["hit"] = self._draw(hand, rem, 0, hard)
            if self.can_double(hand):
                out["double"] = self._draw(hand, rem, 1, hard)
        den = self.denominator(hand)
        return {a: Fraction(v, den) for a, v in out.items()}


def completes(a: int, b: int) -> int | None:
    """The value completing a 6-7-8 or 7-7-7 from two cards, if any (§ 551.6(g)(1)-(4))."""
    pair = (min(a, b), max(a, b))
    return {(6, 7): 8, (6, 8): 7, (7, 8): 6, (7, 7): 7}.get(pair)


def suit_bonus(c1: CardType, c2: CardType, up: CardType, left: SpanishShoe, rules: Rules, split: bool,
               doubled: bool) -> Fraction:
    """Extra unnormalised value of drawing one card to ``c1, c2``: the 6-7-8 / 7-7-7 bonus above
    the 1-to-1 win, for each suit of the completing card (``left`` is the shoe after the known
    cards). A doubled hand gets it only with ``bonus_on_doubled``, never the super bonus."""
    need = completes(c1[0], c2[0])
    if need is None or not rules.bonus_678_777 or (doubled and not rules.bonus_on_doubled):
        return ZERO
    return _suit_extra(c1, c2, up[0], left.values, left.suits[need], rules, split, doubled)


def _bonus_part(first: CardType, card: CardType, up: int, values: Values, need_suits: Sequence[Fraction | int],
                rules: Rules, doubled: bool) -> Fraction:
    """The suit bonus of a split hand ``first, card`` drawing one card (hit, or double when
    § 551.6(g) as varied pays the bonus on doubled hands; never the super bonus)."""
    if doubled and not rules.bonus_on_doubled:
        return ZERO
    return _suit_extra(first, card, up, values, need_suits, rules, True, doubled)


def _suit_extra(c1: CardType, c2: CardType, up: int, values: Values, need_suits: Sequence[Fraction | int],
                rules: Rules, split: bool, doubled: bool) -> Fraction:
    """:func:`suit_bonus` from counts: ``values`` the shoe's value counts, ``need_suits`` the suit
    counts of the completing value (§ 551.6(g)(1)-(4), (h)); expected counts (fractions) give the
    expected bonus, the bonus being linear in them for given value counts."""
    need = completes(c1[0], c2[0])
    assert need is not None
    if values[need - 1] == 0:
        return ZERO
    twice: Fraction | int = 0  # twice the extra odds (mixed 3:2 → 1, suited 2:1 → 2, spades 3:1 → 4), by card
    supers: Fraction | int = 0  # the completing cards that make a super bonus
    for s in range(4):
        k = need_suits[s]
        if not k:
            continue
        same = c1[1] == c2[1] == s
        twice += k * (4 if same and s == SPADES else 2 if same else 1)
        if same and c1[0] == c2[0] == 7 and up == 7 and not split and not doubled:
            supers += k
    n = sum(values)
    rest = _sub(values, need)
    m = max(n - 1, 1)  # (the completing card the last: no hole card to peek at, never reached)
    clear = m - rest[9] if up == 1 else m - rest[0] if up == 10 else m  # P(no dealer Blackjack) · m
    out = Fraction(twice * clear * (2 if doubled else 1), 2 * n * m)
    if supers:
        out += rules.super_bonus() * Fraction(supers * clear * (2 if doubled else 1), n * m)
    return out


@dataclass
class Decision:
    """The unnormalised action values of one initial deal (player's two cards, the up card)."""

    up: CardType
    cards: tuple[CardType, CardType]
    actions: dict[str, Fraction]
    best: str
    value: Fraction
    """The round's value: best action (no dealer Blackjack) plus the dealer-Blackjack branch."""


@dataclass
class GameResult:
    """The main wager's exact expected return per unit and how it is made up."""

    shoe: SpanishShoe
    rules: Rules
    expected: Fraction
    super_bonus_probability: Fraction
    deals: dict[tuple[CardType, CardType, CardType], tuple[Fraction, Decision]] = field(default_factory=dict)
    envy: Fraction = ZERO
    """The part of ``expected`` paid for the other players' super bonuses (§ 551.6(h)): by
    linearity, other players × the $50 envy payout per unit × each one's chance of a super
    bonus, which by exchangeability (same strategy, cards unseen) is the player's own."""

    @property
    def own_hands(self) -> Fraction:
        """The expected return of the player's own hands: ``expected`` less :attr:`envy`."""
        return self.expected - self.envy


class Game:
    """The composition-dependent analysis of one shoe under one rule set."""

    def __init__(self, shoe: SpanishShoe, rules: Rules, policy: Policy | None = None) -> None:
        self.shoe, self.rules, self.policy = shoe, rules, policy
        points = sum((i + 1) * c for i, c in enumerate(shoe.values))
        if points <= HAND_POINTS_MAX * (rules.max_hands + 1):
            raise InputError(f"a shoe of {points} points could run out within a round "
                             f"(needs more than {HAND_POINTS_MAX * (rules.max_hands + 1)})")
        self.solvers: dict[tuple[int, int, int], HandSolver] = {}
        self.split_context: tuple[CardType, tuple[CardType, CardType], SpanishShoe] | None = None
        self.split_memos: dict[tuple[object, ...], tuple[dict[tuple[int, object], tuple[Fraction, Fraction]],
                                                         dict[tuple[int, int, object], Fraction],
                                                         dict[tuple[int, int, object], Fraction]]] = {}
        """The memos of :class:`_SplitValues` by up card, pair value and shoe left (one up card's)."""
        self.suit_corrections: dict[tuple[object, ...], Fraction] = {}
        """:meth:`_SplitValues._suit_correction` by what it reads."""
        self.bonus_parts: dict[tuple[object, ...], Fraction] = {}
        """The suit bonus of a split hand's draw (:func:`_bonus_part`) by what it reads."""
        self.split_decisions: dict[tuple[object, ...], str] = {}
        """The suit-aware first decision of a split hand (:meth:`_SplitValues._split_decision`)."""
        self.floor = max(0, shoe.size - 50 - 2 * max(0, rules.max_hands - 2))
        """Fewest cards a hand solver's shoe can hold: up card, pair, 2·(max_hands − 2) more pair cards,
        a hand of at most 21 cards,
        a dealer hand of at most 26 (the dealer's integer numerators share N!/floor!)."""

    def solver(self, up: int, split_value_: int = 0, extra: int = 0) -> HandSolver:
        """The hand solver for up card ``up`` (and, for a split hand, pair value ``split_value_``
        with ``extra`` more pair cards than the pair out of the shoe); a split hand plays the
        post-split strategy of the rules (:meth:`_chooser`)."""
        key = (up, split_value_, extra)
        if key not in self.solvers:
            base = _sub(self.shoe.values, up)
            for _ in range(1 + extra if split_value_ else 0):
                base = _sub(base, split_value_)
            table = dealer_table(self.shoe.values, up, self.rules.hit_soft_17, self.floor)
            if not any(k[0] == up for k in self.solvers):  # every hand this up card's solvers stand on, one batch
                splits = self._splits(up)
                table.request_removed((x for r, extra in splits for x in _dealt(table.base, r, extra)),
                                      [("hands", r, extra) for r, extra in splits])
            chooser = self._chooser(up, split_value_, extra) if split_value_ else None
            self.solvers[key] = HandSolver(base, up, self.rules, bool(split_value_), self.floor, self.policy,
                                           table, split_value_, extra, chooser)
        return self.solvers[key]

    def _splits(self, up: int) -> list[tuple[int, int]]:
        """The hand solvers a solve can ask for with up card ``up``: ``(0, 0)`` for unsplit hands,
        ``(pair, extra)`` for split hands (:meth:`solver`)."""
        left = _sub(self.shoe.values, up)
        out = [(0, 0)]
        if self.rules.max_hands >= 2:
            for r in range(1, 11):
                most = self.rules.max_hands if (r != 1 or self.rules.resplit_aces) else 2
                # the pattern sum reads X(i, j) and N(i, j) down to the shoe less i + j ≤ 2·most − 3
                # extra pair cards (:class:`_SplitValues`), at most the pair cards left
                out.extend((r, extra) for extra in range(min(2 * most - 3, left[r - 1] - 2) + 1))
        return out

    def _chooser(self, up: int, pair: int, extra: int) -> Chooser | None:
        """The post-split strategy of a split hand (``rules.post_split``, § 551.12(b),(c)):
        ``cdz`` takes at each node the action best for the same cards as an unsplit hand (the
        pre-split decision), ``cdp1`` the action best for the first split hand (no extra pair
        card out), ``cdp`` the best for its own shoe (None: each node's best)."""
        mode = self.rules.post_split
        if mode == "cdp" or (mode == "cdp1" and extra == 0):
            return None
        ref = self.solver(up) if mode == "cdz" else self.solver(up, pair, 0)

        def pick(hand: Values, doublings: int, acts: Mapping[str, int]) -> str:
            ref.value(hand, doublings)
            known = ref.node_actions.get((hand, doublings))
            if known is None:  # one action there: the same one here
                return next(iter(acts))
            return max(acts, key=lambda a: known[a])

        return pick

    def _release(self, up: int) -> None:
        """Free the node values of up card ``up``'s solvers once its deals are valued (memory:
        :meth:`HandSolver.value` recomputes a node, and records its actions again, if asked);
        the recorded actions too, except optimal play's unsplit hands and first split hands
        (extra 0), which the chart, the post-split strategies and the simulation read."""
        for key, hs in self.solvers.items():
            if key[0] == up:
                hs.memo.clear()
                if self.policy is not None or key[2] > 0:
                    hs.node_actions.clear()
        self.split_memos.clear()
        self.suit_corrections.clear()
        self.bonus_parts.clear()
        self.split_decisions.clear()

    def split_value(self, up: CardType, p1: CardType, p2: CardType) -> Fraction:
        """Unnormalised value of splitting the pair ``p1, p2`` (§ 551.12), exactly, for the
        post-split strategy of the rules; with ``resplit_optional`` the best number of hands
        to split to (a resplit only when it is better), else always to the most allowed.

        The method (after E. Farmer's analysis of splitting): the second cards dealt to the split
        hands are, by optional skipping, distributed as the first cards of the shoe, so a round's
        pattern (how many extra pair cards ``i`` start new hands, how many hands ``j`` get a
        non-pair second card) has probability ``ff(P, i)·ff(n−P, j)/ff(n, i+j)``. Given the pattern,
        each hand's value is that of a lone hand from the shoe less the ``i`` extra pair cards
        and the other hands' ``j`` (or ``j − 1``) non-pair second cards, the other cards those
        hands draw being exchangeable with the rest. :meth:`_split_hand_values` gives those.
        """
        r, u = p1[0], up[0]
        left = self.shoe.remove(up, p1, p2)
        most = self.rules.max_hands if (r != 1 or self.rules.resplit_aces) else 2
        most = min(most, 2 + left.values[r - 1])
        limits = range(2, most + 1) if self.rules.resplit_optional else range(most, most + 1)
        self.split_context = (up, (p1, p2), left)
        values = _SplitValues(self, u, r, left.values)
        return max(values.total(limit) for limit in limits)

    def split_bonus(self, up: CardType, first: CardType, c: CardType, left: SpanishShoe, doubled: bool) -> Fraction:
        """The 6-7-8 / 7-7-7 suit bonus of a split hand ``first, c`` drawing one card (no super bonus)."""
        return suit_bonus(first, c, up, left.remove(c), self.rules, True, doubled)

    def decide(self, up: CardType, c1: CardType, c2: CardType) -> Decision:
        """Every action's value for one initial deal, and the best."""
        rules = self.rules
        left = self.shoe.remove(up, c1, c2)
        pn = no_blackjack(left.values, up[0])
        if {c1[0], c2[0]} == {1, 10}:
            bj = rules.blackjack_payout()
            value = bj * pn + (1 - pn) * (bj if rules.blackjack_beats_dealer_blackjack else ZERO)
            return Decision(up, (c1, c2), {"blackjack": bj * pn}, "blackjack", value)
        hand = _add(_add((0,) * 10, c1[0]), c2[0])
        acts = self.solver(up[0]).actions(hand)
        if "hit" in acts:
            acts["hit"] += suit_bonus(c1, c2, up, left, rules, False, False)
        if "double" in acts:
            acts["double"] += suit_bonus(c1, c2, up, left, rules, False, True)
        if rules.surrender:
            acts["surrender"] = -pn / 2
        orders: tuple[Fraction, ...] = ()
        if c1[0] == c2[0] and rules.max_hands >= 2:
            acts["split"] = self.split_value(up, c1, c2)
            if c1 != c2 and c1[0] in SUITED and rules.bonus_678_777 and rules.max_hands >= 3:
                # with resplits the first pair card's hand and the last-dealt one differ (the
                # first gets the first non-pair card): with a suit bonus the order of the pair
                # matters, and the player, who saw it, decides for each order
                orders = (acts["split"], self.split_value(up, c2, c1))
                acts["split"] = (orders[0] + orders[1]) / 2
        ranking = self.policy(two_card_class(up[0], c1[0], c2[0], False)) if self.policy else None
        best = choose(acts, ranking)
        value = acts[best]
        if orders and orders[0] != orders[1]:  # each order's best, the two orders equally likely
            value = sum((max_of({**acts, "split": v}, ranking) for v in orders), ZERO) / 2
        return Decision(up, (c1, c2), acts, best, value - (1 - pn))

    def solve(self, progress: Callable[[int, int, str], None] | None = None) -> GameResult:
        """The expected return per unit of the main wager, optimal composition-dependent play;
        ``progress(done, total, label)`` after each initial deal (the command line draws it)."""
        shoe = self.shoe
        n = shoe.size
        types = list(shoe.types())
        weights: dict[tuple[CardType, CardType, CardType], int] = {}
        for c1, k1 in types:
            s1 = shoe.remove(c1)
            for up, _ in types:
                ku = s1.count(up)
                if not ku:
                    continue
                s2 = s1.remove(up)
                for c2, _ in types:
                    k2 = s2.count(c2)
                    if k2:
                        key = (up, min(c1, c2), max(c1, c2))
                        weights[key] = weights.get(key, 0) + k1 * ku * k2
        denom = n * (n - 1) * (n - 2)
        total = ZERO
        p_super = ZERO
        deals: dict[tuple[CardType, CardType, CardType], tuple[Fraction, Decision]] = {}
        last_up = 0
        for index, (key, w) in enumerate(sorted(weights.items())):
            up, c1, c2 = key
            if up[0] != last_up:  # the deals come by up card: the last one's solvers are done
                self._release(last_up)
                last_up = up[0]
            if progress is not None:
                progress(index, len(weights), f"up card {'A' if up[0] == 1 else up[0]}")
            d = self.decide(up, c1, c2)
            p = Fraction(w, denom)
            deals[key] = (p, d)
            total += p * d.value
            if up[0] == 7 and c1 == c2 and c1[0] == 7 and d.best == "hit":
                left = shoe.remove(up, c1, c2)
                p_super += p * Fraction(left.suits[7][c1[1]], left.size)
        self._release(last_up)
        if progress is not None:
            progress(len(weights), len(weights), "done")
        envy = ZERO
        if self.rules.other_players and self.rules.super_bonus():
            envy = self.rules.other_players * self.rules.envy() * p_super
        return GameResult(shoe, self.rules, total + envy, p_super, deals, envy)


class _SplitValues:
    """The expected values of one split (up card ``up``, pair value ``pair``): ``X(a, b)``, a
    split hand whose second card may be anything, and ``N(a, b)``, one whose second card is not
    a pair card, from the shoe less ``a`` extra pair cards and ``b`` unseen non-pair cards.

    ``X(a, 0)`` and the pair-card term come from the hand solver of that shoe; removing an
    unseen card leaves an expected value unchanged (the strategy does not see it), so
    ``X(a, b−1) = v·X(a+1, b−1) + (1−v)·X(a, b)`` with ``v`` the chance that card is a pair
    card, which gives ``X(a, b)`` and likewise ``N(a, b)``.
    """

    def __init__(self, game: Game, up: int, pair: int, left: Values) -> None:
        self.game, self.up, self.pair = game, up, pair
        self.n, self.p = sum(left), left[pair - 1]
        self.left = left
        self.suits = self._suit_context()
        # memos shared by the splits of the same shoe left (the two orders of a pair read the same)
        if self.suits is None:
            context: tuple[object, ...] = (up, pair, left)
        else:
            shoe_left = self.suits[2]
            context = (self.suits[0], pair, left, tuple(shoe_left.suits[v] for v in SUITED))
        memos = game.split_memos.get(context)
        if memos is None:
            memos = game.split_memos[context] = ({}, {}, {})
        self.base_memo, self.x_memo, self.n_memo = memos
        # the rank-only values ("any") by the value counts alone: shared by the pairs of every suit
        ranks = game.split_memos.get((up, pair, left))
        if ranks is None:
            ranks = game.split_memos[(up, pair, left)] = ({}, {}, {})
        self.rank_memos = ranks

    def _role(self, role: str) -> object:
        """The key a hand's values are kept under: without suits every hand is alike; with suits
        a hand holding the first or the second pair card reads only that card's suit."""
        if self.suits is None or role in ("any", "ex"):
            return "any" if self.suits is None else role
        return ("own", self.suits[1][0 if role == "p1" else 1][1])

    def base(self, a: int, role: str = "any") -> tuple[Fraction, Fraction]:
        """``(X(a, 0), value of the hand whose second card is a pair card)`` of a hand in
        ``role`` (``p1``/``p2``: holding the first/second card of the pair, ``ex``: a pair card
        dealt to a split hand, of a random suit; ``any``: no suit read)."""
        role_key = self._role(role)
        base_memo = self.rank_memos[0] if role_key == "any" else self.base_memo
        got = base_memo.get((a, role_key))
        if got is None:
            r = self.pair
            hs = self.game.solver(self.up, r, a)
            rem = hs.rem(_add((0,) * 10, r))
            rank = self.rank_memos[0].get((a, "any"))
            if rank is None:
                total, pair_value = 0, 0
                for i, k in enumerate(rem):
                    if k > 0:
                        v = hs.value(_add(_add((0,) * 10, r), i + 1))
                        total += k * v
                        if i + 1 == r:
                            pair_value = v
                den = hs.denominator(_add(_add((0,) * 10, r), r))
                rank = self.rank_memos[0][(a, "any")] = (Fraction(total, den * sum(rem)), Fraction(pair_value, den))
            got = rank
            if role_key != "any":  # the suit part (:meth:`_suit_correction`)
                bonus, pair_bonus = ZERO, ZERO
                for i, k in enumerate(rem):
                    if k > 0 and completes(r, i + 1) is not None:
                        hand = _add(_add((0,) * 10, r), i + 1)
                        extra = self._suit_correction(hs, hand, hs.value(hand), i + 1, a, role)
                        bonus += k * extra
                        if i + 1 == r:
                            pair_bonus = extra
                got = (rank[0] + bonus / sum(rem), rank[1] + pair_bonus)
            base_memo[(a, role_key)] = got
        return got

    def _suit_context(self) -> tuple[CardType, tuple[CardType, CardType], SpanishShoe] | None:
        """The up card, the pair and the shoe left, when a split hand can make a suited 6-7-8 or
        7-7-7 (§ 551.6(g)(1)-(4)); None otherwise."""
        ctx = self.game.split_context
        if ctx is None or not self.game.rules.bonus_678_777 or self.pair not in SUITED:
            return None
        return ctx

    def _suit_configs(self, second: int, need: int, a: int,
                      role: str) -> list[tuple[int, int, Fraction, tuple[Fraction | int, ...]]]:
        """The suits of a split hand ``pair, second`` that can draw a 6-7-8 / 7-7-7, given ranks:
        ``(suit of its pair card s, suit of its second card t, P(s, t), the expected suit counts
        of the completing value in the cards left)``. Given the ranks dealt, the suits within a
        rank are exchangeable: the pair card of a resplit hand (``ex``) is any pair card of the
        shoe left, the ``a`` extra pair cards out are a random draw of those, and the second card
        is any card of its value left (§ 551.6(g)(1)-(4))."""
        assert self.suits is not None
        _, (p1, p2), left = self.suits
        r = self.pair
        pool = left.suits[r]
        count = left.values[r - 1]
        own: list[tuple[int, Fraction]]
        if role == "ex":
            own = [(s, Fraction(k, count)) for s, k in enumerate(pool) if k]
        else:
            own = [((p1 if role == "p1" else p2)[1], ONE)]
        out: list[tuple[int, int, Fraction, tuple[Fraction | int, ...]]] = []
        for s, ws in own:
            if need != r:  # second and completing values are not the pair's: their suits are the shoe's
                seconds = left.suits[second]
                for t, k in enumerate(seconds):
                    if k:
                        out.append((s, t, ws * Fraction(k, left.values[second - 1]), left.suits[need]))
                continue
            # 7-7-7 on split 7s: the second card is a pair card too; the extra pair cards out are
            # drawn from the others
            avail = list(pool)
            if role == "ex":
                avail[s] -= 1
            known = sum(avail)
            for t in range(4):
                if not avail[t]:
                    continue
                rest = avail[:t] + [avail[t] - 1] + avail[t + 1:]
                others = known - 1  # the pair cards left whose suits are unknown to the hand
                keep = count - a - 1  # of those, the ones still in the shoe
                share = Fraction(keep, others) if others else ZERO
                out.append((s, t, ws * Fraction(avail[t], known), tuple(x * share for x in rest)))
        return out

    def _suit_correction(self, hs: HandSolver, hand: Values, value: int, second: int, a: int,
                         role: str) -> Fraction:
        """The exact suit part of a split hand ``pair, second`` whose third card can make a
        6-7-8 or 7-7-7 (§ 551.6(g)(1)-(4)), from the shoe less the up card and ``2 + a`` pair
        cards: the expected value of the suit-aware decision with its bonus, less the value
        ``value`` (the rank-only decision's numerator), averaged over the suits of the hand's
        cards and of the cards left (:meth:`_suit_configs`)."""
        need = completes(self.pair, second)
        assert need is not None and self.suits is not None
        up, (p1, p2), left = self.suits
        r = self.pair
        # what the correction reads: the hand's pair card (or the pool a resplit hand's comes
        # from) and the suits left of the values it involves
        own: object = left.suits[r] if role == "ex" else (p1 if role == "p1" else p2)[1]
        key = (up, r, a, second, own, left.suits[second], left.suits[need], left.suits[r] if need == r else None)
        corrections = self.game.suit_corrections
        got = corrections.get(key)
        if got is None:
            got = corrections[key] = self._suit_correction_of(hs, hand, value, second, need, a, role)
        return got

    def _suit_correction_of(self, hs: HandSolver, hand: Values, value: int, second: int, need: int, a: int,
                            role: str) -> Fraction:
        """:meth:`_suit_correction`, computed."""
        acts = hs.node_actions.get((hand, 0))
        if not acts:
            return ZERO
        den = hs.denominator(hand)
        values = hs.rem(hand)
        # the rank part in numerators over ``den`` (small weights times integers), the bonus part
        # over small denominators: one division by the node's large denominator at the end
        rank, bonus = ZERO, ZERO
        parts = self.game.bonus_parts
        for s, t, w, need_suits in self._suit_configs(second, need, a, role):
            first, card = (self.pair, s), (second, t)
            chosen = self._split_decision(hs, hand, acts, value, first, card, need, a)
            if acts[chosen] != value:
                rank += w * (acts[chosen] - value)
            if chosen in ("hit", "double"):
                key = (first, card, self.up, values, need_suits, chosen)
                part = parts.get(key)
                if part is None:
                    part = parts[key] = _bonus_part(first, card, self.up, values, need_suits, self.game.rules,
                                                    chosen == "double")
                bonus += w * part
        return rank / den + bonus

    def _split_decision(self, hs: HandSolver, hand: Values, acts: Mapping[str, int], value: int,
                        first: CardType, card: CardType, need: int, a: int) -> str:
        """The action a split hand ``first, card`` takes at its first decision, reading suits:
        a fixed chart takes the rank-only action; otherwise the post-split strategy's reference
        hand (``cdz``: the unsplit hand from the shoe less the up card and the hand's cards;
        ``cdp1`` and ``cdp``: the same less one more pair card, by convention the lowest suit
        left, spades first) is valued with the bonus its suits get and its best taken
        (first listed on a tie), as the brute force does."""
        game = self.game
        if game.policy is not None:
            return next((name for name, v in acts.items() if v == value), "stand")
        assert self.suits is not None
        up = self.suits[0]
        mode = game.rules.post_split
        key = (up, first, card, tuple(acts), a if mode == "cdp" else 0)
        got = game.split_decisions.get(key)
        if got is None:
            got = game.split_decisions[key] = self._reference_decision(hs, hand, acts, first, card, need)
        return got

    def _reference_decision(self, hs: HandSolver, hand: Values, acts: Mapping[str, int], first: CardType,
                            card: CardType, need: int) -> str:
        """:meth:`_split_decision` for the optimal post-split strategies, computed."""
        game = self.game
        assert self.suits is not None
        up = self.suits[0]
        ref_shoe = game.shoe.remove(up, first, card)
        mode = game.rules.post_split
        if mode == "cdz":
            ref = game.solver(self.up)
        else:
            r = self.pair
            lowest = next(s for s in range(4) if ref_shoe.suits[r][s])
            ref_shoe = ref_shoe.remove((r, lowest))
            ref = hs if mode == "cdp" else game.solver(self.up, r, 0)
        ref.value(hand)
        known = ref.node_actions.get((hand, 0))
        if known is None:  # one action there: the same one here
            return next(iter(acts))
        rden = ref.denominator(hand)
        suits = ref_shoe.suits[need]

        def score(action: str) -> Fraction:
            got = Fraction(known[action], rden)
            if action in ("hit", "double"):
                got += _bonus_part(first, card, self.up, ref_shoe.values, suits, game.rules, action == "double")
            return got

        return max(acts, key=score)

    def x(self, a: int, b: int, role: str = "any") -> Fraction:
        """``X(a, b)`` of a hand in ``role``."""
        key = (a, b, self._role(role))
        memo = self.rank_memos[1] if key[2] == "any" else self.x_memo
        got = memo.get(key)
        if got is None:
            if a > self.p:
                got = ZERO
            elif b == 0:
                got = self.base(a, role)[0]
            else:
                v = Fraction(self.p - a, self.n - a - b + 1)
                got = ZERO if v == 1 else (self.x(a, b - 1, role) - v * self.x(a + 1, b - 1, role)) / (1 - v)
            memo[key] = got
        return got

    def nonpair(self, a: int, b: int, role: str = "any") -> Fraction:
        """``N(a, b)`` of a hand in ``role``."""
        key = (a, b, self._role(role))
        memo = self.rank_memos[2] if key[2] == "any" else self.n_memo
        got = memo.get(key)
        if got is None:
            if a > self.p:
                got = ZERO
            elif b == 0:
                v = Fraction(self.p - a, self.n - a)
                x, pv = self.base(a, role)
                got = ZERO if v == 1 else (x - v * pv) / (1 - v)
            else:
                v = Fraction(self.p - a, self.n - a - b)
                got = ZERO if v == 1 else (self.nonpair(a, b - 1, role)
                                           - v * self.nonpair(a + 1, b - 1, role)) / (1 - v)
            memo[key] = got
        return got

    def total(self, limit: int) -> Fraction:
        """The split's value when every pair card dealt to a split hand is resplit while there
        are fewer than ``limit`` hands: the sum over the patterns of second cards."""
        n, p = self.n, self.p
        acc = ZERO

        def prob(i: int, j: int) -> Fraction:
            return Fraction(falling_factorial(p, i) * falling_factorial(n - p, j), falling_factorial(n, i + j))

        def walk(hands: int, need: int, j: int) -> None:
            nonlocal acc
            i = hands - 2
            if need == 0:  # every hand got a non-pair second card
                acc += prob(i, j) * (self.nonpair(i, j - 1, "p1") + self.nonpair(i, j - 1, "p2")
                                     + i * self.nonpair(i, j - 1, "ex"))
            elif hands == limit:  # the other ``need`` hands take any second card
                # roles (suits): the first pair card's hand gets the first non-pair card, the
                # second pair card's hand is dealt last, the others hold extra pair cards
                if j:
                    done = self.nonpair(i, j - 1, "p1") + (j - 1) * self.nonpair(i, j - 1, "ex")
                    rest = self.x(i, j, "p2") + (need - 1) * self.x(i, j, "ex")
                else:
                    done = ZERO
                    rest = self.x(i, j, "p1") + self.x(i, j, "p2") + (need - 2) * self.x(i, j, "ex")
                acc += prob(i, j) * (done + rest)
            else:
                walk(hands + 1, need + 1, j)
                walk(hands, need - 1, j + 1)

        walk(2, 2, 0)
        return acc


def expected_return(shoe: SpanishShoe, rules: Rules) -> Fraction:
    """The main wager's exact expected return per unit (composition-dependent optimal play)."""
    return Game(shoe, rules).solve().expected


__all__ = ["ClassKey", "Decision", "Game", "Policy", "choose", "decision_class", "two_card_class", "GameResult", "HandSolver", "SUITED", "dealer_outcomes", "expected_return",
           "hand_total", "no_blackjack", "suit_bonus"]
