"""A band reading carries the drift the whole picture proposes (issue 13, session 27:
`analysis._drift_speed`).

The player's band is chosen at speed 1 (`band.select`), and a sped-up video's actions slide
off it (4 % over 40 s: 1.6 s by the run's end). Mario Bros (turtles, crabs and fireballs move
on their own; Mario is small) sped up 4 %: the whole picture's fit over every speed finds the
drift but its gate refuses it (a piece of one offset explains as many actions), and the band
at speed 1 stands under its shuffled logs: no drift, no offset. At the speed the whole picture
proposes the band is chosen by its own shuffled logs, and its reading finds the drift with
its own test (piecewise support and shuffled logs over every speed).
"""

from __future__ import annotations

import random

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def mario_bros(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Mario Bros. (QA session 26's agent): LEFT/RIGHT run, FIRE jumps."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 14))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(4, 10))]


def _mario(kind: str) -> corpus.Run:
    from corpus.record import Recorder
    return corpus.build_with(f"s27-mario_bros-{kind}@r25mp4", "mario_bros", mario_bros, kind,
                             261, Recorder(fps=25, scale=2, lead_s=2.7, container="mp4"),
                             "r25mp4")


def _auto(run: corpus.Run):
    return analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, None,
                   run_duration_s=run.run_end_s)


def test_mario_bros_sped_up_4_percent_reads_its_drift_in_the_band():
    """On main: "the video's reactions do not single out one offset", no finding."""
    run = _mario("speed")
    a = _auto(run)
    assert [(f.rule, f.percent) for f in a.findings] == [("sync.drift", 3.94)]
    assert round((a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"], 2) == -0.26
    assert a.confidence == 0.971
    assert a.confidence >= APPLY_MIN_CONFIDENCE


def test_mario_bros_genuine_reads_no_drift_and_keeps_its_offset():
    """Guard: the genuine run's band at speed 1 is chosen as before (no drift searched)."""
    run = _mario("genuine")
    a = _auto(run)
    assert a.findings == []
    assert a.speed == 1.0
    assert round((a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"], 2) == -0.27
    assert a.confidence == 0.898
