"""Options and output helpers shared by every ``exactodds`` command module.

Declared once so that ``--decks``, ``--format``, ``--output`` and ``--paytable`` read
and behave the same in ``analyze``, ``eor``, ``certify`` and the rest. One flag per concept
(issue 16 item 5):

========================= =====================================================================
``-s/--shoe``             a shoe composition (:mod:`exactodds.game.shoespec`); never a seed
``--seed``                a random seed (no short form)
``-n``                    the command's count, named for its noun: ``--rounds`` (simulate),
                          ``--shoes`` (study)
``--workers``             local worker processes (``-w`` is ``--wager``)
``WAGER -p P``/``WAGER:P`` a wager and its paytable, both spellings everywhere
                          (:func:`wager_and_paytable`)
``-f/--format``           table, json, csv, markdown (certify adds html/xlsx)
========================= =====================================================================
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import click
import typer
from click.core import ParameterSource

from exactodds.errors import InputError
from exactodds.inputs import parse_number, shown
from exactodds.io.files import STDOUT, write_atomic

if TYPE_CHECKING:
    from exactodds.blackjack.rules import Rules


class Format(str, Enum):
    """Output formats of the analysis-style commands."""

    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


DecksOpt = Annotated[int, typer.Option("--decks", "-d", help="Number of standard 52-card decks (1 to 1000).")]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
OutputOpt = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="FILE",
                 help="Write to this file instead of stdout ('-' is stdout): a regular file is replaced "
                      "atomically, a device or FIFO written directly."),
]
ShoeOpt = Annotated[
    str | None,
    typer.Option(
        "--shoe", "-s",
        help="Shoe composition instead of --decks: a spec such as 'decks=6', 'KS=8,9H=7,...' "
        "(face counts) or 'A=32,K=30,...' (rank counts), or a .json / .csv file "
        "(see docs/certification.md).",
    ),
]
"""Typer option declaration for ``--shoe`` (reuse it in any command; the parsing is game.shoespec's)."""

RemoveOpt = Annotated[
    str | None,
    typer.Option(
        "--remove", "-r",
        help="Cards to take out of the shoe, e.g. '9,9,KS,5' or '3*9'; a rank without a suit "
        "takes the suit with the most copies left (ties S,H,D,C).",
    ),
]
"""Typer option declaration for ``--remove`` (reuse it in any command; the parsing is game.shoespec's)."""
PaytableOpt = Annotated[str | None, typer.Option("--paytable", "-p", help="Paytable id (default: the catalogue's).")]
SeedHelp = "Random seed, 0 to 2**63-1 (same seed, same result)."
WorkersHelp = "Local worker processes (the result does not depend on it)."


def wager_and_paytable(wager: str | None, paytable: str | None) -> tuple[str | None, str | None]:
    """``WAGER:PAYTABLE`` or ``WAGER -p PAYTABLE``: both spellings, one meaning.

    >>> wager_and_paytable("dragon-7:40to1", None), wager_and_paytable("tie", "8to1")
    (('dragon-7', '40to1'), ('tie', '8to1'))
    """
    if wager is None or ":" not in wager:
        return wager, paytable
    name, _, table = wager.partition(":")
    if not name or not table:
        raise InputError(f"WAGER:PAYTABLE needs both parts, got {wager!r}")
    if paytable is not None and paytable != table:
        raise InputError(f"paytable given twice: {wager!r} and --paytable {paytable!r}")
    return name, table


def format_by_ending(cmd: click.Command) -> None:
    """Make ``cmd`` pick its ``-f/--format`` from its ``-o/--output`` file's ending when ``-f``
    is not given, and refuse an ending that names no format it writes, or that disagrees with
    ``-f`` (:func:`exactodds.report.views.output_format`, the one rule). Applied to every
    command of the command line as it is resolved (:mod:`exactodds.cli.app`), so a new
    command with ``fmt`` and ``output`` parameters follows it; commands taking several ``-o``
    (``certify``, ``render``) apply the same rule in their output plan."""
    params = {p.name: p for p in cmd.params}
    fmt, output = params.get("fmt"), params.get("output")
    callback = cmd.callback
    if fmt is None or output is None or output.multiple or callback is None or getattr(callback, "_by_ending", False):
        return
    offered = tuple(getattr(fmt.type, "choices", ()))
    default = getattr(fmt.default, "value", fmt.default)

    @functools.wraps(callback)
    def by_ending(**kwargs: Any) -> Any:
        from exactodds.report.views import output_format

        ctx = click.get_current_context()
        source = ctx.get_parameter_source("fmt")
        given = kwargs.get("fmt") if source not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP) else None
        kwargs["fmt"] = output_format(None if given is None else str(getattr(given, "value", given)),
                                      kwargs.get("output"), offered, str(default), ctx.info_name or "this command")
        return callback(**kwargs)

    by_ending._by_ending = True  # type: ignore[attr-defined]
    cmd.callback = by_ending


