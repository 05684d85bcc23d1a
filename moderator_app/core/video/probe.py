"""Probing the submitted video: can it be read, how many frames does it hold, for how long?

docs/DESIGN.md: the duration is measured, not trusted from the header, because variable frame rates
and lying frame counts are common (and a header is the easiest thing to forge). The measure is
the frame index (`index.py`): every packet's presentation timestamp read from the demuxer, as
ffprobe counts frames. Frame count = frames in the index (packets a cut's edit list discards
are not frames); duration = last frame's time + one frame duration. The first and the last
frame are decoded to prove the stream decodes to its end. Time between two frames longer than
`VideoLimits.footage_gap_s` is missing footage (`video.footage_gap`): coverage counts it.

All of it runs in the isolated video process (`isolate.py`): a decoder crash, a hang or a
memory bomb is a `video.unreadable` finding with the reason, never the end of the CLI or the
workstation. Truncation is detected first, in this process, from the container's own structure
(`truncation.py`: an MP4 box, the AVI RIFF chunk or the Matroska segment that claims more bytes
than the file has), which is exact, and reads only a few bytes in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from moderator_app.core.rules import Finding, Severity, rule
from moderator_app.core.thresholds import DEFAULT_VIDEO_LIMITS, VideoLimits

from .index import FrameIndex
from .isolate import VideoProcess, VideoProcessError
from .middle import isin
from .mp4_tables import attachments_problem, sample_table_problem
from .probe_joined import count as _count
from .probe_joined import params as _params
from .probe_joined import recordings, through_joined, unread_text
from .probe_times import first_uneven, timed_truncation
from .streams_text import again_text, several_streams_spans, several_streams_text
from .truncation import avi_unfinished, container_truncation

G = "video"
UNREADABLE = rule("video.unreadable", Severity.ERROR,
                  "The video can be opened and decoded (container and codec supported).", G)
EMPTY = rule("video.empty", Severity.ERROR, "The video holds at least one decodable frame.", G)
TRUNCATED = rule("video.truncated", Severity.ERROR,
                 "The file is complete: no container box, chunk or segment ends past the end "
                 "of the file.", G)
TOO_LARGE = rule("video.too_large", Severity.ERROR,
                 "Dimensions, frame count and duration are plausible (at most 16384 px a side, "
                 "48 hours).", G)
HEADER_MISMATCH = rule("video.header_mismatch", Severity.WARNING,
                       "The header's duration agrees with the frames' timestamps.", G)
# A note, not a warning: whether the probe finishes in its time budget depends on the machine's
# load as much as on the file (a sound 1080p60 HEVC MKV ran out of time on a loaded machine), and
# the same file must not be flagged by one run and not by the next.
PROBE_INCOMPLETE = rule("video.probe_incomplete", Severity.INFO,
                        "The probe finished within its time budget: every packet indexed and "
                        "the last frames decoded.", G)
TAIL_UNDECODABLE = rule(
    "video.tail_undecodable", Severity.WARNING,
    "The last frames of the stream decode (the measured duration is what decodes).", G)
# A warning, as a footage gap is: the stretch's time counts as missing footage, and coverage
# fails the run when that is more than its tolerance (QA session 20, h20_06)
JOINED_UNDECODABLE = rule(
    "video.joined_undecodable", Severity.WARNING,
    "Every recording joined in the file decodes (a recording appended to another, whose "
    "frames the player's decoder gives damaged or not at all, or whose own header names "
    "another codec or picture size than it is decoded with, or whose first pictures decoded "
    "from its own header are not those the file shows, is no footage: its time counts as "
    "missing). In Matroska, a recording of the file's codec and clock whose first pictures "
    "come out otherwise with the first recording's header than with its own (other encoder "
    "settings: profile, B-frames, CRF; another picture size, said as `video.stream_change`) "
    "is read from its own header, as every recording from the third on is: its own "
    "pictures at their own size, footage. In a fragmented MP4, every joined recording of "
    "the file's codec and clock is read from its own header (its first fragment too, which "
    "FFmpeg's demuxer drops).", G)
VFR = rule("video.variable_rate", Severity.INFO,
           "The frame timestamps are not evenly spaced (variable frame rate).", G)
# A note: a second recording in the file (a webcam beside the game, a second capture) is
# evidence the player does not show; the moderator is told which stream was checked
SEVERAL_STREAMS = rule("video.several_streams", Severity.INFO,
                       "The file holds one video stream of footage (covers and stills aside); "
                       "when it holds more, the one checked and shown is named, as ffmpeg "
                       "picks it, and the others are listed.", G)
FOOTAGE_GAP = rule("video.footage_gap", Severity.WARNING,
                   "No two consecutive frames are further apart than 5 s (time without a frame "
                   "is missing footage and counts toward the coverage tolerance).", G)


@dataclass(frozen=True)
class NoFootage:
    """A span of video time the probe declares without footage, and why (the finding's rule and
    a short text): the player, `moderator-app frame` and Save frame show nothing there and say
    this (core/video/export.py `no_footage_reason`), as coverage counts it missing."""

    start_s: float
    end_s: float
    rule: str
    text: str


@dataclass(frozen=True)
class VideoProbe:
    """What the probe found. `duration_s` is measured; `method` says how. `index` is the frame
    index (None when the video could not be indexed); `gaps` the spans without footage.
    The report's `video` section is `verify.sections.VideoSection.of(probe)`."""

    ok: bool
    file: str
    fps: float | None = None
    frame_count: int | None = None
    width: int | None = None
    height: int | None = None
    duration_s: float | None = None
    codec: str | None = None
    method: str = ""
    header_frame_count: int | None = None
    header_fps: float | None = None
    findings: tuple[Finding, ...] = ()
    gaps: tuple[tuple[float, float], ...] = ()
    audio: tuple[dict, ...] = ()
    # `gaps` one by one, with their reasons, sorted by start (they may overlap)
    no_footage: tuple[NoFootage, ...] = ()
    index: FrameIndex | None = field(default=None, repr=False, compare=False)

    @property
    def footage_s(self) -> float | None:
        """Duration minus the time without footage."""
        if self.duration_s is None:
            return None
        return self.duration_s - sum(b - a for a, b in self.gaps)


