"""The wager model: outcomes, pays and paytables as data.

A :class:`Wager` lists its outcomes (a name and a predicate on a finished round), its
paytables (outcome name -> :class:`Pay`) and the section of the code it comes from.
Settling a round is one rule for every wager: among the outcomes that hold and that
the paytable pays, the wager's ``settle`` rule picks one -- the first in declared
order (``"first"``, for wagers whose regulation ranks its outcomes) or the one that
pays most (``"highest"``, the catalogue's "one outcome per wager" convention). A
round no paid outcome covers settles on the wager's ``otherwise`` outcome, a loss.
Adding a paytable is adding data; no new control flow.

>>> Pay.to(5, 2).net, Pay.for_(9).net, Pay.commission(Fraction(5, 100)).net
(Fraction(5, 2), Fraction(8, 1), Fraction(19, 20))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Literal, TypeVar

from exactodds.engine.level import Level
from exactodds.engine.levels import COUP
from exactodds.errors import InputError
from exactodds.exact import decimal

Round = TypeVar("Round")


def _num(x: int | str | Fraction) -> Fraction:
    return Fraction(x)


@dataclass(frozen=True)
class Pay:
    """What a winning (or pushing, or losing) outcome pays, exactly.

    ``net`` is the net result per unit wagered (stake returned not counted);
    ``text`` is how the regulation states it.
    """

    net: Fraction
    text: str
    meter: str | None = None
    """For a progressive pay: the meter it pays; ``net`` is then the fixed part (−1: the
    wager is collected and ``share`` of the meter paid in all), see :meth:`meter_pay`."""
    share: Fraction = Fraction(0)

    @classmethod
    def meter_pay(cls, name: str, share: int | str | Fraction = 1) -> Pay:
        """``share`` (1 = 100%) of the meter ``name``, paid in all ("for" the wager).

        Its net per unit is ``share·M/stake − 1``; :mod:`exactodds.figures.progressive` prices it.
        """
        pct = _num(share) * 100
        shown = str(pct.numerator) if pct.denominator == 1 else f"{float(pct):g}"  # display only
        return cls(Fraction(-1), f"{shown}% of the {name} meter", name, _num(share))

    @classmethod
    def to(cls, a: int | str | Fraction, b: int = 1) -> Pay:
        """"a to b": the stake back plus a/b per unit (net a/b)."""
        return cls(_num(a) / b, f"{a} to {b}")

    @classmethod
    def for_(cls, a: int | str | Fraction, b: int = 1) -> Pay:
        """"a for b": a/b per unit in all, stake included (net a/b − 1)."""
        return cls(_num(a) / b - 1, f"{a} for {b}")

    @classmethod
    def push(cls) -> Pay:
        """The wager is returned (net 0)."""
        return cls(Fraction(0), "push")

    @classmethod
    def lose(cls) -> Pay:
        """The wager is lost (net −1)."""
        return cls(Fraction(-1), "loses")

    @classmethod
    def commission(cls, rate: Fraction) -> Pay:
        """1 to 1 less a commission (vigorish) of ``rate`` of the amount won."""
        shown = decimal(rate * 100, 4).rstrip("0").rstrip(".")
        return cls(1 - rate, f"1 to 1 less {shown}% commission")

    @classmethod
    def forfeit(cls, part: Fraction, text: str) -> Pay:
        """Part of the wager is taken (net −part), e.g. the 25% tie vigorish."""
        return cls(-part, text)


@dataclass(frozen=True)
class Outcome(Generic[Round]):
    """A named event of a round, as a predicate on the round's result."""

    name: str
    when: Callable[[Round], bool]


