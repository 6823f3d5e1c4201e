"""The hand solver compiled: the same exact integer numerators as
:class:`~exactodds.blackjack.hands.HandSolver`, computed by numba loops over a flat node graph
(issue 27, speed). Used when numba (the ``fast`` extra) is installed, unless ``EXACTODDS_PURE=1``;
the Python solver stays the fallback and the tests' oracle (:func:`solver_class` chooses).

*The graph.* The nodes of a hand -- a composition by value and a number of doublings -- and what
each does (its open actions, :func:`~exactodds.blackjack.hands.open_actions`; its children, one
card more; its stand coefficients, § 551.6(b),(c),(f),(g)(5)-(7); its rescue loss, § 551.11(d))
depend on the rules alone, not on the shoe: :class:`Graph` flattens them once per rule set, in
topological order (more cards first), for every kind of hand (unsplit, split, locked split aces).

*A fixed plan, exactly, in residues.* Given the action each node takes, a node's numerator (over
``SCALE · n!/floor!``, ``n`` the cards left) is a linear recursion over integers: a draw adds
``count · child`` for each card and subtracts the bust term (the hole-card peek, § 551.8(e)); a
stand is the dealer's numerators times the per-``n`` scale; a rescue the no-Blackjack chance.
The loops compute it modulo primes below 2²⁹ and the Chinese remainder theorem gives back the
numerators read: the primes, the bound that makes every numerator come back exactly, the tables
the loops read and the reconstruction are in :mod:`exactodds.blackjack.solver_residues`.

*Decisions* (composition-dependent play, no fixed plan at a node): a float64 pass over the same
nodes, in the same loop, proposes each node's order of actions, and a proposal is accepted only
when each action beats the next by more than :data:`MARGIN`, a bound proven on the float error:
every float value is within ``ERR = 1e-11`` of the exact value of the same action (given the exact
decisions below it). Argument (``u = 2⁻⁵³``; ``|value| ≤ 3·2^D ≤ 48``, at most three redoubles): each
dealer probability is the float of an exact ratio within a relative ``2⁻⁴⁸`` (at most sixteen
32-bit limbs summed, two roundings to scale: :attr:`DealerTable.prob`); a stand sums six of them
with coefficients of size at most 48, the probabilities adding up to at most 1: within ``48·2⁻⁴⁷ < 4e-13``; a draw is ``Σ c_i·v_i / n``
with ``Σ c_i ≤ n`` (a convex combination of the children's values, whose errors it does not
enlarge) less a bust term, each step adding at most ``16·u·48 < 1e-13`` (16 roundings); a hand
draws at most 21 cards and doubles at most 4 times, fewer than 30 steps: ``4e-13 + 30·1e-13 <
4e-12 < ERR``; a rescue is one rounded ratio. The gap of two floats is itself rounded by at most
``48·u``. A float gap above
``MARGIN = 1e-9 > 2·ERR`` proves the exact order. Where it does not (exact ties happen), the
competing actions' numerators are reconstructed from their residues (exact: the children are done
first) and compared as integers, a tie going to the first listed as
:func:`~exactodds.blackjack.hands.choose` does. A float never reaches a figure: it only proposes
a decision that is then proven or checked.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.blackjack.hands import HandSolver, Policy, as_rows, shape
from exactodds.blackjack.node_graph import ACTIONS, CODE, Graph, graph_of
from exactodds.blackjack.shoe import Values
from exactodds.blackjack.solver_dicts import Actions, Memo
from exactodds.blackjack.solver_residues import _NODE_SCRATCH as _NODE_SCRATCH
from exactodds.blackjack.solver_residues import _SCRATCH as _SCRATCH
from exactodds.blackjack.solver_residues import _bounds as _bounds
from exactodds.blackjack.solver_residues import _comb_residues as _comb_residues
from exactodds.blackjack.solver_residues import _factorials as _factorials
from exactodds.blackjack.solver_residues import _kernel as _kernel
from exactodds.blackjack.solver_residues import _limb_powers as _limb_powers
from exactodds.blackjack.solver_residues import _node_scratch as _node_scratch
from exactodds.blackjack.solver_residues import _primes as _primes
from exactodds.blackjack.solver_residues import _residues as _residues
from exactodds.blackjack.solver_residues import _scratch as _scratch
from exactodds.blackjack.solver_residues import _store as _store
from exactodds.blackjack.solver_residues import _ways_table as _ways_table
from exactodds.blackjack.solver_residues import from_limbs, ints, limbs_out
from exactodds.errors import InputError
from exactodds.extras import PURE_ENV

IntArray = npt.NDArray[np.int64]

MARGIN: Final = 1e-9
"""A float gap that proves an order of two actions (module doc: the float error is below 1e-11)."""


def solver_class() -> type[HandSolver]:
    """The hand solver the engine builds: :class:`CompiledSolver` when numba is installed and
    ``EXACTODDS_PURE`` is not set, else the Python :class:`HandSolver` (one place decides)."""
    if os.environ.get(PURE_ENV) == "1":  # the one switch (:func:`exactodds.extras.compiled`)
        return HandSolver
    return CompiledSolver if _numba_present() else HandSolver


@lru_cache(maxsize=1)
def _numba_present() -> bool:
    try:
        _kernel()
    except ImportError:
        return False
    return True


@dataclass(eq=False)
class _Plan:
    """What each node does: the open slots it values, the slot it takes (-1: the best), whether
    its actions are kept (``node_actions``) and whether their residues are retained (``actions``)."""

    valued: npt.NDArray[np.uint8]
    fixed: npt.NDArray[np.int8]
    expose: npt.NDArray[np.bool_]
    retain: npt.NDArray[np.bool_]

    def __post_init__(self) -> None:
        self.undecided = bool(((self.fixed < 0) & (self.valued.sum(axis=1) > 1)).any())
        """Whether some node takes the best of two actions or more (the loops' floats propose it);
        else the floats are never read, and the loops skip the stands' (:func:`hand_kernel.evaluate`)."""
        self.retains_later = True
        """Whether the plan may retain a node past the first decision (:meth:`CompiledSolver._keep_first`
        has something to drop); set by :meth:`CompiledSolver.plan_arrays`."""


_POLICY_PLANS: dict[tuple[int, int, int, bool, bool], tuple[Policy | None, Graph, _Plan]] = {}
"""A fixed strategy's plans (None: optimal play's) by (strategy, graph, up card, kind of hand): the
solvers of one up card and kind share them (the strategy and graph kept beside, so that their ids
stay theirs)."""


@dataclass(eq=False)
class _State:
    """One evaluation of a solver: which nodes, their residues and orders."""

    reached: npt.NDArray[np.uint8]
    order: npt.NDArray[np.int8] | None
    """Each node's valued slots, best first (-1 padded); kept by the solvers of optimal play only,
    which the post-split strategies read (:meth:`CompiledSolver._chooser_plan`)."""
    val: npt.NDArray[np.uint32] | None
    """The residues of the reached nodes' values, ascending (memory: a split solver reaches a quarter;
    below 2²⁹: 32 bits), once :meth:`CompiledSolver.memo_value` asked for one (None before)."""
    kept: npt.NDArray[np.uint32] | None
    """Residues of the actions of the retained nodes (rows by :attr:`kept_at`; below 2²⁹: 32 bits)."""
    kept_at: npt.NDArray[np.int32]
    """The retained nodes, ascending (row ``i`` of :attr:`kept` is node ``kept_at[i]``)."""
    exact_decisions: int = 0
    """How many decisions the floats did not prove (taken by the exact comparison)."""
    two_actions: dict[int, list[int]] = field(default_factory=dict)
    """An unsplit solver's two-card nodes' action numerators (by node), reconstructed in one batch."""
    partial: bool = False
    """Only the two-card nodes' actions kept (a split solver's, once its values are released:
    memory); the others, asked for, are evaluated anew (:meth:`CompiledSolver.full_state`)."""
    live: bool = True
    """The values not released (``memo.clear()``): read, or evaluated anew when asked for."""
    choices: dict[tuple[bool, bool], tuple[npt.NDArray[np.int8], IntArray]] = field(default_factory=dict)
    """As a reference's state, its decisions by kind of hand (:func:`_reference_choices`), kept with
    the state they are read from (the same for every solver of that kind whose strategy it decides:
    its split solvers by pair cards out)."""

    def row(self, k: int) -> int:
        """The row of :attr:`kept` of node ``k``, -1 if not retained."""
        i = int(np.searchsorted(self.kept_at, k))
        return i if i < len(self.kept_at) and self.kept_at[i] == k else -1


def _reference_choices(ref_state: _State, ref_opens: IntArray, opens: IntArray,
                       multi: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.int8], IntArray]:
    """A reference's decisions at the nodes with a choice (``multi``) of a solver whose actions are
    ``opens``: the slot of its best open action (first listed on a tie; −1 elsewhere) and the nodes
    it does not decide (not reached by it, or none of its ranked actions open there); the slots
    as bytes (kept with the reference's state: memory)."""
    assert ref_state.order is not None  # (a reference plays optimally: no policy, no chooser)
    n = len(opens)
    best = np.full(n, -1, dtype=np.int64)
    for j in range(2, -1, -1):  # the reference's order, best first: the first open here wins
        slot = ref_state.order[:, j]
        code = np.where(slot >= 0, np.take_along_axis(ref_opens, np.maximum(slot, 0)[:, None], 1)[:, 0], -2)
        for s in range(3):
            best = np.where((opens[:, s] == code) & (code >= 0), s, best)
    ok = ref_state.reached.astype(bool) & (best >= 0)
    fixed = np.full(n, -1, dtype=np.int8)
    fixed[multi & ok] = best[multi & ok]
    return fixed, np.flatnonzero(multi & ~ok)


