"""Seeking the picture in a file of joined Matroska (or fragmented MP4) recordings (`decoder.ExactDecoder`, in the
isolated video process): each recording is sought in a reader of its own header.

FFmpeg's Matroska demuxer is not told of a byte seek (session 24, `child_audio`): it goes on
as if it stood where it last read. In a file of two recordings joined by `cat`, a byte seek
to a keyframe of the second one gave no packet at all (the demuxer took the first Segment's
end for the file's), so every read there fell back to the keyframe before and then to a
decode from the start of the file: the right frame, the long way (session 25: 5,424 frames
decoded and 6 fallbacks for 20 seeks into two H.264 recordings of 15 and 20 s; the probe's
tail pass, one such seek, found nothing and the probe said "the end of the stream could not be
decoded within the probe's budget" on every such file). Each recording is a whole Matroska
file with its own Cues: opened from its EBML header (`joined_headers.open_recording`) and
sought by the keyframe's own time (its index pts less its segment's offset), the demuxer is
put on the keyframe's packet, whose byte position the decoder still checks, and runs on into
the next recording as the whole file's does (the raw timestamps are the whole file's, so the
index's `Timeline` replays as before).
"""

from __future__ import annotations

import contextlib
import os
from bisect import bisect_right
from collections import OrderedDict
from fractions import Fraction

from .index import FrameIndex, recording_stream
from .joined_chain import continues, demux, later_starts
from .joined_clock import file_clock, origin_shift, shift_ticks

#: Recordings kept open in readers of their own (a few ms to open each; one file handle each).
READERS = 4


def path_of(container) -> str | None:
    """The file a container was opened from by its path (None: a file object, a pipe)."""
    name = getattr(container, "name", None)
    return name if isinstance(name, str) and os.path.isfile(name) else None


class RecordingReaders:
    """Readers of a joined Matroska's recordings, each opened from its own header."""

    def __init__(self, container, index: FrameIndex) -> None:
        names = str(container.format.name).split(",")
        mp4 = "mp4" in names and "matroska" not in names
        self.source = path_of(container) if mp4 or "matroska" in names else None
        self.index = index
        # the file's clock: a recording of another time base is sought and read in its own
        # and its timestamps given in the file's (`joined_clock.rescaled`)
        self.clock = file_clock(container.streams)
        # the recordings from the third on (`joined_chain`): each read from its own header
        # alone, the last one the walk found only when the walk was not cut; a fragmented
        # MP4's joined recordings (`joined_chain.mp4_own`), whose timestamps may go on
        # rather than restart (an initialisation segment sent again)
        self.later = later_starts(self.source) if self.source is not None else ([], False)
        if not self.later[0] and (mp4 or not index.segments):
            # no recording read from its own header (and, Matroska, no restart): byte
            # seeks. A Matroska recording read shifted (`joined_clock.origin_shift`) has
            # no restart either: its times go on
            self.source = None
        self._walk: dict = {}  # `child_audio.recording_start`'s walk of the top level
        self._readers: OrderedDict[int, object] = OrderedDict()  # recording start -> reader

    def seek(self, pos: int, target: int, main_stream):
        """A reader of the recording whose bytes hold the keyframe packet at byte `pos`
        (shifted pts `target`), sought to it by its own time: (reader, its start byte); None
        where this is not done (not joined Matroska, the recording's start not found, its own
        header gives another codec, size, decoder setup (extradata: H.264's SPS and PPS) or
        time base than `main_stream`, the whole file's: its pictures would not be those the
        file shows, QA s22's CRF 23 + CRF 35; an error): the byte seek as before. A
        recording the file reads from its own header (the third on, and the second where
        `joined_chain.own_read` says so) is sought in it whatever its extradata."""
        import av

        from .child_audio import recording_start
        if self.source is None:
            return None
        start = recording_start(self.source, pos, self._walk)
        seg = bisect_right([a for a, _ in self.index.segments], target)
        if start is None or not self._walk.get("audio_joins") or (start == 0 and seg > 0):
            # no joined recording's header found (a first Segment of unknown size, as a live
            # capture leaves it, ends the walk): byte seeks work there
            return None
        own = self._reader(start)
        st = None if own is None else recording_stream(own)
        if start in self.later[0]:
            # never read by the file's demuxer: decoded with its own header, as the index,
            # the scan and the joined check read it (`joined_chain`)
            if not continues(st, main_stream, clock=True):
                return None
        elif st is None or st.time_base != main_stream.time_base or \
                _shape(st) != _shape(main_stream):
            return None
        own_pts = target - (0 if seg == 0 else self.index.segments[seg - 1][1])
        if st is not None and own is not None and st.time_base != main_stream.time_base:
            # the last of its own ticks the file's clock rounds down to `own_pts`
            # (`joined_clock.rescaled`): at or past the keyframe, before the next one
            r = Fraction(main_stream.time_base) / Fraction(st.time_base)
            own_pts = -(-(own_pts + 1) * r.numerator // r.denominator) - 1
        # a clock that started far later is read shifted (`joined_clock.origin_shift`)
        own_pts += shift_ticks(origin_shift(self.source, start), st)
        try:
            own.seek(own_pts, stream=st, backward=True, any_frame=False)
        except av.error.FFmpegError:
            return None
        return own, start

    def packets(self, container, stream, base: int):
        """`container`'s packets of `stream` (its first byte in the file: `base`), and a
        joined Matroska's recordings past the demuxer's end, as the index read them
        (`joined_chain.demux`: positions the whole file's)."""
        return demux(container, [stream], self.source, base, self.later, self.clock)

    def _reader(self, start: int):
        import av

        from .joined_headers import open_recording
        own = self._readers.get(start)
        if own is None:
            starts, cut = self.later
            end = next((h for h in starts if h > start), None)
            if end is None and cut and starts and start >= starts[-1]:
                return None  # past the walk: not read (`joined_chain.demux`)
            try:
                # ended at the next recording from the third on: that one is read from its
                # own header (`joined_chain`), not decoded with this one's
                own = open_recording(str(self.source), start, end)
            except (av.error.FFmpegError, OSError, ValueError):
                return None
            self._readers[start] = own
            while len(self._readers) > READERS:
                _close(self._readers.popitem(last=False)[1])
        self._readers.move_to_end(start)
        return own

    def close(self) -> None:
        for own in self._readers.values():
            _close(own)
        self._readers.clear()


def _shape(stream) -> tuple:
    """What sets the decoder up: a recording whose own header differs in any of it is played
    with the first one's (the file as one stream) and its pictures are not its own decode."""
    cc = stream.codec_context
    return cc.name, cc.width, cc.height, bytes(cc.extradata or b"")


def _close(container) -> None:
    with contextlib.suppress(Exception):  # closing a broken container is best effort
        container.close()
