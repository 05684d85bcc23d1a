"""Recording shapes no test had tried (issue 12, session 12; docs/qa/session12-video.md): a
cover picture or a still track stored before the footage, two video streams, negative start
timestamps, an MP4 edit list that starts mid-GOP with 3 B-frames, interlaced (MBAFF) H.264,
AV1 from libaom in a cue-less Matroska, 10-bit 4:4:4 HEVC, an MP4 with a 1,000,000 timescale
at 59.94 fps, a Matroska at 59.94 fps (millisecond ticks) and one whose tick is a whole frame
(TimestampScale 16,666,667 ns), an OBS-like 59.94 fps VFR recording, and VC-2 (Dirac) in
Matroska, whose demuxer answers every seek with EPERM (QA s45 T2: unreadable until session 45,
now read forward from its start).

Each is a small file made by the real ffmpeg in the test's tmp_path, every picture carrying its
source frame number (`video_corpus.draw_frame`). The truth is ffmpeg's own decode of the
recording's stream (what `ffmpeg -i F out` converts). Checked: the frame count is ffprobe's for
that stream, no warning on these honest files, 72 moments drawn at random over the footage
export the picture ffmpeg shows then (the core's path), and `moderator-app frame --time` writes
the same picture as the core. The cover and the still track first were wrong before: the
first video stream was taken for the recording (the MP4 with its cover first was
`video.empty`; the Matroska with a still first counted 1 frame, 72 of 72 moments wrong).
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

X264 = list(vc.X264)


def _ffmpeg(*args: str, stdout=None) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True, stdout=stdout)


def _encoders() -> str:
    return subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                          text=True).stdout


def _piped_mkv(src: Path, out: Path) -> Path:
    """`src` stream-copied into a Matroska written to a pipe: no cues, no duration."""
    with open(out, "wb") as fh:
        _ffmpeg("-i", str(src), "-c", "copy", "-f", "matroska", "-", stdout=fh)
    return out


def _boxes(data: bytes | bytearray, start: int, end: int):
    at = start
    while at < end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        assert size >= 8, "a plain 32-bit box"
        yield kind, at, size
        at += size


def _metadata_first(src: Path, out: Path) -> Path:
    """A copy of the MP4 `src` whose `udta` (holding the cover, `covr`) comes before the
    tracks in `moov`, as tagging tools write it: FFmpeg then lists the cover as stream 0. Only
    boxes inside `moov` move, and `moov` is after `mdat`: no chunk offset changes."""
    data = bytearray(src.read_bytes())
    for kind, at, size in list(_boxes(data, 0, len(data))):
        if kind == b"moov":
            kids = list(_boxes(data, at + 8, at + size))
            head = [k for k in kids if k[0] in (b"mvhd", b"udta")]
            body = b"".join(bytes(data[i:i + n]) for _, i, n in
                            head + [k for k in kids if k not in head])
            data[at + 8:at + size] = body
    out.write_bytes(bytes(data))
    return out


def _tick_per_frame(src: Path, out: Path, frames: int) -> Path:
    """A copy of the Matroska `src` (written at 1000 fps: block timestamps 0, 1, 2 ... in
    1 ms ticks) whose TimestampScale is 16,666,667 ns, with its DefaultDuration and DURATION
    tag to match: an honest 60 fps file whose tick is one frame (a huge scale: ffmpeg writes
    1 ms)."""
    data = bytearray(src.read_bytes())
    scale = 16_666_667
    at = data.find(b"\x2a\xd7\xb1\x83")  # TimestampScale, 3 bytes
    assert at > 0
    data[at + 4:at + 7] = scale.to_bytes(3, "big")
    at = data.find(b"\x23\xe3\x83")  # DefaultDuration (ns, not scaled)
    if at > 0:
        n = data[at + 3] & 0x7F
        data[at + 4:at + 4 + n] = scale.to_bytes(n, "big")
    was = f"00:00:00.{frames:03d}000000".encode()
    now = frames * scale
    data = data.replace(was, f"00:00:{now // 10**9:02d}.{now % 10**9:09d}".encode())
    out.write_bytes(bytes(data))
    return out


def _make(shape: str, d: Path) -> tuple[Path, str]:
    """The file for `shape`, and the ffprobe stream specifier of its recording."""
    if shape == "mp4_cover_first":
        src = vc.encode(d / "src.mp4", X264)
        _ffmpeg("-f", "lavfi", "-i", "color=c=red:s=200x200:d=1", "-frames:v", "1",
                str(d / "cover.png"))
        _ffmpeg("-i", str(d / "cover.png"), "-i", str(src), "-map", "0", "-map", "1:v", "-c",
                "copy", "-disposition:v:0", "attached_pic", str(d / "tagged.mp4"))
        return _metadata_first(d / "tagged.mp4", d / "v.mp4"), "1"
    if shape == "mkv_still_track_first":  # a 1-frame MJPEG track (a title card) first
        src = vc.encode(d / "src.mkv", [*X264, "-f", "matroska"])
        _ffmpeg("-f", "lavfi", "-i", "color=c=red:s=200x200:d=1", "-frames:v", "1", "-c:v",
                "mjpeg", str(d / "still.mkv"))
        _ffmpeg("-i", str(d / "still.mkv"), "-i", str(src), "-map", "0", "-map", "1:v", "-c",
                "copy", str(d / "v.mkv"))
        return d / "v.mkv", "1"
    if shape == "mkv_two_video_streams":  # the game and a smaller webcam at 25 fps
        src = vc.encode(d / "src.mkv", [*X264, "-f", "matroska"])
        _ffmpeg("-i", str(src), "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=5", "-map",
                "0:v", "-map", "1:v", "-c:v:0", "copy", "-c:v:1", "libx264", "-preset",
                "ultrafast", str(d / "v.mkv"))
        return d / "v.mkv", "0"
    if shape == "mp4_negative_start":  # -1.5 s: an edit list hides the first 45 frames
        src = vc.encode(d / "src.mp4", X264)
        _ffmpeg("-itsoffset", "-1.5", "-i", str(src), "-c", "copy", "-avoid_negative_ts",
                "disabled", str(d / "v.mp4"))
        return d / "v.mp4", "v:0"
    if shape == "ts_negative_start":
        src = vc.encode(d / "src.mp4", X264)
        _ffmpeg("-itsoffset", "-1.5", "-i", str(src), "-c", "copy", "-avoid_negative_ts",
                "disabled", "-f", "mpegts", str(d / "v.ts"))
        return d / "v.ts", "v:0"
    if shape == "mp4_negative_cts":  # 3 B-frames, composition offsets below zero
        return vc.encode(d / "v.mp4", [*X264, "-bf", "3", "-movflags",
                                       "+negative_cts_offsets"]), "v:0"
    if shape == "mp4_editlist_midgop_bf3":
        src = vc.encode(d / "src.mp4", [*X264, "-bf", "3"], frames=240)
        _ffmpeg("-ss", "3.1", "-i", str(src), "-c", "copy", str(d / "v.mp4"))
        return d / "v.mp4", "v:0"
    if shape == "h264_mbaff_ts_25":
        return vc.encode(d / "v.ts", ["-c:v", "libx264", "-preset", "ultrafast", "-flags",
                                      "+ildct+ilme", "-x264opts", "interlaced=1:tff=1",
                                      "-pix_fmt", "yuv420p", "-f", "mpegts"],
                         fps="25"), "v:0"
    if shape == "h264_mbaff_mp4_2997":
        return vc.encode(d / "v.mp4", ["-c:v", "libx264", "-preset", "veryfast", "-flags",
                                       "+ildct+ilme", "-x264opts", "interlaced=1:bff=1",
                                       "-bf", "2", "-pix_fmt", "yuv420p"],
                         fps="30000/1001"), "v:0"
    if shape == "av1_aom_mkv_nocues":
        src = vc.encode(d / "src.mkv", ["-c:v", "libaom-av1", "-cpu-used", "8", "-g", "40",
                                        "-b:v", "300k", "-f", "matroska"], frames=120)
        return _piped_mkv(src, d / "v.mkv"), "v:0"
    if shape == "hevc_444_10bit_mkv":
        return vc.encode(d / "v.mkv", ["-c:v", "libx265", "-preset", "ultrafast",
                                       "-x265-params", "log-level=none:keyint=30",
                                       "-pix_fmt", "yuv444p10le", "-f", "matroska"],
                         frames=120), "v:0"
    if shape == "mp4_timescale_1e6_5994":
        return vc.encode(d / "v.mp4", [*X264, "-video_track_timescale", "1000000"],
                         frames=300, fps="60000/1001"), "v:0"
    if shape == "mkv_5994_nocues":  # millisecond ticks: intervals of 16 and 17 ms
        src = vc.encode(d / "src.mkv", [*X264, "-f", "matroska"], frames=300,
                        fps="60000/1001")
        return _piped_mkv(src, d / "v.mkv"), "v:0"
    if shape == "mkv_tick_per_frame":
        src = vc.encode(d / "src.mkv", [*X264, "-f", "matroska"], frames=120, fps="1000")
        return _tick_per_frame(src, d / "v.mkv", 120), "v:0"
    if shape == "vc2_mkv_unseekable":  # QA s45 T2: Matroska's demuxer refuses every seek
        return vc.encode(d / "v.mkv", ["-c:v", "vc2", "-b:v", "8M", "-pix_fmt", "yuv420p",
                                       "-f", "matroska"], frames=90), "v:0"
    if shape == "mp4_obs_vfr_5994":  # frames dropped here and there, timescale 1,000,000
        keep = "select='not(eq(mod(n\\,37)\\,5)+eq(mod(n\\,53)\\,9))'"
        return vc.encode(d / "v.mp4", ["-vf", keep, "-fps_mode", "vfr", *X264,
                                       "-video_track_timescale", "1000000"],
                         frames=400, fps="60000/1001"), "v:0"
    raise KeyError(shape)


SHAPES = ["mp4_cover_first", "mkv_still_track_first", "mkv_two_video_streams",
          "mp4_negative_start", "ts_negative_start", "mp4_negative_cts",
          "mp4_editlist_midgop_bf3", "h264_mbaff_ts_25", "h264_mbaff_mp4_2997",
          "av1_aom_mkv_nocues", "hevc_444_10bit_mkv", "mp4_timescale_1e6_5994",
          "mkv_5994_nocues", "mkv_tick_per_frame", "mp4_obs_vfr_5994", "vc2_mkv_unseekable"]
NEEDS = {"av1_aom_mkv_nocues": "libaom-av1", "hevc_444_10bit_mkv": "libx265"}


@pytest.mark.parametrize("shape", SHAPES)
def test_every_moment_is_ffmpegs_picture(tmp_path, shape):
    if shape in NEEDS and NEEDS[shape] not in _encoders():
        pytest.skip(f"this ffmpeg has no {NEEDS[shape]} encoder")
    path, stream = _make(shape, tmp_path)
    p, codes, moments, got, want = vc.pictures_at_moments(path, stream, 72, seed=12)
    assert p.frame_count == vc.ffprobe_frames(path, stream) == len(codes)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want
    # the evidence frame on the command line is the core's picture
    t = moments[0]
    out = tmp_path / "f.png"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(path), "--time",
                        f"{t:.6f}", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == want[0]


def test_a_file_whose_only_picture_is_a_cover_has_no_video(tmp_path):
    """An audio file with its cover art (what a phone's voice memo or a podcast export is)
    holds no recording: the cover is not one frame of footage."""
    _ffmpeg("-f", "lavfi", "-i", "color=c=red:s=200x200:d=1", "-frames:v", "1",
            str(tmp_path / "cover.png"))
    _ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-i",
            str(tmp_path / "cover.png"), "-map", "0", "-map", "1", "-c:a", "aac", "-c:v",
            "copy", "-disposition:v:0", "attached_pic", str(tmp_path / "memo.m4a"))
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries",
                          "stream=codec_type:stream_disposition=attached_pic", "-of", "json",
                          str(tmp_path / "memo.m4a")], capture_output=True, text=True).stdout
    kinds = [(s["codec_type"], s["disposition"]["attached_pic"])
             for s in json.loads(out)["streams"]]
    assert ("video", 1) in kinds  # FFmpeg lists the cover as a video stream
    p = probe_video(tmp_path / "memo.m4a", "memo.m4a")
    assert not p.ok
    assert [(f.rule, f.message) for f in p.findings] == [
        ("video.unreadable", "the video cannot be read: the file has no video stream")]
