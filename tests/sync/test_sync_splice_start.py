"""A stretch at chance that ends the run starts at its splice (issue 13, session 26, QA s25
S1; core/sync/stretch.py `place`, `_tail_splice`).

Kaboom! flashes the whole screen over several frames whenever a bomb lands (~28,000 points,
the video's 99.5th percentile), so a cut (500-650 points) never stands out against the
video's percentile: the stretch was said from its first action's footage, 1.56 s before
QA's cut (video 16.61 s for 18.17 s). The cut's frame stands out against every other frame
within 0.5 s either side (the flashes aside) by 1.5 times and more: the stretch now starts
there when it lies among the plausible boundaries' footage.

Pitfall with 14 s cut (corpus `pitfall-cutlong`): the cut's frame (video 14.70 s) answered
the last action before it, so the search for the splice began after it and took a change
5.3 s later (19.97 s, 103 points against the cut's 101).

Runs of our own: Kaboom! played by QA s25's agent on a seed of this session, recorded as QA's
recorder scales (x3 bicubic, 30 fps, a 1.4 s lead-in) in H.264 MP4.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest
from test_sync_splice_span import kaboom

from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync import stretch
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.records import CHANCE_WORDS
from moderator_app.core.sync.signals import FrameSignals, frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _kaboom(kind: str, seed: int):
    from corpus.record import Recorder

    rec = Recorder(fps=30, scale=3, flags="bicubic", crf=26, container="mp4", lead_s=1.4)
    return corpus.build_with(f"s26-kaboom-{kind}@r30mp4x3s{seed}", "kaboom", kaboom, kind,
                             seed, rec, "r30mp4x3")


def _tail(run, presses_before: int):
    """The presses before the splice answered, the rest at chance 0.2, expected at the
    truth; the stretch from `presses_before` presses before the splice."""
    t = run.truth
    acts = np.asarray(run.action_times, float)
    s = (acts < t["tamper"]["run_s"]).astype(float)
    i0 = int(np.searchsorted(acts, t["tamper"]["run_s"])) - presses_before
    return s, np.full(len(acts), 0.2), acts + t["offset_s"], i0


def test_a_cut_under_a_flashing_screen_starts_its_stretch_at_the_cut():
    run = _kaboom("cut", 2681)
    sig = frame_signals(run.video)
    cut = run.truth["tamper"]["video_s"]
    pc = np.asarray(sig.picture_change, float)
    assert pc.max() > 20 * pc[int(round(cut * 30))]  # the flashes dwarf the cut
    s, chance, exp, i0 = _tail(run, 2)
    v0, v1 = stretch.place(sig, s, chance, exp, i0, len(exp))
    # on main: video 14.62 s, the stretch's first action's footage (3.54 s before the cut)
    assert abs(v0 - cut) <= 1 / 30  # duration-ok: a video time (a frame)
    assert v1 == pytest.approx(float(exp[-1]) + stretch.WINDOW_S, abs=1e-6)  # duration-ok


def test_the_cut_answering_the_last_action_before_it_is_still_the_stretchs_start():
    run = corpus.build("pitfall-cutlong")
    times, named = inputs(load_submission([run.log, run.video]))
    a = analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, run.truth["offset_s"],
                run_duration_s=run.run_end_s, input_kinds=named)
    found = [f for f in a.findings if f.rule == "sync.no_reaction" and CHANCE_WORDS in f.message]
    assert len(found) == 1, a.findings
    [f] = found
    assert f.video_start_s is not None
    # on main: video 19.967 s, 5.3 s after the cut (14.683 s)
    assert abs(f.video_start_s - run.truth["tamper"]["video_s"]) <= 1 / 30  # duration-ok


def test_a_lone_change_outside_the_plausible_boundaries_is_no_splice():
    """Answered up to action 9, at chance from action 10 (expected at 11 s); the plausible
    boundaries' footage ends a window after action 11 (12.1 s). A frame at 15 s stands out from
    its neighbours by 4 times (no splice the video's percentile shows: a flash of 10,000 points
    every 5 s is the game's), and is not taken: the stretch's first action's footage is."""
    n, fps = 1500, 60.0
    tiles = np.full((n, 1), 50, np.uint16)
    tiles[0] = 0
    for k in range(300, n, 300):  # the game's flashes: three frames each
        tiles[k:k + 3, 0] = 10_000
    tiles[900, 0] = 200  # video 15.0 s
    sig = FrameSignals(np.arange(n) / fps, tiles, fps)
    s = np.r_[np.ones(10), np.zeros(10)]
    exp = 1.0 + np.arange(20) * 1.0
    v0, _ = stretch.place(sig, s, np.full(20, 0.2), exp, 10, 20)
    assert v0 == pytest.approx(float(exp[10]))  # duration-ok: a video time


@pytest.mark.parametrize("offset", ["auto", "truth"])
def test_genuine_kaboom_runs_stay_silent(offset):
    run = _kaboom("genuine", 2681)
    times, named = inputs(load_submission([run.log, run.video]))
    given = None if offset == "auto" else run.truth["offset_s"]
    a = analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, given,
                run_duration_s=run.run_end_s, input_kinds=named)
    assert [f for f in a.findings if f.rule.startswith("sync.")] == []
