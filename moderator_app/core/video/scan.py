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
  the frames after it are shown in file order, `index.Timeline`), or two frames with one pts;
- `video.stream_change`: the picture size, or the frame rate (a sustained step of the median
  frame interval between regular stretches, `rates.py`), changes mid-stream; a note where a
  file that drops repeats falls to a whole fraction of its rate for good (`rates._lasting`);
- `video.cut`: candidates for hard cuts: an isolated peak of motion far above the median
  motion before and after it, or, in busy content where motion saturates, a share of changed
  points standing out of its local distribution (listed, info; the edges of a black stretch
  are fades, not cuts; the first and last frames have nothing around them to judge by); a
  game recorded as a window of the screen (most of the picture never changes) is judged on
  the tiles that do change, where a cut moves most of them at once; a flash (the whole
  picture brightened or darkened at once, back to the picture before within 0.5 s) is none;
- `audio.gap` / `audio.discontinuity`: the audio timestamps jump forward / back.

Signals are cached by the video's SHA-256 (the verifier already has it), so reopening a video
costs loading one small file. The same pass yields the per-tile change counts the log-video
sync analysis reads (`core.sync.signals.frame_signals` is a view of them): a video is decoded
once for both, and two callers asking for the same video at once share one decode.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from moderator_app.core.rules import Finding, Severity, rule
from moderator_app.core.thresholds import DEFAULT_SCAN_THRESHOLDS, ScanThresholds

from .isolate import VideoProcess, VideoProcessError
from .rates import rate_changes
from .resume import held_resumes_gradually
from .scan_cache import file_sha256, load_cached, sha_lock, store
from .scan_cuts import cut_candidates
from .signals import unpack_arrays

SCAN_VERSION = 1   # the report's `video_scan` section
LOCK_POLL_S = 0.05  # how often a scan waiting for the same video's decode looks at its cancel
G = "video-scan"
FROZEN = rule("video.frozen", Severity.WARNING,
              "The picture does not stay the same for 3 s or more (a frozen or held frame; "
              "a note when held from the first frame or to the last).", G)
BLACK = rule("video.black", Severity.WARNING,
             "No stretch of black frames of 1 s or more.", G)
TS_GAP = rule("video.timestamp_gap", Severity.WARNING,
              "Frame timestamps advance without jumps of several frame durations (dropped or "
              "cut footage).", G)
TS_BACK = rule("video.timestamp_backwards", Severity.WARNING,
               "Timestamps never go back (a bad remux or a splice).", G)
STREAM_CHANGE = rule("video.stream_change", Severity.WARNING,
                     "Resolution and frame rate stay the same through the stream (a note "
                     "where a file that drops repeated frames falls to a whole fraction of its "
                     "rate for good: a game drawing less often looks the same).", G)
LOW_RATE = rule("video.low_frame_rate", Severity.WARNING,
                "The video shows 2 or more pictures a second (not a slideshow of stills).", G)
CUT = rule("video.cut", Severity.INFO,
           "Candidates for hard cuts: a content change far above the local motion level "
           "(listed to look at; a full-screen flash that comes back is none).", G)
SCAN_STOPPED = rule("video.scan_stopped", Severity.INFO,
                    "The integrity scan covered the whole video (verify --scan stops at its CPU "
                    "budget, --scan-budget; its findings then cover the video up to there).", G)
AUDIO_GAP = rule("audio.gap", "warning",
                 "The audio track has no holes (its timestamps do not jump forward).", "audio")
AUDIO_DISC = rule("audio.discontinuity", "warning",
                  "The audio timestamps never go back or overlap (a splice).", "audio")


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


@dataclass(frozen=True)
class Span:
    """One scan finding with its time span in video seconds (end exclusive)."""

    rule: str
    severity: str
    start_s: float
    end_s: float
    message: str


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

    def findings(self, file: str | None) -> list[Finding]:
        out = []
        for s in self.spans:
            out.append(Finding(Severity(s.severity), s.rule, s.message, file, None))
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
    try:
        hit = load_cached(sha)
        if hit is not None:
            return hit[0], hit[1], True
        return _decode(path, sha, progress, cancel, total, timeout_s, True, nice, budget_s,
                       process)
    finally:
        lock.release()