# --- probing --------------------------------------------------------------------------------
def probe_video(path: Path, name: str, limits: VideoLimits = DEFAULT_VIDEO_LIMITS,
                process: VideoProcess | None = None) -> VideoProbe:
    """Probe a local video file. Never raises: every problem is a finding on the result.
    `process`: an isolated process with this file, kept alive after the probe for the
    caller's next request (verify --scan's scan: one process start for both, not two);
    without one the probe starts its own, which ends with the answer."""
    try:
        return _probe(Path(path), name, limits, process)
    except Exception as exc:  # noqa: BLE001 - untrusted input must never crash verification
        why = str(exc) or type(exc).__name__  # a MemoryError says nothing by itself
        return VideoProbe(False, name, method="failed",
                          findings=(UNREADABLE.at(f"the video cannot be read: {why}", name),))


@dataclass(frozen=True)
class PendingProbe:
    """A probe whose last decodable frame is left to the scan that follows it in the same
    process (verify --scan): the video process's answer, judged by `judge` once the scan's
    frames say which is the last that decodes (`last_decoded`). The scan decodes every frame;
    the probe's own tail pass decoded the last GOPs of the file a second time."""

    index: FrameIndex
    info: dict
    name: str
    limits: VideoLimits
    findings: tuple[Finding, ...]

    def judge(self, last_decodable: int) -> VideoProbe:
        try:
            return _judge(self.index, dict(self.info, last_decodable=last_decodable),
                          self.name, self.limits, list(self.findings))
        except Exception as exc:  # noqa: BLE001 - as `probe_video`
            why = str(exc) or type(exc).__name__
            return VideoProbe(False, self.name, method="failed", findings=(
                UNREADABLE.at(f"the video cannot be read: {why}", self.name),))


