"""Faint reactions (core/sync/faint.py; issue 13, session 30 signal, QA s29 T3): a fit that
stands over the offsets and over the shuffled logs, whose reactions clear the usual bar
(2.5 local spreads) on too few actions, is read at a lower bar, counted over chance's.

QA s29's Turmoil at 16 fps (WMV2 in ASF, built by QA's generator in a process of its own):
enemies race along the corridors on their own and each captured frame holds 3.75 emulator
frames of their motion, so the small ship's answer to a press is a small share of a frame's
onsets. On main: "not enough signal" (the fit 0.2 frame from the truth at 4.43 spreads over
the offsets and 5.45 over the shuffled logs, 3 supporting actions; the track's stretch at
-5.85 s on 5 chance changes).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync import faint, reactions
from moderator_app.core.sync.signals import FrameSignals


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")
def test_turmoil_at_16_fps_is_offered_its_offset_within_a_frame(capsys, tmp_path,
                                                                monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(29, "turmoil-genuine@r16wmv")
    truth = json.loads((folder / "truth.json").read_text())
    assert (truth["kind"], truth["fps"], truth["offset_s"]) == ("genuine", 16, 1.6)
    code = cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "auto", "--json"])
    rep = json.loads(capsys.readouterr().out)
    sync = rep["sync"]
    # the truth in the file's time: ASF's first video packet at 46 ms, the first frame's
    # grid 0.25 ms off (QA s29's judge, `file_shift`): 1.60025 s
    assert abs(sync["suggested_offset_s"] - 1.60025) * 16 <= 1.0  # duration-ok: offset, frames
    assert sync["suggested_offset_s"] == pytest.approx(1.5797, abs=1e-4)
    assert (sync["supporting_actions"], sync["confidence"]) == (8, 0.167)
    # offered, not applied: under the one-click bar (exit 2 at auto), and nothing said
    assert code == 2
    assert [f["rule"] for f in sync["findings"]] == []
    assert [f["rule"] for f in rep["findings"] if f["rule"].startswith("sync.")] == []


def test_no_faint_reading_without_offsets_to_measure_chance_at():
    # 3 s of footage for a log spanning 2.4 s: fewer than CHANCE_OFFSETS offsets lie 0.5 s
    # or more from the fit's, so chance's support is not known and nothing is read
    fps = 16.0
    times = np.arange(48) / fps
    tiles = np.zeros((48, 64), np.uint16)
    run_s = np.linspace(0.0, 2.4, 7)
    for t in run_s:
        tiles[int(np.ceil((0.2 + t) * fps)), 27] = 40
    sig = FrameSignals(times, tiles, fps)
    nov = reactions.novelty(sig)
    assert faint.chance_support(sig, nov, run_s, 0.2, faint.FAINT_Z) == float("inf")
