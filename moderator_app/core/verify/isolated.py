"""Verify a submission in a child process (`child.py`) and hand back a `VerifyResult`, so that
nothing a submission does to the verifier (a native crash, MemoryError, a hang) can end the
workstation (issue 15).

    result = verify_isolated(paths, options, progress, cancel)   # as verify_paths

The child runs the very `verify_paths` the CLI runs, on the same options, so the report is
the CLI's (tests/ui/test_ui_decision_panel.py compares a decision recorded in the window with
`decide`'s). What it cannot do becomes a `VerificationStopped` (an `InputError`: the window
shows "Cannot open this submission: <reason>", as for any unreadable input, and a decision
cannot be recorded on a report that does not exist):

- the process died on a signal: "the verification process crashed (SIGSEGV) on this
  submission";
- it ran out of memory: it says so, with its address-space limit, never a format finding;
- it sent nothing for `STALL_S` seconds (no progress, no answer): it is killed.

The result comes back pickled. The child is our own code started by us, with our rights:
this boundary is against faults, not a sandbox; still, only the classes a report is made of
are accepted when unpickling (`_ResultUnpickler`).
"""

from __future__ import annotations

import atexit
import contextlib
import io
import math
import os
import pickle
import select
import signal
import struct
import subprocess
import threading
import time
from array import array
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import BinaryIO

from moderator_app.core.errors import Cancelled, InputError
from moderator_app.core.formats.members import Member
from moderator_app.core.formats.submission import Submission, load_submission
from moderator_app.core.priority import thread_nice
from moderator_app.core.progress import CancelToken, ProgressFn
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import VerifyResult
from moderator_app.core.video.isolate import MAX_HEADER
from moderator_app.core.video.process_watch import signal_name

VERIFY_CHILD = "--verify-child"
# Seconds without a word from the child (a progress message or its answer) before it is
# taken for hung and killed. Progress comes every 50 ms while the evidence is read; the
# longest silent step is the video probe, itself bounded at 60 s (video/isolate.py).
STALL_S = float(os.environ.get("MODERATOR_VERIFY_STALL_S", "300"))


class VerificationStopped(InputError):
    """The verification process could not give a report; the message says why."""


# -- the child, and one started ahead -------------------------------------------------------
_SPARE: subprocess.Popen | None = None
_SPARE_KEY: tuple = ()
_SPARE_LOCK = threading.Lock()


def _key() -> tuple:
    return (os.getpid(), tuple(sorted(os.environ.items())))


def _start() -> subprocess.Popen:
    from moderator_app.core.video.isolate import child_command, child_env

    try:
        return subprocess.Popen(child_command(VERIFY_CHILD), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env=child_env(), start_new_session=True)
    except OSError as exc:
        raise VerificationStopped(f"the verification process could not be started: {exc}") \
            from None


