"""The isolated verification process: the workstation verifies a submission here, never in
its own process (issue 15).

Why: the verifiers parse hostile bytes with native code (orjson, the C accelerators, zstd),
and the workstation's own address space is mostly Qt's (about 380 MiB under X before it reads
anything). Under an address-space limit such as `prlimit --as=512MiB`, `orjson.dumps` of a
300,000-member line then failed to map its worst-case buffer and dereferenced the null
pointer: SIGSEGV, the window gone with the moderator's work. Here the same verification runs
in a fresh interpreter with the CLI's footprint (what `verify` uses: 57-183 MiB on those
lines), and whatever still goes wrong (a crash, MemoryError, a hang) ends this process only;
the parent (`isolated.py`) turns it into a message in the window.

Run as `python -m moderator_app --verify-child` (the bundle: `moderator-app --verify-child`).
Protocol: one request on stdin, an 8-byte big-endian length then a pickle of
`{"paths": [...], "options": VerifyOptions}` (from our own parent: trusted). Answers on
stdout, each a 4-byte big-endian length, a JSON header, then the blob the header sizes:
`{"progress": [done, total]}` any number of times, then one of `{"ok": true}` with the pickled
result, or `{"ok": false, "error": "input" | "memory" | "internal", "reason": "..."}`.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import struct
import sys
import time
from typing import Any, BinaryIO

FAULT_ENV = "MODERATOR_VERIFY_FAULT"  # tests: crash | hang | memory, after the request
PROGRESS_EVERY_S = 0.05


def send(out: BinaryIO, header: dict, blob: bytes = b"") -> None:
    data = json.dumps(dict(header, blob=len(blob))).encode()
    out.write(struct.pack(">I", len(data)) + data)
    if blob:
        out.write(blob)
    out.flush()


def address_space_limit() -> int | None:
    """This process's address-space limit in bytes (RLIMIT_AS), None when unlimited."""
    try:
        import resource
    except ImportError:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def memory_reason() -> str:
    limit = address_space_limit()
    cap = (f" (this process may use {limit / (1 << 20):.0f} MiB of address space)"
           if limit is not None else "")
    return ("the verification ran out of memory on this submission" + cap
            + "; nothing in it was judged: verify it with `moderator-app verify` on a machine "
              "with more memory, or reject it")


def _prefer_oom_kill() -> None:
    """Without a limit, a memory bomb meets the kernel's OOM killer: let it pick this
    process, never the window (best effort; Linux only)."""
    try:
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write("1000")
    except OSError:
        pass


def _read_exact(fh: BinaryIO, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = fh.read(n - len(buf))
        if not chunk:
            return b""
        buf += chunk
    return buf


def _request_waiting() -> bool:
    import select

    try:
        return bool(select.select([sys.stdin.buffer], [], [], 0)[0])
    except (OSError, ValueError):
        return True


def _fault(name: str | None) -> None:
    if name == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif name == "hang":
        time.sleep(3600)
    elif name == "memory":
        raise MemoryError


# Members of each evidence role sent to the window: what the views use (the evidence, the
# largest video); the report names the rest. A bound, so that 10,000 members with 60 KB names
# cannot make the window's copy of the listing large.
LISTED_PER_ROLE = 16


def listing(sub) -> tuple:
    """What the window keeps of the submission's listing (`isolated.listed` rebuilds it): its
    path, name, kind, findings and links, and the evidence and video members (name, size,
    role, local path; the largest videos first), never the extras. The window listed the
    submission again before (issue 15: a zip of 100,000 members with 1,000-byte names took
    260 MiB there, against the ~130 MiB the window has left under a 512 MiB limit)."""
    from moderator_app.core.formats.members import ROLE_LOG, ROLE_TRAJECTORY

    kept = [*sub.by_role(ROLE_LOG)[:LISTED_PER_ROLE],
            *sub.by_role(ROLE_TRAJECTORY)[:LISTED_PER_ROLE], *sub.videos[:LISTED_PER_ROLE]]
    return (sub.path, sub.display_name, sub.kind,
            tuple((m.name, m.size, m.role, m.local_path) for m in kept),
            tuple(sub.findings), tuple(sub.links), tuple(sub.stamps))


def _inputs(result) -> tuple[object, tuple[str, ...] | None,
                             tuple[tuple[float, float], ...] | None]:
    """The inputs' run times the window's sync analysis needs (`formats.input_events`), read
    here rather than in the window: reading them parses every line of the log, which under
    the window's address-space limit failed on a 15 MiB string line (MemoryError) and left
    the window without a suggested offset. Only when there is a video to analyse. Whatever
    stops the reading is the analysis's reason, never the verification's: the report stands.
    With the times, the inputs' kinds (`input_events.inputs`) and the log's idle stretches
    (`input_events.idle_stretches`, `sync.silent_log`), None when not read."""
    if result.video_path is None:
        return None, None, None
    from array import array

    from moderator_app.core.formats.input_events import IDLE_READ_FLOOR_S, idle_stretches, inputs

    try:
        times, kinds = inputs(result.submission)
        idle = tuple(idle_stretches(result.submission, IDLE_READ_FLOOR_S))
        return array("d", times), tuple(kinds), idle
    except MemoryError:
        return "the actions' times could not be read: out of memory", None, None
    except Exception as exc:  # noqa: BLE001 - the analysis says why; the report stands
        return f"the actions' times could not be read: {type(exc).__name__}: {exc}"[:2000], \
            None, None


def main() -> int:
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the answer stream
    _prefer_oom_kill()
    from moderator_app.core.errors import InputError
    from moderator_app.core.verify.pipeline import verify_paths

    if not _request_waiting():
        # Started ahead (`isolated.prestart`): import now what a verification may need, both
        # verifiers and the video probe (numpy: 0.3 s of 0.9 s of CPU), while nobody waits.
        # Started for a request already sent, the pipeline imports only what it needs.
        from moderator_app.core.verify.agent_log import verify_agent_log  # noqa: F401
        from moderator_app.core.verify.trajectory import verify_trajectory  # noqa: F401
        from moderator_app.core.video.probe import probe_video  # noqa: F401
    head = _read_exact(sys.stdin.buffer, 8)
    if not head:
        return 0  # started ahead and never used: the parent has gone
    (size,) = struct.unpack(">Q", head)
    request: dict[str, Any] = pickle.loads(_read_exact(sys.stdin.buffer, size))
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY_S:
            last[0] = now
            send(out, {"progress": [int(done), int(total)]})

    try:
        _fault(os.environ.get(FAULT_ENV))
        result = verify_paths(request["paths"], request["options"], progress)
        blob = pickle.dumps((result.report, result.index, result.video_path,
                             result.run_duration_s, result.video_probe,
                             *_inputs(result), listing(result.submission)),
                            protocol=pickle.HIGHEST_PROTOCOL)
        del result
    except InputError as exc:
        send(out, {"ok": False, "error": "input", "reason": str(exc)})
    except MemoryError:
        send(out, {"ok": False, "error": "memory", "reason": memory_reason()})
    except RecursionError:
        send(out, {"ok": False, "error": "internal",
                   "reason": "the verification went deeper than Python's recursion limit on "
                             "this submission"})
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which shows it
        send(out, {"ok": False, "error": "internal",
                   "reason": f"{type(exc).__name__}: {exc}"[:2000]})
    else:
        send(out, {"ok": True}, blob)
    # the answer is sent and flushed: leave without the interpreter's teardown
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
