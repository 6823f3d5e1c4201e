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
"""

from __future__ import annotations

import dataclasses
import io
import math
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from exactodds import __version__
from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Paytable, Wager
from exactodds.engine.level import Level
from exactodds.engine.levels import COUP
from exactodds.errors import InputError
from exactodds.exact import decimal, percent, ratio
from exactodds.figures.eor import NotPriceable, exact_net
from exactodds.figures.settlement import settlement
from exactodds.game.cards import FACES, RANKS, Shoe, falling_factorial, parse_rank
from exactodds.report.files import atomic_writer, check_writable, write_atomic
from exactodds.simulation.simulate import (
    BURN_COUNT,
    MAX_BURN,
    NCODES,
    cards_used,
    check_cover,
    code_table,
    deal_shoes,
    decode,
)

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: called as the study advances (may be ``None``)."""

Strategy = Literal["perfect", "count"]
STRATEGIES: Final = ("perfect", "count")

MAX_SHOES: Final = 10**9
"""Most shoes one study deals (a 10M-shoe study is the documented cluster example)."""
MAX_DECKS: Final = 27
"""Most decks: up to here every exact count of a round fits int64 (the engine's bound)."""
MAX_WORKERS: Final = 256
MAX_COUNT: Final = 10**6
"""Largest absolute initial count, trigger or tag denominator accepted."""
MAX_TAG: Final = 100
CONNECT_SECONDS: Final = 10
"""How long to try to reach a Dask scheduler before giving up (one-line error)."""
CHUNK_SHOES: Final = 200
"""Shoes per chunk: the unit of work sent to a process or a cluster worker."""

LIMB: Final = 24
"""Bits per limb of an exact integer sum kept in int64 arrays (2^39 rounds per cell fit)."""
_MASK: Final = (1 << LIMB) - 1
INT64_MAX: Final = 2**63 - 1
FIXED_BITS: Final = 32
"""Per-shoe expected wins enter the interval as integers rounded to 2^-32 (statistics only)."""

BUCKET_LOW: Final = -10
BUCKET_HIGH: Final = 10
"""True-count buckets: ⌊TC⌋ = b for b in BUCKET_LOW..BUCKET_HIGH, the two ends open."""

TC_GRID: Final = tuple(Fraction(j, 2) for j in range(-40, 81))
"""True-count triggers scanned when none is given (balanced counts): −20 to 40 by ½."""
RC_SPAN: Final = 200
"""Running-count triggers scanned when none is given (unbalanced counts): the initial
count ± this many, limited to the counts the tags can reach."""

HIST_PER_UNIT: Final = 1000
"""Plot histogram: bins of 0.1 % of return from −100 % to +100 %, and one overflow bin."""
PLOT_SAMPLE_SHOES: Final = 100
"""The plot's scatter shows every round of the first this-many shoes."""

TRACE_RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

_KERNEL_BATCH: Final = 4096
_NUMPY_BATCH: Final = 32
"""Compositions per ``price_batch`` call: kernel levels take large batches; a level that
prices with numpy temporaries (deal-faces) takes small ones to bound memory."""


# -- the specification ------------------------------------------------------------------------
@dataclass(frozen=True)
class WagerSpec:
    """One wager of the study, its paytable and the count tags used for it (13 ranks)."""

    wager: str
    paytable: str
    tags: tuple[int, ...]
    tags_source: str
    """``"given"`` (``--tags``) or ``"eor"`` (the wager's suggested balanced count)."""

    @property
    def label(self) -> str:
        return f"{self.wager}:{self.paytable}"


@dataclass(frozen=True)
class Thresholds:
    """Count triggers, ascending: bet when the running (``rc``) or true (``tc``) count ≥ one."""

    kind: Literal["rc", "tc"]
    values: tuple[Fraction, ...]
    scanned: bool


