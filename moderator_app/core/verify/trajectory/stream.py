"""The driver: open a trajectory stream (plain or zstd), cut it into blocks, examine them
(some in the worker process) and apply the facts in order."""

from __future__ import annotations

import contextlib
import tempfile
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from moderator_app.core.errors import TooManyErrors
from moderator_app.core.formats import native
from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.formats.streams import (
    MAX_LINE,
    HashingReader,
    LineBounded,
    LineSpool,
    blank_count,
)
from moderator_app.core.formats.submission import Submission
from moderator_app.core.formats.zstream import (
    DEFAULT_MAX_OUTPUT,
    ZstdReader,
    ZstdStreamError,
    is_zstd_start,
)
from moderator_app.core.progress import CancelToken, ProgressFn
from moderator_app.core.verify.input_rules import UNREADABLE_MEMBER
from moderator_app.core.verify.options import KindResult, VerifyOptions
from moderator_app.core.verify.report import FileDigest, Report
from moderator_app.core.verify.seeds import SeedCheck
from moderator_app.core.verify.trajectory.blocks import examine_block, scan_block
from moderator_app.core.verify.trajectory.checker import TrajectoryChecker
from moderator_app.core.verify.trajectory.facts import Scan
from moderator_app.core.verify.trajectory.rules import ZSTD_CORRUPT, ZSTD_RULES
from moderator_app.core.verify.trajectory.worker import (
    MAX_INFLIGHT,
    RING,
    Worker,
    parallel_default,
)


class PrefixedReader:
    """A reader that returns `head` first, then the rest of `raw` (after sniffing magic)."""

    def __init__(self, head: bytes, raw) -> None:
        self._head = head
        self._raw = raw

    def read(self, size: int = -1) -> bytes:
        if self._head:
            head, self._head = self._head, b""
            return head
        return self._raw.read(size)

    def readinto(self, buf) -> int:
        if self._head:
            head, self._head = self._head, b""
            buf[:len(head)] = head  # 4 bytes: the buffers here are larger
            return len(head)
        return self._raw.readinto(buf)


class _Tee:
    """Counts decompressed bytes and copies them to a spool file for the GUI's event index."""

    def __init__(self, src, spool=None) -> None:
        self._src = src
        self._spool = spool
        self.total = 0

    def read(self, size: int = -1) -> bytes:
        data = self._src.read(size)
        self.total += len(data)
        if self._spool is not None and data:
            self._spool.write(data)
        return data


def verify_trajectory(sub: Submission, options: VerifyOptions, report: Report,
                      progress: ProgressFn | None = None,
                      cancel: CancelToken | None = None) -> KindResult:
    """Verify `sub.evidence` (events.jsonl.zst or events.jsonl) into `report`."""

    member = sub.evidence
    checker, digest = check_stream(
        member.open, member.name, member.size, report,
        seeds=options.seeds, secret=options.secret, build_index=options.build_index,
        spool_dir=options.spool_dir, local_path=member.local_path,
        progress=progress, cancel=cancel, role=member.role)
    if digest is not None:
        report.files.append(digest)
    duration = report.run.duration_s if report.run is not None else None
    return KindResult(checker.index if checker else None, duration)


