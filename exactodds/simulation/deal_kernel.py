"""The compiled form of :func:`exactodds.simulation.simulate.deal_shoes` (numba; the optional
``fast`` extra): the same dealing, shoe by shoe instead of one round of every shoe per step.

The first card is exposed and burned with as many more as its value (§ 629a.5(f)); each round's
coup code is read from the same :func:`~exactodds.simulation.simulate.code_table` at the same
index (Player cards 1 and 3, Banker 2 and 4, then cards 5 and 6: § 629a.8(c)); the round in
which the cover card appears, or which it starts, is finished, one more is dealt, and the shoe
is done (§ 629a.9(d)). Rows come out shoe-major, as the numpy path sorts them. Integer
indices only. Imported only where shoes are dealt, and only when numba is installed; the tests
hold it equal to the numpy path.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from exactodds.engine.kernel import _jit


def _deal(values: Any, faces: Any, start: Any, cut: Any, table: Any, out_shoe: Any, out_round: Any,
          out_code: Any, out_faces: Any, keep: bool) -> int:  # pragma: no cover - compiled
    """Deal every shoe to its end; return the number of rounds written."""
    r = 0
    for s in range(values.shape[0]):
        pos = start[s]
        last = False
        step = 0
        while True:
            v = values[s]
            idx = ((v[pos] + v[pos + 2]) % 10 * 1000 + (v[pos + 1] + v[pos + 3]) % 10 * 100
                   + v[pos + 4] * 10 + v[pos + 5])
            code = table[idx]
            used = 4 + (code >> 1 & 1) + (code & 1)
            out_shoe[r] = s
            out_round[r] = step
            out_code[r] = code
            if keep:
                for j in range(6):
                    out_faces[r, j] = faces[s, pos + j]
            r += 1
            if last:
                break
            if cut[s] < pos + used:         # the round it appears in, or a cover card out with the burn
                last = True
            pos += used
            step += 1
    return r


_deal_c = _jit(_deal)


def deal(padded: npt.NDArray[np.uint8], values: npt.NDArray[np.uint8], start: npt.NDArray[np.int64],
         cut: npt.NDArray[np.int64], table: npt.NDArray[np.uint16], keep: bool,
         ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint16], npt.NDArray[np.uint8] | None]:
    """Deal the shoes of ``padded`` (faces, six blank cards after each shoe) whose card values
    are ``values``, from ``start`` (after the burn) with the first card under the cover at
    ``cut``: per round its shoe, its index within the shoe, its coup code, (``keep``) its faces."""
    shoes, width = padded.shape
    bound = shoes * ((width - 6) // 4 + 2)          # a round uses at least four cards
    out_shoe = np.empty(bound, np.int64)
    out_round = np.empty(bound, np.int64)
    out_code = np.empty(bound, np.uint16)
    out_faces = np.empty((bound if keep else 0, 6), np.uint8)
    n = _deal_c(np.ascontiguousarray(values, np.int64), np.ascontiguousarray(padded),
                np.ascontiguousarray(start, np.int64), np.ascontiguousarray(cut, np.int64), table,
                out_shoe, out_round, out_code, out_faces, keep)
    return out_shoe[:n], out_round[:n], out_code[:n], out_faces[:n].copy() if keep else None
