"""Actions the footage does not reach are no "no visible reaction" (session 23's walk).

A Breakout run whose video was cut at 20.08 s (`ffmpeg -t 20`) of a 40 s log: `verify --sync`
said `sync.no_reaction` "13 actions in a row with no visible reaction; video 21.01 s to
38.29 s", a stretch after the video's last frame, and its rule reads "frozen or replaced
footage?". There is no footage there: `coverage.missing` says so, by its limit. A stretch of
ignored presses inside the footage is still found.
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60.0
OFFSET = 2.0
PRESSES = np.sort(np.random.default_rng(5).uniform(0.5, 38.0, 40))  # run times, run 40 s


def _signals(end_s: float, ignored: tuple[float, float] = (0.0, 0.0)) -> FrameSignals:
    """Each press shows 0.1 s later as a 60-point change of one tile, but for the presses
    whose run time is in `ignored`; the footage stops at video time `end_s`."""
    n = int(end_s * FPS)
    tiles = np.zeros((n, 64), np.uint16)
    for p in PRESSES:
        k = int(round((p + OFFSET + 0.1) * FPS))
        if k < n and not ignored[0] <= p <= ignored[1]:
            tiles[k, 9] = 60
    return FrameSignals(np.arange(n) / FPS, tiles, FPS)


def _no_reaction(sig: FrameSignals) -> list[tuple[float, float]]:
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    assert a.suggested_offset_s is not None
    return [(f.video_start_s, f.video_end_s) for f in a.findings
            if f.rule == "sync.no_reaction"]


def test_presses_after_the_footage_ends_are_no_missing_reactions():
    sig = _signals(20.0)
    assert _no_reaction(sig) == []  # was [(21.078, 40.558)]: after the last frame (19.983 s)


def test_ignored_presses_inside_the_footage_are_still_found():
    """Presses at run 8-20 s ignored (video 10-22 s), the footage cut at 30 s: the stretch
    inside it is found (from the answered press before it, as with the whole footage), none
    after the footage's end."""
    whole = _no_reaction(_signals(42.0, ignored=(8.0, 20.0)))
    [(start, end)] = whole
    [cut] = _no_reaction(_signals(30.0, ignored=(8.0, 20.0)))
    assert cut == pytest.approx((start, end), abs=0.01)  # duration-ok: video times (places)
    assert start < 10.0 + 0.5 and 22.0 <= end < 30.0
