"""The compiled hand solver's loops as rewritten for speed (issue 27, solver3 round), each against
an independent statement of what it must do.

The solvers' integers are checked against the Python solver in tests/test_blackjack_compiled.py;
these tests pin the pieces that round changed: the decision helper of scalars
(:func:`hand_kernel._choose`) against a plain sort of the valued actions, the gathering kernel
(:func:`hand_kernel.collect`) against numpy's takes and Python's Chinese remainder theorem, and
the residue primes, now a multiple of eight, against their definition.
"""

from __future__ import annotations

from math import prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.blackjack import compiled
from exactodds.blackjack.dealer import is_prime
from exactodds.blackjack.solver_residues import LANES, from_limbs, limbs_out

pytest.importorskip("numba")

MARGIN = 1e-9


def _reference_choice(fixed: int, valued: list[int], exact: bool, prior: list[int], floats: list[float],
                      margin: float) -> tuple[int, list[int]]:
    """What a node takes, by the rule as stated (compiled's module doc): a fixed slot, or the only
    valued one; the order already decided exactly; else the valued slots by float value, best
    first, the first listed ahead on equal floats, taken only when each beats the next by more
    than the margin (-1: the caller decides exactly)."""
    slots = [s for s in range(3) if valued[s]]
    if fixed >= 0 or len(slots) == 1:
        choice = slots[0] if len(slots) == 1 else fixed
        return choice, [choice, -1, -1]
    if exact:
        return prior[0], prior
    ranked = sorted(slots, key=lambda s: -floats[s])  # stable: first listed on a tie
    proven = all(floats[a] - floats[b] > margin for a, b in zip(ranked, ranked[1:]))
    return (ranked[0] if proven else -1), ranked + [-1] * (3 - len(ranked))


@settings(max_examples=300, deadline=None)
@given(valued=st.lists(st.integers(0, 1), min_size=3, max_size=3).filter(any),
       floats=st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.25 + 5e-10, 0.25 + 2e-9, 1.5]), min_size=3,
                       max_size=3),
       fixed=st.integers(-1, 2), exact=st.booleans(), prior=st.permutations([0, 1, 2]))
def test_a_nodes_choice_is_the_stated_rule(valued: list[int], floats: list[float], fixed: int, exact: bool,
                                           prior: list[int]) -> None:
    """:func:`hand_kernel._choose` (scalars only, the node loop's decision) takes what a plain
    sort of the valued actions takes, ties and near ties within the margin included."""
    from exactodds.blackjack import hand_kernel

    if fixed >= 0 and not valued[fixed]:
        fixed = next(s for s in range(3) if valued[s])  # (a plan fixes a valued slot)
    got = hand_kernel._choose(fixed, sum(valued), int(exact), *valued, *floats, MARGIN, *prior)
    choice, order = _reference_choice(fixed, valued, exact, prior, floats, MARGIN)
    assert got[0] == choice and list(got[1:]) == order


@settings(max_examples=40, deadline=None)
@given(bits=st.integers(30, 900), data=st.data())
def test_collect_gathers_and_reconstructs(bits: int, data: st.DataObject) -> None:
    """:func:`hand_kernel.collect` keeps the rows numpy's takes would and gives back each value
    read exactly: ``x`` in ``[−B, B]`` from its residues plus ``B``'s (Python's integers the oracle)."""
    from exactodds.blackjack import hand_kernel

    primes, primes_a, garner, radix = compiled._primes(bits)
    bound = (prod(primes) - 1) // 2
    n = data.draw(st.integers(1, 12))
    xs = data.draw(st.lists(st.integers(-bound, bound), min_size=n, max_size=n))
    val = np.array([[x % q for q in primes] for x in xs], dtype=np.int64)
    act = np.stack([val, (val + 1) % primes_a, (val * 3) % primes_a], axis=1)
    at = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1))), dtype=np.int64)
    retain = at[data.draw(st.lists(st.booleans(), min_size=len(at), max_size=len(at)).map(np.array))]
    twos = at[data.draw(st.lists(st.booleans(), min_size=len(at), max_size=len(at)).map(np.array))]
    vals = np.empty((len(at), len(primes)), dtype=np.uint32)
    kept = np.empty((len(retain), 3, len(primes)), dtype=np.uint32)
    out = limbs_out(len(twos), len(primes))
    offset = np.array([bound % q for q in primes], dtype=np.int64)
    hand_kernel.collect(at, retain, twos, val, act, offset, primes_a, garner, radix, vals, kept, out)
    assert (vals == val.take(at, axis=0)).all() and (kept == act.take(retain, axis=0)).all()
    assert from_limbs(out, bound) == [xs[k] for k in twos.tolist()]


@pytest.mark.parametrize("bits", [30, 400, 435, 464, 465, 650, 1000])
def test_the_residue_primes_are_a_multiple_of_eight(bits: int) -> None:
    """:func:`solver_residues._primes`: the largest primes below 2²⁹, all above 2²⁸, distinct, their
    product above ``2^bits``, as many as a multiple of :data:`LANES` (the loops' vector width)."""
    primes = compiled._primes(bits)[0]
    assert len(primes) % LANES == 0 and len(set(primes)) == len(primes)
    assert all(is_prime(q) and 1 << 28 < q < 1 << 29 for q in primes)
    assert prod(primes) > 1 << bits
    below = [q for q in range((1 << 29) - 1, min(primes) - 1, -1) if q in set(primes) or is_prime(q)]
    assert sorted(primes, reverse=True) == below  # no prime skipped: the largest ones, in order
