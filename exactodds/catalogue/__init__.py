"""The regulated wager catalogue: every wager declared once, with its citation.

>>> get_wager("banker").paytable().id
'5pct'
>>> get_wager("bankr")
Traceback (most recent call last):
...
exactodds.errors.InputError: unknown wager 'bankr' (did you mean 'banker'?); 'exactodds list' shows them all
"""

from __future__ import annotations

import difflib
from typing import Any

from exactodds.catalogue import core, pairs, phoenix, progressives, side, spanish21
from exactodds.catalogue.model import Wager
from exactodds.errors import InputError

CATALOGUE: dict[str, Wager[Any]] = {}
for _wager in (*core.WAGERS, *side.WAGERS, *phoenix.WAGERS, *pairs.WAGERS, *progressives.WAGERS, *spanish21.WAGERS):
    assert _wager.id not in CATALOGUE, _wager.id
    CATALOGUE[_wager.id] = _wager


def get_wager(wager_id: str) -> Wager[Any]:
    """The wager with this id; unknown ids are an input error naming the nearest id."""
    try:
        return CATALOGUE[wager_id]
    except KeyError:
        near = difflib.get_close_matches(wager_id, CATALOGUE, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise InputError(f"unknown wager {wager_id!r}{hint}; 'exactodds list' shows them all") from None
