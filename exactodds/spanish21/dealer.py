"""Moved to :mod:`exactodds.blackjack.dealer` (one engine for the blackjack family); kept so that old imports work."""

from exactodds.blackjack.dealer import *  # noqa: F403
