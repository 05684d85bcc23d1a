"""A sprite's answer on a screen whose own sweeps and blinks start in every tile (issue 13,
session 25; core/sync/narrow.py, `analysis._analyze`).

Beam Rider's beams light whole rows of the grid every few frames and its ship blinks 11
sample points of its tile on a beat: the onsets start everywhere all the time, the ship's
one-tile answer to a press is lost among them and main says "not enough signal" on every
Beam Rider run (29 of the session-25 sweep, `scripts/autosync_sweep.py`), though 21 of this
run's 24 presses show within a frame. With the blinks (under 16 points of a tile's 512) and
the sweeps (6 or more of a row's or column's 8 tiles in one frame) dropped, the ship's
answers single out the offset and stand the shuffled logs' test. A run whose picture answers
few presses stays "not enough signal".
"""

from __future__ import annotations

import corpus
import pytest
from test_sync_capture_rates import _run

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
    return analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, None,
                   run_duration_s=run.run_end_s)


def test_a_ship_among_sweeping_beams_gets_its_offset_with_no_offset_given(monkeypatch):
    """s22-beam_rider-genuine@r30mp4 (truth 3.3 s, 30 fps). On main: no suggestion."""
    run = _run(monkeypatch, "beam_rider", "genuine", 30)
    a = _auto(run)
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * 30 <= 1.0  # duration-ok: frames
    assert a.confidence >= APPLY_MIN_CONFIDENCE  # offered in one click, used at auto
    assert a.speed == 1.0
    assert a.findings == []  # a genuine run: no warning


def test_a_run_whose_picture_answers_few_presses_stays_not_enough_signal():
    """ms_pacman-genuine: the ghosts move on their own and 8 of its 26 presses show; the
    sprites' changes alone single out no offset either."""
    a = _auto(corpus.build("ms_pacman-genuine"))
    assert a.suggested_offset_s is None
    assert a.reason
    assert a.findings == []

