"""Moved to :mod:`exactodds.blackjack.bruteforce` (one engine for the blackjack family); kept so that old imports work."""

from exactodds.blackjack.bruteforce import *  # noqa: F403
