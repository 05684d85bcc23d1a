"""A game's constant lag is in the suggested offset, not in its confidence (issue 13, QA s30 T2,
session 31).

The picture shows when the game answered each press. A game that answers every press k of
its frames later than another draws the same picture k frames later: offset and lag are one
number, and the suggestion (dated by a latency prior, `fit.INPUT_LATENCY_S`) moves by the lag,
frame for frame, while the reactions single out their offset as clearly as before, so the
confidence does not move. Backgammon (QA s30, 54 fps: 2.5-3 frames) is suggested 1.93 frames
late at 0.906 for that reason; docs/submitter-guide.md ("What the suggestion and its
confidence mean") says so. This pins the decision: a bound that claimed to see such a lag
would have to tell these three runs apart, and nothing in them differs but the lag.
"""

from __future__ import annotations

import pytest
from slow_game import signals

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60.0


def _read(first: int):
    """The suggestion and confidence for a synthetic still screen whose game answers a press
    `first` or `first` + 1 of its frames late (even chances, the same draws at every `first`)."""
    sig, actions = signals(fps=FPS, seed=3, latency=((first, first + 1), (0.5, 0.5)))
    a = analyze(actions, sig, DEFAULT_THRESHOLDS)
    return a.suggested_offset_s, a.confidence


def test_a_constant_lag_moves_the_suggestion_by_itself_and_not_its_confidence():
    base, conf = _read(0)
    assert base == pytest.approx(3.0902, abs=1e-4)
    assert conf == pytest.approx(0.996, abs=1e-3)
    for k in (2, 3):
        off, c = _read(k)
        moved = (off - base) * FPS
        assert moved == pytest.approx(k, abs=0.05)  # duration-ok: frames of the video
        assert c == conf
