"""The sound in the isolated video process (op "audio", `audio.AudioTrack`): PCM windows of the
first audio stream on the video's clock, decoded where every byte of the file is parsed
(`child.py`). Apart from child.py so that it stays the process's loop and the picture's ops.

Joined recordings whose timestamps restart (`FrameIndex.segments`) are sought by the byte
position of a keyframe of the picture (`audio.joined_seek`), never by a time that means two
places. A Matroska byte seek cannot be used for that: FFmpeg's demuxer is not told of it and
resyncs from the cluster it last read, so the sound began at the second cluster of the file
whatever the seek (measured, session 24: every seek of a cat-joined MKV, into either
recording, gave the first recording's sound from 1.685 s, and the second recording played
the first one's tone). Joined Matroska is instead read from the header of the recording the
keyframe's bytes are in (`joined_headers`: each recording is a whole Matroska file, its own
Cues index) and sought there by the keyframe's own time; the sound is then on the picture's
clock from the keyframe's cluster on, in every recording, after any seek. Since session 29
a joined fragmented MP4 too (its demuxer cannot seek by bytes: every window was silence),
and each recording's reader ends at the next recording's header: the next one is read from
its own (its sample rate, decoder setup and clock), not by the file's demuxer with this
one's.
"""

from __future__ import annotations

from bisect import bisect_right

RATE = 48000
#: Recordings of a joined Matroska whose start is looked up (`joined_headers.matroska_joins`:
#: a walk of the file's top level, two short reads a recording). A keyframe in a later one
#: is sought by bytes, as before (the sound from the next cluster on).
MAX_RECORDINGS = 1024


def op_audio(req: dict, state: dict, open_container) -> tuple[dict, tuple[bytes, ...]]:
    """PCM (s16, stereo, 48 kHz) of the first audio stream for video time [t0, t1), starting
    exactly at t0 (silence where the track has none); video time is rebased on the first video
    frame like the index. A request that continues the previous one (its t0 is the last t1)
    continues the same decode: seeking again for every window placed each window by its first
    packet's timestamp, which Matroska rounds to 1 ms, and the windows overlapped or left
    holes of up to 16 samples, a click every 0.2 s. The answer: (header, blobs) to send."""
    import av
    if "audio" not in state:
        container = open_container(req)
        if not container.streams.audio:
            return {"ok": True, "start_s": None, "rate": RATE}, (b"",)
        state["audio"] = container
    t0, t1 = float(req["t0"]), float(req["t1"])
    need = max(0, int(round((t1 - t0) * RATE))) * 4
    cont = state.get("audio_cont")
    if cont is None or abs(cont["t"] - t0) > 1e-6:
        _close_recording(state)
        cont = _audio_from(state, req, t0, float(req.get("video_start_s", 0.0)), av)
    buf = cont["buf"]
    while len(buf) < need:
        more = next(cont["pcm"], None)
        if more is None:
            break
        buf += more
    data = bytes(buf[:need])
    del buf[:need]
    cont["t"] = t1
    state["audio_cont"] = cont
    return {"ok": True, "start_s": t0 if data else None, "rate": RATE}, (data,)


def _close_recording(state: dict) -> None:
    """Close the joined recording's own reader a decode was using (`_recording_reader`)."""
    own = state.pop("audio_own", None)
    if own is not None:
        own.close()


def _audio_from(state: dict, req: dict, t0: float, base: float, av) -> dict:
    """A decode of the first audio stream positioned at video time t0: `buf` holds the PCM from
    t0 (silence first when the track starts later), `pcm` yields what follows. `joined`
    (`audio.joined_seek`): recordings joined with restarting timestamps."""
    container = state["audio"]
    joined = req.get("joined")
    a = container.streams.audio[0]
    tb = a.time_base
    if joined is not None:
        it = _joined_frames(state, req, joined, base, av)
    else:
        container.seek(max(0, int((t0 + base - 0.5) / tb)), stream=a, backward=True)
        res = av.AudioResampler(format="s16", layout="stereo", rate=RATE)

        def frames():
            for frame in container.decode(a):
                if frame.pts is None:
                    continue
                ft = float(frame.pts * tb) - base
                for r in res.resample(frame):
                    yield ft, bytes(r.planes[0])[:r.samples * 4]

        it = frames()
    buf = bytearray()
    for ft, pcm in it:
        end = ft + len(pcm) / 4 / RATE
        if end <= t0:
            continue
        skip = int(round((t0 - ft) * RATE))
        buf += pcm[skip * 4:] if skip >= 0 else bytes(-skip * 4) + pcm
        break
    return {"t": t0, "buf": buf, "pcm": (p for _, p in it)}


