"""The findings along the local offset track, at the offset the analysis uses: offset jumps
(splices), drift, and a stretch at the start or end answered no more often than by chance
(another attempt); runs of actions without a reaction and screen activity without actions
are read from the reactions alone (`reaction_findings`) and said here beside a suggestion.

Why apart from `analysis`: they read the track and the reactions at a chosen offset; how that
offset is chosen (and trusted) is `analysis`'s and `fit`'s business.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import align, head, insertion, lookup, reactions, splices, stretch, track
from .band import WINDOW_S
from .fit import (
    SUPPORT_AFTER_S,
    candidates,
    first_offset,
    refine,
    windows,
)
from .reaction_findings import activity, no_reaction
from .records import CHANCE_WORDS, SyncAnalysis, SyncFinding, video_order
from .signals import FrameSignals
from .stats import median

# The player's tiles (`stretch.input_tiles`) are learnt from the run's reactions at the offset
# used only when they are at least this share of its actions (and sync_min_actions). Where the
# picture answers fewer, the tiles are a few reactions' chance company, not the player's, and
# a stretch "at chance" there says nothing about the footage: Defender at 20 fps (session 28,
# a 150 s genuine run): 6 reactions of 90 chose 17 of 64 tiles, mostly the city's scrolling
# rows, and the last 32 presses, where the city stops, were a false `sync.no_reaction` at the
# true offset. Every stretch the sweep finds (`scripts/autosync_sweep.py`, 422 runs) was
# learnt from 29-73 % of its run's actions.
LEARN_MIN_SHARE = 0.2
# A drift is not said from a weak line through a minority of the presses: a reading that
# answers under DRIFT_MIN_SUPPORT of the run's actions at a confidence under
# DRIFT_WEAK_CONFIDENCE is no clock. A card table that holds until a button, with 4 s frozen
# and no speed change (Blackjack, QA s28 T3 and the lead's 30 fps build of it), read a false
# +2.0 % on 8 of 25 at 0.16 and, on the finer band (finer_band.suggested), +1.54 % on 7
# of 25 at 0.14. The corpus' speed runs that read their drift answer 0.57-0.77 of their
# actions at 0.17-0.49 (Pong, Tennis, Frostbite, Enduro, Kangaroo, Space Invaders), or fewer
# at a firm confidence (Boxing's 150 s run: 55 of 123, 0.45, at 0.83).
DRIFT_MIN_SUPPORT = 0.5
DRIFT_WEAK_CONFIDENCE = 0.25


def weak_line(a: SyncAnalysis) -> bool:
    """Is `a`'s reading too weak a line for a drift (DRIFT_MIN_SUPPORT, above)?"""
    return a.supporting_actions < DRIFT_MIN_SUPPORT * a.actions and \
        a.confidence < DRIFT_WEAK_CONFIDENCE


def _stretch_answers(out: SyncAnalysis, sig: FrameSignals, nov_r, th, q: np.ndarray,
                     memo: dict | None = None):
    """(expected video times, answered, chance) per action at the offset used, in the tiles
    where the run's reactions happen (core/sync/stretch.py), and the function that answers
    for other expected times; None without enough reactions to learn them from. `memo`:
    the analysis' (`unexplained`, `with_insertion` and `with_answers` ask about the same
    `out` in turn: found once; the arrays are not written to)."""
    key = ("answers", id(out), id(nov_r), id(q))
    if memo is not None and key in memo and memo[key][0] is out:
        return memo[key][1]
    ans = _find_answers(out, sig, nov_r, th, q)
    if memo is not None:
        memo[key] = (out, ans)  # `out` kept: its id stays its own while the memo lives
    return ans


def _find_answers(out: SyncAnalysis, sig: FrameSignals, nov_r, th, q: np.ndarray):
    hit = [r.video_s for r in _learn_from(out, sig, nov_r, th) if r.video_s is not None
           and r.delay_s is not None and r.delay_s <= SUPPORT_AFTER_S]
    if len(hit) < max(th.sync_min_actions, LEARN_MIN_SHARE * len(out.reactions)):
        return None
    # q: the background over a reaction window and one frame (reactions.background_rates,
    # the fit's own): the centred window of `reaction_findings.activity` lets tiles of the ball or the
    # opponent in (Pong: chance 0.38 instead of 0.27, and the splice no longer stands out)
    tiles = stretch.input_tiles(sig, nov_r, hit, SUPPORT_AFTER_S, q)
    if not tiles.any():
        return None
    exp = np.array([r.expected_video_s for r in out.reactions])
    answer = stretch.answerer(sig, nov_r, tiles)
    return (exp, *answer(exp), answer)


