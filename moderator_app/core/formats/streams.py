"""Reading evidence bytes once: hashing, counting and progress as a side effect of reading.

Verifiers read each evidence file through `HashingReader`, so the SHA-256 that binds a
decision to the exact bytes costs no second pass over a 1 GB log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import BinaryIO

from moderator_app.core.formats import native
from moderator_app.core.progress import CancelToken, ProgressFn

CHUNK = 1 << 20


class HashingReader:
    """A read-only binary stream wrapper that SHA-256s and counts what passes through it, and
    copies it to `copy_to` when given (the GUI's plain copy of an archived log, made in the
    verifying pass instead of a second decompression)."""

    def __init__(self, raw: BinaryIO, total: int = 0, progress: ProgressFn | None = None,
                 cancel: CancelToken | None = None,
                 copy_to: BinaryIO | LineSpool | None = None) -> None:
        self._raw = raw
        self._copy_to = copy_to
        self._sha = hashlib.sha256()
        self.bytes_read = 0
        self.total = total
        self._progress = progress
        self._cancel = cancel

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        if data:
            self._sha.update(data)
            self.bytes_read += len(data)
            if self._copy_to is not None:
                self._copy_to.write(data)
            if self._progress is not None:
                self._progress(self.bytes_read, self.total)
        if self._cancel is not None:
            self._cancel.check()
        return data

    def readinto(self, buf) -> int:
        """`read` into `buf` (a writable buffer). The raw reader's own `read` is called (an
        archive member's reader may define only that), and its bytes copied."""
        view = memoryview(buf).cast("B")
        data = self.read(len(view))
        view[:len(data)] = data
        return len(data)

    def readable(self) -> bool:
        return True

    def hexdigest(self) -> str:
        return self._sha.hexdigest()

    def drain(self) -> None:
        """Read to the end so that the digest covers the whole file."""
        while self.read(CHUNK):
            pass

    def close(self) -> None:
        self._raw.close()

    def __enter__(self) -> HashingReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LineBounded:
    """A reader whose `read` returns at most `max_lines` whole lines more than a partial one.

    Verifiers examine what one read returns as a block, with per-line state; 1 MiB of
    newlines is a million lines (a zstd stream of 2 KB can hold 64 MiB of them). Bounding
    the lines per read keeps a block's cost and memory proportional to its lines, so an
    error budget or a cancel is honoured within a few thousand lines. Usual data (lines of
    hundreds of bytes) passes through untouched.

    Two exceptions keep a flood linear (session 25: 640 MiB of newlines in zstd took 40-49 s,
    6.4 GiB ran past 60 s): a run of blank lines is returned whole, however many lines it
    has (it is counted, never examined line by line: `blank_run`), and what a read leaves is
    kept as an offset into the bytes read, not copied again for every block of `max_lines`
    (1 MiB copied per 4 KiB of newlines returned)."""

    def __init__(self, raw, max_lines: int = 4096) -> None:
        self._raw = raw
        self._max = max_lines
        self._held = b""
        self._at = 0  # what is left of `_held` starts here

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self._at < len(self._held):
            data, at = self._held, self._at
        else:
            data, at = self._raw.read(size), 0
        self._held, self._at = b"", 0
        cut = _line_cut(data, self._max, at)
        if cut < 0:
            return data[at:] if at else data
        if data[at:at + 1] in _BLANK_BYTES:
            cut = max(cut, blank_run(data, at) - at)
        if at + cut < len(data):
            self._held, self._at = data, at + cut
        return data[at:at + cut]

    def unread(self, data: bytes) -> None:
        """Put `data` back, to be read (line-bounded) before the rest."""
        self._held, self._at = data + self._held[self._at:], 0

    def close(self) -> None:
        self._raw.close()


