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
resplits each order of a pair of two suits is valued, and its best recorded for the walks that
play the engine's decisions (:meth:`Game.decide`, :meth:`Decision.by_order`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from exactodds.blackjack.compiled import solver_class
from exactodds.blackjack.dealer import DealerTable, hand_total
from exactodds.blackjack.hands import (
    HAND_POINTS_MAX,
    ZERO,
    Chooser,
    ClassKey,
    HandSolver,
    Plan,
    Policy,
    _add,
    _sub,
    choose,
    dealer_outcomes,
    dealer_table,
    decision_class,
    hand_rows,
    max_of,
    no_blackjack,
    suit_bonus,
    two_card_class,
)
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import SUITED, CardType, SpanishShoe, Values
from exactodds.blackjack.split_pattern import deepest_extra
from exactodds.blackjack.split_values import ONE_CARD, TWO_CARDS, _SplitMemo
from exactodds.blackjack.split_values import _SplitValues as _SplitValues  # (re-exported: the distribution reads it)
from exactodds.errors import InputError


def initial_deals(shoe: SpanishShoe) -> dict[tuple[CardType, CardType, CardType], int]:
    """The ordered ways (player's first card, up card, player's second card: the deal order of
    § 551.8(d)) of each initial deal ``(up, low card, high card)``, the player's two cards unordered;
    they add up to ``n(n−1)(n−2)``. The ways to draw given card types in a given order are
    ``Π ff(count, times drawn)`` whatever the order, so a deal of two different cards has twice
    that; the deals come in ascending order."""
    types = list(shoe.types())  # (ascending)
    weights: dict[tuple[CardType, CardType, CardType], int] = {}
    for up, ku in types:
        for i, (a, ka) in enumerate(types):
            for b, kb in types[i:]:
                if a == b:
                    w = ku * (ku - 1) * (ku - 2) if up == a else ka * (ka - 1) * ku
                elif up == a:
                    w = 2 * ka * (ka - 1) * kb
                elif up == b:
                    w = 2 * kb * (kb - 1) * ka
                else:
                    w = 2 * ka * kb * ku
                if w > 0:
                    weights[(up, a, b)] = w
    return weights


@dataclass
class Decision:
    """The unnormalised action values of one initial deal (player's two cards, the up card)."""

    up: CardType
    cards: tuple[CardType, CardType]
    actions: dict[str, Fraction]
    best: str
    value: Fraction
    """The round's value: best action (no dealer Blackjack) plus the dealer-Blackjack branch."""
    order_bests: tuple[str, str] | None = None
    """With resplits and the 6-7-8 / 7-7-7 bonus, a pair of one value and two suits: the action
    taken when ``cards[0]`` is dealt first and when ``cards[1]`` is (§ 551.8(d): the first pair
    card's hand gets the first non-pair card, the second's is dealt last, § 551.12(b),(c)), the
    split valued for each order; None when the order of the cards does not matter (:attr:`best`)."""
    split_orders: tuple[Fraction, Fraction] | None = None
    """The split's value for those two orders (``actions["split"]`` is their average); None with
    :attr:`order_bests`."""

    def by_order(self) -> tuple[tuple[CardType, CardType, str], ...]:
        """``(first card dealt, second card, action taken)`` for each order of the player's two
        cards, equally likely: both orders when the order matters (:attr:`order_bests`), else the
        cards as listed with :attr:`best`. A walk of the engine's decisions (the distribution,
        the simulation) plays these, not ``best`` (the best of the two orders' average)."""
        c1, c2 = self.cards
        if self.order_bests is None:
            return ((c1, c2, self.best),)
        return ((c1, c2, self.order_bests[0]), (c2, c1, self.order_bests[1]))


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


class ReferenceChooser:
    """A post-split strategy read from a reference solver (:meth:`Game._chooser`): at a node, the
    action best for the reference among the node's available actions (first listed on a tie); the
    compiled solver reads :attr:`reference`'s decisions directly (:mod:`exactodds.blackjack.compiled`)."""

    def __init__(self, reference: HandSolver) -> None:
        self.reference = reference

    def __call__(self, hand: Values, doublings: int, acts: Collection[str]) -> str:
        ref = self.reference
        ref.value(hand, doublings)
        known = ref.node_actions.get((hand, doublings))
        if known is None:  # one action there: the same one here
            return next(iter(acts))
        return max(acts, key=lambda a: known[a])


