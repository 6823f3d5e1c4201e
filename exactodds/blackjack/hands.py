"""A hand of the blackjack family valued for its exact composition: the hand solver and the
pieces every valuation shares (decision classes, the dealer's tables by shoe, the suit bonus).

Why its own module: the round (:mod:`exactodds.blackjack.engine`: the initial deal, splits,
surrender) is built over one valuation of a hand -- stand, hit, double, rescue and redouble
(§ 551.11), every value an exact integer numerator over one falling-factorial denominator --
and this module is that valuation, below the round and never importing it. The method is
described in the engine's module docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import chain
from operator import mul, sub
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.blackjack.dealer import DealerTable, hand_total
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SPADES, CardType, SpanishShoe, Values
from exactodds.errors import InputError

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

Chooser = Callable[[Values, int, Collection[str]], str]
"""A split hand's post-split strategy: the action taken at a node (hand, doublings) among its
available actions (first-listed on a tie); it reads a reference solver, not this node's values."""


_CHILDREN: dict[Values, tuple[Values, ...]] = {}
"""A hand's ten children (one more card of each value), by hand: built once, read by every solver."""

def children(hand: Values) -> tuple[Values, ...]:
    """The hand with one more card of each value (aces first), built once per hand."""
    got = _CHILDREN.get(hand)
    if got is None:
        got = _CHILDREN[hand] = tuple(hand[:i] + (hand[i] + 1,) + hand[i + 1:] for i in range(10))
    return got


_SHAPES: dict[Values, tuple[int, int, bool, int]] = {}
""":func:`shape` by hand (a few thousand hands: every solver's nodes read it)."""


def shape(hand: Values) -> tuple[int, int, bool, int]:
    """A hand's hard points (aces 1), total, softness and number of cards (§ 551.1)."""
    got = _SHAPES.get(hand)
    if got is None:
        hard = sum(map(mul, POINTS, hand))
        total, soft = hand_total(hard, hand[0] > 0)
        got = _SHAPES[hand] = (hard, total, soft, sum(hand))
    return got


Plan = tuple[list[str], "tuple[str, ...] | None", bool]
"""What :meth:`HandSolver.value` does at a node: the actions it values, the fixed strategy's
ranking, whether it keeps every action's value."""


def decision_class(up: int, hand: Values, doublings: int, split: bool) -> ClassKey:
    """The total-dependent class of a hand of three or more cards, or of a doubled hand:
    ``("multi", up, soft, total, cards (6 = six or more), split)`` or
    ``("doubled", up, soft, total, doublings)``."""
    _, total, soft, cards = shape(hand)
    if doublings:
        return ("doubled", up, soft, total, doublings)
    return ("multi", up, soft, total, min(cards, 6), split)


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
_OPENS: dict[tuple[Rules, bool, bool], dict[tuple[Values, int], list[str]]] = {}
""":meth:`HandSolver.open_actions` by rules, split and locked split aces (they read nothing else)."""


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


@cache
def _hands() -> tuple[Values, ...]:
    """Every hand composition of two or more cards and at most 21 hard points (those that stand),
    in lexicographic order (:func:`hand_rows` as tuples)."""
    return tuple(map(tuple, hand_rows().tolist()))


def hand_rows() -> npt.NDArray[np.int64]:
    """:func:`_hands` as the rows of an array, built by array operations one value at a time
    (each partial hand followed by its children with 0, 1, ... of the next value: the rows stay
    in lexicographic order; the recursion over 15 thousand partial hands cost 0.01 s a solve)."""
    rows = np.zeros((1, 0), dtype=np.int64)
    points = np.zeros(1, dtype=np.int64)
    for v in range(1, 11):
        most = (21 - points) // v  # the counts of v that keep the hard points at most 21
        reps = most + 1
        parent = np.repeat(np.arange(len(rows)), reps)
        count = np.arange(len(parent)) - np.repeat(np.cumsum(reps) - reps, reps)
        rows = np.column_stack([rows[parent], count])
        points = points[parent] + v * count
    out: npt.NDArray[np.int64] = rows[rows.sum(axis=1) >= 2]
    return out


def as_rows(hands: Collection[Values]) -> npt.NDArray[np.int64]:
    """Hands (value counts) as the rows of an array."""
    return np.fromiter(chain.from_iterable(hands), dtype=np.int64, count=10 * len(hands)).reshape(-1, 10)


