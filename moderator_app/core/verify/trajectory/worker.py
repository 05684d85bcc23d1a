"""The worker process that examines every other block of a large input (forked where safe,
else spawned); any failure makes the main process examine the block itself."""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import select
import struct
import sys
from collections import deque
from typing import Any

from moderator_app.core.verify.seeds import SeedCheck
from moderator_app.core.verify.trajectory.blocks import scan_block
from moderator_app.core.verify.trajectory.facts import Scan
from moderator_app.core.verify.trajectory.line import LineContext
from moderator_app.core.verify.trajectory.spelling import SPELL_ALL

PARALLEL_MIN_BYTES = 8 << 20
MAX_INFLIGHT = 6


def parallel_default(size: int, build_index: bool) -> bool:
    """Whether `check_stream` uses the worker when the caller does not say: for inputs of
    `PARALLEL_MIN_BYTES` and more on two cores or more, unless MODERATOR_APP_WORKERS=0. Not in
    the GUI (build_index) nor, unless it can fork, in a frozen bundle, where `spawn` would
    start the application again instead of the worker."""
    return (not build_index and size >= PARALLEL_MIN_BYTES
            and os.environ.get("MODERATOR_APP_WORKERS", "1") != "0"
            and (can_fork() or not getattr(sys, "frozen", False))
            and (os.cpu_count() or 1) >= 2)


def _worker_main(tasks, results, leak: tuple[tuple[str, ...] | None, str | None],
                 shared=None) -> None:
    """The worker process: examine blocks until None. Gets the seeds and the evaluator secret
    to spot them in the stream (`SeedCheck`: the secret is only searched for, never put in a
    finding; it reaches a spawned worker through its pipe, never its command line or
    environment). No cyclic garbage is made here: the collector would only cost time.
    `shared`: the slots a forked worker shares with the main process (see `Worker`)."""
    import gc
    import signal

    # Ctrl+C reaches the whole process group: the main process handles it (and closes this
    # worker); a KeyboardInterrupt traceback from here would only clutter the terminal.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _batch_scheduling()
    gc.disable()
    if isinstance(tasks, SlotPipe):
        tasks.reader()
    if isinstance(results, ResultPipe):
        results.writer()
    ctx = LineContext(SeedCheck(*leak))
    parent = os.getppid()
    while True:
        try:
            data = tasks.get(timeout=1.0)
        except EOFError:  # the main process is gone (its end of the task pipe closed)
            os._exit(0)
        except queue.Empty:
            # A main process killed outright (SIGKILL, a time limit) never sends None: without
            # this the worker would wait forever holding its memory (seen: 1.4 GB for hours).
            if os.getppid() != parent:
                os._exit(0)  # not return: exiting would wait on a results pipe nobody reads
            continue
        if data is None:
            return
        data, ctx.spell_hint = data  # the main process's spelling set when it sent the block
        if type(data) is tuple:  # (slot, length) in the shared slots
            slot, length = data
            start = slot * SLOT
            # The C summary reads the slot in place (no copy of the block); the slot is not
            # written again before this result is read. The seed-leak regex needs bytes.
            data = (shared[start:start + length] if ctx.leak is not None
                    else memoryview(shared)[start:start + length])
        try:
            results.put(scan_block(data, ctx))
        except OSError:  # the main process closed its end: it wants no more results
            os._exit(0)
        data = None  # (a view held past here would pin the mapping)


def _batch_scheduling() -> None:
    """Linux's SCHED_BATCH for the worker: woken by each block's message, a normal task may
    preempt the main process on its own core when the machine is busy, and the main process
    (decompressing) is the pass's critical path: each 16-byte write then cost ~1.5 ms at a load
    of 15. A batch task waits for its turn instead; its share of the CPU is unchanged."""
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


SLOT = 2 << 20  # bytes per shared-memory slot; a longer block is examined in the main process
RING = MAX_INFLIGHT + 2  # slots: those in flight, and blocks examined here awaiting their turn
_MSG = struct.Struct("<iIQ")  # a forked worker's task: slot (-1: stop), length, spelling hint


