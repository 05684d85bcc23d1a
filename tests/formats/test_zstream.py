"""Honest zstd streams: all frames read; truncation, garbage, corruption and bombs are errors."""

from __future__ import annotations

import io

import pytest
import zstandard

from moderator_app.core.formats.zstream import ZstdReader, ZstdStreamError, decompress_all

DATA = b"".join(b'{"n":%d,"text":"%s"}\n' % (i, b"x" * (i % 50)) for i in range(3000))


def _frames(n: int) -> bytes:
    step = -(-len(DATA) // n)
    c = zstandard.ZstdCompressor(write_checksum=True)
    return b"".join(c.compress(DATA[i:i + step]) for i in range(0, len(DATA), step))


@pytest.mark.parametrize("frames", [1, 2, 7])
def test_all_concatenated_frames_are_read(frames):
    reader = ZstdReader(io.BytesIO(_frames(frames)))
    out = b"".join(iter(reader.read, b""))
    assert out == DATA and reader.frames == frames


def test_skippable_frames_are_skipped():
    skip = b"\x50\x2a\x4d\x18" + (5).to_bytes(4, "little") + b"hello"
    z = _frames(2)
    assert decompress_all(skip + z + skip) == DATA


def test_every_truncation_is_an_error_or_a_frame_boundary():
    z = _frames(3)
    boundaries = set()
    pos = 0
    for part in (_frames(3),):
        dctx = zstandard.ZstdDecompressor()
        while pos < len(part):
            obj = dctx.decompressobj()
            obj.decompress(part[pos:])
            pos = len(part) - len(obj.unused_data)
            boundaries.add(pos)
    for cut in range(0, len(z), 7):
        try:
            decompress_all(z[:cut])
        except ZstdStreamError as exc:
            assert exc.kind in ("truncated", "corrupt")
            assert cut not in boundaries or cut == 0
        else:
            assert cut in boundaries


def test_trailing_garbage():
    for garbage in (b"x", b"garbage!", b"\x00" * 40):
        with pytest.raises(ZstdStreamError) as exc:
            decompress_all(_frames(2) + garbage)
        assert exc.value.kind == "trailing_garbage" and exc.value.frames == 2


def test_corrupt_block_is_detected():
    z = bytearray(_frames(1))
    z[len(z) // 2] ^= 0xFF
    with pytest.raises(ZstdStreamError) as exc:
        decompress_all(bytes(z))
    assert exc.value.kind == "corrupt"


def test_output_cap_stops_a_bomb_with_flat_memory():
    bomb = zstandard.ZstdCompressor(level=1).compress(b"\0" * (100 << 20))
    assert len(bomb) < 100_000
    reader = ZstdReader(io.BytesIO(bomb), max_output=8 << 20)
    biggest = 0
    with pytest.raises(ZstdStreamError) as exc:
        while chunk := reader.read():
            biggest = max(biggest, len(chunk))
    assert exc.value.kind == "too_large"
    assert biggest <= 80 << 20


def test_not_zstd_at_all():
    with pytest.raises(ZstdStreamError) as exc:
        decompress_all(b'{"a":1}\n')
    assert exc.value.kind == "corrupt"
