"""The exact distribution of a round's net result under a fixed strategy (issue 26).

The engine (:mod:`exactodds.blackjack.engine`) values every decision and takes the best (or
the basic chart's first available action); its figure is the *mean* of the round's net
result. The par sheet needs the whole distribution -- the probability of each net result per
unit of the original wager (−4 … +4 by halves, and the § 551.6(g)/(h) bonus amounts) -- for the
variance, σ, volatility index and hit frequency. This module is a second walk of the round
with the engine's decisions fixed, each node carrying ``{net: weight}`` instead of a value:

* *Decisions* are the engine's: the initial one is :meth:`Game.decide`'s ``best`` (surrender,
  split, stand, hit, double), every later one the action the engine's own node takes
  (:func:`engine_choice`: the policy's ranking, the post-split chooser, else the best value,
  first-listed on a tie -- the same rule as :func:`~exactodds.blackjack.engine.choose`). A pair
  of two suits whose split is worth a different amount in each deal order (resplits and the
  6-7-8 / 7-7-7 bonus: the first pair card's hand gets the first non-pair card, the second's is
  dealt last, § 551.8(d), § 551.12(b),(c)) is played in each order with that order's action and
  number of hands, as the engine values it (:meth:`~exactodds.blackjack.engine.Decision.by_order`).
  So the mean of the distribution is the engine's expected return, exactly (a test holds it).
* *The peek* (§ 551.8(e)): the dealer's hole card is drawn, by exchangeability, after the
  player's cards, the Blackjack hole cards left out of the dealer's weights (the engine's
  unnormalised values); a dealer Blackjack settles the round first (net −1, or the player
  Blackjack's pay).
* *Unsplit hands*: the distribution of a hand's final state by its composition, memoised, in
  integer numerators over ``n!/floor!`` as the engine's values are (a draw's numerators,
  weighted by the card counts, land on the parent's denominator with no division).
* *Suits* (§ 551.6(g)(1)-(4), (h)): a three-card 6-7-8 / 7-7-7 is drawn by card type (value
  and suit) from the two-card hand that can complete it, so mixed (3 to 2), suited (2 to 1),
  spades (3 to 1) and the super bonus each land on their own net.
* *Splits* (§ 551.12): the split hands share the shoe and the dealer, so their joint is
  computed exactly: the hands in order (§ 551.12(b)), each drawing from the shoe the previous
  hands left, a pair card dealt to a split hand resplit while under the number of hands the
  engine chose (:func:`split_limit`), the dealer last. Each post-split decision depends only on
  the hand's own cards (``cdz``, ``cdp1``; ``cdp`` is that strategy only with two hands), which
  makes a path's probability depend only on the multiset of cards drawn (a split 6, 7 or 8 takes
  its first decision by suits, as the engine does: :meth:`_Walker._decider`). The joint is
  :class:`~exactodds.blackjack.splitjoint.SplitJoint`: numbers of orders by the values drawn and
  the net, one dealer outcome at a time, in int64 under a checked bound, the falling factorials
  and the dealer applied once per final multiset in residues, the suits of the 6-7-8 / 7-7-7
  bonus hands drawn after the joint (exchangeability). The first method -- the states (cards left
  by type, the finished hands' nets for each dealer outcome) in Python dicts -- is kept as
  :meth:`_Walker.split_enumerated`, the tests' second method. Measured (docs/spanish21.md,
  'Speed'): a pair of 8s against a 10 from six decks with three hands took more than 8 GB the
  first way and takes 40 s and 1.8 GB this way; two hands are exact at any shoe size (split aces,
  8 decks: about 30 s CPU); three or more hands from a 48-card deck up are refused before any
  solve (:func:`~exactodds.blackjack.splitjoint.check_feasible`), a step over
  :data:`~exactodds.blackjack.splitjoint.MAX_TRANSITIONS` in one line.

The envy payouts for other players' super bonuses (§ 551.6(h)) are not part of the player's
own round: the distribution's mean is :attr:`~exactodds.blackjack.engine.GameResult.own_hands`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import Final

from exactodds.blackjack.dealer import OUTCOMES, DealerTable, hand_total
from exactodds.blackjack.engine import Game, _SplitValues, initial_deals
from exactodds.blackjack.hands import HandSolver, _falling, completes, no_blackjack
from exactodds.blackjack.settlement import NetVector, bonus_pay, engine_choice, settle_vector
from exactodds.blackjack.shoe import SUITED, CardType, SpanishShoe, Values
from exactodds.errors import InputError
from exactodds.exact import reduced

ZERO: Final = Fraction(0)
ONE: Final = Fraction(1)
MAX_SPLIT_STATES: Final = 1_000_000
"""Most states (cards left, finished hands' nets) the first method's joint
(:meth:`_Walker.split_enumerated`) may hold before it is refused: a pair of 8s against a 10 from
six 48-card decks passed 8 GB and 6 CPU minutes without finishing that way (docs/spanish21.md)."""

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Distribution:
    """The exact distribution of one round's net result per unit of the original wager."""

    probabilities: dict[Fraction, Fraction]
    """net → probability, nets ascending, adding up to 1."""
    strategy: str

    @property
    def mean(self) -> Fraction:
        return sum((k * p for k, p in self.probabilities.items()), ZERO)

    @property
    def variance(self) -> Fraction:
        m = self.mean
        return sum((p * (k - m) ** 2 for k, p in self.probabilities.items()), ZERO)


def split_limit(game: Game, up: CardType, p1: CardType, p2: CardType) -> int:
    """The number of hands the engine splits ``p1, p2`` to (§ 551.12(c)): with
    ``resplit_optional`` the first best of :meth:`Game.split_value`'s limits, else the most."""
    rules = game.rules
    r = p1[0]
    left = game.shoe.remove(up, p1, p2)
    most = rules.max_hands if (r != 1 or rules.resplit_aces) else 2
    most = min(most, 2 + left.values[r - 1])
    if not rules.resplit_optional or most == 2:
        return most
    game.split_context = (up, (p1, p2), left)
    values = _SplitValues(game, up[0], r, left.values)
    totals = [(values.total(limit), limit) for limit in range(2, most + 1)]
    best = max(t for t, _ in totals)
    return next(limit for t, limit in totals if t == best)


def _add(values: Values, v: int) -> Values:
    return values[:v - 1] + (values[v - 1] + 1,) + values[v:]


def _ff(n: int, k: int) -> int:
    """n·(n−1)·…·(n−k+1) (0 when k > n)."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _halves(net: Fraction) -> int:
    """A split hand's net in half units (its pays are 1, 3/2, 2, 3 times a whole bet)."""
    twice = 2 * net
    if twice.denominator != 1:
        raise AssertionError("internal: a split hand's net is not a multiple of 1/2")
    return twice.numerator


def _merge(into: dict[Fraction, int], net: Fraction, weight: int) -> None:
    if weight:
        into[net] = into.get(net, 0) + weight


class _Walker:
    """The distribution walk over one engine :class:`Game` (its decisions fixed)."""

    def __init__(self, game: Game) -> None:
        self.game, self.rules = game, game.rules
        if game.rules.post_split == "cdp" and game.rules.max_hands > 2:
            raise InputError("post-split strategy cdp is a strategy only with two hands (it reads how many pair "
                             "cards the whole round removes); the distribution needs cdz or cdp1, or --max-hands 2")
        self.hand_memo: dict[tuple[int, Values, int], dict[Fraction, int]] = {}
        self.split_tables: dict[int, DealerTable] = {}
        self.split_memo: dict[tuple[object, ...], tuple[dict[Fraction, int], int]] = {}
        self.joints: dict[tuple[object, ...], dict[tuple[int, int, tuple[tuple[str, int, int, int, str], ...]], Fraction]] = {}
        self.joint_tables: dict[tuple[int, int], DealerTable] = {}
        self.tick: Callable[[int, str], None] | None = None
        """Passed to each split joint (:attr:`~exactodds.blackjack.splitjoint.SplitJoint.tick`)."""

    # -- unsplit hands -------------------------------------------------------------------
    def hand(self, solver: HandSolver, hand: Values, doublings: int) -> dict[Fraction, int]:
        """net → numerator over ``n!/floor!`` (``n`` the cards left) of a hand from ``hand`` on,
        its decisions the engine's, the dealer's draw (no dealer Blackjack) included."""
        key = (solver.up, hand, doublings)
        got = self.hand_memo.get(key)
        if got is not None:
            return got
        rem = solver.rem(hand)
        act = engine_choice(solver, hand, doublings)
        out: dict[Fraction, int] = {}
        if act == "bust":
            _merge(out, Fraction(-(1 << doublings)), solver._no_blackjack(rem))
        elif act == "rescue":
            loss = self.rules.rescue_loss(doublings)
            assert loss is not None
            _merge(out, Fraction(-loss), solver._no_blackjack(rem))
        elif act == "stand":
            hard = sum((i + 1) * c for i, c in enumerate(hand))
            total, _ = hand_total(hard, hand[0] > 0)
            d, _ = solver.dealer.numerators(rem)
            for net, w in zip(settle_vector(self.rules, total, sum(hand), doublings), d):
                _merge(out, net, w)
        else:
            after = doublings if act == "hit" else doublings + 1
            for i, c in enumerate(rem):
                if c:
                    for net, w in self.hand(solver, hand[:i] + (hand[i] + 1,) + hand[i + 1:], after).items():
                        _merge(out, net, c * w)
        self.hand_memo[key] = out
        return out

    def unsplit(self, up: CardType, c1: CardType, c2: CardType, act: str) -> dict[Fraction, Fraction]:
        """The no-Blackjack part of a round whose first decision is ``act`` (stand, hit, double)."""
        solver = self.game.solver(up[0])
        hand = _add(_add((0,) * 10, c1[0]), c2[0])
        rem = solver.rem(hand)
        den = _falling(sum(rem), self.game.floor)
        if act == "stand":  # settled here: the node's own best may differ (a suit bonus, the chart)
            nums: dict[Fraction, int] = {}
            total, _ = hand_total(c1[0] + c2[0], 1 in (c1[0], c2[0]))
            d, _ = solver.dealer.numerators(rem)
            for net, w in zip(settle_vector(self.rules, total, 2, 0), d):
                _merge(nums, net, w)
            return {net: Fraction(w, den) for net, w in nums.items()}
        doubled = act == "double"
        after = 1 if doubled else 0
        need = completes(c1[0], c2[0])
        typed = (need is not None and self.rules.bonus_678_777 and (not doubled or self.rules.bonus_on_doubled))
        left = self.game.shoe.remove(up, c1, c2)
        out: dict[Fraction, int] = {}
        for i, c in enumerate(rem):
            if not c:
                continue
            child = hand[:i] + (hand[i] + 1,) + hand[i + 1:]
            if typed and i + 1 == need and engine_choice(solver, child, after) == "stand":
                d, _ = solver.dealer.numerators(solver.rem(child))
                for s in range(4):
                    k = left.suits[need][s]
                    if not k:
                        continue
                    cards = (c1, c2, (need, s))
                    pay = bonus_pay(cards)
                    extra = ZERO
                    if (c1[0] == c2[0] == 7 and len({c1[1], c2[1], s}) == 1 and up[0] == 7 and not doubled):
                        extra = self.rules.super_bonus()
                    for net, w in zip(settle_vector(self.rules, 21, 3, after, pay, extra), d):
                        _merge(out, net, k * w)
            else:
                for net, w in self.hand(solver, child, after).items():
                    _merge(out, net, c * w)
        return {net: Fraction(w, den) for net, w in out.items()}

    # -- splits ---------------------------------------------------------------------------
    def split(self, up: CardType, p1: CardType, p2: CardType) -> dict[Fraction, Fraction]:
        """The no-Blackjack part of a round that splits ``p1, p2`` (§ 551.12): the joint of the
        split hands by values (:class:`~exactodds.blackjack.splitjoint.SplitJoint`: counts of
        orders, one dealer outcome at a time, the dealer in residues), kept per up card, pair value
        and number of hands; then the suits of the bonus hands (§ 551.6(g)(1)-(4)) for these cards."""
        from exactodds.blackjack.splitjoint import SplitJoint, bonus_pays

        rules = self.rules
        r = p1[0]
        limit = split_limit(self.game, up, p1, p2)
        key: tuple[object, ...] = (up[0], r, limit)
        joint = self.joints.get(key)
        if joint is None:
            joint = self.joints[key] = SplitJoint(self.game, up[0], r, limit,
                                                  lambda extra: self._table(up[0], extra), self.tick).by_outcome()
        left = self.game.shoe.remove(up, p1, p2)
        pays: dict[tuple[object, ...], dict[int, Fraction]] = {}
        out: dict[Fraction, Fraction] = {}
        decide = self._decider(up, p1, p2, left) if self.game.policy is None else None
        for (o, net, code), p in joint.items():
            paid = rules.player_21_wins or o != 4  # § 551.6(b)(4): else a bonus 21 pushes a dealer 21
            if not code:
                bonus = {0: ONE}
            else:
                got = pays.get((code, paid))
                bonus = got if got is not None else pays.setdefault(
                    (code, paid), bonus_pays(code, r, p1, p2, left, decide, paid))
            for extra, q in bonus.items():
                total = Fraction(net + extra, 2)
                out[total] = out.get(total, ZERO) + p * q
        return out

    def _decider(self, up: CardType, p1: CardType, p2: CardType, left: SpanishShoe
                 ) -> Callable[[CardType, CardType], str]:
        """The engine's suit-aware first decision of a split hand ``first, second`` that can complete
        a 6-7-8 / 7-7-7 (:meth:`~exactodds.blackjack.engine._SplitValues._split_decision`, composition-
        dependent play): the distribution plays what the engine values."""
        from exactodds.blackjack.engine import _SplitValues

        game, r = self.game, p1[0]
        game.split_context = (up, (p1, p2), left)
        values = _SplitValues(game, up[0], r, left.values)
        hs = game.solver(up[0], r, 0)
        memo: dict[tuple[CardType, CardType], str] = {}

        def decide(first: CardType, card: CardType) -> str:
            got = memo.get((first, card))
            if got is None:
                hand = _add(_add((0,) * 10, r), card[0])
                need = completes(r, card[0])
                assert need is not None
                hs.value(hand)
                acts = hs.node_actions.get((hand, 0))
                got = memo[(first, card)] = (engine_choice(hs, hand, 0) if not acts else
                                             values._reference_decision(hs, hand, acts, first, card, need))
            return got

        return decide

    def _table(self, up: int, extra: int) -> DealerTable:
        """The dealer's table of the shoe less the up card with primes for ``extra`` more cards (kept
        per up card, ``extra`` rounded up to a multiple of 8)."""
        extra = -(-extra // 8) * 8
        table = self.joint_tables.get((up, extra))
        if table is None:
            base = self.game.shoe.values[:up - 1] + (self.game.shoe.values[up - 1] - 1,) + self.game.shoe.values[up:]
            table = self.joint_tables[(up, extra)] = DealerTable(base, up, self.rules.hit_soft_17, 0, extra)
        return table

    def split_enumerated(self, up: CardType, p1: CardType, p2: CardType) -> dict[Fraction, Fraction]:
        """:meth:`split` by the first method: the joint enumerated state by state in Python
        integers (cards left by type, the finished hands' nets for every dealer outcome); exact and
        independent of :mod:`~exactodds.blackjack.splitjoint`, feasible on small shoes only (the
        second method of the tests)."""
        rules = self.rules
        r = p1[0]
        typed = rules.bonus_678_777 and r in SUITED
        limit = split_limit(self.game, up, p1, p2)
        key: tuple[object, ...] = (up, p1, p2) if typed else (up[0], r, limit)
        got = self.split_memo.get(key)
        if got is None:
            got = self._split(up, p1, p2, limit, typed)
            self.split_memo[key] = got
        nums, den = got
        return {net: Fraction(w, den) for net, w in nums.items()}

    def _hand_paths(self, up: CardType, first: CardType, r: int, allowance: int, typed: bool,
                    width: int) -> list[tuple[tuple[int, ...], NetVector, tuple[CardType, ...], int]]:
        """Every path of a split hand whose first card is ``first``: ``(x, nets by dealer outcome,
        the pair cards it resplits (newest first), number of orders)``, ``x`` the cards it draws
        over the state's dims (values; typed: the 6s, 7s, 8s counted by value and by suit); a pair
        card dealt as its second card starts a new hand while ``allowance`` lasts (§ 551.12(c))."""
        rules = self.rules
        solver = self.game.solver(up[0], r, 0)
        out: dict[tuple[tuple[int, ...], NetVector, tuple[CardType, ...]], int] = {}
        cards_types: list[CardType] = [(v, -1) for v in range(1, 11) if not (typed and v in SUITED)]
        if typed:
            cards_types += [(v, s) for v in SUITED for s in range(4)]
        cards_types.sort()

        def bump(x: tuple[int, ...], t: CardType) -> tuple[int, ...]:
            y = list(x)
            y[t[0] - 1] += 1
            if typed and t[0] in SUITED:
                y[10 + 4 * SUITED.index(t[0]) + t[1]] += 1
            return tuple(y)

        def finish(x: tuple[int, ...], delta: NetVector, new: tuple[CardType, ...], m: int) -> None:
            k = (x, delta, new)
            out[k] = out.get(k, 0) + m

        # level by level (one card more each): nodes reached by several orders of the same cards merge
        Node = tuple[tuple[int, ...], Values, tuple[CardType, ...], int, tuple[CardType, ...], int]
        # (x, the hand's cards (values), its first three card types, doublings, resplit pair cards,
        #  -1 while the hand still needs its second card else 0; the resplits left in ``allow``)
        level: dict[tuple[Node, int], int] = {(((0,) * width, _add((0,) * 10, r), (first,), 0, (), -1), allowance): 1}
        while level:
            nxt: dict[tuple[Node, int], int] = {}

            def push(node: Node, left: int, m: int, into: dict[tuple[Node, int], int] = nxt) -> None:
                into[(node, left)] = into.get((node, left), 0) + m

            for ((x, cards, seen, doublings, new, phase), left), m in level.items():
                if phase < 0:  # the hand's second card (§ 551.12(b)); a pair card is resplit while allowed
                    for t in cards_types:
                        if t[0] == r and left > 0:
                            push((bump(x, t), cards, seen, 0, (t,) + new, -1), left - 1, m)
                        else:
                            push((bump(x, t), _add(cards, t[0]), seen + (t,), 0, new, 0), left, m)
                    continue
                if any(c > b for c, b in zip(cards, solver.base)):
                    continue  # more cards of a value than the shoe holds: weight 0
                act = engine_choice(solver, cards, doublings)
                if act == "bust":
                    finish(x, (Fraction(-(1 << doublings)),) * OUTCOMES, new, m)
                elif act == "rescue":
                    loss = rules.rescue_loss(doublings)
                    assert loss is not None
                    finish(x, (Fraction(-loss),) * OUTCOMES, new, m)
                elif act == "stand":
                    total, _ = hand_total(sum((i + 1) * c for i, c in enumerate(cards)), cards[0] > 0)
                    ncards = sum(cards)
                    pay = None
                    if (ncards == 3 and total == 21 and rules.bonus_678_777 and len(seen) == 3
                            and sorted(v for v, _ in seen) in ([6, 7, 8], [7, 7, 7])
                            and (doublings == 0 or rules.bonus_on_doubled)):
                        pay = bonus_pay((seen[0], seen[1], seen[2]))
                    finish(x, settle_vector(rules, total, ncards, doublings, pay), new, m)
                else:
                    after_d = doublings if act == "hit" else doublings + 1
                    for t in cards_types:
                        push((bump(x, t), _add(cards, t[0]), seen + (t,) if len(seen) < 3 else seen, after_d, new,
                              0), left, m)
            level = nxt
        return [(x, delta, new, m) for (x, delta, new), m in out.items()]

    def _split(self, up: CardType, p1: CardType, p2: CardType, limit: int,
               typed: bool) -> tuple[dict[Fraction, int], int]:
        """The joint of the split hands, then the dealer.

        A hand's path (the cards it draws, in order) has probability ``Π ff(r_d, x_d) / ff(n, k)``
        for the cards left ``r`` (``n`` of them) and the multiset ``x`` (``k`` cards) the path
        draws -- whatever the order -- and the decisions read only the hand's own cards; so each
        hand's paths are listed once as ``(x, nets by dealer outcome, pair cards it resplits) →
        number of paths`` (:meth:`_hand_paths`), and applied to every state the hands before it left."""
        rules = self.rules
        r = p1[0]
        left = self.game.shoe.remove(up, p1, p2)
        # the cards left: ten value counts, then (typed) the suit counts of the 6s, 7s and 8s
        start: tuple[int, ...] = left.values + (tuple(n for v in SUITED for n in left.suits[v]) if typed else ())
        n0 = left.size
        zero: tuple[int, ...] = (0,) * OUTCOMES  # nets in half units (every split hand's net is a multiple of 1/2)
        # dims whose falling factorials weigh a path (typed: the 6s, 7s, 8s by suit, not by value)
        dims = tuple(d for d in range(len(start)) if not (typed and d < 10 and d + 1 in SUITED))
        Path = tuple[list[tuple[int, int]], list[tuple[int, int]], tuple[int, ...], tuple[CardType, ...], int]
        # (cards drawn by dim, those the falling factorials weigh, nets in half units, resplit pair cards, orders)
        paths: dict[tuple[CardType, int], list[Path]] = {}
        resplit_ok = r != 1 or rules.resplit_aces
        # a state: (cards left, finished hands' nets by dealer outcome, first cards of the hands to play,
        # hands so far) -> numerator over ff(n0, cards drawn)
        states: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[CardType, ...], int], int] = {
            (start, zero, (p1, p2), 2): 1}
        final: dict[tuple[Values, tuple[int, ...]], int] = {}
        falling = _ff
        while states:
            nxt_states: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[CardType, ...], int], int] = {}
            for (rem, vec, pending, hands), weight in states.items():
                if not pending:
                    k2 = (rem[:10], vec)
                    final[k2] = final.get(k2, 0) + weight
                    continue
                first, rest = pending[0], pending[1:]
                allowance = limit - hands if resplit_ok else 0
                key = (first, allowance)
                listed = paths.get(key)
                if listed is None:
                    listed = paths[key] = [
                        ([(d, c) for d, c in enumerate(x) if c], [(d, x[d]) for d in dims if x[d]],
                         tuple(_halves(n) for n in delta), news, m)
                        for x, delta, news, m in self._hand_paths(up, first, r, allowance, typed, len(start))]
                for sparse, weighed, delta, news, mult in listed:
                    w = weight * mult
                    for d, c in weighed:
                        w *= falling(rem[d], c)
                        if not w:
                            break
                    if not w:
                        continue
                    after = list(rem)
                    for d, c in sparse:
                        after[d] -= c
                    k3 = (tuple(after), (vec[0] + delta[0], vec[1] + delta[1], vec[2] + delta[2], vec[3] + delta[3],
                                         vec[4] + delta[4], vec[5] + delta[5]), news + rest, hands + len(news))
                    nxt_states[k3] = nxt_states.get(k3, 0) + w
                if len(nxt_states) > MAX_SPLIT_STATES:
                    raise InputError(f"the exact joint of split {r}s against a {up[0]} needs more than "
                                     f"{MAX_SPLIT_STATES:,} states for this {n0 + 3}-card shoe: too large to enumerate "
                                     "here (docs/spanish21.md, 'Speed'); use a smaller shoe or --max-hands 1")
            states = nxt_states
        # the dealer last, from the cards the hands left (no dealer Blackjack: § 551.8(e))
        table = self.split_tables.get(up[0])
        if table is None:
            base = self.game.shoe.values[:up[0] - 1] + (self.game.shoe.values[up[0] - 1] - 1,) + \
                self.game.shoe.values[up[0]:]
            table = self.split_tables[up[0]] = DealerTable(base, up[0], rules.hit_soft_17, 0)
        table.request({rem for rem, _ in final})
        out: dict[Fraction, int] = {}
        den = factorial(n0)
        for (rem, vec), weight in final.items():
            nums, dden = table.numerators(rem)  # over (cards left)!
            assert dden == factorial(sum(rem))
            for half, w in zip(vec, nums):
                _merge(out, Fraction(half, 2), weight * w)
        return out, den


