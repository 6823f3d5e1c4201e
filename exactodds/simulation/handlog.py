"""Hand logs and outcome-count files: streaming reading (line-numbered errors) and writing.

Two CSV formats, told apart by their header row (see ``docs/simulator.md``):

* **hand log** -- ``round,player,banker`` and optionally ``shoe``: one round a line,
  each hand its cards in the order dealt, separated by spaces, e.g. ``KS 9H`` and
  ``4D 2C 7S``. A card is a rank (``A``, ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``,
  ``K``) and optionally a suit (``S``, ``H``, ``D``, ``C`` or ``♠ ♥ ♦ ♣``). ``shoe`` numbers the shoe
  a round was dealt from, for logs dealt through the shoe (§ 629a.5, § 629a.9(d)).
  Round numbers increase down the file; with a ``shoe`` column they increase within
  each shoe (they may restart at each shoe), and shoe numbers increase.
* **counts** -- ``wager,paytable,outcome,count``: rounds per outcome of a wager under a
  paytable, outcome names as ``exactodds analyze`` prints them.

Lines starting with ``#`` are comments; ``# key=value`` pairs in the comments before
the header (``decks``, ``cover``, ``mode``, ...) are kept as metadata. Blank lines are
skipped; a UTF-8 byte-order mark is accepted. Every error is one
:class:`~exactodds.errors.InputError` naming the file and line.

Reading streams: a file is read in blocks of :data:`BLOCK` bytes, no line may exceed
:data:`MAX_LINE` bytes, and a hand log is handed out as :class:`LogChunk` arrays of at
most :data:`CHUNK_ROUNDS` rounds, so memory stays bounded whatever the file (a huge
log, ``/dev/zero``, a FIFO). Writing streams too: :func:`render_log_chunk` turns a
batch of simulated rounds into CSV bytes with numpy.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, BinaryIO, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from exactodds.catalogue import get_wager
from exactodds.errors import InputError
from exactodds.game.cards import FACES, POINT_VALUE, RANKS, SUITS, Shoe
from exactodds.io.progress import Progress
from exactodds.simulation.simulate import Cover, HandLog, Simulation, outcome_counts

LOG_COLUMNS: Final = ("round", "player", "banker")
LOG_OPTIONAL: Final = ("shoe",)
COUNT_COLUMNS: Final = ("wager", "paytable", "outcome", "count")
MAX_HAND_CARDS: Final = 10
"""More cards than this in one hand is not a log of baccarat at all: an input error."""

MAX_LINE: Final = 1 << 16
"""Longest line read (bytes): a hand-log line has well under 100; longer is not a log."""

BLOCK: Final = 1 << 20
"""Bytes read at a time."""

CHUNK_ROUNDS: Final = 1 << 16
"""Most rounds in one :class:`LogChunk`."""

MAX_NUMBER: Final = 10**15
"""Largest round or shoe number accepted (keeps every number in an int64)."""

NO_CARD: Final = 127
"""Card code of a missing card (a hand of two cards has no third)."""

NO_SUIT: Final = 4
"""Suit index of a card logged without a suit (rank only)."""

_BOM: Final = b"\xef\xbb\xbf"


# -- card codes ---------------------------------------------------------------------------
def card_code(rank: str, suit: str | None) -> int:
    """A logged card as a small int: ``rank index · 5 + suit index`` (suit 4 = none).

    >>> card_code("A", "S"), card_code("K", None)
    (0, 64)
    """
    return RANKS.index(rank) * 5 + (SUITS.index(suit) if suit is not None else NO_SUIT)


CODE_RANK: Final = np.array([c // 5 for c in range(128)], dtype=np.int8)
"""Rank index (into :data:`~exactodds.game.cards.RANKS`) of each card code (junk for NO_CARD)."""

CODE_SUIT: Final = np.array([c % 5 for c in range(128)], dtype=np.int8)
"""Suit index of each card code (4: no suit)."""

CODE_VALUE: Final = np.array([POINT_VALUE[RANKS[c // 5]] if c < 65 else 0 for c in range(128)], dtype=np.int8)
"""Point value of each card code (§ 629a.1); 0 for NO_CARD."""


def code_text(code: int) -> str:
    """A card code as text, e.g. ``10H`` or ``K``."""
    suit = code % 5
    return RANKS[code // 5] + (SUITS[suit] if suit != NO_SUIT else "")


@dataclass(frozen=True)
class LoggedCard:
    """A card as logged: a rank from :data:`~exactodds.game.cards.RANKS`, a suit or ``None``,
    and the rank's point value (§ 629a.6), kept for speed."""

    rank: str
    suit: str | None
    value: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", POINT_VALUE[self.rank])

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


@dataclass(frozen=True)
class LoggedRound:
    """One line of a hand log (see :meth:`LogFile.rounds`)."""

    line: int
    round: int
    player: tuple[LoggedCard, ...]
    banker: tuple[LoggedCard, ...]
    shoe: int | None = None


@dataclass
class LogChunk:
    """Up to :data:`CHUNK_ROUNDS` consecutive rounds of a hand log, as arrays.

    ``player`` and ``banker`` are ``(rounds, 3)`` card codes (:func:`card_code`;
    :data:`NO_CARD` past the hand's end), ``player_cards`` and ``banker_cards`` the
    number of cards logged (which may exceed 3: such a round is not playable).
    ``shoe`` is ``None`` without a ``shoe`` column.
    """

    line: npt.NDArray[np.int64]
    round: npt.NDArray[np.int64]
    shoe: npt.NDArray[np.int64] | None
    player: npt.NDArray[np.int16]
    banker: npt.NDArray[np.int16]
    player_cards: npt.NDArray[np.int16]
    banker_cards: npt.NDArray[np.int16]

    def __len__(self) -> int:
        return int(self.line.size)


