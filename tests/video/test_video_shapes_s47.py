"""Partly stamped program streams (issue 12, review s46 R6; scripts/shapes_sweep_s47.py).

A program stream (MPEG-PS, `.mpg` / `.vob`) stamps a pack, not a frame: an H.264 / HEVC frame
that starts in a pack whose stamp went to an earlier frame has no time and no byte position
(`core/video/partly.py`). On 419dbe2 such a stream was renumbered one frame a tick only when
its stamps lay on one grid from the start, and read by its stamps otherwise (only the stamped
frames indexed, each shown until the next): stamped from 10 s, 27 of 60 moments wrong (87 of
150 frames); dropping frames (VFR), 30 of 60 (70 of 117); a 3 s gap, 37 of 60 (88 of 150);
HEVC VFR, 54 of 60 (15 of 103). Renumbered from its least stamp, the 10 s one showed frames
30 late (the lead's try): its second IDR had no byte position, the decoder sought it by a
time the file does not have and landed on the first. Now the frames are put in the order the
decoder shows them (the picture order count, `core/video/poc.py`), the stamped keep their
times, the others take FFmpeg's, and such an IDR is sought from the packet before it.

Each file is a few seconds made by the real ffmpeg in tmp_path; the truth is ffmpeg's own
decode (`video_corpus.pictures_at_moments`). Cost: ~3-5 s of CPU a case, 9 cases, serial.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.index import build_index
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.poc import pictures

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_X264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "2", "-pix_fmt",
         "yuv420p", "-threads", "1"]
_DROP = ["-vf", "select='not(eq(mod(n\\,7)\\,3)+eq(mod(n\\,11)\\,5))'", "-fps_mode", "vfr"]
# shape -> (encoder and muxer arguments, frames drawn); 30 fps
PS = {
    "h264_ps_from_10s": ([*_X264, "-output_ts_offset", "10", "-f", "vob"], 150),
    "h264_ps_vfr": ([*_DROP, *_X264, "-f", "vob"], 150),
    "h264_ps_gap_3s": (["-vf", "setpts='PTS+if(gte(N\\,60)\\,3/TB\\,0)'", "-fps_mode", "vfr",
                        *_X264, "-f", "vob"], 150),
    # two frames given one pack's time (QA s47 T3, review s47 R3: x264 with a GOP of 25, or
    # with no B-frames): read by its stamps, 368 of 550 frames on ba40f27
    "h264_ps_gop25_long": ([*_X264[:2], "-preset", "veryfast", "-g", "25", "-bf", "2",
                            "-pix_fmt", "yuv420p", "-threads", "1", "-f", "mpeg"], 660),
    "hevc_ps_vfr": (["-vf", "select='not(eq(mod(n\\,7)\\,3))'", "-fps_mode", "vfr", "-c:v",
                     "libx265", "-preset", "ultrafast", "-x265-params",
                     "log-level=none:keyint=30", "-pix_fmt", "yuv420p", "-f", "vob"], 120),
}


def _encoders() -> str:
    return subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                          text=True).stdout


@pytest.mark.parametrize("shape", list(PS))
def test_every_moment_of_a_partly_stamped_program_stream_is_ffmpegs_picture(tmp_path: Path,
                                                                            shape: str):
    if shape.startswith("hevc") and "libx265" not in _encoders():
        pytest.skip("this ffmpeg has no libx265 encoder")
    args, frames = PS[shape]
    path = vc.encode(tmp_path / "run.mpg", args, frames, "30")
    p, codes, moments, got, want = vc.pictures_at_moments(path, "v:0", 60, seed=46)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want


def test_a_stream_stamped_from_10_s_exports_the_frame_at_the_time_asked(tmp_path: Path):
    """The review's repro (s46 R6): `frame --time 1.0` and `--time 4.0` of the H.264 `.mpg`
    stamped from 10 s wrote frame 0 on 28d14d8, 28 and 118 on aeca8af; ffmpeg shows 30 and
    120. Frame 30 and 120 open GOPs whose IDR has no byte position (`FrameIndex.anchored`)."""
    args, frames = PS["h264_ps_from_10s"]
    path = vc.encode(tmp_path / "run.mpg", args, frames, "30")
    for t, want in ((1.0, 30), (4.0, 120)):
        out = tmp_path / f"f{want}.png"
        r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(path), "--time",
                            f"{t:.6f}", "-o", str(out)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == want


OPEN_GOP = [*_X264[:6], "-bf", "3", *_X264[8:], "-x264-params", "open-gop=1", "-f", "vob"]


@pytest.mark.parametrize("shape", ["h264_ps_from_10s", "h264_ps_open_gop"])
def test_a_keyframe_is_sought_where_it_is(tmp_path: Path, shape: str):
    """Frames 30, 60 and 120 of the stream stamped from 10 s are IDRs that start inside an
    earlier frame's pack: no byte position of their own. Sought from the packet before
    (`partly`), a read of a frame after one decodes from there: no fallback to an earlier
    keyframe or to the file's start (sought by their time instead, 3 of these 4 reads fell
    back). An open GOP's keyframes (x264 open-gop, 3 B-frames) are places to start too: the
    index had 1 keyframe of 5 (its first IDR), and every read decoded from the start."""
    args, frames = PS["h264_ps_from_10s"] if shape == "h264_ps_from_10s" else (OPEN_GOP, 150)
    path = str(vc.encode(tmp_path / "run.mpg", args, frames, "30"))
    index = build_index(open_container(path), 10**6)
    assert index.keyframe_pts.shape[0] == 5
    dec = ExactDecoder(open_container(path), index, reopen=lambda: open_container(path))
    for n in (125, 35, 95, 64):
        assert vc.read_code(dec.read(n).to_ndarray(format="rgb24")) == n
    assert (dec.seeks, dec.fallbacks) == (4, 0)


def test_two_partly_stamped_recordings_joined_play_one_after_the_other(tmp_path: Path):
    """Two H.264 `.mpg` captures joined by `cat`, each stamped from the muxer's start: on
    419dbe2 read by their stamps (102 of 180 frames, a moment of the second recording showed
    the first's last frame). Each recording is now read as above and the second placed one
    frame after the first's last (`partly._joined`; `Timeline` alone put it one frame late:
    the first's last frame has no stamp). ffmpeg's own times restart at the join, so the
    truth is the drawn frames 1/30 s apart: frame n of the second at 3 s + n / 30."""
    from moderator_app.core.video.export import frame_for_time, read_frames
    from moderator_app.core.video.probe import probe_video
    parts = [vc.encode(tmp_path / f"{k}.mpg", [*_X264, "-f", "vob"], 90, "30") for k in "ab"]
    path = tmp_path / "run.mpg"
    path.write_bytes(b"".join(p.read_bytes() for p in parts))
    p = probe_video(path, path.name)
    assert p.frame_count == vc.ffprobe_frames(path) == 180
    assert round(p.index.duration_s, 6) == 6.0
    rng = random.Random(47)
    moments = [2.99, 3.01, 3.04, 4.51, 5.99, *(rng.uniform(0, 6.0) for _ in range(15))]
    frames = [frame_for_time(p.index, t, None) for t in moments]
    got = [vc.read_code(img) for img in read_frames(path, p.index, frames)]
    assert got == [int(t * 30 + 1e-6) % 90 for t in moments]


def test_the_order_reader_never_raises_on_hostile_bytes():
    """`poc.pictures` reads untrusted bytes: a stream it does not follow orders nothing
    (None), it never raises. 300 packets of random bytes and of start codes with random
    headers, H.264 and HEVC; a plain H.264 SPS cut short; a packet of 200,000 SEIs and no
    slice (read to its 64th NAL unit, not each)."""
    rng = random.Random(47)
    for codec in ("h264", "hevc"):
        for _ in range(300):
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
            packet = b"\x00\x00\x01" + body if rng.random() < 0.8 else body
            got = pictures(codec, [packet, packet[: len(packet) // 2]])
            assert got is None or len(got) == 2
    assert pictures("h264", [b"\x00\x00\x01\x67\x64\x00"]) is None
    assert pictures("hevc", [b"\x00\x00\x01\x4e\x01" * 200_000]) is None  # SEIs, no slice
    assert pictures("vp9", [b"\x00\x00\x01\x65"]) is None
