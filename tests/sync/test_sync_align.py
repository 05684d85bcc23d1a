"""The offset fit: the FFT correlation used on long runs gives the direct sum's answer."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import align, lookup, reactions
from moderator_app.core.sync.signals import FrameSignals


def _signals(offset_s: float, fps: float = 60.0, seconds: float = 120.0):
    rng = np.random.default_rng(7)
    n = int(seconds * fps)
    tiles = (rng.random((n, 64)) < 0.01).astype(np.uint16) * 4  # chance onsets everywhere
    actions = np.sort(rng.uniform(1.0, seconds - 10.0, 80))
    for e in actions:  # each press shows one frame after it, in tile 60
        k = int(round((offset_s + e) * fps)) + 1
        tiles[k - 4:k, 60] = 0
        tiles[k, 60] = 9
    return FrameSignals(np.arange(n) / fps, tiles, fps), actions


@pytest.mark.parametrize("speed", [1.0, 1.03])
def test_fft_and_direct_scores_agree(monkeypatch, speed):
    sig, actions = _signals(2.5)
    nov = reactions.novelty(sig)
    direct = align.fit(sig, nov, actions, speeds=np.array([speed]))
    monkeypatch.setattr(lookup, "DIRECT_MAX", 10)  # force the correlation path
    fft = align.fit(sig, nov, actions, speeds=np.array([speed]))
    assert fft.offset_s == pytest.approx(direct.offset_s)
    assert fft.score == pytest.approx(direct.score)
    if speed == 1.0:
        assert abs(direct.offset_s - (2.5 + 1 / 60)) <= 1 / 60  # duration-ok: an offset's accuracy, not a time taken
