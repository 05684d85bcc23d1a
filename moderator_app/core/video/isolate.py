"""Run video work in the isolated video process (`child.py`) and turn every way it can fail
(a crash, a signal, a hang, a memory cap, garbage on the pipe) into a plain reason string.

Why a process and not a thread: FFmpeg's demuxers and decoders are large C code fed hostile
bytes. A heap corruption (bottom-up AVI) or SIGSEGV (odd file names in some wrappers) in a
thread kills the workstation with the moderator's unsaved work; in a child process it is a
`video.unreadable` finding with the signal's name. The child gets the file as an inherited
file descriptor, so the path never reaches FFmpeg; it is time-bounded by the parent (killed at
the deadline) and memory-bounded by itself (RLIMIT_AS).

The deadline is a guard against a hang, not a speed limit: past it, a child that is still
getting the processor (its CPU time grew) and has used less than the timeout in CPU seconds is
slowed by the machine's load, and is waited for; one that used the timeout's CPU (a decoder in
a loop), none over the whole wait, or none for `SLOWED_LOOK_S` since (blocked) is killed. On a loaded machine (a test at nice
19 beside busy loops gets ~1 % of a core) a 90-frame probe took more than its 25 s, and the
video was reported unreadable: the verdict depended on the load.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from moderator_app.core.priority import lower_group, thread_nice
from moderator_app.core.video.forking import ForkedChild, fork_video_child
from moderator_app.core.video.process_watch import process_cpu_s, process_wants_cpu, signal_name
from moderator_app.core.video.trace import summary, trace, tracing
from moderator_app.core.video.wire import interrupt_signal, write_all


class VideoProcessError(Exception):
    """The isolated process failed; `reason` says how, in words for a finding."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Message:
    header: dict
    blobs: list[bytes | bytearray]  # a large blob is a bytearray (`VideoProcess._read_big`)


#: Past the wall deadline, a child whose CPU time has not grown for this long, or that has not
#: been seen wanting the processor for this long, is stuck.
SLOWED_LOOK_S = 10.0

#: How often a wait with `on_wait` (`VideoProcess.request`) asks it: a player's warm-up
#: re-sends its interrupt this often while a frame request waits behind it.
WAIT_SLICE_S = 0.05


MAX_HEADER = 1 << 20  # a child's JSON header; more is a malformed answer
MAX_BLOB = 1 << 31


#: Blobs of at least this many bytes are read straight into their own buffer (`_read_big`).
BIG_READ = 1 << 18
PIPE_BYTES = 4 << 20  # a 960x540 RGB frame is 1.5 MiB; Linux pipes hold 64 KiB by default


def _widen_pipe(fd: int) -> None:
    """Let one pipe hold a whole frame (Linux F_SETPIPE_SZ; capped by fs.pipe-max-size, 1 MiB
    for an ordinary user): fewer, larger reads. Best effort: other systems keep theirs."""
    try:
        import fcntl
    except ImportError:
        return
    setsz = getattr(fcntl, "F_SETPIPE_SZ", 1031 if sys.platform.startswith("linux") else None)
    if setsz is None:
        return
    for size in (PIPE_BYTES, 1 << 20):
        try:
            fcntl.fcntl(fd, setsz, size)
            return
        except OSError:
            continue


# --- starting the child, and children started ahead ------------------------------------------
# Starting the interpreter and importing PyAV and numpy costs ~0.3 s of CPU per child: more
# than the whole decode of a 40 s Atari recording. A child can be started before its file is
# known (`prestart`): it imports, then waits on a Unix socket for the file's descriptor
# (SCM_RIGHTS; the path still never reaches FFmpeg), so that cost runs on another core while
# the caller does other work (verify starts the probe's child while it reads the log; with
# --scan that child then scans: one start for both).
FD_PASSING = sys.platform.startswith("linux") and hasattr(socket, "send_fds")
FD_SOCKET_ENV = "MODERATOR_VIDEO_FDSOCK"  # the child's end of the socket (child.py)
# Per thread: the workstation's GUI thread starts the player's, its sound's and the scan's;
# the verification's thread the probe's. In all, never more than MAX_SPARES_TOTAL waiting.
MAX_SPARES = 3
MAX_SPARES_TOTAL = 6


def child_command(flag: str) -> list[str]:
    """The command line of one of the application's own isolated processes (`--video-child`,
    `--verify-child`): the desktop bundle's executable routes the flag itself."""
    if getattr(sys, "frozen", False):
        return [sys.executable, flag]
    return [sys.executable, "-c", _MAIN_WITHOUT_CWD, flag]


