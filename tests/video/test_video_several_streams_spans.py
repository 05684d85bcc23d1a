"""`video.several_streams` where another video stream comes and goes (session 25, issue 12;
QA s24 O1 and O4): each span of its footage is a finding of its own, the note's text on the
first, and the message lists them. Session 24 timed the note from the stream's first packet
to its last one's end (3.0-20.0 s for a stream at 3-5 and 18-20 s: 13 s of the 17 s with no
frame of it) and read the end from the last 4 MiB only (a stream at 5-10 and 400-420 s of a
600 s file was the whole video). Files built here by ffmpeg: 64x64 (16x16) H.264 Matroska,
the second stream cut by a select filter."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

TINY = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-threads", "1"]


def ffmpeg(*args) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *map(str, args)], check=True)


def notes(p) -> list[tuple[float | None, float | None, str]]:
    return [(f.video_start_s, f.video_end_s, f.message) for f in p.findings
            if f.rule == "video.several_streams"]


def test_a_stream_in_two_spans_is_two_findings(tmp_path):
    """The other stream at 3.0-5.0 and 18.0-20.0 s of 25 s (QA s24 O1's shape): two
    findings, 3.0-5.0 s with the note and 18.0-20.0 s (before: one, 3.0-20.0 s)."""
    out = tmp_path / "two.mkv"
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10:d=25", "-f", "lavfi", "-i",
           "testsrc2=s=32x32:r=10:d=25", "-map", "0", "-map", "1", "-filter:v:1",
           "select='between(t\\,3\\,4.99)+between(t\\,18\\,19.99)'", "-fps_mode:v:1",
           "passthrough", *TINY, out)
    (first, second) = notes(probe_video(out, out.name))
    assert first[:2] == (3.0, 5.0) and second[:2] == (18.0, 20.0)
    assert first[2].endswith("; footage from 3.000 s to 5.000 s and from 18.000 s to "
                             "20.000 s)"), first[2]
    assert second[2] == "stream 1 (not checked or shown) has footage again from 18.000 s " \
                        "to 20.000 s"


def test_a_stream_back_after_more_packets_than_one_read_is_found(tmp_path):
    """30,000 packets (300 fps, 100 s), the other stream at 5-6 and 80-81 s (QA s24 O4's
    shape, small): the read from the start stops at 20,000 packets, the read for the end
    starts where that one stopped, and both spans are found (before: the whole video, no
    span: the read from the last 4 MiB did not reach the end in its 20,000 packets)."""
    from moderator_app.core.video.child_others import MAX_PACKETS
    out = tmp_path / "far.mkv"
    ffmpeg("-f", "lavfi", "-i", "color=c=gray:s=16x16:r=300:d=100", "-f", "lavfi", "-i",
           "testsrc=s=16x16:r=5:d=100", "-map", 0, "-map", 1, "-filter:v:1",
           "select='between(t\\,5\\,5.9)+between(t\\,80\\,80.9)'", "-fps_mode:v:1",
           "passthrough", "-g", 600, *TINY, out)
    assert MAX_PACKETS < 300 * 80 < 2 * MAX_PACKETS
    (first, second) = notes(probe_video(out, out.name))
    assert first[:2] == (5.0, 6.0) and second[:2] == (80.0, 81.0), (first, second)
    assert "not read" not in first[2]


def test_an_end_denser_than_the_start_is_read_again_from_nearer_the_end(tmp_path):
    """49,000 packets: 50 fps for 500 s, then 400 fps for 60 s (a capture's menus, then its
    game), the other stream at 5-6 s. The read for the end starts where the first read
    stopped (400 s) and its 20,000 packets end at 537 s, not at the end; read again from the
    last keyframe, the span is found and what neither read covered is said (before this
    second read: no span, the whole video)."""
    out = tmp_path / "dense_end.mkv"
    ffmpeg("-f", "lavfi", "-i", "color=c=gray:s=16x16:r=50:d=500", "-f", "lavfi", "-i",
           "color=c=gray:s=16x16:r=400:d=60", "-f", "lavfi", "-i",
           "testsrc=s=16x16:r=5:d=560", "-filter_complex",
           "[0][1]concat=n=2:v=1[v];[2]select='between(t\\,5\\,5.9)'[w]", "-map", "[v]",
           "-map", "[w]", "-fps_mode", "passthrough", "-g", 600, "-tune", "zerolatency", *TINY,
           out)
    (note,) = notes(probe_video(out, out.name))
    assert note[:2] == (5.0, 6.0)
    assert "; footage from 5.000 s to 6.000 s; its packets from 53" in note[2], note[2]
    assert note[2].endswith(" s to 559.000 s not read)"), note[2]


def test_an_mp4_stream_with_b_frames_ends_each_span_at_its_last_frame(tmp_path):
    """QA s25 S4's shape: the other stream at 3.0-5.0 and 18.0-20.0 s of 25 s, with
    B-frames, in MP4. MP4 gives a sample's duration as the decode-order delta to the next
    one (`stts`): the sample before the 13 s gap is a B-frame's neighbour shown at 18.x s,
    and its 13 s made the second span 18.0-25.0 s, said "to 31.500 s" (MKV gave
    20.0 s). A frame ends no later than the next one starts: 18.0-20.0 s."""
    out = tmp_path / "two.mp4"
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10:d=25", "-f", "lavfi", "-i",
           "testsrc2=s=32x32:r=10:d=25", "-map", "0", "-map", "1", "-filter:v:1",
           "select='between(t\\,3\\,4.99)+between(t\\,18\\,19.99)'", "-fps_mode:v:1",
           "passthrough", *TINY, "-bf", 3, out)
    (first, second) = notes(probe_video(out, out.name))
    assert first[:2] == (3.0, 5.0) and second[:2] == (18.0, 20.0), (first, second)
    assert first[2].endswith("; footage from 3.000 s to 5.000 s and from 18.000 s to "
                             "20.000 s)"), first[2]


def test_a_mov_stream_whose_b_frames_cross_its_gap_is_two_spans(tmp_path):
    """QA s26 T2: in a MOV, x264's reordering puts two frames of the second span (shown at
    12.0 and 12.08 s) before the first span's last frame (4.48 s) in decode order, and that
    frame's duration is the 7.52 s to the next decode time. Clamped to the next frame in
    time (12.0 s) it bridged the gap: one span 3.0-15.0 s. A frame lasts no longer than the
    stream's usual duration: 3.0-4.52 and 12.0-15.0 s."""
    out = tmp_path / "two.mov"
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=25:d=20", "-f", "lavfi", "-i",
           "testsrc=s=64x48:r=25:d=20", "-map", "0", "-map", "1", "-filter:v:1",
           "select='between(t\\,3\\,4.49)+between(t\\,12\\,14.99)'", "-fps_mode:v:1",
           "passthrough", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
           "-threads", "1", "-bf", 3, "-g", 50, out)
    (first, second) = notes(probe_video(out, out.name))
    assert first[:2] == (3.0, 4.52) and second[:2] == (12.0, 15.0), (first, second)
    assert first[2].endswith("; footage from 3.000 s to 4.520 s and from 12.000 s to "
                             "15.000 s)"), first[2]
