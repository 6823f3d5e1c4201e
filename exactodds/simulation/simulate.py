"""A fast, seeded, reproducible Monte Carlo simulator of baccarat rounds (numpy).

Two modes:

* ``fresh`` -- every round is the top of a freshly shuffled shoe: six distinct card
  positions drawn uniformly (rejection of the rare draws that repeat a position keeps
  the draw exactly uniform over ordered 6-card sequences). Its frequencies estimate
  exactly the figures of :mod:`exactodds.game.walk`, whose universe is the same set
  of ordered 6-card sequences off the top of a full shoe.
* ``shoe`` -- every shoe is dealt as the regulations say: the first card is exposed
  and burned with as many more cards as its face value, tens and faces counting ten
  (§ 629a.5(f)); the cover card sits ``cover`` cards above the bottom (at least 14,
  § 629a.5(d)); when it appears, the round is finished, one more round is dealt and
  the shoe is replaced (§ 629a.9(d)).

A round is recorded as a *coup code* (final point counts and card counts, the
:class:`~exactodds.game.rules.Coup` every coup-level wager is settled on). The drawing
rules enter as data: :func:`code_table` tabulates § 629a.10 from the functions in
:mod:`exactodds.game.rules` (or from a deliberately altered :class:`DrawRules`, which the
tests use to build buggy simulators).

Reproducibility: round batch ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``,
so the same ``(seed, rounds, mode, shoe, cover)`` give the same result whatever the
number of worker processes (:func:`exactodds.parallel.ordered_map`, batches taken back in order). A seed is a whole number ``0 <= seed < 2**63``.

Memory: rounds are dealt batch by batch and each batch's cards go to an ``on_hands``
callback (which writes them to a hand log) and are dropped, so memory is bounded by
the batch size whatever ``rounds`` is (``keep_hands`` keeps them all: for small runs).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np
import numpy.typing as npt

from exactodds.catalogue.model import Paytable, Wager
from exactodds.errors import InputError
from exactodds.game import rules
from exactodds.game.cardcode import CODE_VALUE
from exactodds.game.cards import FACES, Shoe
from exactodds.game.rules import Coup
from exactodds.io.progress import Progress
from exactodds.parallel import check_workers, ordered_map

if TYPE_CHECKING:
    from exactodds.simulation.settle import RoundSettler

Mode = Literal["fresh", "shoe"]
MODES: Final = ("fresh", "shoe")

FRESH_BATCH: Final = 1 << 20
"""Rounds per batch in fresh mode (part of the reproducibility contract)."""

SHOE_BATCH: Final = 2048
"""Shoes per batch in shoe mode (part of the reproducibility contract)."""

MIN_COVER: Final = 14
"""The cover card goes at least 14 cards above the bottom of the stack (§ 629a.5(d))."""

MAX_BURN: Final = 11
"""The burn takes the exposed first card plus up to ten more (§ 629a.5(f))."""

NCODES: Final = 400
"""Coup codes: ``player_total·40 + banker_total·4 + (player_cards−2)·2 + (banker_cards−2)``."""

FACE_VALUE: Final = CODE_VALUE[:len(FACES)].astype(np.uint8)
"""Point value of each of the 52 faces (§ 629a.6): the one card code's values
(:mod:`exactodds.game.cardcode`; the simulator deals face indices, which are its codes),
as the compact array the dealing loop indexes."""

BURN_COUNT: Final = np.array([10 if c.value == 0 else c.value for c in FACES], dtype=np.int16)
"""Cards burned after the exposed first card: its face value, 10/J/Q/K as ten (§ 629a.5(f))."""

_MOD10: Final = (np.arange(20) % 10).astype(np.uint16)

MAX_SEED: Final = 2**63
"""Seeds are whole numbers ``0 <= seed < 2**63`` (numpy's ``SeedSequence`` takes any such)."""


def check_seed(seed: object) -> int:
    """``seed`` if it is a valid seed, else an input error (one line).

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: --seed must be a whole number from 0 to 9223372036854775807, got -1
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise InputError(f"--seed must be a whole number from 0 to {MAX_SEED - 1}, got {seed!r}")
    return seed


# -- coup codes -----------------------------------------------------------------------
def coup_code(coup: Coup) -> int:
    """The integer code of a :class:`Coup` (0..399)."""
    return coup.player_total * 40 + coup.banker_total * 4 + (coup.player_cards - 2) * 2 + (coup.banker_cards - 2)


def decode(code: int) -> Coup:
    """The :class:`Coup` of a code made by :func:`coup_code`."""
    return Coup(code // 40, code // 4 % 10, 2 + (code >> 1 & 1), 2 + (code & 1))


# -- the drawing rules as a lookup table ------------------------------------------------
@dataclass(frozen=True)
class DrawRules:
    """The third-card rules the simulator follows (§ 629a.10), as three functions.

    The default is :data:`STANDARD_RULES`, read from :mod:`exactodds.game.rules`. Tests pass
    altered rules to build deliberately buggy simulators.
    """

    is_natural: Callable[[int], bool] = rules.is_natural
    player_draws: Callable[[int], bool] = rules.player_draws
    banker_draws: Callable[[int, int | None], bool] = rules.banker_draws


STANDARD_RULES: Final = DrawRules()


def code_table(draw_rules: DrawRules = STANDARD_RULES) -> npt.NDArray[np.uint16]:
    """Coup code for every ``(player two-card count, banker two-card count, card 5, card 6)``.

    Index ``p2·1000 + b2·100 + v5·10 + v6``. A Player third card is card 5; the Banker
    third card is card 6 if the Player drew, else card 5 (§ 629a.8(c), § 629a.9(b)).
    """
    cached = _TABLES.get(draw_rules)
    if cached is not None:
        return cached
    table = np.zeros(10_000, dtype=np.uint16)
    for p2 in range(10):
        for b2 in range(10):
            natural = draw_rules.is_natural(p2) or draw_rules.is_natural(b2)
            for v5 in range(10):
                for v6 in range(10):
                    pt, bt, pc, bc = p2, b2, 2, 2
                    if not natural:
                        if draw_rules.player_draws(p2):
                            pt, pc = (p2 + v5) % 10, 3
                            if draw_rules.banker_draws(b2, v5):
                                bt, bc = (b2 + v6) % 10, 3
                        elif draw_rules.banker_draws(b2, None):
                            bt, bc = (b2 + v5) % 10, 3
                    table[p2 * 1000 + b2 * 100 + v5 * 10 + v6] = coup_code(Coup(pt, bt, pc, bc))
    table.setflags(write=False)
    _TABLES[draw_rules] = table
    return table


_TABLES: dict[DrawRules, npt.NDArray[np.uint16]] = {}

HandSink = Callable[["HandLog"], None]
"""Receives each batch of dealt rounds, in round order (see :func:`simulate`)."""


def play_values(values: npt.NDArray[np.uint8], table: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint16]:
    """Coup codes of rounds given their first six card values, shape ``(6, rounds)``.

    Cards 1 and 3 go to the Player, 2 and 4 to the Banker (§ 629a.8(c)); the rest is
    read from ``table`` (:func:`code_table`). Cards a round does not use are ignored.
    """
    v = values.astype(np.uint16, copy=False)
    idx = _MOD10[v[0] + v[2]] * 1000
    idx += _MOD10[v[1] + v[3]] * 100
    idx += v[4] * 10
    idx += v[5]
    out: npt.NDArray[np.uint16] = table[idx]
    return out


def cards_used(codes: npt.NDArray[np.uint16]) -> npt.NDArray[np.int16]:
    """Cards each round uses (4, 5 or 6), from its coup codes."""
    c = codes.astype(np.int16)
    return 4 + (c >> 1 & 1) + (c & 1)


# -- results --------------------------------------------------------------------------
@dataclass
class HandLog:
    """Dealt cards of every simulated round, for writing a hand log.

    ``faces[i]`` are the face indices (into :data:`~exactodds.game.cards.FACES`) of the first
    six cards of round ``i`` in dealing order; ``codes[i]`` says how many each hand used.
    ``shoe[i]`` is the shoe number in shoe mode (``None`` in fresh mode). A batch of a
    longer simulation starts at round ``first`` (0 for the first round).
    """

    faces: npt.NDArray[np.uint8]
    codes: npt.NDArray[np.uint16]
    shoe: npt.NDArray[np.int64] | None = None
    first: int = 0


@dataclass
class Simulation:
    """What a simulation produced: exact integer counts per coup code, and more.

    ``counts`` covers every round; in shoe mode ``comparable`` covers only the rounds
    dealt in every shoe (index within its shoe at most :func:`guaranteed_rounds`),
    whose distribution is exactly the fresh-shoe one (see ``docs/simulator.md``).
    """

    mode: Mode
    rounds: int
    seed: int
    shoe: Shoe
    counts: npt.NDArray[np.int64]
    cover: Cover | None = None
    comparable: npt.NDArray[np.int64] | None = None
    shoes: int | None = None
    log: HandLog | None = None
    seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)
    settled: RoundSettler | None = None
    """Outcome counts of the wagers asked for (every level), when :func:`simulate` was
    given a settler: part 0 = every round (fresh) or the comparable rounds (shoe)."""

    def coup_counts(self, comparable_only: bool = False) -> dict[Coup, int]:
        """Observed rounds per :class:`Coup` (ints), all rounds or only comparable ones."""
        arr = self.comparable if comparable_only and self.comparable is not None else self.counts
        return {decode(i): int(n) for i, n in enumerate(arr) if n}


def outcome_counts(coups: Mapping[Coup, int], wager: Wager[Any], table: Paytable) -> dict[str, int]:
    """Rounds per outcome of ``wager`` under ``table``, every outcome listed (zeros kept)."""
    from exactodds.simulation.engine_link import settle

    out = {name: 0 for name in wager.outcome_names(table)}
    for coup, n in coups.items():
        out[settle(wager, table, coup)] += n
    return out


# -- sampling -------------------------------------------------------------------------
def _batch_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def _distinct_positions(rng: np.random.Generator, n_cards: int, rounds: int) -> npt.NDArray[np.uint16]:
    """Six distinct positions in ``range(n_cards)`` per round, shape ``(6, rounds)``.

    Uniform with replacement, then rounds that repeat a position are drawn again until
    none does: rejection sampling, so every ordered 6-sequence of distinct positions is
    equally likely, exactly as the top six cards of a random shuffle.
    """
    pos = rng.integers(0, n_cards, size=(6, rounds), dtype=np.uint16)
    todo = np.arange(rounds)
    sub = pos
    while True:
        bad = np.zeros(sub.shape[1], dtype=bool)
        for i in range(1, 6):
            for j in range(i):
                bad |= sub[i] == sub[j]
        if not bad.any():
            break
        todo = todo[bad]
        sub = rng.integers(0, n_cards, size=(6, todo.size), dtype=np.uint16)
        pos[:, todo] = sub
    return pos


def _fresh_batch(shoe_faces: npt.NDArray[np.uint8], shoe_values: npt.NDArray[np.uint8],
                 table: npt.NDArray[np.uint16], seed: int, index: int, rounds: int,
                 keep: bool) -> tuple[npt.NDArray[np.int64], HandLog | None]:
    rng = _batch_rng(seed, index)
    pos = _distinct_positions(rng, shoe_faces.size, rounds)
    if keep:
        faces = shoe_faces[pos]
        codes = play_values(FACE_VALUE[faces], table)
        log = HandLog(np.ascontiguousarray(faces.T), codes)
    else:
        codes = play_values(shoe_values[pos], table)
        log = None
    return np.bincount(codes, minlength=NCODES).astype(np.int64), log


def guaranteed_rounds(n_cards: int, cover: int) -> int:
    """Rounds every shoe deals, whatever its cards: the largest burn (11 cards,
    § 629a.5(f)) followed by 6-card rounds reaches the cover card earliest, and one
    more round follows the round it appears in (§ 629a.9(d)).

    >>> guaranteed_rounds(416, 14)
    67
    """
    return (n_cards - cover - MAX_BURN) // 6 + 2


@dataclass(frozen=True)
class Cover:
    """Where the cover card lies: from ``low`` to ``high`` cards above the bottom of the
    stack (§ 629a.5(d): "at least 14 cards above the bottom"; a dealer places it anywhere
    from there). ``high`` ``None``: no upper bound (the regulation's own reading). A single
    number is ``Cover(c, c)``, exact as before.

    >>> Cover.parse("14..30"), str(Cover.parse("15")), str(Cover(14, None))
    (Cover(low=14, high=30), '15', '14..')
    """

    low: int
    high: int | None

    @classmethod
    def of(cls, cover: int | Cover) -> Cover:
        """``cover`` as a :class:`Cover` (an int is one exact depth)."""
        return cover if isinstance(cover, Cover) else cls(cover, cover)

    @classmethod
    def parse(cls, text: str, what: str = "--cover") -> Cover:
        """``"14"``, ``"14..30"`` or ``"14.."`` (no upper bound); anything else is an input
        error (one line) naming ``what``."""
        m = re.fullmatch(r"\s*(\d{1,9})\s*(?:(\.\.)\s*(\d{1,9})?)?\s*", text)
        if m is None:
            raise InputError(f"{what} must be a number of cards or a range LOW..HIGH (e.g. 14 or 14..30), "
                             f"got {text[:40]!r}")
        low = int(m.group(1))
        high = None if m.group(2) and m.group(3) is None else int(m.group(3) or low)
        if high is not None and high < low:
            raise InputError(f"{what} {text.strip()}: the range's high end is below its low end")
        return cls(low, high)

    @property
    def exact(self) -> bool:
        """One depth for every shoe."""
        return self.high == self.low

    def top(self, n_cards: int) -> int:
        """The highest cover this range allows in an ``n_cards`` shoe (no upper bound: the
        highest that leaves room for the largest burn, :func:`check_cover`)."""
        return self.high if self.high is not None else n_cards - MAX_BURN - 1

    def describe(self) -> str:
        """In words, for reports: ``"14"``, ``"14 to 16"``, ``"at least 14"``."""
        if self.exact:
            return f"{self.low}"
        return f"{self.low} to {self.high}" if self.high is not None else f"at least {self.low}"

    def __str__(self) -> str:
        if self.exact:
            return str(self.low)
        return f"{self.low}..{self.high if self.high is not None else ''}"


def check_cover(n_cards: int, cover: int | Cover) -> None:
    """The cover card must be at least 14 cards from the bottom (§ 629a.5(d)) and below
    the largest possible burn, so every shoe deals at least one round. A range is
    checked at both ends."""
    if isinstance(cover, Cover):
        check_cover(n_cards, cover.low)
        if cover.high is not None:
            check_cover(n_cards, cover.high)
        return
    if cover < MIN_COVER:
        raise InputError(f"--cover must be at least {MIN_COVER} cards (§ 629a.5(d)), got {cover}")
    if n_cards - cover < MAX_BURN + 1:
        raise InputError(f"--cover {cover} leaves no room for the burn in a {n_cards}-card shoe "
                         f"(at most {n_cards - MAX_BURN - 1})")


def _deal_kernel() -> Any:
    """The compiled dealer (:mod:`exactodds.simulation.deal_kernel`), or None without numba."""
    try:
        from exactodds.simulation import deal_kernel
    except ImportError:
        return None
    return deal_kernel


def deal_shoes(deck: npt.NDArray[np.uint8], cover: int | npt.NDArray[np.int64], table: npt.NDArray[np.uint16],
               keep: bool = False, compiled: bool | None = False,
               ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint16],
                          npt.NDArray[np.uint8] | None]:
    """Deal every shoe of ``deck`` (one shuffled shoe of face indices a row) to its end.

    The first card is exposed and burned with as many more as its value, tens and faces
    as ten (§ 629a.5(f)); the cover card lies above the last ``cover`` cards
    (§ 629a.5(d)); the round in which it appears -- or which it starts -- is finished,
    one more round is dealt, and the shoe is done (§ 629a.9(d)). All shoes are dealt
    side by side, one round of each per step. ``cover`` is one number, or one per shoe
    (the faulty dealers of :mod:`~exactodds.simulation.faults` move it). A cover card so high
    that it comes out with the burn makes the first round the one it starts (the command
    line refuses such covers: :func:`check_cover`).

    Returns, for every round in shoe-major order: its shoe (row), its index within the
    shoe (from 0), its coup code, and (``keep``) the faces of its first six cards.
    """
    shoes, n = deck.shape
    padded = np.concatenate([deck, np.zeros((shoes, 6), dtype=np.uint8)], axis=1)
    values = FACE_VALUE[padded]
    rows = np.arange(shoes)
    pos = 1 + BURN_COUNT[deck[:, 0]].astype(np.int64)          # § 629a.5(f)
    cut = n - np.broadcast_to(np.asarray(cover, dtype=np.int64), (shoes,))  # first card under the cover
    kernel = _deal_kernel() if compiled is not False else None
    if compiled and kernel is None:
        raise ImportError("the compiled dealer needs numba: pip install 'exactodds[fast]'")
    if kernel is not None:
        return kernel.deal(padded, values, pos, cut, table, keep)  # type: ignore[no-any-return]
    active = np.ones(shoes, dtype=bool)
    last = np.zeros(shoes, dtype=bool)
    out_shoe, out_round, out_code, out_faces = [], [], [], []
    step = 0
    while active.any():
        live = rows[active]
        p = pos[live]
        cols = p[:, None] + np.arange(6)
        codes = play_values(values[live[:, None], cols].T, table)
        used = cards_used(codes)
        out_shoe.append(live)
        out_round.append(np.full(live.size, step, dtype=np.int64))
        out_code.append(codes)
        if keep:
            out_faces.append(padded[live[:, None], cols])
        appeared = cut[live] < p + used     # § 629a.9(d); a cover card out with the burn: the first round
        active[live[last[live]]] = False
        last[live[appeared]] = True
        pos[live] = p + used
        step += 1
    shoe_of = np.concatenate(out_shoe)
    round_of = np.concatenate(out_round)
    order = np.lexsort((round_of, shoe_of))
    faces = np.concatenate(out_faces)[order] if keep else None
    return shoe_of[order], round_of[order], np.concatenate(out_code)[order], faces


def _shoe_batch(shoe_faces: npt.NDArray[np.uint8], table: npt.NDArray[np.uint16], seed: int,
                index: int, shoes: int, cover: Cover, keep: bool,
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint16],
                           npt.NDArray[np.uint8] | None]:
    """Shuffle ``shoes`` shoes from batch ``index``'s generator and deal them. A cover
    range places each shoe's cover card uniformly in it (drawn after the shuffles, so an
    exact cover deals what it always did)."""
    rng = _batch_rng(seed, index)
    deck = rng.permuted(np.broadcast_to(shoe_faces, (shoes, shoe_faces.size)), axis=1)
    depth: int | npt.NDArray[np.int64] = cover.low
    if not cover.exact:
        depth = rng.integers(cover.low, cover.top(shoe_faces.size) + 1, size=shoes, dtype=np.int64)
    shoe_of, round_of, codes, faces = deal_shoes(deck, depth, table, keep)
    return shoe_of + index * shoes, round_of, codes, faces


# -- the simulator ----------------------------------------------------------------------
def simulate(rounds: int, mode: Mode = "fresh", shoe: Shoe | None = None, seed: int = 0,
             cover: int | Cover = MIN_COVER, keep_hands: bool = False, workers: int = 1,
             draw_rules: DrawRules = STANDARD_RULES, on_hands: HandSink | None = None,
             progress: Progress | None = None, settler: RoundSettler | None = None) -> Simulation:
    """Simulate ``rounds`` rounds and count them per coup code.

    ``on_hands`` receives every batch of dealt rounds, in round order, as a
    :class:`HandLog` (to write a hand log as it goes; memory stays bounded by the batch).
    ``keep_hands`` keeps every round's cards in ``Simulation.log`` instead (memory:
    about 8 bytes a round; for small runs). ``workers`` processes deal the batches
    (:func:`exactodds.parallel.ordered_map`); the result does not depend on it. ``progress(done, total, label)`` is told the rounds dealt.
    ``settler`` (:class:`~exactodds.simulation.settle.RoundSettler`) settles every round for
    its wagers, whatever their level: baccarat levels from the dealt rounds, a level that is
    not a baccarat round (Spanish 21) from ``rounds`` fresh deals of its own shoe.
    """
    check_seed(seed)
    if not isinstance(rounds, int) or rounds < 1:
        raise InputError(f"--rounds must be a whole number of at least 1, got {rounds!r}")
    if mode not in MODES:
        raise InputError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")
    check_workers(workers)
    shoe = shoe if shoe is not None else Shoe.standard(8)
    cover = Cover.of(cover)
    if mode == "shoe" and cover.high is None:
        raise InputError("simulate --cover needs a whole range LOW..HIGH (the cover of each shoe is drawn from it)")
    if shoe.size < 6:
        raise InputError(f"the shoe holds {shoe.size} cards; a simulated round needs 6")
    shoe_faces = np.repeat(np.arange(len(FACES), dtype=np.uint8), shoe.counts)
    table = code_table(draw_rules)
    kept: list[HandLog] = []
    sink = on_hands
    if keep_hands or settler is not None:
        k = guaranteed_rounds(shoe.size, cover.top(shoe.size)) if mode == "shoe" else 0

        def sink(log: HandLog) -> None:
            if keep_hands:
                kept.append(log)
            if settler is not None:
                settler.feed(_slots(log), _later(log, k) if mode == "shoe" else None)
            if on_hands is not None:
                on_hands(log)
    start = time.perf_counter()
    if mode == "fresh":
        sim = _simulate_fresh(rounds, shoe, seed, shoe_faces, table, sink, workers, progress)
    else:
        check_cover(shoe.size, cover)
        sim = _simulate_shoe(rounds, shoe, seed, shoe_faces, table, sink, workers, cover, progress)
    if settler is not None:
        for li, level in enumerate(settler.levels):
            if not level.baccarat:
                _settle_fresh_level(settler, level, shoe, seed, rounds, li)
        sim.settled = settler
    sim.seconds = time.perf_counter() - start
    if keep_hands:
        sim.log = HandLog(np.concatenate([lg.faces for lg in kept]), np.concatenate([lg.codes for lg in kept]),
                          np.concatenate([lg.shoe for lg in kept if lg.shoe is not None]) if mode == "shoe" else None)
    return sim


def _slots(log: HandLog) -> npt.NDArray[np.int64]:
    from exactodds.simulation.settle import baccarat_slots

    return baccarat_slots(log.faces, log.codes)


def _later(log: HandLog, k: int) -> npt.NDArray[np.int64]:
    """1 for a shoe-mode round past the first ``k`` of its shoe (a batch holds whole shoes,
    in shoe-major order), else 0."""
    assert log.shoe is not None
    shoe = log.shoe
    starts = np.flatnonzero(np.r_[True, shoe[1:] != shoe[:-1]])
    first = np.repeat(starts, np.diff(np.r_[starts, shoe.size]))
    return (np.arange(shoe.size) - first >= k).astype(np.int64)


SETTLE_KEY: Final = 1 << 32
"""Spawn keys ``(SETTLE_KEY + level number, batch)`` seed the deals of non-baccarat levels,
apart from the baccarat batches' ``(batch,)``."""


