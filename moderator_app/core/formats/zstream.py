"""Honest streaming zstd: every concatenated frame is read, and a stream that ends early is an
error, never a silently shorter stream.

`zstandard`'s stream reader returns short data without complaint when its input ends in the
middle of a frame (a truncated upload would verify as a shorter, valid chain). Here each frame
is decoded by its own `decompressobj()`, whose `eof` flag says the frame really ended; input is
fed in small slices so that one call cannot expand a few bytes into gigabytes (a zstd block of
at most 128 KiB can be stored in 4 bytes, a ratio of ~32,000), and the total output is capped.
The decompressor's default window limit (128 MiB) is kept, so a frame cannot demand more: a
valid frame written with a larger window (`zstd --long=31` on a pipe asks for 2 GiB) is
reported as such ("window_too_large"), never as corrupt. `read(size)` returns at most `size`
bytes: one decompress call may expand a 2 KB slice into 64 MiB (RLE blocks), and handing that
on whole made callers that read small pieces (tarfile) copy the rest again on every read.
"""

from __future__ import annotations

from typing import BinaryIO

import zstandard

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# Skippable frames: 0x184D2A50..0x184D2A5F, little-endian, so the last 3 bytes are fixed.
_SKIPPABLE_TAIL = b"\x2a\x4d\x18"

FEED = 2048  # input bytes per decompress call: at most ~64 MiB of output per call
READ = 1 << 20  # input bytes read from the file at once
OUT_TARGET = 1 << 20  # output handed to the caller in pieces of about this size
DEFAULT_MAX_OUTPUT = 64 << 30  # 64 GiB of decompressed trajectory is beyond any real run
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
    """The decoding window a frame asks for, from its first bytes (None when unknown)."""
    try:
        return int(zstandard.get_frame_parameters(head).window_size)
    except (zstandard.ZstdError, ValueError, TypeError):
        return None


class ZstdStreamError(Exception):
    """The compressed stream cannot be read to its end.

    `kind`: "truncated" (input ends inside a frame), "corrupt" (a frame fails to decode),
    "trailing_garbage" (bytes after the last complete frame that are not a frame),
    "too_large" (the output cap was reached), "window_too_large" (a valid frame that needs
    a bigger decoding window than the cap, e.g. written by `zstd --long=31`). `frames` complete frames were read before it.
    """

    def __init__(self, kind: str, message: str, frames: int, compressed_offset: int) -> None:
        super().__init__(message)
        self.kind = kind
        self.frames = frames
        self.compressed_offset = compressed_offset


