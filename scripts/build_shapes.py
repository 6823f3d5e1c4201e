#!/usr/bin/env python3
"""Write the shipped shape tables: ``exactodds/engine/shapes/<level>.npz``, and the
counts of the standard shoes (:mod:`exactodds.engine.standard`): ``shapes/standard.json``.

Each level's table is built by its walk (:mod:`exactodds.game.walk`) and saved as
integer arrays, so a process loads it instead of walking again. The tests rebuild every
table and compare it with the shipped file, so a stale file cannot pass.

Run: ``python scripts/build_shapes.py`` after changing a walk, a level or a result function
(``--standard-only``: the standard shoes' counts alone).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exactodds.engine import standard
from exactodds.engine.levels import SHIPPED, STANDARD

OUT = Path(__file__).resolve().parents[1] / "exactodds" / "engine" / "shapes"


def standard_shoes() -> dict[str, dict[str, object]]:
    """Per level of :data:`exactodds.engine.levels.STANDARD`: each result's representative
    shape and the exact counts per result (Python ints, the object path of the pricing) of
    the standard shoe of every deck count of :data:`exactodds.engine.standard.DECKS`."""
    out: dict[str, dict[str, object]] = {}
    for level in STANDARD:
        comps = np.array([[d] * 52 for d in standard.DECKS])
        priced = level.price_batch(comps, dtype=object)
        assert priced.void == (0,) * len(standard.DECKS)
        out[level.name] = {"rep": [[int(c) for c in rep] for rep in level.table.rep],
                     "counts": {str(d): [int(c) for c in row] for d, row in zip(standard.DECKS, priced.counts)}}
    return out


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for level in SHIPPED if "--standard-only" not in sys.argv else ():
        table = level.walk()
        path = OUT / f"{level.name}.npz"
        np.savez_compressed(path, **table.arrays())
        print(f"{path.relative_to(OUT.parents[2])}: {len(table.k)} multisets, {len(table.row)} entries, "
              f"{len(table.rep)} results, {path.stat().st_size:,} bytes")
    standard.FILE.write_text(json.dumps(standard_shoes(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{standard.FILE.relative_to(OUT.parents[2])}: {', '.join(lv.name for lv in STANDARD)} at "
          f"{standard.DECKS[0]}-{standard.DECKS[-1]} decks, {standard.FILE.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
