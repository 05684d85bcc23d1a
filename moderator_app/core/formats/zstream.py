"""Honest streaming zstd: every concatenated frame is read, and a stream that ends early is an
error, never a silently shorter stream.

`zstandard`'s stream reader decodes straight into the caller's buffer (one copy of each byte,
where `decompressobj()` makes two and a bytes object per call), but returns short data without
complaint when its input ends in the middle of a frame: a truncated upload would verify as a
shorter, valid chain. So the reader is fed by `BlockCutter`, which follows the frame format
over the compressed bytes (frame headers, block headers, checksums, skippable frames) and hands
the decoder one block per read: at the end of the input it knows whether the last frame was
complete, how many frames ended, and where each began. One call decodes at most one block
(128 KiB of output, however few bytes the block is stored in: a ratio of ~32,000) and never
more than the buffer it is given, so a few bytes cannot expand into gigabytes in one call; the
total output is capped. The decoder, not the cutter, judges the bytes: a header the cutter
cannot follow (garbage, a reserved field) makes it cut 2 KB slices from then on, and the
decoder reports the fault. The decoder's default window limit (128 MiB) is kept, so a frame
cannot demand more: a valid frame written with a larger window (`zstd --long=31` on a pipe
asks for 2 GiB) is reported as such ("window_too_large"), never as corrupt.
"""

from __future__ import annotations

from typing import BinaryIO

import zstandard

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# Skippable frames: 0x184D2A50..0x184D2A5F, little-endian, so the last 3 bytes are fixed.
_SKIPPABLE_TAIL = b"\x2a\x4d\x18"

FEED = 2048  # input bytes per read where blocks cannot be followed
READ = 1 << 20  # input bytes read from the file at once
OUT_TARGET = 1 << 20  # output handed to the caller in pieces of about this size
DEFAULT_MAX_OUTPUT = 64 << 30  # 64 GiB of decompressed trajectory is beyond any real run
# Skippable frames a stream may hold. Each costs a Python step (the cutter, the decoder's read):
# ~2.5 us, so a 189 KB .tar.gz holding 16 million empty ones (128 MB, no output) took 41 s of
# CPU to verify (QA session 11). Writers put one in a stream (a seek table) or one per data
# frame (pzstd: thousands for gigabytes); 100,000 costs ~0.25 s.
MAX_SKIPPABLE = 100_000
# Data frames that hold almost nothing cost the same Python step each (~4-6 us): a 10 MB stream
# of 1,000,000 one-byte frames took 5.8 s of CPU and 43 s at a load of 20 to verify (session
# 15), so 5 million (50 MB) would take minutes. Writers that open a frame per write put one
# line in each (a trajectory line is 150 bytes or more, an agent-log line 80 or more), so
# past MANY_FRAMES frames a stream whose frames average under MIN_FRAME_BYTES of output is
# refused; 100,000 frames cost ~0.5 s before the check can fail.
MANY_FRAMES = 100_000
MIN_FRAME_BYTES = 64
MAX_WINDOW = 1 << 27  # zstd's own default decoder limit (windowLog 27): bounded memory


def is_zstd_start(head: bytes) -> bool:
    """Whether `head` begins like a zstd frame (normal or skippable)."""
    return head[:4] == ZSTD_MAGIC or (len(head) >= 4 and head[1:4] == _SKIPPABLE_TAIL
                                      and 0x50 <= head[0] <= 0x5F)


# Decompression bombs: past BOMB_FLOOR bytes of output, a stream that has expanded more than
# BOMB_RATIO times is refused. Honest logs and trajectories compress 5-20 times (hashes and
# timestamps differ on every line); a file of zeros or newlines compresses 1,000-30,000
# times. The floor lets any honest small file through whatever its ratio, and bounds what a
# bomb costs before it is stopped (1 GiB: a few seconds of decoding and hashing).
BOMB_FLOOR = 1 << 30
BOMB_RATIO = 200


def bomb_ratio(output: int, compressed: int) -> bool:
    """Whether `output` bytes decoded from `compressed` bytes look like a bomb."""
    return output > BOMB_FLOOR and output > BOMB_RATIO * max(compressed, 1)


