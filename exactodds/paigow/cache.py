"""Pai Gow's exact tables shipped in the package: ``exactodds/paigow/arrays/<reading>.npz``.

:func:`~exactodds.paigow.analysis.hand_outcomes` for the regulation's 32 tiles takes
seconds (8,130 distinct player hands against every dealer hand); its result -- per hand,
the win/tie/loss counts of each of its three settings against the house way, and which
setting the house way is -- is a few hundred kilobytes of integers. Like the shape tables
of :mod:`exactodds.engine`, it is computed once by ``scripts/build_paigow_cache.py``,
shipped as integer arrays, and read back here, so ``paigow`` and ``tables`` answer at
once. One file per built-in house-way reading. The tests rebuild every file and compare
it array by array with the shipped one, so a stale file cannot pass; a file that is
missing or does not describe the tile set and reading asked for is ignored (the counts
are then computed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import numpy as np

from .hands import settings
from .house_way import READINGS, HouseWayReading, Step
from .outcomes import HandOutcomes
from .tiles import tile_counts

ARRAYS: Final = Path(__file__).resolve().parent / "arrays"
STEPS: Final[tuple[Step, ...]] = ("(1)", "(2)", "(3)", "(4)")


def cache_path(reading: HouseWayReading) -> Path:
    """Where the shipped arrays of a built-in reading are."""
    return ARRAYS / f"{reading.id}.npz"


def outcome_arrays(outs: tuple[HandOutcomes, ...], reading: HouseWayReading) -> dict[str, np.ndarray]:
    """The arrays that hold ``outs`` (:class:`~.outcomes.HandOutcomes`) exactly."""
    return {
        "tile_counts": np.array(tile_counts(), dtype=np.int64),
        "order": np.array(reading.full_order()),
        "hands": np.array([o.hand for o in outs], dtype=np.int16),
        "ways": np.array([o.ways for o in outs], dtype=np.int64),
        "dealer_hands": np.array([o.dealer_hands for o in outs], dtype=np.int64),
        "counts": np.array([o.counts for o in outs], dtype=np.int64),
        "house_index": np.array([o.house_index for o in outs], dtype=np.int8),
        "step": np.array([STEPS.index(o.house_step) for o in outs], dtype=np.int8),
    }


def load_arrays(counts: tuple[int, ...], reading: HouseWayReading) -> dict[str, np.ndarray] | None:
    """The shipped arrays for ``counts`` under ``reading``, or ``None`` when none are
    shipped for them (another tile set, a casino's own order, a missing or foreign file)."""
    if READINGS.get(reading.id) != reading or counts != tile_counts():
        return None
    path = cache_path(reading)
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except (OSError, ValueError):
        return None
    if tuple(int(x) for x in data["tile_counts"]) != counts or tuple(data["order"]) != reading.full_order():
        return None
    return data


def load_outcomes(counts: tuple[int, ...], reading: HouseWayReading) -> tuple[HandOutcomes, ...] | None:
    """The shipped outcomes for ``counts`` under ``reading`` as hand objects (for the
    strategy table), or ``None`` as for :func:`load_arrays`."""
    data = load_arrays(counts, reading)
    if data is None:
        return None
    out: list[HandOutcomes] = []
    for hand, ways, dealers, cs, house, step in zip(
            data["hands"].tolist(), data["ways"].tolist(), data["dealer_hands"].tolist(),
            data["counts"].tolist(), data["house_index"].tolist(), data["step"].tolist()):
        h = (hand[0], hand[1], hand[2], hand[3])
        out.append(HandOutcomes(h, ways, dealers, settings(h), tuple((c[0], c[1], c[2]) for c in cs),
                                house, STEPS[step]))
    return tuple(out)