def _read(sig: FrameSignals, nov_r, run_s, offs, speed: float, z: float, th) -> list:
    """`reactions.read` with the readers `th` switches on (`sync_per_action_reader`,
    `sync_finer_reader`): every reading of the track's stretches reads as the findings do."""
    return reactions.read(sig, nov_r, run_s, offs, speed, z, th.sync_per_action_reader,
                          th.sync_finer_reader)


def _learn_from(out: SyncAnalysis, sig: FrameSignals, nov_r, th) -> list:
    """The reactions the player's tiles are learnt from: `out`'s, or, when they are the
    per-action reader's (`th.sync_per_action_reader`), `reactions.measure`'s at the same
    offsets. Why: the tiles decide the head's, the stretches' and the insertions' tests
    (`head_at_chance`, `unexplained`, `with_insertion`), whose bars were set on tiles learnt
    from `measure`; learnt from the answers, Pong with 4 s cut read at a moderator's offset
    0.12 s late had its first 25 actions "no more often than by chance" and lost its
    suggestion (corpus v2, holds_sweep_s28)."""
    if not th.sync_per_action_reader or not out.reactions:
        return list(out.reactions)
    run_s = np.array([r.run_s for r in out.reactions], float)
    offs = np.array([r.expected_video_s for r in out.reactions], float) - run_s / out.speed
    return reactions.measure(sig, nov_r, run_s, offs, out.speed, th.sync_reaction_z)


def head_at_chance(out: SyncAnalysis, sig: FrameSignals, nov_r, th, q: np.ndarray,
                   memo: dict | None = None) -> tuple[int, float] | None:
    """The run's first actions answered no likelier than chance at the offset `out` uses,
    against the rest's rate (`head.at_chance`, a lower bar than `unexplained`'s): (how many,
    LLR), or None (also without enough reactions to learn the player's tiles from)."""
    ans = _stretch_answers(out, sig, nov_r, th, q, memo)
    if ans is None:
        return None
    shown = int(np.count_nonzero(ans[0] <= sig.times[-1] + 1e-6))
    return head.at_chance(ans[1][:shown], ans[2][:shown])


def unexplained(out: SyncAnalysis, run_s, sig: FrameSignals, nov_r, th, aligned,
                 q: np.ndarray, memo: dict | None = None) -> tuple[int, int] | None:
    """The actions (from, to) at the start or end of a run of one offset whose answers are
    no likelier than chance, when the rest stands out at that offset on its own (a second
    attempt spliced in: Pong, held out, was fitted whole and 1.6 frames late, silently)."""
    if out.suggested_offset_s is None or len(out.segments) != 1 or \
            out.offset_used_s is None:
        return None
    ans = _stretch_answers(out, sig, nov_r, th, q, memo)
    if ans is None:
        return None
    # actions expected after the last frame are no evidence either way (a long cut leaves
    # the video ending before the log does: Pitfall's 14 s cut, 7 actions past its end)
    shown = int(np.count_nonzero(ans[0] <= sig.times[-1] + 1e-6))
    part = stretch.unexplained(ans[1], ans[2], shown)
    if part is None:
        return None
    i0, i1, _ = part
    if not aligned(np.r_[run_s[:i0], run_s[i1:]], out.offset_used_s, stretch.REST_MIN_Z):
        return None
    return i0, i1


def with_answers(out: SyncAnalysis, sig: FrameSignals, nov_r, th,
                 q: np.ndarray, memo: dict | None = None) -> SyncAnalysis:
    """`out` with its per-action answers in the player's tiles (`SyncAnalysis.answers`),
    when they can be learnt."""
    ans = _stretch_answers(out, sig, nov_r, th, q, memo)
    if ans is None:
        return out
    return replace(out, answers=tuple(zip(ans[1].tolist(), ans[2].tolist(), strict=True)))