def _settle_fresh_level(settler: RoundSettler, level: Any, shoe: Shoe, seed: int, rounds: int, li: int) -> None:
    """Settle ``rounds`` fresh deals from ``level``'s own shoe (e.g. Spanish 21's, tens
    removed, § 551.3(a)): the first cards of a shuffled shoe, uniformly (see
    :func:`_distinct_positions`)."""
    from exactodds.simulation.settle import sequence_slots

    dealt = level.dealt_shoe(shoe)
    faces = np.repeat(np.arange(len(FACES), dtype=np.uint8), dealt.counts)
    if faces.size < 6:
        raise InputError(f"{level.name}: its shoe holds {faces.size} cards, fewer than a simulated deal needs")
    for i in range(-(-rounds // FRESH_BATCH)):
        size = min(FRESH_BATCH, rounds - i * FRESH_BATCH)
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(SETTLE_KEY + li, i)))
        pos = _distinct_positions(rng, faces.size, size)
        settler.feed_level(level, sequence_slots(np.ascontiguousarray(faces[pos].T)))


def _fresh_job(shoe_faces: npt.NDArray[np.uint8], table: npt.NDArray[np.uint16], seed: int, rounds: int,
               keep: bool, batch: int, index: int) -> tuple[npt.NDArray[np.int64], HandLog | None]:
    """Fresh-mode batch ``index`` (of ``batch`` rounds) of a ``rounds``-round run (a
    module-level function, so a worker process can be sent it with every parameter)."""
    size = min(batch, rounds - index * batch)
    return _fresh_batch(shoe_faces, FACE_VALUE[shoe_faces], table, seed, index, size, keep)


