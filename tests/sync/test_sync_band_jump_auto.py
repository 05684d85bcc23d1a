"""A splice on a moving screen read with no offset given, at the offset the run's first half
reads in the player's band (issue 13, session 24; core/sync/band_jump.py `jumps_from_head`).

At `--offset auto` a splice on a screen that moves on its own takes the whole run's
suggestion away (the presses after it follow another offset), and with no offset nothing
was read for a splice: QA s23's Carnival cut (4 s removed at video 18.38 s, 25 fps, a 1.7 s
lead-in) got "not enough signal" and no finding (on main). Its first 11 presses, read in
their own band by their reactions, say 1.704 s (0.1 frame off): `band_jump` reads the cut
there. No offset is suggested. Genuine runs whose first half's band stands out get nothing.
"""

from __future__ import annotations

import corpus
import pytest
from test_sync_band_jump_dating import carnival

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.run import sync_finding
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
from moderator_app.core.verify.moments import finding_moment, finding_span

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _auto(run):
    return analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, None,
                   run_duration_s=run.run_end_s)


def _carnival(kind: str):
    from corpus.record import Recorder

    return corpus.build_with(f"s23-carnival-{kind}@r25mp4", "carnival", carnival, kind, 231,
                             Recorder(fps=25, scale=2, lead_s=1.7, container="mp4"), "r25mp4")


def test_a_cut_on_a_moving_screen_is_found_with_no_offset_given():
    """On main: no suggestion and no sync finding at all."""
    run = _carnival("cut")
    a = _auto(run)
    assert a.suggested_offset_s is None  # the offset read from the head is not suggested
    jumps = [f for f in a.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1, a.findings
    [f] = jumps
    t = run.truth["tamper"]
    assert "at the offset its first 11 presses read there, 1.70" in f.message
    assert f.video_start_s is not None and f.size_s is not None
    assert abs(f.video_start_s - t["video_s"]) <= 1.0  # duration-ok: a video time (+-1 s)
    assert abs(f.size_s - t["size_s"]) <= 2 / 25  # duration-ok: the size removed (2 frames)
    # with no offset the report and the workstation place run times at the offset used (0):
    # the click and the span go to the video place the message names
    g = sync_finding(f, "video.mp4")
    used = a.offset_used_s or 0.0
    m = finding_moment(g, None, used)
    span = finding_span(g, used)
    assert m is not None and span is not None
    assert abs(m.video_s - f.video_start_s) <= 1 / 25  # duration-ok: a video time (1 frame)
    assert abs(span[0] + used - f.video_start_s) <= 1 / 25  # duration-ok: a video time
    assert f"near video {f.video_start_s:.2f} s" in g.message


def test_a_genuine_run_whose_first_half_stands_out_gets_no_sync_warning_with_no_offset():
    """space_invaders-genuine@r25drop (a 25 fps recorder dropping frames): its first half
    singles out a band 5.64 spreads over its shuffled logs, the most of any genuine run with
    no suggestion (the others: at most 2.32). Read by its reactions, the head suggests no
    offset: no jump is read. Since session 27 the cannon's half-shifted row
    (`FrameSignals.half_shifted`) offers the run its offset, -0.21 frame (before: none):
    within a frame, and still no warning."""
    run = corpus.build("space_invaders-genuine@r25drop")
    a = _auto(run)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * 25 <= 1.0  # duration-ok: frames
    assert [f.message for f in a.findings if f.rule.startswith("sync.")] == []


def test_a_cut_whose_first_half_ties_over_frames_gets_no_misplaced_warning():
    """Kangaroo's cut (4 s at video 17.93 s, 60 fps): its first half's band stands 6.69
    spreads, but its best count ties over frames and `band_jump` at 1.936 s (2 frames late)
    read a jump at 9.32 s. Read by its reactions the head suggests no offset: no finding."""
    run = corpus.build("kangaroo-cut")
    a = _auto(run)
    t = run.truth["tamper"]
    for f in a.findings:
        if f.rule == "sync.offset_jump":
            assert f.video_start_s is not None
            assert abs(f.video_start_s - t["video_s"]) <= 1.0  # duration-ok: a video time
