"""The queue's worker processes: each examines one submission at a time, under a deadline.

A hostile submission must not hold a worker (issue 15): a verifier stuck in native code, a
pathological input or a file system that never answers would otherwise stall the queue for
good. So the workers are our own processes, not an executor's: the parent knows which
submission each one holds and since when, and a worker past its submission's deadline is
killed (SIGKILL works inside C code, where a signal handler or a thread could not) and
replaced; that submission gets the verdict `timed_out`. A worker that dies makes its own
submission `unreadable` ("the verifier crashed"), and only that one: the others carry on.

Workers are started as needed (at most one per core, from a forkserver: no copy of a GUI's
threads) and reused, so the verifier is imported once per worker, not once per submission;
each holds one connection to the report cache for its whole life and only reads it: the rows
to cache come back with each answer and the parent writes them in batches (session 17: the
connection opened, written and closed per submission was two thirds of a cached
submission's cost). The deadline is a wall-clock time from the moment the worker receives
the submission; it is `SUBMISSION_TIME_LIMIT_S` unless the caller (`queue --time-limit`)
says otherwise. Which submission goes next is the caller's `WorkOrder` (oldest first, the
ones a moderator looks at before the others); a listing that is cancelled stops its workers
within a quarter of a second.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from moderator_app.core.errors import Cancelled
from moderator_app.core.queue.cache import ReportCache
from moderator_app.core.queue.examine import CacheWrite, examine, unreadable
from moderator_app.core.queue.scan import Candidate

Summary = dict[str, Any]
# (candidate, summary, verified, rows to cache): called in the parent as each submission ends.
OnDone = Callable[[Candidate, Summary, bool, list[CacheWrite]], None]
CANCEL_POLL_S = 0.25  # how often a waiting parent looks at its cancel flag


class WorkOrder:
    """The submissions still to examine, oldest first, except those `prefer` names (the
    rows a moderator has in view), which go before the others. Thread-safe: the GUI thread
    calls `prefer` while the listing's thread takes work."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: deque[Candidate] = deque()
        self._by_name: dict[str, Candidate] = {}
        self._preferred: deque[str] = deque()

    def fill(self, todo: Sequence[Candidate]) -> None:
        with self._lock:
            self._queue.extend(todo)
            self._by_name.update((c.name, c) for c in todo)

    def prefer(self, names: Sequence[str]) -> None:
        """Examine these next, in this order, if they are (or come to be) waiting; a newer
        call replaces an older one."""
        with self._lock:
            self._preferred = deque(names)

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_name)

    def take(self) -> Candidate | None:
        with self._lock:
            while self._preferred:
                c = self._by_name.pop(self._preferred.popleft(), None)
                if c is not None:
                    return c
            while self._queue:
                c = self._queue.popleft()
                if self._by_name.pop(c.name, None) is not None:
                    return c
            return None


def timed_out(limit_s: float) -> Summary:
    """The summary of a submission whose examination passed its deadline. Not cached: the
    next listing tries again (a loaded machine may have been the cause)."""
    return {**unreadable(f"verification did not finish within the queue's time limit of "
                         f"{limit_s:g} s; the worker was stopped (open the submission "
                         f"alone to verify it without a limit)"), "verdict": "timed_out"}


def _worker_main(conn: Connection, cache_path: str) -> None:
    """A worker's loop: (path, fingerprint) in, ("ok", (summary, verified)) out; None ends.
    The worker leads its own process group, so that stopping it also stops the processes
    the verifier started (the official-run engine's second process)."""
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)
    memo: dict[str, Summary] = {}  # this listing's verified summaries, by evidence digest
    with ReportCache(cache_path) as cache:
        while True:
            try:
                task = conn.recv()
            except EOFError:
                return
            if task is None:
                return
            try:
                conn.send(("ok", examine(task[0], task[1], cache, memo)))
            except Exception as exc:  # noqa: BLE001 - one bad submission, not the queue
                conn.send(("error", f"verification failed: {exc}"))


