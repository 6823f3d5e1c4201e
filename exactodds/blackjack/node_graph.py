"""The flat node graph of a hand's decisions under one rule set, for the compiled hand solver
(:mod:`exactodds.blackjack.compiled`): every node (hand composition by value, doublings) in
topological order with its children, points, open actions and the pay coefficients of standing.
Why its own module: the graph depends on the rules alone, never on the shoe, so it is built once
per rule set and shared by every compiled solver; the solver module keeps the evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt

from exactodds.blackjack.hands import SCALE, _hands
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import Values
from exactodds.errors import InputError

IntArray = npt.NDArray[np.int64]

ACTIONS: Final = ("stand", "hit", "double", "rescue", "redouble")
"""The action codes of the loops (:data:`exactodds.blackjack.hand_kernel.STAND` ...)."""
CODE: Final = {name: i for i, name in enumerate(ACTIONS)}

RADIX: Final = 6
"""Bits per value in a composition's code (counts below 64: a hand's 21 aces and six pair cards)."""


@dataclass(eq=False)
class Graph:
    """The flat node graph of one rule set (module doc): node ``k`` is ``keys[k]`` (hand, doublings)."""

    rules: Rules
    keys: list[tuple[Values, int]]
    index: dict[tuple[Values, int], int]
    hands: IntArray
    hard: IntArray
    ncards: IntArray
    dbl: IntArray
    code: IntArray
    kid0: IntArray
    kidd: IntArray
    coef: IntArray
    resc: IntArray
    kinds: dict[tuple[bool, bool], tuple[IntArray, IntArray]]
    """(split, locked split aces) -> the open action codes of each node (-1 padded) and how many."""
    classes: list[tuple[object, ...]]
    """The decision classes without the up card and split flag (:func:`decision_class`)."""
    cls: IntArray
    slot_masks: dict[tuple[bool, bool], tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8], npt.NDArray[np.bool_],
                                              npt.NDArray[np.bool_]]] = field(default_factory=dict)
    """(split, locked) -> :meth:`slots`."""
    root_masks: dict[int, npt.NDArray[np.uint8]] = field(default_factory=dict)
    """Pair value (0: unsplit) -> :meth:`roots`."""

    def __post_init__(self) -> None:
        self.is_two: npt.NDArray[np.bool_] = self.ncards == 2
        """The two-card nodes (doubled or not)."""
        self.is_first: npt.NDArray[np.bool_] = self.is_two & (self.dbl == 0)
        """The two-card nodes before any doubling (a hand's first decision): every solver reads
        their values and actions one by one, so they are reconstructed in a batch."""
        self.firsts: IntArray = np.flatnonzero(self.is_first)

    def opens(self, split: bool, locked: bool) -> tuple[IntArray, IntArray]:
        """The open action codes of each node for a kind of hand (-1 padded) and how many:
        :func:`~exactodds.blackjack.hands.open_actions` by array operations, in its order (stand;
        before a double hit and double, § 551.11(a); after one rescue, § 551.11(d), and redouble)."""
        got = self.kinds.get((split, locked))
        if got is None:
            _, total, soft, ncards = _shapes(self.hands)
            d = self.dbl
            hit = (d == 0) & (total < 21) & ~(locked & (ncards == 2))
            double = hit & _double_open(self.rules, split, total, soft, ncards)
            rescuable = np.array([self.rules.rescue_loss(i) is not None for i in range(int(d.max()) + 1)])
            rescue = (d > 0) & rescuable[d]
            redouble = (d > 0) & (d <= self.rules.redoubles) & (total < 21)
            table = np.full((len(self.keys), 3), -1, dtype=np.int64)
            count = np.ones(len(self.keys), dtype=np.int64)
            table[:, 0] = CODE["stand"]
            for code, on in ((CODE["hit"], hit), (CODE["double"], double), (CODE["rescue"], rescue),
                             (CODE["redouble"], redouble)):
                table[on, count[on]] = code
                count += on
            got = self.kinds[(split, locked)] = (table, count)
        return got

    def slots(self, split: bool, locked: bool) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8],
                                                         npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Of a kind of hand: which of each node's three slots hold an open action (as booleans and
        as the bytes the loops read), which nodes have a choice (two actions or more), and which
        first-decision nodes (:attr:`is_first`) have one. Built once per graph: every solver's plan
        starts from them (a solve builds hundreds of solvers)."""
        got = self.slot_masks.get((split, locked))
        if got is None:
            nopen = self.opens(split, locked)[1]
            slots = np.arange(3)[None, :] < nopen[:, None]
            got = self.slot_masks[(split, locked)] = (slots, slots.astype(np.uint8), nopen > 1,
                                                      self.is_first & (nopen > 1))
        return got

    def roots(self, pair: int) -> npt.NDArray[np.uint8]:
        """The roots of a solver's walk (bytes, by node): the first-decision nodes, those holding a
        card of value ``pair`` for a split hand's (``pair`` > 0). Shared: a caller copies to add any."""
        got = self.root_masks.get(pair)
        if got is None:
            roots = np.zeros(len(self.keys), dtype=np.uint8)
            firsts = self.firsts
            roots[firsts[self.hands[firsts, pair - 1] > 0] if pair else firsts] = 1
            got = self.root_masks[pair] = roots
        return got


_GRAPHS: dict[Rules, Graph] = {}


def graph_of(rules: Rules) -> Graph:
    """The :class:`Graph` of ``rules``, built once (the last few kept)."""
    got = _GRAPHS.get(rules)
    if got is None:
        if len(_GRAPHS) >= 8:
            _GRAPHS.pop(next(iter(_GRAPHS)))
        got = _GRAPHS[rules] = _build_graph(rules)
    return got


_POW: Final = 1 << (RADIX * np.arange(10, dtype=np.int64))
"""A hand's code is ``hands @ _POW`` (:data:`RADIX` bits per value; a hand holds at most 21 of one)."""


def _shapes(hands: IntArray) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_], IntArray]:
    """:func:`~exactodds.blackjack.hands.shape` of each row of ``hands``: hard points, total,
    softness, cards (§ 551.1: an ace counts 11 where the total stays within 21)."""
    hard = hands @ np.arange(1, 11, dtype=np.int64)
    soft = (hands[:, 0] > 0) & (hard + 10 <= 21)
    return hard, hard + 10 * soft, soft, hands.sum(axis=1)


