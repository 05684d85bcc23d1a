"""Novelty per frame and the reaction to each action.

Novelty is the change that is not the screen's ongoing motion: per tile, a frame counts when the
tile changes after being still on the frame before (an onset). A ball crossing the screen makes
onsets too, but at random times relative to the log; a press makes one right after its action.
Each frame's novelty is compared with the local motion level (the mean novelty over the
surrounding second), so a busy stretch does not look like a run of reactions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .signals import FrameSignals

QUIET_S = 0.05      # a tile must be still this long before its change is an onset
LOCAL_S = 1.0        # half-width of the window that gives the local motion level
REACTION_MAX_S = 0.5  # a reaction later than this after its action is not attributed to it
EARLY_FRAMES = 1      # a reaction may show on the frame before the expected one (rounding)


@dataclass(frozen=True)
class Novelty:
    """Per frame: onsets[k, j] (tile j starts changing at k), excess[k] over the local level."""

    onsets: np.ndarray   # bool (n, tiles)
    score: np.ndarray    # float (n,) log1p(onset count)
    excess: np.ndarray   # float (n,) score minus the local mean
    spread: np.ndarray   # float (n,) local standard deviation of score (floored)
    # per tile, a factor on every weight (`calmed`: a busy tile's onsets count less), kept by
    # every novelty made `like` this one; None: 1
    calm: np.ndarray | None = None

    # An analysis weighs the same onsets ~40 times (`novelty(..., like=)`, `tile_weights`):
    # where they are and their running counts are found once (cached in the frozen instance).
    @cached_property
    def onset_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """(frame, tile) of every onset, frame by frame and tile by tile within a frame."""
        return _pairs(self.onsets)

    @cached_property
    def onset_counts(self) -> np.ndarray:
        """Running onset counts per tile (n + 1, tiles): frames a..b have c[b] - c[a]."""
        c = np.zeros((len(self.onsets) + 1, self.onsets.shape[1]), np.int32)
        np.cumsum(self.onsets, axis=0, out=c[1:])
        return c

    @cached_property
    def _next(self) -> dict[float, np.ndarray]:
        return {}

    @cached_property
    def rates_kept(self) -> dict[int, np.ndarray]:
        """`background_rates` of these onsets, by the window's frames."""
        return {}

    def next_standing(self, min_z: float) -> np.ndarray:
        """nxt[k]: the first frame at or after k whose novelty stands `min_z` local spreads
        above the level (len: none), k = 0 .. len. Every action's reaction is then one look
        up (`first_reactions`), and the ~40 measures of an analysis share it."""
        nxt = self._next.get(min_z)
        if nxt is None:
            n = len(self.score)
            ok = (self.excess / self.spread >= min_z) & (self.score > 0)
            idx = np.where(ok, np.arange(n), n)
            nxt = np.concatenate([np.minimum.accumulate(idx[::-1])[::-1], [n]])
            self._next[min_z] = nxt
        return nxt


def novelty(sig: FrameSignals, weights: np.ndarray | None = None,
            like: Novelty | None = None, calm: np.ndarray | None = None) -> Novelty:
    """Onsets and their excess over the local level; `weights` per tile (default 1) make
    onsets in the tiles where reactions happen count more (see `tile_weights`). `like`: a
    novelty of the same signals, whose onsets are reused rather than found again (and whose
    `calm` factors are kept unless `calm` is given: see `calmed`). The plain novelty (no
    weights, `like` or `calm`) is kept on the signals (`FrameSignals.kept`)."""
    if weights is None and like is None and calm is None:
        if "novelty" not in sig.kept:
            sig.kept["novelty"] = _novelty(sig, None, None, None)
        return sig.kept["novelty"]
    return _novelty(sig, weights, like, calm)


