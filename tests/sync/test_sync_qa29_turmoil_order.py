"""QA s29 T2: Turmoil's genuine run (QA's generator `scripts/qa_session29.py`, deterministic,
built in a process of its own) read with no `sync.offset_jump` (issue 13, session 29).

Turmoil's rows of enemies repeat, so the first 9 presses matched an offset 13.5 s later than
the truth (their answers at video 18.99-31.21 s) while the 16 after them stood at the truth
(19.02-40.28 s). No cut or insertion shows the log out of its order, but the two order tests
on the stretches' ends passed it (`track.out_of_order`), and a false -13.53 s jump was said
at video 22.56 s at the truth, +2 and -4 frames (17.83 s suggested at 0.238 at auto, 487
frames off). Any one splice leaves 6 of the 17 answers on its wrong side (`track.misordered`).
"""

from __future__ import annotations

import json
import shutil

import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main

RUN = "turmoil-genuine@r36ffv1"

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")




@pytest.mark.parametrize("offset", ["4.300", "4.3556", "4.1889", "auto"])
def test_a_genuine_run_whose_first_presses_match_a_later_offset_has_no_jump(
        offset, capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(29, RUN)
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["kind"].startswith("genuine")
    code = cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset, "--json"])
    rep = json.loads(capsys.readouterr().out)
    sync = rep["sync"]
    # on main: `sync.offset_jump` -13.53 s at video 22.56 s (run 4.71-18.24 s) at all four
    assert [f["rule"] for f in rep["findings"] if f["rule"].startswith("sync.")] == []
    assert [f["rule"] for f in sync["findings"]] == []
    # the suggestion is the truth's (4.300 s in QA's file time; 17.83 s on main at auto)
    assert sync["suggested_offset_s"] == pytest.approx(4.2791, abs=1e-3)
    assert sync["confidence"] == pytest.approx(0.357, abs=1e-3)
    assert code == (2 if offset == "auto" else 0)  # auto: under the one-click bar
