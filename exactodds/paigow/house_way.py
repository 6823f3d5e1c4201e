"""How the dealer sets a hand: the house way of 58 Pa. Code § 535.10(d).

    (1) If the dealer has the Supreme Pair, it shall be played as the Supreme Pair.
    (2) If possible, the dealer shall always play a pair, Wong or Gong ...
    (3) If the dealer does not have any combinations described in paragraph (1)
        or (2), the dealer shall play any two tiles together which have a value
        equal to nine, eight or seven.
    (4) If the dealer does not have a combination listed in paragraph (1), (2)
        or (3), the dealer shall play the highest ranking tile with the lowest
        ranking tile.

The text leaves open which combination is played when (2) or (3) can be met in
more than one way, and § 535.10(b) leaves the house way to the casino's Rules
Submission. So that choice is a :class:`HouseWayReading`: an order of tie-break
criteria. Two are built in (:data:`READINGS`) -- ``most-qualifying`` (the setting with
the most qualifying hands first; the default) and ``high-hand-first`` (the highest
pair, or highest 9-8-7, as the high hand first) -- and a casino's own order is data
(:func:`reading_from_data`, e.g. ``["highest-low-hand", "most-qualifying"]``).
:data:`READING_HOUSE_WAY` states the rest of the reading taken.

>>> from exactodds.paigow.tiles import kind
>>> hand = tuple(sorted(kind(n) for n in ("Twelve (6-6)", "Two (1-1)", "Nine (4-5)", "Nine (3-6)")))
>>> setting, step = house_way_setting(hand)
>>> step, setting.names()
('(2)', ('Twelve (6-6) + Nine (3-6)', 'Two (1-1) + Nine (4-5)'))
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

from exactodds.errors import InputError

from .hands import Setting, hand_value, make_setting, pair_rank, settings
from .tiles import SUPREME_PAIR, TILES, kind

CITE_HOUSE_WAY: Final = "58 Pa. Code § 535.10(d)"

Step = Literal["(1)", "(2)", "(3)", "(4)"]

READING_HOUSE_WAY: Final = (
    "§ 535.10(d): 'pair, Wong or Gong' in (2) is any permissible pair of § 535.4(a) other than the "
    "Supreme Pair (matched and mixed pairs, Wongs = 17th-18th, Gongs = 19th-20th). In (4) tiles rank as "
    "printed in § 535.4(f) (Six (2-4) fifteenth, Three (1-2) seventeenth); no two tiles then share a rank, "
    "so (4) is unambiguous."
)

Criterion = Literal["most-qualifying", "highest-high-hand", "highest-low-hand"]
CRITERIA: Final[dict[str, str]] = {
    "most-qualifying": "the most hands that meet it (two pairs/Wongs/Gongs, or two hands of value 9, 8 or 7)",
    "highest-high-hand": "the highest-ranking high hand",
    "highest-low-hand": "the highest-ranking low hand",
}
"""The tie-break criteria a house-way reading orders, with the words each reading states."""
MAX_READING_BYTES: Final = 4096


@dataclass(frozen=True)
class HouseWayReading:
    """Which setting the dealer plays when § 535.10(d)(2) or (d)(3) can be met in several
    ways: ``order`` lists the criteria of :data:`CRITERIA`, most important first (the
    high and low hands, if not listed, break what is left in that order, so the choice
    is always one setting). ``id`` names it in every output.

    >>> READINGS["high-hand-first"].text()[:90]
    'House-way reading high-hand-first: when § 535.10(d)(2) or (d)(3) can be met by more than o'
    """

    id: str
    order: tuple[Criterion, ...]
    source: str = "built in"

    def key(self, qualifying: int, setting: Setting) -> tuple[int, ...]:
        """The sort key of a candidate setting meeting the paragraph in ``qualifying`` hands."""
        values = {"most-qualifying": qualifying, "highest-high-hand": setting.high_key,
                  "highest-low-hand": setting.low_key}
        return tuple(values[c] for c in self.full_order())

    def full_order(self) -> tuple[Criterion, ...]:
        """``order`` completed by the high hand, then the low hand."""
        rest: tuple[Criterion, ...] = ("highest-high-hand", "highest-low-hand")
        return self.order + tuple(c for c in rest if c not in self.order)

    def text(self) -> str:
        """The reading in words, as every view states it."""
        parts = [CRITERIA[c] for c in self.full_order()]
        source = "" if self.source == "built in" else f" (a casino's order, from {self.source})"
        return (f"House-way reading {self.id}{source}: when § 535.10(d)(2) or (d)(3) can be met by more than "
                f"one setting (the text does not decide; § 535.10(b) leaves it to the Rules Submission), the "
                f"dealer takes the setting with {parts[0]}, then " + ", then ".join(parts[1:]) + ".")


READINGS: Final[dict[str, HouseWayReading]] = {
    "most-qualifying": HouseWayReading("most-qualifying", ("most-qualifying", "highest-high-hand",
                                                           "highest-low-hand")),
    "high-hand-first": HouseWayReading("high-hand-first", ("highest-high-hand", "highest-low-hand")),
}
"""The built-in readings of § 535.10(d)(2),(3): the most qualifying hands first (default),
or the highest pair / highest 9-8-7 as the high hand first."""
DEFAULT_READING: Final = READINGS["most-qualifying"]


def reading_from_data(order: Any, source: str = "data") -> HouseWayReading:
    """A casino's own tie-break order (a list of :data:`CRITERIA` names) as a reading.

    >>> reading_from_data(["highest-low-hand", "most-qualifying"]).full_order()
    ('highest-low-hand', 'most-qualifying', 'highest-high-hand')
    >>> reading_from_data(["tallest"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: data: 'tallest' is not a house-way criterion (criteria: most-qualifying, ...)
    """
    if not isinstance(order, list) or not order:
        raise InputError(f"{source}: a house-way order is a non-empty list of criteria "
                         f"({', '.join(CRITERIA)})")
    out: list[Criterion] = []
    for c in order:
        if not isinstance(c, str) or c not in CRITERIA:
            shown = repr(c) if len(repr(c)) <= 40 else repr(c)[:37] + "..."
            raise InputError(f"{source}: {shown} is not a house-way criterion (criteria: {', '.join(CRITERIA)})")
        if c in out:
            raise InputError(f"{source}: criterion {c!r} is listed twice")
        out.append(c)  # type: ignore[arg-type]  # checked against CRITERIA above
    custom = HouseWayReading("custom", tuple(out), source)
    for r in READINGS.values():
        if r.full_order() == custom.full_order():
            return r  # the same choice as a built-in reading: it is that reading
    return HouseWayReading("custom: " + " > ".join(custom.full_order()), tuple(out), source)


def house_way_reading(spec: str | HouseWayReading | None) -> HouseWayReading:
    """The reading named ``spec``: a built-in id, or the path of a JSON file holding a list
    of criteria (or a TOML file ``order = [...]``); ``None`` is the default."""
    if spec is None:
        return DEFAULT_READING
    if isinstance(spec, HouseWayReading):
        return spec
    if spec in READINGS:
        return READINGS[spec]
    looks_like_file = spec.lower().endswith((".json", ".toml")) or os.sep in spec or "/" in spec
    if not looks_like_file and not os.path.exists(spec):
        raise InputError(f"unknown house-way reading {spec!r}: give {' or '.join(READINGS)}, or a JSON file "
                         "listing the casino's order (e.g. [\"highest-low-hand\", \"most-qualifying\"]) "
                         "or a TOML file with order = [...]")
    from exactodds.inputs import read_capped

    # one bounded reader: "no such house-way order file", a folder, a file too large (issue 25)
    data = read_capped(spec, "house-way order file", MAX_READING_BYTES)
    name = Path(spec).name
    try:
        text = data.decode("utf-8")
        doc: Any = tomllib.loads(text).get("order") if spec.endswith(".toml") else json.loads(text)
    except (UnicodeDecodeError, ValueError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise InputError(f"{spec}: not a house-way order ({type(exc).__name__})") from None
    return reading_from_data(doc, name)

_GEE_JOON: Final[tuple[int, int]] = (
    min(kind(n) for n in SUPREME_PAIR),
    max(kind(n) for n in SUPREME_PAIR),
)


def _is_pair_wong_gong(hand: tuple[int, int]) -> bool:
    pr = pair_rank(*hand)
    return pr is not None and pr >= 2


def _is_seven_to_nine(hand: tuple[int, int]) -> bool:
    return pair_rank(*hand) is None and hand_value(*hand) in (7, 8, 9)


def _best(candidates: list[tuple[int, Setting]], reading: HouseWayReading) -> Setting:
    """The candidate the reading's order of criteria puts first."""
    return max(candidates, key=lambda c: reading.key(c[0], c[1]))[1]


@cache
def house_way_setting(hand: tuple[int, int, int, int],
                      reading: HouseWayReading = DEFAULT_READING) -> tuple[Setting, Step]:
    """The dealer's setting of four tiles (sorted tile kinds) under ``reading`` and the
    paragraph of § 535.10(d) that decided it.
    """
    if len(hand) != 4 or list(hand) != sorted(hand):
        raise ValueError("house_way_setting expects four tile kinds in ascending order")
    all_settings = settings(hand)
    # (1) the Supreme Pair
    if _GEE_JOON[0] in hand and _GEE_JOON[1] in hand:
        rest = list(hand)
        rest.remove(_GEE_JOON[0])
        rest.remove(_GEE_JOON[1])
        return make_setting(_GEE_JOON, (rest[0], rest[1])), "(1)"
    # (2) a pair, Wong or Gong
    cands = [(sum(_is_pair_wong_gong(h) for h in (s.high, s.low)), s) for s in all_settings]
    cands = [c for c in cands if c[0] > 0]
    if cands:
        return _best(cands, reading), "(2)"
    # (3) two tiles of value nine, eight or seven
    cands = [(sum(_is_seven_to_nine(h) for h in (s.high, s.low)), s) for s in all_settings]
    cands = [c for c in cands if c[0] > 0]
    if cands:
        return _best(cands, reading), "(3)"
    # (4) highest ranking tile with lowest ranking tile (ranks as printed in § 535.4(f))
    ranks = [TILES[k].rank for k in hand]
    assert len(set(ranks)) == 4, "tiles of equal rank would have formed a pair in (2)"
    hi = hand[ranks.index(min(ranks))]
    lo = hand[ranks.index(max(ranks))]
    rest = list(hand)
    rest.remove(hi)
    rest.remove(lo)
    return make_setting((hi, lo), (rest[0], rest[1])), "(4)"