def answered(out: SyncAnalysis, sig: FrameSignals, nov_r, th, q: np.ndarray, i0: int,
             i1: int) -> bool:
    """Do the actions i0..i1-1 stand above chance (`stretch.above_chance`) at the offsets
    `out` measures them at (a stretch of the track's own there)?"""
    ans = _stretch_answers(out, sig, nov_r, th, q)
    return ans is not None and stretch.above_chance(ans[1][i0:i1], ans[2][i0:i1])


def with_unexplained(out: SyncAnalysis, run_s, sig: FrameSignals, nov_r, th, i0: int,
                      i1: int, q: np.ndarray, nov, latency_q: float) -> SyncAnalysis:
    """`out` with the stretch i0..i1-1 as a `sync.no_reaction` finding (replacing any about
    the same actions), or as a `sync.offset_jump` when another offset explains it
    (`_stretch_jump`)."""
    ans = _stretch_answers(out, sig, nov_r, th, q)
    if ans is None:
        return out
    exp, s, chance, answer = ans
    if stretch.above_chance(s[i0:i1], chance[i0:i1]):
        # answered at the offsets `out` measures it at (the track's own stretch there): the
        # finding would say "no more often than by chance" of answers above it (QA s14,
        # Pinball's insertion at 24 fps: "7 answered, 1.8 by chance", beside the jump)
        return out
    v0, v1 = stretch.place(sig, s, chance, exp, i0, i1)
    jumped = _stretch_jump(out, run_s, sig, nov, nov_r, th, i0, i1, exp, s, answer, v0, v1,
                           latency_q)
    used = out.offset_used_s
    if jumped is None and used is not None and len(out.segments) == 1:
        # ... or inserted footage, a held picture's misses weighing nothing (insertion.py)
        ins = insertion.held_stretch(answer, exp, s, chance, sig, th.sync_min_null_z_splice,
                                     th.sync_min_actions, i0, i1)
        if ins is not None:
            offs, segs, f = _inserted(run_s, used, ins)
            jumped = _moved(out, run_s, sig, nov_r, th, offs, segs, f, float(run_s[i0]),
                            float(run_s[i1 - 1]))
    if jumped is not None:
        return jumped
    # answered above chance, if less often: a game ignoring some presses (its presses under
    # a held picture set aside: no evidence either way, `stretch.held_actions`)
    free = ~stretch.held_actions(sig, exp[i0:i1], th.sync_freeze_s)
    if stretch.above_chance(s[i0:i1][free], chance[i0:i1][free], stretch.NOT_AT_CHANCE_Z):
        return out
    if not stretch.tells(chance[i0:i1]):
        return out  # the player's tiles too quiet there to say whose footage it is
    if i0 == 0:
        # A stretch that starts the run ends at its splice or at its last action's answer
        # window, whichever is later: the splice is the largest picture change anywhere in
        # the stretch, and the finding's video span must cover the actions its run span
        # names (QA s13 F6, H.E.R.O. with 4 s cut and a 2.5 s lead-in: 21 actions, run
        # 1.49-27.83 s at offset -1.496 s, were given video -0.008-1.867 s, the lead-in's
        # change to the game; now -0.008-26.96 s). As a stretch that ends the run ends at
        # its last action's window (`stretch.place`).
        v1 = max(v1, float(exp[i1 - 1]) + WINDOW_S)
    a, b = float(run_s[i0]), float(run_s[i1 - 1])
    f = SyncFinding(
        "sync.no_reaction", f"{i1 - i0} actions in a row {CHANCE_WORDS} "
        f"({int(s[i0:i1].sum())} answered, {float(chance[i0:i1].sum()):.1f} by chance): the "
        f"video does not follow the log here (footage from another attempt?)",
        round(v0, 3), round(v1, 3), round(a, 3), round(b, 3), actions=i1 - i0)
    kept = [g for g in out.findings if g.rule != "sync.no_reaction" or g.run_start_s is None
            or g.run_end_s is None or g.run_end_s < a or g.run_start_s > b]
    found = sorted(kept + [f], key=video_order)
    return replace(out, findings=found)


