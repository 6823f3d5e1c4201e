"""Study stage 3, pricing per round: each round's composition priced exactly at every level
of the studied wagers, reduced to the chunk's integer aggregates (:func:`study_chunk`)."""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from exactodds.catalogue import get_wager
from exactodds.engine.level import Level
from exactodds.engine.levels import COUP
from exactodds.exact import decimal, ratio, significant
from exactodds.figures.settlement import settlement
from exactodds.game.cards import RANKS, falling_factorial
from exactodds.simulation.simulate import (
    NCODES,
    decode,
)
from exactodds.study.dealing import Dealt, deal_chunk, running_counts

# -- one chunk of shoes -------------------------------------------------------------------------
from exactodds.study.spec import (
    _KERNEL_BATCH,
    _NUMPY_BATCH,
    BUCKET_HIGH,
    BUCKET_LOW,
    FIXED_BITS,
    HIST_PER_UNIT,
    PLOT_SAMPLE_SHOES,
    TRACE_RANKS,
    StudySpec,
    Thresholds,
    WagerSpec,
    _Priced,
    _priced,
    _split,
)


@dataclass
class FamilyPart:
    """One chunk's aggregates for one *family* of bet rules on one wager.

    Each round falls in a bin ``k`` of ``0..K-1``; for threshold families (perfect play,
    count triggers) candidate ``c`` bets the rounds of bins ``> c``. ``exp_*``: integer
    sums of return numerators per (cards left, bin), sparse; ``realized``/``expected``:
    per candidate Σ and Σ² over shoes of the shoe's realized win (scaled by ``den``) and
    of its expected win (fixed point, for the interval).
    """

    count: npt.NDArray[np.int64]
    exp_index: npt.NDArray[np.int64]
    exp_limbs: npt.NDArray[np.int64]
    realized: tuple[list[int], list[int]] | None = None
    expected: tuple[list[int], list[int]] | None = None


@dataclass
class WagerPart:
    """One chunk's aggregates for one wager."""

    families: dict[str, FamilyPart]
    hist: npt.NDArray[np.int64] | None = None
    sample: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None


@dataclass
class ChunkResult:
    """What one chunk of shoes reduces to: small, fixed-size, exactly combinable."""

    index: int
    shoes: int
    rounds: int
    wagers: list[WagerPart]
    trace: str | None
    seconds: float
    cpu_seconds: float = 0.0
    pricing_cpu_seconds: float = 0.0
    """The part of :attr:`cpu_seconds` spent pricing compositions (the rest is the study's
    own dealing, counting and aggregation)."""
    warm: bool = False
    """Whether the process had run a chunk before (its start-up -- numba's import, the
    tables, plans and settlements -- then paid already): what the benchmark extrapolates."""


def _price_level(level: Level, comp: npt.NDArray[np.int64],
                 classes: npt.NDArray[np.intp]) -> tuple[npt.NDArray[Any], tuple[int, ...]]:
    """Counts per class of results (the joint outcome of the study's wagers at ``level``)
    and universes for every composition, in batches."""
    size = _KERNEL_BATCH if type(level).price_classes is Level.price_classes else _NUMPY_BATCH
    parts: list[npt.NDArray[Any]] = []
    universe: list[int] = []
    for i in range(0, len(comp), size):
        p = level.price_batch(comp[i:i + size], classes=classes)
        parts.append(p.counts)
        universe.extend(p.universe)
    counts = np.concatenate(parts) if len(parts) > 1 else parts[0]
    return counts, tuple(universe)


@functools.cache
def _coup_results() -> npt.NDArray[np.intp]:
    """The coup level's result index of every coup code (-1 for none), built once per process."""
    table = np.full(NCODES, -1, np.intp)
    for c in range(NCODES):
        table[c] = COUP.result_index.get(decode(c), -1)
    table.setflags(write=False)
    return table


