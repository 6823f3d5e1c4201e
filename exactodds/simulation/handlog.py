"""Hand logs and outcome-count files: reading (with line-numbered errors) and writing.

Two CSV formats, told apart by their header row (see ``docs/simulator.md``):

* **hand log** -- ``round,player,banker`` and optionally ``shoe``: one round a line,
  each hand its cards in the order dealt, separated by spaces, e.g. ``KS 9H`` and
  ``4D 2C 7S``. A card is a rank (``A``, ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``,
  ``K``) and optionally a suit (``S``, ``H``, ``D``, ``C``). ``shoe`` numbers the shoe
  a round was dealt from, for logs dealt through the shoe (§ 629a.5, § 629a.9(d)).
* **counts** -- ``wager,paytable,outcome,count``: rounds per outcome of a wager under a
  paytable, outcome names as ``exactodds analyze`` prints them.

Lines starting with ``#`` are comments; ``# key=value`` pairs in them (``decks``,
``cover``, ``mode``, ...) are kept as metadata. Blank lines are skipped. Every error
is one :class:`~exactodds.errors.InputError` naming the file and line.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from exactodds.game.cards import FACES, POINT_VALUE, RANKS, SUITS
from exactodds.catalogue import get_wager
from exactodds.errors import InputError
from exactodds.simulation.simulate import HandLog, Simulation, outcome_counts

LOG_COLUMNS: Final = ("round", "player", "banker")
LOG_OPTIONAL: Final = ("shoe",)
COUNT_COLUMNS: Final = ("wager", "paytable", "outcome", "count")
MAX_HAND_CARDS: Final = 10
"""More cards than this in one hand is not a log of baccarat at all: an input error."""


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
    """One line of a hand log."""

    line: int
    round: int
    player: tuple[LoggedCard, ...]
    banker: tuple[LoggedCard, ...]
    shoe: int | None = None


@dataclass
class LogFile:
    """A parsed hand log: its rounds in file order and the metadata of its comments."""

    path: str
    rounds: list[LoggedRound]
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def has_shoes(self) -> bool:
        """Whether rounds carry a shoe number (dealt through the shoe)."""
        return any(r.shoe is not None for r in self.rounds)


@dataclass
class CountsFile:
    """A parsed counts file: ``families[(wager, paytable)][outcome] = count``."""

    path: str
    families: dict[tuple[str, str], dict[str, int]]
    meta: dict[str, str] = field(default_factory=dict)


# -- reading ----------------------------------------------------------------------------
def _where(path: str, line: int) -> str:
    return f"{path}, line {line}"


def parse_logged_card(text: str) -> LoggedCard:
    """Read ``KS``, ``10h``, ``T``, ``9`` ...; the suit is optional."""
    card = _CARD_CACHE.get(text)
    if card is None:
        card = _CARD_CACHE[text] = _parse_logged_card(text)
    return card


_CARD_CACHE: dict[str, LoggedCard] = {}


def _parse_logged_card(text: str) -> LoggedCard:
    t = text.strip().upper()
    suit: str | None = None
    if len(t) >= 2 and t[-1] in SUITS:
        t, suit = t[:-1], t[-1]
    rank = "10" if t == "T" else t
    if rank not in RANKS:
        raise InputError(f"unknown card {text!r} (expected a rank A, 2-9, T or 10, J, Q, K "
                         "and optionally a suit S, H, D, C)")
    return LoggedCard(rank, suit)


def _cards(text: str, what: str) -> tuple[LoggedCard, ...]:
    hand = _HAND_CACHE.get(text)
    if hand is not None:
        return hand
    tokens = text.split()
    if not tokens:
        raise InputError(f"the {what} hand is empty")
    if len(tokens) > MAX_HAND_CARDS:
        raise InputError(f"the {what} hand has {len(tokens)} cards")
    hand = tuple(parse_logged_card(t) for t in tokens)
    if len(_HAND_CACHE) < _HAND_CACHE_SIZE:
        _HAND_CACHE[text] = hand
    return hand


_HAND_CACHE: dict[str, tuple[LoggedCard, ...]] = {}
_HAND_CACHE_SIZE: Final = 1 << 18


def _whole(text: str, what: str, minimum: int) -> int:
    t = text.strip()
    try:
        if not t.isascii():
            raise ValueError
        n = int(t)
    except ValueError:
        raise InputError(f"{what} {text!r} is not a whole number") from None
    if n < minimum:
        raise InputError(f"{what} must be at least {minimum}, got {n}")
    return n


def _lines(path: str) -> Iterator[tuple[int, str]]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            for number, line in enumerate(fh, start=1):
                yield number, line
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None


def _meta(comment: str, meta: dict[str, str]) -> None:
    for token in comment.lstrip("#").split():
        key, sep, value = token.partition("=")
        if sep and key:
            meta[key.strip().lower()] = value.strip()


def _rows(path: str, meta: dict[str, str]) -> Iterator[tuple[int, list[str]]]:
    """Non-blank, non-comment CSV rows with their line numbers."""
    for number, line in _lines(path):
        text = line.strip()
        if not text:
            continue
        if text.startswith("#"):
            _meta(text, meta)
            continue
        if '"' in text:
            try:
                row = next(csv.reader([text]))
            except csv.Error as exc:
                raise InputError(f"{_where(path, number)}: bad CSV ({exc})") from None
        else:
            row = text.split(",")  # the common case, without the csv module's cost
        yield number, [cell.strip() for cell in row]


def read_file(path: str | os.PathLike[str]) -> LogFile | CountsFile:
    """Read a hand log or a counts file, telling them apart by the header row."""
    p = str(path)
    meta: dict[str, str] = {}
    rows = _rows(p, meta)
    first = next(rows, None)
    if first is None:
        raise InputError(f"{p}: the file is empty (expected a header row "
                         f"'{','.join(LOG_COLUMNS)}' or '{','.join(COUNT_COLUMNS)}')")
    number, header = first
    names = [h.lower() for h in header]
    if set(names) == set(COUNT_COLUMNS) and len(names) == len(COUNT_COLUMNS):
        return _read_counts(p, names, rows, meta)
    if set(LOG_COLUMNS) <= set(names) and set(names) <= set(LOG_COLUMNS + LOG_OPTIONAL) \
            and len(set(names)) == len(names):
        return _read_log(p, names, rows, meta)
    raise InputError(f"{_where(p, number)}: unrecognised header {','.join(header)!r} (expected "
                     f"'{','.join(LOG_COLUMNS)}' [with 'shoe'] or '{','.join(COUNT_COLUMNS)}')")


def _read_log(path: str, names: list[str], rows: Iterator[tuple[int, list[str]]],
              meta: dict[str, str]) -> LogFile:
    col = {n: i for i, n in enumerate(names)}
    out: list[LoggedRound] = []
    seen: dict[int, int] = {}
    for number, row in rows:
        try:
            if len(row) != len(names):
                raise InputError(f"expected {len(names)} fields ({','.join(names)}), got {len(row)}")
            rnd = _whole(row[col["round"]], "round number", 1)
            if rnd in seen:
                raise InputError(f"round {rnd} already appears on line {seen[rnd]}")
            shoe = _whole(row[col["shoe"]], "shoe number", 0) if "shoe" in col else None
            player = _cards(row[col["player"]], "player")
            banker = _cards(row[col["banker"]], "banker")
        except InputError as exc:
            raise InputError(f"{_where(path, number)}: {exc}") from None
        seen[rnd] = number
        out.append(LoggedRound(number, rnd, player, banker, shoe))
    if not out:
        raise InputError(f"{path}: the hand log has a header but no rounds")
    return LogFile(path, out, meta)


def _read_counts(path: str, names: list[str], rows: Iterator[tuple[int, list[str]]],
                 meta: dict[str, str]) -> CountsFile:
    col = {n: i for i, n in enumerate(names)}
    families: dict[tuple[str, str], dict[str, int]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for number, row in rows:
        try:
            if len(row) != len(names):
                raise InputError(f"expected {len(names)} fields ({','.join(names)}), got {len(row)}")
            wager = get_wager(row[col["wager"]])
            table = wager.paytable(row[col["paytable"]] or None)
            outcome = row[col["outcome"]]
            known = wager.outcome_names(table)
            if outcome not in known:
                raise InputError(f"{outcome!r} is not an outcome of {wager.id} ({table.id}); "
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
_FACE_TEXT: Final = [str(c) for c in FACES]


def _meta_line(meta: Mapping[str, Any]) -> str:
    return "# exactodds " + " ".join(f"{k}={v}" for k, v in meta.items()) + "\n"


def sim_meta(sim: Simulation) -> dict[str, Any]:
    """Metadata written at the top of files a simulation produces."""
    meta: dict[str, Any] = {"mode": sim.mode, "seed": sim.seed, "rounds": sim.rounds,
                            "decks": sim.shoe.decks if sim.shoe.decks is not None else "custom"}
    if sim.mode == "shoe":
        meta["cover"] = sim.cover
    return meta


def render_log(log: HandLog, meta: Mapping[str, Any] | None = None) -> str:
    """A hand log as CSV text (rounds numbered from 1; shoes from 1 in shoe mode)."""
    out = io.StringIO()
    if meta:
        out.write(_meta_line(meta))
    shoe = log.shoe
    out.write(",".join(LOG_COLUMNS + (("shoe",) if shoe is not None else ())) + "\n")
    faces = log.faces.tolist()
    codes = log.codes.tolist()
    shoes = (shoe + 1).tolist() if shoe is not None else None
    t = _FACE_TEXT
    for i, (f, code) in enumerate(zip(faces, codes)):
        pdraw, bdraw = code >> 1 & 1, code & 1
        player = f"{t[f[0]]} {t[f[2]]}" + (f" {t[f[4]]}" if pdraw else "")
        banker = f"{t[f[1]]} {t[f[3]]}" + ((f" {t[f[5]]}" if pdraw else f" {t[f[4]]}") if bdraw else "")
        out.write(f"{i + 1},{player},{banker}" + (f",{shoes[i]}\n" if shoes is not None else "\n"))
    return out.getvalue()


def render_counts(families: Mapping[tuple[str, str], Mapping[str, int]],
                  meta: Mapping[str, Any] | None = None) -> str:
    """Outcome counts as CSV text, ``wager,paytable,outcome,count``."""
    out = io.StringIO()
    if meta:
        out.write(_meta_line(meta))
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COUNT_COLUMNS)
    for (wager, table), counts in families.items():
        for outcome, n in counts.items():
            w.writerow([wager, table, outcome, n])
    return out.getvalue()


def families_from_sim(sim: Simulation, wager_tables: list[tuple[str, str]],
                      comparable_only: bool = False) -> dict[tuple[str, str], dict[str, int]]:
    """Outcome counts of a simulation per (wager, paytable)."""
    coups = sim.coup_counts(comparable_only)
    out = {}
    for wager_id, table_id in wager_tables:
        wager = get_wager(wager_id)
        out[(wager_id, table_id)] = outcome_counts(coups, wager, wager.paytable(table_id))
    return out

