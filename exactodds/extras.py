"""Optional dependencies: which ``pip install 'exactodds[EXTRA]'`` brings which module.

The core install (``pip install exactodds``) carries what ``analyze``, ``eor``, ``certify``,
``tables`` and ``list`` need. Heavier tools are extras, each imported only where used:

======== ================== ====================================================
extra    module             used by
======== ================== ====================================================
fast     numba              the compiled kernels: baccarat batch, blackjack dealer tables and hand solver (numpy / Python without)
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
import logging
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
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


PLOT_FORMATS: Final = ("png", "svg", "pdf")
"""What a chart file may be, named by its suffix."""

PLOT_METADATA: Final = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}
"""Per format: metadata left out of a chart, so that the same figures make the same bytes."""


def plot_format(path: str, option: str = "--plot") -> str:
    """The chart format ``path``'s suffix names (``png``, ``svg``, ``pdf``); any other suffix,
    or none, is an input error: the file is what its name says (issue 25).

    >>> plot_format("edge.PDF"), plot_format("a.b.svg")
    ('pdf', 'svg')
    >>> plot_format("edge")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputError: --plot must name a .png, .svg or .pdf file, got 'edge'
    """
    ext = path.rpartition(".")[2].lower() if "." in path.rpartition("/")[2] else ""
    if ext not in PLOT_FORMATS:
        raise InputError(f"{option} must name a .png, .svg or .pdf file, got {path!r}")
    return ext


@contextmanager
def quiet_pyplot(what: str) -> Iterator[ModuleType]:
    """``matplotlib.pyplot`` on the Agg backend (no display), with matplotlib's warnings (a
    glyph missing from the font, a cache folder it could not write) and log messages silenced
    while the block runs: a chart is a file, and the command's stderr stays one error line or
    none (issue 25). A missing matplotlib is the one-line error of :func:`require`."""
    logger = logging.getLogger("matplotlib")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mpl = require("matplotlib", what)
            mpl.use("Agg")
            yield importlib.import_module("matplotlib.pyplot")
    finally:
        logger.setLevel(level)


PURE_ENV: Final = "EXACTODDS_PURE"
"""Set to ``1``, the numpy paths run where a compiled kernel (the ``fast`` extra) would: the
oracle the tests hold the kernels to, and the speed of an install without numba."""


def compiled(module: str) -> ModuleType | None:
    """The compiled kernel module ``module`` (numba, the ``fast`` extra), or None when numba is
    missing or ``EXACTODDS_PURE=1`` (:data:`PURE_ENV`) asks for the numpy path. The switch is
    read at every call (a test sets it for a block); the import is paid once."""
    if os.environ.get(PURE_ENV) == "1":
        return None
    return _compiled(module)


@cache
def _compiled(module: str) -> ModuleType | None:
    """:func:`compiled`'s import, memoized (the import machinery is not paid per batch)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


__all__ = ["EXTRAS", "PLOT_FORMATS", "PLOT_METADATA", "PURE_ENV", "compiled", "missing_extra_message", "plot_format",
           "quiet_pyplot", "require"]
