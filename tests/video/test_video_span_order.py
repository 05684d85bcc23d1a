"""A finding's span never ends before it starts (QA s22 P5). On an MPEG-4 Part 2 MKV joined to
an H.264 one (`cat`), the frames stop decoding at the join, and a `video.timestamp_backwards`
span that starts later than the last decoded frame was clipped to that frame's end:
`{"video_start_s": 20.6, "video_end_s": 4.0}` in `verify --json`."""

from __future__ import annotations

import shutil

import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def test_every_span_of_a_joined_recording_of_another_codec_starts_before_it_ends(tmp_path):
    a = vc.encode(tmp_path / "a.mkv", ["-c:v", "mpeg4", "-q:v", "4", "-f", "matroska"],
                  frames=60)
    b = vc.encode(tmp_path / "b.mkv", ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2",
                                       "-pix_fmt", "yuv420p", "-threads", "1", "-f",
                                       "matroska"], frames=300)
    run = tmp_path / "run"
    run.mkdir()
    (run / "video.mkv").write_bytes(a.read_bytes() + b.read_bytes())
    make_agent_log(run / "agent-log.jsonl", n_events=20, seed=2)
    report = verify_paths([run], VerifyOptions(scan_video=True)).report
    spans = [(f.rule, f.video_start_s, f.video_end_s) for f in report.findings
             if f.video_start_s is not None and f.video_end_s is not None]
    assert any(r == "video.timestamp_backwards" for r, _, _ in spans)
    assert [s for s in spans if s[2] < s[1]] == []
    assert report.verdict == "fail"  # the H.264 recording is no footage