def bomb_message(output: int, compressed: int) -> str:
    return (f"{output} bytes decoded from {compressed} compressed bytes (more than "
            f"{BOMB_RATIO} times, past {BOMB_FLOOR >> 30} GiB): a decompression bomb, not read "
            "further")


_HEAD = 18  # the longest zstd frame header: magic, descriptor, window, dictionary id, size


def window_size(head: bytes) -> int | None:
    """The decoding window a frame asks for, from its first bytes (None when unknown).
    zstandard refuses to describe a header whose window is past 2 GiB (the format allows up
    to 3.75 TiB; no encoder writes one): its window byte is read here, so such a header is
    called what it is, not "corrupt" (s28 hostile sweep)."""
    try:
        return int(zstandard.get_frame_parameters(head).window_size)
    except (zstandard.ZstdError, ValueError, TypeError):
        pass
    if len(head) < 6 or head[:4] != b"\x28\xb5\x2f\xfd" or head[4] & 0x20:
        return None  # not a frame, or single-segment (its window is its content size)
    base = 1 << (10 + (head[5] >> 3))
    return base + (base >> 3) * (head[5] & 7)


def _dictionary_id(head: bytes) -> int:
    """The dictionary a frame says it was compressed with (0: none, or unknown)."""
    try:
        return int(zstandard.get_frame_parameters(head).dict_id)
    except (zstandard.ZstdError, ValueError, TypeError):
        return 0


SMALL_BLOCK = 512  # compressed bytes: an honest block of ~128 KiB output takes thousands
_FCS_SIZE = (0, 2, 4, 8)  # Frame_Content_Size bytes by the descriptor's top two bits
_DID_SIZE = (0, 1, 2, 4)  # Dictionary_ID bytes by its two low bits


