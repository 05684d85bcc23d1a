"""The isolated video process forked from a single-threaded parent (the CLI), instead of a new
interpreter started by `subprocess` (issue 12 point 5: the scan on small files).

Why: `verify --scan` on a 10 s 160x210 file cost ~3x the decode floor's CPU, and most of it
was no decoding: the video process's own start (the interpreter ~0.05 s, numpy ~0.085 s of
CPU) beside the CLI's, which had paid the same. A child forked from the CLI once numpy is
imported starts with it, and imports only PyAV (the CLI never does: no video byte is parsed
in it). What stays as with an interpreter of its own (isolate.py): FFmpeg runs only in the
child, which gets the file as a descriptor over the same socket; it has its own session
(killed as a group at the deadline), its own memory cap (RLIMIT_AS, set in `child.main`), no
descriptor of the parent but its pipes, the socket and /dev/null, default SIGINT/SIGTERM (it
must not run the CLI's handlers, which remove the CLI's temporary files), and it always
leaves by `os._exit` (no atexit of the parent's runs twice). A crash in it is a return code,
as before.

When: only where `fork` is safe, a parent with one thread (a lock another thread held at the
fork would stay held in the child forever) and a small address space (`MAX_PARENT_VM`): the
CLI, and the workstation's verification process. The workstation itself has Qt's threads, so
it starts its children as before.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import signal
import socket
import subprocess
import sys
import time

FD_SOCKET_ENV = "MODERATOR_VIDEO_FDSOCK"  # isolate.FD_SOCKET_ENV (the child reads it there)
_STREAMS: list = []  # the forked child's stdin, stdout and stderr (`_child`)


#: Modules every video process imports (`child.main` before its file comes; the index's npz
#: zipfile) that the parent imports too, to read the answers and judge the scan: imported
#: before the fork, the child has them, and each is paid once, not in both processes (session
#: 25). None of them loads PyAV or FFmpeg: the parent still parses no video byte. numpy.ma,
#: which `np.unique` and `np.median` imported in both, is no longer imported on this path at
#: all (`middle.py`, session 27).
SHARED_MODULES = ("zipfile", "moderator_app.core.video.index",
                  "moderator_app.core.video.signals")


#: A parent with more address space than this starts its children instead: a forked child
#: inherits the parent's mappings, and its memory cap (RLIMIT_AS) counts them. The CLI forks
#: at ~100 MiB (numpy imported), and the child then holds ~200 MiB, as a started one does;
#: a test process or a long-lived one may hold GiBs, which would leave its child less room.
MAX_PARENT_VM = 256 << 20


def can_fork() -> bool:
    """Linux, this process has exactly one thread (numpy's BLAS threads count: /proc), and
    its address space is small (`MAX_PARENT_VM`)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    try:
        with open("/proc/self/statm", "rb") as fh:
            size = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        return len(os.listdir("/proc/self/task")) == 1 and size <= MAX_PARENT_VM
    except (OSError, ValueError, IndexError):
        return False


class ForkedChild:
    """The parts of `subprocess.Popen` that `isolate.VideoProcess` uses, for a forked child:
    its pid, its pipes, `poll`, `wait` and `kill`, with Popen's return codes (-N for a
    signal)."""

    def __init__(self, pid: int, stdin, stdout) -> None:
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.returncode: int | None = None

    def _reap(self, flags: int) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except ChildProcessError:  # reaped elsewhere: nothing left to say
                self.returncode = 0
                return 0
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def poll(self) -> int | None:
        return self._reap(os.WNOHANG)

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            code = self._reap(0)
            assert code is not None
            return code
        end, pause = time.monotonic() + timeout, 0.0005
        while (code := self.poll()) is None:
            left = end - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(f"video child {self.pid}", timeout)
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.05)
        return code

    def kill(self) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def fork_video_child(sock: socket.socket) -> ForkedChild | None:
    """A video process forked from this one, waiting for its file on `sock` (its end of the
    socket pair, as `isolate._spawn` passes it); None where forking is not safe (`can_fork`).
    numpy and `SHARED_MODULES` are imported here first, so the child starts with them: the
    caller needs them anyway."""
    if not can_fork():
        return None
    import numpy  # noqa: F401 - shared with the child, imported once

    for name in SHARED_MODULES:
        importlib.import_module(name)
    if not can_fork():  # importing numpy must not have started threads (one BLAS thread)
        return None
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # nothing of ours may be written twice
        with contextlib.suppress(Exception):
            stream.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's side, seen through its answers
        code = 70
        try:
            code = _child(in_r, out_w, sock.fileno())
        finally:
            os._exit(code)
    os.close(in_r)
    os.close(out_w)
    return ForkedChild(pid, os.fdopen(in_w, "wb"), os.fdopen(out_r, "rb"))


def _child(stdin_fd: int, stdout_fd: int, sock_fd: int) -> int:
    """The forked child's side: the descriptors, session and signals of a new video process,
    then `child.main` as `python -m moderator_app --video-child` runs it."""
    os.setsid()  # its own session and group, as `start_new_session=True`
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    with contextlib.suppress(AttributeError, OSError, ValueError):
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(stdin_fd, 0)
    os.dup2(stdout_fd, 1)
    os.dup2(devnull, 2)  # as `stderr=subprocess.DEVNULL`
    os.dup2(sock_fd, 3)
    os.closerange(4, max(os.sysconf("SC_OPEN_MAX"), 4))  # none of the parent's files
    os.environ[FD_SOCKET_ENV] = "3"
    # the process's own streams, never closed; kept here too: `child.main` replaces
    # sys.stdout and keeps only its buffer, which the wrapper would close when it is freed
    _STREAMS[:] = [open(0, closefd=False), open(1, "w", closefd=False),  # noqa: SIM115
                   open(2, "w", closefd=False)]  # noqa: SIM115
    sys.stdin, sys.stdout, sys.stderr = _STREAMS
    gc.disable()  # as `__main__` before the child's imports; `child.main` freezes them
    # as `__main__` gives a started video process (`lean_address_space`; BLAS has one thread
    # in the CLI already): two malloc arenas and small thread stacks, or FFmpeg's threads
    # reserve more address space than a 512 MiB cap leaves them
    from moderator_app.core.arenas import limit_malloc_arenas, small_thread_stacks

    limit_malloc_arenas()
    small_thread_stacks()
    from moderator_app.core.video.child import main

    return main()
