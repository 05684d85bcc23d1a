"""Run video work in the isolated video process (`child.py`) and turn every way it can fail
(a crash, a signal, a hang, a memory cap, garbage on the pipe) into a plain reason string.

Why a process and not a thread: FFmpeg's demuxers and decoders are large C code fed hostile
bytes. A heap corruption (bottom-up AVI) or SIGSEGV (odd file names in some wrappers) in a
thread kills the workstation with the moderator's unsaved work; in a child process it is a
`video.unreadable` finding with the signal's name. The child gets the file as an inherited
file descriptor, so the path never reaches FFmpeg; it is time-bounded by the parent (killed at
the deadline) and memory-bounded by itself (RLIMIT_AS).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class VideoProcessError(Exception):
    """The isolated process failed; `reason` says how, in words for a finding."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


@dataclass
class Message:
    header: dict
    blobs: list[bytes]


MAX_HEADER = 1 << 20
MAX_BLOB = 1 << 31


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


class VideoProcess:
    """One isolated child with `path` open. Use as a context manager; `request()` sends one
    request and returns its answer (progress messages go to `on_progress`)."""

    def __init__(self, path: Path | str | bytes, timeout_s: float = 60.0) -> None:
        self.timeout_s = timeout_s
        try:
            self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            raise VideoProcessError(f"cannot open the file: {exc.strerror}") from None
        if sys.platform.startswith("linux"):
            self.source = f"/proc/self/fd/{self._fd}"
            fds: tuple[int, ...] = (self._fd,)
        else:  # elsewhere the child opens the path itself (file names there are Unicode)
            self.source = os.fsdecode(path)
            fds = ()
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        root = str(Path(__file__).resolve().parents[3])
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"]
                                    if env.get("PYTHONPATH") else "")
        if getattr(sys, "frozen", False):  # the desktop bundle: its executable routes it
            cmd = [sys.executable, "--video-child"]
        else:
            cmd = [sys.executable, "-m", "moderator_app", "--video-child"]
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            pass_fds=fds, env=env, start_new_session=True)
        self._buf = bytearray()  # bytes read from the child and not yet consumed
        assert self.proc.stdout is not None
        _widen_pipe(self.proc.stdout.fileno())

    # -- plumbing ---------------------------------------------------------------------------
    def _read_exact(self, n: int, deadline: float) -> bytes:
        """`n` bytes of the answer. Reads whatever the pipe holds (up to 4 MiB) at a time and
        keeps the rest: every read gives up the GIL, and getting it back costs up to the
        interpreter's switch interval while a background thread computes, so a frame must
        take a few reads, not one per 64 KiB (issue 11 point 8)."""
        stdout = self.proc.stdout
        assert stdout is not None
        fd = stdout.fileno()
        buf = self._buf
        while len(buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise VideoProcessError(f"the video took longer than {self.timeout_s:g} s to "
                                        "read (stopped)")
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(fd, max(n - len(buf), 1 << 22))
            if not chunk:
                raise VideoProcessError(self._death())
            buf += chunk
        out = bytes(buf[:n])
        del buf[:n]
        return out

    def _death(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            return "the video reader stopped answering (killed)"
        if code < 0:
            return f"the video decoder crashed ({_signal_name(code)}) on this file"
        return f"the video reader exited with status {code} on this file"

    def read_message(self, deadline: float) -> Message:
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
        return Message(header, [self._read_exact(s, deadline) for s in sizes])

    def request(self, req: dict, payload: bytes = b"", timeout_s: float | None = None,
                on_progress: Callable[[int, int], bool | None] | None = None) -> Message:
        """Send one request; the final answer. `on_progress(done, total)` returning True
        cancels (the child is killed and VideoProcessError('cancelled') raised)."""
        deadline = time.monotonic() + (timeout_s if timeout_s is not None else self.timeout_s)
        req = dict(req, source=self.source)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(req).encode() + b"\n" + payload)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise VideoProcessError(self._death()) from None
        while True:
            msg = self.read_message(deadline)
            prog = msg.header.get("progress")
            if prog is None:
                if not msg.header.get("ok"):
                    raise VideoProcessError(str(msg.header.get("reason", "unknown failure")))
                return msg
            if on_progress is not None and on_progress(int(prog[0]), int(prog[1])):
                self.kill()
                raise VideoProcessError("cancelled")

    def kill(self) -> None:
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
