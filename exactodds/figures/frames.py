"""Analyses as pandas DataFrames, exact values kept exact (pandas is an optional extra).

:func:`analysis_frame` has one row per outcome: ``outcome``, ``pays_text`` and, as
Python objects (an ``object`` column), ``pays``, ``probability`` and ``return`` as
:class:`~fractions.Fraction` and ``count`` as ``int`` -- so sums, products and
comparisons on them stay exact. ``probability_float`` and ``return_float`` are floats
*for display only* (sorting, plotting); never compute a figure from them. The frame's
``attrs`` hold the summary (``return``, ``house_edge``, … as Fractions).

:func:`study_frame` and :func:`simulation_frame` do the same for a study (one row per wager
and strategy) and a simulation (one row per wager, paytable and ``outcome``, its return
estimate beside): exact figures as Fractions, observed statistics (standard error, z,
desirability index, SCORE) as floats, as in their JSON.

pandas is imported here only: ``pip install 'exactodds[pandas]'``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from exactodds.figures.analysis import Analysis
    from exactodds.figures.eor import EffectsOfRemoval
    from exactodds.figures.study import StudyResult
    from exactodds.simulation.simulate import Simulation


def _pandas() -> Any:
    """pandas, or the one-line error naming the extra (:mod:`exactodds.extras`)."""
    from exactodds.extras import require

    return require("pandas", "a DataFrame")


def analysis_frame(a: Analysis) -> Any:
    """The outcome table of ``a`` as a DataFrame (see the module docstring)."""
    pd = _pandas()
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
    pd = _pandas()
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
    pd = _pandas()
    rows = [(e.wager.id, e.paytable.id, x.label, x.copies, x.return_after, x.effect)
            for e in results for x in (*e.ranks, *e.shown_faces)]
    frame = _object_frame(pd, rows, ("wager", "paytable", "card", "copies", "return_after", "effect"))
    frame["effect_float"] = [float(r[5]) for r in rows]  # display only
    return frame


def _object_frame(pd: Any, rows: Sequence[Sequence[Any]], cols: Sequence[str]) -> Any:
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
    pd = _pandas()
    rows = [(w.spec.wager, w.spec.paytable, w.level, s.strategy, s.rounds, s.bets, w.full_shoe_return, w.mean_return,
             s.expected_win_per_shoe, s.realized_win_per_shoe, s.average_advantage, s.win_per_100_rounds,
             s.realized_shoe_variance, s.desirability_index, s.score)
            for w in r.wagers for s in w.strategies]
    frame = _object_frame(pd, rows, STUDY_COLUMNS)
    frame["win_per_100_rounds_float"] = [float(x[11]) for x in rows]  # display only
    frame.attrs.update({"shoes": r.spec.shoes, "seed": r.spec.seed, "rounds": r.rounds})
    return frame


SIMULATION_COLUMNS = ("wager", "paytable", "level", "outcome", "count", "rounds_compared", "observed_return",
                      "exact_return", "standard_error", "z")


def simulation_frame(sim: Simulation) -> Any:
    """A simulation run with a settler (``simulate(..., settler=...)``) as a DataFrame: one row
    per wager, paytable and outcome, :data:`SIMULATION_COLUMNS` -- ``count`` over every round
    (int), the wager's estimate beside each row: ``observed_return`` and ``exact_return`` as
    Fractions over ``rounds_compared`` rounds (every round fresh, the comparable ones in shoe
    mode), ``standard_error`` and ``z`` floats (as ``simulate --format json``)."""
    from exactodds.simulation.engine_link import exact_analysis
    from exactodds.simulation.simulate import estimate_return

    pd = _pandas()
    if sim.settled is None:
        from exactodds.errors import InputError

        raise InputError("simulation_frame needs a simulation run with a settler (simulate(..., settler=...))")
    compared, every = sim.settled.families(0), sim.settled.families()
    rows = []
    for (wager, paytable), counts in every.items():
        a = exact_analysis(wager, paytable, sim.shoe)
        est = estimate_return(compared[(wager, paytable)], {x.name: x.pay.net for x in a.rows}, a.return_,
                              a.variance)
        estimate = (0, None, a.return_, None, None) if est is None else \
            (est.rounds, est.observed, est.exact, est.standard_error, est.z)
        rows += [(wager, paytable, a.wager.level.name, outcome, n, *estimate) for outcome, n in counts.items()]
    frame = _object_frame(pd, rows, SIMULATION_COLUMNS)
    frame.attrs.update({"mode": sim.mode, "rounds": sim.rounds, "seed": sim.seed, "shoe": sim.shoe.describe()})
    return frame
