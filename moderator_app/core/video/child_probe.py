"""The probe's request in the isolated video process (`child.py`): the frame index from the
demuxer, the head that does not decode of a stream cut mid-GOP, where the stream ends when the
budget cut the index, and the first and last frames that decode. Apart from `child.py` because
it is one request with budgets of its own (all on the process's CPU clock, so that a loaded
machine does not change what the probe says)."""

from __future__ import annotations

import os
import time


def _open(req: dict):
    from .opening import open_container
    return open_container(req["source"])


def op_probe(req: dict) -> tuple[dict, tuple[bytes, ...]]:
    """The answer to a probe request: its header and blobs (the index)."""
    import dataclasses

    from . import joined_chain
    from .decoder import ExactDecoder, Interrupted
    from .index import build_index, other_footage, recording_stream
    from .joined_headers import joined_reorder
    from .pixels import display_matrix
    # the budget is the process's CPU time, not the wall clock: on a loaded machine the same
    # file must be described the same way (docs/DECISIONS.md, "Video budgets in CPU seconds")
    deadline = time.process_time() + float(req.get("budget_s", 20.0))
    container = _open(req)
    taken = recording_stream(container)
    if taken is None:  # none, or only a cover picture
        return {"ok": False, "reason": "the file has no video stream"}, ()
    cap = min(int(req.get("max_frames", 10**8)), int(req.get("max_index_frames", 1 << 22)))
    # a joined Matroska's recordings past the demuxer's end too, each from its own header
    index = build_index(container, cap, lambda: time.process_time() > deadline,
                        joined_reorder(req.get("source"), taken),
                        joined_chain.demux(container, [taken], req.get("source")))
    index = _decodable_head(req, index, deadline)
    unread = _unread(req, index)
    index, joined = _joined(req, index, deadline)
    if unread[0]:  # recordings joined after those the demuxer read (QA s24 R2)
        joined = {**joined, "unread": unread[0], "unread_more": unread[1]}
    others = other_footage(container, taken)
    if others:  # where each of the (named) others has footage: the note's moment
        from .child_others import MAX_SPANS, other_spans
        spans = other_spans(_open, req, others[:8], index, deadline)
        for o in others[:8]:
            if o["index"] in spans:
                read = spans[o["index"]]
                if read["spans"]:  # its first packet to the last one's end; each span
                    o["footage_s"] = [read["spans"][0][0], max(b for _, b in read["spans"])]
                    o["footage_spans_s"] = read["spans"][:MAX_SPANS]
                    o["footage_spans_more"] = max(0, len(read["spans"]) - MAX_SPANS)
                if read["unread"] is not None:  # what lay between the two reads
                    o["footage_unread_s"] = read["unread"]
    # eight are named; the count is of all (a 100-stream file was said to hold 9)
    info: dict = {"ok": True, "format": container.format.name, "video_stream": int(taken.index),
                  "other_video": others[:8], "other_video_count": len(others)}
    if joined["stretches"] or joined["unchecked"] is not None or joined.get("unread"):
        info["joined"] = joined
    moved = _moved(req.get("source"), index)
    if moved:
        info["moved"] = moved
    if not index.complete and index.packets > cap:  # cut by the memory bound, not the clock
        info["index_cap"] = cap
    if not index.complete and index.frame_count:
        info["end_s"] = _stream_end(req, index, time.process_time() + END_BUDGET_S)
    audio = []
    for a in container.streams.audio:
        tb = a.time_base
        audio.append({
            "codec": a.codec_context.name, "rate": a.codec_context.sample_rate,
            "channels": a.codec_context.channels if hasattr(a.codec_context, "channels")
            else None,
            "start_s": float(a.start_time * tb) if a.start_time is not None and tb else None,
            "duration_s": float(a.duration * tb) if a.duration is not None and tb else None})
    side = int(req.get("max_side", 16384))
    if index.frame_count and index.width <= side and index.height <= side:
        dec = ExactDecoder(container, index, reopen=lambda: _open(req))
        # within the budget: a stream of packets that never decode is read to its end
        # otherwise (2,000,000 one-byte packets: 35 s for "no frame decodes")
        # (and at least FIRST_BUDGET_S of its own: a probe whose index took its budget still
        # decodes frame 0, as it always did)
        first_end = max(deadline, time.process_time() + FIRST_BUDGET_S)
        dec.packet_stop = lambda: time.process_time() > first_end
        try:
            first = dec.read(0)
        except Interrupted:
            first = None
            info["first_undecided_s"] = float(req.get("budget_s", 20.0))
        dec.packet_stop = None
        info["first_decodes"] = first is not None
        if first is not None:
            index = dataclasses.replace(index, matrix=display_matrix(first))
        # frame 0 not decoded (or not within the budget): the verdict is made, no tail to find
        if first is not None and req.get("tail") == "scan" and scan_answers_tail(index):
            # verify --scan: the scan decodes every frame next, so its frames say which is
            # the last that decodes (`probe.last_decoded`); decoding the tail here as well
            # was 6 % of a 1080p50 MPEG-2 file's decode floor (QA session 15, H5)
            info["tail_deferred"] = True
        elif first is not None and joined["to_end"]:
            # the joined recordings' check decoded the last one to the end of the stream
            # (`child_segments`); a tail pass from a seek into a recording decoded with another
            # one's header gave no frame where ffmpeg's decode from the start gives them
            info["last_decodable"] = index.frame_count - 1
        elif first is not None:
            # the last frame that decodes: a forward pass over the last GOPs
            for back in TAIL_PASSES:
                last = dec.last_decodable(max(0, index.frame_count - back), deadline)
                if last is not None or back >= index.frame_count or \
                        time.process_time() > deadline:
                    break
            info["last_decodable"] = last
    info["audio"] = audio
    return info, (index.to_bytes(),)


