"""No picture finding where the probe says there is no footage (session 23).

A joined recording decoded with the first recording's header gives smeared pictures that the
product does not show as footage (`video.joined_undecodable`: the player says "no footage at
this time"). The integrity scan still judged them: QA s21's seg_mkv_h264_res_change listed 7
"possible hard cut"s at 3.2-26 s inside its 2-28 s stretch, and a click on one went to "no
footage" (session 23's walk). The scan's picture findings (cut, frozen, black) lying wholly
inside such a span are dropped, in the findings and in the `video_scan` section alike; its
timing findings (the timestamps going back at the join) stay, and so does a black stretch
in the footage before it. On a real file made by ffmpeg (`video_corpus.build_black_in_join`).
"""

from __future__ import annotations

import shutil

import pytest
from video_corpus import build_black_in_join

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def test_black_inside_a_joined_stretch_is_no_finding_black_before_it_is(tmp_path):
    sub = tmp_path / "run"
    sub.mkdir()
    make_agent_log(sub / "agent-log.jsonl", n_events=20, seed=2)
    build_black_in_join(tmp_path).rename(sub / "video.mkv")
    report = verify_paths([sub], VerifyOptions(scan_video=True)).report
    video = [(f.rule, f.video_start_s, f.video_end_s) for f in report.findings
             if f.rule.startswith("video.")]
    assert ("video.joined_undecodable", 2.0, 5.000333) in video
    # the first recording's black second is footage: found (its end runs on over the first
    # dark pictures the decoder smears from it after the join: a span that starts in the
    # footage is kept whole); the joined one's black (3.0-5.0 s, found before this change)
    # is wholly inside the stretch: not
    black = [v for v in video if v[0] == "video.black"]
    assert [v[1] for v in black] == [1.0] and black[0][2] < 3.0
    # the join's timing is about the packets: kept
    assert [v[:2] for v in video if v[0] == "video.timestamp_backwards"] == \
        [("video.timestamp_backwards", 2.0)]
    section = report.video_scan.to_dict()["findings"]
    assert [(s["rule"], s["start_s"]) for s in section if s["rule"] == "video.black"] == \
        [("video.black", 1.0)]