class BlockCutter:
    """Where to cut compressed input so that each read of the decoder gets one zstd block,
    and what the cut bytes were: frames ended, where the current frame began, its head.

    It follows the frame format (RFC 8878) over the bytes in the order they are fed: a frame
    header, blocks (a 3-byte header: last-block flag, type, size), the optional 4-byte
    checksum (with the last block: a checksum mismatch withholds that block's output, as the
    decoder did when fed 2 KB slices); a skippable frame as a whole. Honest data takes one read per ~128 KiB
    of output. Blocks of under SMALL_BLOCK bytes (no honest encoder writes many) go together,
    up to SMALL_BLOCK bytes a read. The cutter never judges: a header it cannot follow (garbage, a
    reserved type or bit) makes it cut FEED-byte slices from then on (`lost`), and the
    decoder, which sees the same bytes in the same order however they are cut, reports the
    fault."""

    __slots__ = ("_head", "_need", "_left", "_ends_block", "_ends_frame", "_checksum",
                 "_cut_end", "lost", "frames", "frame_start", "frame_head", "pos",
                 "piece_frames", "skippable")

    def __init__(self) -> None:
        self._head = b""  # bytes of the header being read (a header may span two reads)
        self._need = 5  # its length: a frame's magic and descriptor first; 0 while passing
        self._left = 0  # bytes to pass (frame header rest, block content, skippable content)
        self._ends_block = False  # whether the bytes being passed end a block
        self._ends_frame = False  # ... and the frame
        self._checksum = False  # whether the frame in progress ends with a 4-byte checksum
        self._cut_end = False  # the bytes just passed end a unit: cut there
        self.lost = False
        self.frames = 0  # frames (skippable ones too) that ended
        self.frame_start = 0  # offset of the first byte of the frame in progress or next
        self.frame_head = b""  # its first bytes (up to 18: to tell garbage, read its window)
        self.pos = 0  # bytes cut so far
        self.piece_frames = 0  # `frames` when the last piece began: the decoder's frame
        self.skippable = 0  # skippable frames begun

    def between_frames(self) -> bool:
        """Whether the bytes cut so far end exactly at the end of a frame (or are none)."""
        return not self.lost and self._need == 5 and not self._head

    def cut(self, view: memoryview) -> int:
        """How many bytes of `view` (not empty) to hand the decoder next: up to the end of a
        block, or all of `view` when the block goes on past it."""
        self.piece_frames = self.frames
        if self.lost:
            n = min(FEED, len(view))
            self._note_head(view, 0, n)
            self.pos += n
            return n
        n = self._cut(view)
        self.pos += n
        return n

    def _note_head(self, view: memoryview, at: int, n: int) -> None:
        """Keep the first bytes of the frame in progress."""
        if len(self.frame_head) < _HEAD:
            self.frame_head += bytes(view[at:at + min(n, _HEAD - len(self.frame_head))])

    def _cut(self, view: memoryview) -> int:
        pos, size = 0, len(view)
        while pos < size:
            if not self._need:  # passing bytes whose meaning is known
                step = min(self._left, size - pos)
                self._note_head(view, pos, step)
                pos += step
                self._left -= step
                if self._left:
                    return pos
                self._end_pass()
            else:
                if self._need == 3 and not self._head and len(self.frame_head) >= _HEAD:
                    # at a block header: whole blocks that are neither the last nor reserved
                    # are stepped over here, a few operations each (tiny ones come by the
                    # million only from a hostile writer); the rest takes the general path
                    while pos + 3 <= size:
                        word = view[pos] | view[pos + 1] << 8 | view[pos + 2] << 16
                        kind = word >> 1 & 3
                        end = pos + 3 + (1 if kind == 1 else word >> 3)
                        if word & 1 or kind == 3 or end > size:
                            break
                        pos = end
                        if pos >= SMALL_BLOCK:
                            return pos
                elif self._need == 5 and not self._head:  # a new frame (or garbage) begins
                    self.frame_start = self.pos + pos
                    self.frame_head = b""
                take = min(self._need - len(self._head), size - pos)
                self._note_head(view, pos, take)
                self._head += bytes(view[pos:pos + take])
                pos += take
                if len(self._head) < self._need:
                    return pos
                if not self._parse(self._head):
                    self.lost = True
                    return pos
            if self._cut_end:
                self._cut_end = False
                # a frame's end or a block of honest size: cut here;
                # tiny blocks go on together, up to SMALL_BLOCK bytes
                if self._need == 5 or pos >= SMALL_BLOCK:
                    return pos
        return pos

    def _end_pass(self) -> None:
        """The bytes being passed are all cut: what comes next (and whether to cut)."""
        if self._ends_frame and self._checksum:  # the last block: its checksum goes with it
            self._checksum = False
            self._need, self._left = 0, 4
            self._cut_end = False
            return
        if self._ends_frame:
            self.frames += 1
            self._need = 5
            self._cut_end = True
        else:
            self._need = 3
            self._cut_end = self._ends_block

    def _parse(self, head: bytes) -> bool:
        """Read the complete header `head`; set what to pass next. False when it is not one
        the cutter can follow."""
        if self._need == 3:  # a block header
            word = head[0] | head[1] << 8 | head[2] << 16
            kind, size = word >> 1 & 3, word >> 3
            if kind == 3:
                return False
            # an RLE block stores one byte, repeated `size` times
            self._pass(1 if kind == 1 else size, ends_block=True, ends_frame=bool(word & 1))
            return True
        if head[:4] == ZSTD_MAGIC:
            desc = head[4]
            if desc & 0x08:  # the reserved bit: not a frame the cutter knows
                return False
            single = desc >> 5 & 1
            self._checksum = bool(desc & 0x04)
            rest = (0 if single else 1) + _DID_SIZE[desc & 3] + (_FCS_SIZE[desc >> 6] or single)
            self._pass(rest, ends_block=False, ends_frame=False)
            return True
        if not is_zstd_start(head):
            return False
        if self._need == 5:
            self._need = 8  # a skippable frame: magic, 4-byte size, then its content
            self.skippable += 1
            return True
        self._checksum = False
        self._pass(int.from_bytes(head[4:8], "little"), ends_block=True, ends_frame=True)
        return True

    def _pass(self, count: int, *, ends_block: bool, ends_frame: bool) -> None:
        self._head = b""
        self._need = 0
        self._left = count
        self._ends_block = ends_block
        self._ends_frame = ends_frame
        if not count:  # nothing to pass: the unit ends at once
            self._end_pass()


