"""A stretch the offset does not explain (core/sync/stretch.py): a second attempt spliced in.

Before, a Pong video spliced from two attempts was fitted whole: an offset 1.6 frames late
(confidence 0.64) and no finding. Now the stretch after the splice, whose player answers no
more often than chance, is a `sync.no_reaction` placed at the splice.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest

from moderator_app.core.sync import reactions, stretch
from moderator_app.core.sync.analysis import CHANCE_WORDS, analyze
from moderator_app.core.sync.signals import FrameSignals, frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS


def _s(bits: str) -> np.ndarray:
    return np.array([int(c) for c in bits], float)


def test_a_tail_at_chance_after_an_answered_opening_is_found_where_it_starts():
    s = _s("1" * 14 + "01000100100010")
    assert stretch.unexplained(s, np.full(len(s), 0.25))[:2] == (14, 28)


def test_a_head_at_chance_before_an_answered_rest_is_found_too():
    s = _s("00100100010" + "1" * 14)
    assert stretch.unexplained(s, np.full(len(s), 0.25))[:2] == (0, 11)


def test_a_few_misses_in_a_row_or_a_busy_screen_are_no_stretch():
    """Pong's second genuine run misses 5 presses in a row (its paddle at the wall); a screen
    where half the windows hold an answer by chance makes a stretch of misses weak evidence."""
    genuine = _s("110001111111111111101100000111")
    assert stretch.unexplained(genuine, np.full(len(genuine), 0.28)) is None
    busy = _s("1" * 12 + "0101010101")
    assert stretch.unexplained(busy, np.full(len(busy), 0.5)) is None
    short = _s("1" * 20 + "0000")  # Pitfall through a dropping recorder: 3 at the end
    assert stretch.unexplained(short, np.full(len(short), 0.2)) is None


def test_a_stretch_answered_far_above_chance_is_answered_though_below_the_opening():
    """A genuine 150 s Boxing run: an opening of 34 answered at 94 %, then 61 of 89 answered
    against 0.38 by chance each (+6.4 spreads): a false stretch "at chance" (LLR 10.9), the
    test having compared chance with the opening's rate only."""
    s = _s("1" * 32 + "00" + "10" * 28 + "1" * 33)
    chance = np.r_[np.full(34, 0.4), np.full(89, 0.38)]
    assert int(s[34:].sum()) == 61
    assert stretch.above_chance(s[34:], chance[34:])
    assert stretch.unexplained(s, chance) is None
    at_chance = _s("1" * 32 + "00" + "100" * 29 + "10")  # 30 of 89: found
    assert stretch.unexplained(at_chance, chance)[:2] == (32, 123)  # with the 2 misses ahead


def test_a_stretch_where_the_players_tiles_are_silent_is_no_evidence():
    """A genuine 150 s Pitfall run: its first 33 actions fall where the player's tiles
    (learnt from the rest) have no onset within LOCAL_S (chance at the floor on 31): "0
    answered, 0.8 by chance" was a false stretch (LLR 137). Pitfall's cut keeps its stretch:
    4 of its 9 actions silent (the video's last frames)."""
    floor = stretch.CHANCE_FLOOR
    s = _s("0" * 33 + "1" * 64)
    chance = np.r_[np.full(31, floor), 0.05, 0.06, np.full(64, 0.3)]
    assert stretch.unexplained(s, chance) is None
    cut = _s("1" * 12 + "0" * 9)
    c = np.r_[np.full(12, 0.2), 0.17, 0.14, 0.11, 0.06, 0.03, np.full(4, floor)]
    assert stretch.unexplained(cut, c)[:2] == (12, 21)


def test_a_stretch_fewer_than_one_press_of_which_chance_would_answer_tells_nothing():
    """A game that ignores its presses where the player's tiles hardly move reads as footage
    from another attempt (the wide set, session 43): Pong's last 8 presses after its last
    point, 0 answered against 0.5 by chance, and Crazy Climber's first 18, 1 against 0.6,
    were each a genuine run's `sync.no_reaction` "at chance". Another attempt's player moves
    in the tiles: carnival-cut@r30xvidbf1's 13 presses after its cut, 3 against 3.05, stay
    a stretch the video does not follow."""
    pong = _s("1101111011011111111111" + "0" * 8)
    pong_chance = np.r_[np.full(22, 0.25), np.full(8, 0.0625)]
    assert stretch.unexplained(pong, pong_chance)[:2] == (22, 30)
    assert not stretch.tells(pong_chance[22:])  # 0.5 by chance
    climber = _s("0" * 3 + "1" + "0" * 14 + "1111011111")
    climber_chance = np.r_[np.full(18, 0.6 / 18), np.full(10, 0.25)]
    assert stretch.unexplained(climber, climber_chance)[:2] == (0, 18)
    assert not stretch.tells(climber_chance[:18])  # 0.6 by chance
    carnival = _s("1" * 11 + "0100000100100")
    carnival_chance = np.r_[np.full(11, 0.25), np.full(13, 3.05 / 13)]
    assert stretch.unexplained(carnival, carnival_chance)[:2] == (11, 24)
    assert stretch.tells(carnival_chance[11:])  # 3.05 by chance
    assert not stretch.tells(np.full(8, 0.12))  # 0.96: under one answer by chance
    assert stretch.tells(np.full(8, 0.125))  # 1.0


