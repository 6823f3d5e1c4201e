"""Analyses as pandas DataFrames, exact values kept exact (pandas is an optional extra).

:func:`analysis_frame` has one row per outcome: ``outcome``, ``pays_text`` and, as
Python objects (an ``object`` column), ``pays``, ``probability`` and ``return`` as
:class:`~fractions.Fraction` and ``count`` as ``int`` -- so sums, products and
comparisons on them stay exact. ``probability_float`` and ``return_float`` are floats
*for display only* (sorting, plotting); never compute a figure from them. The frame's
``attrs`` hold the summary (``return``, ``house_edge``, … as Fractions).

A simulation's frame is :func:`exactodds.simulation.frames.simulation_frame` and a study's
:func:`exactodds.study.frames.study_frame` (both come after the figures in the pipeline: each
builds on :func:`object_frame` here).

pandas is imported here only: ``pip install 'exactodds[pandas]'``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the shapes read, not the classes: analysis.to_frame calls this module
    from exactodds.figures.priced import PricedWager, RemovalEffects


def require_pandas() -> Any:
    """pandas, or the one-line error naming the extra (:mod:`exactodds.extras`)."""
    from exactodds.extras import require

    return require("pandas", "a DataFrame")


def analysis_frame(a: PricedWager) -> Any:
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


def catalogue_frame(analyses: Sequence[PricedWager]) -> Any:
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


def eor_frame(results: Sequence[RemovalEffects]) -> Any:
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
