"""Recording shapes the session 23 sweep tried first (issue 12; scripts/qa_sweep_s23.py, the
table in docs/DECISIONS.md "Session 23: sweep"). Each file is made by the real ffmpeg in the
test's tmp_path, every picture carrying its source frame number (`video_corpus.draw_frame`); the
truth is ffmpeg's own decode of it.

A Matroska whose first frame is at 5 s (`-output_ts_offset 5`, a recording cut from a longer
one with its timestamps kept) is honest: FFmpeg writes its Duration and DURATION tag as the last
timestamp, 13.000 s, over 8.000 s of frames. It was warned `video.header_mismatch` ("the header
says 13.000 s but the frames' timestamps measure 8.000 s"). A header that says something else
than either still warns. Two more honest Matroska files said more than their frames for the
same reason, and were warned: one cut by stream copy at 2.1 s between key frames 4 s apart (its
first frame shown is at 1.9 s: "the header says 7.900 s" for 6.000 s) and one whose audio starts
at 0 s and video at 1.5 s ("9.523 s" for 8.000 s).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

X264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1"]


def _ffmpeg(*args: str, stdout=None) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True,
                   stdout=stdout)


def _late_start_mkv(d: Path) -> Path:
    return vc.encode(d / "late.mkv", [*X264, "-bf", "2", "-g", "30", "-output_ts_offset", "5"],
                     frames=240)


def _not_key_first(d: Path, ext: str, fmt: str) -> Path:
    """A 10 s recording (a key frame every 4 s) cut at 2.1 s by stream copy, so its first
    packets depend on a key frame that is not in the file: ffmpeg shows frames from 4.0 s of
    the source, 1.9 s into the cut."""
    src = vc.encode(d / f"src.{ext}", [*X264, "-bf", "2", "-g", "120", "-f", fmt], frames=300)
    _ffmpeg("-i", str(src), "-ss", "2.1", "-c", "copy", "-f", fmt, str(d / f"v.{ext}"))
    return d / f"v.{ext}"


def _make(shape: str, d: Path) -> Path:
    if shape == "mkv_first_frame_at_5s":
        return _late_start_mkv(d)
    if shape == "mpg_ps_mpeg2_pts_wrap":  # the 33-bit 90 kHz clock wraps 2.5 s in
        return vc.encode(d / "v.mpg", ["-c:v", "mpeg2video", "-q:v", "4", "-bf", "2", "-g",
                                       "15", "-output_ts_offset", "95441.2", "-f", "mpeg"],
                         frames=150)
    if shape == "mkv_cut_not_key_first":
        return _not_key_first(d, "mkv", "matroska")
    if shape == "mov_timescale_600_2997":  # QuickTime's 600 ticks/s: 20 or 21 ticks a frame
        return vc.encode(d / "v.mov", [*X264, "-bf", "2", "-g", "30",
                                       "-video_track_timescale", "600"],
                         frames=150, fps="30000/1001")
    if shape == "mkv_audio_first_video_late":
        src = vc.encode(d / "src.mkv", [*X264, "-bf", "2", "-g", "30"], frames=240)
        _ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=10", "-itsoffset", "1.5",
                "-i", str(src), "-map", "0:a", "-map", "1:v", "-c:v", "copy", "-c:a", "aac",
                str(d / "v.mkv"))
        return d / "v.mkv"
    raise KeyError(shape)


SHAPES = ["mkv_first_frame_at_5s", "mpg_ps_mpeg2_pts_wrap", "mkv_cut_not_key_first",
          "mkv_audio_first_video_late", "mov_timescale_600_2997"]


@pytest.mark.parametrize("shape", SHAPES)
def test_every_moment_is_ffmpegs_picture(tmp_path, shape):
    path = _make(shape, tmp_path)
    p, codes, moments, got, want = vc.pictures_at_moments(path, "v:0", 48, seed=23)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert [(f.rule, f.message) for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
    t = moments[0]
    out = tmp_path / "f.png"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(path), "--time",
                        f"{t:.6f}", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == want[0]


def test_a_late_first_frame_is_no_header_mismatch_but_a_lie_still_is(tmp_path):
    from moderator_app.core.video.probe import probe_video

    path = _late_start_mkv(tmp_path)
    p = probe_video(path, path.name)
    assert p.frame_count == 240 and p.duration_s == pytest.approx(8.0, abs=0.01)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    # the same file whose track tag says 21 s: neither its 8 s nor its end at 13 s
    data = path.read_bytes()
    assert data.count(b"00:00:13.000000000") == 1
    lie = tmp_path / "lie.mkv"
    lie.write_bytes(data.replace(b"00:00:13.000000000", b"00:00:21.000000000"))
    p = probe_video(lie, lie.name)
    assert [(f.rule, f.message) for f in p.findings if f.severity is not Severity.INFO] == [
        ("video.header_mismatch", "the header says 21.000 s but the frames' timestamps "
                                  "measure 8.000 s (240 frames)")]
