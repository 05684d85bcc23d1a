"""Reading a joined Matroska file past where FFmpeg's demuxer stops: every recording from the
third on, each from its own header (in the isolated video process).

FFmpeg's Matroska demuxer reads the first Segment of a cat-joined file and the one joined
after it, then ends (session 24, `joined_headers.unread_recordings`): three H.264 recordings
of one size and settings (QA s25 S3) gave 375 frames of 600, and the third was said "never
read". Each recording is a whole Matroska file, so a reader opened at its EBML header
(`joined_headers.open_recording`) reads it; ended at the next recording's header, it reads
that one only, with its own header's decoder setup (a reader let run on would decode the
next one with this one's, as the whole file's demuxer does the second). So the packets of a
container are followed, when its demux ends, by those of each recording whose header lies
past the last byte read, one reader each, their byte positions the whole file's
(`Shifted`) and their timestamps their own (restarting, as the second recording's do in the
whole file's demux: `joined_timeline.Timeline` shifts them). Used where the file is read in
order: the index, the scan, the check of joined recordings, and the picture after a seek.

Bounded: the recordings followed are those the top-level walk finds (`matroska_joins`, at
most MAX_WALK headers); one that does not open, or whose video is of another codec than the
file's, ends the chain there, and what follows stays "never read" (`unread_recordings`). One
of another picture size is read (`continues`): its frames keep their size, as FFmpeg gives a
stream whose size changes mid-stream. One of another time base is read too (the index has
one clock): its timestamps are given in the file's (`rescaled`): a fragmented MP4's
(ffmpeg's muxer: 12800 ticks a second at 25 fps, 15360 at 30; session 28) and a Matroska
one of another TimecodeScale (mkvmerge's `--timestamp-scale`; session 29).

The second recording is read by the whole file's demuxer, with the first one's header
(session 22's rule: refused where its pictures are not its own). Where its own header would
decode other pictures (`own_read`: other encoder settings, QA s26 T9; another picture size),
or its clock is another (the file's demuxer reads its ticks as the first's: 10x slow at 0.1
ms after 1 ms), the whole file's demux stops at its header and it is read from there like
the later ones (sessions 27, 29)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from fractions import Fraction

from .joined_clock import file_clock, origin_shift, rescaled, shift_ticks, tick_ratios

_EBML = b"\x1a\x45\xdf\xa3"


class Shifted:
    """A packet of a recording read from its own header, its byte position the whole
    file's (PyAV's `pos` cannot be set); everything else is the packet's own, and setting
    `pts`/`dts` sets the packet's."""

    __slots__ = ("_pk", "pos")

    def __init__(self, pk, base: int) -> None:
        object.__setattr__(self, "_pk", pk)
        object.__setattr__(self, "pos", None if pk.pos is None or pk.pos < 0 else pk.pos + base)

    @property
    def packet(self):
        """The PyAV packet (its bytes: `bytes()` and `memoryview()` need the object itself)."""
        return self._pk

    def __bytes__(self) -> bytes:
        return bytes(self._pk)

    def __getattr__(self, name: str):
        return getattr(self._pk, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._pk, name, value)


def later_starts(source: object) -> tuple[list[int], bool]:
    """The headers' bytes of a joined file's recordings read from their own header, and
    whether the walk stopped at its bound (MAX_WALK headers: where the last one found ends
    is not known, and it is not read). Matroska: from the third on (those FFmpeg's demuxer
    never reads from the file's start), and the second too where `own_read` says the file's
    demuxer would play it as other pictures. A fragmented MP4 (`joined_headers.mp4_joins`):
    each one from the second on whose own header continues the first's (`continues`: codec
    and clock; `mp4_own`), up to the first that does not.
    Nothing for anything else."""
    from .joined_headers import MAX_WALK, matroska_joins, mp4_joins
    if not isinstance(source, str) or not os.path.isfile(source):
        return [], False
    try:
        with open(source, "rb") as fh:
            head = fh.read(8)
    except OSError:
        return [], False
    if head[4:8] == b"ftyp":
        joins = mp4_joins(source)
        return mp4_own(source, joins), len(joins) >= MAX_WALK
    if head[:4] != _EBML:
        return [], False
    joins = matroska_joins(source)
    return [*own_read(source, joins), *joins[1:]], len(joins) >= MAX_WALK