def _result_index(level: Level, d: Dealt) -> npt.NDArray[np.intp]:
    """The index (in ``level.results``) of every dealt round's actual result: via the coup
    code at the coup level, else the level's own ``from_deal`` on the round's cards, read
    through the simulator's one settler (:func:`~exactodds.simulation.settle.result_indices`:
    once per distinct group of the faces the level reads)."""
    if level is COUP:
        return _coup_results()[d.code]
    from exactodds.simulation.settle import baccarat_slots, result_indices

    return result_indices(level, baccarat_slots(d.faces, d.code))



def joint_classes(priced: Sequence[_Priced]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The joint outcome of several wagers of one level as classes of its results: the class
    of each result, and one result of each class. Pricing by these classes visits fewer
    entries than pricing every result, and settles every wager exactly the same."""
    joint = np.stack([settlement(p.wager, p.table).index for p in priced], axis=1)
    _, first, classes = np.unique(joint, axis=0, return_index=True, return_inverse=True)
    return classes.ravel().astype(np.intp), first.astype(np.intp)


def _numerators(p: _Priced, counts: npt.NDArray[Any], first: npt.NDArray[np.intp]) -> npt.NDArray[Any]:
    """Each round's return numerator (return = num / (den × universe)), exact: int64 when
    the bound max|scaled net| × universe fits, else Python ints. ``counts`` are per class of
    results (:func:`joint_classes`), ``first[j]`` a result of class ``j``."""
    whole = settlement(p.wager, p.table)
    if counts.dtype != object and p.int64_safe:
        # each class settles on one outcome, so tally-then-weigh is one product with each
        # class's scaled net; every partial sum is at most max|scaled net| x universe
        return counts @ np.asarray(p.scaled, np.int64)[whole.index[first]]
    s = dataclasses.replace(whole, index=whole.index[first])
    nums, _ = s.return_numerators(counts, tuple(Fraction(x, p.den) for x in p.scaled))
    return np.array(nums, dtype=object)


DENSE_KEYS: Final = 1 << 18
"""Keys below this are summed by the compiled one-pass kernel (a table of that many rows), when numba is there."""


def group_sum(keys: npt.NDArray[np.int64], values: npt.NDArray[np.int64], compiled: bool | None = None,
              ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct ``keys`` (ascending) and the sum of ``values`` rows per key, in exact int64
    arithmetic (sort, then ``np.add.reduceat``: no float, and faster than ``np.add.at``; keys
    below 2^16 sorted as 16-bit, which numpy's stable sort does by radix); keys from 0 to
    :data:`DENSE_KEYS` by the compiled one-pass kernel when numba is there (``compiled``:
    force either path; both give the same arrays).

    >>> import numpy as np
    >>> k, v = group_sum(np.array([3, 1, 3]), np.array([[1, 2], [3, 4], [5, 6]]))
    >>> k.tolist(), v.tolist()
    ([1, 3], [[3, 4], [6, 8]])
    """
    low, high = (int(keys.min()), int(keys.max())) if keys.size else (0, -1)
    if compiled is not False and keys.size and 0 <= low and high < DENSE_KEYS and values.ndim in (1, 2):
        from exactodds.study.dealing import _compiled

        kernel = _compiled()
        if compiled and kernel is None:
            raise ImportError("the compiled group sums need numba: pip install 'exactodds[fast]'")
        if kernel is not None:
            out: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] = kernel.dense_group_sum(keys, values,
                                                                                               high + 1)
            return out
    narrow = keys.size and 0 <= low and high < 2**16   # a radix sort then
    order = np.argsort(keys.astype(np.uint16) if narrow else keys, kind="stable")
    sk = keys[order]
    if not sk.size:
        return sk.astype(np.int64), values[:0].astype(np.int64)
    starts = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
    return sk[starts].astype(np.int64), np.add.reduceat(values[order], starts, axis=0).astype(np.int64)


