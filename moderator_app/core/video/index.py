"""The frame index: what frames a video holds and when each is shown, read from the demuxer.

Why an index and not the decoder's word: after a seek, decoders and their wrappers report
timestamps of 0 or garbage on files without a seek index (Matroska left by a crashed capture),
headers lie about frame counts and rates (variable frame rate, stream-copied cuts), and a
hostile header can claim any fps. The demuxer reads every packet's presentation timestamp,
keyframe flag and byte position without decoding (an hour of video in well under a second), so
the index is exact and cheap. Frame `n` is the n-th packet in presentation order; packets the
container marks to be discarded (the head of a `-ss 4 -c copy` cut, before its edit list
starts) are not frames, exactly as ffprobe counts them.

Files of several recordings joined (a transport stream of two captures, the second restarting
its timestamps earlier) are told apart by their decode timestamps going back: each part is a
segment, shown after the one before it in file order (as mpv and ffmpeg play such a file), its
timestamps shifted by `Timeline` so that the whole video has one rising timeline. Keeping one
frame per raw timestamp lost 240 of 600 frames of such a file and showed the wrong pictures.
Honest single recordings, whose decode timestamps never go back, have one segment: unshifted.

Video time is rebased on the first frame (as mpv and ffprobe's durations do): frame 0 is shown
at 0.0 s. `duration_s` = last frame's time + one nominal frame duration (the stream's frame
rate when the frames' own typical spacing agrees with it, else that spacing; never more than
`MAX_FRAME_DURATION_S`, so that sparse frames cannot stand for the time between them).

Only the building (`build_index`) touches FFmpeg, and it runs in the isolated video process
(`isolate.py`); the `FrameIndex` itself is plain numbers, safe to hold in the workstation.
"""

from __future__ import annotations

import contextlib
import io
import json
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from .elementary import closed_keyframe, elementary, tick_step
from .joined_timeline import Timeline
from .middle import unique
from .orient import Orientation, orientation
from .packed import Packed, later_leads, packed_times, restamped, vop_type
from .partly import PartlyStamped

# A time computed from a frame's own timestamp (float rounding) still lands on that frame.
_EPS = 1e-6
# The longest nominal frame duration: 1 fps, slower than any screen capture of a game. Honest
# videos (10-240 fps, or VFR whose typical spacing is one capture interval) are far below it.
MAX_FRAME_DURATION_S = 1.0