def test_actions_after_the_footage_are_no_evidence_either_way():
    """A video cut 14 s short ends before the log's last 7 actions would show. Their answer
    window used to be the last frames' (clipped), answered when those held an onset, and
    those 7 "answers" hid the 8 actions at chance before them (Pitfall's long cut: silent)."""
    fps, n = 60.0, 60 * 30
    tiles = np.zeros((n, 1), np.uint16)
    tiles[n - 3:, 0] = 40  # the player moves in the last frames: an onset there
    sig = FrameSignals(np.arange(n) / fps, tiles, fps)
    nov = reactions.novelty(sig)
    exp = np.array([10.0, 20.0, 29.95, 31.0, 45.0])
    answered, _ = stretch.answers(sig, nov, np.array([True]), exp)
    assert answered.tolist() == [False, False, True, False, False]
    s = _s("1" * 14 + "01000010" + "0000000")
    chance = np.full(len(s), 0.25)
    assert stretch.unexplained(s, chance, shown=22)[:2] == (14, 29)  # to the run's end
    clipped = _s("1" * 14 + "01000010" + "1111111")  # what the clipped windows said
    assert stretch.unexplained(clipped, chance) is None


def test_the_splice_is_the_largest_change_from_the_earliest_plausible_boundary():
    """Answered up to action 9, at chance after it; the picture jumps at frame 700 (video
    11.67 s), after action 10's expected frame, and more at frame 100 (before the stretch)."""
    n = 1500
    change = np.zeros((n, 1), np.uint16)
    change[700, 0], change[100, 0], change[900, 0] = 500, 900, 300
    sig = FrameSignals(np.arange(n) / 60.0, change, 60.0)
    s = _s("1" * 10 + "0" * 10)
    exp = 1.0 + np.arange(20) * 1.0
    v0, v1 = stretch.place(sig, s, np.full(20, 0.2), exp, 10, 20)
    assert round(v0 * 60) == 700  # duration-ok: a video time (frame 700)
    assert v1 == pytest.approx(exp[-1] + stretch.WINDOW_S)  # duration-ok: a video time


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
def test_pong_spliced_from_a_second_attempt_gets_a_finding_at_the_splice(monkeypatch):
    """The held-out Pong retake (built here): the splice at video 22.23 s, every action after
    it unanswered by the truth."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build("pong-retake")
    truth = run.truth
    e = run.action_times
    a = analyze(e, frame_signals(run.video), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None, a.reason
    [f] = a.findings
    assert f.rule == "sync.no_reaction" and CHANCE_WORDS in f.message
    splice = truth["tamper"]["video_s"]
    assert abs(f.video_start_s - splice) <= 1 / truth["fps"]  # duration-ok: a video time
    assert f.run_start_s > truth["tamper"]["run_s"]  # the stretch starts after the splice
    assert f.actions == sum(x["elapsed_ms"] / 1000 >= f.run_start_s for x in truth["actions"])


def test_a_gap_where_the_band_moves_far_more_than_in_idle_time_is_busy():
    """Actions every second at 60 fps but one 9 s gap (actions 20 and 21, video 21 to 30 s).
    The game's own motion: one frame in 64, everywhere. In the gap someone steers from 22 to
    28 s: of its 33 quarter seconds (from 0.6 s after action 20), 25 are busy steering and one
    more by the game's own motion (frame 1728), against 3 of 29 in idle time."""
    fps, n = 60.0, 60 * 45
    t = np.arange(n) / fps
    v = np.r_[1.0 + np.arange(21), 30.0 + np.arange(10)]
    moving = np.zeros(n, bool)
    moving[::64] = True
    steered = moving.copy()
    steered[1320:1680] = True
    sig = FrameSignals(t, np.zeros((n, 1), np.uint16), fps)
    [(i, v0, v1, o, bins, p, llr)] = stretch.busy_gaps(sig, steered, v, 0.6, [20])
    # idle: 29 quarter seconds (one per second, 0.6 to 0.85 s after each action), 3 busy
    assert (i, o, bins) == (20, 26, 33) and p == (3 + 1) / (29 + 2)
    assert llr >= stretch.BUSY_MIN_LLR
    assert round(v0 * fps) == 1311 and round(v1 * fps) == 1730  # duration-ok: video times
    # the gap moving as the idle time does is no finding, nor a gap not under test
    assert stretch.busy_gaps(sig, moving, v, 0.6, [20]) == []
    assert stretch.busy_gaps(sig, steered, v, 0.6, []) == []


