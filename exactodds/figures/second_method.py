"""Second methods: every level's round results recounted without the pricing engine.

A certificate confirms each figure by two independent computations at full size. The
first is the engine (:mod:`exactodds.engine`: deal shapes over point-value or projection
classes, grouped by multiset and priced by falling factorials of class counts). The
second, here, counts the same universe -- ordered sequences of ``U = min(N, 6)`` cards
off the top of the shoe (Spanish 21: ``min(N, 4)``) -- another way, for every level:

``coup``, ``deal-faces``: a **rank × suit cell walk**.
    Every round is dealt as a sequence of the 13 *ranks* in dealing order (§ 629a.8(c),
    drawing rules § 629a.10, :mod:`exactodds.game.rules`), vectorised with numpy; the
    1,659,001 rank sequences (491,869 rows: each hand's first two ranks up to order) are
    grouped by (multiset of ranks, Coup). A multiset is priced *face by face*: the ``k`` positions of a rank take suits ``(j_S, j_H, j_D, j_C)``
    in ``k!/Π j_s!`` ways, each occurring ``Π_s ff(n_{r,s}, j_s)`` times, and the suits a
    rank's cards occupy are tracked as a cell -- one suit, both suits of one colour, or
    both colours -- combined over the ranks by union. "All one suit", "all one colour"
    and "mixed" are thus counted directly, cell by cell, with no subtraction; "one rank"
    and "one value" are read from the multiset. The ``coup`` level sums the cells.
``opening-player-faces``, ``opening-banker-faces``: the hand's two card **faces**
    enumerated directly, 52 × 52: ``n_a·(n_b − [a = b])``.
``opening-rank-pattern``, ``opening-nines``, ``royal-9-opening``: the four initial
    **faces** enumerated directly by broadcasting over 52 × 52 × 52 face triples (cards
    1-3) with the face counts depleted by the faces already dealt,
    ``n_a·(n_b − [a=b])·(n_c − [a=c] − [b=c])``, and the fourth card summed per group of
    faces by linearity (``Σ_{d∈G} (n_d − [a=d] − [b=d] − [c=d])``). No falling factorial
    of a class count is used: every face is counted on its own.
``spanish21-match``: a **face-level count** of the player's two cards and the dealer's
    up card (cards 1, 3 and 2, § 551.8(d)) over the Spanish shoe's faces (tens removed,
    § 551.3(a)), ``n_p·(n_u − [p=u])·(n_q − [p=q] − [u=q])``; the hole card is one of the
    ``N − 3`` left.
Short shoes (``N < 6``; Spanish 21 ``N < 4``)
    The **brute-force deal** of every ordering of the shoe's physical cards (at most
    5! = 120), card by card; a round the shoe cannot finish is void (§ 629a.13(e)).

Cards dealt to no hand are counted, not enumerated: ``ff(N − m, U − m)`` for the ``m``
cards read. Results are the *level's own* result objects: each distinct group of cells
(a key) is read once, on a representative round of its cells, by the level's
``from_deal`` -- the reading of one dealt round that the brute-force oracle and the
simulator use -- so both methods settle identical objects with the wager's own
``settle``. No distribution or count of :mod:`exactodds.engine` is used. A key too
coarse (cells with different results) would put some cells' counts on another result:
it would show as a disagreement, not hide one.

Exact arithmetic. Every intermediate number is a count of ordered card sequences: a
product of falling factorials over disjoint sets of cards, then of the positions they
take, then of the undealt cards, or a sum of disjoint such counts -- hence at most the
universe ``ff(N, U)`` (products are taken in that order so that this holds at each step). numpy ``int64`` is used when the
universe is below 2^63 (8 decks: 4,998,398,275,503,360 < 9.2·10^18; up to 27 decks),
Python integers in object arrays above it. Nothing is ever a float.

>>> from exactodds.catalogue import get_wager
>>> w = get_wager("lucky-nines")
>>> c = outcome_counts(w, w.paytable("A"), Shoe.standard(8))
>>> c.universe == 4998398275503360 == sum(c.counts.values()), c.void
(True, 0)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from math import factorial
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.catalogue.model import Paytable, Wager
from exactodds.engine.levels import LEVELS
from exactodds.engine.spanish21 import spanish_shoe
from exactodds.game.cards import (
    FACES,
    POINT_VALUE,
    RANKS,
    SUITS,
    Card,
    Shoe,
    falling_factorial,
)
from exactodds.game.rules import banker_draws, deal_round, is_natural, player_draws

Array = npt.NDArray[Any]
FromDeal = Callable[[Sequence[Card], Sequence[Card]], Any]
Deal = tuple[tuple[Card, ...], tuple[Card, ...]]
"""A representative round: (Player's cards, Banker's cards); for Spanish 21 (player's
cards, dealer's cards with the up card first)."""

ROUND_CARDS: Final = 6
"""A baccarat round uses at most six cards (§ 629a.10)."""
SPANISH_CARDS: Final = 4
"""Player, up card, player, hole card (§ 551.8(d))."""
INT64_LIMIT: Final = 2**63

SHORT_SHOE: Final = ("brute-force deal of every ordering of the shoe's physical cards, card by card; a round "
                     "the shoe cannot finish is void")
METHODS: Final[dict[str, str]] = {
    level.name: level.second_method for level in LEVELS.values() if level.second_method}
"""The second method of each level, in words: the level's own ``second_method`` trait."""

BACCARAT_LEVELS: Final = frozenset(METHODS) - {"spanish21-match"}


@dataclass(frozen=True)
class Recount:
    """A level's round results for one shoe, counted by the second method.

    ``sum(counts.values()) + void == universe``; results are the level's own objects.
    """

    level: str
    method: str
    universe: int
    counts: Mapping[Any, int]
    void: int


@dataclass(frozen=True)
class OutcomeCounts:
    """A wager-paytable's outcome counts by the second method (void rounds apart)."""

    method: str
    universe: int
    counts: Mapping[str, int]
    void: int


# -- the one place that reads Wager.level ----------------------------------------------------

def level_of(wager: Wager[Any]) -> tuple[str, FromDeal]:
    """The name of ``wager``'s level and its reader of one dealt round (``from_deal``).

    Only ``from_deal`` -- the reading of a single round -- is taken from the level, never
    a count.
    """
    return wager.level.name, wager.level.from_deal


# -- helpers -------------------------------------------------------------------------------------

def _dtype(universe: int) -> Any:
    """``int64`` when every count is at most ``universe`` < 2^63 (see the module docstring),
    else ``object`` (Python integers)."""
    return np.int64 if universe < INT64_LIMIT else object


def _falling(n: Array, k: int) -> list[Array]:
    """``[ff(n, 0), …, ff(n, k)]`` elementwise (0 once ``j > n``; never negative)."""
    out = [np.ones_like(n)]
    for j in range(1, k + 1):
        out.append(out[-1] * (n - (j - 1)))
    return out


def _face_counts(shoe: Shoe, dtype: Any) -> Array:
    return np.array([int(x) for x in shoe.counts], dtype=dtype)


def _accumulate(index: Array, values: Array, size: int, dtype: Any) -> Array:
    """``out[i] = Σ values[index == i]``, exactly (integer or object arithmetic, no float)."""
    out = np.zeros(size, dtype=dtype)
    np.add.at(out, index, values)
    return out


# -- brute force for short shoes ---------------------------------------------------------------

def _baccarat_round(order: Sequence[Card]) -> Deal | None:
    """Deal ``order`` card by card (§ 629a.8(c), § 629a.10); ``None`` if the cards run out."""
    dealt = deal_round(order)
    return None if dealt is None else (tuple(dealt[0]), tuple(dealt[1]))


def _spanish_round(order: Sequence[Card]) -> Deal | None:
    """Player, up card, player, hole card (§ 551.8(d)); ``None`` if the cards run out."""
    if len(order) < SPANISH_CARDS:
        return None
    return (order[0], order[2]), (order[1], order[3])


def _brute_force(cards: Sequence[Card], deal: Callable[[Sequence[Card]], Deal | None],
                 from_deal: FromDeal) -> tuple[int, dict[Any, int], int]:
    """Universe, result counts and void count over every ordering of ``cards`` (all of them:
    ``U = N`` for a short shoe)."""
    counts: dict[Any, int] = {}
    void = 0
    for order in itertools.permutations(cards):
        d = deal(order)
        if d is None:
            void += 1
        else:
            r = from_deal(*d)
            counts[r] = counts.get(r, 0) + 1
    return factorial(len(cards)), counts, void


# -- rank × suit cell walk (coup, deal-faces) -------------------------------------------------

RANK_VALUES: Final = np.array([POINT_VALUE[r] for r in RANKS] + [0], dtype=np.int64)
"""Point value of each rank index; index 13 marks a card not dealt (value 0)."""
ABSENT: Final = 13
N_STATES: Final = 8
"""Suit cells: 0 no card; 1-4 one suit (S, H, D, C); 5 hearts and diamonds; 6 spades and
clubs; 7 both colours."""


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


@dataclass(frozen=True)
class _Compositions:
    """Every split ``(j_S, j_H, j_D, j_C)`` of ``k ≤ 6`` cards of one rank over the suits."""

    j: Array  # (n, 4)
    k: Array  # (n,)
    multinomial: Array  # (n,) k!/Π j_s!
    state: Array  # (n,) suit cell of the split


@lru_cache(maxsize=1)
def _compositions() -> _Compositions:
    rows = [c for c in itertools.product(range(ROUND_CARDS + 1), repeat=4) if sum(c) <= ROUND_CARDS]
    multinomial = [factorial(sum(c)) // (factorial(c[0]) * factorial(c[1]) * factorial(c[2]) * factorial(c[3]))
                   for c in rows]
    states = [_suit_state(frozenset(s for s in range(4) if c[s])) for c in rows]
    return _Compositions(np.array(rows, dtype=np.int64), np.array([sum(c) for c in rows], dtype=np.int64),
                         np.array(multinomial, dtype=np.int64), np.array(states, dtype=np.int64))


@dataclass(frozen=True)
class _RankRounds:
    """Shoe-independent part of the walk: every round as a sequence of ranks, grouped by
    (multiset of ranks, Coup); keys of the two levels and a representative of each."""

    ms_k: Array  # (n_ms, 13) cards of each rank in the multiset
    grp_ms: Array  # (n_grp,) multiset of the group
    grp_mult: Array  # (n_grp,) rank sequences in the group
    grp_m: Array  # (n_grp,) cards dealt
    coup_index: Array  # (n_grp,) coup key of the group
    coup_reps: tuple[Deal, ...]
    faces_index: Array  # (n_grp, 3) deal-faces key of the group per colour cell
    faces_reps: tuple[Deal, ...]


def _drawing_tables() -> tuple[Array, Array, Array]:
    """§ 629a.10 as lookup tables: natural[t], player_draws[t], banker_draws[b, third or 10]."""
    natural = np.array([is_natural(t) for t in range(10)])
    pdraws = np.array([player_draws(t) for t in range(10)])
    bdraws = np.array([[banker_draws(b, t) for t in range(10)] + [banker_draws(b, None)] for b in range(10)])
    return natural, pdraws, bdraws


HAND_PAIRS: Final = np.array([(x, y) for x in range(13) for y in range(x, 13)], dtype=np.int64)
"""A hand's first two ranks up to order (91 pairs): swapping them changes neither the totals
nor the multiset, so each pair stands for its 1 or 2 orders."""
HAND_PAIR_ORDERS: Final = np.where(HAND_PAIRS[:, 0] == HAND_PAIRS[:, 1], 1, 2)
MULTISET_DIGIT: Final = np.array([7**r for r in range(13)] + [0], dtype=np.int64)
"""A multiset of at most 6 ranks as the base-7 number Σ k_r·7^r (index 13: no card)."""


def _rank_sequences() -> tuple[Array, Array, Array, Array, Array]:
    """Every complete round as (Player's pair, Banker's pair, P3, B3) -- pairs index
    :data:`HAND_PAIRS`, ranks 0-12, 13 for a third card not dealt -- with its number of
    rank sequences in dealing order (P1, B1, P2, B2, P3, B3), by § 629a.10."""
    natural, pdraws, bdraws = _drawing_tables()
    pp, bp = np.indices((len(HAND_PAIRS),) * 2).reshape(2, -1)
    orders = HAND_PAIR_ORDERS[pp] * HAND_PAIR_ORDERS[bp]
    pt = RANK_VALUES[HAND_PAIRS[pp]].sum(axis=1) % 10
    bt = RANK_VALUES[HAND_PAIRS[bp]].sum(axis=1) % 10
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
    b_hits = bdraws[bt[drew], RANK_VALUES[p3]]
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
    ranks = np.column_stack([HAND_PAIRS[pp, 0], HAND_PAIRS[bp, 0], HAND_PAIRS[pp, 1], HAND_PAIRS[bp, 1], p3, b3])
    v = RANK_VALUES[ranks]
    pt = (v[:, 0] + v[:, 2] + v[:, 4]) % 10
    bt = (v[:, 1] + v[:, 3] + v[:, 5]) % 10
    coup = ((pt * 10 + bt) * 2 + (p3 != ABSENT)) * 2 + (b3 != ABSENT)  # < 400
    ms_code = MULTISET_DIGIT[ranks].sum(axis=1)
    groups, first, inverse = np.unique(ms_code * 400 + coup, return_index=True, return_inverse=True)
    mult = _accumulate(inverse, orders, len(groups), np.int64)
    ms_codes, grp_ms = np.unique(groups // 400, return_inverse=True)
    grp_coup = groups % 400
    ms_k = (ms_codes[:, None] // MULTISET_DIGIT[None, :13]) % 7
    ms_m = ms_k.sum(axis=1)
    one_rank = (ms_k > 0).sum(axis=1) == 1
    value_k = ms_k @ (RANK_VALUES[:13, None] == np.arange(10)[None, :]).astype(np.int64)
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


def _suit_cells(shoe: Shoe, dtype: Any) -> Array:
    """``A[r, k, cell]``: ordered ways to give ``k`` positions of rank ``r`` faces whose suits
    form ``cell``, ``Σ k!/Π j_s! · Π_s ff(n_{r,s}, j_s)`` over the splits ``j`` of that cell."""
    comp = _compositions()
    n = _face_counts(shoe, dtype).reshape(13, 4)  # FACES are rank-major, suits S, H, D, C
    ff = np.stack(_falling(n, ROUND_CARDS), axis=-1)  # (13, 4, 7)
    prod = ff[:, 0, comp.j[:, 0]]
    for s in range(1, 4):
        prod = prod * ff[:, s, comp.j[:, s]]  # ≤ ff(n_r, k): cards drawn from disjoint suits
    prod = prod * comp.multinomial.astype(dtype)[None, :]  # and placed: ≤ ff(n_r, k) still
    out = np.zeros((13, ROUND_CARDS + 1, N_STATES), dtype=dtype)
    np.add.at(out, (np.arange(13)[:, None], comp.k[None, :], comp.state[None, :]), prod)
    return out


@lru_cache(maxsize=64)
def _rank_walk(shoe: Shoe) -> tuple[Array, Array, int]:
    """Counts per coup key and per deal-faces key for ``shoe`` (``N ≥ 6``), and the universe."""
    universe = falling_factorial(shoe.size, ROUND_CARDS)
    dtype = _dtype(universe)
    st = _rank_rounds()
    cells = _suit_cells(shoe, dtype)
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
    undealt = np.array([falling_factorial(shoe.size - m, ROUND_CARDS - m) for m in range(ROUND_CARDS + 1)],
                       dtype=dtype)
    read = by_colour[st.grp_ms] * st.grp_mult.astype(dtype)[:, None]  # ≤ ff(N, m)
    per_group = read * undealt[st.grp_m][:, None]  # ≤ ff(N, 6)
    faces = _accumulate(st.faces_index.ravel(), per_group.ravel(), len(st.faces_reps), dtype)
    coups = _accumulate(st.coup_index, per_group.sum(axis=1), len(st.coup_reps), dtype)
    assert int(faces.sum()) == universe == int(coups.sum())
    return coups, faces, universe


# -- direct face enumeration (opening levels, Spanish 21) --------------------------------------

@dataclass(frozen=True)
class _FaceGroups:
    """Faces grouped for the last enumerated card: ``order`` sorts faces by group, ``starts``
    are where each group begins in that order, ``group[i]`` the group of sorted face ``i``."""

    order: Array
    starts: Array
    group: Array


def _groups(labels: Sequence[int]) -> _FaceGroups:
    lab = np.array(labels, dtype=np.int64)
    order = np.argsort(lab, kind="stable")
    sorted_lab = lab[order]
    starts = np.flatnonzero(np.r_[True, sorted_lab[1:] != sorted_lab[:-1]])
    return _FaceGroups(order, starts, np.searchsorted(sorted_lab[starts], sorted_lab))


def _four_faces(n: Array, g: _FaceGroups) -> Array:
    """``T[i, j, k, l]``: ordered sequences of four cards off ``n`` (face counts) whose faces
    fall in groups ``i, j, k, l``, each face counted on its own:
    ``Σ n_a·(n_b − [a=b])·(n_c − [a=c] − [b=c])·(n_d − [a=d] − [b=d] − [c=d])``.

    Faces a, b, c are enumerated (52³ by broadcasting); the sum over the faces d of a
    group is taken by linearity. A negative factor only ever meets a zero prefix.
    """
    ns = n[g.order]
    eye = np.eye(len(ns), dtype=np.int64)
    one_hot = (g.group[:, None] == np.arange(len(g.starts))[None, :]).astype(np.int64)
    group_total = np.add.reduceat(ns, g.starts)
    first3 = (ns[:, None, None] * (ns[None, :, None] - eye[:, :, None])
              * (ns[None, None, :] - eye[:, None, :] - eye[None, :, :]))
    fourth = (group_total[None, None, None, :] - one_hot[:, None, None, :] - one_hot[None, :, None, :]
              - one_hot[None, None, :, :])
    t: Array = first3[:, :, :, None] * fourth
    for axis in range(3):
        t = np.add.reduceat(t, g.starts, axis=axis)
    return t


def _first_of_group(g: _FaceGroups) -> list[Card]:
    """A representative face of each group (the first in :data:`FACES` order)."""
    return [FACES[int(g.order[s])] for s in g.starts]


FILLER: Final = (Card("2", "S"), Card("3", "S"))
"""Cards for a hand a level does not read (a representative round needs both hands)."""


@lru_cache(maxsize=2)
def _reps_two(hand: str) -> tuple[Deal, ...]:
    """Every ordered pair of faces as the read hand's two cards."""
    pairs = [(a, b) for a in FACES for b in FACES]
    return tuple((p, FILLER) if hand == "player" else (FILLER, p) for p in pairs)


def _two_faces(shoe: Shoe) -> tuple[Array, int]:
    """``n_a·(n_b − [a=b])·ff(N−2, 4)`` for every ordered pair of faces (a, b)."""
    universe = falling_factorial(shoe.size, ROUND_CARDS)
    dtype = _dtype(universe)
    n = _face_counts(shoe, dtype)
    pairs = n[:, None] * (n[None, :] - np.eye(len(n), dtype=np.int64))
    return (pairs * falling_factorial(shoe.size - 2, ROUND_CARDS - 2)).ravel(), universe


def _nine_label(card: Card) -> int:
    return SUITS.index(card.suit) if card.rank == "9" else 4


ROYAL_FACES: Final = ("K", "Q", "J")


def _royal_label(card: Card) -> int:
    """K, Q, J, 9 by suit (16 labels), any other face 16."""
    if card.rank in (*ROYAL_FACES, "9"):
        return 4 * (*ROYAL_FACES, "9").index(card.rank) + SUITS.index(card.suit)
    return 16


@dataclass(frozen=True)
class _FourSpec:
    """A four-card opening level: face groups for the fourth card, then a key per
    (group of P1, B1, P2, B2) -- all of it shoe-independent."""

    groups: _FaceGroups
    key_index: Array  # (G, G, G, G) index of the key of each group tuple
    reps: tuple[Deal, ...]


def _four_spec(labels: Sequence[int], key: Callable[[Array, Array, Array, Array], Array]) -> _FourSpec:
    g = _groups(labels)
    faces = _first_of_group(g)
    idx = np.indices((len(faces),) * 4).reshape(4, -1)
    keys = key(idx[0], idx[1], idx[2], idx[3])
    uniq, first = np.unique(keys, return_index=True)
    index = np.searchsorted(uniq, keys).reshape((len(faces),) * 4)
    reps = tuple(((faces[idx[0][i]], faces[idx[2][i]]), (faces[idx[1][i]], faces[idx[3][i]])) for i in first)
    return _FourSpec(g, index, reps)


def _rank_pattern_key(p1: Array, b1: Array, p2: Array, b2: Array) -> Array:
    """Which of the four initial cards share a rank: six equality bits."""
    pos = (p1, b1, p2, b2)
    out = np.zeros_like(p1)
    for i, j in itertools.combinations(range(4), 2):
        out = out * 2 + (pos[i] == pos[j])
    return out


def _identity_key(p1: Array, b1: Array, p2: Array, b2: Array) -> Array:
    """Every tuple of groups its own key (fewer than 64 groups)."""
    return ((p1 * 64 + b1) * 64 + p2) * 64 + b2


def _royal_hand_codes() -> Array:
    """``H[x, y]``: 0 if groups x, y (first two cards of a hand) are not a face card and a
    nine, else 1 + 16·king + 4·face suit + nine suit."""
    h = np.zeros((17, 17), dtype=np.int64)
    for x in range(16):
        for y in range(16):
            for face, nine in ((x, y), (y, x)):
                if face < 12 <= nine:
                    h[x, y] = 1 + 16 * (face < 4) + 4 * (face % 4) + nine % 4
    return h


def _royal_key(p1: Array, b1: Array, p2: Array, b2: Array) -> Array:
    h = _royal_hand_codes()
    return h[p1, p2] * 33 + h[b1, b2]


@cache
def _four_specs(level: str) -> _FourSpec:
    if level == "opening-rank-pattern":
        return _four_spec([RANKS.index(f.rank) for f in FACES], _rank_pattern_key)
    if level == "opening-nines":
        return _four_spec([_nine_label(f) for f in FACES], _identity_key)
    return _four_spec([_royal_label(f) for f in FACES], _royal_key)


def _four_card_counts(level: str, shoe: Shoe) -> tuple[Array, int]:
    universe = falling_factorial(shoe.size, ROUND_CARDS)
    dtype = _dtype(universe)
    spec = _four_specs(level)
    t = _four_faces(_face_counts(shoe, dtype), spec.groups)
    out = _accumulate(spec.key_index.ravel(), t.ravel(), len(spec.reps), dtype)
    return out * falling_factorial(shoe.size - 4, ROUND_CARDS - 4), universe


@dataclass(frozen=True)
class _SpanishSpec:
    key_index: Array  # (52, 52, 52) key of (player card 1, up card, player card 2)
    reps: tuple[Deal, ...]


@lru_cache(maxsize=1)
def _spanish_spec() -> _SpanishSpec:
    rank = np.array([RANKS.index(f.rank) for f in FACES])
    face = np.arange(len(FACES))
    p, u, q = np.meshgrid(face, face, face, indexing="ij")
    same = (p == u).astype(np.int64) + (q == u)
    other = ((rank[p] == rank[u]) & (p != u)).astype(np.int64) + ((rank[q] == rank[u]) & (q != u))
    keys = same * 3 + other
    ten = rank == RANKS.index("10")
    legal = ~ten[p] & ~ten[u] & ~ten[q]  # a representative holds no ten (§ 551.3(a))
    uniq = np.unique(keys)
    index = np.searchsorted(uniq, keys)
    reps = []
    for k in uniq:
        i, j, m = (int(x[0]) for x in np.nonzero((keys == k) & legal))
        reps.append(((FACES[i], FACES[m]), (FACES[j], FILLER[0])))
    return _SpanishSpec(index, tuple(reps))


def _spanish_counts(sp: Shoe) -> tuple[Array, int]:
    universe = falling_factorial(sp.size, SPANISH_CARDS)
    dtype = _dtype(universe)
    n = _face_counts(sp, dtype)
    eye = np.eye(len(n), dtype=np.int64)
    cells = (n[:, None, None] * (n[None, :, None] - eye[:, :, None])
             * (n[None, None, :] - eye[:, None, :] - eye[None, :, :]))  # P1, up, P2
    spec = _spanish_spec()
    out = _accumulate(spec.key_index.ravel(), cells.ravel(), len(spec.reps), dtype)
    return out * (sp.size - 3), universe


# -- per level ------------------------------------------------------------------------------------

@cache
def _results(level: str, from_deal: FromDeal) -> tuple[Any, ...]:
    """The level's result for each key's representative round (shoe-independent)."""
    return tuple(from_deal(*deal) for deal in _reps(level))


def _reps(level: str) -> tuple[Deal, ...]:
    if level == "coup":
        return _rank_rounds().coup_reps
    if level == "deal-faces":
        return _rank_rounds().faces_reps
    if level in ("opening-player-faces", "opening-banker-faces"):
        return _reps_two(level.split("-")[1])
    if level == "spanish21-match":
        return _spanish_spec().reps
    return _four_specs(level).reps


def _keyed_counts(level: str, shoe: Shoe) -> tuple[Array, int]:
    if level == "coup":
        coups, _, universe = _rank_walk(shoe)
        return coups, universe
    if level == "deal-faces":
        _, faces, universe = _rank_walk(shoe)
        return faces, universe
    if level in ("opening-player-faces", "opening-banker-faces"):
        return _two_faces(shoe)
    if level == "spanish21-match":
        return _spanish_counts(spanish_shoe(shoe))
    return _four_card_counts(level, shoe)


@lru_cache(maxsize=256)
def recount(level: str, from_deal: FromDeal, shoe: Shoe) -> Recount | None:
    """The results of ``level`` for ``shoe`` by its second method (``None``: the level has
    none). ``from_deal`` reads the level's result off one dealt round."""
    method = METHODS.get(level)
    if method is None:
        return None
    if level == "spanish21-match":
        sp = spanish_shoe(shoe)
        if sp.size < SPANISH_CARDS:
            universe, counts, void = _brute_force(sp.cards(), _spanish_round, from_deal)
            return Recount(level, SHORT_SHOE, universe, counts, void)
    elif shoe.size < ROUND_CARDS:
        universe, counts, void = _brute_force(shoe.cards(), _baccarat_round, from_deal)
        return Recount(level, SHORT_SHOE, universe, counts, void)
    keyed, universe = _keyed_counts(level, shoe)
    out: dict[Any, int] = {}
    for result, n in zip(_results(level, from_deal), keyed.tolist()):
        if n:
            out[result] = out.get(result, 0) + int(n)
    assert sum(out.values()) == universe
    return Recount(level, method, universe, out, 0)


def outcome_counts(wager: Wager[Any], paytable: Paytable, shoe: Shoe) -> OutcomeCounts | None:
    """Outcome counts of ``wager`` under ``paytable`` for ``shoe`` by the second method of its
    level, settled with the wager's own rule; ``None`` if the level has no second method."""
    level, from_deal = level_of(wager)
    rc = recount(level, from_deal, shoe)
    if rc is None:
        return None
    counts: dict[str, int] = {}
    for result, n in rc.counts.items():
        name = wager.settle(paytable, result)
        counts[name] = counts.get(name, 0) + n
    return OutcomeCounts(rc.method, rc.universe, counts, rc.void)


__all__ = ["BACCARAT_LEVELS", "METHODS", "OutcomeCounts", "Recount", "level_of", "outcome_counts", "recount"]
