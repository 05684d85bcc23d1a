"""The player's band: the reaction of the controlled sprite alone, for screens that move on
their own.

Where onsets over the whole picture give "not enough signal" (a ball and the other paddle
start and stop all the time: Pong), the sprite the actions move is usually confined to one
column (a paddle moving up and down) or one row (a paddle, a ship, a walker) of the 8x8 grid.
In that band alone, the first change after a press is the sprite answering it, 0.5 to 6
frames late (Pong's paddle accelerates and moves every other frame), and little else starts
there. So: for every column and row, count the actions followed by an onset in the band
within `WINDOW_S`, at every offset; the band whose best count is least likely at its own
onset rate is the candidate. Choosing the best of 16 bands would find one by chance on
any log, so the shuffled logs choose theirs the same way, and the real log must beat them
all and stand clear of them (`select`). The full analysis then runs on that band's tiles.
"""

from __future__ import annotations

import numpy as np

from .fit import short_of
from .reactions import BUSY_SHARE, Novelty, background_rates, novelty
from .signals import FrameSignals

WINDOW_S = 0.1      # a sprite answers within this long (Pong's paddle: up to 6 frames)
NULL_SETS = 19      # shuffled logs, as in the fit's own test


def bands(grid: int) -> list[np.ndarray]:
    """Tile indices of every column, then every row, of a grid x grid tiling."""
    idx = np.arange(grid * grid).reshape(grid, grid)
    return [idx[:, c] for c in range(grid)] + [idx[r, :] for r in range(grid)]


def _window_hits(sig: FrameSignals, nov: Novelty, grid: int) -> np.ndarray:
    """hit[k, b]: band b has an onset in frames k-1 .. k+W (an action shown at k). Read-only,
    and kept on `sig` for its next asker with the same novelty (`FrameSignals.kept`): one
    analysis asked 11-13 times for 3 distinct ones (the bands' selection, `near_offset`,
    `select_at`, the band splices', on the same signals and their plain novelty)."""
    key = ("window_hits", grid)
    got = sig.kept.get(key)
    if got is not None and got[0] is nov:
        return got[1]
    hit = _hits(sig, nov, grid)
    hit.flags.writeable = False
    sig.kept[key] = (nov, hit)
    return hit


def _hits(sig: FrameSignals, nov: Novelty, grid: int) -> np.ndarray:
    """`_window_hits`, computed."""
    # every column's, then every row's (`bands`' order), from the tiles laid out as the grid:
    # grid in-place ORs of one row (or column) of tiles per band set, not a reduction per
    # band nor `any` over an axis of the grid (numpy's is slow on these short axes: on
    # Seaquest's 2,608 frames 0.45 ms at 8x8 and 1.0 at 16x16, against 0.9 and 4.5 per band,
    # 3.7 and 6.0 by `any`)
    t = nov.onsets[:, :grid * grid].reshape(len(nov.onsets), grid, grid)
    cols, rows = t[:, 0, :].copy(), t[:, :, 0].copy()
    for i in range(1, grid):
        cols |= t[:, i, :]
        rows |= t[:, :, i]
    on = np.concatenate([cols, rows], axis=1)
    w = max(1, int(round(WINDOW_S * sig.fps)))
    c = np.vstack([np.zeros((1, on.shape[1]), np.int32), np.cumsum(on, axis=0, dtype=np.int32)])
    n = len(on)
    lo = np.clip(np.arange(n) - 1, 0, n)
    hi = np.clip(np.arange(n) + w + 1, 0, n)
    return (c[hi] - c[lo]) > 0


def _spectrum(hit: np.ndarray, span: int) -> tuple[np.ndarray, int]:
    """The bands' hits in the frequency domain, padded for actions up to `span` frames after
    the first: every log's counts at every offset are then one product (`_band_llr`)."""
    size = 1 << int(np.ceil(np.log2(len(hit) + span + 1)))
    return np.fft.rfft(hit.astype(float), size, axis=0), size