#: The second recording's first packets decoded both ways by `own_read`, and of its pictures
#: the first compared (`joined_headers.PICTURES`).
DECIDE_PACKETS = 48
#: CPU seconds (`time.process_time`) the decision may take: a hostile file's 48 packets can
#: be 16384x16384 pictures. Past it, the pictures compared so far decide; none: not decided.
DECIDE_CPU_S = 3.0
_decided: dict[tuple, tuple[int, ...]] = {}  # (path, size, mtime) -> `own_read`'s answer
# (and ("mp4", path, size, mtime) -> `mp4_own`'s)


def own_read(source: str, joins: list[int]) -> tuple[int, ...]:
    """The second recording's header byte (`joins[0]`) when it is to be read from its own
    header, else (). FFmpeg's demuxer plays a cat-joined file's second recording with the
    first one's header (session 22): where the two set the decoder up alike, or the header
    bytes are the same, it is read so, as it always was. Where its own header is of the
    file's codec, size and clock but other bytes (another SPS/PPS: profile, B-frames, CRF),
    its first DECIDE_PACKETS packets are decoded with its own header and with the first's:
    when any of its first pictures (not marked damaged) comes out otherwise, or not at all,
    with the first's, the file would show other pictures than the recording holds (QA s26
    T9: H.264 High with 3 B-frames after a recording without gave 166 of 175 packets no
    frame). Where its own header's time base is another (another TimecodeScale), always:
    the file's demuxer would read its timestamps in the first's ticks (session 29). Where
    its own header gives another picture size (the capture resized between
    recordings: 480x360 after 320x240 played with the first's header gave 189 of 240
    packets damaged), it is when its own header gives a picture of that size from those
    packets (`_own_pictures`). Then every reader (the index, the scan, the joined check,
    the decoder after a seek: `demux`, `joined_seek`) reads it from its own header, its
    pictures its own. Decided once a process for a file (its path, size and time)."""
    if not joins:
        return ()
    try:
        st = os.stat(source)
    except OSError:
        return ()
    key = (source, st.st_size, st.st_mtime_ns)
    if key not in _decided:
        if len(_decided) >= 16:
            _decided.clear()
        _decided[key] = (joins[0],) if _pictures_differ(source, joins) else ()
    return _decided[key]


def _pictures_differ(source: str, joins: list[int]) -> bool:
    """Whether the second recording's first pictures decoded with the first recording's
    header are not those its own header gives (`own_read`)."""
    import av

    from .index import recording_stream
    from .joined_headers import PICTURES, differs, luma, open_recording
    deadline = time.process_time() + DECIDE_CPU_S
    try:
        with open_recording(source, 0, joins[0]) as first, \
                open_recording(source, joins[0], joins[1] if len(joins) > 1 else None) as own:
            main, mine = recording_stream(first), recording_stream(own)
            if not continues(mine, main, clock=True):
                return False
            if mine.time_base != main.time_base or origin_shift(source, joins[0]):
                # another TimecodeScale (mkvmerge's --timestamp-scale, a muxer of another
                # precision): the file's demuxer reads its timestamps in the first's, 10x
                # late at 0.1 ms after 1 ms; read from its own header, its times rescaled,
                # where that header gives its first picture
                return _own_pictures(own, mine, deadline)
            if bytes(mine.codec_context.extradata or b"") == \
                    bytes(main.codec_context.extradata or b""):
                return False
            if not same_video(mine, main):
                # another picture size (the capture resized between recordings): the
                # first's header plays it as pictures of the wrong size (QA s27); read from
                # its own header where that gives its first picture
                return _own_pictures(own, mine, deadline)
            theirs = av.CodecContext.create(main.codec_context.name, "r")
            theirs.extradata = bytes(main.codec_context.extradata or b"")
            theirs.thread_count = mine.thread_count = 1
            ours: dict[int, object] = {}
            played: dict[int, object] = {}
            n = 0
            for pk in own.demux(mine):
                for f in pk.decode():
                    if f.pts is not None and not getattr(f, "is_corrupt", False):
                        ours[int(f.pts)] = luma(f)
                if not pk.size:
                    continue
                n += 1
                try:
                    got = theirs.decode(pk)
                except av.error.FFmpegError:
                    got = []  # no picture from it that way
                for f in got:
                    if f.pts is not None:
                        played[int(f.pts)] = luma(f)
                if time.process_time() > deadline:
                    break
                if n >= DECIDE_PACKETS:
                    for f in mine.codec_context.decode(None):
                        if f.pts is not None and not getattr(f, "is_corrupt", False):
                            ours[int(f.pts)] = luma(f)
                    break
            with contextlib.suppress(av.error.FFmpegError):
                for f in theirs.decode(None):
                    if f.pts is not None:
                        played[int(f.pts)] = luma(f)
    except av.error.MemoryError:
        raise
    except (av.error.FFmpegError, OSError, ValueError):
        return False  # not decided: read as the file's demuxer reads it
    first_ones = sorted(ours)[:PICTURES]
    return bool(first_ones) and any(t not in played or differs(ours[t], played[t])
                                    for t in first_ones)


