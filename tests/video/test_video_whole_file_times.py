"""The probe's findings about the file as a whole carry the time they are about (session 23,
issue 11 point 3; docs/DESIGN.md "Times in findings"). They had none, and a click went to the
first frame (`video.truncated`: the file's end, through a special case in moments.py). Here on
real ffmpeg-made files, exact to the microsecond the report writes:

- `video.truncated` and `video.header_mismatch`: a 6 s Matroska cut in half reads to its
  last whole frame (2.9 s with this ffmpeg) and its header says 6.0 s: both are that span;
- `video.variable_rate`: one frame dropped at 2.5 s of 10 fps: the interval 2.4-2.6 s; 15 fps
  from 2 to 4 s of a 30 fps capture: that stretch, 2.0-4.0 s;
- "... and N more gaps": 52 gaps of ~5.9 s: from the 51st's start 300.2 s to the last's end
  312.0 s;
- `video.several_streams`: where the other stream has footage (session 24), 0.0-3.0 s, and
  2.0-4.0 s of 6 s for a stream that starts 2 s in (MKV, MPEG-TS); the whole video when its
  first packets are not within the bounded read;
- `video.probe_incomplete` for an end that did not decode in time: the last frame, 5.0-5.1 s.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import REPO

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.thresholds import DEFAULT_VIDEO_LIMITS
from moderator_app.core.verify.moments import Moment, finding_moment, finding_span
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video.probe import PendingProbe, probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

CLI = str(REPO / ".venv" / "bin" / "moderator-app")
TINY = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-threads", "1"]


def ffmpeg(*args) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *map(str, args)], check=True)


def times(f) -> tuple:
    return f.video_s, f.video_start_s, f.video_end_s


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("whole_file")
    whole = d / "whole.mkv"
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10", "-frames:v", 60, "-g", 10, *TINY,
           whole)
    run = d / "cut-run"
    run.mkdir()
    data = whole.read_bytes()
    (run / "video.mkv").write_bytes(data[:len(data) // 2])
    make_agent_log(run / "agent-log.jsonl", n_events=20, seed=2)
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10", "-frames:v", 50, "-vf",
           "select='not(eq(n,25))'", "-fps_mode", "passthrough", *TINY, d / "drop.mkv")
    # pairs of frames 0.1 s apart every 6 s: 52 holes of more than 5 s
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10", "-frames:v", 106, "-vf",
           "setpts='(floor(N/2)*6+mod(N,2)*0.1)/TB'", "-fps_mode", "passthrough", *TINY,
           d / "gaps.mkv")
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=30:d=6", "-vf",
           "select='not(between(t,2,3.99)*mod(n,2))'", "-fps_mode", "passthrough", *TINY,
           d / "steps.mkv")
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10:d=4", "-f", "lavfi", "-i",
           "testsrc2=s=32x32:r=5:d=3", "-map", 0, "-map", 1, *TINY, d / "two.mkv")
    return {"cut": run, "drop": d / "drop.mkv", "gaps": d / "gaps.mkv", "two": d / "two.mkv",
            "steps": d / "steps.mkv"}


def test_a_truncated_file_is_from_where_its_footage_ends_to_where_its_header_ends(files):
    p = probe_video(files["cut"] / "video.mkv", "video.mkv")
    end = p.duration_s  # the readable footage: its frames at 10 fps, each 0.1 s
    assert p.ok and end == round(p.frame_count * 0.1, 6) and 1.0 < end < 5.0
    assert p.index is not None and p.index.header_duration_s == 6.0
    found = {f.rule: f for f in p.findings}
    assert times(found["video.truncated"]) == (None, end, 6.0)
    assert times(found["video.header_mismatch"]) == (None, end, 6.0)
    # verify --json carries them, on both clocks at the report's offset
    out = subprocess.run([CLI, "verify", str(files["cut"]), "--offset", "0.5", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    report = {f["rule"]: f for f in json.loads(out.stdout)["findings"]}
    for rule in ("video.truncated", "video.header_mismatch"):
        got = {k: report[rule].get(k) for k in ("video_s", "video_start_s", "video_end_s",
                                                 "run_s", "run_start_s", "run_end_s")}
        assert got == {"video_s": None, "video_start_s": end, "video_end_s": 6.0,
                       "run_s": None, "run_start_s": round(end - 0.5, 6),
                       "run_end_s": 5.5}, rule
    # the click goes there by the path every timed finding takes (no special case)
    rep = verify_paths([files["cut"]], VerifyOptions(offset=0.5)).report
    f = next(f for f in rep.findings if f.rule == "video.truncated")
    assert finding_moment(f, None, 0.5) == Moment(end - 0.5, end)
    assert finding_span(f, 0.5) == (end - 0.5, 5.5)


def test_an_unreadable_truncated_file_has_no_time_and_goes_to_the_first_frame(tmp_path):
    """No frame read, no time known: the first frame, as before the special case went. (An
    MP4 cut before its index, which comes last: nothing says where its frames are. One with
    its index in front is read to where it ends: test_video_sample_tables.py.)"""
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10", "-frames:v", 60, *TINY,
           tmp_path / "v.mp4")
    run = tmp_path / "run"
    run.mkdir()
    data = (tmp_path / "v.mp4").read_bytes()
    (run / "video.mp4").write_bytes(data[:len(data) // 2])
    make_agent_log(run / "agent-log.jsonl", n_events=20, seed=2)
    rep = verify_paths([run], VerifyOptions(offset=0.5)).report
    f = next(f for f in rep.findings if f.rule == "video.truncated")
    assert rep.video is not None and rep.video.duration_s is None
    assert times(f) == (None, None, None) and f.run_start is None
    assert finding_moment(f, None, 0.5) == Moment(-0.5, 0.0)


def test_variable_rate_is_at_its_first_uneven_interval(files):
    p = probe_video(files["drop"], "drop.mkv")
    (f,) = p.findings
    assert f.rule == "video.variable_rate"
    assert f.message == "frame intervals vary from 100.0 to 200.0 ms"
    assert times(f) == (None, 2.4, 2.6)  # frame 25 (2.5 s) was dropped


def test_variable_rate_is_its_first_uneven_stretch(files):
    """30 fps, every other frame dropped from 2.0 to 4.0 s (15 fps there), 30 fps again."""
    p = probe_video(files["steps"], "steps.mkv")
    (f,) = p.findings
    assert f.rule == "video.variable_rate"
    assert times(f) == (None, 2.0, 4.0)


def test_the_gaps_past_fifty_are_one_span_from_the_51st_to_the_last(files):
    p = probe_video(files["gaps"], "gaps.mkv")
    gaps = [f for f in p.findings if f.rule == "video.footage_gap"]
    assert len(p.gaps) == 52 and len(gaps) == 51
    assert gaps[-1].message == "... and 2 more gaps"
    assert (p.gaps[50][0], p.gaps[-1][1]) == (300.2, 312.0)
    assert times(gaps[-1]) == (None, 300.2, 312.0)


def test_several_streams_is_where_the_other_stream_has_footage(files):
    p = probe_video(files["two"], "two.mkv")
    (f,) = p.findings
    assert f.rule == "video.several_streams"
    assert f.message == ("the file holds 2 video streams: stream 0 (h264 64x64, 10 fps, "
                         "4.0 s) is checked and shown, as ffmpeg plays it by default; not "
                         "checked or shown: stream 1 (h264 32x32, 5 fps, 3.0 s; footage from "
                         "0.000 s to 3.000 s)")
    assert times(f) == (None, 0.0, 3.0) and p.duration_s == 4.0


@pytest.mark.parametrize("suffix", ["mkv", "ts"])
def test_several_streams_starting_later_is_timed_where_it_has_footage(tmp_path, suffix):
    """QA s23 O1 (m23_two_streams_mkv, a webcam stream with footage 6.0-14.0 s of 24 s): the
    note was timed 0.0-24.0 s, the whole video. Now from the other stream's first packet to
    its last one's end, read in the video process, and the message says it."""
    out = tmp_path / f"late.{suffix}"
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=10:d=6", "-itsoffset", 2, "-f", "lavfi",
           "-i", "testsrc2=s=32x32:r=10:d=2", "-map", 0, "-map", 1, *TINY, out)
    p = probe_video(out, out.name)
    (f,) = [f for f in p.findings if f.rule == "video.several_streams"]
    assert times(f) == (None, 2.0, 4.0), f.message
    assert f.message.endswith("; footage from 2.000 s to 4.000 s)"), f.message


