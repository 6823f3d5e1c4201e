"""Options and output helpers shared by every ``exactodds`` command module.

Declared once so that ``--decks``, ``--format``, ``--output`` and ``--paytable`` read
and behave the same in ``analyze``, ``eor``, ``certify`` and the rest.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated

import typer

from exactodds.report.files import STDOUT, write_atomic


class Format(str, Enum):
    """Output formats of the analysis-style commands."""

    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


DecksOpt = Annotated[int, typer.Option("--decks", "-d", help="Number of standard 52-card decks (1 to 1000).")]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
OutputOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="FILE",
                 help="Write to this file instead of stdout ('-' is stdout): a regular file is replaced "
                      "atomically, a device or FIFO written directly."),
]
PaytableOpt = Annotated[str | None, typer.Option("--paytable", "-p", help="Paytable id (default: the catalogue's).")]


def emit(text: str, output: str | None) -> None:
    """Print the whole result at once (no ``--output``, or ``--output -``), or write it to
    ``output`` by the rules of :mod:`exactodds.report.files` (atomically for a regular file;
    every failure a one-line input error)."""
    if output is None or output == STDOUT:
        sys.stdout.write(text)
    else:
        write_atomic(output, text)
