"""The compiled form of :func:`exactodds.engine.pricing.price` for large int64 batches.

The same arithmetic as the numpy path -- the prefix tree's one product per node, the
undealt factor, ``multiplicity × weight`` summed per result -- written as loops that
numba compiles, so a batch of compositions costs no temporaries the size of
``batch × entries``. Used only for int64 batches (where the bound of
:mod:`exactodds.engine.pricing` proves int64 exact) and only when numba is installed;
the tests hold it equal to the numpy path and to the exact Python-int path. Imported
only by batch work: numba's import and compile cost is never paid by a single analysis.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt


@numba.njit(cache=True, nogil=True)  # type: ignore[misc]
def _price(n: Any, und: Any, parent: Any, cls: Any, prior: Any, row_node: Any, row_cards: Any,
           entry_ptr: Any, result: Any, mult: Any, out: Any) -> None:  # pragma: no cover
    ways = np.empty(parent.shape[0], np.int64)
    for b in range(n.shape[0]):
        ways[0] = 1
        for i in range(1, parent.shape[0]):
            f = n[b, cls[i]] - prior[i]
            ways[i] = ways[parent[i]] * f if f > 0 else 0
        for r in range(row_node.shape[0]):
            w = ways[row_node[r]]
            if w == 0:
                continue
            w *= und[b, row_cards[r]]
            for p in range(entry_ptr[r], entry_ptr[r + 1]):
                out[b, result[p]] += mult[p] * w


def price_int64(n: npt.NDArray[np.int64], und: npt.NDArray[np.int64], parent: npt.NDArray[np.intp],
                cls: npt.NDArray[np.intp], prior: npt.NDArray[np.int64], row_node: npt.NDArray[np.intp],
                row_cards: npt.NDArray[np.int64], entry_ptr: npt.NDArray[np.intp], by_row: npt.NDArray[np.intp],
                result: npt.NDArray[np.int32], mult: npt.NDArray[np.int64], results: int) -> npt.NDArray[np.int64]:
    """Counts per result, ``(batch, results)`` int64 (see the module doc)."""
    out = np.zeros((n.shape[0], results), np.int64)
    _price(np.ascontiguousarray(n, np.int64), np.ascontiguousarray(und, np.int64), parent, cls, prior,
           row_node, row_cards, entry_ptr, result[by_row], mult[by_row], out)
    return out
