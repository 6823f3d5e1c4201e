"""The compiled hand solver (:mod:`exactodds.blackjack.compiled`) gives the Python solver's integers.

Issue 27 (speed). The Python :class:`~exactodds.blackjack.hands.HandSolver` is the oracle: for
random shoes, up cards and rule sets, every node the compiled solver values -- unsplit hands,
split hands (optimal, or a post-split strategy read from a reference solver), a fixed strategy --
has the same numerator, every recorded action the same numerators, and a two-card hand the same
action values. The decisions the floats propose are checked too: with the margin set to +infinity
every decision is taken by the exact comparison, and the numerators are the same again.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactodds.blackjack import compiled
from exactodds.blackjack.engine import Game
from exactodds.blackjack.hands import ClassKey, HandSolver
from exactodds.blackjack.rules import AS_WRITTEN, STANDARD_RULES, WIZARD_RULES, Rules
from exactodds.blackjack.shoe import SpanishShoe

pytest.importorskip("numba")

STANDARD: dict[str, Any] = dict(player_21_wins=False, bonus_21_cards=False, bonus_678_777=False, rescue=False,
                                blackjack_beats_dealer_blackjack=False, hit_split_aces=False, resplit_aces=False)
"""Standard blackjack's differences from § 551 (as tests/test_blackjack.py reads them)."""

RULES = (
    STANDARD_RULES.with_(post_split="cdz", resplit_optional=False),
    STANDARD_RULES.with_(post_split="cdp1", double_after_split=False, hit_soft_17=True),
    AS_WRITTEN,
    AS_WRITTEN.with_(post_split="cdz", max_hands=4, hit_soft_17=True),
    AS_WRITTEN.with_(post_split="cdp", redoubles=2, double_any_cards=True, rescue_after_redouble="last"),
    AS_WRITTEN.with_(redoubles=3, rescue_after_redouble="none", bonus_on_doubled=True, player_21_wins=False),
    WIZARD_RULES,
    AS_WRITTEN.with_(hit_split_aces=False, double_totals="9-11", double_soft=False, split_21_beats_dealer_21=True),
    # the standard variations of tests/test_blackjack.py
    Rules(max_hands=3, hit_soft_17=True, double_totals="10-11", **STANDARD),
    Rules(max_hands=4, **{**STANDARD, "resplit_aces": True}),
    Rules(max_hands=2, post_split="cdz", double_after_split=False, **STANDARD),
)
"""Rule sets of tests/test_blackjack*.py and their variations: every open action, locked split aces,
redoubles with each rescue reading, the 21 rules."""


@contextmanager
def switch(value: str | None) -> Iterator[None]:
    """``EXACTODDS_PURE`` set to ``value`` (None: unset) while the block runs, whatever it was."""
    old = os.environ.get("EXACTODDS_PURE")
    if value is None:
        os.environ.pop("EXACTODDS_PURE", None)
    else:
        os.environ["EXACTODDS_PURE"] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("EXACTODDS_PURE", None)
        else:
            os.environ["EXACTODDS_PURE"] = old


def pure() -> Any:
    """Games built inside build Python solvers (``EXACTODDS_PURE=1``)."""
    return switch("1")


