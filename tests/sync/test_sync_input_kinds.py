"""The offset from the kind of input the game answers first (`core.sync.kinds`). Centipede
(QA session 15, H1): FIRE, UP and DOWN change the picture on the press's next frame, the wand
moves 3-6 game frames after RIGHT or LEFT; the reactions the fit saw were mostly RIGHT's and
the suggestion was 2.48 frames late, confidence 0.64. The synthetic screen: RIGHT moves a
wand tile 4-6 frames after the press, FIRE lights a shot tile on the press's own frame or
the next, and random bursts of motion elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60
OFFSET = 2.3
WAND, SHOT = 59, 51   # row 7 and the row above it, column 3


def _log(seed: int) -> tuple[np.ndarray, list[str]]:
    """26 presses 1-2 s apart, two of three RIGHT, the rest FIRE (at random)."""
    rng = np.random.default_rng(seed)
    run_s = np.cumsum(rng.uniform(1.0, 2.0, 26)) + 1.0
    kinds = ["FIRE" if rng.random() < 1 / 3 else "RIGHT" for _ in run_s]
    return run_s, kinds


def _screen(run_s: np.ndarray, kinds: list[str], seed: int) -> FrameSignals:
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


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_offset_is_the_kind_the_game_answers_first(seed):
    """Before `kinds`: the offset 3.3-4.5 frames late (RIGHT's wand), confident."""
    e, kinds = _log(seed + 20)
    sig = _screen(e, kinds, seed)
    a = analyze(e, sig, DEFAULT_THRESHOLDS, input_kinds=kinds)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - OFFSET) * FPS <= 1.0  # duration-ok: within a frame


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kinds_named_at_random_move_nothing(seed):
    """Kinds that say nothing of the game's answer (every press answered alike, labels
    drawn at random) leave the suggestion as without kinds: a kind must gain reactions
    before the suggestion beyond what random sets of as many actions gain."""
    e, kinds = _log(seed + 20)
    sig = _screen(e, ["RIGHT"] * len(e), seed)
    rng = np.random.default_rng(seed)
    shuffled = [str(k) for k in rng.choice(["UP", "DOWN", "FIRE"], len(e))]
    plain = analyze(e, sig, DEFAULT_THRESHOLDS)
    named = analyze(e, sig, DEFAULT_THRESHOLDS, input_kinds=shuffled)
    assert plain.suggested_offset_s is not None
    assert named.suggested_offset_s == plain.suggested_offset_s
    assert named.offset_used_s == plain.offset_used_s


def test_the_reactions_stay_measured_where_the_fit_found_them():
    """The suggestion moves to the early kind's offset; the reactions, the track and the
    findings stay at the fit's (`offset_used_s`): measured at the earlier offset, the late
    kind's reactions fall past the support window (a synthetic run got a false
    `sync.offset_jump` of +1.77 s that way)."""
    e, kinds = _log(26)
    a = analyze(e, _screen(e, kinds, 6), DEFAULT_THRESHOLDS, input_kinds=kinds)
    assert abs(a.suggested_offset_s - OFFSET) * FPS <= 1.0  # duration-ok: within a frame
    assert (a.offset_used_s - a.suggested_offset_s) * FPS > 3.0  # duration-ok: RIGHT's wand
    assert not a.findings
