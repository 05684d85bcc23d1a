"""What a parent reads of one of its isolated children from outside (the video process,
`isolate`, and the verification process, `verify.isolated`): the CPU seconds it has used and
whether it wants a processor (/proc: a child slowed by the machine's load is waited for, a
stuck one is killed), and the name of the signal it died of (a finding's words). Apart from
`isolate` since session 39 (tidy): none of it is the video process's own."""

from __future__ import annotations

import os
import signal


def signal_name(code: int) -> str:
    """`SIGSEGV` for a child's return code -11: what a crash is called in a message (the
    video and the verification processes alike)."""
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def process_cpu_s(pid: int) -> float | None:
    """CPU seconds (user + system, all threads) the process `pid` has used, from /proc; None
    where there is none (the deadline then stays a wall clock, as before)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
        fields = stat[stat.rindex(b")") + 2:].split()  # the name may hold spaces
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def process_wants_cpu(pid: int) -> bool | None:
    """Whether a thread of `pid` is running or waiting for a processor (R), in disk wait (D)
    or stopped (T), from /proc; None where there is none. A child slowed by the machine's load
    is runnable while it waits for its turn; a deadlocked one sleeps (S) in every thread even
    when one of them wakes now and then: FFmpeg's HEVC frame threads deadlocked on a 10-bit
    4:4:4 file under load (session 12 CI run), main thread and decoders in futex waits, one
    decoder waking for ~0.6 % of a core, so its CPU time kept growing and the wait went on
    (over 4 min, where the deadline was seconds). The cause was PyAV's log callback (session
    14, `opening.open_container`); this check stays for any other."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        if stat[stat.rindex(b")") + 2:][:1] in (b"R", b"D", b"T", b"t"):
            return True
    return False
