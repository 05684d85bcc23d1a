"""Every finding about a moment or a span of the video carries its video time (docs/DESIGN.md,
"Times in findings"), and a click on it goes there (session 22, issue 11 point 3). A footage
gap went to the video's first frame, and `coverage.missing` with its footage missing only in
a gap went to the video's end, past the run; `video.joined_undecodable` was placed by parsing
its message. Here on a real ffmpeg-made file with a known hole: frames at 0, 1 and 29 s."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import REPO

from moderator_app.core.rules import TIME_KEYS
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.moments import Moment, finding_moment, finding_span
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

CLI = str(REPO / ".venv" / "bin" / "moderator-app")


@pytest.fixture(scope="module")
def holed(tmp_path_factory):
    """A submission: an 8.761 s run, and a 30 s video whose frames are at 0, 1 and 29 s
    (1 fps): no footage from 2.0 to 29.0 s."""
    d = tmp_path_factory.mktemp("holed") / "run"
    d.mkdir()
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc=s=64x64:r=1", "-frames:v", "3", "-vf",
                    "setpts='if(eq(N,2),29,N)/TB'", "-fps_mode", "passthrough", "-c:v",
                    "libx264", "-pix_fmt", "yuv420p", str(d / "video.mkv")], check=True)
    assert make_agent_log(d / "agent-log.jsonl", n_events=20, seed=2) == pytest.approx(8.761)
    return d


def test_a_footage_gap_carries_its_stretch_and_is_jumped_to(holed):
    p = probe_video(holed / "video.mkv", "video.mkv")
    gap = next(f for f in p.findings if f.rule == "video.footage_gap")
    assert (gap.video_start_s, gap.video_end_s) == (2.0, 29.0) == p.gaps[0]
    assert (gap.video_s, gap.run_s, gap.run_start_s, gap.run_end_s) == (None,) * 4
    report = verify_paths([holed], VerifyOptions(offset=1.5)).report
    f = next(f for f in report.findings if f.rule == "video.footage_gap")
    # at offset 1.5 s the gap starts 0.5 s into the run: not the first frame (run -1.5 s)
    assert finding_moment(f, None, 1.5) == Moment(0.5, 2.0)
    assert finding_span(f, 1.5) == (0.5, 27.5)


def test_coverage_missing_in_a_gap_is_at_the_gap(holed):
    """The footage missing is the gap's, inside the run: its first instant is the gap's
    start, on both clocks (the moment was the video's end, 28.5 s, past the 8.761 s run)."""
    report = verify_paths([holed], VerifyOptions(offset=1.5)).report
    f = next(f for f in report.findings if f.rule == "coverage.missing")
    assert (f.run_s, f.video_s) == (0.5, 2.0)
    assert finding_moment(f, None, 1.5) == Moment(0.5, 2.0)


def test_verify_json_gives_the_times_and_only_where_there_are_some(holed):
    out = subprocess.run([CLI, "verify", str(holed), "--offset", "1.5", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    found = {f["rule"]: f for f in json.loads(out.stdout)["findings"]}
    assert found["video.footage_gap"] == {
        "severity": "warning", "rule": "video.footage_gap",
        "message": "no frame from 2.000 s to 29.000 s (27.000 s without footage)",
        "file": "video.mkv", "line": None, "video_start_s": 2.0, "video_end_s": 29.0,
        # found on the video's clock; at a known offset the report gives the run's too
        # (DESIGN: "where both clocks are known, both are given"; QA s22 P2)
        "run_start_s": 0.5, "run_end_s": 27.5}
    missing = found["coverage.missing"]
    assert (missing["run_s"], missing["video_s"]) == (0.5, 2.0)
    assert not set(TIME_KEYS) & set(missing) - {"run_s", "video_s"}
    extra = found["coverage.extra"]  # 1.5 s of footage before run_start: from the first frame
    assert (extra["run_s"], extra["video_s"]) == (-1.5, 0.0)
    # a note about the file as a whole carries the time it is about (session 23; it had
    # none): the first uneven frame interval, 1 s to 29 s
    vfr = found["video.variable_rate"]
    assert list(vfr) == ["severity", "rule", "message", "file", "line", "video_start_s",
                         "video_end_s", "run_start_s", "run_end_s"]
    assert [vfr[k] for k in list(vfr)[5:]] == [1.0, 29.0, -0.5, 27.5]
