"""Reactions read at the moderator's offset on the player's band when no stage suggests one
(core/sync/at_offset.py; QA s18 L1): a synthetic screen that moves on its own everywhere,
whose player's row answers 10 of 14 presses, too few for any offset to stand out over all
offsets (the band's margin 2.81, the whole picture nothing), yet plain at the offset given
(7.27 spreads over the same log's gaps shuffled at that offset)."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import band, reactions
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60
OFFSET = 1.5
ROW = 6          # the player's row of the 8x8 grid (Phoenix's ship)
SEED = 2


def _log(seed: int) -> np.ndarray:
    """14 presses 0.8 to 3.5 s apart (an agent's calls), from 1 s into the run."""
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.uniform(0.8, 3.5, 14)) + 1.0


def _screen(run_s: np.ndarray, row_rate: float = 0.3) -> tuple[FrameSignals, list[float | None]]:
    """46 s at 60 fps on an 8x8 grid: every tile has 4-frame bursts of motion at random
    times, once a second outside the player's row and every 3.3 s in it (birds, stars,
    shots), and the player's row answers 70 % of the presses 1 to 3 frames late with an
    8-frame motion in one of its tiles. Also the answers' video times (None: unanswered)."""
    rng = np.random.default_rng(SEED)
    n = 46 * FPS
    tiles = np.zeros((n, 64), np.uint16)
    for j in range(64):
        rate = row_rate if j // 8 == ROW else 1.0
        for k in np.nonzero(rng.random(n) < rate / FPS)[0]:
            tiles[k:k + 4, j] = 20
    shown: list[float | None] = []
    for e in run_s:
        if rng.random() > 0.7:
            shown.append(None)
            continue
        k = int(round((OFFSET + e) * FPS)) + int(rng.integers(1, 4))
        tiles[k:k + 8, ROW * 8 + int(rng.integers(0, 8))] = 30
        shown.append(k / FPS)
    return FrameSignals(np.arange(n) / FPS, tiles, float(FPS)), shown


def _measured(a) -> int:
    return sum(r.video_s is not None for r in a.reactions)


def test_no_offset_stands_out_over_all_offsets():
    """The path is reached: the band's margin over all offsets is under the band's bar, and
    nothing is suggested."""
    e = _log(SEED)
    sig, _ = _screen(e)
    th = DEFAULT_THRESHOLDS
    tiles, margin = band.select(sig, reactions.novelty(sig), e, th.sync_band_min_null_z, 8)
    assert tiles is None and margin < th.sync_band_min_null_z
    assert analyze(e, sig, th).suggested_offset_s is None


def test_reactions_are_read_on_the_band_at_the_offset_given():
    """At the true offset given, 12 of 14 reactions measured (main: 2), 10 of them within a
    frame and 0.1 s of the press's answer; nothing is suggested and nothing is found. (13
    before the per-action reader was switched on, session 36: its 0.15 s window answers one
    unshown press fewer by chance than the 0.5 s one.)"""
    e = _log(SEED)
    sig, shown = _screen(e)
    a = analyze(e, sig, DEFAULT_THRESHOLDS, OFFSET)
    assert a.suggested_offset_s is None and a.offset_used_s == OFFSET
    assert _measured(a) == 12
    close = sum(1 for r, v in zip(a.reactions, shown, strict=True)
                if r.video_s is not None and v is not None and abs(r.video_s - v) <= 1 / FPS + 0.1)
    assert close == 10
    assert a.findings == []


def test_the_band_is_chosen_at_the_offset_given_only_where_it_answers():
    """The band at the offset (`band.select_at`): row 7 (1-based) at the true offset; at
    0.5 s either side of it, and for another log at the true offset, none beats the
    shuffled logs (a mistyped offset or a log the video does not follow reads nothing)."""
    e = _log(SEED)
    sig, _ = _screen(e)
    nov = reactions.novelty(sig)
    th = DEFAULT_THRESHOLDS

    def at(log, offset):
        return band.select_at(sig, nov, log, offset, th.sync_min_null_z, th.sync_min_actions, 8)

    tiles, margin = at(e, OFFSET)
    assert tiles is not None and tiles.tolist() == list(range(ROW * 8, ROW * 8 + 8))
    assert margin >= th.sync_min_null_z
    for offset in (OFFSET - 0.5, OFFSET + 0.5):
        assert at(e, offset)[0] is None
    assert at(_log(SEED + 100), OFFSET)[0] is None


def test_a_wrong_offset_or_another_log_measures_what_the_whole_picture_does():
    """At 0.5 s either side of the truth, and for another log, the reactions are the whole
    picture's (0, 1 and 0: chance onsets) and no finding is added."""
    e = _log(SEED)
    sig, _ = _screen(e)
    th = DEFAULT_THRESHOLDS
    cases = ((e, OFFSET - 0.5, 0), (e, OFFSET + 0.5, 1), (_log(SEED + 100), OFFSET, 0))
    for log, offset, measured in cases:
        a = analyze(log, sig, th, offset)
        assert a.suggested_offset_s is None
        assert _measured(a) == measured
        assert not any(f.rule.startswith("sync.") for f in a.findings)



def test_onsets_of_the_band_between_actions_are_no_activity_without_actions():
    """A 7 s wait between two presses (a model call in flight) in which the player's row,
    quiet otherwise, moves 6 times as it does after a press. With no suggestion, the band
    chosen at the offset given reads the reactions (10 measured; 11 within 0.5 s before the
    per-action reader, session 36) but not
    `sync.activity_without_actions` (on main: found at 19.7 s): a band chosen because it
    answers the presses at this offset is not shown to move only on input (QA s19's genuine
    Beam Rider pause at 120 fps got that warning from the ship's row), and on real human and
    deleted stretches the rule found none on the band (docs/DECISIONS.md, session 19)."""
    e = _log(SEED)
    e = np.concatenate((e[:6], e[6:] + 6.0))
    sig, _ = _screen(e, row_rate=0.05)
    tiles = sig.tiles.copy()
    wait0 = OFFSET + e[5] + 1.0
    for i in range(6):
        k = int(round((wait0 + i) * FPS))
        tiles[k:k + 8, ROW * 8 + i] = 30
    a = analyze(e, FrameSignals(sig.times, tiles, float(FPS)), DEFAULT_THRESHOLDS, OFFSET)
    assert a.suggested_offset_s is None and _measured(a) == 10
    assert [f.rule for f in a.findings] == []
