"""The one format dispatch: a figure's *view* turned into table, Markdown, CSV or JSON text.

Every figure offers a :class:`View`: its JSON-ready document (``*_json``), optionally the
rows of its CSV (header first), and its text as a sequence of blocks -- plain lines,
:class:`Heading`, :class:`Table`, :class:`Pairs`, :class:`Bullet` or a per-format
:class:`Choice`. :func:`render_view` is the only place that chooses a tabulate style,
writes CSV or serialises JSON, so every command formats the same way.

The view's parts are thunks: only the asked-for format is computed.

>>> v = View(lambda: {"x": 1}, lambda: [Heading("Figures", 2), "", Table(["a", "b"], [["1", "2"]])],
...          lambda: [["a", "b"], [1, 2]])
>>> print(render_view(v, "markdown"), end="")
## Figures
<BLANKLINE>
| a   | b   |
|-----|-----|
| 1   | 2   |
>>> print(render_view(v, "table"), end="")
Figures
<BLANKLINE>
a    b
---  ---
1    2
>>> render_view(v, "csv")
'a,b\\n1,2\\n'
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from tabulate import tabulate

from exactodds.errors import InputError
from exactodds.io.cells import spreadsheet_cell

TEXT_FORMATS: Final = ("table", "markdown")


@dataclass(frozen=True)
class Heading:
    """A title: ``#`` × ``level`` before it in Markdown, bare in a table (``level`` 0: bare in both)."""

    text: str
    level: int = 0


@dataclass(frozen=True)
class Table:
    """A table: GitHub-style in Markdown, tabulate's ``simple`` in a table, or -- ``plain`` --
    tabulate's ``plain`` without headers in a table (summary figures beside a title)."""

    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]
    colalign: tuple[str, ...] | None = None
    plain: bool = False
    wrap: tuple[int | None, ...] | None = None
    """Table format only: the widest each column (and its header) may be, its text wrapped onto
    more lines (so a wide table fits 100 columns); Markdown keeps one line per row."""
    whole_words: bool = False
    """With ``wrap``: never break a word (a number) longer than its column; the column widens
    for it instead."""
    break_ids: bool = False
    """With ``wrap``: an identifier longer than its column may break after its hyphens (never
    inside a part) -- only for a table that cannot fit 100 columns otherwise (crosscheck's nine
    columns beside a 37-character Rising Phoenix id; the ids are whole in its JSON and CSV); by
    default an id is never broken (issue 25)."""


@dataclass(frozen=True)
class Pairs:
    """Key/value summary lines: a plain two-column table, or ``- **key**: value`` in Markdown."""

    pairs: Sequence[tuple[str, str]]


@dataclass(frozen=True)
class Bullet:
    """One list item: ``- text`` in Markdown, the bare text in a table."""

    text: str


@dataclass(frozen=True)
class Choice:
    """A line that differs by format; ``None`` leaves it out of that format."""

    table: str | None = None
    markdown: str | None = None


Block = str | Heading | Table | Pairs | Bullet | Choice


@dataclass(frozen=True)
class View:
    """What a figure offers for output: its JSON document, its text blocks and, if it has
    a spreadsheet form, its CSV rows (header first)."""

    doc: Callable[[], Any]
    text: Callable[[], Sequence[Block]]
    csv: Callable[[], Sequence[Sequence[Any]]] | None = None
    json_decimals: bool = True
    """JSON puts ``KEY_decimal`` beside each exact member (:func:`json_with_decimals`); off for a
    document whose bytes are fingerprinted as they are (the certification report)."""


def render_json(doc: Any, decimals: bool = True) -> str:
    """JSON text: two-space indent, non-ASCII kept (e.g. ``§``), one trailing newline, and
    (``decimals``) a ``KEY_decimal`` beside every exact ``"p/q"`` member (:func:`json_with_decimals`)."""
    return json.dumps(json_with_decimals(doc) if decimals else doc, indent=2, ensure_ascii=False) + "\n"


