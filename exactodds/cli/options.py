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

import sys
from enum import Enum
from fractions import Fraction
from typing import Annotated

import typer

from exactodds.errors import InputError
from exactodds.inputs import parse_number, shown
from exactodds.report.files import STDOUT, write_atomic


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
