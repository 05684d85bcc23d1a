"""A cut or an insertion on a still screen, read from the picture's events at the moderator's
offset (issue 13, session 20, QA s19's 3-D Tic-Tac-Toe; core/sync/event_jump.py).

The run the tests build: a board game's picture at 24 fps, 40 s of footage, whose only motion
is a blinking cursor (its tile changes every third frame) that each press moves to another
tile 0.1 s after it (a third of the presses push into the board's edge and move nothing),
plus the computer's answer (another tile) now and then. Footage cut at 20 s (4 s removed) or
another attempt's 4 s inserted at 18 s: before session 20 the analysis said nothing at the
true offset (QA s19: 0 of 4 Tic-Tac-Toe splices); now one `sync.offset_jump` warning at the
splice. The genuine run at its offset has no sync finding.
"""

from __future__ import annotations

import random

import numpy as np

from moderator_app.core.findings import Severity
from moderator_app.core.sync import event_jump
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.run import sync_finding
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 24.0
OFFSET = 2.0      # video time of run_start
SECONDS = 44.0    # the recording, before any splice
LATENCY = 0.1


def _recording(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(tile changes per recorded frame, press times on the run's clock)."""
    rng = random.Random(seed)
    n = int(SECONDS * FPS)
    cursor = np.zeros(n, int)
    presses, moves = [], []
    t = 1.0
    while OFFSET + t < SECONDS - 2.0:
        presses.append(round(t, 3))
        if rng.random() < 0.67:
            moves.append(OFFSET + t + LATENCY)
        t += rng.uniform(1.2, 2.2)
    tile = 9
    k_last = 0
    for m in moves:
        k = int(np.ceil(m * FPS))
        cursor[k_last:k] = tile
        tile = (tile + rng.choice((1, 8, 7, 9))) % 48 + 8 if tile < 56 else 9
        k_last = k
    cursor[k_last:] = tile
    tiles = np.zeros((n, 64), np.uint16)
    blink = np.arange(n) % 3 == 0
    tiles[np.flatnonzero(blink), cursor[blink]] = 24
    # the computer's answer: a mark drawn in the top row every ~7 s
    for k in range(int(5.3 * FPS), n, int(7.1 * FPS)):
        tiles[k, rng.randrange(0, 8)] = 40
    tiles[0] = 0
    return tiles, np.array(presses)


def _signals(tiles: np.ndarray) -> FrameSignals:
    return FrameSignals(np.arange(len(tiles)) / FPS, tiles, FPS)


def _cut(tiles: np.ndarray, at_s: float, size_s: float) -> np.ndarray:
    a, b = int(at_s * FPS), int((at_s + size_s) * FPS)
    return np.concatenate([tiles[:a], tiles[b:]])


def _insert(tiles: np.ndarray, other: np.ndarray, at_s: float, size_s: float) -> np.ndarray:
    a = int(at_s * FPS)
    return np.concatenate([tiles[:a], other[a:a + int(size_s * FPS)], tiles[a:]])


def _sync_warnings(sig: FrameSignals, presses: np.ndarray):
    a = analyze(presses, sig, DEFAULT_THRESHOLDS, OFFSET)
    return [f for f in a.findings if sync_finding(f, "v.mp4").severity == Severity.WARNING]


def test_a_cut_on_a_still_screen_is_found_at_its_splice():
    tiles, presses = _recording(7)
    found = _sync_warnings(_signals(_cut(tiles, 20.0, 4.0)), presses)
    assert [f.rule for f in found] == ["sync.offset_jump"]
    [f] = found
    assert sync_finding(f, "v.mp4").severity == Severity.WARNING
    assert f.video_start_s is not None and f.size_s is not None
    assert abs(f.video_start_s - 20.0) <= 1.0  # duration-ok: a video time (+-1 s)
    assert f.video_end_s is None  # footage removed: one splice
    assert abs(f.size_s + 4.0) <= 0.2  # duration-ok: the footage removed, in seconds
    assert "picture's events at the offset given" in f.message


def test_an_insertion_on_a_still_screen_is_found_with_its_span():
    tiles, presses = _recording(7)
    other, _ = _recording(8)
    found = _sync_warnings(_signals(_insert(tiles, other, 18.0, 4.0)), presses)
    assert [f.rule for f in found] == ["sync.offset_jump"]
    [f] = found
    assert f.video_start_s is not None and f.video_end_s is not None
    assert abs(f.video_start_s - 18.0) <= 1.0  # duration-ok: a video time (+-1 s)
    assert abs(f.video_end_s - 22.0) <= 1.0  # duration-ok: a video time (+-1 s)
    assert f.size_s is not None and abs(f.size_s - 4.0) <= 0.2  # duration-ok: seconds


def test_the_genuine_run_at_its_offset_has_no_sync_warning():
    for seed in (7, 8, 9):
        tiles, presses = _recording(seed)
        assert _sync_warnings(_signals(tiles), presses) == [], seed


def test_the_events_find_nothing_without_a_shift():
    """The module alone on the genuine picture: no split explains its events better."""
    tiles, presses = _recording(9)
    sig = _signals(tiles)
    ev = event_jump.events(sig)
    assert len(ev) >= 10
    assert event_jump.find(ev, OFFSET + presses, float(sig.times[-1])) is None
    res = SyncAnalysis(None, 0.0, 0, len(presses), 1.0, "not enough signal", OFFSET)
    assert event_jump.jumps_at(presses, sig, OFFSET, res) is None


# The wide set's bank_heist-genuine2@r60h264bf8avi (60 fps, genuine) at the truth's offset,
# 1.4 s: the picture's events and the presses expected (video times), as the scan read them.
BANK_EVENTS = [0.05, 4.18, 4.53, 7.35, 8.2, 9.58, 9.93, 12.0, 13.23, 15.78, 16.13, 18.87,
               19.73, 20.4, 20.53, 21.2, 21.87, 22.1, 22.45, 23.45, 23.58, 25.47, 27.25, 29.28,
               30.85, 31.2, 32.92, 33.27, 34.63, 35.58, 35.93, 37.48, 39.07]
BANK_PRESSES = [2.55, 4.14, 5.88, 7.32, 7.72, 9.57, 11.89, 13.43, 15.44, 15.76, 17.36, 18.84,
                20.38, 22.08, 23.22, 23.59, 24.87, 26.88, 27.18, 29.25, 30.83, 32.9, 33.89,
                34.28, 35.57, 37.11, 38.7]


def test_events_the_offset_explains_a_little_later_are_no_splice():
    """A genuine run's last 5 events, all explained by the presses at +1.65 s (by chance, the
    best of the shifts tried), 2 by the offset given and 4 by it read 0.05-0.35 s later: no
    `sync.offset_jump` (session 44; before it, "+1.65 s near video 32.92 s: footage
    inserted?")."""
    ev, x = np.array(BANK_EVENTS), np.array(BANK_PRESSES)
    after = ev[ev >= 32.92 + 1.65]
    assert int(event_jump.explained(after, x + 1.65).sum()) == 5
    assert int(event_jump.explained(after, x).sum()) == 2  # 0.35 s and 0.01 s after a press
    assert max(int(event_jump.explained(after, x + o).sum())
               for o in (0.05, 0.1, 0.2, 0.3, 0.35)) == 4
    assert event_jump.offset_near(after, x, 5)
    assert event_jump.find(ev, x, 42.38) is None
    # through the seam the analysis calls: a 60 fps still picture whose tiles change at the
    # events, and an analysis that suggested no offset
    fps = 60.0
    tiles = np.zeros((int(42.4 * fps), 64), np.uint16)
    for i, t in enumerate(BANK_EVENTS):
        tiles[int(round(t * fps)), i % 64] = 24
    sig = FrameSignals(np.arange(len(tiles)) / fps, tiles, fps)
    assert np.round(event_jump.events(sig), 2).tolist() == BANK_EVENTS
    presses = x - 1.4
    res = SyncAnalysis(None, 0.0, 0, len(presses), 1.0, "not enough signal", 1.4)
    assert event_jump.jumps_at(presses, sig, 1.4, res) is None
