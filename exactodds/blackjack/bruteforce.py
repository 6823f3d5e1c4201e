"""Brute force: the whole Spanish 21 round, card by card, for small shoes (the second method).

Written apart from :mod:`exactodds.blackjack.engine`, in the physical order of § 551.8(d):
player card, up card, player card, hole card; the peek (§ 551.8(e)); then every decision of
the player, split hands played one after the other (§ 551.12(b)) with every card seen so
far known, and the dealer's draws. The hole card is unknown to the player: a decision node
holds the value for each possible hole card, and the player takes the action with the
best value averaged over the hole cards he cannot rule out (those left after the peek).
This is the optimal strategy for the information the player has; split hands instead play the
stated post-split strategy (``rules.post_split``), each decision computed here from the
hand's own lone-hand values (``cdz``: as an unsplit hand from the shoe less the up card and
its cards; ``cdp1``: as a split hand with the other pair card out too), a pair dealt to a split
hand resplit while under the number of hands chosen at the first split. The engine must agree
to the last digit, with and without splits (``cdp`` is a strategy only with two hands).

Each node carries, for every hole card, the exact *distribution* of the round's net result
(net per unit → probability) rather than its mean alone: :func:`brute_force_distribution` is
the second method of :mod:`exactodds.blackjack.distribution`, and :func:`brute_force` is its
mean. The decisions are taken on the means (the player maximises his expectation), ties to the
action the engine lists first (stand, hit, double, surrender, split; stand, rescue, redouble).

Only for small shoes: the tree grows exponentially.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Final

from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import CardType, SpanishShoe
from exactodds.errors import InputError

HALF: Final = Fraction(1, 2)
ZERO: Final = Fraction(0)

Dist = dict[Fraction, Fraction]
"""A distribution of the round's net result per unit: net → probability (or weight)."""


def mean(d: Dist) -> Fraction:
    """The mean of a (weighted) distribution: Σ net · weight."""
    return sum((k * p for k, p in d.items()), ZERO)


def _mix(parts: list[tuple[Fraction, Dist]]) -> Dist:
    """Σ w · d over ``parts`` (a mixture, weights not normalised)."""
    out: Dist = {}
    for w, d in parts:
        if w:
            for k, p in d.items():
                out[k] = out.get(k, ZERO) + w * p
    return out

Hand = tuple[tuple[CardType, ...], int, bool, str]
"""(cards, doublings, split hand?, status: 'play' | 'doubled' | 'stood' | 'bust' | 'surrender' | 'rescue')."""


def _points(cards: tuple[CardType, ...]) -> tuple[int, int]:
    """(hard points with aces 1, best total)."""
    hard = sum(v for v, _ in cards)
    best = hard + 10 if any(v == 1 for v, _ in cards) and hard + 10 <= 21 else hard
    return hard, best


def _bonus_pay(cards: tuple[CardType, ...]) -> Fraction | None:
    """§ 551.6(g)(1)-(4) odds of a three-card 6-7-8 / 7-7-7, or None."""
    if sorted(v for v, _ in cards) not in ([6, 7, 8], [7, 7, 7]):
        return None
    suits = {s for _, s in cards}
    if len(suits) == 1:
        return Fraction(3) if suits == {0} else Fraction(2)
    return Fraction(3, 2)


def brute_force(shoe: SpanishShoe, rules: Rules) -> Fraction:
    """The main wager's exact expected return per unit under optimal play, by the full game tree."""
    return mean(brute_force_distribution(shoe, rules))


def _take(rem: tuple[int, ...], i: int) -> tuple[int, ...]:
    """The counts ``rem`` less one card of type ``i``."""
    return rem[:i] + (rem[i] - 1,) + rem[i + 1:]


def _bj_hole(up: CardType, h: CardType) -> bool:
    """Whether up card and hole card ``h`` are a dealer blackjack (the peek of § 551.8(e) ends the round)."""
    return (up[0] == 1 and h[0] == 10) or (up[0] == 10 and h[0] == 1)


