"""A synthetic still screen whose game answers a press 1 to 4 of its 60 Hz frames late (the
square of Adventure, QA session 16's J2), seen through a recorder at `fps`: the frame on
screen at each of its ticks. Shared by `test_sync_slow_game.py`."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync.signals import FrameSignals

GAME_HZ = 60.0
# Adventure's first changes after a press (truth, 22 presses at 48 fps: 15-73 ms with the
# recorder's frame): 1 to 4 game frames, most 2-3
LATENCY_FRAMES = (1, 2, 3, 4)
LATENCY_P = (0.15, 0.2, 0.35, 0.3)
QUIET_S = 1.6
# Othello's (QA session 17, K2: 26-234 ms after a press on a still board): 2 to 14 game
# frames, evenly
OTHELLO_LATENCY = ((2, 4, 6, 8, 10, 12, 14), (1 / 7,) * 7)


def signals(fps: float = 48.0, seconds: float = 40.0, offset_s: float = 3.1, seed: int = 1,
            cut: tuple[float, float] | None = None,
            latency: tuple[tuple[int, ...], tuple[float, ...]] = (LATENCY_FRAMES, LATENCY_P)):
    """(FrameSignals, action run times). A still picture (a rare speck of codec noise), and
    one tile that moves from 1-4 game frames after each press for its hold (6-20 game
    frames). `cut`: (video time, seconds) of footage removed there, the picture the same on
    both sides (the player stood still across it). `latency`: (game frames, their chances)
    from a press to its first change (Othello's longer spread: `OTHELLO_LATENCY`)."""
    rng = np.random.default_rng(seed)
    gaps = rng.uniform(1.0, 2.2, 40)
    actions = np.cumsum(gaps)
    actions = actions[actions < seconds - 2.0]
    if cut is not None:
        # no press for QUIET_S on either side of the removed footage: the player stood
        # still there (Adventure's cut: the square's last move 1.2 s before the splice)
        at, size = cut[0] - offset_s, cut[1]
        actions = actions[((actions < at - QUIET_S) | (actions >= at))
                          & ((actions >= at + size + QUIET_S) | (actions < at + size))]
    moving = np.zeros(int((seconds + offset_s + 2) * GAME_HZ), bool)
    tile_of = np.zeros(len(moving), np.int64)
    for i, e in enumerate(actions):
        lat = int(rng.choice(latency[0], p=latency[1]))
        hold = int(rng.integers(6, 21))
        g = int(np.floor((offset_s + e) * GAME_HZ)) + lat  # the game frame that shows it
        moving[g:g + hold] = True
        tile_of[g:g + hold] = 27 + (i % 3)  # the square crosses a few tiles of one room
    n = int((seconds + offset_s) * fps)
    tick = np.arange(n) / fps
    shown = np.floor(tick * GAME_HZ + 1e-9).astype(np.int64)  # the game frame on screen
    if cut is not None:
        at, size = cut
        keep = (tick < at) | (tick >= at + size)
        shown = shown[keep][:n]
        n = len(shown)
    tiles = np.zeros((n, 64), np.uint16)
    for k in range(1, n):
        a, b = shown[k - 1], shown[k]
        if b - a > 0 and b - a < GAME_HZ and moving[a + 1:b + 1].any():
            t = tile_of[a + 1:b + 1][moving[a + 1:b + 1]]
            tiles[k, t[-1]] = 24
    noise = rng.random((n, 64)) < 0.0005
    tiles[noise] += 3
    times = np.arange(n) / fps
    return FrameSignals(times, tiles, fps), actions
