"""QA s29 T5: Robotank at 36 fps (FFV1/MKV) with 4 s of its picture held (QA's truth: video
21.17-25.17 s; QA's generator `scripts/qa_session29.py`, deterministic, built in a process of
its own) reported at the held picture, not as a 23 s stretch "at chance" around it (issue 13,
session 30).

On main the run's first 16 actions, video 5.20-28.04 s, were one `sync.no_reaction` "answered
no more often than by chance" at all four offsets: the three presses inside the held picture
answer nothing, and the picture's stillness lowers the chance of the presses before it. The
held picture was then "said" already and had no finding of its own. Outside it those 16
actions answer more often than their chance (`freeze._held_explains`): the stretch is the held
picture's, and its finding is the picture's, at its first and last held frames.
"""

from __future__ import annotations

import json
import shutil

import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main

RUN = "robotank-freeze@r36ffv1"

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")




@pytest.mark.parametrize("offset", ["4.300", "4.3556", "4.1889", "auto"])
def test_a_held_picture_inside_a_stretch_at_chance_is_reported_at_its_edges(
        offset, capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(29, RUN)
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["tamper"]["kind"] == "freeze"
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset, "--json"])
    rep = json.loads(capsys.readouterr().out)
    sync = [(f["rule"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"].startswith("sync.")]
    # main: [("sync.no_reaction", 5.202, 28.036)] at every offset
    assert sync == [("sync.no_reaction", 21.167, 25.167)]
    (f,) = [f for f in rep["findings"] if f["rule"] == "sync.no_reaction"]
    assert f["message"].startswith("the picture does not change for 4.0 s while the log "
                                   "holds 3 actions there")
    # the scan's own finding, unchanged
    assert [(f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"] == "video.frozen"] == [(21.333, 25.167)]
    # the offset read is the truth's (4.300 s) within a frame, as on main
    assert abs(rep["sync"]["suggested_offset_s"] - 4.3) * 36 <= 1.0  # duration-ok: offset in frames
