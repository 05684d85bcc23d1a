"""Probing the submitted video: can it be read, and how long is it *really*?

DESIGN.md: the duration is measured, not trusted from the header, because variable frame rates
and lying frame counts are common (and a header is the easiest thing to forge). We measure it
from decoded frames' timestamps (CAP_PROP_POS_MSEC after `grab()`): the last frame's time plus
one frame interval. Short videos are decoded to the end; long ones are sought near the end and
read to their last frame (with a binary search when the header's frame count points past it).
The work is bounded (frame and time budgets): a hostile file is a finding, never a hang.

Truncation is detected from the container's own structure (an MP4 box, the AVI RIFF chunk or
the Matroska segment that claims more bytes than the file has), which is exact, rather than by
comparing decoded frames with a header that may lie.

OpenCV is imported here only, inside `probe_video`, so that the CLI starts fast when there is
no video to read (tests/test_architecture.py).
"""

from __future__ import annotations

import math
import os
import struct
import time
from array import array
from dataclasses import dataclass
from pathlib import Path

from moderator_app.core.rules import Finding, Severity, rule
from moderator_app.core.thresholds import DEFAULT_VIDEO_LIMITS, VideoLimits

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
                       "The header's duration (frame count / fps) agrees with the measured one.",
                       G)
PROBE_INCOMPLETE = rule("video.probe_incomplete", Severity.WARNING,
                        "The duration could be measured to the last frame within the probe's "
                        "time budget.", G)
TAIL_UNDECODABLE = rule(
    "video.tail_undecodable", Severity.WARNING,
    "Every packet of the stream decodes to a frame up to the end (the measured duration is "
    "what decodes).", G)
VFR = rule("video.variable_rate", Severity.INFO,
           "The frame timestamps are not evenly spaced (variable frame rate).", G)


@dataclass(frozen=True)
class VideoProbe:
    """What the probe found. `duration_s` is measured; `method` says how."""

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

    def to_dict(self) -> dict:
        return {
            "ok": self.ok, "file": self.file, "fps": self.fps, "frame_count": self.frame_count,
            "width": self.width, "height": self.height, "duration_s": self.duration_s,
            "codec": self.codec, "method": self.method,
            "header_frame_count": self.header_frame_count, "header_fps": self.header_fps,
        }


# --- container structure ----------------------------------------------------------------------
_MP4_FIRST = {b"ftyp", b"moov", b"mdat", b"free", b"skip", b"wide", b"pnot", b"uuid"}


def _mp4_truncation(fh, size: int) -> str | None:
    pos, seen_moov, boxes = 0, False, 0
    while pos < size and boxes < 100_000:
        fh.seek(pos)
        head = fh.read(16)
        if len(head) < 8:
            return f"an MP4 box header at byte {pos} is cut off by the end of the file"
        box_size, kind = struct.unpack(">I4s", head[:8])
        if box_size == 1:
            if len(head) < 16:
                return f"an MP4 box header at byte {pos} is cut off by the end of the file"
            box_size = struct.unpack(">Q", head[8:16])[0]
        elif box_size == 0:
            box_size = size - pos  # extends to the end of the file
        if box_size < 8:
            return f"MP4 box at byte {pos} has an impossible size {box_size}"
        if kind == b"moov":
            seen_moov = True
        if pos + box_size > size:
            name = kind.decode("latin-1")
            return (f"MP4 box {name!r} at byte {pos} claims {box_size} bytes but the file ends "
                    f"{pos + box_size - size} bytes short")
        pos += box_size
        boxes += 1
    if not seen_moov:
        return "the MP4 has no 'moov' box (the index written when recording ends)"
    return None


def _ebml_vint(fh) -> tuple[int | None, int]:
    """(value, length) of a Matroska variable-size integer; value None for 'unknown size'."""
    first = fh.read(1)
    if not first:
        raise EOFError
    b = first[0]
    length = 1
    while length <= 8 and not b & (0x80 >> (length - 1)):
        length += 1
    if length > 8:
        raise ValueError("bad EBML integer")
    rest = fh.read(length - 1)
    if len(rest) < length - 1:
        raise EOFError
    value = b & (0xFF >> length)
    for x in rest:
        value = (value << 8) | x
    if value == (1 << (7 * length)) - 1:
        return None, length
    return value, length


