"""QA s29 T4: Turmoil sped up 3.3 % at 36 fps (FFV1/MKV; QA's generator
`scripts/qa_session29.py`, deterministic, built in a process of its own) reads its drift from
the screen's motion rises (issue 13, session 30).

No onset reading singles out an offset on Turmoil (QA s29 T3: its genuine runs are "not
enough signal" at auto), so no reading's drift was said: silence at every offset. The rises'
reading (`analysis._rising`, core/sync/rise.py) does single one out, 4.186 s, with its line
through the presses at +3.25 %, significant over shuffled logs searched at every speed; its
offset is not suggested (a rise lags a press's first change by 0 to 4 frames), but a drift is
the line's slope, which that lag does not move (`rise.drift_of`).
"""

from __future__ import annotations

import json
import shutil

import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")




@pytest.mark.parametrize("offset", ["auto", "4.300"])
def test_a_drift_read_on_the_rises_is_said_where_no_offset_is_suggested(
        offset, capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(29, "turmoil-speed33@r36ffv1")
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["tamper"] == {"kind": "speed33", "percent": pytest.approx(3.3)}
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset, "--json"])
    rep = json.loads(capsys.readouterr().out)
    sync = rep["sync"]
    # main: no finding at all, at every offset
    assert [(f["rule"], f["percent"]) for f in sync["findings"]] == [("sync.drift", 3.25)]
    (f,) = [f for f in rep["findings"] if f["rule"].startswith("sync.") and f["severity"] != "info"]
    assert f["rule"] == "sync.drift" and f["severity"] == "warning"
    assert "read on the screen's motion rises, at the offset they single out, 4.186 s" \
        in f["message"]
    # still nothing suggested: the rises' offset is named in the message only
    assert sync["suggested_offset_s"] is None


def test_the_genuine_run_reads_no_drift_on_its_rises(capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(29, "turmoil-genuine@r36ffv1")
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "auto", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert [f["rule"] for f in rep["findings"] if f["rule"].startswith("sync.")
            and f["severity"] != "info"] == []
