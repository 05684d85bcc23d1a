"""A scan's held picture that hides no button press of the log (issues 12/13, session 34).

The scan's `video.frozen` is a finding without the log (core/video/scan_holds.py). Beside a
log read at an offset, a held picture hides nothing the run did when (`hides_no_press`):

- it is the **opening**: held from before the log's first button press and resumed before
  that press is due (the recorder's lead-in, the game's title), or at the picture's answer
  to it at the run's own delay (a game standing still until its first button);
- it **ends at the picture's answer to a button press** at the run's own delay, and one or
  more buttons were pressed under it before that one, every one answered, at that delay, by
  the sync's finer picture (`reactions`): a picture that moves in changes the scan's
  same-picture share counts as none (QA s33's Superman). A hold inside the run with no
  button pressed under it (only NOOPs) is not taken here: to the log it is exactly an edited
  freeze under NOOPs (review R14), and only the picture's change where it resumes tells them
  apart (wait_lag.py's unpressed rule).

`core/sync/run.py` `wait_note` then says it as a note. Why a rule of its own: the game-wait
rules (core/sync/waits.py) take a hold ended by a button when a press of another button was
held (ignored) inside it, or when other holds agree on the game's button and lag; a hold with
no button pressed under it has nothing to learn the button from, and the opening's ends at
the log's very first press. Footage frozen by an edit does not change, so the sync's picture
answers no press under it, and the buttons pressed there go unanswered: it keeps its warning
(a freeze under NOOPs only, inside the run, keeps it too: review R14).

The same reading of NOOPs for the sync's own findings (`without_noop_misses`, asked by
`analysis.analyze`): "N actions in a row with no visible reaction" whose unanswered actions
are all NOOPs is dropped (QA s33 T4).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from moderator_app.core.sync import stats
from moderator_app.core.sync.freeze import no_button
from moderator_app.core.sync.missed import NO_VISIBLE
from moderator_app.core.sync.records import SyncAnalysis

MISSED_RULE = "sync.no_reaction"
# The scan's held picture ends this far from the picture's answer to the first press: the
# sync's first changed frame this much after it or before it (run.py's WAIT_MATCH_S and
# WAIT_MATCH_LATE_S: the scan's same-picture share can take a small first reaction frame
# for the held picture) ...
MATCH_EARLY_S = 0.1
MATCH_LATE_S = 0.25
# ... and the first press's delay lies this far from the median delay of the run's other
# confident reactions (run.py's ANSWERED_CONFIDENCE): the game's answer, not a cut landing
# where the press happened to be due.
LAG_MATCH_S = 0.1
# A hold inside the run under which the log is silent this long (from its first frame to its
# ending press) is a pause, not a game standing still under the agent's presses: the log and
# the picture held together (the corpus' Breakout pauses, 10-31 s with no entry, resumed at
# the next press's answer, keep their warnings). The scan's own freeze length
# (`Thresholds.freeze_s`).
PAUSE_GAP_S = 3.0
CONFIDENT = 0.7


def hides_no_press(start_s: float, end_s: float, a: SyncAnalysis) -> str | None:
    """Why the scan's held picture `start_s`..`end_s` (video seconds) hides no press of the
    log at the offset `a` used, or None. Two ways:

    - the opening: held from before the log's first button press is due and resumed
      before it (the lead-in and the game's title: nothing of the run under it);
    - ended by the picture's answer to a button press, at the run's own delay (the median
      of its confident answers outside the hold, `LAG_MATCH_S` either side), with one or
      more buttons pressed under it before that one, every one answered at that delay by the
      sync's finer picture: a game answering in changes the scan's share counts as the same
      picture. (Inside the run, no button under it is no evidence: review R14.) Footage frozen by an edit answers no press inside it (its
      picture does not change) and hides the buttons pressed under it."""
    if a.offset_used_s is None or not a.reactions:
        return None
    order = sorted(a.reactions, key=lambda r: (r.run_s, r.index))
    names = list(a.kinds) if len(a.kinds) == len(order) else [""] * len(order)
    presses = [(r, k) for r, k in zip(order, names, strict=True) if not no_button(k)]
    if not presses:
        return None
    at = f"the offset {a.offset_used_s:.3f} s"
    first_due = float(presses[0][0].expected_video_s)
    if start_s < first_due and end_s <= first_due:
        return (f"held from before the log's first button press, due at video "
                f"{first_due:.2f} s at {at}, and resumed before it: no press of the "
                f"log under it")
    others = [float(r.delay_s) for r in a.reactions
              if r.delay_s is not None and r.confidence >= CONFIDENT
              and not start_s <= float(r.expected_video_s) <= end_s]
    if not others:
        return None
    usual = stats.median(np.asarray(others))

    def answered(r) -> bool:
        return r.video_s is not None and r.delay_s is not None and \
            abs(float(r.delay_s) - usual) <= LAG_MATCH_S

    # the presses whose answer falls inside the hold (the one into it is not under it)
    under = [r for r, _ in presses if start_s < float(r.expected_video_s) + usual
             <= end_s + MATCH_EARLY_S]
    if not under:
        return None
    last = under[-1]
    if not answered(last) or \
            not -MATCH_EARLY_S <= end_s - float(last.video_s) <= MATCH_LATE_S:  # type: ignore[arg-type]
        return None
    inside = under[:-1]
    if start_s >= first_due and not inside:
        # Inside the run, a hold with no button pressed under it is what an edited freeze
        # under NOOPs looks like to the log (review R14: 4 s frozen into Laser Gates and
        # Video Pinball under two NOOPs, resumed at the next button's answer, read as a
        # note). Only the picture can tell them apart: wait_lag.py's unpressed rule asks how
        # much the picture changes where it resumes (a game standing still resumes with its
        # small answer, edited footage with the whole stretch's change).
        return None
    if start_s >= first_due and _paused(start_s, float(last.expected_video_s), order):
        return None
    if not all(answered(r) and float(r.video_s) < end_s - MATCH_EARLY_S  # type: ignore[arg-type]
               for r in inside):
        return None
    shown = "".join(f", {float(r.video_s):.2f}" for r in inside)  # type: ignore[arg-type]
    what = ("held from before the log's first button press" if start_s < first_due else
            "no button pressed under it" if not inside else
            f"every button pressed under it answered (video{shown[1:]} s)")
    return (f"{what}, to the picture's answer at {float(last.video_s):.2f} s to the press "  # type: ignore[arg-type]
            f"due at {float(last.expected_video_s):.2f} s at {at} ({float(last.delay_s):+.2f} "  # type: ignore[arg-type]
            f"s, the run's other answers {usual:+.2f} s): a game standing still until it "
            f"is given a button, not frozen footage")


def _paused(start_s: float, due_s: float, order) -> bool:
    """Is the log silent (no action of any kind due) for `PAUSE_GAP_S` or more somewhere
    from video `start_s` to the ending press, due at `due_s`?"""
    due = [float(r.expected_video_s) for r in order if start_s <= float(r.expected_video_s) < due_s]
    edges = [start_s, *due, due_s]
    return max(b - a for a, b in zip(edges, edges[1:], strict=False)) >= PAUSE_GAP_S


def without_noop_misses(a: SyncAnalysis) -> SyncAnalysis:
    """`a` without its "N actions in a row with no visible reaction" findings whose
    unanswered actions (those from its run start to its run end the reactions found no
    answer for) are all presses of no button (`freeze.no_button`). Why: a NOOP asks the
    game for nothing, so a run of NOOPs without an answer is no evidence of a held
    picture (QA s33 T4: et-freeze's genuine hold 15.79-22.23 s under three NOOPs said "3
    actions in a row with no visible reaction"); a frozen picture over the log's buttons
    keeps its finding, and the scan's `video.frozen` keeps saying the held picture itself."""
    if not a.kinds or len(a.kinds) != len(a.reactions) or not any(
            f.rule == MISSED_RULE for f in a.findings):
        return a
    order = sorted(a.reactions, key=lambda r: (r.run_s, r.index))
    pairs = list(zip(order, a.kinds, strict=True))
    keep = []
    for f in a.findings:
        if f.rule == MISSED_RULE and NO_VISIBLE in f.message and \
                f.run_start_s is not None and f.run_end_s is not None:
            missed = [k for r, k in pairs if r.missed  # the rule's miss (`Reaction.missed`)
                      and f.run_start_s - 1e-6 <= r.run_s <= f.run_end_s + 1e-6]
            if missed and all(no_button(k) for k in missed):
                continue
        keep.append(f)
    return a if len(keep) == len(a.findings) else replace(a, findings=keep)
