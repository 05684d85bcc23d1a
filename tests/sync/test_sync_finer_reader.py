"""The per-action reader at the scan's finer positions (`Thresholds.sync_finer_reader`,
session 37; QA s35 / s36 T1): a sprite that never stops keeps its 8x8 tile changing, so a
press that changes its course makes no onset there, only in the finer cells it turns into.
`reactions.finer_surprising` reads those; a screen whose finer cells all burst at random is
no answer (each view's own chance null)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from moderator_app.core.sync import reactions, reading
from moderator_app.core.sync.signals import FrameSignals, block_sums
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60
OFFSET = 1.5
N = 40 * FPS
PRESSES = np.array([1.0 + 2.5 * i for i in range(12)])
LAG = 2  # frames from the expected one to the turn's first frame
TURN = 10  # frames the sprite moves in its new cells
ON = replace(DEFAULT_THRESHOLDS, sync_finer_reader=True)
OFF = replace(DEFAULT_THRESHOLDS, sync_finer_reader=False)


def _signals(fine: np.ndarray) -> FrameSignals:
    """The sync view of 16x16 fine tiles, as `signals.from_scan` makes it."""
    coarse = block_sums(fine.reshape(len(fine), 16, 16), 2).reshape(len(fine), 64)
    return FrameSignals(np.arange(len(fine)) / FPS, coarse, float(FPS),
                        fine=fine.reshape(len(fine), 256))


def _turning_sprite() -> FrameSignals:
    """A sprite moving every frame in fine cell (4, 4) (8x8 tile 18 never still), which at
    each press turns down into the still cells (5, 4) and (5, 5) for TURN frames; the rest
    of the screen still."""
    fine = np.zeros((N, 16, 16), np.uint8)
    fine[1:, 4, 4] = 20
    for run_s in PRESSES:
        k = int(round((OFFSET + run_s) * FPS)) + LAG
        fine[k:k + TURN, 5, 4:6] = 12
    return _signals(fine)


def _frames(rs) -> list[int | None]:
    return [None if r.video_s is None else int(round(r.video_s * FPS)) for r in rs]


def test_a_turn_of_a_moving_sprite_is_answered_at_the_finer_positions():
    sig = _turning_sprite()
    want = [int(round((OFFSET + r) * FPS)) + LAG for r in PRESSES]
    assert not reactions.novelty(sig).onsets[2:, 18].any()  # its 8x8 tile never starts again
    assert _frames(reactions.answers(sig, PRESSES, OFFSET)) == [None] * len(PRESSES)
    assert _frames(reactions.answers(sig, PRESSES, OFFSET, finer=True)) == want
    got = reading.analyze_at(PRESSES, sig, ON, OFFSET, fixed=True)
    assert _frames(got.reactions) == want
    # no 8x8 onset answers them: the readers of the player's 8x8 tiles leave them out
    assert [r.finer for r in got.reactions] == [True] * len(PRESSES)
    old = reading.analyze_at(PRESSES, sig, OFF, OFFSET, fixed=True)
    assert _frames(old.reactions) == [None] * len(PRESSES)


def test_fine_cells_bursting_at_random_are_no_answer():
    """Every fine cell changes for 2 frames about once a second at random: at the finer
    positions that is chance everywhere, and no press 0.5 s off the turns is answered."""
    rng = np.random.default_rng(37)
    fine = np.zeros((N, 256), np.uint8)
    for k, j in zip(*np.nonzero(rng.random((N, 256)) < 1 / FPS), strict=True):
        fine[k:k + 2, j] = 9
    sig = _signals(fine.reshape(N, 16, 16))
    got = reactions.answers(sig, PRESSES, OFFSET, finer=True)
    plain = reactions.answers(sig, PRESSES, OFFSET)
    assert sum(r.video_s is not None for r in got) == sum(
        r.video_s is not None for r in plain) == 0


def test_signals_without_finer_tiles_read_as_before():
    sig = _turning_sprite()
    coarse = FrameSignals(sig.times, sig.tiles, sig.fps)
    assert reactions.finer_surprising(coarse) is None
    assert _frames(reactions.answers(coarse, PRESSES, OFFSET, finer=True)) == [None] * len(
        PRESSES)
