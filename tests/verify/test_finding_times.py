"""A finding's times (docs/DESIGN.md, "Times in findings"): emitted only when set, so that a
finding without any is the `moderator-app/report/v1` object it always was; never a value JSON
cannot hold; and the sync analysis' findings carry both clocks into the report."""

from __future__ import annotations

import math

import orjson

from moderator_app.core.sync.records import SyncFinding
from moderator_app.core.sync.run import sync_finding
from moderator_app.core.verify.moments import finding_span
from moderator_app.core.video.probe import FOOTAGE_GAP as PLAIN


def test_a_finding_without_times_is_the_v1_object_byte_for_byte():
    f = PLAIN.at("a message", "video.mkv", 3)
    assert orjson.dumps(f.to_dict()) == (b'{"severity":"warning","rule":"video.footage_gap",'
                                         b'"message":"a message","file":"video.mkv","line":3}')


def test_times_are_emitted_after_line_only_when_set_and_never_as_nan():
    f = PLAIN.at("m", None, video_start_s=2.0000004, video_end_s=math.inf, run_s=math.nan,
                 run_start_s=0.25)
    assert f.to_dict() == {"severity": "warning", "rule": "video.footage_gap", "message": "m",
                           "file": None, "line": None, "video_start_s": 2.0,
                           "run_start_s": 0.25}
    assert list(f.to_dict())[5:] == ["video_start_s", "run_start_s"]


def test_a_sync_finding_carries_its_video_and_run_span():
    found = SyncFinding("sync.no_reaction", "3 actions in a row with no visible reaction",
                        video_start_s=4.5, video_end_s=6.0, run_start_s=4.0, run_end_s=5.5,
                        actions=3)
    f = sync_finding(found, "video.mp4")
    d = f.to_dict()
    assert (d["video_start_s"], d["video_end_s"], d["run_start_s"], d["run_end_s"]) == \
        (4.5, 6.0, 4.0, 5.5)
    assert "video_s" not in d and "run_s" not in d
    # its actions' run span, at any offset (its video span holds at the analysis' offset)
    assert finding_span(f, 9.5) == (4.0, 5.5)


def test_a_finding_on_the_videos_clock_gets_the_runs_at_an_offset():
    """A probe's or a scan's finding is found on the video's clock; the report gives the run's
    too (QA s22 P2: at --offset 1.0 every video.* finding had video times only)."""
    gap = PLAIN.at("m", "v.mkv", video_start_s=41.0, video_end_s=47.4)
    assert gap.on_run_clock(1.0).to_dict()["run_start_s"] == 40.0
    assert (gap.on_run_clock(1.0).run_start_s, gap.on_run_clock(1.0).run_end_s) == (40.0, 46.4)
    assert gap.on_run_clock(-2.5).video_end_s == 47.4 and gap.on_run_clock(-2.5).run_s is None
    moment = PLAIN.at("m", None, video_s=3.25)
    assert (moment.on_run_clock(1.0).run_s, moment.on_run_clock(1.0).run_start_s) == (2.25, None)
    # one that has run times keeps them (a sync finding: its actions' span), one with no
    # times stays the v1 object
    both = PLAIN.at("m", None, video_start_s=4.5, video_end_s=6.0, run_start_s=4.0, run_end_s=5.5)
    assert both.on_run_clock(9.5) is both
    plain = PLAIN.at("a message", "video.mkv", 3)
    assert plain.on_run_clock(1.0) is plain
