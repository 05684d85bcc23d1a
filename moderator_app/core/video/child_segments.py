"""Whether each recording joined in a file decodes (the probe's request, in the isolated video
process, `child_probe.op_probe`).

A file of joined recordings (`FrameIndex.segments`) is played as one stream: the decoder is set
up from the first recording's header, and every later recording's packets are decoded with it.
Two captures of one encoder decode alike; a recording appended from another (another picture
size, another codec configuration: an MKV of 2 s of black followed byte for byte by a whole
other MKV) does not. FFmpeg then gives half of its packets no frame at all and marks every
other frame it makes as damaged (`AV_FRAME_FLAG_CORRUPT`): QA session 20's h20_06 indexed 336
frames where ffprobe counts 198, and its last 27.5 s, all of the run, were pictures decoded
with the wrong header. The demuxer alone cannot see it: the index counted every packet and the
probe passed the file.

So each recording after the first is decoded from the keyframe before it (as a decode from
the start reaches it), until `WINDOW_FRAMES` of its frames in a row come out whole (a recording
that decodes costs that and no more; the rest of it is demuxed, not decoded), or to its end
while its frames keep coming out damaged or not at all. Packets that give no frame are not frames (dropped from the index, as ffprobe counts
frames, as `child_probe._decodable_head` drops a cut head); frames the decoder marks damaged
stay frames but are no footage: the probe reports each damaged stretch
(`probe.JOINED_UNDECODABLE`) and coverage counts its time as missing.

The damage flag is not enough: H.264's error concealment stops raising it after ~50 frames
of a recording decoded with another's picture size, and the rest passed as footage (QA s21
N4/N6). So each joined recording's own header is read too (`joined_headers`): where it names
another codec, or another picture size than the frames the decoder gives for it, every frame
of the recording is the other stream decoded with the wrong parameters: no footage, however
whole the decoder says its frames are."""

from __future__ import annotations

import os
import time
from bisect import bisect_right
from dataclasses import replace

import numpy as np

from . import joined_chain
from .index import FrameIndex, recording_stream
from .joined_headers import (
    MAX_HEADERS,
    PICTURES,
    differs,
    header_start,
    luma,
    own_parameters,
    own_pictures,
)
from .middle import median

#: Whole frames in a row after which a joined recording is taken to decode (its head decoded
#: with the first recording's decoder: a mismatched header damages it from its first frame).
WINDOW_FRAMES = 48
#: Frames out after a frame before it counts as never decoded (decoders hold a few back to
#: show them in order; shifted timestamps of a mistaken restart come out of order).
REORDER = 16


