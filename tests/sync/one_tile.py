"""Synthetic frame signals for the sync analysis' exactness tests (`test_sync_fast_paths`,
`test_sync_lean_paths`): chance onsets everywhere and one tile that answers every action a
frame late, with times as a recorder writes them (not exact multiples of the period)."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync.signals import FrameSignals


def signals(fps: float = 60.0, seconds: float = 40.0, offset_s: float = 1.5,
             actions_n: int = 30, chance: float = 0.02, seed: int = 11):
    """Chance onsets everywhere and one tile that answers every action a frame late."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    tiles = (rng.random((n, 64)) < chance).astype(np.uint16) * 3
    actions = np.sort(rng.uniform(0.5, seconds - 5.0, actions_n))
    for e in actions:
        k = int(round((offset_s + e) * fps)) + 1
        tiles[k - 4:k, 9] = 0
        tiles[k, 9] = 7
    times = np.arange(n) / fps + rng.uniform(-1e-4, 1e-4, n)
    times[0] = 0.0
    return FrameSignals(np.sort(times), tiles, fps), actions


def bits(x) -> bytes:
    return np.asarray(x, float).tobytes()
