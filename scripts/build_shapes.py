#!/usr/bin/env python3
"""Write the shipped shape tables: ``exactodds/engine/shapes/<level>.npz``.

Each level's table is built by its walk (:mod:`exactodds.game.walk`) and saved as
integer arrays, so a process loads it instead of walking again. The tests rebuild every
table and compare it with the shipped file, so a stale file cannot pass.

Run: ``python scripts/build_shapes.py`` after changing a walk, a level or a result function.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exactodds.engine.levels import SHIPPED

OUT = Path(__file__).resolve().parents[1] / "exactodds" / "engine" / "shapes"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for level in SHIPPED:
        table = level.walk()
        path = OUT / f"{level.name}.npz"
        np.savez_compressed(path, **table.arrays())
        print(f"{path.relative_to(OUT.parents[2])}: {len(table.k)} multisets, {len(table.row)} entries, "
              f"{len(table.rep)} results, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
