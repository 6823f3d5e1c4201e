"""The ``spanish21`` command: the main Spanish 21 wager, exactly (58 Pa. Code ch. 551).

A thin layer: parse the rule options into :class:`exactodds.spanish21.rules.Rules`, call
:func:`exactodds.spanish21.figures.spanish21_analysis`, render with
:mod:`exactodds.report.spanish21`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from exactodds.cli.options import Format, FormatOpt, OutputOpt, emit
from exactodds.game.shoespec import ShoeOpt


def spanish21_command(
    decks: Annotated[int, typer.Option("--decks", "-d", help="Decks of 48 cards (§ 551.3(a): 6 or 8).")] = 8,
    shoe: ShoeOpt = None,
    h17: Annotated[bool, typer.Option("--h17", help="Dealer hits soft 17 (text: stands on all 17s).")] = False,
    double_any: Annotated[bool, typer.Option("--double-any", help="Double on any number of cards.")] = False,
    redouble: Annotated[int | None, typer.Option("--redouble", help="Redoubles allowed after a double (0-3).")] = None,
    max_hands: Annotated[int | None, typer.Option("--max-hands",
                                                  help="Hands after splitting (1 = no split; text: 3).")] = None,
    no_resplit_aces: Annotated[bool, typer.Option("--no-resplit-aces", help="Aces split once only.")] = False,
    no_hit_split_aces: Annotated[bool, typer.Option("--no-hit-split-aces",
                                                    help="Split aces take one card each.")] = False,
    no_das: Annotated[bool, typer.Option("--no-double-after-split", help="No double after a split.")] = False,
    bonus_on_doubled: Annotated[bool, typer.Option("--bonus-on-doubled",
                                                   help="§ 551.6(g) bonuses paid on doubled hands.")] = False,
    no_surrender: Annotated[bool, typer.Option("--no-surrender", help="No late surrender (§ 551.9).")] = False,
    no_rescue: Annotated[bool, typer.Option("--no-rescue", help="No rescue (§ 551.11(d)).")] = False,
    split_21_wins: Annotated[bool, typer.Option("--split-21-wins",
                                                help="A split hand's two-card 21 beats a dealer 21.")] = False,
    bj_push: Annotated[bool, typer.Option("--bj-push", help="Player Blackjack pushes a dealer Blackjack.")] = False,
    super_bonus_bet: Annotated[str | None, typer.Option(
        "--super-bonus-bet", help="Wager in dollars for the § 551.6(h) fixed payouts (default: left out).")] = None,
    players: Annotated[int, typer.Option("--players", help="Other players at the table (envy bonus, 0-6).")] = 0,
    wizard: Annotated[bool, typer.Option("--wizard", help="The Wizard of Odds table's rules as the base.")] = False,
    basic: Annotated[bool, typer.Option("--basic/--no-basic",
                                        help="Also the basic-strategy chart and its return.")] = True,
    contributions: Annotated[bool, typer.Option("--contributions",
                                                help="House edge with each rule changed (slow).")] = False,
    html: Annotated[str | None, typer.Option("--html", metavar="FILE", help="Also write the HTML chart.")] = None,
    fmt: FormatOpt = Format.table,
    output: OutputOpt = None,
) -> None:
    """Exact expected return of the Spanish 21 main wager, its strategy and rule costs (§ 551)."""
    from exactodds.errors import InputError
    from exactodds.game.cards import Shoe
    from exactodds.game.shoespec import resolve_shoe
    from exactodds.inputs import parse_number
    from exactodds.report.files import write_atomic
    from exactodds.report.spanish21 import chart_html, render_spanish21
    from exactodds.spanish21.figures import spanish21_analysis
    from exactodds.spanish21.rules import WIZARD_RULES, Rules
    from exactodds.spanish21.shoe import SpanishShoe

    if shoe is None and decks not in range(1, 101):
        raise InputError(f"--decks must be 1 to 100, got {decks}")
    base = WIZARD_RULES if wizard else Rules()
    bet = None if super_bonus_bet is None else parse_number(super_bonus_bet, "--super-bonus-bet", money=True)
    rules = base.with_(hit_soft_17=h17 or base.hit_soft_17, double_any_cards=double_any or base.double_any_cards,
                       redoubles=base.redoubles if redouble is None else redouble,
                       max_hands=base.max_hands if max_hands is None else max_hands,
                       resplit_aces=not no_resplit_aces, hit_split_aces=not no_hit_split_aces,
                       double_after_split=not no_das, bonus_on_doubled=bonus_on_doubled,
                       surrender=not no_surrender, rescue=not no_rescue,
                       split_21_beats_dealer_21=split_21_wins or base.split_21_beats_dealer_21,
                       blackjack_beats_dealer_blackjack=not bj_push, super_bonus_bet=bet, other_players=players)
    Rules(**vars(rules))  # validate
    spanish = SpanishShoe.from_shoe(resolve_shoe(shoe=shoe) if shoe is not None else Shoe.standard(decks))
    counted = None if shoe is not None else decks
    a = spanish21_analysis(spanish, rules, counted, basic=basic or html is not None, contributions=contributions)
    text = render_spanish21(a, fmt.value)
    if html is not None:
        write_atomic(html, chart_html(a))
    emit(text, output)


def register(app: typer.Typer) -> None:
    """Add the ``spanish21`` command to ``app``."""
    app.command("spanish21")(spanish21_command)