def with_insertion(out: SyncAnalysis, run_s, sig: FrameSignals, nov_r, th,
                   q: np.ndarray, memo: dict | None = None) -> SyncAnalysis | None:
    """`out` with inserted footage the track did not see (core/sync/insertion.py: one side
    of the run shown that much earlier or later, between two of the picture's largest
    changes) as a `sync.offset_jump`, that side measured at its own offset; None when the
    run already has segments or a jump, or no such insertion stands out."""
    used = out.offset_used_s
    if out.suggested_offset_s is None or used is None or len(out.segments) != 1 or \
            any(f.rule == "sync.offset_jump" for f in out.findings):
        return None
    ans = _stretch_answers(out, sig, nov_r, th, q, memo)
    if ans is None:
        return None
    exp, s, chance, answer = ans
    ins = insertion.find(answer, exp, s, chance, sig, th.sync_min_null_z_splice,
                         th.sync_min_actions)
    if ins is None:
        return None
    offs, segs, f = _inserted(run_s, used, ins)
    rs = _read(sig, nov_r, run_s, offs, out.speed, th.sync_reaction_z, th)
    found = sorted(out.findings + [f], key=video_order)
    return replace(out, reactions=rs, segments=segs, findings=found)


def _inserted(run_s, used: float, ins: insertion.Insertion):
    """(per action its offset, the two segments, the `sync.offset_jump`) of the insertion
    `ins` found at the offset `used`: its moved side shown that much earlier or later."""
    n = len(run_s)
    offs = np.where(ins.moved, used - ins.size_s if ins.head else used + ins.size_s, used)
    j = int(np.count_nonzero(ins.moved)) if ins.head else n - int(np.count_nonzero(ins.moved))
    segs = [(float(run_s[0]), float(run_s[j - 1]), float(offs[0])),
            (float(run_s[j]), float(run_s[-1]), float(offs[-1]))]
    return offs, segs, splices.jump_finding(ins.size_s, ins.start_s, ins.end_s,
                                            float(run_s[j - 1]), float(run_s[j]))


JUMP_NEAR_S = 0.2  # a stretch's jumped offset is fitted this near the shift that explains it


def _stretch_jump(out: SyncAnalysis, run_s, sig: FrameSignals, nov, nov_r, th, i0: int,
                  i1: int, exp: np.ndarray, s: np.ndarray, answer, v0: float, v1: float,
                  latency_q: float) -> SyncAnalysis | None:
    """`out` with the stretch i0..i1-1 (answered at chance at the offset used) at the offset
    that explains it (`track.stretch_jump`) and a `sync.offset_jump` at its splice; None when
    no offset does. The fit finds no such stretch when it is short and its answers spread
    over frames (Pong's cut: 13 actions, reported as a stretch without reactions)."""
    used = out.offset_used_s
    if used is None:
        return None
    n = len(run_s)
    rest = np.r_[s[:i0], s[i1:]]
    rate = float((rest.sum() + 1) / (len(rest) + 2))
    span = (float(sig.times[0]), float(sig.times[-1]))
    a0, b0 = float(run_s[i0]), float(run_s[i1 - 1])
    found = track.stretch_jump(answer, exp[i0:i1], rate, span, sig.fps, th.sync_jump_s,
                               th.sync_min_null_z_splice)
    whole = found is not None
    if found is None:
        part = _track_jump(out, run_s, sig, th, i0, i1, exp, s, answer, rate, span)
        if part is None:
            return None
        d, (i0, i1) = part
    else:
        d = found
    if _reordered(exp, s, answer, i0, i1, d):
        return None
    # the stretch's offset measured as the run's is: the fit near that shift (the answers'
    # window is 0.1 s wide), then its reactions' latency percentile
    sub = run_s[i0:i1]
    near = np.arange(used + d - JUMP_NEAR_S, used + d + JUMP_NEAR_S, 1.0 / sig.fps)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    g = align.fit(sig, nov, sub, speeds=np.array([out.speed]), offsets=near, look=look)
    other = refine(sub, sig, nov, g.offset_s if g is not None else used + d, out.speed, th,
                    latency_q)[0]
    tail = i0 > 0
    size = other - used if tail else used - other  # the offset after the splice less before
    if abs(size) < th.sync_jump_s:
        return None
    j = i0 if tail else i1  # the first action after the splice
    offs = np.full(n, used, float)
    offs[i0:i1] = other
    segs = [(float(run_s[0]), float(run_s[j - 1]), float(offs[0])),
            (float(run_s[j]), float(run_s[-1]), float(offs[-1]))]
    if not whole:
        # a part of the stretch moved: its splice is placed as the track's are (between
        # its last action and the next, where the picture changes most)
        fs = splices.jumps(segs, sig, out.speed, th, look, run_s)
        if not fs:
            return None
        return _moved(out, run_s, sig, nov_r, th, offs, segs, fs[0], a0, b0)
    splice = v0 if tail else v1
    ve = None
    if size > 0:  # inserted footage: two splices `size` apart, one of them found by `place`
        change = sig.picture_change.astype(float)
        w = int(round(size * sig.fps))
        k0 = reactions.frame_at(sig.times, splice - size - 1.0)
        k1 = min(reactions.frame_at(sig.times, splice + 1.0), len(sig) - 1 - w)
        if k1 > k0:
            k = k0 + int(np.argmax(change[k0:k1 + 1] + change[k0 + w:k1 + 1 + w]))
            splice, ve = float(sig.times[k]), float(sig.times[k + w])
    f = splices.jump_finding(size, splice, ve, float(run_s[j - 1]), float(run_s[j]))
    return _moved(out, run_s, sig, nov_r, th, offs, segs, f, a0, b0)