class Chart:
    """A fixed strategy made from a seed: each class's ranking drawn from its hash, some empty
    (the best action then, as :func:`~exactodds.blackjack.hands.choose` takes it)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __call__(self, key: ClassKey) -> tuple[str, ...]:
        h = hashlib.sha256(repr((self.seed, key)).encode()).digest()
        names = ["stand", "hit", "double", "rescue", "redouble"]
        if h[0] % 5 == 0:
            return ()
        return tuple(sorted(names, key=lambda a: h[1 + names.index(a)]))[:2 + h[6] % 4]


def shoe_of(counts: list[int]) -> SpanishShoe:
    values = tuple(counts)
    return SpanishShoe(values, {v: (values[v - 1], 0, 0, 0) for v in (6, 7, 8)})


shoes = st.lists(st.integers(0, 3), min_size=9, max_size=9).flatmap(
    lambda low: st.integers(6, 14).map(lambda tens: shoe_of([*low, tens])))


def compare(game_c: Game, game_p: Game, key: tuple[int, int, int]) -> int:
    """Every node the compiled solver ``key`` values against the Python solver's; returns how many."""
    sc, sp = game_c.solver(*key), game_p.solver(*key)
    assert isinstance(sc, compiled.CompiledSolver) and type(sp) is HandSolver
    state = sc.evaluated()
    nodes = [sc.graph.keys[k] for k in range(len(sc.graph.keys)) if state.reached[k]]
    for hand, d in nodes:
        assert sc.value(hand, d) == sp.value(hand, d), (key, hand, d)
        if d == 0 and sum(hand) == 2 and not key[1]:
            assert sc.actions(hand) == sp.actions(hand)
    assert dict(sc.node_actions.items()) == sp.node_actions
    return len(nodes)


def games(shoe: SpanishShoe, rules: Rules, policy: Chart | None) -> tuple[Game, Game]:
    with pure():
        game_p = Game(shoe, rules, policy)
    with switch(None):  # (the compiled game even when the suite runs with EXACTODDS_PURE=1)
        return Game(shoe, rules, policy), game_p


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=shoes, up=st.integers(1, 10), which=st.integers(0, len(RULES) - 1), pair=st.integers(0, 10),
       seed=st.integers(-1, 3))
def test_compiled_nodes_equal_the_python_solver(shoe: SpanishShoe, up: int, which: int, pair: int,
                                                seed: int) -> None:
    rules = RULES[which]
    points = sum((i + 1) * c for i, c in enumerate(shoe.values))
    assume(points > 31 * (rules.max_hands + 1) and shoe.values[up - 1] > 0)
    game_c, game_p = games(shoe, rules, Chart(seed) if seed >= 0 else None)
    keys = [(up, 0, 0)]
    if pair:
        left = shoe.values[pair - 1] - (up == pair)
        keys += [(up, pair, extra) for extra in (0, 1) if left >= 2 + extra]
    assert sum(compare(game_c, game_p, key) for key in keys) > 0


