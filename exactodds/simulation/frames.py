"""A simulation run as a pandas DataFrame (pandas is an optional extra), beside
:mod:`exactodds.figures.frames`' analysis, catalogue, EOR and study frames: exact figures as
Fractions, observed statistics (standard error, z) as floats, as in ``simulate --format json``.
"""

from __future__ import annotations

from typing import Any

from exactodds.errors import InputError
from exactodds.figures.frames import object_frame, require_pandas
from exactodds.simulation.engine_link import exact_analysis
from exactodds.simulation.simulate import Simulation, estimate_return

SIMULATION_COLUMNS = ("wager", "paytable", "level", "outcome", "count", "rounds_compared", "observed_return",
                      "exact_return", "standard_error", "z")


def simulation_frame(sim: Simulation) -> Any:
    """A simulation run with a settler (``simulate(..., settler=...)``) as a DataFrame: one row
    per wager, paytable and outcome, :data:`SIMULATION_COLUMNS` -- ``count`` over every round
    (int), the wager's estimate beside each row: ``observed_return`` and ``exact_return`` as
    Fractions over ``rounds_compared`` rounds (every round fresh, the comparable ones in shoe
    mode), ``standard_error`` and ``z`` floats (as ``simulate --format json``)."""
    pd = require_pandas()
    if sim.settled is None:
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
    frame = object_frame(pd, rows, SIMULATION_COLUMNS)
    frame.attrs.update({"mode": sim.mode, "rounds": sim.rounds, "seed": sim.seed, "shoe": sim.shoe.describe()})
    return frame
