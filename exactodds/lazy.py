"""A module imported on first use: what keeps ``import numpy`` out of commands that never
compute (``exactodds list``, ``--help``), a third of their start-up otherwise.

A module that needs numpy only inside its functions binds ``np`` to a :class:`LazyModule`
(the type checker sees the real import). The first attribute read imports the module and
puts it in the binder's namespace in place of the proxy, so every later use is a plain
global lookup of the real module.

>>> ns: dict[str, object] = {}
>>> ns["fr"] = LazyModule("fractions", ns, "fr")
>>> ns["fr"].Fraction(1, 2), type(ns["fr"]).__name__
(Fraction(1, 2), 'module')
"""

from __future__ import annotations

import importlib
from typing import Any


class LazyModule:
    """Stands for module ``name`` bound as ``alias`` in ``namespace`` until first used."""

    def __init__(self, name: str, namespace: dict[str, Any], alias: str) -> None:
        self._name, self._namespace, self._alias = name, namespace, alias

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(self._name)
        if self._namespace.get(self._alias) is self:
            self._namespace[self._alias] = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported on first use>"
