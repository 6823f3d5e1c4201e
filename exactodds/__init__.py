"""exactodds: exact odds of every regulated baccarat wager."""

__version__ = "0.1.0"
