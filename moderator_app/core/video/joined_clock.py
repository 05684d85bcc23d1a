"""The clocks of a joined file's recordings read from their own header (`joined_chain`):
the file's clock and a recording's ticks in it (`file_clock`, `tick_ratios`, `rescaled`: a
fragmented MP4 of another frame rate, a Matroska TimecodeScale of 0.1 ms after 1 ms), and
the shift of a recording whose own clock starts far past where the one before ends
(`origin_shift`, read from each recording's own end: `_own_end`). Apart from
`joined_chain` (session 39's tidy) because every reader of a joined file asks them: the
chain's demux, the seek (`joined_seek`), the sound (`child_audio`) and the scan's clock
notes (`joined_chain.clock_jumps`)."""

from __future__ import annotations

import contextlib
import os
from fractions import Fraction


def rescaled(value: int | None, num: int, den: int) -> int | None:
    """A timestamp of a recording's own clock in the file's (`num/den`: its tick in the
    file's ticks), rounded down: a frame's time is at most one tick early (78 us at 12800 a
    second), so the moment a frame starts shows that frame, and the order of the frames
    stays (monotone)."""
    return None if value is None else value * num // den


#: How far past the recording before it a joined recording's own clock may start and still
#: be shown at its own time (its times going on, a hole between): the footage-gap threshold.
ORIGIN_GAP_S = 5.0
_shifts: dict[tuple, float] = {}  # (path, size, mtime, start) -> `origin_shift`


def origin_shift(source: object, start: int) -> float:
    """Seconds to take off the timestamps of the joined recording whose header is at byte
    `start` (read from its own header): where its own clock starts more than ORIGIN_GAP_S
    past where the recording before it is shown to end, its times are made to go on from
    that end, as an MP4 initialisation segment sent again goes on (QA s29: a second
    recording's clock from 7200 s was a 7194 s footage gap, 7 of 11 moments "no footage").
    The shifts chain (`_shifts_to`): a third recording from 7200 s after a second from
    3600 s shown at 2 s goes on from the second's shown end, and one whose clock goes on
    from the one before's (within ORIGIN_GAP_S) is shifted as that one is. A clock that
    restarts, or goes on, or a recording before it of unknown duration (a live capture): 0,
    as before. Once a process for a file and recording."""
    if not isinstance(source, str) or start <= 0:
        return 0.0
    try:
        st = os.stat(source)
    except OSError:
        return 0.0
    key = (source, st.st_size, st.st_mtime_ns, start)
    if key not in _shifts:
        if len(_shifts) >= 64:
            _shifts.clear()
        _shifts.update(_shifts_to(source, (source, st.st_size, st.st_mtime_ns), start))
    return _shifts.get(key, 0.0)


def _shifts_to(source: str, file_key: tuple, start: int) -> dict[tuple, float]:
    """`origin_shift` of every joined recording up to the one at `start`, in file order
    (each one's shift depends on the one before's), keyed as `_shifts` is. A recording's
    end is read from its own header (`_own_span`); where it is shown to end is that minus
    its own shift."""
    import av

    from .index import recording_stream
    from .joined_headers import open_recording, recording_joins
    joins = [j for j in recording_joins(source) if j > 0]
    heads = [0, *joins]
    out: dict[tuple, float] = {}
    before_shift = 0.0
    for k in range(1, len(heads)):
        at = heads[k]
        if at > start:
            break
        key = (*file_key, at)
        if key in _shifts:
            before_shift = _shifts[key]
            out[key] = before_shift
            continue
        after = heads[k + 1] if k + 1 < len(heads) else None
        shift = 0.0
        try:
            with open_recording(source, heads[k - 1], at) as prev, \
                    open_recording(source, at, after) as own:
                # its picture's start (its sound may start before it: AAC's priming), after
                # the end of the one before (its header's: picture and sound)
                end, v = _own_end(prev), recording_stream(own)
                o0 = None if v is None or v.start_time is None or not v.time_base else \
                    float(v.start_time * v.time_base)
                if end is not None and o0 is not None:
                    if before_shift and 0 <= o0 - end <= ORIGIN_GAP_S:
                        shift = before_shift  # its clock goes on from the one before's
                    elif o0 - (end - before_shift) > ORIGIN_GAP_S:
                        shift = round(o0 - (end - before_shift), 6)
        except av.error.MemoryError:
            raise
        except (av.error.FFmpegError, OSError, ValueError):
            shift = 0.0
        out[key] = before_shift = shift
    return out


def _own_end(container) -> float | None:
    """Where a recording read from its own header ends on its own clock (None: not known).
    Matroska's Duration is the end of the Segment's timeline, its timestamps counted from 0
    (ffmpeg's muxer: a recording from 30 s of 2 s says 32 s; FFmpeg gives it as the
    container's duration, not its length): its start is not added (session 29 added it: a
    false 30 s `video.footage_gap` at the join, and a third recording from 7200 s after one
    from 3600 s was never shifted). A Duration under its own start can only be a length:
    added to it. A fragmented MP4's (`empty_moov`: its header holds no sample) is read from
    its last packets (`_last_packets_end`): FFmpeg's duration there is the last fragment's
    decode-time end counted from 0 (30 s + 2 s read as 32 s, a start + length of 62 s: the
    next recording placed 30 s late), a `sidx`'s own figure where one is written, and
    neither counts the B-frames' delay of the presentation. Any other container's duration
    is its length."""
    p0, pd = container.start_time, container.duration
    names = str(getattr(container.format, "name", "") or "").split(",")
    if "mp4" in names:
        end = _last_packets_end(container)
        if end is not None:
            return end
    if not isinstance(pd, int) or pd <= 0:
        return None
    p0 = p0 if isinstance(p0, int) else 0
    if "matroska" in names and pd >= p0:
        return pd / 1_000_000
    return (p0 + pd) / 1_000_000


def _last_packets_end(container) -> float | None:
    """The end of a recording's last video frame on its own clock (seconds: the largest
    pts + duration of its packets), read from a seek to its header's duration (the last
    fragment: FFmpeg seeks back to the keyframe before) to its end; from its first packet
    where that seek is refused. Demuxed, not decoded. None: no video packet with a time."""
    import av

    from .index import recording_stream
    v = recording_stream(container)
    if v is None or not v.time_base:
        return None
    pd = container.duration
    if isinstance(pd, int) and pd > 0:
        with contextlib.suppress(av.error.FFmpegError, OSError, ValueError):
            container.seek(int(pd / 1_000_000 / float(v.time_base)), stream=v, backward=True)
    end = None
    for pk in container.demux(v):
        if pk.pts is None or not pk.size:
            continue
        e = pk.pts + max(int(pk.duration or 0), 0)
        end = e if end is None else max(end, e)
    return None if end is None else float(end * v.time_base)


def shift_ticks(shift_s: float, stream) -> int:
    """`origin_shift`'s seconds in a stream's own ticks."""
    tb = stream.time_base
    return int(round(shift_s / float(tb))) if shift_s and tb else 0


def file_clock(streams) -> dict[int, Fraction]:
    """The time bases of a file's streams, by index (the clock `joined_chain.demux` gives
    timestamps in)."""
    return {s.index: Fraction(s.time_base) for s in streams if s.time_base}


def tick_ratios(streams, clock: dict[int, Fraction]) -> dict[int, tuple[int, int]]:
    """For each stream whose time base is not the file's: its tick in the file's ticks."""
    out = {}
    for s in streams:
        main = clock.get(s.index)
        if s.time_base and main and Fraction(s.time_base) != main:
            r = Fraction(s.time_base) / main
            out[s.index] = (r.numerator, r.denominator)
    return out