def recording_start(source: object, pos: int, state: dict) -> int | None:
    """Where the Matroska (or fragmented MP4) recording holding byte `pos` begins (its
    header: 0 for the first), from the file's top level walked once
    (`joined_headers.recording_joins`); None when not known (not a file path, or past the
    recordings walked)."""
    from .joined_headers import recording_joins
    if not isinstance(source, str):
        return None
    if "audio_joins" not in state:
        state["audio_joins"] = recording_joins(source, MAX_RECORDINGS)
    joins: list[int] = state["audio_joins"]
    if len(joins) >= MAX_RECORDINGS and pos >= joins[-1]:
        return None  # the walk stopped there: a later recording may begin before `pos`
    k = bisect_right(joins, pos)
    return 0 if k == 0 else joins[k - 1]


def _recording_reader(state: dict, req: dict, joined: dict, av):
    """The Matroska or fragmented MP4 recording the keyframe at `joined["pos"]` is in, opened
    from its own header and ended at the next recording's (`joined_headers.open_recording`),
    sought to that keyframe's own (unshifted) time: (reader, its first byte); None when that
    cannot be done (another container, its start not known, no video there, an error): the
    caller seeks by bytes as before. Ended at the next header: the file's demuxer reads a
    joined Matroska's next recording with this one's header (a sound of another sample rate
    decoded with the first's setup, times of another TimecodeScale in the first's ticks), and
    an MP4 reader cannot be sought by bytes at all (every window was silent, session 29)."""
    from .index import recording_stream
    from .joined_clock import origin_shift
    from .joined_headers import open_recording
    container = state["audio"]
    names = str(container.format.name).split(",")
    if not ("matroska" in names or "mp4" in names) or joined.get("pts") is None:
        return None
    start = recording_start(req.get("source"), int(joined["pos"]), state)
    if start is None:
        return None
    seg = int(joined["segment"])
    offsets = [int(o) for o in joined["offsets"]]
    vtb = float(joined["tb"][0]) / float(joined["tb"][1])
    own_s = (int(joined["pts"]) - offsets[min(seg, len(offsets) - 1)]) * vtb
    own_s += origin_shift(req.get("source"), start)  # read shifted: its own time is later
    try:
        own = open_recording(str(req["source"]), start, _next_join(state, start))
    except (av.error.FFmpegError, OSError, ValueError):
        return None
    state["audio_own"] = own
    video = recording_stream(own)
    if video is None or not video.time_base:
        return None
    try:
        # the cue of the keyframe's cluster (fragment): its sound from there on
        own.seek(max(0, int(own_s / float(video.time_base))), stream=video, backward=True)
    except av.error.FFmpegError:
        return None
    return own, start


def _next_join(state: dict, start: int) -> int | None:
    """The first byte of the recording after the one at `start` (None: the last one)."""
    joins: list[int] = state.get("audio_joins") or []
    k = bisect_right(joins, start)
    return joins[k] if k < len(joins) else None