# `python -m` puts the current directory first on sys.path, before the PYTHONPATH that
# child_env sets: started from a folder holding a `moderator_app/` (an unpacked submission,
# another checkout), the child would run that code, not its parent's. `-c` puts '' there
# instead, which this drops before the package is imported (`-P` does the same, from 3.11).
_MAIN_WITHOUT_CWD = ("import runpy, sys; del sys.path[0]; sys.argv[0] = 'moderator_app'; "
                     "runpy.run_module('moderator_app', run_name='__main__', alter_sys=True)")


def child_env() -> dict[str, str]:
    """The environment of an isolated process: this one's, with this package first on the
    path (a child must run the code its parent runs) and no bytecode written."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    root = str(Path(__file__).resolve().parents[3])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"]
                                if env.get("PYTHONPATH") else "")
    return env


def _spawn(sock: socket.socket | None, fork: bool = False) -> subprocess.Popen | ForkedChild:
    """A new video process; `fork`: forked from this one where that is safe (forking.py: the
    CLI's, which skips a second interpreter's start and numpy's import), else started."""
    forked = fork_video_child(sock) if fork and sock is not None else None
    if forked is not None:
        return forked
    env = child_env()
    fds: tuple[int, ...] = ()
    if sock is not None:
        env[FD_SOCKET_ENV] = str(sock.fileno())
        fds = (sock.fileno(),)
    return subprocess.Popen(
        child_command("--video-child"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, pass_fds=fds, env=env, start_new_session=True)


@dataclass(frozen=True)
class _Spare:
    """A child started ahead, waiting for its file on `sock`. `key`: the process and the
    environment it was started with (tests start children with fault switches in it): only
    a caller with the same key may take it, the others end it. `nice`: the starting
    thread's nice value, which the child inherited: a caller at that value or a lower
    priority may take it (it is lowered to the caller's), never a higher one (a child cannot
    raise its priority back: the player must not get a background job's child), so such a
    child is left for its own thread (the workstation starts them on the GUI thread, and the
    verification's probe runs at background priority). `owner`: the thread that started it,
    which takes its own first: each thread starts ahead what it will use, so another thread
    taking one (the sync analysis's scan, started at the same moment as the player) never
    leaves the player, its sound or the probe to start cold."""

    proc: subprocess.Popen | ForkedChild
    sock: socket.socket
    key: tuple
    nice: int | None
    owner: int


_SPARES: list[_Spare] = []
_SPARES_LOCK = threading.Lock()
_STARTING: dict[int, int] = {}  # by owner thread: children being started (prestart)


def _spare_key() -> tuple:
    return (os.getpid(), tuple(sorted(os.environ.items())))


def _start_spare(key: tuple, fork: bool = False) -> _Spare:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        proc = _spawn(theirs, fork)
    except OSError as exc:
        ours.close()
        raise VideoProcessError(f"the video reader could not be started: {exc}") from None
    finally:
        theirs.close()
    return _Spare(proc, ours, key, thread_nice(), threading.get_ident())


def _discard(spare: _Spare) -> None:
    spare.sock.close()  # a waiting child reads the end of the socket and exits
    for f in (spare.proc.stdin, spare.proc.stdout):
        with contextlib.suppress(OSError):
            if f is not None:
                f.close()
    if spare.proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(spare.proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        spare.proc.wait(timeout=5)


def _usable(sp: _Spare, nice: int | None) -> bool:
    return sp.nice is None or nice is None or sp.nice <= nice


def _take_spare() -> _Spare | None:
    key, nice, owner = _spare_key(), thread_nice(), threading.get_ident()
    with _SPARES_LOCK:
        stale = [sp for sp in _SPARES if sp.key != key or sp.proc.poll() is not None]
        live = [sp for sp in _SPARES if sp not in stale]
        # one this thread started first; else the child at the caller's own priority, else
        # the nearest above it
        fits = sorted((sp for sp in live if _usable(sp, nice)),
                      key=lambda sp: (sp.owner != owner, -(sp.nice or 0)))
        taken = fits[0] if fits else None
        _SPARES[:] = [sp for sp in live if sp is not taken]
    for sp in stale:
        _discard(sp)
    if taken is not None and nice is not None and taken.nice is not None \
            and taken.nice < nice:
        with contextlib.suppress(OSError):  # lowering a child of ours is always allowed
            os.setpriority(os.PRIO_PROCESS, taken.proc.pid, nice)
        lower_group(taken.proc.pid, nice)  # and its session's group (autogroup)
    return taken


def prestart(count: int = 1, wait: bool = False, fork: bool = False) -> None:
    """Have `count` (at most MAX_SPARES) isolated children started by this thread waiting
    and importing, for the next `VideoProcess`es it (or a thread at its priority or lower)
    creates. Only this thread's children count: the verification's thread starts its probe's
    while the GUI thread starts the player's, whatever their priorities (CI runs tests at
    one nice value for all). Best effort: nothing where descriptors cannot be passed, never
    more than MAX_SPARES_TOTAL waiting, and a child that cannot start is left to
    `VideoProcess` to report. `wait`: return once they have imported (the bench times a scan
    from that point). `fork`: forked from this process where safe (`forking.py`)."""
    if not FD_PASSING:
        return
    key, owner = _spare_key(), threading.get_ident()
    with _SPARES_LOCK:
        # a child that died while waiting (killed, out of memory) is no spare: it must not
        # count, or the next decoder starts cold
        dead = [sp for sp in _SPARES if sp.proc.poll() is not None]
        _SPARES[:] = [sp for sp in _SPARES if sp not in dead]
        own = sum(1 for sp in _SPARES if sp.key == key and sp.owner == owner)
        room = MAX_SPARES_TOTAL - sum(_STARTING.values()) \
            - sum(1 for sp in _SPARES if sp.key == key)
        missing = max(0, min(min(count, MAX_SPARES) - own - _STARTING.get(owner, 0), room))
        _STARTING[owner] = _STARTING.get(owner, 0) + missing
    started = []
    try:
        for _ in range(missing):
            try:
                started.append(_start_spare(key, fork))
            except VideoProcessError:
                break
    finally:
        with _SPARES_LOCK:
            _STARTING[owner] -= missing
            if not _STARTING[owner]:
                del _STARTING[owner]
            _SPARES.extend(started)
    for sp in dead:
        _discard(sp)
    for sp in started if wait else ():
        sp.sock.settimeout(60.0)
        with contextlib.suppress(OSError):
            sp.sock.recv(1)  # the child says it is ready
        sp.sock.settimeout(None)


def discard_spares() -> None:
    """End the children started ahead and not taken (at exit; tests)."""
    with _SPARES_LOCK:
        spares, _SPARES[:] = list(_SPARES), []
    for sp in spares:
        _discard(sp)


def _forget_spares_in_fork() -> None:
    """A forked child (multiprocessing's fork start) must not hand files to its parent's
    children: it closes its copies of their sockets and forgets them."""
    for sp in _SPARES:
        sp.sock.close()
        sp.proc.returncode = 0  # not ours to wait for
    _SPARES.clear()


atexit.register(discard_spares)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_spares_in_fork)


class VideoProcess:
    """One isolated child with `path` open. Use as a context manager; `request()` sends one
    request and returns its answer (progress messages go to `on_progress`)."""

    def __init__(self, path: Path | str | bytes, timeout_s: float = 60.0,
                 fork: bool = False) -> None:
        self.timeout_s = timeout_s
        self._fork = fork  # started cold: forked from this process where safe (forking.py)
        try:
            self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            raise VideoProcessError(f"cannot open the file: {exc.strerror}") from None
        if FD_PASSING:
            self.source = ""  # the child names the descriptor it receives
            self.proc = self._hand_over()
        else:  # elsewhere the child opens the path itself (file names there are Unicode)
            self.source = os.fsdecode(path)
            self.proc = _spawn(None)
        self._buf = bytearray()  # bytes read from the child and not yet consumed
        # the wait under way: its wall deadline, the child's CPU seconds when it began and at
        # the last look past the deadline (`_slowed`)
        self._wait: tuple[float, float | None, float] = (-1.0, None, 0.0)
        self._cpu_seen: float | None = None
        self._grew_at = 0.0
        self._wanted_at = 0.0  # when the child was last seen wanting the processor
        # during a `request` with `on_wait`: asked at every WAIT_SLICE_S of the wait
        self._on_wait: Callable[[], float | None] | None = None
        self._rid = 0  # requests sent (their ids in a trace, `trace.py`)
        # the generation of the last warm-up sent, and whether its answer is still unread:
        # what an `interrupt()` that names none interrupts (child.py `_INTERRUPT`)
        self._warm_gen = 0
        self._warm_open = False
        assert self.proc.stdout is not None
        _widen_pipe(self.proc.stdout.fileno())

    def _hand_over(self) -> subprocess.Popen | ForkedChild:
        """A child with the file: one started ahead (`prestart`) when there is one, else a
        new one. The file goes over a Unix socket (SCM_RIGHTS), so a child can be started
        before anyone knows which file it will read."""
        for _ in range(2):
            spare = _take_spare() or _start_spare(_spare_key(), self._fork)
            try:
                socket.send_fds(spare.sock, [b"F"], [self._fd])
                return spare.proc
            except OSError:  # it died while waiting (killed from outside): another one
                _discard(spare)
            finally:
                spare.sock.close()
        raise VideoProcessError("the video reader could not be started")

    # -- plumbing ---------------------------------------------------------------------------
    def _read_exact(self, n: int, deadline: float) -> bytes | bytearray:
        """`n` bytes of the answer. Reads whatever the pipe holds (up to 4 MiB) at a time and
        keeps the rest: every read gives up the GIL, and getting it back costs up to the
        interpreter's switch interval while a background thread computes, so a frame must
        take a few reads, not one per 64 KiB (issue 11 point 8)."""
        stdout = self.proc.stdout
        assert stdout is not None
        fd = stdout.fileno()
        buf = self._buf
        if n >= BIG_READ and len(buf) < n:
            return self._read_big(n, deadline)
        while len(buf) < n:
            deadline = self._wait_readable(fd, deadline)
            chunk = os.read(fd, max(n - len(buf), 1 << 22))
            if not chunk:
                raise VideoProcessError(self._death())
            buf += chunk
        with memoryview(buf) as view, view[:n] as part:
            out = bytes(part)
        del buf[:n]
        return out

    def _read_big(self, n: int, deadline: float) -> bytearray:
        """A large blob (a frame's pixels) read by the kernel straight into the bytearray
        returned: one copy of the pixels in this process, where reading chunks into the
        buffer and slicing a blob off it made four (1.6 MB each for a 834x468 frame at 60
        frames a second; session 16)."""
        stdout = self.proc.stdout
        assert stdout is not None
        fd = stdout.fileno()
        out = bytearray(n)
        have = len(self._buf)
        with memoryview(out) as view:
            view[:have] = self._buf
            self._buf.clear()
            while have < n:
                deadline = self._wait_readable(fd, deadline)
                with view[have:] as rest:
                    got = os.readv(fd, [rest])
                if not got:
                    raise VideoProcessError(self._death())
                have += got
        return out

    def _wait_readable(self, fd: int, deadline: float) -> float:
        """Wait until the child's answer has bytes to read; the deadline (moved on while the
        child is only slowed by the machine's load, `_slowed`), or VideoProcessError."""
        while True:
            if self._on_wait is not None:
                sooner = self._on_wait()
                if sooner is not None and sooner < deadline:
                    deadline = sooner
                    self._wait = (deadline, *self._wait[1:])
            left = deadline - time.monotonic()
            if left <= 0 and self._slowed():
                deadline = time.monotonic() + 0.5  # look again then
                continue
            if left <= 0:
                self.kill()
                raise VideoProcessError(f"the video took longer than {self.timeout_s:g} s to "
                                        "read (stopped)")
            ready, _, _ = select.select(
                [fd], [], [], min(left, 0.5 if self._on_wait is None else WAIT_SLICE_S))
            if ready:
                return deadline

    def _slowed(self) -> bool:
        """Past the deadline: whether the child is working, only slowed by the machine's load,
        so that the wait goes on. It is while its CPU time since the wait began is under the
        wait's length, it grew over the wait and within the last `SLOWED_LOOK_S`, and a thread
        of it was seen wanting the processor (`process_wants_cpu`) within that time too."""
        now = time.monotonic()
        cpu = process_cpu_s(self.proc.pid)
        deadline, start, began = self._wait
        if cpu is None or start is None or cpu - start >= deadline - began:
            return False
        wants = process_wants_cpu(self.proc.pid)
        if self._cpu_seen is None:  # the first look past the deadline
            if cpu <= start:
                return False  # no CPU at all over the wait: blocked, not slowed
            self._cpu_seen, self._grew_at, self._wanted_at = cpu, now, deadline
        elif cpu > self._cpu_seen:
            self._cpu_seen, self._grew_at = cpu, now
        if wants is not False:  # (None: no thread states to read, as before)
            self._wanted_at = now
        return now - self._grew_at < SLOWED_LOOK_S and now - self._wanted_at < SLOWED_LOOK_S

    def _death(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            return "the video reader stopped answering (killed)"
        if code < 0:
            return f"the video decoder crashed ({signal_name(code)}) on this file"
        return f"the video reader exited with status {code} on this file"

    def read_message(self, deadline: float) -> Message:
        if deadline != self._wait[0]:  # a new wait: the child's CPU time at its start
            self._wait = (deadline, process_cpu_s(self.proc.pid), time.monotonic())
            self._cpu_seen = None
        (size,) = struct.unpack(">I", self._read_exact(4, deadline))
        if size > MAX_HEADER:
            self.kill()
            raise VideoProcessError("the video reader sent a malformed answer")
        try:
            header = json.loads(self._read_exact(size, deadline))
            sizes = [int(s) for s in header.get("blobs", [])]
        except (ValueError, TypeError, AttributeError):
            self.kill()
            raise VideoProcessError("the video reader sent a malformed answer") from None
        if any(s < 0 or s > MAX_BLOB for s in sizes):
            self.kill()
            raise VideoProcessError("the video reader sent a malformed answer")
        msg = Message(header, [self._read_exact(s, deadline) for s in sizes])
        if self._warm_open and "progress" not in header and "play" not in header:
            self._warm_open = False  # the warm-up's answer (nothing else is asked meanwhile)
        if tracing():
            trace("parent", f"child={self.proc.pid} read {summary(header)}")
        return msg

    def request(self, req: dict, payload: bytes = b"", timeout_s: float | None = None,
                on_progress: Callable[[int, int], bool | None] | None = None,
                on_wait: Callable[[], float | None] | None = None) -> Message:
        """Send one request; the final answer. `on_progress(done, total)` returning True
        cancels (the child is killed and VideoProcessError('cancelled') raised).
        `on_wait()` is asked every WAIT_SLICE_S while the answer is awaited (on the calling
        thread): it may act (a player re-sends its interrupt) and return an earlier deadline
        (monotonic seconds), past which the child is handled as at any deadline."""
        deadline = time.monotonic() + (timeout_s if timeout_s is not None else self.timeout_s)
        self.send(req, payload)
        self._on_wait = on_wait
        try:
            while True:
                msg = self.read_message(deadline)
                prog = msg.header.get("progress")
                if prog is None:
                    if not msg.header.get("ok"):
                        raise VideoProcessError(str(msg.header.get("reason",
                                                                   "unknown failure")))
                    return msg
                if on_progress is not None and on_progress(int(prog[0]), int(prog[1])):
                    self.kill()
                    raise VideoProcessError("cancelled")
        finally:
            self._on_wait = None

    def send(self, req: dict, payload: bytes = b"") -> None:
        """Send one request without waiting for its answer: a playback stream (child.py
        `op_play`), whose messages `next_message` reads, or the line that ends one."""
        req = dict(req, source=self.source)
        self._rid += 1
        if req.get("op") == "warm":
            self._warm_gen = int(req.setdefault("gen", self._warm_gen + 1))
            self._warm_open = True
        if tracing():
            req["rid"] = self._rid
            trace("parent", f"child={self.proc.pid} send rid={self._rid} op={req.get('op')} "
                  f"n={req.get('n')} frames={req.get('frames')} gen={req.get('gen')} "
                  f"payload={len(payload)}")
        try:
            assert self.proc.stdin is not None
            # whole: a signal in a write blocked on the full pipe makes it return short (wire.py)
            write_all(self.proc.stdin, json.dumps(req).encode() + b"\n" + payload)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise VideoProcessError(self._death()) from None

    def next_message(self, timeout: float) -> Message | None:
        """The next message of a stream if one starts within `timeout` seconds (it is then read
        whole, within the process's deadline), else None. A failure answer raises."""
        if not self._buf:
            assert self.proc.stdout is not None
            ready, _, _ = select.select([self.proc.stdout.fileno()], [], [], max(0.0, timeout))
            if not ready:
                return None
        msg = self.read_message(time.monotonic() + self.timeout_s)
        if "play" not in msg.header and not msg.header.get("ok"):
            raise VideoProcessError(str(msg.header.get("reason", "unknown failure")))
        return msg

    def interrupt(self, gen: int | None = None) -> None:
        """Ask the child to give up warm-up `gen` now (child.py `op_warm`): thread-safe, and a
        no-op once the child has ended. Only while a warm-up is in flight: the child installs
        its handler first thing, but a signal is never sent to one that is not answering.
        `gen` None: the warm-up whose answer is awaited, else the next one sent. The child
        drops an interrupt meant for the warm-up before the one it serves (session 20: one
        that came after its answer stopped the next warm-up at its first frame)."""
        if gen is None:
            gen = self._warm_gen if self._warm_open else self._warm_gen + 1
        sig = interrupt_signal(gen)
        if tracing():
            trace("parent", f"child={self.proc.pid} interrupt gen={gen}")
        if sig is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        if tracing():
            trace("parent", f"child={self.proc.pid} kill")
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.kill()
        for f in (self.proc.stdout, self.proc.stdin):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> VideoProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
