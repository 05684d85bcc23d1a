"""A drift on a short run stands all of its shuffled logs, not the first four (issue 13, QA
s20/s21 M4: `pooyan-human@r40xvidavi`).

Pooyan (ale-py, QA s20's agent, seed 203) answers few presses on screen: of the 19 logged
actions of its `human` run (a human plays 15 unlogged presses over 25.92-32.07 s of the
video), 6 change the picture and the scan sees about one at the true offset. At 4x4 tiles the
drift search found a line at speed 1.0625 through 9 chance changes (two of them the human's
presses) and `fit.drift_significant` stopped after 4 shuffled logs, whose spread was 0.44:
6.66 spreads, over the 6 it settles at. Over all 9 the line stands 2.55 (spread 1.50), under
the 3 a drift needs. On main: a `sync.drift` of +6.19 % and an offset of -1.4523 s (190
frames off the truth, 3.3 s) at confidence 0.576, and the log's silent stretch placed at
19.58-26.35 s. The same on QA's Xvid AVI and on this H.264 copy (40 fps, as QA's recorder: x2,
3.3 s lead-in).
"""

from __future__ import annotations

import random

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.run import analyze_result
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
from moderator_app.core.verify.pipeline import verify_paths

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _pooyan(ram, rng: random.Random) -> list[tuple[str, int]]:
    """QA session 20's Pooyan agent (scripts/qa_session20.py): the basket up or down, or an
    arrow."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("UP", "DOWN")), rng.randint(6, 14))]
    return [(rng.choice(("FIRE", "UPFIRE", "DOWNFIRE")), rng.randint(3, 8))]


def _human_run() -> corpus.Run:
    """QA's pooyan-human (seed 203) at 40 fps, H.264 in MP4, x2, a 3.3 s lead-in; built once
    into the corpus cache."""
    from corpus.record import Recorder

    return corpus.build_with("qa20-pooyan-human@r40mp4", "pooyan", _pooyan, "human", 203,
                             Recorder(fps=40, scale=2, lead_s=3.3, container="mp4"), "r40mp4")


def test_a_sparse_games_human_stretch_is_no_drift_and_no_offset():
    """Not enough signal: no offset (main: -1.4523 s, 190 frames off, confidence 0.576) and
    no finding (main: `sync.drift` +6.19 %)."""
    run = _human_run()
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run_duration_s=run.run_end_s)
    assert a.suggested_offset_s is None
    assert a.reason == "the video's reactions do not single out one offset"
    assert a.speed == 1.0
    assert [(f.rule, f.percent) for f in a.findings] == []


def test_the_human_stretch_is_the_logs_silence_at_the_true_offset():
    """At the true offset (the moderator's), the one finding is the log's silent stretch
    over the human's presses, within 1 s of them (main: a +6.19 % drift over the whole
    video and the silence at 19.58-26.35 s, the offset it suggested)."""
    run = _human_run()
    truth, t = run.truth, run.truth["tamper"]
    a = analyze_result(verify_paths([run.folder]), offset_s=truth["offset_s"])
    assert a.suggested_offset_s is None and a.speed == 1.0
    [f] = a.findings
    assert f.rule == "sync.silent_log"
    assert abs(f.video_start_s - t["video_start_s"]) <= 1.0  # duration-ok: issue 13's +-1 s
    assert abs(f.video_end_s - t["video_end_s"]) <= 1.0  # duration-ok: issue 13's +-1 s