def probe_for_scan(path: Path, name: str, process: VideoProcess | None,
                   limits: VideoLimits = DEFAULT_VIDEO_LIMITS
                   ) -> tuple[VideoProbe, PendingProbe | None]:
    """`probe_video` for a video that is scanned next: the probe judged without the last
    frames' decode (enough to know whether to scan, and its frame count) and, when the video
    process left that decode to the scan (`child_probe.scan_answers_tail`), what to judge
    again with the scan's frames (`PendingProbe.judge`); else None, and the probe is whole."""
    try:
        asked = _ask(Path(path), name, limits, process, tail="scan")
        if isinstance(asked, VideoProbe):
            return asked, None
        early = _judge(asked.index, asked.info, name, limits, list(asked.findings))
    except Exception as exc:  # noqa: BLE001 - as `probe_video`
        why = str(exc) or type(exc).__name__
        return VideoProbe(False, name, method="failed", findings=(
            UNREADABLE.at(f"the video cannot be read: {why}", name),)), None
    return early, (asked if early.ok and asked.info.get("tail_deferred") else None)


def last_decoded(index: FrameIndex, decoded_pts: np.ndarray) -> int | None:
    """The index's last frame whose timestamp is among `decoded_pts` (a whole scan's frames):
    the last frame that decodes, as the probe's tail pass finds it. As many frames decoded as
    the index holds: all of them, whatever their times (the scan dates an Ogg Theora packet
    by its page's granule where FFmpeg's index does not, ogg_theora.py)."""
    if index.frame_count and decoded_pts.shape[0] >= index.frame_count:
        return index.frame_count - 1
    hit = np.nonzero(isin(index.pts, decoded_pts))[0]
    return int(hit[-1]) if hit.shape[0] else None


def _probe(path: Path, name: str, limits: VideoLimits,
           process: VideoProcess | None = None) -> VideoProbe:
    asked = _ask(path, name, limits, process)
    if isinstance(asked, VideoProbe):
        return asked
    return _judge(asked.index, asked.info, name, limits, list(asked.findings))


