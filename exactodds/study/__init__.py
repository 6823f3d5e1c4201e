"""Counting-vulnerability study: the exact return of every round of many dealt shoes.

The question a regulator asks of every side wager: can a player beat it by tracking
the cards? :func:`run_study` deals ``shoes`` shoes exactly as § 629a.5 says (the
simulator's shoe mode, :func:`exactodds.simulation.simulate.deal_shoes`), and before
every round prices each named wager *exactly* for the cards left (any level: coup,
opening and deal-faces wagers alike). Two players are scored on those rounds:

* **perfect play** bets one unit exactly when the round's exact return is > 0 (an
  upper bound for any card-tracking strategy: it knows the face-down burn cards too);
* **count play** keeps a running count of the cards seen (the exposed burn card, then
  every card dealt; the face-down burn cards are not seen), from ``initial_count``,
  and bets when the running count, or the true count (running count per deck left,
  an exact Fraction), reaches a trigger. Without a trigger the best one of a fixed grid
  is reported (true count for a balanced count started at 0, running count otherwise).

**Exactness.** Each round's return is ``num / (den × universe)`` with integer ``num``
(:meth:`~exactodds.figures.settlement.Settlement.return_numerators`' figure, computed in
int64 where a bound proves it exact) and ``universe = ff(cards left, 6)``. Sums of
returns are kept as integer sums of numerators *per number of cards left* (one
denominator each), split into 24-bit limbs so int64 arrays add them without overflow;
every aggregate is an integer, so combining chunks is exact and the result is the
same whatever the partition into chunks, processes or cluster workers. Fractions are
formed once, at the end. Floats appear only in display strings, in the 95 % intervals
(statistics of the observed per-shoe figures) and in the plot.

**Reproducibility.** Shoe ``i`` is shuffled by ``np.random.default_rng([seed, i])``:
the same numbers whatever ``workers``, chunk size or cluster.

**Memory** stays bounded whatever ``shoes``: shoes are dealt and priced in chunks of
``chunk_shoes``, each chunk reduced to fixed-size integer aggregates; at most a few
chunks per worker are in flight, and the trace is streamed to its file.

>>> r = run_study(["dragon-7"], shoes=2, seed=1)
>>> s = r.wagers[0].strategies[0]
>>> s.strategy, s.rounds == r.rounds, s.bets <= s.rounds
('perfect', True, True)

The stages live in their own modules, each importing only the ones before it:
:mod:`~exactodds.study.spec` (limits, wagers, tags, triggers: a ``StudySpec``),
:mod:`~exactodds.study.dealing` (shoes dealt round by round, running counts),
:mod:`~exactodds.study.pricing` (every round priced exactly, one chunk reduced),
:mod:`~exactodds.study.aggregation` (chunks combined into the figures),
:mod:`~exactodds.study.output` (plot, data form) and
:mod:`~exactodds.study.run` (here, in processes or on a Dask cluster); a DataFrame in
:mod:`~exactodds.study.frames`. This package re-exports their names but the frame's. It
stands on its own floor, above the simulator whose shoe mode it deals (tests/test_imports.py).
"""

from __future__ import annotations

from exactodds.parallel import MAX_WORKERS, WORKERS_PER_CPU, max_workers  # one --workers for every command
from exactodds.study.aggregation import (
    Bucket,
    Interval,
    StrategyResult,
    StudyResult,
    WagerResult,
)
from exactodds.study.dealing import (
    Dealt,
    deal_chunk,
    running_counts,
    shuffled_shoes,
)
from exactodds.study.output import (
    plot_format,
    strategy_json,
    study_json,
    write_plot,
)
from exactodds.study.pricing import (
    ChunkResult,
    FamilyPart,
    WagerPart,
    joint_classes,
    study_chunk,
    trace_header,
)
from exactodds.study.run import (
    MAX_HANDSHAKE,
    bench_study,
    check_scheduler,
    check_workers,
    probe_scheduler,
    run_spec,
    run_study,
)
from exactodds.study.spec import (
    BUCKET_HIGH,
    BUCKET_LOW,
    CHUNK_SHOES,
    CONNECT_SECONDS,
    FIXED_BITS,
    HIST_PER_UNIT,
    INT64_MAX,
    LIMB,
    MAX_COUNT,
    MAX_DECKS,
    MAX_SHOES,
    MAX_TAG,
    PLOT_SAMPLE_SHOES,
    RC_SPAN,
    STRATEGIES,
    TC_GRID,
    TRACE_RANKS,
    Progress,
    Strategy,
    StudySpec,
    Thresholds,
    WagerSpec,
    _join,
    _split,
    build_spec,
    parse_tags,
    parse_trigger,
    parse_wager_spec,
)

__all__ = [
    "BUCKET_HIGH",
    "BUCKET_LOW",
    "Bucket",
    "CHUNK_SHOES",
    "CONNECT_SECONDS",
    "ChunkResult",
    "Dealt",
    "FIXED_BITS",
    "FamilyPart",
    "HIST_PER_UNIT",
    "INT64_MAX",
    "Interval",
    "LIMB",
    "MAX_COUNT",
    "MAX_DECKS",
    "MAX_HANDSHAKE",
    "MAX_SHOES",
    "MAX_TAG",
    "MAX_WORKERS",
    "PLOT_SAMPLE_SHOES",
    "Progress",
    "RC_SPAN",
    "STRATEGIES",
    "Strategy",
    "StrategyResult",
    "StudyResult",
    "StudySpec",
    "TC_GRID",
    "TRACE_RANKS",
    "Thresholds",
    "WORKERS_PER_CPU",
    "WagerPart",
    "WagerResult",
    "WagerSpec",
    "_join",
    "_split",
    "bench_study",
    "build_spec",
    "check_scheduler",
    "check_workers",
    "deal_chunk",
    "joint_classes",
    "max_workers",
    "parse_tags",
    "parse_trigger",
    "parse_wager_spec",
    "plot_format",
    "probe_scheduler",
    "run_spec",
    "run_study",
    "running_counts",
    "shuffled_shoes",
    "strategy_json",
    "study_chunk",
    "study_json",
    "trace_header",
    "write_plot",
]