def _decode(path: Path, sha: str, progress, cancel, total: int, timeout_s: float,
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
    if msg.header.get("complete", True) is False:
        # stopped by its budget: the signals of the frames before the stop, never cached
        # (the cache stands for the whole video)
        return arrays, dict(meta, stopped=True, budget_s=budget_s), False
    if use_cache:
        store(sha, arrays, meta)
    return arrays, meta, False


def frame_signals(path: Path | str, *, sha256: str | None = None,
                  progress: Callable[[int, int], None] | None = None, cancel=None,
                  cache: bool = True, timeout_s: float = 3600.0) -> FrameSignals:
    """Per-frame signals of a local video (decoded once in the isolated process, cached by
    SHA-256). Raises VideoProcessError with a reason when the video cannot be decoded."""
    return run_scan(path, sha256=sha256, progress=progress, cancel=cancel, cache=cache,
                    timeout_s=timeout_s).signals


def run_scan(path: Path | str, *, sha256: str | None = None,
             progress: Callable[[int, int], None] | None = None, cancel=None,
             cache: bool = True, total: int = 0, timeout_s: float = 3600.0,
             thresholds: ScanThresholds = DEFAULT_SCAN_THRESHOLDS,
             nice: int = 0, budget_s: float | None = None,
             process: VideoProcess | None = None) -> ScanResult:
    """The integrity scan of a local video: signals and findings with spans. `nice` lowers
    the decoding process's CPU priority (the workstation: playback first). `budget_s`: CPU
    seconds the decoding process may spend (None: no bound); past it the scan stops where
    it is and says so (`SCAN_STOPPED`, `ScanResult.complete`): its findings cover the video
    up to there. A scan that stopped is not cached; a cached one is whole, whatever the
    budget. `process`: an isolated process with this file open (verify --scan's, which
    probed it) to decode in, else one is started; the caller closes it."""
    path = Path(path)
    sha = sha256 or file_sha256(path)
    arrays, meta, cached = _raw_scan(path, sha, progress, cancel, total, timeout_s, cache,
                                     nice, budget_s, process)
    return analyse(arrays, meta, sha, cached, thresholds, total)


def analyse(arrays: dict, meta: dict, sha: str, cached: bool,
            th: ScanThresholds = DEFAULT_SCAN_THRESHOLDS, total: int = 0) -> ScanResult:
    pts = arrays["pts"]
    order = np.argsort(pts, kind="stable")
    tb = float(meta["time_base"])

    def col(name):
        a = arrays[name][order] if arrays[name].shape[0] == order.shape[0] else arrays[name]
        a = np.ascontiguousarray(a)
        a.setflags(write=False)
        return a

    spts = col("pts")
    times = ((spts - spts[0]).astype(np.float64) * tb) if spts.shape[0] else np.zeros(0)
    times.setflags(write=False)
    d = np.diff(times)
    fd = float(np.median(d)) if d.shape[0] else 1 / 30
    fd = fd if fd > 0 else 1 / 30
    sig = FrameSignals(spts, times, col("luma"), col("motion"), col("tiles"), col("changed"),
                       col("luma_max"), fd, sha, col("sync_tiles"),
                       *(col(k) if k in arrays else None
                         for k in ("chroma_changed", "chroma_tiles")))
    spans: list[Span] = []
    # which frames are keyframes, by their packets' flags (matched on pts)
    keyframes = np.isin(spts, arrays["packet_pts"][arrays["packet_key"]])
    same = _same(sig, keyframes, th)
    spans += _runs(sig, same, keyframes, th)
    spans += _timestamps(sig, arrays, tb, th)
    spans += _stream_changes(sig, arrays, order, th)
    if sig.frame_count >= 3 and fd > th.low_rate_interval_s:
        # a slideshow: every hole is one frame duration, so no gap rule can see it
        t1 = _end_of(sig, sig.frame_count - 1)
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
        cached, int(arrays["packet_pts"].shape[0]), complete=complete)


def _stopped(sig: FrameSignals, meta: dict, total: int) -> Span:
    """Where a scan stopped by its budget ended: every other finding covers the video up to
    there only (a freeze or a black stretch running on is cut there; what follows was never
    decoded)."""
    t = _end_of(sig, sig.frame_count - 1) if sig.frame_count else 0.0
    of = f" of {total:,}" if total > sig.frame_count else ""
    budget = meta.get("budget_s")
    spent = f"its budget of {float(budget):g} CPU seconds" if budget is not None \
        else "its budget"
    return Span(SCAN_STOPPED.id, SCAN_STOPPED.severity.value, t, t,
                f"the scan stopped at {t:.3f} s ({sig.frame_count:,}{of} frames decoded) "
                f"when it had spent {spent}: the scan's findings cover 0-{t:.3f} s only, "
                "the rest of the video was not scanned (verify --scan-budget 0: no bound)")


