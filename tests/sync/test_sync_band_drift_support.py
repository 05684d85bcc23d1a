"""A drift read on a finer band is said only when the band's line answers at least half of
the run's actions (issue 13, session 28 lead: `analysis.DRIFT_BAND_SUPPORT`, QA s28 T3).

QA s28's Blackjack (a card table whose picture holds until a button) with 4 s of footage
frozen and no speed change, recorded as fragmented MP4 at 45 fps: at auto, the finer band's
drift pass (f7dba4e) read a line through 7 of its 25 actions and said "the video runs 1.5 %
faster than the log's clock" over the whole video, its offset 88 frames off at 0.14. The
speed runs that pass reads rightly answer 13 of 23 to 24 of 33 (tests/sync/
test_sync_finer_band_drift.py keeps them). The run is built by QA's generator in the
repository (`scripts/qa_session28.py`, deterministic: seed 281, one encoder thread).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from moderator_app.cli import main as cli_main

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _qa28():
    pytest.importorskip("ale_py")
    sys.path.insert(0, str(SCRIPTS))
    import qa_session28

    return qa_session28


def test_no_drift_from_a_band_line_through_a_minority_of_the_presses(capsys, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    folder = _qa28().build_sync_run("blackjack-freeze@r45fmp4")
    code = cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "auto", "--json"])
    rep = json.loads(capsys.readouterr().out)
    sync = rep["sync"]
    assert [f["rule"] for f in sync["findings"]] == []
    assert sync["drift_percent"] == 0.0
    # no offset singled out: exit 2 at auto, nothing suggested
    assert (code, sync["suggested_offset_s"]) == (2, None)
    # the freeze itself is still said by the scan (QA's truth: frozen 20.10-24.10 s, the
    # run's own hold before it)
    frozen = [(f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
              if f["rule"] == "video.frozen"]
    assert any(s <= 24.10 + 0.5 and e >= 20.10 - 0.5 for s, e in frozen)  # duration-ok: video times