def check_stream(opener: Callable, name: str, size: int, report: Report, *,
                 seeds=None, secret=None, build_index: bool = False, spool_dir=None,
                 local_path: Path | None = None, progress: ProgressFn | None = None,
                 cancel: CancelToken | None = None, role: str = "trajectory",
                 max_output: int = DEFAULT_MAX_OUTPUT, parallel: bool | None = None,
                 spelling: bool | None = None):
    """Read and check one trajectory stream; (checker, FileDigest of the raw bytes).

    `parallel`: examine part of the blocks in a worker process (default: for inputs of
    8 MB and more, outside the GUI, unless MODERATOR_APP_WORKERS=0). `spelling`: check
    `chain.respelled` (default: `spelling_check_default()`)."""
    seed_check = SeedCheck(tuple(seeds) if seeds else None, secret)
    try:
        fh = opener()
    except OSError as exc:
        report.add(UNREADABLE_MEMBER.at(f"cannot read: {exc.strerror or exc}", name))
        report.complete = False
        return None, None
    if parallel is None:
        parallel = parallel_default(size, build_index)
    spool = None
    index = None
    worker = None
    with fh:
        hr = HashingReader(fh, size, progress, cancel)
        head = hr.read(4)
        compressed = is_zstd_start(head)
        src: Any = PrefixedReader(head, hr)
        if compressed:
            src = ZstdReader(src, max_output)
        if build_index:
            if not compressed and local_path is not None:
                index = EventIndex(source=Path(local_path))
            else:
                folder = Path(spool_dir) if spool_dir else Path(tempfile.mkdtemp(
                    prefix="moderator-app-"))
                folder.mkdir(parents=True, exist_ok=True)
                fd, spool_name = tempfile.mkstemp(prefix="events-", suffix=".jsonl",
                                                  dir=folder)
                # (over-long lines are holes: never shown, never written; `LineSpool`)
                spool = LineSpool(open(fd, "wb"))  # noqa: SIM115 - closed below
                index = EventIndex(source=Path(spool_name))
        tee = LineBounded(_Tee(src, spool))  # a block of tiny lines stays small
        checker = TrajectoryChecker(report, name, seed_check, index, spelling)
        complete = True
        ends_with_newline = True
        try:
            if name.lower().endswith(".zst") and not compressed and head:
                raise ZstdStreamError("corrupt", "the file is named .zst but is not a zstd "
                                                 "stream", 0, 0)
            if parallel:
                try:
                    worker = Worker(tuple(seeds) if seeds else None, secret)
                except Exception:  # noqa: BLE001 - no second process: verify in this one
                    worker = None
            with _no_cyclic_gc():
                ends_with_newline = _run_blocks(tee, checker, worker,
                                                direct=None if spool is not None else src)
        except ZstdStreamError as exc:
            complete = False
            report.complete = False
            rule_ = ZSTD_RULES.get(exc.kind, ZSTD_CORRUPT)
            report.add(rule_.at(
                f"{exc} — {checker.events} events verified before it; the stream is "
                "INCOMPLETE", name, checker.lines + 1))
        except OSError as exc:  # a damaged archive member, a failing disk
            complete = False
            report.complete = False
            report.add(UNREADABLE_MEMBER.at(
                f"read error: {exc} — {checker.events} events verified before it; the stream "
                "is INCOMPLETE", name, checker.lines + 1))
        finally:
            if worker is not None:
                worker.close()
            if spool is not None:
                spool.close()
        with contextlib.suppress(OSError):
            hr.drain()
        digest = FileDigest(name, role, hr.bytes_read, hr.hexdigest())
    checker.finish(complete, complete and checker.events > 0 and not ends_with_newline)
    return checker, digest


