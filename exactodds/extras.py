"""Optional dependencies: which ``pip install 'exactodds[EXTRA]'`` brings which module.

The core install (``pip install exactodds``) carries what ``analyze``, ``eor``, ``certify``,
``tables`` and ``list`` need. Heavier tools are extras, each imported only where used:

======== ================== ====================================================
extra    module             used by
======== ================== ====================================================
fast     numba              the compiled batch kernel (a numpy path runs without)
stats    scipy              simulate / crosscheck / study statistics
plot     matplotlib         ``study --plot``
cluster  dask.distributed   ``study --scheduler``
pandas   pandas             DataFrames (``Analysis.to_frame`` and friends)
design   sympy              ``design`` (pays as symbols)
pdf      weasyprint         ``certify -o FILE.pdf`` / ``render`` (the page printed)
======== ================== ====================================================

:func:`missing_extra_message` turns an import failure of one of these into the one line the
command line prints; :func:`require` imports a module or raises that line as an input error.

>>> missing_extra_message(ModuleNotFoundError("No module named 'scipy'", name="scipy"), "simulate")
"simulate needs scipy: pip install 'exactodds[stats]'"
>>> missing_extra_message(ModuleNotFoundError("No module named 'foo'", name="foo"), "x") is None
True
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Final

from exactodds.errors import InputError

EXTRAS: Final = {
    "numba": "fast",
    "scipy": "stats",
    "matplotlib": "plot",
    "dask": "cluster",
    "distributed": "cluster",
    "pandas": "pandas",
    "sympy": "design",
    "weasyprint": "pdf",
}
"""Top-level module name -> the extra that installs it."""


def missing_extra_message(exc: ImportError, what: str) -> str | None:
    """``"WHAT needs MODULE: pip install 'exactodds[EXTRA]'"`` when ``exc`` is a missing
    optional module, else ``None`` (a genuine bug, left to propagate)."""
    name = (getattr(exc, "name", None) or "").partition(".")[0]
    if name not in EXTRAS:
        return None
    return f"{what} needs {name}: pip install 'exactodds[{EXTRAS[name]}]'"


def require(module: str, what: str) -> ModuleType:
    """Import ``module`` (one of :data:`EXTRAS`'s, or a submodule) or raise the one-line input error."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        message = missing_extra_message(exc, what)
        if message is None:
            raise
        raise InputError(message) from None


__all__ = ["EXTRAS", "missing_extra_message", "require"]
