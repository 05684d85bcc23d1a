"""A drift read from the picture alone that the log's presses contradict is not said (issue 13,
QA s46 T2; core/sync/drift_log.py).

QA s46's berzerk_m1-freeze@r39mts422 (a plain freeze, no rate change) got a whole-run
`sync.drift` "+3.4 %" beside its right `video.frozen`, at every offset: Berzerk's own tempo
(6.79 and 5.80 console frames) read by the game's evenly spaced ticks (core/sync/ticks.py)
as its 7- and 6-frame cycles sped up. Its presses late in the run are answered at the
offset of its start (4 of 4 buttons after 14.8 s, chance 0.6), none along the drift's line.

Here the same shape, drawn: test_sync_pace_ticks' blinking board, its blink 4 % fast (a game
whose own tempo is no whole console cycle), read +4 % by the ticks; a sprite answers each
press two frames after it. Answered at the log's speed, the drift is contradicted; answered
along the drift's line (the video truly sped up), it is said as before.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_sync_pace_ticks import FILM, PRESSES, _blink_board

from moderator_app.core.sync import drift_log
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

OFFSET = 1.2
SPRITE = slice(40, 42)  # tiles of the sprite that answers a press (the blink is at 20-23)


def _answered(sig: FrameSignals, speed: float, every: int = 1) -> FrameSignals:
    """`sig` with a sprite answering every `every`-th press two frames after it shows, the
    video `speed` times the log's (1: the log's own speed, at OFFSET)."""
    tiles = sig.tiles.copy()
    for t in PRESSES[::every]:
        k = int(np.searchsorted(sig.times, OFFSET + t / speed - 1e-9)) + 2
        if k < len(tiles):
            tiles[k, SPRITE] = 3
    return FrameSignals(sig.times, tiles, sig.fps)


def _drifts(sig: FrameSignals, offset_s: float | None = OFFSET, kinds=None):
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, offset_s=offset_s, run_duration_s=40.0,
                input_kinds=kinds)
    return [f for f in a.findings if f.rule == "sync.drift"]


def test_a_game_tempo_read_as_a_drift_is_contradicted_by_presses_answered_on_time():
    """Fails on main 419dbe2: the ticks' +4.0 % drift is said although every press is
    answered at the offset, 38 s into the run too."""
    board = _blink_board(1.04, 2)
    assert [round(f.percent) for f in _drifts(board)] == [4]  # the ticks read +4 %
    assert _drifts(_answered(board, 1.0)) == []


def test_a_video_truly_sped_up_keeps_its_drift():
    """The presses answered along the drift's line (the video 4 % fast): the offset of the
    run's start answers none of the late ones, and the drift stands."""
    [f] = _drifts(_answered(_blink_board(1.04, 2), 1.04))
    assert f.percent == pytest.approx(4.0, abs=1.0)
    assert "evenly spaced" in f.message


def test_presses_of_no_button_are_not_read():
    """The same answers, the log naming every press NOOP: nothing the game was asked for,
    so nothing contradicts the drift."""
    kinds = ["NOOP"] * len(PRESSES)
    [f] = _drifts(_answered(_blink_board(1.04, 2), 1.0), kinds=kinds)
    assert f.percent == pytest.approx(4.0, abs=1.0)


def test_few_answers_do_not_contradict():
    """Only every eighth press answered (2 of the late ones): too few to stand against the
    picture's reading."""
    [f] = _drifts(_answered(_blink_board(1.04, 2), 1.0, every=8))
    assert f.percent == pytest.approx(4.0, abs=1.0)


def test_chance_counts_the_picture_s_own_answers():
    """A press window over a picture answering everywhere is answered by chance: 9 of 10
    windows answered where every frame answers stand no spread over their chance."""
    times = np.arange(240) / FILM
    sig = FrameSignals(times, np.zeros((240, 64), np.uint16), FILM)
    hit, chance = drift_log.answered(sig, np.ones(240, bool), np.linspace(1, 8, 10))
    assert hit.all() and np.allclose(chance, 1.0)
    assert drift_log.spreads(hit, chance) == 0.0