# -- reading lines, bounded ------------------------------------------------------------------------
def _where(path: str, line: int) -> str:
    return f"{path}, line {line}"


class _Lines:
    """The lines of a file, read in blocks with bounded memory, each decoded and checked.

    Yields ``(number of the first line, lines)`` per block; lines keep no newline. An
    over-long line, a NUL byte (binary data) or bytes that are not UTF-8 are one-line
    input errors naming the line. The file is opened once (it may be a FIFO).
    """

    def __init__(self, path: str, progress: Progress | None = None) -> None:
        self.path = path
        self.progress = progress
        self.bytes_read = 0
        try:
            self.fh: BinaryIO = open(path, "rb")
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{path}: is a directory") from None
        except OSError as exc:
            raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
        try:
            st = os.fstat(self.fh.fileno())
            self.size = st.st_size if st.st_size > 0 and os.path.isfile(path) else 0
        except OSError:  # pragma: no cover
            self.size = 0

    def close(self) -> None:
        """Close the file."""
        self.fh.close()

    def _read(self) -> bytes:
        try:
            data = self.fh.read(BLOCK)
        except IsADirectoryError:
            raise InputError(f"{self.path}: is a directory") from None
        except OSError as exc:
            raise InputError(f"{self.path}: cannot be read ({exc.strerror})") from None
        self.bytes_read += len(data)
        if self.progress is not None and self.size:
            self.progress(min(self.bytes_read, self.size), self.size, "bytes")
        return data

    def _check(self, data: bytes, first: int) -> None:
        """Raise the one-line error for a NUL byte or bytes that are not UTF-8 in ``data``
        (lines numbered from ``first``)."""
        nul = data.find(b"\0")
        if nul >= 0:
            where = _where(self.path, first + data.count(b"\n", 0, nul))
            raise InputError(f"{where}: not text (a NUL byte): not a hand log or counts file")
        if data.isascii():  # the common case, without decoding
            return
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = _where(self.path, first + data.count(b"\n", 0, exc.start))
            raise InputError(f"{where}: not UTF-8 text") from None

    def _check_lengths(self, data: bytes, first: int) -> None:
        """Raise the one-line error for the first line of ``data`` longer than :data:`MAX_LINE` bytes."""
        if len(data) <= MAX_LINE:
            return
        ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
        lengths = np.diff(ends, prepend=-1, append=len(data)) - 1
        long = np.flatnonzero(lengths > MAX_LINE)
        if long.size:
            self._too_long(first + int(long[0]))

    def blocks(self) -> Iterator[tuple[int, bytes]]:
        """``(first line number, bytes)`` for each block of the file: whole lines joined by
        newlines (no newline after the last), checked to be UTF-8 text with no line longer
        than :data:`MAX_LINE` bytes; the byte-order mark of the first block is dropped."""
        number = 1
        rest = b""
        first_block = True
        try:
            while True:
                data = self._read()
                if first_block:
                    first_block = False
                    data = data.removeprefix(_BOM)
                if not data:
                    break
                if b"\0" in data:  # binary data: say so at once, whatever the line length
                    self._check(rest[-MAX_LINE:] + data, number)
                cut = data.rfind(b"\n")
                if cut < 0:
                    rest += data
                    if len(rest) > MAX_LINE:
                        self._too_long(number)
                    continue
                whole, tail = rest + data[:cut], data[cut + 1:]
                rest = tail
                self._check(whole, number)
                self._check_lengths(whole, number)
                yield number, whole
                number += whole.count(b"\n") + 1
                if len(rest) > MAX_LINE:
                    self._too_long(number)
            if rest:
                self._check(rest, number)
                yield number, rest
        finally:
            self.fh.close()

    def _too_long(self, number: int) -> None:
        raise InputError(f"{_where(self.path, number)}: line longer than {MAX_LINE:,} bytes: "
                         "not a hand log or counts file")


MAX_META_KEYS: Final = 256
"""Most distinct ``# key=value`` metadata keys kept from the comments before the header."""

MAX_META_TEXT: Final = 1 << 10
"""Longest metadata key or value kept (characters); longer ones are cut."""


def _meta(comment: str, meta: dict[str, str]) -> None:
    """Keep the ``key=value`` tokens of a comment line in ``meta``, bounded in memory: at
    most :data:`MAX_META_KEYS` distinct keys besides those crosscheck reads (a later value
    of a kept key replaces the earlier one; further keys are not kept) and :data:`MAX_META_TEXT` characters
    per key and value, so a file of millions of distinct comments costs no memory."""
    for token in comment.lstrip("#").split():
        key, sep, value = token.partition("=")
        if sep and key:
            k = key.strip().lower()[:MAX_META_TEXT]
            if k in meta or k in _READ_META or len(meta) < MAX_META_KEYS:
                meta[k] = value.strip()[:MAX_META_TEXT]


_READ_META: Final = frozenset({"mode", "seed", "rounds", "decks", "cover", "subset"})
"""Metadata keys crosscheck reads: always kept, however many other keys come first."""


