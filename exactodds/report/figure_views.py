"""Views (:class:`exactodds.report.views.View`) of the figures: effects of removal,
commission by amount, House Money ride, mystery meters and the counting study.

Each figure module offers its data (the figure itself and its ``*_json`` document); here
are its text and CSV forms, and :func:`exactodds.report.views.render_view` writes the
chosen format. Figure types are imported for type checking only, so loading this module
loads no figure code (no numpy for a study or effects of removal).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from exactodds.exact import decimal, percent, ratio
from exactodds.report.views import (
    Block,
    Bullet,
    Heading,
    Table,
    View,
    render_csv_rows,
    render_json,
    render_view,
    sections_csv,
)

if TYPE_CHECKING:
    from exactodds.figures.commission import CommissionAnalysis
    from exactodds.figures.eor import EffectsOfRemoval, Skipped
    from exactodds.figures.ride import RideAnalysis
    from exactodds.study import StudyResult


# -- effects of removal ---------------------------------------------------------------------------
EOR_HEADERS: Final = ["Card removed", "Copies", "Effect on return", "Effect (%)", "Tag"]
"""A person reads decimals (the exact ``p/q`` of each effect is in JSON and CSV, issue 25)."""


def eor_rows(e: EffectsOfRemoval) -> list[list[str]]:
    """Human rows: card, copies, effect (a decimal to a person, :func:`~exactodds.report.views.human`), effect %, tag (ranks, then faces where suits matter)."""
    rows = [[x.label, f"{x.copies:,}", ratio(x.effect), percent(x.effect, 6), str(e.count.tags.get(x.rank, 0))]
            for x in e.ranks]
    rows += [[x.label, f"{x.copies:,}", ratio(x.effect), percent(x.effect, 6), ""] for x in e.shown_faces]
    return rows


def _eor_csv(e: EffectsOfRemoval) -> list[list[Any]]:
    from exactodds.report.spreadsheet import exact_cells, exact_columns

    return [["card", "copies", *exact_columns("return_after"), *exact_columns("effect"), "tag"],
            *([x.label, x.copies, *exact_cells(x.return_after), *exact_cells(x.effect), e.count.tags.get(x.rank, 0)]
              for x in e.ranks),
            *([x.label, x.copies, *exact_cells(x.return_after), *exact_cells(x.effect), ""] for x in e.shown_faces)]


def _eor_blocks(e: EffectsOfRemoval) -> list[Block]:
    c = e.count
    identity = ('holds exactly' if e.identity_holds else 'n/a (fewer than 7 cards)' if e.identity_holds is None
                else 'FAILS')
    return [Heading(f"Effects of removal -- {e.wager.name} -- paytable {e.paytable.id} -- {e.shoe.describe()}", 3),
            "", f"Return: {ratio(e.base_return)} ({percent(e.base_return, 6)})", "",
            *([f"Priced at {', '.join(f'{k} ${decimal(v, 2)}' for k, v in e.meter_amounts.items())} (--meter)", ""]
              if e.meter_amounts else []),
            Table(EOR_HEADERS, eor_rows(e), ("left", "right", "right", "right", "right")), "",
            f"Identity Σ n·Return(shoe − card) = N·Return(shoe): {identity}",
            f"Suggested count: {' '.join(f'{k}:{v:+d}' for k, v in c.tags.items())} "
            f"({'balanced' if c.balanced else f'imbalance {c.imbalance}'}); "
            f"correlation with the effects {c.correlation or 'n/a'}"
            + (f" (r² = {ratio(c.r_squared)} = {decimal(c.r_squared, 6)})" if c.r_squared is not None else ""),
            "", e.method]


def eor_view(e: EffectsOfRemoval) -> View:
    """Effects of removal: :func:`exactodds.figures.eor.eor_json`, the table, the CSV rows."""
    from exactodds.figures.eor import eor_json

    return View(lambda: eor_json(e), lambda: _eor_blocks(e), lambda: _eor_csv(e))


def render_eor(e: EffectsOfRemoval, fmt: str) -> str:
    """Effects of removal as a table, Markdown, CSV or JSON."""
    return render_view(eor_view(e), fmt)


def game_eor_view(doc: dict[str, Any]) -> View:
    """A game's effects of removal (:meth:`exactodds.game.protocol.Game.effects_of_removal`):
    its JSON as given (``p/q`` with decimals beside), a table of the ranks, the CSV rows."""
    header = ["card", "copies", "return_after", "effect", "effect_percent", "tag"]
    rows = [[r[k] for k in header] for r in doc["ranks"]]

    def blocks() -> list[Block]:
        count = doc["count"]
        return [Heading(f"Effects of removal -- {doc['title']} -- {doc['deck']['description']}", 3), "",
                f"Return {percent(Fraction(doc['return']), 6)} ({doc['return']}); {doc['method']}.", "",
                Table(["Card", "Copies", "Effect on the return (%)", "Count tag"],
                      [[r["card"], r["copies"], r["effect_percent"], r["tag"]] for r in doc["ranks"]],
                      ("left", "right", "right", "right")), "",
                f"Count: {'balanced' if count['balanced'] else 'NOT balanced'}, correlation with the effects "
                f"{count['correlation']}."]

    return View(lambda: doc, blocks, lambda: [header, *rows])


def render_eor_catalogue(results: Sequence[EffectsOfRemoval], skipped: Sequence[Skipped], fmt: str) -> str:
    """Every wager's effects of removal: one JSON document, one tidy CSV table (``wager`` and
    ``paytable`` columns before each wager's rows), or each view in turn with the wagers that
    cannot be priced card by card listed last."""
    if fmt == "json":
        from exactodds.figures.eor import eor_json
        return render_json({"effects": [eor_json(e) for e in results], "skipped": [vars(x) for x in skipped]})
    if fmt == "csv":
        tables = [(e, _eor_csv(e)) for e in results]
        header = ["wager", "paytable", *tables[0][1][0]] if tables else ["wager", "paytable"]
        return render_csv_rows([header, *([e.wager.id, e.paytable.id, *row] for e, rows in tables for row in rows[1:])])
    text = "\n".join(render_eor(e, fmt) for e in results)
    return text + "".join(f"\nSkipped {x.wager} ({x.paytable}): {x.reason}\n" for x in skipped)


# -- commission by wager amount -------------------------------------------------------------------
COMMISSION_CITE: Final = "58 Pa. Code § 629a.12(c), § 541.13(d), § 545.13(d)"


def _commission_blocks(rows: Sequence[CommissionAnalysis]) -> list[Block]:
    table = [[f"${decimal(r.amount, 2)}", f"${decimal(r.commission, 2)}", ratio(r.net_per_unit),
              ratio(r.analysis.house_edge), percent(r.analysis.house_edge, 6)] for r in rows]
    r0 = rows[0]
    rounding = "not rounded" if r0.increment is None else f"rounded up to a multiple of ${decimal(r0.increment, 2)}"
    return [Heading(f"{r0.analysis.wager.name} -- {percent(r0.rate, 2)} commission {rounding} "
                    f"-- {r0.analysis.shoe.describe()}", 3), "",
            f"{COMMISSION_CITE}: the commission on a win is rate × amount rounded up; returns are exact, per unit "
            "of the wager amount (exact p/q in --format json/csv).", "",
            Table(["Wager", "Commission on a win", "Win pays (per unit)", "House edge", "House edge (%)"], table,
                  ("right", "right", "right", "right", "right"))]


def commission_view(rows: Sequence[CommissionAnalysis]) -> View:
    """The edge-by-amount table: :func:`exactodds.figures.commission.commission_json`, text, CSV."""
    from exactodds.figures.commission import commission_json

    def csv_rows() -> list[list[Any]]:
        keys = ["amount", "commission", "win_net_per_unit", "return", "house_edge"]
        return [keys, *([r[k] for k in keys] for r in commission_json(rows)["rows"])]

    return View(lambda: commission_json(rows), lambda: _commission_blocks(rows), csv_rows)


def render_commission(rows: Sequence[CommissionAnalysis], fmt: str) -> str:
    """The edge-by-amount table in the chosen format."""
    return render_view(commission_view(rows), fmt)


# -- House Money ride -----------------------------------------------------------------------------
def _ride_blocks(r: RideAnalysis) -> list[Block]:
    from exactodds.figures.ride import CITE, ride_json

    doc = ride_json(r)
    return [Heading(f"House Money, {percent(r.fraction, 2)} of a win ridden on {r.main_wager.name} "
                    f"({r.main_paytable}), {r.shoe.describe()}", 3), "", CITE,
            f"Stakes: House Money 1, main wager {ratio(r.main_stake)}; figures per unit of the total outlay.", "",
            Table(["House Money", "Main wager", "Combinations", "Net (units)"],
                  [[x.house_money, x.main, f"{x.count:,}", ratio(x.net)] for x in r.rows]), "",
            f"Return:                {doc['return']}  ({percent(r.return_, 6)})",
            f"Return without riding: {doc['return_without_ride']}  ({percent(r.return_without_ride, 6)})",
            f"Effect of riding:      {doc['ride_effect']}  ({percent(r.return_ - r.return_without_ride, 6)})",
            f"House Money alone:     {doc['house_money_return']}  ({percent(r.house_money_return, 6)})",
            f"Main wager alone:      {doc['main_return']}  ({percent(r.main_return, 6)})",
            f"Variance:              {doc['variance']}",
            f"Standard deviation:    {doc['std_dev']}"]


def ride_view(r: RideAnalysis) -> View:
    """The ride analysis: :func:`exactodds.figures.ride.ride_json`, text, CSV (one row per outcome)."""
    from exactodds.figures.ride import ride_json

    def csv_rows() -> list[list[Any]]:  # the headline figures as a summary row, then the outcomes
        doc = ride_json(r)
        figures = ["return", "return_without_ride", "ride_effect", "house_money_return", "main_return", "variance"]
        keys = ["house_money", "main", "count", "net"]
        return sections_csv([("summary", [*figures, "standard_deviation"],
                              [[*(doc[k] for k in figures), doc["std_dev"]]]),
                             ("outcome", keys, [[x[k] for k in keys] for x in doc["rows"]])])

    return View(lambda: ride_json(r), lambda: _ride_blocks(r), csv_rows)


def render_ride(r: RideAnalysis, fmt: str) -> str:
    """The ride analysis as a table, Markdown, CSV or JSON."""
    return render_view(ride_view(r), fmt)


# -- must-hit-by mystery meters -------------------------------------------------------------------
def mystery_view(configs: Sequence[Any] | None = None) -> View:
    """The mystery configurations (default: the regulated ones; else a designer's own):
    :func:`exactodds.figures.progressive.mystery_rows` with the reading."""
    from exactodds.figures.progressive import MYSTERY_READING, mystery_rows

    rows = mystery_rows(configs)

    def text() -> list[Block]:
        body = [[r["config"], *(str(Fraction(r[k])) for k in ("stake", "minimum", "maximum", "rate",
                                                               "expected_wagers_per_hit", "long_run_return")),
                 percent(Fraction(r["long_run_return"]), 4), r["cite"]] for r in rows]
        headers = ["Config", "Stake", "Min", "Max", "Rate", "E[wagers/hit]", "Long-run return", "%", "Cite"]
        return ["Must-hit-by mystery meters: long-run return per unit wagered", "", Table(headers, body), "",
                MYSTERY_READING]

    return View(lambda: {"configurations": rows, "reading": MYSTERY_READING}, text,
                lambda: [list(rows[0]), *(list(r.values()) for r in rows)])


def render_mystery(fmt: str, configs: Sequence[Any] | None = None) -> str:
    """The mystery configurations as a table, JSON, CSV or Markdown."""
    return render_view(mystery_view(configs), fmt)


# -- counting study -------------------------------------------------------------------------------
STUDY_HEADERS: Final = ["Wager", "Strategy", "Bets/shoe", "Expected win/shoe", "95% interval",
                        "Realized win/shoe", "95% interval", "Edge when betting", "Rounds > 0"]


def study_rows(r: StudyResult) -> list[list[str]]:
    """One human row per wager and strategy (the summary table)."""
    rows = []
    for w in r.wagers:
        for s in w.strategies:
            name = s.strategy
            if s.trigger is not None:
                name += f" ({s.trigger['kind'].upper()} >= {s.trigger['value'].removesuffix('/1')}"
                name += ", best of scan" if s.trigger["scanned"] else ""
                name += ", all tags 0)" if "note" in s.trigger else ")"
            ei, ri = s.expected_interval, s.realized_interval
            adv = s.average_advantage
            rows.append([w.spec.label, name, decimal(s.bets_per_shoe, 3), decimal(s.expected_win_per_shoe, 5),
                         "" if ei is None else f"[{ei.low:.5f}, {ei.high:.5f}]",
                         decimal(s.realized_win_per_shoe, 5),
                         "" if ri is None else f"[{ri.low:.5f}, {ri.high:.5f}]",
                         "" if adv is None else percent(adv, 3), percent(w.positive_share, 3)])
    return rows


def _study_csv(r: StudyResult) -> list[list[Any]]:
    rows: list[list[Any]] = [["wager", "paytable", "strategy", "trigger", "rounds", "bets", "bets_per_shoe",
                              "expected_win_per_shoe", "realized_win_per_shoe", "realized_low", "realized_high",
                              "average_advantage", "positive_share", "mean_return", "win_per_100_rounds",
                              "sd_per_shoe", "desirability_index", "score"]]
    for w in r.wagers:
        for s in w.strategies:
            ri = s.realized_interval
            trig = "" if s.trigger is None else f"{s.trigger['kind']}>={s.trigger['value']}"
            adv = s.average_advantage
            rows.append([w.spec.wager, w.spec.paytable, s.strategy, trig, s.rounds, s.bets, ratio(s.bets_per_shoe),
                         ratio(s.expected_win_per_shoe), ratio(s.realized_win_per_shoe),
                         "" if ri is None else f"{ri.low:.8f}", "" if ri is None else f"{ri.high:.8f}",
                         "" if adv is None else ratio(adv), ratio(w.positive_share), ratio(w.mean_return),
                         ratio(s.win_per_100_rounds), s.sd_per_shoe or "",
                         "" if s.desirability_index is None else f"{s.desirability_index:.6g}",
                         "" if s.score is None else f"{s.score:.6g}"])
    return rows


def _industry_rows(r: StudyResult) -> list[list[str]]:
    """Win per 100 rounds, SD per shoe, desirability index and SCORE (docs/study.md)."""
    return [[w.spec.label, s.strategy, decimal(s.win_per_100_rounds, 4), s.sd_per_shoe or "-",
             "-" if s.desirability_index is None else f"{s.desirability_index:.2f}",
             "-" if s.score is None else f"{s.score:.2f}"] for w in r.wagers for s in w.strategies]


def _study_blocks(r: StudyResult) -> list[Block]:
    from exactodds.game.cards import Shoe
    from exactodds.study import TRACE_RANKS

    spec = r.spec
    head = (f"Counting study: {spec.shoes:,} shoes ({Shoe(spec.counts).describe()}, cover {spec.cover}), "
            f"seed {spec.seed}, {r.rounds:,} rounds; win in units of one bet per shoe")
    blocks: list[Block] = [Heading(head, 2), "", Table(STUDY_HEADERS, study_rows(r)), "",
                           Table(["Wager", "Strategy", "Win/100 rounds", "SD per shoe", "DI", "SCORE"],
                                 _industry_rows(r)), "",
                           Heading("Exact return by true count (rounds)", 3), ""]
    for w in r.wagers:
        cells = [f"{b.label}: {percent(b.mean_return, 2)} ({b.rounds:,})" for b in w.buckets
                 if b.mean_return is not None]
        tag_text = " ".join(f"{k}:{v:+d}" for k, v in zip(TRACE_RANKS, w.spec.tags) if v)
        blocks.append(Bullet(f"{w.spec.label} [count {w.spec.tags_source}: {tag_text or 'all 0'}; full shoe "
                             f"{percent(w.full_shoe_return, 4)}, every round {percent(w.mean_return, 4)}]: "
                             + "; ".join(cells)))
    return blocks


def study_view(r: StudyResult) -> View:
    """The study: :func:`exactodds.study.study_json`, the summary, CSV per wager and strategy."""
    from exactodds.study import study_json

    return View(lambda: study_json(r), lambda: _study_blocks(r), lambda: _study_csv(r))


def render_study(r: StudyResult, fmt: str) -> str:
    """The study as a table, Markdown, CSV (one row per wager and strategy) or JSON."""
    return render_view(study_view(r), fmt)


__all__ = ["COMMISSION_CITE", "EOR_HEADERS", "STUDY_HEADERS", "commission_view", "eor_rows", "eor_view",
           "mystery_view", "render_commission", "render_eor", "render_eor_catalogue", "render_mystery",
           "render_ride", "render_study", "ride_view", "study_rows", "study_view"]