# Logs of at most DIRECT_ACTIONS actions, and at most DIRECT_TERMS actions x frames, are
# counted directly (`_best_counts`), others by the FFT product. Why: the counts are whole
# numbers either way (the product's, rounded), and a 40 s run's 23 actions cost 23 shifted
# additions of the bands' hits (49 us a log, in bytes) against 790 us for the product's
# inverse transform; 20 logs (the real one and its shuffled ones) were a tenth of an
# analysis. At most 255: a byte holds every count; the terms bound a long video's work.
DIRECT_ACTIONS = 255
DIRECT_TERMS = 4_000_000


# Bands whose product with a log's spectrum is transformed back at once (`_best_counts`): the
# same counts, bit for bit, as all at once, in a quarter of the memory at the scan's 16x16
# grid (32 bands; an hour at 60 fps: 268 MB of product and counts for all 32, 67 MB for 8).
SPECTRUM_BANDS = 8


def _direct(actions: int, frames: int) -> bool:
    return actions <= DIRECT_ACTIONS and actions * frames <= DIRECT_TERMS


def _best_counts(hit: np.ndarray, spec: tuple[np.ndarray, int] | None,
                 ks: np.ndarray) -> np.ndarray:
    """Per band, the most actions (shown at frames `ks`, the first at 0) with a hit at any
    offset of the footage's frames: max over k of sum over j of hit[k + ks[j]] (zero past the
    footage), as floats. Directly for a few actions, else from `spec` (`_spectrum`)."""
    n = len(hit)
    if _direct(len(ks), n):
        pad = np.zeros((n + int(ks.max()), hit.shape[1]), np.uint8)
        pad[:n] = hit
        acc = np.zeros(hit.shape, np.uint8)
        for k in ks.tolist():
            acc += pad[k:k + n]
        return acc.max(axis=0).astype(float)
    assert spec is not None  # (made for logs of more actions)
    h, size = spec
    comb = np.bincount(ks, minlength=size)[:size].astype(float)
    c = np.conj(np.fft.rfft(comb))[:, None]
    best = np.empty(h.shape[1])
    for j in range(0, h.shape[1], SPECTRUM_BANDS):  # (each band's transform is its own)
        counts = np.fft.irfft(h[:, j:j + SPECTRUM_BANDS] * c, size, axis=0)[:n]
        best[j:j + SPECTRUM_BANDS] = np.rint(counts).max(axis=0)  # the best offset's count
    return best


def _band_llr(hit: np.ndarray, spec: tuple[np.ndarray, int] | None, fps: float,
              run_s: np.ndarray, rate: np.ndarray | None = None) -> np.ndarray:
    """Per band, how far its best offset's count of actions with an onset stands above the
    band's onset rate: the binomial log-likelihood ratio (a z-score over offsets made a band
    with one onset in the whole run look perfect). Offsets on the frame grid, actions at their
    nearest frame at the recording's rate (a selection; the fit that follows is exact).
    `rate`: hit.mean(axis=0), when the caller has it (one per set of logs)."""
    ks = np.round(np.asarray(run_s) * fps).astype(np.int64)
    ks -= ks.min()
    c = _best_counts(hit, spec, ks)
    return _binomial_llr(c, float(len(ks)), hit.mean(axis=0) if rate is None else rate)


def _binomial_llr(c: np.ndarray, m: float, rate: np.ndarray) -> np.ndarray:
    """Per band, the binomial log-likelihood ratio of `c` of `m` actions answered against
    the band's own onset `rate` (0 where it answers no more often than that rate)."""
    p = np.clip(rate, 1e-4, 1 - 1e-4)
    c = np.clip(c, 0.0, m - 1e-9)
    with np.errstate(divide="ignore", invalid="ignore"):
        llr = c * np.log(np.maximum(c, 1e-9) / (m * p)) + \
            (m - c) * np.log((m - c) / (m * (1 - p)))
    return np.where(c > m * p, llr, 0.0)


