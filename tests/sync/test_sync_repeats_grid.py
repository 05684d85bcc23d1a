"""A slowed video's repeated frames found among the game's own still frames (issue 13,
session 33; the wide set's koolaid-slow26@letterbox, core/sync/repeats.py `grid_period`).

A 60 fps video slowed 2.6 % shows one console frame twice in every 38.46 of its frames: a
frame with no change, evenly through the footage. `repeat_period` reads such repeats where
they are nearly all the footage's still frames (isolated: a change before and after). A game
that stands still on its own now and then hides some of them in a still pair and adds
isolated still frames of its own: Kool-Aid Man slowed 2.6 % showed 97 isolated repeats among
142 still frames and was silent. The still frames on one grid, against what the game's own
still frames fill by chance, read it.
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.repeats import grid_period, repeat_period
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

PRESSES = np.arange(0.5, 36.0, 1.3)  # run times, in no step with the picture


def _game60(speed: float, still: float = 0.05, seconds: float = 44.0, seed: int = 11
            ) -> FrameSignals:
    """60 fps footage of a game played `speed` times too fast (console frames held twice
    where slower, as the corpus' slow kinds do), whose own picture stands still on `still`
    of its console frames, now and then two in a row."""
    rng = np.random.default_rng(seed)
    n = int(seconds * 60)
    m = n + 10
    own = rng.random(m) < still / 2
    own[1:] |= own[:-1] & (rng.random(m - 1) < 0.5)  # some of them in pairs
    value = np.where(own, 0, 40 + rng.integers(0, 30, m))
    game = np.floor(np.arange(n) * speed).astype(int)
    change = np.where(np.r_[False, game[1:] == game[:-1]], 0, value[game])
    change[0] = 0
    tiles = np.zeros((n, 64), np.uint16)
    tiles[:, 20] = change
    return FrameSignals(np.arange(n) / 60.0, tiles, 60.0)


def _drifts(sig: FrameSignals) -> list[float | None]:
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    return [f.percent for f in a.findings if f.rule == "sync.drift"]


@pytest.mark.parametrize("pct", [2.6, 3.6])
def test_repeats_among_the_games_own_still_frames_read_the_slowdown(pct):
    """main: silent (too few of the still frames are isolated repeats)."""
    sig = _game60(1 - pct / 100)
    assert repeat_period(sig, 100 / 1.5) is None  # the isolated repeats' rule reads none
    got = _drifts(sig)
    assert len(got) == 1 and abs(got[0] + pct) <= 0.1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_games_own_still_frames_are_no_grid(seed):
    assert grid_period(_game60(1.0, seed=seed), 100 / 1.5) is None
    assert _drifts(_game60(1.0, seed=seed)) == []


def test_a_still_game_hides_the_repeats():
    """More than half the frames still: chance fills the grid, nothing is read."""
    assert grid_period(_game60(0.974, still=0.7), 100 / 1.5) is None


@pytest.mark.parametrize("every", [4, 8])
def test_a_games_own_still_cycle_is_no_slowdown(every):
    """A game still on every 8th console frame fills a 40-frame grid (-2.5 %) at 5 phases
    alike: its own cycle, no slowdown (the same grid at its other phases is the null)."""
    n = 44 * 60
    rng = np.random.default_rng(4)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 20] = 40 + rng.integers(0, 30, n - 1)
    tiles[every::every, 20] = 0
    sig = FrameSignals(np.arange(n) / 60.0, tiles, 60.0)
    assert grid_period(sig, 100 / 1.5) is None
