"""Study stage 1, the specification: limits, the wagers and their exact integer nets, count
tags and triggers, checked into a :class:`StudySpec` (plain data that pickles to workers)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Paytable, Wager
from exactodds.errors import InputError
from exactodds.figures.eor import NotPriceable, exact_net
from exactodds.figures.settlement import settlement
from exactodds.game.cards import RANKS, Shoe, falling_factorial, parse_rank
from exactodds.inputs import parse_number, shown
from exactodds.simulation.simulate import (
    check_cover,
)

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: called as the study advances (may be ``None``)."""

Strategy = Literal["perfect", "count"]
STRATEGIES: Final = ("perfect", "count")

MAX_SHOES: Final = 10**9
"""Most shoes one study deals (a 10M-shoe study is the documented cluster example)."""
MAX_DECKS: Final = 27
"""Most decks: up to here every exact count of a round fits int64 (the engine's bound)."""
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
    definitions: tuple[Any, ...] = ()
    """The wager-file definitions of the studied wagers that are not the catalogue's (plain
    data, :func:`exactodds.catalogue.files.report_inputs`): a process or cluster worker
    registers them before it prices (:func:`_ensure_definitions`)."""

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
    value = parse_number(text, option)  # bounded digits and exponent before any conversion
    if abs(value) > MAX_COUNT or value.denominator > MAX_COUNT:
        raise InputError(f"{option} must be between -{MAX_COUNT} and {MAX_COUNT} with a denominator "
                         f"of at most {MAX_COUNT}, got {shown(text)}")
    if option == "--trigger-rc" and value.denominator != 1:
        raise InputError(f"--trigger-rc must be a whole number (a running count is), got {shown(text)}")
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
    from exactodds.catalogue.files import report_inputs

    definitions = tuple(report_inputs([w for w, _ in pairs])[1].get("definitions", ()))
    return StudySpec(shoes, seed, shoe.counts, cover, specs, strategy, initial_count,  # type: ignore[arg-type]
                     thresholds, chunk_shoes, trace, plot, definitions)


