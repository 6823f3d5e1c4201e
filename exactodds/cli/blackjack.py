"""The ``blackjack`` command: the blackjack family's main wager, exactly (``--preset standard``,
``spanish21`` (58 Pa. Code ch. 551 as written) or ``wizard``; every rule an option).

A thin layer, as ``spanish21`` (which is this command with the ``spanish21`` preset): the rule
options (:data:`exactodds.cli.options.SPANISH21_RULE_OPTIONS`) give
:class:`exactodds.blackjack.rules.Rules`; :func:`exactodds.spanish21.figures.spanish21_analysis`
computes; :mod:`exactodds.report.spanish21` renders.
"""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.blackjack.rules import Rules
from exactodds.cli.options import Format, FormatOpt, OutputOpt, emit, with_spanish21_rules
from exactodds.game.shoespec import RemoveOpt, ShoeOpt

BasicOpt = Annotated[bool, typer.Option("--basic/--no-basic", help="Also the basic-strategy chart and its return.")]
ContributionsOpt = Annotated[bool, typer.Option("--contributions", help="House edge with each rule changed (slow).")]
ChartHtmlOpt = Annotated[str | None, typer.Option("--html", metavar="FILE", help="Also write the HTML chart.")]
"""The options ``blackjack`` and ``spanish21`` share (declared once)."""


def blackjack_command(
    preset: Annotated[str, typer.Option("--preset", help="Rules to start from: standard (dealer peeks, S17, 21 "
                                                         "pushes 21, no bonuses, DAS, 4 hands, split aces one "
                                                         "card, 3:2), spanish21 (§ 551 as written) or wizard "
                                                         "(the Wizard of Odds Spanish 21 table).")] = "standard",
    decks: Annotated[int | None, typer.Option("--decks", "-d", help="Decks: 52 cards with 10s, 48 without (--no-tens; "
                                                                    "§ 551.3(a) regulates 6 or 8); default 8; not "
                                                                    "with --shoe.")] = None,
    shoe: ShoeOpt = None,
    remove: RemoveOpt = None,
    tens: Annotated[bool | None, typer.Option("--tens/--no-tens", help="Keep the four 10s of each deck (standard) "
                                                                       "or take them out (§ 551.3(a)); default: "
                                                                       "by preset.")] = None,
    basic: BasicOpt = True,
    contributions: ContributionsOpt = False,
    html: ChartHtmlOpt = None,
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
    *, rules: Rules,
) -> None:
    """Exact expected return of a blackjack game (standard, Spanish 21 § 551), its strategy and rule costs."""
    run(preset, decks, shoe, remove, tens, basic, contributions, html, fmt, output, rules)


def run(preset: str, decks: int | None, shoe: str | None, remove: str | None, tens: bool | None, basic: bool,
        contributions: bool, html: str | None, fmt: Format, output: str | None, rules: Rules) -> None:
    """Resolve the shoe, analyse, render (shared by ``blackjack`` and ``spanish21``)."""
    from exactodds.blackjack.rules import PRESET_TENS
    from exactodds.blackjack.shoe import SpanishShoe
    from exactodds.errors import InputError
    from exactodds.game.shoespec import resolve_shoe
    from exactodds.report.files import check_writable, write_all
    from exactodds.report.spanish21 import chart_html, render_spanish21
    from exactodds.spanish21.figures import spanish21_analysis

    if shoe is not None and decks is not None:
        raise InputError("give --decks or --shoe, not both (the shoe names its own cards)")
    if decks is None:
        decks = 8
    if shoe is None and decks not in range(1, 101):
        raise InputError(f"--decks must be 1 to 100, got {decks}")
    keep_tens = PRESET_TENS.get(preset, False) if tens is None else tens
    if shoe is not None:
        base = resolve_shoe(shoe=shoe, remove=remove)
    else:
        base = resolve_shoe(decks, None, remove)
    cards = SpanishShoe.from_shoe(base, tens=keep_tens)
    counted = None if (shoe is not None or remove) else decks
    if html is not None:  # both outputs checked before the work, written all or none (one file each)
        chart = check_writable(html)
        if check_writable(output or "-") == chart:
            raise InputError(f"--html and --output name the same file {html!r} (no --output is standard "
                             "output); the chart and the report each need their own")
    from exactodds.report.progress import stderr_progress

    with stderr_progress("blackjack") as progress:
        a = spanish21_analysis(cards, rules, counted, basic=basic or html is not None, contributions=contributions,
                               preset=preset if preset in PRESET_TENS else "spanish21", progress=progress)
    text = render_spanish21(a, fmt.value)
    if html is None:
        emit(text, output)
        return
    write_all([(html, chart_html(a)), (output or "-", text)])


def register(app: typer.Typer) -> None:
    """Add the ``blackjack`` command to ``app``."""
    app.command("blackjack")(with_spanish21_rules(blackjack_command))
