"""Whole writes to the pipes between the workstation and its isolated video processes.

`BufferedWriter.write` may write less than it was given and say so only in its return value:
when a signal interrupts a write blocked on a full pipe after part of it went through, the
call returns that part's length (CPython 3.11: 65,536 of a 6,000,000-byte write, the pipe's
size, one signal). A caller that ignores the count loses the rest of the message. The video
process takes SIGUSR1 (a player's interrupt of its warm-up, `VideoProcess.interrupt`) while it
writes the warm-up's frames back (megabytes, more than a pipe holds): its answer then ended
short of the length its header announced, the workstation waited for the rest, and the child,
its answer "sent", waited for the next request (the session 16-18 flake of the video-finding
walk). Every message is written with `write_all`.
"""

from __future__ import annotations

import signal


def interrupt_signal(gen: int) -> int | None:
    """The signal that interrupts warm-up `gen` (the `gen` of its request): SIGUSR1 for an
    even generation, SIGUSR2 for an odd one, so that the child tells an interrupt meant for
    the warm-up it serves from a stale one meant for the one before (child.py `_INTERRUPT`).
    None where there are no such signals."""
    return getattr(signal, "SIGUSR2" if int(gen) & 1 else "SIGUSR1", None)


def write_all(out, data) -> None:
    """Write every byte of `data` to the binary file `out`, again after a short write.
    OSError when the file takes nothing (a non-blocking file that would block)."""
    with memoryview(data) as whole, whole.cast("B") as view:
        done, total = 0, len(view)
        while done < total:
            with view[done:] as rest:
                n = out.write(rest)
            if not n:
                raise OSError("the pipe took none of the message")
            done += n
