"""Laser Gates at 12 fps (QA s28 T2, held out: Theora in Ogg, 5 console frames a captured
frame): the cave's walls scroll through two rows of tiles, changing in 50-67 % of any
reaction window, and the ship moves up and down in the column they cross. Every reading said
"not enough signal" while the ship's tiles answer 57-68 % of the shown presses against 8-9 %
of any window. The bands without their busy tiles (`band.calm_signals`, read last by
`finer_band.suggested`) read it within a frame; a log of another seed of the same game
against the same video gets no offset (issue 13, session 29).

The runs are QA's, built by its generator in a process of its own (as
test_sync_qa28_blackjack.py: the generator sets the corpus package's slowdown).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cachelock
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync import band
from moderator_app.core.sync.signals import FrameSignals

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _file_shift(folder: Path, fps: float) -> float:
    """How much later than i / fps the file's frames stand, as QA's judge reads it
    (`qa_session28.file_shift`, ffprobe, in a process of its own; it memoises
    `file_shift.json` beside the run, which a clean clone has not made yet)."""
    code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
            "import qa_session28 as q; print(q.file_shift(Path(sys.argv[2]), float(sys.argv[3])))")
    with cachelock.qa_builds():  # it writes file_shift.json into QA's cache
        out = subprocess.run([sys.executable, "-c", code, str(SCRIPTS), str(folder), repr(fps)],
                             capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def _auto(folder: Path, capsys) -> tuple[int, dict]:
    code = cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "auto", "--json"])
    return code, json.loads(capsys.readouterr().out)["sync"]


def test_laser_gates_at_12_fps_gets_its_offset_from_the_calm_band(capsys, tmp_path,
                                                                   monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(28, "laser_gates-genuine@r12ogv")
    truth = json.loads((folder / "truth.json").read_text())
    shift = _file_shift(folder, truth["fps"])
    code, sync = _auto(folder, capsys)
    assert sync["suggested_offset_s"] is not None
    err_frames = (sync["suggested_offset_s"] - truth["offset_s"] - shift) * truth["fps"]
    assert abs(err_frames) <= 1.0  # duration-ok: the offset's error in frames of the video
    assert sync["confidence"] >= 0.5
    assert [f["rule"] for f in sync["findings"]] == []
    assert code == 0


def test_laser_gates_video_with_another_seeds_log_gets_no_offset(capsys, tmp_path,
                                                                 monkeypatch):
    share_scans(monkeypatch)
    video = qa_run(28, "laser_gates-genuine@r12ogv") / "video.ogv"
    log = qa_run(28, "laser_gates-genuine2@r45fmp4") / "agent-log.jsonl"
    pair = tmp_path / "laser_ogv+laser2_log"
    pair.mkdir()
    shutil.copy(video, pair / "video.ogv")
    shutil.copy(log, pair / "agent-log.jsonl")
    code, sync = _auto(pair, capsys)
    assert (code, sync["suggested_offset_s"], sync["confidence"]) == (2, None, 0.0)


def test_laser_gates_sped_up_reads_its_drift_from_the_calm_band_at_its_speed(capsys, tmp_path,
                                                                            monkeypatch):
    """QA s28's +5.5 % run (45 fps fragmented MP4): the calm band stands at no speed the
    whole picture finds; searched with the speed (`band.select_over_speeds`) it does."""
    share_scans(monkeypatch)
    folder = qa_run(28, "laser_gates-speed55@r45fmp4")
    truth = json.loads((folder / "truth.json").read_text())
    shift = _file_shift(folder, truth["fps"])
    _code, sync = _auto(folder, capsys)
    assert abs(sync["drift_percent"] - 5.5) <= 1.0
    assert [f["rule"] for f in sync["findings"]] == ["sync.drift"]
    err_frames = (sync["suggested_offset_s"] - truth["offset_s"] - shift) * truth["fps"]
    assert abs(err_frames) <= 1.0  # duration-ok: the offset's error in frames of the video


def test_calm_signals_drop_the_busy_tiles_and_keep_the_whole_picture():
    import numpy as np

    n = 200
    times = np.arange(n) / 12.0
    tiles = np.zeros((n, 4), np.uint16)
    tiles[::2, 0] = 5          # tile 0 changes every other frame: busy
    tiles[50, 1] = 3           # tile 1 once: calm
    sig = FrameSignals(times, tiles, 12.0)
    calm = band.calm_signals(sig)
    assert calm is not None
    assert calm.tiles[:, 0].sum() == 0
    assert calm.tiles[50, 1] == 3
    assert np.array_equal(calm.picture_change, sig.picture_change)
    quiet = FrameSignals(times, np.where(np.arange(4) == 1, tiles, 0).astype(np.uint16), 12.0)
    assert band.calm_signals(quiet) is None
