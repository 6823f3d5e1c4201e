"""Compiled plans: the (wager, paytable) pairs of one level, ready to tally any shoe in one pass.

Like ``re.compile``: :func:`compile_plan` takes a level and its pairs once and returns a
frozen :class:`Plan` holding each pair's :class:`~exactodds.figures.settlement.Terms`
(split, nets, squares) and the arrays of the compiled pass; :meth:`Plan.tally` then
prices a shoe at the level (:meth:`~exactodds.engine.level.Level.priced`) and tallies it
for every pair at once. A caller that knows its pairs (the catalogue, certify, a design
sweep) compiles once; :func:`~exactodds.figures.analysis.analyze` keeps its plans in a
small session keyed by value (:class:`~exactodds.figures.analysis.Session`). Nothing
here is learned from an earlier shoe: what a pass computes is what the plan holds.

*The one pass.* The pairs of a level split its results into outcomes in a few distinct
ways (the catalogue's 56 coup-level paytables: 31 splits of 205 results). The *atoms*
are the classes of results no split tells apart (78 for those 31; 6 for the 11 core
paytables). The pass (:func:`~exactodds.engine.single_kernel.tally_splits`) sums each
atom's results, then each split's outcomes as sums of atoms, then each pair's two
moments ``Σ n_o·scaled_o`` and ``Σ n_o·scaled_o²`` as weighted sums of its outcomes:
about as many additions as the level has results, whatever the number of pairs.

>>> from exactodds.catalogue import get_wager
>>> from exactodds.game.cards import Shoe
>>> banker = get_wager("banker")
>>> plan = compile_plan(banker.level, [(banker, p) for p in banker.paytables])
>>> tally = plan.tally(Shoe.standard(8))
>>> tally.outcome_counts(0) == tally.outcome_counts(1)  # 5% and 4% commission split alike
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import mul
from struct import Struct
from typing import TYPE_CHECKING, Any

from exactodds.catalogue.model import Paytable, Wager
from exactodds.engine.pricing import INT64_MAX, Counts
from exactodds.engine.single import loaded_kernel
from exactodds.figures.settlement import Terms, compile_terms, settlement, tally_ints
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from exactodds.engine.level import Level
    from exactodds.game.cards import Shoe
else:
    np = LazyModule("numpy", globals(), "np")


@dataclass(frozen=True, eq=False)
class Packed:
    """The arrays of a plan's compiled pass: atom ``a`` is the results
    ``order[bounds[a]:bounds[a + 1]]``; then form ``k`` (written after the atoms, in
    order, so a form may read an earlier one) is ``Σ form_weight[e] × out[form_at[e]]``
    over ``form_ptr[k] <= e < form_ptr[k + 1]``: each split's outcomes (weights 1 over
    its atoms, or the dealt rounds -- form 0, every atom -- less the other atoms where
    fewer), then each pair's two moments (its scaled nets and their squares over its split's
    outcomes). ``outcome_at[s]``: where split ``s``'s outcomes start in the pass's output; ``moments_at[i]``: where pair ``i``'s two moments are, or -1 (weights
    beyond int64)."""

    order: npt.NDArray[np.intp]
    bounds: npt.NDArray[np.intp]
    form_ptr: npt.NDArray[np.intp]
    form_at: npt.NDArray[np.intp]
    form_weight: npt.NDArray[np.int64]
    outcome_at: tuple[int, ...]
    moments_at: tuple[int, ...]
    outcome_reader: tuple[Struct, ...]
    """Per split: reads its outcome counts off the pass's int64 output as Python ints, in
    one call (``unpack_from(output, 8 * outcome_at[s])``)."""


@dataclass(frozen=True, eq=False)
class Plan:
    """A level and the :class:`~exactodds.figures.settlement.Terms` of some of its pairs,
    compiled (:func:`compile_plan`). Pair ``i`` is ``terms[i]``; pairs that split the
    results alike share split number ``split_of[i]``."""

    level: Level
    terms: tuple[Terms, ...]
    splits: tuple[tuple[int, ...], ...]
    """The distinct outcome splits of the pairs, in order of first use."""
    settled: tuple[int, ...]
    """Per split: how many of its first outcomes settle some result (its largest index + 1;
    a paytable naming more has those never settled: zero)."""
    split_of: tuple[int, ...]
    limits: tuple[int, ...]
    """Per pair: the largest universe for which its int64 moments are exact
    (``INT64_MAX // max(squares)``: every partial sum is at most the universe times the
    largest weight, ``|x| ≤ x²`` for integers); 0 where none is."""

    @cached_property
    def _by_ids(self) -> dict[tuple[str, str], tuple[int, ...]]:
        """The numbers of the pairs of each (wager id, paytable id)."""
        out: dict[tuple[str, str], tuple[int, ...]] = {}
        for i, t in enumerate(self.terms):
            key = (t.wager.id, t.paytable.id)
            out[key] = (*out.get(key, ()), i)
        return out

    def find(self, wager: Wager[Any], paytable: Paytable) -> int | None:
        """The number of the pair equal to (``wager``, ``paytable``), or None: looked up by
        their ids, then compared by value (the very objects compare at once; a design
        sweep's paytables share an id and differ in their pays)."""
        for i in self._by_ids.get((wager.id, paytable.id), ()):
            t = self.terms[i]
            if (t.paytable is paytable or t.paytable == paytable) and (t.wager is wager or t.wager == wager):
                return i
        return None

    @cached_property
    def packed(self) -> Packed:
        """The compiled pass's arrays (numpy: built only when a shoe is tallied by the kernel)."""
        stack = np.array(self.splits, np.intp)                     # (splits, results)
        atoms, atom_of = np.unique(stack.T, axis=0, return_inverse=True)
        atom_of = atom_of.reshape(-1)
        order = np.argsort(atom_of, kind="stable").astype(np.intp)
        bounds = np.searchsorted(atom_of[order], np.arange(len(atoms) + 1)).astype(np.intp)
        whole = len(atoms)                                         # form 0: every atom, the dealt rounds
        ptr, at, weight = [0, whole], list(range(whole)), [1] * whole
        outcome_at = []
        made: dict[tuple[int, ...], int] = {}                      # an outcome's atoms -> the form that sums them
        for s in range(len(self.splits)):
            outcome_at.append(whole + len(ptr) - 1)
            of = atoms[:, s]
            big = int(np.bincount(of).argmax())                  # the outcome of most atoms (a side bet's loss):
            for o in range(self.settled[s]):                     # the dealt rounds less the other atoms, if fewer
                members = tuple(np.flatnonzero(of == o).tolist())
                known = made.get(members)
                if known is not None:                            # another split's outcome of the same results
                    at.append(known)
                    weight.append(1)
                elif o == big and 2 * (whole - len(members)) < len(members):
                    others = np.flatnonzero(of != o).tolist()
                    at += [whole, *others]
                    weight += [1, *[-1] * len(others)]
                else:
                    at += members
                    weight += [1] * len(members)
                made.setdefault(members, whole + len(ptr) - 1)
                ptr.append(len(at))
        moments_at = []
        for t, s, limit in zip(self.terms, self.split_of, self.limits):
            if not limit:
                moments_at.append(-1)
                continue
            moments_at.append(len(atoms) + len(ptr) - 1)
            n = self.settled[s]                                   # outcomes past it settle nothing: zero
            for row in (t.scaled, t.squares):                  # a push (weight 0) adds nothing: left out
                at += [outcome_at[s] + o for o in range(n) if row[o]]
                weight += [x for x in row[:n] if x]
                ptr.append(len(at))
        return Packed(order, bounds, np.array(ptr, np.intp), np.array(at, np.intp), np.array(weight, np.int64),
                      tuple(outcome_at), tuple(moments_at), tuple(Struct(f"={n}q") for n in self.settled))

    def tally(self, shoe: Shoe) -> Tally:
        """The shoe priced at the level and tallied for every pair: in one compiled pass
        where the process has loaded the single-shoe kernel and the counts are int64, else
        pair by pair when read (:meth:`Tally.outcome_counts`)."""
        universe, counts, void = self.level.priced(shoe)
        flat: memoryview | None = None
        kernel = loaded_kernel()
        if kernel is not None and self.terms and isinstance(counts, np.ndarray) and counts.dtype == np.int64 \
                and len(counts):
            p = self.packed
            flat = kernel.tally_splits(counts, p.order, p.bounds, p.form_ptr, p.form_at, p.form_weight)
            whole = len(p.bounds) - 1                             # form 0, after the atoms: every atom, and the atoms
            assert flat[whole] + void == universe, "outcome counts must add up to the universe"  # partition the results
        return Tally(self, shoe, universe, counts, void, flat)


def compile_plan(level: Level, pairs: Sequence[tuple[Wager[Any], Paytable]]) -> Plan:
    """The :class:`Plan` of ``pairs`` (each a wager settled at ``level`` and one of its
    paytables): each pair's terms (:func:`~exactodds.figures.settlement.compile_terms`),
    its split numbered among the distinct ones, its moments' int64 limit.

    >>> from exactodds.catalogue import get_wager
    >>> tie = get_wager("tie")
    >>> plan = compile_plan(tie.level, [(tie, p) for p in tie.paytables])
    >>> plan.terms[0].names, len(plan.terms), len(plan.splits)  # 8 to 1 and 9 to 1 split alike
    (('Tie', 'No tie'), 2, 1)
    """
    terms = tuple(compile_terms(w, p) for w, p in pairs)
    for t in terms:
        if t.level is not level:
            raise ValueError(f"wager {t.wager.id!r} is settled at the {t.level.name} level, not {level.name}")
    number: dict[tuple[int, ...], int] = {}
    split_of = tuple(number.setdefault(t.split, len(number)) for t in terms)
    limits = tuple(INT64_MAX // max((1, *t.squares)) for t in terms)
    return Plan(level, terms, tuple(number), tuple(max(s, default=-1) + 1 for s in number), split_of, limits)


def compile_plans(pairs: Sequence[tuple[Wager[Any], Paytable]]) -> dict[Level, Plan]:
    """One :func:`compile_plan` per level of ``pairs``, each of that level's pairs in order."""
    by_level: dict[Level, list[tuple[Wager[Any], Paytable]]] = {}
    for w, p in pairs:
        by_level.setdefault(w.level, []).append((w, p))
    return {level: compile_plan(level, members) for level, members in by_level.items()}


class Tally:
    """One shoe priced at a plan's level (``universe``, ``counts`` per result, ``void``
    rounds) and, where the compiled pass ran, its output ``flat``; each pair's outcome
    counts and moments are read from it (else computed when first read, and kept). A
    working object of one shoe (slots, made once per shoe and level)."""

    __slots__ = ("plan", "shoe", "universe", "counts", "void", "flat", "by_split")

    def __init__(self, plan: Plan, shoe: Shoe, universe: int, counts: Counts | list[int], void: int,
                 flat: memoryview | None) -> None:
        self.plan, self.shoe, self.universe, self.counts, self.void, self.flat = plan, shoe, universe, counts, void, flat
        self.by_split: list[tuple[int, ...] | None] = [None] * len(plan.splits)
        """Each split's outcome counts once read (:meth:`split_counts`; None before)."""

    def outcome_counts(self, i: int) -> tuple[int, ...]:
        """Counts per outcome of pair ``i`` (void rounds not among them): its split's
        (:meth:`split_counts`), then zeros for the outcomes the split never settles."""
        s = self.plan.split_of[i]
        counts = self.by_split[s] or self.split_counts(s)
        size = len(self.plan.terms[i].names)
        return counts if len(counts) == size else (*counts, *(0,) * (size - len(counts)))

    def split_counts(self, s: int) -> tuple[int, ...]:
        """Counts per outcome of split ``s``, as many as settle some result: from the pass,
        else by :func:`~exactodds.figures.settlement.tally_ints` for shipped counts (a list,
        no numpy), else by :meth:`~exactodds.figures.settlement.Settlement.tally_one`."""
        plan = self.plan
        n = plan.settled[s]
        counts, flat = self.counts, self.flat
        if flat is not None:
            packed = plan.packed
            hit = packed.outcome_reader[s].unpack_from(flat, 8 * packed.outcome_at[s])
        elif isinstance(counts, list):
            hit = tuple(tally_ints(plan.splits[s], n, counts))
        else:
            t = plan.terms[plan.split_of.index(s)]
            hit = tuple(settlement(t.wager, t.paytable).tally_one(counts)[:n])
        assert sum(hit) + self.void == self.universe, "outcome counts must add up to the universe"
        self.by_split[s] = hit
        return hit

    def moments(self, i: int) -> tuple[int, int]:
        """``(Σ n_o·scaled_o, Σ n_o·scaled_o²)`` of pair ``i`` (void rounds push: they add
        nothing): from the pass where it took them exactly (the universe within the pair's
        int64 limit), else from :meth:`outcome_counts` in Python ints."""
        flat, plan = self.flat, self.plan
        if flat is not None and self.universe <= plan.limits[i]:
            at = plan.packed.moments_at[i]
            return flat[at], flat[at + 1]
        t = plan.terms[i]
        counts = self.outcome_counts(i)
        return sum(map(mul, counts, t.scaled)), sum(map(mul, counts, t.squares))
