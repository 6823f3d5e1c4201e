#!/usr/bin/env python3
"""Write Pai Gow's shipped exact tables: ``exactodds/paigow/arrays/<reading>.npz``.

For each built-in house-way reading of § 535.10(d)(2),(3), the win/tie/loss counts of
every setting of every distinct 4-tile player hand against the dealer's house way, as
computed by :func:`exactodds.paigow.analysis.compute_hand_outcomes` (never read from a
cache). The tests rebuild every file and compare it with the shipped one, so a stale
file cannot pass.

Run: ``python scripts/build_paigow_cache.py`` after changing the tiles, hand ranks,
settlement or the house way.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exactodds.paigow.analysis import compute_hand_outcomes
from exactodds.paigow.cache import ARRAYS, cache_path, outcome_arrays
from exactodds.paigow.house_way import READINGS
from exactodds.paigow.tiles import tile_counts


def main() -> None:
    ARRAYS.mkdir(exist_ok=True)
    for reading in READINGS.values():
        outcomes = compute_hand_outcomes(tile_counts(), reading)
        path = cache_path(reading)
        np.savez_compressed(path, **outcome_arrays(outcomes, reading))
        print(f"{path.relative_to(ARRAYS.parents[2])}: {len(outcomes)} hands, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
