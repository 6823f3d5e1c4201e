"""Moved to :mod:`exactodds.blackjack.shoe` (one engine for the blackjack family); kept so that old imports work."""

from exactodds.blackjack.shoe import *  # noqa: F403
