"""The per-action reader (`reactions.answers`, session 34): a press shown by two onsets in
tiles still for the second around them is answered on its own frame, on a screen whose busy
half changes every other frame (the count of onsets, `measure`'s reading, stands no higher
there than on any other frame: the wide set's Keystone Kapers and Galaxian); a press that
shows nothing gets no answer, and neither does one whose only change comes after
ANSWER_MAX_S."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import reactions
from moderator_app.core.sync.signals import FrameSignals

FPS = 60
OFFSET = 1.5
PLAYER = (58, 59)  # the player's tiles: still but for the presses' answers


def _screen(shown: list[tuple[float, int]], seed: int = 3) -> FrameSignals:
    """20 s at 60 fps: tiles 0-31 change for one frame every 4-6 frames (busy: ~6 onsets a
    frame, give or take 2), the other tiles burst for 3 frames once every ~30 s each;
    `shown`: (run time, frames late) of each press whose answer is a change in both PLAYER
    tiles."""
    rng = np.random.default_rng(seed)
    n = 20 * FPS
    tiles = np.zeros((n, 64), np.uint16)
    for j in range(32):
        k = int(rng.integers(0, 6))
        while k < n:
            tiles[k, j] = 30
            k += int(rng.integers(4, 7))
    for j in range(32, 64):
        if j in PLAYER:
            continue
        for k in np.nonzero(rng.random(n) < 1 / 30 / FPS)[0]:
            tiles[k:k + 3, j] = 12
    for run_s, late in shown:
        k = int(round((OFFSET + run_s) * FPS)) + late
        tiles[k, list(PLAYER)] = 9
    return FrameSignals(np.arange(n) / FPS, tiles, float(FPS))


def test_a_press_in_still_tiles_is_answered_on_its_frame_beside_a_busy_half():
    presses = [(2.0, 1), (4.5, 0), (7.0, 2), (9.5, 1), (12.0, 1)]
    sig = _screen(presses)
    run_s = np.array([p[0] for p in presses])
    got = reactions.answers(sig, run_s, OFFSET)
    want = [int(round((OFFSET + r) * FPS)) + late for r, late in presses]
    assert [None if a.video_s is None else int(round(a.video_s * FPS)) for a in got] == want
    # the count of onsets alone stands on none of those frames (what the reader adds)
    plain = reactions.measure(sig, reactions.novelty(sig), run_s, OFFSET)
    assert not {None if a.video_s is None else int(round(a.video_s * FPS))
                for a in plain} & set(want)


def test_no_answer_for_a_press_that_shows_nothing_or_shows_too_late():
    late = 14  # frames: 0.23 s, later than all but 1.4 % of the wide set's shown presses
    sig = _screen([(2.0, 1), (6.0, late)])
    got = reactions.answers(sig, np.array([2.0, 4.0, 6.0]), OFFSET)
    assert [a.video_s is not None for a in got] == [True, False, False]
    assert got[0].confidence > 0
