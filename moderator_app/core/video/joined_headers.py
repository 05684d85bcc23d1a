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
    """A file read from byte `start` on, as if it began there (the joined recording)."""

    def __init__(self, path: str, start: int) -> None:
        self._f = open(path, "rb")  # noqa: SIM115 - closed with the reader
        self._start = start
        self._f.seek(start)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        data = self._f.read(len(b))
        b[:len(data)] = data
        return len(data)

    def seek(self, pos: int, whence: int = 0) -> int:
        if whence == 0:
            self._f.seek(self._start + max(0, pos))
        else:
            self._f.seek(pos, whence)
        return max(0, self._f.tell() - self._start)

    def tell(self) -> int:
        return max(0, self._f.tell() - self._start)

    def close(self) -> None:
        self._f.close()
        super().close()


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
    width, height; None when no video stream opens from there."""
    import av

    from .index import recording_stream
    try:
        with av.open(_From(path, start), options=_OPTIONS) as c:
            st = recording_stream(c)
            if st is None:
                return None
            cc = st.codec_context
            return {"codec": str(cc.name or ""), "width": int(cc.width or 0),
                    "height": int(cc.height or 0)}
    except av.error.MemoryError:
        raise
    except (av.error.FFmpegError, OSError, ValueError):
        return None
