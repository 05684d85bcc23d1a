"""A stretch of the run that the offset does not explain: the player's answers stop.

A video spliced from a second attempt at the game (the first attempt's opening, then another
attempt's play) keeps the log's offset for the opening and then shows a player answering
inputs the log never had. No other offset explains that stretch either, so the offset track
has no jump to show: the analysis used to fit the whole run at the opening's offset, with the
stretch's chance matches pulling the offset late (Pong, held out: 1.6 frames, confidence
0.64) and no finding at all. Here, per action at the offset used, "answered" means an onset
in the player's tiles (where the run's reactions happen, `input_tiles`) within WINDOW_S of
the action's expected frame; its chance is the rate of such windows around the action
(LOCAL_S either side). A stretch at the start or the end of the run whose answers are far
likelier at chance than at the rest of the run's rate (a log-likelihood ratio of MIN_LLR) is
a stretch the video does not follow, unless it cannot be tested (`testable`): its answers
stand far above chance, or the player's tiles are silent around most of its actions.
"""

from __future__ import annotations

import numpy as np

from . import splices
from .band import WINDOW_S
from .freeze import still_spans
from .reactions import Novelty, frame_at
from .signals import FrameSignals
from .stats import percentile

LOCAL_S = 3.0     # the chance of an answer: the player's tiles' window-hit rate this near
MIN_HEAD = 6      # actions of the explained part, at least
MIN_TAIL = 8      # actions of the unexplained stretch, at least (a player at a wall misses
                  # a few presses in a row: Pitfall through a dropping recorder, 3 at the end)
# e^9 ~ 8,000: the stretch's answers that much likelier at chance than at the rest's rate.
# Measured (bench/sync_table.py, 168 runs, stretches of 8 or more actions): genuine runs at
# most 4.5 (Pitfall through a 25 fps dropping recorder), Pong 3.0; the spliced second attempts
# of Pong and Boxing 12.6 and 27.8.
MIN_LLR = 9.0
# The rest of the run must stand out at the offset on its own (`align.z_at`), by this many
# spreads: the whole run has passed the shuffled-log test already, and a part of it carries
# that evidence with fewer actions (Pong's opening before its spliced second attempt: 3.9).
REST_MIN_Z = 3.0
# A stretch whose answers stand this many spreads above chance is answered, whatever the
# rest's rate: a genuine 150 s Boxing run's last 89 actions, 61 answered against 33.6 by
# chance (+6.4 spreads; opening 94 %), were a false `sync.no_reaction`. Every tampered
# stretch found in the corpus (bench/sync_table.py, 217 runs): at most +0.43. The bar for a
# stretch at another offset to count as answered there (`local_findings.answered`, the other
# scale's `_answered_in`): a chance match stands up to +1.8 (Breakout's 14 s cut, its last 18
# actions at -5.86 s, truth -12.02: 6 answered against 3.1 by chance).
ABOVE_CHANCE_Z = 3.0
# ... and a stretch that no other offset explains either is reported as "answered no more
# often than by chance" only below this many spreads (`local_findings.with_unexplained`):
# a game that ignores presses for seconds on end answers fewer of them there, yet above
# chance. Kung-Fu Master while Thomas is gripped or dead (QA s16 J3, genuine3@r48h422mov):
# its first 14 actions answered 4 times against 1.4 by chance (+2.4 spreads), its last 10
# all, a false `sync.no_reaction`. A shuffle test does not clear it: the misses come in a
# cluster, as 1 in 1,000 shuffled logs puts them. The bar stays ABOVE_CHANCE_Z for finding
# the stretch: H.E.R.O.'s early cut (QA s13 F3) is such a stretch at +2.15, and is then
# placed as an offset jump by the part at another offset (`_track_jump`).
NOT_AT_CHANCE_Z = 2.0
# The chance of an answer where the player's tiles have no onset within LOCAL_S either side.
CHANCE_FLOOR = 0.02
# A stretch with more than this share of its actions in such silence shows no player in the
# tiles at all (the player is elsewhere on screen): no evidence either way. A genuine 150 s
# Pitfall run's first 33 actions: 31 silent (0 answered, 0.8 by chance), a false
# `sync.no_reaction`; its first 22: 17. Tampered stretches found in the corpus: at most 4 of
# 9 (Pitfall's cut, whose last frames hold no onset).
MAX_SILENT_SHARE = 0.6
# ... and a stretch whose presses would all together be answered fewer times than this even
# by chance says nothing either (`tells`): footage from another attempt shows that attempt's
# player moving in the tiles, so some of the stretch's presses fall on its moves; where the
# tiles hardly move, a game that ignores its presses (a serve, a climber's wait, a game
# over) reads the same. The wide set at 81e7acc (session 43): Pong's last 8 presses after its
# last point (0 answered, 0.5 by chance; the truth shows 0 of 8) and Crazy Climber's first 18
# (1 answered, 0.6 by chance; the truth shows 3), two genuine rows' only warnings at auto;
# the one tampering such a stretch places, carnival-cut@r30xvidbf1's after-cut footage,
# 3 answered against 3.05 by chance.
MIN_CHANCE_ANSWERS = 1.0
INPUT_SHARE = 0.15  # a tile is the player's when this share of reactions has an onset in it
INPUT_RATIO = 3.0   # ... and this many times its background rate


