"""The integrity scan: one decoding pass over the video (in the isolated video process) that
yields per-frame signals, and findings with time spans for what a moderator should look at.

Findings are warnings or notes, never errors: a game can legitimately fade to black or pause.
- `video.frozen`: the same picture held (frames identical at the scan's resolution, but for
  codec noise now and then) for at least `freeze_s`, including one frame held that long by a
  variable-rate encoder; a still screen where a few points keep changing is not frozen (the
  same spot changing again and again: a blink, an idle sprite); held from the first frame or
  to the last (a title, pre-start or game-over screen), or ending as the game moves again
  rather than with a jump (`resume.py`: a game's own pause), it is a note;
- `video.black`: black frames (brightest sample near video black) for at least `black_s`;
- `video.timestamp_gap`: the next frame comes more than `gap_frames` frame durations (and
  `gap_min_s`) later and the picture moved on across the gap by more than one frame's usual
  change (a still picture held is how VFR encoders drop repeats: judged as a freeze instead);
- `video.timestamp_backwards`: decode timestamps that go back (joined recordings, a splice:
  the frames after it are shown in file order, `joined_timeline.Timeline`), or two frames with one pts;
- `video.stream_change`: the picture size, or the frame rate (a sustained step of the median
  frame interval between regular stretches, `rates.py`), changes mid-stream; a note where a
  file that drops repeats falls to a whole fraction of its rate for good (`rates._lasting`);
- `video.clock_jump`: a joined recording whose own clock starts far past the end of the one
  before, shown right after it (`scan_clocks.py`): a note at the join, with how far;
- `video.cut`: candidates for hard cuts: an isolated peak of motion far above the median
  motion before and after it, or, in busy content where motion saturates, a share of changed
  points standing out of its local distribution, or, under the motion floor, a splice of the
  same scene: an isolated change where the picture held still around it, standing out of
  the file's own such changes (`scan_cut_steps.py`), or where moving things vanish and
  others appear elsewhere at once, 3x more than at any other frame (`scan_cut_jumps.py`)
  (listed, info, one note for the changes within 0.5 s; the edges of a black stretch
  are fades, not cuts; the first and last frames have nothing around them to judge by); a
  game recorded as a window of the screen (most of the picture never changes) is judged on
  the tiles that do change, where a cut moves most of them at once; a flash (the whole
  picture brightened or darkened at once, back to the picture before within 0.5 s) is none,
  and so is a change the game repeats (the same tiles changed by the same amounts at two
  other candidates 1 s or more away: Kaboom!'s flash; `scan_cuts._unique`) or a frame of a
  train of changes (three other candidates within 0.5 s: an explosion; `scan_cuts._lone`),
  but for the train's one change that stands out of it (a cut beside the explosion);
- `audio.gap` / `audio.discontinuity`: the audio timestamps jump forward / back.

A picture finding (cut, frozen, black) wholly inside a span the probe declares without footage
is none: the decoder's pictures there are not shown as footage (`ScanResult.outside`).

Signals are cached by the video's SHA-256 (the verifier already has it), so reopening a video
costs loading one small file. The same pass yields the per-tile change counts the log-video
sync analysis reads (`core.sync.signals.frame_signals` is a view of them): a video is decoded
once for both, and two callers asking for the same video at once share one decode.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from moderator_app.core.rules import Finding, Severity
from moderator_app.core.thresholds import DEFAULT_SCAN_THRESHOLDS, ScanThresholds

from . import held_finer
from .isolate import VideoProcess, VideoProcessError
from .middle import isin, median
from .packed import packed_times, restamped
from .probe import NoFootage
from .rates import rate_changes
from .scan_cache import cache_key, file_sha256, load_cached, sha_lock, store
from .scan_clocks import clock_spans
from .scan_cuts import cut_candidates
from .scan_gaps import held_through, timestamp_spans
from .scan_holds import same_picture, still_spans
from .scan_spans import (  # noqa: F401 - the rules
    AUDIO_DISC,
    AUDIO_GAP,
    BLACK,
    CLOCK_JUMP,
    CUT,
    FROZEN,
    LOW_RATE,
    SCAN_STOPPED,
    STREAM_CHANGE,
    TS_BACK,
    TS_GAP,
    G,
    Span,
    end_of,
)
from .signals import unpack_arrays

SCAN_VERSION = 1   # the report's `video_scan` section
LOCK_POLL_S = 0.05  # how often a scan waiting for the same video's decode looks at its cancel
PICTURE_RULES = frozenset({FROZEN.id, BLACK.id, CUT.id})  # what a picture shows (`outside`)
NEIGHBOUR_SLIP = 16  # pts that sorting moves this few places: the packets', not an order


@dataclass(frozen=True, eq=False)
class FrameSignals:
    """Per-frame signals, one row per decoded frame in presentation order (read-only arrays).

    pts: raw presentation timestamp (the key); times_s: video time, first frame at 0.0;
    luma: mean luminance 0-255; motion: mean |Y - Y_prev| of a 64x32 thumbnail (NaN on the
    first frame and after a size change); tiles: (N, 8, 8) the same per tile; changed:
    fraction of 256x128 sample points that changed beyond codec noise; sync_tiles: (N, 16, 16)
    uint8 per tile, the sample points that changed beyond SYNC_NOISE (zero on the first frame
    and after a size change); chroma_changed / chroma_tiles: the colour's change (chroma.py:
    share beyond codec noise; (N, 16, 8) counts beyond SYNC_NOISE), None where not measured."""

    pts: np.ndarray
    times_s: np.ndarray
    luma: np.ndarray
    motion: np.ndarray
    tiles: np.ndarray
    changed: np.ndarray
    luma_max: np.ndarray
    frame_duration_s: float
    sha256: str
    sync_tiles: np.ndarray
    chroma_changed: np.ndarray | None = None
    chroma_tiles: np.ndarray | None = None

    @property
    def frame_count(self) -> int:
        return int(self.pts.shape[0])

    def frame_at(self, t: float) -> int | None:
        if self.frame_count == 0 or t < -1e-6 or t >= float(self.times_s[-1]) + \
                self.frame_duration_s:
            return None
        i = int(np.searchsorted(self.times_s, t + 1e-6, side="right")) - 1
        return i if i >= 0 else None


@dataclass(frozen=True, eq=False)
class ScanResult:
    """What the scan found; the report's section is `verify.sections.VideoScanSection.of`."""

    signals: FrameSignals
    spans: tuple[Span, ...]
    audio_envelope_db: np.ndarray
    envelope_s: float
    has_audio: bool
    audio_start_s: float | None = None
    audio_end_s: float | None = None
    from_cache: bool = False
    packets: int = 0
    extra: dict = field(default_factory=dict)
    complete: bool = True  # False: stopped at its CPU budget (`SCAN_STOPPED` says where)
    thresholds: ScanThresholds = DEFAULT_SCAN_THRESHOLDS  # those it was judged with

    def outside(self, no_footage: Sequence[NoFootage]) -> ScanResult:
        """This scan without its picture findings (a cut, a freeze, black) that lie wholly
        inside a span the probe declares without footage (`VideoProbe.no_footage`). There the
        decoder gives pictures the file does not show as footage (a joined recording decoded
        with another's parameters: smeared frames), and a "possible hard cut" at 3.2-26 s of
        a 2-28 s stretch sent a click to "no footage at this time" (session 23's walk, on
        QA s21's seg_mkv_h264_res_change: 7 cuts inside its joined stretch). The timing
        findings (timestamp gap, going back, stream change) are about the packets, and stay.

        A freeze or black stretch that runs from footage into such a span is judged on its
        footage: shorter there than its rule's minimum (`freeze_s`, `black_s`), it is none.
        A restart inside such a span whose span holds no frame is a moment: the footage
        after it whose timestamps repeat earlier ones is not there. QA s23 Q1 (j23_mpeg4bf2_then_h264bf0_mkv_30): a
        damaged frame the MPEG-4 decoder made at 21.833 s of the 3.0-24.0 s stretch of a
        joined H.264 recording left "frozen from 2.967 s to 21.833 s" (one frame of footage)
        and a restart spanning 3.000-5.933 s; both said the stretch again."""
        spans = tuple(t for t in (self._outside(s, no_footage) for s in self.spans)
                      if t is not None)
        same = len(spans) == len(self.spans) and all(
            a is b for a, b in zip(spans, self.spans, strict=True))
        return self if same else replace(self, spans=spans)

    def _outside(self, s: Span, no_footage: Sequence[NoFootage]) -> Span | None:
        for nf in no_footage:
            if s.rule in PICTURE_RULES and nf.start_s <= s.start_s and s.end_s <= nf.end_s:
                return None
            if s.rule in (FROZEN.id, BLACK.id) and s.start_s < nf.start_s < s.end_s <= \
                    nf.end_s:
                least = self.thresholds.freeze_s if s.rule == FROZEN.id else \
                    self.thresholds.black_s
                if nf.start_s - s.start_s < least:
                    return None
            if s.rule == TS_BACK.id and nf.start_s - 1e-6 <= s.start_s < s.end_s <= \
                    nf.end_s and not self._frames_in(s.start_s, s.end_s):
                return replace(s, end_s=s.start_s)
        return s

    def _frames_in(self, a: float, b: float) -> bool:
        t = self.signals.times_s
        return bool(np.any((t >= a - 1e-6) & (t < b)))

    def findings(self, file: str | None) -> list[Finding]:
        out = []
        for s in self.spans:
            # its span on the video's clock, to the microsecond as the probe's gaps: where a
            # click on it goes (core/verify/moments.py), at any offset
            out.append(Finding(Severity(s.severity), s.rule, s.message, file, None,
                               video_start_s=round(float(s.start_s), 6),
                               video_end_s=round(float(s.end_s), 6)))
        return out


