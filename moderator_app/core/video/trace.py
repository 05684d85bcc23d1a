"""Tracing of the talk between the workstation and its isolated video processes, for tests
and for chasing a race: with `MODERATOR_VIDEO_TRACE=folder`, each side appends one line per
event (a request sent or read, with its id; an answer sent or read; an interrupt sent or
taken; a kill) to `folder/<side>-<pid>.log`. Off (one environment look) otherwise; nothing in
the product sets it.

Why: session 18 caught a frame request waiting for a warm-up's answer while the decoder
process sat idle on its input, twice, with gdb, and could not say which message was lost:
a state seen at the end does not say the order things happened in. Both sides' lines, on
one monotonic clock and with the parent's request ids, do.
"""

from __future__ import annotations

import os
import threading
import time

TRACE_ENV = "MODERATOR_VIDEO_TRACE"


def tracing() -> bool:
    return bool(os.environ.get(TRACE_ENV))


def trace(side: str, text: str) -> None:
    """Append `text` to this process's trace (no-op unless tracing). Best effort: a trace
    that cannot be written is dropped, never an error for the caller."""
    folder = os.environ.get(TRACE_ENV)
    if not folder:
        return
    line = (f"{time.monotonic():.4f} {os.getpid()} {threading.current_thread().name} "
            f"{text}\n").encode("utf-8", "replace")
    try:
        fd = os.open(os.path.join(folder, f"{side}-{os.getpid()}.log"),
                     os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        os.write(fd, line)
    except OSError:
        pass
    finally:
        os.close(fd)


def summary(header: dict) -> str:
    """The fields of a message's header that say what it answers (not its pixels' sizes)."""
    keys = ("rid", "ok", "progress", "play", "n", "done", "sent", "last", "interrupted",
            "reason")
    return " ".join(f"{k}={header[k]!r}" for k in keys if k in header)
