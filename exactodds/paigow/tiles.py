"""The Pai Gow tiles, their ranks and the permissible pairs, as regulation tables.

Every row below is transcribed from 58 Pa. Code §§ 535.3–535.4 (2010 temporary
rules) and carries its citation, so a reviewer can hold the table next to the
printed code. Tiles are named exactly as the regulation names them, e.g.
``"Twelve (6-6)"``, ``"Six (2-4)"``.

* :data:`TILES` -- the 21 kinds of tile with their number in the 32-tile set and
  their individual ranking (§ 535.4(f); the set itself § 535.3(a), (c)).
* :data:`PAIRS` -- the permissible pairs of § 535.4(a) with their ranking, from
  the Supreme Pair (first) down to the Gongs (twentieth).
* :data:`GEE_JOON_COUNTS` -- the alternative counts 3 or 6 of the two Supreme Pair
  tiles when used separately, and the ranking each count carries (§ 535.4(d)).

>>> len(TILES), sum(t.count for t in TILES)
(21, 32)
>>> TILES[kind("Nine (4-5)")].rank, TILES[kind("Three (1-2)")].rank
(12, 17)
>>> [p.rank for p in PAIRS if p.kind == "wong"]
[17, 17, 18, 18]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from exactodds.errors import InputError

CITE_SET: Final = "58 Pa. Code § 535.3(a), (c)"
CITE_PAIRS: Final = "58 Pa. Code § 535.4(a)"
CITE_COPY: Final = "58 Pa. Code § 535.4(b), (g)"
CITE_VALUE: Final = "58 Pa. Code § 535.4(c)"
CITE_GEE_JOON: Final = "58 Pa. Code § 535.4(d)"
CITE_TILE_RANK: Final = "58 Pa. Code § 535.4(e), (f)"


@dataclass(frozen=True)
class Tile:
    """One kind of tile: its regulation name, spots, number in the set and rank.

    ``rank`` is the individual ranking of § 535.4(f), 1 (first, highest) to 17
    (seventeenth, lowest); tiles printed with the same ordinal share a rank.
    ``points`` is the number of spots (§ 535.4(c)).
    """

    name: str
    spots: tuple[int, int]
    count: int
    rank: int
    cite: str

    @property
    def points(self) -> int:
        """Total number of spots on the tile (§ 535.4(c))."""
        return self.spots[0] + self.spots[1]


_F: Final = "58 Pa. Code § 535.4(f)"

TILES: Final[tuple[Tile, ...]] = (
    Tile("Twelve (6-6)", (6, 6), 2, 1, _F),
    Tile("Two (1-1)", (1, 1), 2, 2, _F),
    Tile("Eight (4-4)", (4, 4), 2, 3, _F),
    Tile("Four (1-3)", (1, 3), 2, 4, _F),
    Tile("Ten (5-5)", (5, 5), 2, 5, _F),
    Tile("Six (3-3)", (3, 3), 2, 6, _F),
    Tile("Four (2-2)", (2, 2), 2, 7, _F),
    Tile("Eleven (5-6)", (5, 6), 2, 8, _F),
    Tile("Ten (4-6)", (4, 6), 2, 9, _F),
    Tile("Seven (1-6)", (1, 6), 2, 10, _F),
    Tile("Six (1-5)", (1, 5), 2, 11, _F),
    Tile("Nine (3-6)", (3, 6), 1, 12, _F),
    Tile("Nine (4-5)", (4, 5), 1, 12, _F),
    Tile("Eight (2-6)", (2, 6), 1, 13, _F),
    Tile("Eight (3-5)", (3, 5), 1, 13, _F),
    Tile("Seven (2-5)", (2, 5), 1, 14, _F),
    Tile("Seven (3-4)", (3, 4), 1, 14, _F),
    Tile("Six (2-4)", (2, 4), 1, 15, _F),
    Tile("Five (1-4)", (1, 4), 1, 16, _F),
    Tile("Five (2-3)", (2, 3), 1, 16, _F),
    Tile("Three (1-2)", (1, 2), 1, 17, _F),
)
"""The 21 kinds of tile, highest ranking first (§ 535.4(f)); 32 tiles in all."""

NAMES: Final[tuple[str, ...]] = tuple(t.name for t in TILES)
_INDEX: Final[dict[str, int]] = {t.name: i for i, t in enumerate(TILES)}


def kind(name: str) -> int:
    """Index in :data:`TILES` of the tile called ``name`` (e.g. ``"Two (1-1)"``).

    >>> kind("Twelve (6-6)"), kind("Three (1-2)")
    (0, 20)
    """
    try:
        return _INDEX[name]
    except KeyError:
        raise InputError(f"unknown Pai Gow tile {name!r}; tiles are named as in § 535.4(f), e.g. 'Twelve (6-6)'") from None


PairKind = Literal["supreme", "matched", "mixed", "wong", "gong"]


@dataclass(frozen=True)
class PairRow:
    """One permissible pair of § 535.4(a): its ranking (1 = Supreme Pair) and tiles.

    Ranks printed with several pairings (the 17th–20th) give one row per pairing;
    pairs of the same rank are copies of each other (§ 535.4(b)).
    """

    rank: int
    kind: PairKind
    tiles: tuple[str, str]
    cite: str


_A: Final = CITE_PAIRS

PAIRS: Final[tuple[PairRow, ...]] = (
    PairRow(1, "supreme", ("Six (2-4)", "Three (1-2)"), _A),
    PairRow(2, "matched", ("Twelve (6-6)", "Twelve (6-6)"), _A),
    PairRow(3, "matched", ("Two (1-1)", "Two (1-1)"), _A),
    PairRow(4, "matched", ("Eight (4-4)", "Eight (4-4)"), _A),
    PairRow(5, "matched", ("Four (1-3)", "Four (1-3)"), _A),
    PairRow(6, "matched", ("Ten (5-5)", "Ten (5-5)"), _A),
    PairRow(7, "matched", ("Six (3-3)", "Six (3-3)"), _A),
    PairRow(8, "matched", ("Four (2-2)", "Four (2-2)"), _A),
    PairRow(9, "matched", ("Eleven (5-6)", "Eleven (5-6)"), _A),
    PairRow(10, "matched", ("Ten (4-6)", "Ten (4-6)"), _A),
    PairRow(11, "matched", ("Seven (1-6)", "Seven (1-6)"), _A),
    PairRow(12, "matched", ("Six (1-5)", "Six (1-5)"), _A),
    PairRow(13, "mixed", ("Nine (3-6)", "Nine (4-5)"), _A),
    PairRow(14, "mixed", ("Eight (3-5)", "Eight (2-6)"), _A),
    PairRow(15, "mixed", ("Seven (3-4)", "Seven (2-5)"), _A),
    PairRow(16, "mixed", ("Five (1-4)", "Five (2-3)"), _A),
    PairRow(17, "wong", ("Twelve (6-6)", "Nine (4-5)"), _A),
    PairRow(17, "wong", ("Twelve (6-6)", "Nine (3-6)"), _A),
    PairRow(18, "wong", ("Two (1-1)", "Nine (4-5)"), _A),
    PairRow(18, "wong", ("Two (1-1)", "Nine (3-6)"), _A),
    PairRow(19, "gong", ("Twelve (6-6)", "Eight (2-6)"), _A),
    PairRow(19, "gong", ("Twelve (6-6)", "Eight (3-5)"), _A),
    PairRow(19, "gong", ("Twelve (6-6)", "Eight (4-4)"), _A),
    PairRow(20, "gong", ("Two (1-1)", "Eight (2-6)"), _A),
    PairRow(20, "gong", ("Two (1-1)", "Eight (3-5)"), _A),
    PairRow(20, "gong", ("Two (1-1)", "Eight (4-4)"), _A),
)
"""Permissible pairs, Supreme Pair first (§ 535.4(a)).