def _family(bins: npt.NDArray[np.intp], k: int, cards: npt.NDArray[np.int64], limbs: npt.NDArray[np.int64],
            shoe: npt.NDArray[np.int64] | None = None, shoes: int = 0,
            net: npt.NDArray[np.int64] | None = None, fixed: npt.NDArray[np.int64] | None = None,
            compiled: bool | None = None) -> FamilyPart:
    """Aggregate one family: counts per bin, numerator sums per (cards left, bin); with
    ``shoe``: per threshold candidate, Σ and Σ² over shoes of realized and expected wins.
    In one compiled pass when numba is there and the keys are few (``compiled``: force
    either path; both give the same aggregates)."""
    if shoe is not None:
        assert net is not None and fixed is not None
    from exactodds.study.dealing import _compiled

    kernel = _compiled() if compiled is not False else None
    if compiled and kernel is None:
        raise ImportError("the compiled family sums need numba: pip install 'exactodds[fast]'")
    if kernel is not None and len(bins) and (int(cards.max()) - int(cards.min()) + 1) * k <= DENSE_KEYS:
        count, uniq, acc, per_net, per_fixed = kernel.family_sums(bins, k, cards, limbs, shoe, shoes, net, fixed)
        part = FamilyPart(count, uniq, acc)
        if per_net is not None and per_fixed is not None:
            part.realized, part.expected = _moments(per_net), _moments(per_fixed)
        return part
    count = np.bincount(bins, minlength=k).astype(np.int64)
    uniq, acc = group_sum(cards * k + bins, limbs, compiled)
    part = FamilyPart(count, uniq, acc)
    if shoe is not None:
        assert net is not None and fixed is not None
        part.realized = _shoe_moments(shoe, shoes, bins, k, net, compiled)
        part.expected = _shoe_moments(shoe, shoes, bins, k, fixed, compiled)
    return part


def _shoe_moments(shoe: npt.NDArray[np.int64], shoes: int, bins: npt.NDArray[np.intp], k: int,
                  values: npt.NDArray[np.int64], compiled: bool | None = None) -> tuple[list[int], list[int]]:
    """Σ_s x_sc and Σ_s x_sc² where x_sc sums ``values`` over shoe s's rounds in bins > c."""
    flat_per = np.zeros(shoes * k, np.int64)
    keys, sums = group_sum(shoe * k + bins, values, compiled)
    flat_per[keys] = sums
    return _moments(flat_per.reshape(shoes, k))


def _moments(per: npt.NDArray[np.int64]) -> tuple[list[int], list[int]]:
    """Σ_s x_sc and Σ_s x_sc², exact, where x_sc sums row s of ``per`` (shoe × bin) over bins > c."""
    suffix = np.cumsum(per[:, ::-1], axis=1)[:, ::-1][:, 1:]          # x[s, c] = Σ_{bin > c}
    obj = suffix.astype(object)
    return [int(v) for v in obj.sum(axis=0)], [int(v) for v in (obj * obj).sum(axis=0)]


