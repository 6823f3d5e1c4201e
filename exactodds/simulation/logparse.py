"""Parsing hand-log rows into the one card code: :class:`LogFile` streams a hand log's
rounds as :class:`LogChunk` arrays (or :class:`LoggedRound` objects).

Each block of lines is parsed with numpy, no Python loop over lines (:func:`_parse_block`);
a block it does not accept (anything unusual: a bad line, quotes, other whitespace) is
read line by line (:meth:`LogFile._read_lines`), which names the bad line. Chunks hold at
most :data:`CHUNK_ROUNDS` rounds and are checked for order (:class:`_Order`) as they are
cut. Cards are codes of :mod:`exactodds.game.cardcode` (a face index, ``ABSENT`` past a
hand's end, the ``RANK_ONLY`` flag on a card logged without a suit). The format itself
(columns, header, counts files, writing) is :mod:`exactodds.simulation.handlog`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from exactodds.errors import InputError
from exactodds.game.cardcode import ABSENT, CODE_RANK, CODE_SUIT, RANK_ONLY, VALID, code_text, parse_code
from exactodds.game.cards import POINT_VALUE, RANKS, SUITS
from exactodds.io.progress import Progress
from exactodds.simulation.textread import Lines, at_line, split_cells, text_lines, whole_number

MAX_HAND_CARDS: Final = 10
"""More cards than this in one hand is not a log of baccarat at all: an input error."""

CHUNK_ROUNDS: Final = 1 << 16
"""Most rounds in one :class:`LogChunk`."""


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

    ``player`` and ``banker`` are ``(rounds, 3)`` card codes (:mod:`exactodds.game.cardcode`;
    :data:`~exactodds.game.cardcode.ABSENT` past the hand's end), ``player_cards`` and ``banker_cards`` the
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


# -- cards (one code: :mod:`exactodds.game.cardcode`) -------------------------------------------------
def parse_logged_card(text: str) -> LoggedCard:
    """Read ``KS``, ``10h``, ``T``, ``9`` ...; the suit is optional."""
    code = parse_code(text)
    return LoggedCard(RANKS[int(CODE_RANK[code])], None if rank_only_code(code) else SUITS[int(CODE_SUIT[code])])


def rank_only_code(code: int) -> bool:
    """Whether the card ``code`` was logged without a suit."""
    return bool(code & RANK_ONLY)


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
    codes = [parse_code(t) for t in tokens][:3] + [ABSENT] * 3
    packed = len(tokens) | codes[0] << 4 | codes[1] << 11 | codes[2] << 18
    if len(_HAND_CACHE) < _HAND_CACHE_SIZE:
        _HAND_CACHE[text] = packed
    return packed


_HAND_CACHE: dict[str, int] = {}
_HAND_CACHE_SIZE: Final = 1 << 18


def _unpack(packed: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    cards = np.stack([packed >> 4 & 127, packed >> 11 & 127, packed >> 18 & 127], axis=1).astype(np.int16)
    return cards, (packed & 15).astype(np.int16)


# -- files -------------------------------------------------------------------------------------
class LogFile:
    """A hand log being read: its header, the metadata of the comments before it, and its
    rounds, read once, as :meth:`chunks` (arrays) or :meth:`rounds` (objects)."""

    def __init__(self, path: str, columns: list[str], meta: dict[str, str], lines: Lines,
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

        for i, text in enumerate(text_lines(data)):
            number = first + i
            if not text or text[0] == "#" or text.isspace():
                continue
            if text[0] in " \t" or text[-1] in " \t\r":
                text = text.strip()
                if not text or text[0] == "#":
                    continue
            try:
                row = text.split(",") if '"' not in text else split_cells(path, number, text)
                if len(row) != width:
                    raise InputError(f"expected {width} fields ({','.join(self.columns)}), got {len(row)}")
                cell = row[ri]
                rnd = int(cell) if cell.isdigit() and cell.isascii() and len(cell) < 16 else \
                    whole_number(cell, "round number", 1)
                if rnd < 1:
                    raise InputError(f"round number must be at least 1, got {rnd}")
                if si is not None:
                    cell = row[si]
                    shoes.append(int(cell) if cell.isdigit() and cell.isascii() and len(cell) < 16 else
                                 whole_number(cell, "shoe number", 0))
                ph = hand_cache.get(row[pi])
                if ph is None:
                    ph = _hand(row[pi].strip(), "player")
                bh = hand_cache.get(row[bi])
                if bh is None:
                    bh = _hand(row[bi].strip(), "banker")
            except InputError as exc:
                raise InputError(f"{at_line(path, number)}: {exc}") from None
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
        cards = {c: parse_logged_card(code_text(c)) for c in VALID}
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
                raise InputError(f"{at_line(self.path, int(all_line[j]))}: shoe {int(all_shoe[j])} comes after shoe "
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
                raise InputError(f"{at_line(self.path, int(all_line[j]))}: round {r} already appears on line "
                                 f"{int(all_line[j - 1])}{' of the same shoe' if self.shoes else ''}")
            raise InputError(f"{at_line(self.path, int(all_line[j]))}: round {r} comes after round {q} "
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
    :data:`_BASE` (-1: not a card). Built once from :func:`~exactodds.game.cardcode.parse_code` itself, so the two
    readings agree by construction."""
    table = np.full(_BASE ** 3, -1, dtype=np.int16)
    letters = _TOKEN_BYTES
    for length in (1, 2, 3):
        for chars in itertools.product(letters, repeat=length):
            try:
                code = parse_code("".join(chars))
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
        value = _whole_field(buf, ts[field == f], tlen[field == f], rows)
        if value is None:
            return None
        values.append(value)
    if rows and int(values[0].min()) < 1:
        return None
    hand = (field == pi) | (field == bi)
    cards = _hand_cards(buf, ts[hand], tlen[hand], trow[hand], field[hand], pos[hand], (pi, bi), rows)
    if cards is None:
        return None
    line = first + np.flatnonzero(row)
    return _Batch(line.astype(np.int64), values[0], values[1] if si is not None else None, cards[0], cards[1],
                  count[:, pi].astype(np.int16), count[:, bi].astype(np.int16))