# --- running ----------------------------------------------------------------------------------
def _raw_scan(path: Path, sha: str, progress, cancel, total: int, timeout_s: float,
              use_cache: bool, nice: int = 0, budget_s: float | None = None,
              process: VideoProcess | None = None) -> tuple[dict, dict, bool]:
    if not use_cache:
        return _decode(path, sha, progress, cancel, total, timeout_s, False, nice, budget_s,
                       process)
    # One decode per video at a time in this process: the GUI's scan and its sync analysis
    # start together; the second waits for the first and reads its cache. The wait ends when
    # the scan is cancelled (the player closing its video must not wait for the other decode).
    lock = sha_lock(sha)
    while not lock.acquire(timeout=LOCK_POLL_S):
        if cancel is not None and cancel.cancelled:
            raise VideoProcessError("cancelled")
    key = cache_key(path, sha)
    try:
        hit = load_cached(key)
        if hit is not None:
            return hit[0], hit[1], True
        return _decode(path, key, progress, cancel, total, timeout_s, True, nice, budget_s,
                       process)
    finally:
        lock.release()


def _decode(path: Path, key: str, progress, cancel, total: int, timeout_s: float,
            use_cache: bool, nice: int, budget_s: float | None,
            process: VideoProcess | None = None) -> tuple[dict, dict, bool]:

    def on_progress(done: int, tot: int) -> bool:
        if progress is not None:
            progress(done, tot)
        return bool(cancel is not None and cancel.cancelled)

    with (contextlib.nullcontext(process) if process is not None
          else VideoProcess(path, timeout_s=timeout_s)) as vp:
        # A cancel ends the decoding process at once: it answers every 256 frames, which is
        # many seconds of a long 1080p video decoded at low priority on a busy machine.
        hook = getattr(cancel, "when_cancelled", None)
        forget = hook(vp.kill) if hook is not None else None
        try:
            req: dict = {"op": "scan", "total": total, "nice": nice}
            if budget_s is not None:
                req["budget_s"] = budget_s
            msg = vp.request(req, timeout_s=timeout_s, on_progress=on_progress)
        except VideoProcessError:
            if cancel is not None and cancel.cancelled:
                raise VideoProcessError("cancelled") from None
            raise
        finally:
            if forget is not None:
                forget()
    arrays = unpack_arrays(msg.blobs[0])
    meta = {k: msg.header[k] for k in ("time_base", "audio_rate", "envelope_s", "has_audio")}
    if isinstance(msg.header.get("codec"), str):
        meta["codec"] = msg.header["codec"]  # scan_gaps: Theora never stores a repeat
    for k in ("packed", "avi"):  # MPEG-4 Part 2's timing (`_mpeg4_times`)
        meta[k] = bool(msg.header.get(k, False))
    if msg.header.get("complete", True) is False:
        # stopped by its budget: the signals of the frames before the stop, never cached
        # (the cache stands for the whole video)
        return arrays, dict(meta, stopped=True, budget_s=budget_s), False
    if use_cache:
        store(key, arrays, meta)  # the SHA-256, tagged (cache_key)
    return arrays, meta, False


