"""A press that starts a scroll where the screen's own animation rests (issue 13, session 16,
QA s15 H2/H3): `rise.out_of_phase`.

Private Eye's street is animated at 15 Hz (at 30 fps: a tile changes on every other frame) and
scrolls while the car drives (the same tiles change on every frame). A press changes tiles that
were changing already: no onset (still 50 ms before), and no rise over the tile's recent most
when the scroll changes as many points as the animation. What the press does change is the
phase: the tile changes on a frame where its animation rests. The synthetic screen here is
that street (8 tiles, 40 points a change, as in QA's 30 fps AV1 run: 20-170), 25 presses held
0.3-1 s, and a human stretch: 6 presses the log does not hold, 9 s without an action.
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import rise
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 30
OFFSET = 0.9
STREET = list(range(40, 48))      # row 5 of the 8x8 tiles
POINTS = 40                       # changed points per street tile, animated or scrolling
HUMAN = (16.0, 25.0)              # run seconds whose presses the log does not hold


def _presses(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.uniform(1.0, 1.8, 32)) + 0.5


def _screen(run_s: np.ndarray, seed: int) -> FrameSignals:
    """44 s at 30 fps: the street animated on even frames, scrolling on every frame from the
    frame after a press for its hold (9-30 frames), and a short burst elsewhere now and then
    (a sprite: 3 frames of 20 points, ~1 a second on the screen)."""
    rng = np.random.default_rng(seed)
    n = 44 * FPS
    tiles = np.zeros((n, 64), np.uint16)
    tiles[0::2, STREET] = POINTS
    for j in range(64):
        for k in np.nonzero(rng.random(n) < 0.015 / FPS)[0]:
            tiles[k:k + 3, j] = 20
    for e in run_s:
        k = int(round((OFFSET + e) * FPS)) + 1
        tiles[k:k + int(rng.integers(9, 31)), STREET] = POINTS
    tiles[0] = 0
    return FrameSignals(np.arange(n) / FPS, tiles, float(FPS))


def test_out_of_phase_keeps_the_first_change_where_the_animation_rests():
    t = np.zeros((40, 2), np.uint16)
    t[2:40:2, 0] = 40          # animated on even frames from frame 2 (its start) ...
    t[21:30, 0] = 40           # ... scrolling from frame 21 (odd: a rest) to 29
    t[33, 1] = 30              # a still tile starting to change
    out = rise.out_of_phase(FrameSignals(np.arange(40) / 30.0, t, 30.0)).tiles
    assert np.flatnonzero(out[:, 0]).tolist() == [2, 21]
    assert np.flatnonzero(out[:, 1]).tolist() == [33]
    # the recent most does not see it: the scroll changes as many points as the animation
    assert not rise.rising(FrameSignals(np.arange(40) / 30.0, t, 30.0)).tiles[21:30, 0].any()


def test_a_human_stretch_on_an_animated_street_is_found():
    """Before: "not enough signal" and no finding (onsets and the recent most see nothing)."""
    for seed in (1, 2, 3):
        shown = _presses(seed)
        logged = shown[(shown < HUMAN[0]) | (shown > HUMAN[1])]
        a = analyze(logged, _screen(shown, seed), DEFAULT_THRESHOLDS)
        assert a.suggested_offset_s is None, seed  # named, not suggested
        [f] = a.findings
        assert f.rule == "sync.activity_without_actions", seed
        # the stretch's first unlogged press shows at video OFFSET + its run time
        first = OFFSET + float(shown[shown > HUMAN[0]][0])
        assert abs(f.video_start_s - first) <= 1.0, (seed, f.video_start_s, first)  # duration-ok: a video time
        assert f.video_end_s <= OFFSET + HUMAN[1] + 1.0, seed  # duration-ok: a video time


def test_the_same_street_with_every_press_logged_gets_no_warning():
    for seed in (1, 2, 3):
        shown = _presses(seed)
        a = analyze(shown, _screen(shown, seed), DEFAULT_THRESHOLDS)
        assert a.findings == [], seed


def test_at_the_moderators_offset_the_reactions_are_the_phases():
    """A moderator's offset on a run that suggests none: the reactions are measured on the
    phase's rises, each at the frame where the scroll first changes a rest frame of the
    animation. Before: the onsets' (none measured: the street was moving already)."""
    for seed in (1, 2, 3):
        shown = _presses(seed)
        sig = _screen(shown, seed)
        a = analyze(shown, sig, DEFAULT_THRESHOLDS, offset_s=OFFSET)
        assert a.suggested_offset_s is None, seed
        at = []
        for r, e in zip(a.reactions, shown, strict=True):
            k = int(round((OFFSET + e) * FPS)) + 1  # the scroll's first frame
            first = k if k % 2 else k + 1           # its first rest frame of the animation
            at.append(r.video_s is not None and round(r.video_s * FPS) == first)
        assert sum(at) >= 28, (seed, sum(at))      # of 32
        assert a.findings == [], seed