def _double_open(rules: Rules, split: bool, total: IntArray, soft: npt.NDArray[np.bool_],
                 ncards: IntArray) -> npt.NDArray[np.bool_]:
    """:func:`~exactodds.blackjack.hands.can_double` by node (§ 551.11(a)), the rules' Python
    predicates read once per (total, softness)."""
    if split and not rules.double_after_split:
        return np.zeros(len(total), dtype=bool)
    allowed = np.array([[rules.double_total_allowed(t, bool(sf)) for sf in (0, 1)] for t in range(22)], dtype=bool)
    return np.where(ncards == 2, allowed[np.minimum(total, 21), soft.astype(np.int64)], rules.double_any_cards)


def _walk(rules: Rules) -> tuple[IntArray, IntArray]:
    """The nodes an unsplit hand reaches from its two cards (hands, doublings), level by level
    (one card more each): a hit from a total below 21 (no doubling yet), a double where
    :func:`_double_open` allows it, a redouble up to ``rules.redoubles`` (§ 551.11(a)); a child
    only within 21 hard points (:func:`~exactodds.blackjack.hands.open_actions`' actions that draw)."""
    firsts = np.array([h for h in _hands() if sum(h) == 2], dtype=np.int64).reshape(-1, 10)
    level_h, level_d = firsts, np.zeros(len(firsts), dtype=np.int64)
    out_h, out_d = [], []
    eye = np.eye(10, dtype=np.int64)
    while len(level_h):
        out_h.append(level_h)
        out_d.append(level_d)
        hard, total, soft, ncards = _shapes(level_h)
        can = total < 21
        hit = can & (level_d == 0)
        dbl = hit & _double_open(rules, False, total, soft, ncards)
        redo = can & (level_d > 0) & (level_d <= rules.redoubles)
        kids_h, kids_d = [], []
        for i in range(10):  # card value i + 1, drawn where it keeps the hand within 21 hard points
            fits = hard + i + 1 <= 21
            for draws, after in ((hit & fits, np.zeros_like(level_d)), ((dbl | redo) & fits, level_d + 1)):
                kids_h.append(level_h[draws] + eye[i])
                kids_d.append(after[draws])
        nxt_h, nxt_d = np.concatenate(kids_h), np.concatenate(kids_d)
        if len(nxt_d) and nxt_d.max() >= 8:
            raise InputError("internal: more doublings than the hand graph's codes hold")
        code = (nxt_h @ _POW) * 8 + nxt_d
        _, first = np.unique(code, return_index=True)
        level_h, level_d = nxt_h[first], nxt_d[first]
    hands, dbls = np.concatenate(out_h), np.concatenate(out_d)
    # keys sorted by (more cards first, doublings, hand): np.lexsort's last key is the first
    order = np.lexsort(tuple(hands[:, v] for v in range(9, -1, -1)) + (dbls, -hands.sum(axis=1)))
    return hands[order], dbls[order]