§ 535.4(a) as printed does not use the words Wong and Gong, which § 535.10(d)(2)
does; the 17th–18th pairs (a Twelve or a Two with a Nine) are read as the Wongs and
the 19th–20th (a Twelve or a Two with an Eight) as the Gongs, their customary names.
"""

SUPREME_PAIR: Final[tuple[str, str]] = PAIRS[0].tiles
"""The Supreme Pair, Gee Joon: Six (2-4) with Three (1-2) (§ 535.1, § 535.4(a))."""


@dataclass(frozen=True)
class GeeJoonCount:
    """A count a Supreme Pair tile may take when used apart, and its rank then."""

    tile: str
    points: int
    rank: int
    cite: str


GEE_JOON_COUNTS: Final[tuple[GeeJoonCount, ...]] = (
    GeeJoonCount("Six (2-4)", 6, 15, CITE_GEE_JOON),
    GeeJoonCount("Six (2-4)", 3, 17, CITE_GEE_JOON),
    GeeJoonCount("Three (1-2)", 3, 17, CITE_GEE_JOON),
    GeeJoonCount("Three (1-2)", 6, 15, CITE_GEE_JOON),
)
"""§ 535.4(d): each Supreme Pair tile used separately counts 3 or 6; counted as 6 it
ranks fifteenth, counted as 3 seventeenth."""

FULL_SET: Final[tuple[int, ...]] = tuple(t.count for t in TILES)
"""Number of tiles of each kind in the 32-tile set (§ 535.3(c), § 535.4(f))."""


def tile_counts(tiles: Iterable[str] | Mapping[str, int] | None = None) -> tuple[int, ...]:
    """The number of tiles of each kind in a (sub)set, indexed like :data:`TILES`.

    ``None`` is the full regulation set. Otherwise give tile names (repeat a name
    for its second copy) or a mapping name -> number. A kind cannot appear more
    often than in the regulation set.

    >>> tile_counts(["Twelve (6-6)", "Twelve (6-6)", "Three (1-2)"])[:3]
    (2, 0, 0)
    >>> sum(tile_counts())
    32
    """
    if tiles is None:
        return FULL_SET
    counts = [0] * len(TILES)
    items = tiles.items() if isinstance(tiles, Mapping) else ((name, 1) for name in tiles)
    for name, n in items:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InputError(f"number of {name!r} tiles must be a whole number 0 or more, got {n!r}")
        counts[kind(name)] += n
    for i, n in enumerate(counts):
        if n > TILES[i].count:
            raise InputError(f"a Pai Gow set holds {TILES[i].count} {TILES[i].name} tile(s), got {n}")
    return tuple(counts)
