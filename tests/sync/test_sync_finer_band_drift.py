"""The finer and half-shifted bands carry the drift the whole picture proposes (issue 13,
session 28: `finer_band.suggested` with `_in_band(..., drift=True)`).

Kangaroo's mother kangaroo and Space Invaders' cannon answer the presses on the scan's 16x16
grid or on the 8x8 grid moved down by half a tile (`FrameSignals.finer`, `half_shifted`):
their genuine runs get their offset there, at speed 1. A sped-up or slowed video's actions
slide off a band chosen at speed 1 (4 % over 40 s: 1.6 s), so every reading said "not enough
signal" and no `sync.drift` (session 27: the 8x8 band alone tried the drift). The band is
now also chosen at the speed the whole picture's fit proposes (its own shuffled logs), and
its reading must find the drift again with its own test, as the 8x8 band's does.
"""

from __future__ import annotations

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


def _auto(run: corpus.Run):
    sig = frame_signals(run.video)
    return sig, analyze(run.action_times, sig, DEFAULT_THRESHOLDS, None,
                        run_duration_s=run.run_end_s)


@pytest.mark.parametrize(("name", "percent"), [
    ("kangaroo-speed", 4.01), ("kangaroo-slow", -2.9), ("kangaroo-speed6", 6.02),
    ("space_invaders-speed6", 6.02), ("frostbite-speed6", 5.99)])
def test_a_drift_read_on_the_finer_band_is_said_within_a_point(name, percent):
    """On main: no suggestion and no finding (kangaroo-speed, -slow, -speed6,
    space_invaders-speed6, frostbite-speed6: "the video's reactions do not single out one
    offset")."""
    run = corpus.build(name)
    sig, a = _auto(run)
    drifts = [f for f in a.findings if f.rule == "sync.drift"]
    assert [f.percent for f in drifts] == [percent]
    assert abs(percent - run.truth["tamper"]["percent"]) <= 1.0
    # the whole video, from its first frame to its last
    assert (drifts[0].video_start_s, drifts[0].video_end_s) == \
        (float(sig.times[0]), float(sig.times[-1]))
    # the offset carried back along the band's line is shown, not applied
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"] <= 1.0  # duration-ok: frames
    assert a.confidence < APPLY_MIN_CONFIDENCE


@pytest.mark.parametrize("name", ["kangaroo-genuine2", "space_invaders-genuine2"])
def test_genuine_runs_of_those_games_read_no_drift(name):
    """Guards: Kangaroo's genuine run keeps its speed-1 band; Space Invaders' second genuine
    run, whose whole picture proposes +5 %, finds no band at that speed either."""
    run = corpus.build(name)
    _sig, a = _auto(run)
    assert a.findings == []
    assert a.speed == 1.0