class _Tree:
    """The game tree of one shoe under one set of rules: the card types, the full shoe and the
    rules every node reads, with the memo tables of the dealer's draws, the player's decision
    nodes and the post-split reference hands (one set per tree, dropped with it)."""

    def __init__(self, rules: Rules, types: list[CardType], start: tuple[int, ...]) -> None:
        self.rules = rules
        self.types = types
        self.start = start
        self.dealer = cache(self._dealer)
        self.play = cache(self._play)
        self.reference = cache(self._reference)

    def _dealer(self, rem: tuple[int, ...], hard: int, soft_ace: bool) -> tuple[tuple[int, Fraction], ...]:
        """Final dealer total (22 = bust) distribution, drawing from rem (§ 551.13(b))."""
        best = hard + 10 if soft_ace and hard + 10 <= 21 else hard
        soft = best != hard
        if hard > 21:
            return ((22, Fraction(1)),)
        if best > 17 or (best == 17 and not (soft and self.rules.hit_soft_17)):
            return ((best, Fraction(1)),)
        n = sum(rem)
        out: dict[int, Fraction] = {}
        for i, k in enumerate(rem):
            if k:
                v = self.types[i][0]
                for t, p in self.dealer(_take(rem, i), hard + v, soft_ace or v == 1):
                    out[t] = out.get(t, Fraction(0)) + Fraction(k, n) * p
        return tuple(sorted(out.items()))

    def settle(self, hand: Hand, dealer_total: int, up: CardType) -> Fraction:
        """The net result of a finished hand against the dealer's final total (22 = bust), bonuses
        of § 551.6(g) included."""
        cards, k, split, status = hand
        bet = 1 << k
        if status == "surrender":
            return -HALF
        if status == "rescue":
            return Fraction(-1 if k <= 1 or self.rules.rescue_after_redouble == "all" else bet // 2)
        if status == "bust":
            return Fraction(-bet)
        _, t = _points(cards)
        n = len(cards)
        eligible = k == 0 or self.rules.bonus_on_doubled
        if t == 21 and n >= 3:
            pay = Fraction(1)
            extra = Fraction(0)
            bonus = _bonus_pay(cards) if n == 3 and self.rules.bonus_678_777 else None
            if bonus is not None and eligible:
                pay = bonus
                if (not split and k == 0 and up[0] == 7 and [v for v, _ in cards] == [7, 7, 7]
                        and len({s for _, s in cards}) == 1):
                    extra = self.rules.super_bonus()
            elif n >= 5 and eligible and self.rules.bonus_21_cards:
                pay = Fraction(3, 2) if n == 5 else Fraction(2) if n == 6 else Fraction(3)
            if dealer_total == 21 and not self.rules.player_21_wins:
                return Fraction(0)
            return bet * pay + extra
        if dealer_total == 22 or dealer_total < t:
            return Fraction(bet)
        if dealer_total == t:
            if t == 21 and self.rules.split_21_beats_dealer_21:
                return Fraction(bet)
            return Fraction(0)
        return Fraction(-bet)

    def remove_all(self, rem: tuple[int, ...], cards: tuple[CardType, ...]) -> tuple[int, ...]:
        """The counts ``rem`` less each of ``cards``."""
        for c in cards:
            rem = _take(rem, self.types.index(c))
        return rem

    def weigh(self, rem: tuple[int, ...], up: CardType, vec: tuple[Dist, ...]) -> Fraction:
        """The hole-card average (unnormalised) of a vector's means: what the player ranks by."""
        return sum((rem[h] * mean(vec[h]) for h in range(len(self.types)) if rem[h] and not _bj_hole(up, self.types[h])),
                   Fraction(0))

    def _reference(self, rem: tuple[int, ...], cur: Hand, up: CardType, split: bool) -> str:
        """The action a lone hand ``cur`` takes from the cards ``rem`` (hole card unknown):
        the best of stand, draw, double (and rescue, redouble), as the post-split strategy reads it."""
        opts = self.options(rem, (), (cur[0], cur[1], split, cur[3]), (), up, 0, lone=True)
        return max(opts, key=lambda kv: self.weigh(rem, up, kv[1]))[0]

    def _play(self, rem: tuple[int, ...], done: tuple[Hand, ...], cur: Hand | None,
             pending: tuple[CardType, ...], up: CardType, limit: int = 0) -> tuple[Dist, ...]:
        """Distribution for each hole card (index into types) given the visible state; rem excludes the hole;
        ``limit``: the hands the player splits to (chosen at the first split)."""
        holes = [i for i, k in enumerate(rem) if k and not _bj_hole(up, self.types[i])]
        if cur is None and pending:
            return self.draw(rem, done, ((pending[0],), 0, True, "play"), pending[1:], 0, up, limit)
        if cur is None:
            vec: list[Dist] = [{} for _ in self.types]
            for h in holes:
                hard0 = up[0] + self.types[h][0]
                dist = self.dealer(_take(rem, h), hard0, up[0] == 1 or self.types[h][0] == 1)
                vec[h] = _mix([(p, {sum((self.settle(x, t, up) for x in done), ZERO): Fraction(1)}) for t, p in dist])
            return tuple(vec)
        cards, k, split, status = cur
        if len(cards) == 1:  # a split hand receives its second card (§ 551.12(b))
            return self.draw(rem, done, cur, pending, k, up, limit)
        opts = self.options(rem, done, cur, pending, up, limit)
        if len(opts) == 1:
            return opts[0][1]
        if opts[0][0] == "resplit":  # a pair dealt to a split hand is resplit while under the limit
            return opts[0][1]
        if split:  # the post-split strategy (rules.post_split)
            ref_rem = self.remove_all(self.start, (up,) + cards)
            if self.rules.post_split == "cdz":  # the best for these cards as an unsplit hand
                name = self.reference(ref_rem, (cards, k, False, status), up, True)
            else:  # cdp1: the best for the first split hand (cdp: the same with two hands)
                other = next(i for i, t in enumerate(self.types) if t[0] == cards[0][0] and ref_rem[i])
                name = self.reference(_take(ref_rem, other), cur, up, True)
            return dict(opts)[name]
        return max((vec for _, vec in opts), key=lambda vec: self.weigh(rem, up, vec))

    def options(self, rem: tuple[int, ...], done: tuple[Hand, ...], cur: Hand, pending: tuple[CardType, ...],
                up: CardType, limit: int, lone: bool = False) -> list[tuple[str, tuple[Dist, ...]]]:
        """Every action open to the hand ``cur`` with its distribution vector, in the engine's
        order (``lone``: no split or surrender, a post-split strategy's reference hand)."""
        cards, k, split, status = cur
        hard, best = _points(cards)
        out: list[tuple[str, tuple[Dist, ...]]] = []

        def finish(hand: Hand) -> tuple[Dist, ...]:
            return self.play(rem, done + (hand,), None, pending, up, limit)

        if status == "doubled":
            if hard > 21:
                return [("bust", finish((cards, k, split, "bust")))]
            out.append(("stand", finish((cards, k, split, "stood"))))
            if self.rules.rescue and (k <= 1 or self.rules.rescue_after_redouble != "none"):
                out.append(("rescue", finish((cards, k, split, "rescue"))))
            if k <= self.rules.redoubles and best < 21:
                out.append(("redouble", self.draw(rem, done, cur, pending, k + 1, up, limit)))
            return out
        if hard > 21:
            return [("bust", finish((cards, k, split, "bust")))]
        hands = len(done) + 1 + len(pending)
        if (not lone and split and len(cards) == 2 and cards[0][0] == cards[1][0] and hands < limit
                and (cards[0][0] != 1 or self.rules.resplit_aces)):
            return [("resplit", self.play(rem, done, ((cards[0],), 0, True, "play"), (cards[1],) + pending, up, limit))]
        locked = split and cards[0][0] == 1 and not self.rules.hit_split_aces
        out.append(("stand", finish((cards, 0, split, "stood"))))
        if best < 21 and not locked:
            out.append(("hit", self.draw(rem, done, cur, pending, 0, up, limit)))
            soft = best != hard
            if ((len(cards) == 2 and self.rules.double_total_allowed(best, soft)) or
                    (len(cards) > 2 and self.rules.double_any_cards)) and (not split or self.rules.double_after_split):
                out.append(("double", self.draw(rem, done, cur, pending, 1, up, limit)))
        if not lone and not split and len(cards) == 2 and self.rules.surrender:
            out.append(("surrender", finish((cards, 0, split, "surrender"))))
        if (not lone and not split and len(cards) == 2 and cards[0][0] == cards[1][0] and self.rules.max_hands >= 2):
            most = self.rules.max_hands if (cards[0][0] != 1 or self.rules.resplit_aces) else 2
            for lim in (range(2, most + 1) if self.rules.resplit_optional else (most,)):
                out.append((f"split{lim}", self.play(rem, done, ((cards[0],), 0, True, "play"), (cards[1],) + pending,
                                                up, lim)))
        return out

    def draw(self, rem: tuple[int, ...], done: tuple[Hand, ...], cur: Hand, pending: tuple[CardType, ...],
             k: int, up: CardType, limit: int = 0) -> tuple[Dist, ...]:
        """Deal one card to the current hand (``k`` doublings after it; k > 0: a double card)."""
        n = sum(rem)
        cards, k0, split, _ = cur
        vec: list[Dist] = [{} for _ in self.types]
        children = {}
        for i, c in enumerate(rem):
            if c:
                status = "doubled" if k > 0 else "play"
                children[i] = self.play(_take(rem, i), done, (cards + (self.types[i],), k, split, status), pending, up, limit)
        for h, kh in enumerate(rem):
            if not kh or _bj_hole(up, self.types[h]):
                continue
            vec[h] = _mix([(Fraction(c - (1 if i == h else 0), n - 1), children[i][h])
                           for i, c in enumerate(rem) if c])
        return tuple(vec)

def brute_force_distribution(shoe: SpanishShoe, rules: Rules) -> Dist:
    """The exact distribution of the round's net result per unit (net → probability, adding up
    to 1) under optimal play, by the full game tree (the player's own hands: no envy payouts)."""
    types: list[CardType] = [t for t, _ in shoe.types()]
    start = tuple(shoe.count(t) for t in types)
    points = sum(v * k for (v, _), k in zip(types, start))
    if points <= 31 * (rules.max_hands + 1):
        raise InputError("shoe too small: it could run out within a round")
    tree = _Tree(rules, types, start)
    bj_pays = rules.blackjack_payout()
    total: Dist = {}
    size = sum(start)
    for i1, k1 in enumerate(start):
        r1 = _take(start, i1)
        for iu in range(len(types)):
            ku = r1[iu]
            if not ku:
                continue
            r2 = _take(r1, iu)
            for i2 in range(len(types)):
                k2 = r2[i2]
                if not k2:
                    continue
                rem = _take(r2, i2)
                p = Fraction(k1 * ku * k2, size * (size - 1) * (size - 2))
                up, c1, c2 = types[iu], types[i1], types[i2]
                n = sum(rem)
                player_bj = {c1[0], c2[0]} == {1, 10}
                parts: list[tuple[Fraction, Dist]] = []
                vec = None if player_bj else tree.play(rem, (), ((c1, c2), 0, False, "play"), (), up)
                for h, kh in enumerate(rem):
                    if not kh:
                        continue
                    ph = p * Fraction(kh, n)
                    if _bj_hole(up, types[h]):
                        parts.append((ph, {(bj_pays if rules.blackjack_beats_dealer_blackjack else ZERO)
                                           if player_bj else Fraction(-1): Fraction(1)}))
                    elif player_bj:
                        parts.append((ph, {bj_pays: Fraction(1)}))
                    else:
                        assert vec is not None
                        # vec[h] is the distribution given the hole card h; the player's cards came from rem too
                        parts.append((ph, vec[h]))
                for k, q in _mix(parts).items():
                    total[k] = total.get(k, ZERO) + q
    return {k: total[k] for k in sorted(total) if total[k]}