def _end(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            with contextlib.suppress(OSError):
                proc.kill()
    for f in (proc.stdin, proc.stdout):
        with contextlib.suppress(OSError):
            if f is not None:
                f.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def prestart() -> None:
    """Start the next verification's process now: it imports the verifier (~0.1 s of CPU)
    while the window starts or the moderator reads, not after they open a submission. At
    most one waits; it ends with this process (`discard_spare`, at exit)."""
    global _SPARE, _SPARE_KEY
    with _SPARE_LOCK:
        if _SPARE is not None and _SPARE.poll() is None and _key() == _SPARE_KEY:
            return
        old, _SPARE = _SPARE, None
    if old is not None:
        _end(old)
    try:
        proc = _start()
    except VerificationStopped:
        return
    with _SPARE_LOCK:
        old, _SPARE, _SPARE_KEY = _SPARE, proc, _key()
    if old is not None:
        _end(old)


def discard_spare() -> None:
    global _SPARE
    with _SPARE_LOCK:
        old, _SPARE = _SPARE, None
    if old is not None:
        _end(old)


def _take() -> subprocess.Popen:
    global _SPARE
    with _SPARE_LOCK:
        spare, key, _SPARE = _SPARE, _SPARE_KEY, None
    if spare is not None and (spare.poll() is not None or key != _key()):
        _end(spare)  # dead, or started with another environment (tests' fault switches)
        spare = None
    proc = spare or _start()
    nice = thread_nice()
    if spare is not None and nice is not None:
        with contextlib.suppress(OSError):  # the caller's priority (a background thread's)
            if os.getpriority(os.PRIO_PROCESS, proc.pid) < nice:
                os.setpriority(os.PRIO_PROCESS, proc.pid, nice)
    return proc


atexit.register(discard_spare)


# -- one verification -------------------------------------------------------------------------
class _Reader:
    """Messages from the child's stdout, waiting in slices so that a cancel is seen within
    0.1 s, and at most `STALL_S` seconds of silence."""

    def __init__(self, proc: subprocess.Popen, cancel: CancelToken | None,
                 stall_s: float) -> None:
        assert proc.stdout is not None
        self.proc, self.fd, self.cancel, self.stall_s = proc, proc.stdout.fileno(), cancel, \
            stall_s
        self.buf = bytearray()
        self.last = time.monotonic()

    def _exact(self, n: int) -> bytes:
        while len(self.buf) < n:
            if self.cancel is not None and self.cancel.cancelled:
                _end(self.proc)
                raise Cancelled()
            if time.monotonic() - self.last > self.stall_s:
                _end(self.proc)
                raise VerificationStopped(
                    f"the verification made no progress for {self.stall_s:g} s on this "
                    "submission and was stopped")
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            chunk = os.read(self.fd, max(n - len(self.buf), 1 << 22))
            if not chunk:
                raise VerificationStopped(self._death())
            self.buf += chunk
            self.last = time.monotonic()
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def _death(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _end(self.proc)
            return "the verification process stopped answering (killed)"
        if code == -signal.SIGKILL:
            return ("the verification process was killed (SIGKILL: out of memory, or from "
                    "outside) on this submission")
        if code < 0:
            return f"the verification process crashed ({signal_name(code)}) on this submission"
        return f"the verification process exited with status {code} on this submission"

    def message(self) -> tuple[dict, bytes]:
        import json

        (size,) = struct.unpack(">I", self._exact(4))
        if size > MAX_HEADER:
            _end(self.proc)
            raise VerificationStopped("the verification process sent a malformed answer")
        try:
            header = json.loads(self._exact(size))
            blob = int(header.get("blob", 0))
        except (ValueError, TypeError, AttributeError):
            _end(self.proc)
            raise VerificationStopped("the verification process sent a malformed answer") \
                from None
        return header, self._exact(blob) if blob > 0 else b""


def verify_isolated(paths: Sequence[str | Path], options: VerifyOptions | None = None,
                    progress: ProgressFn | None = None, cancel: CancelToken | None = None,
                    stall_s: float | None = None) -> VerifyResult:
    """`verify_paths(paths, options, progress, cancel)` run in a child process. Raises
    InputError as it does, VerificationStopped when the child fails, Cancelled."""
    paths = [Path(p) for p in paths]
    request = pickle.dumps({"paths": paths, "options": options or VerifyOptions()},
                           protocol=pickle.HIGHEST_PROTOCOL)
    proc = _take()
    try:
        try:
            assert proc.stdin is not None
            proc.stdin.write(struct.pack(">Q", len(request)) + request)
            proc.stdin.flush()
            proc.stdin.close()
        except OSError:
            pass  # it died: its answer's absence says how
        reader = _Reader(proc, cancel, STALL_S if stall_s is None else stall_s)
        while True:
            header, blob = reader.message()
            prog = header.get("progress")
            if prog is None:
                break
            if progress is not None:
                progress(int(prog[0]), int(prog[1]))
    finally:
        _end(proc)
    if not header.get("ok"):
        reason = str(header.get("reason") or "the verification failed")
        if header.get("error") == "input":
            raise InputError(reason)
        raise VerificationStopped(reason)
    try:
        report, index, video_path, run_s, probe, inputs, kinds, idle, listed_sub = \
            _ResultUnpickler(io.BytesIO(blob)).load()
        sub = listed(paths, listed_sub)
    except (pickle.UnpicklingError, ValueError, TypeError, EOFError, AttributeError,
            ImportError, KeyError) as exc:
        raise VerificationStopped(f"the verification process sent a malformed answer: "
                                  f"{exc}") from None
    if not isinstance(inputs, (array, str)):
        inputs = None
    if not isinstance(inputs, array) or not isinstance(kinds, tuple) or \
            len(kinds) != len(inputs) or not all(isinstance(k, str) for k in kinds):
        kinds = None
    if not isinstance(inputs, array) or not isinstance(idle, tuple) or not all(
            isinstance(p, tuple) and len(p) == 2 and all(
                isinstance(x, float) and math.isfinite(x) for x in p) for p in idle):
        idle = None
    return VerifyResult(sub, report, index, video_path, run_s, probe, inputs, input_kinds=kinds,
                        log_idle=idle)


def listed(paths: Sequence[str | Path], got: tuple) -> Submission:
    """The submission as the child listed it (`child.listing`): the window never lists a
    hostile archive itself. A member is opened, if a view ever asks, by listing the
    submission again then (`_open_again`); the views read the copies the verification made
    (the video's, the index's source)."""
    path, display, kind, members, findings, links, stamps = got
    return Submission(path, display, kind,
                      tuple(Member(name, size, role, partial(_open_again, tuple(paths), name),
                                   local) for name, size, role, local in members),
                      tuple(findings), tuple(links),
                      tuple((str(p), tuple(int(x) for x in st)) for p, st in stamps))


def _open_again(paths: tuple[str | Path, ...], name: str) -> BinaryIO:
    for member in load_submission(paths).members:
        if member.name == name:
            return member.open()
    raise InputError(f"{name}: no longer in the submission")


# What a result is made of, besides the application's own classes.
_ALLOWED = {
    ("array", "array"), ("array", "_array_reconstructor"),
    ("collections", "Counter"), ("collections", "OrderedDict"),
    ("fractions", "Fraction"), ("pathlib", "PosixPath"), ("pathlib", "WindowsPath"),
    ("pathlib", "PurePosixPath"), ("builtins", "set"), ("builtins", "frozenset"),
    ("builtins", "complex"), ("builtins", "bytearray"), ("builtins", "slice"),
    ("copyreg", "_reconstructor"), ("builtins", "object"),
    ("numpy", "dtype"), ("numpy", "ndarray"),
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.numeric", "_frombuffer"), ("numpy._core.numeric", "_frombuffer"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
}


class _ResultUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        if module.startswith("moderator_app.") and "." not in name:
            obj = super().find_class(module, name)
            if isinstance(obj, type):
                return obj
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a verification result")
