"""Cells a spreadsheet cannot run, for every CSV any module writes (the rendered views of
:mod:`exactodds.report.views`, the simulator's counts file): on the writing floor so that a
writer of any folder reaches it without climbing to the report."""

from __future__ import annotations

import re
from typing import Any, Final

FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is read as a formula by spreadsheet tools."""

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:/\d+)?")


def spreadsheet_cell(value: Any) -> Any:
    """A cell a spreadsheet cannot run: text starting with ``= + - @``, tab or CR gets a
    leading ``'`` (OWASP's CSV-injection advice, which Excel and LibreOffice honour), unless
    it is a plain number or exact ``p/q`` such as ``-1/8`` (data, not a formula). A carriage
    return inside text becomes ``\\n``, so the writer quotes the cell and the table stays tidy.

    >>> print(spreadsheet_cell('=HYPERLINK("http://evil.example/","click")'))
    '=HYPERLINK("http://evil.example/","click")
    >>> spreadsheet_cell("-1/8"), spreadsheet_cell("-0.125"), spreadsheet_cell(-3), spreadsheet_cell("@x")
    ('-1/8', '-0.125', -3, "'@x")
    """
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        value = "'" + value
    return value.replace("\r\n", "\n").replace("\r", "\n")  # quoted by the writer (its line end is \n)
