"""The player's band and the video's speed searched together (issue 13, session 29:
`band.select_over_speeds`, from `analysis._in_band`'s `search` on the finer bands' drift pass).

A sped-up or slowed run's actions slide off a band chosen at speed 1, so the finer bands'
drift pass chooses the band at the speed the whole picture's fit proposes
(`analysis._drift_speed`). On a game whose whole picture is its own motion that fit proposes
a chance speed: Kangaroo +3.7 % through a 48 fps Matroska recorder, its whole picture -2 %;
Frostbite -2.5 % at 30 fps, +5.75 %. No band stands there, and both read "not enough signal"
and no drift. Searched with the speed (each shuffled log searched alike), the player's band
stands 5.3 and 6.5 spreads over the shuffled logs' best, and its reading finds the drift.
Speeds off the whole percents (kinds `speed37`, `slow25`), as QA holds out.
"""

from __future__ import annotations

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


def _auto(run: corpus.Run):
    sig = frame_signals(run.video)
    return sig, analyze(run.action_times, sig, DEFAULT_THRESHOLDS, None,
                        run_duration_s=run.run_end_s)


@pytest.mark.parametrize(("name", "percent"), [
    ("kangaroo-speed37@r48mkv", 3.69), ("frostbite-slow25@r30", -2.55)])
def test_a_drift_off_the_whole_percents_is_read_on_the_band_searched_with_the_speed(
        name, percent):
    """On main: no suggestion and no finding ("the video's reactions do not single out one
    offset")."""
    run = corpus.build(name)
    sig, a = _auto(run)
    drifts = [f for f in a.findings if f.rule == "sync.drift"]
    assert [f.percent for f in drifts] == [percent]
    assert abs(percent - run.truth["tamper"]["percent"]) <= 1.0
    assert (drifts[0].video_start_s, drifts[0].video_end_s) == \
        (float(sig.times[0]), float(sig.times[-1]))
    # the offset carried back along the band's line, within a frame of the truth
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"] <= 0.5  # duration-ok: frames


@pytest.mark.parametrize("name", ["kangaroo-genuine@r48mkv", "frostbite-genuine@r30"])
def test_genuine_runs_of_those_games_at_those_recorders_read_no_drift(name):
    """Guards: the same games through the same recorders, not sped up: their speed-1 band
    suggests the offset and nothing is said."""
    run = corpus.build(name)
    _sig, a = _auto(run)
    assert a.findings == []
    assert a.speed == 1.0
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"] <= 1.0  # duration-ok: frames
