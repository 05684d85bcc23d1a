"""Moderator Workstation: verify and judge AI-agent game runs.

`moderator_app.core` holds all logic and I/O and never imports Qt; `moderator_app.ui` holds the
Qt views; `moderator_app.cli` is the headless command line. Dependencies point one way:
ui -> core, cli -> core.

When this package is the program being started (the `moderator-app` console script, or
`python -m moderator_app`), its first statement blocks SIGINT and SIGTERM, the earliest point
any code of ours runs: a Ctrl+C that arrives after it waits for the command's own handling
(exit 130, no traceback; `core.stop_signals` takes the hold over and lets it go). A signal
before it (the interpreter's start, `site`, the console script's `import re`) still meets
Python's default. `_signal` is built in: importing `signal` here would cost `enum` first.
Imported as a library (tests, tools) the package blocks nothing.
"""

import sys as _sys

_ENTRY_HELD: "set[int] | None" = None  # signals blocked here, handed to core.stop_signals


def _started_as_the_program() -> bool:
    argv0 = _sys.argv[0] if _sys.argv else ""
    if getattr(_sys, "frozen", False):  # the bundle's helpers (multiprocessing) also start so
        return False
    if argv0.rsplit("/", 1)[-1] == "moderator-app":  # the console script
        return True
    if argv0 != "-m":  # `python -m PKG` sets argv[0] to "-m" while PKG is imported
        return False
    orig = getattr(_sys, "orig_argv", [])
    return any(a == "-m" and orig[i + 1:i + 2] == ["moderator_app"]
               for i, a in enumerate(orig))


if _started_as_the_program():
    try:
        import _signal  # type: ignore[import-not-found]  # built in, no stub

        _before = _signal.pthread_sigmask(_signal.SIG_BLOCK, (_signal.SIGINT, _signal.SIGTERM))
        _ENTRY_HELD = {int(s) for s in (_signal.SIGINT, _signal.SIGTERM) if s not in _before}
    except (ImportError, AttributeError, OSError, ValueError):  # not POSIX
        _ENTRY_HELD = None

__version__ = "0.1.0"
