"""The ``paigow`` command: exact Pai Gow figures under the regulated house way (ch. 535).

A thin layer: :func:`exactodds.paigow.paigow_analysis` for both player strategies,
:func:`~exactodds.paigow.vigorish_table` for the commission rounded by wager amount,
:func:`~exactodds.paigow.strategy_table` for ``--strategy-table``, rendered by
:func:`exactodds.paigow.views.render_paigow`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli.options import Format, FormatOpt, OutputOpt, emit


def paigow_command(
    strategy_table: Annotated[bool, typer.Option(
        "--strategy-table", help="How to set every distinct player hand, house way and optimal.")] = False,
    reading: Annotated[str, typer.Option(
        "--reading", metavar="READING",
        help="Which setting the dealer plays when § 535.10(d)(2) or (d)(3) can be met in several ways: "
             "'most-qualifying' (most qualifying hands first; default), 'high-hand-first' (highest pair / "
             "highest 9-8-7 as the high hand first), or a JSON file listing a casino's order of "
             "most-qualifying, highest-high-hand, highest-low-hand (or a TOML file: order = [...]).")]
    = "most-qualifying",
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
) -> None:
    """Exact win/tie/loss, return and house edge of Pai Gow against the house way (§ 535.10)."""
    from exactodds.paigow import STRATEGIES, paigow_analysis, vigorish_table
    from exactodds.paigow import strategy_table as table
    from exactodds.paigow.house_way import house_way_reading
    from exactodds.paigow.views import render_paigow

    hw = house_way_reading(reading)
    analyses = [paigow_analysis(s, house_way=hw) for s in STRATEGIES]
    rows = table(house_way=hw) if strategy_table else None
    emit(render_paigow(analyses, vigorish_table(house_way=hw), fmt.value, rows), output)


def register(app: typer.Typer) -> None:
    """Add the ``paigow`` command to ``app``."""
    app.command("paigow")(paigow_command)
