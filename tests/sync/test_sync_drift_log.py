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

from dataclasses import replace

import numpy as np
import pytest
from test_sync_pace_ticks import FILM, PRESSES, _blink_board

from moderator_app.core.sync import drift_log, pace
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


# Review s47 R2: each guard pinned (a case that fails when it is loosened), and a drift
# tested at the offset the analysis suggests with none given too (core/sync/pace.py `auto`).

def _quiet(answers, noise: float = 0.0, seed: int = 0) -> FrameSignals:
    """A still picture whose tiles `col`, `col + 1` flash (a new value) two frames after the
    presses of PRESSES[::every] show on a video `speed` times the log's, at OFFSET, for each
    (speed, every, col) of `answers`; `noise`: each frame's chance of one tile flashing
    anywhere (the picture's own motion answering presses by chance)."""
    rng = np.random.default_rng(seed)
    n = int(42 * FILM)
    times = np.arange(n) / FILM
    tiles = np.zeros((n, 64), np.uint16)
    for k in np.flatnonzero(rng.random(n) < noise):
        tiles[k, rng.integers(0, 64)] = rng.integers(1, 200)
    for speed, every, col in answers:
        for t in PRESSES[::every]:
            k = int(np.searchsorted(times, OFFSET + t / speed - 1e-9)) + 2
            if k < n:
                tiles[k, col:col + 2] = rng.integers(50, 250)
    return FrameSignals(times, tiles, FILM)


def _contradicted(sig: FrameSignals, speed: float = 1.04):
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, offset_s=OFFSET, run_duration_s=40.0)
    return drift_log.contradicted(replace(a, offset_used_s=OFFSET), PRESSES, sig,
                                  DEFAULT_THRESHOLDS, speed)


def test_every_far_press_answered_at_the_offset_contradicts():
    """The 15 presses a +4 % drift moves 0.5 s or more, all answered at the offset on a
    still picture: 15 answered, 11.5 spreads over chance, none along the drift's line."""
    got = _contradicted(_quiet([(1.0, 1, 40)]))
    assert got is not None and got[:2] == (15, 15)
    assert got[2] >= drift_log.MIN_Z and got[3] <= drift_log.MAX_Z


def test_answers_near_their_chance_do_not_contradict():
    """Pins MIN_Z: every fourth press answered (6 of the 15 far ones) over a picture whose
    own flashes answer windows by chance stand 2.0 spreads over it, under MIN_Z (3): the
    drift stands (with MIN_Z 0 it was dropped)."""
    sig = _quiet([(1.0, 4, 40)], noise=0.05, seed=1)
    assert _contradicted(sig) is None
    ok = drift_log.answered(sig, np.ones(len(sig), bool), OFFSET + PRESSES)[0]
    assert ok.all()  # the windows exist (the test reads answers, not a short film)


def test_two_answers_far_over_chance_do_not_contradict():
    """Pins MIN_ANSWERED: every eighth press answered on a still picture, 2 of the 15 far
    ones, 4.0 spreads over their small chance: fewer than MIN_ANSWERED (3) answers, the drift
    stands (with MIN_ANSWERED 0 it was dropped)."""
    assert _contradicted(_quiet([(1.0, 8, 40)])) is None


def test_answers_along_the_drift_s_line_too_do_not_contradict():
    """Pins MAX_Z: every press answered at the offset AND along the +4 % line (another
    sprite): the line's answers stand 8 spreads over chance, over MAX_Z (1), so the log
    does not say the video runs at its speed (with MAX_Z 99 the drift was dropped)."""
    assert _contradicted(_quiet([(1.0, 1, 40), (1.04, 1, 50)])) is None


def _pace_at(sig: FrameSignals, given: float, auto_at: float | None):
    """pace.py's drift on `sig` with the moderator's offset `given`, and the analysis with no
    offset given suggesting `auto_at` (None: no suggestion)."""
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, offset_s=given, run_duration_s=40.0)
    a = replace(a, offset_used_s=given, findings=[f for f in a.findings
                                                  if f.rule != "sync.drift"])
    auto = replace(a, offset_used_s=auto_at, suggested_offset_s=auto_at)
    return pace.pace_drift(a, PRESSES, sig, DEFAULT_THRESHOLDS, None, lambda: auto)


def test_a_wrong_offset_given_gets_no_drift_the_suggested_offset_contradicts():
    """Review s47 R2: QA s46's berzerk freeze kept its false +3.4 % at `--offset 0`, 0.8 and
    1.65 (truth 0.65), dropped only at 0.55-0.65 and auto. The presses answered on time at
    OFFSET, the moderator typing OFFSET + 0.8: the offset given answers none, the one the
    analysis suggests with none given answers them all, and the drift is not said."""
    board = _answered(_blink_board(1.04, 2), 1.0)
    [f] = _pace_at(board, OFFSET + 0.8, None)  # the offset given alone: the drift stays
    assert round(f.percent) == 4
    assert _pace_at(board, OFFSET + 0.8, OFFSET) == []


def test_a_video_truly_sped_up_keeps_its_drift_at_any_offset_given():
    """The presses answered along the +4 % line: neither the offset given nor the one
    suggested answers the far presses on the log's clock, and the drift stands."""
    board = _answered(_blink_board(1.04, 2), 1.04)
    for given in (0.0, OFFSET, OFFSET + 0.8):
        [f] = _pace_at(board, given, OFFSET)
        assert f.percent == pytest.approx(4.0, abs=1.0)
