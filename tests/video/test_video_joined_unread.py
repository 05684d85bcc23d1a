"""Recordings cat-joined in Matroska past the two FFmpeg's demuxer reads (QA s24 R2).

FFmpeg's Matroska demuxer (ffprobe too) reads a file's first Segment and the one joined after
it, then stops: of three recordings joined byte for byte, the third gives no packet. QA's
j24_three_h264_mpeg4_h264_mkv_30 (H.264 3 s + MPEG-4 5 s + H.264 16 s) said "recording 2 of
the 2 joined" and nothing of its last 16 s (53 % of its bytes). These files are built here:
three parts, each its own Matroska file, joined byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video.joined_headers import MAX_UNREAD_OPENED, unread_recordings
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_MKV = ["-threads", "1", "-f", "matroska"]
_H264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-bf", "2", "-pix_fmt",
         "yuv420p"]
_PARTS = {
    "h264": [*_H264, *_MKV],
    "mpeg4": ["-c:v", "mpeg4", "-q:v", "3", *_MKV],
    "h264big": ["-vf", "scale=400:300", *_H264, *_MKV],
    "h264bigger": ["-vf", "scale=480:360", *_H264, *_MKV],
}


def _three(d: Path, parts: tuple[str, str, str], frames=(50, 100, 200)) -> tuple[Path, list[int]]:
    """The three `parts` (2 s, 4 s and 8 s at 25 fps) joined byte for byte into
    d/joined/video.mkv next to a run's log; and where each part starts (bytes)."""
    blobs = [vc.encode(d / f"{i}-{p}.mkv", _PARTS[p], frames=n, fps="25").read_bytes()
             for i, (p, n) in enumerate(zip(parts, frames, strict=True))]
    out = d / "joined" / "video.mkv"
    out.parent.mkdir()
    out.write_bytes(b"".join(blobs))
    make_agent_log(out.parent / "agent-log.jsonl", n_events=20, seed=2)
    return out, [0, len(blobs[0]), len(blobs[0]) + len(blobs[1])]


@pytest.mark.parametrize("parts,second", [
    (("h264", "h264big", "mpeg4"), None),
    (("h264", "mpeg4", "mpeg4"), "recording 2 of the 3 joined in the file does not "
     "decode from 2.000 s to 6.000 s"),
])
def test_a_third_joined_recording_the_demuxer_never_reads_is_said(tmp_path, parts, second):
    """The third recording, of another codec than the file's (a later recording is read from
    its own header only when its video is the file's codec and clock; since session 27 of any
    picture size: the second, 400x300, is read so): named by its header's byte, its 8 s (by
    its own header) from where the two read end (6.0 s) declared without footage; a second
    recording's stretch says "of the 3". Before session 24: "of the 2 joined", and nothing
    of 6.0-14.0 s."""
    path, starts = _three(tmp_path, parts)
    p = probe_video(path, "video.mkv")
    assert p.ok and p.index is not None and len(p.index.segments) == 1  # two read
    found = [f for f in p.findings if f.rule == "video.joined_undecodable"]
    if second is not None:
        assert found[0].message.startswith(second)
    else:
        assert len(found) == 1 and p.frame_count == 150
    unread = [f for f in found if "never read" in f.message]
    assert len(unread) == 1
    f = unread[0]
    assert (f.video_start_s, f.video_end_s) == (6.0, 14.0)
    assert f.message == (
        f"recording 3 of the 3 joined in the file (own header at byte {starts[2]:,}) is never "
        "read: FFmpeg's demuxer (as ffprobe's) reads the first two, a later one is read from "
        "its own header when its video is of the file's codec and clock, and "
        "the reading stops after recording 2; the file's bytes from byte "
        f"{starts[2]:,} on are not looked at; no footage from 6.000 s to "
        "14.000 s (8.000 s by its own header), counted as missing")
    # verify (with the scan) says it too; the verdict is coverage's (8.761 s run: the 6.0 s
    # read of a joined H.264 x3 file leave 2.761 s missing, within the 5 s limit)
    report = verify_paths([path.parent], VerifyOptions(scan_video=True)).report
    assert [(g.video_start_s, g.video_end_s) for g in report.findings
            if g.rule == "video.joined_undecodable" and "never read" in g.message] == \
        [(6.0, 14.0)]


@pytest.mark.parametrize("parts,second", [
    (("h264", "mpeg4", "h264"), "recording 2 of the 3 joined in the file does not decode "
     "from 2.000 s to 6.000 s"),
    (("h264", "h264", "h264"), None),
])
def test_a_third_joined_recording_of_the_files_video_is_read(tmp_path, parts, second):
    """The third recording, H.264 of the file's size, is read from its own header (session
    26, `joined_chain`; before: "recording 3 of the 3 joined ... is never read", 6.0-14.0 s
    without footage): its 200 frames counted, 14.0 s, nothing said unread; a second
    recording the first's header does not decode (MPEG-4) is said as before."""
    path, _ = _three(tmp_path, parts)
    p = probe_video(path, "video.mkv")
    assert p.ok and p.index is not None and len(p.index.segments) == 2
    found = [f.message for f in p.findings if f.rule == "video.joined_undecodable"]
    assert not [m for m in found if "never read" in m]
    if second is not None:
        assert len(found) == 1 and found[0].startswith(second)
        assert p.frame_count == 250
    else:
        assert not found and p.frame_count == 350
    assert p.duration_s == 14.0


def test_two_joined_recordings_both_read_say_nothing_unread(tmp_path):
    """Two recordings joined (the demuxer reads both): no recording is said unread."""
    a = vc.encode(tmp_path / "a.mkv", _PARTS["h264"], frames=50, fps="25").read_bytes()
    b = vc.encode(tmp_path / "b.mkv", _PARTS["mpeg4"], frames=100, fps="25").read_bytes()
    path = tmp_path / "video.mkv"
    path.write_bytes(a + b)
    p = probe_video(path, "video.mkv")
    msgs = [f.message for f in p.findings if f.rule == "video.joined_undecodable"]
    assert len(msgs) == 1 and msgs[0].startswith("recording 2 of the 2 joined")
    assert unread_recordings(str(path), len(a)) == ([], False)


def test_unread_recordings_are_bounded(tmp_path):
    """A file of 60 small recordings joined: the walk stops at its bound (said "at least"),
    and no more than MAX_UNREAD_OPENED headers are opened for their duration."""
    one = vc.encode(tmp_path / "a.mkv", _PARTS["h264"], frames=5, fps="25").read_bytes()
    path = tmp_path / "joined" / "video.mkv"
    path.parent.mkdir()
    path.write_bytes(one * 60)
    recs, more = unread_recordings(str(path), 2 * len(one) - 1)
    assert more is True
    assert [(r["at"], r["number"]) for r in recs] == [(k * len(one), k + 1)
                                                      for k in range(2, 33)]
    assert [r["duration_s"] for r in recs[:MAX_UNREAD_OPENED]] == [0.2] * MAX_UNREAD_OPENED
    assert all(r["duration_s"] is None for r in recs[MAX_UNREAD_OPENED:])
    # recordings 3-32 are read from their own headers (`joined_chain`); the 33rd, the last
    # header the walk found, is not (where it ends is not known), and is said
    p = probe_video(path, "video.mkv")
    said = [f for f in p.findings if "never read" in f.message]
    assert len(said) == 1 and said[0].message.startswith(
        "recording 33 of the at least 33 joined in the file (own header at byte "
        f"{32 * len(one):,}) ")
    assert p.index is not None and p.index.packets == 32 * 5  # recordings 1-32, no more
