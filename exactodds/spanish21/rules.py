"""Moved to :mod:`exactodds.blackjack.rules` (one engine for the blackjack family); kept so that old imports work."""

from exactodds.blackjack.rules import *  # noqa: F403
