"""An earlier group whose presses are each answered again at the suggestion does not make the
offset ambiguous (issue 13, session 27; `precede.earlier_group`, `precede.answered_again`).

The earlier-group bound (session 17, Othello) lowers a suggestion's confidence to its group's
own when a few presses show a change more than a frame before it: a constant game delay and a
later offset look the same on screen. Frogger read on its 16x16 pavement row (session 26)
has such a group at every recorder: presses 9 and 13 of s22-frogger-genuine show a change in
the row 0.09-0.12 s before their expected time, and their own answer 0.1-0.7 frame after it,
as every other press. The two changes are further apart than the support window (no one
offset has both as the press's answer) and the press is answered at the suggestion as the
rest are: the early change is something else in the row. Five runs within a frame were
refused at 0.17-0.20. A press whose only change near the suggestion is the early one, or
whose two changes one offset could both read as its answer, still counts (Othello's and
Adventure's synthetic boards, `slow_game`).
"""

from __future__ import annotations

import corpus
import pytest
from slow_game import signals
from test_sync_capture_rates import _run

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


@needs_corpus
@pytest.mark.parametrize("fps", [25, 48])
def test_a_frog_whose_row_moves_before_two_presses_is_offered_its_offset(
        monkeypatch, scan_cache, fps):
    """s22-frogger-genuine@r25mp4 / @r48mp4 (truth 3.3 s). On main: -0.06 / +0.20 frame at
    0.18 / 0.196 (the earlier group of presses 9 and 13), refused at auto."""
    run = _run(monkeypatch, "frogger", "genuine", fps)
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, None,
                run_duration_s=run.run_end_s)
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * fps <= 1.0  # duration-ok: frames
    assert a.confidence >= APPLY_MIN_CONFIDENCE
    assert a.speed == 1.0
    assert a.findings == []


def test_a_press_whose_two_changes_one_offset_can_read_still_bounds_the_offset():
    """Adventure's synthetic board at 48 fps, seed 8 (truth 3.1 s): presses 18 and 19 change
    1.1 and 1.4 frames before the suggestion (1.04 frames late) and again 1.0 and 3.0 frames
    later, within one support window of each other. Counted as answered again, the group
    would go and the late offset be offered at 0.598; the group stands: under the bar."""
    sig, e = signals(fps=48.0, seed=8, offset_s=3.1)
    a = analyze(e, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert (a.suggested_offset_s - 3.1) * 48 > 1.0  # duration-ok: frames late, as on main
    assert a.confidence < APPLY_MIN_CONFIDENCE


@pytest.mark.parametrize(("fps", "seed"), [(48.0, 15), (30.0, 10), (60.0, 3)])
def test_an_earlier_group_of_presses_answered_once_still_bounds_the_offset(fps, seed):
    """Othello's spread (2-14 game frames, a still board): groups in which some presses are
    answered again at the suggestion and some are not. 48 fps seed 15 is 2.39 frames late;
    with each press answered again taken out of its group it was offered at 0.779."""
    from slow_game import OTHELLO_LATENCY

    sig, e = signals(fps=fps, seed=seed, offset_s=3.1, latency=OTHELLO_LATENCY)
    a = analyze(e, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - 3.1) * fps > 1.0  # duration-ok: frames late, as on main
    assert a.confidence < APPLY_MIN_CONFIDENCE
