"""The ``spanish21`` command: the main Spanish 21 wager, exactly (58 Pa. Code ch. 551).

A thin layer: the rule options (declared once in :mod:`exactodds.cli.options`, shared with
``certify --spanish21``) give :class:`exactodds.blackjack.rules.Rules`; call
:func:`exactodds.spanish21.figures.spanish21_analysis`, render with
:mod:`exactodds.report.spanish21`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.blackjack.rules import Rules
from exactodds.cli.blackjack import BasicOpt, ChartHtmlOpt, ContributionsOpt
from exactodds.cli.options import Format, FormatOpt, OutputOpt, with_spanish21_rules
from exactodds.game.shoespec import RemoveOpt, ShoeOpt


def spanish21_command(
    decks: Annotated[int | None, typer.Option(
        "--decks", "-d", help="Decks of 48 cards (§ 551.3(a): 6 or 8; default 8); not with --shoe.")] = None,
    shoe: ShoeOpt = None,
    remove: RemoveOpt = None,
    basic: BasicOpt = True,
    contributions: ContributionsOpt = False,
    html: ChartHtmlOpt = None,
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    *, rules: Rules,
) -> None:
    """Exact expected return of the Spanish 21 main wager, its strategy and rule costs (§ 551);
    ``exactodds blackjack --preset spanish21``."""
    from exactodds.cli.blackjack import run

    run("spanish21", decks, shoe, remove, False, basic, contributions, html, fmt, output, rules)


def register(app: typer.Typer) -> None:
    """Add the ``spanish21`` command to ``app``."""
    app.command("spanish21")(with_spanish21_rules(spanish21_command))
