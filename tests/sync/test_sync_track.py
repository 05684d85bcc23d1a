"""A stretch the offset used does not explain, explained by another offset (track.stretch_jump).

Synthetic answers: the player's tiles answer at random (30 % of windows) everywhere, and
the stretch's actions are answered where another offset puts them, as after a cut."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import track

FPS = 60.0
SECONDS = 50.0
CHANCE = 0.3


def _answer(shown_at: np.ndarray, seed: int = 3):
    """answer(v) -> (answered, chance) over a picture whose windows hold an answer at random
    (CHANCE) and at each of `shown_at` (video times)."""
    rng = np.random.default_rng(seed)
    n = int(SECONDS * FPS)
    hit = rng.random(n) < CHANCE
    hit[np.round(np.asarray(shown_at) * FPS).astype(int)] = True

    def answer(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k = np.clip(np.round(np.asarray(v) * FPS).astype(int), 0, n - 1)
        return hit[k], np.full(np.shape(v), CHANCE)

    return answer


def _stretch(seed: int = 5) -> np.ndarray:
    """13 actions over the last 15 s of the run, at the offset used."""
    rng = np.random.default_rng(seed)
    return np.sort(rng.uniform(30.0, 45.0, 13))


def test_a_stretch_answered_four_seconds_earlier_is_a_jump_of_that_size():
    expected = _stretch()
    answer = _answer(expected - 4.0)  # footage of 4 s removed before the stretch
    d = track.stretch_jump(answer, expected, 0.85, (0.0, SECONDS), FPS, 0.25, 3.0)
    assert d is not None
    assert abs(d + 4.0) <= 1 / FPS + 1e-9


def test_inserted_footage_is_a_jump_the_other_way():
    expected = _stretch() - 10.0
    answer = _answer(expected + 2.5)
    d = track.stretch_jump(answer, expected, 0.85, (0.0, SECONDS), FPS, 0.25, 3.0)
    assert d is not None
    assert abs(d - 2.5) <= 1 / FPS + 1e-9


def test_a_stretch_answered_at_chance_everywhere_has_no_jump():
    expected = _stretch()
    for seed in range(5):
        assert track.stretch_jump(_answer(np.zeros(0), seed), expected, 0.85,
                                  (0.0, SECONDS), FPS, 0.25, 3.0) is None


def test_shifts_that_put_an_action_off_the_footage_are_not_tried():
    expected = _stretch()
    later = expected + 8.0  # the last actions would be past the end of the footage
    answer = _answer(later[later < SECONDS])
    assert track.stretch_jump(answer, expected, 0.85, (0.0, SECONDS), FPS, 0.25, 3.0) is None
