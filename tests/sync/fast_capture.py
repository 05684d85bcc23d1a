"""A synthetic game drawn at 60 Hz and captured faster than it draws (120 fps: each game
picture held for two video frames), as QA session 19's Beam Rider at 120 fps (M3). Its
presses are applied as ale-py's corpus applies them (the game frame nearest the logged time,
`tests/corpus/play.ms_to_step`) and answered 0 or 1 game frames later; run_start lies on a
game-frame boundary. Shared by `test_sync_fast_capture.py`."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync.signals import FrameSignals

GAME_HZ = 60


def signals(fps: float = 120.0, seconds: float = 40.0, lead_frames: int = 36, seed: int = 1,
            latency: tuple[tuple[int, ...], tuple[float, ...]] = ((0, 1), (0.5, 0.5))):
    """(FrameSignals, action run times, true offset). The player's tile moves from the game
    frame nearest each press (plus 0 or 1 game frames: `latency`) for its hold (6-20 game
    frames); a star blinks in a corner every 7th game frame; the video shows, at each of its
    ticks, the game frame on screen (`floor`, as tests/corpus/record.py)."""
    rng = np.random.default_rng(seed)
    ms = np.cumsum(rng.integers(1000, 2200, 40))
    ms = ms[ms < (seconds - 2.0) * 1000]
    actions = ms / 1000.0
    n_game = int((seconds + lead_frames / GAME_HZ + 2) * GAME_HZ)
    moving = np.zeros(n_game, bool)
    tile_of = np.zeros(n_game, np.int64)
    for i, m in enumerate(ms):
        step = int(round(m * GAME_HZ / 1000))
        g = lead_frames + step + int(rng.choice(latency[0], p=latency[1]))
        hold = int(rng.integers(6, 21))
        moving[g:g + hold] = True
        tile_of[g:g + hold] = 27 + (i % 3)
    n = int((seconds + lead_frames / GAME_HZ) * fps)
    shown = np.floor(np.arange(n) * GAME_HZ / fps + 1e-9).astype(np.int64)
    tiles = np.zeros((n, 64), np.uint16)
    for k in range(1, n):
        a, b = shown[k - 1], shown[k]
        if b > a and moving[a + 1:b + 1].any():
            tiles[k, tile_of[a + 1:b + 1][moving[a + 1:b + 1]][-1]] = 24
        if b > a and any(j % 7 == 0 for j in range(a + 1, b + 1)):
            tiles[k, 0] += 2  # the star, drawn on the game's clock
    return FrameSignals(np.arange(n) / fps, tiles, fps), actions, lead_frames / GAME_HZ
