"""The blackjack engine's speed-ups keep every figure and ask the dealer's table once per batch.

Issue 27 item 5. The engine asks the dealer's table (:class:`exactodds.blackjack.dealer.DealerTable`)
for the compositions a solver stands on in batches ahead of the solve: every hand for solvers
that optimise, and for solvers whose strategy is fixed ahead (the basic chart's play, a
post-split strategy read from a reference solver) only the hands the walk
:meth:`exactodds.blackjack.hands.HandSolver.stood_on` finds. These tests check the walk against
what the solve does: each chosen solver stands on exactly the hands its walk lists, and no
composition is asked for one at a time (the fallback of :meth:`DealerTable.raw`) -- a missed hand
would cost speed, not exactness, so only this test would see it. The figures themselves are
checked by the brute force and the peer (tests/test_blackjack.py, tests/test_blackjack_peer.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from exactodds.blackjack import hands
from exactodds.blackjack.compiled import CompiledSolver, _State, stood_hands
from exactodds.blackjack.dealer import DealerTable
from exactodds.blackjack.engine import Game
from exactodds.blackjack.hands import HandSolver, _add
from exactodds.blackjack.rules import AS_WRITTEN, STANDARD_RULES
from exactodds.blackjack.shoe import SpanishShoe, Values
from exactodds.spanish21.figures import basic_chart

SMALL = SpanishShoe((2, 2, 2, 2, 2, 2, 2, 2, 2, 8), {6: (1, 1, 0, 0), 7: (1, 0, 1, 0), 8: (0, 1, 1, 0)})
"""26 cards, 170 points (enough for four hands): every pair can be split and resplit, suited
6-7-8 on split 6s, 7s and 8s possible."""

CASES = {
    "standard, cdz, always resplit": (SMALL, STANDARD_RULES.with_(post_split="cdz", resplit_optional=False)),
    "spanish, cdp1": (SMALL, AS_WRITTEN),
    "spanish, cdz, four hands, h17": (SMALL, AS_WRITTEN.with_(post_split="cdz", max_hands=4, hit_soft_17=True)),
}


class Recorder:
    """Counts the single-composition requests and records each solver's standing hands."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.singles = 0
        self.walks = 0
        self.stood: dict[int, set[Values]] = {}
        request, stand, stood_rows = DealerTable.request, HandSolver.stand, HandSolver.stood_rows
        recorder = self

        def walked(solver: HandSolver, roots: Iterable[tuple[Values, int]]) -> npt.NDArray[np.int64]:
            recorder.walks += 1
            return stood_rows(solver, roots)

        def counted(table: DealerTable, rems: object) -> None:
            recorder.singles += 1
            request(table, rems)  # type: ignore[arg-type]

        def recorded(solver: HandSolver, hand: Values, doublings: int, rem: Values | None = None,
                     hard: int | None = None) -> int:
            recorder.stood.setdefault(id(solver), set()).add(hand)
            return stand(solver, hand, doublings, rem, hard)

        # the compiled solver (numba installed) values its nodes at once: what it stands on is
        # read from each evaluation, its walk is its own method
        evaluated, stood_rows_compiled = CompiledSolver.evaluated, CompiledSolver.stood_rows

        def recorded_compiled(solver: CompiledSolver) -> _State:
            state = evaluated(solver)
            recorder.stood.setdefault(id(solver), set()).update(stood_hands(solver))
            return state

        def walked_compiled(solver: CompiledSolver, roots: Iterable[tuple[Values, int]]) -> npt.NDArray[np.int64]:
            recorder.walks += 1
            return stood_rows_compiled(solver, roots)

        monkeypatch.setattr(DealerTable, "request", counted)
        monkeypatch.setattr(HandSolver, "stand", recorded)
        monkeypatch.setattr(HandSolver, "stood_rows", walked)
        monkeypatch.setattr(CompiledSolver, "evaluated", recorded_compiled)
        monkeypatch.setattr(CompiledSolver, "stood_rows", walked_compiled)


@pytest.fixture
def fresh_tables() -> Iterator[None]:
    """Dealer tables computed in the test, not taken from an earlier one."""
    kept = dict(hands._TABLES)
    hands._TABLES.clear()
    yield
    hands._TABLES.clear()
    hands._TABLES.update(kept)


