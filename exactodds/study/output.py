"""Study stage 5, output: the plot and the data form the views render
(:mod:`exactodds.report.figure_views`)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from exactodds.exact import decimal, percent, ratio
from exactodds.game.cards import Shoe
from exactodds.io.files import write_atomic
from exactodds.study.aggregation import Interval, StrategyResult, StudyResult

# -- plot -----------------------------------------------------------------------------------------------
from exactodds.study.spec import HIST_PER_UNIT, PLOT_SAMPLE_SHOES, TRACE_RANKS
from exactodds.version import __version__


def plot_format(path: str) -> str:
    """``png``, ``svg`` or ``pdf`` from the file's extension (anything else is an input error):
    :func:`exactodds.extras.plot_format`, the one rule for every chart."""
    from exactodds.extras import plot_format as chart_format

    return chart_format(path)


def write_plot(result: StudyResult, path: str) -> None:
    """Per wager: the exact return against the true count (a sample of rounds and the exact
    mean per bucket) and the distribution of per-round returns; written atomically."""
    from exactodds.extras import PLOT_METADATA, quiet_pyplot

    fmt = plot_format(path)
    with quiet_pyplot("study --plot") as plt:
        data = _plot_bytes(result, plt, fmt, PLOT_METADATA[fmt])
    write_atomic(path, data)


def _plot_bytes(result: StudyResult, plt: Any, fmt: str, metadata: dict[str, None]) -> bytes:
    """The figure of :func:`write_plot` as ``fmt`` bytes."""
    n = len(result.wagers)
    fig, axes = plt.subplots(n, 2, figsize=(11, 3.2 * n), squeeze=False)
    for row, w in zip(axes, result.wagers):
        hist, sample = result.plot_data.get(w.spec.label, (None, []))
        left, right = row
        if sample:
            tc = np.concatenate([s[0] for s in sample])
            ret = np.concatenate([s[1] for s in sample])
            left.scatter(tc, 100 * ret, s=2, alpha=0.25, color="tab:blue",
                         label=f"rounds of the first {PLOT_SAMPLE_SHOES} shoes")
        pts = [(b.low + 0.5, 100 * float(b.mean_return)) for b in w.buckets if b.mean_return is not None]
        if pts:
            left.plot(*zip(*pts), "o-", color="tab:red", label="exact mean per true-count bucket")
        left.axhline(0, color="black", lw=0.8)
        left.set_xlabel("true count (running count per deck left)")
        left.set_ylabel("exact return (%)")
        left.set_title(f"{w.spec.label}: return v. true count", fontsize=10)
        left.legend(fontsize=7, loc="best")
        if hist is not None and hist.sum():
            nz = np.flatnonzero(hist)
            lo, hi = max(int(nz[0]) - 1, 0), min(int(nz[-1]) + 2, len(hist))
            edges = (np.arange(lo, hi + 1) - HIST_PER_UNIT) / HIST_PER_UNIT * 100
            right.stairs(hist[lo:hi], edges, fill=True, color="tab:green")
            if hist[-1]:
                right.text(0.98, 0.95, f"{int(hist[-1]):,} rounds ≥ +100 %", ha="right", va="top",
                           transform=right.transAxes, fontsize=7)
        right.axvline(0, color="black", lw=0.8)
        right.set_xlabel("exact return of the round (%)")
        right.set_ylabel("rounds")
        right.set_title(f"{w.spec.label}: {percent(w.positive_share, 2)} of rounds positive", fontsize=10)
    fig.tight_layout()
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format=fmt, metadata=metadata)
    finally:
        plt.close(fig)
    return buffer.getvalue()


# -- data form (rendered by exactodds.report.figure_views) --------------------------------------------
def _interval_json(i: Interval | None) -> list[str] | None:
    return None if i is None else [f"{i.low:.6f}", f"{i.high:.6f}"]


def strategy_json(s: StrategyResult) -> dict[str, Any]:
    """One strategy's figures: exact values as ``"p/q"`` plus a decimal."""
    adv = s.average_advantage
    doc: dict[str, Any] = {
        "strategy": s.strategy,
        "rounds": s.rounds,
        "bets": s.bets,
        "bets_per_shoe": ratio(s.bets_per_shoe),
        "bets_per_shoe_decimal": decimal(s.bets_per_shoe, 6),
        "expected_win_per_shoe": ratio(s.expected_win_per_shoe),
        "expected_win_per_shoe_decimal": decimal(s.expected_win_per_shoe, 8),
        "expected_win_per_shoe_interval": _interval_json(s.expected_interval),
        "realized_win_per_shoe": ratio(s.realized_win_per_shoe),
        "realized_win_per_shoe_decimal": decimal(s.realized_win_per_shoe, 8),
        "realized_win_per_shoe_interval": _interval_json(s.realized_interval),
        "average_advantage": None if adv is None else ratio(adv),
        "average_advantage_percent": None if adv is None else percent(adv, 6),
        "win_per_100_rounds": ratio(s.win_per_100_rounds),
        "win_per_100_rounds_decimal": decimal(s.win_per_100_rounds, 8),
        "realized_shoe_variance": None if s.realized_shoe_variance is None else ratio(s.realized_shoe_variance),
        "sd_per_shoe_decimal": s.sd_per_shoe,
        "desirability_index": s.desirability_index,
        "score": s.score,
    }
    if s.trigger is not None:
        doc["trigger"] = s.trigger
    if s.scan:
        doc["trigger_scan"] = list(s.scan)
    return doc


def study_json(r: StudyResult) -> dict[str, Any]:
    """The study as a JSON document (key names: ``docs/study.md``)."""
    spec = r.spec
    return {
        "study": {
            "shoes": spec.shoes, "seed": spec.seed, "shoe": Shoe(spec.counts).to_json(), "cover": spec.cover,
            "strategy": spec.strategy, "initial_count": spec.initial_count, "rounds": r.rounds,
            "seed_rule": "shoe i shuffled by numpy.random.default_rng([seed, i])",
        },
        "wagers": [{
            "wager": w.spec.wager, "paytable": w.spec.paytable, "level": w.level,
            "full_shoe_return": ratio(w.full_shoe_return),
            "full_shoe_return_percent": percent(w.full_shoe_return, 6),
            "rounds": w.rounds,
            "positive_rounds": w.positive_rounds,
            "positive_share": ratio(w.positive_share),
            "positive_share_decimal": decimal(w.positive_share, 6),
            "mean_return": ratio(w.mean_return),
            "mean_return_percent": percent(w.mean_return, 6),
            "count": {"tags": dict(zip(TRACE_RANKS, w.spec.tags)), "source": w.spec.tags_source},
            "true_count_buckets": [
                {"true_count": b.label, "rounds": b.rounds,
                 "mean_return": None if b.mean_return is None else ratio(b.mean_return),
                 "mean_return_percent": None if b.mean_return is None else percent(b.mean_return, 6)}
                for b in w.buckets],
            "strategies": [strategy_json(s) for s in w.strategies],
        } for w in r.wagers],
        "seconds": round(r.seconds, 3),
        "compositions_per_second": round(r.compositions / r.seconds) if r.seconds else None,
        "version": __version__,
    }


