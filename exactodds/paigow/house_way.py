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
more than one way; :data:`READING_HOUSE_WAY` states the reading taken.

>>> from exactodds.paigow.tiles import kind
>>> hand = tuple(sorted(kind(n) for n in ("Twelve (6-6)", "Two (1-1)", "Nine (4-5)", "Nine (3-6)")))
>>> setting, step = house_way_setting(hand)
>>> step, setting.names()
('(2)', ('Twelve (6-6) + Nine (3-6)', 'Two (1-1) + Nine (4-5)'))
"""

from __future__ import annotations

from functools import cache
from typing import Final, Literal

from .hands import Setting, hand_value, make_setting, pair_rank, settings
from .tiles import SUPREME_PAIR, TILES, kind

CITE_HOUSE_WAY: Final = "58 Pa. Code § 535.10(d)"

Step = Literal["(1)", "(2)", "(3)", "(4)"]

READING_HOUSE_WAY: Final = (
    "§ 535.10(d): 'pair, Wong or Gong' in (2) is any permissible pair of § 535.4(a) other than the "
    "Supreme Pair (matched and mixed pairs, Wongs = 17th-18th, Gongs = 19th-20th). When (2) or (3) can "
    "be met by more than one setting, the dealer takes the setting with the most hands that meet it "
    "(two pairs/Wongs/Gongs, or two hands of value 9, 8 or 7, if possible), then the one whose high hand "
    "ranks highest, then the one whose low hand ranks highest. In (4) tiles rank as printed in § 535.4(f) "
    "(Six (2-4) fifteenth, Three (1-2) seventeenth); no two tiles then share a rank, so (4) is unambiguous."
)

_GEE_JOON: Final[tuple[int, int]] = (
    min(kind(n) for n in SUPREME_PAIR),
    max(kind(n) for n in SUPREME_PAIR),
)


def _is_pair_wong_gong(hand: tuple[int, int]) -> bool:
    pr = pair_rank(*hand)
    return pr is not None and pr >= 2


def _is_seven_to_nine(hand: tuple[int, int]) -> bool:
    return pair_rank(*hand) is None and hand_value(*hand) in (7, 8, 9)


def _best(candidates: list[tuple[int, Setting]]) -> Setting:
    """Most qualifying hands, then highest high hand, then highest low hand."""
    return max(candidates, key=lambda c: (c[0], c[1].high_key, c[1].low_key))[1]


@cache
def house_way_setting(hand: tuple[int, int, int, int]) -> tuple[Setting, Step]:
    """The dealer's setting of four tiles (sorted tile kinds) and the paragraph of
    § 535.10(d) that decided it.
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
        return _best(cands), "(2)"
    # (3) two tiles of value nine, eight or seven
    cands = [(sum(_is_seven_to_nine(h) for h in (s.high, s.low)), s) for s in all_settings]
    cands = [c for c in cands if c[0] > 0]
    if cands:
        return _best(cands), "(3)"
    # (4) highest ranking tile with lowest ranking tile (ranks as printed in § 535.4(f))
    ranks = [TILES[k].rank for k in hand]
    assert len(set(ranks)) == 4, "tiles of equal rank would have formed a pair in (2)"
    hi = hand[ranks.index(min(ranks))]
    lo = hand[ranks.index(max(ranks))]
    rest = list(hand)
    rest.remove(hi)
    rest.remove(lo)
    return make_setting((hi, lo), (rest[0], rest[1])), "(4)"
