"""The weighing inside `sync/buttons.py` on a picture built here, no part of it replaced (review
R11, session 34): 30 FIRE presses each answered in one tile a fixed 1.5 s later (the offset)
and 18 NOOP presses, each at least 1 s from every FIRE, that nothing in the picture answers. The
answered button weighs and the unanswered one does not (`statistic`'s count of presses
weighed: 30, not 48 nor 18); the real log stands over its shuffled logs by the bar
(sync_min_null_z) and the same picture under a log whose FIRE presses were moved at random
does not. Each fails when the weight's sign or the statistic's sign is flipped."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import buttons, lookup, reactions
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

FPS = 30.0
OFFSET_S = 1.5
FIRES = 30
NOOPS = 18


def _game(chance: float, moved: bool = False, seed: int = 11):
    """(signals, the log's times, its kinds, the signals' novelty, lookup and background
    rates as `analysis` builds them): chance onsets at `chance` per tile and frame, and tile 9
    answering every FIRE press OFFSET_S later; with `moved`, the log's FIRE presses are drawn
    anew at random (the picture still answers the old ones)."""
    rng = np.random.default_rng(seed)
    fire = np.cumsum(rng.uniform(3.0, 5.0, FIRES))
    noop = fire[:NOOPS] + 1.0 + rng.random(NOOPS) * (np.diff(fire)[:NOOPS] - 2.0)
    n = int((fire[-1] + 6.0) * FPS)
    tiles = (rng.random((n, 64)) < chance).astype(np.uint16) * 3
    for e in fire:
        k = int(round((OFFSET_S + e) * FPS)) + 1
        tiles[k - 4:k, 9] = 0
        tiles[k, 9] = 7
    if moved:
        fire = np.sort(rng.uniform(0.5, fire[-1], FIRES))
    sig = FrameSignals(np.arange(n) / FPS, tiles, FPS)
    run = np.concatenate([fire, noop])
    kinds = np.array(["FIRE"] * FIRES + ["NOOP"] * NOOPS)
    order = np.argsort(run, kind="stable")
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    return sig, run[order], kinds[order].tolist(), nov1, look1, q


def test_groups_are_each_buttons_presses():
    _sig, run, kinds, *_ = _game(0.0)
    parts = buttons.groups(kinds)
    assert [len(g) for g in parts] == [FIRES, NOOPS]
    assert {kinds[i] for i in parts[0]} == {"FIRE"} and {kinds[i] for i in parts[1]} == {"NOOP"}


def test_the_answered_button_weighs_and_the_unanswered_one_does_not():
    """On a still picture but for the answers, the statistic weighs FIRE's 30 presses alone
    (NOOP's z at the peak is under its mean: weight 0), and stands well over 0; NOOP's presses
    alone weigh nothing (fewer than sync_min_actions: 0.0)."""
    sig, run, kinds, nov1, look1, q = _game(0.0)
    fire, noop = buttons.groups(kinds)
    stat, n = buttons.statistic(sig, nov1, look1, q, run, [fire, noop], 1.0, TH)
    assert n == FIRES
    assert stat > 10.0
    assert buttons.statistic(sig, nov1, look1, q, run, [noop], 1.0, TH) == (0.0, 0)


def test_the_real_log_beats_its_shuffled_logs_and_a_moved_one_does_not():
    """With chance onsets (3 in 1000 per tile and frame) the real log's null z stands over
    sync_min_null_z; the same picture under the log with FIRE's presses moved at random stands
    under it."""
    sig, run, kinds, nov1, look1, q = _game(0.003)
    assert buttons.statistic(sig, nov1, look1, q, run, buttons.groups(kinds), 1.0, TH)[0] > 0.0
    assert buttons.null_z(sig, nov1, look1, q, run, kinds, 1.0, TH) >= TH.sync_min_null_z
    sig, run, kinds, nov1, look1, q = _game(0.003, moved=True)
    assert buttons.null_z(sig, nov1, look1, q, run, kinds, 1.0, TH) < TH.sync_min_null_z
