"""H.264 / HEVC in a program stream whose frames are only partly stamped (issue 12).

A program stream (MPEG-PS, `.mpg` / `.vob`) stamps a pack, not a frame: a frame that starts in
a pack whose stamp went to an earlier frame has no time, and FFmpeg's H.264 / HEVC parser fills
in none (MPEG-2's does). Read by its stamps alone, the index kept 35 of 150 frames of such an
H.264 `.mpg` (45 of 64 moments wrong). Session 46 then numbered every packet one frame a tick
in decode order; that is right only for a constant rate from the file's start, and the review
(s46 R6) showed a stream stamped from 10 s, one that drops frames (VFR) and one with a 3 s gap
wrong at 26-54 of 60 moments; the lead limited it to streams whose stamps lie on one grid from
the start.

Now every frame keeps the time the file gives it and the others are placed between, in the
order the decoder shows them: the picture order count of each packet (`poc.pictures`, read in
a second pass over the file's packets, only when some had no time) sorts them, as FFmpeg's
decoder outputs them. A frame without a stamp takes the decode time of the packet its
reordering delay later, when that packet has one (FFmpeg's `best_effort_timestamp` does: an
encoder's decode times are its presentation times, sorted, `delay` packets late), else one
frame after the frame before it, as ffmpeg writes a frame with no time. The frames are then
known by their place in the decoder's output after a keyframe (`FrameIndex.ordinal`), as an
elementary stream's are. A keyframe is a place to start decoding when every packet before it
is shown before it: an IDR, and an open GOP's too (x265's CRA, its default; x264's open-gop
I-frame), whose leading pictures a decode from it drops, now that its place in the order
shown is known (a PS of x265's default had one, its first IDR: every read decoded from the
start). Where the stamped frames' times do not rise in that order (a POC
reset this reader does not follow, a damaged stream), nothing is renumbered: the stream is read
by its stamps, as before session 46.

A frame that starts inside another's pack has no byte position either, and an IDR among them
could not be sought: renumbered from 0, a decode for a frame after it was sought by a time the
file does not have, landed on the file's first IDR and showed its frames as the later GOP's
(the lead's try in session 46: 23 of 60 moments 30 frames late). Such a keyframe is sought at
the last packet before it that has a position: the decoder shows nothing of the packets
before the IDR (they refer to pictures it has not seen), and were one shown, the first frame
out would not be the keyframe and the read falls back (`ExactDecoder._identify`).

Recordings joined (`cat` of two `.mpg` captures) are each read so, and each placed one frame
after the last frame of the one before (`_joined`). Cost: a second demux of the file, reading
the first NAL headers of each packet: 60 s of 720p60 H.264 in a `.vob` (3,600 packets, 20
unstamped) 0.05 -> 0.12 s of CPU for its index.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from .poc import pictures

# the deepest reordering looked for between decode and presentation times (H.264's limit)
_MAX_DELAY = 16
_NONE = -(1 << 63)  # no time (`PartlyStamped.pts`, `.dts`)
# the frames the delay is measured on (an encoder's delay does not change within a stream)
_DELAY_FRAMES = 4096


@dataclass(frozen=True)
class Reading:
    """A partly stamped stream's frames in presentation order: their times (`pts`, raw
    ticks), their packets' byte positions (a keyframe with none: the packet's before it,
    above), and the keyframes' times."""

    pts: array
    pos: array
    keyframes: list[int]
    # how far each recording joined after the first is moved from where `Timeline` put it
    moved: tuple[int, ...] = ()