def scan_answers_tail(index) -> bool:
    """Whether a scan's decoded timestamps name the index's last frame that decodes as the
    tail pass would: a whole index whose frames each have their own timestamp, in order. Not
    for ordinal indexes (AVI: frames known by their place, not their pts), recordings joined
    (timestamps shifted per segment) or frames that share or reorder a pts."""
    import numpy as np
    return bool(index.complete and not index.ordinal and not index.segments
                and index.frame_count and np.all(np.diff(index.pts) > 0))


# The frames before the end the probe decodes to find the last that decodes: from the keyframe
# before the last 60 first, and from the last 600 only when none of those decodes (a broken
# tail longer than that window). One pass from the last 600 decoded 12 s of a 20 s 1080p50
# MPEG-2 file (GOP 12) in the probe, 1.76 s of CPU, before `verify --scan` decoded it all
# again: 1.95x the decode floor (QA session 15, H5). The answer is the same whenever one of
# the last 60 frames decodes: the highest frame that decodes is in that window either way.
TAIL_PASSES = (60, 600)


# The least CPU time the search for frame 0 gets, whatever is left of the probe's budget.
FIRST_BUDGET_S = 2.0


# The read of the last packets of a file whose index the probe's budget cut: its own small
# budget (the probe's is spent), inside the video process's timeout (budget + 5 s). Deadlines
# of the probe are on the process's CPU clock (`time.process_time`).
END_BUDGET_S = 2.0
_TAIL_BYTES = 4 << 20


def _stream_end(req: dict, index, deadline: float) -> float | None:
    """Where the video stream ends (the last packet's timestamp plus its duration, as video
    time from the index's first frame), read from the end of the file: when the probe's
    budget cut the index, the duration must not depend on how far a machine got (a lower
    bound gave a false coverage.missing on a loaded machine). MP4/MOV and AVI are sought by
    timestamp (their sample index is in memory: no read), and Matroska whose header names
    its Cues (one recording: a joined one's Cues are its first's); every other by byte, to
    the last 4 MiB (Matroska without cues would otherwise read every cluster to get there),
    or from the index's last packet when that is nearer the end, and recordings joined there
    (an MPEG-TS whose timestamps restart) are stitched on as the full index does
    (`joined_timeline.tail_end`). None when no packet is found before `deadline`."""
    import av

    from .child_others import cued_matroska
    from .index import recording_stream
    from .joined_headers import matroska_joins
    from .joined_timeline import tail_end
    container = _open(req)
    try:
        stream = recording_stream(container)
        tb = stream.time_base
        names = set((container.format.name or "").split(","))
        # Matroska with Cues and one recording too: its demuxer is not told of a byte seek,
        # which landed on the file's second cluster, and the read from there was stitched
        # on as a joined recording (a 60 s file cut at 1,000 frames measured 91.4 s)
        by_time = bool(names & {"mov", "mp4", "avi"}) or (
            "matroska" in names and cued_matroska(req["source"])
            and not matroska_joins(req["source"], 1))
        if by_time:
            container.seek(2**62, stream=stream, backward=True)
        else:
            size = os.stat(req["source"]).st_size
            reached = int(index.pos.max()) if index.pos.shape[0] else -1
            start = max(0, size - _TAIL_BYTES)
            container.seek(max(start, reached) if reached >= 0 else start,
                           unsupported_byte_offset=True)
        packets: list[tuple[int | None, int | None, int]] = []
        for pk in container.demux(stream):
            if pk.size and (pk.pts is not None or pk.dts is not None):
                packets.append((pk.pts, pk.dts, pk.duration or 0))
            if time.process_time() > deadline:
                break
    except (av.error.FFmpegError, OSError, ValueError):
        return None
    finally:
        container.close()
    if by_time:
        ends = [p + d for p, _, d in packets if p is not None]
        end = max(ends) if ends else None
    else:
        end = tail_end(index, packets)
    if end is None or tb is None:
        return None
    return float((end - int(index.pts[0])) * tb)