@contextlib.contextmanager
def _no_cyclic_gc():
    """The pass allocates millions of short-lived, acyclic containers (events, rows): the
    cyclic collector would only rescan them. Paused for the pass, restored after."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


BLOCK = 1 << 20


def iter_blocks(src, max_line: int = MAX_LINE):
    """(offset, block) with whole lines (`\\n`-terminated, but the last block may lack it),
    or (offset, None) for a line longer than `max_line` (skipped, never held)."""
    for offset, head, body in iter_block_parts(src, max_line):
        yield offset, None if body is None else joined(head, body)


def joined(head: bytes, body) -> bytes:
    """The block `iter_block_parts` hands over in two parts, as one bytes object."""
    if head:
        return b"".join((head, body))
    return body if type(body) is bytes else bytes(body)


def iter_block_parts(src, max_line: int = MAX_LINE, pending: bytes = b"", pos: int = 0):
    """`iter_blocks` with each block in two parts, (offset, head, body): the partial line the
    previous read ended with (bytes, often b"") and the read up to its last newline (a view
    of it). Joined, they are the block; a block bound for the worker is copied once, part by
    part, into its shared slot, where joining first copied every byte twice. `pending`: a
    partial line read before, at offset `pos` (`pos`: the absolute offset of pending[0])."""
    skip_start = -1  # inside an over-long line starting here
    while True:
        chunk = src.read(BLOCK)
        if not chunk:
            break
        if skip_start >= 0:
            nl = chunk.find(b"\n")
            if nl < 0:
                pos += len(chunk)
                continue
            yield skip_start, b"", None
            skip_start = -1
            pos += nl + 1
            chunk = chunk[nl + 1:]
        # The block is the pending partial line and the chunk up to its last newline, the
        # rest of the chunk pends.
        cut = chunk.rfind(b"\n") + 1
        if cut:
            body = chunk if cut == len(chunk) else memoryview(chunk)[:cut]
            yield pos, pending, body
            pos += len(pending) + cut
            pending = chunk[cut:]
        else:
            pending += chunk
        if len(pending) > max_line:
            skip_start = pos
            pos += len(pending)
            pending = b""
    if skip_start >= 0:
        yield skip_start, b"", None
    elif pending:
        yield pos, b"", pending


class _InSlot:
    """A block read straight into the worker's shared slot `k`: its first `length` bytes."""

    __slots__ = ("k", "length")

    def __init__(self, k: int, length: int) -> None:
        self.k = k
        self.length = length


MAX_LINES = 4096  # lines per block at most (`LineBounded`): a block of tiny lines stays small


def _run_blocks(src, checker: TrajectoryChecker, worker: Worker | None, direct=None) -> bool:
    """Examine every block (some in the worker), apply the facts in line order. Returns
    whether the stream ended with a newline. `direct`: the reader under `src`'s wrappers,
    read first straight into the worker's slots (`_run_slots`) where it can."""
    queue: deque = deque()  # [offset, block (bytes, its parts or _InSlot), scan or None]
    n = 0
    ends_with_newline = True
    ctx = checker.ctx
    summary = checker.index is None

    def block_of(held) -> bytes:
        if type(held) is bytes:
            return held
        if type(held) is _InSlot:
            assert worker is not None
            return bytes(worker.slot(held.k)[:held.length])
        return joined(*held)

    def flush(wait: bool, keep: int = 0) -> None:
        nonlocal n
        while len(queue) > keep:
            entry = queue[0]
            if entry[2] is None:
                if worker is None:
                    entry[2] = scan_block(entry[1], ctx, summary)
                else:
                    sent = worker.result(wait)
                    if sent is None:
                        return
                    entry[2] = sent
            queue.popleft()
            scan: Scan = entry[2]
            if scan[0] == "b":  # blank lines only (`blank_lines`)
                checker.blanks(entry[0], scan[2], n + 1, scan[1])
                n += scan[1]
                checker.lines = n
                continue
            if scan[0] == "s":
                done = checker.apply_summary(scan[1], n)
                if done is not None:
                    n = checker.lines = done
                    continue
                facts = examine_block(block_of(entry[1]), ctx)  # it does not join on: word
            else:  # the findings
                facts = scan[1]
            n = checker.apply_many(entry[0], facts, n)
            checker.lines = n

    try:
        pending, pos = b"", 0
        if (direct is not None and worker is not None and worker.slots
                and _line_cut_native is not None):
            pending, pos, rest = _run_slots(direct, worker, queue, flush, ctx, summary,
                                            _line_cut_native)
            if rest:
                src.unread(rest)
        for offset, head, body in iter_block_parts(src, pending=pending, pos=pos):
            if body is None:
                flush(True)
                n += 1
                checker.line(offset, None, n)
                checker.lines = n
                continue
            ends_with_newline = body[-1:] == b"\n"
            if (head[:1] if head else bytes(body[:1])).isspace():
                blank = blank_lines(joined(head, body))
                if blank is not None:
                    queue.append([offset, None, blank])
                    flush(False)
                    continue
            if (worker is not None and worker.inflight < MAX_INFLIGHT
                    and worker.send((head, body), ctx.spell_hint)):
                queue.append([offset, (head, body), None])
            else:
                block = joined(head, body)
                queue.append([offset, block, scan_block(block, ctx, summary)])
            flush(False)
    except TooManyErrors:
        raise  # examining stops here: the blocks read ahead are not applied (how many there
        # are depends on the worker's pace; the report must not)
    except Exception:
        flush(True)  # the blocks read before a stream error count: "N events verified"
        raise
    flush(True)
    return ends_with_newline


