"""The rank × suit cell walk: the second method of the levels settled on every dealt card.

Every round is dealt as a sequence of the 13 *ranks* in dealing order (§ 629a.8(c),
drawing rules § 629a.10, :mod:`exactodds.game.rules`), vectorised with numpy; the
1,659,001 rank sequences (491,869 rows: each hand's first two ranks up to order) are
grouped by (multiset of ranks, Coup). A multiset is priced *face by face*: the ``k``
positions of a rank take suits ``(j_S, j_H, j_D, j_C)`` in ``k!/Π j_s!`` ways, each
occurring ``Π_s ff(n_{r,s}, j_s)`` times, and the suits a rank's cards occupy are tracked
as a cell -- one suit, both suits of one colour, or both colours -- combined over the ranks
by union. "All one suit", "all one colour" and "mixed" are thus counted directly, cell by
cell, with no subtraction; "one rank" and "one value" are read from the multiset. A level
of point counts (:data:`POINTS`) sums the cells; a level of faces (:data:`FACES_READ`)
keeps them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache, lru_cache
from math import factorial
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from exactodds.game.cards import POINT_VALUE, RANKS, Card, Shoe, falling_factorial
from exactodds.game.rules import banker_draws, is_natural, player_draws
from exactodds.lazy import LazyModule
from exactodds.recount.base import Array, Deal, Reading, SecondMethod, accumulate, face_counts, falling, int_dtype

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy", globals(), "np")


@cache
def rank_values() -> Array:
    """Point value of each rank index; index 13 marks a card not dealt (value 0)."""
    return np.array([POINT_VALUE[r] for r in RANKS] + [0], dtype=np.int64)

ABSENT: Final = 13
N_STATES: Final = 8
"""Suit cells: 0 no card; 1-4 one suit (S, H, D, C); 5 hearts and diamonds; 6 spades and
clubs; 7 both colours."""

WORDS: Final = ("rank × suit cell walk: every round dealt as a sequence of 13 ranks (§ 629a.10), each multiset "
                "of ranks priced face by face over the suits its cards occupy, summed over the suit cells")
FACES_WORDS: Final = (
    "rank × suit cell walk: every round dealt as a sequence of 13 ranks (§ 629a.10), each "
    "multiset of ranks priced face by face over suit cells (one suit / both suits of one colour / "
    "both colours counted directly), one rank and one value read from the multiset")


def _suit_state(suits: frozenset[int]) -> int:
    red = suits & {1, 2}
    black = suits & {0, 3}
    if red and black:
        return 7
    if len(suits) == 2:
        return 5 if red else 6
    return 1 + next(iter(suits)) if suits else 0


def _state_suits(state: int) -> frozenset[int] | None:
    """The suits of a cell; ``None`` for "both colours" (which absorbs any union)."""
    return {0: frozenset(), 5: frozenset({1, 2}), 6: frozenset({0, 3}), 7: None}.get(
        state, frozenset({state - 1}))


def _union_table() -> tuple[tuple[int, ...], ...]:
    out = []
    for x in range(N_STATES):
        row = []
        for y in range(N_STATES):
            a, b = _state_suits(x), _state_suits(y)
            row.append(7 if a is None or b is None else _suit_state(a | b))
        out.append(tuple(row))
    return tuple(out)


UNION: Final = _union_table()


class _Compositions(NamedTuple):
    """Every split ``(j_S, j_H, j_D, j_C)`` of ``k ≤ depth`` cards of one rank over the suits."""

    j: Array  # (n, 4)
    k: Array  # (n,)
    multinomial: Array  # (n,) k!/Π j_s!
    state: Array  # (n,) suit cell of the split


@lru_cache(maxsize=2)
def _compositions(depth: int) -> _Compositions:
    rows = [c for c in itertools.product(range(depth + 1), repeat=4) if sum(c) <= depth]
    multinomial = [factorial(sum(c)) // (factorial(c[0]) * factorial(c[1]) * factorial(c[2]) * factorial(c[3]))
                   for c in rows]
    states = [_suit_state(frozenset(s for s in range(4) if c[s])) for c in rows]
    return _Compositions(np.array(rows, dtype=np.int64), np.array([sum(c) for c in rows], dtype=np.int64),
                         np.array(multinomial, dtype=np.int64), np.array(states, dtype=np.int64))


class _RankRounds(NamedTuple):
    """Shoe-independent part of the walk: every round as a sequence of ranks, grouped by
    (multiset of ranks, Coup); keys of the two readings and a representative of each."""

    ms_k: Array  # (n_ms, 13) cards of each rank in the multiset
    grp_ms: Array  # (n_grp,) multiset of the group
    grp_mult: Array  # (n_grp,) rank sequences in the group
    grp_m: Array  # (n_grp,) cards dealt
    coup_index: Array  # (n_grp,) point-count key of the group
    coup_reps: tuple[Deal, ...]
    faces_index: Array  # (n_grp, 3) face key of the group per colour cell
    faces_reps: tuple[Deal, ...]


def _drawing_tables() -> tuple[Array, Array, Array]:
    """§ 629a.10 as lookup tables: natural[t], player_draws[t], banker_draws[b, third or 10]."""
    natural = np.array([is_natural(t) for t in range(10)])
    pdraws = np.array([player_draws(t) for t in range(10)])
    bdraws = np.array([[banker_draws(b, t) for t in range(10)] + [banker_draws(b, None)] for b in range(10)])
    return natural, pdraws, bdraws


@cache
def hand_pairs() -> tuple[Array, Array]:
    """A hand's first two ranks up to order (91 pairs) and the orders each stands for (1 or
    2): swapping them changes neither the totals nor the multiset."""
    pairs = np.array([(x, y) for x in range(13) for y in range(x, 13)], dtype=np.int64)
    return pairs, np.where(pairs[:, 0] == pairs[:, 1], 1, 2)


@cache
def multiset_digit() -> Array:
    """A multiset of at most 6 ranks as the base-7 number Σ k_r·7^r (index 13: no card)."""
    return np.array([7**r for r in range(13)] + [0], dtype=np.int64)


def _rank_sequences() -> tuple[Array, Array, Array, Array, Array]:
    """Every complete round as (Player's pair, Banker's pair, P3, B3) -- pairs index
    :func:`hand_pairs`, ranks 0-12, 13 for a third card not dealt -- with its number of
    rank sequences in dealing order (P1, B1, P2, B2, P3, B3), by § 629a.10."""
    natural, pdraws, bdraws = _drawing_tables()
    pairs, pair_orders = hand_pairs()
    rank_value = rank_values()
    pp, bp = np.indices((len(pairs),) * 2).reshape(2, -1)
    orders = pair_orders[pp] * pair_orders[bp]
    pt = rank_value[pairs[pp]].sum(axis=1) % 10
    bt = rank_value[pairs[bp]].sum(axis=1) % 10
    nat = natural[pt] | natural[bt]
    p_draws = ~nat & pdraws[pt]
    b_draws_alone = ~nat & ~p_draws & bdraws[bt, 10]
    ranks = np.arange(13)

    def each_rank(rows: Array) -> tuple[Array, Array]:
        """Every row index followed by each of the 13 ranks."""
        return np.repeat(rows, 13), np.tile(ranks, len(rows))

    done = np.flatnonzero(~p_draws & ~b_draws_alone)  # naturals, or both hands stand
    stood, b3_stood = each_rank(np.flatnonzero(b_draws_alone))  # Player stands, Banker draws
    drew, p3 = each_rank(np.flatnonzero(p_draws))  # Player draws; the Banker by Table 1
    b_hits = bdraws[bt[drew], rank_value[p3]]
    six, b3_six = each_rank(np.flatnonzero(b_hits))
    row = np.concatenate([done, stood, drew[~b_hits], drew[six]])
    third_p = np.concatenate([np.full(len(done) + len(stood), ABSENT), p3[~b_hits], p3[six]])
    third_b = np.concatenate([np.full(len(done), ABSENT), b3_stood, np.full(int((~b_hits).sum()), ABSENT), b3_six])
    return pp[row], bp[row], third_p, third_b, orders[row]


def _deal_of(ranks: Sequence[int], suits: Sequence[str]) -> Deal:
    """Cards of positions (P1, B1, P2, B2, P3, B3) with these ranks (13: not dealt) and suits."""
    cards = [None if r == ABSENT else Card(RANKS[r], s) for r, s in zip(ranks, suits)]
    player = tuple(c for c in (cards[0], cards[2], cards[4]) if c is not None)
    banker = tuple(c for c in (cards[1], cards[3], cards[5]) if c is not None)
    return player, banker


@lru_cache(maxsize=1)
def _rank_rounds() -> _RankRounds:
    pp, bp, p3, b3, orders = _rank_sequences()
    pairs, rank_value, digit = hand_pairs()[0], rank_values(), multiset_digit()
    ranks = np.column_stack([pairs[pp, 0], pairs[bp, 0], pairs[pp, 1], pairs[bp, 1], p3, b3])
    v = rank_value[ranks]
    pt = (v[:, 0] + v[:, 2] + v[:, 4]) % 10
    bt = (v[:, 1] + v[:, 3] + v[:, 5]) % 10
    coup = ((pt * 10 + bt) * 2 + (p3 != ABSENT)) * 2 + (b3 != ABSENT)  # < 400
    ms_code = digit[ranks].sum(axis=1)
    groups, first, inverse = np.unique(ms_code * 400 + coup, return_index=True, return_inverse=True)
    mult = accumulate(inverse, orders, len(groups), np.int64)
    ms_codes, grp_ms = np.unique(groups // 400, return_inverse=True)
    grp_coup = groups % 400
    ms_k = (ms_codes[:, None] // digit[None, :13]) % 7
    ms_m = ms_k.sum(axis=1)
    one_rank = (ms_k > 0).sum(axis=1) == 1
    value_k = ms_k @ (rank_value[:13, None] == np.arange(10)[None, :]).astype(np.int64)
    single = np.where((value_k > 0).sum(axis=1) == 1, value_k.argmax(axis=1), 10)
    reps = ranks[first]

    coup_index = np.unique(grp_coup, return_inverse=True)[1]
    coup_first = np.unique(coup_index, return_index=True)[1]
    coup_reps = tuple(_deal_of(reps[g], "SSSSSS") for g in coup_first)

    base = (grp_coup * 2 + one_rank[grp_ms]) * 11 + single[grp_ms]
    faces_index = np.unique(base[:, None] * 3 + np.arange(3)[None, :], return_inverse=True)[1].reshape(-1, 3)
    flat_first = np.unique(faces_index.ravel(), return_index=True)[1]
    suits_of = ("SSSSSS", "CSSSSS", "HSSSSS")  # one suit / spades and clubs / both colours
    faces_reps = tuple(_deal_of(reps[i // 3], suits_of[i % 3]) for i in flat_first)
    return _RankRounds(ms_k, grp_ms, mult, ms_m[grp_ms], coup_index, coup_reps, faces_index, faces_reps)


def _suit_cells(shoe: Shoe, depth: int, dtype: Any) -> Array:
    """``A[r, k, cell]``: ordered ways to give ``k`` positions of rank ``r`` faces whose suits
    form ``cell``, ``Σ k!/Π j_s! · Π_s ff(n_{r,s}, j_s)`` over the splits ``j`` of that cell."""
    comp = _compositions(depth)
    n = face_counts(shoe, dtype).reshape(13, 4)  # FACES are rank-major, suits S, H, D, C
    ff = np.stack(falling(n, depth), axis=-1)  # (13, 4, depth + 1)
    prod = ff[:, 0, comp.j[:, 0]]
    for s in range(1, 4):
        prod = prod * ff[:, s, comp.j[:, s]]  # ≤ ff(n_r, k): cards drawn from disjoint suits
    prod = prod * comp.multinomial.astype(dtype)[None, :]  # and placed: ≤ ff(n_r, k) still
    out = np.zeros((13, depth + 1, N_STATES), dtype=dtype)
    np.add.at(out, (np.arange(13)[:, None], comp.k[None, :], comp.state[None, :]), prod)
    return out


@lru_cache(maxsize=64)
def rank_walk(shoe: Shoe, depth: int) -> tuple[Array, Array, int]:
    """Counts per point-count key and per face key for ``shoe`` (at least ``depth`` cards;
    ``depth``: the cards of a round's universe, 6, § 629a.10), and the universe."""
    universe = falling_factorial(shoe.size, depth)
    dtype = int_dtype(universe)
    st = _rank_rounds()
    cells = _suit_cells(shoe, depth, dtype)
    w = np.zeros((len(st.ms_k), N_STATES), dtype=dtype)
    w[:, 0] = 1
    for r in range(13):
        a = cells[r][st.ms_k[:, r]]  # (n_ms, 8)
        nxt = np.zeros_like(w)
        for x in range(N_STATES):
            for y in range(N_STATES):
                nxt[:, UNION[x][y]] += w[:, x] * a[:, y]
        w = nxt
    by_colour = np.stack([w[:, 1:5].sum(axis=1), w[:, 5:7].sum(axis=1), w[:, 7]], axis=1)
    undealt = np.array([falling_factorial(shoe.size - m, depth - m) for m in range(depth + 1)], dtype=dtype)
    read = by_colour[st.grp_ms] * st.grp_mult.astype(dtype)[:, None]  # ≤ ff(N, m)
    per_group = read * undealt[st.grp_m][:, None]  # ≤ ff(N, depth)
    faces = accumulate(st.faces_index.ravel(), per_group.ravel(), len(st.faces_reps), dtype)
    coups = accumulate(st.coup_index, per_group.sum(axis=1), len(st.coup_reps), dtype)
    assert int(faces.sum()) == universe == int(coups.sum())
    return coups, faces, universe


class RankCellWalk(SecondMethod):
    """The rank × suit cell walk, read per suit cell (``cells``: a level of faces -- one suit,
    one colour, one rank, one value of all dealt cards) or summed over them (a level of
    point counts). (Plain classes, not dataclasses: the engine builds them at every start.)"""

    def __init__(self, cells: bool) -> None:
        self.cells = cells

    def describe(self) -> str:
        return FACES_WORDS if self.cells else WORDS

    def reps(self) -> tuple[Deal, ...]:
        rounds = _rank_rounds()
        return rounds.faces_reps if self.cells else rounds.coup_reps

    def keyed(self, level: Reading, shoe: Shoe) -> tuple[Array, int]:
        coups, faces, universe = rank_walk(shoe, level.depth)
        return (faces if self.cells else coups), universe


POINTS: Final = RankCellWalk(cells=False)
"""The walk for a level of point counts (the Coup)."""
FACES_READ: Final = RankCellWalk(cells=True)
"""The walk for a level of the Coup plus suit, colour and rank facts of all dealt cards."""