def _own_pictures(own, mine, deadline: float) -> bool:
    """Whether a recording's own header gives a picture (not marked damaged) of its own
    size from its first DECIDE_PACKETS packets: a recording of another picture size is read
    from its own header only then (else session 22's check refuses it, as before)."""
    mine.thread_count = 1
    w, h = mine.codec_context.width, mine.codec_context.height
    for n, pk in enumerate(own.demux(mine), 1):
        for f in pk.decode():
            if not getattr(f, "is_corrupt", False) and (f.width, f.height) == (w, h):
                return True
        if n >= DECIDE_PACKETS or time.process_time() > deadline:
            return False
    return False


def mp4_own(source: str, joins: list[int]) -> list[int]:
    """The fragmented MP4 recordings (their header bytes, `joins`) read from their own
    header: each whose own video stream `continues` the first recording's, up to the first
    that does not (that one and the rest are read as FFmpeg's demuxer reads them: with the
    first's header, judged by the joined check). Not only where the pictures differ, as
    Matroska's `own_read`: FFmpeg's MP4 demuxer marks a joined recording's first fragment
    discarded (its decode times go back) and drops it, so even a recording of the same
    settings lost its first 2 s (60 frames of 240 at `frag_keyframe` -g 60), and the
    timeline showed the first recording's last picture over them. Decided once a process
    for a file (its path, size and time)."""
    import av

    from .index import recording_stream
    from .joined_headers import open_recording
    if not joins:
        return []
    try:
        st = os.stat(source)
    except OSError:
        return []
    key = ("mp4", source, st.st_size, st.st_mtime_ns)
    if key in _decided:
        return list(_decided[key])
    out: list[int] = []
    try:
        with open_recording(source, 0, joins[0]) as first:
            main = recording_stream(first)
            for k, at in enumerate(joins):
                end = joins[k + 1] if k + 1 < len(joins) else None
                with open_recording(source, at, end) as own:
                    if not continues(recording_stream(own), main, clock=True):
                        break
                out.append(at)
    except av.error.MemoryError:
        raise
    except (av.error.FFmpegError, OSError, ValueError):
        pass  # the recordings that opened so far
    if len(_decided) >= 16:
        _decided.clear()
    _decided[key] = tuple(out)
    return out


def continues(own, main, clock: bool = False) -> bool:
    """Whether a recording's own video stream can continue the file's when read from its own
    header: codec and time base (the index has one clock); its picture size may differ (its
    frames keep their size: the player and the export show them so, the scan scales every
    picture to its grid and says the change, `video.stream_change`). `clock`: another time
    base is taken too (a fragmented MP4's: ffmpeg's muxer writes 12800 ticks a second at 25
    fps, 15360 at 30; a Matroska TimecodeScale of 0.1 ms after 1 ms): `demux` gives its
    timestamps in the file's clock (`rescaled`)."""
    if own is None or main is None:
        return False
    if own.time_base != main.time_base and not (clock and _clock(own) and _clock(main)):
        return False
    return own.codec_context.name == main.codec_context.name


