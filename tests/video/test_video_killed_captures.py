"""Killed captures (issue 12, QA session 18 L5 and L4): what a recorder leaves when it is
stopped hard, as real ffmpeg writes it in the test's tmp_path.

- An AVI cut to 90 % of its bytes has no idx1 index. FFmpeg's timestamp seek in it lands on an
  early keyframe (MJPEG: always the first frame), and AVI frames are known by their place after
  the keyframe sought (`FrameIndex.ordinal`): frame 0's picture was exported as every frame
  (MJPEG, 10 of 10 lines wrong) and an H.264 AVI's later frames as earlier ones.
- A Matroska written to a pipe (no Duration, no cues) with MJPEG + PCM: FFmpeg estimates its
  duration from the bit rate, and that guess was reported as "the header says 19.423 s"
  (`video.header_mismatch` on an honest file).
- An AVI written to a pipe keeps the sizes its muxer meant to fill in (RIFF 0xFFFFFFFF,
  0x40000000 frames): "the RIFF chunk claims 4294967295 bytes" (`video.truncated`, an error)
  and "the header says 28545.867 s" on an honest 10 s file.

Every picture carries its source frame number (`video_corpus.draw_frame`); moments are drawn
at random, so reads seek back and forth in one video process as the player's do.
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
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

#: shape: ffmpeg output arguments (each with 16-bit PCM sound, as a capture tool writes it)
AVI = {
    "mjpeg": ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"],
    "h264_gop30": ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0",
                   "-pix_fmt", "yuv420p"],
    # Xvid's packed B-frames (session 21, QA s20 M6): each keyframe's packet also holds the
    # B-frame shown before it (`core/video/packed.py`)
    "xvid_packed": ["-c:v", "libxvid", "-q:v", "3", "-bf", "2", "-g", "30",
                    "-pix_fmt", "yuv420p"],
}


def _capture(d: Path, video_args: list[str], fmt: str, ext: str, frames: int = 150,
             piped: bool | None = None) -> Path:
    """`frames` coded pictures at 15 fps with a sine's PCM sound, muxed as `fmt` (written to
    a pipe when `piped`; by default Matroska is, AVI is not)."""
    piped = fmt == "matroska" if piped is None else piped
    out = d / f"whole.{ext}"
    cmd = ["ffmpeg", "-hide_banner", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", "15", "-i", "-", "-f", "lavfi", "-i",
           f"sine=frequency=440:duration={frames / 15}", "-map", "0:v", "-map", "1:a",
           *video_args, "-c:a", "pcm_s16le", "-shortest", "-f", fmt]
    with open(out, "wb") as sink:
        # to "pipe:1" (FFmpeg's pipe protocol never seeks back, even into a file): the muxer
        # cannot go back to write a Duration or cues, an index or sizes, as in a live capture
        proc = subprocess.Popen([*cmd, "pipe:1" if piped else str(out)],
                                stdin=subprocess.PIPE, stdout=sink if piped else None)
        assert proc.stdin is not None
        for n in range(frames):
            proc.stdin.write(vc.draw_frame(n).tobytes())
        proc.stdin.close()
        assert proc.wait() == 0
    return out


def _killed(whole: Path, share: float = 0.9) -> Path:
    """The file cut to `share` of its bytes: the recorder killed before its index was written."""
    raw = whole.read_bytes()
    cut = whole.with_name("cut" + whole.suffix)
    cut.write_bytes(raw[:int(len(raw) * share)])
    return cut


@pytest.mark.parametrize("shape", list(AVI))
def test_killed_avi_exports_the_true_frame_everywhere(tmp_path, shape):
    """Fails on main: MJPEG, frames 24, 89, 45, 26, 66 showed frame 0; H.264 (GOP 30),
    the command line's frame 132 (one seek in a fresh process) was frame 72's picture.
    Packed Xvid (session 21) failed on 745a69d: frame 88 showed 89, 44 showed 45, ..."""
    if shape == "xvid_packed" and "libxvid" not in subprocess.run(
            ["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True).stdout:
        pytest.skip("this ffmpeg has no libxvid encoder")
    cut = _killed(_capture(tmp_path, AVI[shape], "avi", "avi"))
    assert b"idx1" not in cut.read_bytes()
    p, codes, moments, got, want = vc.pictures_at_moments(cut, "v:0", 40, seed=18)
    assert p.frame_count == vc.ffprobe_frames(cut) == len(codes)
    assert max(want) > 100  # moments past the first GOPs, where the seek landed early
    assert got == want
    # the command line's evidence frame (its own video process, one seek) is the same picture
    t = max(moments)
    out = tmp_path / "f.png"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(cut), "--time",
                        f"{t:.6f}", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == want[moments.index(t)]


@pytest.mark.parametrize("share", [1.0, 0.9])
def test_piped_matroska_bitrate_estimate_is_no_header_claim(tmp_path, share):
    """Fails on main: `video.header_mismatch`, "the header says 19.423 s" (whole) and "17.480 s"
    (cut) of a 10 s capture: FFmpeg's estimate from the PCM's bit rate, not the header's."""
    path = _killed(_capture(tmp_path, AVI["mjpeg"], "matroska", "mkv"), share)
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert p.index.header_duration_s is None
    assert p.frame_count == vc.ffprobe_frames(path)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []


def test_matroska_segment_duration_still_checked(tmp_path):
    """A Matroska written to a file keeps its header's duration (the tracks' DURATION tags):
    the mismatch check still has a header to compare."""
    path = _capture(tmp_path, AVI["mjpeg"], "matroska", "mkv")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(path), "-map", "0", "-c", "copy",
                    str(tmp_path / "file.mkv")], check=True)
    p = probe_video(tmp_path / "file.mkv", "file.mkv")
    assert p.index is not None and p.index.header_duration_s == pytest.approx(10.0, abs=0.07)  # duration-ok


def test_avi_written_to_a_pipe_is_honest_and_exact(tmp_path):
    """Fails on main: `video.truncated` (error) "the AVI RIFF chunk claims 4294967295 bytes"
    and `video.header_mismatch` on a complete 10 s AVI whose muxer could not go back."""
    path = _capture(tmp_path, AVI["mjpeg"], "avi", "avi", piped=True)
    assert path.read_bytes()[4:8] == b"\xff\xff\xff\xff" and b"idx1" not in path.read_bytes()
    p, codes, moments, got, want = vc.pictures_at_moments(path, "v:0", 20, seed=19)
    assert p.index is not None and p.index.header_duration_s is None
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes) == 150
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
