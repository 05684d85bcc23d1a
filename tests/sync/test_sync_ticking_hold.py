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
import subprocess

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.sync.ticking import ticking_waits, ticks_throughout
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 30.0


def _signals(dead: tuple[float, float] | None = None, resume: int = 12,
             moved: tuple[float, float] | None = None, fine: bool = False) -> FrameSignals:
    """20 s at 30 fps: the picture moves (40 points a frame, tile 0) to 5 s, holds to 12 s
    with an 8-point tick every 10 frames in tile 9 (none inside `dead`; in tile 50 inside
    `moved`: a dot drawn elsewhere while the beacon stops), resumes with `resume` points at
    12 s and moves again. `fine`: the tiles kept as the scan's finer ones, a band's `whole`
    beside them (as `from_scan` and `band_signals` give)."""
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
    tiles = np.zeros((len(t), 64), np.uint16)
    tiles[:, 0] = c
    tiles[tick, 0] = 0
    tiles[tick, 9] = 8
    if moved is not None:
        away = tick & (t >= moved[0]) & (t < moved[1])
        tiles[away, 9] = 0
        tiles[away, 50] = 8
    if fine:
        return FrameSignals(t, np.zeros((len(t), 64), np.uint16), FPS, whole=c, fine=tiles)
    return FrameSignals(t, tiles, FPS)


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
    # review R5: the beat goes on, but elsewhere while the beacon stops (a drawn dot)
    (_signals(moved=(7.0, 9.0)), ["NOOP", "NOOP", "FIRE"]),
    (_signals(moved=(7.0, 9.0), fine=True), ["NOOP", "NOOP", "FIRE"]),
    (_signals(resume=130), ["NOOP", "NOOP", "FIRE"]),       # resumed with 3.25x the usual
    (_signals(), ["UP", "NOOP", "FIRE"]),                   # a button under it before FIRE
    (_signals(), ["NOOP", "NOOP", "NOOP"]),                 # no button ends it
    (_signals(), ["FIRE"]),                                 # nothing pressed under it: a pause
])
def test_no_wait_when_a_condition_fails(sig, kinds):
    assert _waits(sig, kinds) == ()


def test_the_beat_is_read_in_the_scans_finer_tiles_when_kept():
    # a band's tiles (here empty) are not the whole picture: the finer tiles tell the place
    got = _waits(_signals(fine=True), ["NOOP", "NOOP", "FIRE"])
    assert [(w.start_s, w.end_s, w.kind) for w in got] == [(5.0, 12.0, "FIRE")]


def test_ticks_throughout_counts_from_the_first_held_frame_to_the_first_changed():
    sig = _signals()
    p, q = int(5 * FPS), int(12 * FPS) - 1
    assert ticks_throughout(sig, p, q)
    # the first beat 1.2 s after the hold began (frames 5.0-6.2 s dead)
    assert not ticks_throughout(_signals(dead=(5.0, 6.2)), p, q)
    # a beat that moves place inside the hold (review R5): every place has a 2 s gap
    assert not ticks_throughout(_signals(moved=(7.0, 9.0)), p, q)


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
    share_scans(monkeypatch)
    # before: [("warning", 29.977, 38.909)] at both
    assert _no_reaction(capsys, "synth_glider-genuine@r44j2kmov", offset) == []


@needs_ffmpeg
@pytest.mark.parametrize("offset", ["auto", "2.15"])
def test_a_freeze_inside_the_docked_wait_keeps_its_warning(capsys, tmp_path, monkeypatch,
                                                           offset):
    share_scans(monkeypatch)
    assert _no_reaction(capsys, "synth_glider-freezeend@r44j2kmov", offset) == [
        ("warning", 29.977, 38.909)]


@needs_ffmpeg
def test_a_dot_drawn_blinking_inside_the_freeze_keeps_its_warning(capsys, tmp_path,
                                                                   monkeypatch):
    """Review R5: -freezeend@r44 with a 4x4 white dot blinking at 4 Hz (11 frames on, 11
    off at 44 fps) at (20, 20) during the edited freeze only (frames 1371-1546, 31.15-35.15
    s): the hold's small changes never stop for 1 s, but the beacon's place stops and the
    dot's starts. At ac0e1de: no `sync.no_reaction` (the dot taken for the game's beat)."""
    share_scans(monkeypatch)
    src = qa_run(37, "synth_glider-freezeend@r44j2kmov")
    out = tmp_path / "mark"
    out.mkdir()
    for name in ("agent-log.jsonl", "truth.json"):
        shutil.copy(src / name, out / name)
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-threads", "1", "-i", str(src / "video.mov"), "-vf",
         "drawbox=x=20:y=20:w=4:h=4:color=white:t=fill:"
         "enable='between(n,1371,1546)*lt(mod(n,22),11)'",
         "-c:v", "ffv1", "-threads", "1", "-pix_fmt", "yuv420p", str(out / "video.mkv")],
        check=True, capture_output=True)
    cli_main(["verify", str(out), "--scan", "--sync", "--offset", "2.15", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert [(f["severity"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"] == "sync.no_reaction"] == [("warning", 29.977, 38.909)]