class ZstdStreamError(Exception):
    """The compressed stream cannot be read to its end.

    `kind`: "truncated" (input ends inside a frame), "corrupt" (a frame fails to decode),
    "trailing_garbage" (bytes after the last complete frame that are not a frame),
    "too_large" (the output cap was reached), "window_too_large" (a valid frame that needs
    a bigger decoding window than the cap, e.g. written by `zstd --long=31`). `frames`
    complete frames were read before it.
    """

    def __init__(self, kind: str, message: str, frames: int, compressed_offset: int) -> None:
        super().__init__(message)
        self.kind = kind
        self.frames = frames
        self.compressed_offset = compressed_offset


class _Feed:
    """The compressed input as the decoder pulls it: one `BlockCutter` piece per read."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._pending = memoryview(b"")
        self.cutter = BlockCutter()
        self.eof = False

    def read(self, size: int = -1) -> memoryview | bytes:
        if self.cutter.skippable > MAX_SKIPPABLE:  # the decoder sees an end; the reader says why
            return b""
        if not self._pending:
            if self.eof:
                return b""
            chunk = self._raw.read(READ)
            if not chunk:
                self.eof = True
                return b""
            self._pending = memoryview(chunk)
        cut = self.cutter.cut(self._pending)
        piece, self._pending = self._pending[:cut], self._pending[cut:]
        return piece


# zstandard's words for a decoding error, as the reports have always quoted them
_ERROR_PREFIX = ("zstd decompress error: ", "zstd decompressor error: ")


class ZstdReader:
    """A binary reader over the decompressed bytes of all the frames of `raw`.

    `read()` returns pieces of about 1 MiB (b"" at the end), `readinto(buf)` fills `buf`, and
    both raise ZstdStreamError when the stream is truncated, corrupt, followed by garbage or
    too large: the caller has then seen every byte that was decoded before the problem, and
    knows the stream is INCOMPLETE.
    """

    def __init__(self, raw: BinaryIO, max_output: int = DEFAULT_MAX_OUTPUT) -> None:
        self._raw = raw
        self._feed = _Feed(raw)
        self._reader = zstandard.ZstdDecompressor().stream_reader(
            self._feed,  # type: ignore[arg-type]  # any object with read() is a source
            read_size=READ, read_across_frames=True)
        self.output = 0
        self.max_output = max_output
        self._done = False
        self._error: ZstdStreamError | None = None  # raised by the read after the current

    @property
    def frames(self) -> int:
        return self._feed.cutter.frames

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        """At most `size` bytes (about 1 MiB when `size` is negative); b"" at the end."""
        want = size if size is not None and size >= 0 else OUT_TARGET
        if not want:
            return b""
        buf = bytearray(min(want, OUT_TARGET))
        n = self.readinto(buf)
        return bytes(buf) if n == len(buf) else bytes(memoryview(buf)[:n])

    def readinto(self, buf) -> int:
        """Decode into `buf` (a writable buffer), straight from the decoder: the trajectory
        verifier decodes into the worker's shared slot; what does not fit stays in the
        decoder. Fills `buf` but at the end of the stream; 0 at the end."""
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        if self._done:
            return 0
        view = memoryview(buf).cast("B")
        size = len(view)
        n = 0
        cutter = self._feed.cutter
        while n < size:
            try:
                got = self._reader.readinto1(view[n:])
            except zstandard.ZstdError as exc:
                error = self._decode_error(exc)
                if not n:
                    raise error from None
                self._error = error  # what was decoded before it is handed over first
                return n
            if not got:
                ended = self._at_end()
                if ended is None:
                    break
                if not n:
                    raise ended
                self._error = ended
                return n
            self.output += got
            consumed = cutter.pos
            if cutter.frames > MANY_FRAMES and self.output < MIN_FRAME_BYTES * cutter.frames:
                error = self._fail("too_large", (
                    f"{cutter.frames} zstd frames by compressed offset {consumed} hold "
                    f"{self.output} bytes, fewer than {MIN_FRAME_BYTES} a frame: no writer "
                    "frames a log that finely (one line a frame is the finest); the rest was "
                    "not read"))
                if not n:
                    raise error
                self._error = error
                return n
            if self.output > self.max_output or bomb_ratio(self.output, consumed):
                error = self._fail("too_large", (
                    f"decompressed output exceeds the cap of {self.max_output} bytes"
                    if self.output > self.max_output else bomb_message(self.output, consumed)))
                if not n:
                    raise error
                self._error = error
                return n
            n += got
        return n

    def _fail(self, kind: str, message: str) -> ZstdStreamError:
        self._done = True
        cutter = self._feed.cutter
        return ZstdStreamError(kind, message, cutter.piece_frames, cutter.frame_start)

    def _skippable_flood(self) -> ZstdStreamError | None:
        cutter = self._feed.cutter
        if cutter.skippable <= MAX_SKIPPABLE:
            return None
        return self._fail("too_large", (
            f"more than {MAX_SKIPPABLE} skippable zstd frames (frames that hold no data), by "
            f"compressed offset {cutter.pos}: no encoder writes that many; the rest was not read"))

    def _decode_error(self, exc: zstandard.ZstdError) -> ZstdStreamError:
        flood = self._skippable_flood()
        if flood is not None:
            return flood
        cutter = self._feed.cutter
        frames, head = cutter.piece_frames, cutter.frame_head
        if frames and not is_zstd_start(head):
            return self._fail(
                "trailing_garbage",
                f"bytes after the end of zstd frame {frames} "
                f"(at compressed offset {cutter.frame_start}) are not a zstd frame")
        window = window_size(head)
        if window is not None and window > MAX_WINDOW:
            return self._fail(
                "window_too_large",
                f"zstd frame {frames + 1} needs a {window >> 20} MiB decoding window "
                + ("(written with `zstd --long` or a high level?)" if window <= 1 << 31 else
                   "(more than any zstd encoder writes: 2048 MiB)")
                + f"; this tool decodes windows "
                f"of up to {MAX_WINDOW >> 20} MiB to keep memory bounded: recompress with "
                "`zstd --long=27` or without --long")
        dictionary = _dictionary_id(head)
        if dictionary:  # a valid frame, not damage: name what it needs
            return self._fail(
                "corrupt",
                f"zstd frame {frames + 1} was compressed with a dictionary (id {dictionary}) "
                "that a trajectory does not carry, so it cannot be decoded: recompress "
                "without a dictionary (`zstd` without -D)")
        text = str(exc)
        if text.startswith(_ERROR_PREFIX[0]):
            text = _ERROR_PREFIX[1] + text[len(_ERROR_PREFIX[0]):]
        return self._fail("corrupt", f"corrupt zstd data in frame {frames + 1}: {text}")

    def _at_end(self) -> ZstdStreamError | None:
        """The decoder has nothing more: None when the input ended with a frame, else the
        error that says why not."""
        flood = self._skippable_flood()
        if flood is not None:
            return flood
        self._done = True
        cutter = self._feed.cutter
        cutter.piece_frames = cutter.frames
        if cutter.between_frames():
            if cutter.frames == 0:
                return ZstdStreamError("corrupt", "empty input: not a zstd stream", 0, 0)
            return None
        if cutter.frames and not is_zstd_start(cutter.frame_head):
            return ZstdStreamError(
                "trailing_garbage",
                f"{cutter.pos - cutter.frame_start} bytes after the end of zstd "
                f"frame {cutter.frames} are not a zstd frame", cutter.frames,
                cutter.frame_start)
        if cutter.lost:  # (the decoder reports what the cutter cannot follow: not seen here)
            return ZstdStreamError("corrupt", f"zstd data in frame {cutter.frames + 1} that "
                                   "cannot be followed to its end", cutter.frames,
                                   cutter.frame_start)
        return ZstdStreamError(
            "truncated",
            f"the zstd stream ends inside frame {cutter.frames + 1} "
            f"(compressed offset {cutter.frame_start}): the stream is truncated",
            cutter.frames, cutter.frame_start)

    def close(self) -> None:
        self._raw.close()


def decompress_all(data: bytes, max_output: int = DEFAULT_MAX_OUTPUT) -> bytes:
    """All frames of an in-memory zstd stream, with the same honesty (for tests, small files)."""
    import io

    reader = ZstdReader(io.BytesIO(data), max_output)
    parts = []
    while chunk := reader.read():
        parts.append(chunk)
    return b"".join(parts)
