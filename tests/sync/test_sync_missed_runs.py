"""A run of "no visible reaction" whose presses the picture answers above chance is the
reaction reader's miss, not the footage's (issue 13, session 33 holds; core/sync/missed.py).

Hand-made signals at 60 fps: the picture moves in colour only (no luma tile changes: the
reactions see nothing, as on Adventure's floor in the wide set) a frame after each press, or
not at all (footage frozen over the run), or at times the log does not know (another
attempt's footage). Only the first loses its finding."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync.missed import answered_runs, picture_onsets
from moderator_app.core.sync.reactions import Reaction
from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60.0
N = 40 * 60
PRESSES = np.arange(10.0, 30.0, 1.37)  # 15 presses on the video's clock (offset 0)


def _sig(colour: np.ndarray) -> FrameSignals:
    times = np.arange(N) / FPS
    return FrameSignals(times, np.zeros((N, 64), np.uint16), FPS,
                        colour=colour.astype(np.int64))


def _analysis(found: list[SyncFinding]) -> SyncAnalysis:
    rs = [Reaction(i, float(v), float(v), None, None, 0.0) for i, v in enumerate(PRESSES)]
    return SyncAnalysis(0.0, 0.9, 20, len(rs), 1.0, "", 0.0, rs, findings=found)


RUN = SyncFinding("sync.no_reaction", f"{len(PRESSES)} actions in a row with no visible "
                  "reaction", float(PRESSES[0]), float(PRESSES[-1]) + 0.5,
                  float(PRESSES[0]), float(PRESSES[-1]), actions=len(PRESSES))


def _at(times) -> np.ndarray:
    c = np.zeros(N, np.int64)
    for t in times:
        k = int(round(t * FPS))
        c[k + 1:k + 4] = 30  # a square moving for three frames, a frame after the press
    return c


def test_presses_answered_in_colour_are_no_run_of_misses():
    out = answered_runs(_analysis([RUN]), _sig(_at(PRESSES)), DEFAULT_THRESHOLDS)
    assert out.findings == []


def test_footage_frozen_over_the_run_keeps_it():
    c = _at(PRESSES)
    c[int(9 * FPS):int(32 * FPS)] = 0
    out = answered_runs(_analysis([RUN]), _sig(c), DEFAULT_THRESHOLDS)
    assert out.findings == [RUN]


def test_another_attempts_footage_keeps_it():
    # the same moves, at times the log does not know (half a period off every press)
    out = answered_runs(_analysis([RUN]), _sig(_at(PRESSES + 0.68)), DEFAULT_THRESHOLDS)
    assert out.findings == [RUN]


def test_only_the_reaction_readers_runs_are_asked():
    chance = SyncFinding("sync.no_reaction", "15 actions in a row answered no more often "
                         "than by chance (0 answered, 1.2 by chance): the video does not "
                         "follow the log here", RUN.video_start_s, RUN.video_end_s,
                         RUN.run_start_s, RUN.run_end_s, actions=15)
    out = answered_runs(_analysis([chance]), _sig(_at(PRESSES)), DEFAULT_THRESHOLDS)
    assert out.findings == [chance]


def test_a_change_is_an_onset_after_still_frames_only():
    c = np.zeros(20, np.int64)
    c[5] = 30       # after five still frames: an onset
    c[6:9] = 30     # moving on: none
    c[12] = 5       # codec noise: none
    sig = FrameSignals(np.arange(20) / FPS, np.zeros((20, 64), np.uint16), FPS, colour=c)
    assert np.nonzero(picture_onsets(sig))[0].tolist() == [5]
