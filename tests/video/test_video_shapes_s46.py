"""Recording shapes of session 46's sweep (issue 12; scripts/shapes_sweep_s46.py).

Elementary streams, a video with no container around it: `.h264` / `.264` (a Raspberry Pi's raspivid, a hardware
encoder's dump), `.hevc` / `.h265`, `.m2v` and `.m1v`, all suffixes the submission lister
takes for the video.

Such a file keeps no times (`core/video/elementary.py`). Before session 46, raw H.264 and HEVC
(no packet has a time) were `video.empty`; raw MPEG-2, whose times FFmpeg's parser counts from
the start of the file, was read to 63 of 150 frames ("decode only to 2.520 s") with 36 of 64
moments the wrong picture; raw MPEG-1 was right but warned `video.header_mismatch` ("the header
says 0.023 s": FFmpeg's guess from the bit rate); an open-GOP keyframe (x264 `open-gop`, x265's
CRA) was a place to start decoding whose leading pictures the decode drops, so frames after it
were numbered 2-4 early.

H.264 in MPEG-PS (`.mpg`): a program stream stamps a pack, not a frame, and FFmpeg's H.264
parser fills in no time for the frames between; the index kept the 35 stamped frames of 150,
45 of 64 moments wrong. Such a stream is now read as an elementary one.

GXF (MPEG-2, a broadcast server's format; review s46 R1): its demuxer answers the first read
after a byte seek with EPERM, and `frame` exited 2 ("PermissionError"); such a file is now
sought by timestamp, and read from its start where that lands late.

Cut by bytes (`dd skip=`, a capture copied from the middle), an elementary stream starts with
packets no keyframe precedes, which never decode: they were frames of the index, and every
frame after them was numbered early (raw H.264: 96 frames for ffprobe's 90, 35 of 64 moments
wrong; raw MPEG-2: 92 for 75, 63 of 64).

Each file is a few seconds made by the real ffmpeg in the test's tmp_path, every picture
carrying its source frame number (`video_corpus.draw_frame`); the truth is ffmpeg's own decode.
Checked: the frame count is ffprobe's, no warning, 64 moments drawn at random (the decoder
seeks back and forth) export ffmpeg's picture, and `moderator-app frame --time` writes it too.
An HEVC stream of CRAs (x265's open GOP) cut by bytes has no IDR to number its frames from: it
showed 64 of 64 moments 7 frames off; it is `video.empty` (as before session 46), not others.

Cost: ~2-4 s of CPU a case, 11 cases.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
import video_corpus as vc

from moderator_app.core.formats.members import ROLE_VIDEO, classify
from moderator_app.core.rules import Severity
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

X264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1"]
X265 = ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-x265-params"]
MPEG = ["-q:v", "3", "-bf", "2", "-g", "15"]
# shape -> (file name, encoder and muxer arguments); 100 frames at 25 fps
RECIPES = {
    "h264_raw": ("run.h264", [*X264, "-bf", "2", "-g", "30", "-f", "h264"]),
    "h264_raw_open_gop": ("run.264", [*X264, "-bf", "3", "-g", "30", "-x264-params",
                                      "open-gop=1", "-f", "h264"]),
    "hevc_raw_cra": ("run.hevc", [*X265, "log-level=none:bframes=4:keyint=30:open-gop=1",
                                  "-f", "hevc"]),
    "mpeg2_raw_open_gop": ("run.m2v", ["-c:v", "mpeg2video", *MPEG, "-f", "mpeg2video"]),
    "mpeg1_raw": ("run.m1v", ["-c:v", "mpeg1video", *MPEG, "-f", "mpeg1video"]),
    # not elementary, but read as one: a pack of MPEG-PS is stamped, not each H.264 frame
    "h264_in_mpeg_ps": ("run.mpg", [*X264, "-bf", "2", "-g", "30", "-f", "mpeg"]),
}
NEEDS = {"hevc_raw_cra": "libx265"}


def _encoders() -> str:
    return subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                          text=True).stdout


@pytest.mark.parametrize("shape", list(RECIPES))
def test_every_moment_of_an_elementary_stream_is_ffmpegs_picture(tmp_path: Path, shape: str):
    if shape in NEEDS and NEEDS[shape] not in _encoders():
        pytest.skip(f"this ffmpeg has no {NEEDS[shape]} encoder")
    name, args = RECIPES[shape]
    path = vc.encode(tmp_path / name, args, 100, "25")
    p, codes, moments, got, want = vc.pictures_at_moments(path, "v:0", 64, seed=46)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes) == 100
    assert codes == list(range(100))
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
    t = moments[1]
    out = tmp_path / "f.png"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(path), "--time",
                        f"{t:.6f}", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == want[1]


def test_a_demuxer_that_fails_the_read_after_a_seek_is_read_another_way(tmp_path: Path):
    path = vc.encode(tmp_path / "run.gxf", ["-vf", "scale=720:576", "-c:v", "mpeg2video",
                                            "-b:v", "4M", "-f", "gxf"], 75, "25")
    p, codes, moments, got, want = vc.pictures_at_moments(path, "v:0", 64, seed=46)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes) == 75
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
    t = moments[2]
    out = tmp_path / "f.png"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(path), "--time",
                        f"{t:.6f}", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == want[2]


def test_raw_av1_and_smooth_streaming_mp4_are_the_video():
    """The sweep's raw AV1 (`ffmpeg -f obu`) and Smooth Streaming MP4 (`.ismv`) play exact
    (64 of 64 moments, counts = ffprobe's), but a folder holding one had no video
    (`input.no_video`): the lister did not know the suffix."""
    assert [classify(n, None) for n in ("run.obu", "run.ismv", "run.h264", "run.m2v")] == \
        [ROLE_VIDEO] * 4


@pytest.mark.parametrize("shape", ["h264_raw", "mpeg2_raw_open_gop"])
def test_an_elementary_stream_cut_by_bytes_starts_at_its_first_keyframe(tmp_path: Path,
                                                                         shape: str):
    name, args = RECIPES[shape]
    whole = vc.encode(tmp_path / f"whole{Path(name).suffix}", args, 100, "25").read_bytes()
    path = tmp_path / name
    path.write_bytes(whole[int(len(whole) * 0.37):])
    p, codes, moments, got, want = vc.pictures_at_moments(path, "v:0", 64, seed=46)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert codes == list(range(codes[0], 100))
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want


def test_an_hevc_stream_of_cras_cut_by_bytes_shows_no_wrong_frame(tmp_path: Path):
    if "libx265" not in _encoders():
        pytest.skip("this ffmpeg has no libx265 encoder")
    whole = vc.encode(tmp_path / "whole.hevc", [*X265, "log-level=none:bframes=3:keyint=30",
                                                "-f", "hevc"], 100, "25").read_bytes()
    path = tmp_path / "run.hevc"
    path.write_bytes(whole[int(len(whole) * 0.37):])
    p = probe_video(path, path.name)
    assert not p.ok
    assert [(f.rule, f.message) for f in p.findings] == [
        ("video.empty", "no frame of the video can be decoded")]


# review s46 R6's program streams stamped late, dropping frames or with a gap: now
# tests/video/test_video_shapes_s47.py (every moment exact)
