"""A sped-up or slowed video found from the game's own animation clock, without a fitted offset.

A drift was found through the fit (the reactions' line at another clock speed) or from evenly
repeated frames (`repeats.py`, slowed videos only). On a game whose picture moves on its own
the fit finds no offset (QA s15 H3: Centipede's `speed35` runs, +3.5 %, read drift 0.0 on
both recorders, also at the true offset), and a sped-up video repeats no frame.

Yet such a game animates on the console's clock: the Atari 2600 draws 60 frames a second
(NTSC; every run of the corpus and of QA sessions 10-16) and a game's own animation cycle is a
whole number of them (Centipede's crawl and flicker: one cycle in 8 frames, 7.5 Hz). In the
whole picture's change per frame that cycle is a sharp spectral line. A video sped up or
slowed at a constant frame rate moves the line by the same factor: Centipede at +3.5 % shows
7.763 Hz on both recorders. The test (`animation_speed`):
- the whole picture's changed points per frame (luma tiles and colour, `picture_change`),
  over at least `MIN_SECONDS` of evenly timed frames (its frequency resolution);
- its power spectrum (Hann window); the peaks in `MIN_HZ` .. the video's Nyquist frequency
  that stand `sync_pace_min_strength` times above the band's median power;
- those that a console cycle of 2-8 frames (16 on a still board: `still_board`, session 19)
  explains (`console_hz / k`, or its
  alias `|m * fps -+ console_hz / k|` in a recording slower than the cycle) at a speed within
  `MAX_DRIFT`: a line that no cycle explains (a codec's group of pictures, a recorder's
  frame-rate conversion: on the video's clock, not the game's) is no evidence either way;
- a line of the recorder's cadence (`pace_null.on_cadence`: fps / q and its multiples, on
  the video's clock) is no evidence either way (session 33);
- when a strong line reads the console's own clock (within `HONEST`; or exactly a slow
  cycle of 9-32 frames, `pace_null.long_honest`, session 33), the video runs at the log's
  speed: nothing is said; so too when the stronger lines read before it are its
  own harmonics folded back by the frame rate (`_own_folds`, session 32: at 24 fps a
  4-frame cycle's 9 Hz line and its 3 Hz fold read as a 3-frame cycle 5 % fast); a line
  said stands in each half of the footage (`pace_null.in_both_halves`), and a neighbour
  that is the console's frame line at its speed leaves it sharp (`pace_null.twin_of`). When the readings of the strong lines disagree (24 fps:
  7.3 Hz is 7.5 Hz slowed 2.65 % or 30 Hz aliased and sped up 4.34 %), or no line is strong,
  two lines of different cycles (`PAIR_STRENGTH` times the median or more) that read one
  speed within `PAIR_AGREE` tell it (`_paired`: session 18, QA s14's Montezuma and Time
  Pilot slowed 2.5 % at 24 fps); else nothing;
- with no speed read and no line on the console's clock: the game's evenly spaced ticks
  in stretches (`ticks.py`: QA s17's Zaxxon slowed 3.5 %), else a two-frame cycle's line
  split in two by the dropped or held frames (`split.py`: QA s19's Beam Rider sped up 4 %
  at 120 fps, session 20), else a fast cycle's beat against
  the frame rate, its sign told by the log's presses (`beat.py`: QA s17's Othello), else the
  game's seconds timer (`timer.py`: QA s15's Private Eye sped up 3.5 %, session 19).
What is assumed, and said in the finding: the game runs on a console's fixed frame clock
(`Thresholds.sync_pace_console_hz`); a game animating at another rate reads as a drift
only where its strongest line falls 1-6 % off a 60/k Hz line with no honest reading.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import beat, drift_log, split, ticks, timer
from .pace_null import MIN_HZ, PAD, in_both_halves, long_honest, twin_of
from .pace_null import on_cadence as cadence_line
from .records import SyncAnalysis, SyncFinding
from .signals import FrameSignals
from .stats import median

RULE = "sync.drift"
MIN_SECONDS = 20.0   # a 7.5 Hz line read to 0.1 % needs tens of seconds of footage
CYCLES = range(2, 9)  # console frames per animation cycle: 30 Hz .. 7.5 Hz, lines >= 11 % apart
# A still board's slow blink: Video Checkers' cursor changes once every 16 console frames (3.75
# Hz, no other cycle's line within 2 x MAX_DRIFT), read only where the picture changes at most
# LONG_BUSY times a cycle (the blink is the picture's change). On a moving picture a line near
# 3.75 Hz is no such cycle: corpus Kangaroo's own tempo at 3.710 Hz on an honest 30 fps run
# (-1.07 %; 8.5 changing frames a second), corpus Asteroids sped up 6 % by dropping a frame in
# 16.7, a comb at 3.6 Hz (-4.0 %; 59 a second).
LONG_CYCLES = (16,)
LONG_BUSY = 1.5
MAX_DRIFT = 0.06     # readings further off a cycle's line are another cycle's, or none
HONEST = 0.005       # a reading this close to the console's clock: the video runs at its speed
AGREE = 0.01         # readings of one line further apart than this: ambiguous
PEAKS = 8            # strongest spectral peaks looked at
SHARP_SPAN = 0.02     # a line's neighbourhood, as a share of its frequency ...
SHARP_SHARE = 0.25    # ... where no other peak holds this share of its power
HARMONICS = 12       # a line's subharmonics looked at (a comb's lines are its spacing's multiples)
HARMONIC_HZ = 0.5    # ... down to here
PAIR_STRENGTH = 25.0  # lines this strong, two of different cycles that read one speed ...
PAIR_AGREE = 0.005    # ... this closely, tell it (`_paired`)
PAIR_PEAKS = 12       # the strongest peaks looked at for pairs


def _evenly_timed(times: np.ndarray, fps: float) -> bool:
    """Whether frame k is shown at times[0] + k / fps, within half a frame (a constant frame
    rate, holes filled: `signals.fill_still`); else a spectrum over the index is no clock."""
    k = np.arange(len(times))
    return bool(np.max(np.abs(times - times[0] - k / fps)) <= 0.5 / fps)


def readings(f: float, fps: float, console_hz: float, still: bool = False
             ) -> list[tuple[float, int, int]]:
    """(speed, k, m) for every console cycle of k frames whose line, at a speed within
    MAX_DRIFT and aliased by m times the video's frame rate, falls at f Hz; `still`: the
    picture changes so seldom that LONG_CYCLES are read too (`still_board`)."""
    out = []
    for k in (*CYCLES, *LONG_CYCLES) if still else CYCLES:
        line = console_hz / k
        for m in range(4):
            for sign in ((1.0,) if m == 0 else (1.0, -1.0)):
                s = (m * fps + sign * f) / line
                # an alias (m >= 1) only of a line above the video's Nyquist frequency
                if abs(s - 1.0) <= MAX_DRIFT and (m == 0 or s * line > fps / 2):
                    out.append((s, k, m))
    return sorted(out, key=lambda r: r[2])  # a line's own reading (m = 0) first


def cadence_hz(fps: float, console_hz: float) -> float | None:
    """The recorder's cadence line (see `cadence_cycle`), folded below the video's Nyquist
    frequency: 12 Hz at 24 fps, 10 Hz at 50, 15 Hz at 45; None when a video frame holds a
    whole number of console frames."""
    if fps <= 0 or console_hz <= 0:
        return None
    r = console_hz / fps
    frac = r - np.floor(r)
    if min(frac, 1 - frac) < 1e-3:
        return None
    f = fps * frac
    return float(min(f, fps - f))


def cadence_cycle(fps: float, console_hz: float) -> int | None:
    """The console cycle (frames, in CYCLES) whose line falls on the recorder's cadence, or
    None. A recording whose frame rate is no whole share of the console's shows console
    frames on 1 and 2 (40 fps), 2 and 3 (24 fps) ... of its frames in turn: the picture's
    change alternates with the steps, a line at fps x the fraction of console frames per
    video frame (folded below the Nyquist frequency; 20 Hz at 40 fps), and the game's slow
    changes turn that alternation over and back, lines beside it (QA s20's Frogger at 40
    fps: 19.902-19.910 Hz, 319-387 times the median, on the genuine, +4 % and -4 % runs
    alike). A cycle whose own line sits there (60 / 3 = 20 Hz at 40 fps) is read on the
    video's clock as much as on the game's: its readings are no evidence either way."""
    if fps <= 0 or console_hz <= 0:
        return None
    r = console_hz / fps
    frac = r - np.floor(r)
    if min(frac, 1 - frac) < 1e-3:
        return None  # a whole number of console frames per video frame: no alternation
    f = fps * frac
    f = min(f, fps - f)
    for k in CYCLES:
        if abs(console_hz / k - f) < HONEST * f:
            return k
    return None


def animation_speed(times: np.ndarray, change: np.ndarray, fps: float, console_hz: float,
                    min_strength: float, honest: list[float] | None = None
                    ) -> tuple[float, float, float, int] | None:
    """(speed, line Hz, strength, frames per cycle) of the game's animation clock against the
    video's (see the module's docstring), or None: too short, unevenly timed, no line strong
    enough, an honest or ambiguous reading (an honest line's Hz then appended to `honest`)."""
    n = len(times)
    if fps <= 0 or n < 3 or n / fps < MIN_SECONDS or not _evenly_timed(times, fps):
        return None
    x = np.asarray(change, np.float64)
    still = still_board(x, fps, console_hz)
    x = x - x.mean()
    if not np.any(x):
        return None
    size = 1 << int(np.ceil(np.log2(n * PAD)))
    power = np.abs(np.fft.rfft(x * np.hanning(n), size)) ** 2
    freq = np.fft.rfftfreq(size, 1.0 / fps)
    band = np.nonzero((freq >= MIN_HZ) & (freq <= fps / 2 - 2 * fps / n))[0]
    if len(band) < 3:
        return None
    floor = float(median(power[band]))
    if floor <= 0:
        return None
    p = power[band]
    local = np.nonzero((p[1:-1] >= p[:-2]) & (p[1:-1] >= p[2:]))[0] + 1
    every = local
    local = local[p[local] >= min_strength * floor]
    near = max(1, int(round(size / n)))  # the window's own resolution, in padded bins
    on_cadence = cadence_cycle(fps, console_hz)
    tol = 2 * near * float(freq[1])
    beat_hz = cadence_hz(fps, console_hz)

    def explained(f: float) -> list[tuple[float, int, int]]:
        return [r for r in readings(f, fps, console_hz, still) if r[1] != on_cadence]

    res = near * float(freq[1])  # the window's resolution
    exact = 2 * float(freq[1])  # two bins of the padded spectrum (`long_honest`)
    read: list[tuple[float, float, float, int]] = []  # (speed, Hz, strength, k), strongest first
    for i in local[np.argsort(-p[local])][:PEAKS]:
        f = float(freq[band[i]])
        if cadence_line(f, fps, console_hz, res):
            continue  # the recorder's cadence: on the video's clock at any speed, no evidence
        found = explained(f)
        folds = _own_folds(f, found, fps, beat_hz, tol)  # an honest line's folds, else none
        twin = twin_of(found, fps, console_hz, HONEST, MAX_DRIFT, PAIR_AGREE)
        if not found or _harmonic(power, freq, band[i], near, folds) or \
                not _sharp(p, freq[band], every, i, near, twin):
            continue  # a line on the video's clock, no cycle's, a slower event's harmonic,
            # or a line split in a cluster (a cycle that comes and goes: no one frequency)
        if folds and all(min(abs(r[1] - h) for h in folds) <= tol for r in read):
            # an honest line whose own harmonics, folded, are the stronger lines read
            # already: those were this cycle's harmonics, read as another cycle at a drift
            # (one series of lines, two readings; the console's own clock wins: `_own_folds`)
            if honest is not None:
                honest.append(f)
            return None
        if _folded(f, [r[1] for r in read], fps, near * float(freq[1])):
            continue  # a line read already folded back by the frame rate
        if folds or long_honest(f, console_hz, exact):
            if honest is not None:
                honest.append(f)
            return None  # a strong line on the console's own clock: the video runs at it
        read += [(s, f, float(p[i] / floor), k) for s, k, _ in found]
    if read and max(r[0] for r in read) - min(r[0] for r in read) <= AGREE:
        return float(np.mean([r[0] for r in read])), read[0][1], read[0][2], read[0][3]
    # no strong line, or lines (or one line's aliases) that disagree: two lines of different
    # cycles that read one speed tell it (`_paired`), else nothing is said
    weak = every[p[every] >= PAIR_STRENGTH * floor]
    lines = []
    for i in weak[np.argsort(-p[weak])][:PAIR_PEAKS]:
        f = float(freq[band[i]])
        found = [] if cadence_line(f, fps, console_hz, res) else explained(f)
        if found:
            own = not _harmonic(power, freq, band[i], near,  # no slower event's harmonic
                                _own_folds(f, found, fps, beat_hz, tol))
            comb = not own and _comb(power, freq, band[i], near)
            sharp = _sharp(p, freq[band], every, i, near,
                           twin_of(found, fps, console_hz, HONEST, MAX_DRIFT, PAIR_AGREE))
            lines.append(Line(f, float(p[i] / floor), found, own and sharp,
                              own and sharp and p[i] >= min_strength * floor, own, comb))
    on_clock = [x.hz for x in lines
                if x.sharp and (min(abs(s - 1.0) for s, _, _ in x.found) < HONEST
                                or long_honest(x.hz, console_hz, exact))]
    if on_clock:  # a line on the console's own clock: the video runs at it
        if honest is not None:
            honest += on_clock
        return None
    return _paired(lines)


@dataclass(frozen=True)
class Line:
    """A spectral peak that console cycles explain: its Hz, strength (times the median
    power), readings (speed, k, m); sharp: alone and no slower event's harmonic; strong:
    sharp and `sync_pace_min_strength` times the median; own: no harmonic; comb: one of a
    comb's lines (`_comb`)."""

    hz: float
    strength: float
    found: list[tuple[float, int, int]]
    sharp: bool
    strong: bool
    own: bool
    comb: bool = False


def _pair(a: Line, b: Line) -> bool:
    """Whether two lines may tell a speed together: one strong line and any other (a weaker
    line confirms which of its readings holds), or two lines that are no slower event's
    harmonic, one of them sharp (a comb of dropped frames reads one speed at several of its
    lines: corpus Asteroids sped up 4 %, 9.6 and 19.2 Hz both read slowed 4 %)."""
    if a.comb or b.comb:
        return False
    return a.strong or b.strong or (a.own and b.own and (a.sharp or b.sharp))


def _paired(lines: list[Line]) -> tuple[float, float, float, int] | None:
    """(speed, Hz, strength, k) that two lines or more of different console cycles (or
    aliases) read within PAIR_AGREE (`_pair`), when no other speed is read by as many;
    else None. A 24 fps video shows Montezuma
    slowed 2.5 % at 7.301 Hz (177x: 7.5 Hz slowed 2.66 %, or 30 Hz aliased and sped up
    4.34 %) and at 9.349 Hz (15 Hz aliased: slowed 2.33 %); Time Pilot slowed 2.5 % at
    7.311 Hz (65x, split) and 9.375 Hz (47x, sharp): -2.51 %."""
    best: list[tuple[int, float, int, int]] = []  # (lines, speed, line, k) per reading
    for i, x in enumerate(lines):
        for s, k, m in x.found:
            n = sum(1 for j, y in enumerate(lines) if j != i and _pair(x, y) and any(
                abs(s2 - s) <= PAIR_AGREE and (k2, m2) != (k, m) for s2, k2, m2 in y.found))
            if n:
                best.append((n + 1, s, i, k))
    if not best:
        return None
    top = max(b[0] for b in best)
    tops = [b for b in best if b[0] == top]
    if max(b[1] for b in tops) - min(b[1] for b in tops) > AGREE:
        return None  # two speeds each read by as many lines
    _, _, i, k = max(tops, key=lambda b: lines[b[2]].strength)
    speed = float(np.mean([b[1] for b in tops]))
    if _rival(lines, speed) >= top:
        return None  # the other sign read by as many lines, a comb's counted (`_rival`)
    return speed, lines[i].hz, lines[i].strength, k


def _rival(lines: list[Line], speed: float) -> int:
    """The most lines that read a speed on the other side of the console's clock from
    `speed`, where a line reading `speed` reads it too: the line itself and the others with
    a reading there (of another cycle or alias), a comb's line included (it makes no pair,
    as a comb reads one speed at several of its lines, but it is a line there). As many as
    read `speed`: the lines tell no sign. Session 22: Beam Rider slowed 4 % at 24 fps shows
    7.198 Hz (625x: the 8-frame cycle slowed 4.02 % or the 30 Hz cycle aliased and sped up
    3.99 %), a slower event's harmonic at 3.207 Hz (29x) +3.97 % and the holds' comb line at
    9.593 Hz (45x) -4.07 %: +3.98 % was said from 2 lines against 2. Frogger sped up 4 % at
    24 fps (+: 3 lines, -: 2) and Montezuma slowed 2.5 % (QA s14; -: 3 lines, +: 1) keep
    their readings."""
    most = 0
    for x in lines:
        if not any(abs(s - speed) <= PAIR_AGREE for s, _, _ in x.found):
            continue
        for s, k, m in x.found:
            if (s - 1.0) * (speed - 1.0) >= 0:
                continue
            most = max(most, 1 + sum(1 for y in lines if y is not x and any(
                abs(s2 - s) <= PAIR_AGREE and (k2, m2) != (k, m) for s2, k2, m2 in y.found)))
    return most


def still_board(change: np.ndarray, fps: float, console_hz: float) -> bool:
    """Whether the picture changes on at most LONG_BUSY frames per cycle of the longest of
    LONG_CYCLES: QA s18's Video Checkers 3.6-5.0 changing frames a second, on every recorder
    and tampering; a moving game 8.5 (corpus Kangaroo at 30 fps) to 60."""
    x = np.asarray(change)
    if len(x) < 2:
        return False
    per_s = float(np.count_nonzero(x[1:])) / (len(x) - 1) * fps
    return per_s <= LONG_BUSY * console_hz / max(LONG_CYCLES)


def _folded(f: float, lines: list[float], fps: float, tol: float) -> bool:
    """Whether f is a harmonic of a stronger line read already, folded back below the
    video's Nyquist frequency (|j * line - m * fps|): Video Checkers' 16-frame cycle slowed
    4.5 % at 15 fps shows 3.582 Hz and its third harmonic at 15 - 10.746 = 4.255 Hz, which
    reads a 20 Hz cycle aliased and slowed 3.72 % (`_harmonic` sees only harmonics above
    their line, unfolded)."""
    for f0 in set(lines):
        for j in range(2, HARMONICS + 1):
            h = j * f0
            m = round(h / fps)
            if abs(abs(h - m * fps) - f) <= 2 * tol:
                return True
    return False


def _sharp(p: np.ndarray, f: np.ndarray, local: np.ndarray, i: int, near: int,
           twin=None) -> bool:
    """Whether the line at i stands alone: no other peak within SHARP_SPAN of its frequency
    (or 4 of the window's resolution bins) holds SHARP_SHARE of its power. Corpus Kangaroo at
    30 fps shows 7.423, 7.478, 7.553 and 7.623 Hz (power 88, 156, 300, 47): a cycle that
    comes and goes, whose strongest split reads +0.71 % on a genuine run; Centipede's line
    carries sidebands of 9-10 % of its power 1.5 % away. `twin(hz)`: whether a neighbour
    at hz is the console's frame line at this line's speed (`pace_null.twin_of`): the same
    evidence, no split."""
    span = max(SHARP_SPAN * float(f[i]), 4 * near * float(f[1] - f[0]))
    others = local[(local != i) & (np.abs(f[local] - f[i]) <= span)]
    if twin is not None:
        others = others[[not twin(float(f[o])) for o in others]]
    return not np.any(p[others] >= SHARP_SHARE * p[i])


def _comb(power: np.ndarray, freq: np.ndarray, i: int, near: int) -> bool:
    """Whether the line at bin i is one of a comb: a slower line at freq[i] / j and another
    at freq[i] - freq[i] / j, each with half its power (the equal lines of a frame dropped
    or repeated every P frames: corpus Asteroids sped up 2 % at 60 fps, 7.2 and 8.4 Hz of a
    1.2 Hz comb, read slowed 2 %). A line over a game's slow events alone (a harmonic by
    `_harmonic`: Montezuma's 9.349 Hz over its 0.6-0.8 Hz) is no comb."""
    def strong_at(c: int) -> bool:
        lo, hi = max(0, c - near), min(len(power), c + near + 1)
        return float(power[lo:hi].max()) >= 0.5 * float(power[i])

    for j in range(2, HARMONICS + 1):
        c = int(round(i / j))
        if freq[c] < HARMONIC_HZ:
            break
        if strong_at(c) and strong_at(i - c):
            return True
    return False


def _own_folds(f: float, found: list[tuple[float, int, int]], fps: float,
               beat_hz: float | None = None, tol: float = 0.0) -> list[float]:
    """Where the line at f Hz puts its own harmonics (2 .. HARMONICS) folded back below the
    video's Nyquist frequency (|j * f - m * fps|), when it reads the console's own clock
    (within HONEST); else none. A recorder whose frame rate is no whole share of the
    console's folds an honest cycle's harmonics below the cycle's own line: QA s31's Venture
    at 24 fps, its 4-frame cycle (15 Hz) at 9.000 Hz (4,638x the median) and that cycle's
    third harmonic (45 Hz) at 3.000 Hz (4,289x). The slower line is then the cycle's own,
    no slower event's (`_harmonic`): read as one, it silenced the honest line and the 3.000
    Hz line read a 3-frame cycle (20 Hz) aliased and sped up 5.0 %, `sync.drift` +5.0 % on
    the genuine run (QA s31 T1). At 60 or 30 fps a cycle's harmonics fold onto its own
    line's multiples, none slower: nothing changes there. A drifting cycle's line reads no
    honest speed, so its slower lines (a comb of dropped frames: `_harmonic`) still count.
    Nor is the recorder's cadence line (`beat_hz`, `cadence_hz`) a fold: an honest-reading
    line over it is the cadence's harmonic, on the video's clock (corpus boxing-speed37@r50:
    the 10 Hz cadence at 50 fps and its 20 Hz, which reads a 3-frame cycle at the console's
    own clock on the +3.7 % run)."""
    if not found or min(abs(s - 1.0) for s, _, _ in found) >= HONEST:
        return []
    out = []
    for j in range(2, HARMONICS + 1):
        h = j * f
        h = abs(h - round(h / fps) * fps)
        if beat_hz is None or abs(h - beat_hz) > tol:
            out.append(h)
    return out


def _harmonic(power: np.ndarray, freq: np.ndarray, i: int, near: int,
              own: list[float] | None = None) -> bool:
    """Whether the line at bin i is a harmonic of a slower periodic event: a line at
    freq[i] / j (j = 2 .. HARMONICS, above HARMONIC_HZ) with at least half its power. A
    frame dropped or repeated every P frames (a speed change made by dropping or repeating
    frames, on the video's clock) is a comb of equal lines at fps / P and its multiples:
    corpus Asteroids sped up 4 % shows 4.8, 9.6, 14.4, 19.2 Hz (one drop in 25 frames
    at 60 fps) within 5 % of each other's power, and 19.2 Hz read as a 20 Hz cycle
    slowed 4 %. `own`: where the line's own harmonics fold (`_own_folds`): a slower line
    there is the line's harmonic, not its fundamental."""
    tol = 2 * near * float(freq[1])
    for j in range(2, HARMONICS + 1):
        c = int(round(i / j))
        if freq[c] < HARMONIC_HZ:
            break
        if own and min(abs(float(freq[c]) - h) for h in own) <= tol:
            continue
        lo, hi = max(0, c - near), min(len(power), c + near + 1)
        if float(power[lo:hi].max()) >= 0.5 * float(power[i]):
            return True
    return False


def pace_drift(a: SyncAnalysis, run_s, sig: FrameSignals, th, input_kinds=None,
               auto: Callable[[], SyncAnalysis] | None = None) -> list[SyncFinding]:
    """A `sync.drift` read from the game's animation clock, when the analysis `a` reports no
    drift already (the fit's and the repeats' are measured against the log itself); else
    from a fast cycle's beat against the frame rate, its sign told by the log (`beat.py`),
    else from the game's seconds timer (`timer.py`); none where the log's presses, answered
    at the offset used far along the run, contradict it (`drift_log.py`, QA s46 T2;
    `input_kinds`: the log's button of each action, or None), or, with an offset given, at
    the offset the analysis suggests with none (`auto`, read only when a drift is: a
    moderator at a wrong offset gets no drift the offset left blank would not, QA s46 T2,
    review s47 R2)."""
    found = _read(a, run_s, sig, th)
    pct = found[0].percent if found else None
    if pct is None:
        return found
    speed = 1.0 + pct / 100.0
    if drift_log.contradicted(a, run_s, sig, th, speed, input_kinds) is not None:
        return []
    b = auto() if auto is not None else None
    if b is not None and b.offset_used_s != a.offset_used_s and \
            drift_log.contradicted(b, run_s, sig, th, speed, input_kinds) is not None:
        return []
    return found


def _read(a: SyncAnalysis, run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    if any(f.rule == RULE for f in a.findings):
        return []
    honest: list[float] = []
    got = animation_speed(np.asarray(sig.times, float), np.asarray(sig.picture_change),
                          float(sig.fps), th.sync_pace_console_hz, th.sync_pace_min_strength,
                          honest)
    hz = th.sync_pace_console_hz
    if got is None:  # a line on the console's own clock: no tick nor beat says otherwise
        return [] if honest else _other_readers(run_s, sig, th)
    speed, f, strength, k = got
    pct = round((speed - 1.0) * 100.0, 2)
    if abs(pct) < th.sync_drift_pct:
        return []
    if not in_both_halves(sig.picture_change, sig.fps, f):
        # a line that comes and goes says nothing of the video's speed, for or against: the
        # game's ticks, a split cycle, a beat or a timer may still read it (session 32,
        # menddrift: returning here left those readers untried)
        return _other_readers(run_s, sig, th)
    if (k == 2 or split.whole_hold(float(sig.fps), hz) is not None) and \
            _split(sig, th, abs(speed - 1.0)) is not None:
        # one of a split line's two halves: its size is read, the sign is the split's to tell
        # (a synthetic 30 Hz cycle sped up 4 % read -4.0 % from its stronger half, 28.801 Hz).
        # A reading of another cycle where the split cannot tell a sign (no whole number of
        # video frames per console frame) is no half: its sign stands (QA s20's
        # frogger-speed4 at 40 fps: 15.598 Hz, a 4-frame cycle, +3.99 %, beside the 30 Hz
        # cycle split at 8.80 and 11.20 Hz; silent when the split alone had the say)
        return _split_drift(run_s, sig, th)
    way = "faster" if pct > 0 else "slower"
    return [_finding(
        f"the video runs {abs(pct):.1f} % {way} than the game's clock: the game's own "
        f"animation, one cycle every {k} frames of a {hz:g} Hz console "
        f"({hz / k:.3f} Hz), shows at {f:.3f} Hz (a line {strength:.0f} "
        "times the picture's usual change), as a video sped up or slowed at a constant frame "
        "rate shows", pct, run_s, sig)]


def _other_readers(run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    """The readers tried when the animation line reads nothing: the game's evenly spaced
    changes, a split two-frame cycle, a fast cycle's beat, the seconds timer, in turn."""
    return (_tick_drift(run_s, sig, th) or _split_drift(run_s, sig, th)
            or _beat_drift(run_s, sig, th) or _timer_drift(run_s, sig, th))


def _tick_drift(run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    got = ticks.tick_speed(sig, readings, th.sync_pace_console_hz, HONEST)
    if got is None:
        return []
    speed, n, gaps = got
    pct = round((speed - 1.0) * 100.0, 2)
    way = "faster" if pct > 0 else "slower"
    return [_finding(
        f"the video runs {abs(pct):.1f} % {way} than the game's clock: {n} stretches of "
        f"the game's evenly spaced changes ({gaps} intervals, each stretch a cycle of whole "
        f"frames of a {th.sync_pace_console_hz:g} Hz console) read that speed, as a video sped "
        "up or slowed at a constant frame rate shows", pct, run_s, sig)]


def _split(sig: FrameSignals, th, size: float | None = None
           ) -> tuple[float, float, float] | None:
    """`split.split_size` on evenly timed footage of MIN_SECONDS or more; with `size`, only
    a split of that size (within PAIR_AGREE)."""
    fps = float(sig.fps)
    if fps <= 0 or len(sig) / fps < MIN_SECONDS or \
            not _evenly_timed(np.asarray(sig.times, float), fps):
        return None
    got = split.split_size(np.asarray(sig.picture_change), fps, th.sync_pace_console_hz,
                           th.sync_pace_min_strength, MIN_HZ, readings, th.sync_drift_pct,
                           MAX_DRIFT)
    if got is None or (size is not None and abs(got[0] - size) > PAIR_AGREE):
        return None
    return got


def _split_drift(run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    hz = th.sync_pace_console_hz
    size = _split(sig, th)
    if size is None:
        return []
    d, up, down = size
    told = split.split_sign(sig, d, hz)
    if told is None:
        return []
    sign, n, frames = told
    pct = round(sign * d * 100.0, 2)
    way = "faster" if pct > 0 else "slower"
    how = "dropped" if sign > 0 else "held twice"
    return [_finding(
        f"the video runs {abs(pct):.1f} % {way} than the game's clock: the game's two-frame "
        f"cycle of a {hz:g} Hz console ({hz / 2:g} Hz) shows split in two, at {up:.3f} and "
        f"{down:.3f} Hz, as a console frame {how} once in every {1 / d:.0f} flips the cycle's phase; "
        f"{n} such flips in {frames} console frames", pct, run_s, sig)]


def _timer_drift(run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    hz = th.sync_pace_console_hz
    fps = float(sig.fps)
    if fps <= 0 or not _evenly_timed(np.asarray(sig.times, float), fps):
        return []  # not evenly timed: the frame index is no clock
    got = timer.timer_speed(sig, hz)
    if got is None:
        return []
    speed, ticks, _tile = got
    if abs(speed - 1.0) < HONEST:
        return []
    period = float(sig.fps) / speed  # video frames per tick
    # one grid, read as a seconds timer slowed or a 64-frame cycle sped up: the log tells
    read = timer.readings(speed)
    if len(read) > 1:
        s = timer.told(sig, run_s, [x[0] for x in read], th.sync_min_z)
        read = [x for x in read if x[0] == s]
    if len(read) != 1:
        return []
    speed, frames = read[0]
    pct = round((speed - 1.0) * 100.0, 2)
    if abs(pct) < th.sync_drift_pct:
        return []
    way = "faster" if pct > 0 else "slower"
    what = "the game's seconds timer" if frames == timer.TICK_FRAMES else \
        "a frame counter's cycle; as a seconds timer it would read the other way, and the " \
        "log's presses follow this speed"
    return [_finding(
        f"the video runs {abs(pct):.1f} % {way} than the game's clock: a part of the picture "
        f"that changes once every {frames} frames of a {hz:g} Hz console ({what}) starts "
        f"changing every {period:.2f} frames of the video's {float(sig.fps):.3f} a second "
        f"({ticks} ticks), as a video sped up or slowed at a constant frame rate shows",
        pct, run_s, sig)]


def _beat_drift(run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    hz = th.sync_pace_console_hz
    got = beat.beat_speed(sig, run_s, readings, hz, th.sync_pace_min_strength,
                          th.sync_drift_pct, MIN_SECONDS, MIN_HZ)
    if got is None:
        return []
    speed, f, strength, k, n, other = got
    pct = round((speed - 1.0) * 100.0, 2)
    way = "faster" if pct > 0 else "slower"
    return [_finding(
        f"the video runs {abs(pct):.1f} % {way} than the game's clock: the game's own "
        f"cycle of {k} frames of a {hz:g} Hz console ({hz / k:.3f} Hz) beats against the "
        f"video's {float(sig.fps):.3f} frames a second at {f:.3f} Hz (a line "
        f"{strength:.0f} times the picture's usual change), as the cycle {way} by "
        f"{abs(pct):.1f} % does; the log's presses tell {way}: {n} are followed by a move "
        f"on screen at this speed, {other} at the other sign's", pct, run_s, sig)]


def _finding(message: str, pct: float, run_s, sig: FrameSignals) -> SyncFinding:
    last = max((float(x) for x in run_s if np.isfinite(x)), default=0.0)
    return SyncFinding(RULE, message, float(sig.times[0]), float(sig.times[-1]), 0.0, last,
                       percent=float(pct))