@dataclass(frozen=True)
class Paytable:
    """Pays per outcome name; outcomes it does not name are not paid (they fall through)."""

    id: str
    pays: Mapping[str, Pay]
    cite: str
    note: str = ""
    meters: tuple[Meter, ...] = ()
    """The progressive meters its meter pays read (empty for a fixed-odds paytable)."""
    stake: Fraction | None = None
    """Wager amount in dollars that meter and fixed-dollar amounts are divided by."""

    def __hash__(self) -> int:
        """A hash of the paytable's value (its pays as items), computed once: a (wager,
        paytable) pair keys the compiled plans by value (:mod:`exactodds.figures.plan`), and a
        frozen dataclass's own hash would fail on the ``pays`` mapping.

        >>> a = Paytable("x", {"Win": Pay.to(1)}, "§ 1")
        >>> hash(a) == hash(Paytable("x", {"Win": Pay.to(1)}, "§ 1")) and a == Paytable("x", {"Win": Pay.to(1)}, "§ 1")
        True
        """
        try:
            known: int = self._hash  # type: ignore[attr-defined]
        except AttributeError:
            known = self.__dict__["_hash"] = hash((self.id, tuple(self.pays.items()), self.cite, self.note,
                                                   self.meters, self.stake))
        return known

    def __getstate__(self) -> dict[str, Any]:
        """The fields, without the hash (a string's hash differs from process to process)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


@dataclass(frozen=True)
class Meter:
    """A progressive meter: reset (reseed) amount and the rates feeding it, per unit wagered.

    ``None`` where the regulation leaves the figure to the Rules Submission.
    """

    name: str
    reset: Fraction | None
    increment: Fraction | None
    reserve: Fraction = Fraction(0)
    reset_funded_by_reserve: bool = False
    cite: str = ""


@dataclass(frozen=True)
class Wager(Generic[Round]):
    """A regulated wager: outcomes, paytables, citation and the reading taken."""

    id: str
    name: str
    cite: str
    outcomes: tuple[Outcome[Round], ...]
    paytables: tuple[Paytable, ...]
    otherwise: str = "Loses"
    settle_rule: Literal["first", "highest"] = "highest"
    reading: str = ""
    level: Level = COUP
    """The level the wager is settled at (:mod:`exactodds.engine.levels`)."""
    _index: dict[str, Paytable] = field(init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        """A hash of the wager's value (its compared fields), computed once: a (wager,
        paytable) pair keys the compiled plans by value (:mod:`exactodds.figures.plan`)."""
        try:
            known: int = self._hash  # type: ignore[attr-defined]
        except AttributeError:
            known = self.__dict__["_hash"] = hash((self.id, self.name, self.cite, self.outcomes, self.paytables,
                                                   self.otherwise, self.settle_rule, self.reading, self.level))
        return known

    def __getstate__(self) -> dict[str, Any]:
        """The fields, without the hash (a string's hash differs from process to process)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {p.id: p for p in self.paytables})
        names = {o.name for o in self.outcomes}
        for table in self.paytables:
            unknown = set(table.pays) - names - {self.otherwise}
            assert not unknown, f"{self.id}/{table.id} pays unknown outcomes {unknown}"

    @property
    def default_paytable(self) -> Paytable:
        """The first paytable declared: the catalogue's default."""
        return self.paytables[0]

    def paytable(self, paytable_id: str | None = None) -> Paytable:
        """The paytable with this id (the default if ``None``); unknown ids are an input error."""
        if paytable_id is None:
            return self.default_paytable
        try:
            return self._index[paytable_id]
        except KeyError:
            known = ", ".join(self._index)
            raise InputError(
                f"paytable {paytable_id!r} does not belong to wager {self.id!r} (its paytables: {known})"
            ) from None

    def otherwise_pay(self, table: Paytable) -> Pay:
        """What a round no paid outcome covers pays: a loss unless the paytable says."""
        return table.pays.get(self.otherwise, Pay.lose())

    def settle(self, table: Paytable, result: Round) -> str:
        """The one outcome this round is settled on under ``table``."""
        best: str | None = None
        for outcome in self.outcomes:
            pay = table.pays.get(outcome.name)
            if pay is None or not outcome.when(result):
                continue
            if self.settle_rule == "first":
                return outcome.name
            if best is None or pay.net > table.pays[best].net:
                best = outcome.name
        return best if best is not None else self.otherwise

    def outcome_names(self, table: Paytable) -> list[str]:
        """The outcomes ``table`` pays, in declared order, then ``otherwise``."""
        return [o.name for o in self.outcomes if o.name in table.pays] + [self.otherwise]
