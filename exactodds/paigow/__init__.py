"""Pai Gow (tiles), 58 Pa. Code ch. 535: exact odds against the regulated house way.

* :mod:`.tiles` -- the tiles, tile ranks and permissible pairs as regulation data
  (§§ 535.3–535.4);
* :mod:`.hands` -- hand rank, the three settings of four tiles, settlement
  (§ 535.4, § 535.10(f)–(j));
* :mod:`.house_way` -- the dealer's setting (§ 535.10(d));
* :mod:`.analysis` -- exact counts over all C(32,4)·C(28,4) deals, both player
  strategies, the strategy table and the vigorish (§ 535.10(k)).
"""

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
