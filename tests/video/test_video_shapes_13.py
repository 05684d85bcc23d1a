"""Recording shapes no test had tried before session 13 (issue 12; docs/qa/session13-video.md):
other codecs and containers (H.264 in FLV, Sorenson Spark, MJPEG, ProRes, WMV2/ASF, MS-MPEG-4,
FFV1, HuffYUV, Ut Video, QuickTime RLE, PNG in MOV, H.263 in 3GP, MPEG-1 in .mpg, MPEG-2 in MXF,
DV, NUT, Y4M), GIF and APNG handed in as the video, full-range YUV, 12-bit, gray, a
non-square sample aspect ratio, and a quarter turn written by ffmpeg's own `rotate` metadata.

Each is a small file made by the real ffmpeg in the test's tmp_path, every picture carrying its
source frame number (`video_corpus.draw_frame`), checked as `test_video_shapes_untried.py`
checks its shapes: the frame count is ffprobe's, no warning on these honest files, 72 moments
drawn at random export the picture ffmpeg shows then (the core's path), and `moderator-app
frame --time` writes the same picture as the core. All 24 were right on the first try once the
test's own reference read pictures of another size (H.263's CIF, DV's 720x576).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity
from moderator_app.core.video.export import read_frames
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

X264 = list(vc.X264)
X264_PLAIN = ["-c:v", "libx264", "-preset", "ultrafast"]

#: shape: (file suffix, ffmpeg output arguments, vc.encode keywords)
RECIPES: dict[str, tuple[str, list[str], dict]] = {
    "h264_flv": ("flv", [*X264, "-f", "flv"], {}),
    "sorenson_flv": ("flv", ["-c:v", "flv", "-q:v", "3", "-g", "30"], {}),
    "mjpeg_avi": ("avi", ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"], {}),
    "prores_ks_mov": ("mov", ["-c:v", "prores_ks", "-profile:v", "3",
                              "-pix_fmt", "yuv422p10le"], {"frames": 90}),
    "wmv2_asf": ("wmv", ["-c:v", "wmv2", "-q:v", "3", "-g", "30", "-f", "asf"], {}),
    "msmpeg4_avi": ("avi", ["-c:v", "msmpeg4", "-q:v", "3", "-g", "30"], {}),
    "ffv1_mkv": ("mkv", ["-c:v", "ffv1", "-level", "3", "-g", "30"], {"frames": 60}),
    "huffyuv_avi": ("avi", ["-c:v", "huffyuv", "-pix_fmt", "yuv422p"], {"frames": 60}),
    "utvideo_avi": ("avi", ["-c:v", "utvideo", "-pix_fmt", "yuv420p"], {"frames": 60}),
    "qtrle_mov": ("mov", ["-c:v", "qtrle"], {"frames": 60}),
    # MS Video 1 (rgb555): its decoder flags no frame as a keyframe (QA s34 T1)
    "msvideo1_avi": ("avi", ["-c:v", "msvideo1", "-g", "15"], {"frames": 60}),
    "png_mov": ("mov", ["-c:v", "png"], {"frames": 45}),
    # H.263 takes only its five picture sizes: CIF, as a phone's 3GP recorder writes
    "h263_3gp": ("3gp", ["-vf", "scale=352:288", "-c:v", "h263", "-q:v", "2", "-g", "30"],
                 {}),
    "mpeg1_mpg": ("mpg", ["-c:v", "mpeg1video", "-q:v", "2", "-bf", "2", "-g", "15",
                          "-f", "mpeg"], {}),
    "mpeg2_mxf": ("mxf", ["-c:v", "mpeg2video", "-q:v", "2", "-bf", "2", "-g", "12"],
                  {"fps": "25", "frames": 100}),
    # DV is PAL 720x576 at 25 fps (or NTSC), anamorphic (sample aspect 16:15)
    "dv_pal": ("dv", ["-vf", "scale=720:576", "-c:v", "dvvideo", "-pix_fmt", "yuv420p",
                      "-f", "dv"], {"fps": "25", "frames": 50}),
    "h264_nut": ("nut", [*X264, "-f", "nut"], {}),
    "y4m": ("y4m", ["-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe"], {"frames": 45}),
    "gif": ("gif", ["-f", "gif"], {"fps": "25", "frames": 50}),
    "apng": ("apng", ["-plays", "0", "-f", "apng"], {"fps": "25", "frames": 50}),
    "x264_full_range": ("mp4", [*X264_PLAIN, "-pix_fmt", "yuvj420p"], {}),
    "x264_gray": ("mp4", [*X264_PLAIN, "-pix_fmt", "gray"], {}),
    "x265_12bit_mkv": ("mkv", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                               "log-level=none:keyint=30", "-pix_fmt", "yuv420p12le"],
                       {"frames": 90}),
    "ffv1_12bit_mkv": ("mkv", ["-c:v", "ffv1", "-pix_fmt", "yuv420p12le"], {"frames": 60}),
    "x264_anamorphic": ("mp4", [*X264, "-vf", "setsar=4/3"], {}),
}
SHAPES = list(RECIPES)
NEEDS = {"x265_12bit_mkv": "libx265"}


def _encoders() -> str:
    return subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                          text=True).stdout


def _make(shape: str, d: Path) -> Path:
    ext, args, kw = RECIPES[shape]
    if shape in NEEDS and NEEDS[shape] not in _encoders():
        pytest.skip(f"this ffmpeg has no {NEEDS[shape]} encoder")
    return vc.encode(d / f"v.{ext}", args, **kw)


def _stream(path: Path, *entries: str) -> dict:
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=" + ",".join(entries), "-of", "json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["streams"][0]


def _ffmpeg_rgb(path: Path, frames: int) -> np.ndarray:
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-frames:v",
                          str(frames), "-pix_fmt", "rgb24", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8)


@pytest.mark.parametrize("shape", SHAPES)
def test_every_moment_is_ffmpegs_picture(tmp_path, shape):
    path = _make(shape, tmp_path)
    p, codes, moments, got, want = vc.pictures_at_moments(path, "v:0", 72, seed=13)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
    t = moments[0]
    out = tmp_path / "f.png"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(path), "--time",
                        f"{t:.6f}", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    img = cv2.imread(str(out), cv2.IMREAD_COLOR)
    assert vc.read_code(cv2.resize(img, (vc.W, vc.H), interpolation=cv2.INTER_AREA)) == want[0]


@pytest.mark.parametrize("shape", ["x264_full_range", "mjpeg_avi", "x264_gray"])
def test_full_range_and_gray_colours_are_ffmpegs(tmp_path, shape):
    """Full-range YUV (yuvj420p: MJPEG, a webcam's or a phone's H.264) read as limited range
    would stretch every colour (a level of 235 shown white); gray has no chroma at all. The
    exported pictures are ffmpeg's own RGB conversion, pixel for pixel (measured: max 0)."""
    path = _make(shape, tmp_path)
    if shape != "x264_gray":
        assert _stream(path, "color_range")["color_range"] == "pc"
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    frames = [0, 7, 20]
    ref = _ffmpeg_rgb(path, 21).reshape(21, vc.H, vc.W, 3)
    for n, img in zip(frames, read_frames(path, p.index, frames), strict=True):
        assert img is not None and np.array_equal(img, ref[n]), n


