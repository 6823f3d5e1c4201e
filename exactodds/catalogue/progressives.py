"""Placeholder: filled in by the catalogue work (issue 3)."""

from __future__ import annotations

from typing import Any

from ..wager import Wager

WAGERS: tuple[Wager[Any], ...] = ()
