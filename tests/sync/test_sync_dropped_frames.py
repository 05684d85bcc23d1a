"""A sped-up video read from its dropped frames on a game whose picture alternates on every
console frame (issue 13, session 28: core/sync/drops.py).

Asteroids draws its objects on alternate console frames: on a 60 fps capture the picture
changes by ~1,000 points on every frame, and where a sped-up video drops a console frame
two frames of one parity stand side by side and the change collapses (a dip). No reading of
the reactions finds its offset (its genuine runs: "not enough signal" on two of three), no
animation line, split or timer reads its speed: the corpus' Asteroids runs sped up 2, 4 and
6 % said nothing.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest

from moderator_app.core.sync import drops
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _auto(run: corpus.Run):
    sig = frame_signals(run.video)
    return sig, analyze(run.action_times, sig, DEFAULT_THRESHOLDS, None,
                        run_duration_s=run.run_end_s)


@needs_corpus
@pytest.mark.parametrize(("name", "percent"), [
    ("asteroids-speed", 4.0), ("asteroids-speed2", 2.0), ("asteroids-speed6", 6.0)])
def test_asteroids_sped_up_reads_its_drift_from_its_dropped_frames(scan_cache, name, percent):
    """On main: no finding at all (and no offset: not enough signal)."""
    run = corpus.build(name)
    sig, a = _auto(run)
    assert [(f.rule, f.percent) for f in a.findings] == [("sync.drift", percent)]
    assert abs(percent - run.truth["tamper"]["percent"]) <= 1.0
    f = a.findings[0]
    assert (f.video_start_s, f.video_end_s) == (float(sig.times[0]), float(sig.times[-1]))
    assert "console frame in every" in f.message


@needs_corpus
@pytest.mark.parametrize("name", ["asteroids-genuine", "asteroids-genuine2", "asteroids-slow",
                                  "enduro-genuine", "pong-genuine", "skiing-genuine"])
def test_no_dropped_frame_train_on_genuine_or_slowed_runs(scan_cache, name):
    """Guards: the genuine runs have no dip, or dips on no lattice (Enduro's, Pong's, Skiing's
    own, 60-270 of them); a slowed run's held frames are no change at all (repeats.py's)."""
    run = corpus.build(name)
    sig = frame_signals(run.video)
    assert drops.drop_period(np.asarray(sig.picture_change), 100.0) is None


def _alternating(n: int, drop_every: float | None, seed: int = 5) -> np.ndarray:
    """Changed points per frame of a picture alternating every console frame (~1,000, noisy),
    with a console frame dropped every `drop_every` video frames (a dip: ~30 points)."""
    rng = np.random.default_rng(seed)
    c = rng.integers(800, 1200, n)
    if drop_every:
        at = np.round(np.arange(drop_every, n - 1, drop_every)).astype(int)
        c[at] = rng.integers(10, 60, len(at))
    c[0] = 0
    return c


@pytest.mark.parametrize(("every", "percent"), [(25.0, 4.0), (34.0, 2.94), (16.667, 6.0)])
def test_a_regular_dip_train_reads_its_period(every, percent):
    got = drops.drop_period(_alternating(2400, every), 100.0)
    assert got is not None
    assert round(100.0 / got[0], 2) == percent


def test_scattered_dips_are_no_drift():
    """As many dips as a 4 % train, at random frames: on no lattice."""
    c = _alternating(2400, None)
    rng = np.random.default_rng(7)
    c[rng.choice(np.arange(2, 2398), 96, replace=False)] = 20
    assert drops.drop_period(c, 100.0) is None


def test_a_train_too_slow_to_report_is_no_drift():
    """One dropped frame in 150: 0.67 %, under sync_drift_pct (1 %)."""
    assert drops.drop_period(_alternating(6000, 150.0), 100.0) is None
