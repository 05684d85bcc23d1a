"""A frozen picture under the log's actions, found without trusting a fitted offset.

A frozen stretch (frames held while the log goes on pressing) was found only where the fit
explains the run: as a run of actions without reactions at the suggested offset. On games
where the whole picture singles out no offset (held-out Frostbite, Skiing, River Raid, Ms.
Pac-Man, Freeway, Space Invaders, Seaquest, Enduro, Asteroids) every freeze was silent, yet a
held picture needs no offset to be seen: not one point of the picture changes for seconds,
and the log presses during it at *every* offset at which the video covers the run.

The test (`frozen_findings`), per still stretch of the whole picture:
- it lies inside the footage (the picture moves before and after it: a game's own lead-in
  and its game-over screen stand still at the ends, Breakout's lost ball for 6 s);
- it lasts `Thresholds.sync_freeze_s` (3 s, the scan's `video.frozen` default);
- it holds `sync_freeze_actions` (2) actions at every offset considered: the suggested (or
  the moderator's) offset when there is one, else every offset at which the video covers
  the run from run_start to run_end (0 to video length - run length; none when the video is
  shorter than the run: a cut or a speed-up there is coverage's to say);
- it lasts `reactions.FROZEN_RATIO` times the longest other still stretch that holds an
  action at one of those offsets (a game that stands still under input on its own does so
  elsewhere too: Frostbite's shore, 2.03 s).
- it ends with a jump, not with the game moving again (`core/video/resume.py`: Kung-Fu
  Master's floor held empty after Thomas dies, resuming as he walks in).
- at the offset used, with the log's kinds of input, it does not end where a game waiting
  for a button ends (`waits_for`): within `Thresholds.sync_wait_reaction_s` of a press of a
  kind none of the presses it held had, with a first changed frame no larger than the
  picture's usual change (`WAIT_RESUME_RATIO`). Kaboom! holds its picture after a bucket is lost
  until FIRE is pressed (session 25, a genuine run: held 13.47-19.83 s under three RIGHTs,
  resumed 0.037 s after the FIRE); footage frozen by an edit resumes where the cut lands, at
  no press of its own (River Raid's freeze resumes 0.010 s after a press, but a RIGHT like
  one it held).
A keyframe inside a held picture re-quantises it (Ms. Pac-Man: 5 changed points on two
frames every 2 s), so still stretches joined by at most `NOISE_FRAMES` frames of at most
`NOISE_POINTS` changed points are one, unless such changes fill `LIVING_SHARE` of the
frames: a timer that keeps ticking on a still screen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from moderator_app.core.video.resume import resumes_gradually

from .kinds import in_order
from .reactions import FROZEN_RATIO
from .records import CHANCE_WORDS, SyncAnalysis, SyncFinding
from .signals import FrameSignals

RULE = "sync.no_reaction"
NOISE_POINTS = 8   # of the 256x128 sample points: a keyframe's re-quantised still picture
NOISE_FRAMES = 2
# A finding from the reactions is dated from its held picture's first frame when it starts
# more than this after it. The freeze began between the two (frames after it are held; the
# reactions stop at its first action or later), so within this of each other the reactions'
# date is as close as the picture's, which a game's own stillness just before can pull early
# (Pitfall's freeze: held from 15.30 s, made at 15.83, first unanswered action 16.12).
LATE_S = 1.0
# A still stretch joined across small changes (above) that fill this share of its frames is a
# screen that lives, not a held picture the codec recodes now and then: its joins are undone.
# Kung-Fu Master while Thomas is held (QA s16 J3): its timer and energy bar move 2-5 points on
# 62 of 143 frames (43 %) for 5.7 s, a false `sync.no_reaction` on a genuine run; a keyframe
# recodes a held picture on 2 frames every 2 s (Ms. Pac-Man: 3 % at 30 fps).
LIVING_SHARE = 0.2
# A game's wait ends with the game's next frame, no larger than its usual change (the median
# of its changed frames in the 2 s after: `resume.resumes_gradually` on one frame); footage
# frozen by an edit resumes with seconds of the game's motion in one frame. Session 25: the
# waits Kaboom!/Chopper Command's own runs clear, 0.05-0.6 of the usual change; the corpus'
# inserted freezes, 2.4 (Ms. Pac-Man, which resumes 0.12 s after a press of a new kind) to 243.
WAIT_RESUME_RATIO = 1.0
# When the offset is not known to the frame (none suggested: every offset the video covers
# the run at; or the moderator's, WAIT_REACH_S either side of it), the press that ends the
# wait may be expected at any of those offsets, and some press of a new kind almost always
# is: the first changed frame must then be clearly smaller than the usual change. Session 26:
# Kaboom!'s genuine wait 0.15 (warned at auto and 0.3-1.0 s off the truth); the corpus
# freezes this module reports at every offset resume at 1.07 (Space Invaders), 1.68 (Ms.
# Pac-Man), 18.0 (River Raid), 40.9 (Frostbite) and 93.0 (Skiing) times it.
WAIT_FAR_RATIO = 0.5
# ... unless the press that ends it is a button (not NOOP) none of the held presses named:
# then a first changed frame under the one-offset rule's WAIT_RESUME_RATIO will do. Human
# Cannonball's opening hold (QA s26 T4: the lead-in and the wait for FIRE, 0.08-8.28 s
# under NOOP/UP/DOWN) resumes at 0.72 of the usual change, warned at auto and at 2.5 s;
# the corpus freezes resume at >= 1.07 (above) and River Raid's at a RIGHT it held.
WAIT_BUTTON_RATIO = WAIT_RESUME_RATIO
# The press that ends a wait is expected up to this many frames after the first changed
# frame: the offset the analysis uses is its fit's, a frame off the truth at times (Human
# Cannonball s2685: 2.7405 s used for the truth 2.7, its FIRE expected 0.0015 s past one
# frame after the opening hold's end; the game moves in the frame after the press).
WAIT_LATE_FRAMES = 2
WAIT_REACH_S = 1.0  # a moderator's offset is rarely exact (band_jump's NEAR_S)
# A held picture the game's wait explains (`waits.game_waits`) lasts at least this (a scan's
# `video.frozen` lasts its freeze_s, 3 s; the sync's picture, finer than the scan's, can see a
# small change inside it and split it: Human Cannonball's 19.04-25.52 s at 21.88 s).
WAIT_HELD_S = 1.0
OFFSET_STEPS_MAX = 20_000  # offsets tried when none is known (a frame apart; 5.5 min at 60 fps)


def still_spans(sig: FrameSignals) -> np.ndarray:
    """(m, 2) first and last frame of each stretch where the whole picture stands still,
    a keyframe's re-quantisation inside it forgiven (see the module's docstring)."""
    c = np.asarray(sig.picture_change)
    if not len(c):
        return np.zeros((0, 2), int)
    d = np.diff(np.r_[0, (c == 0).astype(np.int8), 0])
    a, b = np.nonzero(d == 1)[0], np.nonzero(d == -1)[0] - 1
    if not len(a):  # not one still frame (every frame changes: noise, a busy game)
        return np.zeros((0, 2), int)
    # the changed frames between stretch i and i+1 are b[i]+1 .. a[i+1]-1
    gap = a[1:] - b[:-1] - 1
    quiet = gap <= NOISE_FRAMES
    for k in range(1, NOISE_FRAMES + 1):
        at = np.minimum(b[:-1] + k, len(c) - 1)
        quiet &= (gap < k) | (c[at] <= NOISE_POINTS)
    keep = np.r_[True, ~quiet]  # a stretch joined to the one before starts no new one
    starts = np.nonzero(keep)[0]
    ends = np.r_[starts[1:] - 1, len(a) - 1]
    # a joined stretch whose small changes come again and again lives: its joins undone
    held = (b[ends] - a[starts] + 1).astype(float)
    still = np.add.reduceat(b - a + 1, starts).astype(float)
    living = (held - still) >= LIVING_SHARE * held
    if not living.any():
        return np.c_[a[starts], b[ends]]
    out = [np.c_[a[i:j + 1], b[i:j + 1]] if live else np.array([[a[i], b[j]]])
           for i, j, live in zip(starts.tolist(), ends.tolist(), living.tolist(), strict=True)]
    return np.vstack(out)


def covering_offsets(a: SyncAnalysis, sig: FrameSignals, e: np.ndarray,
             run_duration_s: float | None) -> np.ndarray:
    """The offsets the test must hold at: the one the analysis uses, else every offset (a
    frame apart) at which the video covers the run; empty when it covers it at none."""
    if a.offset_used_s is not None:
        return np.array([float(a.offset_used_s)])
    run = max(float(e[-1]), float(run_duration_s or 0.0))
    video = float(sig.times[-1] - sig.times[0]) + 1.0 / max(sig.fps, 1e-6)
    room = video - run
    if not math.isfinite(room) or room < 0:
        return np.zeros(0)
    step = max(1.0 / max(sig.fps, 1e-6), room / OFFSET_STEPS_MAX)
    return np.arange(0.0, room + 1e-9, step)


def _run_time(v: float, offset: float, speed: float) -> float:
    """The run time shown at video time `v` at this offset and speed, not before run_start:
    a finding's run span names the stretch its video span does. A held picture's finding
    named the picture on the video's clock but its first and last actions on the run's, and
    a widened one kept its first unanswered action's (QA s14 G3, Montezuma's freeze at
    offset 1.7: video 15.75-19.75 s, run 15.446-17.446 s, i.e. video 17.146-19.146 s: two
    stretches)."""
    return round(max(0.0, (v - offset) * (speed if speed > 0 else 1.0)), 3)


def waits_for(x: np.ndarray, kinds: list[str], f0: float, f1: float, fps: float,
              within_s: float, button: bool = False) -> bool:
    """Does a picture held from video time f0 that resumes at f1 end as a game waiting for a
    button does: a press expected (`x`, video times in order, `kinds` beside them) from
    `within_s` before f1 to `WAIT_LATE_FRAMES` frames after it, whose kind none of the
    presses from f0 to it had (at least one)? Why: a game that waits for one button ignores the others, and the
    first press of that button is what moves it again; the picture resumes at that press's
    reaction (the game's delay: 99 % of genuine presses show within 0.153 s). Footage frozen
    by an edit resumes where the edit lands, whatever was pressed. `button`: the ending
    press must also be a button (not NOOP: `no_button`)."""
    return ending_press(x, kinds, f0, f1, fps, within_s, button, WAIT_LATE_FRAMES) is not None


def ending_press(x: np.ndarray, kinds: list[str], f0: float, f1: float, fps: float,
                  within_s: float, button: bool, late_frames: int) -> int | None:
    """The press `waits_for` looks for (expected from `within_s` before f1 to `late_frames`
    frames after it, of a kind none of the presses from f0 to it had, at least one; a button
    when `button`), or None."""
    lo = int(np.searchsorted(x, f1 - within_s - 1e-9))
    hi = int(np.searchsorted(x, f1 + late_frames / max(fps, 1e-6) + 1e-9))
    start = int(np.searchsorted(x, f0 - 1e-9))
    for c in range(max(lo, start + 1), hi):
        held = set(kinds[start:c])
        if held and kinds[c] not in held and not (button and no_button(kinds[c])):
            return c
    return None


def waits_near(x: np.ndarray, kinds: list[str], f0: float, f1: float, fps: float,
               within_s: float, lo: float, hi: float, button: bool = False) -> bool:
    """`waits_for` at some offset from `lo` to `hi` (`x`: the presses' run times over the
    speed): for each press that can be expected in the window before f1 at one of them, at
    the earliest such offset (the fewest presses held before it, so a kind it did not hold
    is likeliest there: a later offset holds more)."""
    frame = 1.0 / max(fps, 1e-6)
    a = int(np.searchsorted(x, f1 - within_s - hi - 1e-9))
    b = int(np.searchsorted(x, f1 + frame - lo + 1e-9))
    return any(waits_for(x + o, kinds, f0, f1, fps, within_s, button)
               for o in {max(lo, f1 - within_s - float(x[c])) for c in range(a, b)})


def frozen_findings(a: SyncAnalysis, run_s, sig: FrameSignals, th,
                    run_duration_s: float | None = None,
                    widened: dict[int, SyncFinding] | None = None,
                    input_kinds=None, explained: set[int] | None = None,
                    holds: Sequence[tuple[float, float]] = ()) -> list[SyncFinding]:
    """`sync.no_reaction` findings for the held pictures the analysis `a` does not already
    report (see the module's docstring). A finding of `a` from the reactions whose first
    unanswered action lies inside such a held picture that starts earlier starts where the
    picture stops changing: put in `widened` (by its index in `a.findings`) when given.
    Why: the reactions can date a freeze no earlier than its first action, which may come
    seconds after the picture froze (Demon Attack, session 11's held-out set: frozen from
    13.85 s, first action in it at 15.66 s, the finding 1.8 s late), while the picture dates
    it to the frame. `input_kinds`: beside `run_s`, each input's kind (a press's button),
    or None: a held picture ending as a game's wait for a button is then not told apart
    (`waits_for`). `explained`, when given, gets the indices of `a`'s findings from the
    reactions that lie inside a held picture ending as such a wait: a still picture answers
    no press, and the game ignores them while it waits (Human Cannonball's opening hold at
    2.82 s: 2 unanswered presses inside 0.08-8.28 s, QA s26 T4). `holds`: held pictures
    (video times, first held frame to first changed frame) known to be the game's waits
    by the lag several of them end at (`wait_lag.lag_waits`): treated as such a wait."""
    e, kinds = in_order(run_s, input_kinds)
    if len(e) < th.sync_freeze_actions or len(sig) < 3:
        return []
    spans = still_spans(sig)
    opening = opening_wait(a, sig, spans, e, kinds, th) if kinds is not None else None
    if opening is not None and explained is not None:
        explained.update(_inside(a, sig, opening.start_s, opening.end_s))
    if explained is not None:  # the presses the game ignored while it waited (`holds`)
        for h0, h1 in holds:
            explained.update(_inside(a, sig, h0, h1))
    spans = spans[(spans[:, 0] > 0) & (spans[:, 1] < len(sig) - 1)] if len(spans) else spans
    if not len(spans):
        return []
    fps = max(sig.fps, 1e-6)
    length = (spans[:, 1] - spans[:, 0] + 1) / fps
    offs = covering_offsets(a, sig, e, run_duration_s)
    if not len(offs) or not (length >= th.sync_freeze_s).any():
        return []
    t = np.asarray(sig.times, float)
    v0, v1 = t[spans[:, 0]], t[spans[:, 1]] + 1.0 / fps
    speed = a.speed if a.offset_used_s is not None and a.speed > 0 else 1.0
    x = e / speed
    # an action inside a stretch at some offset: x in [v0 - last offset, v1 - first offset)
    held = np.searchsorted(x, v1 - offs[0] - 1e-9) > np.searchsorted(x, v0 - offs[-1] - 1e-9)
    out = []
    for i in np.nonzero(length >= th.sync_freeze_s)[0]:
        # actions inside at each offset (a few long stretches: offsets x one, by search)
        lo = np.searchsorted(x, v0[i] - offs - 1e-9)
        hi = np.searchsorted(x, v1[i] - offs - 1e-9)
        inside = hi - lo
        least, most = int(inside.min()), int(inside.max())
        if least < th.sync_freeze_actions:
            continue
        other = held.copy()
        other[i] = False
        longest = float(length[other].max()) if other.any() else 0.0
        if length[i] < FROZEN_RATIO * longest:
            continue
        if resumes_gradually(sig.picture_change, int(spans[i, 1]), fps):
            continue  # the game moving again, not footage resumed elsewhere (resume.py)
        f0, f1 = float(v0[i]), float(v1[i])
        one = len(offs) == 1
        waits = kinds is not None and (
            (one and _waits_here(sig, int(spans[i, 1]), fps, x + float(offs[0]), kinds, f0,
                                 f1, th.sync_wait_reaction_s))
            or (not (one and a.suggested_offset_s is not None) and _waits_far(
                sig, int(spans[i, 1]), fps, x, kinds, f0, f1, th.sync_wait_reaction_s,
                float(offs[0]) - (WAIT_REACH_S if one else 0.0),
                float(offs[-1]) + (WAIT_REACH_S if one else 0.0)))
            or (one and opening is not None and _same_wait(opening, x, kinds, f0, f1, fps))
            or _known(holds, f0, f1, fps))
        said = [j for j, g in enumerate(a.findings)
                if g.rule == RULE and g.video_start_s is not None
                and g.video_start_s - 1.0 <= f1
                and f0 - 1.0 <= (g.video_end_s if g.video_end_s is not None
                                 else g.video_start_s)]
        if said and not waits and explained is not None:
            # a stretch "at chance" that holds the held picture and answers above chance
            # once its actions there are set aside: the held picture's finding, at its edges
            cut = [j for j in said if _held_explains(a, a.findings[j], f0, f1)]
            explained.update(cut)
            said = [j for j in said if j not in cut]
        if said:  # already said, from the reactions: from the picture's first held frame
            for j in said:
                g = a.findings[j]
                s0 = g.video_start_s  # not None: `said` holds only findings with a start
                if waits and explained is not None and s0 is not None and \
                        f0 - 1.0 / fps <= s0 and (g.video_end_s or s0) <= f1 + 1.0 / fps:
                    explained.add(j)  # presses inside the game's wait: nothing could answer
                    continue
                if widened is not None and s0 is not None and f0 + LATE_S < s0 <= f1:
                    w0 = g.run_start_s if a.offset_used_s is None or g.run_start_s is None \
                        else _run_time(f0, float(a.offset_used_s), a.speed)
                    widened[j] = replace(
                        g, video_start_s=round(f0, 3), run_start_s=w0,
                        message=f"{g.message} (the picture is held from {f0:.2f} s, "
                        f"{s0 - f0:.1f} s before the first of them)")
            continue
        if waits:
            continue  # the game waiting for a button it was then given (at an offset near)
        r0 = r1 = None
        if one:  # the held picture on the run's clock (its actions lie inside)
            r0, r1 = _run_time(f0, float(offs[0]), speed), _run_time(f1, float(offs[0]), speed)
        where = "at the offset used" if one else \
            f"at every offset from {offs[0]:.2f} to {offs[-1]:.2f} s at which the video covers the run"
        count = f"{least}" if least == most else f"{least} to {most}"
        out.append(SyncFinding(
            RULE, f"the picture does not change for {length[i]:.1f} s while the log holds "
            f"{count} actions there ({where}; the longest other still stretch under an "
            f"action: {longest:.1f} s): a frozen or held picture",
            video_start_s=round(f0, 3), video_end_s=round(f1, 3), run_start_s=r0,
            run_end_s=r1, actions=least))
    return out


# A stretch found "at chance" (`local_findings.with_unexplained`) is cut to a held picture
# inside it when it reaches further than this past the picture's edges: within it, the
# picture's first held frame dates it (`LATE_S`, `widened`).
HELD_EDGE_S = 1.0


def _held_explains(a: SyncAnalysis, g: SyncFinding, f0: float, f1: float) -> bool:
    """Is the stretch `g`, said to be answered no more often than by chance, the held
    picture f0..f1's doing? It reaches more than HELD_EDGE_S past the picture's edges, and
    its actions expected outside the picture answer more often than their chance (the
    analysis' own answers in the player's tiles, `SyncAnalysis.answers`): the misses that
    made it a stretch are the held picture's, where nothing can answer, and its chance there
    is the held picture's stillness (no onset within `stretch.LOCAL_S` of its actions).
    Why: QA s29 T5, Robotank at 36 fps held 21.33-25.17 s: the run's first 16 actions, video
    5.20-28.04 s, were one `sync.no_reaction` (6 answered, 3.9 by chance) and the held
    picture, already "said", no finding of its own; outside it those actions answered 5
    times against 3.7 by chance. A stretch of another attempt answers at chance outside the
    picture as well, and stays as it was."""
    if g.rule != RULE or CHANCE_WORDS not in g.message or g.run_start_s is None or g.run_end_s is None or \
            g.video_start_s is None or len(a.answers) != len(a.reactions):
        return False
    end = g.video_end_s if g.video_end_s is not None else g.video_start_s
    if g.video_start_s >= f0 - HELD_EDGE_S and end <= f1 + HELD_EDGE_S:
        return False
    out = [i for i, r in enumerate(a.reactions)
           if g.run_start_s - 1e-6 <= r.run_s <= g.run_end_s + 1e-6
           and not f0 - 1e-6 <= r.expected_video_s < f1]
    if not out:
        return False
    hits = sum(1 for i in out if a.answers[i][0])
    return hits > sum(a.answers[i][1] for i in out)


def _known(holds: Sequence[tuple[float, float]], f0: float, f1: float, fps: float) -> bool:
    """Is the held picture f0..f1 one of `holds`: the same first frame, and an end no more
    than `NOISE_FRAMES` frames later (`wait_lag._settled` reads past a codec's last small
    changes)?"""
    frame = 1.0 / fps
    return any(abs(h0 - f0) < frame / 2 and -frame / 2 < h1 - f1 < (NOISE_FRAMES + 0.5) * frame
               for h0, h1 in holds)


def _waits_here(sig: FrameSignals, last: int, fps: float, x: np.ndarray, kinds: list[str],
                f0: float, f1: float, within_s: float) -> bool:
    """The one-offset rule (`x` at the offset used): `waits_for` and a first changed frame
    under `WAIT_RESUME_RATIO` of the usual change."""
    return waits_for(x, kinds, f0, f1, fps, within_s) and resumes_gradually(
        sig.picture_change, last, fps, ratio=WAIT_RESUME_RATIO, frames=1)


def _waits_far(sig: FrameSignals, last: int, fps: float, x: np.ndarray, kinds: list[str],
               f0: float, f1: float, within_s: float, lo: float, hi: float) -> bool:
    """`waits_near` from `lo` to `hi` for a held picture f0..f1 whose last held frame is
    `last`: resumed with a first changed frame under `WAIT_FAR_RATIO` of the usual change
    at a press of any new kind, or under `WAIT_RESUME_RATIO` (the one-offset rule's) at a
    press of a new *button* (`WAIT_BUTTON_RATIO`'s note)."""
    if not resumes_gradually(sig.picture_change, last, fps, ratio=WAIT_BUTTON_RATIO,
                             frames=1):
        return False
    far = resumes_gradually(sig.picture_change, last, fps, ratio=WAIT_FAR_RATIO, frames=1)
    return waits_near(x, kinds, f0, f1, fps, within_s, lo, hi, button=not far)


def no_button(kind: str) -> bool:
    """A press of no button (Atari's NOOP) is nothing a game can wait for: at a moderator's
    offset 2.7 s off, Human Cannonball's opening hold was said to end at a NOOP 0.5 s away."""
    return kind.rsplit("=", 1)[-1].strip().upper() in ("NOOP", "NONE", "")


# The opening hold (a still picture from before the log's first press, through the lead-in,
# to the game's start: the game not yet given any input) ends at the game's start; the
# reactions' `sync.no_reaction` could lie inside it: the presses a game waiting to
# be started ignores (QA s27, Donkey Kong: held 0.0-11.65 s under DOWN/UP/RIGHT/LEFT until
# FIRE, "4 actions in a row with no visible reaction" 3.59-9.87 s at auto and at the truth).
# It ends at the game's start, which redraws the screen (Donkey Kong: 557 points changed
# against a usual ~75): no first-frame ratio is asked of it, only the press (`waits_for`, a
# button none of its presses named). The press and its lag (first changed frame - press)
# are the game's button and reaction: a held picture later in the video that ends at a press
# of that button, new to it, at that lag (`OPENING_LAG_SLACK_FRAMES` either side) is the
# same wait, whatever its first frame (Donkey Kong after a lost life: 29.65-33.2 s under a
# DOWN, FIRE 0.02 s before its end, 362 points: the level redrawn). An inserted freeze
# resumes where the edit lands, not within a frame of that lag after that button.
OPENING_LAG_SLACK_FRAMES = 1


@dataclass(frozen=True)
class Opening:
    """The game's opening wait (`opening_wait`): what a later hold ending the same way is
    matched against (`same_press`)."""
    start_s: float              # video time of the first held frame
    end_s: float                # ... of the first changed frame (the game's start)
    offset_s: float             # the offset at which its ending press was found
    buttons: frozenset[str]     # the buttons of that press none of its ignored presses named
    lag_s: float                # first changed frame - the press, at that offset


def opening_wait(a: SyncAnalysis, sig: FrameSignals, spans: np.ndarray, e: np.ndarray,
                  kinds: list[str], th) -> Opening | None:
    """The opening hold (`Opening`; its buttons: those of its ending press none of its
    ignored presses named, `_parts`): the
    first still stretch held from before the log's first press (the recorder's lead-in can
    be a stretch of its own: a 10-point change at 2.0 s on an H.264 copy) that ends as a
    game's wait for a button at one offset (the one used; a moderator's: the nearest within
    `WAIT_REACH_S` at which it does, 0.02 s apart); else None."""
    if a.offset_used_s is None or not len(spans) or not len(e):
        return None
    fps = max(sig.fps, 1e-6)
    t = np.asarray(sig.times, float)
    speed = a.speed if a.speed > 0 else 1.0
    x = e / speed
    base = float(a.offset_used_s)
    reach = 0.0 if a.suggested_offset_s is not None else WAIT_REACH_S
    offsets = list(near_offsets(reach))
    for p, q in spans.tolist():
        f0, f1 = float(t[p]), float(t[q]) + 1.0 / fps
        if f0 >= float(x[0]) + base + reach:
            break  # held from after the first press: the game was already playing
        if q >= len(sig) - 1 or f1 - f0 < WAIT_HELD_S:
            continue
        for o in offsets:
            if f0 >= float(x[0]) + base + o:
                continue
            c = ending_press(x + base + o, kinds, f0, f1, fps, th.sync_wait_reaction_s,
                              True, WAIT_LATE_FRAMES)
            if c is not None:
                start = int(np.searchsorted(x + base + o, f0 - 1e-9))
                ignored = set().union(*(_parts(k) for k in kinds[start:c]))
                new = frozenset(_parts(kinds[c]) - ignored) or frozenset(_parts(kinds[c]))
                return Opening(f0, f1, base + o, new, f1 - float(x[c]) - base - o)
    return None


def near_offsets(reach: float):
    """0, then offsets out to `reach` either side, nearest first, 0.02 s apart."""
    yield 0.0
    for k in range(1, int(round(reach / 0.02)) + 1):
        yield k * 0.02
        yield -k * 0.02


def _parts(kind: str) -> set[str]:
    """The buttons a press names: Atari's combined actions (LEFTFIRE, UPRIGHTFIRE) are a
    direction and FIRE; any other name is one button. Why: a game waiting for FIRE is
    given it by LEFTFIRE as well (QA s27 donkey_kong-genuine2: started by FIRE, resumed after
    a lost life by LEFTFIRE at 32.57 s)."""
    name = kind.rsplit("=", 1)[-1].strip().upper()
    if name.endswith("FIRE") and len(name) > len("FIRE"):
        return {name[: -len("FIRE")], "FIRE"}
    return {name}


def _inside(a: SyncAnalysis, sig: FrameSignals, f0: float, f1: float) -> set[int]:
    """The indices of `a`'s `sync.no_reaction` findings (the reactions') wholly inside the
    held picture f0..f1 (a frame either side)."""
    frame = 1.0 / max(sig.fps, 1e-6)
    return {j for j, g in enumerate(a.findings)
            if g.rule == RULE and g.video_start_s is not None
            and f0 - frame <= g.video_start_s
            and (g.video_end_s if g.video_end_s is not None else g.video_start_s) <= f1 + frame}


def _same_wait(opening: Opening, x: np.ndarray,
               kinds: list[str], f0: float, f1: float, fps: float) -> bool:
    """Does the held picture f0..f1 end as the opening hold did (`same_press`)?"""
    return same_press(opening, x, kinds, f0, f1, fps) is not None


def same_press(opening: Opening, x: np.ndarray,
               kinds: list[str], f0: float, f1: float, fps: float) -> int | None:
    """The press that ends the held picture f0..f1 as the opening hold ended: naming one of
    its buttons that none of the presses from f0 to it named, at its lag, within
    `OPENING_LAG_SLACK_FRAMES` (`x`: the presses' times over the speed); or None.
    The opening's press may name several buttons new to it (DOWNFIRE: DOWN and FIRE), one
    of which started the game: a later hold that ignores one of them shows it was not that
    one, and ends at the other. Wide set (session 32), donkey_kong-genuine@letterbox:
    started by DOWNFIRE at 5.23 s (lag 0.02 s), held 20.28-33.83 s after a lost life under
    a DOWN, a DOWNRIGHT and others, resumed 0.013 s after an UPFIRE; asked for both DOWN and
    FIRE, it was `video.frozen` and `sync.no_reaction` at auto and at the truth."""
    o, button, lag = opening.offset_s, opening.buttons, opening.lag_s
    slack = OPENING_LAG_SLACK_FRAMES / fps
    v = x + o
    start = int(np.searchsorted(v, f0 - 1e-9))
    for c in range(int(np.searchsorted(v, f1 - lag - slack - 1e-9)),
                   int(np.searchsorted(v, f1 - lag + slack + 1e-9))):
        if c <= start:
            continue
        ignored = set().union(*(_parts(k) for k in kinds[start:c]))
        if (button - ignored) & _parts(kinds[c]):
            return c
    return None
