"""A ticking hold whose beat runs on past both its edges is the game's wait, whatever it held
before the button that ends it and however that button's answer compares with the beat
(issue 13, QA s38 T2; core/sync/ticking.py `beats_through`).

QA s38's synth_lantern stands still from 27 s to its end but for a 1-px beacon (2x2 at the
recorder) blinking every 15 frames: 2 of the sync's sample points every 0.25 s in one 16x16
tile, before, through and after each wait. Its genuine wait 31.11-37.09 s (46 fps) held a
NOOP and a LEFT the way the lantern already faced (shown as nothing), and the DOWN after them
steps the HUD's gear bar: 24 points against the beacon's 2 (12x). Session 38's ticking rule
asked for NOOPs only before the button and a resume under 3x the usual change (the beacon's
own), so `sync.no_reaction` stood at every offset on all three genuine runs. An edit's
frozen picture stops the beacon (-freezeend: 4.26 s without a beat) and keeps its warning.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.sync.ticking import beats_through, ends_in_one_place, ticking_waits
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 30.0


def _signals(dead: tuple[float, float] | None = None, place: tuple[float, float] | None = None,
             quiet: tuple[float, float] | None = None, also: tuple[int, ...] = ()
             ) -> FrameSignals:
    """20 s at 30 fps: the picture moves (40 points a frame, tile 0) to 3 s, then stands
    still but for a 2-point beacon every 10 frames in tile 9 (none inside `dead` or
    `quiet`; in tile 50 instead inside `place`); an answer of 20 points at 5 s and of 24 at
    12 s (tile 0, and 6 points in each of the tiles `also` with it): the hold 5.03-12.0 s
    between them. Tiles are an 8x8 grid, row by row."""
    t = np.arange(int(20 * FPS)) / FPS
    n = len(t)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:int(3 * FPS), 0] = 40
    beat = (t >= 3.0) & (np.arange(n) % 10 == 5)
    for span in (dead, quiet):
        if span is not None:
            beat &= ~((t >= span[0]) & (t < span[1]))
    tiles[beat, 9] = 2
    if place is not None:
        away = beat & (t >= place[0]) & (t < place[1])
        tiles[away, 9] = 0
        tiles[away, 50] = 2
    tiles[int(5 * FPS), 0] = 20
    tiles[int(12 * FPS), 0] = 24
    for j in also:
        tiles[int(12 * FPS), j] = 6
    return FrameSignals(t, tiles, FPS)


def _waits(sig: FrameSignals, kinds: list[str], offset: float | None = 0.0):
    run_s = np.array([6.0, 9.0, 11.9][-len(kinds):])
    a = SyncAnalysis(None, 0.0, 0, len(kinds), 1.0, "", offset)
    return ticking_waits(a, run_s, sig, DEFAULT_THRESHOLDS, kinds, 12.0)


HOLD = (int(5 * FPS) + 1, int(12 * FPS) - 1)


def test_a_hold_the_beacon_beats_through_is_a_wait_past_an_ignored_button():
    sig = _signals()
    assert beats_through(sig, *HOLD)
    got = _waits(sig, ["NOOP", "LEFT", "FIRE"])
    assert [(w.start_s, w.end_s, w.press_s, w.kind) for w in got] == [
        (5.033, 12.0, 11.9, "FIRE")]
    assert [(w.start_s, w.end_s, w.kind) for w in _waits(sig, ["NOOP", "LEFT", "FIRE"], None)
            ] == [(5.033, 12.0, "FIRE")]


@pytest.mark.parametrize("sig", [
    _signals(dead=(7.0, 8.2)),        # 1.2 s without a beat inside: a frozen picture
    _signals(place=(7.0, 9.0)),       # the beat moves elsewhere inside (review R5's dot)
    _signals(quiet=(12.0, 20.0)),     # none after it
    _signals(quiet=(3.0, 6.1)),       # lit 1.07 s into the hold: a gap at its start
])
def test_no_wait_unless_one_place_beats_through_the_hold_and_past_its_end(sig):
    assert not beats_through(sig, *HOLD)
    assert _waits(sig, ["NOOP", "LEFT", "FIRE"]) == ()


def test_a_beacon_lit_as_the_hold_begins_is_the_games_wait():
    """QA s40 T3 (synth_prism-genuine@r53rv20rm): the game lights its 75 % beacon as its
    still stage begins, 0.076 s after the hold's first held frame, and nothing beat in its
    tile before; `sync.no_reaction` 30.92-36.19 stood at every offset. Here the beacon's
    first beat is 0.13 s into the hold (5.167 s), none in the 2 s before it."""
    sig = _signals(quiet=(3.0, 5.0))
    assert beats_through(sig, *HOLD)
    assert [(w.start_s, w.end_s, w.press_s, w.kind) for w in
            _waits(sig, ["NOOP", "LEFT", "FIRE"])] == [(5.033, 12.0, 11.9, "FIRE")]
    assert [(w.start_s, w.end_s, w.kind) for w in _waits(sig, ["NOOP", "LEFT", "FIRE"], None)
            ] == [(5.033, 12.0, "FIRE")]


@pytest.mark.parametrize("also, waits", [
    ((1, 9), 1),     # the answer spreads to the tiles beside it (9 beats too): one place
    ((63,), 0),      # and a far tile changes with it: an edit's catch-up (review s39 R4)
    ((2,), 0),       # a tile apart is another place
])
def test_a_hold_beaten_through_ends_in_one_answer_not_an_edits_catch_up(also, waits):
    """Review s39 R4: genuine@r46 frozen 30.5-37.065 s by an edit that keeps the beacon's
    2x2 alive ends with the gear bar and the hidden LEFT's flame in the same frame; fa05593
    took it as the game's wait and cleared `sync.no_reaction`."""
    sig = _signals(also=also)
    assert beats_through(sig, *HOLD)
    assert ends_in_one_place(sig, *HOLD) is bool(waits)
    assert len(_waits(sig, ["NOOP", "LEFT", "FIRE"])) == waits
    assert len(_waits(sig, ["NOOP", "LEFT", "FIRE"], None)) == waits


def test_a_hold_beaten_through_still_needs_a_button_at_its_end_and_a_press_before():
    sig = _signals()
    assert _waits(sig, ["NOOP", "LEFT", "NOOP"]) == ()    # no button ends it
    assert _waits(sig, ["FIRE"]) == ()                    # nothing pressed under it: a pause


needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _no_reaction(capsys, name: str, offset: str):
    cli_main(["verify", str(qa_run(38, name)), "--scan", "--sync", "--offset", offset,
              "--json"])
    rep = json.loads(capsys.readouterr().out)
    return [(f["severity"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"] == "sync.no_reaction"]


@needs_ffmpeg
@pytest.mark.parametrize("name, offset", [
    ("synth_lantern-genuine@r46rpzaqt", "2.3"),     # before: 31.109-37.087
    ("synth_lantern-genuine2@r46rpzaqt", "auto"),   # before: 32.674-39.239
])
def test_the_lanterns_beacon_wait_is_no_warning(capsys, tmp_path, monkeypatch, name, offset):
    share_scans(monkeypatch)
    assert _no_reaction(capsys, name, offset) == []


@needs_ffmpeg
def test_a_freeze_inside_the_lanterns_wait_keeps_its_warning(capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    assert _no_reaction(capsys, "synth_lantern-freezeend@r46rpzaqt", "2.3") == [
        ("warning", 31.109, 37.087)]
