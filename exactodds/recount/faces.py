"""Direct face enumeration: the second method of the levels that read the initial cards.

Two faces (one hand's initial two cards)
    enumerated directly, 52 × 52: ``n_a·(n_b − [a = b])``.
Four faces (the four initial cards, read as a rank pattern, for nines, as Royal 9 hands)
    enumerated directly by broadcasting over 52 × 52 × 52 face triples (cards 1-3) with
    the face counts depleted by the faces already dealt,
    ``n_a·(n_b − [a=b])·(n_c − [a=c] − [b=c])``, and the fourth card summed per group of
    faces by linearity (``Σ_{d∈G} (n_d − [a=d] − [b=d] − [c=d])``). No falling factorial of a
    class count is used: every face is counted on its own.
Spanish 21's match
    a face-level count of the player's two cards and the dealer's up card (cards 1, 3 and
    2, § 551.8(d)) over the Spanish shoe's faces (tens removed, § 551.3(a)),
    ``n_p·(n_u − [p=u])·(n_q − [p=q] − [u=q])``; the hole card is one of the ``N − 3`` left.

Cards dealt to no hand are counted, not enumerated: ``ff(N − m, U − m)`` for the ``m``
cards read.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from exactodds.game.cards import FACES, RANKS, SUITS, Card, Shoe, falling_factorial
from exactodds.lazy import LazyModule
from exactodds.recount.base import Array, Deal, Reading, SecondMethod, accumulate, face_counts, int_dtype

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy", globals(), "np")

TWO_FACES: Final = ("direct enumeration of the faces of the {}'s two cards (52 × 52, counts depleted "
                    "face by face)")
FOUR_FACES: Final = ("direct {} over the faces of the four initial cards (52³ face triples by "
                     "broadcasting, the fourth card summed per {}), read {}")
MATCH_WORDS: Final = (
    "face-level count of the player's two cards and the dealer's up card over the Spanish shoe's "
    "faces (52³ with tens removed, counts depleted face by face)")

FILLER: Final = (Card("2", "S"), Card("3", "S"))
"""Cards for a hand a level does not read (a representative round needs both hands)."""

KeyOf = Callable[[Array, Array, Array, Array], Array]


# -- two faces -------------------------------------------------------------------------------------

class TwoFaces(SecondMethod):
    """The faces of one hand's initial two cards (``hand``), 52 × 52."""

    def __init__(self, hand: Literal["player", "banker"]) -> None:
        self.hand = hand

    def describe(self) -> str:
        return TWO_FACES.format(self.hand.capitalize())

    def reps(self) -> tuple[Deal, ...]:
        pairs = [(a, b) for a in FACES for b in FACES]
        return tuple((p, FILLER) if self.hand == "player" else (FILLER, p) for p in pairs)

    def keyed(self, level: Reading, shoe: Shoe) -> tuple[Array, int]:
        """``n_a·(n_b − [a=b])·ff(N−2, U−2)`` for every ordered pair of faces (a, b)."""
        universe = falling_factorial(shoe.size, level.depth)
        dtype = int_dtype(universe)
        n = face_counts(shoe, dtype)
        pairs = n[:, None] * (n[None, :] - np.eye(len(n), dtype=np.int64))
        return (pairs * falling_factorial(shoe.size - 2, level.depth - 2)).ravel(), universe


# -- four faces ------------------------------------------------------------------------------------

class _FaceGroups(NamedTuple):
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


class _FourSpec(NamedTuple):
    """Face groups for the fourth card, then a key per (group of P1, B1, P2, B2) -- all of
    it shoe-independent."""

    groups: _FaceGroups
    key_index: Array  # (G, G, G, G) index of the key of each group tuple
    reps: tuple[Deal, ...]


def rank_label(card: Card) -> int:
    """The rank's index: faces grouped by rank."""
    return RANKS.index(card.rank)


def nine_label(card: Card) -> int:
    """A nine by suit (4 labels), any other face 4."""
    return SUITS.index(card.suit) if card.rank == "9" else 4


ROYAL_FACES: Final = ("K", "Q", "J")


def royal_label(card: Card) -> int:
    """K, Q, J, 9 by suit (16 labels), any other face 16."""
    if card.rank in (*ROYAL_FACES, "9"):
        return 4 * (*ROYAL_FACES, "9").index(card.rank) + SUITS.index(card.suit)
    return 16


