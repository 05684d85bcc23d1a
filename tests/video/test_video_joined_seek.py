"""The picture after a seek in Matroska recordings joined byte for byte (`cat a.mkv b.mkv`;
session 25, issue 12: "the frame exported for each event is the true frame").

FFmpeg's Matroska demuxer is not told of a byte seek: a byte seek to a keyframe of the second
recording gave no packet, and every read there fell back to the keyframe before, then to a
decode from the start of the file (the right frame, the long way), and the probe's tail pass
(one such seek) found no frame and said "the end of the stream could not be decoded within the
probe's budget" on every such file. Each recording is now sought in a reader of its own
header (`joined_seek`). A capture stopped hard (a Segment of unknown size, no Cues) keeps the
byte seek, which works there. Files are built here by ffmpeg: 3 s + 4 s at 30 fps, long GOPs
(60) with 3 B-frames, the frame number drawn on across the recordings (frame n shows n)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import video_corpus as vc

from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_H264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-bf", "3", "-pix_fmt",
         "yuv420p", "-threads", "1"]
_VP9 = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "60",
        "-b:v", "300k", "-threads", "1"]
_SHAPES = {"h264": (_H264, "matroska", "mkv"), "vp9": (_VP9, "webm", "webm")}
_FRAMES = (90, 120)


def _joined(d: Path, shape: str, live: bool = False, frames: tuple[int, int] = _FRAMES
            ) -> Path:
    """Two recordings of `shape` (90 frames drawn 0-89, 120 drawn 90-209, or `frames`)
    joined byte for byte; `live`: each written to a pipe (no Cues, a Segment of unknown
    size)."""
    args, fmt, ext = _SHAPES[shape]
    parts = [vc.encode(d / f"{k}.{ext}", [*args, "-f", fmt], frames=n, first=first,
                       stdout=live)
             for k, (n, first) in enumerate(((frames[0], 0), (frames[1], frames[0])))]
    out = d / f"joined.{ext}"
    out.write_bytes(b"".join(p.read_bytes() for p in parts))
    return out


def _reads(path: Path, count: int = 24, seed: int = 25):
    """The probe, and each of `count` frames in random order (a seek after a seek) read by
    one decoder: [(frame, the number its picture shows)], the decoder (its counts)."""
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None and p.index.segments, [f.message for f in p.findings]
    assert p.frame_count == sum(_FRAMES)
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = random.Random(seed).sample(range(sum(_FRAMES)), count)
    got = []
    for n in frames:
        f = dec.read(n)
        got.append((n, None if f is None else vc.read_code(f.to_ndarray(format="rgb24"))))
    return p, got, dec


@pytest.mark.parametrize("shape", ["h264", "vp9"])
def test_each_seek_into_joined_matroska_decodes_from_its_own_keyframe(tmp_path, shape):
    """24 random reads: each the true frame, none fell back (before: 10 of the 24 reads, of
    H.264 and of VP9 alike, fell back to a decode from an earlier keyframe or the start),
    and each decode is at most its keyframe's stretch to the frame and the decoder's
    reordering (4 frames)."""
    p, got, dec = _reads(_joined(tmp_path, shape))
    assert got == [(n, n) for n, _ in got]
    assert dec.fallbacks == 0
    assert p.index is not None
    assert dec.decoded <= sum(n - p.index.keyframe_index(n) + 1 + 4 for n, _ in got)


def test_the_probe_decodes_a_long_last_joined_recording_to_its_end(tmp_path):
    """The probe's tail pass seeks 60, then 600 frames before the end
    (`child_probe.TAIL_PASSES`): in a second recording of 720 frames both seeks are inside
    it, found no frame, and the probe said "the end of the stream could not be decoded
    within the probe's budget" (a false video.probe_incomplete, on every such file)."""
    path = _joined(tmp_path, "h264", frames=(90, 720))
    p = probe_video(path, path.name)
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.frame_count == 810


def test_a_joined_capture_stopped_hard_keeps_its_byte_seeks(tmp_path):
    """Recordings written to a pipe (no Cues, Segments of unknown size: the walk of the top
    level finds no second header): the byte seek, which lands there; a reader from the start
    sought by a restarted time fell back on 12 of 20 reads."""
    _, got, dec = _reads(_joined(tmp_path, "h264", live=True))
    assert got == [(n, n) for n, _ in got]
    assert dec.fallbacks == 0


def test_the_exported_frame_at_random_moments_of_joined_matroska(tmp_path):
    """What `moderator-app frame` and File > Save frame read (`read_frames`, one video
    process, in random order): at 20 moments, the frame shown is the one drawn then."""
    path = _joined(tmp_path, "h264")
    p = probe_video(path, path.name)
    assert p.index is not None
    rng = random.Random(12)
    moments = [rng.uniform(0, 7.0) for _ in range(20)]
    frames = [frame_for_time(p.index, t, no_footage=p.no_footage) for t in moments]
    assert frames == [int(t * 30 + 1e-9) for t in moments]
    got = [None if img is None else vc.read_code(img)
           for img in read_frames(path, p.index, frames)]  # type: ignore[arg-type]
    assert got == frames
