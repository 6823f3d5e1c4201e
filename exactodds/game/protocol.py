"""The game seam: what every game hands up to the figures above it (issue 26).

Each game computes in its own way -- the deal walk for baccarat, the tile enumeration for
Pai Gow, the expectimax over the player's decisions for the blackjack family -- and hands up
one thing: an **exact outcome table** (:class:`OutcomeTable`): named outcomes, each with its
net pay per unit wagered and an exact integer count over one exact universe, under a stated
strategy. Everything above the seam (the par sheet, the certificate entry, the views) is
written once, against this table.

A game is a :class:`Game` subclass in the style of python-chess's ``chess/variant.py``: class
data (``id``, ``title``, ``citation``, ``deck``, ``rules_type``, ``strategies``) and a few
hooks, of which one is required (:meth:`Game.outcome_table`) and the others optional
(:meth:`Game.second_method`, :meth:`Game.readings`, :meth:`Game.schedules`,
:meth:`Game.identities`, :meth:`Game.simulate`, :meth:`Game.tables`). Rules are frozen dataclasses whose fields carry their regulation
section, a name a person reads and the command-line flag that sets them (:func:`rule`), so a
certificate prints the rules record without knowing the game (:func:`rules_record`).
The registry of games is :data:`exactodds.games.registry.GAMES`.

>>> t = OutcomeTable.from_probabilities(
...     [("win", Fraction(1), "1 to 1", Fraction(1, 3)), ("loss", Fraction(-1), "loses", Fraction(2, 3))],
...     strategy="none", universe="one draw")
>>> t.total, t.return_, t.variance
(3, Fraction(-1, 3), Fraction(8, 9))
>>> SPANISH_48.describe(8), TILES_32.describe(), STANDARD_52.describe(1)
('8 decks of 48 cards (384)', '32 tiles', '1 deck of 52 cards (52)')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from exactodds.errors import InputError
from exactodds.exact import Sqrt, ratio, reduced

if TYPE_CHECKING:
    from exactodds.io.progress import Progress

SIMULATION_TICK: Final = 5000
"""Rounds between a simulator's progress reports (:meth:`Game.simulate`): well under a second."""

