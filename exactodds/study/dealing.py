"""Study stage 2, dealing: shuffled shoes dealt round by round as the regulations say
(§ 629a.5, § 629a.9(d)), the composition before each round and the running counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.game.cards import FACES
from exactodds.simulation.simulate import (
    BURN_COUNT,
    MAX_BURN,
    cards_used,
    code_table,
    deal_shoes,
)


@dataclass
class Dealt:
    """Every round of a chunk of shoes (shoe-major), with the composition before it."""

    first_shoe: int
    deck: npt.NDArray[np.uint8]
    shoe: npt.NDArray[np.int64]
    round: npt.NDArray[np.int64]
    code: npt.NDArray[np.uint16]
    faces: npt.NDArray[np.uint8]
    burn: npt.NDArray[np.int64]
    position: npt.NDArray[np.int64]
    composition: npt.NDArray[np.int64]
    """``(rounds, 52)``: the shoe less the burn and every card dealt before the round."""

    @property
    def dealt_before(self) -> npt.NDArray[np.int64]:
        """``(rounds, 52)``: cards dealt in the shoe's earlier rounds (seen by a counter): the
        shoe's cards after its burn less the composition (computed when asked: the study
        itself counts from :attr:`position`, :func:`running_counts`)."""
        nf = len(FACES)
        after = np.stack([np.bincount(row[b:], minlength=nf) for row, b in zip(self.deck, self.burn.tolist())])
        return np.asarray(after[self.shoe] - self.composition, np.int64)

    @property
    def cards_left(self) -> npt.NDArray[np.int64]:
        """Cards in each round's composition: the shoe's cards less those before the round's
        first card (``position``), which is the composition's sum without summing it."""
        return np.asarray(self.deck.shape[1] - self.position, np.int64)


def shuffled_shoes(counts: Sequence[int], seed: int, start: int, stop: int,
                   compiled: bool | None = None) -> npt.NDArray[np.uint8]:
    """Shoes ``start..stop-1``, each shuffled by its own generator ``default_rng([seed, i])``
    (spelled out, ``Generator(PCG64(SeedSequence([seed, i])))``, which is what
    ``default_rng`` builds, without its argument parsing; each row shuffled in place, which
    is what ``permutation`` does to its copy).

    With numba (``compiled``: force either path), the same generators and shuffles in
    compiled code (:func:`exactodds.study.kernel.shuffled`: building numpy's three
    objects per shoe cost ~25 µs, four times the shuffle), held to numpy here: the chunk's
    first shoe is shuffled by numpy too, and a difference (a numpy whose generators changed)
    sends the whole chunk through numpy. The same shoes either way.

    >>> import numpy as np
    >>> a = shuffled_shoes([1] * 52, 5, 3, 6, compiled=False)
    >>> b = np.random.default_rng([5, 4]).permutation(np.arange(52, dtype=np.uint8))
    >>> bool((a[1] == b).all())
    True
    """
    faces = np.repeat(np.arange(len(FACES), dtype=np.uint8), counts)
    kernel = _compiled() if compiled is not False else None
    if compiled and kernel is None:
        raise ImportError("the compiled shuffle needs numba: pip install 'exactodds[fast]'")
    if kernel is not None and stop > start and stop < 2**63:
        deck: npt.NDArray[np.uint8] = kernel.shuffled(faces, seed, start, stop)
        if (deck[0] == _numpy_shuffled(faces, seed, start, start + 1)[0]).all():
            return deck
    return _numpy_shuffled(faces, seed, start, stop)


def _numpy_shuffled(faces: npt.NDArray[np.uint8], seed: int, start: int, stop: int) -> npt.NDArray[np.uint8]:
    """:func:`shuffled_shoes` by numpy's own generators, one per shoe."""
    deck = np.tile(faces, (stop - start, 1))
    make, bits, sequence = np.random.Generator, np.random.PCG64, np.random.SeedSequence
    for row, i in zip(deck, range(start, stop)):
        make(bits(sequence([seed, i]))).shuffle(row)
    return deck


