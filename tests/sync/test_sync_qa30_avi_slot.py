"""QA s30 T2's second run: Crazy Climber through MS-MPEG-4 in AVI at 18 fps (QA's generator
`scripts/qa_session30.py`, deterministic, built in a process of its own) is suggested within
a frame of run_start in the file's own time (issue 13, session 31).

QA judged its 5.2201 s at 0.603 a confident wrong offset (+1.26 frames of 5.15 s). The file
holds 831 pictures in 832 slots of 1/18 s: the AVI has no picture at 1/18 s, and every
picture after the first stands one slot later than the generator's index (its truth's
`offset_s` and `shows_video_s` are index / 18). Every one of the run's 9 reactions the
product reads lands exactly one slot after the truth's `shows_video_s` (19 of 19 over QA
s30's 18 fps runs; on every other recorder of the QA and corpus sets the reactions land on
the truth's frame), so run_start's picture is at 5.15 + 1/18 = 5.2056 s of the file, and
5.2201 s is 0.26 frame from it. The test pins the reading a "fix" of T2 toward QA's 5.15 s
would break.
"""

from __future__ import annotations

import json
import shutil

import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main

RUN = "crazy_climber-genuine@r18divx"
FPS = 18.0

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def test_an_avi_whose_pictures_stand_one_slot_late_is_read_in_the_files_time(
        capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(30, RUN)
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["kind"] == "genuine" and truth["fps"] == FPS
    code = cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "auto", "--json"])
    sync = json.loads(capsys.readouterr().out)["sync"]
    # each reaction the product reads is the truth's picture, one slot of the file later
    # (the JSON rounds times to the millisecond: frames to a tenth)
    shown = {round(a["elapsed_ms"] / 1000, 3): a["shows_video_s"] for a in truth["actions"]
             if a["shows_video_s"] is not None}
    late = [round((r["video_s"] - shown[round(r["run_s"], 3)]) * FPS, 1)
            for r in sync["reactions"]
            if r["video_s"] is not None and round(r["run_s"], 3) in shown]
    assert late == [1.0] * 9
    file_truth = truth["offset_s"] + 1 / FPS  # run_start's picture in the file: 5.2056 s
    assert sync["suggested_offset_s"] == pytest.approx(5.2201, abs=1e-4)
    off = abs(sync["suggested_offset_s"] - file_truth) * FPS
    assert off == pytest.approx(0.261, abs=0.01)  # duration-ok: frames from run_start's picture
    assert sync["confidence"] == pytest.approx(0.603, abs=1e-3)
    assert code == 0  # at or over the one-click bar: used
