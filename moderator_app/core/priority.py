"""Background work yields the CPU to what the moderator is looking at (issue 11 point 8).

The workstation plays 1080p60 video on machines with two cores while it verifies, scans, runs
the sync analysis and lists a queue in the background. The player's decoder is a process at
normal priority; every background lane lowers its own priority, so that when the CPU is short
the scheduler serves playback first, and when it is not, background work still gets all of it
(a nice value is a share under contention, never a cap).

On Linux a nice value belongs to one thread (`setpriority(PRIO_PROCESS, tid)`), and what that
thread starts afterwards inherits it: FFmpeg's decoder threads inside OpenCV, a process pool's
server and workers. So one call at the top of a background thread covers all of its work
without touching the GUI thread. Elsewhere the call does nothing (returns False).

Threads of one process also share Python's GIL: a thread back from I/O may wait up to the
switch interval (5 ms) for it while a background thread computes. So the frame worker reads a
frame in a few large reads (`video/isolate.py`), not one per 64 KiB of pipe: that took half of
playback's frames while a verification ran. (A 1 ms switch interval was measured too and
made no difference once the reads were few.)
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import time

# The nice value of background work: the integrity scan's isolated process uses the same, so
# the player (0) gets about 90 % of a contended core against any one of them (CFS weights
# 1024 against 110).
BACKGROUND_NICE = 10


def lower_this_thread(nice: int = BACKGROUND_NICE) -> bool:
    """Lower the calling thread's priority to `nice` (never raise it). True when done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        tid = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, tid) >= nice:
            return True
        os.setpriority(os.PRIO_PROCESS, tid, nice)
        return True
    except (AttributeError, OSError):
        return False


def lower_group(pid: int | None = None, nice: int = BACKGROUND_NICE) -> bool:
    """Lower the scheduling group of process `pid` (None: this one) to `nice`, never raise it.
    True when the group is at `nice` or lower afterwards.

    Why: with autogroup scheduling (Linux `kernel.sched_autogroup_enabled`, on by default in
    the kernels of most desktop distributions and on this machine), every session is a group
    of its own and the CPU is shared between groups first; a nice value only counts within
    its group. The isolated processes start sessions of their own (`start_new_session`), so a
    scan process at nice 10 was one group against the player's decoder, another, at equal
    weight: its nice value changed nothing. The group's own nice value (`/proc/PID/autogroup`)
    does. The kernel takes one such change per 0.1 s from an unprivileged user on the whole
    machine (EAGAIN): tried a few times. Nothing where there is no autogroup, and nothing for
    a process that does not lead its session: its group is shared (the workstation's own)."""
    try:
        if os.getsid(pid or 0) != (pid or os.getpid()):
            return False
    except (AttributeError, OSError):
        return False
    path = f"/proc/{'self' if pid is None else int(pid)}/autogroup"
    for attempt in range(6):
        try:
            with open(path) as f:  # "/autogroup-123 nice 0"
                current = int(f.read().split()[-1])
            if current >= nice:
                return True
            with open(path, "w") as f:
                f.write(str(int(nice)))
            return True
        except OSError as exc:
            if exc.errno != errno.EAGAIN or attempt == 5:
                return False
        except (ValueError, IndexError):
            return False
        time.sleep(0.03)
    return False


def thread_nice() -> int | None:
    """The calling thread's nice value (None where a thread has none of its own)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    except (AttributeError, OSError):
        return None
