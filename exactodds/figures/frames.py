"""Analyses as pandas DataFrames, exact values kept exact (pandas is an optional extra).

:func:`analysis_frame` has one row per outcome: ``outcome``, ``pays_text`` and, as
Python objects (an ``object`` column), ``pays``, ``probability`` and ``return`` as
:class:`~fractions.Fraction` and ``count`` as ``int`` -- so sums, products and
comparisons on them stay exact. ``probability_float`` and ``return_float`` are floats
*for display only* (sorting, plotting); never compute a figure from them. The frame's
``attrs`` hold the summary (``return``, ``house_edge``, … as Fractions).

:func:`study_frame` does the same for a study (one row per wager and strategy): exact
figures as Fractions, observed statistics (desirability index, SCORE) as floats, as in its
JSON; a simulation's frame is :func:`exactodds.simulation.frames.simulation_frame` (the
simulator comes after the figures in the pipeline).

pandas is imported here only: ``pip install 'exactodds[pandas]'``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from exactodds.figures.analysis import Analysis
    from exactodds.figures.eor import EffectsOfRemoval
    from exactodds.figures.study import StudyResult


def require_pandas() -> Any:
    """pandas, or the one-line error naming the extra (:mod:`exactodds.extras`)."""
    from exactodds.extras import require

    return require("pandas", "a DataFrame")


def analysis_frame(a: Analysis) -> Any:
    """The outcome table of ``a`` as a DataFrame (see the module docstring)."""
    pd = require_pandas()
    exact: dict[str, list[Any]] = {
        "pays": [r.pay.net for r in a.rows],
        "count": [r.count for r in a.rows],
        "probability": [r.probability for r in a.rows],
        "return": [r.contribution for r in a.rows],
    }
    frame = pd.DataFrame({
        "outcome": pd.Series([r.name for r in a.rows], dtype=object),
        "pays_text": pd.Series([r.pay.text for r in a.rows], dtype=object),
        **{k: pd.Series(v, dtype=object) for k, v in exact.items()},
        "probability_float": [float(p) for p in exact["probability"]],  # display only
        "return_float": [float(x) for x in exact["return"]],            # display only
    })
    frame.attrs.update({"wager": a.wager.id, "paytable": a.paytable.id, "shoe": a.shoe.describe(),
                        "total": a.total, "return": a.return_, "house_edge": a.house_edge,
                        "hit_frequency": a.hit_frequency, "variance": a.variance,
                        "element_of_risk": a.element_of_risk})
    return frame


def catalogue_frame(analyses: Sequence[Analysis]) -> Any:
    """``analyze --all`` as a DataFrame: one row per wager and paytable, the same ``outcome``-free
    summary as its CSV (``wager``, ``paytable``, exact ``house_edge``, ``element_of_risk``,
    ``hit_frequency``, ``variance`` as Fractions; ``house_edge_float`` for display only)."""
    pd = require_pandas()
    keys = ("house_edge", "element_of_risk", "hit_frequency", "variance")
    return pd.DataFrame({
        "wager": pd.Series([a.wager.id for a in analyses], dtype=object),
        "paytable": pd.Series([a.paytable.id for a in analyses], dtype=object),
        **{k: pd.Series([getattr(a, k) for a in analyses], dtype=object) for k in keys},
        "house_edge_float": [float(a.house_edge) for a in analyses],  # display only
    })


def eor_frame(results: Sequence[EffectsOfRemoval]) -> Any:
    """Effects of removal (one or ``eor --all``'s many) as one DataFrame: ``wager``, ``paytable``,
    ``card``, ``copies``, exact ``return_after`` and ``effect`` (Fractions), ``effect_float`` for display."""
    pd = require_pandas()
    rows = [(e.wager.id, e.paytable.id, x.label, x.copies, x.return_after, x.effect)
            for e in results for x in (*e.ranks, *e.shown_faces)]
    frame = object_frame(pd, rows, ("wager", "paytable", "card", "copies", "return_after", "effect"))
    frame["effect_float"] = [float(r[5]) for r in rows]  # display only
    return frame


def object_frame(pd: Any, rows: Sequence[Sequence[Any]], cols: Sequence[str]) -> Any:
    """A DataFrame of ``rows`` whose every column keeps its Python objects (Fractions, ints)."""
    return pd.DataFrame({c: pd.Series([r[i] for r in rows], dtype=object) for i, c in enumerate(cols)})


STUDY_COLUMNS = ("wager", "paytable", "level", "strategy", "rounds", "bets", "full_shoe_return", "mean_return",
                 "expected_win_per_shoe", "realized_win_per_shoe", "average_advantage", "win_per_100_rounds",
                 "realized_shoe_variance", "desirability_index", "score")


def study_frame(r: StudyResult) -> Any:
    """A study (:func:`exactodds.figures.study.run_study`) as a DataFrame: one row per wager and
    strategy, :data:`STUDY_COLUMNS` -- the exact figures as Fractions (``average_advantage`` and
    ``realized_shoe_variance`` ``None`` where undefined), ``desirability_index`` and ``score``
    floats (statistics of the dealt shoes); ``win_per_100_rounds_float`` for display only.
    ``attrs``: shoes, seed and rounds."""
    pd = require_pandas()
    rows = [(w.spec.wager, w.spec.paytable, w.level, s.strategy, s.rounds, s.bets, w.full_shoe_return, w.mean_return,
             s.expected_win_per_shoe, s.realized_win_per_shoe, s.average_advantage, s.win_per_100_rounds,
             s.realized_shoe_variance, s.desirability_index, s.score)
            for w in r.wagers for s in w.strategies]
    frame = object_frame(pd, rows, STUDY_COLUMNS)
    frame["win_per_100_rounds_float"] = [float(x[11]) for x in rows]  # display only
    frame.attrs.update({"shoes": r.spec.shoes, "seed": r.spec.seed, "rounds": r.rounds})
    return frame
