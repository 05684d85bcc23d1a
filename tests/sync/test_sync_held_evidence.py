"""Presses under a game's held picture are no evidence of another attempt, and a short still
stretch the game's own event began is its pause (issue 13, session 32; QA s31 T1).

- venture-genuine@r15vp9opus: 6 of the run's last 12 presses lie in two 4.3 s holds of the
  game's (no press ends them: the scan's `video.frozen`, named by QA); counted as misses at a
  chance of 0.02 they made "12 actions in a row answered no more often than by chance" at
  every offset; the other 6 answer above chance (`stretch.held_actions`,
  `local_findings.with_unexplained`).
- tutankham-genuine@r24mpeg1ts: the flash bomb recolours the maze (the video's two largest
  changes) and holds it 2.17 s under two ignored presses: "2 actions in a row with no visible
  reaction" at every offset (`reactions.entered_by_event`, `reactions.frozen(held_s=)`).
- the wide set's donkey_kong-genuine@letterbox: the opening's press names two buttons new to
  it; a later hold ends at the one its own presses did not rule out (`freeze.same_press`).
Unit tests build signals and answers by hand; the QA runs are built by QA's generator in a
process of its own (tests/sync/qa_runs.py).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync import reactions, stretch
from moderator_app.core.sync.freeze import Opening, same_press
from moderator_app.core.sync.signals import FrameSignals

ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _signals(fps: float, n: int, still: tuple[int, int], entry: int) -> FrameSignals:
    """n frames at fps: one tile changes 20 points every other frame, frames still[0] ..
    still[1] (inclusive) hold still, and the frame before them changes `entry` points in
    every tile."""
    tiles = np.zeros((n, 64), np.uint16)
    tiles[2::2, 5] = 20
    a, b = still
    tiles[a:b + 1] = 0
    tiles[a - 1] = 0
    if entry < 64:
        tiles[a - 1, 5] = entry
    else:
        tiles[a - 1, :] = entry // 64
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def test_a_stretch_at_chance_is_the_holds_doing_when_its_other_presses_answer():
    """Venture's last 12 presses as the analysis reads them at 4.6 s: 6 under the game's two
    holds (none answered), 3 of the other 6 answered against 0.6 by chance. At chance whole
    (3 against 1.1, +1.89 spreads, under NOT_AT_CHANCE_Z); above it once the held presses,
    no evidence either way, are set aside (+3.19; `local_findings.with_unexplained`)."""
    held = np.array([1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0], bool)
    s = np.array([0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1], float)
    chance = np.array([0.089, 0.089, 0.044, 0.089, 0.133, 0.133, 0.089, 0.089, 0.089, 0.089,
                       0.089, 0.089])
    z = stretch.NOT_AT_CHANCE_Z
    assert not stretch.above_chance(s, chance, z)
    assert stretch.above_chance(s[~held], chance[~held], z)


def test_held_actions_are_those_whose_answer_window_lies_in_a_long_held_picture():
    sig = _signals(10.0, 100, (30, 69), 64 * 100)  # held from 3.0 s to 6.9 s (4 s)
    v = np.array([1.0, 2.95, 3.1, 3.5, 6.8, 6.85, 8.0])
    assert stretch.held_actions(sig, v, 3.0).tolist() == [
        False, False, True, True, True, False, False]
    assert not stretch.held_actions(sig, v, 5.0).any()  # a hold shorter than asked
    busy = FrameSignals(np.arange(100) / 10.0, np.ones((100, 64), np.uint16), 10.0)
    assert not stretch.held_actions(busy, v, 3.0).any()  # not one still frame


def test_entered_by_event_is_a_change_few_frames_of_the_video_reach():
    change = np.zeros(100)
    change[2::2] = 10.0
    change[49], change[50:70] = 1000.0, 0.0
    assert reactions.entered_by_event(change, 50)       # 1 frame of 100 reaches 1000
    change[20:40] = 0.0
    change[19] = 10.0
    assert not reactions.entered_by_event(change, 20)   # 40 frames reach 10
    change[[3, 5]] = 1000.0
    assert not reactions.entered_by_event(change, 50)   # 3 of 100: more than 1 %
    assert not reactions.entered_by_event(change, 0)


def test_a_short_hold_begun_by_the_games_event_is_its_pause_not_a_freeze():
    """A 2.17 s still stretch (52 frames at 24 fps) under presses, the run's other still
    stretches under a press one frame: frozen when entered by an ordinary change, the
    game's pause when entered by the video's largest change; a hold as long as the scan's
    freeze is frozen whatever began it."""
    fps = 24.0
    acts = [2.0, 5.02, 9.0, 9.5, 10.5, 15.0]
    ordinary = _signals(fps, 480, (200, 251), 20)
    event = _signals(fps, 480, (200, 251), 64 * 300)
    v0, v1 = 200 / fps + 0.2, 251 / fps
    assert reactions.frozen(ordinary, v0, v1, acts, held_s=3.0)
    assert not reactions.frozen(event, v0, v1, acts, held_s=3.0)
    assert reactions.frozen(event, v0, v1, acts)  # (`_misses_frozen`: as before)
    long = _signals(fps, 480, (200, 280), 64 * 300)  # 3.4 s
    assert reactions.frozen(long, v0, 280 / fps, acts, held_s=3.0)


def _said(folder: Path, offset: str, capsys) -> list[tuple]:
    assert cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset,
                     "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    return [(f["rule"], f["severity"], round(f["video_start_s"], 3), round(f["video_end_s"], 3))
            for f in rep["findings"] if f["severity"] == "warning"]


@ffmpeg
def test_venture_genuine_has_no_stretch_at_chance_over_the_games_holds(
        capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(31, "venture-genuine@r15vp9opus")
    # before: also ("sync.no_reaction", "warning", 39.467, 40.916), 12 actions (3 answered,
    # 1.1 by chance); the two holds stay the scan's warnings (no press ends them)
    assert _said(folder, "4.600", capsys) == [
        ("video.frozen", "warning", 23.067, 27.333), ("video.frozen", "warning", 35.2, 39.467)]


@ffmpeg
def test_tutankham_genuine_flash_pause_is_no_missing_reaction(capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(31, "tutankham-genuine@r24mpeg1ts")
    # before: [("sync.no_reaction", "warning", 37.361, 40.186)], 2 actions in a row
    assert _said(folder, "3.050", capsys) == []


def test_a_later_hold_ends_at_the_opening_button_its_own_presses_did_not_rule_out():
    """Donkey Kong (wide set, letterbox at 60 fps): the game started by a DOWNFIRE (DOWN and
    FIRE both new to the opening hold), 0.02 s before its picture changed; after a lost life
    held under a DOWN and a DOWNRIGHT, it resumes 0.013 s after an UPFIRE. The DOWN it
    ignored rules DOWN out: FIRE started it, and ends this hold. Before: both buttons asked
    of the ending press, none found (`video.frozen` and `sync.no_reaction`)."""
    opening = Opening(0.0, 5.25, 2.1442, frozenset({"DOWN", "FIRE"}), 0.02)
    kinds = ["UPRIGHT", "UP", "RIGHT", "DOWN", "DOWNRIGHT", "UP", "RIGHT", "UPFIRE"]
    x = np.array([18.12, 19.52, 21.76, 22.24, 24.08, 26.27, 31.24, 31.68])
    fps = 60.0
    assert same_press(opening, x, kinds, 20.27, 33.833, fps) == 7
    # at another lag (the press 0.1 s earlier than the picture's change): not the same wait
    assert same_press(opening, x, kinds, 20.27, 33.92, fps) is None
    # a hold that ignored FIRE as well rules both out
    assert same_press(opening, x, kinds[:6] + ["FIRE"] + kinds[7:], 20.27, 33.833, fps) is None
    # the press naming both ends it as before (DOWNFIRE, no DOWN held before it)
    alone = ["UPRIGHT", "UP", "RIGHT", "LEFT", "UPLEFT", "UP", "RIGHT", "DOWNFIRE"]
    assert same_press(opening, x, alone, 20.27, 33.833, fps) == 7
