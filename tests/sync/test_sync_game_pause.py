"""A game's own pause is no tampering (QA session 16, J3: Kung-Fu Master's genuine runs).

Three false `sync.no_reaction` warnings on genuine runs, each a game ignoring presses:
- Thomas gripped for 5.7 s: the picture stands still but for its timer and energy bar, 2-5
  points on 43 % of the frames; the held-picture test forgave them as codec noise
  (core/sync/freeze.py, LIVING_SHARE);
- after Thomas dies the floor is held empty for 4.75 s and he walks in from the edge: the
  picture resumes with a change of 6-25 points against 250 a frame after, where footage
  resumed after an inserted freeze jumps (core/video/resume.py);
- 14 actions answered 4 times against 1.4 by chance (+2.4 spreads) before 10 answered all,
  and no other offset explains them: a game that ignores some presses, not another attempt's
  footage (stretch.NOT_AT_CHANCE_Z).
Each test fails on the code before (session 16's main).
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import local_findings, stretch
from moderator_app.core.sync.analysis import SyncAnalysis, analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60.0
PRESSES = np.arange(0.5, 36.0, 1.0)  # run times: a press a second, run_end at 37 s
HELD = (900, 1140)  # frames 15.0 to 19.0 s


def _busy(n: int = 2400) -> FrameSignals:
    """A picture that changes every frame in one tile by 30 points, in no step with the log,
    frames HELD without any change."""
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 9] = 30
    tiles[HELD[0]:HELD[1]] = 0
    return FrameSignals(np.arange(n) / FPS, tiles, FPS)


def _held(sig: FrameSignals):
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=37.0)
    return [(f.video_start_s, f.video_end_s) for f in a.findings if f.rule == "sync.no_reaction"]


def test_a_held_picture_that_resumes_with_a_jump_is_found():
    """Footage resumed elsewhere: its first frame after the hold changes 60 points."""
    sig = _busy()
    sig.tiles[HELD[1], 9] = 60
    assert _held(sig) == [(15.0, 19.0)]


def test_a_still_screen_whose_timer_keeps_ticking_is_no_held_picture():
    """3 points of one tile change on every other frame of the 4 s (a timer, an energy bar):
    a screen that lives. Before: forgiven as a keyframe's noise, one held picture."""
    sig = _busy()
    sig.tiles[HELD[0]:HELD[1]:2, 2] = 3
    sig.tiles[HELD[1], 9] = 60
    assert _held(sig) == []


def test_a_keyframe_inside_a_held_picture_is_still_forgiven():
    """Two frames of 5 points every 2 s (Ms. Pac-Man's keyframes): 2 % of the frames."""
    sig = _busy()
    sig.tiles[1020:1022, 3] = 5
    sig.tiles[HELD[1], 9] = 60
    assert _held(sig) == [(15.0, 19.0)]


def test_a_held_picture_that_resumes_gradually_is_the_games_own_pause():
    """The game moving again: 2 and then 5 points change, then its 30 a frame. Before: a
    `sync.no_reaction` over 15-19 s."""
    sig = _busy()
    sig.tiles[HELD[1]:HELD[1] + 2, 9] = (2, 5)
    assert _held(sig) == []
    # (new signals: an analysis keeps what it reads of them, `FrameSignals.kept`)
    sig = _busy()
    sig.tiles[HELD[1]:HELD[1] + 2, 9] = (2, 15)  # half the usual change: a jump, found
    assert _held(sig) == [(15.0, 19.0)]


def _s(text: str) -> np.ndarray:
    return np.array([c == "x" for c in text])


# Kung-Fu Master genuine3@r48h422mov at its offset: per action, answered in the player's tiles
# (x) and the chance of an answer there (stretch.answerer); actions 1.2 s apart from run 1.2 s
KFM_ANSWERS = _s(".x.xxx........xxxxxxxxxx")
KFM_CHANCE = np.array([0.05, 0.13, 0.17, 0.15, 0.17, 0.07, 0.10, 0.10, 0.10, 0.10, 0.10, 0.05,
                       0.02, 0.05, 0.20, 0.24, 0.27, 0.22, 0.20, 0.20, 0.20, 0.17, 0.15, 0.10])


def _stretch_finding(monkeypatch, answered: np.ndarray) -> list[str]:
    """The findings of a run whose first 14 actions are the stretch at chance
    (`stretch.unexplained`) and that no other offset explains (`_stretch_jump`)."""
    run_s = 1.2 + 1.2 * np.arange(len(answered))
    exp = 3.1 + run_s
    monkeypatch.setattr(local_findings, "_stretch_answers",
                        lambda *args, **kw: (exp, answered, KFM_CHANCE, None))
    monkeypatch.setattr(local_findings, "_stretch_jump", lambda *args: None)
    assert stretch.unexplained(answered, KFM_CHANCE)[:2] == (0, 14)
    n = int(40 * FPS)
    sig = FrameSignals(np.arange(n) / FPS, np.ones((n, 64), np.uint16), FPS)
    out = SyncAnalysis(3.1, 0.8, 10, len(run_s), 1.0, "", 3.1)
    got = local_findings.with_unexplained(out, run_s, sig, None, DEFAULT_THRESHOLDS, 0, 14,
                                          None, None, 50.0)
    return [f.rule for f in got.findings]


def test_a_stretch_answered_above_chance_by_a_game_that_ignores_presses_is_no_finding(
        monkeypatch):
    """The first 14 actions answered 4 times against 1.4 by chance (+2.4 spreads), the last
    10 all: a game ignoring presses, no finding. Before: `sync.no_reaction` over 0-13."""
    assert _stretch_finding(monkeypatch, KFM_ANSWERS) == []


def test_a_stretch_answered_at_chance_is_still_found(monkeypatch):
    """The same run with the 14 answered once (at chance): another attempt's footage."""
    assert _stretch_finding(monkeypatch, _s(".x............xxxxxxxxxx")) == ["sync.no_reaction"]
