"""Frame truth on HEVC in the shapes a phone, OBS or a remux leaves (session 14, issue 12): HEVC
decodes with FFmpeg's frame threads again (test_video_threads.py says why that is safe now), so
the exact-frame check runs over the shapes whose decoding order, references or timestamps
could trip a threaded decoder: x265's open GOPs (CRA keyframes with leading pictures that
cannot be decoded after a seek), closed GOPs with 4 B-frames, several slices a picture,
10-bit, MP4, fragmented MP4, Matroska without cues, MPEG-TS, a stream-copy cut mid-GOP and a
variable frame rate. At 48 random moments each, the picture the workstation reads is the
one ffmpeg shows (0 frames of error) and the frame count is ffprobe's."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity

X265 = ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1"]


def _has_x265() -> bool:
    if shutil.which("ffmpeg") is None:
        return False
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                         text=True).stdout
    return "libx265" in out


pytestmark = pytest.mark.skipif(not _has_x265(), reason="needs ffmpeg with libx265")


def _params(p: str) -> list[str]:
    return ["-x265-params", f"log-level=none:{p}"]


def _remux(src: Path, out: Path, *args: str) -> Path:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args[:2], "-i", str(src),
                    "-c", "copy", *args[2:], str(out)], check=True)
    return out


def _make(shape: str, d: Path) -> Path:
    if shape == "open_gop_mp4":  # x265's default: CRA keyframes, leading pictures
        return vc.encode(d / "v.mp4", [*X265, *_params("keyint=40:open-gop=1:bframes=3")],
                         frames=200)
    if shape == "closed_gop_bf4_mp4":
        return vc.encode(d / "v.mp4", [*X265, *_params("keyint=50:no-open-gop=1:bframes=4"
                                                       ":b-pyramid=1")], frames=200)
    if shape == "slices_4_mkv":  # several slices a picture (with wavefronts)
        return vc.encode(d / "v.mkv", [*X265, *_params("keyint=30:slices=4"),
                                       "-f", "matroska"], frames=150)
    if shape == "main10_mp4":
        return vc.encode(d / "v.mp4", [*X265, *_params("keyint=45"),
                                       "-pix_fmt", "yuv420p10le"], frames=150)
    if shape == "fmp4":
        return vc.encode(d / "v.mp4", [*X265, *_params("keyint=30"), "-movflags",
                                       "frag_keyframe+empty_moov"], frames=150)
    if shape == "mkv_nocues":  # what a capture stopped hard leaves: no seek index
        src = vc.encode(d / "src.mkv", [*X265, *_params("keyint=30"), "-f", "matroska"],
                        frames=150)
        raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(src), "-c",
                              "copy", "-f", "matroska", "pipe:1"], capture_output=True,
                             check=True).stdout
        (d / "v.mkv").write_bytes(raw)
        return d / "v.mkv"
    if shape == "ts_60":
        return vc.encode(d / "v.ts", [*X265[:4], *_params("keyint=60:bframes=3"),
                                      "-f", "mpegts"], frames=240, fps="60")
    if shape == "cut_copy_midgop":  # `ffmpeg -ss 1.3 -c copy`: the head before a keyframe
        src = vc.encode(d / "src.mp4", [*X265, *_params("keyint=40:no-open-gop=1")],
                        frames=200)
        return _remux(src, d / "v.mp4", "-ss", "1.3")
    if shape == "vfr_mp4":  # frames dropped here and there (an encoder's repeated frames)
        keep = "select='not(eq(mod(n\\,11)\\,4)+eq(mod(n\\,17)\\,9))'"
        return vc.encode(d / "v.mp4", ["-vf", keep, "-fps_mode", "vfr", *X265,
                                       *_params("keyint=40")], frames=200)
    raise KeyError(shape)


SHAPES = ["open_gop_mp4", "closed_gop_bf4_mp4", "slices_4_mkv", "main10_mp4", "fmp4",
          "mkv_nocues", "ts_60", "cut_copy_midgop", "vfr_mp4"]


@pytest.mark.parametrize("shape", SHAPES)
def test_every_moment_is_ffmpegs_picture_in_hevc(tmp_path, shape):
    path = _make(shape, tmp_path)
    p, codes, _moments, got, want = vc.pictures_at_moments(path, "v:0", 48, seed=14)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