def _build_graph(rules: Rules) -> Graph:
    """Every node an unsplit hand reaches from its two cards (a split hand's nodes are among them:
    its open actions are the same or fewer), children first; built by array operations (a fresh
    solve builds it once: the node-by-node walk took a tenth of a second)."""
    hands, dbls = _walk(rules)
    n = len(hands)
    keys = list(zip(map(tuple, hands.tolist()), dbls.tolist()))
    index = {key: k for k, key in enumerate(keys)}
    hard, total, soft, ncards = _shapes(hands)
    codes = hands @ _POW
    node_code = codes * 8 + dbls  # (a node's code: below 2⁶², a hand holding at most 21 of a value)
    sort = np.argsort(node_code)
    sorted_codes = node_code[sort]

    def lookup(want: IntArray) -> IntArray:
        pos = np.minimum(np.searchsorted(sorted_codes, want), n - 1)
        return np.where(sorted_codes[pos] == want, sort[pos], -1)

    kid0 = np.full((n, 10), -1, dtype=np.int64)
    kidd = np.full((n, 10), -1, dtype=np.int64)
    for i in range(10):
        fits = hard + i + 1 <= 21
        child = codes + int(_POW[i])
        kid0[:, i] = np.where(fits, lookup(child * 8), -1)
        kidd[:, i] = np.where(fits, lookup(child * 8 + dbls + 1), -1)
    combos, inverse = np.unique(np.column_stack([total, ncards, dbls]), axis=0, return_inverse=True)
    coef = np.array([_stand_coefficients(rules, t, c, d) for t, c, d in combos.tolist()],
                    dtype=np.int64).reshape(-1, 6)[inverse.reshape(-1)]
    losses = [rules.rescue_loss(d) if d else None for d in range(int(dbls.max()) + 1)]
    resc = np.array([-SCALE * loss if loss is not None else 0 for loss in losses], dtype=np.int64)[dbls]
    # decision classes numbered in order of first appearance: ("doubled", soft, total, d) or
    # ("multi", soft, total, cards up to 6)
    doubled = dbls > 0
    ckey = ((doubled * 2 + soft) * 32 + total) * 8 + np.where(doubled, dbls, np.minimum(ncards, 6))
    ids, first, inv = np.unique(ckey, return_index=True, return_inverse=True)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(ids))
    classes: list[tuple[object, ...]] = []
    for c in ids[np.argsort(first, kind="stable")].tolist():
        d_or_cards, t, sf, dd = c % 8, c // 8 % 32, bool(c // 256 % 2), c // 512
        classes.append(("doubled", sf, t, d_or_cards) if dd else ("multi", sf, t, d_or_cards))
    return Graph(rules, keys, index, hands, hard, ncards, dbls, codes, kid0, kidd, coef, resc, {}, classes,
                 rank[inv.reshape(-1)])


def _stand_coefficients(rules: Rules, total: int, ncards: int, doublings: int) -> list[int]:
    """The stand numerator's coefficients on the dealer's outcome numerators 17..21, bust (the
    same cases as :meth:`HandSolver.stand`, § 551.6(b),(c),(f),(g)(5)-(7))."""
    bet = 1 << doublings
    if total == 21 and ncards >= 3:
        pay = SCALE
        if rules.bonus_21_cards and ncards >= 5 and (doublings == 0 or rules.bonus_on_doubled):
            pay = 3 if ncards == 5 else 4 if ncards == 6 else 6
        if rules.player_21_wins:  # § 551.6(b)(4)
            return [bet * pay] * 6
        return [bet * pay] * 4 + [0, bet * pay]
    if total == 21 and rules.split_21_beats_dealer_21:
        return [SCALE * bet] * 6
    t = total - 17
    if t < 0:
        return [-SCALE * bet] * 5 + [SCALE * bet]
    return [SCALE * bet if o < t else 0 if o == t else -SCALE * bet for o in range(5)] + [SCALE * bet]


__all__ = ["ACTIONS", "CODE", "RADIX", "Graph", "graph_of"]
