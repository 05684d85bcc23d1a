"""Where the other video streams of a file have footage (the probe's `video.several_streams`
note, in the isolated video process).

The note was timed as the whole video (session 23): a webcam stream that holds 8 s of a 24 s
file was "0.0-24.0 s". The other stream's header does not say where its footage starts
(Matroska's DURATION tag is its end time; `start_time` is the container's), and the index
reads the checked stream's packets only. So the first and the last packets of the other
streams are read here: from the file's start until each has shown a packet, and from a seek to
the end to the end of the file. Both reads are bounded (a cap on packets and on CPU time: a
hostile file is never read whole for a note); a stream not found within them has no span, and
the note stays the whole video.
"""

from __future__ import annotations

import time

#: Packets read from the start for the other streams' first ones, and again from the end for
#: their last ones (every stream's packets count: the file is read in its order).
MAX_PACKETS = 20_000
#: How far before the file's end the read for the last packets starts (not MP4, AVI).
TAIL_BYTES = 4 << 20
#: CPU seconds each read may take.
BUDGET_S = 1.0
#: Packets of a stream whose presentation times are taken as its start (decode order: a
#: B-frame group's first packet is not the first shown).
FIRST_PACKETS = 16


def other_spans(open_container, req: dict, others: list[dict], index,
                deadline: float | None = None) -> dict[int, list[float]]:
    """{stream index: [first, end]} in video time (seconds from the index's first frame) for
    the streams `others` names (`index.other_footage`), each from its first packet's time to
    its last packet's end; a stream missing when either is not found within the reads'
    bounds. None of it for recordings joined with restarting timestamps (a time there means
    two places). `deadline` (the probe's, on the process's CPU clock): no read goes past it,
    so the probe stays within the time its process is given."""
    import av
    wanted = {int(o["index"]) for o in others if isinstance(o.get("index"), int)}
    if not wanted or not index.frame_count or index.segments:
        return {}
    if deadline is not None and time.process_time() >= deadline:
        return {}
    zero = float(index.pts[0] * index.time_base)
    first: dict[int, float] = {}
    seen: dict[int, int] = {}
    end: dict[int, float] = {}
    try:
        container = open_container(req)
        try:
            _read(container, wanted, first, seen, None, True, deadline)
        finally:
            container.close()
        container = open_container(req)
        try:
            _to_tail(container, req)
            if not _read(container, wanted, None, None, end, False, deadline):
                end.clear()  # not read to the file's end: its last packets are not known
        finally:
            container.close()
    except (av.error.FFmpegError, OSError, ValueError):
        return {}
    return {k: [round(first[k] - zero, 6), round(end[k] - zero, 6)]
            for k in sorted(wanted) if k in first and k in end and end[k] > first[k]}


def _to_tail(container, req: dict) -> None:
    """Position `container` near the file's end, as the probe's `_stream_end` does: MP4/MOV
    and AVI by a timestamp past the end (their sample index is in memory: no read), any
    other container by byte to its last TAIL_BYTES (a timestamp seek without an index reads
    the whole file to get there). A Matroska demuxer is not told of a byte seek and resyncs
    from the cluster it last read (session 24, `child_audio`), so it is first sought to the
    start by time, which sets it at the segment's top level; the byte seek then lands on the
    first cluster after its byte (without Cues it may not: the read's bounds then end it)."""
    import os

    from .index import recording_stream
    names = set((container.format.name or "").split(","))
    stream = recording_stream(container)
    if names & {"mov", "mp4", "avi"}:
        if stream is not None:
            container.seek(2**62, stream=stream, backward=True)
        return
    size = os.stat(req["source"]).st_size
    if size <= TAIL_BYTES:
        return
    if "matroska" in names and stream is not None:
        container.seek(0, stream=stream, backward=True)
    container.seek(size - TAIL_BYTES, unsupported_byte_offset=True)


def _read(container, wanted: set[int], first: dict | None, seen: dict | None,
          end: dict | None, stop_when_found: bool, deadline: float | None) -> bool:
    """Demux every stream from where `container` is, within MAX_PACKETS and BUDGET_S: the
    earliest presentation time among each wanted stream's first FIRST_PACKETS packets into
    `first`, the latest end (time + duration) into `end`. True when the file's end was
    reached (or, `stop_when_found`, every wanted stream's first packets were seen)."""
    own = time.process_time() + BUDGET_S
    deadline = own if deadline is None else min(own, deadline)
    for n, pk in enumerate(container.demux()):
        if n >= MAX_PACKETS or (not n & 255 and time.process_time() > deadline):
            return False
        k = pk.stream.index
        if k not in wanted or not pk.size or pk.stream.time_base is None:
            continue
        ts = pk.pts if pk.pts is not None else pk.dts
        if ts is None:
            continue
        t = float(ts * pk.stream.time_base)
        if first is not None and seen is not None and seen.get(k, 0) < FIRST_PACKETS:
            seen[k] = seen.get(k, 0) + 1
            first[k] = min(first.get(k, t), t)
            if stop_when_found and len(seen) == len(wanted) and \
                    min(seen.values()) >= FIRST_PACKETS:
                return True
        if end is not None:
            e = t + float((pk.duration or 0) * pk.stream.time_base)
            end[k] = max(end.get(k, e), e)
    return True
