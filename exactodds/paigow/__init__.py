"""Pai Gow (tiles), 58 Pa. Code ch. 535: exact odds against the regulated house way.

* :mod:`.tiles` -- the tiles, tile ranks and permissible pairs as regulation data
  (§§ 535.3–535.4);
* :mod:`.hands` -- hand rank, the three settings of four tiles, settlement
  (§ 535.4, § 535.10(f)–(j));
* :mod:`.house_way` -- the dealer's setting (§ 535.10(d));
* :mod:`.analysis` -- exact counts over all C(32,4)·C(28,4) deals, both player
  strategies, the strategy table and the vigorish (§ 535.10(k));
* :mod:`.game` -- Pai Gow through the game seam (:mod:`exactodds.game.protocol`).

The names below are imported on first use (PEP 562), so that the registry of games can
read Pai Gow's class data without loading numpy (the command line's start-up).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .analysis import (
        DEFAULT_AMOUNTS,
        STRATEGIES,
        STRATEGY_HEADERS,
        VIGORISH_HEADERS,
        PaiGowAnalysis,
        Strategy,
        StrategyRow,
        VigorishRow,
        bench_paigow,
        paigow_analysis,
        paigow_json,
        paigow_summary_rows,
        return_for_amount,
        strategy_table,
        to_rows,
        vigorish,
        vigorish_table,
    )
    from .hands import compare, describe_hand, hand_key, hand_value, settings
    from .house_way import house_way_setting
    from .tiles import GEE_JOON_COUNTS, PAIRS, SUPREME_PAIR, TILES, tile_counts

_HOME = {
    "DEFAULT_AMOUNTS": "analysis",
    "STRATEGIES": "analysis",
    "STRATEGY_HEADERS": "analysis",
    "VIGORISH_HEADERS": "analysis",
    "PaiGowAnalysis": "analysis",
    "Strategy": "analysis",
    "StrategyRow": "analysis",
    "VigorishRow": "analysis",
    "bench_paigow": "analysis",
    "paigow_analysis": "analysis",
    "paigow_json": "analysis",
    "paigow_summary_rows": "analysis",
    "return_for_amount": "analysis",
    "strategy_table": "analysis",
    "to_rows": "analysis",
    "vigorish": "analysis",
    "vigorish_table": "analysis",
    "compare": "hands",
    "describe_hand": "hands",
    "hand_key": "hands",
    "hand_value": "hands",
    "settings": "hands",
    "house_way_setting": "house_way",
    "GEE_JOON_COUNTS": "tiles",
    "PAIRS": "tiles",
    "SUPREME_PAIR": "tiles",
    "TILES": "tiles",
    "tile_counts": "tiles",
}
"""Each public name and the module it lives in."""


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_AMOUNTS",
    "GEE_JOON_COUNTS",
    "PAIRS",
    "STRATEGIES",
    "STRATEGY_HEADERS",
    "SUPREME_PAIR",
    "TILES",
    "VIGORISH_HEADERS",
    "PaiGowAnalysis",
    "Strategy",
    "StrategyRow",
    "VigorishRow",
    "bench_paigow",
    "compare",
    "describe_hand",
    "hand_key",
    "hand_value",
    "house_way_setting",
    "paigow_analysis",
    "paigow_json",
    "paigow_summary_rows",
    "return_for_amount",
    "settings",
    "strategy_table",
    "tile_counts",
    "to_rows",
    "vigorish",
    "vigorish_table",
]