def select(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, min_null_z: float,
           grid: int) -> tuple[np.ndarray | None, float]:
    """The tiles of the band that singles out one offset far better than the shuffled logs'
    best bands do, with that margin in their spreads; (None, margin) when none does, the
    margin then under `min_null_z` but not always the one over all NULL_SETS shuffled logs:
    they stop as soon as the answer is None, when one of them does as well as the real log
    (0.0) or the margin over all of them provably stays under `min_null_z`
    (`fit.under_bound`, returned). Why: a silent run's bands were chosen five to seven
    times per analysis (8x8, 16x16, half-shifted, at a drift, the first half), each against
    19 shuffled logs, most of them settled after 1-9 (Seaquest's genuine run)."""
    hit = _window_hits(sig, nov, grid)
    spec = _spectrum(hit, int(np.ceil((run_s[-1] - run_s[0]) * sig.fps)) + 2) \
        if not _direct(len(run_s), len(hit)) else None
    rate = hit.mean(axis=0)
    z = _band_llr(hit, spec, sig.fps, run_s, rate)
    real = float(z.max())
    rng = np.random.default_rng(len(run_s))
    null: list[float] = []
    for _ in range(NULL_SETS):
        gaps = np.diff(run_s)
        rng.shuffle(gaps)
        null.append(float(_band_llr(hit, spec, sig.fps, np.concatenate(
            [run_s[:1], run_s[0] + np.cumsum(gaps)]), rate).max()))
        if null[-1] >= real:
            return None, 0.0  # real <= the shuffled logs' best: no band, whatever the rest
        if (bound := short_of(real, null, NULL_SETS, min_null_z)) is not None:
            return None, bound
    nz = np.array(null)
    margin = (real - nz.mean()) / max(float(nz.std()), 1e-6)
    if real <= nz.max() or margin < min_null_z:
        return None, margin
    return bands(grid)[int(z.argmax())], margin


# `select_over_speeds` reads every SPEED_STRIDE-th speed, then the neighbours of the best.
SPEED_STRIDE = 2


def select_over_speeds(sig: FrameSignals, nov: Novelty, run_s: np.ndarray,
                       speeds: np.ndarray, min_null_z: float, grid: int
                       ) -> tuple[np.ndarray | None, float, float]:
    """`select` with the log's clock searched too: the band and the speed (run seconds per
    video second, one of `speeds`) whose best offset's count stands highest over the bands'
    own rates, against the shuffled logs' best over the same speeds and bands (each shuffled
    log searched as the real one is); (tiles, margin, speed), tiles None when the real log
    does not beat every shuffled one, and by `min_null_z` spreads (the margin is then 0.0
    when a shuffled log reached it: the search stops there; or, as `select`'s, a bound under
    `min_null_z` once the margin over all of them provably stays under it). Why the shuffled logs search the speeds too:
    the best of 16 bands x N speeds finds a band by chance on any log.

    Why at all: the band is otherwise chosen at speed 1 or at the speed the whole picture's
    fit proposes (`analysis._drift_speed`), and on a sped-up run whose whole picture is the
    game's own motion that fit proposes a chance speed: Kangaroo +3.7 % at 48 fps, its whole
    picture -2 % (the band there: none), its band at 1.037 12.3 spreads over the shuffled
    logs' best (session 29)."""
    e = np.asarray(run_s, float)
    hit = _window_hits(sig, nov, grid)
    rate = hit.mean(axis=0)
    lo = float(np.min(speeds))
    spec = _spectrum(hit, int(np.ceil((e[-1] - e[0]) / lo * sig.fps)) + 2) \
        if not _direct(len(e), len(hit)) else None

    def at(log: np.ndarray, i: int) -> tuple[float, int]:
        z = _band_llr(hit, spec, sig.fps, log / float(speeds[i]), rate)
        j = int(z.argmax())
        return float(z[j]), j

    def best(log: np.ndarray, stop: float = np.inf) -> tuple[float, int, int]:
        # every other speed, then the two beside the best of those (half the work; a band
        # answers within WINDOW_S, and 0.5 % over a 40 s run's middle is +-0.1 s at its ends);
        # done as soon as a score reaches `stop` (a shuffled log that reaches the real one's
        # refuses it whatever the rest: the same answer, at a few logs' cost on silent runs)
        top, bi, si = -1.0, 0, 0
        for i in range(0, len(speeds), SPEED_STRIDE):
            t, j = at(log, i)
            if t > top:
                top, bi, si = t, j, i
            if top >= stop:
                return top, bi, si
        for i in (si - 1, si + 1):
            if 0 <= i < len(speeds):
                t, j = at(log, i)
                if t > top:
                    top, bi, si = t, j, i
        return top, bi, si

    real, b, i = best(e)
    rng = np.random.default_rng(len(e))
    null = []
    for _ in range(NULL_SETS):
        gaps = np.diff(e)
        rng.shuffle(gaps)
        null.append(best(np.concatenate([e[:1], e[0] + np.cumsum(gaps)]), real)[0])
        if null[-1] >= real:  # (refused: the margin is not needed)
            return None, 0.0, float(speeds[i])
        if (bound := short_of(real, null, NULL_SETS, min_null_z)) is not None:
            return None, bound, float(speeds[i])  # (the margin can no longer reach the bar)
    nz = np.array(null)
    margin = (real - nz.mean()) / max(float(nz.std()), 1e-6)
    if margin < min_null_z:
        return None, margin, float(speeds[i])
    return bands(grid)[b], margin, float(speeds[i])