@dataclass
class _Worker:
    proc: Any  # a multiprocessing Process of the forkserver context
    conn: Connection
    job: Candidate | None = None
    deadline: float = 0.0

    def stop(self, grace_s: float = 0.0) -> None:
        """End the process and its group: at once (a stuck or dead worker), or after
        `grace_s` for an idle one told to leave."""
        self.proc.join(grace_s)
        if self.proc.is_alive():
            try:  # the group: the worker and what it started (ESRCH: not a leader yet)
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (AttributeError, OSError):
                self.proc.kill()
            self.proc.join()
        self.conn.close()


def _context() -> Any:
    return multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")


def _start(ctx: Any, cache_path: str) -> _Worker:
    parent, child = ctx.Pipe()
    # Not a daemon: the verifier may start a process of its own (trajectory/worker.py), which
    # a daemon may not. The parent's `finally` stops every worker; if the parent is killed,
    # a worker's `recv` ends with EOFError and it leaves.
    proc = ctx.Process(target=_worker_main, args=(child, cache_path), daemon=False,
                       name="moderator-app-queue-worker")
    proc.start()
    child.close()
    return _Worker(proc, parent)


def run_workers(todo: Sequence[Candidate] | WorkOrder, cache_path: str, workers: int,
                time_limit_s: float, on_done: OnDone,
                cancel: Callable[[], bool] | None = None) -> None:
    """Examine every candidate of `todo` in at most `workers` processes, each submission
    within `time_limit_s` seconds of wall-clock time; `on_done` hears of each as it ends.
    Raises `Cancelled` (the workers stopped) once `cancel()` says so."""
    ctx = _context()
    if not isinstance(todo, WorkOrder):
        order = WorkOrder()
        order.fill(todo)
    else:
        order = todo
    idle: list[_Worker] = []
    busy: list[_Worker] = []
    try:
        while len(order) or busy:
            if cancel is not None and cancel():
                raise Cancelled("the queue's listing was cancelled")
            while len(order) and len(idle) + len(busy) < workers:
                idle.append(_start(ctx, cache_path))
            while idle:
                job = order.take()
                if job is None:
                    break
                w = idle.pop()
                w.job = job
                w.deadline = time.monotonic() + time_limit_s
                w.conn.send((str(job.path), job.fingerprint))
                busy.append(w)
            if not busy:
                continue
            soonest = min(w.deadline for w in busy)
            timeout = max(0.0, soonest - time.monotonic())
            if cancel is not None:
                timeout = min(timeout, CANCEL_POLL_S)
            wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout)
            still: list[_Worker] = []
            for w in busy:
                job = w.job
                assert job is not None  # a busy worker holds a submission
                if w.conn.poll():
                    try:
                        status, value = w.conn.recv()
                    except (EOFError, OSError):  # died before answering
                        w.stop()
                        on_done(job, unreadable(
                            "the verifier crashed on this submission (a worker process died)"),
                            False, [])
                        continue
                    w.job = None
                    idle.append(w)
                    if status == "ok":
                        on_done(job, value[0], value[1], value[2])
                    else:
                        on_done(job, unreadable(value), False, [])
                elif not w.proc.is_alive():
                    w.stop()
                    on_done(job, unreadable(
                        "the verifier crashed on this submission (a worker process died)"),
                        False, [])
                elif time.monotonic() >= w.deadline:
                    w.stop()
                    on_done(job, timed_out(time_limit_s), False, [])
                else:
                    still.append(w)
            busy = still
    finally:
        for w in idle:
            with contextlib.suppress(OSError):  # already gone: stop() below reaps it
                w.conn.send(None)
        for w in idle:
            w.stop(grace_s=5.0)
        for w in busy:  # interrupted (KeyboardInterrupt, an exception from on_done)
            w.stop()
