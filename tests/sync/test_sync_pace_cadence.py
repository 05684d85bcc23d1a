"""A 40 fps recording of a 60 Hz console: the recorder's cadence is no game clock (issue 13,
session 21, core/sync/pace.py; QA s20's Frogger and Pooyan at 40 fps).

At 40 fps a video frame shows 1 and 2 console frames in turn: the picture's change alternates
with the steps, a line at 20 Hz, the video's Nyquist frequency, which a 3-frame console cycle
(60 / 3 = 20 Hz) also reads. A game whose sprites speed up and slow down over seconds turns
that alternation over and back: a line just below 20 Hz (QA s20's frogger runs: 19.902-19.910
Hz on the genuine, +4 % and -4 % runs alike) that read as the console's own clock, an honest
line, and silenced every drift. And the game's two-frame cycle split by a drift (31.2 and 28.8
Hz, folded to 8.8 and 11.2 Hz) cannot tell its sign at 40 fps (no whole number of video frames
per console frame): it silenced the sign a 4-frame cycle's line told.

The runs are made as the QA corpus makes them: the game's frames sped up (dropped) or slowed
(held) at 60 Hz, then captured at 40 fps (video frame v shows the stream's frame
floor(1.5 v)).
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.pace import cadence_cycle
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

PRESSES = np.arange(0.5, 36.0, 1.3)  # run times, in no step with the picture


def _game40(speed: float, even: int = 40, odd: int = 15, walk: float = 20.0,
            pattern: int = 20, seconds: float = 42.0, seed: int = 7) -> FrameSignals:
    """A game captured at 40 fps, played `speed` times too fast: per console frame, an update
    of `even` points on even frames and `odd` on odd ones (a two-frame cycle), a sprite
    walking `walk` points a frame at a pace rising and falling over 10 s (0.1 Hz, +-80 %);
    each video frame's change is the sum over the console frames it moves on (1 or 2). Beside
    them a 4-frame cycle's crawl (+-`pattern` around 30) and a sprite's irregular change."""
    rng = np.random.default_rng(seed)
    fps = 40.0
    n = int(seconds * fps)
    shown = np.floor(np.arange(n) * 60.0 / fps).astype(int)
    game = (np.round(shown * speed) if speed > 1 else np.floor(shown * speed)).astype(int)
    i = np.arange(game[-1] + 2)
    update = np.r_[0, np.cumsum(np.where(i % 2 == 0, even, odd))]
    pace = np.r_[0, np.cumsum(walk * (1 + 0.8 * np.sin(2 * np.pi * 0.1 * i / 60.0)))]
    a, b = game[:-1] + 1, game[1:] + 1  # the console frames (a - 1, b - 1] of each step
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 30] = np.round(update[b] - update[a]).astype(int)
    tiles[1:, 43] = np.round(pace[b] - pace[a]).astype(int)
    crawl = np.round(30 + pattern * np.cos(2 * np.pi * np.arange(4) / 4)).astype(int)
    tiles[1:, 20] = crawl[game[1:] % 4] + rng.integers(0, 6, n - 1)
    tiles[1:, 50] = rng.integers(0, 20, n - 1)
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _found(sig: FrameSignals) -> list[tuple[str, float | None]]:
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    return [(f.rule, f.percent) for f in a.findings]


@pytest.mark.parametrize(("fps", "cycle"), [(40.0, 3), (24.0, 5), (25.0, 6), (50.0, 6),
                                            (30.0, None), (60.0, None), (120.0, None),
                                            (20.0, None)])
def test_the_cycle_on_the_recorders_cadence(fps, cycle):
    """The console cycle whose line falls on the cadence's (fps x the fraction of console
    frames per video frame, folded): none where a video frame shows a whole number of
    console frames, or a console frame a whole number of video frames."""
    assert cadence_cycle(fps, 60.0) == cycle


@pytest.mark.parametrize("kw", [{}, {"even": 60, "odd": 0, "walk": 0.0}])
def test_a_40_fps_game_at_its_own_speed_is_no_finding(kw):
    assert _found(_game40(1.0, **kw)) == []


def test_a_slowed_40_fps_game_is_read_through_the_cadence_line():
    """Slowed 3 %: the 4-frame cycle at 14.551 Hz (-2.99 %), its neighbours agreeing. On
    main: nothing (19.905 Hz, the cadence's alternation turned over every 5 s, read as a
    3-frame cycle at the console's own clock, -0.5 %: an honest line)."""
    assert _found(_game40(0.97)) == [("sync.drift", -2.99)]


def test_a_sped_up_40_fps_game_keeps_the_sign_its_four_frame_cycle_tells():
    """Sped up 4 %, the two-frame cycle's line split in two (8.80 and 11.20 Hz): the 4-frame
    cycle's line at 15.601 Hz reads +4.0 %. On main: nothing (a drift the size of the split
    went to the split for its sign, which it cannot tell at 40 fps)."""
    assert _found(_game40(1.04, even=60, odd=0, walk=0.0)) == [("sync.drift", 4.0)]
