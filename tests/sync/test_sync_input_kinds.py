"""The offset from the kind of input the game answers first (`core.sync.kinds`). Centipede
(QA session 15, H1): FIRE, UP and DOWN change the picture on the press's next frame, the wand
moves 3-6 game frames after RIGHT or LEFT; the reactions the fit saw were mostly RIGHT's and
the suggestion was 2.48 frames late, confidence 0.64. The synthetic screen: `two_groups`."""

from __future__ import annotations

import numpy as np
import pytest
from two_groups import FPS, OFFSET
from two_groups import log as _log
from two_groups import screen as _screen

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS


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