class SlotPipe:
    """A forked worker's task channel: fixed-size messages naming a shared slot, written by the
    main thread itself. A `multiprocessing.Queue` hands each `put` to a feeder thread, which
    must then win the GIL from the main thread, busy decompressing: the message waited up to a
    switch interval (5 ms, longer on a loaded machine) while the worker, done with its block in
    ~3 ms, sat idle; the main process was the pass's critical path. A message is 16 bytes and
    at most MAX_INFLIGHT + 1 are unread, far below a pipe's capacity: a write never blocks."""

    def __init__(self) -> None:
        self._r, self._w = os.pipe()

    def put(self, slot: int, length: int, hint: int) -> None:
        os.write(self._w, _MSG.pack(slot, length, hint))

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.put(-1, 0, 0)
        self.close(self._w)

    def reader(self) -> None:
        """In the worker: its copy of the write end closed, so a main process that dies ends
        the worker's reads (end of file) instead of leaving it waiting."""
        self.close(self._w)

    def writer(self) -> None:
        """In the main process, once the worker started."""
        self.close(self._r)

    @staticmethod
    def close(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.close(fd)

    def get(self, timeout: float):
        """((slot, length), hint); None to stop; queue.Empty after `timeout` seconds without
        a message; EOFError when the main process is gone."""
        buf = b""
        while len(buf) < _MSG.size:
            ready, _, _ = select.select([self._r], [], [], timeout)
            if not ready:
                if buf:
                    continue
                raise queue.Empty
            got = os.read(self._r, _MSG.size - len(buf))
            if not got:
                raise EOFError
            buf += got
        slot, length, hint = _MSG.unpack(buf)
        return None if slot < 0 else ((slot, length), hint)


_LEN = struct.Struct("<I")
RESULT_PIPE_SIZE = 1 << 20  # bytes the result pipe holds (Linux; a summary takes ~1 KB)


class ResultPipe:
    """A forked worker's result channel: each result pickled and written by the worker's own
    thread, in one message (its length, then its bytes). A `multiprocessing.Queue` hands each
    `put` to a feeder thread, which must win the GIL from the worker's thread, busy in the C
    summary, and each `get` in the main process built a selector to poll one pipe: ~0.2 ms of
    the main process per block, the pass's critical path as much as the worker. A message
    longer than the pipe holds blocks the worker until the main process reads it, which it
    does whenever it looks for a result; the main process closes its end before stopping the
    worker (`Worker.close`), so a worker blocked on a result nobody will read ends at once."""

    def __init__(self) -> None:
        self._r, self._w = os.pipe()
        with contextlib.suppress(AttributeError, OSError):  # room for a block's findings
            import fcntl

            fcntl.fcntl(self._w, fcntl.F_SETPIPE_SZ, RESULT_PIPE_SIZE)

    def put(self, obj) -> None:
        """In the worker: the whole message, however many writes it takes."""
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_LEN.pack(len(data)) + data)
        while view:
            view = view[os.write(self._w, view):]

    def writer(self) -> None:
        """In the worker: its copy of the read end closed."""
        SlotPipe.close(self._r)

    def reader(self) -> None:
        """In the main process, once the worker started: its copy of the write end closed, so
        a worker that dies ends the reads (end of file) instead of leaving them waiting."""
        SlotPipe.close(self._w)

    def close(self) -> None:
        SlotPipe.close(self._r)

    def get(self, timeout: float | None = None):
        """The next result; queue.Empty when none came within `timeout` seconds; EOFError
        when the worker is gone (its end closed, even in the middle of a message)."""
        ready, _, _ = select.select([self._r], [], [], timeout)
        if not ready:
            raise queue.Empty
        (size,) = _LEN.unpack(self._read(_LEN.size))
        return pickle.loads(self._read(size))

    def get_nowait(self):
        return self.get(0)

    def _read(self, size: int) -> bytes:
        buf = bytearray()
        while len(buf) < size:
            got = os.read(self._r, size - len(buf))
            if not got:
                raise EOFError
            buf += got
        return bytes(buf)


