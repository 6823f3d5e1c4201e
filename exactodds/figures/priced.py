"""What the readers of a priced wager rely on, as structural types (:class:`typing.Protocol`).

An analysis (:class:`exactodds.figures.analysis.Analysis`) and effects of removal
(:class:`exactodds.figures.eor.EffectsOfRemoval`) are read by modules the analysis itself
calls on demand -- its DataFrame (:mod:`exactodds.figures.frames`) and its progressive figures
(:mod:`exactodds.figures.progressive`). Those readers name the shape they read here, one floor
below the analysis, rather than the analysis class: so the import graph has no circle (issue 29),
type-only imports included, and mypy still checks every attribute they read against the class
that is passed (an analysis satisfies :class:`PricedWager` by its fields and properties).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from exactodds.catalogue.model import Pay, Paytable, Wager
from exactodds.game.cards import Shoe


class PricedRow(Protocol):
    """One outcome of a priced wager: its name, its pay, its exact count over the universe."""

    @property
    def name(self) -> str: ...
    @property
    def pay(self) -> Pay: ...
    @property
    def count(self) -> int: ...
    @property
    def probability(self) -> Fraction: ...
    @property
    def contribution(self) -> Fraction: ...


class PricedWager(Protocol):
    """A wager priced on a shoe: its outcome rows and exact summary (an ``Analysis``)."""

    @property
    def wager(self) -> Wager[Any]: ...
    @property
    def paytable(self) -> Paytable: ...
    @property
    def shoe(self) -> Shoe: ...
    @property
    def total(self) -> int: ...
    @property
    def rows(self) -> Sequence[PricedRow]: ...
    @property
    def meter_amounts(self) -> Mapping[str, Fraction] | None: ...
    @property
    def meters_given(self) -> bool: ...
    @property
    def return_(self) -> Fraction: ...
    @property
    def house_edge(self) -> Fraction: ...
    @property
    def hit_frequency(self) -> Fraction: ...
    @property
    def variance(self) -> Fraction: ...
    @property
    def element_of_risk(self) -> Fraction | None: ...


class RemovalEffect(Protocol):
    """The effect of removing one card of a rank, or one face, on a wager's return."""

    @property
    def label(self) -> str: ...
    @property
    def copies(self) -> int: ...
    @property
    def return_after(self) -> Fraction: ...
    @property
    def effect(self) -> Fraction: ...


class RemovalEffects(Protocol):
    """Effects of removal of one wager and paytable (an ``EffectsOfRemoval``)."""

    @property
    def wager(self) -> Wager[Any]: ...
    @property
    def paytable(self) -> Paytable: ...
    @property
    def ranks(self) -> Sequence[RemovalEffect]: ...
    @property
    def shown_faces(self) -> Sequence[RemovalEffect]: ...