# -- decks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    """A named deck: what one deck of the game holds (``per_deck`` cards or tiles), and
    whether the game is dealt from a shoe of several (``shoe``) or from the set alone."""

    id: str
    title: str
    unit: str
    """What the deck holds: ``"cards"`` or ``"tiles"``."""
    per_deck: int
    shoe: bool
    """Dealt from a shoe of several decks (cards), else from one set (Pai Gow's tiles)."""
    any_composition: bool = False
    """Whether the game allows a shoe of any composition (baccarat's ``--shoe``)."""

    def describe(self, decks: int = 1) -> str:
        """``"8 decks of 48 cards (384)"``, ``"1 deck of 52 cards (52)"``; a set: ``"32 tiles"``."""
        if not self.shoe:
            return f"{self.per_deck * decks:,} {self.unit}"
        return (f"{decks} deck{'s' if decks != 1 else ''} of {self.per_deck} {self.unit} "
                f"({decks * self.per_deck:,})")

    def to_json(self, decks: int = 1) -> dict[str, Any]:
        """The ``deck`` member of a certificate's game entry."""
        return {"id": self.id, "title": self.title, "unit": self.unit, "per_deck": self.per_deck,
                "decks": decks if self.shoe else None, "size": self.per_deck * decks,
                "description": self.describe(decks)}


STANDARD_52: Final = Deck("standard-52", "standard 52-card deck", "cards", 52, True, any_composition=True)
SPANISH_48: Final = Deck("spanish-48", "Spanish deck: the standard deck less its four tens (58 Pa. Code § 551.3(a))",
                         "cards", 48, True)
TILES_32: Final = Deck("tiles-32", "the 32 Chinese dominoes (58 Pa. Code § 535.3(a))", "tiles", 32, False)
DECKS: Final = {d.id: d for d in (STANDARD_52, SPANISH_48, TILES_32)}


# -- rules records ---------------------------------------------------------------------------
@dataclass(frozen=True)
class RuleField:
    """What a rules field carries: its attribute, the name a person reads, the regulation
    section it comes from and the command-line flag that sets it."""

    field: str
    name: str
    section: str
    flag: str


def rule(default: Any, *, name: str, section: str, flag: str) -> Any:
    """A field of a frozen rules dataclass with its name, section and flag as metadata."""
    return dataclasses.field(default=default, metadata={"name": name, "section": section, "flag": flag})


def rule_fields(rules_type: type) -> tuple[RuleField, ...]:
    """The :class:`RuleField` of every field of a rules dataclass, in order; a field
    without a name, section or flag is a programming error."""
    out = []
    for f in dataclasses.fields(rules_type):
        meta = f.metadata
        if not {"name", "section", "flag"} <= set(meta):
            raise TypeError(f"rules field {rules_type.__name__}.{f.name} lacks its name, section or flag (rule())")
        out.append(RuleField(f.name, meta["name"], meta["section"], meta["flag"]))
    return tuple(out)


def rules_record(rules: Any) -> list[dict[str, Any]]:
    """A rules record as a certificate prints it: one member per field, with its value."""
    return [{"field": f.field, "name": f.name, "section": f.section, "flag": f.flag,
             "value": getattr(rules, f.field)} for f in rule_fields(type(rules))]


def rules_values(rules: Any) -> dict[str, Any]:
    """The rules as ``{field: value}`` (a report's inputs; :func:`rules_from_values` reads it back)."""
    return {f.field: getattr(rules, f.field) for f in rule_fields(type(rules))}


def rules_from_values(rules_type: type, values: Any) -> Any:
    """The rules record of ``values`` (``{field: value}``): unknown fields, or values of
    another type than the default's, are an :class:`InputError`."""
    if not isinstance(values, dict):
        raise InputError("rules must be an object of field: value")
    fields = {f.name: f for f in dataclasses.fields(rules_type)}
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise InputError(f"unknown rules field {unknown[0]!r} (the fields: {', '.join(fields)})")
    for k, v in values.items():
        default = fields[k].default
        if type(v) is not type(default):
            raise InputError(f"rules field {k!r} must be a {type(default).__name__}, got {type(v).__name__}")
    return rules_type(**values)


# -- the exact outcome table -----------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """One named outcome: its net result per unit wagered, how it is paid in words, and its
    exact count of the table's universe."""

    name: str
    net: Fraction
    pays_text: str
    count: int


Basis = Literal["counts", "probabilities"]


@dataclass(frozen=True)
class OutcomeTable:
    """Exact outcome counts over one universe of ``total`` equally weighted elements.

    ``basis`` states what the counts are: ``"counts"`` -- equally likely deals, counted
    (baccarat's card sequences, Pai Gow's tile deals); ``"probabilities"`` -- exact
    probabilities put over their common denominator ``total`` (a game whose exact result is a
    distribution, such as the blackjack family under a strategy; :meth:`from_probabilities`).
    Either way every figure is exact: counts are ints, everything else a Fraction.
    ``strategy`` names the player's play the table assumes; ``universe`` describes it in words.
    """

    outcomes: tuple[Outcome, ...]
    total: int
    strategy: str
    universe: str
    basis: Basis = "counts"

    def __post_init__(self) -> None:
        if self.total <= 0 or any(o.count < 0 for o in self.outcomes):
            raise ValueError("an outcome table needs a positive universe and counts of at least 0")
        if sum(o.count for o in self.outcomes) != self.total:
            raise ValueError("outcome counts must add up to the universe")

    @classmethod
    def from_probabilities(cls, rows: Iterable[tuple[str, Fraction, str, Fraction]], strategy: str,
                           universe: str) -> OutcomeTable:
        """A table of exact probabilities ``(name, net, pays_text, probability)``, which must
        add up to 1, turned into counts over their least common denominator."""
        rows = list(rows)
        if sum((p for *_, p in rows), Fraction(0)) != 1:
            raise ValueError("outcome probabilities must add up to 1")
        den = lcm(*(Fraction(p).denominator for *_, p in rows))
        return cls(tuple(Outcome(n, Fraction(net), text, int(Fraction(p) * den)) for n, net, text, p in rows),
                   den, strategy, universe, "probabilities")

    def probability(self, o: Outcome) -> Fraction:
        return Fraction(o.count, self.total)

    def _moments(self) -> tuple[int, int, int]:
        den = lcm(*(o.net.denominator for o in self.outcomes))
        scaled = [(o.count, o.net.numerator * (den // o.net.denominator)) for o in self.outcomes]
        return sum(n * x for n, x in scaled), sum(n * x * x for n, x in scaled), den

    @property
    def return_(self) -> Fraction:
        """Expected net result per unit wagered."""
        first, _, den = self._moments()
        return reduced(first, den * self.total)

    @property
    def house_edge(self) -> Fraction:
        return -self.return_

    @property
    def variance(self) -> Fraction:
        """Variance of one round's net result per unit wagered."""
        first, second, den = self._moments()
        return reduced(second * self.total - first * first, (den * self.total) ** 2)

    @property
    def std_dev(self) -> Sqrt:
        """√variance held exactly (:class:`~exactodds.exact.Sqrt`); its ``str`` is the decimal."""
        return Sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability of a positive net result."""
        return Fraction(sum(o.count for o in self.outcomes if o.net > 0), self.total)

    @property
    def push_probability(self) -> Fraction:
        return Fraction(sum(o.count for o in self.outcomes if o.net == 0), self.total)

    @property
    def element_of_risk(self) -> Fraction | None:
        """House edge per unit of resolved wager where pushes happen (None without pushes)."""
        push = self.push_probability
        if push == 0 or push == 1:
            return None
        return self.house_edge / (1 - push)

    def to_json(self) -> dict[str, Any]:
        """The table and its exact summary figures (``p/q``; ``std_dev`` its decimal)."""
        eor = self.element_of_risk
        return {
            "strategy": self.strategy, "universe": self.universe, "basis": self.basis, "total": self.total,
            "outcomes": [{"outcome": o.name, "pays": ratio(o.net), "pays_text": o.pays_text, "count": o.count,
                          "probability": ratio(self.probability(o)), "return": ratio(o.net * self.probability(o))}
                         for o in self.outcomes],
            "return": ratio(self.return_), "house_edge": ratio(self.house_edge),
            "hit_frequency": ratio(self.hit_frequency), "variance": ratio(self.variance),
            "std_dev": str(self.std_dev), "element_of_risk": None if eor is None else ratio(eor)}


# -- the game ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Schedule:
    """A table a game adds to its certificate entry beside the par sheets (e.g. Pai Gow's
    hold by wager amount, the commission rounded): column names and rows of strings
    (exact values as ``p/q``), with the section it follows."""

    title: str
    cite: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "cite": self.cite, "columns": list(self.columns),
                "rows": [list(r) for r in self.rows]}


@dataclass(frozen=True)
class TableFile:
    """A file a game adds to the generated ``tables/`` folder (``exactodds tables``,
    :mod:`exactodds.report.tables`) beside the per-deck tables of the catalogue: its ``name``
    at the folder's top (``.md`` or ``.json``), ``render`` making its text only when the tables
    are built (Markdown without the generated note, which the build adds), and for a JSON file
    the text it ``starts`` with -- the second proof, beside the manifest's hash, that a file
    found there is one the build wrote."""

    name: str
    render: Callable[[], str]
    starts: str = ""


@dataclass(frozen=True)
class GameTables:
    """What a game adds to ``tables/``: its files and the paragraph of the folder's
    ``README.md`` that links them (Markdown)."""

    index: str
    files: tuple[TableFile, ...]


class Game:
    """A game of the regulations, as class data and hooks (see the module docstring).

    Subclasses set the class data and implement :meth:`outcome_table`; the other hooks have
    defaults meaning "none" (no second method, no readings beyond the strategy's, no
    schedules, no simulator)."""

    id: ClassVar[str]
    title: ClassVar[str]
    citation: ClassVar[str]
    deck: ClassVar[Deck]
    rules_type: ClassVar[type]
    """A frozen dataclass whose fields are made by :func:`rule`; its defaults are the rules as written."""
    strategies: ClassVar[tuple[str, ...]] = ("as dealt",)
    """The player strategies the game is priced under (an outcome table per strategy)."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names ``--game`` takes (and, as ``--NAME``, a flag of ``certify``)."""
    cli: ClassVar[str] = ""
    """The module of the game's own command, if it has one (its ``register(app)`` adds it)."""
    by_wager: ClassVar[bool] = False
    """Certified per wager and paytable (baccarat: its entry's tables are the wager-paytables asked for,
    :func:`exactodds.games.certificate.baccarat_entry`), not per strategy by :meth:`outcome_table`;
    the entry has the one shape either way (:mod:`exactodds.figures.entry`)."""

    def outcome_table(self, rules: Any, strategy: str) -> OutcomeTable:
        """The exact outcome table under ``rules`` for the player's ``strategy`` (required)."""
        raise NotImplementedError

    def second_method(self, rules: Any, strategy: str) -> tuple[str, OutcomeTable] | None:
        """The same table by an independent computation, with the method in words; None: none."""
        return None

    def decks(self, rules: Any) -> int:
        """How many decks of :attr:`deck` the rules deal from (a rules field ``decks``, else 1)."""
        value = getattr(rules, "decks", 1)
        return value if isinstance(value, int) else 1

    def readings(self, rules: Any) -> tuple[str, ...]:
        """Every reading of the regulation the tables take, in words."""
        return ()

    def schedules(self, rules: Any) -> tuple[Schedule, ...]:
        """Tables the certificate entry carries beside the par sheets."""
        return ()

    def identities(self, rules: Any, tables: dict[str, OutcomeTable]) -> tuple[tuple[str, bool], ...]:
        """Checks of the game's own mathematics over its tables (by strategy): (statement, holds)."""
        return ()

    def prepare(self, rules: Any, progress: Progress | None = None) -> None:
        """Do the long work of :meth:`outcome_table` for ``rules`` ahead, telling ``progress``
        (the certificate calls it before the entry, so a bar moves); by default nothing."""

    def simulate(self, rules: Any, strategy: str, rounds: int, seed: int,
                 progress: Progress | None = None) -> Sequence[Fraction] | None:
        """``rounds`` dealt rounds' net results per unit wagered, from ``seed`` (the simulator's own
        settlement, set beside the exact table by ``simulate --game``), ``progress`` told as the
        work (a solve the strategy needs, the rounds) advances; None: no simulator."""
        return None

    def exact_return(self, rules: Any, strategy: str) -> Fraction:
        """The strategy's exact return per unit: the outcome table's, unless the game knows it
        where the table is out of reach (:class:`~exactodds.errors.OutOfReach`)."""
        return self.outcome_table(rules, strategy).return_

    def effects_of_removal(self, rules: Any, progress: Any = None) -> dict[str, Any] | None:
        """The exact change in the player's return when one card of each rank is removed (the
        shape of baccarat's ``eor`` JSON: ``ranks[].card``, ``ranks[].effect``, a count); None:
        the game has none (``eor --game``)."""
        return None

    def rules(self, values: Any = None) -> Any:
        """The game's rules record from ``{field: value}`` (None: the rules as written)."""
        return self.rules_type() if values is None else rules_from_values(self.rules_type, values)

    def tables(self) -> GameTables | None:
        """The files the game adds to ``tables/`` (None: none). Cheap: it names the files, which
        are rendered only when the tables are built."""
        return None


__all__ = ["DECKS", "SPANISH_48", "STANDARD_52", "TILES_32", "Basis", "Deck", "Game", "GameTables", "Outcome",
           "OutcomeTable", "RuleField", "Schedule", "TableFile", "rule", "rule_fields", "rules_from_values", "rules_record", "rules_values"]
