"""The compiled bookkeeping of the study's dealing and aggregation (numba; the optional
``fast`` extra).

:func:`bookkeeping` is, for a chunk dealt by the simulator's dealer
(:func:`exactodds.simulation.simulate.deal_shoes`), the same three arrays the numpy path of
:func:`exactodds.figures.study.dealing.deal_chunk` derives with bincounts and cumulative
sums: the position of every round's first card, the cards dealt in the shoe's earlier
rounds, and the composition before the round (the shoe less its burn, § 629a.5(f), less
those cards). One pass over the rounds, each array written once: the numpy path's
temporaries of ``(rounds, 52)`` were a fifth of the study's time beside the pricing. Integer
additions and subtractions of card counts only (int64: a count is at most the shoe's
cards). Imported only where the study deals, and only when numba is installed; the tests
hold it equal to the numpy path.

:func:`dense_group_sum` is :func:`exactodds.figures.study.pricing.group_sum` for keys below a
small bound (cards left × bins, shoe × bins): one pass adding each row into its key's sums
instead of a sort and a gather; the same int64 additions (in another order: two's-complement
addition is associative, so the sums are the same).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.kernel import _jit


def _book(deck: Any, shoe: Any, faces: Any, used: Any, counts: Any, burn: Any,
          position: Any, before: Any, composition: Any) -> None:  # pragma: no cover - compiled
    """Fill ``position``, ``before`` and ``composition`` round by round (rows shoe-major)."""
    nf = counts.shape[0]
    left = np.empty(nf, np.int64)
    seen = np.zeros(nf, np.int64)
    pos = 0
    for r in range(shoe.shape[0]):
        if r == 0 or shoe[r] != shoe[r - 1]:
            s = shoe[r]
            for f in range(nf):
                left[f] = counts[f]
                seen[f] = 0
            for j in range(burn[s]):
                left[deck[s, j]] -= 1
            pos = burn[s]
        position[r] = pos
        for f in range(nf):
            before[r, f] = seen[f]
            composition[r, f] = left[f]
        for j in range(used[r]):
            f = faces[r, j]
            left[f] -= 1
            seen[f] += 1
        pos += used[r]


_book_c = _jit(_book)


def bookkeeping(deck: npt.NDArray[np.uint8], shoe: npt.NDArray[np.int64], faces: npt.NDArray[np.uint8],
                used: npt.NDArray[np.int64], counts: npt.NDArray[np.int64], burn: npt.NDArray[np.int64],
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per round (rows shoe-major): the position of its first card in its shoe, the cards
    (per face) dealt in the shoe's earlier rounds, and the composition before it."""
    rows, nf = len(shoe), len(counts)
    position = np.empty(rows, np.int64)
    before = np.empty((rows, nf), np.int64)
    composition = np.empty((rows, nf), np.int64)
    _book_c(np.ascontiguousarray(deck), np.ascontiguousarray(shoe, np.int64), np.ascontiguousarray(faces),
            np.ascontiguousarray(used, np.int64), np.ascontiguousarray(counts, np.int64),
            np.ascontiguousarray(burn, np.int64), position, before, composition)
    return position, before, composition


def _dense(keys: Any, values: Any, seen: Any, sums: Any) -> None:  # pragma: no cover - compiled
    """``sums[key] += values[row]`` and ``seen[key] = 1`` for every row."""
    width = values.shape[1]
    for r in range(keys.shape[0]):
        k = keys[r]
        seen[k] = 1
        for j in range(width):
            sums[k, j] += values[r, j]


_dense_c = _jit(_dense)


def dense_group_sum(keys: npt.NDArray[np.int64], values: npt.NDArray[np.int64], size: int,
                    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct ``keys`` (ascending, each in ``0..size-1``) and the sum of ``values`` rows
    (or entries, for a 1-d ``values``) per key, in int64."""
    two = values.reshape(len(values), -1)
    seen = np.zeros(size, np.uint8)
    sums = np.zeros((size, two.shape[1]), np.int64)
    _dense_c(np.ascontiguousarray(keys, np.int64), np.ascontiguousarray(two, np.int64), seen, sums)
    present = np.flatnonzero(seen)
    out = sums[present]
    return present.astype(np.int64), out if values.ndim == 2 else out[:, 0]
