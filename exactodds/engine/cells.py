"""The six face cells of the ``deal-faces`` level, as one formula (no engine imports).

Kept apart from :mod:`exactodds.engine.deal_faces` so that the compiled kernel
(:mod:`exactodds.engine.deal_faces_kernel`) and the level both import it and the engine's
imports point one way: deal_faces → pricing → deal_faces_kernel → kernel, cells.
"""

from __future__ import annotations

from typing import Any, Final, Literal

Colour = Literal["suit", "colour", "mixed"]
"""All dealt cards one suit; one colour but not one suit; neither."""

CELLS: Final[tuple[tuple[Colour, bool], ...]] = (
    ("suit", True), ("suit", False), ("colour", True), ("colour", False), ("mixed", True), ("mixed", False))
"""The six disjoint cells (colour, one rank) of a value multiset's face assignments."""


def face_cells(total: Any, suit: Any, colour: Any, rank: Any, rank_suit: Any, rank_colour: Any) -> tuple[Any, ...]:
    """The six disjoint cells, in :data:`CELLS` order, from the six counts ``T, S, C, R,
    RS, RC`` of :mod:`exactodds.engine.deal_faces`.

    The one formulation of the inclusion-exclusion: applied to numpy arrays by the numpy
    path and compiled by numba for :func:`exactodds.engine.deal_faces_kernel.deal_faces_int64`.
    ``RS ≤ S, RC ≤ C, S ≤ C ≤ T, RS ≤ RC ≤ R ≤ T`` (each counts a subset of the next), so
    every cell is ``≥ 0``, and every intermediate difference, evaluated left to right,
    lies in ``[−T, T]``.

    >>> face_cells(100, 10, 30, 6, 1, 3)
    (1, 9, 2, 18, 3, 67)
    """
    return (rank_suit,
            suit - rank_suit,
            rank_colour - rank_suit,
            (colour - suit) - (rank_colour - rank_suit),
            rank - rank_colour,
            total - colour - rank + rank_colour)