def check_joined(container, index: FrameIndex, deadline: float, source: str | None = None
                 ) -> tuple[FrameIndex, dict]:
    """The index without the joined recordings' frames that never decode, and what was
    found: `stretches` (the damaged ones, `_stretches`), `unchecked` (the shifted pts of
    the first joined recording the decode did not judge before `deadline`, on the process's
    CPU clock; None when all were) and `to_end` (the last recording was decoded to the end of
    the stream: the index's last frame is the last that decodes, no tail pass needed). A
    stretch still damaged at the deadline runs to its recording's end. A recording whose own
    header (read from the file `source`) names another codec or picture size than the frames
    the decoder gives for it is one stretch from its first frame to its end (`params`). An
    index of one recording, or an ordinal one (AVI: frames known by their place, not their
    timestamp), is returned as it is."""
    import av
    if not index.segments or index.ordinal or index.frame_count == 0:
        return index, {"stretches": [], "unchecked": None, "to_end": False}
    starts = [int(np.searchsorted(index.pts, a, side="left")) for a, _ in index.segments]
    ends = [*starts[1:], index.frame_count]
    k = len(starts)
    clean = [0] * k  # whole frames in a row
    done = [False] * k  # judged: decodes (a whole window), or over
    # how far each is settled: frames before it that did not come out never will
    settled = list(starts)
    recent: list[list[int]] = [[] for _ in range(k)]  # its last REORDER frames out
    after = [0] * k  # frames out of later recordings since it was begun and open
    # Decoding starts at the keyframe before each join (the previous recording's last), so
    # that the decoder reaches the join as ffmpeg's decode from the start does: a "restart"
    # inside a GOP is no recording's start (B-frames in Matroska, whose guessed decode
    # timestamps go back: 22 such in 28 s of H.264, QA s21 N3), and decoded from it without
    # the frames it refers to, its frames were lost (819 frames where ffprobe counts 840).
    # Such shifted timestamps also come out of presentation order: a frame counts as never
    # decoded only once REORDER frames after it did.
    kf = index.keyframe_pts
    resume = {int(kf[r - 1]) for r in np.searchsorted(kf, [a for a, _ in index.segments])
              if r > 0}
    decoding = False
    begun = [False] * k
    # per frame of the index (numpy: a hostile file's recording can hold millions)
    out = np.zeros(index.frame_count, bool)
    damaged = np.zeros(index.frame_count, bool)
    cut = [False] * k
    first_of = {int(p): i for i, p in reversed(list(enumerate(index.pts)))}
    shared: dict[int, int] = {}
    stream = recording_stream(container)
    tl = index.timeline_at(None)
    heads = _own_headers(source, index, starts, ends, deadline)
    own = {j: mine for j, (_, mine) in heads.items()}
    sizes: list[tuple[int, int] | None] = [None] * k  # the first frame out of each
    # a joined recording whose own header is of the same codec and size but not byte for
    # byte the first's (another profile, PPS): its first pictures as the file plays them,
    # to be compared with the same decoded from its own header (`_pictures_differ`)
    extra = bytes(stream.codec_context.extradata or b"")
    # not one the file reads from its own header (`joined_chain.later_starts`): its pictures
    # are that header's decode (compared by time, a recording of another clock, read in the
    # file's, `joined_clock.rescaled`, matched none of its own: a 25 -> 30 fps fragmented
    # MP4 join was refused)
    later = set(joined_chain.later_starts(source)[0]) if heads else set()
    played: dict[int, dict[int, object]] = {
        j: {} for j, mine in own.items()
        if mine["codec"] == str(stream.codec_context.name or "")
        and mine.pop("extradata", extra) != extra and heads[j][0] not in later}
    for mine in own.values():
        mine.pop("extradata", None)
    shown = {"codec": str(stream.codec_context.name or ""), "width": index.width,
             "height": index.height}
    verdicts: dict[int, tuple[bool, list[int] | None]] = {}

    def judged(j: int) -> tuple[bool, list[int] | None]:
        """(decoded with another's parameters, [pictures that differ, compared] or None) of
        the joined recording j that has an own header, judged once: another codec or size
        than the frames the decoder gives is wrong whatever its pictures; the same, with
        other header bytes, is wrong where its first pictures decoded both ways differ."""
        if j not in verdicts:
            mine, got = own[j], sizes[j] or (index.width, index.height)
            other = mine["codec"] != shown["codec"] or bool(
                mine["width"] and mine["height"] and (mine["width"], mine["height"]) != got)
            compare = not other and bool(played.get(j)) and time.process_time() <= deadline
            pictures = _pictures_differ(source, heads[j][0], index, starts[j], played[j],
                                        index.segments[j][1], deadline) if compare else None
            verdicts[j] = (other or pictures is not None, pictures)
        return verdicts[j]

    def seen(f) -> None:
        if f.pts is None:
            return
        i = first_of.get(int(f.pts))
        if i is None:
            return
        n = shared.get(i, 0)  # frames that share one pts come out in their order
        shared[i] = n + 1
        if n and (i + n >= index.frame_count or index.pts[i + n] != index.pts[i]):
            return  # more frames than the index has at this pts
        i += n
        j = bisect_right(starts, i) - 1
        if j < 0 or i >= ends[j] or out[i]:
            return
        out[i] = True
        if sizes[j] is None:
            sizes[j] = (int(f.width), int(f.height))
        if j in played and (i - starts[j] < PICTURES or (
                len(played[j]) < PICTURES and min(played[j], default=PICTURES) >= PICTURES)):
            # its first pictures; where none of them comes out (all its first packets give
            # no frame), the first that do: QA s26 T6's H.264 High with 3 B-frames, played
            # with a Baseline recording's header, gave two frames, 3.04 and 4.24 s in, a green
            # picture and another, shown as footage and exported as frame 202
            played[j][i - starts[j]] = luma(f)
        for m in range(j):  # recordings before it: over once REORDER frames came after
            if begun[m] and not done[m]:
                after[m] += 1
                if after[m] >= REORDER:
                    done[m], settled[m] = True, ends[m]
        if done[j]:
            return
        if getattr(f, "is_corrupt", False):
            damaged[i] = True
            clean[j] = 0
        else:
            clean[j] += 1
        recent[j] = [*recent[j][-(REORDER - 1):], i]
        # decodes: settled up to the frames still due. Unless its own header says it is
        # decoded with another's parameters: then it is decoded to its end, so that its
        # packets that give no frame are not counted as frames (a veryfast + slow join
        # counted 288 frames where ffprobe counts 236: 52 such packets after the window)
        if clean[j] >= WINDOW_FRAMES and not (j in own and judged(j)[0]):
            done[j], settled[j] = True, min(recent[j])

    ended = False
    # every recording the index read: from their own headers past the demuxer's end
    for pk in joined_chain.demux(container, [stream], source):
        if pk.size:
            off = tl.shift(pk.pts, pk.dts)
            seg = tl.segment - 1  # recordings after the first: 0..k-1
            if all(done):
                break
            if not decoding:
                p = pk.pts if pk.pts is not None else pk.dts
                decoding = (pk.is_keyframe and p is not None and p + off in resume
                            and not all(done[max(0, seg):])) or \
                    (0 <= seg < k and not done[seg])  # no keyframe before it: from here
            if not decoding:
                continue
            if 0 <= seg < k:
                begun[seg] = True
            if off:
                pk.pts = None if pk.pts is None else pk.pts + off
                pk.dts = None if pk.dts is None else pk.dts + off
        elif not decoding:
            continue  # the end of the stream: nothing being decoded to drain
        try:
            frames = pk.decode()
        except av.error.MemoryError:
            raise
        except av.error.FFmpegError:
            frames = []  # no frame from it: the frames after it say so
        for f in frames:
            seen(f)
        if decoding and pk.size and 0 <= seg < k and done[seg] and \
                all(d or not b for b, d in zip(begun, done, strict=True)):
            decoding = False  # judged: demuxed on to the next keyframe before a join
        if time.process_time() > deadline:
            for j in range(k):
                if begun[j] and not done[j] and recent[j]:
                    settled[j] = min(recent[j])  # how far it got
                    if damaged[recent[j][-1]] or clean[j] == 0:
                        # damaged when stopped: damaged to its end
                        cut[j] = done[j] = True
                        damaged[recent[j][-1] + 1:ends[j]] = True
                        settled[j] = recent[j][-1] + 1
                    elif verdicts.get(j, (False, None))[0]:
                        done[j] = True  # judged (no footage); its frames after: uncounted
            break
    else:
        ended = True  # the stream ended: what did not come out never will
        for j in range(k):
            if begun[j] and not done[j]:
                done[j], settled[j] = True, ends[j]
    missing = np.zeros(index.frame_count, bool)
    for j in range(k):
        if begun[j]:
            missing[starts[j]:settled[j]] = ~out[starts[j]:settled[j]]
    # the recordings decoded with another's parameters (their own header says so): every
    # frame of them that comes out is no footage
    wrong = np.zeros(index.frame_count, bool)
    params: dict[int, dict] = {}
    for j, mine in own.items():
        bad, pictures = judged(j)
        if not bad:
            continue  # decodes as its own header does, or not compared
        got = sizes[j] or (index.width, index.height)
        params[j] = {"own": mine, "shown": {**shown, "width": got[0], "height": got[1]}}
        if pictures is not None:
            params[j]["pictures"] = pictures
        wrong[starts[j]:ends[j]] = ~missing[starts[j]:ends[j]]
    # the last recording decoded to the end of the stream: the index's last frame out is the
    # last that decodes
    to_end = begun[-1] and settled[-1] == index.frame_count and (ended or bool(out[-1]))
    open_ = [j for j in range(k) if not done[j]]
    found = {"stretches": _stretches(index, starts, missing, damaged, wrong, cut, params),
             "unchecked": int(index.pts[min(starts[open_[0]], index.frame_count - 1)])
             if open_ else None, "to_end": bool(to_end)}
    if not missing.any():
        return index, found
    kept = index.without(np.nonzero(missing)[0].tolist())
    return replace(kept, undecodable=index.undecodable), found