def _add(values: Values, v: int) -> Values:
    return values[:v - 1] + (values[v - 1] + 1,) + values[v:]


def _sub(values: Values, v: int) -> Values:
    return values[:v - 1] + (values[v - 1] - 1,) + values[v:]


def can_double(rules: Rules, split: bool, hand: Values) -> bool:
    """§ 551.11(a): first two cards (of a hand or split pair) unless any number is allowed;
    a first-two-card double only on the totals the rules allow (``double_totals``, ``double_soft``);
    a split hand only with ``double_after_split``."""
    if split and not rules.double_after_split:
        return False
    _, total, soft, cards = shape(hand)
    if cards != 2:
        return rules.double_any_cards
    return rules.double_total_allowed(total, soft)


def open_actions(rules: Rules, split: bool, locked: bool, hand: Values, doublings: int) -> list[str]:
    """The actions open at the node ``(hand, doublings)`` of a hand of 21 points or less, in the
    engine's order (a tie goes to the first listed): stand; before any double, hit and double
    (§ 551.11(a)); after one, rescue (§ 551.11(d)) and redouble. ``locked``: split aces that take
    one card and stand."""
    _, total, _, cards = shape(hand)
    names = ["stand"]
    if doublings == 0:
        if total < 21 and not (locked and cards == 2):
            names.append("hit")
            if can_double(rules, split, hand):
                names.append("double")
    else:
        if rules.rescue_loss(doublings) is not None:
            names.append("rescue")
        if doublings <= rules.redoubles and total < 21:
            names.append("redouble")
    return names


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
                 extra: int = 0, chooser: Chooser | None = None, request: bool = True,
                 plans: dict[tuple[Values, int], Plan] | None = None) -> None:
        self.base, self.up, self.rules, self.split, self.floor = base, up, rules, split, floor
        self.policy, self.chooser = policy, chooser
        self.locked = split and pair == 1 and not rules.hit_split_aces
        """Split aces that take one card and stand (§ 551.12(c) as varied: no draw on split aces)."""
        self.size = sum(base)
        self.dealer = dealer if dealer is not None else DealerTable(base, up, rules.hit_soft_17, floor)
        self.memo: dict[tuple[Values, int], int] = {}
        self.plans: dict[tuple[Values, int], Plan] = {} if plans is None else plans
        """:meth:`_plan` by node, kept only when the caller shares it between solvers that do the same
        at every node (a fixed strategy's solvers of one up card, differing only in cards out)."""
        self.share_plans = plans is not None
        opens = _OPENS.get((rules, split, self.locked))
        if opens is None:
            if len(_OPENS) >= TABLES_KEPT:
                _OPENS.pop(next(iter(_OPENS)))
            opens = _OPENS[(rules, split, self.locked)] = {}
        self.opens = opens
        """:meth:`open_actions` by node, shared by the solvers of the same rules and kind of hand."""
        self.node_actions: dict[tuple[Values, int], dict[str, int]] = {}
        """Numerators of every action of each decision node (over :meth:`denominator`); under a
        fixed strategy only a split hand's first decision (its suit bonus reads it): memory."""
        if request:  # (else the caller asks the dealer's table for what this solver reads)
            self.dealer.request_removed(_dealt(self.dealer.base, pair, extra), [("hands", pair, extra)])

    def rem(self, hand: Values) -> Values:
        """The cards left."""
        return tuple(map(sub, self.base, hand))

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
        _, total, _, ncards = shape(hand)
        d = self.dealer.cache.get(rem) if rem is not None else None
        if d is None:
            d, scale = self.dealer.raw(self.rem(hand) if rem is None else rem)
        else:  # (the cards left: the shoe's less the hand's)
            scale = self.dealer.per_n[self.size - ncards][2]
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
        value, memo = self._value, self.memo
        room = 21 - hard  # the highest value index that does not bust
        kids = _CHILDREN.get(hand)
        if kids is None:
            kids = children(hand)
        for i in range(min(room, 10)):
            c = rem[i]
            if c:
                child = kids[i]
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
        return can_double(self.rules, self.split, hand)

    def open_actions(self, hand: Values, doublings: int, hard: int) -> list[str]:
        """The actions open at the node ``(hand, doublings)`` of a hand of ``hard`` points (21 or
        less), in the engine's order (a tie goes to the first listed): :func:`open_actions`."""
        key = (hand, doublings)
        got = self.opens.get(key)
        if got is not None:
            return got
        names = self.opens[key] = open_actions(self.rules, self.split, self.locked, hand, doublings)
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

    def _plan(self, hand: Values, doublings: int, hard: int) -> Plan:
        """What :meth:`value` does at the node ``(hand, doublings)`` of ``hard`` points (21 or
        less): the actions it values, the fixed strategy's ranking (None: the best, or the
        post-split chooser's), and whether it keeps every action's value (``node_actions``)."""
        names = self.open_actions(hand, doublings, hard)
        ranking = None
        if self.policy is not None and len(names) > 1:
            ranking = self.policy(decision_class(self.up, hand, doublings, self.split))
        two = shape(hand)[3] == 2
        keep = len(names) > 1 and (self.policy is None or (self.split and two))
        if ranking and not keep:  # a fixed strategy: only the action it takes is valued
            taken = next((a for a in ranking if a in names), None)
            if taken is not None:
                names = [taken]
        elif keep and ranking is None and self.chooser is not None and not (doublings == 0 and two):
            # a post-split strategy fixed by a reference solver: only the action it takes is
            # valued (no one reads this solver's other actions past the first decision)
            names, keep = [self.chooser(hand, doublings, names)], False
        return names, ranking, keep

    def stood_on(self, roots: Iterable[tuple[Values, int]]) -> set[Values]:
        """The hands whose standing :meth:`value` values from the nodes ``roots`` (hand, doublings):
        its walk without the values (the decisions of a fixed strategy or of a post-split
        chooser, which reads its reference solver, not this one), so that the dealer's table
        computes just those compositions in one batch (:meth:`DealerTable.request_removed`)."""
        seen: set[tuple[Values, int]] = set()
        out: set[Values] = set()
        base = self.base
        stack = list(roots)
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            hand, doublings = node
            hard = shape(hand)[0]
            if hard > 21:
                continue
            plan = self.plans.get(node) if self.share_plans else None
            if plan is None:
                plan = self._plan(hand, doublings, hard)
                if self.share_plans:
                    self.plans[node] = plan
            for name in plan[0]:
                if name == "stand":
                    out.add(hand)
                elif name != "rescue":
                    after = 0 if name == "hit" else doublings + 1
                    kids = children(hand)
                    stack.extend((kids[i], after) for i in range(min(21 - hard, 10)) if hand[i] < base[i])
        return out

    def stood_rows(self, roots: Iterable[tuple[Values, int]]) -> npt.NDArray[np.int64]:
        """:meth:`stood_on` as the rows of an array (the form the dealer's table takes,
        :meth:`DealerTable.request_array`; the compiled solver finds them as rows)."""
        return as_rows(self.stood_on(roots))

    def value(self, hand: Values, doublings: int = 0, hard: int | None = None, rem: Values | None = None) -> int:
        """Best value of a hand holding ``hand``; ``doublings`` > 0 is a doubled hand that has
        just received its card (stand, rescue or redouble); ``hard`` and ``rem`` (its hard points,
        the cards left) when the caller has them."""
        got = self.memo.get((hand, doublings))
        if got is not None:
            return got
        return self._value(hand, doublings, hard, rem)

    def _value(self, hand: Values, doublings: int, hard: int | None, rem: Values | None) -> int:
        """:meth:`value` of a node not in the memo (a draw has just looked)."""
        key = (hand, doublings)
        if hard is None:
            hard = sum(map(mul, POINTS, hand))
        if rem is None:
            rem = tuple(map(sub, self.base, hand))
        if hard > 21:
            out = -SCALE * (1 << doublings) * self._no_blackjack(rem)
        else:
            if self.share_plans:
                plan = self.plans.get(key)
                if plan is None:
                    plan = self.plans[key] = self._plan(hand, doublings, hard)
                names, ranking, keep = plan
            else:
                names, ranking, keep = self._plan(hand, doublings, hard)
            acts = self.action_values(hand, doublings, names, hard, rem)
            if len(names) == 1:  # (most nodes of a fixed strategy)
                out = acts[names[0]]
            elif ranking is None and self.chooser is not None:
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


_COMPLETES: Final = {(6, 7): 8, (7, 6): 8, (6, 8): 7, (8, 6): 7, (7, 8): 6, (8, 7): 6, (7, 7): 7}


def completes(a: int, b: int) -> int | None:
    """The value completing a 6-7-8 or 7-7-7 from two cards, if any (§ 551.6(g)(1)-(4))."""
    return _COMPLETES.get((a, b))


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