def walks(game: Game) -> dict[int, set[Values]]:
    """Each chosen solver's walk from the nodes the solve starts it at (its two-card hands)."""
    out: dict[int, set[Values]] = {}
    for (_up, pair, extra), hs in game.solvers.items():
        if pair and game._chosen(pair, extra):
            start = _add((0,) * 10, pair)
            out[id(hs)] = hs.stood_on((_add(start, i + 1), 0) for i, k in enumerate(hs.rem(start)) if k)
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_the_walk_finds_what_the_solve_stands_on(name: str, monkeypatch: pytest.MonkeyPatch,
                                                  fresh_tables: None) -> None:
    shoe, rules = CASES[name]
    rec = Recorder(monkeypatch)
    game = Game(shoe, rules)
    result = game.solve()
    assert rec.singles == 0, "a hand a solver stood on was not in the batches"
    chosen = walks(game)
    assert chosen, "no solver plays a strategy fixed ahead: the case tests nothing"
    for key, stood in chosen.items():
        assert rec.stood.get(key, set()) == stood
    # pruned: a chosen solver stands on fewer hands than an optimising one of the same pair
    full = {(up, pair): id(hs) for (up, pair, extra), hs in game.solvers.items()
            if pair and not game._chosen(pair, extra)}
    smaller = [len(chosen[id(hs)]) < len(rec.stood.get(full[(up, pair)], ()))
               for (up, pair, extra), hs in game.solvers.items() if id(hs) in chosen and (up, pair) in full]
    assert all(smaller) if smaller else rules.post_split == "cdz"
    # the chart's play on tables of its own (the walk for every solver) gives the same return
    # as on the tables the optimal game filled (no walk, a few single requests)
    chart = basic_chart(game, result)
    shared = Game(shoe, rules, chart).solve().expected
    hands._TABLES.clear()
    rec.singles = 0
    alone = Game(shoe, rules, chart).solve().expected
    assert rec.singles == 0
    assert alone == shared
    assert isinstance(alone, Fraction) and -1 < alone < 1


def test_a_second_rule_set_on_the_same_tables_walks_again(monkeypatch: pytest.MonkeyPatch,
                                                         fresh_tables: None) -> None:
    """``--contributions`` solves several rule sets on one shoe: the dealer's tables are shared,
    and each rule set's chosen solvers must have their own batch (no single requests)."""
    rec = Recorder(monkeypatch)
    first = Game(SMALL, AS_WRITTEN).solve().expected
    assert rec.singles == 0
    other = AS_WRITTEN.with_(double_any_cards=True, surrender=False)
    rec.walks = 0
    second = Game(SMALL, other).solve().expected
    assert rec.singles == 0
    # one walk per up card: split tens, the only pair of SMALL with pair cards left to resplit
    # (cdp1 fixes the strategy ahead only with extra pair cards out)
    assert rec.walks == 10
    hands._TABLES.clear()
    assert Game(SMALL, other).solve().expected == second != first


@pytest.mark.parametrize("cap", [(32,) * 9 + (128,), (2, 2, 2, 2, 2, 2, 2, 2, 2, 8), (1, 0, 3, 5, 0, 2, 22, 1, 4, 9)])
def test_the_batch_rows_are_the_hands_each_solver_can_stand_on(cap: Values) -> None:
    """The rows the engine asks the dealer's table for in one batch (:meth:`Game._dealt_rows`, one
    array of every standing hand moved by the pair cards out) are, as a set, the hands listed one by
    one (:func:`exactodds.blackjack.hands._dealt`) of every solver, on shoes that hold them all and
    on shoes that cannot deal some."""
    game = Game(SMALL, AS_WRITTEN)
    splits = [(0, 0), (1, 0), (7, 2), (10, 5)]
    for one in splits:
        rows = game._dealt_rows(cap, [one])
        assert {tuple(x) for x in rows.tolist()} == set(hands._dealt(cap, *one))
        assert len(rows) == len(hands._dealt(cap, *one))
    assert len(game._dealt_rows(cap, splits)) == sum(len(hands._dealt(cap, *one)) for one in splits)


def test_a_batch_asked_as_an_array_is_the_batch_asked_as_tuples() -> None:
    """:meth:`DealerTable.request_removed` takes the removed multisets as tuples or as the rows of
    an array (repeats allowed): the same compositions computed, the same numerators; a name asked
    before skips the batch."""
    base = (4, 4, 4, 4, 4, 4, 4, 4, 4, 15)
    removed = hands._dealt(base, 9, 1)[::7]
    by_tuples, by_rows = DealerTable(base, 5, False, 0), DealerTable(base, 5, False, 0)
    by_tuples.request_removed(removed, [("hands", 9, 1)])
    rows = np.array(removed + removed[:3], dtype=np.int64)
    by_rows.request_removed(rows, [("hands", 9, 1)])
    assert len(by_rows.limbs) == len(by_tuples.limbs) == len(set(removed))
    for x in removed:
        rem = tuple(b - y for b, y in zip(base, x))
        assert by_rows.numerators(rem) == by_tuples.numerators(rem)
    by_rows.request_removed(np.array([(1,) * 10], dtype=np.int64), [("hands", 9, 1)])
    assert len(by_rows.limbs) == len(set(removed))


def test_the_hand_list_equals_a_plain_enumeration() -> None:
    """:func:`~exactodds.blackjack.hands.hand_rows` (built by array operations) lists, in
    lexicographic order and once each, every hand of two or more cards within 21 hard points, as
    a plain recursion over the counts finds them; :func:`_hands` is it as tuples."""
    plain: list[Values] = []

    def rec(hand: Values) -> None:
        if len(hand) == 10:
            if sum(hand) >= 2:
                plain.append(hand)
            return
        k = 0
        while sum(c * v for c, v in zip(hand + (k,), range(1, 11))) <= 21:
            rec(hand + (k,))
            k += 1

    rec(())
    assert len(plain) == len(set(plain)) and plain == sorted(plain)
    assert [tuple(r) for r in hands.hand_rows().tolist()] == plain and hands._hands() == tuple(plain)
