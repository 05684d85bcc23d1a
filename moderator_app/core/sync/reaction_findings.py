"""The findings that read the per-action reactions alone, at the offset(s) the analysis
measures them at: runs of actions without a reaction (`sync.no_reaction`) and screen activity
in long gaps without actions (`sync.activity_without_actions`).

Why apart from `local_findings`: they need no offset track, only the reactions and the
picture; `local_findings.measure_all` says them beside a suggestion, and
`reaction_findings` (below) for an offset given (`reading.analyze_at(fixed=True)`).
"""

from __future__ import annotations

import numpy as np

from . import reactions, stretch
from .fit import SUPPORT_AFTER_S, SUPPORT_BEFORE_S
from .records import SyncAnalysis, SyncFinding
from .signals import FrameSignals

REACTION_TAIL_S = 0.6       # after an action, changes may still be its doing
# A run of actions without a reaction is reported only when this many misses in a row would
# come by chance fewer than once in 20 runs, at the run's own miss rate (Enduro, held out:
# 8 of 21 presses show nothing within half a second; 4 in a row came at the end of a genuine
# run, a false `sync.no_reaction`). A frozen picture needs no such test.
NO_REACTION_CHANCE = 0.05
ACTIVITY_MERGE_S = 0.3      # input-like onsets closer than this are one input
# ... and a gap's input-like onset frames must be this many times as dense as in the run's
# idle time (more than REACTION_TAIL_S after an action): an idle player is hit or passed by
# the game's own motion. Measured: a genuine Boxing run idle 9 s (the other boxer lands
# punches) 3.28x at 4x4, was a false warning; the other genuine pauses at most 1.49x
# (Enduro's, 4x4); the 9 s deleted and human stretches found: 4.89x (Pitfall's deleted
# stretch, 8x8) and more. The issue's own example, 30 s of Breakout's log removed (kind
# `deletedlong`): 3.96x at 4x4 (20 separate onsets against 2.7 expected); 4.0 left it
# silent, 3.5 finds it and changes no other corpus run.
ACTIVITY_DENSITY = 3.5


def reaction_findings(out: SyncAnalysis, run_s, sig: FrameSignals, nov,
                      th) -> list[SyncFinding]:
    """The findings that read the per-action reactions alone (`sync.no_reaction`,
    `sync.activity_without_actions`), at the one offset `out` uses, for an analysis that
    suggests nothing and reads an offset given (`reading.analyze_at(fixed=True)`):
    `local_findings.measure_all` says them only beside a suggestion, whose track they share."""
    if out.offset_used_s is None:
        return []
    offs = np.full(len(run_s), float(out.offset_used_s))
    return no_reaction(out.reactions, th, [], sig) + \
        activity(out.reactions, np.asarray(run_s, float), offs, sig, nov, out.speed, th)


def _still(sig: FrameSignals, v0: float, v1: float) -> bool:
    """Not one pixel of the picture changes from video time v0 to v1 (a frozen picture): in
    its tiles nor, where measured, in colour (`FrameSignals.colour`)."""
    k0, k1 = reactions.frame_at(sig.times, v0), reactions.frame_at(sig.times, v1)
    return k1 > k0 and not sig.tiles[k0 + 1:k1 + 1].any() and (
        sig.colour is None or not sig.colour[k0 + 1:k1 + 1].any())


def no_reaction(rs, th, prior: list[SyncFinding], sig: FrameSignals) -> list[SyncFinding]:
    """Runs of actions without a reaction: sync_no_reaction_actions of them over at least
    sync_no_reaction_s, or two over a picture that does not change at all (frozen)."""
    out = []
    # An action the footage does not reach (before its first frame, after its last) shows
    # no reaction because there is no picture: `coverage.missing` says that, by its limit.
    # Counted as a miss it was a "no visible reaction" on footage that does not exist (13
    # actions at video 21.01-38.29 s of a video cut at 20.08 s, session 23's walk).
    first, last = (float(sig.times[0]), float(sig.times[-1])) if len(sig.times) else (0.0, 0.0)
    seen = [r for r in rs if first <= r.expected_video_s <= last]
    # a miss: no reaction within REACTION_MAX_S, the window this chance model was set on,
    # whatever window attributes a reaction to its press (`Reaction.missed`: within 0.15 s
    # the presses a game leaves unshown, 41 % of the wide set's, are no longer answered by
    # chance, and a run of them read as a run of misses: session 34's three new warnings on
    # genuine runs, boxing, donkey_kong, elevator_action)
    miss = sum(r.missed for r in seen) / max(1, len(seen))
    runs: list[list] = [[]]
    for r in rs:
        if r.missed and first <= r.expected_video_s <= last:
            runs[-1].append(r)
        elif runs[-1]:
            runs.append([])
    expected = [r.expected_video_s for r in rs]
    for run in runs:
        if not run:
            continue
        a, b = run[0], run[-1]
        long_run = len(run) >= th.sync_no_reaction_actions and \
            b.run_s - a.run_s >= th.sync_no_reaction_s
        v1 = b.expected_video_s + reactions.REACTION_MAX_S
        # a picture still under ignored presses is a game's own pause (Tennis between
        # points: 2.08 s, three times a run, each press in it ignored) unless it lasts as
        # long as the scan's freeze or stands out against the run's other still stretches
        # under presses (`reactions.frozen`)
        frozen = len(run) >= 2 and b.run_s - a.run_s >= 1.0 and _still(
            sig, a.expected_video_s, v1) and reactions.frozen(
            sig, a.expected_video_s, v1, expected, held_s=th.sync_freeze_s)
        if long_run and not frozen and len(seen) * miss ** len(run) > NO_REACTION_CHANCE:
            long_run = False  # as many misses in a row come by chance in this run
        if not (long_run or frozen):
            continue
        if any(f.run_start_s is not None and f.run_end_s is not None
               and f.run_start_s <= b.run_s and a.run_s <= f.run_end_s for f in prior):
            continue  # already explained by a jump
        out.append(SyncFinding(
            "sync.no_reaction", f"{len(run)} actions in a row with no visible reaction",
            round(a.expected_video_s, 3), round(v1, 3),
            round(a.run_s, 3), round(b.run_s, 3), actions=len(run)))
    return out


