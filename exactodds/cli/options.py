"""Options and output helpers shared by every ``exactodds`` command module.

Declared once so that ``--decks``, ``--format``, ``--output`` and ``--paytable`` read
and behave the same in ``analyze``, ``eor``, ``certify`` and the rest.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated

import typer

from exactodds.report.files import write_atomic


class Format(str, Enum):
    """Output formats of the analysis-style commands."""

    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


DecksOpt = Annotated[int, typer.Option("--decks", "-d", help="Number of standard 52-card decks (1 to 1000).")]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
OutputOpt = Annotated[
    str | None, typer.Option("--output", "-o", help="Write to this file (atomically) instead of stdout.")
]
PaytableOpt = Annotated[str | None, typer.Option("--paytable", "-p", help="Paytable id (default: the catalogue's).")]


def emit(text: str, output: str | None) -> None:
    """Print the whole result at once, or write it atomically to ``output``."""
    if output:
        write_atomic(output, text)
    else:
        sys.stdout.write(text)
