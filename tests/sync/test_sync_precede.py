"""An offset the presses' changes precede is too late (`core.sync.precede`). Centipede (QA
session 15, H1): FIRE, UP and DOWN change the picture on the press's next frame, the wand
moves 3-6 game frames after RIGHT or LEFT, and the suggestion sat between the two groups:
2.0-2.5 frames late at confidence 0.62-0.64, where 6-9 of 16-23 presses changed the picture
in the 2 frames before their expected time (chance: 0.6-2.3). The synthetic screen is
`two_groups`' (RIGHT 4-6 frames late, FIRE 0-1), read without the log's kinds: the test
counts the changes that precede the offset, whatever the input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from two_groups import FPS, OFFSET, log, screen

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.precede import tail
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS


@pytest.mark.parametrize("seed", [1, 7, 9, 11])
def test_the_offset_no_press_precedes(seed):
    """On main: 3.46, 4.02, 3.30, 3.72 frames late (RIGHT's wand), confidence 0.91-0.98."""
    e, kinds = log(seed + 20)
    a = analyze(e, screen(e, kinds, seed), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - OFFSET) * FPS <= 1.0  # duration-ok: within a frame
    # the reactions stay measured at the fit's offset (RIGHT's), as `kinds` leaves them
    assert (a.offset_used_s - a.suggested_offset_s) * FPS > 2.0  # duration-ok: frames
    assert not a.findings


@pytest.mark.parametrize("seed", range(1, 9))
def test_one_group_is_not_moved_past_its_first_changes(seed):
    """Every press answered alike (the wand, 4-6 frames late; the press's frame rounded,
    so 3.5-6.5 frames after its exact time): no earlier group, the changes before the
    offset are chance's. The suggestion stays at the median's dating (6 of 8 seeds) or
    moves to the group's first changes (seeds 3 and 5: 1.5 frames earlier, where 4 of 26
    presses' first changes preceded it), never towards the press."""
    e, _ = log(seed + 20)
    a = analyze(e, screen(e, ["RIGHT"] * len(e), seed), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert (a.suggested_offset_s - OFFSET) * FPS >= 2.5  # duration-ok: frames
    assert (a.offset_used_s - a.suggested_offset_s) * FPS <= 1.5 + 1e-6  # duration-ok


def test_binomial_tail():
    """The tail the test reads, against the sum of the terms; a hostile log's 100,000
    actions sum the terms near k only."""
    for k, n, p in [(7, 21, 0.067), (3, 17, 0.047), (1, 5, 0.5), (12, 30, 0.2)]:
        exact = sum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))
        assert tail(k, n, p) == pytest.approx(exact, rel=1e-9)
    assert tail(0, 10, 0.3) == 1.0
    assert tail(11, 10, 0.3) == 0.0
    assert tail(60_000, 100_000, 0.5) < 1e-12
    assert np.isfinite(tail(50_100, 100_000, 0.5))
