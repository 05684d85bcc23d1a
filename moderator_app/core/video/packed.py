"""DivX-style packed B-frames in MPEG-4 Part 2, told from the packets while the index is read.

Only the index's building (`index.build_index`) uses it, in the isolated video process: it
reads packet bytes, never decodes, and imports nothing of FFmpeg.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

# MPEG-4 Part 2 (DivX, Xvid): a picture (VOP) starts with this code; no other bytes of the
# stream can hold it (start codes are never emulated)
_VOP_START = b"\x00\x00\x01\xb6"
# The largest packet FFmpeg takes for a placeholder (N-VOP: a picture not coded, "show the
# one held back"; mpeg4_unpack_bframes_bsf.c MAX_NVOP_SIZE)
_MAX_NVOP_SIZE = 19
# The most B-frames a packed packet holds after its keyframe (DivX and Xvid pack one; FFmpeg
# warns at two): a packet claiming more is not a place to start decoding
_MAX_LEAD = 4
# The encoder's user data of a packed stream, as FFmpeg's decoder reads it (mpeg4videodec.c
# decode_user_data: "DivX%dBuild%d%c" or "DivX%db%d%c", packed when the letter is 'p')
_DIVX_PACKED = re.compile(rb"\x00\x00\x01\xb2DivX\d+(?:Build|b)\d+p")


class Packed:
    """DivX-style packed B-frames in an MPEG-4 Part 2 stream, seen in its keyframe packets.

    Video for Windows takes one picture per packet in decode order, so DivX and Xvid (and
    ffmpeg's libxvid writing AVI) put a B-frame in the packet of the picture decoded before
    it, and an N-VOP placeholder packet where it would have been. At a group's start the
    keyframe's packet holds the I picture and the B-frame shown before it: a decode from
    that packet shows the keyframe's picture one frame later than the packet's place, and
    the placeholder after it (which xvid flags a keyframe too) holds no picture at all.
    Taking the packet's place for the keyframe's showed every frame after the first group
    one late (QA session 20, M6: 38 of 40 evidence frames of real Xvid runs, 32 of 34 of a
    synthetic one). Nor are the packets' pts the frames' (a packet of two pictures has one,
    and decoded frames come out with them reordered: a B-frame at its P-frame's time), so a
    packed stream's frames are known by their place in the decoder's output
    (`FrameIndex.ordinal`) in any container: remuxed to Matroska, it stays packed."""

    def __init__(self, stream) -> None:
        self.mpeg4 = str(stream.codec_context.name or "") == "mpeg4"
        extradata = stream.codec_context.extradata if self.mpeg4 else None
        self.packed = bool(extradata and _DIVX_PACKED.search(bytes(extradata)))
        self.leads: list[tuple[int, int]] = []
        self.first = True

    def keyframe(self, pk, p: int) -> bool:
        """Note the keyframe packet `pk` (shifted pts `p`); False for one that is no place to
        start decoding: a placeholder, or a packet of more pictures than packing puts in one.
        Only a stream that says it is packed is read (FFmpeg's decoder unpacks no other), so
        other MPEG-4 streams cost nothing more; the first keyframe packet carries the user
        data when the header does not."""
        if not self.mpeg4 or not (self.packed or self.first):
            return True
        data = bytes(pk)
        if self.first:
            self.first = False
            self.packed = self.packed or bool(_DIVX_PACKED.search(data))
            if not self.packed:
                return True
        vops = data.count(_VOP_START)
        if vops > 1:
            if vops - 1 > _MAX_LEAD:
                return False
            self.leads.append((p, vops - 1))
            return True
        return not (vops == 1 and len(data) <= _MAX_NVOP_SIZE)


# How far into a packet its first picture's header is looked for: a keyframe packet of a
# stream without global headers opens with the sequence headers and the encoder's user data
# (about 40 bytes for Xvid and DivX) before it
_HEAD = 512
# vop_coding_type (the 2 bits after the VOP start code): a B-VOP is shown before the picture
# decoded just before it; I, P and S (sprite) VOPs are references, shown in decode order
B_VOP = 2
NO_VOP = 255


def vop_type(pk) -> int:
    """The coding type of the first picture in the packet `pk` (0 I, 1 P, 2 B, 3 S), NO_VOP
    when its first bytes hold none. Reads at most _HEAD bytes of it."""
    head = bytes(memoryview(getattr(pk, "packet", pk))[:_HEAD])  # joined_chain.Shifted too
    i = head.find(_VOP_START)
    return head[i + 4] >> 6 if 0 <= i < len(head) - 4 else NO_VOP


def restamped(pts: Sequence[int], types: Sequence[int]) -> tuple[list[int], list[int],
                                                                 float] | None:
    """(order, stamps, step) for an unpacked MPEG-4 Part 2 stream whose packets (`pts` and
    `types`, `vop_type`, in decode order) are stamped in decode order, not display order;
    None for any other (an honest stream, whose frames' times rise in display order, is left
    as it is; so is one with a packet of no picture header, or a B-VOP with no reference
    before it).

    libxvid written by ffmpeg straight to Matroska, MP4, MOV or NUT (global headers: not
    packed) stamps each packet with the time of the source frame being fed when it came
    out: I 0, P 3, B 4, B 5, P 6 ... for the pictures I 0, B 1, B 2, P 3 (QA session 21, N1).
    Read by pts, the B-frames' pictures were placed late and the P-frames' early, and
    Matroska's guessed decode times went back at every P-frame ("203 recordings joined",
    pictures up to 31 frames early). No packet's time is its picture's for sure: a
    reference's is, in a run of B-frames of the usual length, but not where the encoder
    holds one more B-frame (`-bf 3`: every later one 1 frame late, 25 of 48 moments) nor at
    a keyframe after B-frames (1 late); the times of the packets k - D later (D the delay)
    are right until the encoder's delay changes (45 of 48 at `-bf 3`). What the stamps do
    say is the rate: frame k (display order) is shown at the first frame's time plus k
    times the references' rate, `step` (ticks a frame), as the same stream in AVI is
    (frames known by their place, `FrameIndex.ordinal`): 0 of 48 moments off on 36 of
    libxvid's shapes in MKV, MP4, MOV and NUT (`-bf 1/2/3`, `-g 12/50`, 25 and 40 fps).

    `order`: the packets in display order (a B-VOP is shown before the reference decoded
    just before it: the decoder's own rule). `stamps`: the references' own times with the
    B-frames between two of them spaced evenly: rising, and each keyframe's its packet's
    (the index finds a keyframe's frame by it)."""
    n = len(pts)
    if n < 3 or len(types) != n or NO_VOP in types or B_VOP not in types:
        return None
    if any(int(b) <= int(a) for a, b in pairwise(pts)):
        return None  # not stamped in decode order
    order: list[int] = []
    held: int | None = None
    for j, t in enumerate(types):
        if t == B_VOP:
            if held is None:
                return None  # a B-frame with no reference before it
            order.append(j)
        else:
            if held is not None:
                order.append(held)
            held = j
    if held is not None:
        order.append(held)
    shown = [int(pts[j]) for j in order]
    if all(b > a for a, b in pairwise(shown)):
        return None
    refs = [i for i, j in enumerate(order) if types[j] != B_VOP]
    if len(refs) < 2 or any(shown[b] - shown[a] < b - a for a, b in pairwise(refs)):
        return None  # references whose times do not rise a tick a frame
    stamps = list(shown)
    for a, b in pairwise(refs):
        for i in range(a + 1, b):
            stamps[i] = shown[a] + (shown[b] - shown[a]) * (i - a) // (b - a)
    # The rate over long baselines from the first picture (stamped with its own time): a
    # reference comes out when its source frame is fed or later, never earlier (`-bf 3`: a
    # third of them a frame late, a keyframe after B-frames 1-3 late), so the references on
    # time make the lowest slope, and the rate is theirs (within half a frame of it); over
    # half the stream Matroska's 1 ms ticks (two frames at 30 fps 66 or 67 apart: a median
    # of neighbours' 33.5 drifted 3 frames in 24 s) move it by under a tick in all
    far = [r for r in refs[1:] if r >= refs[-1] // 2] or refs[1:]
    low = min((shown[r] - shown[0]) / r for r in far)
    on_time = [r for r in far if shown[r] - shown[0] - r * low < low / 2]
    step = sum(shown[r] - shown[0] for r in on_time) / sum(on_time)  # their mean rate
    return order, stamps, step


def packed_times(pts: Sequence[int]) -> list[int]:
    """Each frame's time in a packed stream of packets with times `pts` (decode order, one
    frame a packet): the time of the packet after its own, the last one a packet interval
    after its packet.

    A packed stream keeps Video for Windows' one packet a frame, but FFmpeg's decoder gives
    frame k out when it is handed packet k + 1 (a packed B-frame is decoded with the packet
    after its own). In AVI that is the time ffmpeg shows it at, and the packets' times have
    holes the encoder's delay left (libxvid: two empty chunks after the first keyframe): by
    the next packet's time every frame is where it was encoded (QA s21's packed AVIs: 0
    frames off). Remuxed (`-c copy` to MP4 or MOV) the stream keeps those holes in its
    timestamps; by each packet's own time frame 1 came 2 frames early, and every later one
    with it (QA s21 N2: 34 of 34 events). Read by the next packet's, the remux shows what the
    AVI shows."""
    n = len(pts)
    if n < 2:
        return [int(p) for p in pts]
    step = sorted(int(b) - int(a) for a, b in pairwise(pts))[(n - 1) // 2]
    return [int(p) for p in pts[1:]] + [int(pts[-1]) + max(1, step)]


def later_leads(leads: Sequence[tuple[int, int]], pts: Sequence[int],
                types: Sequence[int]) -> list[tuple[int, int]]:
    """`Packed.leads` of a packed stream whose packets' times are their decode order (out of
    AVI: `-c copy` to MP4 or MOV), each with the B-VOP packets right after the keyframe's
    packet added: with 2 B-frames the keyframe's packet holds the first one shown before its
    picture and the next packet the second. In AVI FFmpeg's parser dates the packets in
    display order and the keyframe's packet lands one place later by itself; out of it every
    read from a keyframe of `-bf 2 -g 12` was one frame late (43 of 48 moments)."""
    at = {int(p): j for j, p in enumerate(pts)}
    out = []
    for p, n in leads:
        j = at.get(int(p))
        extra = 0
        while j is not None and j + 1 + extra < len(types) and types[j + 1 + extra] == B_VOP \
                and extra < _MAX_LEAD:
            extra += 1
        out.append((p, n + extra))
    return out