def test_an_anamorphic_recording_is_exported_as_stored(tmp_path):
    """A non-square sample aspect ratio (4:3 here: 320x240 stored, 16:9 shown by players) is
    exported at its stored size, every pixel as decoded (docs/DECISIONS.md: resampling to the
    display aspect would invent pixels in evidence; the PNG is what `ffmpeg -i F out.png`
    writes)."""
    path = _make("x264_anamorphic", tmp_path)
    s = _stream(path, "sample_aspect_ratio", "display_aspect_ratio")
    assert (s["sample_aspect_ratio"], s["display_aspect_ratio"]) == ("4:3", "16:9")
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None and p.index.display_size == (vc.W, vc.H)
    img = read_frames(path, p.index, [9])[0]
    assert img is not None and np.array_equal(img, _ffmpeg_rgb(path, 10).reshape(
        10, vc.H, vc.W, 3)[9])


def test_ffmpegs_rotate_metadata_turns_the_evidence_frame(tmp_path):
    """`ffmpeg -metadata:s:v rotate=90` (what older tools and phones' MOVs carry) writes a
    display matrix: the frame is exported turned, as ffmpeg and players show it, pixel for
    pixel ffmpeg's autorotated picture (test_video_orientation.py writes the matrix by hand)."""
    src = vc.encode(tmp_path / "src.mov", X264, frames=30)
    path = tmp_path / "v.mov"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(src), "-c", "copy",
                    "-metadata:s:v", "rotate=90", str(path)], check=True)
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None and p.findings == ()
    assert p.index.display_size == (vc.H, vc.W)
    img = read_frames(path, p.index, [10])[0]
    ref = _ffmpeg_rgb(path, 11).reshape(11, vc.W, vc.H, 3)[10]
    assert img is not None and np.array_equal(img, ref)
    assert vc.read_code(np.rot90(img, -1)) == 10  # turned back, the picture of frame 10


