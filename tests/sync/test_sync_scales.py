"""The two tile scales of the sync analysis: how the coarse scale completes the fine one."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import reactions
from moderator_app.core.sync.analysis import CHANCE_WORDS, SyncAnalysis, SyncFinding, combine
from moderator_app.core.sync.signals import FrameSignals

FRAME = 1 / 60


def _a(offset, *findings):
    return SyncAnalysis(offset, 0.8 if offset is not None else 0.0, 10, 30, 1.0,
                        "" if offset is not None else "no", offset, findings=list(findings))


JUMP = SyncFinding("sync.offset_jump", "j", 14.67, 18.68, 12.6, 14.0, size_s=4.0)
HUMAN = SyncFinding("sync.activity_without_actions", "h", 20.0, 27.0, 18.0, 26.0, actions=9)


def test_coarse_fills_in_a_missing_suggestion_and_nothing_else():
    fine, coarse = _a(None), _a(2.0, HUMAN)
    assert combine(fine, coarse, FRAME) is coarse
    assert combine(_a(2.0, JUMP), _a(None), FRAME).findings == [JUMP]


def test_coarse_findings_join_only_where_the_fine_scale_is_silent():
    near_jump = SyncFinding("sync.offset_jump", "j", 12.85, 16.9, 10.8, 11.3, size_s=4.04)
    got = combine(_a(2.0, JUMP), _a(2.0 + 0.5 * FRAME, near_jump, HUMAN), FRAME)
    assert got.suggested_offset_s == 2.0
    assert got.findings == [JUMP, HUMAN]  # the second jump is about the same place


def test_scales_that_disagree_leave_the_fine_one_alone():
    got = combine(_a(2.0), _a(2.0 + 1.5 * FRAME, HUMAN), FRAME)
    assert got.findings == [] and got.suggested_offset_s == 2.0


def test_a_stretch_at_chance_stays_unless_the_other_scale_jumps_into_it():
    """A reaction the other scale sees in the stretch does not drop it (chance answers are
    reactions: a log whose second half came from another run lost its finding that way);
    an offset jump of the other scale into it does (Breakout's cut: 8x8 saw a stretch at
    chance, 4x4 the jump)."""
    stretch = SyncFinding("sync.no_reaction", f"13 actions in a row {CHANCE_WORDS} (...)",
                          16.7, 38.0, 14.9, 36.1, actions=13)
    seen = [reactions.Reaction(0, 20.0, 21.9, 21.95, 0.05, 0.9)]
    coarse = SyncAnalysis(2.0, 0.8, 10, 30, 1.0, "", 2.0, reactions=seen)
    assert combine(_a(2.0, stretch), coarse, FRAME).findings == [stretch]
    into = SyncFinding("sync.offset_jump", "j", 16.7, None, 13.6, 15.7, size_s=-4.0)
    assert combine(_a(2.0, stretch), _a(2.0, into), FRAME).findings == [into]
    assert combine(_a(2.0, into), _a(2.0, stretch), FRAME).findings == [into]


def test_a_stretch_at_chance_at_one_scale_answered_above_chance_at_the_other_is_dropped():
    """A genuine 150 s Boxing run: its last 24 actions at 4x4, 4 answered against 2.6 by
    chance (the player's coarse tiles silent around 12 of them), were a false stretch; at 8x8
    the same actions are answered 17 times against 8.2 by chance. Answers at chance at the
    other scale (a log spliced from another run) keep the finding."""
    stretch = SyncFinding("sync.no_reaction", f"24 actions in a row {CHANCE_WORDS} (...)",
                          119.0, 149.3, 120.0, 147.3, actions=24)
    runs = [100.0 + i for i in range(48)]  # actions 20..47 (run 120..147) in the stretch
    rs = [reactions.Reaction(i, r, r + 2.0, None, None, 0.0) for i, r in enumerate(runs)]
    answered = tuple((True, 0.3) for _ in range(20)) + tuple(
        (i % 3 != 0, 0.35) for i in range(28))  # 18 of 28 against 9.8
    fine = SyncAnalysis(2.0, 0.8, 10, 48, 1.0, "", 2.0, reactions=rs, answers=answered)
    assert combine(fine, _a(2.0, stretch), FRAME).findings == []
    at_chance = answered[:20] + tuple((i % 3 == 0, 0.35) for i in range(28))  # 10 of 28
    fine = SyncAnalysis(2.0, 0.8, 10, 48, 1.0, "", 2.0, reactions=rs, answers=at_chance)
    assert combine(fine, _a(2.0, stretch), FRAME).findings == [stretch]
    untested = SyncAnalysis(2.0, 0.8, 10, 48, 1.0, "", 2.0, reactions=rs)
    assert combine(untested, _a(2.0, stretch), FRAME).findings == [stretch]


def test_a_cut_only_the_coarse_scale_reads_joins_only_when_its_splice_is_in_the_picture():
    """chopper_command-genuine2@r18divx (the wide set, genuine, 18 fps; session 44): the 4x4
    scale alone read footage removed at 19.56 s (-6.53 s), where the picture changes 487
    points against 656 the frame before on a busy screen: no splice there, no jump. Corpus
    v2's breakout-cut: 325 points at its splice against 19 around it, the jump joins. An
    insertion, and a reading that gives no signals, are not asked."""
    fps = 18.0
    n = 720
    k = 352  # 19.56 s
    rng = np.random.default_rng(5)
    busy = np.zeros((n, 16), np.uint16)
    busy[:, 0] = rng.integers(300, 700, n)
    busy[k - 1, 0], busy[k, 0], busy[k + 1, 0] = 656, 487, 0
    busy[0] = 0
    sig = FrameSignals(np.arange(n) / fps, busy, fps)
    cut = SyncFinding("sync.offset_jump", "j", float(sig.times[k]), None, 14.28, 20.8,
                      size_s=-6.53)
    assert combine(_a(5.27), _a(5.27, cut), FRAME, sig).findings == []
    assert combine(_a(5.27), _a(5.27, cut), FRAME).findings == [cut]
    still = np.zeros((n, 16), np.uint16)
    still[1:, 0] = 19
    still[k, 0] = 325
    seen = FrameSignals(np.arange(n) / fps, still, fps)
    assert combine(_a(5.27), _a(5.27, cut), FRAME, seen).findings == [cut]
    inserted = SyncFinding("sync.offset_jump", "j", float(sig.times[k]), float(sig.times[k]) + 4,
                           14.28, 20.8, size_s=4.0)
    assert combine(_a(5.27), _a(5.27, inserted), FRAME, sig).findings == [inserted]


def test_coarser_sums_tiles():
    tiles = np.zeros((3, 64), np.uint16)
    tiles[1, 0] = 3        # row 0, col 0 -> coarse tile 0
    tiles[1, 9] = 4        # row 1, col 1 -> coarse tile 0
    tiles[2, 63] = 5       # row 7, col 7 -> coarse tile 15
    sig = FrameSignals(np.arange(3) / 60, tiles, 60.0)
    c = sig.coarser(4)
    assert sig.grid == 8 and c.grid == 4
    assert c.tiles[1, 0] == 7 and c.tiles[2, 15] == 5 and c.tiles.sum() == 12
    with pytest.raises(ValueError):
        sig.coarser(3)


def test_analyze_hands_combine_the_coarse_signals(monkeypatch):
    """Review s44 R4: `analysis._analyze` must hand `combine` the coarse scale's signals
    (`coarse_sig`), or a cut only the 4x4 scale reads joins even where its splice frame does
    not change the picture (chopper_command-genuine2@r18divx). Through `analyze`, with each
    scale's own reading given (the fine 8x8 scale: no jump; the coarse 4x4: a -6.53 s cut at
    19.56 s): on a busy picture whose frame there changes less than the one before, no
    `sync.offset_jump`; on a still one whose frame there stands out, the jump, at its frame."""
    from moderator_app.core.sync import analysis
    from moderator_app.core.thresholds import Thresholds

    fps, n, k = 18.0, 720, 352
    run_s = np.arange(4.0, 36.0, 1.0)

    def reading(run, sig, th, offset_s=None, input_kinds=None):
        t = float(sig.times[k])
        cut = SyncFinding("sync.offset_jump", "j", t, None, 14.28, 20.8, size_s=-6.53)
        return _a(5.27, cut) if sig.grid == 4 else _a(5.27)

    monkeypatch.setattr(analysis, "analyze_at", reading)

    def picture(col0):
        tiles = np.zeros((n, 64), np.uint16)
        tiles[:, 0] = col0
        tiles[0] = 0
        return FrameSignals(np.arange(n) / fps, tiles, fps)

    rng = np.random.default_rng(5)
    busy = rng.integers(300, 700, n).astype(np.uint16)
    busy[k - 1], busy[k], busy[k + 1] = 656, 487, 0
    got = analysis.analyze(run_s, picture(busy), Thresholds(), 5.27)
    assert [f.rule for f in got.findings if f.rule == "sync.offset_jump"] == []
    still = np.full(n, 19, np.uint16)
    still[k] = 325
    got = analysis.analyze(run_s, picture(still), Thresholds(), 5.27)
    jumps = [f for f in got.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1 and abs(jumps[0].video_start_s - k / fps) < 1 / fps  # duration-ok: a frame position, not a timing
    assert jumps[0].size_s == -6.53
