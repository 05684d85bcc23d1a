"""Every offset the analysis measures is dated by the presses' first change, and a stretch at
chance before inserted footage is the footage's jump (issue 13; QA session 14, G8 and the
Pinball rows after G7's fix, ef3d9f4).

Video Pinball (ale-py, QA s14's scripted agent, seed 147; in no corpus set): a flipper press
changes a tile on its own frame, its release swings the flipper back ~0.19 s later in
larger steps, which the fit's learnt tiles favour. ef3d9f4 dated the whole run's offset by
the first change (`fit.earliest`); the offsets of a stretch between jumps, of the part a
stretch at chance leaves and of a drifting run were still the release's. Built here at QA's
20 fps x264 MKV recorder with a 3.3 s lead-in (`r20mkv`):

1. `insert` (4 s of another attempt after the first 9 actions, 2 of them FIRE, which
   shows nothing): on main the offset after the insertion, 7.489 s (+83.8 frames,
   confidence 0.59), no `sync.offset_jump`, and a `sync.no_reaction` over the honest
   footage before it. The stretch before stood 3.83 spreads at its own offset, under the
   4.0 a stretch needs; beside a stretch at chance it needs what the rest needs (3.0).
2. `speed` (the video 4 % fast): the drift's offset read from the release.
"""

from __future__ import annotations

import random

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _pinball(ram, rng: random.Random) -> list[tuple[str, int]]:
    """QA session 14's Video Pinball agent (scripts/qa_session14.py): flippers 4-12 frames,
    the plunger, a nudge."""
    r = rng.random()
    if r < 0.75:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    if r < 0.9:
        return [("FIRE", rng.randint(10, 30))]
    return [("UP", rng.randint(3, 6))]


def _pinball_run(kind: str) -> corpus.Run:
    """QA's video_pinball-KIND@r20mkv (seed 147; 20 fps H.264 in Matroska, x2, 3.3 s
    lead-in), built once into the corpus cache."""
    from corpus.record import Recorder

    return corpus.build_with(f"qa14-video_pinball-{kind}@r20mkv", "video_pinball", _pinball,
                             kind, 147, Recorder(fps=20, scale=2, lead_s=3.3, container="mkv"),
                             "r20mkv")


def _analyze(run: corpus.Run):
    return analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                   run_duration_s=run.run_end_s)


def test_a_stretch_before_inserted_footage_keeps_run_starts_offset():
    run = _pinball_run("insert")
    truth, t = run.truth, run.truth["tamper"]
    a = _analyze(run)
    frame = 1 / truth["fps"]
    # main: 7.489 s (+83.8 frames), the offset after the insertion
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= frame  # duration-ok: a video time
    [f] = a.findings  # main: a `sync.no_reaction` over the honest footage, no jump
    assert f.rule == "sync.offset_jump"
    assert abs(f.video_start_s - t["video_s"]) <= 1.0  # duration-ok: issue 13's +-1 s
    assert abs(f.size_s - t["size_s"]) <= 2 * frame  # duration-ok: a video time


def test_a_drifting_runs_offset_is_its_presses_first_change():
    run = _pinball_run("speed")
    truth, t = run.truth, run.truth["tamper"]
    a = _analyze(run)
    [f] = a.findings
    assert f.rule == "sync.drift"
    assert abs(f.percent - t["percent"]) <= 1.0
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a video time
