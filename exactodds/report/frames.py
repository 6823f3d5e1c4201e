"""Analyses as pandas DataFrames, exact values kept exact (pandas is an optional extra).

:func:`analysis_frame` has one row per outcome: ``outcome``, ``pays_text`` and, as
Python objects (an ``object`` column), ``pays``, ``probability`` and ``return`` as
:class:`~fractions.Fraction` and ``count`` as ``int`` -- so sums, products and
comparisons on them stay exact. ``probability_float`` and ``return_float`` are floats
*for display only* (sorting, plotting); never compute a figure from them. The frame's
``attrs`` hold the summary (``return``, ``house_edge``, … as Fractions).

pandas is imported here only: ``pip install 'exactodds[pandas]'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from exactodds.figures.analysis import Analysis


def analysis_frame(a: Analysis) -> Any:
    """The outcome table of ``a`` as a DataFrame (see the module docstring)."""
    try:
        import pandas as pd  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("Analysis.to_frame() needs pandas: pip install 'exactodds[pandas]'") from None
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