def _end_of(sig: FrameSignals, k: int) -> float:
    """When frame k stops being shown."""
    if k + 1 < sig.frame_count:
        return float(sig.times_s[k + 1])
    return float(sig.times_s[k]) + sig.frame_duration_s


def _same(sig: FrameSignals, keyframes: np.ndarray, th: ScanThresholds) -> np.ndarray:
    """Per frame: the same picture as the frame before it (False for the first frame)."""
    n = sig.frame_count
    changed = sig.changed  # luma: colour's codec noise alone exceeds the share (chroma.py)
    same = np.zeros(n, bool)
    same[1:] = changed[1:] <= th.same_changed_max  # NaN compares False
    # a keyframe between two still neighbours that changed little is the held picture coded
    # afresh (intra re-quantisation), not the picture moving
    recoded = np.zeros(n, bool)
    recoded[1:-1] = keyframes[1:-1] & (changed[1:-1] <= th.keyframe_noise_max) \
        & same[:-2] & same[2:]
    return same | recoded


def _changed(sig: FrameSignals) -> np.ndarray:
    """Per frame, the share of sample points that changed beyond codec noise in luma or in
    colour, whichever is more: a frame is identical to the one before only when neither
    moved (a green square on a grey room moves no luma, chroma.py)."""
    if sig.chroma_changed is None or sig.chroma_changed.shape != sig.changed.shape:
        return sig.changed
    return np.fmax(sig.changed, sig.chroma_changed)  # NaN only where both are


