"""Exceptions that cross module boundaries.

Only conditions that stop verification from starting at all are exceptions; everything that is
wrong *inside* the evidence is a `Finding`, so a bad line never hides the lines after it.
"""


class InputError(Exception):
    """The input could not be read at all (missing path, unknown layout, unreadable archive).

    The CLI maps this to exit code 2; the GUI shows the message in a dialog.
    """


class Cancelled(Exception):
    """Raised by `CancelToken.check()` when the user cancelled a long verification."""
