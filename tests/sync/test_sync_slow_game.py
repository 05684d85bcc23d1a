"""A game that answers a press 1 to 4 of its frames late (`slow_game`, as Adventure: QA
session 16's J2 and J4). The earliest reactions bound the offset (`precede.behind_s`), and
a cut the picture does not show is dated by the actions around it, not at a reaction's
move (`splices.unseen`)."""

from __future__ import annotations

import pytest
from slow_game import signals

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

OFFSET = 3.1


@pytest.mark.parametrize(("fps", "seed"), [(48.0, 2), (48.0, 4), (25.0, 2), (25.0, 4)])
def test_a_slow_game_is_dated_by_its_earliest_reactions(fps, seed):
    """On main: +1.53, +1.26, +1.07, +1.08 frames late (the supporting reactions' median
    less 0.75 game frame), confidence 0.99-1.00. Now within a frame, and earlier than the
    offset the reactions are measured at (the fit's, unchanged)."""
    sig, e = signals(fps=fps, seed=seed, offset_s=OFFSET)
    a = analyze(e, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None and a.offset_used_s is not None
    assert abs(a.suggested_offset_s - OFFSET) * fps <= 1.0  # duration-ok: frames
    assert a.suggested_offset_s < a.offset_used_s
    assert not a.findings


@pytest.mark.parametrize(("fps", "seed"), [(48.0, 1), (48.0, 2), (25.0, 2), (25.0, 3),
                                           (25.0, 4)])
def test_a_cut_the_picture_does_not_show_is_dated_between_the_actions(fps, seed):
    """4 s removed at video 21.5 s where the player stood still on both sides: no sample
    point changes at the splice. On main the jump is dated at the last reaction's move
    before it, 1.9-2.9 s early (19.29, 19.60, 19.64, 19.16, 18.60 s); now within 1 s."""
    sig, e = signals(fps=fps, seed=seed, offset_s=OFFSET, cut=(21.5, 4.0))
    a = analyze(e, sig, DEFAULT_THRESHOLDS)
    jumps = [f for f in a.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1
    assert jumps[0].size_s == pytest.approx(-4.0, abs=2 / fps)
    assert abs(jumps[0].video_start_s - 21.5) <= 1.0  # duration-ok: a place in the video