def _frozen(a) -> np.ndarray:
    arr = np.ascontiguousarray(a)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class FrameIndex:
    """Every frame of the video stream in presentation order, from the demuxer.

    times_s: presentation time of each frame in seconds, rebased so frame 0 is at 0.0.
    pts: the raw presentation timestamps (stream time base), used to verify decoded frames.
    keyframe_pts: raw pts of the keyframes (decoding can start there), sorted.
    pos: byte position of each frame's packet (-1 when the container does not say).
    frame_duration_s: the nominal duration of one frame (stream rate, else typical gap).
    """

    times_s: np.ndarray
    pts: np.ndarray
    keyframe_pts: np.ndarray
    pos: np.ndarray
    time_base: Fraction
    frame_duration_s: float
    width: int = 0
    height: int = 0
    codec: str = ""
    header_fps: float | None = None
    header_frames: int | None = None
    header_duration_s: float | None = None
    packets: int = 0
    discarded: int = 0
    backwards: tuple[tuple[float, float], ...] = field(default=())  # decode-order pts going back
    complete: bool = True
    # The container's pts are not the frames' (AVI, packed MPEG-4: `packed.Packed`): frames
    # are identified by their place in the decoder's output.
    ordinal: bool = False
    # Joined recordings (`Timeline`): for each segment after the first, (its first packet's
    # shifted pts, the offset added to its raw timestamps). Empty for a single recording.
    segments: tuple[tuple[int, int], ...] = field(default=())
    # The first frame's display matrix (9 ints, FFmpeg's layout; () for none): pictures are
    # shown turned or mirrored by it, as ffmpeg shows them (`orientation`, `pixels.to_rgb`).
    matrix: tuple[int, ...] = field(default=())
    # Packets of a stream cut mid-GOP that never decode (before its first keyframe): not frames
    undecodable: int = 0
    # Keyframes whose packet also holds frames shown before the keyframe's picture (DivX-style
    # packed MPEG-4: `_packed_vops`): (raw pts, how many), sorted. A decode from such a packet
    # shows that many frames later first (`start_of`).
    leads: tuple[tuple[int, int], ...] = field(default=())
    # How far back a decode timestamp may go by frame reordering, not a restart (`Timeline`,
    # `reorder_ticks`): every pass over the file that places joined recordings uses it.
    reorder_ticks: int = 0
    # The container keeps no decode times, FFmpeg guesses them (Matroska: `Timeline._later`)
    guessed_dts: bool = False

    # -- counts ----------------------------------------------------------------------------
    @property
    def frame_count(self) -> int:
        return int(self.times_s.shape[0])

    @property
    def duration_s(self) -> float:
        """End of the last frame: its time plus its duration."""
        if self.frame_count == 0:
            return 0.0
        return float(self.times_s[-1]) + self.frame_duration_s

    @property
    def fps(self) -> float:
        """Average frames per second over the footage (what ffprobe's avg_frame_rate says)."""
        d = self.duration_s
        return self.frame_count / d if d > 0 else 0.0

    @property
    def orientation(self) -> Orientation:
        """How a decoded picture is shown (`core/video/orient.py`)."""
        return orientation(self.matrix)

    @property
    def turns(self) -> int:
        """Quarter turns counterclockwise, when the display matrix is a plain turn (0-3)."""
        return self.orientation.turns

    @property
    def display_size(self) -> tuple[int, int]:
        """Width and height of the picture as shown (a quarter turn swaps them; another angle
        keeps the stored size, as ffmpeg's `rotate` does)."""
        transposed = self.orientation.transpose
        return (self.height, self.width) if transposed else (self.width, self.height)

    def time_of(self, n: int) -> float:
        return float(self.times_s[n])

    def duration_of(self, n: int) -> float:
        """How long frame `n` is shown: the gap to the next frame (VFR-aware)."""
        if n + 1 < self.frame_count:
            return float(self.times_s[n + 1] - self.times_s[n])
        return self.frame_duration_s

    # -- lookup ----------------------------------------------------------------------------
    def frame_at(self, t: float, max_hold_s: float | None = None) -> int | None:
        """The frame shown at video time `t`, or None when there is no footage at `t`: before
        the first frame, after the end of the last, or (with `max_hold_s`) inside a gap where
        the previous frame would be held longer than that.

        Boundaries are compared at 1 µs (`_EPS`), and a moment within 1 µs of one is on its
        later side: of a frame's start, in that frame; of the end of the last frame's display
        interval, past the footage. The first missing instant of `coverage.missing` (the
        video's duration, rounded to 1 µs by the probe, minus the offset, plus the offset
        again) is therefore always "no footage", whatever the float rounding: it showed the
        last frame at one offset and "no footage at this time" at the next (QA session 12,
        Alien at 10.033 s)."""
        if (self.frame_count == 0 or not np.isfinite(t) or t < -_EPS
                or t >= self.duration_s - _EPS):
            return None
        i = bisect_right(self.times_s, t + _EPS) - 1
        if i < 0:
            return None
        if max_hold_s is not None and t - float(self.times_s[i]) > max_hold_s:
            return None
        return i

    def keyframe_before(self, n: int) -> int | None:
        """Raw pts of the last keyframe at or before frame `n` (where decoding can start): one
        whose decode shows frame `n` (`start_of`)."""
        k = bisect_right(self.keyframe_pts, int(self.pts[n])) - 1
        while k >= 0 and self.leads and self.start_of(int(self.keyframe_pts[k])) > n:
            k -= 1  # a packed keyframe whose picture comes after frame n
        return int(self.keyframe_pts[k]) if k >= 0 else None

    def lead(self, keyframe_pts: int) -> int:
        """Frames a decode from the keyframe packet of raw pts `keyframe_pts` never shows before
        the keyframe's picture (0 but in packed MPEG-4: `leads`)."""
        k = bisect_left(self.leads, (int(keyframe_pts), -1))
        if k < len(self.leads) and self.leads[k][0] == int(keyframe_pts):
            return self.leads[k][1]
        return 0

    def start_of(self, keyframe_pts: int) -> int:
        """The frame a decode from the keyframe packet of raw pts `keyframe_pts` shows first:
        its own frame, or in packed MPEG-4 the keyframe's picture `lead` frames later."""
        i = int(np.searchsorted(self.pts, int(keyframe_pts), side="left"))
        return i + self.lead(keyframe_pts)

    def keyframe_index(self, n: int) -> int:
        """Frame number of the last keyframe at or before frame `n` (`n` itself when the index
        knows none): the frame a decode for frame `n` starts from."""
        kf = self.keyframe_before(n)
        if kf is None:
            return n
        i = int(np.searchsorted(self.pts, kf, side="left"))
        return min(i, n) if i < self.frame_count and int(self.pts[i]) == kf else n

    def nearest_keyframe_time(self, t: float) -> float | None:
        """Video time of the keyframe nearest to `t` (scrub previews)."""
        if self.keyframe_pts.shape[0] == 0:
            return None
        base = int(self.pts[0]) if self.frame_count else 0
        kt = (self.keyframe_pts.astype(np.float64) - base) * float(self.time_base)
        i = int(np.argmin(np.abs(kt - t)))
        return float(kt[i])

    def timeline_at(self, pts: int | None) -> Timeline:
        """The `Timeline` replaying this index's shifts for a decode that starts at the packet
        of (shifted) presentation time `pts` (None: at the start of the file)."""
        seg = 0 if pts is None else bisect_right([a for a, _ in self.segments], int(pts))
        return Timeline([0, *(off for _, off in self.segments)], seg, self.reorder_ticks,
                        self.guessed_dts)

    def gaps(self, min_gap_s: float) -> list[tuple[float, float]]:
        """Spans (start, end) where no new frame is shown for longer than `min_gap_s`:
        the previous frame's time plus one nominal frame duration, to the next frame."""
        if self.frame_count < 2:
            return []
        d = np.diff(self.times_s)
        idx = np.nonzero(d > min_gap_s)[0]
        fd = self.frame_duration_s
        return [(float(self.times_s[i]) + fd, float(self.times_s[i + 1])) for i in idx]

    def without(self, frames: Sequence[int]) -> FrameIndex:
        """This index without `frames` (frame numbers that do not decode: the head of a stream
        cut mid-GOP), its times rebased on the first frame left, as ffprobe counts frames."""
        keep = np.ones(self.frame_count, bool)
        keep[np.asarray(frames, np.int64)] = False
        pts, pos = self.pts[keep], self.pos[keep]
        base = int(pts[0]) if pts.shape[0] else 0
        times = (pts - base).astype(np.float64) * float(self.time_base)
        return replace(self, times_s=_frozen(times), pts=_frozen(pts), pos=_frozen(pos),
                       undecodable=self.undecodable + int(self.frame_count - pts.shape[0]))

    # -- transport (isolated process -> workstation; cache) ---------------------------------
    def to_bytes(self) -> bytes:
        meta = {
            "time_base": [self.time_base.numerator, self.time_base.denominator],
            "frame_duration_s": self.frame_duration_s, "width": self.width,
            "height": self.height, "codec": self.codec, "header_fps": self.header_fps,
            "header_frames": self.header_frames, "header_duration_s": self.header_duration_s,
            "packets": self.packets, "discarded": self.discarded,
            "backwards": [list(b) for b in self.backwards], "complete": self.complete,
            "ordinal": self.ordinal, "segments": [list(x) for x in self.segments],
            "matrix": list(self.matrix), "undecodable": self.undecodable,
            "leads": [list(x) for x in self.leads], "reorder_ticks": self.reorder_ticks,
            "guessed_dts": self.guessed_dts,
        }
        buf = io.BytesIO()
        np.savez(buf, times_s=self.times_s, pts=self.pts, keyframe_pts=self.keyframe_pts,
                 pos=self.pos, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8))
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes | bytearray) -> FrameIndex:
        """Read an index written by `to_bytes` (no pickle: the writer handled hostile bytes)."""
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            meta = json.loads(z["meta"].tobytes().decode())
            arrays = {k: _frozen(z[k]) for k in ("times_s", "pts", "keyframe_pts", "pos")}
        tb = Fraction(int(meta["time_base"][0]), int(meta["time_base"][1]))
        return cls(time_base=tb, frame_duration_s=float(meta["frame_duration_s"]),
                   width=int(meta["width"]), height=int(meta["height"]),
                   codec=str(meta["codec"]), header_fps=meta["header_fps"],
                   header_frames=meta["header_frames"],
                   header_duration_s=meta["header_duration_s"], packets=int(meta["packets"]),
                   discarded=int(meta["discarded"]),
                   backwards=tuple((float(a), float(b)) for a, b in meta["backwards"]),
                   complete=bool(meta["complete"]), ordinal=bool(meta.get("ordinal")),
                   segments=tuple((int(a), int(b)) for a, b in meta.get("segments", ())),
                   matrix=_matrix(meta.get("matrix", ())),
                   undecodable=int(meta.get("undecodable", 0)),
                   leads=tuple(sorted((int(a), int(b)) for a, b in meta.get("leads", ())
                                      if int(b) > 0)),
                   reorder_ticks=max(0, int(meta.get("reorder_ticks", 0))),
                   guessed_dts=bool(meta.get("guessed_dts", False)), **arrays)