def _threshold_bins(th: Thresholds, rc: npt.NDArray[np.int64], cards: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Bin = number of triggers the count reaches (exact: TC ≥ a/D ⇔ ⌊52·RC·D/N⌋ ≥ a)."""
    den = math.lcm(*(v.denominator for v in th.values))
    a = np.array([int(v * den) for v in th.values], np.int64)
    key = rc if th.kind == "rc" else np.floor_divide(52 * den * rc, cards)
    return np.searchsorted(a, key, side="right").astype(np.intp)


def _ensure_definitions(spec: StudySpec) -> None:
    """Register the spec's wager-file wagers in this process unless every studied wager and
    paytable is already known here (a process or cluster worker starts from the bare
    catalogue; the parent process has them registered by the command)."""
    if not spec.definitions:
        return
    from exactodds.catalogue import CATALOGUE
    from exactodds.catalogue.files import wagers_from_definitions

    def known(w: WagerSpec) -> bool:
        have = CATALOGUE.get(w.wager)
        return have is not None and any(t.id == w.paytable for t in have.paytables)

    if all(known(w) for w in spec.wagers):
        return
    for fw in wagers_from_definitions(list(spec.definitions), "study wager files"):
        CATALOGUE[fw.id] = fw


@functools.cache
def _float_universes(depth: int, cards: int) -> npt.NDArray[np.float64]:
    """``float(ff(n, depth))`` for ``n`` of 0..``cards`` (each int correctly rounded, as
    ``float(u)``): a round's universe is ``ff(cards left, depth)`` (what the aggregation's
    exact sums divide by), so its float is a lookup, for the approximate returns that feed
    the plot and the statistics-only expected-win interval."""
    table = np.array([float(falling_factorial(n, depth)) for n in range(cards + 1)], np.float64)
    table.setflags(write=False)
    return table


_Plans = tuple[list[_Priced], dict[Level, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]]
_PLANS: dict[tuple[tuple[WagerSpec, ...], int], _Plans] = {}


def _plans(spec: StudySpec) -> _Plans:
    """The studied wagers' integer settlements (:func:`_priced`) and each level's joint
    classes (:func:`joint_classes`), built once per process and study instead of once per
    chunk; rebuilt if a wager or paytable of the catalogue is no longer the object they
    were built from (wager files registered anew)."""
    key = (spec.wagers, spec.cards)
    hit = _PLANS.get(key)
    if hit is not None and all(get_wager(w.wager) is p.wager and p.wager.paytable(w.paytable) is p.table
                               for w, p in zip(spec.wagers, hit[0])):
        return hit
    priced = [_priced(w, spec.cards) for w in spec.wagers]
    plans = {p.wager.level: joint_classes([q for q in priced if q.wager.level is p.wager.level]) for p in priced}
    for arrays in plans.values():
        for a in arrays:
            a.setflags(write=False)
    if len(_PLANS) >= 64:            # a notebook running many studies: keep the cache small
        _PLANS.clear()
    hit = _PLANS[key] = (priced, plans)
    return hit


_CHUNKS_RUN: list[int] = [0]
"""Chunks this process has run (only :attr:`ChunkResult.warm` reads it)."""


def study_chunk(spec: StudySpec, index: int) -> ChunkResult:
    """Deal, price and reduce chunk ``index`` of the study (a pure function of its inputs:
    what a process pool or a Dask worker runs)."""
    start_time, start_cpu = time.perf_counter(), time.process_time()
    warm = _CHUNKS_RUN[0] > 0
    _CHUNKS_RUN[0] += 1
    _ensure_definitions(spec)
    start = index * spec.chunk_shoes
    stop = min(spec.shoes, start + spec.chunk_shoes)
    d = deal_chunk(spec.counts, spec.seed, spec.cover, start, stop)
    cards = d.cards_left
    local = d.shoe
    priced, plans = _plans(spec)
    pricing_cpu = 0.0
    by_level: dict[Level, tuple[npt.NDArray[Any], tuple[int, ...], npt.NDArray[np.intp], npt.NDArray[np.intp]]] = {}
    for p in priced:
        level = p.wager.level
        if level not in by_level:
            classes, first = plans[level]
            at = time.process_time()
            counts, universe = _price_level(level, d.composition, classes)
            pricing_cpu += time.process_time() - at
            by_level[level] = (counts, universe, _result_index(level, d), first)
    rc_cache: dict[tuple[int, ...], npt.NDArray[np.int64]] = {}
    parts: list[WagerPart] = []
    returns: list[tuple[npt.NDArray[Any], int, tuple[int, ...]]] = []
    for w, p in zip(spec.wagers, priced):
        counts, universe, result, first = by_level[p.wager.level]
        num = _numerators(p, counts, first)
        limbs = _split(num, p.limbs)
        index_of = settlement(p.wager, p.table).index
        net = np.asarray(p.scaled, np.int64)[index_of[result]]
        assert int(cards.min(initial=p.wager.level.depth)) >= p.wager.level.depth  # the cover card: every round full
        scale = float(p.den) * _float_universes(p.wager.level.depth, spec.cards)[cards]
        approx = np.array([float(x) for x in num]) if num.dtype == object else num.astype(np.float64)
        ret = approx / scale
        fixed = np.rint(np.ldexp(ret, FIXED_BITS)).astype(np.int64)
        positive = (num > 0).astype(np.intp)
        if w.tags not in rc_cache:
            rc_cache[w.tags] = running_counts(d, w.tags, spec.initial_count)
        rc = rc_cache[w.tags]
        shoes = stop - start
        fams = {"perfect": _family(positive, 2, cards, limbs, local, shoes, net, fixed)}
        if spec.strategy == "count" and spec.thresholds is not None:
            bins = _threshold_bins(spec.thresholds, rc, cards)
            fams["count"] = _family(bins, len(spec.thresholds.values) + 1, cards, limbs, local, shoes, net, fixed)
        tc_floor = np.floor_divide(52 * rc, cards)
        buckets = (np.clip(tc_floor, BUCKET_LOW, BUCKET_HIGH) - BUCKET_LOW).astype(np.intp)
        fams["buckets"] = _family(buckets, BUCKET_HIGH - BUCKET_LOW + 1, cards, limbs)
        part = WagerPart(fams)
        if spec.plot:
            hbin = np.clip(np.floor(ret * HIST_PER_UNIT), -HIST_PER_UNIT, HIST_PER_UNIT).astype(np.int64)
            part.hist = np.bincount(hbin + HIST_PER_UNIT, minlength=2 * HIST_PER_UNIT + 1).astype(np.int64)
            keep = (local + start) < PLOT_SAMPLE_SHOES
            part.sample = ((52 * rc[keep]) / cards[keep].astype(np.float64), ret[keep])
        parts.append(part)
        if spec.trace:
            returns.append((num, p.den, universe))
    trace = _trace_rows(d, returns, [rc_cache[w.tags] for w in spec.wagers]) if spec.trace else None
    return ChunkResult(index, stop - start, len(d.code), parts, trace, time.perf_counter() - start_time,
                       time.process_time() - start_cpu, pricing_cpu, warm)


def trace_header(wagers: Sequence[WagerSpec]) -> str:
    """The trace CSV's header line."""
    counts = [f"{kind}:{w.label}" for w in wagers for kind in ("rc", "tc", "tc_decimal")]
    decimals = [f"return_decimal:{w.label}" for w in wagers]  # last: the columns before keep their places
    return ",".join(["shoe", "round", "cards_left", *TRACE_RANKS, *(w.label for w in wagers), *counts,
                     *decimals]) + "\n"