def at_offset(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, offset_s: float,
              grid: int) -> tuple[np.ndarray | None, float]:
    """The tiles of the band whose onsets answer the presses best at `offset_s` (the
    moderator's: given, not searched for, so no shuffled logs choose theirs): the most
    actions with an onset in the band within WINDOW_S, as the binomial log-likelihood ratio
    against the band's own onset rate (`_band_llr`'s, at one offset); and how far that count
    stands over the band's counts at every offset within AT_RANGE_S of it, in their spreads
    (a mistyped or default offset is one the band answers at only by chance). (None, 0.0)
    when no band answers more often than its rate."""
    return _at(sig, _window_hits(sig, nov, grid), np.asarray(run_s, float), offset_s, grid)


def _at(sig: FrameSignals, hit: np.ndarray, e: np.ndarray, offset_s: float,
        grid: int, rate: np.ndarray | None = None, memo: dict | None = None,
        reach: int = 0) -> tuple[np.ndarray | None, float]:
    """`at_offset` on the bands' window hits `hit` (`_window_hits`; `rate`: their mean over
    the frames, when the caller has it; `memo`: `_shift_counts`' for these hits, each table
    `reach` frames wider on either side than one offset reads)."""
    n = len(hit)
    v = offset_s + e
    inside = (v >= sig.times[0]) & (v <= sig.times[-1])
    if not inside.any() or n < 2:
        return None, 0.0
    ks = np.clip(np.searchsorted(sig.times, v[inside] - 1e-6), 0, n - 1)
    c = hit[ks].sum(axis=0).astype(float)
    llr = _binomial_llr(c, float(len(ks)), hit.mean(axis=0) if rate is None else rate)
    if float(llr.max()) <= 0.0:
        return None, 0.0
    b = int(llr.argmax())
    r = int(round(AT_RANGE_S * sig.fps))
    if memo is None:
        shifts = np.arange(-r, r + 1)
        # per shift, the presses shown (in the footage) and those the band answers: one
        # slice of the band's hits added per press (not a presses x shifts table)
        pad = np.zeros(n + 2 * r, np.int32)
        pad[r:r + n] = hit[:, b]
        counts = np.zeros(len(shifts), np.int32)
        for k0 in ks.tolist():
            counts += pad[k0:k0 + 2 * r + 1]
        srt = np.sort(ks)
        shown = np.searchsorted(srt, n - shifts, "left") - \
            np.searchsorted(srt, -shifts, "left")
    else:
        counts, shown = _shift_counts(hit, ks, b, r, memo, reach)
    counts = counts[shown * 2 >= len(ks)].astype(float)  # half the presses shown
    sd = float(counts.std()) if len(counts) > 1 else 0.0
    top = min(float(c[b]), len(ks) - 1e-9)  # as counted in _binomial_llr
    z = (top - float(counts.mean())) / sd if sd > 0 else 0.0
    return bands(grid)[b], z