_BLANK_BYTES = (b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c")  # what `bytes.strip` strips
# A flood's usual spellings, compared a page at a time (memcmp) rather than byte by byte
_BLANK_UNITS = (b"\n" * 4096, b"\r\n" * 2048)
_WINDOW = 1 << 16


def blank_run(data: bytes, start: int = 0) -> int:
    """The offset just past the last newline of the whitespace that `data` holds from
    `start` (`start` when that holds no newline): the end of a run of blank lines. Pages of
    newlines or CRLFs are skipped by comparison; other whitespace is stripped a window at
    a time, so the cost stays linear and about a millisecond per MiB of blank lines."""
    pos, end = start, len(data)
    for unit in _BLANK_UNITS:
        while data.startswith(unit, pos):
            pos += len(unit)
    while pos < end:
        window = data[pos:pos + _WINDOW]
        rest = len(window.lstrip())
        pos += len(window) - rest
        if rest:
            break
    return max(start, data.rfind(b"\n", start, pos) + 1)


def blank_count(block: bytes) -> int | None:
    """The newlines of `block` when it is whitespace only, else None; pages of newlines or
    CRLFs are counted by comparison, not byte by byte (`blank_run`)."""
    pos, lines = 0, 0
    for unit in _BLANK_UNITS:
        per = unit.count(b"\n")
        while block.startswith(unit, pos):
            pos += len(unit)
            lines += per
    rest = block[pos:] if pos else block
    if rest.strip():
        return None
    return lines + rest.count(b"\n")


def python_line_cut(data: bytes, n: int, start: int = 0) -> int:
    """`_jcs.line_cut` without the C accelerator: just past the n-th newline, or -1 when
    `data` holds n newlines or fewer (of `data[start:]`, counted from `start`)."""
    if data.count(b"\n", start) <= n:
        return -1
    pos = start - 1
    for _ in range(n):
        pos = data.find(b"\n", pos + 1)
    return pos + 1 - start


_c_line_cut = native.JCS.line_cut if native.JCS is not None else None


def _native_line_cut(data: bytes, n: int, start: int = 0) -> int:
    assert _c_line_cut is not None
    return _c_line_cut(memoryview(data)[start:] if start else data, n)


_line_cut = _native_line_cut if _c_line_cut is not None else python_line_cut

MAX_LINE = 16 << 20  # 16 MiB: a longer line is a finding, not an allocation


class LineSpool:
    """The GUI's plain copy of an evidence file (a decompressed or archived log or
    trajectory, which the event index reads lines back from), with every offset kept but
    without the bytes of a line longer than `max_line`: the index gives such a line no length
    (it is never read back), and a 512 MiB one-line member had cost 512 MiB under $TMPDIR. Its
    bytes become a hole in a sparse file; what was written of it before it proved too long is
    cut off again. One `write` per call for ordinary data: a line-by-line pass only where a
    single write could hold a whole over-long line."""

    def __init__(self, fh: BinaryIO, max_line: int = MAX_LINE) -> None:
        self._fh = fh
        self._max = max_line
        self._pos = 0  # the logical size: every byte given so far, written or not
        self._line_start = 0  # where the current (unfinished) line begins
        self._skipping = False  # inside an over-long line: its bytes are not written

    def write(self, data: bytes) -> int:
        n = len(data)
        view = memoryview(data)
        i = 0
        while i < n:
            nl = data.find(b"\n", i)
            end = n if nl < 0 else nl
            if self._skipping or self._pos + (end - i) - self._line_start > self._max:
                if not self._skipping:  # what was written of it goes: a hole instead
                    self._fh.truncate(self._line_start)
                    self._skipping = True
                self._pos += end - i
                if nl < 0:
                    break
                self._fh.seek(self._pos)  # its newline and what follows, in place
                self._fh.write(b"\n")
                self._pos += 1
                self._line_start = self._pos
                self._skipping = False
                i = end + 1
                continue
            if nl < 0:  # the start of a line that may still grow
                self._fh.write(view[i:])
                self._pos += n - i
                break
            # the lines up to the last newline at once, when none of them can be too long
            last = data.rfind(b"\n", nl)
            if last - nl - 1 > self._max:
                last = nl  # one line at a time: one between may be too long
            self._fh.write(view[i:last + 1])
            self._pos += last + 1 - i
            self._line_start = self._pos
            i = last + 1
        return n

    def close(self) -> None:
        """The file at its logical size (a hole for an over-long last line), then closed."""
        try:
            if self._skipping:
                self._fh.truncate(self._pos)
        finally:
            self._fh.close()


class BlankRun:
    """Stands for `count` consecutive blank (whitespace-only) lines in `iter_lines`; `raw` is
    their bytes, newlines included (at most one read chunk)."""

    __slots__ = ("count", "raw")

    def __init__(self, count: int, raw: bytes) -> None:
        self.count = count
        self.raw = raw


_WS = frozenset(b" \t\r\n\x0b\x0c")  # what bytes.strip() removes


def iter_lines(stream, chunk_size: int = CHUNK, max_line: int = MAX_LINE,
               blank_runs: bool = False, skim: Callable[[bytes, int], int] | None = None):
    """Yield (offset, line) from a binary stream, splitting on b"\\n" only.

    `line` is the line's bytes without the newline, or None for a line longer than
    `max_line` (its bytes are skipped, not held: a decompression bomb stays flat).
    Flat memory: at most one chunk plus `max_line` bytes are held. A final line without a
    newline is still yielded (the verifier decides whether that is a finding).
    `blank_runs`: two or more consecutive whitespace-only lines come as one
    `(offset, BlankRun(count))`, so that 64 MiB of newlines costs a few regex matches, not
    67 million Python iterations.
    `skim(data, start)`: called before each line with the buffer and the line's start; it may
    consume whole (newline-ended) lines itself and return where the rest begins: those lines
    are not yielded (the agent-log verifier's run of ordinary lines in C, `_skim.c`).
    U+2028/U+2029 are bytes inside a line here, never line breaks (docs/DESIGN.md decision 5).
    """
    pending = b""
    offset = 0  # absolute offset of data[0]
    skipping = False  # inside an over-long line, discarding until its newline
    while True:
        chunk = stream.read(chunk_size)
        if not chunk:
            break
        data = pending + chunk if pending else chunk
        start = 0
        while True:
            if skim is not None and not skipping:
                start = skim(data, start)
            if blank_runs and not skipping and start < len(data) and data[start] in _WS:
                end = blank_run(data, start)  # (a regex match here: 15 % of a flood's time)
                if end > start:
                    k = data.count(b"\n", start, end)
                    if k > 1:
                        yield offset + start, BlankRun(k, data[start:end])
                        start = end
                        continue
            nl = data.find(b"\n", start)
            if nl < 0:
                break
            if skipping:
                skipping = False
            elif nl - start > max_line:
                yield offset + start, None
            else:
                yield offset + start, data[start:nl]
            start = nl + 1
        if not skipping and len(data) - start > max_line:
            yield offset + start, None
            skipping = True
        if skipping:
            pending = b""
            offset += len(data)
        else:
            pending = data[start:]
            offset += start
    if pending and not skipping:
        yield offset, pending


def sha256_file(path, progress: ProgressFn | None = None) -> tuple[str, int]:
    """(hex digest, size) of a file on disk, read in chunks."""
    sha = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            sha.update(chunk)
            size += len(chunk)
    return sha.hexdigest(), size