def _cells(path: str, number: int, text: str) -> list[str]:
    if '"' in text:
        try:
            row = next(csv.reader([text]))
        except csv.Error as exc:
            raise InputError(f"{_where(path, number)}: bad CSV ({exc})") from None
    else:
        row = text.split(",")  # the common case, without the csv module's cost
    return [cell.strip() for cell in row]


def _text_lines(data: bytes) -> list[str]:
    """The lines of a block from :meth:`_Lines.blocks` as text (already checked to be UTF-8)."""
    return data.decode("utf-8").split("\n")


# -- cards -------------------------------------------------------------------------------------
def parse_logged_card(text: str) -> LoggedCard:
    """Read ``KS``, ``10h``, ``T``, ``9`` ...; the suit is optional."""
    code = _card(text)
    suit = code % 5
    return LoggedCard(RANKS[code // 5], SUITS[suit] if suit != NO_SUIT else None)


def _card(text: str) -> int:
    code = _CARD_CACHE.get(text)
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
        if len(_CARD_CACHE) < 4096:
            _CARD_CACHE[text] = code
    return code


_CARD_CACHE: dict[str, int] = {}

_SUIT_SYMBOLS: Final = str.maketrans("♠♥♦♣♤♡♢♧", "SHDCSHDC")
"""Suit symbols (black and white forms) read as the letters S, H, D, C."""


def _hand(text: str, what: str) -> int:
    """A hand's text as one packed int: card count, then the first three card codes."""
    packed = _HAND_CACHE.get(text)
    if packed is not None:
        return packed
    tokens = text.split()
    if not tokens:
        raise InputError(f"the {what} hand is empty")
    if len(tokens) > MAX_HAND_CARDS:
        raise InputError(f"the {what} hand has {len(tokens)} cards")
    codes = [_card(t) for t in tokens][:3] + [NO_CARD] * 3
    packed = len(tokens) | codes[0] << 4 | codes[1] << 11 | codes[2] << 18
    if len(_HAND_CACHE) < _HAND_CACHE_SIZE:
        _HAND_CACHE[text] = packed
    return packed


_HAND_CACHE: dict[str, int] = {}
_HAND_CACHE_SIZE: Final = 1 << 18


def _unpack(packed: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    cards = np.stack([packed >> 4 & 127, packed >> 11 & 127, packed >> 18 & 127], axis=1).astype(np.int16)
    return cards, (packed & 15).astype(np.int16)


def _whole(text: str, what: str, minimum: int) -> int:
    t = text.strip()
    if t[:1] == "-" and t[1:].isascii() and t[1:].isdigit() and len(t) <= len(str(MAX_NUMBER)):
        raise InputError(f"{what} must be at least {minimum}, got {t}")
    if not (t.isascii() and t.isdigit()):
        raise InputError(f"{what} {text[:20]!r} is not a whole number")
    # the limit is the value, not a digit count: 10**15 itself (16 digits) is accepted, and
    # a longer string is refused before int() is asked to read it
    n = int(t) if len(t.lstrip("0")) <= len(str(MAX_NUMBER)) else MAX_NUMBER + 1
    if n > MAX_NUMBER:
        raise InputError(f"{what} {t[:20]}{'...' if len(t) > 20 else ''} is too large (at most {MAX_NUMBER:,})")
    if n < minimum:
        raise InputError(f"{what} must be at least {minimum}, got {n}")
    return n


# -- files -------------------------------------------------------------------------------------
class LogFile:
    """A hand log being read: its header, the metadata of the comments before it, and its
    rounds, read once, as :meth:`chunks` (arrays) or :meth:`rounds` (objects)."""

    def __init__(self, path: str, columns: list[str], meta: dict[str, str], lines: _Lines,
                 blocks: Iterator[tuple[int, bytes]], pending: tuple[int, bytes]) -> None:
        self.path = path
        self.columns = tuple(columns)
        self.meta = meta
        self._lines = lines
        self._blocks = blocks
        self._pending: tuple[int, bytes] | None = pending
        self._used = False
        self.order: _Order | None = None  # the round-order check of :meth:`chunks`, once reading starts

    @property
    def has_shoes(self) -> bool:
        """Whether rounds carry a shoe number (dealt through the shoe)."""
        return "shoe" in self.columns

    def set_progress(self, progress: Progress | None) -> None:
        """Report bytes read through ``progress``."""
        self._lines.progress = progress

    def close(self) -> None:
        """Stop reading (closes the file)."""
        self._lines.close()

    def _all_blocks(self) -> Iterator[tuple[int, bytes]]:
        if self._pending is not None:
            yield self._pending
            self._pending = None
        yield from self._blocks

    def chunks(self) -> Iterator[LogChunk]:
        """The rounds as :class:`LogChunk` arrays, in file order (one pass only).

        Each block is parsed with numpy (:func:`_parse_block`); a block it does not accept
        (anything unusual: a bad line, quotes, other whitespace) is read line by line
        (:meth:`_read_lines`), which names the bad line. Chunks are cut and checked for
        order as soon as :data:`CHUNK_ROUNDS` rounds are read, whichever way.
        """
        if self._used:
            raise RuntimeError("a hand log is read once")
        self._used = True
        col = {n: i for i, n in enumerate(self.columns)}
        layout = _Layout(len(self.columns), col["round"], col["player"], col["banker"], col.get("shoe"))
        rows = _Rows(_Order(self.path, layout.shoe is not None))
        self.order = rows.order
        for first, data in self._all_blocks():
            parsed = _parse_block(data, first, layout)
            if parsed is None:
                yield from self._read_lines(first, data, layout, rows)
            else:
                yield from rows.add(parsed)
        yield from rows.flush()
        if rows.order.rounds == 0:
            raise InputError(f"{self.path}: the hand log has a header but no rounds")

    def _read_lines(self, first: int, data: bytes, layout: _Layout, rows: _Rows) -> Iterator[LogChunk]:
        """Parse a block line by line, naming the line of the first bad one."""
        width, ri, pi, bi, si = layout
        path = self.path
        hand_cache = _HAND_CACHE
        lines_out: list[int] = []
        rounds: list[int] = []
        shoes: list[int] = []
        players: list[int] = []
        bankers: list[int] = []

        def batch() -> _Batch:
            pc, pn = _unpack(np.array(players, dtype=np.int64))
            bc, bn = _unpack(np.array(bankers, dtype=np.int64))
            return _Batch(np.array(lines_out, dtype=np.int64), np.array(rounds, dtype=np.int64),
                          np.array(shoes, dtype=np.int64) if si is not None else None, pc, bc, pn, bn)

        for i, text in enumerate(_text_lines(data)):
            number = first + i
            if not text or text[0] == "#" or text.isspace():
                continue
            if text[0] in " \t" or text[-1] in " \t\r":
                text = text.strip()
                if not text or text[0] == "#":
                    continue
            try:
                row = text.split(",") if '"' not in text else _cells(path, number, text)
                if len(row) != width:
                    raise InputError(f"expected {width} fields ({','.join(self.columns)}), got {len(row)}")
                cell = row[ri]
                rnd = int(cell) if cell.isdigit() and cell.isascii() and len(cell) < 16 else \
                    _whole(cell, "round number", 1)
                if rnd < 1:
                    raise InputError(f"round number must be at least 1, got {rnd}")
                if si is not None:
                    cell = row[si]
                    shoes.append(int(cell) if cell.isdigit() and cell.isascii() and len(cell) < 16 else
                                 _whole(cell, "shoe number", 0))
                ph = hand_cache.get(row[pi])
                if ph is None:
                    ph = _hand(row[pi].strip(), "player")
                bh = hand_cache.get(row[bi])
                if bh is None:
                    bh = _hand(row[bi].strip(), "banker")
            except InputError as exc:
                raise InputError(f"{_where(path, number)}: {exc}") from None
            lines_out.append(number)
            rounds.append(rnd)
            players.append(ph)
            bankers.append(bh)
            if rows.size + len(rounds) >= CHUNK_ROUNDS:  # cut the chunk now: its order is checked first
                yield from rows.add(batch())
                lines_out, rounds, shoes, players, bankers = [], [], [], [], []
        if rounds:
            yield from rows.add(batch())

    def rounds(self) -> Iterator[LoggedRound]:
        """The rounds one by one as :class:`LoggedRound` objects (convenient, slower)."""
        cards = {c: parse_logged_card(code_text(c)) for c in range(65)}
        for ch in self.chunks():
            for j in range(len(ch)):
                pn, bn = int(ch.player_cards[j]), int(ch.banker_cards[j])
                yield LoggedRound(int(ch.line[j]), int(ch.round[j]),
                                  tuple(cards[int(c)] for c in ch.player[j, :min(pn, 3)]),
                                  tuple(cards[int(c)] for c in ch.banker[j, :min(bn, 3)]),
                                  int(ch.shoe[j]) if ch.shoe is not None else None)


class _Layout(NamedTuple):
    """Where the columns of a hand log are: their number and the index of each."""

    width: int
    round: int
    player: int
    banker: int
    shoe: int | None


@dataclass
class _Batch(LogChunk):
    """Consecutive rounds read, as arrays: a :class:`LogChunk` before :class:`_Order` has
    checked it (round numbers as written)."""

    def cut(self, n: int) -> tuple[_Batch, _Batch]:
        """The first ``n`` rounds and the rest."""
        shoe = self.shoe
        head = _Batch(self.line[:n], self.round[:n], shoe[:n] if shoe is not None else None, self.player[:n],
                      self.banker[:n], self.player_cards[:n], self.banker_cards[:n])
        tail = _Batch(self.line[n:], self.round[n:], shoe[n:] if shoe is not None else None, self.player[n:],
                      self.banker[n:], self.player_cards[n:], self.banker_cards[n:])
        return head, tail

    @staticmethod
    def join(parts: list[_Batch]) -> _Batch:
        """One batch of ``parts`` in order."""
        if len(parts) == 1:
            return parts[0]
        shoes = [p.shoe for p in parts if p.shoe is not None]
        return _Batch(np.concatenate([p.line for p in parts]), np.concatenate([p.round for p in parts]),
                      np.concatenate(shoes) if shoes else None,
                      np.concatenate([p.player for p in parts]), np.concatenate([p.banker for p in parts]),
                      np.concatenate([p.player_cards for p in parts]),
                      np.concatenate([p.banker_cards for p in parts]))


class _Rows:
    """Rounds read but not yet handed out: cut into :class:`LogChunk` s of exactly
    :data:`CHUNK_ROUNDS` rounds (the last may be shorter), each checked by :class:`_Order`."""

    def __init__(self, order: _Order) -> None:
        self.order = order
        self.parts: list[_Batch] = []
        self.size = 0

    def add(self, batch: _Batch) -> Iterator[LogChunk]:
        """Take ``batch``; the chunks it fills."""
        if len(batch):
            self.parts.append(batch)
            self.size += len(batch)
        while self.size >= CHUNK_ROUNDS:
            head, tail = _Batch.join(self.parts).cut(CHUNK_ROUNDS)
            self.parts, self.size = ([tail] if len(tail) else []), len(tail)
            yield self.order.chunk(head)

    def flush(self) -> Iterator[LogChunk]:
        """The last, short chunk (if any rounds are left)."""
        if self.size:
            whole = _Batch.join(self.parts)
            self.parts, self.size = [], 0
            yield self.order.chunk(whole)


class _Order:
    """Checks, chunk by chunk, that round numbers increase (within each shoe, when there is
    a shoe column, and shoe numbers increase); builds the chunks."""

    def __init__(self, path: str, shoes: bool) -> None:
        self.path = path
        self.shoes = shoes
        self.rounds = 0
        self.prev: tuple[int, int, int] | None = None  # line, round, shoe of the last round read
        self.missing = 0  # round numbers skipped between consecutive rounds (of one shoe)
        self.first_gap: tuple[int, int, int] | None = None  # line, round before it, round after it

    def chunk(self, batch: _Batch) -> LogChunk:
        """``batch`` as a chunk, once its order (and the order after the last chunk) is checked."""
        line, rnd, shoe = batch.line, batch.round, batch.shoe
        if self.prev is not None:
            pl, pr, ps = self.prev
            all_line = np.concatenate([[pl], line])
            all_rnd = np.concatenate([[pr], rnd])
            all_shoe = np.concatenate([[ps], shoe]) if shoe is not None else None
        else:
            all_line, all_rnd, all_shoe = line, rnd, shoe
        if all_shoe is not None:
            back = np.flatnonzero(np.diff(all_shoe) < 0)
            if back.size:
                j = int(back[0]) + 1
                raise InputError(f"{_where(self.path, int(all_line[j]))}: shoe {int(all_shoe[j])} comes after shoe "
                                 f"{int(all_shoe[j - 1])} (line {int(all_line[j - 1])}): shoes must be logged in order")
            same = np.diff(all_shoe) == 0
        else:
            same = np.ones(all_rnd.size - 1, dtype=bool)
        bad = np.flatnonzero(same & (np.diff(all_rnd) <= 0))
        if bad.size:
            j = int(bad[0]) + 1
            r, q = int(all_rnd[j]), int(all_rnd[j - 1])
            within = " within a shoe" if self.shoes else ""
            if r == q:
                raise InputError(f"{_where(self.path, int(all_line[j]))}: round {r} already appears on line "
                                 f"{int(all_line[j - 1])}{' of the same shoe' if self.shoes else ''}")
            raise InputError(f"{_where(self.path, int(all_line[j]))}: round {r} comes after round {q} "
                             f"(line {int(all_line[j - 1])}): round numbers must increase{within}")
        step = np.diff(all_rnd)
        gaps = np.flatnonzero(same & (step > 1))
        if gaps.size:
            self.missing += int((step[gaps] - 1).sum())
            if self.first_gap is None:
                j = int(gaps[0]) + 1
                self.first_gap = int(all_line[j]), int(all_rnd[j - 1]), int(all_rnd[j])
        self.prev = (int(line[-1]), int(rnd[-1]), int(shoe[-1]) if shoe is not None else 0)
        self.rounds += line.size
        return LogChunk(line, rnd, shoe, batch.player, batch.banker, batch.player_cards, batch.banker_cards)


# -- reading a block of hand-log lines with numpy ------------------------------------------------------
_TOKEN_BYTES: Final = "0123456789ATJQKSHDC"
"""The characters of cards and numbers (either case): each has a code 1-19 in :data:`_CHAR`."""

_BASE: Final = len(_TOKEN_BYTES) + 1


def _byte_tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]]:
    char = np.zeros(256, dtype=np.int64)
    kind = np.zeros(256, dtype=np.int8)  # 0: not in a plain hand-log row (quote, '#', other whitespace, non-ASCII)
    for i, ch in enumerate(_TOKEN_BYTES):
        for c in (ch, ch.lower()):
            char[ord(c)] = i + 1
            kind[ord(c)] = 1
    for ws in b" \t\r":
        kind[ws] = 2
    kind[ord(",")] = 3
    kind[ord("\n")] = 4
    return char, kind


_CHAR, _KIND = _byte_tables()


@cache
def _token_codes() -> npt.NDArray[np.int16]:
    """Card code of every token of 1-3 token characters, keyed by their codes in base
    :data:`_BASE` (-1: not a card). Built once from :func:`_card` itself, so the two
    readings agree by construction."""
    table = np.full(_BASE ** 3, -1, dtype=np.int16)
    letters = _TOKEN_BYTES
    for length in (1, 2, 3):
        for chars in itertools.product(letters, repeat=length):
            try:
                code = _card("".join(chars))
            except InputError:
                continue
            key = 0
            for k in range(3):
                key = key * _BASE + (letters.index(chars[k]) + 1 if k < length else 0)
            table[key] = code
    return table


def _parse_block(data: bytes, first: int, layout: _Layout) -> _Batch | None:
    """The rounds of a block of hand-log lines (numbered from ``first``), parsed with numpy
    and no Python loop over lines; ``None`` unless every line is plain -- blank, a comment,
    or a row of whole numbers and cards separated by commas, spaces and tabs, every field
    well-formed -- in which case the block is read line by line (:meth:`LogFile._read_lines`),
    which gives the same rounds or names the bad line.
    """
    width, ri, pi, bi, si = layout
    buf = np.frombuffer(data + b"\n", dtype=np.uint8)
    size = buf.size
    kind = _KIND[buf]
    nl = np.flatnonzero(kind == 4)
    starts = np.empty(nl.size, dtype=np.int64)
    starts[0] = 0
    starts[1:] = nl[:-1] + 1
    lead = starts.copy()  # first byte not space, tab or CR
    spaced = kind[starts] == 2
    if spaced.any():
        solid = np.flatnonzero(kind != 2)
        lead[spaced] = solid[np.searchsorted(solid, starts[spaced])]
        if ((buf[starts] == 13) & (lead != nl)).any():  # a line led by a CR is not stripped: read line by line
            return None
    skip = (lead == nl) | (buf[lead] == ord("#"))  # blank lines and comments
    row = ~skip
    odd = np.flatnonzero(kind == 0)
    if odd.size and row[np.searchsorted(nl, odd)].any():
        return None
    rank = np.cumsum(row) - row  # row number of each line
    rows = int(rank[-1] + row[-1])
    commas = np.flatnonzero(kind == 3)
    if odd.size and commas.size:
        commas = commas[row[np.searchsorted(nl, commas)]]
    if commas.size != rows * (width - 1) or \
            (np.bincount(np.searchsorted(nl, commas), minlength=nl.size)[row] != width - 1).any():
        return None
    edge = np.diff((kind == 1).view(np.int8), prepend=np.int8(0))
    ts = np.flatnonzero(edge == 1)
    te = np.flatnonzero(edge == -1)
    tline = np.searchsorted(nl, ts)
    if odd.size:
        keep = row[tline]
        ts, te, tline = ts[keep], te[keep], tline[keep]
    trow = rank[tline]
    field = np.searchsorted(commas, ts) - trow * (width - 1)
    group = trow * width + field
    count = np.bincount(group, minlength=rows * width)
    pos = np.arange(ts.size) - (np.cumsum(count) - count)[group]  # index of the token in its field
    count = count.reshape(rows, width)
    numbers = [ri] if si is None else [ri, si]
    if (count[:, numbers] != 1).any() or (count[:, [pi, bi]] < 1).any() or \
            (count[:, [pi, bi]] > MAX_HAND_CARDS).any():
        return None
    tlen = te - ts
    values = []
    for f in numbers:
        at = field == f
        start, length = ts[at], tlen[at]
        digits = 0 if rows == 0 else int(length.max())
        if digits > 15:
            return None
        value = np.zeros(rows, dtype=np.int64)
        for k in range(digits):
            more = k < length
            d = buf[np.minimum(start + k, size - 1)].astype(np.int64) - 48
            if ((d < 0) | (d > 9))[more].any():
                return None
            value = np.where(more, value * 10 + d, value)
        values.append(value)
    if rows and int(values[0].min()) < 1:
        return None
    hand = (field == pi) | (field == bi)
    hs, hl = ts[hand], tlen[hand]
    key = _CHAR[buf[hs]] * _BASE ** 2
    key += np.where(hl > 1, _CHAR[buf[np.minimum(hs + 1, size - 1)]], 0) * _BASE
    key += np.where(hl > 2, _CHAR[buf[np.minimum(hs + 2, size - 1)]], 0)
    codes = np.where(hl > 3, -1, _token_codes()[key])
    if (codes < 0).any():
        return None
    hrow, hfield, hpos = trow[hand], field[hand], pos[hand]
    cards = []
    for f in (pi, bi):
        out = np.full((rows, 3), NO_CARD, dtype=np.int16)
        at = (hfield == f) & (hpos < 3)
        out[hrow[at], hpos[at]] = codes[at]
        cards.append(out)
    line = first + np.flatnonzero(row)
    return _Batch(line.astype(np.int64), values[0], values[1] if si is not None else None, cards[0], cards[1],
                  count[:, pi].astype(np.int16), count[:, bi].astype(np.int16))


@dataclass
class CountsFile:
    """A parsed counts file: ``families[(wager, paytable)][outcome] = count``."""

    path: str
    families: dict[tuple[str, str], dict[str, int]]
    meta: dict[str, str] = field(default_factory=dict)


def parse_columns(text: str) -> dict[str, str]:
    """A column mapping ``round=hand_number,player=p_cards,...`` (the log's name on the
    left, the file's header name on the right) as a dict; one-line error if malformed.

    >>> parse_columns("round=Hand_Number, shoe=shoe_id")
    {'round': 'hand_number', 'shoe': 'shoe_id'}
    """
    known = LOG_COLUMNS + LOG_OPTIONAL
    out: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip().lower(), value.strip().lower()
        if not sep or not key or not value:
            raise InputError(f"--columns: {item.strip()[:40]!r} is not NAME=COLUMN (e.g. round=hand_number)")
        if key not in known:
            raise InputError(f"--columns: {key[:40]!r} is not a hand-log column (expected one of {', '.join(known)})")
        if key in out:
            raise InputError(f"--columns: {key!r} is mapped twice")
        out[key] = value
    return out


def _mapped(path: str, number: int, names: list[str], columns: Mapping[str, str]) -> list[str]:
    """The header ``names`` with the file's columns renamed to the log's (``columns``: log name
    to file name); one line naming the column when the file has no such column."""
    out = list(names)
    for key, value in columns.items():
        if value not in names:
            raise InputError(f"{_where(path, number)}: --columns {key}={value}: the file has no column {value!r} "
                             f"(its columns: {', '.join(names)[:120]})")
        out[names.index(value)] = key
    return out


def read_file(path: str | os.PathLike[str], columns: Mapping[str, str] | None = None) -> LogFile | CountsFile:
    """Open a hand log or read a counts file, telling them apart by the header row.

    A counts file is read whole (it is small); a hand log is returned ready to stream
    through :meth:`LogFile.chunks`, with the metadata of the comments before its header.
    ``columns`` maps hand-log column names to the file's own header names
    (:func:`parse_columns`), for logs written by other simulators.
    """
    p = str(path)
    if "\0" in p:
        raise InputError(f"the hand log path {p!r} contains a NUL byte, which no file name can")
    meta: dict[str, str] = {}
    lines = _Lines(p)
    blocks = lines.blocks()
    header: tuple[int, list[str]] | None = None
    pending: tuple[int, bytes] | None = None
    try:
        for first, data in blocks:
            block = _text_lines(data)
            for i, line in enumerate(block):
                text = line.strip()
                if not text:
                    continue
                if text.startswith("#"):
                    _meta(text, meta)
                    continue
                header = first + i, _cells(p, first + i, text)
                pending = first + i + 1, "\n".join(block[i + 1:]).encode("utf-8")
                break
            if header is not None:
                break
    except BaseException:
        lines.close()
        raise
    if header is None or pending is None:
        lines.close()
        raise InputError(f"{p}: the file is empty (expected a header row "
                         f"'{','.join(LOG_COLUMNS)}' or '{','.join(COUNT_COLUMNS)}')")
    number, cells = header
    names = [h.lower() for h in cells]
    if columns:
        try:
            names = _mapped(p, number, names, columns)
        except BaseException:
            lines.close()
            raise
    if set(names) == set(COUNT_COLUMNS) and len(names) == len(COUNT_COLUMNS):
        try:
            return _read_counts(p, names, _pending_rows(p, pending, blocks), meta)
        finally:
            lines.close()
    if set(LOG_COLUMNS) <= set(names) and set(names) <= set(LOG_COLUMNS + LOG_OPTIONAL) \
            and len(set(names)) == len(names):
        return LogFile(p, names, meta, lines, blocks, pending)
    lines.close()
    raise InputError(f"{_where(p, number)}: unrecognised header {','.join(cells)[:80]!r} (expected "
                     f"'{','.join(LOG_COLUMNS)}' [with 'shoe'] or '{','.join(COUNT_COLUMNS)}')")


def _pending_rows(path: str, pending: tuple[int, bytes],
                  blocks: Iterator[tuple[int, bytes]]) -> Iterator[tuple[int, list[str]]]:
    def all_blocks() -> Iterator[tuple[int, bytes]]:
        yield pending
        yield from blocks
    for first, data in all_blocks():
        for i, line in enumerate(_text_lines(data)):
            text = line.strip()
            if text and not text.startswith("#"):
                yield first + i, _cells(path, first + i, text)


def _read_counts(path: str, names: list[str], rows: Iterator[tuple[int, list[str]]],
                 meta: dict[str, str]) -> CountsFile:
    col = {n: i for i, n in enumerate(names)}
    families: dict[tuple[str, str], dict[str, int]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for number, row in rows:
        try:
            if len(row) != len(names):
                raise InputError(f"expected {len(names)} fields ({','.join(names)}), got {len(row)}")
            wager = get_wager(_unneutralised(row[col["wager"]]))
            table = wager.paytable(_unneutralised(row[col["paytable"]]) or None)
            outcome = _unneutralised(row[col["outcome"]])
            known = wager.outcome_names(table)
            if outcome not in known:
                raise InputError(f"{outcome[:60]!r} is not an outcome of {wager.id} ({table.id}); "
                                 f"its outcomes: {'; '.join(known)}")
            count = _whole(row[col["count"]], "count", 0)
            key = (wager.id, table.id, outcome)
            if key in seen:
                raise InputError(f"{wager.id},{table.id},{outcome} already appears on line {seen[key]}")
        except InputError as exc:
            raise InputError(f"{_where(path, number)}: {exc}") from None
        seen[key] = number
        families.setdefault((wager.id, table.id), {n: 0 for n in known})[outcome] = count
    if not families:
        raise InputError(f"{path}: the counts file has a header but no counts")
    return CountsFile(path, families, meta)


# -- writing ----------------------------------------------------------------------------
def _meta_line(meta: Mapping[str, Any]) -> str:
    return "# exactodds " + " ".join(f"{k}={v}" for k, v in meta.items()) + "\n"


def run_meta(mode: str, seed: int, rounds: int, shoe: Shoe, cover: int | Cover | None) -> dict[str, Any]:
    """Metadata written at the top of files a simulation produces (known before it runs)."""
    meta: dict[str, Any] = {"mode": mode, "seed": seed, "rounds": rounds,
                            "decks": shoe.decks if shoe.decks is not None else "custom"}
    if mode == "shoe":
        meta["cover"] = cover
    return meta


def sim_meta(sim: Simulation) -> dict[str, Any]:
    """Metadata written at the top of files a simulation produces."""
    return run_meta(sim.mode, sim.seed, sim.rounds, sim.shoe, sim.cover)


def _face_bytes() -> npt.NDArray[np.uint8]:
    out = np.zeros((len(FACES), 3), dtype=np.uint8)
    for i, c in enumerate(FACES):
        b = str(c).encode("ascii")
        out[i, :len(b)] = np.frombuffer(b, dtype=np.uint8)
    return out


_FACE_BYTES: Final = _face_bytes()
"""Each face as up to 3 ASCII bytes (``10H``, ``KS``), 0-padded; 0 bytes are dropped."""


def _digits(numbers: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """Decimal digits of positive ``numbers``, one row each, leading zeros as 0 bytes."""
    width = len(str(int(numbers.max()))) if numbers.size else 1
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    out = (numbers[:, None] // powers % 10 + 48).astype(np.uint8)
    out[(numbers[:, None] < powers) & (powers > 1)] = 0
    return out


def log_header(meta: Mapping[str, Any] | None, shoe_column: bool) -> bytes:
    """The comment line (if ``meta``) and header row of a hand log."""
    text = _meta_line(meta) if meta else ""
    return (text + ",".join(LOG_COLUMNS + (("shoe",) if shoe_column else ())) + "\n").encode("ascii")


def render_log_chunk(log: HandLog) -> bytes:
    """A batch of simulated rounds as hand-log CSV lines (rounds numbered from
    ``log.first + 1``; shoes from 1), built with numpy: no Python loop over rounds."""
    n = log.codes.size
    if n == 0:
        return b""
    f = log.faces.astype(np.intp)
    code = log.codes.astype(np.int64)
    pdraw, bdraw = (code >> 1 & 1).astype(bool), (code & 1).astype(bool)
    fb = _FACE_BYTES

    def col(byte: int) -> npt.NDArray[np.uint8]:
        return np.full((n, 1), byte, dtype=np.uint8)

    def third(faces: npt.NDArray[np.intp], drew: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
        out = np.concatenate([col(32), fb[faces]], axis=1)
        out[~drew] = 0
        return out

    banker_third = np.where(pdraw, f[:, 5], f[:, 4])
    parts = [_digits(np.arange(log.first + 1, log.first + n + 1, dtype=np.int64)), col(44),
             fb[f[:, 0]], col(32), fb[f[:, 2]], third(f[:, 4], pdraw), col(44),
             fb[f[:, 1]], col(32), fb[f[:, 3]], third(banker_third, bdraw)]
    if log.shoe is not None:
        parts += [col(44), _digits(log.shoe.astype(np.int64) + 1)]
    parts.append(col(10))
    flat = np.concatenate(parts, axis=1).ravel()
    return bytes(flat[flat != 0].tobytes())


def render_log(log: HandLog, meta: Mapping[str, Any] | None = None) -> str:
    """A whole hand log as CSV text (rounds numbered from 1; shoes from 1 in shoe mode)."""
    return (log_header(meta, log.shoe is not None) + render_log_chunk(log)).decode("ascii")


def render_counts(families: Mapping[tuple[str, str], Mapping[str, int]],
                  meta: Mapping[str, Any] | None = None) -> str:
    """Outcome counts as CSV text, ``wager,paytable,outcome,count``.

    Every text cell goes through :func:`exactodds.report.views.spreadsheet_cell`, the one
    neutraliser of the project's CSVs: an outcome a wager file names ``=HYPERLINK(...)`` is
    written ``'=HYPERLINK(...)``, never run by a spreadsheet (issue 25); the reader
    (:func:`_read_counts`) takes the quote off again."""
    from exactodds.io.cells import spreadsheet_cell

    out = io.StringIO()
    if meta:
        out.write(_meta_line(meta))
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COUNT_COLUMNS)
    for (wager, table), counts in families.items():
        for outcome, n in counts.items():
            w.writerow([spreadsheet_cell(wager), spreadsheet_cell(table), spreadsheet_cell(outcome), n])
    return out.getvalue()


def _unneutralised(cell: str) -> str:
    """A cell :func:`exactodds.report.views.spreadsheet_cell` wrote, as it was: ``'=x`` is ``=x``
    (a name that itself starts with ``'`` and a formula character is read the same way, which
    is what a spreadsheet shows too)."""
    from exactodds.io.cells import FORMULA_START

    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_START) else cell


def wager_file_meta(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Metadata naming the wager files the simulated wagers come from (none for catalogue
    wagers): ``wager_files`` (their names, URL-quoted so that a space cannot split the comment
    token, ``;``-separated) and ``wager_files_sha256`` (each file's SHA-256, in the same order),
    so a counts file says which definitions its outcomes are of (issue 25)."""
    from urllib.parse import quote

    seen: dict[str, str] = {}
    for wager_id, _ in pairs:
        for d in getattr(get_wager(wager_id), "definitions", ()):
            seen.setdefault(str(d.get("sha256", "")), quote(str(d.get("file", "")), safe=""))
    if not seen:
        return {}
    return {"wager_files": ";".join(seen.values()), "wager_files_sha256": ";".join(seen)}


def families_from_sim(sim: Simulation, wager_tables: list[tuple[str, str]],
                      comparable_only: bool = False) -> dict[tuple[str, str], dict[str, int]]:
    """Outcome counts of a simulation per (wager, paytable)."""
    coups = sim.coup_counts(comparable_only)
    out = {}
    for wager_id, table_id in wager_tables:
        wager = get_wager(wager_id)
        out[(wager_id, table_id)] = outcome_counts(coups, wager, wager.paytable(table_id))
    return out

