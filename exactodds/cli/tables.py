"""``exactodds tables``: write the ``tables/`` tree (every wager × paytable × deck count).

Registered on the main command line by :func:`register`; the work is
:func:`exactodds.report.tables.write_tables`. Bad input (a deck count outside 1..1000, an
output path that is a file) is an :class:`~exactodds.errors.InputError`, which the main
app prints as one line and exits 2 with; nothing is written then.
"""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli.wagerfiles import with_wager_files
from exactodds.report.tables import DEFAULT_DECKS, summary_line, write_tables

DecksListOpt = Annotated[
    list[int] | None,
    typer.Option("--decks", "-d", metavar="N", help="Deck count to build; repeat for several "
                 f"(default: {' '.join(str(d) for d in DEFAULT_DECKS)})."),
]
OutOpt = Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="Folder to write the tables into.")]


def tables_command(decks: DecksListOpt = None, out: OutOpt = "tables") -> None:
    """Write every wager × paytable × deck count as Markdown and JSON, with an index."""
    report = write_tables(out, tuple(decks) if decks else DEFAULT_DECKS)
    typer.echo(summary_line(report, out))


def register(app: typer.Typer) -> None:
    """Add the ``tables`` command to ``app``."""
    app.command("tables")(with_wager_files(tables_command))