def emit(text: str, output: str | None) -> None:
    """Print the whole result at once (no ``--output``, or ``--output -``), or write it to
    ``output`` by the rules of :mod:`exactodds.io.files` (atomically for a regular file;
    every failure a one-line input error)."""
    if output is None or output == STDOUT:
        sys.stdout.write(text)
    else:
        write_atomic(output, text)


def parse_meters(items: list[str]) -> dict[str, Fraction]:
    """``--meter NAME=AMOUNT`` values as exact dollars; malformed ones are one-line input errors.

    AMOUNT is read by :func:`exactodds.inputs.parse_number` (``$`` allowed, a comma refused;
    digits and exponent bounded before anything is converted).
    """
    out: dict[str, Fraction] = {}
    for item in items:
        name, sep, amount = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise InputError(f"--meter must be NAME=AMOUNT with AMOUNT a number of dollars, got {shown(item)}")
        value = parse_number(amount, f"--meter {name}", money=True)
        if value < 0:
            raise InputError(f"--meter {shown(name)} cannot be negative, got {shown(amount.strip())}")
        if name in out:
            raise InputError(f"--meter {shown(name)} given twice")
        out[name] = value
    return out


def _flag(pair: str, text: str) -> Any:
    return Annotated[bool | None, typer.Option(pair, help=text)]


def _choice(flag: str, text: str, kind: type = str) -> Any:
    return Annotated[kind | None, typer.Option(flag, help=text)]


SPANISH21_RULE_OPTIONS: tuple[tuple[str, Any, object], ...] = (
    ("h17", _flag("--h17/--s17", "Dealer hits / stands on soft 17 (§ 551.13(b): stands).") , None),
    ("double_totals", _choice("--double-totals", "First-two-card doubles: any, 9-11 or 10-11 (§ 551.11(a): any)."),
     None),
    ("double_soft", _flag("--double-soft/--no-double-soft", "Soft hands may be doubled (§ 551.11(a): yes)."), None),
    ("double_any", _flag("--double-any/--no-double-any", "Double on any number of cards (§ 551.11(a): first two "
                                                          "only)."), None),
    ("das", _flag("--double-after-split/--no-double-after-split", "Double after a split (§ 551.11(a): yes)."), None),
    ("max_hands", _choice("--max-hands", "Hands from splitting, 1 (no split) to 4 (§ 551.12(c): 3).", int), None),
    ("resplit_aces", _flag("--resplit-aces/--no-resplit-aces", "Aces may be resplit (§ 551.12: yes)."), None),
    ("hit_split_aces", _flag("--hit-split-aces/--no-hit-split-aces", "Split aces may draw and double "
                                                                      "(§ 551.12(c): yes; standard: one card)."), None),
    ("surrender", _flag("--surrender/--no-surrender", "Late surrender (§ 551.9: yes)."), None),
    ("blackjack_pays", _choice("--blackjack-pays", "Blackjack pays 3:2, 6:5 or 1:1 (§ 551.2(c)(1), § 551.6(b)(3): "
                                                   "3:2; § 551.6(f)'s 1 to 1 is read as not applying, "
                                                   "docs/blackjack.md)."), None),
    ("player_21_wins", _flag("--player-21-wins/--player-21-pushes", "A player 21 of three or more cards beats a "
                                                                    "dealer 21 (§ 551.6(b)(4)) or pushes it "
                                                                    "(standard)."), None),
    ("bonuses", _flag("--bonuses/--no-bonuses", "The § 551.6(g) bonuses (5/6/7-card 21, 6-7-8, 7-7-7), paid "
                                                "per hand, split hands included."), None),
    ("bonus_on_doubled", _flag("--bonus-on-doubled/--no-bonus-on-doubled", "§ 551.6(g) bonuses paid on doubled "
                                                                           "hands (§ 551.11(b): no)."), None),
    ("rescue", _flag("--rescue/--no-rescue", "Double Down rescue (§ 551.11(d): yes)."), None),
    ("redouble", _choice("--redouble", "Redoubles allowed after a double, 0-3 (§ 551.11(a): 0).", int), None),
    ("rescue_after_redouble", _choice("--rescue-after-redouble",
                                      "What a rescue takes back after redoubles: all (default; § 551.11(d)'s "
                                      "'the Double Down Wager' read as every double), last, or none.")
     , None),
    ("post_split", _choice("--post-split", "Post-split strategy: cdz (the pre-split decision), cdp1 (default; "
                                           "optimal for the first split hand, reused), cdp (by pair cards "
                                           "removed, Farmer's definition). A split hand that may draw a "
                                           "6-7-8 / 7-7-7 reads its suits (cdp1, cdp: the reference less the "
                                           "lowest-suit pair card left)."), None),
    ("resplit_choice", _flag("--resplit-by-choice/--always-resplit",
                             "§ 551.12(c) 'may' resplit: the best number of hands (default) or always resplit."),
     None),
    ("split_21_wins", _flag("--split-21-wins/--no-split-21-wins", "A split hand's two-card 21 beats a dealer 21."),
     None),
    ("bj_push", _flag("--bj-push/--no-bj-push", "Player Blackjack pushes a dealer Blackjack (§ 551.6(b)(3): wins)."),
     None),
    ("super_bonus_bet", Annotated[str | None, typer.Option(
        "--super-bonus-bet", help="Wager in dollars for the § 551.6(h) fixed payouts (default: left out). Envy: "
                                  "the $50 for another player's super bonus is counted with the other players "
                                  "wagering as this one, so only from $5 (their super bonus needs $5 or more)."
    )], None),
    ("players", Annotated[int, typer.Option("--players", help="Other players at the table (envy bonus, 0-6).")], 0),
    ("wizard", Annotated[bool, typer.Option("--wizard", help="The Wizard of Odds table's rules as the base "
                                                             "(= --preset wizard).")], False),
)
"""The blackjack rule options, declared once for ``blackjack`` and ``spanish21``
(:func:`with_spanish21_rules`; ``certify --game spanish21`` takes the fields of
:class:`exactodds.spanish21.game.Spanish21Rules` instead): ``(parameter, annotation, default)``;
each boolean a ``--X/--no-X`` pair, None meaning the preset's value."""