def _matrix(raw) -> tuple[int, ...]:
    """A display matrix read back from an index's metadata: 9 ints, or () for anything else."""
    try:
        m = tuple(int(v) for v in raw)
    except (TypeError, ValueError):
        return ()
    return m if len(m) == 9 else ()


def _header_duration(stream, container, tb) -> float | None:
    """What the file's header says the video stream lasts: the stream's own duration, else
    its `DURATION` tag (Matroska and WebM keep no stream duration but tag each track), else
    the container's only when the video is its only stream. A container's duration is its
    longest stream's: 34 s of audio under 24 s of video made an honest MKV "say 34.008 s"
    (a false video.header_mismatch, session 10 QA).

    Matroska and WebM never give a stream a duration of their own (the segment's Duration
    and the tracks' tags say it): a stream duration there is one FFmpeg made up, from the
    file's size and bit rate, when the header says nothing (a live capture written to a
    pipe: no Duration, no cues; ffprobe: "Estimating duration from bitrate"). That guess
    is no header's claim: an honest 43.4 s MJPEG + PCM capture "said 91.523 s" (a false
    video.header_mismatch, QA session 18 L4). The header then says nothing (None). An
    elementary stream (`elementary`) has no header that says a duration: FFmpeg's is the
    same guess (an honest 6.04 s raw MPEG-1 "said 0.023 s")."""
    if elementary(container):
        return None
    if stream.duration is not None and matroska(container):
        return None  # FFmpeg's estimate: any header duration would be in the tags or segment
    if stream.duration is not None:
        return _finite_positive(stream.duration * tb)
    tag = _tag_seconds((stream.metadata or {}).get("DURATION"))
    if tag is not None:
        return tag
    if container.duration is not None and len(container.streams) == 1:
        return _finite_positive(container.duration / 1_000_000)
    return None


