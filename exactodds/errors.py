"""The one exception type for bad input.

Every user-facing error -- unknown wager or paytable, impossible shoe, malformed
option or file -- is an :class:`InputError`; the command line prints its message on
one line to stderr and exits with status 2.
"""


class InputError(ValueError):
    """Input that cannot be analysed; the message says what and why, on one line."""


class OutOfReach(InputError):
    """An exact computation refused before any work because it is measured to be out of reach at
    this size (e.g. the exact distribution of a Spanish 21 round with resplits from a full shoe);
    callers that can do without it (a simulation needs only the exact return) catch this one."""
