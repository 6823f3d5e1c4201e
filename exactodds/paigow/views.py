"""Pai Gow's own views: the ``paigow`` command's output and the files it adds to ``tables/``.

:func:`render_paigow` renders both player strategies' figures, the returns by wager amount
(§ 535.10(k)) and, if asked, the strategy table, through the one dispatch of the project
(:func:`exactodds.report.views.render_view`: table, JSON, CSV, Markdown). :func:`game_tables`
is what :meth:`.game.PaiGow.tables` hands the generic ``tables`` build
(:mod:`exactodds.report.tables`): one Markdown and one JSON file per house-way reading of
§ 535.10(d)(2),(3), so that module names no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, Final

from exactodds.exact import ratio
from exactodds.game.protocol import GameTables, TableFile
from exactodds.report.views import Block, Heading, Table, View, render_view, sections_csv

STEMS: Final = {"most-qualifying": "pai-gow", "high-hand-first": "pai-gow--high-hand-first"}
"""The ``tables/`` file stem of each house-way reading of § 535.10(d)(2),(3) (= the ids of
:data:`.house_way.READINGS`; a test holds them equal)."""
JSON_START: Final = '{\n  "game": "pai-gow"'
"""How a Pai Gow JSON file of ``tables/`` starts (:func:`.analysis.paigow_json`)."""


def render_paigow(analyses: Sequence[Any], vigorish_rows: Sequence[Any], fmt: str,
                  strategy_rows: Sequence[Any] | None = None) -> str:
    """Pai Gow figures (and the strategy table, if given) in the chosen format."""
    from exactodds.report.spreadsheet import decimal_cell

    from .analysis import STRATEGY_HEADERS, VIGORISH_HEADERS, paigow_json, paigow_summary_rows, to_rows

    def csv_rows() -> list[list[Any]]:  # the strategies' figures, then the returns by wager amount (§ 535.10(k))
        if strategy_rows is not None:
            return [list(STRATEGY_HEADERS), *map(list, to_rows(strategy_rows))]
        vigorish = ["amount", "vigorish", "net_win", "return_house_way", "return_optimal", "cite"]
        return sections_csv([
            ("strategy", ["strategy", "house_way_reading", "wins", "ties", "losses", "universe", "p_win", "p_tie",
                          "p_loss", "return_vigorish", "return_vigorish_decimal", "house_edge", "house_edge_decimal"],
             [[a.strategy, a.house_way_reading, a.wins, a.ties, a.losses, a.universe, ratio(a.p_win),
               ratio(a.p_tie), ratio(a.p_loss), ratio(a.return_vigorish), decimal_cell(a.return_vigorish),
               ratio(a.house_edge), decimal_cell(a.house_edge)] for a in analyses]),
            ("vigorish_by_amount", vigorish,
             [[r[k] for k in vigorish] for r in paigow_json(analyses, vigorish_rows)["vigorish_by_amount"]])])

    def text() -> list[Block]:
        ids = ", ".join(sorted({a.house_way_reading for a in analyses}))
        parts: list[Block] = [Heading("Pai Gow (tiles) against the house way of 58 Pa. Code § 535.10(d), "
                                      f"reading {ids}", 2), ""]
        if strategy_rows is not None:
            return [*parts, f"Reading: {analyses[0].reading}" if analyses else "", "",
                    Table(list(STRATEGY_HEADERS), to_rows(strategy_rows))]
        for a in analyses:
            parts += [Heading(f"Player strategy: {a.strategy}", 3), "",
                      Table(["figure", "value"], paigow_summary_rows(a), plain=True), "",
                      f"Reading: {a.reading}", ""]
        return [*parts, Heading("Return by wager amount, vigorish rounded up to 25¢ (§ 535.10(k))", 3), "",
                Table(list(VIGORISH_HEADERS), to_rows(vigorish_rows))]

    return render_view(View(lambda: paigow_json(analyses, vigorish_rows, strategy_rows), text, csv_rows), fmt)


def _render(reading: str, fmt: str) -> str:
    """One ``tables/`` file: both strategies and the returns by wager amount under ``reading``."""
    from .analysis import STRATEGIES, paigow_analysis, vigorish_table

    return render_paigow([paigow_analysis(s, house_way=reading) for s in STRATEGIES],
                         vigorish_table(house_way=reading), fmt)


def game_tables() -> GameTables:
    """Pai Gow's files of ``tables/`` (deck-independent: both player strategies and the returns
    by wager amount, a Markdown and a JSON file per house-way reading) and its index line."""
    files = []
    for rid, stem in STEMS.items():
        files += [TableFile(f"{stem}.md", partial(_render, rid, "markdown")),
                  TableFile(f"{stem}.json", partial(_render, rid, "json"), JSON_START)]
    index = ("Pai Gow (tiles, 58 Pa. Code ch. 535) against the house way of § 535.10(d), for each reading of "
             "(d)(2),(3) (which setting the dealer plays when several qualify): "
             + "; ".join(f"`{rid}` [md]({stem}.md) · [json]({stem}.json)" for rid, stem in STEMS.items()) + ".")
    return GameTables(index, tuple(files))


__all__ = ["JSON_START", "STEMS", "game_tables", "render_paigow"]
