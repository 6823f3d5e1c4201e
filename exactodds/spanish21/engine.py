"""Moved to :mod:`exactodds.blackjack.engine` (one engine for the blackjack family); kept so that old imports work."""

from exactodds.blackjack.engine import *  # noqa: F403