def _mkv_truncation(fh, size: int) -> str | None:
    try:
        fh.seek(4)
        hsize, hlen = _ebml_vint(fh)
        if hsize is None:
            return None
        pos = 4 + hlen + hsize
        fh.seek(pos)
        if fh.read(4) != b"\x18\x53\x80\x67":
            return None  # not the layout we know; let the decoder judge
        ssize, slen = _ebml_vint(fh)
    except (EOFError, ValueError):
        return "the Matroska header is cut off by the end of the file"
    if ssize is None:
        return None  # live-recorded, size unknown
    end = pos + 4 + slen + ssize
    if end > size:
        return (f"the Matroska segment claims {ssize} bytes but the file ends {end - size} "
                "bytes short")
    return None


def container_truncation(path: Path) -> str | None:
    """Why the file is cut short, from its container structure, or None (complete/unknown)."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(12)
            if head[:4] == b"RIFF" and head[8:12] == b"AVI ":
                riff = struct.unpack("<I", head[4:8])[0]
                if 8 + riff > size:
                    return (f"the AVI RIFF chunk claims {riff} bytes but the file ends "
                            f"{8 + riff - size} bytes short")
                return None
            if head[:4] == b"\x1a\x45\xdf\xa3":
                return _mkv_truncation(fh, size)
            if head[4:8] in _MP4_FIRST:
                return _mp4_truncation(fh, size)
    except OSError:
        return None
    return None


# --- decoding ----------------------------------------------------------------------------------
def _fourcc(value: float) -> str | None:
    code = int(value)
    if code <= 0:
        return None
    text = "".join(chr((code >> (8 * i)) & 0xFF) for i in range(4))
    return text.strip("\x00 ") if text.isprintable() else None


class _Reader:
    """Grabs frames and keeps the last good timestamps, within a deadline."""

    def __init__(self, cap, cv2, deadline: float) -> None:
        self.cap, self.cv2, self.deadline = cap, cv2, deadline
        self.grabbed = 0
        self.last_ms: float | None = None
        self.prev_ms: float | None = None
        self.last_index: int | None = None  # 0-based index of the last grabbed frame
        self.intervals_min = math.inf
        self.intervals_max = 0.0

    def grab(self) -> bool:
        if not self.cap.grab():
            return False
        self.grabbed += 1
        ms = self.cap.get(self.cv2.CAP_PROP_POS_MSEC)
        pos = self.cap.get(self.cv2.CAP_PROP_POS_FRAMES)
        if self.last_ms is not None and self.last_index is not None and \
                int(pos) - 1 == self.last_index + 1:
            d = ms - self.last_ms
            self.intervals_min = min(self.intervals_min, d)
            self.intervals_max = max(self.intervals_max, d)
        self.prev_ms, self.last_ms = self.last_ms, ms
        self.last_index = int(pos) - 1
        return True

    def to_end(self, budget_frames: int) -> bool:
        """Grab to the last frame; False when a budget ran out first."""
        for _ in range(budget_frames):
            if time.monotonic() > self.deadline:
                return False
            if not self.grab():
                return True
        return False

    def seek_grab(self, index: int) -> bool:
        self.cap.set(self.cv2.CAP_PROP_POS_FRAMES, index)
        return self.grab()


def probe_video(path: Path, name: str, limits: VideoLimits = DEFAULT_VIDEO_LIMITS) -> VideoProbe:
    """Probe a local video file. Never raises: every problem is a finding on the result."""
    try:
        return _probe(Path(path), name, limits)
    except Exception as exc:  # noqa: BLE001 - untrusted input must never crash verification
        return VideoProbe(False, name, method="failed",
                          findings=(UNREADABLE.at(f"the video cannot be read: {exc}", name),))


def _probe(path: Path, name: str, limits: VideoLimits) -> VideoProbe:
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
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    import cv2

    cap = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    try:
        if not cap.isOpened():
            if not cut:
                findings.append(UNREADABLE.at(
                    "the video cannot be opened (unknown container, or damaged)", name))
            return VideoProbe(False, name, method="none", findings=tuple(findings))
        return _measure(cap, cv2, path, name, limits, findings)
    finally:
        cap.release()


@dataclass
class _Packets:
    """Timestamps of every packet of the video stream, read without decoding."""

    count: int = 0
    max_ms: float = -1.0
    complete: bool = False
    stamps: array | None = None  # kept up to a bound, for the variable-rate check


def _scan_packets(cv2, path: Path, deadline: float, limits: VideoLimits) -> _Packets | None:
    """Read every packet's timestamp in OpenCV's raw-stream mode (CAP_PROP_FORMAT = -1):
    no decoding, so an hour of video takes well under a second, and files that cannot be
    sought (live-recorded WebM without cues or duration) are measured to the end anyway.
    None when this OpenCV build has no raw mode."""
    cap = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    try:
        if not cap.isOpened() or not cap.set(cv2.CAP_PROP_FORMAT, -1):
            return None
        pk = _Packets(stamps=array("d"))
        pos_msec = cv2.CAP_PROP_POS_MSEC
        while pk.count <= limits.max_frames:
            if not cap.grab():
                pk.complete = True
                break
            pk.count += 1
            ms = cap.get(pos_msec)
            if ms > pk.max_ms:
                pk.max_ms = ms
            if len(pk.stamps) < 2_000_000:
                pk.stamps.append(ms)
            if pk.count % 256 == 0 and time.monotonic() > deadline:
                break
        return pk
    finally:
        cap.release()


def _interval_spread(stamps) -> tuple[float, float] | None:
    """(smallest, largest) gap between consecutive presentation times, in ms."""
    if stamps is None or len(stamps) < 3:
        return None
    ordered = sorted(stamps)
    gaps = [b - a for a, b in zip(ordered, ordered[1:], strict=False) if b > a]
    return (min(gaps), max(gaps)) if gaps else None


def _measure(cap, cv2, path: Path, name: str, limits: VideoLimits,
             findings: list[Finding]) -> VideoProbe:
    hfps = cap.get(cv2.CAP_PROP_FPS)
    hfps = hfps if math.isfinite(hfps) and 0 < hfps <= 10_000 else None
    hcount_raw = cap.get(cv2.CAP_PROP_FRAME_COUNT)
    hcount = int(hcount_raw) if math.isfinite(hcount_raw) and 0 < hcount_raw < 2**62 else None
    w = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH))
    h = int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
    codec = _fourcc(cap.get(cv2.CAP_PROP_FOURCC))
    base = {"file": name, "width": w, "height": h, "codec": codec,
            "header_frame_count": hcount, "header_fps": hfps}
    if w > limits.max_side or h > limits.max_side:
        findings.append(TOO_LARGE.at(f"the video is {w}x{h} pixels (limit {limits.max_side} a "
                                     "side); not decoded", name))
        return VideoProbe(False, method="none", findings=tuple(findings), **base)
    deadline = time.monotonic() + limits.time_budget_s
    r = _Reader(cap, cv2, deadline)
    if not r.grab():
        findings.append(EMPTY.at("no frame of the video can be decoded", name))
        return VideoProbe(False, method="none", findings=tuple(findings), **base)
    pk = _scan_packets(cv2, path, deadline, limits)
    hint = pk.count if pk is not None and pk.complete and pk.count else hcount
    if hint is None or (hint <= limits.decode_all_frames
                        and hint * w * h <= limits.decode_all_pixels):
        complete = r.to_end(limits.max_frames)
        method = f"decoded all {r.last_index + 1} frames"
        if not complete:
            method = f"decoded {r.last_index + 1} frames; stopped at the time budget"
    else:
        method = _seek_to_end(r, hint, "stream's" if hint != hcount else "header's", limits)
        complete = not method.endswith("budget")
    tolerance_ms = max(500.0, 2000.0 / hfps if hfps else 0.0)
    if complete and pk is not None and pk.complete and \
            pk.max_ms - (r.last_ms or 0.0) > tolerance_ms and not method.startswith("decoded"):
        # Seeking misled us (unseekable file, broken index): decode from the start instead.
        r2, done = _decode_from_start(cv2, path, deadline, limits)
        if r2 is not None and (r2.last_ms or 0.0) > (r.last_ms or 0.0):
            r, complete = r2, done
            method = (f"seeking is unreliable in this file: decoded all {r.last_index + 1} "
                      "frames from the start")
            if not done:
                method += "; stopped at the time budget"
    n_frames = (r.last_index or 0) + 1
    last_ms = r.last_ms or 0.0
    if complete and pk is not None and pk.complete and pk.max_ms - last_ms > tolerance_ms:
        findings.append(TAIL_UNDECODABLE.at(
            f"the stream has packets up to {pk.max_ms / 1000:.3f} s but frames decode only to "
            f"{last_ms / 1000:.3f} s: the measured duration stops there", name))
    if not complete and pk is not None and pk.complete and pk.max_ms > last_ms:
        # Decoding could not reach the end in time, but every packet's timestamp was read.
        n_frames, last_ms, complete = pk.count, pk.max_ms, True
        method += f"; duration from the timestamps of all {pk.count} packets"
    if hfps is not None:
        interval_ms = 1000.0 / hfps
    elif r.prev_ms is not None and r.last_ms is not None and r.last_ms > r.prev_ms:
        interval_ms = r.last_ms - r.prev_ms
    else:
        interval_ms = 0.0
    if last_ms <= 0 and n_frames > 1 and hfps:  # no timestamps from this backend
        duration = n_frames / hfps
        method += "; no frame timestamps, duration = frames / fps"
    else:
        duration = (last_ms + interval_ms) / 1000
    if not complete:
        findings.append(PROBE_INCOMPLETE.at(
            f"stopped after {limits.time_budget_s:g} s of probing at frame {n_frames}: the "
            f"measured duration {duration:.3f} s is a lower bound", name))
    fps = hfps if hfps is not None else (n_frames / duration if duration > 0 else None)
    if duration > limits.max_duration_s or n_frames > limits.max_frames:
        findings.append(TOO_LARGE.at(f"the video lasts {duration:.0f} s with {n_frames} frames "
                                     f"(limit {limits.max_duration_s:g} s)", name))
    if hcount is not None and hfps is not None:
        header_duration = hcount / hfps
        if abs(header_duration - duration) > max(1.0, 0.02 * duration):
            findings.append(HEADER_MISMATCH.at(
                f"the header says {hcount} frames at {hfps:g} fps ({header_duration:.3f} s) but "
                f"the frames measure {duration:.3f} s ({n_frames} frames)", name))
    spread = _interval_spread(pk.stamps) if pk is not None and pk.complete else None
    if spread is None and r.intervals_max > 0:
        spread = (r.intervals_min, r.intervals_max)
    if spread is not None and spread[1] - spread[0] > max(2.0, 0.25 * interval_ms):
        findings.append(VFR.at(
            f"frame intervals vary from {spread[0]:.1f} to {spread[1]:.1f} ms", name))
    return VideoProbe(True, fps=round(fps, 6) if fps else None, frame_count=n_frames,
                      duration_s=round(duration, 6), method=method,
                      findings=tuple(findings), **base)


def _decode_from_start(cv2, path: Path, deadline: float,
                       limits: VideoLimits) -> tuple[_Reader | None, bool]:
    cap = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    try:
        r = _Reader(cap, cv2, deadline)
        if not cap.isOpened() or not r.grab():
            return None, False
        return r, r.to_end(limits.max_frames)
    finally:
        cap.release()


def _seek_to_end(r: _Reader, count: int, source: str, limits: VideoLimits) -> str:
    """Measure a long video by decoding only its last frames. Returns the method text.

    `count` is the frame count from the packet scan (the stream's) or the header's."""
    tail = max(0, count - 5)
    if r.seek_grab(tail):
        done = r.to_end(10 * limits.decode_all_frames)
        how = (f"sought to frame {tail} of the {source} {count} and decoded to the last "
               f"frame ({r.last_index + 1} frames)")
        return how if done else how + "; stopped at the time budget"
    # The frame count points past the end: binary search for the last decodable frame.
    lo, hi, steps = 0, tail, 0  # frame lo decodes, frame hi does not
    while hi - lo > 1 and steps < 64 and time.monotonic() < r.deadline:
        mid = (lo + hi) // 2
        steps += 1
        if r.seek_grab(mid):
            lo = mid
        else:
            hi = mid
    r.seek_grab(lo)
    done = r.to_end(10 * limits.decode_all_frames)
    if lo == 0:
        how = f"the file cannot be sought: decoded from the start, {r.last_index + 1} frames"
    else:
        how = (f"the {source} {count} frames point past the end: binary search ({steps} "
               f"seeks) for the last frame, {r.last_index + 1} frames")
    return how if done and hi - lo <= 1 else how + "; stopped at the time budget"