def rank_pattern_key(p1: Array, b1: Array, p2: Array, b2: Array) -> Array:
    """Which of the four initial cards share a rank: six equality bits."""
    pos = (p1, b1, p2, b2)
    out = np.zeros_like(p1)
    for i, j in itertools.combinations(range(4), 2):
        out = out * 2 + (pos[i] == pos[j])
    return out


def identity_key(p1: Array, b1: Array, p2: Array, b2: Array) -> Array:
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


def royal_key(p1: Array, b1: Array, p2: Array, b2: Array) -> Array:
    """Each hand's Royal 9 code (:func:`_royal_hand_codes`), Player's and Banker's together."""
    h = _royal_hand_codes()
    return h[p1, p2] * 33 + h[b1, b2]


class FourFaces(SecondMethod):
    """The four initial cards' faces, grouped by ``label`` for the fourth card and read by
    ``key`` (of the four cards' groups); ``words``: the verb, the grouping and the reading,
    for :meth:`describe`."""

    def __init__(self, label: Callable[[Card], int], key: KeyOf, words: tuple[str, str, str]) -> None:
        self.label, self.key, self.words = label, key, words

    def describe(self) -> str:
        return FOUR_FACES.format(*self.words)

    @cached_property
    def _spec(self) -> _FourSpec:
        g = _groups([self.label(f) for f in FACES])
        faces = [FACES[int(g.order[s])] for s in g.starts]  # the first face of each group
        idx = np.indices((len(faces),) * 4).reshape(4, -1)
        keys = self.key(idx[0], idx[1], idx[2], idx[3])
        uniq, first = np.unique(keys, return_index=True)
        index = np.searchsorted(uniq, keys).reshape((len(faces),) * 4)
        reps = tuple(((faces[idx[0][i]], faces[idx[2][i]]), (faces[idx[1][i]], faces[idx[3][i]])) for i in first)
        return _FourSpec(g, index, reps)

    def reps(self) -> tuple[Deal, ...]:
        return self._spec.reps

    def keyed(self, level: Reading, shoe: Shoe) -> tuple[Array, int]:
        universe = falling_factorial(shoe.size, level.depth)
        dtype = int_dtype(universe)
        spec = self._spec
        t = _four_faces(face_counts(shoe, dtype), spec.groups)
        out = accumulate(spec.key_index.ravel(), t.ravel(), len(spec.reps), dtype)
        return out * falling_factorial(shoe.size - 4, level.depth - 4), universe


# -- Spanish 21's match ----------------------------------------------------------------------------

class _SpanishSpec(NamedTuple):
    key_index: Array  # (52, 52, 52) key of (player card 1, up card, player card 2)
    reps: tuple[Deal, ...]


class UpCardMatch(SecondMethod):
    """Spanish 21: the player's two cards against the dealer's up card, face by face."""

    def describe(self) -> str:
        return MATCH_WORDS

    @cached_property
    def _spec(self) -> _SpanishSpec:
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

    def reps(self) -> tuple[Deal, ...]:
        return self._spec.reps

    def keyed(self, level: Reading, shoe: Shoe) -> tuple[Array, int]:
        """Counts per key for the Spanish shoe ``shoe`` (the level's own, tens removed)."""
        universe = falling_factorial(shoe.size, level.depth)
        dtype = int_dtype(universe)
        n = face_counts(shoe, dtype)
        eye = np.eye(len(n), dtype=np.int64)
        cells = (n[:, None, None] * (n[None, :, None] - eye[:, :, None])
                 * (n[None, None, :] - eye[:, None, :] - eye[None, :, :]))  # P1, up, P2
        spec = self._spec
        out = accumulate(spec.key_index.ravel(), cells.ravel(), len(spec.reps), dtype)
        return out * falling_factorial(shoe.size - 3, level.depth - 3), universe


PLAYER_TWO: Final = TwoFaces("player")
BANKER_TWO: Final = TwoFaces("banker")
RANK_PATTERN: Final = FourFaces(rank_label, rank_pattern_key, ("enumeration", "rank", "as a rank pattern"))
NINES: Final = FourFaces(nine_label, identity_key, ("enumeration", "nine-suit", "for nines"))
ROYAL_9: Final = FourFaces(royal_label, royal_key, ("count", "K/Q/J/9 face", "as Royal 9 hands"))
MATCH: Final = UpCardMatch()