def _unread(req: dict, index) -> tuple[list[dict], bool]:
    """The Matroska recordings joined past the demuxer's last packet
    (`joined_headers.unread_recordings`); none when the index was cut (it did not reach the
    demuxer's end) or holds no packet position."""
    import numpy as np
    if not index.complete or index.pos is None:
        return [], False
    pos = np.asarray(index.pos)
    pos = pos[pos >= 0]
    if not pos.shape[0]:
        return [], False
    from .joined_headers import unread_recordings
    return unread_recordings(req.get("source"), int(pos.max()))


def _joined(req: dict, index, deadline: float):
    """`child_segments.check_joined` on a file of its own (the probe's container has been
    demuxed to its end): whether each recording joined in the file decodes."""
    if not index.segments:
        return index, {"stretches": [], "unchecked": None, "to_end": False}
    import av

    from .child_segments import check_joined
    container = _open(req)
    try:
        return check_joined(container, index, deadline, req.get("source"))
    except av.error.MemoryError:
        raise
    except av.error.FFmpegError:  # not judged: said so (`probe._joined_findings`)
        return index, {"stretches": [], "unchecked": int(index.segments[0][0]),
                       "to_end": False}
    finally:
        container.close()


def _decodable_head(req: dict, index, deadline: float):
    """The index without the frames shown before its first keyframe that do not decode.

    A stream cut mid-GOP (a transport stream cut with `dd` or `split`, a capture joined
    mid-stream) opens on frames whose references are gone: H.264 decodes none of them, HEVC
    conceals some and skips the leading pictures of its first keyframe. The index counts every
    packet; ffprobe counts the frames that decode. So when the first frame shown is not a
    keyframe, the head is decoded from the start (about one GOP) and the frames before the
    first keyframe that never come out are dropped. A file that opens on a keyframe (every
    honest recording) costs nothing; one whose head does not finish decoding in time keeps
    its index as it is."""
    import av
    import numpy as np
    if index.frame_count == 0 or index.ordinal:
        return index
    later = index.keyframe_pts[index.keyframe_pts >= index.pts[0]]
    if later.shape[0] == 0 or int(later[0]) == int(index.pts[0]):
        return index
    from .index import recording_stream
    first_key = int(later[0])
    seen: set[int] = set()
    container = _open(req)
    try:
        stream = recording_stream(container)
        done = False
        for pk in container.demux(stream):
            try:
                frames = pk.decode()
            except av.error.FFmpegError:
                frames = []
            for f in frames:
                if f.pts is not None:
                    seen.add(int(f.pts))
                    done = done or f.pts > first_key
            if done:
                break
            if time.process_time() > deadline:
                return index
    finally:
        container.close()
    head = np.nonzero(index.pts < first_key)[0]
    lost = [int(i) for i in head if int(index.pts[i]) not in seen]
    return index.without(lost) if lost and len(lost) < index.frame_count else index


def _moved(source: object, index) -> list[list[float]]:
    """[video time of its first frame, seconds of its own clock past where the one before is
    shown to end] of each joined recording read with its clock shifted further than the one
    before (`joined_clock.origin_shift`: its own clock started far past the end of the one
    before; shifts chain, so a third recording's own jump is its shift less the second's):
    the probe says so (at most 8)."""
    import numpy as np

    from . import joined_chain
    out: list[list[float]] = []
    if not index.frame_count:
        return out
    for start, jump in joined_chain.clock_jumps(source, 8):
        at = np.nonzero(index.pos >= start)[0]
        if at.shape[0]:
            out.append([round(float(index.times_s[int(at[0])]), 6), jump])
    return out
