"""The header each recording joined in a file carries of its own (the probe's joined-recordings
check, `child_segments.check_joined`, in the isolated video process).

Matroska and MP4 keep a video's decoder setup out of band: H.264's picture size, profile and
parameter sets live in the file's header (CodecPrivate, `avcC`), not in the packets. A file of
two such recordings joined byte for byte (`cat a.mkv b.mkv`, two fragmented MP4s) is played as
one stream: the demuxer reads the first header only, and every later recording's packets are
decoded with it. The decoder cannot tell: H.264's error concealment marks the first joined
frames damaged and then stops, and every later picture is the other stream decoded with the
wrong parameters (QA s21 N4/N6: 640x480 + 800x600, 24-26 s of grey and green smear that passed
as footage). The joined recording's own header is still in the file, just before its first
packet: read from there, it says what the recording is (800x600), and decoded from there the
recording is whole (780 of 780 frames, each the picture drawn at encode time)."""

from __future__ import annotations

import io
import os

#: How far before a joined recording's first packet its header is looked for: a Matroska
#: header (EBML, Segment, Tracks, perhaps Cues written in front) or an MP4 `ftyp` + `moov`.
HEADER_SPAN = 4 << 20
#: Joined recordings whose header is read (each is an open of a few ms; a hostile file can
#: hold thousands of restarts): the later ones are judged by their decode alone.
MAX_HEADERS = 32
_EBML = b"\x1a\x45\xdf\xa3"
# opening the joined recording's header: its streams' parameters, no long probe
_OPTIONS = {"probesize": str(1 << 20), "analyzeduration": "0", "max_streams": "64"}


class _From(io.RawIOBase):
    """A file read from byte `start` on, as if it began there (the joined recording), and
    ending at byte `end` when given (the next recording's header: `joined_chain`)."""

    def __init__(self, path: str, start: int, end: int | None = None) -> None:
        self._f = open(path, "rb")  # noqa: SIM115 - closed with the reader
        self._start = start
        self._end = end
        self._f.seek(start)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = len(b) if self._end is None else max(0, min(len(b), self._end - self._f.tell()))
        data = self._f.read(n)
        b[:len(data)] = data
        return len(data)

    def seek(self, pos: int, whence: int = 0) -> int:
        if whence == 0:
            self._f.seek(self._start + max(0, pos))
        elif whence == 2 and self._end is not None:
            self._f.seek(max(self._start, self._end + pos))
        else:
            self._f.seek(pos, whence)
        return max(0, self._f.tell() - self._start)

    def tell(self) -> int:
        return max(0, self._f.tell() - self._start)

    def close(self) -> None:
        self._f.close()
        super().close()


def open_recording(path: str, start: int, end: int | None = None):
    """The joined recording that begins at byte `start` of `path`, opened by PyAV as a file of
    its own (its header probed briefly: `_OPTIONS`), its bytes ending at `end` when given.
    One opener for every reader of a joined recording's own header: the probe's parameters
    and pictures, the unread recordings, the sound (`child_audio`), the seeks
    (`joined_seek`) and the recordings read on past the demuxer's end (`joined_chain`)."""
    import av
    return av.open(_From(path, start, end), options=_OPTIONS)


def header_start(path: str, lo: int, hi: int) -> int | None:
    """Where the last container header (Matroska's EBML magic, an MP4 `ftyp` box) between
    byte `lo` and `hi` starts: the joined recording's own, before its first packet at `hi`."""
    lo = max(lo, hi - HEADER_SPAN, 0)
    if hi <= lo:
        return None
    with open(path, "rb") as fh:
        fh.seek(lo)
        data = fh.read(hi - lo)
    found = data.rfind(_EBML)
    at = data.rfind(b"ftyp")
    if at >= 4 and at - 4 > found:
        found = at - 4  # the box starts with its 4-byte size
    return lo + found if found >= 0 else None