def _own_headers(source: str | None, index: FrameIndex, starts: list[int], ends: list[int],
                 deadline: float) -> dict[int, tuple[int, dict]]:
    """Where each joined recording's own header starts in the file and the parameters it
    gives (`joined_headers`), by its number among the joined ones (0: the second recording
    of the file), for the first MAX_HEADERS whose header is found between the packets before
    it and its own first packet. The position is kept for `_pictures_differ`, which decodes
    from it (it searched the same bytes again)."""
    found: dict[int, tuple[int, dict]] = {}
    if not isinstance(source, str) or not os.path.isfile(source):
        return found
    pos = index.pos
    for j, (a, b) in enumerate(zip(starts[:MAX_HEADERS], ends, strict=False)):
        if time.process_time() > deadline:
            break
        mine, before = pos[a:b], pos[:a]
        mine, before = mine[mine >= 0], before[before >= 0]
        if not mine.shape[0] or not before.shape[0]:
            continue
        hi, lo = int(mine.min()), int(before.max())
        at = header_start(source, lo, hi)
        got = own_parameters(source, at) if at is not None else None
        if at is not None and got is not None:
            found[j] = (at, got)
    return found


def _pictures_differ(source, at: int, index: FrameIndex, a: int, played: dict, off: int,
                     deadline: float | None = None) -> list[int] | None:
    """[pictures that differ, pictures compared] of a joined recording (its frames from `a`
    in the index, shifted by `off`; its own header at byte `at` of `source`) whose first
    pictures as the file plays them (`played`, by place in the recording) are not those its
    own header decodes, frame for frame by presentation time; None when they are the same
    (an honest join of one encoder setting whose header bytes differ: another level) or none
    could be compared."""
    when = {int(index.pts[a + n]) - off: pic for n, pic in played.items()}
    mine = own_pictures(source, at, set(when), deadline)
    pairs = [(mine[t], pic) for t, pic in sorted(when.items()) if t in mine]
    bad = sum(differs(x, y) for x, y in pairs)
    return [bad, len(pairs)] if bad else None


