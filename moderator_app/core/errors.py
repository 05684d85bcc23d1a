"""Exceptions that cross module boundaries.

Only conditions that stop verification from starting at all are exceptions; everything that is
wrong *inside* the evidence is a `Finding`, so a bad line never hides the lines after it.
"""


class InputError(Exception):
    """The input could not be read at all (missing path, unknown layout, unreadable archive).

    The CLI maps this to exit code 2; the GUI shows the message in a dialog. The message
    quotes paths and member names from the submission: it is escaped once, here.
    """

    def __init__(self, message: str) -> None:
        from moderator_app.core.text import safe_text

        super().__init__(safe_text(message))


class Cancelled(Exception):
    """Raised by `CancelToken.check()` when the user cancelled a long verification."""


class TooManyErrors(Exception):
    """Raised by `Report.add` once the verification's error budget is spent: a flood of bad
    lines (millions of `x` lines, blank lines in a trajectory) would otherwise cost seconds
    per million and decide nothing more, since the first error already fails the run.
    `line` is the line of the last error counted."""

    def __init__(self, line: int | None) -> None:
        super().__init__(f"too many errors (stopped at line {line})")
        self.line = line
