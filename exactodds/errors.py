"""The one exception type for bad input.

Every user-facing error -- unknown wager or paytable, impossible shoe, malformed
option or file -- is an :class:`InputError`; the command line prints its message on
one line to stderr and exits with status 2.
"""


class InputError(ValueError):
    """Input that cannot be analysed; the message says what and why, on one line."""
