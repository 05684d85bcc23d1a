"""Footage inserted is found from a clock the game draws, without a fitted offset (issue 13,
session 17, core/sync/clock.py; QA s15 H3: Private Eye's insertions went unreported).

A clock that counts seconds changes its tile once every 60 console frames on a fixed
schedule; footage from another moment carries the schedule at another phase.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.clock import clock_shifts
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 30.0
PRESSES = np.arange(0.5, 36.0, 1.3)  # run times, in no step with the picture


def _run(ticks: list[float], seconds: float = 42.0,
         seed: int = 7) -> FrameSignals:
    """42 s at 30 fps: a scene that moves everywhere on its own (tiles 0-47, random), and a
    clock's tile (60) that changes at the video times `ticks`."""
    rng = np.random.default_rng(seed)
    n = int(seconds * FPS)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, :48] = rng.integers(0, 12, (n - 1, 48))
    for t in ticks:
        k = int(round(t * FPS))
        if 0 < k < n:
            tiles[k, 60] = 9
    return FrameSignals(np.arange(n) / FPS, tiles, FPS)


def _clock(start: float, end: float, phase: float) -> list[float]:
    return [s + phase for s in range(int(start), int(end) + 1) if start <= s + phase < end]


def _jumps(a):
    return [f for f in a.findings if f.rule == "sync.offset_jump"]


def test_inserted_footage_shifts_the_games_clock_at_both_ends():
    """4 s from another moment inserted at 14.8 s: the clock ticks at .97 of each second
    before and after, at .30 inside (Private Eye at 30 fps: .97 / .70). Two offset jumps,
    each spanning its end of the insertion. Fails on main: no finding (no offset)."""
    ticks = _clock(0, 14.8, 0.97) + _clock(14.8, 18.8, 0.30) + _clock(18.8, 42, 0.97)
    a = analyze(PRESSES, _run(ticks), DEFAULT_THRESHOLDS, run_duration_s=40.0)
    assert a.suggested_offset_s is None
    got = [(f.video_start_s, f.video_end_s) for f in _jumps(a)]
    assert got == [(pytest.approx(13.967, abs=0.01), pytest.approx(15.3, abs=0.01)),
                   (pytest.approx(18.3, abs=0.01), pytest.approx(18.967, abs=0.01))]
    assert "changes its schedule" in _jumps(a)[0].message


def test_a_clock_on_one_schedule_is_no_jump():
    ticks = _clock(0, 42, 0.97)
    ticks = [t for t in ticks if int(t) % 7 != 3]  # a digit that sometimes does not change
    assert clock_shifts(_run(ticks + [15.2, 21.66]), 60.0) == []  # and stray changes


def test_a_schedule_that_is_no_seconds_clock_is_no_jump():
    """A tile that changes every 1.067 s and re-phases once (genuine Frostbite): a game's
    own pace, not a clock counting the console's seconds."""
    ticks = [0.5 + 1.067 * k for k in range(20)] + [26.0 + 1.067 * k for k in range(14)]
    assert clock_shifts(_run(ticks), 60.0) == []


def test_two_ticks_at_another_phase_are_no_jump():
    """A schedule must hold three ticks on each side (genuine Private Eye at 50 fps: two
    changes of the clock's tile one second apart at another phase)."""
    ticks = _clock(0, 42, 0.97)
    ticks = [t for t in ticks if not 33 < t < 36] + [34.4, 35.4]
    assert clock_shifts(_run(ticks), 60.0) == []


def _bursts(starts: list[float], phases: list[float], n: int = 5) -> list[float]:
    """A tile that blinks once a second `n` times from each start (at its own phase), and is
    still between the bursts."""
    return [s + ph + k for s, ph in zip(starts, phases, strict=True) for k in range(n)]


def test_a_clock_that_stops_and_restarts_at_another_phase_is_no_jump():
    """QA s31's genuine Surround (15 fps): a tile blinks once a second five times after each
    point, then holds still 3.8-5 s, and every restart stands 0.2-0.47 s off the last blink's
    schedule. Failed before session 32: four `sync.offset_jump` (4.73-8.53 s and on)."""
    ticks = _bursts([0.0, 8.0, 16.0, 24.0, 32.0], [0.73, 0.53, 0.80, 0.27, 0.27])
    assert clock_shifts(_run(ticks), 60.0) == []
    a = analyze(PRESSES, _run(ticks), DEFAULT_THRESHOLDS, run_duration_s=40.0)
    assert _jumps(a) == []


def test_a_shift_after_a_short_pause_of_the_clock_is_still_a_jump():
    """The clock still within a chain's reach (three periods) across the splice: its schedule
    at .97 before 20 s and at .30 from 22.3 s, one tick missed at the cut, is one jump."""
    ticks = _clock(0, 20, 0.97) + _clock(22, 42, 0.30)
    assert [tuple(round(x, 2) for x in s) for s in clock_shifts(_run(ticks), 60.0)] == [
        (19.97, 22.3, 0.33)]
    stopped = _clock(0, 20, 0.97) + _clock(23.5, 42, 0.30)  # 3.33 s still: stopped
    assert clock_shifts(_run(stopped), 60.0) == []


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")
def test_qa31_surround_genuine_blinks_are_no_offset_jump(capsys, tmp_path, monkeypatch):
    """QA s31 T1 at the truth (4.600 s): the genuine Surround at 15 fps (VP9 + Opus) read four
    `sync.offset_jump` (4.73-8.53, 12.53-16.80, 19.80-24.27, 36.27-40.07 s) from its
    blinking tile before session 32; none now, and no other sync warning."""
    share_scans(monkeypatch)
    folder = qa_run(31, "surround-genuine@r15vp9opus")
    assert json.loads((folder / "truth.json").read_text())["offset_s"] == 4.6
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "4.600", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert [f["rule"] for f in rep["findings"]
            if f["rule"].startswith("sync.") and f["severity"] == "warning"] == []
    assert rep["verdict"] == "pass"