def activity(rs, run_s, offs, sig, nov, speed, th) -> list[SyncFinding]:
    """Input-like onsets (in the tiles where actions' reactions happen) in long action gaps."""
    hit = [r for r in rs if r.video_s is not None and not r.finer]  # (8x8 onsets: tiles)
    if len(hit) < th.sync_min_actions:
        return []
    times = sig.times
    on = nov.onsets
    tiles = stretch.input_tiles(sig, nov, [r.video_s for r in hit], SUPPORT_AFTER_S)
    if not tiles.any():
        return []
    like = on[:, tiles].any(axis=1)
    ev_k = np.nonzero(like)[0]
    onsets = []
    last = -1e9
    for k in ev_k.tolist():  # a chain of onsets (a sprite crossing tiles) is one input
        if times[k] - last >= ACTIVITY_MERGE_S:
            onsets.append(float(times[k]))
        last = float(times[k])
    ev_t = np.array(onsets)
    v_act = offs + run_s / speed
    run_end_v = float(v_act[-1])
    # background: input-like events outside every action's reaction time
    near = np.zeros(len(ev_t), bool)
    for v in v_act:
        near |= (ev_t >= v - SUPPORT_BEFORE_S) & (ev_t <= v + REACTION_TAIL_S)
    # ... and outside the long gaps under test
    gaps = [(v_act[i], v_act[i + 1]) for i in range(len(v_act) - 1)
            if run_s[i + 1] - run_s[i] >= th.sync_activity_gap_s]
    for a, b in gaps:
        near |= (ev_t >= a) & (ev_t < b)
    span_v = max(1.0, run_end_v - float(v_act[0]) - sum(b - a for a, b in gaps))
    lam = float((~near & (ev_t >= v_act[0]) & (ev_t <= run_end_v)).sum()) / span_v
    # the input-like onset frames' density in idle time (see ACTIVITY_DENSITY)
    tested = [i for i in range(len(run_s) - 1) if run_s[i + 1] - run_s[i] >= th.sync_activity_gap_s]
    idle = stretch.idle_frames(times, v_act, REACTION_TAIL_S, tested)
    density = float(like[idle].sum()) / max(1.0, float(idle.sum()))
    out = []
    for i in tested:
        gap = run_s[i + 1] - run_s[i]
        a, b = v_act[i] + REACTION_TAIL_S, v_act[i + 1] - SUPPORT_BEFORE_S
        inside = ev_t[(ev_t >= a) & (ev_t < b)]
        expect = lam * max(0.0, b - a)
        frames = (times >= a) & (times < b)
        dense = like[frames].sum() >= ACTIVITY_DENSITY * density * frames.sum()
        if len(inside) >= th.sync_activity_events and len(inside) >= 3 * expect + 2 and dense:
            out.append(SyncFinding(
                "sync.activity_without_actions",
                f"{len(inside)} input-like reactions on screen in {gap:.1f} s with no action "
                f"in the log", round(float(inside[0]), 3), round(float(inside[-1]), 3),
                round(float(run_s[i]), 3), round(float(run_s[i + 1]), 3), actions=len(inside)))
    if sig.whole is None:
        return out
    # The player's band alone (`_in_band`): its moving bins, not its separate onsets
    told = {f.run_start_s for f in out}
    untold = [i for i in range(len(run_s) - 1) if run_s[i + 1] - run_s[i] >=
              th.sync_activity_gap_s and round(float(run_s[i]), 3) not in told]
    moving = (sig.tiles[:, tiles] > 0).any(axis=1)
    for i, v0, v1, o, n, p, llr in stretch.busy_gaps(sig, moving, v_act, REACTION_TAIL_S,
                                                     untold):
        if o < th.sync_activity_events:
            continue
        out.append(SyncFinding(
            "sync.activity_without_actions",
            f"the player's band moves in {o} of {n} quarter seconds of a "
            f"{run_s[i + 1] - run_s[i]:.1f} s gap with no action in the log ({p:.0%} of the "
            f"run's idle time; log-likelihood ratio {llr:.1f})", round(v0, 3), round(v1, 3),
            round(float(run_s[i]), 3), round(float(run_s[i + 1]), 3), actions=o))
    return sorted(out, key=lambda f: f.video_start_s or 0.0)