def _reordered(exp: np.ndarray, s: np.ndarray, answer, i0: int, i1: int, d: float) -> bool:
    """Would the video show the log out of its order with the stretch i0..i1-1 moved by `d`
    (its answers there against the rest's at the offset used), by more of the rest's
    answered actions than the stretch has answered actions of its own? The track's own
    stretches meet the same test (`track.out_of_order`); no cut or insertion reorders the
    log, so such a shift is a chance match of the stretch.

    Why: Kaboom!'s cuts and insertion (session 26's seeds 2629, 2641; the flashes line a few
    presses up anywhere): the run's first 10-14 presses, at chance at the offset after the
    splice, were explained by a shift of +9.05 to +22.57 s, which shows them at video
    23-39 s while the 12-15 answered presses after them show at 18-36 s. The jump was said
    8-13 s after the splice, and the first stretch's wrong offset suggested (session 28)."""
    n = len(exp)
    moved = exp[i0:i1] + d
    va = moved[np.asarray(answer(moved)[0], bool)]
    rest = np.r_[0:i0, i1:n]
    vr = exp[rest][np.asarray(s[rest], bool)]
    if not len(va) or not len(vr):
        return False
    if i0 == 0:  # the rest, after the stretch, shown before the stretch's last answer
        late = int((vr < va.max() - track.ORDER_SLACK_S).sum())
        return late > len(va) or track.overtakes(va, vr)
    # the rest, before the stretch, shown after the stretch's first answer
    late = int((vr > va.min() + track.ORDER_SLACK_S).sum())
    return late > len(va) or track.overtakes(vr, va)


def _moved(out: SyncAnalysis, run_s, sig: FrameSignals, nov_r, th, offs: np.ndarray, segs,
           f: SyncFinding, a: float, b: float) -> SyncAnalysis:
    """`out` with each action measured at its stretch's offset (`offs`), its two `segs`,
    and the jump `f` in place of any run of misses among the actions from run a to b."""
    rs = _read(sig, nov_r, run_s, offs, out.speed, th.sync_reaction_z, th)
    kept = [g for g in out.findings if g.rule != "sync.no_reaction" or g.run_start_s is None
            or g.run_end_s is None or g.run_end_s < a or g.run_start_s > b]
    found = sorted(kept + [f], key=video_order)
    return replace(out, reactions=rs, segments=segs, findings=found)


# Windows of the offset track that must read a stretch's other offset (within track.SAME_S)
# before a part of it is tested there (`_track_jump`).
TRACK_AGREE = 2
# ... and the part's answers must peak at that shift over every shift of +-60 s by this many
# spreads over the next best shift (a track window's margin, `track.windows`)
TRACK_PEAK_MARGIN = 1.0


