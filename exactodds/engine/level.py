"""A *level*: what a wager reads of a round, as data given to the one walk and pricing.

A wager's outcomes are predicates on a *result*; its level says which result: the
:class:`~exactodds.game.rules.Coup` for wagers settled on point counts, the faces of
the initial cards for Perfect Pairs, and so on. A :class:`Level` holds

* how the 52 faces project onto the level's classes (``face_class``),
* which walk deals its shapes and the result function that names each shape's result
  (:mod:`exactodds.game.walk`), hence one shoe-independent
  :class:`~exactodds.game.walk.ShapeTable`, loaded from the arrays shipped in
  ``engine/shapes/`` or built once per process,
* how to read one dealt round from its actual cards (``from_deal``: the brute-force
  tests, the simulator and crosscheck use it),
* everything true of it outside the engine, declared as data: its table layout
  (:class:`~exactodds.game.layout.Layout`), how suits enter it (for effects of removal),
  its facts and note (what a wager file may test, :mod:`exactodds.engine.facts`), its second
  method (an object of :mod:`exactodds.recount`, for ``certify``), the slots of a dealt
  round it reads and the simulator's group key (:mod:`exactodds.simulation.settle`).

Every level is declared in :mod:`exactodds.engine.levels`, the one module that names them.

Pricing is the same for every level: :meth:`Level.price_batch` turns a batch of shoe
compositions into exact counts per result through :func:`exactodds.engine.pricing.price`.
A shoe too short to finish every round (fewer cards than the universe's depth) is dealt
card by card instead -- at most 5! orderings -- and the rounds it cannot finish are void
(§ 629a.13(e)).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Literal

from exactodds.engine.facts import Fact
from exactodds.engine.pricing import Counts, exact_dtype, int64_cards, plan, price, trie, undealt, undealt_table
from exactodds.engine.single import compiled_kernel
from exactodds.engine.standard import standard_counts, standard_decks, standard_reps
from exactodds.game.cards import FACES, Card, Shoe, falling_factorial
from exactodds.game.layout import BACCARAT, Layout
from exactodds.game.walk import ShapeTable, shape_args
from exactodds.lazy import LazyModule
from exactodds.recount import SecondMethod

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy", globals(), "np")

SHAPES: Final = Path(__file__).resolve().parent / "shapes"
"""The shipped shape tables (``scripts/build_shapes.py``), beside this module (a path, not
:mod:`importlib.resources`, whose import a process need not pay)."""

_EACH_FACE: Final = tuple(range(len(FACES)))
"""The ``face_class`` of a level whose classes are the 52 faces."""

Suits = Literal["blind", "symmetric", "read"]
"""How a level's results depend on suits: not at all; only through relabellings that
carry any suit to any other (so one face per rank stands for its rank when the shoe's
faces of a rank are equally many); or in earnest."""

GroupKey = Literal["points", "points-faces"]
"""A vectorised key of a round's result the simulator groups rounds by
(:data:`exactodds.simulation.settle.GROUP_KEYS`), for a level whose result reads every card:
``points``, the final point counts and third cards (the Coup as a number); ``points-faces``,
that plus one suit / one colour / one rank / one value of all dealt cards."""


@dataclass(frozen=True)
class ResultDistribution:
    """Exact counts of round results at one level, plus void rounds (§ 629a.13(e)).

    ``sum(counts.values()) + void == universe``.
    """

    universe: int
    counts: Mapping[Any, int]
    void: int

    @property
    def dealt(self) -> int:
        """Sequences of the universe that complete a round (not void)."""
        return self.universe - self.void


@dataclass(frozen=True)
class Priced:
    """Exact counts per result (in :attr:`Level.results` order) for a batch of shoes.

    ``counts[b].sum() + void[b] == universe[b]`` for every shoe ``b``. ``counts`` is int64
    where the bound of :mod:`exactodds.engine.pricing` holds for every shoe, else object.
    """

    universe: tuple[int, ...]
    counts: Counts
    void: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Level:
    """One level of results: its classes, its walk, its reading of a dealt round, its traits."""

    name: str
    description: str
    face_class: tuple[int, ...]
    """The class of each face of :data:`~exactodds.game.cards.FACES`."""
    walk: Callable[[], ShapeTable]
    """Builds the shape table (once per process, when no shipped arrays exist)."""
    result: Callable[..., Hashable]
    """The walk's result function: rebuilds a result from a representative shape."""
    from_deal: Callable[[Sequence[Card], Sequence[Card]], Hashable]
    """The result of one dealt round from its cards (Player's, then Banker's)."""
    kind: Literal["deal", "sequence"] = "deal"
    depth: int = 6
    """Cards in the universe of one round (6 for baccarat, § 629a.10)."""
    layout: Layout = BACCARAT
    """How a round's cards are laid out into the two hands (Spanish 21's Match-The-Dealer
    is not a baccarat round)."""
    suits: Suits = "read"
    suits_reason: str = ""
    second_method: SecondMethod | None = None
    """How ``certify`` confirms this level's counts by an independent computation."""
    facts: tuple[Fact, ...] = ()
    """The facts of its result a wager file's ``when`` may test, with their citations."""
    notes: str = ""
    """The level in one sentence, for the documentation and the schema of wager files."""
    slots: tuple[int, ...] | None = None
    """The slots of a dealt round (0-2 first hand, 3-5 second hand, in dealing order) whose
    faces its result depends on; ``None``: every slot of its layout. Declared (a test checks
    every declaration by a seeded trial); the simulator groups rounds by these faces."""
    group_key: GroupKey | None = None
    """The simulator's key of a round's result, for a level whose result reads every card."""
    shoe_map: Callable[[Shoe], Shoe] | None = None
    """The shoe this level deals from, given the one asked for (Spanish 21 removes tens)."""
    headroom: int = 1
    """Factor by which a partial sum may exceed the universe (for the int64 bound)."""
    standard: bool = False
    """Whether its standard shoes' counts ship (:mod:`exactodds.engine.standard`)."""
    _cache: dict[Shoe, tuple[int, Counts, int]] = field(default_factory=dict, repr=False)
    _coarse: dict[bytes, ShapeTable] = field(default_factory=dict, repr=False)

    @property
    def baccarat(self) -> bool:
        """Whether its rounds are baccarat rounds (its layout)."""
        return self.layout is BACCARAT

    @property
    def slots_read(self) -> tuple[int, ...]:
        """The slots it reads: :attr:`slots`, or every slot of its layout."""
        return self.layout.slots if self.slots is None else self.slots

    # -- shoe-independent structure -----------------------------------------------------
    @cached_property
    def table(self) -> ShapeTable:
        """The level's shape table: the shipped arrays if present, else the walk."""
        shipped = SHAPES / f"{self.name}.npz"
        if shipped.is_file():
            with np.load(shipped, allow_pickle=False) as arrays:
                return ShapeTable.from_arrays(self.kind, arrays)
        return self.walk()

    @cached_property
    def results(self) -> tuple[Hashable, ...]:
        """Every result the level can produce, in the table's order (rebuilt from the
        shipped representative shapes while the table itself is not loaded)."""
        reps = standard_reps(self.name) if self.standard and "table" not in self.__dict__ else None
        if reps is not None:
            return tuple(self.result(*shape_args(self.kind, rep)) for rep in reps)
        return self.table.results(self.result)

    @cached_property
    def result_index(self) -> dict[Hashable, int]:
        """Position of each result in :attr:`results`."""
        return {r: i for i, r in enumerate(self.results)}

    @cached_property
    def projection(self) -> npt.NDArray[np.int64]:
        """``(52, classes)`` 0/1 matrix: face counts times it gives class counts."""
        out = np.zeros((len(FACES), max(self.face_class) + 1), np.int64)
        out[np.arange(len(FACES)), self.face_class] = 1
        return out

    def class_counts(self, comp: npt.NDArray[Any], dtype: type) -> npt.NDArray[Any]:
        """Class counts ``(B, classes)`` of face counts ``comp`` (``(B, 52)``), in ``dtype``: the
        faces themselves when every face is its own class (``comp`` itself when it has that
        dtype: pricing only reads it), else the sum of each class's faces (``comp @
        projection``, by :attr:`_class_runs`)."""
        if self.face_class == _EACH_FACE:
            return comp.astype(dtype, copy=False)
        order, starts = self._class_runs
        n: npt.NDArray[Any] = np.add.reduceat(comp.astype(dtype, copy=False)[:, order], starts, axis=1)
        return n

    @cached_property
    def _class_runs(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """The faces ordered by class and where each class's run starts: class counts are
        then one ``reduceat`` (0.24 µs a shoe against 0.39 for ``comp @ projection``, whose
        integer product numpy does without BLAS)."""
        face_class = np.array(self.face_class)
        order = np.argsort(face_class, kind="stable")
        return order, np.searchsorted(face_class[order], np.arange(max(self.face_class) + 1))

    # -- pricing --------------------------------------------------------------------------
    def dealt_shoe(self, shoe: Shoe) -> Shoe:
        """The shoe the level deals from (``shoe`` itself for baccarat levels)."""
        return self.shoe_map(shoe) if self.shoe_map is not None else shoe

    def price_batch(self, compositions: npt.ArrayLike, dtype: type | None = None,
                    classes: npt.NDArray[np.intp] | None = None, compiled: bool | None = None) -> Priced:
        """Exact counts per result for each row of ``compositions`` (``(B, 52)`` face counts).

        The batch form behind every figure: effects of removal price a shoe and its 52
        removals in one call, a counting study every round of a shoe. Rows are taken as
        the shoe the level deals from (no ``shoe_map``). ``dtype`` forces ``np.int64`` or
        ``object``; by default int64 is used exactly when the bound holds for every row.
        ``classes`` (the class of each result, see :meth:`ShapeTable.coarsen`) gives counts
        per class instead: the same sums, fewer entries visited. ``compiled``: force
        (``True``) or refuse (``False``) the numba kernel; by default large int64 batches
        use it when numba is installed (:func:`~exactodds.engine.pricing.price`).
        """
        if classes is not None:
            return self._price_coarse(compositions, dtype, np.asarray(classes, np.intp), compiled)
        comp = np.asarray(compositions, dtype=object if dtype is object else np.int64)
        if comp.ndim != 2 or comp.shape[1] != len(FACES):
            raise ValueError("compositions must be an array of shape (B, 52)")
        totals = comp.sum(axis=1)
        if dtype is None:
            dtype = exact_dtype(totals, self.depth, self.headroom)
        is_short = np.array([int(t) < self.depth for t in totals], bool) if comp.dtype == object \
            else totals < self.depth
        void = [0] * len(comp)
        if not is_short.any():
            counts: Counts = self._price_full(comp, totals, dtype, compiled)
        else:
            full = np.flatnonzero(~is_short)
            counts = np.zeros((len(comp), len(self.results)), dtype=dtype)
            if len(full):
                counts[full] = self._price_full(comp[full], totals[full], dtype, compiled)
            for b in np.flatnonzero(is_short).tolist():
                row, void[b] = self.deal_short(Shoe(tuple(int(x) for x in comp[b])))
                counts[b] = row
        return Priced(universes(totals, self.depth), counts, tuple(void))

    def _price_full(self, comp: npt.NDArray[Any], totals: npt.NDArray[Any], dtype: type,
                    compiled: bool | None) -> Counts:
        """Counts of shoes of at least ``depth`` cards (face counts ``comp``)."""
        n = self.class_counts(comp, dtype)
        if compiled is None:
            return self.price_classes(n, totals, dtype)
        return self.price_classes(n, totals, dtype, compiled)

    def price_classes(self, n: npt.NDArray[Any], totals: npt.NDArray[Any], dtype: type,
                      compiled: bool | None = None) -> Counts:
        """Counts per result from class counts ``n`` (the hook a level may override)."""
        return price(self.table, n, totals, self.depth, dtype, compiled)

    def _price_coarse(self, compositions: npt.ArrayLike, dtype: type | None,
                      classes: npt.NDArray[np.intp], compiled: bool | None = None) -> Priced:
        """:meth:`price_batch` per class of results: the coarsened table where this level
        prices by the table alone, else the full counts summed per class."""
        comp = np.asarray(compositions, dtype=object if dtype is object else np.int64)
        totals = comp.sum(axis=1)
        dtype = dtype or exact_dtype(totals, self.depth, self.headroom)
        plain = type(self).price_classes is Level.price_classes
        if not plain or int(np.min(totals, initial=self.depth)) < self.depth or len(comp) == 0:
            full = self.price_batch(comp, dtype, compiled=compiled)
            onehot = np.zeros((len(classes), int(classes.max()) + 1), np.int64)
            onehot[np.arange(len(classes)), classes] = 1
            return Priced(full.universe, full.counts @ onehot.astype(full.counts.dtype), full.void)
        key = classes.tobytes()
        table = self._coarse.get(key)
        if table is None:
            table = self._coarse[key] = self.table.coarsen(classes)
        n = self.class_counts(comp, dtype)
        counts = price(table, n, totals, self.depth, dtype, compiled)
        return Priced(universes(totals, self.depth), counts, (0,) * len(comp))

    def priced(self, shoe: Shoe) -> tuple[int, Counts | list[int], int]:
        """``(universe, counts per result, void)`` for one shoe (cached per shoe); a
        standard shoe whose counts ship (:mod:`exactodds.engine.standard`) gives them as
        a new list of ints, without numpy or the table."""
        hit = self._cache.get(shoe)
        if hit is None:
            # a standard shoe? (its size, a multiple of 52, is the cheap test, read first: most shoes are not)
            decks = standard_decks(shoe.counts) if self.standard and self.shoe_map is None and not shoe.size % 52 \
                else None
            shipped = standard_counts(self.name, decks) if decks is not None else None
            if decks is not None and shipped is not None:  # 52+ cards: every round finishes
                return falling_factorial(52 * decks, self.depth), shipped, 0
            hit = self._priced_one(self.dealt_shoe(shoe), None)
            if len(self._cache) >= 64:
                self._cache.pop(next(iter(self._cache)))
            self._cache[shoe] = hit
        return hit

    def price_one(self, shoe: Shoe, compiled: bool | None = None) -> Priced:
        """:meth:`price_batch` of the one shoe the level deals from, by the compiled
        single-shoe kernel where :func:`~exactodds.engine.single.compiled_kernel` offers it
        (numba installed, the process warm; ``compiled`` forces or refuses it) and int64 is
        exact for this shoe, else by :meth:`price_batch`: the same counts either way."""
        universe, counts, void = self._priced_one(shoe, compiled)
        return Priced((universe,), counts[None], (void,))

    def _priced_one(self, shoe: Shoe, compiled: bool | None) -> tuple[int, Counts, int]:
        """:meth:`price_one` as ``(universe, counts, void)`` of the one shoe (what
        :meth:`priced` keeps: no batch of one to make and unpack)."""
        total, depth = shoe.size, self.depth
        if self._compiles_one and depth <= total <= int64_cards(depth, self.headroom):  # int64 holds the universe
            kernel = compiled_kernel(compiled)
            if kernel is not None:
                table = undealt_table(depth)                            # und[m] = ff(total − m, depth − m)
                und = table[total] if total < len(table) else undealt(np.array([total]), depth, np.int64)[0]
                comp = np.fromiter(shoe.counts, np.int64, len(shoe.counts))
                return int(und[0]), self.price_one_compiled(kernel, comp, und), 0
        batch = self.price_batch(np.array([shoe.counts]))
        return batch.universe[0], batch.counts[0], batch.void[0]

    @cached_property
    def _compiles_one(self) -> bool:
        """Whether :meth:`price_one_compiled` prices this level: it does for a level priced
        by the table alone, and for one that overrides both hooks."""
        return type(self).price_classes is Level.price_classes or \
            type(self).price_one_compiled is not Level.price_one_compiled

    def price_one_compiled(self, kernel: ModuleType, comp: npt.NDArray[np.int64],
                           und: npt.NDArray[np.int64]) -> Counts:
        """Counts per result of one shoe (face counts ``comp``, undealt factors ``und``) by
        the compiled single-shoe ``kernel`` (the hook a level with its own pricing overrides)."""
        face_class, classes, t, p = self._single
        out: Counts = kernel.price_one(comp, face_class, classes, und, t, p)
        return out

    @cached_property
    def _single(self) -> tuple[npt.NDArray[np.uint32], int, Any, Any]:
        """What the compiled single-shoe kernel reads besides the shoe: :attr:`face_class`
        as an array, the number of classes, the table's trie and plan (looked up once)."""
        return np.array(self.face_class, np.uint32), max(self.face_class) + 1, trie(self.table), plan(self.table)

    def distribution(self, shoe: Shoe) -> ResultDistribution:
        """Exact counts of each result for ``shoe`` as a mapping (results never dealt omitted)."""
        universe, counts, void = self.priced(shoe)
        return ResultDistribution(universe, {r: int(c) for r, c in zip(self.results, counts) if c}, void)

    # -- short shoes ----------------------------------------------------------------------
    def deal_short(self, shoe: Shoe) -> tuple[npt.NDArray[Any], int]:
        """Counts per result and void count of a shoe shorter than the round, card by card."""
        counts, void = _deal_short(self, shoe)
        row = np.zeros(len(self.results), dtype=np.int64)
        for r, c in counts.items():
            row[self.result_index[r]] = c
        return row, void


class _Universes(dict[int, int]):
    """``ff(N, min(N, depth))`` per shoe size ``N`` (Python ints) for one ``depth``, each
    computed the first time it is asked for (:meth:`__missing__`) and then looked up."""

    def __init__(self, depth: int) -> None:
        super().__init__()
        self.depth = depth

    def __missing__(self, total: int) -> int:
        if len(self) >= UNIVERSES_KEPT:                     # a bound on the memory, never on the sizes
            self.clear()
        value = self[total] = falling_factorial(int(total), min(int(total), self.depth))
        return value


UNIVERSES_KEPT: Final = 4096
"""Shoe sizes whose universe :func:`universes` keeps per depth (it forgets them all beyond)."""

_UNIVERSES: dict[int, _Universes] = {}


def universes(totals: npt.NDArray[Any], depth: int) -> tuple[int, ...]:
    """``ff(N_b, min(N_b, depth))`` per shoe (Python ints), each size's computed once per
    process (a 64-shoe batch paid ~17 µs computing them per call).

    >>> universes(np.array([416, 3, 416]), 6) == (falling_factorial(416, 6), 6, falling_factorial(416, 6))
    True
    """
    memo = _UNIVERSES.get(depth)
    if memo is None:
        memo = _UNIVERSES[depth] = _Universes(depth)
    return tuple(map(memo.__getitem__, totals.tolist()))


@lru_cache(maxsize=256)
def _deal_short(level: Level, shoe: Shoe) -> tuple[dict[Hashable, int], int]:
    """Every ordering of a short shoe's physical cards (N! ≤ 120), dealt card by card.

    Each ordering is dealt by the level's layout; a round that needs a card the shoe lacks
    is void (§ 629a.13(e)).
    """
    counts: Counter[Hashable] = Counter()
    void = 0
    for order in itertools.permutations(shoe.cards()):
        dealt = level.layout.deal(order)
        if dealt is None:
            void += 1
        else:
            counts[level.from_deal(*dealt)] += 1
    return dict(counts), void