class PartlyStamped:
    """Every packet of an H.264 or HEVC stream in MPEG-PS or MPEG-TS, for when some carry
    no time at all (`reading`)."""

    def __init__(self, container, stream) -> None:
        names = set(str(container.format.name or "").split(","))
        self.container, self.stream = container, stream
        self.codec = stream.codec_context.name
        self.on = bool(names & {"mpeg", "mpegts"}) and self.codec in ("h264", "hevc")
        self.unstamped = 0
        self.pos = array("q")
        # machine integers, as the index keeps them (`_NONE`: the packet had no time)
        self.pts = array("q")
        self.dts = array("q")
        self.shifts = array("q")  # each packet's shift on the index's timeline
        self.segments = array("q")  # and the recording it is of
        self.keys: list[int] = []  # packet numbers of the keyframes the demuxer flags

    def add(self, pk, shift: int = 0, segment: int = 0) -> None:
        """One packet of the stream, in the demuxer's order, the shift its times take on the
        index's timeline and the recording it is of (joined: `joined_timeline.Timeline`)."""
        if not self.on:
            return
        if pk.pts is None:
            self.unstamped += 1
        if pk.is_keyframe:
            self.keys.append(len(self.pos))
        self.pts.append(_NONE if pk.pts is None else pk.pts + shift)
        self.dts.append(_NONE if pk.dts is None else pk.dts + shift)
        self.shifts.append(shift)
        self.segments.append(segment)
        self.pos.append(pk.pos if pk.pos is not None else -1)

    def reading(self, tick: int, deadline_check=None, joined: int = 0) -> Reading | None:
        """The frames in presentation order when some packets had no time, an IDR is among
        them and their order can be read (`poc`); None: read the stream by its stamps (so
        too when `deadline_check()`, asked every 1024 packets, says the probe's time is up).
        `joined`: the recordings `Timeline` found joined after the first (`_joined`)."""
        if not self.on or not self.unstamped or not self.keys or tick <= 0:
            return None
        places = self._pictures(deadline_check)
        if places is None or len(places[0]) != len(self.pos):
            return None
        seq, poc = (np.frombuffer(a, np.int64) for a in places)
        shown = np.nonzero(seq >= 0)[0]  # decode order
        order = shown[np.lexsort((poc[shown], seq[shown]))]  # presentation order (stable)
        pts, dts, shifts, segments = (np.frombuffer(a, np.int64) for a in (
            self.pts, self.dts, self.shifts, self.segments))
        times = _times(pts[order], dts[shown], tick, shifts[order], shifts[shown])
        if times is None:
            return None
        moved = _joined(segments[order], shifts[order], times, tick)
        if len(moved) != joined:
            return None
        all_pos = np.frombuffer(self.pos, np.int64)
        pos = all_pos[order].copy()  # each frame's own packet
        # the last packet at or before each that has a byte position (-1: none)
        placed = np.maximum.accumulate(np.where(all_pos >= 0, np.arange(all_pos.shape[0]), -1))
        rank = np.empty(shown.shape[0], np.int64)  # where each packet is shown (decode order)
        rank[np.searchsorted(shown, order)] = np.arange(shown.shape[0])
        # a keyframe is a place to start decoding when every packet before it is shown before
        # it: a decode from it then shows it first and every later frame in order (leading
        # pictures of an open GOP, x265's CRA, x264's open-gop I: the decoder drops them)
        shown_before = np.concatenate(([-1], np.maximum.accumulate(rank)[:-1]))
        keyframes = []
        for k in self.keys:
            i = int(np.searchsorted(shown, k))
            if i >= shown.shape[0] or shown[i] != k or shown_before[i] >= rank[i]:
                continue
            j = int(rank[i])
            if pos[j] < 0 and placed[k] >= 0:  # it starts in another frame's pack (above)
                pos[j] = all_pos[placed[k]]
            keyframes.append(int(times[j]))
        if not keyframes:
            return None
        return Reading(array("q", times.tolist()), array("q", pos.tolist()), keyframes,
                       tuple(moved))

    def _pictures(self, deadline_check):
        """Each packet's place in the order shown (`poc.pictures`), from a second pass over
        the file."""
        def packets():
            for n, pk in enumerate(self.container.demux(self.stream)):
                if not n & 1023 and deadline_check is not None and deadline_check():
                    raise TimeoutError
                if pk.size:
                    yield memoryview(pk)
        try:
            self.container.seek(0, unsupported_byte_offset=True)
            return pictures(self.codec, packets())
        except Exception:  # noqa: BLE001 (a file that fails a second read is read by stamps)
            return None


