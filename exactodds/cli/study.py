"""The ``study`` command: counting vulnerability of wagers over many dealt shoes.

A thin layer over :func:`exactodds.study.run_study`: parse, check every output
path before any work, run (here, in processes or on a Dask cluster), render, emit.
Bad input is an :class:`~exactodds.errors.InputError` (one stderr line, exit 2,
nothing written).
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from exactodds.cli.options import DecksOpt, Format, FormatOpt, OutputOpt, emit
from exactodds.cli.wagerfiles import with_wager_files
from exactodds.errors import InputError
from exactodds.game.shoespec import resolve_shoe
from exactodds.io.files import check_writable
from exactodds.io.progress import stderr_progress


class StrategyOpt(str, Enum):
    """``--strategy`` values."""

    perfect = "perfect"
    counting = "count"


def study_command(
    wagers: Annotated[list[str], typer.Argument(help="WAGER[:PAYTABLE] ... (see 'exactodds list').")],
    shoes: Annotated[int, typer.Option("--shoes", "-n", help="Shoes to deal (1 to 1,000,000,000).")],
    seed: Annotated[int, typer.Option("--seed", help="Seed: shoe i is shuffled by "
                                      "numpy.random.default_rng([seed, i]).")],
    decks: DecksOpt = 8,
    cover: Annotated[int, typer.Option("--cover", help="Cards under the cover card (at least 14, § 629a.5(d)).")] = 14,
    strategy: Annotated[StrategyOpt, typer.Option("--strategy", help="perfect: bet when the exact return > 0; "
                                                  "count: also a count system (perfect play shown beside it).")]
    = StrategyOpt.perfect,
    tags: Annotated[str | None, typer.Option("--tags", help="Count tags RANK=TAG,... (e.g. A=1,4=-1) or 'eor' "
                                             "(each wager's suggested balanced count; the default).")] = None,
    initial_count: Annotated[int, typer.Option("--initial-count", help="Running count at the start of each shoe "
                                               "(unbalanced counts).")] = 0,
    trigger_rc: Annotated[str | None, typer.Option("--trigger-rc", help="Bet when the running count >= X.")] = None,
    trigger_tc: Annotated[str | None, typer.Option("--trigger-tc", help="Bet when the true count (running count "
                                                   "per deck left) >= X (e.g. 2, 1.5, 3/2).")] = None,
    trace: Annotated[str | None, typer.Option("--trace", help="Write one CSV row per round (composition, exact "
                                              "return of each wager as p/q).")] = None,
    plot: Annotated[str | None, typer.Option("--plot", help="Plot return v. true count and the distribution "
                                             "of returns (.png, .svg or .pdf, as the suffix says).")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Local processes (the result does not "
                                         "depend on it).")] = 1,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on an existing Dask cluster, "
                                                  "e.g. tcp://HOST:8786.")] = None,
    chunk_shoes: Annotated[int | None, typer.Option("--chunk-shoes", help="Shoes per unit of work sent to a "
                                                    "process or cluster worker (default 200; the result does "
                                                    "not depend on it).")] = None,
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
) -> None:
    """Exact return of every round of many dealt shoes: can perfect play or a count beat the wagers?"""
    from exactodds.report.figure_views import render_study
    from exactodds.study import CHUNK_SHOES, plot_format, run_study

    named = [p for p in (output, trace, plot) if p]
    if len({Path(p).resolve() for p in named}) != len(named):
        raise InputError("the same file is named for two outputs")
    for p in named:
        check_writable(p)
    if plot:
        plot_format(plot)
    shoe = resolve_shoe(decks)
    with stderr_progress("study") as progress:
        result = run_study(wagers, shoes, seed, shoe, cover, strategy.value, tags, initial_count, trigger_rc,
                           trigger_tc, workers, scheduler, trace, plot,
                           CHUNK_SHOES if chunk_shoes is None else chunk_shoes, progress)
    emit(render_study(result, fmt.value), output)


def register(app: typer.Typer) -> None:
    """Add ``study`` to the ``exactodds`` command line."""
    app.command("study")(with_wager_files(study_command))