def _analysed(name: str):
    run = corpus.build(name)
    e = run.action_times
    return run.truth, analyze(e, frame_signals(run.video), DEFAULT_THRESHOLDS)


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
@pytest.mark.parametrize("kind", ["deleted", "human"])
def test_pong_unlogged_stretch_is_activity_in_the_players_band(kind, monkeypatch):
    """Pong with 10 s of calls removed and seq renumbered, or 9 s played by a person: in the
    paddle's column (band.py) the paddle moves in 15 of the gap's 42 quarter seconds against
    15 % of the idle time's (deleted: was silent, 5 separate onsets where 6 were needed), 25
    of 37 against 24 % (human). The deleted run's offset comes from the band; the human run's
    band stands 4.2 spreads above the shuffled logs' best bands, under the 5 an offset needs
    (sync_min_null_z): no offset is suggested, the gap is said (it was silent)."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    truth, a = _analysed(f"pong-{kind}")
    t = truth["tamper"]
    if kind == "deleted":
        assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a video time
    else:
        assert a.suggested_offset_s is None and a.reason
    [f] = a.findings
    assert f.rule == "sync.activity_without_actions" and "player's band" in f.message
    assert t["video_start_s"] - 1.0 <= f.video_start_s <= f.video_end_s <= t["video_end_s"] + 1.0
    assert f.run_start_s < t["run_start_s"] < t["run_end_s"] < f.run_end_s  # the log's gap


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
@pytest.mark.parametrize("kind", ["pause", "pauselong"])
@pytest.mark.parametrize("game", ["breakout", "pitfall", "pong", "boxing"])
def test_a_genuine_pause_is_no_activity_without_actions(game, kind, monkeypatch):
    """Genuine runs whose agent idles 9 s, or 30 s (`pauselong`, the control of 30 s of log
    removed), one slow model call and nothing pressed: the log's gap is the agent's own.
    Boxing's 9 s was a false warning (the other boxer's punches move the idle player: 3.28x
    the idle time's input-like onsets, ACTIVITY_DENSITY asks for 3.5x; its 30 s: 1.17x)."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    truth, a = _analysed(f"{game}-{kind}")
    idle = 30.0 if kind == "pauselong" else 9.0
    assert truth["tamper"]["run_end_s"] - truth["tamper"]["run_start_s"] >= idle  # duration-ok: run times
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a video time
    assert "sync.activity_without_actions" not in {f.rule for f in a.findings}


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
def test_pitfall_retake_gets_its_offset_from_its_first_half_and_a_finding_at_the_splice(
        monkeypatch):
    """Pitfall spliced from a second attempt at video 20.55 s: the whole run singles out no
    offset (the actions after the splice are chance matches), its first 11 actions do; the
    rest is then measured at that offset and the splice is reported within a second."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    truth, a = _analysed("pitfall-retake")
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a video time
    splice = truth["tamper"]["video_s"]
    assert [f for f in a.findings if abs(f.video_start_s - splice) <= 1.0]  # duration-ok: a video time
    assert all(f.video_start_s >= splice - 1.0 for f in a.findings)


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
def test_a_band_under_the_offsets_margin_suggests_no_offset(monkeypatch):
    """Space Invaders, genuine, through a 25 fps recorder that misses 4 % of its captures: its
    best band stands 4.7 spreads above the shuffled logs' best bands, where the band's fit
    put the offset 1.09 frames off (a confident wrong answer when the band was looked at from
    4 and suggested). Under sync_min_null_z a band suggests nothing. (Since session 27 the
    run gets an offset from the cannon's row on the grid moved down by half a tile, which
    stands over the margin: -0.21 frame, not the weak band's 1.09.)"""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    truth, a = _analysed("space_invaders-genuine@r25drop")
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - truth["offset_s"]) * truth["fps"] <= 1.0  # duration-ok: frames
    assert a.findings == []
