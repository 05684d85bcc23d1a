"""The main analysis' own offset jumps (`splices.jumps`, on a run with a suggested offset) say
one place in their message, their span on the timeline and their mark (issue 13, session 24,
QA s24 R3; core/sync/splices.py `dated_jumps`).

Before, a jump's video place was dated among the tied frames, but its run times were the
presses around the track's window, seconds from that place: kangaroo-insert (4 s inserted at
video 14.18 s, 60 fps) said "near video 14.18 s" and its mark went to video 11.92 s (the press
at run 10.007 s), 2.26 s early; boxing-cut (4 s cut at 16.82 s) to video 15.50 s, 1.31 s
early. Now the run times are those of the place named, on the clock of the offset used, and
the splice's frame is the one that stands out between the presses (`splices.standout`) when
one does (Assault, QA s24 R3: placed 1.03 s early at the true offset).
"""

from __future__ import annotations

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.run import sync_finding
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
from moderator_app.core.verify.moments import finding_moment, finding_span

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.mark.parametrize("name", ["kangaroo-insert", "boxing-cut"])
def test_a_jump_the_presses_place_away_from_its_splice_is_marked_at_its_splice(name):
    run = corpus.build(name)
    t = run.truth["tamper"]
    fps = run.truth["fps"]
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run.truth["offset_s"], run_duration_s=run.run_end_s)
    assert a.suggested_offset_s is not None  # (the main analysis' path, under test)
    off = a.offset_used_s
    assert off is not None
    [f] = [f for f in a.findings if f.rule == "sync.offset_jump"]
    assert f.size_s is not None and f.video_start_s is not None
    assert abs(f.size_s - t["size_s"]) <= 2 / fps  # duration-ok: the size (2 frames)
    assert abs(f.video_start_s - t["video_s"]) <= 1 / fps  # duration-ok: a video time
    g = sync_finding(f, "video.mp4")
    mark, span = finding_moment(g, None, off), finding_span(g, off)
    assert mark is not None and span is not None
    assert f"near video {f.video_start_s:.2f} s" in g.message
    # the mark at the splice's frame (on main: 2.26 s and 1.31 s early)
    assert abs(mark.video_s - f.video_start_s) <= 1 / fps  # duration-ok: a video time
    s0, s1 = span[0] + off, span[1] + off
    assert abs(s0 - f.video_start_s) <= 1 / fps  # duration-ok: a video time (1 frame)
    if f.video_end_s is not None:  # inserted: the inserted span
        assert abs(s1 - f.video_end_s) <= 1 / fps  # duration-ok: a video time (1 frame)
    else:  # removed: from the cut to where the run resumes
        assert abs((s1 - s0) + f.size_s) <= 1 / fps  # duration-ok: the size removed
    assert f"run {span[0]:.2f} s to {span[1]:.2f} s" in g.message