def own_parameters(path: str, start: int) -> dict | None:
    """The video parameters the joined recording's own header at byte `start` gives: codec,
    width, height, and `extradata` (the decoder's setup: H.264's avcC, its SPS and PPS);
    None when no video stream opens from there."""
    import av

    from .index import recording_stream
    try:
        with open_recording(path, start) as c:
            st = recording_stream(c)
            if st is None:
                return None
            cc = st.codec_context
            return {"codec": str(cc.name or ""), "width": int(cc.width or 0),
                    "height": int(cc.height or 0), "extradata": bytes(cc.extradata or b"")}
    except av.error.MemoryError:
        raise
    except (av.error.FFmpegError, OSError, ValueError):
        return None


#: The first pictures of a joined recording decoded both ways (`own_pictures`, `differs`):
#: a header that sets the decoder up otherwise (another PPS: init QP, entropy coder,
#: weighted prediction) garbles the first frames it touches; its IDR or the P/B-frames after.
PICTURES = 12
#: Mean difference (luma levels, 0-255) of one picture decoded both ways above which the
#: two are different pictures. One decoder, one bitstream and one setup give the same bytes
#: (0.0); a wrong setup gave 40-120 (QA s22 joins2: CRF 23 + CRF 35 of one x264 preset).
DIFF_LEVELS = 2.0


#: The points of a picture compared a side (`luma`): a garbled picture differs everywhere,
#: and 12 pictures of each of 32 joins held at full size could be gigabytes (16384 px a side).
SAMPLE_SIDE = 256