@pytest.mark.parametrize("which", [0, 2, 4])
def test_decisions_all_taken_exactly_give_the_same_numerators(which: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """MARGIN = +inf: no float proves an order, every decision is the exact comparison's."""
    monkeypatch.setattr(compiled, "MARGIN", float("inf"))
    shoe = shoe_of([2, 1, 2, 1, 2, 2, 2, 3, 2, 9])
    game_c, game_p = games(shoe, RULES[which], None)
    for key in [(10, 0, 0), (6, 8, 0), (10, 1, 0)]:
        assert compare(game_c, game_p, key) > 0
    # the unsplit solver optimises: every one of its decisions went to the exact comparison
    solver = game_c.solver(10, 0, 0)
    assert isinstance(solver, compiled.CompiledSolver) and solver.evaluated().exact_decisions > 100


def test_two_decks_and_a_whole_game() -> None:
    """A shoe of two 48-card decks (the unsplit solver of an up card, every node) and the whole
    game with the basic chart on a small shoe, compiled and Python: equal."""
    from exactodds.spanish21.figures import basic_chart

    game_c, game_p = games(SpanishShoe.standard(2), AS_WRITTEN, None)
    assert compare(game_c, game_p, (7, 0, 0)) > 1000
    shoe = shoe_of([2, 2, 2, 2, 2, 2, 2, 2, 2, 8])
    figures = []
    for game in games(shoe, AS_WRITTEN, None):
        result = game.solve()
        chart = Game(shoe, AS_WRITTEN, basic_chart(game, result))
        chart.solver_class = game.solver_class
        figures.append((result.expected, chart.solve().expected))
    assert figures[0] == figures[1]


def test_the_switch() -> None:
    """``EXACTODDS_PURE=1`` builds the Python solver; otherwise, with numba, the compiled one."""
    with pure():
        assert compiled.solver_class() is HandSolver
    with switch(None):
        assert compiled.solver_class() is compiled.CompiledSolver


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=shoes, up=st.integers(1, 10), which=st.integers(0, len(RULES) - 1), seed=st.integers(-1, 2))
def test_class_sums_in_residues_equal_the_python_sums(shoe: SpanishShoe, up: int, which: int, seed: int) -> None:
    """The basic chart's weighted sums (:meth:`CompiledSolver.class_sums`, in residues with one
    reconstruction per class, cards and action) equal the Python solver's recorded actions summed
    as integers (``figures._class_sums``), met in the order of the compiled solver's recorded
    actions (dropped once summed, they come back evaluated anew); two-card nodes count once asked for."""
    from exactodds.spanish21.figures import _class_sums

    rules = RULES[which]
    points = sum((i + 1) * c for i, c in enumerate(shoe.values))
    assume(points > 31 * (rules.max_hands + 1) and shoe.values[up - 1] > 0)
    game_c, game_p = games(shoe, rules, Chart(seed) if seed >= 0 else None)
    sc, sp = game_c.solver(up), game_p.solver(up)
    assert isinstance(sc, compiled.CompiledSolver)
    sc.evaluated()
    twos = [h for h in ((1, 0, 0, 0, 0, 0, 0, 0, 0, 1), (0, 0, 1, 0, 0, 0, 1, 0, 0, 0)) if sc.node_index(h, 0) is not None]
    for solver in (sc, sp):
        for hand in twos:
            solver.value(hand)
        for (hand, d) in [sc.graph.keys[k] for k in range(len(sc.graph.keys)) if sc.evaluated().reached[k]]:
            solver.value(hand, d)
    got = sc.class_sums()
    assert sc.class_sums() == got  # (kept as sums: the actions past the two-card nodes dropped, memory)
    assert got == _class_sums(sp, up)
    assert list(got.items()) == list(_class_sums(sc, up).items())  # the order node_actions meets them
    assert seed >= 0 or got  # optimal play records every decision node's actions


def test_a_released_split_solver_gives_its_actions_again() -> None:
    """A solve releases a first split hand's actions past its two-card nodes (memory); asked for,
    they are evaluated anew: the same as the Python solver's after the same solve (which keeps them),
    and the solve's figure is the Python one's."""
    shoe = shoe_of([2, 2, 2, 2, 2, 2, 2, 3, 3, 8])
    rules = STANDARD_RULES.with_(post_split="cdp1")
    game_c, game_p = games(shoe, rules, None)
    assert game_c.solve().expected == game_p.solve().expected
    released = [hs for key, hs in game_c.solvers.items()
                if key[1] and not key[2] and isinstance(hs, compiled.CompiledSolver) and hs.state is not None
                and hs.state.partial]
    assert released
    for hs in released[:3]:
        oracle = game_p.solver(hs.up, hs.pair, 0)
        assert dict(hs.node_actions.items()) == oracle.node_actions and len(oracle.node_actions) > 2
        assert hs.state is not None and not hs.state.partial