def _runs(sig: FrameSignals, same: np.ndarray, keyframes: np.ndarray,
          th: ScanThresholds) -> list[Span]:
    out: list[Span] = []
    n = sig.frame_count
    if n == 0:
        return out
    black = sig.luma_max <= th.black_luma_max
    # black stretches
    i = 0
    while i < n:
        if not black[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and black[j + 1]:
            j += 1
        t0, t1 = float(sig.times_s[i]), _end_of(sig, j)
        if t1 - t0 >= th.black_s:
            out.append(Span(BLACK.id, BLACK.severity.value, t0, t1,
                            f"black from {t0:.3f} s to {t1:.3f} s ({t1 - t0:.1f} s)"))
        i = j + 1
    # frozen: a frame and the frames after it that are the same picture (not black), where
    # the picture is held (`_held_stretches`), not a still screen that lives
    i = 0
    while i < n:
        j = i
        while j + 1 < n and same[j + 1]:
            j += 1
        if _end_of(sig, j) - float(sig.times_s[i]) >= th.freeze_s \
                and not black[i:j + 1].all():
            for a, b in _held_stretches(sig, i, j, keyframes, th):
                t0, t1 = float(sig.times_s[a]), _end_of(sig, b)
                if t1 - t0 < th.freeze_s:
                    continue
                # a still picture from the first frame or to the last is a title, pre-start
                # or game-over screen on honest footage, one that resumes gradually a
                # game's own pause: listed, not a warning (DECISIONS.md)
                edge = " at the start of the footage" if a == 0 else \
                    " at the end of the footage" if b == n - 1 else \
                    " and resumes gradually (a game's own pause)" if held_resumes_gradually(
                        _changed(sig), a, b, 1.0 / max(sig.frame_duration_s, 1e-9)) else ""
                out.append(Span(FROZEN.id, Severity.INFO.value if edge
                                else FROZEN.severity.value, t0, t1,
                                f"the picture is frozen from {t0:.3f} s to {t1:.3f} s "
                                f"({t1 - t0:.1f} s, {b - a + 1} frames){edge}"))
        i = j + 1
    return out


def _held_stretches(sig: FrameSignals, i: int, j: int, keyframes: np.ndarray,
                    th: ScanThresholds) -> list[tuple[int, int]]:
    """The stretches of the same-picture frames i..j where the picture is held: around each
    frame (`held_window_s`, within i..j) at least `held_identical_share` of the frames are
    identical to the one before (no sample point changed beyond codec noise). A frozen
    capture repeats one picture: only the codec moves a few points now and then (a keyframe,
    quality refined over a few frames; 88-100 % of the frames identical in the 17 inserted
    freezes of the real-game corpus). A still game screen that lives (Tennis between
    points: a few points change in runs of 9-20 frames) has 17-41 % (docs/DECISIONS.md)."""
    if j <= i:
        return [(i, j)]
    t = sig.times_s[i:j + 1]
    ident = np.zeros(j - i + 1, np.float64)
    ident[1:] = _changed(sig)[i + 1:j + 1] == 0  # NaN: not identical
    ident[0] = ident[1]  # the run's first frame is judged with the next
    cum = np.concatenate(([0.0], np.cumsum(ident)))
    h = th.held_window_s / 2
    lo = np.searchsorted(t, t - h, "left")
    hi = np.searchsorted(t, t + h, "right")
    held = (cum[hi] - cum[lo]) / (hi - lo) >= th.held_identical_share
    held &= ~_living(sig, i, j, keyframes, th)
    out = []
    k = 0
    while k < held.shape[0]:
        if not held[k]:
            k += 1
            continue
        m = k
        while m + 1 < held.shape[0] and held[m + 1]:
            m += 1
        out.append((i + k, i + m))
        k = m + 1
    return out


def _living(sig: FrameSignals, i: int, j: int, keyframes: np.ndarray,
            th: ScanThresholds) -> np.ndarray:
    """Per frame of i..j: between two changes of the same spot (a 16x16 tile with a point
    moved beyond SYNC_NOISE), neither at a keyframe, at most `live_gap_s` apart and with an
    unchanged frame between them (a codec refines a picture in consecutive frames). A still
    screen that lives keeps changing the same few points (H.E.R.O.'s idle hero: 6 points of
    one tile every 1.07 s, 145 levels; a blinking cursor), so most of its frames are
    identical and `held_identical_share` alone takes it for a freeze. A held picture's
    frames change only where the codec recodes it (a keyframe, or quality refined: under
    SYNC_NOISE in the inserted freezes of the corpus, docs/DECISIONS.md)."""
    live = np.zeros(j - i + 1, bool)
    if sig.sync_tiles.shape[0] != sig.frame_count or j <= i:
        return live
    moved = sig.sync_tiles[i:j + 1] > 0
    ct = sig.chroma_tiles
    if ct is not None and ct.shape[0] == sig.frame_count and ct.shape[1:] == (
            moved.shape[1], moved.shape[2] // 2):
        moved |= np.repeat(ct[i:j + 1] > 0, 2, axis=2)  # a spot that lives in colour
    moved[0] = False  # the stretch's first frame changed from the picture before it
    ev = np.nonzero(moved.any(axis=(1, 2)) & ~keyframes[i:j + 1])[0]
    t = sig.times_s[i:j + 1]
    for p, q in zip(ev[:-1].tolist(), ev[1:].tolist(), strict=True):
        if q - p >= 2 and t[q] - t[p] <= th.live_gap_s and (moved[p] & moved[q]).any():
            live[p:q + 1] = True
    return live


def _timestamps(sig: FrameSignals, arrays: dict, tb: float,
                th: ScanThresholds) -> list[Span]:
    out: list[Span] = []
    t = sig.times_s
    holes = dict(zip(arrays["hole_pts"].tolist(), arrays["hole_span_motion"].tolist(),
                     strict=True)) if "hole_pts" in arrays else {}
    if sig.frame_count >= 2:
        d = np.diff(t)
        limit = max(th.gap_min_s, th.gap_frames * sig.frame_duration_s)
        for i in np.nonzero(d > limit)[0]:
            span = holes.get(int(sig.pts[i + 1]))
            if _held(sig, int(i), th, span) and not _repeats_kept(sig, int(i), th):
                continue  # a still picture held: a VFR repeat drop (judged as a freeze)
            t0, t1 = float(t[i]) + sig.frame_duration_s, float(t[i + 1])
            out.append(Span(TS_GAP.id, TS_GAP.severity.value, t0, t1,
                            f"no frame from {t0:.3f} s to {t1:.3f} s ({t1 - t0:.3f} s, "
                            f"{(t1 - t0) / sig.frame_duration_s:.0f} frame durations) and "
                            "the picture changed across the gap"))
        for i in np.nonzero(d == 0)[0][:20]:
            out.append(Span(TS_BACK.id, TS_BACK.severity.value, float(t[i]), float(t[i]),
                            f"two frames with the same timestamp at {float(t[i]):.3f} s"))
    # where the decode timestamps went back: the packets after it were shifted to follow in
    # file order (index.Timeline); the span is the footage whose raw timestamps repeat
    # earlier ones, from the splice on
    base = int(sig.pts[0]) if sig.frame_count else 0
    end = _end_of(sig, sig.frame_count - 1) if sig.frame_count else 0.0
    for first, back in zip(arrays["splice_pts"][:20].tolist(),
                           arrays["splice_back"][:20].tolist(), strict=True):
        t0 = (first - base) * tb
        b = back * tb
        out.append(Span(TS_BACK.id, TS_BACK.severity.value, t0, min(end, t0 + b),
                        f"the timestamps go back by {b:.3f} s at {t0:.3f} s (recordings "
                        "joined, or a splice): the footage after it is shown in file order"))
    return out


def _repeats_kept(sig: FrameSignals, i: int, th: ScanThresholds) -> bool:
    """Whether the recording keeps repeated frames near the hole after frame i: a still
    picture stored as `repeats_kept_frames` or more repeats (decoded identical: no changed point,
    motion at most `repeat_motion_max`) in a row at the usual spacing, within `repeats_kept_s` before or after
    the hole. An encoder that stores repeats did not drop the hole's frames for being repeats:
    the hole is missing footage however little the picture changed across it (a 1.5 s hole in
    a real Atari game whose ball barely moves was taken for a VFR hold, issue 12 QA). Frames
    that are only the same picture at the scan's resolution (a ball moving) do not count: a
    VFR recorder that drops exact repeats keeps them."""
    t = sig.times_s
    repeat = (sig.changed <= th.repeat_changed_max) & (sig.motion <= th.repeat_motion_max)
    lo = int(np.searchsorted(t, t[i] - th.repeats_kept_s, side="left"))
    hi = int(np.searchsorted(t, t[i + 1] + th.repeats_kept_s, side="right"))
    run = 0
    for k in range(max(1, lo), min(hi, sig.frame_count)):
        regular = t[k] - t[k - 1] <= 1.5 * sig.frame_duration_s
        run = run + 1 if repeat[k] and regular else 0
        if run >= th.repeats_kept_frames:
            return True
    return False


def _held(sig: FrameSignals, i: int, th: ScanThresholds, span: float | None = None) -> bool:
    """Whether the picture after a timestamp gap (frame i+1) differs from the one before no
    more than one frame's usual change does: the encoder dropped repeats (or the game paused),
    rather than footage being missing (the scene would have moved on). `span`: the change the
    picture made over the hole's own length just before it (signals._Holes); a change across
    the hole nearer to that than to one frame's is footage that moved on, even under the
    fixed ratio (content that changes a third of the picture every frame saturates)."""
    m = sig.motion
    across = m[i + 1]
    if not np.isfinite(across):
        return False
    before = m[max(1, i - 30):i + 1]
    before = before[np.isfinite(before)]
    usual = float(np.median(before)) if before.shape[0] else 0.0
    if across > max(th.hold_motion_min, th.hold_ratio * usual):
        return False
    # The share of points changed tells it where the mean change saturates: a picture that
    # moved every frame before the hole (not a still one whose repeats an encoder drops) and
    # changed hold_ratio times the usual share of its points across it moved on. QA session 14
    # (G5): 19 frames (0.79 s) cut from 24 fps footage changing 14 % of its points a frame
    # changed 35-49 % across the hole at 1.3-1.5x the usual mean change, under both rules
    # below; a hole of 20 frames changed more and was found.
    changed = sig.changed[max(1, i - 30):i + 1]
    changed = changed[np.isfinite(changed)]
    if usual > th.hold_motion_min and changed.shape[0] and np.isfinite(sig.changed[i + 1]) \
            and sig.changed[i + 1] > th.hold_ratio * float(np.median(changed)):
        return False
    # Footage moved on when the picture had been moving on before the hole (its change over
    # the hole's length is well above one frame's) and changed across it about as much. A
    # first change after a VFR hold is one frame's: an honest VFR Breakout recording had a
    # hole whose first change was 5x the near-still frames before it (span under one frame's
    # change) and one at 0.67 of the span; a 1.5 s hole cut from a Breakout CFR recording is
    # at 1.09 of it, busy content at ~1.
    moved_on = span is not None and np.isfinite(span) and across > th.moved_on_min * usual \
        and span > th.moved_on_min * usual and across >= th.moved_on_span_share * span
    return not moved_on


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
                                       lasting)[:50]:
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
