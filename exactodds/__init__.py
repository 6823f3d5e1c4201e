"""exactodds: exact odds of every regulated baccarat wager (58 Pa. Code).

The public API, for notebooks and scripts::

    >>> from exactodds import analyze, Shoe, parse_card, get_wager
    >>> a = analyze("banker", "5pct", Shoe.standard(8).remove([parse_card("9H")]))
    >>> a.total == 415 * 414 * 413 * 412 * 411 * 410, get_wager("tie").paytable().id
    (True, '8to1')

The pipeline behind it: :mod:`exactodds.game` (cards, rules, the deal walks) →
:mod:`exactodds.engine` (levels, exact pricing) → :mod:`exactodds.catalogue` (wagers as
data) → :mod:`exactodds.figures` (settlement, analysis, EOR, certify, study) →
:mod:`exactodds.report` (every format, safe writing) → :mod:`exactodds.cli`.
Names are loaded on first use, so ``import exactodds`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from exactodds.version import __version__

__all__ = ["Analysis", "Shoe", "__version__", "analyze", "get_wager", "parse_card"]

_WHERE = {
    "analyze": "exactodds.figures.analysis",
    "Analysis": "exactodds.figures.analysis",
    "Shoe": "exactodds.game.cards",
    "parse_card": "exactodds.game.cards",
    "get_wager": "exactodds.catalogue",
}

if TYPE_CHECKING:
    from exactodds.catalogue import get_wager
    from exactodds.figures.analysis import Analysis, analyze
    from exactodds.game.cards import Shoe, parse_card


def __dir__() -> list[str]:
    """The public names too, though not loaded yet (tab completion in a notebook).

    >>> {"analyze", "Shoe", "Analysis"} <= set(dir(__import__("exactodds")))
    True
    """
    return sorted({*globals(), *__all__})


def __getattr__(name: str) -> Any:
    """The public names, imported when first asked for (PEP 562)."""
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'exactodds' has no attribute {name!r}")