AT_RANGE_S = 60.0  # as track.JUMP_RANGE_S: the offsets a given one is weighed against


def _shift_counts(hit: np.ndarray, ks: np.ndarray, b: int, r: int, memo: dict,
                  reach: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per shift s from -r to r of the presses shown at frames `ks`: how many land on a hit
    of band `b` (zero off the footage) and how many land on the footage, as `_at` counts
    them (whole numbers: the same). Both depend on the presses' spacing (ks - min) and on
    min + s alone, so one table over min + s serves every offset whose presses keep that
    spacing, kept in `memo` by band and spacing. Why: `near_offset` reads 121 offsets a
    frame apart (2 x 2 a run at a given offset), each summing its presses over 7,201 shifts
    at 60 fps: 40 of River Raid's and Seaquest's 190 ms of analysis at the truth. The table
    spans the shifts this offset reads and `reach` frames more on either side (the offsets
    its caller will read next), not the whole video: over every min + s it grew with the
    footage (~2.4x slower `near_offset` on an hour at 60 fps, s29's stop); an offset
    outside it gets a table of its own."""
    n = len(hit)
    k0 = int(ks.min())
    spacing = ks - k0
    key = (b, spacing.tobytes())
    got = memo.get(key)
    if got is None or not got[0] <= k0 or k0 + 2 * r + 1 > got[0] + len(got[1]):
        # index u = min + s + r, from 0 (min + s = -r) to n + 2r - 1 (min + s = n - 1 + r);
        # this table holds u from lo to hi - 1
        lo = max(0, k0 - reach)
        hi = min(n + 2 * r, k0 + 2 * r + 1 + reach)
        col = np.zeros(int(spacing.max()) + hi - lo, np.int32)  # col[i]: hit at u = lo + i
        a, z = max(0, r - lo), min(len(col), r + n - lo)  # where the footage lies in col
        if a < z:
            col[a:z] = hit[lo + a - r:lo + z - r, b]
        counts = np.zeros(hi - lo, np.int32)
        for k in spacing.tolist():
            counts += col[k:k + hi - lo]
        srt = np.sort(spacing)
        t = np.arange(lo - r, hi - r)
        shown = np.searchsorted(srt, n - t, "left") - np.searchsorted(srt, -t, "left")
        got = memo[key] = (lo, counts, shown)
    lo, counts, shown = got
    return counts[k0 - lo:k0 - lo + 2 * r + 1], shown[k0 - lo:k0 - lo + 2 * r + 1]


def near_offset(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, offset_s: float,
                radius_s: float, grid: int) -> tuple[np.ndarray | None, float]:
    """`at_offset`'s band at the offset within `radius_s` of `offset_s` (on the frame grid)
    where it stands highest, and that height; the nearest to `offset_s` of those that tie.
    A moderator's offset is rarely exact: 0.3 s off, the band that answers there best is
    another one (Carnival's cut at 2.0 s for 1.7: a band 2.16 spreads high, the player's
    row 4.97 at 1.7 s)."""
    hit = _window_hits(sig, nov, grid)
    e = np.asarray(run_s, float)
    rate = hit.mean(axis=0)
    r = int(round(radius_s * sig.fps))
    best: tuple[np.ndarray | None, float] = (None, 0.0)
    memo: dict = {}  # (`_shift_counts`: the offsets a frame apart share their presses' spacing)
    for i in sorted(range(-r, r + 1), key=abs):
        tiles, z = _at(sig, hit, e, offset_s + i / sig.fps, grid, rate, memo=memo,
                       reach=r + 2)
        if tiles is not None and z > best[1]:
            best = (tiles, z)
    return best


def calm_signals(sig: FrameSignals) -> FrameSignals | None:
    """`sig` with its busy tiles' counts (an onset in at least `reactions.BUSY_SHARE` of
    the reaction windows, `reactions.background_rates`) set to 0, the whole picture's
    change kept (a freeze is the whole picture's); None when no tile is busy. Its columns
    and rows are the bands without the tiles that change all the time.

    Why: a band is a whole column or row, and one busy tile in it makes the band's onset
    rate near 1: no count of answered presses stands above it. Laser Gates (QA s28, held
    out) scrolls its cave walls through two rows of tiles (onsets in 50-67 % of any window)
    while the ship moves up and down in the column they cross: at 12 fps (Ogg, 5 console
    frames a captured frame) every reading said "not enough signal", though the ship's
    16x16 tiles have an onset right after 57-68 % of the shown presses against 8-9 % of
    any window. Without the walls' tiles its column is a paddle's (session 29)."""
    busy = background_rates(sig, novelty(sig)) >= BUSY_SHARE
    if not busy.any() or busy.all():
        return None
    tiles = sig.tiles.copy()
    tiles[:, busy] = 0
    return FrameSignals(sig.times, tiles, sig.fps, whole=sig.picture_change)


def band_signals(sig: FrameSignals, tiles: np.ndarray) -> FrameSignals:
    """The signals of the band's tiles alone."""
    return FrameSignals(sig.times, np.ascontiguousarray(sig.tiles[:, tiles]), sig.fps,
                        sig.picture_change)


# The band's reactions must be the first answer to the press. A press that fires a shot is
# answered where the gun is, and the shot then crosses a row or column of the grid several
# frames later, always with the same delay: that band singles out an offset as clearly as a
# paddle's, late by the shot's travel (Atlantis, held out in session 12: row 3, which its
# shots rise through, stood 11.8 spreads above its shuffles; offset 6.33 frames late at
# confidence 0.96; the gun's tile had an onset in the 0.2 s before the band's answer for 13
# of its 18 reactions, against 8 % of any such window: 9.9 binomial spreads). A tile outside
# the band with an onset in the EARLIER_S before at least EARLIER_SHARE of the band's
# reactions, EARLIER_RATIO times as often as in any window that long and EARLIER_MIN_Z
# binomial spreads above that rate answers first: the band's offset is not the input's.
# The corpus' band runs (13 of 304: Pong's paddle, Frostbite's jumper) reach either share
# (Frostbite: up to 0.91, its floes move beside the jumper all the time: ratio <= 1.94) or
# ratio (Pong: up to 13.9, one or two of 18-24), never both; the most: 4 of 9 at 3.6x, 2.9
# spreads (Frostbite's second genuine run).
EARLIER_S = 0.2
EARLIER_SHARE = 0.5
EARLIER_RATIO = 3.0
EARLIER_MIN_Z = 5.0


def answered_earlier(sig: FrameSignals, nov: Novelty, tiles: np.ndarray,
                     frames: np.ndarray) -> tuple[int, int] | None:
    """(tile, count) of a tile outside the band with an onset in the EARLIER_S before the
    band's reactions (at `frames`) for at least EARLIER_SHARE of them, EARLIER_RATIO times
    its rate in any window that long and EARLIER_MIN_Z binomial spreads above it; None when
    no tile answers first."""
    frames = np.asarray(frames, np.int64)
    m, n = len(frames), len(nov.onsets)
    w = max(2, int(round(EARLIER_S * sig.fps)))
    if m == 0 or n <= w:
        return None
    c = nov.onset_counts
    lo, hi = np.clip(frames - w, 0, n), np.clip(frames - 1, 0, n)  # frames k-w .. k-2
    hits = ((c[hi] - c[lo]) > 0).sum(axis=0)
    span = w - 1
    rate = np.maximum(((c[span:] - c[:-span]) > 0).mean(axis=0), 1.0 / n)
    z = (hits - m * rate) / np.sqrt(m * rate * (1.0 - rate) + 1e-12)
    ok = (hits >= EARLIER_SHARE * m) & (hits >= EARLIER_RATIO * rate * m) & \
        (z >= EARLIER_MIN_Z)
    ok[np.asarray(tiles, np.int64)] = False
    if not ok.any():
        return None
    j = int(np.argmax(np.where(ok, hits, -1)))
    return j, int(hits[j])


# Shuffled logs for the band chosen at a fixed offset (`select_at`): the real log's best band
# must beat every one of them, so a log that lines up with no band (a random log, a wrong
# offset) passes about 1 time in AT_NULL_SETS + 1 even before the margin is asked for.
AT_NULL_SETS = 99


def _llr_at(hit: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """Per band, the binomial log-likelihood ratio of the actions shown at frames `ks` that
    have an onset in the band's window (`_window_hits`), against the band's onset rate; 0
    where no more of them have one than the rate gives (`_band_llr` at one offset)."""
    m = float(len(ks))
    c = np.clip(hit[ks].sum(axis=0).astype(float), 0.0, m - 1e-9)
    p = np.clip(hit.mean(axis=0), 1e-4, 1 - 1e-4)
    with np.errstate(divide="ignore", invalid="ignore"):
        llr = c * np.log(np.maximum(c, 1e-9) / (m * p)) + \
            (m - c) * np.log((m - c) / (m * (1 - p)))
    return np.where(c > m * p, llr, 0.0)


def _shown_at(times: np.ndarray, offset: float, run_s: np.ndarray) -> np.ndarray:
    """The frames at which the actions show at `offset` (`reactions.frame_at`), those on the
    footage only."""
    v = offset + np.asarray(run_s, float)
    k = np.searchsorted(times, v - 1e-6)
    return k[(k < len(times)) & (v >= times[0] - 1e-6)]


def select_at(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, offset: float,
              min_null_z: float, min_actions: int, grid: int
              ) -> tuple[np.ndarray | None, float]:
    """`select` at one offset (the moderator's): the tiles of the band whose actions, shown
    at `offset`, have an onset in its window far more often than the band's rate, far more
    than the same log's gaps shuffled (AT_NULL_SETS times) find in any band at that offset;
    with the margin in their spreads; (None, margin) when no band beats every shuffled log
    by min_null_z spreads (the margin then as `select`'s: under min_null_z, not always the
    one over all of them), or fewer than `min_actions` actions show on the footage. Why its
    own bar: choosing the best of 16 bands finds one by chance on any log at any offset;
    the shuffled logs choose theirs the same way, so a wrong offset or a log the video does
    not follow reads as not enough signal, not as reactions."""
    ks = _shown_at(sig.times, offset, run_s)
    if len(ks) < max(2, min_actions) or len(sig) < 2:
        return None, 0.0
    hit = _window_hits(sig, nov, grid)
    z = _llr_at(hit, ks)
    real = float(z.max())
    rng = np.random.default_rng(len(run_s))
    gaps = np.diff(run_s)
    null: list[float] = []
    for _ in range(AT_NULL_SETS):
        rng.shuffle(gaps)
        fake = np.concatenate([run_s[:1], run_s[0] + np.cumsum(gaps)])
        shown = _shown_at(sig.times, offset, fake)
        null.append(float(_llr_at(hit, shown).max()) if len(shown) else 0.0)
        if null[-1] >= real:
            return None, 0.0  # (as `select`: no band, whatever the rest)
        if (bound := short_of(real, null, AT_NULL_SETS, min_null_z)) is not None:
            return None, bound
    nz = np.array(null)
    margin = (real - float(nz.mean())) / max(float(nz.std()), 1e-6)
    if real <= float(nz.max()) or margin < min_null_z:
        return None, margin
    return bands(grid)[int(z.argmax())], margin
