"""Reading a text file with bounded memory: blocks of whole lines, each checked to be
text, with line-numbered one-line errors; the comment metadata and number fields every
reader of the project's CSV inputs shares (hand logs and counts files,
:mod:`exactodds.simulation.handlog`; shuffler output, :mod:`exactodds.simulation.shufflecheck`).

A file is read in blocks of :data:`BLOCK` bytes and no line may exceed :data:`MAX_LINE`
bytes, so memory stays bounded whatever the file (a huge log, ``/dev/zero``, a FIFO).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from typing import BinaryIO, Final

import numpy as np

from exactodds.errors import InputError
from exactodds.io.progress import Progress

MAX_LINE: Final = 1 << 16
"""Longest line read (bytes): a hand-log line has well under 100; longer is not a log."""

BLOCK: Final = 1 << 20
"""Bytes read at a time."""

MAX_NUMBER: Final = 10**15
"""Largest round or shoe number accepted (keeps every number in an int64)."""

_BOM: Final = b"\xef\xbb\xbf"


# -- reading lines, bounded ------------------------------------------------------------------------
def at_line(path: str, line: int) -> str:
    return f"{path}, line {line}"


class Lines:
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
            where = at_line(self.path, first + data.count(b"\n", 0, nul))
            raise InputError(f"{where}: not text (a NUL byte): not a hand log or counts file")
        if data.isascii():  # the common case, without decoding
            return
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = at_line(self.path, first + data.count(b"\n", 0, exc.start))
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
        raise InputError(f"{at_line(self.path, number)}: line longer than {MAX_LINE:,} bytes: "
                         "not a hand log or counts file")


MAX_META_KEYS: Final = 256
"""Most distinct ``# key=value`` metadata keys kept from the comments before the header."""

MAX_META_TEXT: Final = 1 << 10
"""Longest metadata key or value kept (characters); longer ones are cut."""


def read_meta(comment: str, meta: dict[str, str]) -> None:
    """Keep the ``key=value`` tokens of a comment line in ``meta``, bounded in memory: at
    most :data:`MAX_META_KEYS` distinct keys besides those crosscheck reads (a later value
    of a kept key replaces the earlier one; further keys are not kept) and :data:`MAX_META_TEXT` characters
    per key and value, so a file of millions of distinct comments costs no memory."""
    for token in comment.lstrip("#").split():
        key, sep, value = token.partition("=")
        if sep and key:
            k = key.strip().lower()[:MAX_META_TEXT]
            if k in meta or k in READ_META or len(meta) < MAX_META_KEYS:
                meta[k] = value.strip()[:MAX_META_TEXT]


READ_META: Final = frozenset({"mode", "seed", "rounds", "decks", "cover", "subset"})
"""Metadata keys crosscheck reads: always kept, however many other keys come first."""


def split_cells(path: str, number: int, text: str) -> list[str]:
    if '"' in text:
        try:
            row = next(csv.reader([text]))
        except csv.Error as exc:
            raise InputError(f"{at_line(path, number)}: bad CSV ({exc})") from None
    else:
        row = text.split(",")  # the common case, without the csv module's cost
    return [cell.strip() for cell in row]


def text_lines(data: bytes) -> list[str]:
    """The lines of a block from :meth:`Lines.blocks` as text (already checked to be UTF-8)."""
    return data.decode("utf-8").split("\n")


def whole_number(text: str, what: str, minimum: int) -> int:
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
