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

from exactodds.blackjack.hands import SCALE, _hands, children, open_actions, shape
from exactodds.blackjack.rules import Rules
from exactodds.blackjack.shoe import Values

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
    slot_masks: dict[tuple[bool, bool], tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8], npt.NDArray[np.bool_]]] = \
        field(default_factory=dict)
    """(split, locked) -> :meth:`slots`."""
    root_masks: dict[int, npt.NDArray[np.uint8]] = field(default_factory=dict)
    """Pair value (0: unsplit) -> :meth:`roots`."""

    def __post_init__(self) -> None:
        self.firsts: IntArray = np.flatnonzero((self.ncards == 2) & (self.dbl == 0))
        """The two-card nodes before any doubling (a hand's first decision), ascending: every
        solver reads their values and actions, so these are gathered by index, never by mask."""
        self.first_keys = [self.keys[k] for k in self.firsts.tolist()]

    def opens(self, split: bool, locked: bool) -> tuple[IntArray, IntArray]:
        got = self.kinds.get((split, locked))
        if got is None:
            table = np.full((len(self.keys), 3), -1, dtype=np.int64)
            count = np.zeros(len(self.keys), dtype=np.int64)
            for k, (hand, d) in enumerate(self.keys):
                names = open_actions(self.rules, split, locked, hand, d)
                count[k] = len(names)
                table[k, :len(names)] = [CODE[a] for a in names]
            got = self.kinds[(split, locked)] = (table, count)
        return got

    def slots(self, split: bool, locked: bool) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8],
                                                         npt.NDArray[np.bool_]]:
        """Of a kind of hand: which of each node's three slots hold an open action (as booleans and
        as the bytes the loops read), and which nodes have a choice (two actions or more). Built
        once per graph: every solver's plan starts from them (a solve builds hundreds of solvers)."""
        got = self.slot_masks.get((split, locked))
        if got is None:
            nopen = self.opens(split, locked)[1]
            slots = np.arange(3)[None, :] < nopen[:, None]
            got = self.slot_masks[(split, locked)] = (slots, slots.astype(np.uint8), nopen > 1)
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


def _build_graph(rules: Rules) -> Graph:
    """Every node an unsplit hand reaches from its two cards (a split hand's nodes are among them:
    its open actions are the same or fewer), children first."""
    seen: set[tuple[Values, int]] = set()
    stack = [(h, 0) for h in _hands() if sum(h) == 2]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        hand, d = node
        hard = shape(hand)[0]
        for name in open_actions(rules, False, False, hand, d):
            if name in ("hit", "double", "redouble"):
                after = 0 if name == "hit" else d + 1
                kids = children(hand)
                stack.extend((kids[i], after) for i in range(min(21 - hard, 10)))
    keys = sorted(seen, key=lambda kd: (-sum(kd[0]), kd[1], kd[0]))
    index = {key: k for k, key in enumerate(keys)}
    n = len(keys)
    hands = np.array([h for h, _ in keys], dtype=np.int64).reshape(n, 10)
    kid0 = np.full((n, 10), -1, dtype=np.int64)
    kidd = np.full((n, 10), -1, dtype=np.int64)
    coef = np.zeros((n, 6), dtype=np.int64)
    resc = np.zeros(n, dtype=np.int64)
    hard_a = np.zeros(n, dtype=np.int64)
    classes: dict[tuple[object, ...], int] = {}
    cls = np.zeros(n, dtype=np.int64)
    for k, (hand, d) in enumerate(keys):
        hard, total, soft, ncards = shape(hand)
        hard_a[k] = hard
        kids = children(hand)
        for i in range(min(21 - hard, 10)):
            kid0[k, i] = index.get((kids[i], 0), -1)
            kidd[k, i] = index.get((kids[i], d + 1), -1)
        coef[k] = _stand_coefficients(rules, total, ncards, d)
        loss = rules.rescue_loss(d) if d else None
        resc[k] = -SCALE * loss if loss is not None else 0
        key: tuple[object, ...] = ("doubled", soft, total, d) if d else ("multi", soft, total, min(ncards, 6))
        cls[k] = classes.setdefault(key, len(classes))
    return Graph(rules, keys, index, hands, hard_a, hands.sum(axis=1), np.array([d for _, d in keys], dtype=np.int64),
                 hands @ (1 << (RADIX * np.arange(10, dtype=np.int64))), kid0, kidd, coef, resc, {}, list(classes), cls)


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