class Game:
    """The composition-dependent analysis of one shoe under one rule set."""

    def __init__(self, shoe: SpanishShoe, rules: Rules, policy: Policy | None = None) -> None:
        self.shoe, self.rules, self.policy = shoe, rules, policy
        points = sum((i + 1) * c for i, c in enumerate(shoe.values))
        if points <= HAND_POINTS_MAX * (rules.max_hands + 1):
            raise InputError(f"a shoe of {points} points could run out within a round "
                             f"(needs more than {HAND_POINTS_MAX * (rules.max_hands + 1)})")
        self.solvers: dict[tuple[int, int, int], HandSolver] = {}
        self.batched: set[int] = set()
        """The up cards whose solvers' hands were asked of the dealer's table in one batch (:meth:`solver`)."""
        self.tables: dict[int, DealerTable] = {}
        """The dealer's table of each up card (:func:`dealer_table`, taken once: its solvers share it)."""
        self.chosen_asked: set[int] = set()
        """The up cards whose table was asked for the chosen solvers' hands (:meth:`_request_chosen`)."""
        self.hand_rows: npt.NDArray[np.int64] | None = None
        """Every hand that stands, as rows (:meth:`_dealt_rows`; built on first use)."""
        self.solver_class = solver_class()
        """The hand solver this game builds: compiled when numba is installed (unless
        ``EXACTODDS_PURE=1``), else the Python one (:func:`~exactodds.blackjack.compiled.solver_class`)."""
        self.split_context: tuple[CardType, tuple[CardType, CardType], SpanishShoe] | None = None
        self.split_memos: dict[tuple[object, ...], _SplitMemo] = {}
        """The memos of :class:`_SplitValues` by up card, pair value and shoe left (one up card's)."""
        self.suit_corrections: dict[tuple[object, ...], tuple[int, int]] = {}
        """:meth:`_SplitValues._suit_correction` by what it reads."""
        self.plans: dict[tuple[int, bool, bool], dict[tuple[Values, int], Plan]] = {}
        """Node plans shared under a fixed strategy (:meth:`_shared_plans`); an up card's freed with
        its values."""
        self.deal_ranks: dict[tuple[int, int, int], tuple[dict[str, Fraction], Fraction]] = {}
        """:meth:`_rank_actions` by up card value and the player's two values (one up card's)."""
        self.split_decisions: dict[tuple[object, ...], list[str]] = {}
        """The suit-aware first decisions of a split hand by suits (:meth:`_SplitValues._split_decision`)."""
        self.floor = max(0, shoe.size - 50 - 2 * max(0, rules.max_hands - 2))
        """Fewest cards a hand solver's shoe can hold: up card, pair, 2·(max_hands − 2) more pair cards,
        a hand of at most 21 cards,
        a dealer hand of at most 26 (the dealer's integer numerators share N!/floor!)."""

    def solver(self, up: int, split_value_: int = 0, extra: int = 0) -> HandSolver:
        """The hand solver for up card ``up`` (and, for a split hand, pair value ``split_value_``
        with ``extra`` more pair cards than the pair out of the shoe); a split hand plays the
        post-split strategy of the rules (:meth:`_chooser`)."""
        got = self.solvers.get((up, split_value_, extra))
        if got is not None:  # (asked thousands of times)
            return got
        return self._new_solver(up, split_value_, extra)

    def _new_solver(self, up: int, split_value_: int, extra: int) -> HandSolver:
        """:meth:`solver`, built: the up card's dealer table (one per up card, :attr:`tables`)
        asked first, in one batch, for every hand its solvers stand on."""
        base = _sub(self.shoe.values, up)
        for _ in range(1 + extra if split_value_ else 0):
            base = _sub(base, split_value_)
        table = self.tables.get(up)
        if table is None:
            table = self.tables[up] = dealer_table(self.shoe.values, up, self.rules.hit_soft_17, self.floor)
        if up not in self.batched:  # every hand this up card's solvers stand on, one batch
            self.batched.add(up)
            splits = [(r, extra) for r, extra in self._splits(up) if not self._chosen(r, extra)]
            names = [("hands", r, extra) for r, extra in splits]
            if not table.asked.issuperset(names):
                table.request_removed(self._dealt_rows(table.base, splits), names)
        chosen = self._chosen(split_value_, extra)
        chooser = self._chooser(up, split_value_, extra) if split_value_ else None
        hs = self.solvers[(up, split_value_, extra)] = self.solver_class(
            base, up, self.rules, bool(split_value_), self.floor, self.policy, table, split_value_, extra, chooser,
            request=not chosen, plans=self._shared_plans(up, split_value_))
        if chosen and up not in self.chosen_asked:  # (the table's check hashes the rules: once per up card)
            self.chosen_asked.add(up)
            if ("chosen", up, self.rules, self.policy is None) not in table.asked:
                self._request_chosen(up, table)
        return hs

    def _dealt_rows(self, cap: Values, splits: list[tuple[int, int]]) -> npt.NDArray[np.int64]:
        """The cards the standing hands of the solvers ``splits`` (``(pair, extra)``) take from the
        shoe less the up card ``cap``, as rows (repeats allowed): :func:`_dealt`'s hands for each,
        from one array of every standing hand (:func:`hand_rows`) moved by the pair cards out, kept
        where ``cap`` holds them."""
        if self.hand_rows is None:
            self.hand_rows = hand_rows()
        hands = self.hand_rows
        parts = []
        for r, extra in splits:
            rows = hands
            if r:
                rows = hands[hands[:, r - 1] > 0]
                rows[:, r - 1] += 1 + extra
            parts.append(rows[(rows <= np.array(cap, dtype=np.int64)).all(axis=1)])
        return np.concatenate(parts) if parts else np.zeros((0, 10), dtype=np.int64)

    def _shared_plans(self, up: int, pair: int) -> dict[tuple[Values, int], Plan] | None:
        """The node plans (:meth:`HandSolver._plan`) a solver shares under a fixed strategy (the
        basic chart's play): those of the solvers of the same up card, kind of hand (split or not)
        and split-ace lock, which do the same at every node whatever the cards out; None otherwise."""
        if self.policy is None:
            return None
        locked = pair == 1 and not self.rules.hit_split_aces
        return self.plans.setdefault((up, bool(pair), locked), {})

    def _chosen(self, pair: int, extra: int) -> bool:
        """Whether the solver ``(pair, extra)`` (pair 0: unsplit hands) plays a strategy fixed
        ahead of its values: the game's fixed strategy (the basic chart), or a post-split strategy
        read from another solver (:meth:`_chooser`). It then values only the actions that
        strategy takes, and stands on far fewer hands than it could hold (about half, 8 decks)."""
        if self.policy is not None:
            return True
        mode = self.rules.post_split
        return bool(pair) and (mode == "cdz" or (mode == "cdp1" and extra > 0))

    def _request_chosen(self, up: int, table: DealerTable) -> None:
        """Ask the dealer's table, in one batch, for the hands up card ``up``'s chosen split
        solvers (:meth:`_chosen`) stand on: per pair, the walk of the one with the fewest pair
        cards out (:meth:`HandSolver.stood_on`; the decisions are the reference solver's, the
        same for every number out, and a shoe with fewer cards deals fewer hands), moved by the
        pair cards out of each and kept where the shoe holds them.

        Under a fixed strategy (the basic chart's play after the optimal solve) on a table that
        already holds the optimal game's hands (``("hands", 0, 0)`` asked), no walk: the few
        hands more it stands on are asked one at a time (0.1 s on 8 decks, the walk 1 s)."""
        table.asked.add(("chosen", up, self.rules, self.policy is None))  # (the table serves every rule set)
        if self.policy is not None and ("hands", 0, 0) in table.asked:
            return
        by_pair: dict[int, list[int]] = {}
        for r, extra in self._splits(up):
            if self._chosen(r, extra):
                by_pair.setdefault(r, []).append(extra)
        codes: list[npt.NDArray[np.int64] | npt.NDArray[np.object_]] = []
        cap = table.base
        for r, extras in by_pair.items():
            walker = self.solver(up, r, min(extras))
            if not r:  # unsplit: the initial two-card hands stand, hit and double (:meth:`HandSolver.actions`)
                twos = [h for h in {_add(_add((0,) * 10, i), j) for i in range(1, 11) for j in range(i, 11)}
                        if all(a <= b for a, b in zip(h, walker.base))]
                codes.append(table.codes_of(np.array(twos, dtype=np.int64).reshape(-1, 10)))
                codes.append(table.codes_of(walker.stood_rows((_add(h, i + 1), d) for h in twos for i in range(10)
                                                              for d in (0, 1) if h[i] < walker.base[i])))
                continue
            # a split hand: from its two-card hands (every action valued there); each number of
            # extra pair cards out at once, by codes (a pair card more adds its radix); the
            # walker's hands fit its shoe: only the pair's count can exceed the table's
            hands = walker.stood_rows((TWO_CARDS[r - 1][i], 0) for i, k in enumerate(walker.rem(ONE_CARD[r - 1])) if k)
            own = table.codes_of(hands)
            out = 1 + np.array(extras, dtype=np.int64)[:, None]
            moved = own[None, :] + out.astype(own.dtype) * table.radix(r)  # (object codes: a huge shoe's)
            codes.append(moved[hands[:, r - 1][None, :] + out <= cap[r - 1]])
        if codes:
            table.request_codes(np.concatenate(codes))

    def _splits(self, up: int) -> list[tuple[int, int]]:
        """The hand solvers a solve can ask for with up card ``up``: ``(0, 0)`` for unsplit hands,
        ``(pair, extra)`` for split hands (:meth:`solver`)."""
        left = _sub(self.shoe.values, up)
        out = [(0, 0)]
        if self.rules.max_hands >= 2:
            for r in range(1, 11):
                # the pattern sum reads base values down to the shoe less deepest_extra(most) extra
                # pair cards (:func:`~exactodds.blackjack.split_pattern.deepest_extra`), at most the pair cards left
                out.extend((r, extra) for extra in range(min(deepest_extra(self._most_hands(r)), left[r - 1] - 2) + 1))
        return out

    def _most_hands(self, pair: int) -> int:
        """The most hands a pair of value ``pair`` can be split to (§ 551.12(c) as the rules vary it:
        aces not resplit, two)."""
        return self.rules.max_hands if (pair != 1 or self.rules.resplit_aces) else 2

    def _chooser(self, up: int, pair: int, extra: int) -> Chooser | None:
        """The post-split strategy of a split hand (``rules.post_split``, § 551.12(b),(c)):
        ``cdz`` takes at each node the action best for the same cards as an unsplit hand (the
        pre-split decision), ``cdp1`` the action best for the first split hand (no extra pair
        card out), ``cdp`` the best for its own shoe (None: each node's best)."""
        mode = self.rules.post_split
        if mode == "cdp" or (mode == "cdp1" and extra == 0):
            return None
        return ReferenceChooser(self.solver(up) if mode == "cdz" else self.solver(up, pair, 0))

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
        for share in [k for k in self.plans if k[0] == up]:
            del self.plans[share]
        self.split_memos.clear()
        self.deal_ranks.clear()
        self.suit_corrections.clear()
        self.split_decisions.clear()

    def split_value(self, up: CardType, p1: CardType, p2: CardType, left: SpanishShoe | None = None) -> Fraction:
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
        if left is None:  # (``left``: the shoe less the three cards, when the caller has it)
            left = self.shoe.remove(up, p1, p2)
        most = min(self._most_hands(r), 2 + left.values[r - 1])
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
        u, r1, r2 = up[0], c1[0], c2[0]
        ranks = self.deal_ranks.get((u, r1, r2))
        if ranks is None:
            ranks = self.deal_ranks[(u, r1, r2)] = self._rank_actions(u, r1, r2, left.values)
        base, pn = ranks
        if r1 + r2 == 11 and r1 * r2 == 10:  # an ace and a 10: Blackjack
            bj = rules.blackjack_payout()
            value = bj * pn + (1 - pn) * (bj if rules.blackjack_beats_dealer_blackjack else ZERO)
            return Decision(up, (c1, c2), {"blackjack": bj * pn}, "blackjack", value)
        acts = dict(base)
        for name in ("hit", "double") if rules.bonus_678_777 else ():  # (:func:`suit_bonus`: none else)
            if name in acts:
                bonus = suit_bonus(c1, c2, up, left, rules, False, name == "double")
                if bonus:  # (most hands: none)
                    acts[name] += bonus
        orders: tuple[Fraction, ...] = ()
        if r1 == r2 and rules.max_hands >= 2:
            acts["split"] = self.split_value(up, c1, c2, left)
            if c1 != c2 and r1 in SUITED and rules.bonus_678_777 and rules.max_hands >= 3:
                # with resplits the first pair card's hand and the last-dealt one differ (the
                # first gets the first non-pair card): with a suit bonus the order of the pair
                # matters, and the player, who saw it, decides for each order
                orders = (acts["split"], self.split_value(up, c2, c1, left))
                acts["split"] = (orders[0] + orders[1]) / 2
        ranking = self.policy(two_card_class(u, r1, r2, False)) if self.policy else None
        best = choose(acts, ranking) if ranking else max(acts, key=acts.__getitem__)  # (choose's best value)
        value = acts[best]
        order_bests: tuple[str, str] | None = None
        if orders:  # each order's best, the two orders equally likely (played so: :meth:`Decision.by_order`)
            order_bests = (choose({**acts, "split": orders[0]}, ranking), choose({**acts, "split": orders[1]}, ranking))
            if orders[0] != orders[1]:
                value = sum((max_of({**acts, "split": v}, ranking) for v in orders), ZERO) / 2
        lost = 1 - pn if u == 1 or u == 10 else ZERO  # the dealer-Blackjack branch (only with a peek, § 551.8(e))
        return Decision(up, (c1, c2), acts, best, value - lost if lost else value, order_bests,
                        (orders[0], orders[1]) if orders else None)

    def _rank_actions(self, up: int, r1: int, r2: int, left: Values) -> tuple[dict[str, Fraction], Fraction]:
        """What :meth:`decide` reads of a deal's ranks alone (the same for every suit of its cards):
        the values of the hand's actions but split, without suit bonus (:meth:`HandSolver.actions`,
        then surrender), and P(no dealer Blackjack) (``left``: the value counts after the deal)."""
        pn = no_blackjack(left, up)
        if r1 + r2 == 11 and r1 * r2 == 10:  # an ace and a 10: Blackjack
            return {}, pn
        acts = self.solver(up).actions(TWO_CARDS[r1 - 1][r2 - 1])
        if self.rules.surrender:
            acts["surrender"] = -pn / 2
        return acts, pn

    def solve(self, progress: Callable[[int, int, str], None] | None = None) -> GameResult:
        """The expected return per unit of the main wager, optimal composition-dependent play;
        ``progress(done, total, label)`` after each initial deal (the command line draws it).

        Under rules that read no suit (no 6-7-8 / 7-7-7 bonus, § 551.6(g)(1)-(4), the only rule
        whose payout reads suits; the super bonus of § 551.6(h) is one of its draws) a deal's
        values depend on its ranks alone: each rank triple is decided once (:meth:`decide`) and
        every suited deal of it gets a :class:`Decision` of its own cards with those values
        (:meth:`_suited_copy`), its weight added to the triple's (one product in the sum)."""
        shoe = self.shoe
        n = shoe.size
        weights = initial_deals(shoe)  # (ascending: the deals come by up card)
        denom = n * (n - 1) * (n - 2)
        reads_suits = self.rules.bonus_678_777
        decided: dict[object, Decision] = {}  # the decision by what it reads
        summed: dict[object, int] = {}  # and the Σ of its deals' weights
        probs = {w: Fraction(w, denom) for w in set(weights.values())}  # by weight (few distinct weights)
        p_super = ZERO
        deals: dict[tuple[CardType, CardType, CardType], tuple[Fraction, Decision]] = {}
        last_up, label, count = 0, "", len(weights)
        for index, (key, w) in enumerate(weights.items()):
            up, c1, c2 = key
            u = up[0]
            if u != last_up:  # the last up card's solvers are done
                self._release(last_up)
                last_up, label = u, f"up card {'A' if u == 1 else u}"
            if progress is not None:
                progress(index, count, label)
            by: object = key if reads_suits else (u, c1[0], c2[0])
            got = decided.get(by)
            if got is None:
                d = decided[by] = self.decide(up, c1, c2)
                summed[by] = w
            else:
                d = self._suited_copy(got, up, c1, c2)
                summed[by] += w
            p = probs[w]
            deals[key] = (p, d)
            if u == 7 and c1 == c2 and c1[0] == 7 and d.best == "hit":
                left = shoe.remove(up, c1, c2)
                p_super += p * Fraction(left.suits[7][c1[1]], left.size)
        self._release(last_up)
        if progress is not None:
            progress(len(weights), len(weights), "done")
        sums: dict[int, int] = {}  # Σ w·value by the value's denominator: one division at the end
        for by, d in decided.items():
            sums[d.value.denominator] = sums.get(d.value.denominator, 0) + summed[by] * d.value.numerator
        lcm = math.lcm(*sums)
        total = Fraction(sum(k * (lcm // den) for den, k in sums.items()), lcm * denom)
        envy = ZERO
        if self.rules.other_players and self.rules.super_bonus():
            envy = self.rules.other_players * self.rules.envy() * p_super
        return GameResult(shoe, self.rules, total + envy, p_super, deals, envy)

    @staticmethod
    def _suited_copy(d: Decision, up: CardType, c1: CardType, c2: CardType) -> Decision:
        """The decision of the deal ``up, c1, c2`` of the same ranks as ``d``'s under rules that
        read no suit (:meth:`solve`): ``d``'s values, its own cards (and actions dict)."""
        return Decision(up, (c1, c2), dict(d.actions), d.best, d.value, d.order_bests, d.split_orders)


def expected_return(shoe: SpanishShoe, rules: Rules) -> Fraction:
    """The main wager's exact expected return per unit (composition-dependent optimal play)."""
    return Game(shoe, rules).solve().expected


__all__ = ["ClassKey", "Decision", "Game", "initial_deals", "Policy", "choose", "decision_class", "two_card_class", "GameResult", "HandSolver", "SUITED", "dealer_outcomes", "expected_return",
           "hand_total", "no_blackjack", "suit_bonus"]
