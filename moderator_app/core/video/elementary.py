"""Elementary streams: a video stream with no container around it (`.h264`, `.hevc`, `.m2v`).

Why they are read apart (session 46, issue 12): such a file keeps no times. FFmpeg's parser
counts a packet's times from the start of the file (MPEG-1/2) or gives none (H.264, HEVC), so
after a seek they are not the index's: raw MPEG-2 read 63 of 150 frames, 36 of 64 moments
wrong, and raw H.264 and HEVC, whose packets have no times at all, had no frame. Their frames
are known by their place in the decoder's output after the keyframe's packet
(`FrameIndex.ordinal`, as AVI's are), the file is sought by bytes
(`ExactDecoder.BYTE_SEEK_FORMATS`), and packets without times are one frame of the stream's
rate apart in decode order, where ffmpeg shows them.

A frame's place after a keyframe is its place in the video only when nothing decoded after the
keyframe is shown before it. An open-GOP keyframe (H.264's I-frame with a recovery point,
HEVC's CRA or BLA with leading pictures) has such pictures; a decode that starts there drops
them, and every frame after it was numbered 2-4 frames early (x264 `open-gop`, x265
`open-gop`). Where the stream keeps no times, only a closed keyframe (IDR) is a place to start
decoding (`closed_keyframe`); reads between two IDRs decode from the IDR before them.
"""

from __future__ import annotations

import re
from array import array
from fractions import Fraction

ELEMENTARY_FORMATS = frozenset({"h264", "hevc", "mpegvideo", "vvc", "cavsvideo", "avs2",
                                "avs3", "vc1", "h261", "h263"})
_START = re.compile(rb"\x00\x00\x01")
# H.264 NAL types of a picture's slices: 1 (non-IDR), 5 (IDR)
_H264_SLICES = {1, 5}
# HEVC NAL types of a random access picture's slices (16-21) and of other pictures' (0-9):
# only IDR_N_LP (20) and BLA_N_LP (18) have no leading picture; IDR_W_RADL (19) may have
# decodable ones, which the decoder shows first (`ExactDecoder._identify` then refuses the
# place and decodes from the start), so it is a place to start too
_HEVC_CLOSED = {18, 19, 20}
_HEVC_SLICES = set(range(0, 10)) | set(range(16, 22))


def elementary(container) -> bool:
    """Whether `container` (an open PyAV container) is an elementary stream."""
    return bool(set(str(container.format.name or "").split(",")) & ELEMENTARY_FORMATS)


def tick_step(stream, tb: Fraction) -> int:
    """One frame at the stream's rate (25 fps where FFmpeg guesses none), in ticks of `tb`."""
    rates = (stream.guessed_rate, stream.average_rate)
    rate = next((float(r) for r in rates if r and float(r) > 0), 25.0)
    return max(1, round(1.0 / (rate * float(tb))))


def closed_keyframe(codec: str | None, data: bytes) -> bool:
    """Whether the keyframe packet `data` (Annex B) of an H.264 or HEVC stream is an IDR, whose
    decode shows nothing before it (other codecs: True). Its first picture slice decides."""
    if codec not in ("h264", "hevc"):
        return True
    for m in _START.finditer(data):
        at = m.end()
        if at >= len(data):
            break
        if codec == "h264":
            kind = data[at] & 0x1F
            if kind in _H264_SLICES:
                return kind == 5
        else:
            kind = data[at] >> 1 & 0x3F
            if kind in _HEVC_SLICES:
                return kind in _HEVC_CLOSED
    return True


# the least stamped time past which a partly stamped stream is not renumbered (frames)
_LATE_START = 30


class PartlyStamped:
    """Every packet of an H.264 or HEVC stream in MPEG-PS or MPEG-TS, for when some carry no
    time at all. A program stream stamps a pack, not a frame, and FFmpeg's H.264 / HEVC parser
    fills in no time for the frames between (MPEG-2's does): the index kept only the stamped
    35 of 150 frames of an H.264 `.mpg`, 45 of 64 moments wrong. Such a stream is then read as
    an elementary one (`as_elementary`): every packet a frame, one frame apart in decode
    order, known by its place after an IDR, from the first stamped time on.

    Only where the stamped packets say the stream is one frame every `tick` with no frame
    missing (each stamp on that grid from the least, none past the last packet's place): a
    stream whose times start at 10 s, drop frames (VFR) or jump (a 3 s gap) re-timed from 0
    at a constant rate showed the wrong frame at 34-59 of 60 moments and gave a false
    `video.header_mismatch` (review s46 R6); such a stream keeps its stamped frames' own
    times, as before session 46. So does one whose least stamp is later than `_LATE_START`
    frames (a muxer's preload, 0.5 s + the B-frames' delay, is earlier): the frames are
    numbered from the file's start, where a stream stamped from 10 s was shown frame 0 for
    every moment (review s46 R6); reading such a stream by its stamped times on the grid is
    left open (23 of 60 moments 30 frames late when tried, the lead)."""

    def __init__(self, container, stream) -> None:
        names = set(str(container.format.name or "").split(","))
        self.codec = stream.codec_context.name
        self.on = bool(names & {"mpeg", "mpegts"}) and self.codec in ("h264", "hevc")
        self.unstamped = 0
        self.pos = array("q")
        self.stamps = array("q")  # the stamped packets' times
        self.closed: list[int] = []  # packet numbers of the IDRs

    def add(self, pk, time: int | None) -> None:
        """One packet, and its time (None: the demuxer gave it none)."""
        if not self.on:
            return
        if time is None:
            self.unstamped += 1
        else:
            self.stamps.append(time)
        if pk.is_keyframe and closed_keyframe(self.codec, bytes(pk)):
            self.closed.append(len(self.pos))
        self.pos.append(pk.pos if pk.pos is not None else -1)

    def as_elementary(self, tick: int) -> tuple[array, array, list[int]] | None:
        """(pts, pos, keyframe pts) of every packet, `tick` apart from the least stamped
        time, when some had no time and the stamped ones lie on that grid (above)."""
        if not self.on or not self.unstamped or not self.closed or not self.stamps \
                or tick <= 0:
            return None
        base = min(self.stamps)
        if base > _LATE_START * tick:
            return None  # (stamped from a later time: read by its stamps, as before)
        places = set()
        for t in self.stamps:
            k, rest = divmod(t - base, tick)
            if min(rest, tick - rest) * 4 > tick:
                return None  # (off the grid: a variable frame rate)
            k += rest * 2 > tick
            if k >= len(self.pos) or k in places:
                return None  # (a frame missing, or two at one place)
            places.add(k)
        pts = array("q", range(0, tick * len(self.pos), tick))
        return pts, self.pos, [k * tick for k in self.closed]