def _whole_field(buf: npt.NDArray[np.uint8], start: npt.NDArray[np.int64], length: npt.NDArray[np.int64],
                 rows: int) -> npt.NDArray[np.int64] | None:
    """The whole number of one field in every row (its token's bytes at ``start``, ``length``
    long); ``None`` when a token is not all digits or has more than 15."""
    digits = 0 if rows == 0 else int(length.max())
    if digits > 15:
        return None
    value = np.zeros(rows, dtype=np.int64)
    for k in range(digits):
        more = k < length
        d = buf[np.minimum(start + k, buf.size - 1)].astype(np.int64) - 48
        if ((d < 0) | (d > 9))[more].any():
            return None
        value = np.where(more, value * 10 + d, value)
    return value


def _hand_cards(buf: npt.NDArray[np.uint8], hs: npt.NDArray[np.int64], hl: npt.NDArray[np.int64],
                hrow: npt.NDArray[np.int64], hfield: npt.NDArray[np.int64], hpos: npt.NDArray[np.int64],
                fields: tuple[int, int], rows: int) -> list[npt.NDArray[np.int16]] | None:
    """The first three card codes of each hand field (``fields``: Player's, Banker's) of every
    row, :data:`~exactodds.game.cardcode.ABSENT` past a hand's end, from the hand tokens
    (start, length, row, field, index in the field); ``None`` when a token is not a card."""
    size = buf.size
    key = _CHAR[buf[hs]] * _BASE ** 2
    key += np.where(hl > 1, _CHAR[buf[np.minimum(hs + 1, size - 1)]], 0) * _BASE
    key += np.where(hl > 2, _CHAR[buf[np.minimum(hs + 2, size - 1)]], 0)
    codes = np.where(hl > 3, -1, _token_codes()[key])
    if (codes < 0).any():
        return None
    cards = []
    for f in fields:
        out = np.full((rows, 3), ABSENT, dtype=np.int16)
        at = (hfield == f) & (hpos < 3)
        out[hrow[at], hpos[at]] = codes[at]
        cards.append(out)
    return cards
