"""Where the other video streams of a file have footage (the probe's `video.several_streams`
note, in the isolated video process).

The note was timed as the whole video (session 23): a webcam stream that holds 8 s of a 24 s
file was "0.0-24.0 s". The other stream's header does not say where its footage starts
(Matroska's DURATION tag is its end time; `start_time` is the container's), and the index
reads the checked stream's packets only. So the other streams' packets are read here: from the
file's start, and again from a place before its end to the end. Both reads are bounded (a cap
on packets and on CPU time: a hostile file is never read whole for a note). Session 24 took
the first packet and the last one's end (QA s24 O1: a stream at 3-5 and 18-20 s was "3.0-20.0
s"), and stopped the first read at the first packets, the second read starting 4 MiB before
the end (O4: a stream at 5-10 and 400-420 s of 600 s was found in neither: the whole video).
Now the first read goes on to its bounds, the second starts where a read of as many packets
would end at the file's end (at the first one's end when that is nearer: a file of up to
about twice the cap is read whole), and each run of a stream's packets is a span; what lies
between the two reads when they do not meet is said not read. A stream not found, or a file
whose end was not reached, has no span, and the note stays the whole video.
"""

from __future__ import annotations

import time

from moderator_app.core.thresholds import DEFAULT_VIDEO_LIMITS

#: Packets read from the start for the other streams' first ones, and again from the end for
#: their last ones (every stream's packets count: the file is read in its order).
MAX_PACKETS = 20_000
#: How far before the file's end the read for the last packets starts (not MP4, AVI).
TAIL_BYTES = 4 << 20
#: CPU seconds each read may take.
BUDGET_S = 1.0
#: A stream's packets further apart than this are two spans of its footage (the probe's
#: footage-gap threshold: no new frame for longer is no footage).
GAP_S = DEFAULT_VIDEO_LIMITS.footage_gap_s
#: Spans of one stream sent to the probe (a stream that comes and goes: its first ones).
MAX_SPANS = 16
#: The read of the last packets starts this share of the first read's stretch (its packets,
#: in bytes or time) before the end: as many packets, less a margin for a denser end.
TAIL_SHARE = 0.8


def other_spans(open_container, req: dict, others: list[dict], index,
                deadline: float | None = None) -> dict[int, dict]:
    """{stream index: {"spans": [[start, end], ...], "unread": [a, b] or None}} in video time
    (seconds from the index's first frame) for the streams `others` names
    (`index.other_footage`): each run of its packets with no two further apart than GAP_S
    is a span, from its first packet's time to its last one's end. `unread`: the stretch
    between the reads when they did not meet (a span there is not known; a stream found in
    no read is there with no span). Nothing when the file's end was not reached. None
    of it for recordings joined with restarting timestamps (a time there means two places).
    `deadline` (the probe's, on the process's CPU clock): no read goes past it, so the
    probe stays within the time its process is given."""
    import av
    wanted = {int(o["index"]) for o in others if isinstance(o.get("index"), int)}
    if not wanted or not index.frame_count or index.segments:
        return {}
    if deadline is not None and time.process_time() >= deadline:
        return {}
    zero = float(index.pts[0] * index.time_base)
    reads = [_Read(wanted)]
    try:
        container = open_container(req)
        try:
            reads[0].run(container, deadline)
        finally:
            container.close()
        # the read for the end from where as many packets would reach it; when that one
        # does not (an end denser than the start: a capture's 60 fps after 30 fps menus),
        # again from where session 24 read it (the last keyframe, the last TAIL_BYTES)
        for near in ((reads[0], None) if not reads[0].ended else ()):
            tail = _Read(wanted)
            container = open_container(req)
            try:
                _to_tail(container, req, near)
                tail.run(container, deadline)
            finally:
                container.close()
            reads.append(tail)
            if tail.ended:
                break
        if not reads[-1].ended:
            return {}  # not read to the file's end: its last packets are not known
    except (av.error.FFmpegError, OSError, ValueError):
        return {}
    gap = _unread(reads)
    unread = None if gap is None else [round(gap[0] - zero, 6), round(gap[1] - zero, 6)]
    out = {}
    for k in sorted(wanted):
        spans = _spans([pk for r in reads for pk in r.packets[k]])
        if spans or unread is not None:
            out[k] = {"spans": [[round(a - zero, 6), round(b - zero, 6)] for a, b in spans],
                      "unread": unread}
    return out


def _unread(reads: list[_Read]) -> tuple[float, float] | None:
    """The stretch (raw seconds) between what the reads covered from the file's start on and
    where the last one (to the end) began, when they did not meet."""
    last = reads[-1]
    if len(reads) == 1 or last.first_s is None:
        return None
    covered = reads[0].reach_s
    for r in reads[1:-1]:
        if covered is not None and r.first_s is not None and r.first_s <= covered and \
                r.reach_s is not None:
            covered = max(covered, r.reach_s)
    if covered is None or last.first_s <= covered:
        return None
    return covered, last.first_s


