"""The ``spanish21`` command: the main Spanish 21 wager, exactly (58 Pa. Code ch. 551).

A thin layer: the rule options (declared once in :mod:`exactodds.cli.options`, shared with
``certify --spanish21``) give :class:`exactodds.blackjack.rules.Rules`; call
:func:`exactodds.spanish21.figures.spanish21_analysis`, render with
:mod:`exactodds.report.spanish21`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli.options import Format, FormatOpt, OutputOpt, emit, with_spanish21_rules
from exactodds.game.shoespec import ShoeOpt
from exactodds.blackjack.rules import Rules


def spanish21_command(
    decks: Annotated[int, typer.Option("--decks", "-d", help="Decks of 48 cards (§ 551.3(a): 6 or 8).")] = 8,
    shoe: ShoeOpt = None,
    basic: Annotated[bool, typer.Option("--basic/--no-basic",
                                        help="Also the basic-strategy chart and its return.")] = True,
    contributions: Annotated[bool, typer.Option("--contributions",
                                                help="House edge with each rule changed (slow).")] = False,
    html: Annotated[str | None, typer.Option("--html", metavar="FILE", help="Also write the HTML chart.")] = None,
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    *, rules: Rules,
) -> None:
    """Exact expected return of the Spanish 21 main wager, its strategy and rule costs (§ 551)."""
    from exactodds.errors import InputError
    from exactodds.game.cards import Shoe
    from exactodds.game.shoespec import resolve_shoe
    from exactodds.report.files import write_atomic
    from exactodds.report.spanish21 import chart_html, render_spanish21
    from exactodds.spanish21.figures import spanish21_analysis
    from exactodds.blackjack.shoe import SpanishShoe

    if shoe is None and decks not in range(1, 101):
        raise InputError(f"--decks must be 1 to 100, got {decks}")
    spanish = SpanishShoe.from_shoe(resolve_shoe(shoe=shoe) if shoe is not None else Shoe.standard(decks))
    counted = None if shoe is not None else decks
    a = spanish21_analysis(spanish, rules, counted, basic=basic or html is not None, contributions=contributions)
    text = render_spanish21(a, fmt.value)
    if html is not None:
        write_atomic(html, chart_html(a))
    emit(text, output)


def register(app: typer.Typer) -> None:
    """Add the ``spanish21`` command to ``app``."""
    app.command("spanish21")(with_spanish21_rules(spanish21_command))