def test_a_second_video_stream_is_named_in_a_note(tmp_path):
    """A webcam track written before the game's: ffmpeg's Matroska muxer marks the first
    track default, so ffmpeg (and the workstation, which picks as ffmpeg does) plays the
    webcam, and the game footage in stream 1 is neither checked nor shown. Main said nothing
    of it; a note now names both. A cover picture or a 1-frame still is no footage: no note."""
    game = vc.encode(tmp_path / "game.mkv", [*X264, "-f", "matroska"])
    path = tmp_path / "v.mkv"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=s=160x120:r=25:d=4", "-i", str(game), "-map", "0:v", "-map",
                    "1:v", "-c:v:0", "libx264", "-preset", "ultrafast", "-c:v:1", "copy",
                    str(path)], check=True)
    p = probe_video(path, "v.mkv")
    assert p.ok and (p.frame_count, p.width) == (100, 160)
    assert [(f.rule, f.severity, f.message) for f in p.findings] == [
        ("video.several_streams", Severity.INFO,
         "the file holds 2 video streams: stream 0 (h264 160x120, 25 fps, 4.0 s) is checked "
         "and shown, as ffmpeg plays it by default; not checked or shown: stream 1 (h264 "
         "320x240, 30 fps, 5.0 s; footage from 0.000 s to 5.000 s)")]
    still = tmp_path / "still.mkv"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=red:s=200x200:d=1", "-frames:v", "1", "-c:v", "mjpeg",
                    str(tmp_path / "card.mkv")], check=True)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(tmp_path / "card.mkv"),
                    "-i", str(game), "-map", "0", "-map", "1:v", "-c", "copy", str(still)],
                   check=True)
    p = probe_video(still, "still.mkv")
    assert p.ok and p.frame_count == 150 and p.findings == ()


def test_a_file_of_twelve_video_streams_is_counted_whole(tmp_path):
    """Session 14 (docs/qa/session14-hostile.md): eight other streams are named, and the note
    said "the file holds 9 video streams" of a file holding 100. Now the count is of all,
    and the ones not named are counted. Fails on s14-int ("holds 9 ...", no "more")."""
    path = tmp_path / "v.mkv"
    args = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
            "testsrc2=s=160x120:r=25:d=2", "-f", "lavfi", "-i", "color=c=red:s=64x48:r=5:d=2",
            "-map", "0:v"]
    for _ in range(11):
        args += ["-map", "1:v"]
    subprocess.run([*args, "-c:v", "mpeg4", str(path)], check=True)
    p = probe_video(path, "v.mkv")
    assert p.ok and p.frame_count == 50
    [note] = [f.message for f in p.findings if f.rule == "video.several_streams"]
    assert note.startswith("the file holds 12 video streams: stream 0 (mpeg4 160x120, 25 fps")
    assert note.count("(mpeg4 64x48, 5 fps") == 8 and note.endswith("; and 3 more"), note


@pytest.mark.parametrize("suffix", ["mkv", "mp4", "ts"])
def test_a_file_of_seventy_streams_is_refused_with_its_reason(tmp_path, suffix):
    """QA session 15, H4: opening probes a decoder for every stream (~0.9 MB each); 500 tiny
    streams in a 5 MB Matroska file took 440 MB, and under a 512 MiB limit the finding was an
    ImportError naming a library path. A file of more streams than a recording ever holds is
    refused with that reason, in every container. Fails on main before (every one opened, its
    70 decoders probed); with FFmpeg's `max_streams` alone Matroska indexed 2 of 20 frames of
    stream 0 (a false `video.header_mismatch`), MP4 said "error reading header" and MPEG-TS
    "the video needs more memory than allowed"."""
    path = tmp_path / f"v.{suffix}"
    args = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
            "testsrc2=s=32x32:r=10:d=2"]
    for _ in range(70):
        args += ["-map", "0:v"]
    subprocess.run([*args, "-c:v", "mpeg4", str(path)], check=True)
    p = probe_video(path, path.name)
    assert not p.ok
    assert [(f.rule, f.message) for f in p.findings] == [
        ("video.unreadable", "the video cannot be read: the file holds 64 streams or more (a game "
         "recording holds one video stream and an audio track or two): not read")]


def test_forty_1080p_streams_are_described_truly_under_512_mib(tmp_path):
    """QA session 15, H7: opening decoded a picture of every stream (~10 MB each at 1080p);
    40 streams took 428 MB, and under a 512 MiB limit the demuxer stopped after 4 packets of
    stream 0 without an error: "2 frames, 0.067 s", a false `video.tail_undecodable` and
    `video.header_mismatch`. Streams past the first four are now probed without decoding a
    picture. Fails on main before (the false warnings); 176 MB peak here."""
    import resource

    sub = tmp_path / "sub"
    sub.mkdir()
    args = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
            "testsrc2=s=1920x1080:r=30:d=1"]
    for _ in range(40):
        args += ["-map", "0:v"]
    subprocess.run([*args, "-c:v", "libx264", "-preset", "ultrafast", "-crf", "40",
                    str(sub / "video.mkv")], check=True)
    (sub / "agent-log.jsonl").write_bytes(
        (Path(__file__).parents[2] / "resources/samples/community-sample/agent-log.jsonl")
        .read_bytes())

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))

    r = subprocess.run([sys.executable, "-m", "moderator_app", "verify", str(sub), "--json"],
                       capture_output=True, text=True, preexec_fn=cap, check=False)
    report = json.loads(r.stdout)
    assert report["video"]["frame_count"] == 30, report["video"]
    rules = [f["rule"] for f in report["findings"] if f["rule"].startswith("video.")]
    assert rules == ["video.several_streams"], rules
