"""A held picture whose small marks beat throughout, ended by the first button after NOOPs, is
the game's wait (issue 13, QA s37 T2; core/sync/ticking.py `ticking_waits`).

QA s37's synth_glider-genuine@r44j2kmov, docked from ~26 s: a 2x2 beacon blinks every 0.33 s
(8 points) through the still stretch 29.98-38.91 s under three NOOPs; the FIRE after them
lights a lamp at 38.91 s (1.75x the usual change). Before: `sync.no_reaction` "the picture does
not change for 8.9 s while the log holds 4 actions" at every offset. The same hold with 4 s
frozen inside it by an edit (-freezeend) stops beating for 4.3 s and keeps its warning.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.sync.ticking import ticking_waits, ticks_throughout
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 30.0


def _signals(dead: tuple[float, float] | None = None, resume: int = 12) -> FrameSignals:
    """20 s at 30 fps: the picture moves (40 points a frame) to 5 s, holds to 12 s with an
    8-point tick every 10 frames (none inside `dead`), resumes with `resume` points at 12 s
    and moves again."""
    t = np.arange(int(20 * FPS)) / FPS
    c = np.full(len(t), 40, np.int64)
    c[0] = 0
    held = (t >= 5.0) & (t < 12.0)
    c[held] = 0
    tick = held & (np.arange(len(t)) % 10 == 5)
    if dead is not None:
        tick &= ~((t >= dead[0]) & (t < dead[1]))
    c[tick] = 8
    c[int(round(12.0 * FPS))] = resume
    return FrameSignals(t, np.zeros((len(t), 64), np.uint16), FPS, whole=c)


def _waits(sig: FrameSignals, kinds: list[str], offset: float | None = 0.0):
    run_s = np.array([6.0, 9.0, 11.9][-len(kinds):])
    a = SyncAnalysis(None, 0.0, 0, len(kinds), 1.0, "", offset)
    return ticking_waits(a, run_s, sig, DEFAULT_THRESHOLDS, kinds, 12.0)


def test_a_ticking_hold_ended_by_the_first_button_after_noops_is_a_wait():
    got = _waits(_signals(), ["NOOP", "NOOP", "FIRE"])
    assert [(w.start_s, w.end_s, w.press_s, w.kind) for w in got] == [(5.0, 12.0, 11.9, "FIRE")]
    # with no offset used: at some offset at which the video covers the run
    assert [(w.start_s, w.end_s, w.kind) for w in _waits(_signals(), ["NOOP", "NOOP", "FIRE"],
                                                         None)] == [(5.0, 12.0, "FIRE")]


@pytest.mark.parametrize("sig, kinds", [
    (_signals(dead=(7.0, 8.2)), ["NOOP", "NOOP", "FIRE"]),  # 1.2 s without a beat: frozen
    (_signals(resume=130), ["NOOP", "NOOP", "FIRE"]),       # resumed with 3.25x the usual
    (_signals(), ["UP", "NOOP", "FIRE"]),                   # a button under it before FIRE
    (_signals(), ["NOOP", "NOOP", "NOOP"]),                 # no button ends it
    (_signals(), ["FIRE"]),                                 # nothing pressed under it: a pause
])
def test_no_wait_when_a_condition_fails(sig, kinds):
    assert _waits(sig, kinds) == ()


def test_ticks_throughout_counts_from_the_first_held_frame_to_the_first_changed():
    sig = _signals()
    p, q = int(5 * FPS), int(12 * FPS) - 1
    assert ticks_throughout(sig, p, q)
    # the first beat 1.2 s after the hold began (frames 5.0-6.2 s dead)
    assert not ticks_throughout(_signals(dead=(5.0, 6.2)), p, q)


needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _no_reaction(capsys, name: str, offset: str):
    cli_main(["verify", str(qa_run(37, name)), "--scan", "--sync", "--offset", offset,
              "--json"])
    rep = json.loads(capsys.readouterr().out)
    return [(f["severity"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"] == "sync.no_reaction"]


@needs_ffmpeg
@pytest.mark.parametrize("offset", ["auto", "2.15"])
def test_the_gliders_docked_wait_is_no_warning(capsys, tmp_path, monkeypatch, offset):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    # before: [("warning", 29.977, 38.909)] at both
    assert _no_reaction(capsys, "synth_glider-genuine@r44j2kmov", offset) == []


@needs_ffmpeg
@pytest.mark.parametrize("offset", ["auto", "2.15"])
def test_a_freeze_inside_the_docked_wait_keeps_its_warning(capsys, tmp_path, monkeypatch,
                                                           offset):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    assert _no_reaction(capsys, "synth_glider-freezeend@r44j2kmov", offset) == [
        ("warning", 29.977, 38.909)]
