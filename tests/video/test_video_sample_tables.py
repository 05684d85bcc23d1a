"""MP4 sample tables that lie about their size (session 16 hostile pass, issue 15).

FFmpeg's MP4 demuxer builds its whole sample index on opening the file, from the counts the
file states: a 284 KB MP4 whose `stsz` said 10,000,000 one-byte samples took the video
process to 1,012 MB and 49 s, and under a 512 MiB cap the report said "no frame of the video
can be decoded". The sample tables are now read first (`core.video.mp4_tables`); a table
whose samples are not in the file, or more samples than the index cap, is refused with the
reason, before any decoder runs. The files are the sample video with its `moov` rewritten
(it is the last box, so no data offset moves)."""

from __future__ import annotations

import struct
from pathlib import Path

from moderator_app.core.thresholds import VideoLimits
from moderator_app.core.video.probe import probe_video

SAMPLE = Path(__file__).resolve().parents[2] / "resources/samples/community-sample/video.mp4"
_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}


def _parse(b: bytes) -> list:
    out, off = [], 0
    while off < len(b):
        size, typ = struct.unpack(">I4s", b[off:off + 8])
        body = b[off + 8:off + size]
        out.append([typ, _parse(body) if typ in _CONTAINERS else body])
        off += size
    return out


def _build(tree: list) -> bytes:
    out = b""
    for typ, body in tree:
        raw = _build(body) if isinstance(body, list) else body
        out += struct.pack(">I4s", len(raw) + 8, typ) + raw
    return out


def _walk(tree: list):
    for node in tree:
        yield node
        if isinstance(node[1], list):
            yield from _walk(node[1])


def rewritten(path: Path, count: int, sizes: bytes | None = None, pad: int = 0) -> Path:
    """The sample video whose one track states `count` samples in one chunk at the start of
    `mdat`: each of 1 byte (`sizes` None, a 12-byte table) or sized by `sizes` (4 bytes
    each); `pad` zero bytes appended in a `free` box."""
    data = SAMPLE.read_bytes()
    tree = _parse(data)
    mdat = data.index(b"mdat") + 4
    for node in _walk(tree):
        typ = node[0]
        if typ == b"stts":
            node[1] = struct.pack(">4xIII", 1, count, 1)
        elif typ == b"stsz":
            node[1] = struct.pack(">4xII", 1, count) if sizes is None else \
                struct.pack(">4xII", 0, count) + sizes
        elif typ == b"stsc":
            node[1] = struct.pack(">4xIIII", 1, 1, count, 1)
        elif typ == b"stco":
            node[1] = struct.pack(">4xII", 1, mdat)
        elif typ == b"stss":
            node[1] = struct.pack(">4xII", 1, 1)
    tail = struct.pack(">I4s", 8 + pad, b"free") + bytes(pad) if pad else b""
    path.write_bytes(_build(tree) + tail)
    return path


def test_ten_million_samples_in_a_small_file_are_refused_before_decoding(tmp_path):
    p = rewritten(tmp_path / "video.mp4", 10_000_000)
    size = p.stat().st_size
    probe = probe_video(p, "video.mp4")
    assert not probe.ok
    assert [(f.rule, f.message) for f in probe.findings] == [(
        "video.too_large",
        f"track 1's sample table lists 10,000,000 samples of 10,000,000 bytes in all, in a "
        f"file of {size:,} bytes: samples that are not in the file; not read")]


def test_more_samples_than_the_index_cap_are_refused(tmp_path):
    # 3,000 samples of 0-1 bytes, each size in the table: in the file, but over a cap of 2,000
    sizes = struct.pack(">3000I", *([1, 0] * 1500))
    p = rewritten(tmp_path / "video.mp4", 3000, sizes)
    probe = probe_video(p, "video.mp4", VideoLimits(max_index_frames=2000))
    assert [(f.rule, f.message) for f in probe.findings] == [(
        "video.too_large",
        "the sample tables list 3,000 samples or more (limit 2,000): the index alone would "
        "exceed the memory bound; not read")]
    # the same table under the cap is read (its one-byte packets decode to nothing)
    assert "video.too_large" not in {
        f.rule for f in probe_video(p, "video.mp4", VideoLimits(max_index_frames=4000)
                                       ).findings}


def test_the_honest_sample_is_read_as_before():
    probe = probe_video(SAMPLE, "video.mp4")
    assert probe.ok and probe.frame_count == 276 and not probe.findings


def test_packets_that_never_decode_stop_at_the_probes_budget(tmp_path):
    """200,000 one-byte packets, all in the file: reading frame 0 decoded every one of them
    before saying "no frame can be decoded" (2,000,000 took 35 s); now the first frame's
    search stops at the probe's CPU budget and says so."""
    p = rewritten(tmp_path / "video.mp4", 200_000, pad=200_000)
    probe = probe_video(p, "video.mp4", VideoLimits(time_budget_s=1.0))
    (f,) = probe.findings
    assert f.rule == "video.unreadable", f.message
    assert f.message.endswith("packets decoded within the probe's budget (1 CPU seconds, and at "
                              "least 2 s for the first frame): not read further")