class CompiledSolver(HandSolver):
    """:class:`HandSolver` with every node valued at once by the compiled loops (module doc); the
    same surface (``value``, ``actions``, ``memo``, ``node_actions``), the same integers."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.graph = graph_of(self.rules)
        self.kind_opens = self.graph.opens(self.split, self.locked)
        self.memo = self.values_memo = Memo(self)
        self.node_actions = Actions(self)
        self.state: _State | None = None
        self.extra_roots: list[int] = []
        self.keep_values = False
        """Whether an evaluation keeps every reached node's value (:meth:`memo_value`)."""
        self.touched: set[int] = set()
        """The two-card nodes :meth:`value` was asked for: :class:`HandSolver` records a two-card
        node's actions only then (:meth:`HandSolver.actions` records none), and the basic chart
        reads what is recorded."""
        self.pair = kw.get("pair", args[7] if len(args) > 7 else 0)
        self.bound, self.chart_bound, (self.primes, self.primes_a, self.garner, self.radix), self.offset = _bounds(
            self.size, self.floor, self.rules.redoubles + 1, self.split)
        self._plan_cache: _Plan | None = None
        self.sums_cache: tuple[_State, frozenset[int], dict[tuple[tuple[object, ...], int, str], int]] | None = None
        """:meth:`class_sums` with the state and the two-card nodes asked for that it read."""
        self.shared_plans: dict[tuple[bool, bool], tuple[_State, _Plan]] = {}
        """The plans of the solvers whose post-split strategy this one decides entirely, by kind of
        hand (split, locked split aces), with the state they were read from."""

    # -- the plan ---------------------------------------------------------------------------
    def _roots(self) -> npt.NDArray[np.uint8]:
        roots = self.graph.roots(self.pair if self.split else 0)
        if self.extra_roots:
            roots = roots.copy()
            roots[self.extra_roots] = 1
        return roots

    def plan_arrays(self) -> _Plan:
        if self._plan_cache is None:
            plan = self._plan_cache = self._make_plan()
            g = self.graph
            plan.retains_later = bool((plan.retain & ~g.is_first).any())
        return self._plan_cache

    def _make_plan(self) -> _Plan:
        g = self.graph
        opens, nopen = self.kind_opens
        slots, _, multi, _ = g.slots(self.split, self.locked)
        two = g.is_two
        if self.policy is None and self.chooser is not None:
            return self._chooser_plan(opens, nopen, slots, multi, two)
        key = (id(self.policy), id(g), self.up, self.split, self.locked)
        got = _POLICY_PLANS.get(key)  # (a fixed strategy's, or optimal play's)
        if got is not None and got[0] is self.policy and got[1] is g:
            return got[2]
        if self.policy is None:
            plan = _Plan(g.slots(self.split, self.locked)[1], np.full(len(g.keys), -1, dtype=np.int8), multi, multi)
        else:
            plan = self._policy_plan(opens, nopen, slots, multi, two, two & (g.dbl == 0) & (not self.split))
        if len(_POLICY_PLANS) >= 64:
            _POLICY_PLANS.pop(next(iter(_POLICY_PLANS)))
        _POLICY_PLANS[key] = (self.policy, g, plan)
        return plan

    def _policy_plan(self, opens: IntArray, nopen: IntArray, slots: npt.NDArray[np.bool_], multi: npt.NDArray[np.bool_],
                     two: npt.NDArray[np.bool_], unsplit_two: npt.NDArray[np.bool_]) -> _Plan:
        """:meth:`HandSolver._plan` under a fixed strategy: the first action of the class's ranking
        that is open (none: the best); a split hand's two-card nodes value every action."""
        g = self.graph
        assert self.policy is not None
        pos = np.full((len(g.classes), len(ACTIONS) + 1), 99, dtype=np.int64)
        for c, key in enumerate(g.classes):
            full = (key[0], self.up, *key[1:]) + (() if key[0] == "doubled" else (self.split,))
            for r, name in enumerate(self.policy(full)):
                if name in CODE and pos[c, CODE[name]] == 99:
                    pos[c, CODE[name]] = r
        at = pos[g.cls[:, None], np.where(opens >= 0, opens, len(ACTIONS))]
        at = np.where(slots, at, 99)
        taken = at.argmin(axis=1)
        has = at.min(axis=1) < 99
        keep = multi & two & self.split
        fixed = np.where(multi & has, taken, -1)
        only = multi & has & ~keep & ~unsplit_two
        valued = slots.copy()
        valued[only] = False
        valued[np.flatnonzero(only), taken[only]] = True
        return _Plan(valued.astype(np.uint8), fixed.astype(np.int8), keep, keep | (unsplit_two & multi))

    def _chooser_plan(self, opens: IntArray, nopen: IntArray, slots: npt.NDArray[np.bool_],
                      multi: npt.NDArray[np.bool_], two: npt.NDArray[np.bool_]) -> _Plan:
        """A post-split strategy read from a reference solver (:meth:`Game._chooser`): at every
        node with a choice, the reference's best of this node's actions (first listed on a tie)."""
        g = self.graph
        n = len(g.keys)
        chooser = self.chooser
        ref = getattr(chooser, "reference", None)
        if isinstance(ref, CompiledSolver) and ref.graph is g:
            # (its decisions: kept when its node values are released)
            ref_state = ref.state if ref.state is not None else ref.evaluated()
            assert ref_state.order is not None  # (a reference plays optimally: no policy, no chooser)
            shared = ref.shared_plans.get((self.split, self.locked))
            if shared is not None and shared[0] is ref_state:
                return shared[1]
            choices = ref_state.choices.get((self.split, self.locked))
            if choices is None:
                choices = ref_state.choices[(self.split, self.locked)] = _reference_choices(
                    ref_state, ref.kind_opens[0], opens, multi)
            fixed, todo = choices[0].astype(np.int64), choices[1]
            if not len(todo):  # the reference decides every node: the same plan whatever the cards out
                plan = self._fixed_plan(fixed, slots, multi, two)
                ref.shared_plans[(self.split, self.locked)] = (ref_state, plan)
                return plan
        else:
            fixed, todo = np.full(n, -1, dtype=np.int64), np.flatnonzero(multi)
        assert chooser is not None
        # only the nodes this solver can reach by some play: the others are never valued (first the
        # cheap filters: the shoe must hold the hand, a split hand holds a pair card)
        base = np.array(self.base, dtype=np.int64)
        possible: npt.NDArray[np.bool_] = np.asarray((g.hands <= base[None, :]).all(axis=1))
        if self.split:
            possible &= g.hands[:, self.pair - 1] > 0
        fixed[todo[~possible[todo]]] = 0
        todo = todo[possible[todo]]
        if len(todo):
            reachable = np.zeros(n, dtype=np.uint8)
            _kernel().reach(self._roots(), g.slots(self.split, self.locked)[1], opens, nopen, g.kid0, g.kidd, g.hands,
                            g.hard, base, reachable)
            fixed[todo[reachable[todo] == 0]] = 0
            todo = todo[reachable[todo] == 1]
        for k in todo.tolist():  # not reached by the reference (or not compiled): ask the chooser
            hand, d = g.keys[k]
            names = [ACTIONS[c] for c in opens[k, :nopen[k]].tolist()]
            fixed[k] = names.index(chooser(hand, d, names))
        return self._fixed_plan(fixed, slots, multi, two)

    def _fixed_plan(self, fixed: IntArray, slots: npt.NDArray[np.bool_], multi: npt.NDArray[np.bool_],
                    two: npt.NDArray[np.bool_]) -> _Plan:
        """The plan of a post-split strategy taking the slot ``fixed`` at each node with a choice,
        but every action of the two-card nodes valued and kept (the suit bonus reads them)."""
        first = two & (self.graph.dbl == 0)
        valued = slots.copy()
        only = multi & ~first
        valued[only] = False
        valued[np.flatnonzero(only), fixed[only]] = True
        keep = multi & first
        return _Plan(valued.astype(np.uint8), fixed.astype(np.int8), keep, keep)

    # -- evaluation -------------------------------------------------------------------------
    def evaluated(self) -> _State:
        """The state of the last evaluation, evaluating if there is none."""
        if self.state is None or not self.state.live:
            self.state = self._evaluate()
        return self.state

    def _evaluate(self) -> _State:
        kernel = _kernel()
        g = self.graph
        plan = self.plan_arrays()
        opens, nopen = self.kind_opens
        if sum(self.base) >= 1 << 20:  # the loops' int64 bounds (hand_kernel)
            raise InputError("internal: a shoe of a million cards or more for the compiled hand solver")
        base = np.array(self.base, dtype=np.int64)
        n = len(g.keys)
        offset = np.array(self.dealer.base, dtype=np.int64) - base
        if offset.min() < 0:
            raise InputError("internal: a hand solver's shoe is not within its dealer table's")
        reached = np.zeros(n, dtype=np.uint8)
        drow, order, at, stands, removed = _node_scratch(n)
        m, s = kernel.walk(self._roots(), plan.valued, opens, nopen, g.kid0, g.kidd, g.hands, g.hard, base,
                           offset, reached, at, stands, removed)
        at = at[:m].copy()  # (the reached nodes, ascending: a split solver's are a few hundred)
        store = _store(self.dealer)
        drow[stands[:s]] = store.rows(removed[:s])  # the dealer table's row of each node the plan stands on
        primes = self.primes
        scale_q = store.scale_residues(primes, self.size)
        fac = _factorials(self.floor, self.size, primes)
        lpow = _limb_powers(primes, store.width)
        val, valf, act, actf = _scratch(n, len(primes))
        if self.policy is None and self.chooser is None:  # (kept: read at every node, reached or not)
            order = np.full((n, 3), -1, dtype=np.int8)
        exact = np.zeros(n, dtype=np.uint8)
        start = exact_count = 0
        while True:
            got = kernel.evaluate(start, at, plan.valued, plan.fixed, exact, order, opens, nopen, g.kid0, g.kidd,
                                  g.hands, g.hard, g.dbl, g.coef, g.resc, drow, store.limbs, lpow, store.prob, scale_q,
                                  fac, self.primes_a, base, self.up, self.floor, MARGIN, val, valf, act, actf,
                                  plan.undecided)
            if got == -1:
                break
            if got == -2:
                raise InputError("internal: a composition fell below the denominator floor")
            slots = [s for s in range(int(nopen[got])) if plan.valued[got, s]]
            values = self._ints(act[got, slots])
            ranked = sorted(range(len(slots)), key=lambda i: -values[i])  # stable: first listed on a tie
            order[got] = [slots[i] for i in ranked] + [-1] * (3 - len(slots))
            exact[got] = 1
            exact_count += 1
            start = got
        return self._state(plan, reached, at, order, exact_count)

    def _state(self, plan: _Plan, reached: npt.NDArray[np.uint8], at: IntArray, order: npt.NDArray[np.int8],
               exact_count: int) -> _State:
        """The state of an evaluation from the scratch arrays (:func:`_scratch`), what it keeps copied
        out: the reached nodes' (``at``, ascending) values, the retained nodes' actions; and the
        first-decision nodes' values (and an unsplit solver's actions), which the engine reads one by
        one, reconstructed in one batch each. Gathered by index (a split solver reaches few nodes),
        in one kernel call (:func:`~exactodds.blackjack.hand_kernel.collect`: each numpy call here
        cost microseconds, 470 solvers a solve)."""
        g = self.graph
        val, _, act, _ = _scratch(len(g.keys), len(self.primes))
        twos = at[g.is_first[at]]
        ref = getattr(self.chooser, "reference", None)
        if self.policy is None and isinstance(ref, CompiledSolver):
            # the Python chooser values the reference's two-card node at each of these (records it)
            ref.touched.update(twos[g.slots(self.split, self.locked)[3][twos]].tolist())  # (first nodes: of twos)
        retain = at[plan.retain[at]]
        n_primes = len(self.primes)
        vals = np.empty((len(at) if self.keep_values else 0, n_primes), dtype=np.uint32)
        kept = np.empty((len(retain), 3, n_primes), dtype=np.uint32)
        out = limbs_out(len(twos), n_primes)
        _kernel().collect(at[:len(vals)], retain, twos, val, act, self.offset, self.primes_a, self.garner, self.radix,
                          vals, kept, out)
        # (a reference's orders only: a fixed or post-split strategy's solver decides no other's; memory)
        state = _State(reached, order if self.policy is None and self.chooser is None else None,
                       vals if self.keep_values else None, kept, retain.astype(np.int32), exact_count)
        keys = g.keys
        self.values_memo.preset(zip([keys[k] for k in twos.tolist()], from_limbs(out, self.bound)))
        if not self.split:  # and their actions (:meth:`actions`, each initial deal), likewise
            rows = np.flatnonzero(g.is_first[retain])
            flat = self._ints(act[retain[rows]])
            state.two_actions = {int(retain[i]): flat[3 * j:3 * j + 3] for j, i in enumerate(rows.tolist())}
        return state

    def _ints(self, residues: npt.NDArray[np.int64] | npt.NDArray[np.uint32], bound: int = 0) -> list[int]:
        """The numerators of ``residues`` (rows; axes: ..., prime), by the Chinese remainder theorem:
        each in ``[−bound, bound]`` (default :attr:`bound`; the primes' product exceeds twice it)."""
        bound = bound or self.bound
        offset = self.offset if bound == self.bound else _residues(bound, self.primes)
        return ints(residues, bound, offset, (self.primes, self.primes_a, self.garner, self.radix))

    # -- the HandSolver surface -------------------------------------------------------------
    def stood_on(self, roots: Iterable[tuple[Values, int]]) -> set[Values]:
        """:meth:`HandSolver.stood_on` by the plan's arrays: the hands the plan stands on from ``roots``."""
        return set(map(tuple, self.stood_rows(roots).tolist()))

    def stood_rows(self, roots: Iterable[tuple[Values, int]]) -> npt.NDArray[np.int64]:
        """:meth:`stood_on` as rows of the graph's hands (a hand once per doublings it stands at:
        repeats; no tuple built, for :meth:`DealerTable.request_array`)."""
        g = self.graph
        roots = list(roots)
        marks = np.zeros(len(g.keys), dtype=np.uint8)
        for key in roots:
            k = g.index.get(key)
            if k is None:
                return as_rows(super().stood_on(roots))
            marks[k] = 1
        plan = self.plan_arrays()
        opens, nopen = self.kind_opens
        reached = np.zeros(len(g.keys), dtype=np.uint8)
        _kernel().reach(marks, plan.valued, opens, nopen, g.kid0, g.kidd, g.hands, g.hard,
                        np.array(self.base, dtype=np.int64), reached)
        out: npt.NDArray[np.int64] = g.hands[reached.astype(bool) & plan.valued[:, 0].astype(bool)]
        return out

    def node_index(self, hand: Values, doublings: int) -> int | None:
        """The node's index in the graph, evaluating with it as a root if the plan did not reach it."""
        k = self.graph.index.get((hand, doublings))
        if k is None:
            return None
        state = self.evaluated()
        if not state.reached[k]:
            if any(h > b for h, b in zip(hand, self.base)):
                return None
            self.extra_roots.append(k)
            self.state = None
            state = self.evaluated()
        return k

    def value(self, hand: Values, doublings: int = 0, hard: int | None = None, rem: Values | None = None) -> int:
        key = (hand, doublings)
        k = self.graph.index.get(key)
        if k is not None:
            self.touched.add(k)
        got = dict.get(self.memo, key)  # (a value already read: the engine asks tens of thousands of times)
        return got if got is not None else self._value(hand, doublings, hard, rem)

    def _value(self, hand: Values, doublings: int, hard: int | None, rem: Values | None) -> int:
        if hard is None:
            hard = shape(hand)[0]
        k = self.node_index(hand, doublings) if hard <= 21 else None
        if k is None:
            return super()._value(hand, doublings, hard, rem)
        got = self.memo.get((hand, doublings))
        assert got is not None
        return got

    def actions(self, hand: Values, locked: bool = False) -> dict[str, Fraction]:
        k = None if locked else self.node_index(hand, 0)
        state = self.state
        if k is None or state is None or state.kept is None or self.split:
            return super().actions(hand, locked)
        opens, nopen = self.kind_opens
        values = state.two_actions.get(k)
        if values is None:
            row = state.row(k)
            if row < 0:
                return super().actions(hand, locked)
            values = self._ints(state.kept[row, :int(nopen[k])])
        den = self.denominator(hand)
        return {ACTIONS[c]: Fraction(v, den) for c, v in zip(opens[k, :int(nopen[k])].tolist(), values)}

    def memo_value(self, key: tuple[Values, int]) -> int | None:
        """The node value of ``key`` from the last evaluation (None: not evaluated). The values past
        the two-card nodes are kept only once one is asked for (evaluated anew then): the engine
        reads none of them in a solve, and copying them out cost a tenth of the loops' time."""
        state = self.state
        k = self.graph.index.get(key)
        if state is None or not state.live or k is None or not state.reached[k]:
            return None
        if state.val is None:
            self.keep_values = True
            self.state = None
            state = self.evaluated()
            assert state.val is not None
        return self._ints(state.val[np.count_nonzero(state.reached[:k])])[0]  # (rows: the reached nodes)

    def _shown(self, state: _State) -> IntArray:
        """The nodes ``node_actions`` holds, ascending: the exposed nodes reached, a two-card node
        only once :meth:`value` was asked for it (as :class:`HandSolver` records them)."""
        plan = self.plan_arrays()
        g = self.graph
        shown = plan.expose & state.reached.astype(bool)
        shown[(g.ncards == 2) & (g.dbl == 0)] = False
        shown[[k for k in self.touched if plan.expose[k] and state.reached[k]]] = True
        return np.flatnonzero(shown)

    def class_sums(self) -> dict[tuple[tuple[object, ...], int, str], int]:
        """``Σ ways · numerator`` over the nodes of ``node_actions`` by (decision class, cards ``n``,
        action), ``ways`` the ordered draws from :attr:`base` that give the node's hand (the basic
        chart's weights, :func:`exactodds.spanish21.figures.basic_chart`; over ``ff(size, n)`` a
        probability): summed in residues, one reconstruction per sum (:attr:`chart_bound`), in the
        order ``node_actions`` first meets them (nodes ascending, actions as listed)."""
        state = self.state
        if state is None or state.kept is None or self.split:
            return {}
        cached = self.sums_cache
        if cached is not None and cached[0] is state and cached[1] == self.touched:
            return dict(cached[2])
        state = self.full_state()
        assert state is not None and state.kept is not None
        out = self._class_sums(state)
        # the chart is the last reader of the actions past the two-card nodes: kept as these sums (memory)
        self._keep_first(state)
        self.sums_cache = (state, frozenset(self.touched), out)
        return dict(out)

    def _class_sums(self, state: _State) -> dict[tuple[tuple[object, ...], int, str], int]:
        """:meth:`class_sums` from a state that keeps every action."""
        g = self.graph
        ks = self._shown(state)
        assert state.kept is not None
        valued = self.plan_arrays().valued[ks].astype(bool)
        group = (g.cls[ks] * 32 + g.ncards[ks])[:, None] * 8 + self.kind_opens[0][ks]  # (class, n, action)
        if not valued.any():
            return {}
        ids, first, inverse = np.unique(group[valued], return_index=True, return_inverse=True)
        compact = np.full(group.shape, -1, dtype=np.int64)
        compact[valued] = inverse.reshape(-1)
        sums = np.zeros((len(ids), len(self.primes)), dtype=np.int64)
        _kernel().class_sums(g.hands[ks], state.kept[np.searchsorted(state.kept_at, ks)], compact,
                             _ways_table(np.array(self.base, dtype=np.int64), self.primes), self.primes_a, sums)
        totals = self._ints(sums, self.chart_bound)
        out: dict[tuple[tuple[object, ...], int, str], int] = {}
        for i in np.argsort(first, kind="stable").tolist():
            code = int(ids[i])
            cls = g.classes[code // 256]
            key = (cls[0], self.up, *cls[1:]) + (() if cls[0] == "doubled" else (False,))
            out[(key, code // 8 % 32, ACTIONS[code % 8])] = totals[i]
        return out

    def full_state(self, key: tuple[Values, int] | None = None) -> _State | None:
        """The last evaluation's state, evaluated anew when it dropped the kept actions of ``key``
        (None: of any node; :attr:`_State.partial`)."""
        state = self.state
        if state is not None and state.partial and state.kept is not None:
            k = None if key is None else self.graph.index.get(key)
            if key is None or (k is not None and self.plan_arrays().expose[k] and state.reached[k]
                               and state.row(k) < 0):
                self.state = None
                state = self.evaluated()
        return state

    def evaluated_nodes(self) -> int:
        """How many nodes the last evaluation valued (0: none, or its values released)."""
        state = self.state
        return 0 if state is None or not state.live else int(state.reached.sum())

    def exposed(self, key: tuple[Values, int] | None = None) -> dict[tuple[Values, int], dict[str, int]]:
        """``node_actions`` of the last evaluation: of the node ``key``, or of every exposed node."""
        state = self.full_state(key)
        if state is None or state.kept is None:
            return {}
        plan = self.plan_arrays()
        opens = self.kind_opens[0]
        g = self.graph
        if key is None:
            ks = self._shown(state)
        else:
            k = g.index.get(key)
            if k is None or not (plan.expose[k] and state.reached[k]) or (g.ncards[k] == 2 and k not in self.touched):
                return {}
            ks = np.array([k])
        rows = state.kept[np.searchsorted(state.kept_at, ks)]
        values = self._ints(rows)
        out: dict[tuple[Values, int], dict[str, int]] = {}
        valued = plan.valued
        for i, k in enumerate(ks.tolist()):
            out[self.graph.keys[k]] = {ACTIONS[int(opens[k, s])]: values[3 * i + s] for s in range(3) if valued[k, s]}
        return out

    def release(self, values: bool, actions: bool) -> None:
        """Drop the node values (``memo.clear()``) and/or the kept actions (``node_actions.clear()``)."""
        state = self.state
        if state is None:
            return
        if values:
            state.val = None
            state.live = False
            if self.split and not actions:
                # past the first decision no one reads a split hand's actions once its deals are valued
                # (the suit bonus and the post-split strategies read the two-card nodes, the reference's
                # decisions its orders)
                self._keep_first(state)
        if actions:
            state.kept = None
            state.two_actions = {}
            self.touched.clear()


    def _keep_first(self, state: _State) -> None:
        """Drop the kept actions past the two-card nodes (memory), evaluated anew if asked for
        (:meth:`full_state`)."""
        if state.kept is None or not self.plan_arrays().retains_later:  # (a split solver's: nothing to drop)
            return
        g = self.graph
        first = (g.ncards[state.kept_at] == 2) & (g.dbl[state.kept_at] == 0)
        if not first.all():
            state.kept, state.kept_at = state.kept[first], state.kept_at[first]
            state.partial = True


def stood_hands(solver: HandSolver) -> set[Values]:
    """The hands a compiled solver's last evaluation stood on (for the tests of the dealer's batches)."""
    if not isinstance(solver, CompiledSolver) or solver.state is None:
        return set()
    plan = solver.plan_arrays()
    ks = np.flatnonzero(solver.state.reached.astype(bool) & plan.valued[:, 0].astype(bool))
    return {solver.graph.keys[k][0] for k in ks.tolist()}


__all__ = ["ACTIONS", "CompiledSolver", "Graph", "MARGIN", "graph_of", "solver_class", "stood_hands"]