def _stretches(index: FrameIndex, starts: list[int], missing: np.ndarray,
               damaged: np.ndarray, wrong: np.ndarray, cut: list[bool],
               params: dict[int, dict]) -> list[dict]:
    """Each run of frames of one joined recording that give no frame or a damaged one (the
    first 100): `recording` (2 for the first joined), `start_pts` (its first frame's shifted
    pts), `end_pts` (the next whole frame's, None: to the end of the video), `until_pts`
    (where its packets end: `end_pts`; at the end of the video, the last packet's pts plus one
    of the recording's frame intervals when that packet gives no frame, else None: the
    measured end), `packets` (frames of the index in it), `none` (packets that gave no
    frame), `damaged` (frames marked damaged), `wrong` (frames of a recording decoded with
    another's parameters, not marked damaged), `params` (that recording's own header and the
    parameters it is decoded with: codec, width, height; None), `cut` (the probe's budget
    ended the decode inside it)."""
    tick = max(1, round(index.frame_duration_s / float(index.time_base or 1)))
    bad = (missing | damaged | wrong).astype(np.int8)
    edges = np.diff(np.concatenate(([0], bad, [0])))
    runs = zip(np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0], strict=True)
    out: list[dict] = []
    for a, b in runs:
        cuts = [int(a), *(s for s in starts if a < s < b), int(b)]  # a recording per stretch
        for lo, hi in zip(cuts, cuts[1:], strict=False):
            j = bisect_right(starts, lo) - 1
            none = int(missing[lo:hi].sum())
            flagged = int((damaged[lo:hi] & ~missing[lo:hi]).sum())
            d = np.diff(index.pts[lo:hi])
            d = d[d > 0]  # the recording's own frame interval, else the index's
            step = int(median(d)) if d.shape[0] else tick
            out.append({"recording": j + 2, "start_pts": int(index.pts[lo]),
                        "end_pts": int(index.pts[hi]) if hi < index.frame_count else None,
                        "until_pts": int(index.pts[hi]) if hi < index.frame_count else
                        int(index.pts[-1]) + step if missing[hi - 1] else None,
                        "packets": hi - lo, "none": none, "damaged": flagged,
                        "wrong": hi - lo - none - flagged, "params": params.get(j),
                        "cut": cut[j]})
            if len(out) >= 100:
                return out
    return out
