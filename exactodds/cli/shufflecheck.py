"""The ``shufflecheck`` command: a shuffler's output tested against a uniform shuffle.

A thin layer over :func:`exactodds.simulation.shufflecheck.check_shuffles`: parse, test,
render. Exit status as ``crosscheck``: 0 consistent (or inconclusive), 1 a test fails at
``--alpha``, 2 unreadable input (one line naming the file and line).
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from exactodds.cli.options import Format, FormatOpt, emit
from exactodds.cli.simulate import DEFAULT_ALPHA, EXIT_INCONSISTENT, _check_targets, _progress


class InputOrder(str, Enum):
    previous = "previous"
    factory = "factory"
    none = "none"


def register(app: typer.Typer) -> None:
    """Add the ``shufflecheck`` command to ``app``."""

    @app.command("shufflecheck")
    def shufflecheck_command(
        file: Annotated[str, typer.Argument(help="Whole shuffled orders, one a line ('OUTPUT' or 'INPUT | OUTPUT'), "
                                            "or with --continuous a delivered stream with '>' reinsertion lines.")],
        decks: Annotated[int | None, typer.Option("--decks", "-d", help="Decks in the shoe (default: the file's "
                                                  "'# decks=', else the first order's length; continuous: 8).")] = None,
        input_order: Annotated[InputOrder | None, typer.Option(
            "--input", help="Input order of a line without one: the previous line's output, factory order, or none "
                            "(default: the file's '# input=', else previous).")] = None,
        continuous: Annotated[bool, typer.Option("--continuous", help="A continuous shuffler's stream (also "
                                                 "'# mode=continuous' in the file).")] = False,
        alpha: Annotated[float, typer.Option("--alpha", "-a", help="Family-wise significance level of the verdict "
                                             "(Holm's correction over every test).")] = DEFAULT_ALPHA,
        fmt: FormatOpt = Format.table,
        output: Annotated[str | None, typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    ) -> None:
        """Test a shuffler's output (whole shuffled orders, or a continuous shuffler's stream)
        against a uniform shuffle: position by card, successor pairs, carry-over, rising
        sequences, position correlation, runs, gaps, repeats; one Holm family.

        Exit status: 0 consistent (or inconclusive: too little output), 1 inconsistent, 2
        unreadable input.
        """
        from exactodds.report.shuffles import shufflecheck_view
        from exactodds.report.views import render_view
        from exactodds.simulation.shufflecheck import check_shuffles

        _check_targets(output)
        with _progress("shufflecheck") as progress:
            result = check_shuffles(file, decks, input_order.value if input_order is not None else None, alpha,
                                    True if continuous else None, progress)
        emit(render_view(shufflecheck_view(result), fmt.value), output)
        if not result.consistent:
            raise typer.Exit(EXIT_INCONSISTENT)
