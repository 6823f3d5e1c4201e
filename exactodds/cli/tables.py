"""``exactodds tables``: write the ``tables/`` tree (every wager × paytable × deck count).

Registered on the main command line by :func:`register`; the work is
:func:`exactodds.report.tables.write_tables`. Bad input (a deck count outside 1..1000, an
output path that is a file or a link, a file in the way that the command did not write,
an unwritable folder) is an :class:`~exactodds.errors.InputError`, which the main app
prints as one line and exits 2 with; nothing is written then.

The folder is ``--output``/``-o`` like every other command's output; ``--out`` is kept,
hidden, as a deprecated alias.
"""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli.wagerfiles import with_wager_files
from exactodds.errors import InputError
from exactodds.io.files import STDOUT

DEFAULT_DECKS = (6, 7, 8)
"""The deck counts of the committed ``tables/`` (:data:`exactodds.report.tables.DEFAULT_DECKS`)."""

DEFAULT_OUTPUT = "tables"

DecksListOpt = Annotated[
    list[int] | None,
    typer.Option("--decks", "-d", metavar="N", help="Deck count to build; repeat for several "
                 f"(default: {' '.join(str(d) for d in DEFAULT_DECKS)})."),
]
OutputDirOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="DIR", help=f"Folder to write the tables into (default: {DEFAULT_OUTPUT})."),
]
OutAliasOpt = Annotated[str | None, typer.Option("--out", metavar="DIR", hidden=True, help="Deprecated: --output.")]
PruneOpt = Annotated[
    bool,
    typer.Option("--prune", help="Also remove generated tables of deck counts not asked for (never other files)."),
]


def output_folder(output: str | None, out: str | None) -> str:
    """The folder named by ``--output`` or its hidden alias ``--out`` (kept for old scripts)."""
    if out is not None:
        if output is not None:
            raise InputError("give the folder once: --output (--out is its deprecated alias)")
        output = out
    folder = DEFAULT_OUTPUT if output is None else output
    if folder == STDOUT:
        raise InputError("tables writes a folder of files; --output - (standard output) is not possible")
    return folder


def tables_command(decks: DecksListOpt = None, output: OutputDirOpt = None, out: OutAliasOpt = None,
                   prune: PruneOpt = False) -> None:
    """Write every wager × paytable × deck count as Markdown and JSON, with an index."""
    folder = output_folder(output, out)
    from exactodds.io.progress import stderr_progress
    from exactodds.report.tables import summary_line, write_tables

    with stderr_progress("tables") as progress:
        report = write_tables(folder, tuple(decks) if decks else DEFAULT_DECKS, prune=prune, progress=progress)
    typer.echo(summary_line(report, folder))


def register(app: typer.Typer) -> None:
    """Add the ``tables`` command to ``app``."""
    app.command("tables")(with_wager_files(tables_command))