def onset_share(on: np.ndarray, w: int, counts: np.ndarray | None = None) -> np.ndarray:
    """Per tile, the share of frames with an onset among the w frames centred on them (the
    window of np.convolve(..., "same"): w // 2 before to (w - 1) // 2 after), by cumulative
    counts for all tiles at once. Counts are whole numbers: exact, as the convolution was.
    `counts`: the running counts of `on` from a row of zeros (`Novelty.onset_counts`)."""
    n = len(on)
    if w > n:  # np.convolve then answers max(n, w) values: as it did
        return np.array([np.convolve(on[:, j].astype(float), np.ones(w), "same").clip(0, 1)
                         .mean() for j in range(on.shape[1])])
    c = counts if counts is not None else np.vstack(
        [np.zeros((1, on.shape[1]), np.int32), np.cumsum(on, axis=0, dtype=np.int32)])
    k = np.arange(n)
    count = c[np.minimum(n, k + (w - 1) // 2 + 1)] - c[np.maximum(0, k - w // 2)]
    return (count > 0).mean(axis=0)


def input_tiles(sig: FrameSignals, nov: Novelty, video_s: list[float], window_s: float,
                q: np.ndarray | None = None) -> np.ndarray:
    """Per tile: do the reactions at `video_s` happen there (at least INPUT_SHARE of them
    with an onset in the tile within window_s, INPUT_RATIO times its background rate `q`;
    by default the share of frames with an onset within a centred window_s)?"""
    on = nov.onsets
    w = max(1, int(round(window_s * sig.fps)))
    # per reaction, the tiles with an onset in its frames k .. k + w - 1 (k: `frame_at`), by
    # the novelty's running counts: whole numbers, the counts a loop over them added
    n = len(on)
    k = np.searchsorted(sig.times, np.asarray(video_s, float) - 1e-6)
    c = nov.onset_counts
    react = ((c[np.minimum(k + w, n)] - c[k]) > 0).sum(axis=0).astype(float)
    p = react / max(1, len(video_s))
    if q is None:
        q = onset_share(on, w, c)
    return (p >= INPUT_SHARE) & (p >= INPUT_RATIO * q)


def answers(sig: FrameSignals, nov: Novelty, tiles: np.ndarray,
            expected_v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(answered, chance) per action expected at video times `expected_v`: an onset in the
    tiles from the frame before to WINDOW_S after, and the rate of such windows nearby. An
    action expected after the last frame is not answered: the footage does not show it (its
    window was the last frames', so every action past a cut run's end was answered when the
    last frames held an onset: Pitfall with 14 s cut, 7 such actions, no finding)."""
    return answerer(sig, nov, tiles)(expected_v)


def answerer(sig: FrameSignals, nov: Novelty, tiles: np.ndarray):
    """`answers` for these signals and tiles as a function of the expected times: the
    windows' hits and their running counts are found once, each call looks its times up.
    Why: an analysis asks 25-50 times with the same tiles (the insertion search's shifts,
    each finding's stretch), and finding the hits was 0.1 ms of the 0.11 ms of each ask
    (Gopher at 30 fps, 1,305 frames; session 14). The same integers: the same answers."""
    return hits_answerer(sig, np.asarray(nov.onsets[:, tiles].any(axis=1)))


def hits_answerer(sig: FrameSignals, x: np.ndarray):
    """`answerer` for per-frame hits `x` (a frame with an onset where it is looked for): an
    action is answered when a frame from the one before its expected time to WINDOW_S after
    is a hit, its chance the rate of such windows within LOCAL_S either side."""
    n = x.shape[0]
    w = max(1, int(round(WINDOW_S * sig.fps)))
    c = np.concatenate([[0], np.cumsum(x)])
    idx = np.arange(n)
    hit = (c[np.clip(idx + w + 1, 0, n)] - c[np.clip(idx - 1, 0, n)]) > 0
    span = int(LOCAL_S * sig.fps)
    h = np.concatenate([[0], np.cumsum(hit)])
    times, last = sig.times, sig.times[-1] + 1e-6

    def answer(expected_v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ks = np.clip(np.searchsorted(times, expected_v - 1e-6), 0, n - 1)
        lo, hi = np.clip(ks - span, 0, n), np.clip(ks + span, 0, n)
        chance = (h[hi] - h[lo]) / np.maximum(1, hi - lo)
        past = np.asarray(expected_v) > last
        return hit[ks] & ~past, np.clip(chance, CHANCE_FLOOR, 0.98)

    return answer


def held_at(sig: FrameSignals):
    """Per expected video time (any shape): does the picture hold still, not one point of it
    changing (`picture_change`), from the frame before to WINDOW_S after, the window
    `answers` reads? No offset answers an action there, so its miss is no evidence of one
    offset over another (`insertion.find`'s `held`). Venture's rooms hold the picture for
    4.3 s at every door (QA s31): 6 of the 14 actions after venture-insert@r15vp9opus's
    insertion fall in such holds at the offset after it."""
    still = np.asarray(sig.picture_change) == 0
    n = len(still)
    w = max(1, int(round(WINDOW_S * sig.fps)))
    c = np.concatenate([[0], np.cumsum(~still)])
    idx = np.arange(n)
    held = (c[np.clip(idx + w + 1, 0, n)] - c[np.clip(idx - 1, 0, n)]) == 0
    times = sig.times

    def at(expected_v: np.ndarray) -> np.ndarray:
        if not n:
            return np.zeros(np.shape(expected_v), bool)
        return held[np.clip(np.searchsorted(times, np.asarray(expected_v) - 1e-6), 0, n - 1)]

    return at


def _llr(s: np.ndarray, chance: np.ndarray, rate: float) -> float:
    """log P(answers | chance) - log P(answers | rate)."""
    return float((s * np.log(chance / rate) + (1 - s) * np.log((1 - chance) / (1 - rate))).sum())


def unexplained(s: np.ndarray, chance: np.ndarray,
                shown: int | None = None) -> tuple[int, int, float] | None:
    """The stretch (first index, end index, LLR) at the start or the end of the run whose
    answers `s` are likeliest at `chance` against the rest's answer rate, among those that
    can tell (`testable`), when its LLR reaches MIN_LLR; None otherwise. The rest's rate
    has a +1/+2 prior (a perfect opening does not make one miss impossible). `shown`: the
    actions expected on the footage (the first ones; those after its end are no evidence
    either way): a stretch that ends with them ends the run."""
    full = len(s)
    n = full if shown is None else max(0, min(shown, full))
    s, chance = s[:n], chance[:n]
    best = _unexplained(s, chance, n)
    if best is not None and best[1] == n and best[0] > 0:
        return best[0], full, best[2]
    return best


def held_actions(sig: FrameSignals, expected_v: np.ndarray, held_s: float) -> np.ndarray:
    """Per action expected at video time `expected_v`: does its answer window (the frame
    before to WINDOW_S after, as `answers` reads it) lie inside a held picture of at least
    `held_s` (`freeze.still_spans`: the whole picture still, a codec's re-quantisation
    forgiven)? Under such a picture no press is answered, whichever attempt the footage
    shows: its miss is no evidence that the video does not follow the log (the held picture
    is said by its own rules: the scan's `video.frozen` at `held_s`, core/sync/freeze.py).
    `local_findings.with_unexplained` asks whether a stretch at chance answers above chance
    once they are set aside: then the game's holds made it. QA s31 T1,
    venture-genuine@r15vp9opus: 6 of its last 12 presses lay in two 4.3 s holds of the
    game's (none answered), "12 actions in a row answered no more often than by chance (3
    answered, 1.1 by chance)" at every offset (+1.89 spreads); the other 6 answer 3 times
    against 0.6 by chance (+3.19). They still count in finding a stretch: where the footage is
    another's, a hold there ignores the presses that would have ended this attempt's
    (breakout-cutlong, 14 s cut at 14.45 s: its stretch from the cut is found with them,
    not without). Not `held_at` (any still answer window, where no offset answers: a card
    table's ignored press is one): the picture held as long as the scan's freeze, said by
    its own rules."""
    out = np.zeros(len(expected_v), bool)
    spans = still_spans(sig)
    if not len(spans) or not len(expected_v):
        return out
    fps = max(sig.fps, 1e-6)
    t = np.asarray(sig.times, float)
    long = (spans[:, 1] - spans[:, 0] + 1) / fps >= held_s
    v = np.asarray(expected_v, float)
    for p, q in spans[long].tolist():
        # the window's frames: from the frame before the expected one to WINDOW_S after,
        # all held (the picture's first held frame p, its last q)
        out |= (v - 1.0 / fps >= t[p] - 1e-6) & (v + WINDOW_S <= t[q] + 1e-6)
    return out


def above_chance(s: np.ndarray, chance: np.ndarray, z: float = ABOVE_CHANCE_Z) -> bool:
    """Do the answers `s` stand `z` spreads above their `chance` (a normal approximation of
    the count of independent answers)?"""
    spread = float(np.sqrt((chance * (1 - chance)).sum()))
    return spread > 0 and float(s.sum() - chance.sum()) / spread >= z


def testable(s: np.ndarray, chance: np.ndarray) -> bool:
    """Can the stretch's answers `s` (at `chance`) say that the video does not follow it?
    Not when they stand far above chance (`above_chance`: answered, if less often than the
    rest; the likelihood ratio only compared chance with the rest's rate), nor when most of
    its actions fall where the player's tiles are silent (MAX_SILENT_SHARE): no answer there
    is no evidence, as an action past the footage's end is none."""
    if above_chance(s, chance):
        return False
    return bool(np.count_nonzero(chance <= CHANCE_FLOOR) <= MAX_SILENT_SHARE * len(s))


def tells(chance: np.ndarray) -> bool:
    """Can a stretch whose presses have these `chance`s of an answer tell footage from
    another attempt from a game that ignores the presses (MIN_CHANCE_ANSWERS)?"""
    return float(np.sum(chance)) >= MIN_CHANCE_ANSWERS


def _unexplained(s: np.ndarray, chance: np.ndarray, n: int) -> tuple[int, int, float] | None:
    best: tuple[int, int, float] | None = None
    for k in range(MIN_HEAD, n - MIN_TAIL + 1):
        rate = (s[:k].sum() + 1) / (k + 2)
        if rate > chance[k:].mean():
            v = _llr(s[k:], chance[k:], rate)
            if (best is None or v > best[2]) and testable(s[k:], chance[k:]):
                best = (k, n, v)
    for k in range(MIN_TAIL, n - MIN_HEAD + 1):
        rate = (s[k:].sum() + 1) / (n - k + 2)
        if rate > chance[:k].mean():
            v = _llr(s[:k], chance[:k], rate)
            if (best is None or v > best[2]) and testable(s[:k], chance[:k]):
                best = (0, k, v)
    return best if best is not None and best[2] >= MIN_LLR else None


# The splice may be at any action boundary whose log-likelihood (answered before it at the
# rest's rate, at chance after it) is within this of the best: Boxing (held out) misses two
# presses just before its splice, so the best boundary is 4 actions early (a 95 % interval for
# a change point is about 3 log units wide).
PLACE_SLACK = 3.0


def _ll(s: np.ndarray, p: np.ndarray | float) -> float:
    return float((s * np.log(p) + (1 - s) * np.log(1 - p)).sum())


def place(sig: FrameSignals, s: np.ndarray, chance: np.ndarray, expected_v: np.ndarray,
          i0: int, i1: int) -> tuple[float, float]:
    """The video span of the stretch of actions i0..i1-1: from its splice to its last action
    (the stretch ends the run) or from its first action to its splice (it starts the run).
    The splice is the frame of largest change (a splice changes the whole picture, as
    `splices.jumps` places a cut) from the earliest action boundary that explains the
    answers nearly as well as the best one (PLACE_SLACK) to the stretch's far end (the
    latest such boundary, for a stretch that starts the run).

    A stretch that ends the run starts at that frame only when it stands out as a splice's
    (`_tail_splice`: in the plausible boundaries' footage first); else at its first action's
    footage, as its run span says. QA s25 S1, Kaboom! (the bomber's bombs flash the screen
    over several frames every few seconds) with 4 s cut at video 18.17 s: 14 actions from
    run 15.21 s (video 16.61 s at 1.4 s) were said at video 32.97-37.44 s, a flash 14.8 s
    after the cut, where a moderator sent there saw none of the footage the run span names;
    then (session 25) at 16.61 s, 1.56 s before it. Its cut changes the picture no more than
    the video's 99.5th percentile, but 1.57 times every other frame within 0.5 s but the
    flashes: now 18.167 s (`_tail_splice`)."""
    n = len(expected_v)
    tail = i1 == n and i0 > 0
    rest = np.r_[s[:i0], s[i1:]]
    rate = (rest.sum() + 1) / (len(rest) + 2)
    if tail:  # boundary j: actions before j answered at `rate`, from j on at chance
        ll = np.array([_ll(s[:j], rate) + _ll(s[j:], chance[j:]) for j in range(1, n)])
    else:
        ll = np.array([_ll(s[:j], chance[:j]) + _ll(s[j:], rate) for j in range(1, n)])
    ok = np.nonzero(ll >= ll.max() - PLACE_SLACK)[0] + 1
    if tail:  # from the earliest plausible boundary to the stretch's end: chance answers
        # (Boxing's: 47 %) cannot bound the splice from above; the picture's jump can. The
        # boundary's last answered action's own frame counts: a splice's change in the
        # player's tiles answers the action expected on it (`_tail_splice`)
        a = float(expected_v[ok.min() - 1])
        b = float(expected_v[i1 - 1]) + WINDOW_S
    else:
        a = float(expected_v[i0])
        b = float(expected_v[ok.max()]) + WINDOW_S
    k0, k1 = frame_at(sig.times, a), min(frame_at(sig.times, b), len(sig) - 1)
    change = sig.picture_change
    end_v = float(expected_v[i1 - 1]) + WINDOW_S
    if tail:
        near = min(frame_at(sig.times, float(expected_v[ok.max()]) + WINDOW_S), k1)
        k = _tail_splice(np.asarray(change, float), k0, near, k1, sig.fps)
        if k is None:
            # no splice's frame: the stretch's own actions' footage (QA s25 S1, below)
            return float(expected_v[i0]), end_v
        splice = float(sig.times[k])
        return splice, max(splice, end_v)
    k = k0 + int(np.argmax(change[k0:k1 + 1])) if k1 > k0 else min(k0, len(sig) - 1)
    return float(expected_v[i0]), float(sig.times[k])


def _tail_splice(pc: np.ndarray, k0: int, near: int, k1: int, fps: float = 30.0) -> int | None:
    """The splice's frame of a stretch that ends the run, among frames k0..k1 (k0..near: the
    plausible boundaries' footage, `place`): the frame of largest change in k0..near, else
    in k0..k1, when it stands out as a splice's (`splices.stands_out`); else the frame of
    largest change in k0..near that stands out from its own second either side (`splices.lone_at`);
    None when none does.

    Why: Pitfall with 14 s cut (corpus `pitfall-cutlong`): the cut's frame (video 14.70 s,
    101 points) is the answer of the last action before it, and a frame 5.3 s later (19.97 s,
    103 points) stood out too: the stretch was said to start there. Kaboom! (QA s25 S1)
    flashes the whole screen over several frames whenever a bomb lands (28,000 points): its
    cut (536 points, 1.57 times every other frame within 0.5 s) stands under the video's
    percentile."""
    if k1 <= k0:
        k = min(k0, len(pc) - 1)
        return k if splices.stands_out(pc, k) else None
    idx = np.arange(max(k0, 1), min(k1, len(pc) - 2) + 1)
    if not len(idx):
        return None
    for part in (idx[idx <= near], idx):
        if len(part):
            k = int(part[np.argmax(pc[part])])
            if splices.stands_out(pc, k):
                return k
    top = float(percentile(pc, splices.STANDOUT_PCT))
    floor = max(1.0, float(percentile(pc, splices.LONE_PCT)))
    w = max(1, int(round(splices.LONE_S * fps)))
    lone = np.array([j <= near and splices.lone_at(pc, int(j), w, top, floor) for j in idx],
                    bool)
    return int(idx[lone][np.argmax(pc[idx[lone]])]) if lone.any() else None


# A log gap where the player's band moves: the share of BUSY_BIN_S bins with a change in the
# player's tiles, against that share in the run's idle time (more than the reaction tail
# after an action), as a binomial log-likelihood ratio. Onsets in the band are too few to
# count one by one (Pong's deleted stretch: 5 separate ones where 6 were needed), but its
# paddle moves in 15 of the stretch's 42 bins against 6 expected (LLR 5.8); the pause of a
# genuine Pong run (9 s without an action or a press): 9 of 42 against 9.9 (0). The whole
# picture's player tiles are not tested so: there, an idle player is hit or passed (Boxing's
# and Enduro's pauses: 8.4 and 9.4 at 4x4).
BUSY_BIN_S = 0.25
BUSY_MIN_LLR = 4.0


def _bins(mask: np.ndarray, w: int) -> list[np.ndarray]:
    """The frame indices of `mask`, in bins of w consecutive frames (a partial bin dropped)."""
    k = np.nonzero(mask)[0]
    out: list[np.ndarray] = []
    for run in np.split(k, np.nonzero(np.diff(k) > 1)[0] + 1):
        out += [run[j:j + w] for j in range(0, len(run) - w + 1, w)]
    return out


def idle_frames(t: np.ndarray, v_act: np.ndarray, tail_s: float, gaps: list[int]) -> np.ndarray:
    """Per frame at video times t: idle, i.e. more than tail_s after an action (expected at
    v_act) and before the next, within the run, outside the gaps i (actions i to i + 1)."""
    last = np.searchsorted(v_act, t, side="right") - 1
    since = np.where(last >= 0, t - v_act[np.maximum(last, 0)], -1.0)
    tested = np.zeros(len(t), bool)
    for i in gaps:
        tested |= (t >= v_act[i]) & (t < v_act[i + 1])
    return (since > tail_s) & ~tested & (t <= v_act[-1])


def busy_gaps(sig: FrameSignals, moving: np.ndarray, v_act: np.ndarray, tail_s: float,
              gaps: list[int]) -> list[tuple[int, float, float, int, int, float, float]]:
    """The log gaps i (between actions i and i + 1, expected at video times v_act) whose
    share of busy bins (`moving` on any frame) stands BUSY_MIN_LLR above the idle share:
    (i, first and last busy video time, busy bins, bins, idle share, LLR). Idle: frames more
    than tail_s after an action and before the next, outside the gaps under test."""
    t = sig.times
    w = max(1, int(round(BUSY_BIN_S * sig.fps)))
    idle = _bins(idle_frames(t, v_act, tail_s, gaps), w)
    p = (sum(bool(moving[b].any()) for b in idle) + 1) / (len(idle) + 2)
    out = []
    for i in gaps:
        bins = _bins((t >= v_act[i] + tail_s) & (t < v_act[i + 1]), w)
        busy = [b for b in bins if moving[b].any()]
        o, n = len(busy), len(bins)
        if not n or o / n <= p:
            continue
        q = min(o / n, 1 - 1e-9)
        llr = o * np.log(q / p) + (n - o) * np.log((1 - q) / (1 - p))
        if llr >= BUSY_MIN_LLR:
            out.append((i, float(t[busy[0][0]]), float(t[busy[-1][-1]]), o, n, p, float(llr)))
    return out