def test_a_matroska_with_attachments_over_32_mib_is_refused_before_decoding(tmp_path):
    """A 100 MB attachment took ffprobe to 460 MB and the workstation's video process to
    754 MB (FFmpeg's demuxer holds every attachment whole, several times over); the PASS came
    at that price. Attachments over 32 MiB in all are now refused, named."""
    import subprocess

    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(range(256)) * (33 << 12))  # 34,603,008 bytes
    out = tmp_path / "video.mkv"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(SAMPLE), "-attach",
                    str(blob), "-metadata:s:t", "mimetype=application/octet-stream", "-c",
                    "copy", str(out)], check=True)
    probe = probe_video(out, "video.mkv")
    (f,) = probe.findings
    assert (f.rule, not probe.ok) == ("video.too_large", True)
    assert f.message.startswith("the file carries 34,603,")
    assert f.message.endswith(" bytes of attachments (limit 33,554,432): the demuxer would "
                              "hold them in memory several times over; not read")


def test_a_truncated_mp4_with_its_index_in_front_is_read_to_where_it_ends(tmp_path):
    """A recording or an upload cut short with its `moov` in front (`+faststart`): its
    sample table lists samples that are not in the file. It was refused whole as
    `video.too_large` (QA s23 Q2: 30 s cut at 55 %, no frame, no time) where FFmpeg decodes
    what is there. A table of at most MAX_SAMPLES_NOT_IN_FILE samples is now read: the
    frames in the file, and `video.truncated` from where they end."""
    import subprocess

    from video_corpus import ffprobe_frames

    from moderator_app.core.video.mp4_tables import MAX_SAMPLES_NOT_IN_FILE

    whole = tmp_path / "whole.mp4"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i",
                    "testsrc2=s=160x120:r=25:d=8", "-c:v", "libx264", "-preset", "ultrafast",
                    "-g", "25", "-bf", "0", "-pix_fmt", "yuv420p", "-threads", "1",
                    "-movflags", "+faststart", str(whole)], check=True)
    data = whole.read_bytes()
    p = tmp_path / "video.mp4"
    p.write_bytes(data[:len(data) // 2])
    probe = probe_video(p, "video.mp4")
    # as ffprobe counts them (100 here: 4.0 s of 8, the 101st frame's bytes cut short)
    assert probe.ok and probe.frame_count == ffprobe_frames(p) == 100
    assert probe.duration_s == 4.0
    truncated = [f for f in probe.findings if f.rule == "video.truncated"]
    assert [(f.video_start_s, f.video_end_s) for f in truncated] == [(probe.duration_s, 8.0)]
    assert "video.too_large" not in {f.rule for f in probe.findings}
    # a table that lies by more samples than that is refused as before
    n = MAX_SAMPLES_NOT_IN_FILE + 1
    big = rewritten(tmp_path / "big.mp4", n, struct.pack(f">{n}I", *([1000] * n)))
    (f,) = probe_video(big, "video.mp4").findings
    assert f.rule == "video.too_large" and f.message.startswith(
        f"track 1's sample table lists {n:,} samples of {n * 1000:,} bytes in all")


def _pcm_mov(tmp_path: Path) -> Path:
    """10 s of 64x48 MJPEG at 10 fps beside 48 kHz PCM in QuickTime, as a capture card writes
    it: the sound's `stsz` is one size for 480,000 samples, its `stts` one run of duration 1."""
    import subprocess

    out = tmp_path / "video.mov"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i",
                    "testsrc2=s=64x48:r=10:d=10", "-f", "lavfi", "-i",
                    "sine=frequency=440:sample_rate=48000:duration=10", "-c:v", "mjpeg",
                    "-c:a", "pcm_s16be", "-threads", "1", str(out)], check=True)
    return out


def test_uncompressed_sound_is_counted_as_ffmpeg_indexes_it(tmp_path):
    """QA s26 T1: a MOV with 48 kHz PCM over ~44 s was refused as `video.too_large`: its
    2,400,000 sound samples were counted against the index cap, where FFmpeg indexes such a
    track by chunk (pieces of >= 160 samples). Here 480,000 samples under a cap of 100,000."""
    p = _pcm_mov(tmp_path)
    probe = probe_video(p, "video.mov", VideoLimits(max_index_frames=100_000))
    assert probe.ok and probe.frame_count == 100
    assert "video.too_large" not in {f.rule for f in probe.findings}


def test_a_sound_chunk_stating_billions_of_samples_is_still_refused(tmp_path):
    """Counted by chunk, a chunk's stated samples still make FFmpeg's pieces: the sound
    track's `stsc` rewritten to 4,000,000,000 samples a chunk is refused before decoding."""
    p = _pcm_mov(tmp_path)
    data = bytearray(p.read_bytes())
    tree = _parse(bytes(data))
    (sound,) = [t for t in _walk(tree) if t[0] == b"trak"
                and any(n[0] == b"hdlr" and n[1][8:12] == b"soun" for n in _walk(t[1]))]
    (stsc,) = [n[1] for n in _walk(sound[1]) if n[0] == b"stsc"]
    runs = struct.unpack(">I", stsc[4:8])[0]
    patched = stsc[:8] + b"".join(
        stsc[8 + 12 * i:12 + 12 * i] + struct.pack(">I", 4_000_000_000)
        + stsc[16 + 12 * i:20 + 12 * i] for i in range(runs))
    at = bytes(data).index(stsc)
    data[at:at + len(stsc)] = patched
    p.write_bytes(bytes(data))
    probe = probe_video(p, "video.mov", VideoLimits(max_index_frames=100_000))
    (f,) = probe.findings
    assert (f.rule, probe.ok) == ("video.too_large", False)
    assert f.message.startswith("the sample tables list ") and f.message.endswith(
        " samples or more (limit 100,000): the index alone would exceed the memory bound; "
        "not read")