def _ask(path: Path, name: str, limits: VideoLimits, process: VideoProcess | None,
         tail: str = "probe") -> VideoProbe | PendingProbe:
    """The video process's answer (a failed probe when there is none). `tail` "scan": the
    process may leave the last frames' decode to the scan that follows."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return VideoProbe(False, name, method="none",
                          findings=(UNREADABLE.at(f"cannot read the file: {exc.strerror}", name),))
    if size == 0:
        return VideoProbe(False, name, method="none",
                          findings=(EMPTY.at("the video file is empty (0 bytes)", name),))
    findings: list[Finding] = []
    cut = container_truncation(path)
    if cut:
        findings.append(TRUNCATED.at(f"the video file is truncated: {cut}", name))
    bomb = sample_table_problem(path, limits.max_index_frames) or attachments_problem(path)
    if bomb:  # the demuxer would build this index whole when opening the file
        findings.append(TOO_LARGE.at(bomb, name))
        return VideoProbe(False, name, method="none", findings=tuple(findings))
    req = {"op": "probe", "budget_s": limits.time_budget_s, "max_frames": limits.max_frames,
           "max_index_frames": limits.max_index_frames, "max_side": limits.max_side,
           "tail": tail}
    try:
        if process is not None:
            msg = process.request(dict(req, keep=True), timeout_s=limits.time_budget_s + 5.0)
        else:
            with VideoProcess(path, timeout_s=limits.time_budget_s + 5.0) as vp:
                msg = vp.request(req)
    except VideoProcessError as exc:
        if not cut:
            findings.append(UNREADABLE.at(f"the video cannot be read: {exc.reason}", name))
        return VideoProbe(False, name, method="none", findings=tuple(findings))
    try:
        index = FrameIndex.from_bytes(msg.blobs[0])
    except (ValueError, KeyError, IndexError, TypeError):
        findings.append(UNREADABLE.at("the video reader sent a malformed index", name))
        return VideoProbe(False, name, method="none", findings=tuple(findings))
    if avi_unfinished(path):  # its header's lengths are placeholders: it says nothing
        index = replace(index, header_duration_s=None, header_frames=None)
    return PendingProbe(index, msg.header, name, limits, tuple(findings))


def _judge(index: FrameIndex, info: dict, name: str, limits: VideoLimits,
           findings: list[Finding]) -> VideoProbe:
    w, h = index.width, index.height
    audio = tuple(a for a in info.get("audio", []) if isinstance(a, dict))
    base: dict[str, Any] = {"file": name, "width": w, "height": h, "codec": index.codec or None,
            "header_frame_count": index.header_frames, "header_fps": index.header_fps,
            "audio": audio, "index": index}
    if w > limits.max_side or h > limits.max_side:
        findings.append(TOO_LARGE.at(f"the video is {w}x{h} pixels (limit {limits.max_side} a "
                                     "side); not decoded", name))
        return VideoProbe(False, method="none", findings=tuple(findings), **base)
    n = index.frame_count
    undecided = info.get("first_undecided_s")
    if n and not info.get("first_decodes") and isinstance(undecided, (int, float)):
        findings.append(UNREADABLE.at(
            f"no frame of its {n:,} packets decoded within the probe's budget ({undecided:g} "
            "CPU seconds, and at least 2 s for the first frame): not read further", name))
        return VideoProbe(False, method="none", findings=tuple(findings), **base)
    if n == 0 or not info.get("first_decodes"):
        findings.append(EMPTY.at("no frame of the video can be decoded", name))
        return VideoProbe(False, method="none", findings=tuple(findings), **base)
    method = f"indexed {n} frames from the demuxer"
    if index.discarded:
        method += f" ({index.discarded} packets before the edit list's start discarded)"
    if index.undecodable:
        method += (f" ({index.undecodable} packets before the first keyframe do not decode: "
                   "the stream was cut mid-GOP)")
    joins = ""
    if index.segments:
        first = int(index.pts[0])
        at = ", ".join(f"{float((a - first) * index.time_base):.3f} s"
                       for a, _ in index.segments[:5])
        joins = (f"the timestamps restart at {at}: {len(index.segments) + 1} recordings "
                 "joined, shown in file order")
        method += f"; {joins}"
    for at, shift in (info.get("moved") or [])[:8]:
        # a joined recording whose own clock starts far later (`joined_clock.origin_shift`)
        method += (f"; a recording joined at {float(at):.3f} s has its own clock "
                   f"{float(shift):.3f} s past the end of the one before: shown right after it")
    last = info.get("last_decodable")
    last = int(last) if isinstance(last, int) and 0 <= last < n else None
    duration = index.duration_s
    count = n
    if last is not None and last < n - 1:
        end_ok = index.time_of(last) + index.duration_of(last)
        findings.append(TAIL_UNDECODABLE.at(
            f"the stream has frames up to {duration:.3f} s but they decode only to "
            f"{end_ok:.3f} s (frames {last + 1}-{n - 1} do not): the measured duration stops "
            "there", name, video_start_s=end_ok, video_end_s=duration))
        duration, count = end_ok, last + 1
    elif last is None and info.get("last_decodable", "x") is None and index.complete:
        findings.append(PROBE_INCOMPLETE.at(
            "the end of the stream could not be decoded within the probe's budget: the "
            f"duration {duration:.3f} s is from the timestamps alone", name,
            video_start_s=index.time_of(n - 1), video_end_s=duration))  # the last frame
    duration, stops = through_joined(index, info.get("joined"), duration, count)
    if not index.complete:
        # the verdict must not depend on the machine's speed: the duration of a cut index is
        # where the stream ends (its last packets, read from the end of the file; else the
        # container's header), never the point a loaded machine reached (docs/DECISIONS.md)
        end = info.get("end_s")
        end = float(end) if isinstance(end, (int, float)) and np.isfinite(end) else None
        hdur = index.header_duration_s
        reached = duration
        if end is not None and end > duration:
            duration, source = end, "the last packet's timestamp"
        elif end is None and hdur is not None and hdur > duration:
            duration, source = hdur, "the container's header"
        else:
            source = ""
        stop = (f"stopped at frame {n}, the most frames the probe indexes"
                if isinstance(info.get("index_cap"), int) else
                f"stopped after {limits.time_budget_s:g} s of probing at frame {n}")
        findings.append(PROBE_INCOMPLETE.at(
            f"{stop} ({reached:.3f} s): " + (
                f"the duration {duration:.3f} s is {source}; frames, gaps and decoding after "
                f"{reached:.3f} s were not checked" if source else
                f"the measured duration {duration:.3f} s is a lower bound"), name,
            video_s=reached))
        method += ("; stopped at the index's frame bound" if isinstance(info.get("index_cap"), int)
                   else "; stopped at the time budget")
    end_s = info.get("end_s")
    findings = timed_truncation(findings, TRUNCATED.id, duration, (
        index.header_duration_s, index.duration_s,
        end_s if isinstance(end_s, (int, float)) and not isinstance(end_s, bool) else None))
    if duration > limits.max_duration_s or count > limits.max_frames:
        findings.append(TOO_LARGE.at(f"the video lasts {duration:.0f} s with {count} frames "
                                     f"(limit {limits.max_duration_s:g} s)", name))
    hdur = index.header_duration_s
    tol = max(1.0, 0.02 * duration)
    # a probe stopped by its budget measured a lower bound: a header that says more is no
    # mismatch (it was one, a warning from the machine's load, on every file cut by the budget).
    # A header may count from time 0, not from the first frame: Matroska's Duration (and its
    # DURATION tag) is the last timestamp, so an honest recording whose first frame is at
    # 5.000 s "said 13.000 s" for its 8.000 s (a false warning, session 23 sweep)
    first_s = float(index.pts[0] * index.time_base) if index.pts.shape[0] else 0.0
    # `cat` keeps the first recording's header: where the footage stops at a joined stretch
    # without footage to the end (`through_joined`), a header that says where is no mismatch
    # (QA s23 Q1: "the header says 3.000 s" of a 3 s MPEG-4 recording with 21 s of H.264
    # joined after it, the stretch already said)
    # A header of a `cat`-joined fragmented MP4 is the last recording's own clock: where a
    # joined recording's clock starts far later (`moved`, said as `video.clock_jump`), the
    # time it skipped is in the header and not in the file; a header that says the frames'
    # end plus every such skip is the index explained, no mismatch (session 32, QA s31
    # Section 2: "the header says 259205.000 s" of 10 s whose second recording's clock
    # starts 259194.933 s past the first's end; 90006.000 s of 10 s from 3600 s with 86396 s
    # skipped)
    skipped = sum(float(s) for _, s in (info.get("moved") or [])
                  if isinstance(s, (int, float)) and not isinstance(s, bool) and np.isfinite(s))
    if hdur is not None and abs(hdur - duration) > tol and \
            not (first_s > 0 and abs(hdur - (first_s + duration)) <= tol) and \
            not (stops is not None and abs(hdur - stops) <= tol) and \
            not (skipped > 0 and abs(hdur - (max(first_s, 0.0) + duration + skipped)) <= tol) \
            and (index.complete or hdur < duration):
        findings.append(HEADER_MISMATCH.at(
            f"the header says {hdur:.3f} s but the frames' timestamps measure {duration:.3f} s "
            f"({count} frames)" + (f"; {joins}" if joins else ""), name,
            video_start_s=min(hdur, duration), video_end_s=max(hdur, duration)))
    # rounded as the report shows them, so that coverage recomputed from the report (at
    # another offset, core/verify/at_offset.py) is the same to the last digit
    gaps = tuple((round(a, 6), round(b, 6)) for a, b in index.gaps(limits.footage_gap_s)
                 if a < duration)
    for a, b in gaps[:50]:
        findings.append(FOOTAGE_GAP.at(
            f"no frame from {a:.3f} s to {b:.3f} s ({b - a:.3f} s without footage)", name,
            video_start_s=a, video_end_s=b))
    if len(gaps) > 50:
        findings.append(FOOTAGE_GAP.at(f"... and {len(gaps) - 50} more gaps", name,
                                       video_start_s=gaps[50][0],
                                       video_end_s=max(b for _, b in gaps[50:])))
    spans = [NoFootage(a, b, FOOTAGE_GAP.id, f"no frame from {a:.3f} s to {b:.3f} s")
             for a, b in gaps]
    damaged = _joined_findings(index, info.get("joined"), duration, name, findings, spans)
    # a gap wholly inside a joined recording's stretch is that stretch's, said once (QA s23
    # Q1: a damaged frame at 21.833 s of a 3.0-24.0 s stretch left "no frame 3.0-21.833 s")
    held = {g for g in gaps if any(a <= g[0] and g[1] <= b for a, b in damaged)}
    findings[:] = [f for f in findings if f.rule != FOOTAGE_GAP.id
                   or (f.video_start_s, f.video_end_s) not in held]
    spans = [s for s in spans if s.rule != FOOTAGE_GAP.id or (s.start_s, s.end_s) not in held]
    if damaged:
        gaps = union_spans(gaps + damaged)
    # the intervals of the footage: a frame past where it stops (`through_joined`: a damaged
    # one at 21.833 s of a 3.0-24.0 s stretch) is none ("vary from 33.0 to 18866.0 ms")
    ft = index.times_s[:count]
    if stops is not None:
        ft = ft[ft < stops]
    if ft.shape[0] >= 3:
        d = np.diff(ft)
        d = d[d > 0]
        fd = index.frame_duration_s
        if d.shape[0] and float(d.max() - d.min()) > (tol := max(0.002, 0.25 * fd)):
            uneven = first_uneven(ft, fd, tol)
            findings.append(VFR.at(
                f"frame intervals vary from {1000 * float(d.min()):.1f} to "
                f"{1000 * float(d.max()):.1f} ms", name,
                video_start_s=uneven[0] if uneven else None,
                video_end_s=uneven[1] if uneven else None))
    several = several_streams_text(info, index, duration)
    if several:
        # where the other streams have footage, a finding per span (the note on the first);
        # the whole video when that is not known
        for k, (start, end, streams, n) in enumerate(several_streams_spans(info, duration)):
            findings.append(SEVERAL_STREAMS.at(
                several if k == 0 else again_text(streams, start, end, n), name,
                video_start_s=start, video_end_s=end))
    fps = 1.0 / index.frame_duration_s if index.frame_duration_s > 0 else None
    return VideoProbe(True, fps=round(fps, 6) if fps else None, frame_count=count,
                      duration_s=round(duration, 6), method=method, findings=tuple(findings),
                      gaps=gaps, no_footage=tuple(sorted(spans, key=lambda s: s.start_s)),
                      **base)


def _joined_findings(index: FrameIndex, joined, duration: float, name: str,
                     findings: list[Finding], reasons: list[NoFootage]
                     ) -> tuple[tuple[float, float], ...]:
    """The findings on the recordings joined in the file that do not decode (the video
    process's `child_segments.check_joined`), and their spans of video time: no footage."""
    if not isinstance(joined, dict) or not index.frame_count:
        return ()
    base, tb = int(index.pts[0]), float(index.time_base)
    read, total = recordings(joined, len(index.segments) + 1)
    spans: list[tuple[float, float]] = []
    read_end = duration
    raw = joined.get("stretches")
    for st in raw[:50] if isinstance(raw, list) else ():
        if not isinstance(st, dict) or not isinstance(st.get("start_pts"), int):
            continue
        a = max(0.0, (st["start_pts"] - base) * tb)
        until, end = st.get("until_pts"), st.get("end_pts")
        b = (until - base) * tb if isinstance(until, int) else duration
        if not isinstance(end, int):  # to the end: at least the measured duration
            b = max(b, duration)
        if not a < b:
            continue
        read_end = max(read_end, b)
        # no footage: the damaged frames, and packets without a frame up to the next whole
        # frame; packets without a frame at the very end are past the measured duration
        # already (coverage counts them as missing after the video)
        params = _params(st.get("params"))
        pics = st["params"].get("pictures") if params else None
        head = (f"recording {_count(st.get('recording'))} of the {total} joined in the file "
                f"does not decode from {a:.3f} s to {b:.3f} s")
        if (isinstance(end, int) or _count(st.get("damaged")) or _count(st.get("wrong"))) \
                and a < min(b, duration):
            spans.append((round(a, 6), round(min(b, duration), 6)))
            reasons.append(NoFootage(*spans[-1], JOINED_UNDECODABLE.id, head + (
                " (its own header sets the decoder up otherwise than the first recording's)"
                if params and isinstance(pics, list) else
                f" (its own header says {params[0]}; played as {params[1]})" if params else "")))
        none, bad, wrong, n = (_count(st.get(k)) for k in ("none", "damaged", "wrong",
                                                             "packets"))
        what = "; ".join(x for x in (
            f"{none} give no frame" if none else "",
            f"{bad} come out damaged (the decoder reports errors in them)" if bad else "",
            f"{wrong} come out as pictures the decoder does not mark damaged" if wrong else "",
            "the probe's budget ended the decode in it: taken as damaged to the recording's "
            "end" if st.get("cut") is True else "") if x)
        findings.append(JOINED_UNDECODABLE.at(
            f"{head} ({b - a:.3f} s): of its {n} packets there, "
            f"{what}; no footage there (counted as missing)" + (
                f"; its own header ({params[0]}) sets the decoder up otherwise than the first "
                f"recording's ({params[1]}), with which the file is played as one stream: "
                f"{_count(pics[0])} of its first {_count(pics[1])} pictures decoded from its "
                "own header are not those the file shows (another profile or encoder "
                "setting): its pictures are decoded with another recording's parameters"
                if params and isinstance(pics, list) and len(pics) == 2 else
                f"; its own header says {params[0]}, but the file is played as one stream "
                f"with the first recording's header ({params[1]}): its pictures are decoded "
                "with another recording's parameters" if params else ""), name,
            video_start_s=a, video_end_s=b))
    if (said := unread_text(joined, read, total, read_end)) is not None:
        findings.append(JOINED_UNDECODABLE.at(said[0], name, video_start_s=said[1],
                                              video_end_s=said[2]))
    left = joined.get("unchecked")
    if isinstance(left, int) and not isinstance(left, bool):
        from_s = max(0.0, (left - base) * tb)
        findings.append(PROBE_INCOMPLETE.at(
            f"the recordings joined in the file from {from_s:.3f} s on "
            "were not decoded within the probe's budget: whether they decode was not checked",
            name, video_s=from_s))
    return tuple(spans)


def union_spans(spans) -> tuple[tuple[float, float], ...]:
    """Spans of video time merged where they overlap (or touch), in order: coverage adds
    them up, and the player's silence is their union (`export.no_footage_spans`)."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)