RULE_FIELDS: dict[str, str] = {
    "h17": "hit_soft_17", "double_totals": "double_totals", "double_soft": "double_soft",
    "double_any": "double_any_cards", "das": "double_after_split", "max_hands": "max_hands",
    "resplit_aces": "resplit_aces", "hit_split_aces": "hit_split_aces", "surrender": "surrender",
    "blackjack_pays": "blackjack_pays", "player_21_wins": "player_21_wins", "bonus_on_doubled": "bonus_on_doubled",
    "rescue": "rescue", "redouble": "redoubles", "rescue_after_redouble": "rescue_after_redouble",
    "post_split": "post_split", "resplit_choice": "resplit_optional", "split_21_wins": "split_21_beats_dealer_21",
}
"""Each option that sets one rule field directly."""

F = TypeVar("F", bound=Callable[..., Any])


def spanish21_rules(preset: str = "spanish21", wizard: bool = False, bonuses: bool | None = None,
                    bj_push: bool | None = None, super_bonus_bet: str | None = None, players: int = 0,
                    **chosen: Any) -> Rules:
    """The :class:`~exactodds.blackjack.rules.Rules` of the options of :data:`SPANISH21_RULE_OPTIONS`:
    the preset's rules (``wizard``: the Wizard of Odds table's), changed by each option given;
    a value out of range is one :class:`InputError`.

    >>> spanish21_rules(h17=True, max_hands=1).changed()
    {'hit_soft_17': True, 'max_hands': 1}
    >>> spanish21_rules("standard", h17=True).player_21_wins
    False
    """
    from exactodds.blackjack.rules import PRESETS, Rules

    if wizard:
        preset = "wizard"
    if preset not in PRESETS:
        raise InputError(f"--preset must be one of {', '.join(PRESETS)}, got {shown(preset)}")
    values = dict(vars(PRESETS[preset]))
    for name, value in chosen.items():
        if name not in RULE_FIELDS:
            raise TypeError(f"unknown rule option {name}")
        if value is not None:
            values[RULE_FIELDS[name]] = value
    if bonuses is not None:
        values["bonus_21_cards"] = values["bonus_678_777"] = bonuses
    if bj_push is not None:
        values["blackjack_beats_dealer_blackjack"] = not bj_push
    values["super_bonus_bet"] = (None if super_bonus_bet is None
                                 else parse_number(super_bonus_bet, "--super-bonus-bet", money=True))
    values["other_players"] = players
    return Rules(**values)


def with_spanish21_rules(command: F) -> F:
    """``command`` (which takes ``rules``) with the Spanish 21 rule options of
    :data:`SPANISH21_RULE_OPTIONS` in its place: the wrapper reads them and calls ``command``
    with ``rules=`` :func:`spanish21_rules` (a bad value: one error line before any work)."""
    names = [name for name, _, _ in SPANISH21_RULE_OPTIONS]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        chosen = {n: kwargs.pop(n) for n in names if n in kwargs}
        preset = kwargs.get("preset") or "spanish21"
        return command(*args, rules=spanish21_rules(preset, **chosen), **kwargs)

    sig = inspect.signature(command, eval_str=True)
    params = [p for p in sig.parameters.values() if p.name != "rules"]
    extra = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a)
             for n, a, d in SPANISH21_RULE_OPTIONS]
    wrapper.__signature__ = sig.replace(parameters=[*params, *extra])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {**{p.name: p.annotation for p in params}, **{n: a for n, a, _ in SPANISH21_RULE_OPTIONS},
                               "return": sig.return_annotation}
    return wrapper  # type: ignore[return-value]
