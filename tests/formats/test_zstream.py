"""Honest zstd streams: all frames read; truncation, garbage, corruption and bombs are errors."""

from __future__ import annotations

import io

import pytest
import zstandard

from moderator_app.core.formats.zstream import (
    ZSTD_MAGIC,
    ZstdReader,
    ZstdStreamError,
    decompress_all,
)

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


def test_a_flood_of_skippable_frames_is_refused_and_a_few_thousand_are_read():
    """QA session 11 (h19): 16 million empty skippable frames (128 MB, 189 KB as .tar.gz)
    before a valid trajectory took 41 s of CPU and passed; each frame costs a Python step. More
    than MAX_SKIPPABLE is now "too_large", with the reason; thousands (pzstd writes one per
    data frame) still read."""
    from moderator_app.core.formats.zstream import MAX_SKIPPABLE

    empty = b"\x5f\x2a\x4d\x18" + bytes(4)
    assert decompress_all(empty * 5_000 + _frames(3)) == DATA
    reader = ZstdReader(io.BytesIO(empty * (MAX_SKIPPABLE + 1) + _frames(3)))
    with pytest.raises(ZstdStreamError) as err:
        reader.read()
    assert err.value.kind == "too_large"
    assert f"more than {MAX_SKIPPABLE} skippable zstd frames" in str(err.value)


def test_a_flood_of_tiny_data_frames_is_refused_and_a_frame_a_line_is_read():
    """Session 15: data frames holding a byte each cost a Python step each like skippable ones
    (1,000,000 of them, 10 MB, took 5.8 s of CPU and 43 s at load 20, and passed). Past
    MANY_FRAMES frames averaging under MIN_FRAME_BYTES of output: "too_large". A writer that
    frames every line (150,000 frames of a 75-byte line each) still reads."""
    from moderator_app.core.formats.zstream import MANY_FRAMES, MIN_FRAME_BYTES

    c = zstandard.ZstdCompressor(level=1)
    one_byte = c.compress(b"x")
    reader = ZstdReader(io.BytesIO(one_byte * (MANY_FRAMES + 50_000)))
    with pytest.raises(ZstdStreamError) as err:
        while reader.read():
            pass
    assert err.value.kind == "too_large"
    assert f"{MANY_FRAMES + 1} zstd frames by compressed offset" in str(err.value)
    assert f"fewer than {MIN_FRAME_BYTES} a frame" in str(err.value)
    assert reader.output == MANY_FRAMES + 1  # stopped at the first frame past the check
    line = b'{"seq":%d,"type":"action","data":{"key":"A"},"at":"2026-01-01T00:00:00Z"}\n'
    lines = [line % i for i in range(MANY_FRAMES + 50_000)]
    assert decompress_all(b"".join(c.compress(x) for x in lines)) == b"".join(lines)


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


def test_a_window_past_what_any_encoder_writes_is_named_not_called_corrupt():
    """s28 hostile sweep: a frame whose window byte says 3.75 TiB (the format's largest;
    zstandard will not describe a header past 2 GiB) was "corrupt zstd data ... Frame
    requires too much memory". It is named as the window it asks for, after one frame read."""
    params = zstandard.ZstdCompressionParameters.from_level(3, window_log=20,
                                                            write_content_size=0)
    frame = bytearray(zstandard.ZstdCompressor(compression_params=params).compress(DATA))
    assert not frame[4] & 0x20  # not single-segment: its window byte is frame[5]
    frame[5] = 0xFF
    with pytest.raises(ZstdStreamError) as exc:
        decompress_all(_frames(1) + bytes(frame))
    assert exc.value.kind == "window_too_large" and exc.value.frames == 1
    assert str(exc.value).startswith(
        "zstd frame 2 needs a 3932160 MiB decoding window (more than any zstd encoder writes: "
        "2048 MiB); this tool decodes windows of up to 128 MiB")


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


def _block(kind: int, content: bytes, size: int | None = None, last: bool = False) -> bytes:
    """A hand-made zstd block: raw (0) or RLE (1, `size` copies of its one byte)."""
    word = (size if size is not None else len(content)) << 3 | kind << 1 | int(last)
    return word.to_bytes(3, "little") + content


def _hand_frame(blocks: list[bytes]) -> bytes:
    # magic, descriptor (no checksum, no content size), window byte (1 KiB)
    return ZSTD_MAGIC + b"\x00\x00" + b"".join(blocks)


def test_many_tiny_blocks_and_empty_ones_decode_and_every_cut_is_honest():
    """Blocks no encoder writes (empty raw blocks, 1-byte raw blocks, RLE blocks) go to the
    decoder together; the stream still decodes, and a cut anywhere inside a frame is an
    error, at a frame boundary not."""
    blocks = [_block(0, b""), _block(0, b"a"), _block(1, b"z", 1000), _block(0, b"")] * 40
    frame = _hand_frame([*blocks, _block(0, b"end\n", last=True)])
    skip = b"\x51\x2a\x4d\x18" + (3).to_bytes(4, "little") + b"abc"
    z = frame + skip + frame
    want = (b"a" + b"z" * 1000) * 40 + b"end\n"
    reader = ZstdReader(io.BytesIO(z))
    assert b"".join(iter(reader.read, b"")) == want * 2 and reader.frames == 3
    for cut in range(1, len(z)):
        try:
            decompress_all(z[:cut])
        except ZstdStreamError as exc:  # (a frame's first bytes cut short cannot be told
            assert exc.kind in ("truncated", "trailing_garbage"), cut  # from garbage)
            assert cut not in (len(frame), len(frame) + len(skip))
        else:
            assert cut in (len(frame), len(frame) + len(skip))


@pytest.mark.parametrize("size", [1, 1000, 5000, 1 << 20])
def test_readinto_fills_the_buffer_and_holds_the_rest(size):
    z = _frames(3)
    reader = ZstdReader(io.BytesIO(z))
    buf = bytearray(size)
    got = []
    while n := reader.readinto(buf):
        assert n == size or len(b"".join(got)) + n == len(DATA)  # full but the last
        got.append(bytes(buf[:n]))
    assert b"".join(got) == DATA


def test_a_decoding_error_keeps_the_blocks_decoded_before_it():
    """One block per decoder read: a damaged block costs its own output, not its neighbours'."""
    good = [_block(0, b"%04d\n" % i * 120) for i in range(50)]  # 600 bytes: not tiny
    bad = b"\xff\xff\xff"  # a reserved block type: the decoder refuses it
    reader = ZstdReader(io.BytesIO(_hand_frame([*good, bad])))
    out = b""
    with pytest.raises(ZstdStreamError) as exc:
        while chunk := reader.read():
            out += chunk
    assert exc.value.kind == "corrupt" and exc.value.frames == 0
    assert out == b"".join(b"%04d\n" % i * 120 for i in range(50))