def luma(frame):
    """A decoded frame's first plane (its bytes, no conversion: both decodes of one
    bitstream give one pixel format) on a grid of at most SAMPLE_SIDE points a side, copied
    (the frame's buffer goes back to the decoder)."""
    import numpy as np
    p = frame.planes[0]
    rows = np.frombuffer(memoryview(p), np.uint8)[:p.line_size * p.height]
    plane = rows.reshape(p.height, p.line_size)[:, :p.width]
    step = max(1, -(-max(p.width, p.height) // SAMPLE_SIDE))
    return plane[::step, ::step].copy()


def own_pictures(path: str, start: int, want: set[int], deadline: float | None = None
                 ) -> dict[int, object]:
    """The pictures (`luma`) of the joined recording decoded from its own header at byte
    `start`, by presentation time (its own, as the file's demuxer gives it before any
    shift), for the times in `want`: from the keyframe before the first (a fragmented MP4
    played joined loses the recording's first fragment: its frames start 2 s in). Stops
    past the last wanted time, or after 4 * PICTURES frames without one from the first
    wanted time on (the frames from the keyframe up to it are the decode's way there: one
    keyframe and the first pictures the file shows 3 s in, QA s26 T6), or when the process's
    CPU clock passes `deadline` (`time.process_time`; None: no such bound)."""
    import time

    import av

    from .index import recording_stream
    out: dict[int, object] = {}
    if not want:
        return out
    first, last, idle = min(want), max(want), 0
    try:
        with open_recording(path, start) as c:
            st = recording_stream(c)
            if st is None:
                return out
            try:
                c.seek(min(want), stream=st, backward=True)
            except av.error.FFmpegError:
                c.seek(0, stream=st, backward=True)
            for pk in c.demux(st):
                for f in pk.decode():
                    if f.pts in want:
                        out[int(f.pts)], idle = luma(f), 0
                    elif f.pts is None or f.pts >= first or deadline is None:
                        idle += 1
                    if (f.pts is not None and f.pts >= last) or idle > 4 * PICTURES:
                        return out
                if deadline is not None and time.process_time() > deadline:
                    return out
    except av.error.MemoryError:
        raise
    except (av.error.FFmpegError, OSError, ValueError):
        return out
    return out


def differs(a, b) -> bool:
    """Whether two pictures of one frame (`luma`) decoded two ways are different pictures."""
    import numpy as np
    if a.shape != b.shape:
        return True
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean()) > DIFF_LEVELS


_SEGMENT = b"\x18\x53\x80\x67"
#: The joined Matroska recordings whose own header is read for its reordering depth.
MAX_WALK = MAX_HEADERS


def ebml_vint(data: bytes, at: int, keep_marker: bool) -> tuple[int, int] | None:
    """An EBML variable-length integer at `at`: (value, length); None past the data or where
    it has no valid length (a first byte 0). IDs keep their length marker, sizes do not (all
    ones: unknown size, returned as -1). The top-level walk here and the truncation check
    (`truncation`) read with it."""
    if at >= len(data) or data[at] == 0:
        return None
    n = 9 - data[at].bit_length()
    if at + n > len(data):
        return None
    v = int.from_bytes(data[at:at + n], "big")
    if keep_marker:
        return v, n
    v &= (1 << (7 * n)) - 1
    return (-1 if v == (1 << (7 * n)) - 1 else v), n


def matroska_joins(path: str, limit: int = MAX_WALK) -> list[int]:
    """Where each recording joined after the first begins in a Matroska file (its EBML magic):
    the file's top level walked element by element (EBML header, Segment, another EBML header
    ...). A Segment of unknown size (a live capture) ends the walk: nothing after it is known."""
    out: list[int] = []
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            at = 0
            for _ in range(4 * limit + 8):
                fh.seek(at)
                head = fh.read(12)
                id_ = ebml_vint(head, 0, True)
                if id_ is None:
                    break
                ln = ebml_vint(head, id_[1], False)
                if ln is None or ln[0] < 0:
                    break
                if head[:4] == _EBML and at:
                    out.append(at)
                    if len(out) >= limit:
                        break
                at += id_[1] + ln[1] + ln[0]
                if at >= size:
                    break
    except OSError:
        return out
    return out


#: Top-level MP4 boxes walked for joined recordings (`mp4_joins`): a fragmented MP4 has two
#: a fragment (`moof`, `mdat`); an hour of 2 s fragments is 3,600, a hostile file's 100,000
#: fragments are walked to here (~0.1 s) and the rest is read as the demuxer reads it.
MAX_BOXES = 1 << 16
_MP4_TYPES = (b"ftyp", b"moov", b"moof", b"mdat", b"mfra", b"free", b"skip", b"sidx",
              b"styp", b"emsg", b"prft", b"uuid", b"meta", b"wide", b"pdin")
_mp4_walked: dict[tuple, list[int]] = {}  # (path, size, mtime) -> `mp4_joins`' answer


def mp4_joins(path: str, limit: int = MAX_WALK) -> list[int]:
    """Where each recording joined after the first begins in a fragmented MP4 (two
    fragmented MP4s joined byte for byte, or a stream whose initialisation segment is sent
    again with other settings): a header (`ftyp`, or a `moov` that no `ftyp` opens) after a
    movie fragment (`moof`). The top level walked box by box, at most MAX_BOXES boxes; a box
    of another type or a size that does not fit ends the walk (nothing past it is known).
    FFmpeg's MP4 demuxer reads every such recording's packets, decoded with the first
    recording's header (`joined_chain.own_read` says when they are read from their own).
    Walked once a process for a file (its path, size and time)."""
    try:
        st = os.stat(path)
    except OSError:
        return []
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _mp4_walked:
        if len(_mp4_walked) >= 16:
            _mp4_walked.clear()
        _mp4_walked[key] = _walk_mp4(path, st.st_size)
    return _mp4_walked[key][:limit]


def _walk_mp4(path: str, size: int) -> list[int]:
    out: list[int] = []
    fragmented = False
    last = b""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return out
    try:
        at = 0
        for _ in range(MAX_BOXES):
            head = os.pread(fd, 16, at)
            if len(head) < 8:
                break
            n, kind = int.from_bytes(head[:4], "big"), head[4:8]
            if n == 1 and len(head) == 16:
                n = int.from_bytes(head[8:16], "big")
            elif n == 0:
                n = size - at
            if kind not in _MP4_TYPES or n < 8 or at + n > size:
                break
            if fragmented and (kind == b"ftyp" or (kind == b"moov" and last != b"ftyp")):
                out.append(at)
                fragmented = False  # the next recording's own fragments follow
                if len(out) >= MAX_WALK:
                    break
            elif kind == b"moof":
                fragmented = True
            last = kind
            at += n
            if at >= size:
                break
    except OSError:
        pass
    finally:
        os.close(fd)
    return out


def recording_joins(path: str, limit: int = MAX_WALK) -> list[int]:
    """Where each recording joined after the first begins: `matroska_joins` for a Matroska
    file (its EBML magic first), `mp4_joins` for an MP4 one (an `ftyp` box first), else none."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError:
        return []
    if head[:4] == _EBML:
        return matroska_joins(path, limit)
    if head[4:8] == b"ftyp":
        return mp4_joins(path, limit)
    return []


#: Recordings past the demuxer's last packet whose own header is opened for its duration.
MAX_UNREAD_OPENED = 8


def unread_recordings(path: str | None, last_pos: int) -> tuple[list[dict], bool]:
    """The Matroska recordings joined in the file whose header lies past `last_pos` (the byte
    of the last packet the demuxer gave): each `at` (its EBML header's byte) and `duration_s`
    (what its own header says; None when it says nothing or was not opened), `number` (its
    place among the file's recordings by their headers, 1 the first), and whether the
    walk stopped at its bound (MAX_WALK headers: there may be more). FFmpeg's Matroska demuxer
    reads the file's first Segment and the one joined after it, then stops: QA s24 R2, three
    recordings cat-joined, of which the third (16 of 24 s, 53 % of the bytes) no packet came
    from, and nothing said so. The top level is walked as `matroska_joins` does; at most
    MAX_UNREAD_OPENED headers are opened (their header only, `_OPTIONS`)."""
    if not isinstance(path, str) or not os.path.isfile(path):
        return [], False
    with open(path, "rb") as fh:
        if fh.read(4) != _EBML:
            return [], False
    starts = matroska_joins(path)
    # numbered by the headers before it (2: the first joined), not by the restarts the index
    # saw (two short recordings whose times overlap read as one)
    out: list[dict] = [{"at": at, "number": k + 2, "duration_s": None}
                       for k, at in enumerate(starts) if at > last_pos]
    for rec in out[:MAX_UNREAD_OPENED]:
        rec["duration_s"] = _own_duration(path, int(rec["at"]))
    return out, len(starts) >= MAX_WALK


def _own_duration(path: str, start: int) -> float | None:
    """The duration a joined recording's own Matroska header (Segment Info) gives, in s."""
    import av
    try:
        with open_recording(path, start) as c:
            d = c.duration
    except av.error.MemoryError:
        raise
    except (av.error.FFmpegError, OSError, ValueError):
        return None
    if not isinstance(d, int) or d <= 0:
        return None
    return round(d / 1_000_000, 6)


def joined_reorder(path: str | None, stream) -> int:
    """The deepest frame reordering (`index.reorder_ticks`, in `stream`'s time base) among
    the recordings joined after the first in a Matroska file, each read from its own header;
    0 when there is none. Matroska stores presentation times only: FFmpeg guesses the decode
    times from the first recording's header, so a first recording without B-frames gave a
    joined one with B-frames no reordering window at all, and each of its B-frame groups read
    as a new recording (QA s21 seg_mkv_h264_profile_change: 112 recordings, 44.03 s for 28 s)."""
    import av

    from .index import recording_stream, reorder_ticks
    if not isinstance(path, str) or not os.path.isfile(path) or not stream.time_base:
        return 0
    with open(path, "rb") as fh:
        if fh.read(4) != _EBML:
            return 0
    deepest = 0
    for start in matroska_joins(path):
        try:
            with open_recording(path, start) as c:
                st = recording_stream(c)
                if st is None or not st.time_base:
                    continue
                ticks = reorder_ticks(st) * float(st.time_base) / float(stream.time_base)
        except av.error.MemoryError:
            raise
        except (av.error.FFmpegError, OSError, ValueError):
            continue
        deepest = max(deepest, int(ticks + 0.999))
    from .index import MAX_REORDER_S
    return min(deepest, int(MAX_REORDER_S / float(stream.time_base) + 0.999))
