"""Container shapes nobody had tried (issue 12, session 8, point 4), checked before any change:
each is a small file made by the real ffmpeg in the test's tmp_path, every picture carrying its
source frame number (`video_corpus.draw_frame`). The frame count is ffprobe's, the probe raises
no warning on these honest files, and 72 moments drawn at random over the footage export the
picture ffmpeg itself shows then (its decode, placed at its best-effort timestamps). All passed
when first run: they guard what works.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

FRAMES = 150
X264 = list(vc.X264)


def _encoders() -> str:
    return subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                          text=True).stdout


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _make(shape: str, d) -> object:
    if shape == "mkv_vfr_nocues":  # a 2 s hole (frames 60-119 dropped), piped: no cues
        src = vc.encode(d / "src.mkv", ["-vf", "select='not(between(n\\,60\\,119))'",
                                        "-fps_mode", "vfr", *X264, "-f", "matroska"],
                        frames=FRAMES)
        out = d / "v.mkv"
        with open(out, "wb") as fh:
            subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(src), "-c", "copy",
                            "-f", "matroska", "-"], stdout=fh, check=True)
        return out
    if shape == "mov_edit_list":  # cut mid-GOP with -c copy: an edit list hides the head
        src = vc.encode(d / "src.mov", [*X264, "-f", "mov"], frames=FRAMES)
        _ffmpeg("-ss", "1.37", "-i", str(src), "-c", "copy", str(d / "v.mov"))
        return d / "v.mov"
    if shape == "mp4_delayed":  # the first frame 2.5 s into the file's clock
        src = vc.encode(d / "src.mp4", X264, frames=FRAMES)
        _ffmpeg("-itsoffset", "2.5", "-i", str(src), "-c", "copy", str(d / "v.mp4"))
        return d / "v.mp4"
    args = {
        "avi_mpeg4_bframes": ["-c:v", "mpeg4", "-bf", "2", "-q:v", "3", "-g", "30",
                              "-vtag", "DX50", "-f", "avi"],
        "flv_h264_bframes": [*X264, "-f", "flv"],
        "webm_av1": ["-c:v", "libsvtav1", "-preset", "12", "-g", "60", "-pix_fmt", "yuv420p",
                     "-f", "webm"],
        "webm_vp9_altref": ["-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "5",
                            "-auto-alt-ref", "1", "-lag-in-frames", "16", "-g", "90",
                            "-b:v", "300k", "-f", "webm"],
        "mkv_open_gop": ["-c:v", "libx264", "-preset", "ultrafast", "-x264-params",
                         "open-gop=1:bframes=3:b-pyramid=normal:keyint=45:min-keyint=45",
                         "-pix_fmt", "yuv420p", "-f", "matroska"],
    }[shape]
    return vc.encode(d / f"v.{args[-1]}", args, frames=FRAMES)


SHAPES = ["mkv_vfr_nocues", "mov_edit_list", "mp4_delayed", "avi_mpeg4_bframes",
          "flv_h264_bframes", "webm_av1", "webm_vp9_altref", "mkv_open_gop"]


@pytest.mark.parametrize("shape", SHAPES)
def test_72_moments_are_ffmpegs_pictures(tmp_path, shape):
    if shape == "webm_av1" and "libsvtav1" not in _encoders():
        pytest.skip("this ffmpeg has no SVT-AV1 encoder")
    path = _make(shape, tmp_path)
    p, codes, _, got, want = vc.pictures_at_moments(path, "v:0", 72, seed=72)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
