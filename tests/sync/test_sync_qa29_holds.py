"""QA s29's Hangman (a word puzzle whose picture holds until a button: UP and DOWN change the
letter, FIRE guesses it), built by QA's generator in the repository (`scripts/qa_session29.py`,
deterministic, one encoder thread), read beside its log (issue 13, QA s29 T1; session 30).

A game that waits for a button may take several: five of hangman-genuine2's holds end 0.009-
0.026 s after the first UP inside them (the lag `wait_lag.lag_waits` agrees on), three more at
that lag after a FIRE, each a `sync.no_reaction` before. The lag is the game's (it polls its
input and the next frame shows the answer), so another button's holds at that lag are its
waits too when two of them at least end there (`wait_lag._at_the_lag`). And the report's
`video_scan` section says a wait's `video.frozen` as the findings list does: a note.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")




def _sync(folder: Path, offset: str, capsys) -> dict:
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset, "--json"])
    return json.loads(capsys.readouterr().out)


def test_holds_ending_at_the_games_lag_after_another_button_are_its_waits(
        capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(29, "hangman-genuine2@r36ffv1")
    video = folder / "video.mkv"
    times, named = inputs(load_submission([folder / "agent-log.jsonl", video]))
    a = analyze(times, frame_signals(video), DEFAULT_THRESHOLDS, 4.3, input_kinds=named)
    # the three FIRE holds (ended 0.001-0.025 s after the first FIRE in them) taken at the
    # lag the five UP holds agree on; the one DOWN hold alone is not (left open)
    assert [(w.start_s, w.end_s, w.kind, w.agreed_kind) for w in a.waits
            if w.agreed_kind is not None] == [
        (7.639, 12.695, "press button=FIRE", "press button=UP"),
        (24.556, 29.639, "press button=FIRE", "press button=UP"),
        (31.861, 34.972, "press button=FIRE", "press button=UP")]
    rep = _sync(folder, "4.3", capsys)
    # before: also 9.35-12.06 and 26.00-28.10 s (QA s29 T1)
    assert [(f["rule"], f["video_start_s"], f["video_end_s"])
            for f in rep["sync"]["findings"]] == [("sync.no_reaction", 38.592, 40.546)]


def test_the_scan_section_says_a_waits_frozen_picture_as_the_findings_do(
        capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(29, "hangman-genuine@r16wmv")
    rep = _sync(folder, "1.60025", capsys)  # QA's truth in the file's time
    listed = [(f["severity"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
              if f["rule"] == "video.frozen"]
    section = [(f["severity"], f["start_s"], f["end_s"]) for f in rep["video_scan"]["findings"]
               if f["rule"] == "video.frozen"]
    assert section == [("info", 0.0, 4.75), ("info", 4.75, 10.125), ("info", 11.188, 42.626)]
    assert listed == section
    said = next(f["message"] for f in rep["video_scan"]["findings"] if f["start_s"] == 4.75)
    assert "held until UP, pressed at video 10.08 s" in said
