"""A held picture whose beacon beats between the sync's sample points is read again at full
resolution where `sync.no_reaction` would stand (issue 13, QA s39 T2;
core/sync/finer_beat.py).

QA s39's synth_strobe stands still from 25 s to its end but for a 1-px beacon (2x2 at the
recorder, rows 80-81 of 420) lit 20 frames in 40: the scan's sample rows are 79 and 83, so
the sync's picture holds nothing at all through the genuine wait 26.54-31.63 s (an ignored
FIRE, a NOOP, then the DOWN whose cursor ends it), and `sync.no_reaction` stood at every
offset. At full resolution the beacon changes 4 pixels every 0.32-0.34 s.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.finer_beat import MAX_LOOKS, finer_waits
from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 30.0
BEACON = [80, 300, 82, 302]
HOLD = (5.0 + 1 / FPS, 12.0)   # first held frame, first changed frame


def _signals() -> FrameSignals:
    """20 s at 30 fps: the picture moves (40 points a frame) to 3 s, then is dead still at
    the sample points but for an answer of 20 points at 5 s and of 24 at 12 s: the hold
    5.03-12.0 s between them."""
    t = np.arange(int(20 * FPS)) / FPS
    tiles = np.zeros((len(t), 64), np.uint16)
    tiles[1:int(3 * FPS), 0] = 40
    tiles[int(5 * FPS), 0] = 20
    tiles[int(12 * FPS), 0] = 24
    return FrameSignals(t, tiles, FPS)


def _rows(a: float, b: float, on: float = 1 / 3, off: float = 1 / 3,
          stop: tuple[float, float] | None = None, end: tuple[int, int, list] | None = None
          ) -> dict:
    """The full-resolution rows of frames a..b: a 2x2 beacon (4 pixels) toggling on for
    `on` s and off for `off` s from 3 s (none inside `stop`: an edit's frozen picture);
    at 12 s, `end` = (points, area, box) of the answer (a packed 6x6 cursor by default)."""
    times = [k / FPS for k in range(int(np.ceil(a * FPS)), int(b * FPS) + 1)]
    rows: dict = {k: [] for k in ("times", "key", "points", "area", "box")}
    period = on + off

    def lit(v: float) -> bool:
        return v >= 3.0 and (v - 3.0) % period < on and not (
            stop is not None and stop[0] <= v < stop[1])

    for i, v in enumerate(times):
        n, area, box = 0, 0, [0, 0, 0, 0]
        if i and lit(v) != lit(times[i - 1]) and not (stop and stop[0] <= v < stop[1]):
            n, area, box = 4, 4, BEACON
        if abs(v - 12.0) < 1e-6:
            n, area, box = end if end is not None else (36, 36, [260, 16, 266, 22])
        rows["times"].append(v)
        rows["key"].append(0)
        rows["points"].append(n)
        rows["area"].append(area)
        rows["box"].append(box)
    return rows


def _waits(look, kinds=("NOOP", "LEFT", "FIRE"), offset: float | None = 0.0, holds=1):
    run_s = np.array([6.0, 9.0, 11.95])
    a = SyncAnalysis(None, 0.0, 0, 3, 1.0, "", offset)
    warned = [SyncFinding("sync.no_reaction", "", 6.0, 9.0)] * holds
    return finer_waits(a, run_s, _signals(), DEFAULT_THRESHOLDS, list(kinds), 12.0, look,
                       warned)


def _look(**kw):
    asked = []

    def look(spans):
        asked.extend(spans)
        return [_rows(a, b, **kw) for a, b in spans]

    return look, asked


@pytest.mark.parametrize("on, off", [
    (1 / 3, 1 / 3),    # QA s39's strobe: lit 20 frames in 40 (a square wave)
    (0.3, 0.9),        # a short flash in a longer off
    (0.9, 0.3),        # lit most of the time
    (0.1, 0.1),        # a fast blink
])
def test_a_beacon_beating_between_the_sample_points_makes_the_hold_a_wait(on, off):
    look, asked = _look(on=on, off=off)
    got = _waits(look)
    assert [(w.start_s, w.end_s, w.press_s, w.kind) for w in got] == [
        (5.033, 12.0, 11.95, "FIRE")]
    assert asked == [pytest.approx((HOLD[0] - 1.0, 12.0 + 1.0 + 1 / FPS))]
    assert [(w.start_s, w.end_s) for w in _waits(look, offset=None)] == [(5.033, 12.0)]


@pytest.mark.parametrize("kw", [
    {"on": 0.2, "off": 1.2},                   # off longer than TICK_GAP_S: no beat
    {"stop": (7.0, 8.2)},                      # stopped 1.2 s inside: a frozen picture
    {"stop": (3.0, 6.2)},                      # none in the hold's first 1.17 s
    {"stop": (12.0, 20.0)},                    # none after its end
    {"end": (40, 40_000, [20, 20, 220, 220])},  # answers far apart at once (review s39 R4)
])
def test_no_wait_unless_the_beacon_beats_through_and_the_end_is_one_answer(kw):
    look, _ = _look(**kw)
    assert _waits(look) == ()


def test_a_beacon_lit_as_the_hold_begins_makes_it_a_wait():
    """QA s40 T3: a game may light its beacon as it begins to wait (synth_prism's 75 %
    beacon, 0.076 s after the hold's first held frame, none before it): no beat before
    the hold is asked for. Here the first toggle is 0.1 s into the hold."""
    look, _ = _look(stop=(3.0, 5.1))
    assert [(w.start_s, w.end_s, w.press_s, w.kind) for w in _waits(look)] == [
        (5.033, 12.0, 11.95, "FIRE")]


def test_nothing_is_looked_at_or_taken_without_a_warning_a_look_or_a_button():
    look, asked = _look()
    run_s = np.array([6.0, 9.0, 11.95])
    a = SyncAnalysis(None, 0.0, 0, 3, 1.0, "", 0.0)
    kinds = ["NOOP", "LEFT", "FIRE"]
    sig = _signals()
    th = DEFAULT_THRESHOLDS
    assert finer_waits(a, run_s, sig, th, kinds, 12.0, look, []) == ()
    assert finer_waits(a, run_s, sig, th, kinds, 12.0, None,
                       [SyncFinding("sync.no_reaction", "", 6.0, 9.0)]) == ()
    assert finer_waits(a, run_s, sig, th, kinds, 12.0, look,
                       [SyncFinding("sync.drift", "", 6.0, 9.0)]) == ()
    assert asked == []
    assert _waits(look, kinds=("NOOP", "LEFT", "NOOP")) == ()    # no button ends it
    assert _waits(lambda spans: [None] * len(spans)) == ()       # not read: kept


def test_a_hold_several_warnings_overlap_is_looked_at_once():
    look, asked = _look()
    assert len(_waits(look, holds=MAX_LOOKS)) == 1   # one hold, however many findings
    assert len(asked) == 1


needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _no_reaction(capsys, name: str, offset: str):
    cli_main(["verify", str(qa_run(39, name)), "--scan", "--sync", "--offset", offset,
              "--json"])
    rep = json.loads(capsys.readouterr().out)
    return [(f["severity"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"] == "sync.no_reaction"]


@needs_ffmpeg
@pytest.mark.parametrize("offset", ["1.6", "auto"])
def test_the_strobes_beacon_wait_is_no_warning(capsys, tmp_path, monkeypatch, offset):
    """QA s39 T2's repro: at c2a020c `sync.no_reaction` 26.537-29.668 at 1.6."""
    share_scans(monkeypatch)
    assert _no_reaction(capsys, "synth_strobe-genuine@r41wmv1asf", offset) == []


@needs_ffmpeg
def test_a_freeze_inside_the_strobes_still_keeps_its_warning(capsys, tmp_path, monkeypatch):
    """The corpus' 4 s freeze at run 30.0 s stops the beacon: the warning stands."""
    share_scans(monkeypatch)
    assert _no_reaction(capsys, "synth_strobe-freezeend@r41wmv1asf", "1.6") == [
        ("warning", 26.537, 35.609)]