def distribution(game: Game, strategy: str = "", progress: Progress | None = None) -> Distribution:
    """The exact distribution of the round's net result per unit under ``game``'s decisions
    (its ``policy``: None, the composition-dependent best; a :class:`~exactodds.spanish21.figures.Chart`,
    the basic chart), the player's own hands (the envy payouts of § 551.6(h) left out)."""
    from exactodds.blackjack.splitjoint import check_feasible

    shoe, rules = game.shoe, game.rules
    check_feasible(shoe.size, rules.max_hands)
    walker = _Walker(game)
    weights = initial_deals(shoe)
    n = shoe.size
    denom = n * (n - 1) * (n - 2)
    total: dict[Fraction, Fraction] = {}

    def add(net: Fraction, p: Fraction) -> None:
        if p:
            total[net] = total.get(net, ZERO) + p

    bj = rules.blackjack_payout()
    deals = sorted(weights.items())
    # progress in units of ``sub`` per initial deal: a split's joint (tens of seconds at full size) moves
    # the bar through its six dealer-outcome passes and the dealer's residues, its label every chunk
    sub = OUTCOMES + 2
    at = [0]
    if progress is not None:
        report = progress
        walker.tick = lambda stage, label: report(at[0] * sub + 1 + stage, len(deals) * sub, label)
    for index, ((up, c1, c2), w) in enumerate(deals):
        at[0] = index
        if progress is not None:
            progress(index * sub, len(deals) * sub, f"up card {'A' if up[0] == 1 else up[0]}")
        p = reduced(w, denom)
        left = shoe.remove(up, c1, c2)
        pn = no_blackjack(left.values, up[0])
        if {c1[0], c2[0]} == {1, 10}:
            add(bj, p * pn)
            add(bj if rules.blackjack_beats_dealer_blackjack else ZERO, p * (1 - pn))
            continue
        add(Fraction(-1), p * (1 - pn))
        # each order of the two cards as the engine plays it (a pair of two suits with resplits
        # and the 6-7-8 / 7-7-7 bonus: the split and its number of hands by order, § 551.12(c))
        plays = game.decide(up, c1, c2).by_order()
        for first, second, best in plays:
            if best == "surrender":
                part = {Fraction(-1, 2): pn}
            elif best == "split":
                part = walker.split(up, first, second)
            else:
                part = walker.unsplit(up, first, second, best)
            share = p / len(plays)
            for net, q in part.items():
                add(net, share * q)
    if progress is not None:
        progress(len(deals) * sub, len(deals) * sub, "done")
    probs = {k: total[k] for k in sorted(total) if total[k]}
    if sum(probs.values(), ZERO) != 1:
        raise AssertionError("internal: the distribution does not add up to 1")
    return Distribution(probs, strategy)


__all__ = ["Distribution", "distribution", "split_limit"]