def can_fork() -> bool:
    """Whether the worker may be forked: on Linux, from a process running one thread (forking
    beside other threads, Qt's say, could copy a lock one of them holds). A forked worker
    starts at once with everything imported; `spawn` starts an interpreter that imports this
    module again (~0.2 s of the other core, and the first blocks all stay here)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class ForkedProcess:
    """The forked worker's process, started with `os.fork` rather than `multiprocessing`:
    importing `multiprocessing` for its fork context (with `subprocess`, `socket`,
    `selectors` and its connection module) cost ~9 ms of CPU in every verification of a large
    trajectory, ~3 % of the floor's whole time on the bench corpus (session 17), and the
    worker needs none of it: its channels are its own pipes and mapping. The child runs
    `target(*args)` and leaves with `os._exit` (0, or 1 after an exception), never through
    the parent's `atexit` handlers or buffered output, as a `multiprocessing` child does.
    It is killed when its parent dies (`_die_with_parent`), whatever its target is doing."""

    def __init__(self, target, args: tuple) -> None:
        self._target = target
        self._args = args
        self.pid = 0
        self.exitcode: int | None = None

    def start(self) -> None:
        sys.stdout.flush()  # (a child's copy of unflushed output would be written twice)
        sys.stderr.flush()
        parent = os.getpid()
        pid = os.fork()
        if pid:
            self.pid = pid
            return
        code = 1
        try:
            _die_with_parent(parent)
            self._target(*self._args)
            code = 0
        except BaseException:  # noqa: BLE001 - the child ends here whatever happened
            with contextlib.suppress(Exception):
                import traceback

                traceback.print_exc()
        finally:
            os._exit(code)

    def _reap(self, flags: int) -> bool:
        """Whether the child has ended (reaped now or before)."""
        if self.exitcode is not None:
            return True
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:
            self.exitcode = -1
            return True
        if pid == 0:
            return False
        self.exitcode = os.waitstatus_to_exitcode(status)
        return True

    def is_alive(self) -> bool:
        return not self._reap(os.WNOHANG)

    def join(self, timeout: float | None = None) -> None:
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.0005
        while not self._reap(os.WNOHANG):
            if deadline is not None and time.monotonic() >= deadline:
                return
            time.sleep(delay)
            delay = min(delay * 2, 0.05)

    def kill(self) -> None:
        if self.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, 9)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with_parent(parent: int) -> None:
    """In a forked child: the kernel kills it (SIGKILL) when its parent dies. Why (session
    18): a child whose target does not watch its parent (the worker's loop looks at
    `os.getppid` only between blocks, idle) outlived a parent killed outright (SIGKILL, a time
    limit), holding its memory; a daemon `multiprocessing` child is ended only by a parent
    that exits normally. Linux sends the signal when the thread that forked ends: a child is
    forked only from a process of one thread (`can_fork`), its main thread. A parent that died
    before the call is seen by `getppid` (the child was handed to another). Elsewhere, or
    without ctypes, nothing: the worker's own checks remain."""
    if not sys.platform.startswith("linux"):
        return
    import signal

    with contextlib.suppress(Exception):  # (ctypes imported in the child only: ~2 ms)
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


