"""Ctrl+C and SIGTERM held back while the process starts, then let through.

Why: orjson 3.13's module initialisation does not survive a KeyboardInterrupt raised inside
it (it imports `datetime`, `uuid`, `dataclasses` ... and goes on with a NULL module): a
SIGINT sent 0.01-0.25 s after `moderator-app verify` started killed the CLI with SIGSEGV in
10 of 40 runs (33 of 60 for a bare `import orjson`). A crash is a crash, whatever its cause.

So the entry point (`moderator_app.__main__`) blocks SIGINT and SIGTERM with
`pthread_sigmask` before its heavy imports, and the command releases them inside its
`try`: a signal that arrived meanwhile stays pending, is delivered on release, and takes
the usual path (exit 130 or 143, temporary files removed). The held window is the imports
only (~0.1-0.3 s), never a command's work. Blocking is per thread and inherited by threads
started meanwhile (numpy's), which is what we want: the main thread takes the signal.

Since session 13 the hold starts earlier: the package's own first statement
(`moderator_app/__init__.py`) blocks both signals when the package is the program being
started (console script, `python -m moderator_app`), and `hold_stop_signals()` takes that
hold over. What stays: a signal sent before that statement (the interpreter's own start,
`site`, the console script's `import re`) gets Python's default behaviour (a
KeyboardInterrupt traceback, or death by SIGTERM), which no code of the package can change
(docs/DECISIONS.md, "Start-up signals and ledger paths").
"""

from __future__ import annotations

import signal
import threading

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_held: list[set[int]] = []  # the signals this module blocked (at most one entry)


def hold_stop_signals() -> None:
    """Block SIGINT and SIGTERM in the main thread until `release_stop_signals()`.
    A no-op off the main thread, where pthread_sigmask is unavailable, or when held."""
    if _held or threading.current_thread() is not threading.main_thread():
        return
    import moderator_app

    if moderator_app._ENTRY_HELD is not None:  # blocked at the package's first statement
        _held.append(moderator_app._ENTRY_HELD)
        moderator_app._ENTRY_HELD = None
        return
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    except (AttributeError, OSError, ValueError):  # not POSIX
        return
    # a signal the caller had blocked already stays blocked on release
    _held.append({int(s) for s in STOP_SIGNALS if s not in before})


def release_stop_signals() -> None:
    """Unblock what `hold_stop_signals()` blocked. A signal that arrived meanwhile is
    delivered now: call this where KeyboardInterrupt/SystemExit are handled."""
    if not _held:
        return
    ours = _held.pop()
    if ours:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, ours)