def matroska(container) -> bool:
    """Whether the demuxer is FFmpeg's Matroska/WebM one ("matroska,webm")."""
    return "matroska" in str(getattr(container.format, "name", "") or "").split(",")


def _tag_seconds(value) -> float | None:
    """A Matroska `DURATION` tag ("HH:MM:SS.fffffffff") in seconds; None when it is not one
    (the tag is the submitter's bytes)."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    parts = value.strip().split(":")
    if len(parts) != 3:
        return None
    try:
        h, m, sec = int(parts[0]), int(parts[1]), float(parts[2])
    except ValueError:
        return None
    if h < 0 or not 0 <= m < 60 or not 0 <= sec < 60:
        return None
    return _finite_positive(h * 3600 + m * 60 + sec)


def _finite_positive(x) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return v if np.isfinite(v) and v > 0 else None


_DEFAULT, _ATTACHED_PIC = 0x1, 0x400  # AV_DISPOSITION_* (no PyAV import here: see scan.py)


def _still(st) -> bool:
    """Whether a video stream's header says it holds one picture (a title card or a cover
    stored as a track): one frame, or under half a second (a Matroska track says so only in
    its DURATION tag, "00:00:00.040000000")."""
    if st.frames == 1:
        return True
    seconds = None
    if st.duration and st.time_base:
        seconds = float(st.duration * st.time_base)
    else:
        tag = (st.metadata or {}).get("DURATION", "")
        with contextlib.suppress(ValueError):
            h, m, sec = tag.split(":")
            seconds = int(h) * 3600 + int(m) * 60 + float(sec)
    return seconds is not None and 0 <= seconds < 0.5


def recording_stream(container):
    """The video stream that is the recording. As ffmpeg itself picks one when told nothing
    (ffmpeg_opt.c: a stream marked default first, then the largest picture, the first of
    equals), but never an attached picture (cover art, not `V` in ffprobe's stream
    specifiers), and a still (a 1-frame track, `_still`) only when there is nothing else: a
    cover or a title card stored before the footage was taken for it (1 frame counted, every
    moment wrong). None when the file has no stream but covers (an audio file's art)."""
    best, best_score = None, -1
    for st in container.streams.video:
        flags = int(st.disposition or 0)
        if flags & _ATTACHED_PIC:
            continue
        cc = st.codec_context
        score = (cc.width or 0) * (cc.height or 0) + (5_000_000 if flags & _DEFAULT else 0)
        if not _still(st):
            score += 1 << 40
        if score > best_score:
            best, best_score = st, score
    return best


def other_footage(container, taken) -> list[dict]:
    """The video streams other than `taken` that hold footage (not a cover, not a still):
    index, codec, size, rate and duration as the header says (None where it says nothing),
    for the note that names them (`probe.SEVERAL_STREAMS`): the player shows one."""
    out = []
    for st in container.streams.video:
        if st.index == taken.index or int(st.disposition or 0) & _ATTACHED_PIC or _still(st):
            continue
        cc = st.codec_context
        seconds = _finite_positive(st.duration * st.time_base) if st.duration and \
            st.time_base else _tag_seconds((st.metadata or {}).get("DURATION"))
        out.append({"index": int(st.index), "codec": str(cc.name or "?")[:40],
                    "width": int(cc.width or 0), "height": int(cc.height or 0),
                    "fps": _finite_positive(st.average_rate), "duration_s": seconds})
    return out


#: The deepest frame reordering read as such (H.264's limit: 16 frames held back), and the
#: most time it may span: a step back by more is a restart whatever the header says.
MAX_REORDER_FRAMES = 16
MAX_REORDER_S = 1.0


def reorder_ticks(stream) -> int:
    """How far back (in `stream`'s time base) decode timestamps go by frame reordering: (the
    decoder's reorder depth + 1) frame intervals at the stream's rate, at most MAX_REORDER_S;
    0 for a stream without B-frames or without a believable rate (every step back is then a
    restart, as it always was). The depth is FFmpeg's `has_b_frames` (frames the decoder holds
    back) after its stream probe: 2 for x264's default B-frames; a group of d B-frames goes
    back by d frames after its reference."""
    cc = stream.codec_context
    try:
        depth = int(getattr(cc, "reorder_depth", 0) or 0)
    except (TypeError, ValueError):
        depth = 0
    rate = _finite_positive(stream.guessed_rate) or _finite_positive(stream.average_rate)
    tb = stream.time_base
    if depth <= 0 or not rate or rate < 1.0 or not tb:
        return 0
    ticks = (min(depth, MAX_REORDER_FRAMES) + 1) / (rate * float(tb))
    return int(min(ticks, MAX_REORDER_S / float(tb)) + 0.999)


def build_index(container, max_frames: int, deadline_check=None,
                joined_reorder: int = 0, demuxed=None) -> FrameIndex:
    """Read every packet of the recording's video stream (`recording_stream`) of an open PyAV
    `container` (no decoding).

    `deadline_check()` is called every 1024 packets and returns True to stop early (the index
    is then marked incomplete). `joined_reorder`: the deepest reordering of the recordings
    joined after the first, in ticks (`joined_headers.joined_reorder`, from their own
    headers): the stream's own is the first recording's. `demuxed`: the stream's packets
    when not the container's demux (a joined Matroska's recordings past the demuxer's end,
    `joined_chain.demux`)."""
    stream = recording_stream(container)
    tb = stream.time_base or Fraction(1, 1000)
    # machine integers, 8 bytes a packet each: Python lists of ints cost ~36 (10^7 frames of
    # a 1x1 video made a 1.7 GB probe process; session 13)
    pts_l = array("q")
    pos_l = array("q")
    kf_l = array("q")
    backwards: list[tuple[float, float]] = []
    packets = discarded = 0
    last_dts = None
    complete = True
    reorder = max(reorder_ticks(stream), joined_reorder)
    timeline = Timeline(reorder=reorder, guessed_dts=matroska(container))
    packed = Packed(stream)
    # MPEG-4 Part 2: each packet's picture type, for B-frames stamped out of display order
    # (`packed.restamped`); one byte a packet
    types: bytearray | None = bytearray() if packed.mpeg4 else None
    raw = elementary(container)
    tick = 0  # one frame of an elementary stream without times, in ticks
    no_times = False  # the index counted the packets' times itself (`raw`)
    partly = PartlyStamped(container, stream)
    for pk in (container.demux(stream) if demuxed is None else demuxed):
        if pk.size == 0:
            continue  # flush packet
        packets += 1
        off = timeline.shift(pk.pts, pk.dts)
        p = pk.pts if pk.pts is not None else pk.dts
        if p is not None:
            p += off
        elif raw:
            # an elementary stream without times (raw H.264, HEVC): FFmpeg shows its frames
            # one frame duration apart in decode order, and so does the index
            tick = tick or int(pk.duration or 0) or tick_step(stream, tb)
            p = (pts_l[-1] + tick) if pts_l else 0
            no_times = True
        partly.add(pk, off, timeline.segment)
        if p is None:
            continue
        if pk.dts is not None:
            if last_dts is not None and pk.dts < last_dts and len(backwards) < 100:
                backwards.append((last_dts, pk.dts))  # the first 100 are kept (below)
            last_dts = pk.dts
        if pk.is_keyframe and packed.keyframe(pk, p) and \
                not (no_times and not closed_keyframe(stream.codec_context.name, bytes(pk))):
            kf_l.append(p)
        if pk.is_discard:
            discarded += 1
            continue
        pts_l.append(p)
        pos_l.append(pk.pos if pk.pos is not None else -1)
        if types is not None:
            types.append(vop_type(pk))
        if packets > max_frames:
            complete = False
            break
        if (packets == 1 or packets % 1024 == 0) and deadline_check is not None and \
                deadline_check():
            complete = False
            break
    if no_times and not kf_l:
        # no IDR to start a decode at (an HEVC stream of CRAs cut by bytes): its frames cannot
        # be numbered, and the video says so (`video.empty`) rather than show others
        pts_l, pos_l = array("q"), array("q")
    every = partly.reading(tick_step(stream, tb), deadline_check, len(timeline.splices)) \
        if complete else None
    if every is not None:
        pts_l, pos_l, kf_l = every.pts, every.pos, array("q", every.keyframes)
        raw = True
    avi = "avi" in (container.format.name or "").split(",")
    ordinal = avi or packed.packed or raw
    shown: np.ndarray | None = None  # frames' times where not their packets' (below)
    fix = restamped(pts_l, types) if types is not None and not ordinal else None
    leads = packed.leads
    if fix is not None:
        # B-frames stamped out of display order: frames known by their place in the
        # decoder's output, at the times `restamped` gives them
        order_l, stamps, step = fix
        pts_l = array("q", stamps)
        pos_l = array("q", (pos_l[j] for j in order_l))
        ordinal = True
        shown = stamps[0] + step * np.arange(len(stamps), dtype=np.float64)
    pts = np.asarray(pts_l, dtype=np.int64)
    order = np.argsort(pts, kind="stable")
    pts = pts[order]
    pos = np.frombuffer(pos_l, dtype=np.int64)[order] if pos_l else np.zeros(0, np.int64)
    if packed.packed and not avi and complete and np.all(order == np.arange(order.shape[0])):
        shown = np.asarray(packed_times(pts.tolist()), dtype=np.float64)
        if types is not None:
            leads = later_leads(leads, pts.tolist(), types)
    # Packets that share one pts are frames each (ffprobe counts them, ffmpeg shows them): an
    # encoder whose time base is coarser than the capture's timestamps (x264 at 1/30 fed
    # jittered times) stores different pictures under one pts. Dropping all but the first
    # lost 81 of 300 frames of such a file and showed the wrong one; the decoder tells them
    # apart by their order (`ExactDecoder`), and the one shown at their time is the last.
    at = pts if shown is None else shown
    base = at[0] if at.shape[0] else 0
    times = (at - base).astype(np.float64) * float(tb)
    rate = _finite_positive(stream.guessed_rate) or _finite_positive(stream.average_rate)
    gaps = np.diff(times)
    gaps = gaps[gaps > 0]
    if gaps.shape[0]:
        # the typical spacing: a low percentile, robust to holes (VFR drops, missing footage)
        fd = float(np.percentile(gaps, 10, method="lower"))
        # a stream rate that disagrees with the frames' own spacing is not trusted (1/100000 fps)
        if rate and abs(1.0 / rate - fd) <= 0.5 * fd:
            fd = 1.0 / rate
    else:
        fd = 1.0 / rate if rate and rate >= 1.0 else 1.0 / 30.0
    # A frame is never "shown" for longer than MAX_FRAME_DURATION_S: frames 30 s apart have
    # a typical spacing of 30 s, and taking that as the frame duration made each frame cover
    # the hole after it (no footage gap) and the last one cover 30 s more: two frames covered
    # a 60 s run (issue 15 point 2, found again by the session-4 hostile pass).
    fd = min(fd, MAX_FRAME_DURATION_S)
    hdur = _header_duration(stream, container, tb)
    cc = stream.codec_context
    index = FrameIndex(
        times_s=_frozen(times), pts=_frozen(pts),
        keyframe_pts=_frozen(unique(np.asarray(kf_l, dtype=np.int64))), pos=_frozen(pos),
        time_base=Fraction(tb), frame_duration_s=float(fd), width=int(cc.width or 0),
        height=int(cc.height or 0), codec=str(cc.name or ""),
        header_fps=_finite_positive(stream.average_rate),
        header_frames=int(stream.frames) if stream.frames else None, header_duration_s=hdur,
        packets=packets, discarded=discarded,
        backwards=tuple((float(a * tb), float(b * tb)) for a, b in backwards[:100]),
        complete=complete,
        ordinal=ordinal,
        leads=tuple(sorted(leads)), reorder_ticks=reorder,
        guessed_dts=timeline.guessed_dts,
        segments=tuple((a + d, off + d) for (a, _), off, d in zip(
            timeline.splices, timeline.offsets[1:], every.moved if every else
            [0] * len(timeline.splices), strict=True)))
    if raw and index.keyframe_pts.shape[0]:
        # an elementary stream cut by bytes (`dd skip=`): the frames before its first
        # keyframe never decode from it (`ExactDecoder._restart` starts there)
        head = np.nonzero(index.pts < index.keyframe_pts[0])[0]
        if head.shape[0]:
            index = index.without(head.tolist())
    return index