class Worker:
    """A second process examining blocks, results returned in the order sent. A forked worker
    shares with this process an anonymous memory mapping of one slot per block in flight, and
    blocks travel through it: through the queue's pipe (64 KiB at a time) 1 MiB cost the
    worker ~5 ms of system time to receive, more than examining it. (Not
    `multiprocessing.shared_memory`: it starts a resource-tracker process, which in the frozen
    bundle is the application itself.) Their slot numbers travel through a `SlotPipe`; a
    longer block is examined in the main process. A spawned worker takes queues both ways,
    whose feeder threads make both `put`s non-blocking (a pipe holds only 64 KiB: blocking
    writes on both sides would deadlock). Any failure makes the main process examine
    the block itself: the verdict never depends on the worker."""

    def __init__(self, seeds: tuple[str, ...] | None = None, secret: str | None = None) -> None:
        import mmap

        fork = can_fork()
        self._slot = SLOT  # (read once: tests shrink the module's)
        self._shared = mmap.mmap(-1, self._slot * RING) if fork else None
        self._pipe = SlotPipe() if fork else None
        self._tasks = None
        self._results: ResultPipe | Any
        args = ((seeds, secret), self._shared)
        if fork:
            self._results = ResultPipe()
            self._proc: ForkedProcess | Any = ForkedProcess(
                _worker_main, (self._pipe, self._results, *args))
        else:
            import multiprocessing

            mp = multiprocessing.get_context("spawn")
            self._tasks, self._results = mp.Queue(), mp.Queue()
            self._proc = mp.Process(target=_worker_main,
                                    args=(self._tasks, self._results, *args), daemon=True)
        self._proc.start()
        if self._pipe is not None:
            self._pipe.writer()
        if isinstance(self._results, ResultPipe):
            self._results.reader()
        self.inflight = 0
        self._count = 0
        # what was sent, to examine it here if the worker dies: a block's parts, or the
        # (slot, length) of a block decoded straight into its slot
        self._sent: deque[tuple[tuple, int]] = deque()
        self._ctx = LineContext(SeedCheck(seeds, secret))
        self._broken = False

    @property
    def slots(self) -> bool:
        """Whether blocks can be read straight into the shared slots (`slot`, `send_slot`)."""
        return self._shared is not None

    def slot(self, k: int) -> memoryview:
        """Slot `k` (of RING) of the shared mapping, to read a block into."""
        assert self._shared is not None
        return memoryview(self._shared)[k * self._slot:(k + 1) * self._slot]

    def last_newline(self, k: int, end: int) -> int:
        """Just past the last newline in slot `k`'s first `end` bytes (0 when none)."""
        assert self._shared is not None
        at = self._shared.rfind(b"\n", k * self._slot, k * self._slot + end)
        return 0 if at < 0 else at - k * self._slot + 1

    def send_slot(self, k: int, length: int, spell_hint: int = SPELL_ALL) -> bool:
        """Hand the block of `length` bytes already in slot `k` to the worker; False when it
        cannot take it. The caller leaves the slot alone until the result is read."""
        if self._broken or self._pipe is None:
            return False
        try:
            self._pipe.put(k, length, spell_hint)
        except (OSError, ValueError):
            self._broken = True
            return False
        self._sent.append(((k, length), spell_hint))
        self.inflight += 1
        return True

    def send(self, parts: tuple[bytes, bytes | memoryview], spell_hint: int = SPELL_ALL) -> bool:
        """Hand the block made of `parts` (stream.iter_block_parts: head, body) to the worker;
        False when it cannot take it (then examine it here)."""
        if self._broken:
            return False
        head, body = parts
        size = len(head) + len(body)
        try:
            if self._pipe is not None and self._shared is not None:
                if size > self._slot:
                    return False  # a block of lines over 1 MiB: examined here
                # at most MAX_INFLIGHT in flight, answered in order: this slot is free
                start = self._count % MAX_INFLIGHT * self._slot
                self._shared[start:start + len(head)] = head
                self._shared[start + len(head):start + size] = body
                self._pipe.put(start // self._slot, size, spell_hint)
            else:
                assert self._tasks is not None  # spawned: blocks through the queue
                self._tasks.put((b"".join(parts), spell_hint))
        except (OSError, ValueError):
            self._broken = True
            return False
        self._count += 1
        self._sent.append((parts, spell_hint))
        self.inflight += 1
        return True

    def result(self, wait: bool) -> Scan | None:
        import queue

        if not self._sent:
            return None
        while not self._broken:
            try:
                got = self._results.get(timeout=1.0) if wait else self._results.get_nowait()
            except queue.Empty:
                if not wait:
                    return None
                if not self._proc.is_alive():
                    self._broken = True
                continue
            except (OSError, EOFError, ValueError):
                self._broken = True
                break
            self._sent.popleft()
            self.inflight -= 1
            return got
        (head, body), self._ctx.spell_hint = self._sent.popleft()  # the worker died: work here
        self.inflight -= 1
        if type(head) is int:  # (slot, length)
            return scan_block(bytes(self.slot(head)[:body]), self._ctx)
        return scan_block(b"".join((head, body)), self._ctx)

    def close(self) -> None:
        if isinstance(self._results, ResultPipe):
            self._results.close()  # results left unread: a worker writing one ends at once
        if self._pipe is not None:
            self._pipe.stop()
        else:
            assert self._tasks is not None
            with contextlib.suppress(OSError, ValueError):
                self._tasks.put(None)
        self._proc.join(timeout=2)
        if self._proc.is_alive():
            self._proc.kill()
            self._proc.join(timeout=2)
        for q in (self._tasks, self._results):
            if q is not None and not isinstance(q, ResultPipe):
                q.cancel_join_thread()
                q.close()
        if self._shared is not None:
            with contextlib.suppress(BufferError):  # a view still held: freed with it
                self._shared.close()