def frame_signals(path: Path | str, *, sha256: str | None = None,
                  progress: Callable[[int, int], None] | None = None, cancel=None,
                  cache: bool = True, timeout_s: float = 3600.0) -> FrameSignals:
    """Per-frame signals of a local video (decoded once in the isolated process, cached by
    SHA-256). Raises VideoProcessError with a reason when the video cannot be decoded."""
    return run_scan(path, sha256=sha256, progress=progress, cancel=cancel, cache=cache,
                    timeout_s=timeout_s, finer=False).signals


def run_scan(path: Path | str, *, sha256: str | None = None,
             progress: Callable[[int, int], None] | None = None, cancel=None,
             cache: bool = True, total: int = 0, timeout_s: float = 3600.0,
             thresholds: ScanThresholds = DEFAULT_SCAN_THRESHOLDS,
             nice: int = 0, budget_s: float | None = None,
             process: VideoProcess | None = None, finer: bool = True) -> ScanResult:
    """The integrity scan of a local video: signals and findings with spans. `nice` lowers
    the decoding process's CPU priority (the workstation: playback first). `budget_s`: CPU
    seconds the decoding process may spend (None: no bound); past it the scan stops where
    it is and says so (`SCAN_STOPPED`, `ScanResult.complete`): its findings cover the video
    up to there. A scan that stopped is not cached; a cached one is whole, whatever the
    budget. `process`: an isolated process with this file open (verify --scan's, which
    probed it) to decode in, else one is started; the caller closes it. `finer`: each
    `video.frozen` warning's frames decoded again at full resolution, a still screen that
    lives said as a note (held_finer.py: never cached, a process of its own); False where
    only the signals are wanted."""
    path = Path(path)
    sha = sha256 or file_sha256(path)
    arrays, meta, cached = _raw_scan(path, sha, progress, cancel, total, timeout_s, cache,
                                     nice, budget_s, process)
    result = analyse(arrays, meta, sha, cached, thresholds, total)
    if finer and result.complete and (cancel is None or not cancel.cancelled):
        result = held_finer.finer(result, path, NEIGHBOUR_SLIP)
    return result


