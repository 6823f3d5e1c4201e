"""The expected values of one split (§ 551.12) for :meth:`~exactodds.blackjack.engine.Game.split_value`.

:class:`_SplitValues` gives the base values of a split's pattern sum (E. Farmer's method, written
here from the identities: :mod:`~exactodds.blackjack.split_pattern`) from the game's hand solvers,
and the suit part of a split 6-7-8 / 7-7-7 bonus (§ 551.6(g)(1)-(4)); the module doc of
:mod:`exactodds.blackjack.engine` says how. Kept apart from the game's round (the engine) for
size only: it reads the game it is given through :class:`SplitGame`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, Protocol

from exactodds.blackjack.hands import ZERO, HandSolver, Policy, _add, _bonus_part, _sub, completes
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SPADES, SUITED, CardType, SpanishShoe, Values
from exactodds.blackjack.split_pattern import rank_weights, role_terms
from exactodds.errors import InputError


class SplitGame(Protocol):
    """What :class:`_SplitValues` reads of the game it values a split for (the engine's
    :class:`~exactodds.blackjack.engine.Game`; a protocol, so that this module imports nothing of
    the engine that imports it)."""

    shoe: SpanishShoe
    rules: Rules
    policy: Policy | None
    split_context: tuple[CardType, tuple[CardType, CardType], SpanishShoe] | None
    split_memos: dict[tuple[object, ...], _SplitMemo]
    suit_corrections: dict[tuple[object, ...], tuple[int, int]]
    split_decisions: dict[tuple[object, ...], list[str]]

    def solver(self, up: int, split_value_: int = 0, extra: int = 0) -> HandSolver:
        """The hand solver of up card ``up`` (a split hand: pair value and extra pair cards out)."""


ONE_CARD: Final = tuple(_add((0,) * 10, v) for v in range(1, 11))
"""The one-card hand of each value (``ONE_CARD[v − 1]``)."""
TWO_CARDS: Final = tuple(tuple(_add(one, w) for w in range(1, 11)) for one in ONE_CARD)
"""The two-card hand of values ``v, w`` (``TWO_CARDS[v − 1][w − 1]``): the engine reads them per deal and split."""


@dataclass
class _SplitMemo:
    """What :class:`_SplitValues` keeps for the splits of one shoe left."""

    scale: int = 0
    """:meth:`_SplitValues._scale` (0: not yet read)."""
    ranks: dict[int, tuple[int, int]] = field(default_factory=dict)
    """:meth:`_SplitValues.base` by extra pair cards out."""
    suits: dict[tuple[int, object], tuple[Fraction, Fraction]] = field(default_factory=dict)
    """:meth:`_SplitValues.suit_part` by extra pair cards out and role."""
    configs: dict[tuple[object, int], tuple[int, int, list[tuple[int, int, int, tuple[int, ...]]]]] = field(
        default_factory=dict)
    """:meth:`_SplitValues._suit_configs_of` by role and second card."""
    decided: dict[tuple[object, ...], tuple[dict[str, int], int]] = field(default_factory=dict)
    """:meth:`_SplitValues._decided` by role, second card, open actions (and ``cdp``'s pair cards out)."""


class _SplitValues:
    """The expected values of one split (up card ``up``, pair value ``pair``): ``X(a, b)``, a
    split hand whose second card may be anything, and ``N(a, b)``, one whose second card is not
    a pair card, from the shoe less ``a`` extra pair cards and ``b`` unseen non-pair cards.

    ``X(a, 0)`` and the pair-card term come from the hand solver of that shoe; removing an
    unseen card leaves an expected value unchanged (the strategy does not see it), so
    ``X(a, b−1) = v·X(a+1, b−1) + (1−v)·X(a, b)`` with ``v`` the chance that card is a pair
    card, which gives ``X(a, b)`` and likewise ``N(a, b)``. Those recursions are linear, so the
    pattern sum is a fixed linear form in the base values (:mod:`~exactodds.blackjack.split_pattern`):
    :meth:`total` is one integer dot product of the solvers' numerators (:meth:`base`) plus the
    few suit parts (:meth:`suit_part`).
    """

    def __init__(self, game: SplitGame, up: int, pair: int, left: Values) -> None:
        self.game, self.up, self.pair = game, up, pair
        self.n, self.p = sum(left), left[pair - 1]
        self.left = left
        self.suits = self._suit_context()
        # the rank-only values by the value counts alone: shared by the pairs of every suit
        ranks = game.split_memos.get((up, pair, left))
        if ranks is None:
            ranks = game.split_memos[(up, pair, left)] = _SplitMemo()
        self.ranks = ranks
        # the suit parts, shared by the splits of the same shoe left (the two orders of a pair read the same)
        self.suit_memo = ranks
        if self.suits is not None:
            context = (self.suits[0], pair, left, tuple(self.suits[2].suits[v] for v in SUITED))
            memo = game.split_memos.get(context)
            if memo is None:
                memo = game.split_memos[context] = _SplitMemo()
            self.suit_memo = memo

    def _role(self, role: str) -> object:
        """The key a hand's suit part is kept under: a hand holding the first or the second pair
        card reads only that card's suit; a resplit hand (``ex``) the pool its pair card comes from."""
        if role == "ex":
            return role
        assert self.suits is not None
        return ("own", self.suits[1][0 if role == "p1" else 1][1])

    def _scale(self) -> int:
        """The common denominator ``D`` of the rank-only base values (:meth:`base`): ``X(0, 0)``'s,
        ``SCALE·n!/floor!`` — every ``X(a, 0)`` and ``PV(a)``'s (``SCALE·(n−a)!/floor!`` and
        ``SCALE·(n−a−1)!/floor!``) divides it."""
        if not self.ranks.scale:
            r = self.pair
            hs = self.game.solver(self.up, r, 0)
            self.ranks.scale = hs.denominator(TWO_CARDS[r - 1][r - 1]) * sum(hs.rem(ONE_CARD[r - 1]))
        return self.ranks.scale

    def base(self, a: int) -> tuple[int, int]:
        """``X(a, 0)`` and ``PV(a)`` (the value of the hand whose second card is a pair card) of a
        split hand from the shoe less ``a`` extra pair cards, rank only, as numerators over
        :meth:`_scale`: from the hand solver of that shoe, one value per second card."""
        got = self.ranks.ranks.get(a)
        if got is None:
            r = self.pair
            hs = self.game.solver(self.up, r, a)
            rem = hs.rem(ONE_CARD[r - 1])
            hands, value = TWO_CARDS[r - 1], hs.value
            total = sum(k * value(hands[i]) for i, k in enumerate(rem) if k > 0)
            pair_value = value(hands[r - 1]) if rem[r - 1] > 0 else 0
            den = hs.denominator(hands[r - 1])
            scale = self._scale()
            sx, mx = divmod(scale, den * sum(rem))
            sp, mp = divmod(scale, den)
            if mx or mp:  # (never: every base value's denominator divides the scale)
                raise InputError("internal: a split's base values do not share one denominator")
            got = self.ranks.ranks[a] = (total * sx, pair_value * sp)
        return got

    def suit_part(self, a: int, role: str) -> tuple[Fraction, Fraction]:
        """What suits add to :meth:`base` for a hand in ``role`` (``p1``/``p2``: holding the
        first/second card of the pair, ``ex``: a pair card dealt to a split hand, of a random suit):
        the suit-aware decision and bonus of its 6-7-8 / 7-7-7 draws (:meth:`_suit_correction`),
        as values."""
        key = (a, self._role(role))
        got = self.suit_memo.suits.get(key)
        if got is None:
            r = self.pair
            hs = self.game.solver(self.up, r, a)
            rem = hs.rem(ONE_CARD[r - 1])
            num, den, pair_bonus = 0, 1, ZERO  # Σ k·extra over one product denominator
            for second in (6, 7, 8):
                k = rem[second - 1]
                if k > 0 and completes(r, second) is not None:
                    hand = TWO_CARDS[r - 1][second - 1]
                    en, ed = self._suit_correction(hs, hand, second, a, role)
                    if en:
                        num, den = num * ed + k * en * den, den * ed
                        if second == r:
                            pair_bonus = Fraction(en, ed)
            got = self.suit_memo.suits[key] = (Fraction(num, den * sum(rem)), pair_bonus)
        return got

    def _suit_context(self) -> tuple[CardType, tuple[CardType, CardType], SpanishShoe] | None:
        """The up card, the pair and the shoe left, when a split hand can make a suited 6-7-8 or
        7-7-7 (§ 551.6(g)(1)-(4)); None otherwise."""
        ctx = self.game.split_context
        if ctx is None or not self.game.rules.bonus_678_777 or self.pair not in SUITED:
            return None
        return ctx

    def _suit_configs(self, second: int, need: int, a: int,
                      role: str) -> tuple[int, tuple[int, int], list[tuple[int, int, int, tuple[int, ...]]]]:
        """:meth:`_suit_configs_of`, kept by role and second card (they do not depend on ``a``),
        with the factor ``f`` of ``a`` extra pair cards out as a numerator and a denominator (not
        reduced: the correction is reduced once, at its end)."""
        key = (self._role(role), second)
        got = self.suit_memo.configs.get(key)
        if got is None:
            got = self.suit_memo.configs[key] = self._suit_configs_of(second, need, role)
        wden, others, configs = got
        if need != self.pair:
            return wden, (1, 1), configs
        keep = self.p - a - 1  # of the pair cards whose suits the hand does not know, those still in the shoe
        return wden, (keep, others) if others else (0, 1), configs

    def _suit_configs_of(self, second: int, need: int,
                         role: str) -> tuple[int, int, list[tuple[int, int, int, tuple[int, ...]]]]:
        """The suits of a split hand ``pair, second`` that can draw a 6-7-8 / 7-7-7, given ranks:
        a denominator ``D``, the number ``others`` of pair cards whose suits the hand does not know
        and ``(suit of its pair card s, suit of its second card t, D·P(s, t), c)`` where ``f·c``
        are the expected suit counts of the completing value in the cards left, ``f`` 1 or (7-7-7)
        ``(count − a − 1)/others`` (:meth:`_suit_configs`; integers but for ``f``: the sums over
        them stay integers). Given the ranks dealt, the suits within a rank are exchangeable: the
        pair card of a resplit hand (``ex``) is any pair card of the shoe left, the ``a`` extra pair
        cards out are a random draw of those, and the second card is any card of its value left
        (§ 551.6(g)(1)-(4))."""
        assert self.suits is not None
        _, (p1, p2), left = self.suits
        r = self.pair
        pool = left.suits[r]
        count = left.values[r - 1]
        own: list[tuple[int, int]]
        if role == "ex":  # P(s) = k / count
            own, own_den = [(s, k) for s, k in enumerate(pool) if k], count
        else:
            own, own_den = [((p1 if role == "p1" else p2)[1], 1)], 1
        out: list[tuple[int, int, int, tuple[int, ...]]] = []
        if need != r:  # second and completing values are not the pair's: their suits are the shoe's
            seconds, counts = left.suits[second], left.suits[need]
            for s, ws in own:
                out.extend([(s, t, ws * k, counts) for t, k in enumerate(seconds) if k])
            return own_den * left.values[second - 1], 1, out
        # 7-7-7 on split 7s: the second card is a pair card too; the extra pair cards out are
        # drawn from the others (a resplit hand's own pair card is not among them)
        known = count - 1 if role == "ex" else count
        others = known - 1  # the pair cards left whose suits are unknown to the hand (f = (count − a − 1)/others)
        for s, ws in own:
            avail = list(pool)
            if role == "ex":
                avail[s] -= 1
            for t in range(4):
                if avail[t]:
                    out.append((s, t, ws * avail[t], tuple(avail[:t] + [avail[t] - 1] + avail[t + 1:])))
        return own_den * known, others, out

    def _suit_correction(self, hs: HandSolver, hand: Values, second: int, a: int, role: str) -> tuple[int, int]:
        """The exact suit part of a split hand ``pair, second`` whose third card can make a
        6-7-8 or 7-7-7 (§ 551.6(g)(1)-(4)), from the shoe less the up card and ``2 + a`` pair
        cards: the expected value of the suit-aware decision with its bonus, less the value of the
        hand (the rank-only decision's numerator), averaged over the suits of the hand's
        cards and of the cards left (:meth:`_suit_configs`); as a numerator and a positive
        denominator, not reduced (:meth:`suit_part` sums them, reduced once)."""
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
            # (the hand's value read here: the solver records the node as asked, which a kept
            # correction's node already was, :meth:`CompiledSolver.value`)
            got = corrections[key] = self._suit_correction_of(hs, hand, hs.value(hand), second, need, a, role)
        return got

    def _suit_correction_of(self, hs: HandSolver, hand: Values, value: int, second: int, need: int, a: int,
                            role: str) -> tuple[int, int]:
        """:meth:`_suit_correction`, computed. The bonus of a split hand's draw (no super bonus on
        a split hand, § 551.12(e)) is ``twice·clear·(2 if doubled)/(2·n·m)`` (:func:`_bonus_part`),
        ``twice`` linear in the completing value's suit counts and ``clear``, ``n``, ``m`` the
        node's: so the rank part and the bonus part are each summed over the configurations in
        integers, with one division each at the end."""
        acts = hs.node_actions.get((hand, 0))
        if not acts:
            return 0, 1
        wden, (fn, fd), configs = self._suit_configs(second, need, a, role)
        if not configs:  # no suit of the hand's cards left to complete one (wden may be 0)
            return 0, 1
        fixed, table = self._split_decision(hs, hand, acts, value, second, a)
        key = (self._role(role), second, tuple(acts), a if self.game.rules.post_split == "cdp" else 0, fixed)
        got = self.suit_memo.decided.get(key)
        if got is None:
            got = self.suit_memo.decided[key] = self._decided(hs, hand, acts, second, need, fixed, table, configs)
        weights, twice = got
        rank = sum(w * (acts[chosen] - value) for chosen, w in weights.items())
        num, den = rank, wden * hs.denominator(hand)
        values = hs.rem(hand)
        if twice and values[need - 1]:
            n = sum(values)
            m = max(n - 1, 1)  # (the completing card the last: no hole card to peek at, never reached)
            clear = m - values[9] if self.up == 1 else m - values[0] if self.up == 10 else m  # need is 6-8
            # + f · twice·clear / (2·n·m·wden), over one denominator
            bden = fd * 2 * n * m * wden
            num, den = num * bden + fn * twice * clear * den, den * bden
        return num, den

    def _decided(self, hs: HandSolver, hand: Values, acts: Mapping[str, int], second: int, need: int, fixed: str,
                 table: list[str], configs: list[tuple[int, int, int, tuple[int, ...]]]) -> tuple[dict[str, int], int]:
        """The suit-aware decisions over the configurations (:meth:`_suit_configs`): the weight
        each action gets and ``twice`` (Σ weight · twice the extra odds by completing card · the
        wager doubled): the same for every number of pair cards out (``cdp`` aside, whose decisions
        read it), so kept by role, second card and open actions (:attr:`_SplitMemo.decided`)."""
        on_doubled = self.game.rules.bonus_on_doubled
        weights: dict[str, int] = {}
        twice = 0
        for s, t, w, counts in configs:
            chosen = fixed or table[4 * s + t]
            if not chosen:
                chosen = table[4 * s + t] = self._reference_decision(hs, hand, acts, (self.pair, s), (second, t), need)
            weights[chosen] = weights.get(chosen, 0) + w
            if chosen == "hit" or (chosen == "double" and on_doubled):
                # mixed 3:2 → 1, suited 2:1 → 2, spades 3:1 → 4 (§ 551.6(g)(1)-(4)), by card
                odds = sum(counts) + (counts[s] * (3 if s == SPADES else 1) if s == t else 0)
                twice += w * odds * (2 if chosen == "double" else 1)
        return weights, twice

    def _split_decision(self, hs: HandSolver, hand: Values, acts: Mapping[str, int], value: int, second: int,
                        a: int) -> tuple[str, list[str]]:
        """The action a split hand ``(pair, s), (second, t)`` takes at its first decision, reading
        suits: a fixed chart takes the rank-only action (returned first, for every suit);
        otherwise the post-split strategy's reference hand (``cdz``: the unsplit hand from the
        shoe less the up card and the hand's cards; ``cdp1`` and ``cdp``: the same less one more
        pair card, by convention the lowest suit left, spades first) is valued with the bonus its
        suits get and its best taken (first listed on a tie), as the brute force does
        (:meth:`_reference_decision`). That one is kept by suits, ``table[4·s + t]`` ("" until
        asked), one table per hand, open actions and (``cdp``) pair cards out."""
        game = self.game
        if game.policy is not None:
            return next((name for name, v in acts.items() if v == value), "stand"), []
        assert self.suits is not None
        mode = game.rules.post_split
        key = (self.suits[0], self.pair, second, tuple(acts), a if mode == "cdp" else 0)
        table = game.split_decisions.get(key)
        if table is None:
            table = game.split_decisions[key] = [""] * 16
        return "", table

    def _reference_decision(self, hs: HandSolver, hand: Values, acts: Mapping[str, int], first: CardType,
                            card: CardType, need: int) -> str:
        """:meth:`_split_decision` for the optimal post-split strategies, computed."""
        game = self.game
        assert self.suits is not None
        shoe = game.shoe

        def less(v: int, cards: list[CardType]) -> list[int]:  # the suit counts of value v left
            counts = list(shoe.suits[v])
            for c, s in cards:
                if c == v:
                    counts[s] -= 1
            return counts

        out = [self.suits[0], first, card]  # the reference hand's shoe: less these
        mode = game.rules.post_split
        if mode == "cdz":
            ref = game.solver(self.up)
        else:
            r = self.pair
            pool = less(r, out)
            out.append((r, next(s for s in range(4) if pool[s])))
            ref = hs if mode == "cdp" else game.solver(self.up, r, 0)
        ref.value(hand)
        known = ref.node_actions.get((hand, 0))
        if known is None:  # one action there: the same one here
            return next(iter(acts))
        rden = ref.denominator(hand)
        values = shoe.values
        for v, _ in out:
            values = _sub(values, v)
        suits = less(need, out)

        def score(action: str) -> Fraction:
            got = Fraction(known[action], rden)
            if action in ("hit", "double"):
                got += _bonus_part(first, card, self.up, values, suits, game.rules, action == "double")
            return got

        return max(acts, key=score)

    def total(self, limit: int) -> Fraction:
        """The split's value when every pair card dealt to a split hand is resplit while there
        are fewer than ``limit`` hands: the sum over the patterns of second cards, as a linear form
        in the base values (:mod:`~exactodds.blackjack.split_pattern`): the rank-only part one
        integer dot product over :meth:`_scale`, the suit parts added."""
        den, rows = rank_weights(self.n, self.p, limit)
        acc = 0
        base = self.base
        for a, wx, wpv in rows:
            x, pv = base(a)
            acc += wx * x + wpv * pv
        den *= self._scale()
        if self.suits is None:
            return Fraction(acc, den)
        # Σ c·part over the least common denominator, reduced once at the end
        terms = [(acc, den)]
        for role, a, cx, cpv in role_terms(self.n, self.p, limit):
            for c, part in zip((cx, cpv), self.suit_part(a, role)):
                if c and part:
                    terms.append((c.numerator * part.numerator, c.denominator * part.denominator))
        lcm = math.lcm(*(d for _, d in terms))
        return Fraction(sum(k * (lcm // d) for k, d in terms), lcm)