def _times(stamps: np.ndarray, dts: np.ndarray, tick: int, shown_in: np.ndarray,
           decoded_in: np.ndarray) -> np.ndarray | None:
    """Presentation times of frames in the order shown, from their own `stamps` (`_NONE`:
    the packet had none) and the decode times of the packets in decode order (`dts`): an
    unstamped frame takes the decode time `delay` packets later (`_delay`) when that packet
    is of the same recording (`shown_in`, `decoded_in`: the frames' and the packets' shifts
    on the joined timeline), else one `tick` after the frame before it (spread evenly where
    that would pass the next time known). None when the stamps do not rise in this order."""
    stamps = _unclashed(stamps)
    known = stamps != _NONE
    if not known.any() or not _rising(stamps[known]):
        return None
    out = stamps.copy()
    delay = _delay(stamps, dts)
    if delay is not None:
        j = np.nonzero(~known)[0]
        j = j[j + delay < dts.shape[0]]
        later = j + delay
        j, later = (x[(decoded_in[later] == shown_in[j]) & (dts[later] != _NONE)]
                    for x in (j, later))
        out[j] = dts[later]
        if not _rising(out[out != _NONE]):
            out = stamps.copy()  # decode times that disagree: the stamps alone
    fixed = np.nonzero(out != _NONE)[0]
    at = np.arange(out.shape[0])
    k = np.searchsorted(fixed, at, side="right") - 1  # the time known before each frame
    before = fixed[np.maximum(k, 0)]
    after = fixed[np.minimum(k + 1, fixed.shape[0] - 1)]
    gap = np.where(k + 1 < fixed.shape[0], after - before - 1, 0)  # unknown between
    step = np.where((gap > 0) & (out[before] + gap * tick >= out[after]),
                    (out[after] - out[before]) // np.maximum(gap + 1, 1), tick)
    fill = np.where(k < 0, out[fixed[0]] - (fixed[0] - at) * tick,
                    out[before] + (at - before) * step)
    out = np.where(out == _NONE, fill, out)
    return out if _rising(out) else None


def _joined(segments: np.ndarray, shifts: np.ndarray, times: np.ndarray,
            tick: int) -> list[int]:
    """Each recording joined after the first (`segments`: each frame's recording, `shifts`:
    its shift on the timeline), moved to start one `tick` after the last frame before it
    where `Timeline` moved it back: it put it one decode step after the latest stamped time,
    and a partly stamped stream's last frame can be unstamped and its decode step span
    several packets (two H.264 `.mpg` files joined by `cat`: the second placed one frame
    late, every moment of it one frame behind). One whose times were later already keeps
    its place by the one before it. `times` is changed in place; the moves, in order."""
    moved: list[int] = []
    total = 0
    for j in (np.nonzero(segments[1:] != segments[:-1])[0] + 1).tolist():
        if shifts[j] != shifts[j - 1]:
            total = int(times[j - 1] + tick - (times[j] - total))
        moved.append(total)
        times[j:] += total - (moved[-2] if len(moved) > 1 else 0)
    return moved


def _delay(stamps: np.ndarray, dts: np.ndarray) -> int | None:
    """How many packets late a packet's decode time is the presentation time of the frame
    shown at its own place (the encoder's reordering delay): the delay at which most stamped
    frames' times are some packet's decode time there, None when none is."""
    head = stamps[:_DELAY_FRAMES]
    hits = [int(np.count_nonzero((head[:max(0, dts.shape[0] - d)] != _NONE) &
                                 (head[:max(0, dts.shape[0] - d)] == dts[d:d + head.shape[0]])))
            for d in range(_MAX_DELAY + 1)]
    best = max(range(len(hits)), key=lambda d: (hits[d], -d))
    return best if hits[best] else None


def _unclashed(stamps: np.ndarray) -> np.ndarray:
    """`stamps` with each pair of stamped frames whose times do not rise (in the order shown)
    made unstamped, both: FFmpeg's PS demuxer gives a pack's time to a frame that only ends
    in it as well as to the one that starts there, so two frames can carry one time (x264
    with a GOP of 25 in `.mpg`: 675000 twice at frame 116, QA s47 T3, review s47 R3). Which
    of the two is right cannot be told; unstamped, both take their times as the others do
    (the decode time `_delay` packets later, or evenly between the times known around them),
    and the rest still has to rise."""
    at = np.nonzero(stamps != _NONE)[0]
    clash = np.nonzero(stamps[at][1:] <= stamps[at][:-1])[0]
    if not clash.shape[0]:
        return stamps
    out = stamps.copy()
    out[at[clash]] = _NONE
    out[at[clash + 1]] = _NONE
    return out


def _rising(values: np.ndarray) -> bool:
    """Whether each of `values` is greater than the one before it."""
    return bool(np.all(values[1:] > values[:-1]))