def _joined_frames(state: dict, req: dict, joined: dict, base: float, av):
    """(video time, PCM) of the sound of joined recordings from the keyframe `joined` names,
    each piece placed at its own time (`_placed`): silence where the sound has a hole, an
    overlap dropped, so sound after a join stays on the picture's clock. Matroska and
    fragmented MP4 are read recording by recording, each from its own header
    (`_recordings`); any other container (MPEG-TS) is sought by the keyframe's bytes, each
    packet shifted as the picture's recording it belongs to (`joined_timeline.Timeline`
    replaying the index's offsets from `joined["segment"]`; a new recording starts where the
    sound's decode timestamps go back, as the scan places it)."""
    from .joined_timeline import Timeline
    got = _recording_reader(state, req, joined, av)
    if got is not None:
        yield from _placed(_recordings(state, req, joined, got, base, av))
        return
    container = state["audio"]
    container.seek(int(joined["pos"]), unsupported_byte_offset=True)
    a = container.streams.audio[0]
    tb = a.time_base
    vtb = float(joined["tb"][0]) / float(joined["tb"][1])
    timeline = Timeline([int(o) for o in joined["offsets"]], int(joined["segment"]))
    res = av.AudioResampler(format="s16", layout="stereo", rate=RATE)

    def pieces():
        off = 0
        for pk in container.demux(a):
            if pk.size:
                off = timeline.shift(pk.pts, pk.dts)
            try:
                decoded = pk.decode()
            except av.error.FFmpegError:
                continue
            for frame in decoded:
                if frame.pts is not None:
                    ft = float(frame.pts * tb) + off * vtb - base
                    for r in res.resample(frame):
                        yield ft, bytes(r.planes[0])[:r.samples * 4]
                        ft += r.samples / RATE

    yield from _placed(pieces())


def _recordings(state: dict, req: dict, joined: dict, got: tuple, base: float, av):
    """(video time, PCM) of the sound from the sought recording's reader (`got`) on, then of
    each recording after it, each read from its own header (`_recording_reader`): its own
    time (its own clock, sample rate and decoder setup) plus the shift the index gives its
    picture's segment. A recording whose sound starts earlier than the last one's ended is
    the next segment (its timestamps restart, as the index's picture's do); one whose times
    go on (an MP4 initialisation segment sent again) keeps the shift."""
    from .joined_clock import origin_shift
    from .joined_headers import open_recording
    own, start = got
    offsets = [int(o) for o in joined["offsets"]]
    seg = min(int(joined["segment"]), len(offsets) - 1)
    vtb = float(joined["tb"][0]) / float(joined["tb"][1])
    last: float | None = None  # the own time the last recording's sound reached
    first = True
    while True:
        moved = origin_shift(req.get("source"), start)  # as the picture is read
        if own.streams.audio:
            a = own.streams.audio[0]
            res = av.AudioResampler(format="s16", layout="stereo", rate=RATE)
            restart = not first
            for pk in own.demux(a):
                try:
                    decoded = pk.decode()
                except av.error.FFmpegError:
                    continue
                for frame in decoded:
                    if frame.pts is None:
                        continue
                    ft = float(frame.pts * a.time_base) - moved
                    if restart:
                        restart = False
                        if last is not None and ft < last - 0.05 and seg + 1 < len(offsets):
                            seg += 1
                    shift = offsets[seg] * vtb - base
                    for r in res.resample(frame):
                        yield ft + shift, bytes(r.planes[0])[:r.samples * 4]
                        ft += r.samples / RATE
                    last = ft
        first = False
        start = _next_join(state, start)
        if start is None:
            return
        own.close()
        try:
            own = open_recording(str(req["source"]), start, _next_join(state, start))
        except (av.error.FFmpegError, OSError, ValueError):
            return
        state["audio_own"] = own


def _placed(pieces):
    """Each (video time, PCM) piece at its own time after the last one yielded: silence in a
    hole, an overlap dropped (within 2 ms: kept as it comes, resampling rounds)."""
    at: float | None = None  # video time of the next sample yielded
    for ft, pcm in pieces:
        if at is not None:
            lag = int(round((ft - at) * RATE))
            if abs(lag) <= 96:
                lag = 0
            if lag > 0:  # a hole: silence, so that what follows keeps its time
                pcm = bytes(lag * 4) + pcm
                ft = at
            elif lag < 0:  # an overlap: the part already played is dropped
                pcm = pcm[-lag * 4:]
                ft = at
        if pcm:
            yield ft, pcm
            at = ft + len(pcm) / 4 / RATE
