"""Standard shoes priced once, shipped: a one-shot command line without numpy.

``exactodds analyze banker`` prices one standard 8-deck shoe. Loading numpy, the shape
table and the pricing costs a one-shot process more than everything else it does, and
the answer never changes: so the exact counts per result of the standard shoes of
:data:`DECKS` decks at the levels marked ``standard`` (:data:`exactodds.engine.levels.STANDARD`)
ship in ``engine/shapes/standard.json``
(written by ``scripts/build_shapes.py``), beside each result's representative shape, from
which the level's result function rebuilds the result objects without the table.
The tests rebuild the file from the pricing (Python ints) and compare it, so a stale file
cannot pass; a shoe that is not standard, or a level not listed, is priced as always.

>>> counts = standard_counts("coup", 8)
>>> counts is not None and sum(counts) == 416 * 415 * 414 * 413 * 412 * 411
True
>>> standard_counts("coup", 9) is None
True
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Final

FILE: Final = Path(__file__).resolve().parent / "shapes" / "standard.json"
"""The shipped counts (``scripts/build_shapes.py`` writes it; the tests compare it)."""

DECKS: Final = tuple(range(1, 9))
"""Deck counts of the shipped standard shoes (the regulated games deal 6 to 8)."""


@cache
def _shipped() -> dict[str, Any]:
    if not FILE.is_file():
        return {}
    with FILE.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def standard_counts(level: str, decks: int) -> list[int] | None:
    """Exact counts per result (the level's result order) of the standard shoe of
    ``decks`` decks, a new list at each call, or None where none ships."""
    entry = _shipped().get(level)
    counts = entry["counts"].get(str(decks)) if entry else None
    return list(counts) if counts is not None else None


def standard_reps(level: str) -> list[list[int]] | None:
    """Each result's representative shape (as the level's shape table holds it), or None."""
    entry = _shipped().get(level)
    return entry["rep"] if entry else None


def standard_decks(counts: tuple[int, ...]) -> int | None:
    """The number of decks of a standard shoe with these face counts, else None.

    >>> standard_decks((6,) * 52), standard_decks((6,) * 51 + (5,))
    (6, None)
    """
    first = counts[0]
    return first if counts.count(first) == len(counts) else None
