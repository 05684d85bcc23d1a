"""DivX-style packed B-frames in MPEG-4 Part 2, told from the packets while the index is read.

Only the index's building (`index.build_index`) uses it, in the isolated video process: it
reads packet bytes, never decodes, and imports nothing of FFmpeg.
"""

from __future__ import annotations

import re

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
