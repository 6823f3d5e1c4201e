"""Hand logs and outcome-count files: the formats, telling them apart, and writing them.

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

Reading streams (:mod:`exactodds.simulation.textread`: blocks of :data:`BLOCK` bytes, no
line over :data:`MAX_LINE` bytes; :mod:`exactodds.simulation.logparse`: a hand log handed
out as :class:`LogChunk` arrays of at most :data:`CHUNK_ROUNDS` rounds, its cards in the
one card code of :mod:`exactodds.game.cardcode`), so memory stays bounded whatever the
file (a huge log, ``/dev/zero``, a FIFO); those names are importable from here. Writing
streams too: :func:`render_log_chunk` turns a
batch of simulated rounds into CSV bytes with numpy.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.catalogue import get_wager
from exactodds.errors import InputError
from exactodds.game.cards import FACES, Shoe
from exactodds.simulation.logparse import (
    CHUNK_ROUNDS,
    MAX_HAND_CARDS,
    LogChunk,
    LogFile,
    LoggedCard,
    LoggedRound,
    parse_logged_card,
)
from exactodds.simulation.simulate import Cover, HandLog, Simulation, outcome_counts
from exactodds.simulation.textread import (
    BLOCK,
    MAX_LINE,
    MAX_META_KEYS,
    MAX_META_TEXT,
    MAX_NUMBER,
    Lines,
    at_line,
    read_meta,
    split_cells,
    text_lines,
    whole_number,
)

LOG_COLUMNS: Final = ("round", "player", "banker")
LOG_OPTIONAL: Final = ("shoe",)
COUNT_COLUMNS: Final = ("wager", "paytable", "outcome", "count")


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
            raise InputError(f"{at_line(path, number)}: --columns {key}={value}: the file has no column {value!r} "
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
    lines = Lines(p)
    blocks = lines.blocks()
    header: tuple[int, list[str]] | None = None
    pending: tuple[int, bytes] | None = None
    try:
        for first, data in blocks:
            block = text_lines(data)
            for i, line in enumerate(block):
                text = line.strip()
                if not text:
                    continue
                if text.startswith("#"):
                    read_meta(text, meta)
                    continue
                header = first + i, split_cells(p, first + i, text)
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
    raise InputError(f"{at_line(p, number)}: unrecognised header {','.join(cells)[:80]!r} (expected "
                     f"'{','.join(LOG_COLUMNS)}' [with 'shoe'] or '{','.join(COUNT_COLUMNS)}')")


def _pending_rows(path: str, pending: tuple[int, bytes],
                  blocks: Iterator[tuple[int, bytes]]) -> Iterator[tuple[int, list[str]]]:
    def all_blocks() -> Iterator[tuple[int, bytes]]:
        yield pending
        yield from blocks
    for first, data in all_blocks():
        for i, line in enumerate(text_lines(data)):
            text = line.strip()
            if text and not text.startswith("#"):
                yield first + i, split_cells(path, first + i, text)


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
            count = whole_number(row[col["count"]], "count", 0)
            key = (wager.id, table.id, outcome)
            if key in seen:
                raise InputError(f"{wager.id},{table.id},{outcome} already appears on line {seen[key]}")
        except InputError as exc:
            raise InputError(f"{at_line(path, number)}: {exc}") from None
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


__all__ = ["BLOCK", "CHUNK_ROUNDS", "COUNT_COLUMNS", "LOG_COLUMNS", "LOG_OPTIONAL", "MAX_HAND_CARDS", "MAX_LINE",
           "MAX_META_KEYS", "MAX_META_TEXT", "MAX_NUMBER", "CountsFile", "LogChunk", "LogFile", "LoggedCard",
           "LoggedRound", "families_from_sim", "log_header", "parse_columns", "parse_logged_card", "read_file",
           "render_counts", "render_log", "render_log_chunk", "run_meta", "sim_meta", "wager_file_meta"]