def _simulate_fresh(rounds: int, shoe: Shoe, seed: int, shoe_faces: npt.NDArray[np.uint8],
                    table: npt.NDArray[np.uint16], sink: HandSink | None, workers: int,
                    progress: Progress | None) -> Simulation:
    batch = FRESH_BATCH
    batches = -(-rounds // batch)
    counts = np.zeros(NCODES, dtype=np.int64)
    job = partial(_fresh_job, shoe_faces, table, seed, rounds, sink is not None, batch)
    # batches come back in order, at most 2 per worker held at a time
    with closing(ordered_map(job, range(batches), min(workers, batches))) as parts:
        for i, (c, log) in enumerate(parts):
            counts += c
            if sink is not None:
                assert log is not None
                log.first = i * batch
                sink(log)
            if progress is not None:
                progress(min(rounds, (i + 1) * batch), rounds, "rounds")
    return Simulation("fresh", rounds, seed, shoe, counts)


def _simulate_shoe(rounds: int, shoe: Shoe, seed: int, shoe_faces: npt.NDArray[np.uint8],
                   table: npt.NDArray[np.uint16], sink: HandSink | None, workers: int, cover: Cover,
                   progress: Progress | None) -> Simulation:
    k = guaranteed_rounds(shoe.size, cover.top(shoe.size))
    counts = np.zeros(NCODES, dtype=np.int64)
    comparable = np.zeros(NCODES, dtype=np.int64)
    got = 0
    shoes_used = 0
    keep = sink is not None
    job = partial(_shoe_batch, shoe_faces, table, seed, shoes=SHOE_BATCH, cover=cover, keep=keep)
    # batch after batch, in order, until enough rounds are dealt: every shoe deals at least
    # k rounds, so ``most`` batches always suffice; batches dealt ahead and not needed are
    # dropped (each is a pure function of its index, so nothing depends on them)
    most = -(-rounds // (k * SHOE_BATCH))
    with closing(ordered_map(job, range(most), min(workers, most))) as parts:
        for shoe_of, round_of, codes, faces in parts:
            take = min(codes.size, rounds - got)
            shoe_of, round_of, codes = shoe_of[:take], round_of[:take], codes[:take]
            counts += np.bincount(codes, minlength=NCODES)
            comparable += np.bincount(codes[round_of < k], minlength=NCODES)
            shoes_used = int(shoe_of[-1]) + 1
            if sink is not None:
                assert faces is not None
                sink(HandLog(faces[:take], codes, shoe_of, got))
            got += take
            if progress is not None:
                progress(got, rounds, "rounds")
            if got >= rounds:
                break
    return Simulation("shoe", rounds, seed, shoe, counts, cover=cover, comparable=comparable,
                      shoes=shoes_used, meta={"guaranteed_rounds": k})


def bench_simulate(rounds: int) -> float:
    """Rounds per second (wall clock) of fresh-mode simulation of an 8-deck shoe (one thread)."""
    code_table()  # build the table outside the timing
    start = time.perf_counter()
    simulate(rounds, "fresh", Shoe.standard(8), seed=12345)
    return rounds / (time.perf_counter() - start)


# -- the observed return against the exact one --------------------------------------------------
Z95: Final = 1.959963984540054
"""The 97.5 % point of the standard normal distribution (two-sided 95 % interval)."""


@dataclass(frozen=True)
class ReturnEstimate:
    """A wager's observed return over ``rounds`` simulated rounds beside its exact return.

    ``observed`` is the mean net per unit wagered (exact); ``standard_error`` is
    ``s/√n`` with ``s²`` the sample variance (divisor ``n − 1``; ``se_squared`` exact);
    ``interval`` is ``observed ± 1.96 · standard_error`` (95 %, normal approximation);
    ``z = (observed − exact) / (σ/√n)`` with ``σ²`` the *exact* variance of one round, so
    ``z`` is standard normal when the simulator is right (independent rounds: fresh mode,
    or approximately the comparable rounds of shoe mode).
    """

    rounds: int
    observed: Fraction
    se_squared: Fraction
    exact: Fraction
    exact_variance: Fraction

    @property
    def standard_error(self) -> float:
        return math.sqrt(self.se_squared)

    @property
    def interval(self) -> tuple[float, float]:
        half = Z95 * self.standard_error
        return float(self.observed) - half, float(self.observed) + half

    @property
    def z(self) -> float | None:
        """``None`` when the exact variance is 0 (every round nets the same)."""
        if self.exact_variance == 0:
            return None
        diff = self.observed - self.exact
        z = math.sqrt(diff * diff * self.rounds / self.exact_variance)
        return z if diff >= 0 else -z


def estimate_return(counts: Mapping[str, int], nets: Mapping[str, Fraction], exact: Fraction,
                    exact_variance: Fraction) -> ReturnEstimate | None:
    """:class:`ReturnEstimate` of outcome ``counts`` settled at ``nets`` (``None``: no rounds).

    >>> e = estimate_return({"win": 3, "lose": 1}, {"win": Fraction(1), "lose": Fraction(-1)}, Fraction(0), Fraction(1))
    >>> e.observed, e.se_squared, e.z
    (Fraction(1, 2), Fraction(1, 4), 1.0)
    """
    n = sum(counts.values())
    if n == 0:
        return None
    s1 = sum((nets[k] * v for k, v in counts.items()), Fraction(0))
    s2 = sum((nets[k] * nets[k] * v for k, v in counts.items()), Fraction(0))
    mean = s1 / n
    var = (s2 - n * mean * mean) / (n - 1) if n > 1 else Fraction(0)
    return ReturnEstimate(n, mean, var / n, exact, exact_variance)