def _segment_before(values: npt.NDArray[Any], shoe: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """Per row, the sum of ``values`` over the earlier rows of the same shoe (rows shoe-major)."""
    cum = np.cumsum(values, axis=0) - values
    first = np.flatnonzero(np.r_[True, shoe[1:] != shoe[:-1]])
    start = first[np.cumsum(np.r_[True, shoe[1:] != shoe[:-1]]) - 1]
    out: npt.NDArray[Any] = cum - cum[start]
    return out


def _before_and_left(removed: npt.NDArray[np.int64], shoe: npt.NDArray[np.int64],
                     left: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per round (rows shoe-major): the cards ``removed`` by the shoe's earlier rounds, and
    the composition before the round, ``left[shoe]`` (the shoe less its burn) less them.
    The same as :func:`_segment_before` and a subtraction, shoe by shoe in place: two
    arrays of ``(rounds, 52)`` written once each instead of five temporaries."""
    before = np.cumsum(removed, axis=0)
    before -= removed
    composition = np.empty_like(before)
    bounds = np.flatnonzero(np.r_[True, shoe[1:] != shoe[:-1], True]).tolist()
    for a, b in zip(bounds[:-1], bounds[1:]):
        segment = before[a:b]
        segment -= segment[0].copy()
        np.subtract(left[shoe[a]], segment, out=composition[a:b])
    return before, composition


def _compiled() -> Any:
    """The compiled bookkeeping (:mod:`exactodds.study.kernel`), or None
    without numba (the optional ``fast`` extra)."""
    try:
        import exactodds.study.kernel as kernel
    except ImportError:
        return None
    return kernel


def _bookkeeping(deck: npt.NDArray[np.uint8], shoe: npt.NDArray[np.int64], faces: npt.NDArray[np.uint8],
                 used: npt.NDArray[np.int64], counts: npt.NDArray[np.int64], burn: npt.NDArray[np.int64],
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The numpy path of :func:`exactodds.study.kernel.bookkeeping`: per round,
    the position of its first card and the composition before it (bincounts of the dealt
    and burned cards, cumulative sums per shoe)."""
    position = burn[shoe] + _segment_before(used, shoe)
    rows = len(shoe)
    nf = len(counts)
    mask = np.arange(6) < used[:, None]
    cell = (np.broadcast_to(np.arange(rows)[:, None], (rows, 6))[mask] * nf + faces[mask]).astype(np.int64)
    removed = np.bincount(cell, minlength=rows * nf).astype(np.int64).reshape(rows, nf)
    bmask = np.arange(MAX_BURN) < burn[:, None]
    bcell = (np.broadcast_to(np.arange(len(deck))[:, None], bmask.shape)[bmask] * nf
             + deck[:, :MAX_BURN][bmask]).astype(np.int64)
    burned = np.bincount(bcell, minlength=len(deck) * nf).astype(np.int64).reshape(len(deck), nf)
    _, composition = _before_and_left(removed, shoe, counts - burned)
    return position, composition


def deal_chunk(counts: Sequence[int], seed: int, cover: int, start: int, stop: int,
               compiled: bool | None = None) -> Dealt:
    """Deal shoes ``start..stop-1`` by § 629a.5 (one dealer: :func:`deal_shoes`) and derive,
    from its outputs, the composition before every round: compiled when numba is there
    (``compiled``: force either path; both give the same arrays)."""
    deck = shuffled_shoes(counts, seed, start, stop)
    shoe, rnd, code, faces = deal_shoes(deck, cover, code_table(), keep=True, compiled=compiled)
    assert faces is not None
    used = cards_used(code).astype(np.int64)
    burn = 1 + BURN_COUNT[deck[:, 0]].astype(np.int64)                  # § 629a.5(f)
    kernel = _compiled() if compiled is not False else None
    if compiled and kernel is None:
        raise ImportError("the compiled study dealing needs numba: pip install 'exactodds[fast]'")
    book = kernel.bookkeeping if kernel is not None else _bookkeeping
    position, composition = book(deck, shoe, faces, used, np.asarray(counts, np.int64), burn)
    return Dealt(start, deck, shoe, rnd, code, faces, burn, position, composition)


def running_counts(d: Dealt, tags: Sequence[int], initial: int) -> npt.NDArray[np.int64]:
    """The running count before every round: ``initial``, plus the exposed burn card's tag,
    plus the tags of every card dealt in the shoe's earlier rounds (face-down burn cards
    are never seen): those are the cards from the end of the burn to the round's first card,
    so the count is a difference of each shoe's prefix sums of tags (one pass over the
    shoes' cards, instead of a product with every round's cards dealt before)."""
    face_tags = np.repeat(np.asarray(tags, np.int64), 4)
    prefix = np.zeros((d.deck.shape[0], d.deck.shape[1] + 1), np.int64)   # prefix[s, p]: cards 0..p-1
    np.cumsum(face_tags[d.deck], axis=1, out=prefix[:, 1:])
    exposed = face_tags[d.deck[:, 0]]
    seen = prefix[d.shoe, d.position] - prefix[d.shoe, d.burn[d.shoe]]
    return np.asarray(initial + exposed[d.shoe] + seen, np.int64)