def _novelty(sig: FrameSignals, weights: np.ndarray | None, like: Novelty | None,
             calm: np.ndarray | None) -> Novelty:
    """`novelty`, computed."""
    if calm is None and like is not None:
        calm = like.calm
    if calm is not None:
        weights = calm if weights is None else np.asarray(weights, float) * calm
    if like is not None:
        onsets = like.onsets
    else:
        t = sig.tiles
        moving = t > 0
        # Still for QUIET_S before: sprites that move every other frame are ongoing motion.
        quiet = min(max(1, int(round(QUIET_S * sig.fps))), len(moving))  # not past its end
        recent = np.zeros_like(moving)
        for q in range(1, quiet + 1):
            recent[q:] |= moving[:-q]
        onsets = moving & ~recent
    if weights is None:
        score = np.log1p(onsets.sum(axis=1).astype(float))
    else:
        pairs = like.onset_pairs if like is not None else _pairs(onsets)
        score = np.log1p(weighted_counts(pairs, len(onsets), weights))
    # A window no longer than the recording: np.convolve(..., "same") answers max(n, w)
    # values, and 11 frames at 60 fps (a kernel of 121) ended `verify --sync` in a
    # ValueError (session 25)
    half = min(max(1, int(round(LOCAL_S * sig.fps))), (len(score) - 1) // 2)
    kernel = np.ones(2 * half + 1) / (2 * half + 1)
    mean = np.convolve(score, kernel, mode="same")
    sq = np.convolve(score * score, kernel, mode="same")
    spread = np.sqrt(np.maximum(sq - mean * mean, 0.0))
    out = Novelty(onsets, score, score - mean, np.maximum(spread, 0.25), calm)
    if like is not None:  # the same onsets: where they are and their counts, found once
        for name in ("onset_pairs", "onset_counts", "rates_kept"):
            if name in like.__dict__:
                out.__dict__[name] = like.__dict__[name]
    return out


# A tile with an onset in at least this share of reaction windows (`background_rates`) is
# busy: Montezuma's conveyor at 24 fps, 0.94 (it changes every other captured frame).
BUSY_SHARE = 0.5


def calmed(sig: FrameSignals, nov: Novelty, power: int = 1) -> Novelty | None:
    """`nov` with each tile's onsets weighed by (1 - its share of windows with an onset
    (`background_rates`)) ** power, or None when no tile is busy (BUSY_SHARE): nothing to
    calm.

    Why: a press on a screen where some tiles change all the time (a conveyor, a rolling
    skull) gives the player's tiles onsets on frames where the busy tiles have theirs too,
    and the plain count's local spread is the busy tiles' own: Montezuma's Revenge at
    24 fps, its visible presses at z 0.8-2.4 (median 1.7) against the 2.5 a reaction
    needs; weighed, 2.5-4.1 (median 3.2), random frames' 95th percentile 2.2. An onset is
    evidence in proportion to how rarely its tile has one."""
    q = background_rates(sig, nov)
    if not len(q) or float(q.max()) < BUSY_SHARE:
        return None
    return novelty(sig, like=nov, calm=(1.0 - q) ** power)


def _pairs(onsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k, j = np.nonzero(onsets)
    return k, j


def weighted_counts(pairs: tuple[np.ndarray, np.ndarray], frames: int,
                    weights: np.ndarray) -> np.ndarray:
    """Per frame, the sum of the weights of the tiles with an onset, added tile by tile from
    0 (the same bits on any machine). Why not `onsets @ weights`: that goes through BLAS,
    whose threads spin while they wait; on a loaded machine with 2 cores one reweighting
    (8,800 frames x 64 tiles) cost 8-15 ms of CPU against 0.3 ms unloaded, 140 ms of a 150 s
    run's analysis (52 reweightings), and its rounding follows the CPU's kernel. Onsets are
    sparse: summing them alone is cheaper still. `pairs`: (frame, tile) of each onset, in
    that order (`Novelty.onset_pairs`)."""
    k, j = pairs
    return np.bincount(k, weights=np.asarray(weights, float)[j], minlength=frames)


@dataclass(frozen=True)
class Reaction:
    """The reaction measured for one action, at one offset."""

    index: int                 # action index
    run_s: float               # the action's run time
    expected_video_s: float    # offset + run time (at the fitted speed)
    video_s: float | None      # first frame showing a reaction, None when none
    delay_s: float | None      # video_s - expected_video_s
    confidence: float          # 0..1: how far the reaction stands above the local motion
    # answered within REACTION_MAX_S, the window `sync.no_reaction`'s chance model was set on,
    # when the reader's own window is narrower (`answers`: ANSWER_MAX_S); None: `video_s`
    # says it (`measure`, whose window is that one)
    within_rule: bool | None = None
    # answered only at the scan's finer positions (`finer_surprising`): its frame holds no
    # 8x8 onset that answers. The readers that learn the player's 8x8 tiles from the answered
    # frames' onsets (`stretch.input_tiles`) leave it out: it has none there to learn from
    finer: bool = False

    @property
    def missed(self) -> bool:
        """No reaction within REACTION_MAX_S: what `sync.no_reaction` counts a miss, and
        what a reader asking "did the picture answer this press at all" reads. Why apart
        from `video_s`: the per-action reader attributes a press only the frame within
        ANSWER_MAX_S, and its unattributed presses are not misses by the rule's measure
        (session 35: `combine._unseen` read them so and put a false `sync.no_reaction` on
        H.E.R.O.'s genuine run at 30 fps)."""
        return self.video_s is None if self.within_rule is None else not self.within_rule


def frame_at(times: np.ndarray, t: float) -> int:
    """Index of the first frame shown at or after video time t (len(times) past the end)."""
    return int(np.searchsorted(times, t - 1e-6))


# A frozen picture (footage held still) is told from a game's own stillness by the run's
# other still stretches under input: the stretch of consecutive frames where not one point
# of the whole picture changes must last FROZEN_MIN_S and FROZEN_RATIO times the longest
# still stretch elsewhere in the run that an action falls in (a press that shows nothing is
# the game's, and so is the stillness around it). Frostbite (in no corpus set when measured)
# stands still up to 2.03 s between its floes' steps, with presses in it: two genuine
# stretches of misses over 1.95 s and 1.75 s of stillness were a false `sync.no_reaction`
# ("the whole picture stands still" was 88 % of their frames still: the run's 81 %); its
# run frozen 4 s: 4.0 s against 2.03 s. Breakout through a CRF 32 recorder: its freeze 3.73 s,
# the still stretches with an action elsewhere at most 2.58 s (1.45x; its lead-in, 3.8 s,
# and its lost ball, 5.0 s, hold none).
FROZEN_MIN_S = 1.0
FROZEN_RATIO = 1.3


def still_spans(sig: FrameSignals) -> np.ndarray:
    """(m, 2) first and last frame of each stretch of consecutive frames where not one
    point of the whole picture (`picture_change`: the band's whole picture too) changes."""
    still = np.asarray(sig.picture_change) == 0
    if not len(still):
        return np.zeros((0, 2), int)
    d = np.diff(np.r_[0, still.astype(np.int8), 0])
    return np.c_[np.nonzero(d == 1)[0], np.nonzero(d == -1)[0] - 1]


def frozen(sig: FrameSignals, v0: float, v1: float, actions_v,
           held_s: float | None = None) -> bool:
    """Does the picture freeze between video times v0 and v1: a still stretch touching that
    span lasts FROZEN_MIN_S and FROZEN_RATIO times the run's longest still stretch that does
    not touch it and holds one of the actions (expected at video times `actions_v`), or, when
    held_s is given, at least held_s (what the scan calls `video.frozen`)? With held_s, a
    shorter stretch the game's own event began (`entered_by_event`) is not one."""
    spans = still_spans(sig)
    if not len(spans):
        return False
    k0, k1 = frame_at(sig.times, v0), frame_at(sig.times, v1)
    length = (spans[:, 1] - spans[:, 0] + 1) / max(sig.fps, 1e-6)
    touch = (spans[:, 1] >= k0) & (spans[:, 0] <= k1)
    ka = np.searchsorted(sig.times, np.asarray(actions_v, float) - 1e-6)
    held = np.zeros(len(spans), bool)
    if len(ka):
        j = np.searchsorted(spans[:, 0], ka, side="right") - 1  # the stretch starting before
        ok = (j >= 0) & (ka <= spans[np.maximum(j, 0), 1])
        held[j[ok]] = True
    if not touch.any():
        return False
    longest = int(np.flatnonzero(touch)[np.argmax(length[touch])])
    inside = float(length[longest])
    other = ~touch & held
    outside = float(length[other].max()) if other.any() else 0.0
    if held_s is not None and inside >= held_s:
        return True
    # (with `held_s`: a stretch shorter than the scan's freeze begun by the game's own event
    # is its pause; without, as before: `analysis._misses_frozen` keeps a band's findings)
    return inside >= FROZEN_MIN_S and inside >= FROZEN_RATIO * outside and not (
        held_s is not None and entered_by_event(sig.picture_change, int(spans[longest, 0])))


# A still stretch is entered by the game's own event when the change into it is one an edit's
# freeze would start at by chance no more often than this (`entered_by_event`).
ENTRY_CHANCE = 0.01


def entered_by_event(change, first: int) -> bool:
    """Is the picture held from frame `first` entered by a change (`change[first - 1]`, the
    frame before the first held one) that no more than ENTRY_CHANCE of the video's frames
    reach? A null model of the freeze, not a threshold fitted to a game: footage frozen by
    an edit repeats the frame it froze at, a frame of ordinary play anywhere in the video,
    so the change into it is one of the video's own drawn at random; a game's own pause
    is often begun by its own event, the screen redrawn (a death's flash, a new room) and
    then held. One-sided, as `resume.resumes_gradually` is for a held picture's end: a
    pause entered by an ordinary change is still compared with the run's other still
    stretches (`frozen`), and the scan's `video.frozen` (at `held_s`) is not asked this.
    QA s31 T1, tutankham-genuine@r24mpeg1ts: the flash bomb (UPFIRE) recolours the maze at
    36.25 and 37.08 s (18,127 and 18,108 points, the video's two largest changes of 1,058
    frames; its changed frames' median 50) and holds it 2.17 s under two ignored presses, the
    run's other still stretches under a press 0.83 s at most: a `sync.no_reaction` at every
    offset."""
    c = np.nan_to_num(np.asarray(change, float))
    if first < 1 or first > len(c) or not len(c):
        return False
    entry = float(c[first - 1])
    return entry > 0 and int(np.count_nonzero(c >= entry)) <= ENTRY_CHANCE * len(c)


def first_reactions(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, offset,
                    speed: float = 1.0,
                    min_z: float = 2.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`measure` as arrays, per action: (expected video time, has a reaction, its frame (0
    when none)). For the learned fit's shuffled logs, which need only the frames."""
    exps = offset + np.asarray(run_s, float) / speed
    hit, best = _first_within(sig.times, nov.next_standing(min_z), exps, REACTION_MAX_S)
    return exps, hit, best


def _first_within(times: np.ndarray, nxt: np.ndarray, exps: np.ndarray,
                  max_s: float) -> tuple[np.ndarray, np.ndarray]:
    """Per expected video time, (has an answer, its frame (0 when none)): the first frame
    `nxt` names (nxt[k]: the first answering frame at or after k, len(times) for none) from
    EARLY_FRAMES before the expected frame to `max_s` after it. One window for both readers
    (`measure`'s REACTION_MAX_S, `answers`' ANSWER_MAX_S)."""
    n = len(times)
    # frame_at for every action at once (one binary search per action was most of the cost)
    k0s = np.maximum(0, np.searchsorted(times, exps - 1e-6) - EARLY_FRAMES)
    k1s = np.minimum(n, np.searchsorted(times, exps + max_s - 1e-6))
    first = nxt[np.minimum(k0s, n)]
    hit = (k0s < k1s) & (first < k1s)
    return hit, np.where(hit, first, 0)


def _built(run_s: np.ndarray, exps: np.ndarray, hit: np.ndarray, vs: np.ndarray,
           conf: np.ndarray, rule: np.ndarray | None = None,
           finer: np.ndarray | None = None) -> list[Reaction]:
    """One Reaction per action from the readers' arrays (expected time, answered, the
    answer's video time and confidence, whether it is answered within REACTION_MAX_S
    when the reader's window is another, and whether only at the finer positions):
    `measure`'s and `answers`' one loop."""
    out = []
    for i, e in enumerate(run_s.tolist()):
        exp = float(exps[i])
        within = None if rule is None else bool(rule[i])
        if not hit[i]:
            out.append(Reaction(i, e, exp, None, None, 0.0, within))
        else:
            v = float(vs[i])
            out.append(Reaction(i, e, exp, v, v - exp, float(conf[i]), within,
                                finer is not None and bool(finer[i])))
    return out


def measure(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, offset,
            speed: float = 1.0, min_z: float = 2.5) -> list[Reaction]:
    """For each action, the first frame within REACTION_MAX_S after its expected time whose
    novelty stands at least `min_z` local spreads above the level. `offset`: one for
    every action, or an array of one per action (a spliced run's stretches)."""
    run_s = np.asarray(run_s, float)
    exps, hit, best = first_reactions(sig, nov, run_s, offset, speed, min_z)
    z = nov.excess[best] / nov.spread[best]
    conf = np.minimum(1.0, np.maximum(0.0, (z - min_z + 1.0) / 4.0))
    return _built(run_s, exps, hit, sig.times[best], conf)


# The per-action reader (`answers`, session 34): a press's first change is one or two onsets
# in the player's tiles, where the screen's count of onsets (`novelty`) reads it only when
# those are most of the frame's. So a frame also answers when its onsets are surprising where
# they fall: per onset tile, -log(the tile's own onset rate over the second around it +
# SURPRISE_FLOOR) less SURPRISE_DISCOUNT, and nothing below 0 (a tile with an onset more
# often than one frame in 8.7 adds nothing, however many such tiles a busy screen has), the
# frame's sum at least SURPRISE_MIN: two onsets in tiles still for the second around them
# (1.91 each), or one there and one in a tile with an onset once a second or so. The answer is
# looked for within ANSWER_MAX_S of the expected frame, not REACTION_MAX_S: the wide set's
# truth (152 genuine runs, 2,393 shown presses) shows 91 % of them within 2 frames and 98.6 %
# within 0.15 s, and later frames answered unshown presses by chance. Measured at the true
# offset (scripts/reader_recall_s34.py): right within a frame 762 -> 1,214 of 2,393, false
# answers 879 -> 512; untuned games (wide_corpus.TUNED's complement, 24 games) 206 -> 328 of
# 720, false 284 -> 158.
SURPRISE_FLOOR = 0.02
SURPRISE_DISCOUNT = 2.0
SURPRISE_MIN = 3.0
ANSWER_MAX_S = 0.15


def surprise(sig: FrameSignals, nov: Novelty | None = None) -> np.ndarray:
    """Per frame, the sum over its onset tiles (`nov`'s, the plain novelty's by default) of
    max(0, -log(r + SURPRISE_FLOOR) - SURPRISE_DISCOUNT), r the tile's onset rate over the
    LOCAL_S on either side of the frame, the frame itself left out. Kept on the signals for
    the plain novelty."""
    if nov is None and "surprise" in sig.kept:
        return sig.kept["surprise"]
    base = nov or novelty(sig)
    onsets = base.onsets
    n = len(onsets)
    if not n:
        return np.zeros(0)
    half = min(max(1, int(round(LOCAL_S * sig.fps))), max(1, (n - 1) // 2))
    c = base.onset_counts
    k = np.arange(n)
    lo, hi = np.maximum(0, k - half), np.minimum(n, k + half + 1)
    kf, j = base.onset_pairs
    # the tile's onsets in the window, its own at the frame left out (whole counts: exact)
    rate = (c[hi[kf], j] - c[lo[kf], j] - 1) / np.maximum(hi[kf] - lo[kf] - 1, 1)
    each = np.maximum(0.0, -np.log(rate + SURPRISE_FLOOR) - SURPRISE_DISCOUNT)
    out = np.bincount(kf, weights=each, minlength=n)
    out.setflags(write=False)
    if nov is None:
        sig.kept["surprise"] = out
    return out


# ... and the frame's surprise must also stand SURPRISE_NULL_Z spreads over what its own second
# gives a frame by chance (`surprise_null`): on a screen whose 64 tiles each burst about once
# a second at random (tests/sync/test_sync_band_at_offset.py), 12.8 % of frames reach
# SURPRISE_MIN with no press, and `answers` answered 12 and 13 of 14 presses 0.5 s either
# side of the truth (session 35); at 4 spreads none and 1 (0.5 % of its frames pass). A
# frame's onsets are few whole tiles, so the sum's tail is longer than a normal one: at 2
# spreads 8.9 % of that screen's frames still passed. At the truth of the wide set's and QA
# s28-s35's genuine runs (222, 3,344 shown presses; session 36, `answers` alone): right
# within a frame 1,809 -> 1,725, false 652 -> 611, presses answered 0.5 s before / after the
# truth 1,060 / 1,086 -> 959 / 960 (at 2 spreads 1,803, 648, 1,056 / 1,076; at 3 1,780, 634,
# 1,032 / 1,031): a tenth of the chance answers for a twentieth of the right ones.
SURPRISE_NULL_Z = 4.0


def surprise_null(sig: FrameSignals) -> tuple[np.ndarray, np.ndarray]:
    """Per frame, the mean and spread of `surprise` a frame of its second shows by chance:
    every tile onsets independently at its own rate r over the LOCAL_S on either side (the
    frame left out, as `surprise`), adding max(0, -log(r + SURPRISE_FLOOR) -
    SURPRISE_DISCOUNT) when it does: mean sum(r s), variance sum(r (1 - r) s^2). A still
    screen's bar is ~0 (SURPRISE_MIN decides); a screen of moderately busy tiles raises it
    to what its own chance coincidences reach. Kept on the signals (the plain onsets')."""
    if "surprise_null" in sig.kept:
        return sig.kept["surprise_null"]
    base = novelty(sig)
    n = len(base.onsets)
    if not n:
        return np.zeros(0), np.zeros(0)
    half = min(max(1, int(round(LOCAL_S * sig.fps))), max(1, (n - 1) // 2))
    c = base.onset_counts
    k = np.arange(n)
    lo, hi = np.maximum(0, k - half), np.minimum(n, k + half + 1)
    rate = (c[hi] - c[lo] - base.onsets) / np.maximum(hi - lo - 1, 1)[:, None]
    each = np.maximum(0.0, -np.log(rate + SURPRISE_FLOOR) - SURPRISE_DISCOUNT)
    mean = (rate * each).sum(axis=1)
    spread = np.sqrt((rate * (1.0 - rate) * each * each).sum(axis=1))
    out = (mean, spread)
    for a in out:
        a.setflags(write=False)
    sig.kept["surprise_null"] = out
    return out


def surprising(sig: FrameSignals) -> np.ndarray:
    """Per frame, whether its onsets' `surprise` answers: at least SURPRISE_MIN and
    SURPRISE_NULL_Z spreads over its second's chance (`surprise_null`)."""
    sur = surprise(sig)
    mean, spread = surprise_null(sig)
    return (sur >= SURPRISE_MIN) & (sur >= mean + SURPRISE_NULL_Z * spread)


# ... and, with `finer` (Thresholds.sync_finer_reader), the same reading of the onsets at the
# scan's finer positions (`finer_surprising`): a sprite already moving whose course a press
# changes (a turn, a stop, a new speed) keeps its 8x8 tile changing, so no onset and no
# surprise there (QA s35 / s36 T1: "not enough signal" where presses show), but it puts its
# change into a finer cell that was still. Two views of the scan's 16x16 tiles, each judged
# against its own second's chance (`surprise_null`) at its own bar: the 16x16 tiles at
# FINE_NULL_Z, and the 8x8 grid moved down half a tile (`FrameSignals.half_shifted`: a sprite
# moving along a row boundary) at HALF_NULL_Z. A finer grid's sum of many small tiles has a
# longer tail than the 8x8's, hence bars above SURPRISE_NULL_Z. At the truth of the wide set's
# and QA s28-s36's genuine runs (232 runs, 3,436 shown presses; session 37): right within a
# frame 1,773 -> 1,946, false 636 -> 675, presses answered 0.5 s before or after the truth
# 1,978 -> 2,175 (as many chance answers per right one as before); recall up in 72 runs, down
# in none. Read on the change's amount instead (a tile's step against its own last two),
# the answers added were half as good as lowering SURPRISE_NULL_Z (session 37's fragment).
FINE_NULL_Z = 10.0
HALF_NULL_Z = 6.0


def finer_surprising(sig: FrameSignals) -> np.ndarray | None:
    """Per frame, whether its onsets at the scan's finer positions answer (`surprising` on
    the 16x16 tiles at FINE_NULL_Z or on the half-shifted 8x8 grid at HALF_NULL_Z); None
    when the signals carry no finer tiles (a band's, a coarser grid's). Kept on the
    signals: every offset's reading asks again."""
    if "finer_surprising" in sig.kept:
        return sig.kept["finer_surprising"]
    out = None
    for view, z in ((sig.finer(), FINE_NULL_Z), (sig.half_shifted(), HALF_NULL_Z)):
        if view is None or len(view) != len(sig):
            continue
        sur = surprise(view)
        mean, spread = surprise_null(view)
        ok = (sur >= SURPRISE_MIN) & (sur >= mean + z * spread)
        out = ok if out is None else out | ok
    if out is not None:
        out.setflags(write=False)
    sig.kept["finer_surprising"] = out
    return out


def answering(sig: FrameSignals, nov: Novelty, min_z: float,
              finer: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Per frame, whether the per-action reader answers there (`answers`): at the 8x8 tiles
    (`nov`'s standing frames at `min_z`, or the onsets' surprise), and at the finer
    positions (`finer_surprising`; None without `finer` or finer tiles). One place for the
    frames `answers` and `answer_fit` read."""
    z = nov.excess / nov.spread
    coarse = ((z >= min_z) & (nov.score > 0)) | surprising(sig)
    return coarse, finer_surprising(sig) if finer else None


def answers(sig: FrameSignals, run_s, offset, speed: float = 1.0,
            min_z: float = 2.5, nov: Novelty | None = None,
            max_s: float = ANSWER_MAX_S, finer: bool = False) -> list[Reaction]:
    """Each action's first reaction as the per-action reader reads it: the first frame from
    EARLY_FRAMES before its expected one to ANSWER_MAX_S after it whose plain novelty stands
    `min_z` local spreads over the level (as `measure`) or whose onsets' `surprise` is at
    least SURPRISE_MIN. Confidence: the larger of the two readings' (`measure`'s scale;
    surprise 1 at SURPRISE_MIN + 3 nats). `offset`: one, or one per action (as `measure`).
    `nov`: the novelty whose standing frames are read (default the plain one; the surprise is
    always the plain onsets'). `max_s`: the window. Each Reaction also says whether a frame
    answers within REACTION_MAX_S (`Reaction.within_rule`, `missed`): `sync.no_reaction`
    counts its misses at the window its chance model was set on, and so does every reader
    asking whether the picture answered a press at all (`combine._unseen`). `finer`: a
    frame whose onsets at the scan's finer positions are surprising answers too
    (`finer_surprising`)."""
    nov = nov or novelty(sig)
    n = len(sig)
    run_s = np.asarray(run_s, float)
    exps = offset + run_s / speed
    if n == 0:  # no frame to answer (and none to index)
        none = np.zeros(len(run_s), bool)
        return _built(run_s, np.broadcast_to(exps, run_s.shape), none, none, none, none)
    z = nov.excess / nov.spread
    sur = surprise(sig)
    coarse, fine = answering(sig, nov, min_z, finer)
    ok = coarse if fine is None else coarse | fine
    idx = np.where(ok, np.arange(n), n)
    nxt = np.concatenate([np.minimum.accumulate(idx[::-1])[::-1], [n]])
    hit, best = _first_within(sig.times, nxt, exps, max_s)
    rule = hit if max_s == REACTION_MAX_S else _first_within(
        sig.times, nxt, exps, REACTION_MAX_S)[0]
    conf = np.maximum(np.clip((z[best] - min_z + 1.0) / 4.0, 0.0, 1.0),
                      np.clip((sur[best] - SURPRISE_MIN + 1.0) / 4.0, 0.0, 1.0))
    return _built(run_s, exps, hit, sig.times[best], conf, rule,
                  None if fine is None else ~coarse[best])


def read(sig: FrameSignals, nov: Novelty, run_s, offset, speed: float = 1.0,
         min_z: float = 2.5, per_action: bool = False,
         finer: bool = False) -> list[Reaction]:
    """The reactions the findings and the reaction lane read: `answers` (on `nov`'s standing
    frames and the plain onsets' surprise, at the finer positions too with `finer`, within
    ANSWER_MAX_S) when `per_action`, else `measure` (`nov`'s standing frames within
    REACTION_MAX_S)."""
    if per_action:
        return answers(sig, run_s, offset, speed, min_z, nov=nov, finer=finer)
    return measure(sig, nov, np.asarray(run_s, float), offset, speed, min_z)


def window(per_action: bool = False) -> float:
    """How long after its expected time `read` looks for an action's reaction."""
    return ANSWER_MAX_S if per_action else REACTION_MAX_S


def background_rates(sig: FrameSignals, nov: Novelty,
                     window_s: float = 0.08) -> np.ndarray:
    """Per tile, the share of frames that have an onset within a reaction window's length.
    Kept on `nov` by the window's frames (read-only): a reading at an offset asks again for
    the same novelty's (its band, busy tiles and readings: 4-5 of 13 asks, session 31)."""
    w = max(1, int(round(window_s * sig.fps))) + 1
    kept = nov.rates_kept
    if w not in kept:
        c = nov.onset_counts  # the running counts from a row of zeros (whole numbers: exact)
        span = c[w:] - c[:-w]
        rates = (span > 0).mean(axis=0) if len(span) else np.zeros(nov.onsets.shape[1])
        rates.setflags(write=False)
        kept[w] = rates
    return kept[w]


def tile_weights(sig: FrameSignals, nov: Novelty, video_s, q: np.ndarray,
                 window_s: float = 0.08, floor: float = 1.0) -> np.ndarray | None:
    """Per tile, how much likelier an onset is right after a reaction than anywhere (q, from
    `background_rates`): floor + log((p + a) / (q + a)) clipped to [floor, floor + 3], so
    that no tile is ignored (floor > 0). None with too few reactions to learn from."""
    if len(video_s) < 6:
        return None
    n = len(nov.onsets)
    w = max(1, int(round(window_s * sig.fps)))
    ks = np.searchsorted(sig.times, np.asarray(video_s) - 1e-6)
    # per tile, the reactions with an onset in frames k-1 .. k+w-1 (whole counts: exact)
    c = nov.onset_counts
    lo, hi = np.minimum(n, np.maximum(0, ks - 1)), np.minimum(n, ks + w)
    hit = ((c[hi] - c[lo]) > 0).sum(axis=0).astype(float)
    p = hit / len(video_s)
    a = 0.02
    return floor + np.clip(np.log((p + a) / (q + a)), 0.0, 3.0)
