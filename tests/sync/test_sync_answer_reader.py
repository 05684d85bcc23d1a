"""The per-action reader in the findings (`Thresholds.sync_per_action_reader`, session 35):
the reactions read at an offset given are `reactions.answers`' (a press shown by two onsets
in still tiles beside a busy half is answered on its own frame), while `sync.no_reaction`
counts its misses within REACTION_MAX_S, the window its chance model was set on: presses
shown 0.23 s late (past ANSWER_MAX_S, within 0.5 s) are unanswered in the reactions but are
no run of misses."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from moderator_app.core.sync import combine, reactions, reading
from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60
OFFSET = 1.5
PLAYER = (58, 59)  # the player's tiles: still but for the presses' answers
ON = replace(DEFAULT_THRESHOLDS, sync_per_action_reader=True)
OFF = replace(DEFAULT_THRESHOLDS, sync_per_action_reader=False)
LATE = 14  # frames: 0.23 s
N_ON, N_LATE = 12, 10


def _run():
    """55 s at 60 fps, as test_sync_answers' screen (tiles 0-31 change every 4-6 frames, the
    others burst once every ~30 s): 12 presses 2.2 s apart answered a frame late in both
    PLAYER tiles, then 10 answered LATE frames late."""
    presses = [(1.0 + 2.2 * i, 1 if i < N_ON else LATE) for i in range(N_ON + N_LATE)]
    rng = np.random.default_rng(5)
    n = 55 * FPS
    tiles = np.zeros((n, 64), np.uint16)
    for j in range(32):
        k = int(rng.integers(0, 6))
        while k < n:
            tiles[k, j] = 30
            k += int(rng.integers(4, 7))
    for j in range(32, 64):
        if j in PLAYER:
            continue
        for k in np.nonzero(rng.random(n) < 1 / 30 / FPS)[0]:
            tiles[k:k + 3, j] = 12
    for run_s, late in presses:
        tiles[int(round((OFFSET + run_s) * FPS)) + late, list(PLAYER)] = 9
    sig = FrameSignals(np.arange(n) / FPS, tiles, float(FPS))
    return sig, np.array([p[0] for p in presses]), presses


def test_the_reactions_at_an_offset_given_are_the_answers():
    sig, run_s, presses = _run()
    got = reading.analyze_at(run_s, sig, ON, OFFSET, fixed=True)
    frames = [None if r.video_s is None else int(round(r.video_s * FPS))
              for r in got.reactions]
    want = [int(round((OFFSET + r) * FPS)) + late for r, late in presses[:N_ON]]
    assert frames[:N_ON] == want
    assert frames[N_ON:] == [None] * N_LATE  # past ANSWER_MAX_S
    old = reading.analyze_at(run_s, sig, OFF, OFFSET, fixed=True)
    assert [None if r.video_s is None else int(round(r.video_s * FPS))
            for r in old.reactions][:N_ON] != want


def test_late_answers_are_no_run_of_misses():
    sig, run_s, _ = _run()
    got = reading.analyze_at(run_s, sig, ON, OFFSET, fixed=True)
    assert [r.video_s is None for r in got.reactions] == [False] * N_ON + [True] * N_LATE
    assert not [f for f in got.findings if f.rule == "sync.no_reaction"]
    # within REACTION_MAX_S the late ones are answered on their own frame
    late = reactions.answers(sig, run_s, OFFSET, max_s=reactions.REACTION_MAX_S)
    assert [int(round(r.video_s * FPS)) if r.video_s is not None else None
            for r in late[N_ON:]] == [int(round((OFFSET + r) * FPS)) + LATE
                                      for r in run_s[N_ON:]]


def test_late_answers_are_answered_by_the_rules_measure():
    """Each Reaction carries the rule's answer beside the reader's (`Reaction.missed`): the 10
    presses shown 0.23 s late are unattributed (`video_s` None) yet not missed."""
    sig, run_s, _ = _run()
    got = reading.analyze_at(run_s, sig, ON, OFFSET, fixed=True)
    assert [r.video_s is None for r in got.reactions][N_ON:] == [True] * N_LATE
    assert [r.missed for r in got.reactions] == [False] * (N_ON + N_LATE)
    # `measure`'s reactions say it through `video_s` (one window)
    old = reading.analyze_at(run_s, sig, OFF, OFFSET, fixed=True)
    assert [r.missed for r in old.reactions] == [r.video_s is None for r in old.reactions]


def _analysis(rs, findings=()):
    return SyncAnalysis(OFFSET, 0.9, 12, len(rs), 1.0, "", OFFSET, list(rs),
                        findings=list(findings))


def test_the_other_scale_answers_a_run_of_misses_by_the_rules_window():
    """`combine` drops one scale's run of misses when the other scale answers a press of it
    within REACTION_MAX_S, though its per-action reader attributes none (session 35: H.E.R.O.
    at 30 fps, a false `sync.no_reaction` through `_unseen` reading `video_s`)."""
    miss = SyncFinding("sync.no_reaction", "4 actions in a row with no visible reaction",
                       10.0, 14.0, 8.5, 12.0, actions=4)
    fine = _analysis([reactions.Reaction(i, 8.5 + i, 10.0 + i, None, None, 0.0, False)
                      for i in range(4)], [miss])
    late = [reactions.Reaction(i, 8.5 + i, 10.0 + i, None, None, 0.0, False)
            for i in range(4)]
    got = combine.combine(fine, _analysis(late), 1 / FPS)
    assert [f.rule for f in got.findings] == ["sync.no_reaction"]
    late[2] = replace(late[2], within_rule=True)
    got = combine.combine(fine, _analysis(late), 1 / FPS)
    assert [f.rule for f in got.findings] == []


def test_a_screen_busy_everywhere_answers_no_press_by_its_surprise():
    """Every tile of 64 bursts for 4 frames about once a second at random, no press shown:
    12.8 % of frames carry SURPRISE_MIN, and before its frames were judged against their own
    second's chance (`reactions.surprise_null`) `answers` answered 12 of 14 presses (session
    35, test_sync_band_at_offset's screen); now none."""
    rng = np.random.default_rng(2)
    n = 46 * FPS
    tiles = np.zeros((n, 64), np.uint16)
    for j in range(64):
        for k in np.nonzero(rng.random(n) < 1.0 / FPS)[0]:
            tiles[k:k + 4, j] = 20
    sig = FrameSignals(np.arange(n) / FPS, tiles, float(FPS))
    run_s = np.cumsum(rng.uniform(0.8, 3.5, 14)) + 1.0
    assert float((reactions.surprise(sig) >= reactions.SURPRISE_MIN).mean()) > 0.1
    got = reactions.answers(sig, run_s, OFFSET)
    assert sum(r.video_s is not None for r in got) == 0
    # (the same presses shown by two onsets in still tiles are answered: see _run above)