@dataclass(frozen=True)
class StudySpec:
    """Everything a chunk needs: plain data, so it pickles to processes and clusters."""

    shoes: int
    seed: int
    counts: tuple[int, ...]
    cover: int
    wagers: tuple[WagerSpec, ...]
    strategy: Strategy
    initial_count: int
    thresholds: Thresholds | None
    chunk_shoes: int = CHUNK_SHOES
    trace: bool = False
    plot: bool = False

    @property
    def chunks(self) -> int:
        return -(-self.shoes // self.chunk_shoes)

    @property
    def cards(self) -> int:
        return sum(self.counts)


# -- per-wager exact pieces ------------------------------------------------------------------
@dataclass(frozen=True)
class _Priced:
    """A wager's settlement as integers: scaled nets (net × den) per outcome and limbs."""

    wager: Wager[Any]
    table: Paytable
    den: int
    scaled: tuple[int, ...]
    limbs: int
    int64_safe: bool


def _priced(spec: WagerSpec, cards: int) -> _Priced:
    w = get_wager(spec.wager)
    t = w.paytable(spec.paytable)
    s = settlement(w, t)
    try:
        nets = tuple(exact_net(p, t) for p in s.pays)
    except NotPriceable as exc:
        raise InputError(f"{w.id} ({t.id}) cannot be studied: {exc}") from None
    den = math.lcm(*(n.denominator for n in nets))
    scaled = tuple(int(n * den) for n in nets)
    bound = max(abs(x) for x in scaled) * falling_factorial(cards, w.level.depth)
    limbs = max(3, -(-(bound.bit_length() + 2) // LIMB))
    return _Priced(w, t, den, scaled, limbs, bound <= INT64_MAX)


def _split(num: npt.NDArray[Any], n: int) -> npt.NDArray[np.int64]:
    """``num`` (int64 or Python ints) as ``n`` limbs: ``Σ_j out[:, j]·2^(24j) == num``."""
    out = np.empty((len(num), n), np.int64)
    x = num
    for j in range(n - 1):
        out[:, j] = (x & _MASK).astype(np.int64)
        x = x >> LIMB
    out[:, n - 1] = np.asarray(x).astype(np.int64)
    return out


def _join(limbs: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """Exact Python ints from limb sums ``(..., n)``."""
    out = np.zeros(limbs.shape[:-1], dtype=object)
    for j in range(limbs.shape[-1]):
        out = out + (limbs[..., j].astype(object) * (1 << (LIMB * j)))
    return out


# -- one chunk of shoes -------------------------------------------------------------------------
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


@dataclass
class Dealt:
    """Every round of a chunk of shoes (shoe-major), with the composition before it."""

    first_shoe: int
    deck: npt.NDArray[np.uint8]
    shoe: npt.NDArray[np.int64]
    round: npt.NDArray[np.int64]
    code: npt.NDArray[np.uint16]
    faces: npt.NDArray[np.uint8]
    burn: npt.NDArray[np.int64]
    position: npt.NDArray[np.int64]
    composition: npt.NDArray[np.int64]
    """``(rounds, 52)``: the shoe less the burn and every card dealt before the round."""
    dealt_before: npt.NDArray[np.int64]
    """``(rounds, 52)``: cards dealt in the shoe's earlier rounds (seen by a counter)."""

    @property
    def cards_left(self) -> npt.NDArray[np.int64]:
        return np.asarray(self.composition.sum(axis=1), np.int64)


def shuffled_shoes(counts: Sequence[int], seed: int, start: int, stop: int) -> npt.NDArray[np.uint8]:
    """Shoes ``start..stop-1``, each shuffled by its own generator ``default_rng([seed, i])``."""
    faces = np.repeat(np.arange(len(FACES), dtype=np.uint8), counts)
    return np.stack([np.random.default_rng([seed, i]).permutation(faces) for i in range(start, stop)])


def _segment_before(values: npt.NDArray[Any], shoe: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """Per row, the sum of ``values`` over the earlier rows of the same shoe (rows shoe-major)."""
    cum = np.cumsum(values, axis=0) - values
    first = np.flatnonzero(np.r_[True, shoe[1:] != shoe[:-1]])
    start = first[np.cumsum(np.r_[True, shoe[1:] != shoe[:-1]]) - 1]
    out: npt.NDArray[Any] = cum - cum[start]
    return out


def deal_chunk(counts: Sequence[int], seed: int, cover: int, start: int, stop: int) -> Dealt:
    """Deal shoes ``start..stop-1`` by § 629a.5 (one dealer: :func:`deal_shoes`) and derive,
    from its outputs, the composition before every round."""
    deck = shuffled_shoes(counts, seed, start, stop)
    shoe, rnd, code, faces = deal_shoes(deck, cover, code_table(), keep=True)
    assert faces is not None
    used = cards_used(code).astype(np.int64)
    burn = 1 + BURN_COUNT[deck[:, 0]].astype(np.int64)                  # § 629a.5(f)
    position = burn[shoe] + _segment_before(used, shoe)
    rows = len(code)
    removed = np.zeros((rows, len(FACES)), np.int64)
    mask = np.arange(6) < used[:, None]
    np.add.at(removed, (np.broadcast_to(np.arange(rows)[:, None], (rows, 6))[mask], faces[mask]), 1)
    burned = np.zeros((len(deck), len(FACES)), np.int64)
    bmask = np.arange(MAX_BURN) < burn[:, None]
    np.add.at(burned, (np.broadcast_to(np.arange(len(deck))[:, None], bmask.shape)[bmask],
                       deck[:, :MAX_BURN][bmask]), 1)
    before = _segment_before(removed, shoe)
    composition = np.asarray(counts, np.int64) - burned[shoe] - before
    return Dealt(start, deck, shoe, rnd, code, faces, burn, position, composition, before)


def running_counts(d: Dealt, tags: Sequence[int], initial: int) -> npt.NDArray[np.int64]:
    """The running count before every round: ``initial``, plus the exposed burn card's tag,
    plus the tags of every card dealt in the shoe's earlier rounds (face-down burn cards
    are never seen)."""
    face_tags = np.repeat(np.asarray(tags, np.int64), 4)
    return np.asarray(initial + face_tags[d.deck[d.shoe, 0]] + d.dealt_before @ face_tags, np.int64)


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


def _result_index(level: Level, d: Dealt) -> npt.NDArray[np.intp]:
    """The index (in ``level.results``) of every dealt round's actual result: via the coup
    code at the coup level, else the level's own ``from_deal`` on the round's cards."""
    if level is COUP:
        table = np.full(NCODES, -1, np.intp)
        for c in range(NCODES):
            table[c] = COUP.result_index.get(decode(c), -1)
        return table[d.code]
    out = np.empty(len(d.code), np.intp)
    for r, (code, faces) in enumerate(zip(d.code.tolist(), d.faces.tolist())):
        player, banker = _hands(code, faces)
        out[r] = level.result_index[level.from_deal(player, banker)]
    return out


def _hands(code: int, faces: Sequence[int]) -> tuple[list[Any], list[Any]]:
    """The Player's and the Banker's cards of a dealt round (§ 629a.8(c), § 629a.9(b))."""
    coup = decode(code)
    player = [FACES[faces[0]], FACES[faces[2]]]
    banker = [FACES[faces[1]], FACES[faces[3]]]
    nxt = 4
    if coup.player_cards == 3:
        player.append(FACES[faces[nxt]])
        nxt += 1
    if coup.banker_cards == 3:
        banker.append(FACES[faces[nxt]])
    return player, banker


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
    s = dataclasses.replace(whole, index=whole.index[first])
    if counts.dtype != object and p.int64_safe:
        return s.tally(counts) @ np.asarray(p.scaled, np.int64)
    nums, _ = s.return_numerators(counts, tuple(Fraction(x, p.den) for x in p.scaled))
    return np.array(nums, dtype=object)


def _family(bins: npt.NDArray[np.intp], k: int, cards: npt.NDArray[np.int64], limbs: npt.NDArray[np.int64],
            shoe: npt.NDArray[np.int64] | None = None, shoes: int = 0,
            net: npt.NDArray[np.int64] | None = None, fixed: npt.NDArray[np.int64] | None = None) -> FamilyPart:
    """Aggregate one family: counts per bin, numerator sums per (cards left, bin); with
    ``shoe``: per threshold candidate, Σ and Σ² over shoes of realized and expected wins."""
    count = np.bincount(bins, minlength=k).astype(np.int64)
    flat = cards * k + bins
    uniq, inv = np.unique(flat, return_inverse=True)
    acc = np.zeros((len(uniq), limbs.shape[1]), np.int64)
    np.add.at(acc, inv, limbs)
    part = FamilyPart(count, uniq.astype(np.int64), acc)
    if shoe is not None:
        assert net is not None and fixed is not None
        part.realized = _shoe_moments(shoe, shoes, bins, k, net)
        part.expected = _shoe_moments(shoe, shoes, bins, k, fixed)
    return part


def _shoe_moments(shoe: npt.NDArray[np.int64], shoes: int, bins: npt.NDArray[np.intp], k: int,
                  values: npt.NDArray[np.int64]) -> tuple[list[int], list[int]]:
    """Σ_s x_sc and Σ_s x_sc² where x_sc sums ``values`` over shoe s's rounds in bins > c."""
    per = np.zeros((shoes, k), np.int64)
    np.add.at(per, (shoe, bins), values)
    suffix = np.cumsum(per[:, ::-1], axis=1)[:, ::-1][:, 1:]          # x[s, c] = Σ_{bin > c}
    obj = suffix.astype(object)
    return [int(v) for v in obj.sum(axis=0)], [int(v) for v in (obj * obj).sum(axis=0)]


def _threshold_bins(th: Thresholds, rc: npt.NDArray[np.int64], cards: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """Bin = number of triggers the count reaches (exact: TC ≥ a/D ⇔ ⌊52·RC·D/N⌋ ≥ a)."""
    den = math.lcm(*(v.denominator for v in th.values))
    a = np.array([int(v * den) for v in th.values], np.int64)
    key = rc if th.kind == "rc" else np.floor_divide(52 * den * rc, cards)
    return np.searchsorted(a, key, side="right").astype(np.intp)


def study_chunk(spec: StudySpec, index: int) -> ChunkResult:
    """Deal, price and reduce chunk ``index`` of the study (a pure function of its inputs:
    what a process pool or a Dask worker runs)."""
    start_time, start_cpu = time.perf_counter(), time.process_time()
    start = index * spec.chunk_shoes
    stop = min(spec.shoes, start + spec.chunk_shoes)
    d = deal_chunk(spec.counts, spec.seed, spec.cover, start, stop)
    cards = d.cards_left
    local = d.shoe
    priced = [_priced(w, spec.cards) for w in spec.wagers]
    by_level: dict[Level, tuple[npt.NDArray[Any], tuple[int, ...], npt.NDArray[np.intp], npt.NDArray[np.intp]]] = {}
    for p in priced:
        level = p.wager.level
        if level not in by_level:
            classes, first = joint_classes([q for q in priced if q.wager.level is level])
            counts, universe = _price_level(level, d.composition, classes)
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
        scale = np.array([float(p.den * u) for u in universe])
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
    trace = _trace_rows(d, returns) if spec.trace else None
    return ChunkResult(index, stop - start, len(d.code), parts, trace, time.perf_counter() - start_time,
                       time.process_time() - start_cpu)


def trace_header(wagers: Sequence[WagerSpec]) -> str:
    """The trace CSV's header line."""
    return ",".join(["shoe", "round", "cards_left", *TRACE_RANKS, *(w.label for w in wagers)]) + "\n"


def _trace_rows(d: Dealt, returns: Sequence[tuple[npt.NDArray[Any], int, tuple[int, ...]]]) -> str:
    ranks = d.composition.reshape(len(d.composition), len(RANKS), 4).sum(axis=2).tolist()
    cards = d.cards_left.tolist()
    shoe = (d.shoe + d.first_shoe).tolist()
    rnd = d.round.tolist()
    cols = [[ratio(Fraction(int(n), den * u)) for n, u in zip(num.tolist(), universe)] for num, den, universe in returns]
    lines = [",".join(map(str, [shoe[r], rnd[r], cards[r], *ranks[r], *(c[r] for c in cols)]))
             for r in range(len(rnd))]
    return "\n".join(lines) + "\n" if lines else ""


# -- combining chunks ------------------------------------------------------------------------------
@dataclass
class _FamilyTotal:
    """A family's aggregates over every chunk so far (integers only)."""

    k: int
    cards: int
    limbs: int
    count: npt.NDArray[np.int64] = field(init=False)
    exp: npt.NDArray[np.int64] = field(init=False)
    realized: tuple[list[int], list[int]] | None = None
    expected: tuple[list[int], list[int]] | None = None

    def __post_init__(self) -> None:
        self.count = np.zeros(self.k, np.int64)
        self.exp = np.zeros(((self.cards + 1) * self.k, self.limbs), np.int64)

    def add(self, part: FamilyPart) -> None:
        self.count += part.count
        self.exp[part.exp_index] += part.exp_limbs
        for name in ("realized", "expected"):
            got: tuple[list[int], list[int]] | None = getattr(part, name)
            if got is None:
                continue
            mine = getattr(self, name)
            setattr(self, name, got if mine is None else
                    ([a + b for a, b in zip(mine[0], got[0])], [a + b for a, b in zip(mine[1], got[1])]))

    def sums(self) -> npt.NDArray[Any]:
        """Exact numerator sums, ``(cards left, bin)`` Python ints."""
        return _join(self.exp.reshape(self.cards + 1, self.k, self.limbs))


@dataclass
class _WagerTotal:
    families: dict[str, _FamilyTotal]
    hist: npt.NDArray[np.int64] | None = None
    sample: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = field(default_factory=list)


# -- results ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Interval:
    """A 95 % interval (floats: a statistic of the observed shoes, for display)."""

    low: float
    high: float


@dataclass(frozen=True)
class StrategyResult:
    """One strategy's figures on one wager, per unit bet (exact unless said)."""

    strategy: str
    rounds: int
    bets: int
    shoes: int
    expected_win: Fraction
    """Σ of the exact returns of the rounds bet."""
    realized_win: Fraction
    """Σ of the actual net results of the rounds bet."""
    expected_interval: Interval | None
    realized_interval: Interval | None
    trigger: dict[str, Any] | None = None
    scan: tuple[dict[str, Any], ...] = ()

    @property
    def bets_per_shoe(self) -> Fraction:
        return Fraction(self.bets, self.shoes)

    @property
    def expected_win_per_shoe(self) -> Fraction:
        return self.expected_win / self.shoes

    @property
    def realized_win_per_shoe(self) -> Fraction:
        return self.realized_win / self.shoes

    @property
    def average_advantage(self) -> Fraction | None:
        """Mean exact return of the rounds bet (the player's edge when betting)."""
        return self.expected_win / self.bets if self.bets else None


@dataclass(frozen=True)
class Bucket:
    """Rounds whose true count lies in ``[low, low + 1)`` (the end buckets are open)."""

    low: int
    label: str
    rounds: int
    mean_return: Fraction | None


@dataclass(frozen=True)
class WagerResult:
    """Every figure of the study for one wager."""

    spec: WagerSpec
    level: str
    full_shoe_return: Fraction
    rounds: int
    positive_rounds: int
    mean_return: Fraction
    """The exact return averaged over every round dealt (cut-card effect included)."""
    buckets: tuple[Bucket, ...]
    strategies: tuple[StrategyResult, ...]

    @property
    def positive_share(self) -> Fraction:
        return Fraction(self.positive_rounds, self.rounds)


@dataclass(frozen=True)
class StudyResult:
    """The study: its settings, its figures per wager, and how long it took."""

    spec: StudySpec
    decks: int | None
    rounds: int
    wagers: tuple[WagerResult, ...]
    seconds: float
    compositions: int
    worker_seconds: float = 0.0
    """Wall seconds the chunks took where they ran, added up (the study's work)."""
    worker_cpu_seconds: float = 0.0
    """CPU seconds of the processes that ran the chunks, added up (free of other load)."""
    plot_data: dict[str, tuple[npt.NDArray[np.int64] | None, list[Any]]] = field(default_factory=dict, repr=False)


def _universes(cards: int, depth: int) -> list[int]:
    return [falling_factorial(n, depth) for n in range(cards + 1)]


def _exact_sum(sums: Sequence[Any] | npt.NDArray[Any], universe: Sequence[int], den: int) -> Fraction:
    """``Σ_N sums[N] / (den × universe[N])`` exactly, over one common denominator."""
    present = [n for n, s in enumerate(sums) if s]
    if not present:
        return Fraction(0)
    common = math.lcm(*(universe[n] for n in present))
    return Fraction(sum(int(sums[n]) * (common // universe[n]) for n in present), den * common)


def _interval(total: int, squares: int, n: int, scale: Fraction) -> Interval | None:
    """Mean ± t₀.₉₇₅ × s/√n of per-shoe values ``x/scale`` from their exact Σ and Σ²."""
    if n < 2:
        return None
    from scipy.stats import t as student

    var = Fraction(squares * n - total * total, n * (n - 1)) / (scale * scale)
    half = float(student.ppf(0.975, n - 1)) * math.sqrt(float(var) / n)
    mean = float(Fraction(total, n) / scale)
    return Interval(mean - half, mean + half)


def _strategy(name: str, fam: _FamilyTotal, c: int, sums: npt.NDArray[Any], universe: Sequence[int], den: int,
              shoes: int, rounds: int, trigger: dict[str, Any] | None = None,
              scan: tuple[dict[str, Any], ...] = ()) -> StrategyResult:
    assert fam.realized is not None and fam.expected is not None
    bets = int(fam.count[c + 1:].sum())
    expected = _exact_sum(sums[:, c + 1:].sum(axis=1), universe, den)
    realized = Fraction(fam.realized[0][c], den)
    return StrategyResult(name, rounds, bets, shoes, expected, realized,
                          _interval(fam.expected[0][c], fam.expected[1][c], shoes, Fraction(1 << FIXED_BITS)),
                          _interval(fam.realized[0][c], fam.realized[1][c], shoes, Fraction(den)),
                          trigger, scan)


def _finish_wager(w: WagerSpec, total: _WagerTotal, spec: StudySpec, rounds: int) -> WagerResult:
    p = _priced(w, spec.cards)
    universe = _universes(spec.cards, p.wager.level.depth)
    perfect = total.families["perfect"]
    strategies = [_strategy("perfect", perfect, 0, perfect.sums(), universe, p.den, spec.shoes, rounds)]
    if "count" in total.families:
        assert spec.thresholds is not None
        fam = total.families["count"]
        sums = fam.sums()
        suffix = np.cumsum(sums[:, ::-1], axis=1)[:, ::-1]                  # Σ over bins ≥ k
        th = spec.thresholds
        exp = [_exact_sum(suffix[:, c + 1], universe, p.den) for c in range(len(th.values))]
        bets = [int(fam.count[c + 1:].sum()) for c in range(len(th.values))]
        betting = [c for c in range(len(th.values)) if bets[c]] or [len(th.values) - 1]
        best = max(betting, key=lambda c: (exp[c], c))
        scan = tuple({"trigger": ratio(th.values[c]), "bets_per_shoe": decimal(Fraction(bets[c], spec.shoes), 4),
                      "expected_win_per_shoe": decimal(exp[c] / spec.shoes, 6)}
                     for c in range(len(th.values)) if 0 < bets[c] < rounds) if th.scanned else ()
        trigger: dict[str, Any] = {"kind": th.kind, "value": ratio(th.values[best]), "scanned": th.scanned,
                                   "at_edge": th.scanned and best in (0, len(th.values) - 1)}
        if not any(w.tags):
            trigger["note"] = ("every tag is 0 (for this wager every rank's effect of removal is equal, so a "
                               "linear count carries no information): the count bets every round or none")
        strategies.append(_strategy("count", fam, best, sums, universe, p.den, spec.shoes, rounds, trigger, scan))
    bucket_fam = total.families["buckets"]
    bsums = bucket_fam.sums()
    buckets = []
    for b in range(bucket_fam.k):
        low = BUCKET_LOW + b
        label = f"<{low + 1}" if b == 0 else f">={low}" if b == bucket_fam.k - 1 else str(low)
        n = int(bucket_fam.count[b])
        mean = _exact_sum(bsums[:, b], universe, p.den) / n if n else None
        buckets.append(Bucket(low, label, n, mean))
    mean_all = _exact_sum(bsums.sum(axis=1), universe, p.den) / rounds
    full = _full_return(p, spec.counts)
    return WagerResult(w, p.wager.level.name, full, rounds, int(perfect.count[1]), mean_all, tuple(buckets),
                       tuple(strategies))


def _full_return(p: _Priced, counts: Sequence[int]) -> Fraction:
    priced = p.wager.level.price_batch(np.array([counts], np.int64))
    nums, den = settlement(p.wager, p.table).return_numerators(priced.counts, tuple(Fraction(x, p.den) for x in p.scaled))
    return Fraction(nums[0], den * priced.universe[0])


# -- running chunks: here, in processes, or on a Dask cluster ------------------------------------------
def _chunks(spec: StudySpec, workers: int, scheduler: str | None) -> Generator[ChunkResult, None, None]:
    """Chunk results in chunk order, with at most a few chunks per worker in flight."""
    n = spec.chunks
    if scheduler is not None:
        yield from _dask_chunks(spec, scheduler)
    elif workers == 1 or n == 1:
        for i in range(n):
            yield study_chunk(spec, i)
    else:
        import multiprocessing
        from concurrent.futures import Future, ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=min(workers, n), mp_context=multiprocessing.get_context("spawn"))
        try:
            window: deque[Future[ChunkResult]] = deque()
            nxt = 0
            while nxt < n or window:
                while nxt < n and len(window) < 2 * workers:
                    window.append(pool.submit(study_chunk, spec, nxt))
                    nxt += 1
                yield window.popleft().result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def check_scheduler(address: str) -> None:
    """A Dask scheduler address must read ``tcp://HOST:PORT`` (or ``tls://``), port 1-65535.

    >>> check_scheduler("tcp://127.0.0.1:8786")
    >>> check_scheduler("127.0.0.1")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: --scheduler must be an address such as tcp://HOST:8786, got '127.0.0.1'
    """
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if not (sep and scheme in ("tcp", "tls") and colon and host.strip("[]") and port.isdigit()
            and 1 <= int(port) <= 65535 and not any(c.isspace() for c in address)):
        raise InputError(f"--scheduler must be an address such as tcp://HOST:8786, got {address!r}")


def _dask_chunks(spec: StudySpec, address: str) -> Generator[ChunkResult, None, None]:
    """The same chunks on an existing Dask distributed cluster (``client.map`` over chunk
    indices, results gathered in order, a bounded window in flight)."""
    try:
        from dask import distributed
    except ImportError:  # pragma: no cover - a declared dependency
        raise InputError("study --scheduler needs dask: pip install 'exactodds[cluster]'") from None
    check_scheduler(address)
    try:
        client: Any = distributed.Client(address, timeout=f"{CONNECT_SECONDS}s",  # type: ignore[no-untyped-call]
                                         set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"cannot connect to the Dask scheduler at {address!r}: "
                         f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    try:
        n = spec.chunks
        width = 2 * max(1, sum(client.nthreads().values()))
        first = list(range(min(width, n)))
        window = deque(client.map(study_chunk, [spec] * len(first), first, pure=False))
        nxt = len(first)
        while window:
            result: ChunkResult = window.popleft().result()
            if nxt < n:
                window.append(client.submit(study_chunk, spec, nxt, pure=False))
                nxt += 1
            yield result
    finally:
        client.close()


# -- the study ----------------------------------------------------------------------------------------
def parse_wager_spec(text: str) -> tuple[Wager[Any], Paytable]:
    """``WAGER[:PAYTABLE]`` as the wager and its paytable (an input error if unknown)."""
    name, _, table = text.partition(":")
    w = get_wager(name.strip())
    return w, w.paytable(table.strip() or None)


def parse_tags(text: str) -> tuple[int, ...]:
    """``A=1,4=-1,...`` as 13 integer tags in rank order (ranks not named count 0).

    >>> parse_tags("A=1, 10=-1, t=-1")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: --tags names rank '10' twice
    >>> parse_tags("2=1,k=-2")[:3], parse_tags("2=1,k=-2")[-1]
    ((0, 1, 0), -2)
    """
    tags = dict.fromkeys(RANKS, 0)
    seen: set[str] = set()
    items = [item for item in text.split(",") if item.strip()]
    if not items:
        raise InputError("--tags must be RANK=TAG pairs separated by commas (e.g. A=1,4=-1) or 'eor'")
    for item in items:
        rank_text, sep, value = item.partition("=")
        if not sep:
            raise InputError(f"--tags item {item.strip()!r} is not RANK=TAG (e.g. 4=-1)")
        try:
            rank = parse_rank(rank_text)
        except InputError:
            raise InputError(f"--tags names an unknown rank {rank_text.strip()!r} "
                             "(ranks: A, 2-9, 10 or T, J, Q, K)") from None
        try:
            tag = int(value.strip())
        except ValueError:
            raise InputError(f"--tags value for {rank_text.strip()!r} must be a whole number, got {value.strip()!r}") from None
        if rank in seen:
            raise InputError(f"--tags names rank {rank!r} twice")
        if abs(tag) > MAX_TAG:
            raise InputError(f"--tags values must be between -{MAX_TAG} and {MAX_TAG}, got {tag}")
        seen.add(rank)
        tags[rank] = tag
    return tuple(tags[r] for r in RANKS)


def parse_trigger(text: str, option: str) -> Fraction:
    """A trigger as an exact Fraction (``2``, ``1.5``, ``3/2``); absurd values are input errors."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{option} must be a number (e.g. 2, 1.5 or 3/2), got {text!r}") from None
    if abs(value) > MAX_COUNT or value.denominator > MAX_COUNT:
        raise InputError(f"{option} must be between -{MAX_COUNT} and {MAX_COUNT} with a denominator "
                         f"of at most {MAX_COUNT}, got {text!r}")
    if option == "--trigger-rc" and value.denominator != 1:
        raise InputError(f"--trigger-rc must be a whole number (a running count is), got {text!r}")
    return value


def _eor_tags(pairs: Sequence[tuple[Wager[Any], Paytable]], shoe: Shoe) -> list[tuple[int, ...]]:
    from exactodds.figures.eor import effects_for

    results, skipped = effects_for(list(pairs), shoe)
    if skipped:
        raise InputError(f"{skipped[0].wager} ({skipped[0].paytable}): {skipped[0].reason}")
    return [tuple(r.count.tags.get(rank, 0) for rank in RANKS) for r in results]


def _rc_grid(tags: Sequence[Sequence[int]], counts: Sequence[int], initial: int) -> tuple[Fraction, ...]:
    """Running-count triggers to scan: ``initial ± RC_SPAN``, limited to counts reachable."""
    ranks = [sum(counts[4 * r: 4 * r + 4]) for r in range(len(RANKS))]
    low = min(initial + sum(min(t, 0) * n for t, n in zip(tg, ranks)) for tg in tags)
    high = max(initial + sum(max(t, 0) * n for t, n in zip(tg, ranks)) for tg in tags)
    return tuple(Fraction(v) for v in range(max(low, initial - RC_SPAN), min(high, initial + RC_SPAN) + 1))


def build_spec(wagers: Sequence[str], shoes: int, seed: int, shoe: Shoe, cover: int = 14,
               strategy: str = "perfect", tags: str | None = None, initial_count: int = 0,
               trigger_rc: str | int | None = None, trigger_tc: str | Fraction | None = None,
               chunk_shoes: int = CHUNK_SHOES, trace: bool = False, plot: bool = False) -> StudySpec:
    """Check every input and resolve wagers, tags and triggers: one-line input errors."""
    if not wagers:
        raise InputError("name at least one WAGER[:PAYTABLE] ('exactodds list' shows them)")
    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= MAX_SHOES:
        raise InputError(f"--shoes must be a whole number from 1 to {MAX_SHOES:,}, got {shoes!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**128:
        raise InputError(f"--seed must be a whole number from 0 to 2^128 - 1, got {seed!r}")
    if strategy not in STRATEGIES:
        raise InputError(f"--strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    if shoe.size > MAX_DECKS * 52:
        raise InputError(f"a study deals at most {MAX_DECKS} decks ({MAX_DECKS * 52} cards), got {shoe.size} cards")
    if not 1 <= chunk_shoes <= 100_000:
        raise InputError(f"chunk size must be from 1 to 100,000 shoes, got {chunk_shoes}")
    check_cover(shoe.size, cover)
    if abs(initial_count) > MAX_COUNT:
        raise InputError(f"--initial-count must be between -{MAX_COUNT} and {MAX_COUNT}, got {initial_count}")
    if trigger_rc is not None and trigger_tc is not None:
        raise InputError("give --trigger-rc or --trigger-tc, not both")
    if strategy == "perfect" and (trigger_rc is not None or trigger_tc is not None):
        raise InputError("--trigger-rc and --trigger-tc apply to --strategy count")
    pairs: list[tuple[Wager[Any], Paytable]] = []
    for text in wagers:
        w, t = parse_wager_spec(text)
        if not w.level.baccarat:
            raise InputError(f"{w.id} is not a baccarat wager; a study deals baccarat shoes")
        if (w.id, t.id) in {(a.id, b.id) for a, b in pairs}:
            raise InputError(f"{w.id}:{t.id} is named twice")
        pairs.append((w, t))
    for w, t in pairs:
        _priced(WagerSpec(w.id, t.id, (0,) * 13, ""), shoe.size)  # exact nets (meters at their resets)
    if tags is None or tags.strip().lower() == "eor":
        tag_list, source = _eor_tags(pairs, shoe), "eor"
    else:
        tag_list, source = [parse_tags(tags)] * len(pairs), "given"
    specs = tuple(WagerSpec(w.id, t.id, tg, source) for (w, t), tg in zip(pairs, tag_list))
    thresholds = None
    if strategy == "count":
        if trigger_rc is not None:
            thresholds = Thresholds("rc", (parse_trigger(str(trigger_rc), "--trigger-rc"),), False)
        elif trigger_tc is not None:
            thresholds = Thresholds("tc", (parse_trigger(str(trigger_tc), "--trigger-tc"),), False)
        else:
            ranks = shoe.rank_counts()
            balanced = initial_count == 0 and all(sum(t * n for t, n in zip(tg, ranks)) == 0 for tg in tag_list)
            thresholds = (Thresholds("tc", TC_GRID, True) if balanced else
                          Thresholds("rc", _rc_grid(tag_list, shoe.counts, initial_count), True))
    return StudySpec(shoes, seed, shoe.counts, cover, specs, strategy, initial_count,  # type: ignore[arg-type]
                     thresholds, chunk_shoes, trace, plot)


def check_workers(workers: int, scheduler: str | None) -> None:
    """``workers`` from 1 to :data:`MAX_WORKERS`, not with ``scheduler``; a well-formed address."""
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"--workers must be from 1 to {MAX_WORKERS}, got {workers!r}")
    if scheduler is not None and workers != 1:
        raise InputError("give --workers or --scheduler, not both")
    if scheduler is not None:
        check_scheduler(scheduler)


def run_spec(spec: StudySpec, workers: int = 1, scheduler: str | None = None, trace_path: str | None = None,
             progress: Progress | None = None) -> StudyResult:
    """Run a checked study: chunks here, in ``workers`` processes or on the Dask cluster at
    ``scheduler``, combined exactly; the trace streamed to ``trace_path``."""
    check_workers(workers, scheduler)
    start = time.perf_counter()
    totals = [_WagerTotal({}) for _ in spec.wagers]
    for w, t in zip(spec.wagers, totals):
        limbs = _priced(w, spec.cards).limbs
        t.families["perfect"] = _FamilyTotal(2, spec.cards, limbs)
        if spec.strategy == "count" and spec.thresholds is not None:
            t.families["count"] = _FamilyTotal(len(spec.thresholds.values) + 1, spec.cards, limbs)
        t.families["buckets"] = _FamilyTotal(BUCKET_HIGH - BUCKET_LOW + 1, spec.cards, limbs)
    rounds = shoes_done = 0
    worker_seconds = worker_cpu = 0.0
    with ExitStack() as stack:
        trace = None
        if trace_path and spec.trace:  # streamed to a temporary, renamed when the study ends (report.files)
            trace = stack.enter_context(atomic_writer(trace_path))
            trace.write(trace_header(spec.wagers))
        with closing(_chunks(spec, workers, scheduler)) as chunks:
            for chunk in chunks:
                worker_seconds += chunk.seconds
                worker_cpu += chunk.cpu_seconds
                rounds += chunk.rounds
                shoes_done += chunk.shoes
                for total, part in zip(totals, chunk.wagers):
                    for name, fam in part.families.items():
                        total.families[name].add(fam)
                    if part.hist is not None:
                        total.hist = part.hist if total.hist is None else total.hist + part.hist
                    if part.sample is not None and len(part.sample[0]):
                        total.sample.append(part.sample)
                if trace is not None and chunk.trace:
                    trace.write(chunk.trace)
                if progress is not None:
                    progress(shoes_done, spec.shoes, f"{shoes_done:,} shoes, {rounds:,} rounds")
    seconds = time.perf_counter() - start
    results = tuple(_finish_wager(w, t, spec, rounds) for w, t in zip(spec.wagers, totals))
    levels = {get_wager(w.wager).level for w in spec.wagers}
    plot_data = {w.label: (t.hist, t.sample) for w, t in zip(spec.wagers, totals)} if spec.plot else {}
    return StudyResult(spec, Shoe(spec.counts).decks, rounds, results, seconds, rounds * len(levels),
                       worker_seconds, worker_cpu, plot_data)


def run_study(wagers: Sequence[str], shoes: int, seed: int, shoe: Shoe | None = None, cover: int = 14,
              strategy: str = "perfect", tags: str | None = None, initial_count: int = 0,
              trigger_rc: str | int | None = None, trigger_tc: str | Fraction | None = None,
              workers: int = 1, scheduler: str | None = None, trace: str | None = None,
              plot: str | None = None, chunk_shoes: int = CHUNK_SHOES,
              progress: Progress | None = None) -> StudyResult:
    """The counting-vulnerability study (the library entry a notebook calls).

    ``wagers``: ``"WAGER[:PAYTABLE]"`` strings; ``shoe`` defaults to 8 decks; ``tags``:
    ``"A=1,4=-1,..."`` or ``"eor"`` (default: each wager's suggested balanced count);
    ``trace``: a CSV path (one row per round); ``plot``: an ``.svg`` or ``.png`` path.
    """
    shoe = shoe if shoe is not None else Shoe.standard(8)
    if trace is not None and plot is not None and Path(trace) == Path(plot):
        raise InputError("--trace and --plot name the same file")
    if trace is not None:
        check_writable(trace)
    if plot is not None:
        plot_format(plot)
        check_writable(plot)
    check_workers(workers, scheduler)
    spec = build_spec(wagers, shoes, seed, shoe, cover, strategy, tags, initial_count, trigger_rc, trigger_tc,
                      chunk_shoes, trace is not None, plot is not None)
    result = run_spec(spec, workers, scheduler, trace, progress)
    if plot is not None:
        write_plot(result, plot)
    return result


# -- plot -----------------------------------------------------------------------------------------------
def plot_format(path: str) -> str:
    """``svg`` or ``png`` from the file's extension (anything else is an input error)."""
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in ("svg", "png"):
        raise InputError(f"--plot must name a .svg or .png file, got {path!r}")
    return ext


def write_plot(result: StudyResult, path: str) -> None:
    """Per wager: the exact return against the true count (a sample of rounds and the exact
    mean per bucket) and the distribution of per-round returns; written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fmt = plot_format(path)
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
        fig.savefig(buffer, format=fmt)
    finally:
        plt.close(fig)
    write_atomic(path, buffer.getvalue())


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


# -- benchmark ----------------------------------------------------------------------------------------------
def bench_study(shoes: int = 2000, workers: int = 2, other_shoes: int = 50) -> dict[str, float]:
    """Speed figures (reported, never asserted): perfect play on the five core coup-level
    wagers (one ``price_batch`` per chunk serves all five) for ``shoes`` 8-deck shoes in
    ``workers`` processes -- wall time, the chunks' own time (work per worker, free of
    pool start-up and of other load), and the extrapolation to 100,000 shoes -- and the
    compositions per second of opening-level (Perfect Pairs, Lucky Nines) and
    deal-faces-level (Harmony, Heavenly 9 Progressive) wagers, in this process. CPU
    seconds give the rate a free core would reach on a shared (CPU-stolen) machine.

    Call it under ``if __name__ == "__main__":`` (worker processes are spawned)."""
    core = ["banker", "player", "tie", "dragon-7", "panda-8"]
    run_study(core, shoes=min(shoes, 20), seed=0, workers=1, tags="A=0")  # warm caches
    start = time.perf_counter()
    r = run_study(core, shoes=shoes, seed=1, workers=workers, tags="A=0")
    wall = time.perf_counter() - start
    out = {"core_shoes": float(shoes), "core_workers": float(workers), "core_rounds": float(r.rounds),
           "core_seconds": wall, "core_compositions_per_second": r.rounds / wall,
           "core_worker_compositions_per_second": r.rounds / r.worker_seconds,
           "core_cpu_compositions_per_second_per_core": r.rounds / r.worker_cpu_seconds,
           "core_100k_shoes_minutes_extrapolated": wall * 100_000 / shoes / 60,
           "core_100k_shoes_minutes_on_free_cores": r.worker_cpu_seconds * 100_000 / shoes / workers / 60}
    for key, wagers in (("opening", ["perfect-pairs-player", "lucky-nines"]),
                        ("deal_faces", ["harmony", "heavenly-9-progressive"])):
        run_study(wagers, shoes=1, seed=0, tags="A=0")
        start = time.perf_counter()
        r = run_study(wagers, shoes=other_shoes, seed=2, workers=1, tags="A=0")
        out[f"{key}_compositions_per_second"] = r.rounds / (time.perf_counter() - start)
    return out
