"""A synthetic screen whose game answers two kinds of input at two delays (Centipede, QA
session 15, H1: FIRE, UP and DOWN on the press's next frame, the wand 3-6 game frames after
RIGHT or LEFT), for `test_sync_input_kinds` and `test_sync_precede`: RIGHT moves a wand tile
4-6 frames after the press, FIRE lights a shot tile on the press's own frame or the next,
and random bursts of motion elsewhere."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync.signals import FrameSignals

FPS = 60
OFFSET = 2.3
WAND, SHOT = 59, 51   # row 7 and the row above it, column 3


def log(seed: int) -> tuple[np.ndarray, list[str]]:
    """26 presses 1-2 s apart, two of three RIGHT, the rest FIRE (at random)."""
    rng = np.random.default_rng(seed)
    run_s = np.cumsum(rng.uniform(1.0, 2.0, 26)) + 1.0
    kinds = ["FIRE" if rng.random() < 1 / 3 else "RIGHT" for _ in run_s]
    return run_s, kinds


def screen(run_s: np.ndarray, kinds: list[str], seed: int) -> FrameSignals:
    """50 s at 60 fps, 8x8 tiles: a burst of motion every ~33 s per tile at random, the
    wand's move 4-6 frames after each RIGHT (held 8 frames), the shot 0-1 frame after
    each FIRE (2 frames)."""
    rng = np.random.default_rng(seed)
    n = 50 * FPS
    tiles = np.zeros((n, 64), np.uint16)
    for j in range(64):
        for k in np.nonzero(rng.random(n) < 0.03 / FPS)[0]:
            tiles[k:k + 3, j] = 20
    for e, kind in zip(run_s, kinds, strict=True):
        k = int(round((OFFSET + e) * FPS))
        if kind == "RIGHT":
            d = int(rng.integers(4, 7))
            tiles[k + d:k + d + 8, WAND] = 20
        else:
            d = int(rng.integers(0, 2))
            tiles[k + d:k + d + 2, SHOT] = 12
    return FrameSignals(np.arange(n) / FPS, tiles, float(FPS))
