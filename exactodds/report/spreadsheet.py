"""Cells that spreadsheets read as numbers, beside the exact ``p/q`` ones.

A CSV keeps every exact value as ``"p/q"`` text (a spreadsheet cannot hold it as a
number); beside it sits a ``*_decimal`` column with the value written as a plain decimal
number -- 15 significant digits, correctly rounded from the exact value by
:func:`exactodds.exact.decimal` (integer arithmetic, never a float) -- and, for a
probability, ``*_one_in``: the N of "1 in N" (``1/p``, same rounding). A spreadsheet
reads both as numbers; the exact column stays the reference.

>>> decimal_cell(Fraction(-64613588827, 848912750595))
'-0.0761133447244285'
>>> decimal_cell(Fraction(5004902, 2789284751955)), one_in_cell(Fraction(1, 3))
('0.00000179433168180197', '3.00000000000000')
>>> exact_columns("house_edge"), exact_cells(Fraction(1, 8))
(['house_edge', 'house_edge_decimal'], ['1/8', '0.125000000000000'])
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from exactodds.exact import ratio, significant

SIGNIFICANT: Final = 15
"""Significant digits of a decimal cell (what a spreadsheet's double holds)."""


def decimal_cell(x: Fraction | int | None, digits: int = SIGNIFICANT) -> str:
    """``x`` as a plain decimal number with ``digits`` significant digits ('' for None)."""
    if x is None:
        return ""
    return significant(x, digits)


def one_in_cell(p: Fraction | int | None) -> str:
    """The N of "1 in N" for a probability ``p`` ('' when ``p`` is 0 or None)."""
    if p is None or p == 0:
        return ""
    return decimal_cell(1 / Fraction(p))


def exact_columns(name: str, probability: bool = False) -> list[str]:
    """Column names for one exact value: ``name``, ``name_decimal`` (and ``name_one_in``)."""
    return [name, f"{name}_decimal"] + ([f"{name}_one_in"] if probability else [])


def exact_cells(x: Fraction | int | None, probability: bool = False) -> list[str]:
    """The cells of :func:`exact_columns`: ``p/q``, decimal (and 1-in-N); '' for None."""
    exact = "" if x is None else ratio(x)
    return [exact, decimal_cell(x)] + ([one_in_cell(x)] if probability else [])


def text_cells(x: str | None, probability: bool = False) -> list[str]:
    """:func:`exact_cells` of a ``"p/q"`` string as a JSON report holds it ('' or None: empty)."""
    return exact_cells(Fraction(x) if x else None, probability)
