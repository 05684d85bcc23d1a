"""core.frames: exact seeks checked against a sequential decode, VFR timestamps, back-step cache."""

from __future__ import annotations

import random
import shutil
import subprocess

import cv2
import numpy as np
import pytest
from ui_helpers import frame_number, make_numbered_video

from moderator_app.core.video.frames import (
    FrameSource,
    FrameTimes,
    TimestampScanner,
    open_capture,
    read_info,
)


def scanned(path) -> FrameTimes:
    cap = open_capture(path)
    info = read_info(cap)
    cap.release()
    times = FrameTimes(info)
    TimestampScanner(path, times).run()
    return times


def sequential_frames(path) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(path))
    out = []
    while True:
        ok, img = cap.read()
        if not ok:
            return out
        out.append(img)


@pytest.fixture(scope="module")
def h264(tmp_path_factory):
    if shutil.which("ffmpeg") is None:
        pytest.skip("ffmpeg CLI not installed")
    p = tmp_path_factory.mktemp("v") / "gop.mp4"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=160x90:rate=25", "-t", "8", "-c:v", "libx264", "-g", "50",
                    "-bf", "2", "-pix_fmt", "yuv420p", str(p)], check=True)
    return p


def test_scan_records_every_frame_time(tmp_path):
    p = make_numbered_video(tmp_path / "n.avi", 30, 10.0)
    times = scanned(p)
    assert len(times) == 30 and times.complete
    assert times.times == pytest.approx([i / 10 for i in range(30)], abs=1e-3)
    assert times.duration == pytest.approx(3.0, abs=1e-3)
    assert times.frame_at(1.0) == 10
    assert times.frame_at(1.04) == 10 and times.frame_at(1.1) == 11
    assert len(times.thumbs) >= 5  # one every 0.5 s


def test_exact_reads_in_random_order_match_a_sequential_decode(h264):
    ref = sequential_frames(h264)
    times = scanned(h264)
    assert len(times) == len(ref) == 200
    src = FrameSource(h264, times)
    order = list(range(len(ref)))
    random.Random(7).shuffle(order)
    for n in order[:40]:
        f = src.read(n)
        assert f is not None and f.index == n
        assert np.array_equal(f.image, ref[n]), f"frame {n} differs"
        assert f.time == pytest.approx(n / 25, abs=1e-3)


def test_stepping_backwards_hits_the_cache(h264):
    ref = sequential_frames(h264)
    src = FrameSource(h264, scanned(h264))
    src.read(150, FrameSource.BACK_STEP_CACHE)
    seeks = src.seeks
    for n in range(149, 149 - 40, -1):
        f = src.read(n, FrameSource.BACK_STEP_CACHE)
        assert np.array_equal(f.image, ref[n])
    assert src.seeks == seeks  # 40 steps back, no new seek


def test_variable_frame_rate_uses_decoded_timestamps(tmp_path):
    if shutil.which("ffmpeg") is None:
        pytest.skip("ffmpeg CLI not installed")
    p = tmp_path / "vfr.mkv"
    # 10 fps with a 0.5 s hole after frame 9: index / fps would be wrong from frame 10 on.
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=gray:size=64x48:rate=10", "-t", "3", "-vf",
                    "settb=1/1000,setpts='(N*100+if(gte(N\\,10)\\,500\\,0))'",
                    "-fps_mode", "passthrough", "-enc_time_base", "1:1000",
                    "-c:v", "mpeg4", "-q:v", "2", str(p)], check=True)
    times = scanned(p)
    assert times.time_of(9) == pytest.approx(0.9, abs=1e-3)
    assert times.time_of(10) == pytest.approx(1.5, abs=1e-3)  # not 1.0
    assert times.frame_at(1.2) == 9  # still showing frame 9 during the hole
    assert times.frame_at(1.55) == 10
    assert times.frame_duration_at(9) == pytest.approx(0.6, abs=1e-3)
    src = FrameSource(p, times)
    assert src.read(10).time == pytest.approx(1.5, abs=1e-3)


def test_preview_is_the_nearest_thumbnail(tmp_path):
    p = make_numbered_video(tmp_path / "n.avi", 30, 10.0)
    times = scanned(p)
    src = FrameSource(p, times)
    img = src.preview(2.0)
    assert img is not None
    assert frame_number(img) == 20  # the thumbnail taken at 2.0 s
    assert src.decoded == 0  # no decoding for a preview


def test_read_past_the_end_is_none(tmp_path):
    p = make_numbered_video(tmp_path / "n.avi", 10, 10.0)
    src = FrameSource(p, scanned(p))
    assert src.read(10) is None
    assert src.read(-1) is None
    assert frame_number(src.read(9).image) == 9


def test_unreadable_video_raises_oserror(tmp_path):
    p = tmp_path / "bad.mp4"
    p.write_bytes(b"not a video")
    with pytest.raises(OSError):
        FrameSource(p)