def _clock(stream) -> bool:
    tb = stream.time_base
    return tb is not None and tb > 0


def clock_jumps(source: object, most: int) -> list[tuple[int, float]]:
    """(header byte, seconds its own clock jumped past where the one before is shown to end)
    of each joined recording (at most `most`) read with its clock shifted further than the
    one before (`origin_shift`; the shifts chain, so a third recording's own jump is its
    shift less the second's): what the probe says in its `method` and the scan notes as
    `video.clock_jump` (`scan_clocks.MovedClocks`)."""
    out: list[tuple[int, float]] = []
    before = 0.0
    for start in later_starts(source)[0]:
        shift = origin_shift(source, start)
        if shift and shift != before and len(out) < most:
            out.append((start, round(shift - before, 6)))
        before = shift
    return out

def same_video(own, main) -> bool:
    """Whether a recording's own video stream can continue the file's: codec, size, time
    base (its decoder setup may differ: it is decoded with its own)."""
    if own is None or main is None or own.time_base != main.time_base:
        return False
    a, b = own.codec_context, main.codec_context
    return (a.name, a.width, a.height) == (b.name, b.width, b.height)


def demux(container, streams: list, source: object, base: int = 0,
          later: tuple[list[int], bool] | None = None,
          clock: dict[int, Fraction] | None = None) -> Iterator:
    """`container.demux(*streams)`, then the packets of each recording past the last byte
    read, from its own header (module docstring). `base`: the byte `container` starts at in
    the file (a recording's reader: its packets are `Shifted`); `later`: `later_starts`
    (read here when None); `clock`: the file's time bases (`file_clock`; `streams`' when
    None): a packet of a recording whose own time base differs (a fragmented MP4 of another
    frame rate) has its timestamps given in the file's (`rescaled`), as the index keeps
    them, and its decoder gives its frames so."""
    from .index import recording_stream
    from .joined_headers import open_recording
    if later is None:
        later = later_starts(source) if joinable(container) else ([], False)
    starts, bounded = later
    main = recording_stream(container)
    # FFmpeg's MP4 demuxer gives packets by decode time across the tracks: the next
    # recording's first packets (their times restart) come before this one's last sound, so
    # its packets past the next header are passed over rather than ending the demux there
    # (its last second of sound was lost: a 1 s `audio.gap` before the join)
    mp4 = "mp4" in str(getattr(container.format, "name", "") or "").split(",")
    if clock is None:
        clock = file_clock(streams)
    ratios = tick_ratios(streams, clock)
    # the whole file's demuxer reads a later recording's samples at the byte offsets its own
    # header gives (`tfhd`'s base data offset, absolute in its part file, as ffmpeg's
    # `frag_keyframe+empty_moov` writes them): in the joined file they point into the first
    # recording, and its packets came out with positions before the join (garbage decoded
    # with the first's header). Only as many packets of each stream as the first recording
    # holds (`_first_counts`) are taken from the whole file's demux
    firsts = _first_counts(source, starts[0]) if mp4 and base == 0 and starts else None
    taken: dict[int, int] = {}
    wanted = [(s.index, s.type) for s in streams]
    given = {s.index: s for s in streams}
    current, at, reach = container, base, -1
    moved = origin_shift(source, base) if base and starts else 0.0
    try:
        while True:
            first = current is not container
            # the next recording read from its own header: the whole file's demux stops
            # there (the second one, `own_read`; FFmpeg's stops before the third anyway)
            stop = next((h for h in starts if h > at), None)
            for pk in current.demux(*streams):
                if stop is not None and pk.pos is not None and pk.pos >= 0 and \
                        pk.pos + at >= stop:
                    if mp4:
                        continue
                    yield from _drained(streams)
                    break
                if firsts is not None and current is container and pk.size:
                    i = pk.stream.index
                    if taken.get(i, 0) >= firsts.get(i, 0):
                        continue
                    taken[i] = taken.get(i, 0) + 1
                if pk.pos is not None and pk.pos >= 0:
                    reach = max(reach, pk.pos + at)
                if moved and pk.stream is not None:
                    back = shift_ticks(moved, pk.stream)
                    pk.pts = None if pk.pts is None else pk.pts - back
                    pk.dts = None if pk.dts is None else pk.dts - back
                r = ratios.get(pk.stream.index) if ratios else None
                if r is not None:
                    pk.pts, pk.dts = rescaled(pk.pts, *r), rescaled(pk.dts, *r)
                    if pk.duration:
                        with contextlib.suppress(AttributeError, TypeError, ValueError):
                            pk.duration = rescaled(pk.duration, *r)
                if first and pk.size and pk.stream.type == "video":
                    first = False
                    if pk.dts is None:
                        # a reader's first packets have no decode time (FFmpeg guesses one
                        # from the second on): the recording's keyframe, decoded first, is
                        # dated where it is shown, so that `Timeline` sees the restart there
                        # and not two packets on (QA s25 S3's: pts 0 and 160 placed in the
                        # recording before, the third one 80 ms early)
                        pk.dts = pk.pts
                yield pk if at == 0 else Shifted(pk, at)
            nxt = [h for h in starts if h > max(reach, at)]
            if not nxt or main is None:
                return
            end = next((h for h in starts if h > nxt[0]), None)
            if end is None and bounded:
                return  # the last header the walk found: its end is not known
            if current is not container:
                _close(current)
            current, at = None, nxt[0]
            try:
                current = open_recording(str(source), at, end)
            except Exception:  # noqa: BLE001 - a recording that does not open ends the chain
                return
            own = recording_stream(current)
            if not continues(own, main, clock=True):
                return
            streams = [current.streams[i] for i, t in wanted
                       if i < len(current.streams) and current.streams[i].type == t]
            for s in streams:  # decoded as the caller set the file's up (threads)
                with contextlib.suppress(Exception):
                    s.thread_type = given[s.index].thread_type
                    s.thread_count = given[s.index].thread_count
            if not any(s.index == own.index for s in streams):
                return
            ratios = tick_ratios(streams, clock)
            moved = origin_shift(source, at)
    finally:
        if current is not None and current is not container:
            _close(current)