def json_with_decimals(doc: Any) -> Any:
    """``doc`` with ``KEY_decimal`` (15 significant digits, from the exact value by integer
    rounding) after every object member ``KEY`` whose value is an exact ``"p/q"`` string and
    that has no such sibling yet: whoever reads the JSON -- a person, a spreadsheet import, a
    script -- has a number beside each exact value, which itself stays untouched.

    >>> json_with_decimals({"return": "-1/3", "count": 3, "rows": [{"pays": "19/20"}]})
    {'return': '-1/3', 'return_decimal': '-0.333333333333333', 'count': 3, 'rows': [{'pays': '19/20', 'pays_decimal': '0.950000000000000'}]}
    >>> json_with_decimals({"x": "1/3", "x_decimal": "given"})
    {'x': '1/3', 'x_decimal': 'given'}
    """
    if isinstance(doc, list):
        return [json_with_decimals(v) for v in doc]
    if not isinstance(doc, dict):
        return doc
    from exactodds.exact import significant

    out: dict[Any, Any] = {}
    for k, v in doc.items():
        out[k] = json_with_decimals(v)
        if (isinstance(k, str) and isinstance(v, str) and _FRACTION.fullmatch(v)
                and f"{k}_decimal" not in doc):
            out[f"{k}_decimal"] = significant(Fraction(v), 15)
    return out


_FRACTION = re.compile(r"-?\d+/0*[1-9]\d*")


