"""A stretch "answered no more often than by chance" is a finding only where chance would
answer some of its presses (`stretch.MIN_CHANCE_ANSWERS`, session 43; issue 13: 0 sync warnings
on genuine runs). A game that ignores its last presses while the player's tiles hardly move
(Pong after its last point, the wide set's pong-genuine2@bilinear: 0 answered against 0.5 by
chance) reads the same as footage from another attempt only where that attempt's player would
move there; the same tail over tiles that move on their own about as often as a player does
stays the finding at its span.

Synthetic (`slow_game.signals`, 48 fps, offset 3.1 s, 23 presses): the last 8 presses
unanswered, the player's tile moving by itself every 3 s (0.4 by chance) or every 0.8 s (1.3).
"""

from __future__ import annotations

import numpy as np
import slow_game

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS, OFFSET_S, TAIL = 48.0, 3.1, 8


def _ignored_tail(every_s: float) -> tuple[FrameSignals, np.ndarray]:
    """The game ignores the run's last TAIL presses; the player's tiles move on their own
    every `every_s` from the first of them on."""
    sig, run_s = slow_game.signals(fps=FPS, offset_s=OFFSET_S)
    t0 = OFFSET_S + run_s[-TAIL] - 0.05
    tiles = sig.tiles.copy()
    k0 = int(np.searchsorted(sig.times, t0))
    tiles[k0:, 27:30] = 0
    for t in np.arange(t0 + 0.7, sig.times[-1], every_s):
        tiles[int(np.searchsorted(sig.times, t)), 28] = 24
    return FrameSignals(sig.times, tiles, FPS), run_s


def test_an_ignored_tail_over_still_player_tiles_is_no_finding():
    sig, run_s = _ignored_tail(3.0)
    assert len(run_s) == 23
    a = analyze(run_s, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s == 3.1214  # the game's 1-4 frames of latency in it
    assert a.findings == []  # was: 8 actions at chance (0 answered, 0.4 by chance)


def test_the_same_tail_where_chance_would_answer_some_presses_is_still_found():
    sig, run_s = _ignored_tail(0.8)
    a = analyze(run_s, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s == 3.1214  # the game's 1-4 frames of latency in it
    [f] = a.findings
    assert f.rule == "sync.no_reaction"
    assert f.message.startswith("8 actions in a row answered no more often than by chance "
                                "(0 answered, 1.3 by chance)")
    assert (f.video_start_s, f.video_end_s) == (29.938, 39.177)
