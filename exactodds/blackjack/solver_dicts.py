"""The dicts a compiled hand solver shows the engine (:attr:`HandSolver.memo`,
:attr:`HandSolver.node_actions`), their entries reconstructed from the solver's residues on demand.

Why its own module: :class:`~exactodds.blackjack.compiled.CompiledSolver` keeps its values as
residues (:mod:`exactodds.blackjack.compiled`), while the engine reads a solver's node values and
recorded actions as dicts, as it does the Python :class:`~exactodds.blackjack.hands.HandSolver`'s;
these classes are that surface, one lazy-dict mechanism for both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol, TypeVar

from exactodds.blackjack.shoe import Values

V = TypeVar("V")


class Source(Protocol):
    """What the dicts read of their solver (:class:`~exactodds.blackjack.compiled.CompiledSolver`)."""

    def memo_value(self, key: tuple[Values, int]) -> int | None: ...

    def exposed(self, key: tuple[Values, int] | None = None) -> dict[tuple[Values, int], dict[str, int]]: ...

    def release(self, values: bool, actions: bool) -> None: ...

    def evaluated_nodes(self) -> int: ...


class Lazy(dict[tuple[Values, int], V]):
    """A solver's dict read by the engine, its entries reconstructed from the residues on demand
    (:meth:`_load`) and kept once read: one mechanism for :class:`Memo` and :class:`Actions`."""

    def __init__(self, solver: Source) -> None:  # (empty from dict.__new__: no dict.__init__ call)
        self.solver = solver

    def _load(self, key: tuple[Values, int]) -> V | None:
        raise NotImplementedError

    def get(self, key: tuple[Values, int], default: Any = None) -> Any:
        got = dict.get(self, key)
        if got is None:
            got = self._load(key)
            if got is None:
                return default
            dict.__setitem__(self, key, got)
        return got

    def __getitem__(self, key: tuple[Values, int]) -> V:
        got = self.get(key)
        if got is None:
            raise KeyError(key)
        return got  # type: ignore[no-any-return]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and self.get(key) is not None


class Memo(Lazy[int]):
    """:attr:`HandSolver.memo` of a compiled solver: the node values reconstructed on demand."""

    def _load(self, key: tuple[Values, int]) -> int | None:
        return self.solver.memo_value(key)

    def clear(self) -> None:
        dict.clear(self)
        self.solver.release(values=True, actions=False)

    def preset(self, items: Iterable[tuple[tuple[Values, int], int]]) -> None:
        """Values known in advance (a batch reconstructed at once)."""
        dict.update(self, items)

    def __len__(self) -> int:
        return max(self.solver.evaluated_nodes(), dict.__len__(self))

    def __bool__(self) -> bool:
        return len(self) > 0


class Actions(Lazy[dict[str, int]]):
    """:attr:`HandSolver.node_actions` of a compiled solver: reconstructed on demand, all at once
    when iterated."""

    def _load(self, key: tuple[Values, int]) -> dict[str, int] | None:
        return self.solver.exposed(key).get(key)

    def _fill(self) -> None:
        for key, acts in self.solver.exposed().items():
            dict.setdefault(self, key, acts)

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def keys(self) -> Any:
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def __iter__(self) -> Iterator[tuple[Values, int]]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, Actions):
            other._fill()
        return dict.__eq__(self, other)

    def clear(self) -> None:
        dict.clear(self)
        self.solver.release(values=False, actions=True)


__all__ = ["Actions", "Lazy", "Memo", "Source"]