def _track_jump(out: SyncAnalysis, run_s, sig: FrameSignals, th, i0: int, i1: int,
                exp: np.ndarray, s: np.ndarray, answer, rate: float,
                span: tuple[float, float]) -> tuple[float, tuple[int, int]] | None:
    """(shift, (from, to)): the part of a stretch answered at chance (i0..i1-1, at the
    start or the end of the run) that the offset track's windows place at another offset,
    when its answers there stand out against its gaps shuffled (`track.stretch_jump` on
    shifts near the track's alone); None otherwise.

    Why: a cut early in a run leaves few actions before it. H.E.R.O. with 4 s cut 12.7 s
    into the run (QA session 13's F3): 7 of its first 8 actions show, three windows of the
    track read 2.44 s (z 4.65-6.16, truth 2.5 s), but the stretch at chance at the offset
    used is 21 actions long (the rest's answers make it so) and no one shift explains all
    21; its first 7 alone scored 5.99 against 5.96 for the best of 19 shuffled stretches
    over +-60 s of shifts. Each window's fit already stood out against every offset of its
    +-60 s; what is left to test is the part's order in time at that shift."""
    used = out.offset_used_s
    n = len(exp)
    head = i0 == 0
    if used is None or head == (i1 == n):
        return None
    reads = [p.offset_s for p in out.track if p.offset_s is not None and p.z >= th.sync_min_z
             and run_s[i0] <= p.run_s <= run_s[i1 - 1]
             and abs(p.offset_s - used) >= th.sync_jump_s]
    best = max(([q for q in reads if abs(q - p) <= track.SAME_S] for p in reads), key=len,
               default=[])
    if len(best) < TRACK_AGREE:
        return None
    shift = float(median(best)) - used
    at_other = answer(exp[i0:i1] + shift)[0].astype(int)
    at_used = s[i0:i1].astype(int)
    if head:  # actions i0 .. i0+k-1 at the other offset, the rest at the one used
        gain = np.cumsum(at_other) + np.r_[np.cumsum(at_used[::-1])[::-1][1:], 0]
        m0, m1 = i0, i0 + int(np.argmax(gain)) + 1
    else:  # actions i0+k .. i1-1 at the other offset
        gain = np.r_[0, np.cumsum(at_used)[:-1]] + np.cumsum(at_other[::-1])[::-1]
        m0, m1 = i0 + int(np.argmax(gain)), i1
    if m1 - m0 < 2:
        return None
    peak = track.shift_peak(answer, exp[m0:m1], rate, span, sig.fps, th.sync_jump_s)
    if peak is None or abs(peak[0] - shift) > track.SAME_S or peak[1] < th.sync_min_z or \
            peak[2] < TRACK_PEAK_MARGIN:
        return None
    return peak[0], (m0, m1)


def _path(look, run_s, cands, speed, th, aligned, bar=None) -> np.ndarray:
    """Per action, its candidate offset (index), a stretch at another offset than the one
    used kept only when its actions alone stand out at that offset, and when so does a
    stretch at the one used: a jump is two offsets each standing on its own. A stretch that
    matches another offset by chance (Enduro, held out: 22 s of a genuine run at -10.9 s,
    a false `sync.offset_jump`) is measured at the offset used instead. `bar(sub)`: the
    z a stretch at another offset must stand (`aligned`'s own by default)."""
    path = track.segment(look, run_s, cands, speed, th.sync_reaction_z)
    cuts = [0] + [i for i in range(1, len(path)) if path[i] != path[i - 1]] + [len(path)]
    if len(cuts) <= 2:
        return path
    spans = list(zip(cuts, cuts[1:], strict=False))
    if not any(path[i0] == 0 and aligned(run_s[i0:i1], cands[0]) for i0, i1 in spans):
        return np.zeros(len(path), int)
    out = path.copy()
    for i0, i1 in spans:
        if path[i0] != 0 and not (aligned(run_s[i0:i1], cands[path[i0]]) if bar is None
                                  else aligned(run_s[i0:i1], cands[path[i0]],
                                               bar(run_s[i0:i1]))):
            out[i0:i1] = 0
    # two stretches the video would show out of the log's order: the one not at the offset
    # used is a chance match (Pong's genuine pause: a false -19.5 s jump), until none is
    return track.in_order(look, run_s, out, cands, speed, th.sync_reaction_z)