_counted: dict[tuple, dict[int, int]] = {}  # (path, size, mtime, end) -> `_first_counts`


def _first_counts(source: object, end: int) -> dict[int, int] | None:
    """The packets (with data) of each stream of a fragmented MP4's first recording, read
    from a reader of its own ended at the next recording's header (`end`); None where it
    does not open (the whole file's demux is then taken as it comes). Demuxed, not decoded;
    once a process for a file."""
    import av

    from .joined_headers import open_recording
    try:
        st = os.stat(str(source))
    except (OSError, ValueError):
        return None
    key = (str(source), st.st_size, st.st_mtime_ns, end)
    if key not in _counted:
        counts: dict[int, int] = {}
        try:
            with open_recording(str(source), 0, end) as own:
                for pk in own.demux():
                    if pk.size:
                        counts[pk.stream.index] = counts.get(pk.stream.index, 0) + 1
        except av.error.MemoryError:
            raise
        except (av.error.FFmpegError, OSError, ValueError):
            return None
        if len(_counted) >= 16:
            _counted.clear()
        _counted[key] = counts
    return _counted[key]


def joinable(container) -> bool:
    """Whether the container's demuxer is one whose joined recordings `later_starts` reads
    from their own header (FFmpeg's Matroska/WebM and MP4 ones)."""
    names = str(getattr(container.format, "name", "") or "").split(",")
    return "matroska" in names or "mp4" in names


def _drained(streams: list) -> Iterator:
    """The empty packets a demux ends with (one a stream: its decoder gives the frames it
    holds back), for a demux stopped before its end."""
    import av
    for s in streams:
        pk = av.Packet()
        pk.stream = s
        yield pk


def _close(container) -> None:
    with contextlib.suppress(Exception):  # closing a broken container is best effort
        container.close()
