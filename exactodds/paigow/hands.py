"""Two-tile hands: their rank, the three ways to set four tiles, and settlement.

A two-tile hand is ranked by § 535.4:

1. a permissible pair (§ 535.4(a)) beats every hand that is not one; pairs rank
   by the table, and pairs of the same rank are copies (§ 535.4(b));
2. otherwise by its value, the last digit of its spots (§ 535.4(c));
3. at equal value, by its highest ranking tile (§ 535.4(e), (f)); at equal rank of
   that tile the hands are copies (§ 535.4(g)).

Copies go to the dealer, so every hand gets one integer, :func:`hand_key`, and
"higher in rank" is ``>`` on keys while equal keys are copies.

Readings (stated with every result, see :data:`READING_GEE_JOON` and
:data:`READING_ZERO`):

* a Supreme Pair tile used apart (§ 535.4(d)) is counted 3 or 6, whichever gives
  its hand the higher value, and then carries the rank of that count (6 →
  fifteenth, 3 → seventeenth) -- the holder, player or dealer, always takes the
  better count, and the two counts never give the same value;
* a low hand "of a value of zero" (§ 535.10(g), (h)(1)) is a hand that is not a
  permissible pair and whose value is 0. Such a player low hand never counts as
  higher in rank than the dealer's low hand -- also under (h)(2) and (j), which do
  not repeat the words (else (g) and (h)(2), or (h)(1) and (j), would contradict
  each other). Pairs whose spots add to a multiple of ten (the Gongs, the Tens,
  the Mixed Fives) are ranked as pairs, not as value zero.

>>> from exactodds.paigow.tiles import kind
>>> hand_value(kind("Two (1-1)"), kind("Six (3-3)"))          # § 535.4(c)(1)
8
>>> hand_value(kind("Eleven (5-6)"), kind("Seven (1-6)"))     # § 535.4(c)(2)
8
>>> describe_hand(kind("Twelve (6-6)"), kind("Nine (3-6)"))
'Wong (17th pair)'
>>> describe_hand(kind("Three (1-2)"), kind("Five (1-4)"))
'8, top tile Five (1-4) (16th)'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Final, Literal

from .tiles import GEE_JOON_COUNTS, PAIRS, TILES, kind

Outcome = Literal["win", "tie", "loss"]

READING_GEE_JOON: Final = (
    "§ 535.4(d): a Supreme Pair tile used apart from its mate is counted 3 or 6, whichever gives its hand "
    "the higher value (the two counts never give equal values), and then ranks fifteenth if counted 6, "
    "seventeenth if counted 3; both tiles in one hand are always the Supreme Pair."
)
READING_ZERO: Final = (
    "§ 535.10(g), (h)(1): a player's low hand 'of a value of zero' is one that is not a permissible pair "
    "and whose spots end in 0; it never counts as higher than the dealer's low hand (also under (h)(2) "
    "and (j), which would otherwise contradict (g) and (h)(1)). Pairs whose spots end in 0 (Gongs, Tens, "
    "Mixed Fives) rank as pairs. The rule is read for the player's low hand only, as written; a dealer's "
    "hand of value 0 is compared normally."
)
READING_COMPARE: Final = (
    "§ 535.10(f)-(j), § 535.4(b), (g): high hand against high hand, low against low; a hand wins its "
    "comparison only if strictly higher in rank, identical rank (copy) goes to the dealer; win = both "
    "higher, loss = neither higher, tie (push) otherwise. Hands of equal value are compared by their "
    "highest ranking tile only, and top tiles of equal printed rank (e.g. Nine (3-6) and Nine (4-5)) make "
    "copies, per § 535.4(g) ('identical rank'), not only the same tile as § 535.1 'Copy hand' might suggest."
)

PAIR_KEY_BASE: Final = 1000
"""Keys of permissible pairs are ``PAIR_KEY_BASE + 21 - rank``; other hands are below 200."""

_GJ: Final[dict[int, tuple[tuple[int, int], ...]]] = {}
for _c in GEE_JOON_COUNTS:
    _GJ.setdefault(kind(_c.tile), ())
    _GJ[kind(_c.tile)] += ((_c.points, _c.rank),)

_PAIR_RANK: Final[dict[tuple[int, int], int]] = {}
_PAIR_KIND: Final[dict[tuple[int, int], str]] = {}
for _p in PAIRS:
    _ab = tuple(sorted(kind(n) for n in _p.tiles))
    _PAIR_RANK[(_ab[0], _ab[1])] = _p.rank
    _PAIR_KIND[(_ab[0], _ab[1])] = _p.kind

_ORDINAL: Final = {1: "st", 2: "nd", 3: "rd"}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else _ORDINAL.get(n % 10, 'th')}"


def _counts(k: int) -> tuple[tuple[int, int], ...]:
    """(points, rank) choices of one tile: two for a Supreme Pair tile, else one."""
    return _GJ.get(k, ((TILES[k].points, TILES[k].rank),))


def pair_rank(a: int, b: int) -> int | None:
    """Ranking (1–20) of the permissible pair formed by tiles ``a``, ``b``, or None."""
    return _PAIR_RANK.get((min(a, b), max(a, b)))


@cache
def _value_and_top(a: int, b: int) -> tuple[int, int, int]:
    """(value, rank of highest tile, kind of highest tile) of a hand that is not a pair.

    With a Supreme Pair tile, the count giving the higher value is used and the
    tile takes that count's rank (§ 535.4(d)); ranks are 1 = highest.
    """
    best: tuple[int, int, int] | None = None
    for (pa, ra), (pb, rb) in product(_counts(a), _counts(b)):
        value = (pa + pb) % 10
        top_rank, top_kind = (ra, a) if ra <= rb else (rb, b)
        cand = (value, -top_rank, top_kind)
        if best is None or cand[:2] > best[:2]:
            best = cand
    assert best is not None
    return best[0], -best[1], best[2]


def hand_value(a: int, b: int) -> int:
    """The value 0–9 of the hand (§ 535.4(c)), Supreme Pair tiles counted best (d)."""
    return _value_and_top(a, b)[0]


@cache
def hand_key(a: int, b: int) -> int:
    """One integer per rank of hand: higher key = higher rank, equal key = copy.

    Pairs: ``1000 + 21 − rank`` (1001 for a 20th-ranked Gong .. 1020 for the
    Supreme Pair). Other hands: ``20·value + 18 − rank of highest tile`` (1..197).

    >>> hand_key(kind("Six (2-4)"), kind("Three (1-2)"))
    1020
    >>> hand_key(kind("Twelve (6-6)"), kind("Nine (4-5)")) == hand_key(kind("Twelve (6-6)"), kind("Nine (3-6)"))
    True
    """
    pr = pair_rank(a, b)
    if pr is not None:
        return PAIR_KEY_BASE + 21 - pr
    value, top_rank, _ = _value_and_top(a, b)
    return 20 * value + 18 - top_rank


def is_zero_key(key: int) -> bool:
    """True when the hand is not a permissible pair and has value 0 (§ 535.10(g))."""
    return key < 20


def describe_hand(a: int, b: int) -> str:
    """A short human description of a two-tile hand's rank."""
    pr = pair_rank(a, b)
    if pr is not None:
        label = {"supreme": "Supreme Pair", "matched": "pair", "mixed": "mixed pair", "wong": "Wong", "gong": "Gong"}
        kind_ = _PAIR_KIND[(min(a, b), max(a, b))]
        return f"{label[kind_]} ({_ordinal(pr)} pair)" if kind_ != "supreme" else "Supreme Pair (1st pair)"
    value, top_rank, top_kind = _value_and_top(a, b)
    return f"{value}, top tile {TILES[top_kind].name} ({_ordinal(top_rank)})"