def _spans(packets: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Runs of packets (time, end) no two of which are further apart than GAP_S. A packet
    ends no later than the next one in time starts: its duration is the container's, and
    MP4's is the decode-order delta to the next sample (`stts`), which, with B-frames,
    belongs to a packet shown elsewhere (QA s25 S4: the sample before an 11 s gap was a
    frame at 19.16 s, and that stream's footage ran "to 30.200 s" of a 25 s file). Nor
    later than its start plus the stream's usual duration (the median of its packets'): in a
    MOV the last frame before a gap was given the 7.52 s to the next decode time, and the next
    frame in time was the gap's other side (QA s26 T2: 3.0-4.5 and 12.0-15.0 s said as one
    span, 3.0-15.0 s)."""
    ordered = sorted(packets)
    durations = sorted(e - t for t, e in ordered if e > t)
    usual = durations[len(durations) // 2] if durations else None
    if usual is not None:
        ordered = [(t, min(e, t + usual)) for t, e in ordered]
    cur = nxt = None  # walking back from the last: this packet's time, the next later one
    for i in range(len(ordered) - 1, -1, -1):
        t, e = ordered[i]
        if t != cur:
            cur, nxt = t, cur
        if nxt is not None:
            ordered[i] = (t, min(e, nxt))
    out: list[tuple[float, float]] = []
    for t, e in ordered:
        if out and t <= out[-1][1] + GAP_S:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((t, e))
    return [(a, b) for a, b in out if b > a]


class _Read:
    """One bounded read of every stream's packets (MAX_PACKETS, BUDGET_S): each wanted
    stream's (time, end) per packet, how far it got (the latest time and byte of any
    packet) and whether it reached the file's end."""

    def __init__(self, wanted: set[int]) -> None:
        self.wanted = wanted
        self.packets: dict[int, list[tuple[float, float]]] = {k: [] for k in wanted}
        self.ended = False
        self.count = 0
        self.reach_s: float | None = None  # the latest packet time of any stream
        self.first_s: float | None = None  # the earliest packet time of any stream
        self.reach_pos = -1  # the furthest packet's byte

    def run(self, container, deadline: float | None) -> None:
        own = time.process_time() + BUDGET_S
        deadline = own if deadline is None else min(own, deadline)
        for n, pk in enumerate(container.demux()):
            if n >= MAX_PACKETS or (not n & 255 and time.process_time() > deadline):
                return
            self.count = n + 1
            tb = pk.stream.time_base
            ts = pk.pts if pk.pts is not None else pk.dts
            if not pk.size or tb is None or ts is None:
                continue
            t = float(ts * tb)
            if pk.pos is not None and pk.pos > self.reach_pos:
                self.reach_pos = pk.pos
            self.reach_s = t if self.reach_s is None else max(self.reach_s, t)
            self.first_s = t if self.first_s is None else min(self.first_s, t)
            if pk.stream.index in self.wanted:
                self.packets[pk.stream.index].append((t, t + float((pk.duration or 0) * tb)))
        self.ended = True


def _to_tail(container, req: dict, head: _Read | None) -> None:
    """Position `container` for the read of the file's last packets: where the read from the
    start got to (`head`) and what it took tell where a read of as many packets starts before
    the end (TAIL_SHARE of the head's stretch back; at the head's end when that is nearer, so
    that a file of up to about twice MAX_PACKETS packets is read whole in the two reads;
    None: the last keyframe, or the last TAIL_BYTES).
    MP4/MOV, AVI and Matroska whose header names its Cues are sought by a timestamp (their
    index is in memory: no read); any other container by byte, never later than TAIL_BYTES
    before the end (a timestamp seek without an index reads the whole file to get there).
    Matroska's demuxer is not told of a byte seek (session 24, `child_audio`): with Cues, a
    byte seek after a seek to time 0, as session 24 did it, gave the file's second cluster
    whatever the byte (QA s24 O4's 600 s file: 5.0 s, every time), and the read for the end
    read from the start (session 25)."""
    import os

    from .index import recording_stream
    names = set((container.format.name or "").split(","))
    stream = recording_stream(container)
    if stream is None:
        return
    if names & {"mov", "mp4", "avi"} or ("matroska" in names and cued_matroska(req["source"])):
        at = 2**62
        if head is not None and container.duration and head.reach_s is not None and \
                head.first_s is not None and stream.time_base:
            end_s = float((container.start_time or 0) + container.duration) / 1e6
            at_s = max(head.reach_s, end_s - TAIL_SHARE * (head.reach_s - head.first_s))
            at = int(min(max(at_s / stream.time_base, 0), 2**62))  # a header's any duration
        container.seek(at, stream=stream, backward=True)
        return
    size = os.stat(req["source"]).st_size
    start = size - TAIL_BYTES
    if head is not None and head.reach_pos > 0:
        start = min(start, max(head.reach_pos, size - int(TAIL_SHARE * head.reach_pos)))
    if start <= 0:
        return
    if "matroska" in names:
        container.seek(0, stream=stream, backward=True)
    container.seek(start, unsupported_byte_offset=True)


#: A Matroska SeekHead's entry for the Cues: SeekID (0x53AB), 4 bytes, the Cues' ID.
_SEEK_CUES = b"\x53\xab\x84\x1c\x53\xbb\x6b"


def cued_matroska(path: str) -> bool:
    """Whether a Matroska file's header names its Cues (its first 64 KiB: the SeekHead
    follows the EBML header): a timestamp seek then costs no read. A capture stopped hard
    has none, and a timestamp seek there reads every cluster up to its time."""
    try:
        with open(path, "rb") as fh:
            return fh.read(1 << 16).find(_SEEK_CUES) >= 0
    except OSError:
        return False