def test_several_streams_read_no_further_than_its_bound(tmp_path):
    """A second stream whose packets lie between the two bounded reads (child_others: 20,000
    packets from the start, here to 66.7 s of 300 fps, and as many before the end, from
    146.7 s of 200 s; the stream at 100-101 s): not read to it, the note stays the whole
    video, its message says what was not read. (Session 24's file, the stream at 70 s of
    72 s, is now read whole by the two reads.)"""
    from moderator_app.core.video.child_others import MAX_PACKETS
    out = tmp_path / "far.mkv"
    ffmpeg("-f", "lavfi", "-i", "color=c=gray:s=16x16:r=300:d=200", "-itsoffset", 100, "-f",
           "lavfi", "-i", "color=c=red:s=16x16:r=5:d=1", "-map", 0, "-map", 1, "-g", 600,
           "-tune", "zerolatency", *TINY, out)  # (x264's last frame is written at 100.8 s)
    assert 2 * MAX_PACKETS < 300 * 200 and MAX_PACKETS < 300 * 100
    p = probe_video(out, out.name)
    (f,) = [f for f in p.findings if f.rule == "video.several_streams"]
    assert times(f) == (None, 0.0, p.duration_s)
    assert 200.0 <= p.duration_s < 200.01  # duration-ok: the video's length, not a wall time
    assert "footage from" not in f.message, f.message
    assert f.message.endswith(" s not read)"), f.message