def hand_names(hand: tuple[int, int]) -> str:
    """The two tiles of a hand by regulation name, higher ranked tile first."""
    return " + ".join(TILES[k].name for k in sorted(hand))


@dataclass(frozen=True)
class Setting:
    """A four-tile hand set into a high hand and a low hand (§ 535.1, § 535.10(a)).

    ``high`` and ``low`` are pairs of tile kinds (indexes in :data:`TILES`); the
    high hand is the one of higher rank (the first of the two when they are
    copies of each other).
    """

    high: tuple[int, int]
    low: tuple[int, int]
    high_key: int
    low_key: int

    @property
    def low_is_zero(self) -> bool:
        """The low hand is not a pair and has value 0 (§ 535.10(g))."""
        return is_zero_key(self.low_key)

    def names(self) -> tuple[str, str]:
        """(high hand, low hand) by tile names."""
        return hand_names(self.high), hand_names(self.low)


def make_setting(one: tuple[int, int], other: tuple[int, int]) -> Setting:
    """The setting with hands ``one`` and ``other``; the higher ranked is the high hand."""
    one = (min(one), max(one))
    other = (min(other), max(other))
    k1, k2 = hand_key(*one), hand_key(*other)
    if k2 > k1:
        return Setting(other, one, k2, k1)
    return Setting(one, other, k1, k2)


@cache
def settings(hand: tuple[int, int, int, int]) -> tuple[Setting, Setting, Setting]:
    """The three ways to split four tiles into two hands (some equal when tiles repeat).

    >>> [s.names() for s in settings((0, 0, 1, 1))][0]
    ('Twelve (6-6) + Twelve (6-6)', 'Two (1-1) + Two (1-1)')
    """
    a, b, c, d = hand
    return (
        make_setting((a, b), (c, d)),
        make_setting((a, c), (b, d)),
        make_setting((a, d), (b, c)),
    )


def compare(player: Setting, dealer: Setting) -> Outcome:
    """Settle a player's set hand against the dealer's (§ 535.10(f)–(j)).

    >>> twelves_twos = settings((0, 0, 1, 1))[0]      # pair of Twelves, pair of Twos
    >>> compare(twelves_twos, twelves_twos)            # both hands copies: the dealer's
    'loss'
    """
    high_higher = player.high_key > dealer.high_key
    low_higher = player.low_key > dealer.low_key and not player.low_is_zero
    if high_higher and low_higher:
        return "win"
    if not high_higher and not low_higher:
        return "loss"
    return "tie"
