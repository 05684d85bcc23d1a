"""What every command shares: exit codes, the evaluator-secret variable, and the two
argument and output helpers for untrusted text and offsets.

Exit codes mean the same for every command: 0 pass (or done), 1 the submission fails (or the
command refused its input), 2 the input cannot be read at all or the command line is wrong.
"""

from __future__ import annotations

import argparse
import math
import os

from moderator_app.core.text import has_undecodable, safe_json, safe_output, safe_text

SECRET_ENV = "ALE_EVALUATOR_SECRET"
EXIT_PASS, EXIT_FAIL, EXIT_UNREADABLE = 0, 1, 2

# The one escaping function for untrusted text lives in the core (the GUI and the
# verifiers' messages use it too); re-exported here for the commands.
__all__ = ["safe_json", "safe_output", "safe_text"]


def utf8_text(value: str) -> str:
    """argparse type for free text that is stored (a note, a reviewer's name): it must be
    valid UTF-8. A byte that is not arrives as a lone surrogate, which no JSON or SQLite
    text can hold; refused as a usage error (exit 2), the byte shown as `\\xNN`."""
    if has_undecodable(value):
        raise argparse.ArgumentTypeError(f"not valid UTF-8 text: {safe_text(value)!r}")
    return value


class SafeStream:
    """A text stream that escapes control and bidi characters in everything written to it
    (keeping newlines and tabs), so that no path to the terminal can carry them raw, not
    even an argparse message quoting a hostile argument. Undecodable bytes are escaped too,
    so printing never raises UnicodeEncodeError."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(safe_output(text))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._inner, name)


def finite_seconds(text: str) -> float:
    """argparse type for an offset in seconds: a finite number (NaN would make every missing
    footage sum 0 and pass any video)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number of seconds: {text!r}")
    return value


def default_reviewer() -> str:
    """The reviewer a decision is recorded under when --reviewer is not given: the login."""
    import getpass  # here: only decisions ask for the login, not every command's start

    try:
        return os.environ.get("USER") or getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name: the caller asks for --reviewer
        return ""
