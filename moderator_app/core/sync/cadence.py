"""A video that holds each game picture for several of its frames bounds the suggestion's
confidence: the reactions place the offset only to within a game frame.

Why: a press shows only when the game draws its next picture, so a reaction's video time is
a game-frame boundary, whatever the capture's frame rate. The fit dates the offset by the
supporting reactions' median less a latency prior (`fit.INPUT_LATENCY_S`, 0.75 of a 60 Hz
frame: games answer within 0-2 of their frames, and which one a game answers in the picture
cannot tell). That prior is within a video frame of the truth while the video frame is as
long as the game's (60 fps and slower); a capture at 120 fps halves the frame the judge
counts, not the game frame the reactions are quantised to. QA session 19 (M3): Beam Rider at
120 fps (each 60 Hz picture captured twice) was suggested 1.58-1.68 video frames early (0.84
game frames) at confidence 0.83 / 0.65, Apply enabled and `--offset auto` using it. Snapping
the suggestion to the game clock's phase (the offset of a game drawn from run_start lies on a
game-frame boundary) moves it by whole game frames, two video frames each: 0.586 s snaps to
0.5833 (-2 frames), not 0.6.

The test (`game_frames`): the frames whose picture changes (`FrameSignals.picture_change`)
fall on one residue class modulo g video frames, CADENCE_SHARE of them or more, with at least
CADENCE_MIN_CHANGES changes, and fps / g is a game's drawing rate (CADENCE_MIN_GAME_HZ): the
game draws a new picture every g-th frame of the video. A rate no multiple of the game's (100,
144 fps) holds pictures for 1 or 2 frames in turn: then the changes fall, CADENCE_SHARE of
them, only on frames that a tick of a 60 Hz clock precedes, for one of its phases (`on_clock`,
from 1.2 times the clock on). On
every cached run of the corpus sets and QA s14-s18 the largest share at g = 2 is 0.958
(Video Pinball at 60 fps, its flipper drawn every other frame, and the ball not); QA s19's
120 fps runs, Beam Rider (a moving screen) and 3-D Tic-Tac-Toe (a still board), 1.000.
Then (`bounded`) the confidence is at most CADENCE_BOUND, under the one-click bar
(`records.APPLY_MIN_CONFIDENCE`), and the analysis says why (`SyncAnalysis.confidence_note`,
shown in the Sync panel and `verify --json`'s `sync.confidence_note`). The offset, the
reactions and the findings do not change.

The other way round, a capture slower than the game and at a rate that does not divide it
(24, 25, 40, 48, 50 fps of a 60 Hz game) shows each game picture late by part of a video
frame: the suggestion is taken back by that part's mean (`capture_lag_s`, `captured`).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from .records import APPLY_MIN_CONFIDENCE, SyncAnalysis
from .signals import FrameSignals

CADENCE_SHARE = 0.99        # of the changing frames on one residue class modulo g
CADENCE_MIN_CHANGES = 100   # fewer changes tell no cadence (a still board's 40 s: 312)
CADENCE_MAX = 4             # g tried: 2 .. 4 video frames a game picture (up to 240 fps)
# ... and the game draws at fps / g, a game's rate: a still board's blink can change every
# other frame of a slow capture too (QA s18's Video Checkers at 15 fps: 163 changes, all on
# one parity, a 7.5 Hz cadence; each of its video frames holds 4 game frames, not less)
CADENCE_MIN_GAME_HZ = 40.0
# A rate that is no multiple of the game's (100 or 144 fps of a 60 Hz game) holds pictures
# for 1 or 2 frames in turn: the changes then fall only on frames a tick of the game's clock
# (the emulator's CLOCK_HZ) precedes, for one of CLOCK_PHASES phases. Tried from
# CLOCK_MIN_RATIO times the clock on: a synthetic game answering in its press's frame is
# 0.65-1.25 frames early at 100 fps (4 of 12 seeds wrong at 0.96-0.99), 0.91-2.12 at 144 fps
# (11 of 12) without it. No video of the corpus or QA sets lies between 62.6 and 120 fps.
CLOCK_HZ = 60.0
CLOCK_PHASES = 64  # 0.26 ms apart; a 144 fps capture's frames fall 1.39 ms apart on the clock
CLOCK_MIN_RATIO = 1.2
CADENCE_BOUND = 0.45        # the confidence such a suggestion can have: under the bar
assert CADENCE_BOUND < APPLY_MIN_CONFIDENCE


def game_frames(sig: FrameSignals) -> float:
    """How many video frames each game picture holds (more than 1: see the module's
    docstring), 1 when the picture's changes show no such cadence. Frames are numbered by
    their time (a variable-rate video's dropped repeats keep their place)."""
    c = np.asarray(sig.picture_change)
    if len(c) < 2 or sig.fps <= 0:
        return 1.0
    moved = np.flatnonzero(c[1:] > 0) + 1
    if len(moved) < CADENCE_MIN_CHANGES:
        return 1.0
    times = np.asarray(sig.times, float)
    idx = np.round(times[moved] * sig.fps).astype(np.int64)
    for g in range(CADENCE_MAX, 1, -1):  # the longest hold first (240 fps: 4, not 2)
        if sig.fps / g < CADENCE_MIN_GAME_HZ:
            continue
        if np.bincount(idx % g, minlength=g).max() >= CADENCE_SHARE * len(idx):
            return float(g)
    if sig.fps >= CLOCK_MIN_RATIO * CLOCK_HZ and \
            on_clock(times[moved - 1], times[moved], CLOCK_HZ) >= CADENCE_SHARE:
        return float(sig.fps) / CLOCK_HZ
    return 1.0


def on_clock(before: np.ndarray, at: np.ndarray, hz: float) -> float:
    """The largest share, over CLOCK_PHASES phases of a clock ticking at `hz`, of the
    changes (shown at video times `at`, the frame before at `before`) that a tick precedes:
    a frame can show a new game picture only when the game drew one since the last frame."""
    phase = np.arange(CLOCK_PHASES)[:, None] / (CLOCK_PHASES * hz)
    ticked = np.floor((at[None, :] - phase) * hz) > np.floor((before[None, :] - phase) * hz)
    return float(ticked.mean(axis=1).max()) if len(at) else 0.0


def note(g: float, fps: float) -> str:
    """The Sync panel's and the JSON's words for a suggestion bounded by the cadence."""
    return (f"the video holds each game picture for {g:.3g} of its frames ({fps:.4g} fps): a "
            f"reaction shows only when the game draws, so the reactions place run_start only "
            f"to within a game frame ({g:.3g} video frames), not one video frame")


def bounded(a: SyncAnalysis, sig: FrameSignals) -> SyncAnalysis:
    """`a` with its suggestion's confidence at most CADENCE_BOUND, and the reason in
    `confidence_note`, when the video holds each game picture for several frames."""
    if a.suggested_offset_s is None:
        return a
    g = game_frames(sig)
    if g <= 1.0:
        return a
    return replace(a, confidence=min(a.confidence, CADENCE_BOUND),
                   confidence_note=note(g, float(sig.fps)))


# A capture whose rate does not divide the game's shows a game picture from the first video
# frame taken at or after it: frame i, taken at i / fps, shows game frame floor(i * 60 / fps),
# so game frame c shows from ceil(c * fps / 60) / fps. Every reaction the fit reads is dated
# that much late, and its latency prior (`fit.INPUT_LATENCY_S`) was measured on 60 and 30 fps
# captures. Over the phases the frames step through (fps / 60 = p / q) the delay averages
# (q - 1) / (2 q) of a video frame: 1/3 at 20 and 40 fps, 0.40 at 24 and 48, 0.42 at 50, 0.46
# at 25, and half a frame where the two clocks share no short period (59.94 fps). At 30 fps
# (q = 2) every video frame shows the game frame of its own time, and the game frames in
# between are missed: a game that draws every other frame (most Atari games move on one
# parity) is late by 0 or by a whole game frame, not by a mean; the corpus' 30 fps runs
# (Pitfall 18, Tennis, H.E.R.O., Phoenix) read -0.85 to +0.30 frame, no later than 60 fps
# runs of the same games. Session 22 (issue 13): Frogger and Phoenix at 48 and 50 fps were
# suggested 0.77-1.07 frames late; the same seeds at 60 fps 0.43-0.60 game frames.
# Only the suggestion moves, like a kind's head start (`kinds.ahead_s`): the reactions and
# findings stay measured at the offset the fit found (`offset_used_s`).
CAPTURE_PERIOD = 60       # the longest common period (game frames) read as one
CAPTURE_MIN_PHASES = 3    # fewer phases (60, 30, 120 fps): no mean delay (see above)


def capture_lag_s(fps: float, hz: float = CLOCK_HZ) -> float:
    """The mean delay from a game frame to the first video frame that shows it, for a
    capture at `fps` that samples a game drawing at `hz` (see above); 0 where the capture
    shows each game frame at its own time or the phases are too few to average."""
    if fps <= 0 or hz <= 0 or fps >= hz:
        return 0.0
    r = Fraction(fps / hz).limit_denominator(CAPTURE_PERIOD)
    if abs(float(r) - fps / hz) >= 1e-9:
        return 0.5 / fps
    q = r.denominator
    return 0.0 if q < CAPTURE_MIN_PHASES else (q - 1) / (2 * q) / fps


# The frame period (`signals.frame_period`: the shortest common interval) is the capture's only
# when the frames are taken on its grid. A recorder that skips repeated pictures (variable
# frame rate) stamps each frame it keeps at the time its clock took it; a still game drawn every
# 4th of its frames leaves no interval shorter than 4 clock ticks, and the period read is the
# game's drawing (15 fps), not the capture's (60). The wide set's video_cube-genuine@vfr
# (session 32; intervals 4 and 8 ticks of 60 Hz, one of 6): a capture lag of 15 fps (0.025 s)
# was taken back from a suggestion whose reactions were dated on the 60 Hz clock, 1.18 frames
# early at 0.608. A frame off the period's grid shows it: the capture's rate is then the
# coarsest multiple of the period (up to CADENCE_MAX) whose grid holds every frame's time,
# within STAMP_TOL of its step (ms-rounded stamps of a 24-60 fps file stay within 0.03).
STAMP_TOL = 0.15


def stamp_fps(sig: FrameSignals) -> float:
    """The rate the frames were taken at: `sig.fps`, or a multiple of it when a frame's time
    lies off the period's grid and on the multiple's (see STAMP_TOL); `sig.fps` when no
    multiple up to CADENCE_MAX holds every time (a jittery clock: no finer grid is shown)."""
    fps = float(sig.fps)
    t = np.asarray(sig.times, float)
    if fps <= 0 or len(t) < 2:
        return fps
    t = t - t[0]
    for k in range(1, CADENCE_MAX + 1):
        x = t * fps * k
        if float(np.max(np.abs(x - np.rint(x)))) <= STAMP_TOL:
            return fps * k
    return fps


def captured(a: SyncAnalysis, sig: FrameSignals) -> SyncAnalysis:
    """`a` with its suggestion taken back by the capture's mean delay (`capture_lag_s`, at
    the rate the frames were taken: `stamp_fps`); `offset_used_s`, where its reactions and
    findings were measured, unchanged."""
    if a.suggested_offset_s is None:
        return a
    lag = capture_lag_s(stamp_fps(sig))
    if not lag:
        return a
    used = a.suggested_offset_s if a.offset_used_s is None else a.offset_used_s
    return replace(a, suggested_offset_s=round(a.suggested_offset_s - lag, 4),
                   offset_used_s=used)
