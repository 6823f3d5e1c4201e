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

import typer

from exactodds.errors import InputError
from exactodds.inputs import parse_number, shown
from exactodds.report.files import STDOUT, write_atomic

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


def emit(text: str, output: str | None) -> None:
    """Print the whole result at once (no ``--output``, or ``--output -``), or write it to
    ``output`` by the rules of :mod:`exactodds.report.files` (atomically for a regular file;
    every failure a one-line input error)."""
    if output is None or output == STDOUT:
        sys.stdout.write(text)
    else:
        write_atomic(output, text)


def parse_meters(items: list[str]) -> dict[str, Fraction]:
    """``--meter NAME=AMOUNT`` values as exact dollars; malformed ones are one-line input errors.

    AMOUNT is read by :func:`exactodds.inputs.parse_number` (``$`` and thousands separators
    allowed; digits and exponent bounded before anything is converted).
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


SPANISH21_RULE_OPTIONS: tuple[tuple[str, Any, object], ...] = (
    ("h17", Annotated[bool, typer.Option("--h17", help="Dealer hits soft 17 (text: stands on all 17s, "
                                                       "§ 551.13(b)).")], False),
    ("double_any", Annotated[bool, typer.Option("--double-any", help="Double on any number of cards "
                                                                     "(§ 551.11(a)).")], False),
    ("redouble", Annotated[int | None, typer.Option("--redouble", help="Redoubles allowed after a double (0-3).")],
     None),
    ("max_hands", Annotated[int | None, typer.Option("--max-hands", help="Hands after splitting (1 = no split; "
                                                                         "text: 3, § 551.12(c)).")], None),
    ("no_resplit_aces", Annotated[bool, typer.Option("--no-resplit-aces", help="Aces split once only.")], False),
    ("no_hit_split_aces", Annotated[bool, typer.Option("--no-hit-split-aces",
                                                       help="Split aces take one card each.")], False),
    ("no_das", Annotated[bool, typer.Option("--no-double-after-split", help="No double after a split.")], False),
    ("bonus_on_doubled", Annotated[bool, typer.Option("--bonus-on-doubled",
                                                      help="§ 551.6(g) bonuses paid on doubled hands.")], False),
    ("no_surrender", Annotated[bool, typer.Option("--no-surrender", help="No late surrender (§ 551.9).")], False),
    ("no_rescue", Annotated[bool, typer.Option("--no-rescue", help="No rescue (§ 551.11(d)).")], False),
    ("split_21_wins", Annotated[bool, typer.Option("--split-21-wins",
                                                   help="A split hand's two-card 21 beats a dealer 21.")], False),
    ("bj_push", Annotated[bool, typer.Option("--bj-push", help="Player Blackjack pushes a dealer Blackjack.")],
     False),
    ("super_bonus_bet", Annotated[str | None, typer.Option(
        "--super-bonus-bet", help="Wager in dollars for the § 551.6(h) fixed payouts (default: left out).")], None),
    ("players", Annotated[int, typer.Option("--players", help="Other players at the table (envy bonus, 0-6).")], 0),
    ("wizard", Annotated[bool, typer.Option("--wizard", help="The Wizard of Odds table's rules as the base.")],
     False),
)
"""The Spanish 21 rule options (58 Pa. Code ch. 551), declared once for ``spanish21`` and
``certify --spanish21`` (:func:`with_spanish21_rules`): ``(parameter, annotation, default)``."""

F = TypeVar("F", bound=Callable[..., Any])


def spanish21_rules(h17: bool = False, double_any: bool = False, redouble: int | None = None,
                    max_hands: int | None = None, no_resplit_aces: bool = False, no_hit_split_aces: bool = False,
                    no_das: bool = False, bonus_on_doubled: bool = False, no_surrender: bool = False,
                    no_rescue: bool = False, split_21_wins: bool = False, bj_push: bool = False,
                    super_bonus_bet: str | None = None, players: int = 0, wizard: bool = False) -> Rules:
    """The :class:`~exactodds.blackjack.rules.Rules` of the options of :data:`SPANISH21_RULE_OPTIONS`
    (§ 551 as written, or the Wizard of Odds table's rules with ``wizard``, changed by each option
    given); a value out of range is one :class:`InputError`.

    >>> spanish21_rules(h17=True, max_hands=1).changed()
    {'hit_soft_17': True, 'max_hands': 1}
    """
    from exactodds.blackjack.rules import WIZARD_RULES, Rules

    base = WIZARD_RULES if wizard else Rules()
    bet = None if super_bonus_bet is None else parse_number(super_bonus_bet, "--super-bonus-bet", money=True)
    return Rules(**{**vars(base), **dict(
        hit_soft_17=h17 or base.hit_soft_17, double_any_cards=double_any or base.double_any_cards,
        redoubles=base.redoubles if redouble is None else redouble,
        max_hands=base.max_hands if max_hands is None else max_hands,
        resplit_aces=not no_resplit_aces, hit_split_aces=not no_hit_split_aces, double_after_split=not no_das,
        bonus_on_doubled=bonus_on_doubled, surrender=not no_surrender, rescue=not no_rescue,
        split_21_beats_dealer_21=split_21_wins or base.split_21_beats_dealer_21,
        blackjack_beats_dealer_blackjack=not bj_push, super_bonus_bet=bet, other_players=players)})


def with_spanish21_rules(command: F) -> F:
    """``command`` (which takes ``rules``) with the Spanish 21 rule options of
    :data:`SPANISH21_RULE_OPTIONS` in its place: the wrapper reads them and calls ``command``
    with ``rules=`` :func:`spanish21_rules` (a bad value: one error line before any work)."""
    names = [name for name, _, _ in SPANISH21_RULE_OPTIONS]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        chosen = {n: kwargs.pop(n) for n in names if n in kwargs}
        return command(*args, rules=spanish21_rules(**chosen), **kwargs)

    sig = inspect.signature(command, eval_str=True)
    params = [p for p in sig.parameters.values() if p.name != "rules"]
    extra = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a)
             for n, a, d in SPANISH21_RULE_OPTIONS]
    wrapper.__signature__ = sig.replace(parameters=[*params, *extra])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {**{p.name: p.annotation for p in params}, **{n: a for n, a, _ in SPANISH21_RULE_OPTIONS},
                               "return": sig.return_annotation}
    return wrapper  # type: ignore[return-value]
