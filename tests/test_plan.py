"""Compiled plans (issue 29 item 3): :func:`compile_plan` and :class:`Plan.tally`, the
session :func:`analyze` goes through (plans keyed by value, bounded), and the frozen
:class:`Analysis`. Each figure is held against the pair settled alone, result by result
in Python ints from the level's counts (no plan, no pass)."""

from __future__ import annotations

import dataclasses
import pickle
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.catalogue.model import Pay, Paytable
from exactodds.engine.levels import COUP
from exactodds.figures.analysis import VOID, Analysis, OutcomeRow, Session, analyze_pairs
from exactodds.figures.plan import compile_plan
from exactodds.game.cards import Shoe

ROOT = Path(__file__).resolve().parents[1]


def alone(w: Any, p: Paytable, shoe: Shoe) -> Analysis:
    """The analysis of ``w`` under ``p`` made from its rows, each result settled alone."""
    universe, counts, void = w.level.priced(shoe)
    names = w.outcome_names(p)
    by_name = dict.fromkeys(names, 0)
    for r, n in zip(w.level.results, counts):
        by_name[w.settle(p, r)] += int(n)
    pays = {n: p.pays.get(n) or w.otherwise_pay(p) for n in names}
    rows = [OutcomeRow(n, pays[n], c, universe) for n, c in by_name.items()]
    if void:
        rows.append(OutcomeRow(VOID, Pay.push(), void, universe))
    return Analysis.of_rows(w, p, shoe, rows)


def shoes() -> st.SearchStrategy[Shoe]:
    """8 decks less 0-30 random cards (short shoes are test_single's)."""
    return st.lists(st.integers(0, 51), max_size=30).map(
        lambda cut: Shoe(tuple(8 - cut.count(i) for i in range(52))))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoes())
def test_analyze_pairs_and_the_session_equal_each_pair_settled_alone(shoe: Shoe) -> None:
    """Every fixed-odds catalogue paytable: the analyses of one compiled plan per level
    (:func:`analyze_pairs`) and those of a session asked pair by pair (its plan growing)
    equal, field by field and in their figures, the analysis made from rows settled alone."""
    pairs = [(w, p) for w in CATALOGUE.values() for p in w.paytables if not p.meters]
    session = Session()
    for (w, p), a in zip(pairs, analyze_pairs(pairs, shoe)):
        want = alone(w, p, shoe)
        for got in (a, session.analyze(w, p.id, shoe)):
            assert got == want and got.moments == want.moments, (w.id, p.id)
            assert (got.house_edge, got.variance, got.rows) == (want.house_edge, want.variance, want.rows)


def test_the_session_keys_plans_by_value() -> None:
    """A wager made anew equal to one asked before finds its pair in the level's plan (the
    plan does not grow); a paytable with the same id but other pays is another pair (found
    by value, not by id), with its own figures; the session's plans and pairs stay bounded."""
    session = Session(max_plans=3, max_pairs=4)
    shoe = Shoe.standard(8).remove([])
    banker = get_wager("banker")
    session.analyze(banker, "5pct", shoe)
    plan = session._working[COUP]
    again = dataclasses.replace(banker)
    assert again is not banker and again == banker and hash(again) == hash(banker)
    session.analyze(again, "5pct", shoe)
    assert session._working[COUP] is plan
    five = banker.paytable("5pct")
    other = dataclasses.replace(five, pays={**five.pays, "Banker wins": Pay.commission(Fraction(3, 100))})
    assert other.id == five.id and other != five
    w3 = dataclasses.replace(banker, paytables=(other,))
    a = session.analyze(w3, "5pct", shoe)
    assert a == alone(w3, other, shoe) and a.house_edge != session.analyze(banker, "5pct", shoe).house_edge
    for pct in range(1, 9):  # more pairs than max_pairs, more plans than max_plans
        t = dataclasses.replace(five, pays={**five.pays, "Banker wins": Pay.commission(Fraction(pct, 100))})
        w = dataclasses.replace(banker, paytables=(t,))
        assert session.analyze(w, "5pct", shoe) == alone(w, t, shoe)
        assert len(session._working[COUP].terms) <= 4 and len(session._plans) <= 3


def test_a_plan_is_of_one_level() -> None:
    """compile_plan refuses a wager settled at another level; equal splits are shared."""
    tie, pairs = get_wager("tie"), get_wager("perfect-pairs-player")
    with pytest.raises(ValueError, match="level"):
        compile_plan(COUP, [(tie, tie.default_paytable), (pairs, pairs.default_paytable)])
    banker = get_wager("banker")
    plan = compile_plan(COUP, [(banker, p) for p in banker.paytables])
    for i, a in enumerate(plan.terms):  # one number per distinct split (5% and 4% commission: one)
        assert plan.splits[plan.split_of[i]] == a.split
        assert all((plan.split_of[i] == plan.split_of[j]) == (a.split == b.split) for j, b in enumerate(plan.terms))
    assert len(plan.splits) < len(plan.terms)
    assert plan.find(banker, banker.paytables[-1]) == len(banker.paytables) - 1
    assert plan.find(tie, tie.default_paytable) is None


def test_analysis_is_a_frozen_value() -> None:
    """An Analysis is frozen; rows it is made of must add up to one universe."""
    a = Session().analyze("tie", None, 8)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.total = 1  # type: ignore[misc]
    assert a.rows[0].count == a.counts[0] and len(a.rows) == len(a.names) == len(a.pays)
    short = list(a.rows)
    short[0] = dataclasses.replace(short[0], count=short[0].count - 1)
    with pytest.raises(AssertionError):
        Analysis.of_rows(a.wager, a.paytable, a.shoe, short)


def test_paytables_hash_by_value_and_pickle_without_their_hash() -> None:
    """Equal paytables hash alike; the hash (a string's differs from process to process)
    is not pickled, and the copy is equal."""
    t = get_wager("banker").paytable("5pct")
    copy = Paytable(t.id, dict(t.pays), t.cite, t.note, t.meters, t.stake)
    assert copy == t and hash(copy) == hash(t)
    assert "_hash" in t.__dict__
    back = pickle.loads(pickle.dumps(t))
    assert back == t and "_hash" not in back.__dict__ and hash(back) == hash(t)


def test_no_cache_keyed_by_id_in_the_figures_path() -> None:
    """Issue 29's done-when for the figures path: no ``id(`` key in the modules an
    analysis, a plan, a settlement or an effect of removal goes through."""
    for name in ("figures/analysis.py", "figures/plan.py", "figures/settlement.py", "figures/eor.py",
                 "figures/design.py", "games/certificate.py", "engine/single_kernel.py"):
        text = (ROOT / "exactodds" / name).read_text()
        assert not re.search(r"(?<![\w.])id\(", text), name
