"""Answers in colour only, at one brightness (QA s41 T1, synth_tint): the offset is read again
on the luma's and the colour's moved points together when the gray picture singles out none
(core/sync/coloured.py). Hand-made scan signals as `from_scan` reads them (16x16 luma tiles,
16x8 chroma tiles), no video: `slow_game`'s square (Adventure's: a press answered 1-4 game
frames late, for its hold) moving in the chroma tiles only, the luma still."""

from __future__ import annotations

import numpy as np
import slow_game

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.coloured import COLOUR_BOUND, NOTE
from moderator_app.core.sync.signals import from_scan
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 48.0  # slow_game's recorder


class _Scan:
    """A scan's signals as `from_scan` reads them: times, 16x16 luma tiles (uint8) and the
    colour's 16x8 tiles (uint16), as the scan keeps them."""

    def __init__(self, times, tiles, chroma):
        self.times_s, self.sync_tiles, self.chroma_tiles = times, tiles, chroma


def _coloured(seed: int = 1):
    """(the scan with the square in colour only, the log's action times, the same square
    read in luma at the 8x8 grid): the square's 8x8 row 3 is chroma row 6 (chroma tile
    column c spans the grid's column c), the luma tiles all still."""
    gray, actions = slow_game.signals(seed=seed)
    n = len(gray)
    chroma = np.zeros((n, 16, 8), np.uint16)
    chroma[:, 6, :] = gray.tiles.reshape(n, 8, 8)[:, 3, :]
    return _Scan(gray.times, np.zeros((n, 16, 16), np.uint8), chroma), list(actions), gray


def test_presses_answered_in_colour_only_are_read_as_the_same_moves_in_luma():
    """Seen in luma the square dates run_start at 3.1214 (truth 3.1, answers 1-4 game
    frames late); seen in colour only, the gray picture has nothing (no offset) and the
    colour's reading says 3.1222: the same frame, under the one-click bar, and it says it
    read the colour."""
    scan, actions, gray = _coloured()
    assert analyze(actions, gray, DEFAULT_THRESHOLDS).suggested_offset_s == 3.1214
    still = analyze(actions, from_scan(_Scan(scan.times_s, scan.sync_tiles, None)),
                    DEFAULT_THRESHOLDS)
    assert still.suggested_offset_s is None
    a = analyze(actions, from_scan(scan), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s == 3.1222
    assert abs(a.suggested_offset_s - 3.1) * FPS < 1.1  # duration-ok: frames off the truth
    # (0.914 before the bound: under the one-click bar, for the moderator to check)
    assert a.confidence == COLOUR_BOUND == 0.45 and NOTE in a.confidence_note


def test_colour_moved_by_another_attempts_presses_suggests_nothing():
    """The colour of footage whose presses the log does not hold (slow_game's other seeds):
    no offset, never a guess."""
    _, actions, _ = _coloured(1)
    for seed in (2, 3):
        other, _, _ = _coloured(seed)
        assert analyze(actions, from_scan(other), DEFAULT_THRESHOLDS).suggested_offset_s is None


def test_a_moderators_offset_is_read_on_the_gray_picture_as_before():
    """With an offset given the colour is not read: no reaction measured on the still luma,
    nothing suggested, as without any colour."""
    scan, actions, _ = _coloured()
    a = analyze(actions, from_scan(scan), DEFAULT_THRESHOLDS, offset_s=3.1)
    assert a.suggested_offset_s is None and NOTE not in (a.confidence_note or "")
    assert [r.video_s for r in a.reactions] == [None] * len(actions)


def test_the_coloured_tiles_add_the_colour_where_the_luma_did_not_move():
    """A recorder that skipped two repeated frames: the colour's frames are put back still
    as the luma's. A chroma tile's 5 points go 3 and 2 to the two fine tiles it spans; a
    fine tile whose luma moved keeps its luma count only (the gray reader saw it); colour
    that moved only where the luma did, or nowhere: no coloured signals."""
    times = np.array([0, 1, 2, 5, 6, 7], float) / 30
    luma = np.zeros((6, 16, 16), np.uint8)
    luma[4, 0, 0] = 4
    chroma = np.zeros((6, 16, 8), np.uint16)
    chroma[4, 3, 2] = 5
    chroma[4, 0, 0] = 7  # over the luma's (0, 0) and the still (0, 1)
    sig = from_scan(_Scan(times, luma, chroma))
    col = sig.coloured()
    assert col is not None and col.hue is None and len(col) == len(sig) == 8
    fine = col.fine.reshape(8, 16, 16)
    assert (fine[6, 3, 4], fine[6, 3, 5], fine[6, 0, 0], fine[6, 0, 1]) == (3, 2, 4, 3)
    assert int(fine.sum()) == 12 and int(fine[3:5].sum()) == 0
    assert (col.tiles[6, 0], col.tiles[6, 1 * 8 + 2]) == (7, 5) and sig.tiles[6, 0] == 4
    only_there = np.zeros_like(chroma)
    only_there[4, 0, 0] = 7
    only_there[4, 0, 1] = 0
    luma[4, 0, 1] = 2
    assert from_scan(_Scan(times, luma, only_there)).coloured() is None
    assert from_scan(_Scan(times, luma, np.zeros_like(chroma))).coloured() is None
    assert from_scan(_Scan(times, luma, None)).coloured() is None


def test_the_colours_offset_reads_the_reactions_and_findings_of_that_offset_given():
    """The colour's suggestion is read as the moderator's offset typed in would be (review s42
    R5: at auto the colour's own reactions set other warnings): the same reactions and
    findings; the luma is still, so no reaction is measured there, as given."""
    scan, actions, _ = _coloured()
    a = analyze(actions, from_scan(scan), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s == 3.1222 and a.offset_used_s == 3.1222
    given = analyze(actions, from_scan(scan), DEFAULT_THRESHOLDS, offset_s=3.1222)
    assert given.suggested_offset_s is None
    assert a.reactions == given.reactions and a.findings == given.findings == []
    assert [r.video_s for r in a.reactions] == [None] * len(actions)


def test_a_cut_runs_halves_disagree_and_the_colour_offers_nothing():
    """4 s of the colour-only footage cut out a fifth of the way into the presses (QA s41's
    synth_tint cut06, review s42 R9): the colour's first reading alone offered the stretch
    after the cut, -0.9028 (4 s from the truth, 3.1) at 0.40; its two halves read apart, so
    "not enough signal"."""
    scan, actions, _ = _coloured()
    at = int(np.searchsorted(scan.times_s, 3.1 + np.percentile(actions, 20.0)))
    cut = int(4.0 * FPS)
    chroma = scan.chroma_tiles.copy()
    chroma[at:-cut] = chroma[at + cut:]
    chroma[-cut:] = 0
    a = analyze(actions, from_scan(_Scan(scan.times_s, scan.sync_tiles, chroma)),
                DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is None and a.findings == []