@settings(max_examples=300, deadline=None)
@given(x=st.integers(-(1 << 62) + 1, (1 << 62) - 1), q=st.integers((1 << 28) + 1, (1 << 29) - 1))
def test_the_loops_reduction_without_a_division_is_python_modulo(x: int, q: int) -> None:
    """:func:`hand_kernel._mod` (a float quotient corrected) is ``x % q`` over its whole range,
    the extremes included, for every modulus above 2²⁸ (the primes are the largest below 2²⁹)."""
    from exactodds.blackjack import hand_kernel

    for value in (x, (1 << 62) - 1, -(1 << 62) + 1, q * (x // q), q * (x // q) - 1):
        if abs(value) < 1 << 62:
            assert hand_kernel._mod(value, q, 1.0 / q) == value % q



@settings(max_examples=40, deadline=None)
@given(bits=st.integers(30, 1000), data=st.data())
def test_the_reconstruction_gives_back_each_integer(bits: int, data: st.DataObject) -> None:
    """:func:`hand_kernel.reconstruct` (Garner's digits as sums of products, Horner in limbs) gives
    back every integer below the primes' product from its residues, the extremes included, for
    any number of primes (the products are reduced every 15 terms)."""
    import numpy as np

    from exactodds.blackjack import hand_kernel

    primes, primes_a, garner, radix = compiled._primes(bits)
    product = 1
    for q in primes:
        product *= q
    xs = [0, 1, product - 1] + data.draw(st.lists(st.integers(0, product - 1), min_size=1, max_size=8))
    width = (29 * len(primes)) // 32 + 2
    out = np.zeros((len(xs), width), dtype=np.int64)
    residues = np.array([[x % q for q in primes] for x in xs], dtype=np.int64)
    hand_kernel.reconstruct(residues, np.zeros(len(primes), dtype=np.int64), primes_a, garner, radix, out)
    assert [sum(int(limb) << (32 * i) for i, limb in enumerate(row)) for row in out.tolist()] == xs


def _walked_graph(rules: Rules) -> tuple[list[tuple[tuple[int, ...], int]], list[list[int]], list[list[int]]]:
    """The hand graph node by node, as the Python solver walks it (the oracle of the array build):
    its nodes (children first), each node's children by card (hit; double/redouble) and open actions
    of each kind of hand, from :func:`~exactodds.blackjack.hands.open_actions` and ``children``."""
    from exactodds.blackjack.hands import _hands, children, open_actions, shape
    from exactodds.blackjack.node_graph import CODE

    seen: set[tuple[tuple[int, ...], int]] = set()
    stack = [(h, 0) for h in _hands() if sum(h) == 2]
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            hand, d = node
            for name in open_actions(rules, False, False, hand, d):
                if name in ("hit", "double", "redouble"):
                    kids = children(hand)
                    stack.extend((kids[i], 0 if name == "hit" else d + 1) for i in range(min(21 - shape(hand)[0], 10)))
    keys = sorted(seen, key=lambda kd: (-sum(kd[0]), kd[1], kd[0]))
    index = {key: k for k, key in enumerate(keys)}
    kids_of = [[index.get((kid, after), -1) if i < 21 - shape(h)[0] else -1 for after in (0, d + 1)
                for i, kid in enumerate(children(h))] for h, d in keys]
    opens = [[CODE[a] for a in open_actions(rules, split, locked, h, d)]
             for split, locked in ((False, False), (True, False), (True, True)) for h, d in keys]
    return keys, kids_of, opens


@pytest.mark.parametrize("which", range(len(RULES)))
def test_the_array_built_graph_is_the_walked_one(which: int) -> None:
    """:func:`node_graph._build_graph` (array operations, level by level) gives the nodes, children
    and open actions of the node-by-node walk, and each node's stand pays, rescue loss and class."""
    from exactodds.blackjack.hands import decision_class
    from exactodds.blackjack.node_graph import _build_graph, _stand_coefficients

    rules = RULES[which]
    g = _build_graph(rules)
    keys, kids_of, opens = _walked_graph(rules)
    assert g.keys == keys and g.index == {key: k for k, key in enumerate(keys)}
    assert [a + b for a, b in zip(g.kid0.tolist(), g.kidd.tolist())] == kids_of
    got = [row[:c] for split, locked in ((False, False), (True, False), (True, True))
           for row, c in zip(g.opens(split, locked)[0].tolist(), g.opens(split, locked)[1].tolist())]
    assert got == opens
    for k, (hand, d) in enumerate(keys):
        cls = decision_class(1, hand, d, False)
        assert g.coef[k].tolist() == _stand_coefficients(rules, int(cls[3]), sum(hand), d)  # type: ignore[call-overload]
        loss = rules.rescue_loss(d) if d else None
        assert g.resc[k] == (-2 * loss if loss is not None else 0)
        assert g.classes[g.cls[k]] == ((cls[0], *cls[2:]) if d else (cls[0], *cls[2:5]))