def with_decimals(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """CSV rows (header first) with a ``NAME_decimal`` column (15 significant digits, exact
    integer rounding) after every column ``NAME`` whose cells are all exact ``p/q`` values and
    that has none yet: a spreadsheet reads a number beside every exact value.

    >>> with_decimals([["x", "n"], ["1/3", 2], ["", 3]])
    [['x', 'x_decimal', 'n'], ['1/3', '0.333333333333333', 2], ['', '', 3]]
    >>> with_decimals([["x", "x_decimal"], ["1/3", "0.333333333333333"]])[0]
    ['x', 'x_decimal']
    """
    if not rows:
        return []
    header, body = list(rows[0]), [list(r) for r in rows[1:]]
    if not body or any(len(r) != len(header) for r in body):
        return [header, *body]
    add = [i for i, name in enumerate(header)
           if f"{name}_decimal" not in header
           and any(isinstance(r[i], str) and r[i] for r in body)
           and all(r[i] in ("", None) or (isinstance(r[i], str) and _FRACTION.fullmatch(r[i])) for r in body)]
    if not add:
        return [header, *body]
    from exactodds.report.spreadsheet import decimal_cell

    def widen(row: list[Any], cell: Any) -> list[Any]:
        out: list[Any] = []
        for i, c in enumerate(row):
            out.append(c)
            if i in add:
                out.append(cell(c))
        return out

    return [widen(header, lambda name: f"{name}_decimal"),
            *(widen(r, lambda c: decimal_cell(Fraction(c)) if c else "") for r in body)]


def render_csv_rows(rows: Sequence[Sequence[Any]]) -> str:
    """CSV text with ``\\n`` line ends: a decimal beside every exact column (:func:`with_decimals`),
    every cell through :func:`spreadsheet_cell`."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([spreadsheet_cell(c) for c in row] for row in with_decimals(rows))
    return out.getvalue()


def sections_csv(sections: Sequence[tuple[str, Sequence[str], Sequence[Sequence[Any]]]]) -> list[list[Any]]:
    """Several tables of one result as ONE CSV table with one header: a ``table`` column naming
    each row's part (``summary`` for the headline figures, ``outcome``, ...), then every part's
    columns in the order they first appear -- one concept per column, a column shared by parts
    that hold the same concept -- each row filling its own (the certificate CSV's convention).

    >>> sections_csv([("summary", ["return"], [["-1/8"]]), ("outcome", ["name", "return"], [["win", "1/2"]])])
    [['table', 'return', 'name'], ['summary', '-1/8', ''], ['outcome', '1/2', 'win']]
    """
    columns: list[str] = []
    for _, names, _ in sections:
        columns += [n for n in names if n not in columns]
    out: list[list[Any]] = [["table", *columns]]
    for part, names, body in sections:
        where = [columns.index(n) for n in names]
        for row in body:
            cells: list[Any] = [""] * len(columns)
            for i, c in zip(where, row):
                cells[i] = c
            out.append([part, *cells])
    return out


LONG_FRACTION: Final = 20
"""An exact ``p/q`` longer than this many characters is shown to a person as its decimal only."""

_LONG = re.compile(r"(?<![\w./])-?\d+/0*[1-9]\d*(?![\w/])")
_AFTER_PERCENT = re.compile(r"%\s*\(\s*$")
"""The end of ``… %  (``: a ``p/q`` that follows is the exact value of the percent before it."""


def terminating(x: Fraction, digits: int = 15) -> str | None:
    """``x`` written exactly as a plain decimal of at most ``digits`` significant digits, or
    ``None`` when it has none (its denominator has a prime other than 2 and 5, or it needs more).

    >>> terminating(Fraction(151, 5)), terminating(Fraction(41)), terminating(Fraction(-1, 3))
    ('30.2', '41', None)
    """
    from exactodds.exact import decimal

    d, places = x.denominator, 0
    while d % 10 == 0:
        d //= 10
        places += 1
    while d % 2 == 0 or d % 5 == 0:  # x·10^k is an integer for the k that clears every 2 and 5
        d //= 2 if d % 2 == 0 else 5
        places += 1
    if d != 1:
        return None
    text = decimal(x, places)
    if len(text.lstrip("-").replace(".", "").lstrip("0")) > digits:
        return None
    return text


def human(text: str) -> str:
    """Text for a person: no exact ``p/q`` without a decimal (issue 25: a raw fraction is never
    shown alone). A ``p/q`` longer than :data:`LONG_FRACTION` characters becomes its decimal (15
    significant digits, exact integer rounding); a short one followed by ``(`` or ``=`` (its
    percent or decimal written beside it) stays; another short one that a decimal writes
    exactly (``151/5``, ``41/1``, ``16671667/10000``) becomes that decimal, else its decimal
    with the ``p/q`` beside it. A short one in parentheses after a percent (``-7.4699%  (-31/415)``)
    stays too: the percent is its decimal. The exact ``p/q`` is always in the JSON and CSV.

    >>> human("Return: -114753351728/10847218479825 (-1.0579%); pays 30/1, rides 151/5, 1/3")
    'Return: -0.0105790578424720 (-1.0579%); pays 30, rides 30.2, 0.333333333333333 (1/3)'
    >>> human("-4231007/11826255  (-35.776389%), 1/8 = 0.125")
    '-4231007/11826255  (-35.776389%), 1/8 = 0.125'
    >>> human("-7.4699%  (-31/415)")
    '-7.4699%  (-31/415)'
    """
    def shorten(m: re.Match[str]) -> str:
        from exactodds.report.spreadsheet import decimal_cell

        x, short = Fraction(m.group(0)), len(m.group(0)) <= LONG_FRACTION
        if short and (m.string[m.end():].lstrip(" ").startswith(("(", "="))
                      or _AFTER_PERCENT.search(m.string, max(0, m.start() - 8), m.start()) is not None):
            return m.group(0)  # its decimal or percent is written beside it already
        exact = terminating(x)
        if exact is not None:
            return exact
        return f"{decimal_cell(x)} ({m.group(0)})" if short else decimal_cell(x)

    return _LONG.sub(shorten, text)


def _human_cell(value: Any) -> Any:
    return human(value) if isinstance(value, str) else value


def markdown_text(text: str) -> str:
    """Text safe in Markdown: ``& < >`` as HTML entities, so a wager or outcome name such as
    ``<script>`` is shown, never run, by a Markdown renderer.

    >>> markdown_text("<script>alert(1)</script> & co")
    '&lt;script&gt;alert(1)&lt;/script&gt; &amp; co'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _markdown_cell(value: Any) -> Any:
    """A table cell safe in a GitHub table: escaped as :func:`markdown_text`, ``|`` escaped."""
    return markdown_text(value).replace("|", "\\|") if isinstance(value, str) else value


def render_table(t: Table, markdown: bool) -> str:
    """One table; numbers are never re-parsed (cells are display strings already)."""
    extra: dict[str, Any] = {} if t.colalign is None else {"colalign": t.colalign}
    if t.plain and not markdown:
        return tabulate([[_human_cell(c) for c in row] for row in t.rows], tablefmt="plain", disable_numparse=True,
                        **extra)
    headers, rows = list(t.headers), [[_human_cell(c) for c in row] for row in t.rows]
    if markdown:
        headers = [_markdown_cell(h) for h in headers]
        rows = [[_markdown_cell(c) for c in row] for row in rows]
    elif t.wrap is not None:
        # a header is wrapped 2 narrower: tabulate pads each header by 2, so the column is
        # then as wide as its widest cell, never wider
        headers = _wrapped(headers, [None if w is None else max(w - 2, 1) for w in t.wrap], whole_words=True)
        rows = [_wrapped(r, t.wrap, t.whole_words, t.break_ids) for r in rows]
    return tabulate(rows, headers=headers, tablefmt="github" if markdown else "simple",
                    disable_numparse=True, **extra)


def _wrapped(cells: Sequence[Any], widths: Sequence[int | None], whole_words: bool = False,
             break_ids: bool = False) -> list[Any]:
    """Each text cell wider than its column's width broken onto lines at spaces, so a table
    fits its width. An identifier (letters and digits joined by ``-``, ``:`` or ``_``, such as
    ``three-card-6-over-three-card-3`` or ``dragon-7:40to1``) is never broken, nor is any word
    of a cell holding one too long for its column (issue 25: a wrapped id cannot be copied back);
    the column widens for it instead. Another word longer than the width (a citation such as
    ``631b.8(g)(4)(xix),(h)(2)``) is broken too, unless ``whole_words``. Done here rather than by
    tabulate's ``maxcolwidths``, which re-reads cells as numbers (``2,480`` fails). With
    ``break_ids`` (and ``whole_words``) a long identifier breaks after its hyphens instead.

    >>> _wrapped(["-30.1162% to 13.2495%", "ok", 5, "Rising Phoenix three-card-6-over-three-card-3"], [13, None, 3, 18])
    ['-30.1162% to\\n13.2495%', 'ok', 5, 'Rising Phoenix\\nthree-card-6-over-three-card-3']
    >>> _wrapped(["§ 631b.8(g)(4)(xix),(h)(2)"], [12])
    ['§ 631b.8(g)(\\n4)(xix),(h)(\\n2)']
    """
    import textwrap

    def whole(cell: str, width: int) -> bool:
        return whole_words or any(len(word) > width and _IDENTIFIER.fullmatch(word) for word in cell.split())

    return [("\n".join(textwrap.wrap(c, w, break_on_hyphens=break_ids, break_long_words=not whole(c, w))) or c)
            if isinstance(c, str) and w is not None and len(c) > w else c
            for c, w in zip(cells, [*widths, *[None] * (len(cells) - len(widths))])]


_IDENTIFIER = re.compile(r"[A-Za-z0-9]+(?:[-:_.][A-Za-z0-9]+)*[-:_][A-Za-z0-9]+(?:[-:_.][A-Za-z0-9]+)*")
"""A wager, paytable or outcome id as typed: letters and digits joined by ``-``, ``:`` or ``_``."""


def render_block(b: Block, markdown: bool) -> str | None:
    """One block as text (long fractions as decimals, :func:`human`), or ``None`` when it is
    not part of this format."""
    if isinstance(b, Table):
        return render_table(b, markdown)
    text = _render_block(b, markdown)
    return None if text is None else human(text)


def _render_block(b: Block, markdown: bool) -> str | None:
    if isinstance(b, str):
        return markdown_text(b) if markdown else b
    if isinstance(b, Heading):
        return f"{'#' * b.level} {markdown_text(b.text)}" if markdown and b.level else \
            markdown_text(b.text) if markdown else b.text
    if isinstance(b, Table):
        return render_table(b, markdown)
    if isinstance(b, Pairs):
        if markdown:
            return "\n".join(f"- **{markdown_text(k)}**: {markdown_text(v)}" for k, v in b.pairs)
        return tabulate(b.pairs, tablefmt="plain", disable_numparse=True)
    if isinstance(b, Bullet):
        return f"- {markdown_text(b.text)}" if markdown else b.text
    if markdown:
        return None if b.markdown is None else markdown_text(b.markdown)
    return b.table


def render_blocks(blocks: Sequence[Block], markdown: bool) -> str:
    """Blocks one per line (left-out blocks take no line), with one trailing newline."""
    return "\n".join(t for t in (render_block(b, markdown) for b in blocks) if t is not None) + "\n"


ENDINGS: Final = {"table": ".txt", "json": ".json", "csv": ".csv", "markdown": ".md", "html": ".html",
                   "xlsx": ".xlsx", "pdf": ".pdf"}
"""The file name ending of each output format (``--formats`` with ``-o STEM`` names its files so)."""
FORMAT_OF_ENDING: Final = {**{v: k for k, v in ENDINGS.items()}, ".htm": "html", ".markdown": "markdown"}
"""The format a file name ending names: the one rule by which ``-o FILE`` picks, or checks, the
format on every command (:func:`output_format`)."""


def _names_a_file(path: str) -> bool:
    """Whether ``path`` is (or would be) a regular file, whose name's ending says what it holds:
    not ``-``, not a stream of this process (``/dev/stdout``), not a device or FIFO."""
    import os
    import stat

    from exactodds.io.files import STDOUT, stream_fd

    if path == STDOUT or stream_fd(path) is not None:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return True  # a new file (or one that cannot be written: writing says why)


def output_format(given: str | None, path: str | None, offered: Sequence[str], default: str,
                  command: str = "this command") -> str:
    """The format ``command`` writes to ``path`` (None or ``-``: standard output): ``given``
    (``-f``), else the format the file's ending names, else ``default``.

    A regular file's ending must name a format the command offers, and agree with ``-f`` when
    both are given; anything else is one :class:`InputError` (nothing is written). A name with
    no ending, ``-``, a device or a FIFO takes ``-f`` or the default.

    >>> output_format(None, "b.json", ("table", "json"), "table"), output_format("json", None, ("json",), "json")
    ('json', 'json')
    >>> output_format(None, "c.docx", ("table", "json"), "table", "analyze")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: -o 'c.docx': analyze cannot write a .docx file; it writes .txt (table), .json
    >>> output_format("csv", "e.json", ("csv", "json"), "table", "eor")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: -f csv disagrees with -o 'e.json' (a .json file holds json): leave out -f, or name the file .csv
    """
    from pathlib import PurePath

    suffix = PurePath(path).suffix.lower() if path and _names_a_file(path) else ""  # "x." or ".json": none
    named = FORMAT_OF_ENDING.get(suffix)
    if suffix and named not in offered:
        writes = ", ".join(ENDINGS[f] + (f" ({f})" if ENDINGS[f][1:] != f else "") for f in offered if f in ENDINGS)
        raise InputError(f"-o {path!r}: {command} cannot write a {suffix} file; it writes {writes}")
    if given is not None and named is not None and given != named:
        raise InputError(f"-f {given} disagrees with -o {path!r} (a {suffix} file holds {named}): leave out -f, "
                         f"or name the file {ENDINGS.get(given, '')}".rstrip())
    return given if given is not None else named if named is not None else default


def render_view(view: View, fmt: str) -> str:
    """The view in ``table``, ``markdown``, ``csv`` or ``json``: the one format dispatch."""
    if fmt == "json":
        return render_json(view.doc(), view.json_decimals)
    if fmt == "csv":
        if view.csv is None:
            raise InputError("this output has no CSV form; use --format json or table")
        return render_csv_rows(view.csv())
    if fmt in TEXT_FORMATS:
        return render_blocks(view.text(), fmt == "markdown")
    raise InputError(f"unknown format {fmt!r}: use one of table, markdown, csv, json")


__all__ = ["ENDINGS", "FORMAT_OF_ENDING", "Block", "Bullet", "Choice", "Heading", "Pairs", "Table", "View", "markdown_text", "human",
           "json_with_decimals", "output_format", "render_blocks", "render_csv_rows", "sections_csv", "render_json", "render_view", "spreadsheet_cell", "with_decimals"]
