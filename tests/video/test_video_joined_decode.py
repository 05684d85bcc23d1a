"""A recording joined to another in one file that the player's decoder cannot decode is no
footage (QA session 20, M5, hostile class h20_06): an MKV of 2 s of black followed byte for
byte by an honest MKV of other dimensions. FFmpeg decodes the second with the first's header:
half its packets give no frame, the other half come out damaged. The index counted every
packet (160 frames where ffprobe counts 110) and `verify` passed the run on pictures nobody can
see. Session 20: the frame count ffprobe's, `video.joined_undecodable` named the stretch, and
its time was missing footage. Since session 27 a recording of another picture size is read
from its own header (`joined_chain.own_read`): its 100 pictures are its own, at its size (the
scan says the change), and the run passes; one of another codec is still no footage. The same
honest MKV written twice end to end (h20_05) decodes whole and still passes."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.isolated import verify_isolated
from moderator_app.core.verify.moments import Moment, finding_moment
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video.export import read_frames
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _mkv(out: Path, source: str, codec: str = "mpeg4") -> bytes:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source,
                    "-c:v", codec, "-pix_fmt", "yuv420p", "-f", "matroska", str(out)],
                   check=True)
    return out.read_bytes()


@pytest.fixture(scope="module")
def joined(tmp_path_factory) -> dict[str, Path]:
    """forged: 2 s of black at 320x240, 30 fps, then 10 s of testsrc at 320x180, 10 fps (its
    own MKV, appended); twice: the 10 s MKV written twice. 60 + 100 and 100 + 100 packets.
    codec: 2 s of H.264 (320x240, 30 fps), then the 10 s MPEG-4 MKV: 60 + 100 packets."""
    d = tmp_path_factory.mktemp("joined")
    black = _mkv(d / "black.mkv", "color=black:size=320x240:rate=30:duration=2")
    honest = _mkv(d / "honest.mkv", "testsrc=size=320x180:rate=10:duration=10")
    h264 = _mkv(d / "h264.mkv", "testsrc=size=320x240:rate=30:duration=2", "libx264")
    out = {}
    for name, body in (("forged", black + honest), ("twice", honest + honest),
                       ("codec", h264 + honest)):
        out[name] = d / name / "video.mkv"
        out[name].parent.mkdir()
        out[name].write_bytes(body)
        # an 8.761 s run: inside either video, past the black's 2 s by more than 5 s
        assert make_agent_log(out[name].parent / "agent-log.jsonl", n_events=20, seed=2) \
            == pytest.approx(8.761)
    return out


def test_a_joined_recording_of_another_size_is_read_from_its_own_header(joined):
    """h20_06's file: the 320x180 recording's 100 packets are 100 frames of its own size (the
    first's header gave 50 none and 50 damaged: ffprobe still counts 110), nothing undecodable,
    and the pictures exported there are the honest MKV's own, pixel for pixel."""
    path = joined["forged"]
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == 160 and vc.ffprobe_frames(path) == 110
    assert p.duration_s == pytest.approx(11.901 + 1 / 30, abs=1e-6)
    assert [(f.rule, f.severity.value) for f in p.findings] == [
        ("video.header_mismatch", "warning"), ("video.variable_rate", "info")]
    assert p.gaps == ()
    assert p.index is not None
    images = read_frames(path, p.index, [0, 59, 60, 110, 159])
    assert [None if i is None else i.shape for i in images] == [(240, 320, 3)] * 2 + \
        [(180, 320, 3)] * 3
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i",
                          str(path.parent.parent / "honest.mkv"), "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    own = np.frombuffer(raw, np.uint8).reshape(-1, 180, 320, 3)
    assert [float(np.abs(images[2 + k].astype(np.int16) - own[n].astype(np.int16)).mean())
            for k, n in enumerate((0, 50, 99))] == [0.0, 0.0, 0.0]


def test_the_run_on_a_resized_joined_recording_passes_and_says_the_change(joined):
    """verify --scan: 160 frames, the size and rate change at the join said
    (`video.stream_change`, warnings), PASS; the window's verify gives the same report."""
    options = VerifyOptions(scan_video=True)
    report = verify_paths([joined["forged"].parent], options).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]
    assert report.video is not None and report.video.frame_count == 160
    assert [(f.severity.value, f.video_start_s, f.message) for f in report.findings
            if f.rule == "video.stream_change"] == [
        ("warning", 2.001, "the picture size changes from 320x240 to 320x180 at 2.001 s"),
        ("warning", 2.001, "the frame rate changes from 29.98 to 10.00 fps at 2.001 s")]
    window = verify_isolated([joined["forged"].parent], options).report
    assert [f.to_dict() for f in window.findings] == [f.to_dict() for f in report.findings]


def test_the_run_on_an_undecodable_joined_recording_fails_coverage(joined):
    """A recording of another codec (MPEG-4 after H.264) is still no footage: FAIL by
    coverage, the finding's moment its own start whatever its message says."""
    report = verify_paths([joined["codec"].parent]).report
    assert report.verdict == "fail"
    errors = [(f.rule, f.file) for f in report.findings if f.severity.value == "error"]
    assert errors == [("coverage.missing", "video.mkv")]
    assert report.video is not None and report.video.frame_count == 60
    f = next(f for f in report.findings if f.rule == "video.joined_undecodable")
    assert (f.video_start_s, f.video_end_s) == (2.0, 12.0)
    assert finding_moment(replace(f, message="reworded"), None, 0.5) == Moment(1.5, 2.0)


def test_the_window_gets_the_same_verdict(joined):
    """The workstation verifies in its own process (`verify_isolated`, ui/opening.py): the
    same report, so the same verdict and findings."""
    options = VerifyOptions()
    alone = verify_paths([joined["codec"].parent], options).report
    window = verify_isolated([joined["codec"].parent], options).report
    assert window.verdict == alone.verdict == "fail"
    assert [f.to_dict() for f in window.findings] == [f.to_dict() for f in alone.findings]
    assert window.video is not None and window.video.frame_count == 60


def test_the_same_recording_joined_twice_decodes_and_passes(joined):
    path = joined["twice"]
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == vc.ffprobe_frames(path) == 200
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.gaps == ()
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]
    assert "video.joined_undecodable" not in {f.rule for f in report.findings}


def test_a_joined_recording_of_another_codec_gives_no_frame_and_no_footage(joined):
    """The H.264 decoder gives no frame for any packet of the MPEG-4 recording: they are no
    frames (ffprobe's count), the video ends where the first recording does, and the finding
    names the span its packets claimed."""
    path = joined["codec"]
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == vc.ffprobe_frames(path) == 60  # 160 packets
    assert p.duration_s == pytest.approx(2.0, abs=1e-3)
    joined_ = [f.message for f in p.findings if f.rule == "video.joined_undecodable"]
    assert len(joined_) == 1 and joined_[0].startswith(
        "recording 2 of the 2 joined in the file does not decode from 2.000 s to 12.000 s "
        "(10.000 s): of its 100 packets there, 100 give no frame; no footage there")
    assert p.gaps == ()  # past the measured end: missing after the video
    report = verify_paths([path.parent]).report
    assert report.verdict == "fail"
    assert [f.rule for f in report.findings if f.severity.value == "error"] == \
        ["coverage.missing"]
    assert report.coverage is not None and report.coverage.missing_after_s == \
        pytest.approx(8.761 - p.duration_s, abs=1e-6)
