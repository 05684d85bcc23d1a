"""A finer band that answers one button only is no confident offset (issue 13, session 27;
`finer_band.suggested`, `ONE_KIND_BOUND`).

Frostbite's third genuine run (60 fps, truth 1.667 s): no reading suggests an offset but the
16x16 band, whose row 3 answers the 7 DOWN presses 0.49 s after each first shows (the
jumper's landing, not its jump) and none of the 12 UP, LEFT and RIGHT presses: 2.158 s was
offered at confidence 0.685, 29 frames late. With the log's kinds, a band whose reactions all
follow one kind while 6 or more presses of other kinds go unanswered keeps its offset under
the one-click bar, with a note saying why. Frogger's pavement (the band session 26 added the
stage for) answers UP, DOWN, LEFT and RIGHT: still offered.
"""

from __future__ import annotations

import corpus
import pytest
from test_sync_capture_rates import _run

from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.finer_band import ONE_KIND_BOUND
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _auto(run):
    """`--offset auto` as the workstation reads the log (times and kinds)."""
    times, named = inputs(load_submission([run.log, run.video]))
    return analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, None,
                   run_duration_s=run.run_end_s, input_kinds=named)


def _frames_off(run, a) -> float:
    return abs(a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"]


def test_a_band_answering_one_button_late_is_not_offered_in_one_click():
    run = corpus.build("frostbite-genuine3")
    a = _auto(run)
    # on main: 2.1575 s at confidence 0.685 (truth 1.667 s: 29 frames late)
    if a.suggested_offset_s is not None and _frames_off(run, a) > 1.0:  # duration-ok: frames off (video clock)
        assert a.confidence == ONE_KIND_BOUND < APPLY_MIN_CONFIDENCE
        assert "(press button=DOWN)" in a.confidence_note
    assert a.suggested_offset_s is None or a.confidence < APPLY_MIN_CONFIDENCE or \
        _frames_off(run, a) <= 1.0  # duration-ok: frames off (video clock)


def test_the_frogs_band_answering_every_button_is_still_offered(monkeypatch):
    run = _run(monkeypatch, "frogger", "genuine2", 25)
    a = _auto(run)
    assert a.suggested_offset_s is not None and _frames_off(run, a) <= 1.0  # duration-ok: frames off (video clock)
    assert a.confidence >= APPLY_MIN_CONFIDENCE
    assert a.confidence_note == ""