def test_an_end_not_decoded_in_time_is_the_last_frame(files):
    """The video process says the last frames' decode did not finish (last_decodable None):
    the note is about the last frame, 5.0-5.1 s (50 frames, one dropped at 2.5 s)."""
    index = probe_video(files["drop"], "drop.mkv").index
    assert index is not None and index.complete
    p = PendingProbe(index, {"first_decodes": True}, "drop.mkv", DEFAULT_VIDEO_LIMITS,
                     ()).judge(None)  # type: ignore[arg-type]
    f = next(f for f in p.findings if f.rule == "video.probe_incomplete")
    assert f.message.startswith("the end of the stream could not be decoded")
    assert times(f) == (None, 5.0, 5.1)


def test_a_cut_index_of_a_cued_matroska_ends_where_its_last_packet_does(tmp_path):
    """The end of a cut index is read from the end of the file (`child_probe._stream_end`).
    A Matroska byte seek there landed on the file's second cluster (its demuxer is not told of
    a byte seek), and the packets read from there were stitched on as a joined recording: a
    60 s file cut at 1,000 frames measured 91.366 s, with a false header mismatch (session
    25). With Cues named in its header it is sought by time, as MP4 is."""
    from dataclasses import replace
    out = tmp_path / "cut60.mkv"
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=64x64:r=30:d=60", "-g", 60, *TINY, out)
    p = probe_video(out, out.name, replace(DEFAULT_VIDEO_LIMITS, max_index_frames=1000))
    assert p.frame_count == 1001
    assert p.duration_s == 60.0  # duration-ok: the video's length, not a wall time
    assert [f.rule for f in p.findings] == ["video.probe_incomplete"]