def _trace_rows(d: Dealt, returns: Sequence[tuple[npt.NDArray[Any], int, tuple[int, ...]]],
                counts: Sequence[npt.NDArray[np.int64]] = ()) -> str:
    """One CSV row per round: the composition before it, each wager's exact return, and each
    wager's running count (its tags) and true count = running count × 52 / cards left
    (exact ``p/q`` and a 6-place decimal), then each return again as a decimal (15 significant
    digits, exact integer rounding) for a spreadsheet or a person (issue 25)."""
    ranks = d.composition.reshape(len(d.composition), len(RANKS), 4).sum(axis=2).tolist()
    cards = d.cards_left.tolist()
    shoe = (d.shoe + d.first_shoe).tolist()
    rnd = d.round.tolist()
    exact = [[Fraction(int(n), den * u) for n, u in zip(num.tolist(), universe)] for num, den, universe in returns]
    cols = [[ratio(x) for x in col] for col in exact]
    for rc in counts:
        tc = [Fraction(52 * int(x), c) for x, c in zip(rc.tolist(), cards)]
        cols += [[str(int(x)) for x in rc.tolist()], [ratio(t) for t in tc], [decimal(t, 6) for t in tc]]
    cols += [[significant(x, 15) for x in col] for col in exact]
    lines = [",".join(map(str, [shoe[r], rnd[r], cards[r], *ranks[r], *(c[r] for c in cols)]))
             for r in range(len(rnd))]
    return "\n".join(lines) + "\n" if lines else ""