def frame_order(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(order, pts): the decoded frames' rows in time order, and their pts in that order.

    The per-frame signals are differences between consecutive frames as the decoder gave
    them, and a decoder gives its frames in display order; the rows are sorted by pts only
    where the pts say the frames came out otherwise. Where sorting would move no frame more
    than NEIGHBOUR_SLIP places, the pts are the packets' carried onto their neighbours, not
    a frame order: DivX-style packed B-frames (libxvid in AVI: a packet holding a P and a B
    picture, then an empty one) give their frames the packets' pts permuted in threes
    (5 6 8 7 9 11 10 ...: 2 of 3 frames one slot off), and H.264 with B-frames in AVI (no
    pts in the container) up to its reorder depth (3 B-frames: 3 slots; 8: 6; H.264 allows
    16). Sorted, two of every three change values stood a frame from their pictures (QA
    s20's frogger-genuine2@r40xvidavi: the change signal correlated 0.18 with the same
    frames in H.264 MP4, intermodulation lines at 16.50 and 11.51 Hz, a false `sync.drift`
    of -4.55 %); kept in the decoder's order with the sorted pts given to them, 0.999. A
    larger reordering (a file written twice) is sorted as before."""
    order = np.argsort(pts, kind="stable")
    n = order.shape[0]
    if n:
        slip = np.abs(order - np.arange(n))
        if 0 < int(slip.max()) <= NEIGHBOUR_SLIP:
            return np.arange(n), pts[order]
    return order, pts[order]


def _mpeg4_times(arrays: dict, meta: dict, order: np.ndarray) -> np.ndarray | None:
    """Each decoded frame's time (ticks from the first) where an MPEG-4 Part 2 stream's
    packets do not carry its frames' times, as the index reads them (`index.build_index`):
    libxvid straight to Matroska/MP4/MOV/NUT (`packed.restamped`: the frames in the decoder's
    order at the references' rate) and a packed stream out of AVI (`packed.packed_times`: each
    frame at the next packet's time). None for any other stream (a cache written before they
    were read lacks the packets' types: read as before). Sorting the frames' own pts put
    these frames 2 frames after the index's pictures (QA s21 N1 and N2), the sync's offset
    with them."""
    n = order.shape[0]
    kinds = arrays.get("packet_type")
    ppts = arrays["packet_pts"]
    if n < 3 or kinds is None or kinds.shape[0] != ppts.shape[0] or meta.get("avi") or \
            not np.array_equal(order, np.arange(n)):
        return None
    if meta.get("packed"):
        at = np.asarray(packed_times(ppts.tolist()), np.float64)[:n]
        return at - at[0] if at.shape[0] == n and np.all(np.diff(at) > 0) else None
    fix = restamped(ppts.tolist(), kinds.tolist())
    return None if fix is None else fix[2] * np.arange(n, dtype=np.float64)


def analyse(arrays: dict, meta: dict, sha: str, cached: bool,
            th: ScanThresholds = DEFAULT_SCAN_THRESHOLDS, total: int = 0) -> ScanResult:
    order, sorted_pts = frame_order(arrays["pts"])
    tb = float(meta["time_base"])

    def col(name):
        a = arrays[name][order] if arrays[name].shape[0] == order.shape[0] else arrays[name]
        a = np.ascontiguousarray(a)
        a.setflags(write=False)
        return a

    spts = np.ascontiguousarray(sorted_pts)
    spts.setflags(write=False)
    times = ((spts - spts[0]).astype(np.float64) * tb) if spts.shape[0] else np.zeros(0)
    own = _mpeg4_times(arrays, meta, order)
    if own is not None:
        times = own * tb
    times.setflags(write=False)
    d = np.diff(times)
    fd = float(median(d)) if d.shape[0] else 1 / 30
    fd = fd if fd > 0 else 1 / 30
    sig = FrameSignals(spts, times, col("luma"), col("motion"), col("tiles"), col("changed"),
                       col("luma_max"), fd, sha, col("sync_tiles"),
                       *(col(k) if k in arrays else None
                         for k in ("chroma_changed", "chroma_tiles")))
    spans: list[Span] = []
    # which frames are keyframes, by their packets' flags (matched on pts)
    keyframes = isin(spts, arrays["packet_pts"][arrays["packet_key"]])
    same = same_picture(sig, keyframes, th)
    stills = still_spans(sig, same, keyframes, th)
    spans += stills
    spans += [s for s in timestamp_spans(sig, arrays, tb, keyframes, th,
                                         stores_repeats=meta.get("codec") != "theora")
              if not held_through(s, stills)]
    spans += _stream_changes(sig, arrays, order, th)
    spans += clock_spans(sig, arrays)
    if sig.frame_count >= 3 and fd > th.low_rate_interval_s:
        # a slideshow: every hole is one frame duration, so no gap rule can see it
        t1 = end_of(sig, sig.frame_count - 1)
        spans.append(Span(LOW_RATE.id, LOW_RATE.severity.value, 0.0, t1,
                          f"{sig.frame_count} frames in {t1:.1f} s: the usual interval between "
                          f"frames is {fd:.2f} s ({1 / fd:.2f} frames a second); a game's "
                          "footage between them is not in the file"))
    black_edges = [s.start_s for s in spans if s.rule == BLACK.id] + \
        [s.end_s for s in spans if s.rule == BLACK.id]
    spans += [Span(CUT.id, CUT.severity.value, t, t, what) for t, what in cut_candidates(sig, th)
              if all(abs(t - e) > 1.5 * fd for e in black_edges)]
    a_start, a_end = arrays["audio_start"], arrays["audio_end"]
    spans += _audio(a_start, a_end, float(spts[0]) * tb if spts.shape[0] else 0.0, th)
    complete = not meta.get("stopped")
    if not complete:
        spans.append(_stopped(sig, meta, total))
    spans.sort(key=lambda s: (s.start_s, s.rule))
    env = arrays["audio_envelope_db"]
    return ScanResult(
        sig, tuple(spans), env, float(meta.get("envelope_s", 0.05)),
        bool(meta.get("has_audio")),
        float(a_start.min()) - (float(spts[0]) * tb if spts.shape[0] else 0.0)
        if a_start.shape[0] else None,
        float(a_end.max()) - (float(spts[0]) * tb if spts.shape[0] else 0.0)
        if a_end.shape[0] else None,
        cached, int(arrays["packet_pts"].shape[0]), complete=complete, thresholds=th)


def _stopped(sig: FrameSignals, meta: dict, total: int) -> Span:
    """Where a scan stopped by its budget ended: every other finding covers the video up to
    there only (a freeze or a black stretch running on is cut there; what follows was never
    decoded)."""
    t = end_of(sig, sig.frame_count - 1) if sig.frame_count else 0.0
    of = f" of {total:,}" if total > sig.frame_count else ""
    budget = meta.get("budget_s")
    spent = f"its budget of {float(budget):g} CPU seconds" if budget is not None \
        else "its budget"
    return Span(SCAN_STOPPED.id, SCAN_STOPPED.severity.value, t, t,
                f"the scan stopped at {t:.3f} s ({sig.frame_count:,}{of} frames decoded) "
                f"when it had spent {spent}: the scan's findings cover 0-{t:.3f} s only, "
                "the rest of the video was not scanned (verify --scan-budget 0: no bound)")



def _stream_changes(sig: FrameSignals, arrays: dict, order: np.ndarray,
                    th: ScanThresholds) -> list[Span]:
    out: list[Span] = []
    size = arrays["size"][order] if arrays["size"].shape[0] == order.shape[0] else arrays["size"]
    if size.shape[0] >= 2:
        ch = np.nonzero(np.any(size[1:] != size[:-1], axis=1))[0]
        for i in ch[:20]:
            t0 = float(sig.times_s[i + 1])
            out.append(Span(STREAM_CHANGE.id, STREAM_CHANGE.severity.value, t0, t0,
                            f"the picture size changes from {size[i][0]}x{size[i][1]} to "
                            f"{size[i + 1][0]}x{size[i + 1][1]} at {t0:.3f} s"))
    # frame rate: a sustained step of the median interval between regular stretches (rates.py)
    lasting: list = []
    for t0, m0, m1, t1 in rate_changes(sig.times_s, th.rate_window_s, th.rate_min_s,
                                       th.rate_change_ratio, th.rate_regular_share,
                                       lasting, th.rate_steady_ratio)[:50]:
        out.append(Span(STREAM_CHANGE.id, STREAM_CHANGE.severity.value, t0, t1,
                        f"the frame rate changes from {1 / m0:.2f} to {1 / m1:.2f} fps "
                        f"at {t0:.3f} s"))
    for t0, m0, m1, t1 in lasting:
        # a note: in a file that drops repeats, a game drawing every 2nd frame to its end
        # writes the same timestamps as a recorder that halves its rate (rates._lasting)
        out.append(Span(STREAM_CHANGE.id, Severity.INFO.value, t0, t1,
                        f"the frame rate falls from {1 / m0:.2f} to {1 / m1:.2f} fps at "
                        f"{t0:.3f} s and stays so to the end; this recording drops repeated "
                        f"frames, so a game that from then on draws one frame in "
                        f"{round(m1 / m0)} would look the same: compare the motion before "
                        "and after"))
    return out


def _audio(start: np.ndarray, end: np.ndarray, video0: float, th: ScanThresholds) -> list[Span]:
    out: list[Span] = []
    if start.shape[0] < 2:
        return out
    gap = start[1:] - end[:-1]
    for i in np.nonzero(gap > th.audio_gap_s)[0][:50]:
        t0, t1 = float(end[i]) - video0, float(start[i + 1]) - video0
        out.append(Span(AUDIO_GAP.id, AUDIO_GAP.severity.value, t0, t1,
                        f"no audio from {t0:.3f} s to {t1:.3f} s ({t1 - t0:.3f} s)"))
    for i in np.nonzero(gap < -th.audio_gap_s)[0][:50]:
        t0, t1 = float(start[i + 1]) - video0, float(end[i]) - video0
        out.append(Span(AUDIO_DISC.id, AUDIO_DISC.severity.value, t0, t1,
                        f"the audio jumps back by {t1 - t0:.3f} s at {t1:.3f} s"))
    return out