class ZstdReader:
    """A binary reader over the decompressed bytes of all the frames of `raw`.

    `read()` returns pieces of about 1 MiB (b"" at the end) and raises ZstdStreamError when the
    stream is truncated, corrupt, followed by garbage or too large: the caller has then seen
    every byte that was decoded before the problem, and knows the stream is INCOMPLETE.
    """

    def __init__(self, raw: BinaryIO, max_output: int = DEFAULT_MAX_OUTPUT) -> None:
        self._raw = raw
        self._dctx = zstandard.ZstdDecompressor()
        self._dobj: zstandard.ZstdDecompressionObj | None = None  # the decoder of the frame in progress, None between frames
        self._frame_head = b""  # first bytes of the frame in progress (to tell garbage)
        self._frame_start = 0
        self._pending = memoryview(b"")  # compressed input not yet fed
        self._consumed = 0  # compressed bytes fed so far
        self._eof = False
        self.frames = 0
        self.output = 0
        self.max_output = max_output
        self._done = False
        self._error: ZstdStreamError | None = None  # raised by the read after the current
        self._held = b""  # decoded bytes not yet handed out (`read` returns at most `size`)
        self._held_pos = 0

    def readable(self) -> bool:
        return True

    def _fail(self, kind: str, message: str) -> ZstdStreamError:
        self._done = True
        return ZstdStreamError(kind, message, self.frames, self._frame_start)

    def _feed(self, piece: memoryview, out: list[bytes]) -> None:
        """Decode `piece`, starting new frames as earlier ones end."""
        while piece:
            if self._dobj is None:
                self._dobj = self._dctx.decompressobj()
                self._frame_head = bytes(piece[:_HEAD])
                self._frame_start = self._consumed
            elif len(self._frame_head) < _HEAD:
                self._frame_head += bytes(piece[:_HEAD - len(self._frame_head)])
            piece = self._decode(piece, out)

    def _decode(self, piece: memoryview, out: list[bytes]) -> memoryview:
        """Decode `piece` in the frame in progress; what is left of it when the frame ended
        inside it."""
        dobj = self._dobj
        assert dobj is not None  # `_feed` starts a frame before decoding in it
        try:
            data = dobj.decompress(piece)
        except zstandard.ZstdError as exc:
            if self.frames and not is_zstd_start(self._frame_head):
                raise self._fail(
                    "trailing_garbage",
                    f"bytes after the end of zstd frame {self.frames} "
                    f"(at compressed offset {self._frame_start}) are not a zstd frame",
                ) from None
            window = window_size(self._frame_head)
            if window is not None and window > MAX_WINDOW:
                raise self._fail(
                    "window_too_large",
                    f"zstd frame {self.frames + 1} needs a {window >> 20} MiB decoding window "
                    f"(written with `zstd --long` or a high level?); this tool decodes windows "
                    f"of up to {MAX_WINDOW >> 20} MiB to keep memory bounded: recompress with "
                    "`zstd --long=27` or without --long") from None
            raise self._fail("corrupt", f"corrupt zstd data in frame {self.frames + 1}: "
                                        f"{exc}") from None
        if data:
            self.output += len(data)
            if self.output > self.max_output:
                raise self._fail("too_large", f"decompressed output exceeds the cap of "
                                              f"{self.max_output} bytes")
            if bomb_ratio(self.output, self._consumed + len(piece)):
                raise self._fail("too_large", bomb_message(self.output,
                                                           self._consumed + len(piece)))
            out.append(data)
        if dobj.eof:
            used = len(piece) - len(dobj.unused_data)
            self._consumed += used
            self._dobj = None
            self.frames += 1
            return piece[used:]
        self._consumed += len(piece)
        return piece[len(piece):]

    def read(self, size: int = -1) -> bytes:
        """At most `size` bytes (about 1 MiB when `size` is negative); b"" at the end."""
        want = size if size is not None and size >= 0 else OUT_TARGET
        if self._held:
            data = self._held[self._held_pos:self._held_pos + want]
            self._held_pos += len(data)
            if self._held_pos >= len(self._held):
                self._held, self._held_pos = b"", 0
            return data
        data = self._produce(max(1, min(want, OUT_TARGET)))
        if len(data) > want:  # one call expanded far beyond the request: hold the rest
            self._held, self._held_pos = data, want
            return data[:want]
        return data

    def _produce(self, target: int) -> bytes:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        if self._done:
            return b""
        out: list[bytes] = []
        got = 0
        while got < target:
            if not self._pending:
                if self._eof:
                    break
                chunk = self._raw.read(READ)
                if not chunk:
                    self._eof = True
                    break
                self._pending = memoryview(chunk)
            piece, self._pending = self._pending[:FEED], self._pending[FEED:]
            before = self.output
            try:
                if self._dobj is not None and len(self._frame_head) >= _HEAD:
                    piece = self._decode(piece, out)  # a frame in progress: the usual case
                if piece:
                    self._feed(piece, out)
            except ZstdStreamError as exc:
                if not out:
                    raise
                # What was decoded before the error is handed over first (those events are
                # verified and counted); the error comes with the next read.
                self._error = exc
                return b"".join(out)
            got += self.output - before
        if not out and self._eof:
            self._done = True
            if self._dobj is not None:
                if self.frames and not is_zstd_start(self._frame_head):
                    raise ZstdStreamError(
                        "trailing_garbage",
                        f"{self._consumed - self._frame_start} bytes after the end of zstd "
                        f"frame {self.frames} are not a zstd frame", self.frames,
                        self._frame_start)
                raise ZstdStreamError(
                    "truncated",
                    f"the zstd stream ends inside frame {self.frames + 1} "
                    f"(compressed offset {self._frame_start}): the stream is truncated",
                    self.frames, self._frame_start)
            if self.frames == 0:
                raise ZstdStreamError("corrupt", "empty input: not a zstd stream", 0, 0)
        return b"".join(out)

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
