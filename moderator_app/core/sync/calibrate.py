"""What a confidence of 0.5 or more promises at a fast capture: the suggestion within one video
frame of run_start (issue 13). Measured, not assumed (session 33, `scripts/calib_s33.py`).

Why: the confidence (`fit.confidence`, then its bounds) measures how clearly the reactions
single out one offset, not how close the offset lies to the truth. Over the 252 genuine runs
of the wide set, corpus v2 and QA s30-s32 at the start of session 33, a suggestion at 0.5 or
more was within a frame on 51 of 51 runs under 40 fps, and on 55 of 61 at 40 fps and faster:
Adventure +1.69 frames at 0.816 (60 fps), Dark Chambers +1.56 at 0.941 (48 fps), Freeway
-1.07 at 0.774 (60 fps), Tetris -3.58 at 0.724 (48 fps), Private Eye +21.3 at 0.741 (40 fps)
and +32.3 at 0.954 (60 fps). A frame of a fast capture is shorter than 1.5 game frames, and
the fit dates run_start by a latency prior (`fit.INPUT_LATENCY_S`, 0.75 of a 60 Hz frame), so
where the reactions do not pin the game's answer to a frame the prior's error is more than
the frame promised. Two kinds of evidence
did not pin it on five of those six runs, and on six of the 55 fast runs within a frame:
- the first answers spread over SPREAD_FRAMES video frames or more (`precede.spread_s`, the
  middle 80 % less chance's changes): the game answers a press over several of its frames,
  so which of them the prior dates is not known to a frame (Adventure 1.66, Dark Chambers
  2.10; within a frame: Miniature Golf 1.77, Enduro 3.7, Pong 2.96 of corpus v2);
- fewer than SHARE_MIN of the actions the offset is to explain support it (`stretch_share`:
  its first stretch's, less those a finding explains): a minority
  of the presses date run_start, and a later change they share can carry the fit (Private
  Eye 8 of 25, 0.53 s late; Freeway 8 of 24; Tetris 9 of 25; within a frame: Frogger 7 of 23
  of corpus v2, Montezuma's Revenge 36 %, Video Chess 27 %).
- the offset is a spliced run's stretch's (the track splits the run: two stretches or more)
  and fewer than SPLIT_MIN_SUPPORT reactions support it (session 37, QA s36 T2): s33's
  measure was of whole runs, where a game's quick answers among many presses bound the
  prior (`precede.behind_s`); a stretch's few presses may all be slow ones. Adventure cut 4 s
  at 56 fps: the 5 presses measured before the cut answer 2.6-4 frames after their press
  (the game answers 1-4, the prior dates 0.75), the suggestion 1.88 frames late at 0.652 on
  7 supporting reactions; the genuine run of the same capture, 14, dated within a frame by
  its quick answers. Over the three sets (corpus v2, QA s28-s36, the wide set) two fast
  spliced runs' suggestions at 0.5 or more rest on fewer (Adventure's and QA s32's Battle
  Zone insertion, 6, 0.61 frame); those on 10-13 are within a frame (Boxing's cut and
  insertion, Breakout's and Pong's insertions, corpus v2).
- a whole run's offset (the track does not split it) rests on fewer than WHOLE_MIN_SUPPORT
  reactions: 10 or fewer, the support at which `fit.confidence` stops growing (session 39,
  QA s38 T3). QA s38's lantern draws a press 1-4 of its 60 Hz frames after it reads it (the
  truth's median 2.48 video frames at 46 fps); its quick answers (a palette step on a panning
  picture, a HUD bar) go unread, the 9-10 read are the slower ones (their median 3.24 frames
  after the truth), and the suggestion was 2.2 frames late at 0.657-0.797 (deleted, freezeend,
  freezeenddots). Over corpus v2, QA s28-s38 and the wide set's fast confident rows, whole
  runs' suggestions at 0.5 or more on 9-10 reactions were 3 lantern runs and QA s33's Word
  Zapper (12.4 frames late at 0.678) wrong, Kaboom (wide), Frostbite genuine2 (corpus v2) and
  E.T.'s freeze (QA s33) within a frame; on 11 or more, one wrong (Private Eye's constant lag).
  No spread, share or chance measure told the lantern from the runs within a frame
  (scripts/latency_bias_s39.py, session 39's DECISIONS).
Then (`calibrated`) the confidence is at most CALIBRATED_BOUND, under the one-click bar
(`records.APPLY_MIN_CONFIDENCE`), and `confidence_note` says why. The offset, the reactions
and the findings do not change: the suggestion is still shown, and `--offset auto` says what
it found at it as for any suggestion under the bar. Under 40 fps (a video frame of 1.5 game
frames or more) the prior's error stayed inside the frame and nothing is bounded.
After it: 49 of 50 at 40 fps and faster (Private Eye's other run, 12 of 27 actions, stays:
44 %); no suggestion is withdrawn, so no run gains "not enough signal".
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from . import precede, reactions
from .records import APPLY_MIN_CONFIDENCE, SyncAnalysis
from .signals import FrameSignals

FAST_FPS = 40.0             # a video frame shorter than 1.5 game frames of a 60 Hz game
SPREAD_FRAMES = 1.5         # the first answers' middle 80 % over this many video frames
SHARE_MIN = 0.4             # of the first stretch's actions supporting the offset
CALIBRATED_BOUND = 0.45     # under the one-click bar
SPLIT_MIN_SUPPORT = 10      # a spliced run's stretch: fit.confidence's full support
WHOLE_MIN_SUPPORT = 11      # a whole run: more than the support fit.confidence saturates at


def stretch_share(a: SyncAnalysis) -> float:
    """The share of the actions that support the offset (`supporting_actions`) among the
    actions it is to explain: those of its first stretch (all, unless the track splits the
    run: `analysis._first_stretch` then counts that stretch's support alone), before a
    `sync.offset_jump` and outside a `sync.no_reaction` stretch. Why: a cut or retake leaves
    the presses after it unanswered at the first offset, and the finding says so (corpus v2's
    Breakout cut, cut long and retake and Boxing's long cut: 11 of 30 actions, 37 %, their
    offsets within 0.53 frame; 11 of 14-19 before the finding)."""
    lo, hi = -math.inf, math.inf
    if len(a.segments) >= 2:
        lo, hi = a.segments[0][0], a.segments[0][1]
    for f in a.findings:
        if f.rule == "sync.offset_jump" and f.run_start_s is not None and f.run_start_s > lo:
            hi = min(hi, f.run_start_s)
    held = [(f.run_start_s, f.run_end_s) for f in a.findings if f.rule == "sync.no_reaction"
            and f.run_start_s is not None and f.run_end_s is not None]
    n = sum(1 for r in a.reactions if lo - 1e-9 <= r.run_s <= hi + 1e-9 and
            not any(g0 - 1e-9 <= r.run_s <= g1 + 1e-9 for g0, g1 in held))
    if not a.reactions:
        n = a.actions
    return min(a.supporting_actions, n) / n if n else 1.0


def why(a: SyncAnalysis, run_s, sig: FrameSignals, th) -> str:
    """Why a fast capture's suggestion cannot be promised to a frame ("" when it can)."""
    fps = float(sig.fps)
    if a.suggested_offset_s is None or fps < FAST_FPS or \
            a.confidence < APPLY_MIN_CONFIDENCE:
        return ""
    share = stretch_share(a)
    if share < SHARE_MIN:
        return (f"{share:.0%} of the actions of the offset's stretch answer at it (under "
                f"{SHARE_MIN:.0%}): at {fps:.4g} fps a minority of the presses cannot date "
                "run_start to a frame (a later change they share may carry it)")
    if len(a.segments) >= 2 and a.supporting_actions < SPLIT_MIN_SUPPORT:
        return (f"the offset rests on {a.supporting_actions} reactions of one stretch of a "
                f"spliced run (under {SPLIT_MIN_SUPPORT}): at {fps:.4g} fps so few cannot "
                "date run_start to a frame (the game's latency read on them alone)")
    if len(a.segments) < 2 and a.supporting_actions < WHOLE_MIN_SUPPORT:
        return (f"the offset rests on {a.supporting_actions} reactions (under "
                f"{WHOLE_MIN_SUPPORT}): at {fps:.4g} fps so few may all be the game's slower "
                "answers, and its latency, which the prior dates, is not known to a frame")
    run = np.sort(np.asarray(run_s, float))
    spread = precede.spread_s(run, sig, reactions.novelty(sig), float(a.suggested_offset_s),
                              a.speed, th) * fps
    if spread >= SPREAD_FRAMES:
        return (f"the game's first answers to a press spread over {spread:.2g} video frames "
                f"at {fps:.4g} fps: which of them the latency prior dates is not known to a "
                "frame")
    return ""


def calibrated(a: SyncAnalysis, run_s, sig: FrameSignals, th) -> SyncAnalysis:
    """`a` with its confidence at most CALIBRATED_BOUND and the reason in `confidence_note`
    when a fast capture's evidence cannot place run_start within a video frame (`why`)."""
    reason = why(a, run_s, sig, th)
    if not reason:
        return a
    return replace(a, confidence=min(a.confidence, CALIBRATED_BOUND),
                   confidence_note=reason)