def measure_all(res: SyncAnalysis, run_s, sig, nov, look, th, nov_r,
                 aligned, latency_q: float = 50.0, pts=None, plain=None,
                 lag: float = 0.0, part: tuple[float, float] | None = None) -> SyncAnalysis:
    """Reactions, track, segments and findings at the offset used: the track and segments
    on the fit's novelty (`nov`, `look`), the reactions on `nov_r` (see FIT_WEIGHT_FLOOR).
    `pts`: the track's windows when the caller has them at this speed. `plain`: the
    unweighted novelty and its lookup, to date a stretch's offset by its actions' first
    reactions (`fit.first_offset`); `lag`: how much later the fit's lookup sees the offset
    used (its `first_offset` lag): the track is segmented, and splices placed, on the
    offsets as that lookup sees them (it reads the later change: Pinball's flipper
    release), the reactions measured at the dated ones. `part`: the run span (first and
    last action) of a stretch answered at chance at the offset used (`unexplained`): a
    stretch inside it at another offset stands stretch.REST_MIN_Z, not sync_min_z, as the
    rest of a run does beside such a stretch (its evidence is the stretch's own failure at
    the offset used). Video Pinball with 4 s inserted after its first 9 actions (QA s14 G8,
    20 fps): the 8 before stood 3.83 spreads at their offset, and the run was given the
    offset after the insertion (+83.8 frames, confidence 0.59), no `sync.offset_jump`."""

    def bar(sub: np.ndarray) -> float:
        inside = part is not None and len(sub) and \
            part[0] - 1e-9 <= float(sub[0]) and float(sub[-1]) <= part[1] + 1e-9
        return min(th.sync_min_z, stretch.REST_MIN_Z) if inside else th.sync_min_z

    speed, used = res.speed, res.offset_used_s
    assert used is not None  # (the analysis measures at an offset, or not at all)
    z = th.sync_reaction_z
    if pts is None:
        pts = windows(sig, nov, look, run_s, speed, th)
    seen = candidates(sig, nov, look, run_s, used + lag, speed, th, pts)
    path = _path(look, run_s, seen, speed, th, aligned, bar) \
        if res.suggested_offset_s is not None else np.zeros(len(run_s), int)
    cands = [used] + seen[1:]
    for j in sorted(set(path.tolist()) - {0}):
        # a stretch at another offset: that offset measured as the one used is (its
        # candidate is a window's peak on the frame grid: Boxing's cut -4.04 s, not -4.00)
        cands[j], _, later = first_offset(run_s[path == j], sig, nov, plain, seen[j], speed,
                                          th, latency_q, bar(run_s[path == j]))
        seen[j] = cands[j] + later
    offs = np.array([cands[j] for j in path]) if len(path) else np.zeros(0)
    # each at its stretch's offset
    rs = _read(sig, nov_r, run_s, offs, speed, z, th)
    segs: list[list[float]] = []
    looks: list[float] = []  # each segment's offset as the fit's lookup sees it
    for i, j in enumerate(path):
        if not segs or segs[-1][2] != cands[j]:
            segs.append([float(run_s[i]), float(run_s[i]), cands[j]])
            looks.append(seen[j])
        segs[-1][1] = float(run_s[i])
    findings: list[SyncFinding] = []
    if res.suggested_offset_s is not None:
        findings += splices.jumps(segs, sig, speed, th, look, run_s, looks)
        if abs(speed - 1) * 100 >= th.sync_drift_pct and not weak_line(res):
            pct = round((speed - 1) * 100, 2)
            findings.append(SyncFinding(
                "sync.drift", f"the video runs {abs(pct):.1f} % {'faster' if pct > 0 else 'slower'}"
                f" than the log's clock", float(sig.times[0]), float(sig.times[-1]),
                0.0, float(run_s[-1]), percent=pct))
        findings += no_reaction(rs, th, findings, sig)
        findings += activity(rs, run_s, offs, sig, nov, speed, th)
    return SyncAnalysis(res.suggested_offset_s, res.confidence, res.supporting_actions,
                        res.actions, speed, res.reason, used, rs, pts,
                        [(a, b, c) for a, b, c in segs], findings)
