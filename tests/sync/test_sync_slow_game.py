"""A game that answers a press 1 to 4 of its frames late (`slow_game`, as Adventure: QA
session 16's J2 and J4). The earliest reactions bound the offset (`precede.behind_s`), and
a cut the picture does not show is dated by the actions around it, not at a reaction's
move (`splices.unseen`). A game that answers 2 to 14 frames late (Othello, QA session 17's
K2) gets no confident wrong offset (`precede.earlier_group`, `precede.spread_s`)."""

from __future__ import annotations

import pytest
from slow_game import OTHELLO_LATENCY, signals

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
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


@pytest.mark.parametrize(("fps", "seed"), [(30.0, 5), (30.0, 10), (30.0, 12), (30.0, 17),
                                           (60.0, 4), (60.0, 6)])
def test_a_game_slower_than_the_cap_gets_no_confident_wrong_offset(fps, seed):
    """Othello's spread (2-14 game frames, a still board): the suggestion sits near the
    median's dating, 2.03, 1.95, 2.33, 1.78 frames late at 30 fps and 2.77, 3.10 at 60 fps,
    at confidence 0.89, 0.95, 0.96, 0.91, 0.63, 0.79 on main. The run's earliest reactions lie
    more than a frame of the video before it: a constant delay or a later offset, which the
    picture cannot tell apart, so the suggestion is within a frame or not confident."""
    sig, e = signals(fps=fps, seed=seed, offset_s=OFFSET, latency=OTHELLO_LATENCY)
    a = analyze(e, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - OFFSET) * fps <= 1.0 or a.confidence < 0.5  # duration-ok
    assert not a.findings


@pytest.mark.parametrize(("fps", "seed"), [(29.97, 3), (29.97, 4), (29.97, 17), (25.0, 6),
                                           (25.0, 17), (48.0, 3), (60.0, 3)])
def test_reactions_spread_past_the_model_are_not_offered_in_one_click(fps, seed):
    """Othello's spread (2-14 game frames) where no earlier group shows: the suggestion sits
    +2.31, +1.49, +1.47, +1.62, +1.32, +2.62, +3.19 frames late at confidence 0.94, 0.90,
    0.84, 0.75, 0.85, 0.96, 0.78 on main (over the Sync panel's one-click bar). The middle
    80 % of its first reactions spread over more than 4 game frames (`precede.spread_s`):
    within a frame, or under the bar."""
    sig, e = signals(fps=fps, seed=seed, offset_s=OFFSET, latency=OTHELLO_LATENCY)
    a = analyze(e, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert (abs(a.suggested_offset_s - OFFSET) * fps <= 1.0  # duration-ok: frames
            or a.confidence < APPLY_MIN_CONFIDENCE)  # and a confidence, not a time taken
    assert not a.findings
