"""What every command shares: exit codes, the evaluator-secret variable, and the two
argument and output helpers for untrusted text and offsets.

Exit codes mean the same for every command: 0 pass (or done), 1 the submission fails (or the
command refused its input), 2 the input cannot be read at all or the command line is wrong.
"""

from __future__ import annotations

import argparse
import getpass
import math
import os
import re

SECRET_ENV = "ALE_EVALUATOR_SECRET"
EXIT_PASS, EXIT_FAIL, EXIT_UNREADABLE = 0, 1, 2

_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def safe_text(text: str) -> str:
    """Untrusted text for a terminal: control characters (escape sequences, bidi overrides)
    are shown as escapes instead of being interpreted by the terminal."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


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
    try:
        return os.environ.get("USER") or getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name: the caller asks for --reviewer
        return ""