_SPACES = frozenset(b" \t\n\r\x0b\x0c")  # what `bytes.strip` strips


def blank_lines(block: bytes) -> Scan | None:
    """`("b", lines, length)` for a block of blank (whitespace-only) lines, else None: such
    a block is counted at C speed, never examined line by line (64 MiB of newlines is 64
    million lines; `TrajectoryChecker.blanks`)."""
    count = blank_count(block)
    if count is None:
        return None
    ends = block[-1:] == b"\n"
    return ("b", count + (not ends), len(block) - ends)


_line_cut_native = native.JCS.line_cut if native.JCS is not None else None


def _run_slots(src, worker: Worker, queue: deque, flush, ctx, summary: bool,
               line_cut: Callable[[memoryview, int], int]) -> tuple[bytes, int, bytes]:
    """Read the stream straight into the worker's shared slots, a block of whole lines in
    each (decoded there by `ZstdReader.readinto`: no bytes object, no copy to a slot), and
    queue each block: sent to the worker, or examined here when it has enough in flight.
    Returns (pending, offset, rest) at the end of the stream, at a line too long for a slot
    (over ~1 MiB: the partial line left, for `iter_block_parts` to go on with) or at a read
    of more than MAX_LINES lines (tiny lines: what follows the block is `rest`, put back
    into the line-bounded reader, which goes on; a slot would copy it again per block)."""
    carry = b""  # the partial line the last block left, copied to the next slot's start
    pos = 0  # absolute offset of carry[0]
    k = 0
    size = len(worker.slot(0))
    room = min(BLOCK, size // 2)
    rest = b""
    while len(carry) <= size - room:
        flush(True, RING - 1)  # the slot to fill is no longer held by a queued block
        slot = k % RING
        view = worker.slot(slot)
        c = len(carry)
        view[:c] = carry
        got = src.readinto(view[c:c + room])
        if not got:
            break
        end = c + got
        cut = line_cut(view[:end], MAX_LINES)
        rest = b""
        if cut < 0:
            cut = worker.last_newline(slot, end)
            carry = bytes(view[cut:end])
        else:
            rest, carry = bytes(view[cut:end]), b""
        if not cut:  # no newline yet: the line goes on in the next read
            continue
        entry = [pos, _InSlot(slot, cut), None]
        if view[0] in _SPACES:
            entry[2] = blank_lines(bytes(view[:cut]))
        if entry[2] is None and not (worker.inflight < MAX_INFLIGHT
                                     and worker.send_slot(slot, cut, ctx.spell_hint)):
            # the seed-leak regex needs bytes; else the C summary reads the slot in place
            block = view[:cut] if ctx.leak is None else bytes(view[:cut])
            entry[2] = scan_block(block, ctx, summary)  # type: ignore[arg-type]  # a view is read
        queue.append(entry)
        k += 1
        pos += cut
        flush(False)
        del view  # (a view held would pin the mapping)
        if rest:
            break
    flush(True)  # the general path may use any slot
    return carry, pos, rest
