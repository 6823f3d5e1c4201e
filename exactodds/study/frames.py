"""A study as a pandas DataFrame (pandas is an optional extra): one row per wager and strategy,
exact figures as Fractions, observed statistics (desirability index, SCORE) as floats, as in
its JSON. Built on :func:`exactodds.figures.frames.object_frame`, beside the study it reads
(the study comes after the figures in the pipeline)."""

from __future__ import annotations

from typing import Any

from exactodds.figures.frames import object_frame, require_pandas
from exactodds.study.aggregation import StudyResult

STUDY_COLUMNS = ("wager", "paytable", "level", "strategy", "rounds", "bets", "full_shoe_return", "mean_return",
                 "expected_win_per_shoe", "realized_win_per_shoe", "average_advantage", "win_per_100_rounds",
                 "realized_shoe_variance", "desirability_index", "score")


def study_frame(r: StudyResult) -> Any:
    """A study (:func:`exactodds.study.run_study`) as a DataFrame: one row per wager and
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
