"""Inserted footage dated by its two splices, exactly its length apart (issue 13, session 33;
QA s32 T4).

The track says between which presses the offset jumps; where presses between them go
unanswered, the frames tied for the splice span seconds, and their largest paired change was
a game's own flash. QA s32's battle_zone-insert@r48mp4v3gp (4 s inserted at video
19.283-23.283 s) was said at 15.21-19.21 s: the ties ran 14.40-20.42 s, the largest pair was
the explosion at 17.33 s (no change 4 s later), so the jump fell back to the middle of the
segments' bracket. Its two splices change 1,649 and 1,594 points against 0-10 beside them
(`splices.splice_pair`).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync import splices

FPS = 10.0


def _picture() -> np.ndarray:
    """60 s at 10 fps: every frame changes 20-29 points (a moving screen), a flash of five
    frames at 40,000 (over the video's top percentile, twice), and lone changes of 900 at
    frames 200 and 240 (4 s apart) and 700 at 300."""
    pc = 20.0 + (np.arange(600) % 10)
    pc[150:155] = 40000.0
    pc[400:405] = 40000.0
    pc[[200, 240]] = 900.0
    pc[300] = 700.0
    return pc


def test_the_tied_frame_whose_partner_stands_out_its_size_later_is_the_splice():
    pc = _picture()
    ties = np.arange(140, 260)
    assert splices.splice_pair(pc, FPS, ties, 40) == 200
    # the size is measured between two offsets: its partner within a frame either way
    assert splices.splice_pair(pc, FPS, ties, 41) == 200
    assert splices.splice_pair(pc, FPS, ties, 39) == 200


def test_no_partner_no_pair():
    pc = _picture()
    ties = np.arange(140, 260)
    assert splices.splice_pair(pc, FPS, ties, 30) is None  # frame 230 is the screen's own
    assert splices.splice_pair(pc, FPS, np.arange(201, 260), 40) is None  # 200 not tied
    assert splices.splice_pair(pc, FPS, ties, 0) is None
    assert splices.splice_pair(pc, FPS, np.zeros(0, int), 40) is None


def test_of_two_pairs_the_stronger_smaller_change():
    pc = _picture()
    pc[340] = 800.0  # 300 and 340: a pair of 700 / 800, weaker than 200 / 240's 900 / 900
    assert splices.splice_pair(pc, FPS, np.arange(140, 320), 40) == 200
    pc[[300, 340]] = 1500.0
    assert splices.splice_pair(pc, FPS, np.arange(140, 320), 40) == 300


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")
def test_qa32_battle_zone_insert_is_dated_at_its_splices(capsys, tmp_path, monkeypatch):
    """QA s32 T4 at the truth (2.850 s): before session 33 `sync.offset_jump` 15.208-19.208 s,
    4.07 s early; now at the splices' frames (truth 19.283-23.283 s, 48 fps)."""
    share_scans(monkeypatch)
    folder = qa_run(32, "battle_zone-insert@r48mp4v3gp")
    tam = json.loads((folder / "truth.json").read_text())["tamper"]
    assert (round(tam["video_s"], 3), round(tam["video_end_s"], 3)) == (19.283, 23.283)
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "2.850", "--json"])
    rep = json.loads(capsys.readouterr().out)
    said = [(f["rule"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"].startswith("sync.") and f["severity"] == "warning"]
    assert said == [("sync.offset_jump", 19.292, 23.292)]


def test_a_jump_at_its_own_two_splices_is_not_moved_onto_a_held_picture():
    """held_insert.at_held moves an insertion read late onto the held picture of its length
    ahead of it (QA s27's Donkey Kong: the jump read 10.6 s late); a jump whose own frames,
    `size` apart, stand out as splices stays. Wide video_chess-insert@r40xvidavi was dated
    20.50-24.50 s (truth 20.50) and moved onto the board's own 4.13 s hold at 9.32 s."""
    from test_sync_held_insertion import _analysis, _jump, _signals

    from moderator_app.core.sync.held_insert import at_held
    from moderator_app.core.sync.signals import FrameSignals

    sig = _signals()  # 20 fps, busy, held at frames 317-395 (15.85-19.8 s)
    moved = at_held(_analysis(_jump()), sig)  # 26.40-30.30 s, +3.90 s
    assert [(f.video_start_s, f.video_end_s) for f in moved.findings] == [(15.85, 19.8)]
    tiles = sig.tiles.copy()
    tiles[[528, 606]] = 1000  # 26.40 s and 30.30 s: the whole picture changes at once
    spliced = FrameSignals(sig.times, tiles, sig.fps)
    kept = at_held(_analysis(_jump()), spliced)
    assert [(f.video_start_s, f.video_end_s) for f in kept.findings] == [(26.4, 30.3)]
    tiles[606] = sig.tiles[606]  # one splice alone is no insertion's pair: moved as before
    one = at_held(_analysis(_jump()), FrameSignals(sig.times, tiles, sig.fps))
    assert [(f.video_start_s, f.video_end_s) for f in one.findings] == [(15.85, 19.8)]
