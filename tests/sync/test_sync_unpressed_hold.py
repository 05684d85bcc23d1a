"""A hold with nothing pressed under it, ended at the game's lag after the next press, is the
game's wait (issues 13 and 12, QA s32 T2; core/sync/waits.py `lag_waits`, `_unpressed`).

QA s32's crossbow-genuine2@r48mp4v3gp (a still game: its picture changes when a button is
pressed): four holds end 0.00-0.02 s after a RIGHT (the lag `lag_waits` agrees on), more after
an UP, and one, 30.52-34.17 s, under a single NOOP, 0.017 s after a LEFT, the one hold of the
run to end at a LEFT. Another button needs two holds at the lag (`OTHER_BUTTON_MIN`: one is as
likely a freeze ending there by chance, after a press it hid); a hold under which no button
was pressed hides no press, and it resumes as a game's answer does (1.37x the usual change,
not all the motion a freeze hid in one frame: Casino's freeze guard in test_sync_wait_lag).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync import wait_lag

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


@pytest.mark.parametrize("offset", ["auto", "2.850"])
def test_crossbows_hold_under_a_noop_ended_by_a_left_is_a_note(capsys, tmp_path,
                                                                monkeypatch, offset):
    share_scans(monkeypatch)
    folder = qa_run(32, "crossbow-genuine2@r48mp4v3gp")
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset, "--json"])
    rep = json.loads(capsys.readouterr().out)
    frozen = [f for f in rep["findings"] if f["rule"] == "video.frozen"]
    # before: a warning, the run's only one (QA s32 T2)
    held = [f for f in frozen if f["video_start_s"] == 30.5625]
    assert [(f["severity"], f["video_end_s"]) for f in held] == [("info", 34.25)]
    assert "held until LEFT" in held[0]["message"]
    assert [f["rule"] for f in rep["findings"] if f["severity"] == "warning"
            and f["rule"].startswith(("video.", "sync."))] == []


@pytest.mark.parametrize("kinds, out", [
    (["NOOP", "NOOP", "LEFT"], True),      # nothing but NOOPs before the ending press
    (["LEFT"], True),                      # the ending press the first of all
    (["UP", "NOOP", "LEFT"], False),       # an UP under the hold: a press a freeze may hide
])
def test_unpressed_asks_for_no_button_under_the_hold_before_its_end(kinds, out):
    v = np.array([1.0, 2.0, 3.0][-len(kinds):])
    assert wait_lag._unpressed(v, kinds, 0.5, len(kinds) - 1) is out


def test_a_press_before_the_hold_began_is_not_under_it():
    v = np.array([0.2, 2.0, 3.0])
    assert wait_lag._unpressed(v, ["UP", "NOOP", "LEFT"], 0.5, 2)
