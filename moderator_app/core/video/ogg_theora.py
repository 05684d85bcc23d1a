"""The presentation times of a Theora stream in an Ogg file, read from its pages' granule
positions rather than from FFmpeg's Ogg demuxer.

Why: a page's granule position dates the last packet that ends on it; FFmpeg dates a page's
first packet by counting on from the page before. Theora stores a repeated picture as an empty
packet, which keeps the count right; but footage removed with its timestamps kept leaves no
empty packets, and the first packet after the hole is then dated one frame after the packet
before it (QA s17 K5: the keyframe of 37.000 s dated 36.300 s, so the 0.7 s hole was a cut at
36.300 s and no `video.timestamp_gap`). The granules say where it is. Only the integrity scan
uses these times (scan_container); the frames and their order are FFmpeg's.

Untrusted input: the pages are read with bounds (`MAX_PAGES`), anything unexpected (not Ogg,
no Theora stream, two of them, a granule that goes back) gives no times, never an error.
"""

from __future__ import annotations

import struct
from pathlib import Path

MAX_PAGES = 2_000_000  # ~ 60 h of 30 fps video at one page a second; past it: no times
_HEADER = struct.Struct("<4sBBqIIIB")  # capture, version, type, granule, serial, seq, crc, n


def theora_times(path: str | Path) -> tuple[list[int], list[int], list[int], float] | None:
    """(frame number, packet size, frames lost before it) of every non-empty data packet of
    the file's one Theora stream, in file order, and its frame duration in seconds; None where
    the file is not Ogg with exactly one Theora stream whose granules count on, or cannot be
    read. Frames lost: frame numbers before the packet that no packet holds, not even an
    empty one (a repeated picture): footage the file does not have."""
    try:
        with open(path, "rb") as fh:
            return _read(fh)
    except (OSError, ValueError, struct.error, IndexError):
        return None


def _read(fh) -> tuple[list[int], list[int], list[int], float] | None:
    serial = None
    shift = rev = 0
    fps = 0.0
    sizes: list[int] = []  # every packet of the Theora stream, headers included
    numbers: list[int | None] = []
    cur = 0
    for _ in range(MAX_PAGES):
        head = fh.read(_HEADER.size)
        if len(head) < _HEADER.size:
            break
        cap, version, kind, granule, ser, _seq, _crc, nseg = _HEADER.unpack(head)
        if cap != b"OggS" or version != 0:
            return None
        segs = fh.read(nseg)
        if len(segs) < nseg:
            break
        body = sum(segs)
        if kind & 0x02:  # the first page of a stream: is it Theora?
            first = fh.read(min(body, 64))
            fh.seek(body - len(first), 1)
            if first[:7] == b"\x80theora":
                if serial is not None:
                    return None  # two Theora streams: which one the scan decodes is unsure
                serial = ser
                got, rev, fps = _ident(first)
                if got is None:
                    return None
                shift = got
            if ser != serial:
                continue
        else:
            fh.seek(body, 1)
            if ser != serial:
                continue
        ended = []
        for s in segs:
            cur += s
            if s < 255:
                sizes.append(cur)
                numbers.append(None)
                ended.append(len(sizes) - 1)
                cur = 0
        if granule != -1 and ended:
            last = (granule >> shift) + (granule & ((1 << shift) - 1)) - (1 if rev >= 1 else 0)
            k = ended[-1]
            while k >= 0 and numbers[k] is None:
                numbers[k] = last - (ended[-1] - k)
                k -= 1
    else:
        return None
    if serial is None or fps <= 0 or len(sizes) < 3:
        return None
    frames: list[int] = []
    kept: list[int] = []
    lost: list[int] = []
    last = None  # the number of the packet before, empty ones included
    for n, size in zip(numbers[3:], sizes[3:], strict=True):  # the three headers first
        if n is None or (last is not None and n <= last):
            return None  # not a count that goes on: trust FFmpeg's dating
        if size:
            frames.append(n)
            kept.append(size)
            lost.append(0 if last is None else n - last - 1)
        last = n
    return frames, kept, lost, 1.0 / fps


def _ident(first: bytes) -> tuple[int | None, int, float]:
    """KFGSHIFT, the version's revision (3.2.1 counts granules from 1) and the frame rate of
    a Theora identification header."""
    if len(first) < 42:
        return None, 0, 0.0
    rev = first[9]
    bits = int.from_bytes(first[7:42], "big")
    nb = (42 - 7) * 8

    def field(offset: int, n: int) -> int:
        return (bits >> (nb - offset - n)) & ((1 << n) - 1)

    frn, frd = field(120, 32), field(152, 32)
    shift = field(120 + 64 + 48 + 8 + 24 + 6, 5)
    if frn == 0 or frd == 0:
        return None, 0, 0.0
    return shift, rev, frn / frd


class TheoraDates:
    """The granules' time of each non-empty packet of the recording's Theora stream, handed
    out in demux order. The packets are matched by count and size: at the first that does
    not match (FFmpeg returned a packet the pages do not hold there) it hands back FFmpeg's
    own time from then on."""

    def __init__(self, frames: list[int], sizes: list[int], lost: list[int], frame_s: float,
                 time_base: float) -> None:
        self._frames, self._sizes, self._lost = frames, sizes, lost
        self._scale = frame_s / time_base
        self._k = 0
        self._ok = True
        self.redated = 0  # packets whose time the granules changed
        self.lost_pts: list[int] = []  # packets after frames no packet holds, and how many
        self.lost_n: list[int] = []

    @property
    def whole(self) -> bool:
        """Every packet so far matched the pages: `lost_pts` says where footage is missing."""
        return self._ok

    def pts(self, size: int, pts: int | None) -> int | None:
        if not self._ok or self._k >= len(self._frames) or self._sizes[self._k] != size:
            self._ok = False
            return pts
        mine = round(self._frames[self._k] * self._scale)
        if self._lost[self._k] > 0:
            self.lost_pts.append(mine)
            self.lost_n.append(self._lost[self._k])
        self._k += 1
        if pts is not None and mine != pts:
            self.redated += 1
        return mine


def theora_dates(container, stream) -> TheoraDates | None:
    """The granules' dating for a PyAV container opened on an Ogg file whose video stream is
    Theora, else None (every other file keeps FFmpeg's times)."""
    try:
        fmt = container.format.name or ""
        codec = stream.codec_context.name or ""
        name = container.name
        tb = float(stream.time_base or 0)
    except (AttributeError, TypeError, ValueError):
        return None
    if "ogg" not in fmt.split(",") or codec != "theora" or tb <= 0 \
            or not isinstance(name, str) or not Path(name).is_file():
        return None
    got = theora_times(name)
    return None if got is None else TheoraDates(*got, tb)
