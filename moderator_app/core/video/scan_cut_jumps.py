"""`video.cut` candidates where the picture's motion breaks: things that were moving vanish
and things that go on moving appear elsewhere, at one frame (scan_cuts.py judges them with
its others: flashes, a change the game repeats, trains).

Why (session 32, QA s31 T6): a splice inside one game's footage can change less than 1 % of
the picture. Sir Lancelot with 5 s removed at 11.60 s changed 0.5 % of the points (motion
0.38 of 255, 2.9x the file's median); Venture inside one room with 6 s removed at 9.20 s the
same. Neither the cut rule (its floor, `cut_min_motion`) nor the step rule
(scan_cut_steps.py: what changed where the picture held still) sees them: the sprites move
every frame, so no tile held still, and the file's largest change was 2.7x the median. What a
splice breaks that a game does not is *continuity*: in play a moving thing changes, at each
frame, the tiles where it is and where it was a frame before, next to the tiles it changed
at the frame before and the tiles it changes at the next; at a splice every moving thing is
somewhere else at once. Its old place changes at the splice and never again (it was moving
before), its new place changes at the splice and not before (it goes on moving after).

A frame's *jump* (`jumps`): on the scan's 16x16 grid of changed points (`sync_tiles`, a
tile changed when one of its sample points moved beyond SYNC_NOISE), the number of tiles
changed at the frame that were (a) not next to any tile changed in the JUMP_FRAMES frames
before it but next to one changed in the JUMP_FRAMES after (a thing that appears and moves
on), and of those that were (b) next to one changed before and not next to any changed
after (a thing that moved and vanished): the smaller of the two counts. A sprite that moves,
however fast within a tile a frame, a blink (changed neither before nor after), a thing that
appears (no vanishing) or leaves (no appearing) jumps 0; a respawn (one thing vanishing where
another appears) 1-2; a splice as many as the things that moved.

The null model is the file's own: a frame is a candidate when its jump is at least JUMP_MIN
and JUMP_RATIO times the largest jump of the file more than JUMP_APART_S away (the game's
own teleports: a death and respawn, a new room). No place is passed over: two jumps alike
are the game's (an insertion's two edges are the other rules' to find)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moderator_app.core.thresholds import ScanThresholds

from .scan_cut_steps import lighting

if TYPE_CHECKING:
    from .scan import FrameSignals

#: Frames either side a frame's tiles are compared with: 2 bridges a game drawing its
#: sprites every other frame (Atari flicker, a 30 Hz game in 60 fps) and keeps a 25 fps
#: recording's splice (Venture's: 4 tiles at 2, 1 at 3, where the monsters patrol back)
JUMP_FRAMES = 2
#: A candidate's jump is at least this many tiles (QA s31's splices: Sir Lancelot 7,
#: Venture 4; a respawn 1-2)
JUMP_MIN = 4
#: ... and this many times the file's largest other jump (QA s31's: 7 against 0, 4 against 1).
#: The cost, measured (bench/cut_sweep_s31.py): a note on 4 of the corpus' 234 honest runs
#: (Ms. Pac-Man's death, River Raid's respawn twice, Phoenix) and 3 of QA s26-s31's 73 (a
#: respawn in Venture and Tutankham, Blackjack's deal): the game's own teleports, one a file
JUMP_RATIO = 3.0
#: Other frames this close (s) are the same change's (scan_cut_steps.STEP_APART_S)
JUMP_APART_S = 0.5
#: Frames computed at once (`jumps`): an hour at 60 fps is 216,000 frames of 256 tiles
JUMP_BLOCK = 8192


def jump_candidates(sig: FrameSignals, th: ScanThresholds,
                    change: np.ndarray) -> list[tuple[int, str]]:
    """(frame, what) of each frame whose jump stands out of the file's own (module
    docstring), its change under the cut rule's floor (`cut_min_motion`: above it that rule
    judges it). `change`: each frame's change as the cut rule measures it."""
    n = change.shape[0]
    ctx = th.cut_context_frames
    st = sig.sync_tiles
    if n < 2 * ctx + 1 or st.ndim != 3 or st.shape[0] != n:
        return []
    j = jumps(st)
    finite = np.isfinite(np.asarray(sig.motion, np.float64)) & np.isfinite(change)
    t = np.asarray(sig.times_s, np.float64)
    # a frame after a timestamp hole is the timestamp rules' (a VFR hold, a gap), a lighting
    # step the flash rule's; nothing of the first and last frames' (no context)
    hole = np.zeros(n, bool)
    hole[1:] = np.diff(t) > 1.5 * sig.frame_duration_s
    j[~finite | hole | lighting(sig, th)] = 0
    j[:ctx] = j[n - ctx:] = 0
    top = int(np.argmax(j))
    if j[top] < JUMP_MIN or change[top] > th.cut_min_motion:
        return []
    others = np.abs(t - t[top]) > JUMP_APART_S
    bar = int(j[others].max(initial=0))
    if j[top] < JUMP_RATIO * max(bar, 1):
        return []
    return [(top, f"moving things vanished from {int(j[top])} tiles or more and appeared in as "
                  f"many elsewhere at once, {j[top] / max(bar, 1):.1f}x the file's largest "
                  f"other such jump ({bar})")]


def jumps(sync_tiles: np.ndarray) -> np.ndarray:
    """Each frame's jump (module docstring) of `sync_tiles` (frames, rows, columns: changed
    points per tile), in blocks of JUMP_BLOCK frames (bounded memory)."""
    n = sync_tiles.shape[0]
    out = np.zeros(n, np.int64)
    w = JUMP_FRAMES
    for a in range(0, n, JUMP_BLOCK):
        b = min(n, a + JUMP_BLOCK)
        lo, hi = max(0, a - w), min(n, b + w)
        s = np.asarray(sync_tiles[lo:hi]) > 0
        near = _dilate(s)
        before, after = np.zeros_like(s), np.zeros_like(s)
        for d in range(1, w + 1):
            before[d:] |= near[:-d]
            after[:-d] |= near[d:]
        appear = (s & ~before & after).reshape(s.shape[0], -1).sum(axis=1)
        vanish = (s & before & ~after).reshape(s.shape[0], -1).sum(axis=1)
        out[a:b] = np.minimum(appear, vanish)[a - lo:b - lo]
    return out


def _dilate(s: np.ndarray) -> np.ndarray:
    """Each frame's tiles and their 8 neighbours (frames, rows, columns of bool)."""
    o = s.copy()
    o[:, 1:] |= s[:, :-1]
    o[:, :-1] |= s[:, 1:]
    p = o.copy()
    p[:, :, 1:] |= o[:, :, :-1]
    p[:, :, :-1] |= o[:, :, 1:]
    return p
