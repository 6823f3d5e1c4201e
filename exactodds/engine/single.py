"""One composition at a time: the compiled single-shoe path, and when a process takes it.

An analysis prices one new shoe per level (:meth:`~exactodds.engine.level.Level.priced`).
The numpy path of :func:`~exactodds.engine.pricing.price` pays a fixed cost per array
operation -- dozens of them, each over tens of thousands of entries -- and the batch
kernel of :mod:`exactodds.engine.kernel` prices :data:`~exactodds.engine.kernel.LANES`
shoes side by side; for a single shoe both do many times the work of a plain loop. So
:mod:`exactodds.engine.single_kernel` holds the same arithmetic written for one shoe
(the prefix tree's one product per node, then the :class:`~exactodds.engine.pricing.Plan`'s
sums), which numba compiles.

Loading numba and its compiled code costs a few tenths of a second, more than a one-shot
command line spends pricing; so a process makes its first :data:`COMPILED_AFTER`
single-shoe pricings (one per level a new shoe is priced at) by numpy and takes the
compiled path only from then on (a notebook, a sweep over shoes, a server), and only
where numba is installed (the ``fast`` extra). ``analyze --all`` (8 levels) and
``tables`` for three deck counts (24) stay below it.
Both paths compute the same integers: int64 only under the bound of
:mod:`exactodds.engine.pricing` (else the object path), and the tests hold the compiled
path equal to the Python-int path on random shoes.

>>> COMPILED_AFTER > 0
True
"""

from __future__ import annotations

from types import ModuleType
from typing import Final

COMPILED_AFTER: Final = 32
"""Single-shoe pricings a process makes by numpy before it loads the compiled kernel."""

_state: dict[str, int | ModuleType | None] = {"priced": 0}


def compiled_kernel(force: bool | None = None) -> ModuleType | None:
    """The compiled single-shoe kernel module, or None: numba missing (the ``fast`` extra),
    ``force`` False, or (``force`` None) fewer than :data:`COMPILED_AFTER` single-shoe
    pricings made in this process so far. Each call counts one."""
    if force is False:
        return None
    if "kernel" in _state:
        kernel = _state["kernel"]
        return kernel if isinstance(kernel, ModuleType) else None
    priced = _state["priced"]
    assert isinstance(priced, int)
    _state["priced"] = priced + 1
    if not force and priced < COMPILED_AFTER:
        return None
    try:
        from exactodds.engine import single_kernel
    except ImportError:
        _state["kernel"] = None
        return None
    _state["kernel"] = single_kernel
    return single_kernel


def loaded_kernel() -> ModuleType | None:
    """The compiled single-shoe kernel module if this process has loaded it already (by
    :func:`compiled_kernel`), else None; counts nothing and loads nothing."""
    kernel = _state.get("kernel")
    return kernel if isinstance(kernel, ModuleType) else None
