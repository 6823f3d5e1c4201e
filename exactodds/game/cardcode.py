"""One card code for every reader of dealt cards: the simulator, the settler, hand logs,
the cross-check's audit, sequence and shoe tests, the shuffler check.

A card is its index into :data:`~exactodds.game.cards.FACES` (rank-major: ``rank · 4 +
suit``, ``AS`` = 0 ... ``KC`` = 51); :data:`ABSENT` (52) is the one "no card" value (a
third card not drawn); a card logged by rank only (a log without suits) carries the
:data:`RANK_ONLY` flag over its rank's first face (``rank · 4``), so ``code & ~RANK_ONLY``
is always a face index a level can read (the rank's spade: only suit-blind wagers are
settled from such a log) and the flag says, card by card, that its suit is unknown.
Every code is below :data:`CODES`, so a code is an index into the small tables below
(:data:`CODE_RANK`, :data:`CODE_SUIT`, :data:`CODE_VALUE`), which vectorised readers use.

>>> card_code("A", "S"), card_code("K", "C"), card_code("K", None), ABSENT
(0, 51, 112, 52)
>>> code_text(card_code("10", "H")), code_text(card_code("K", None)), int(CODE_VALUE[card_code("9", None)])
('10H', 'K', 9)
>>> str(FACES[int(face_of(np.array([card_code("Q", None)]))[0])])
'QS'
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.errors import InputError
from exactodds.game.cards import FACES, POINT_VALUE, RANKS, SUITS

ABSENT: Final = len(FACES)
"""The code of no card (a hand of two cards has no third)."""

RANK_ONLY: Final = 64
"""Flag of a card logged without a suit (rank only), over its rank's first face index."""

CODES: Final = 128
"""Every card code is below this (7 bits)."""

NO_SUIT: Final = len(SUITS)
""":data:`CODE_SUIT` of a rank-only card (and of :data:`ABSENT`)."""


def card_code(rank: str, suit: str | None) -> int:
    """The code of a card of ``rank`` (from :data:`~exactodds.game.cards.RANKS`) and
    ``suit`` (from :data:`~exactodds.game.cards.SUITS`, ``None``: logged by rank only)."""
    r = RANKS.index(rank) * len(SUITS)
    return r | RANK_ONLY if suit is None else r + SUITS.index(suit)


def _tables() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    rank = np.zeros(CODES, dtype=np.int8)
    suit = np.full(CODES, NO_SUIT, dtype=np.int8)
    value = np.zeros(CODES, dtype=np.int8)
    for i, c in enumerate(FACES):
        r = RANKS.index(c.rank)
        rank[i] = rank[i | RANK_ONLY] = r
        value[i] = value[i | RANK_ONLY] = POINT_VALUE[c.rank]
        suit[i] = SUITS.index(c.suit)
    return rank, suit, value


CODE_RANK, CODE_SUIT, CODE_VALUE = _tables()
"""Rank index (into :data:`~exactodds.game.cards.RANKS`), suit index (:data:`NO_SUIT`:
none) and point value (§ 629a.1; 0 for :data:`ABSENT`) of each code."""

VALID: Final = tuple(sorted({*range(len(FACES)), *(i * len(SUITS) | RANK_ONLY for i in range(len(RANKS)))}))
"""Every code of a card (suited or rank only), :data:`ABSENT` excluded."""


def face_of(codes: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """The face index a level reads of each code (a rank-only card: its rank's spade;
    :data:`ABSENT` stays absent): the settler's slot values."""
    out: npt.NDArray[np.int64] = codes.astype(np.int64) & ~RANK_ONLY
    return out


def code_text(code: int) -> str:
    """A card code as text, e.g. ``10H`` or ``K`` (rank only)."""
    return RANKS[int(CODE_RANK[code])] + (SUITS[int(CODE_SUIT[code])] if CODE_SUIT[code] != NO_SUIT else "")


_SUIT_SYMBOLS: Final = str.maketrans("♠♥♦♣♤♡♢♧", "SHDCSHDC")
"""Suit symbols (black and white forms) read as the letters S, H, D, C."""

_PARSED: dict[str, int] = {}


def parse_code(text: str) -> int:
    """The code of a logged card: ``KS``, ``10h``, ``T``, ``9``, ``A♦`` ... (the suit is
    optional: without it the card is rank only); one-line error for anything else.

    >>> parse_code("Th") == parse_code("10♥") == card_code("10", "H"), parse_code("q") == card_code("Q", None)
    (True, True)
    """
    code = _PARSED.get(text)
    if code is None:
        t = text.strip().upper().translate(_SUIT_SYMBOLS)
        suit: str | None = None
        if len(t) >= 2 and t[-1] in SUITS:
            t, suit = t[:-1], t[-1]
        rank = "10" if t == "T" else t
        if rank not in RANKS:
            raise InputError(f"unknown card {text[:20]!r} (expected a rank A, 2-9, T or 10, J, Q, K "
                             "and optionally a suit S, H, D, C or ♠ ♥ ♦ ♣)")
        code = card_code(rank, suit)
        if len(_PARSED) < 4096:
            _PARSED[text] = code
    return code


def rank_only(codes: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """Whether each code is a card logged without a suit."""
    out: npt.NDArray[np.bool_] = (codes & RANK_ONLY) != 0
    return out


__all__ = ["ABSENT", "CODES", "CODE_RANK", "CODE_SUIT", "CODE_VALUE", "NO_SUIT", "RANK_ONLY", "VALID",
           "card_code", "code_text", "face_of", "parse_code", "rank_only"]
