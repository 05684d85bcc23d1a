"""Footage inserted under a game's own larger flashes is found by its two frames that stand
out from their own second (issue 13, session 27; core/sync/insertion.py `lone_peaks`).

Kaboom! flashes the whole screen whenever a bomb lands (~28,000 points): the picture's 12
largest changes, the shifts `insertion.find` tries, are all flashes. With 4 s inserted at
video 22.87 s (session 26's seed 2653, 12 presses before it), the track kept one stretch at
the offset after the insertion and 6.590 s was offered at confidence 0.71 for a truth of
2.6 s: the one confident wrong offset left on session 26's sweep. The insertion's two ends
change the picture 354 and 348 points, the video's only frames standing 1.5 times over
every other within 0.5 s but the flashes, exactly 4.0 s apart: tried as an insertion's ends,
its head is answered at 2.6 s, the jump is said at its place and the first stretch's offset
suggested (under the one-click bar: 3 reactions support it).
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest
from test_sync_splice_span import kaboom

from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync import insertion, splices
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _kaboom(kind: str, seed: int):
    """Session 26's Kaboom! runs: QA s25's agent, H.264 MKV at 30 fps, x2 bilinear, CRF 28,
    a 2.6 s lead-in (as scripts/splice_sweep_s25.py's recorder)."""
    from corpus.record import Recorder

    rec = Recorder(fps=30, scale=2, flags="bilinear", crf=28, container="mkv", lead_s=2.6)
    return corpus.build_with(f"s26-kaboom-{kind}@r30mkvq28s{seed}", "kaboom", kaboom, kind,
                             seed, rec, "r30mkvq28")


def _read(run, given: float | None = None):
    """The analysis at `--offset auto` (or at the moderator's offset `given`), as the
    workstation reads the log (times and kinds)."""
    times, named = inputs(load_submission([run.log, run.video]))
    return analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, given,
                   run_duration_s=run.run_end_s, input_kinds=named)


def _frames_off(run, a) -> float:
    return abs(a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"]


@pytest.mark.parametrize("given", [None, 0.0, -1.0])
def test_footage_inserted_under_flashes_is_found_and_no_wrong_offset_is_offered(given):
    run = _kaboom("insert", 2653)
    t = run.truth
    assert t["tamper"]["kind"] == "insert" and t["tamper"]["size_s"] == 4.0
    a = _read(run, None if given is None else t["offset_s"] + given)
    # on main: 6.590 s at confidence 0.71 (the offset after the insertion; truth 2.6 s)
    assert a.suggested_offset_s is not None
    assert _frames_off(run, a) <= 1.0, (a.suggested_offset_s, a.confidence)  # duration-ok: frames off (video clock)
    assert a.confidence < APPLY_MIN_CONFIDENCE  # 3 reactions support the first stretch
    jumps = [f for f in a.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1 and "+4.00 s" in jumps[0].message
    # both ends at the inserted footage's frames
    assert abs(jumps[0].video_start_s - t["tamper"]["video_s"]) <= 1 / 30  # duration-ok: a video time (a frame)
    assert abs(jumps[0].video_end_s - t["tamper"]["video_end_s"]) <= 1 / 30  # duration-ok: a video time (a frame)


def test_a_genuine_kaboom_run_is_still_offered_its_offset():
    # its first confident reaction is press 11 (session 26): the same game, no insertion
    run = _kaboom("genuine", 2611)
    a = _read(run)
    assert a.suggested_offset_s is not None
    assert _frames_off(run, a) <= 1.0  # duration-ok: frames off (video clock)
    assert a.confidence >= APPLY_MIN_CONFIDENCE
    assert not [f.rule for f in a.findings if f.rule.startswith("sync.")]


def test_the_insertions_ends_are_its_only_lone_frames():
    run = _kaboom("insert", 2653)
    sig = frame_signals(run.video)
    t = run.truth["tamper"]
    big = sig.times[insertion.splice_peaks(sig)]
    # the largest changes are the bombs' flashes: neither end of the insertion among them
    assert min(abs(big - t["video_s"]).min(), abs(big - t["video_end_s"]).min()) > 0.5  # duration-ok: video times
    lone = sig.times[insertion.lone_peaks(sig)]
    assert np.abs(lone - np.array([t["video_s"], t["video_end_s"]])).max() <= 1 / 30  # duration-ok: video times (a frame)


def test_lone_frames_stand_out_from_their_own_second_but_the_flashes():
    fps = 10.0  # LONE_S 0.5 s: 5 frames either side
    pc = np.full(60, 10.0)
    pc[20] = 16.0      # 1.6 times its neighbours: lone
    pc[40] = 14.0      # 1.4 times: not
    pc[50] = 30.0      # lone beside a flash: the flash aside
    pc[52] = 10_000.0  # a flash (over the video's 99.5th percentile): never lone itself
    assert splices.lone_frames(pc, fps).tolist() == [20, 50]
    pc[23] = 12.0      # a frame within 0.5 s changing 16 / 12 = 1.33 times less: 20 no more
    assert splices.lone_frames(pc, fps).tolist() == [50]
    assert splices.lone_frames(pc[:2], fps).tolist() == []


def test_a_game_whose_own_rhythm_stands_out_names_no_insertion_by_it():
    # Space Invaders' march steps every 0.53 s: 45 frames standing out from their own second
    run = corpus.build("space_invaders-genuine2")
    sig = frame_signals(run.video)
    assert len(splices.lone_frames(sig.picture_change, sig.fps)) == 45
    assert insertion.lone_peaks(sig).tolist() == []
    # with them tried, a false jump (+2.13 s at video 17.17 s) at the truth + 0.3 s
    a = _read(run, run.truth["offset_s"] + 0.3)
    assert not [f for f in a.findings if f.rule.startswith("sync.")]
