"""Elementary streams: a video stream with no container around it (`.h264`, `.hevc`, `.m2v`).

Why they are read apart (session 46, issue 12): such a file keeps no times. FFmpeg's parser
counts a packet's times from the start of the file (MPEG-1/2) or gives none (H.264, HEVC), so
after a seek they are not the index's: raw MPEG-2 read 63 of 150 frames, 36 of 64 moments
wrong, and raw H.264 and HEVC, whose packets have no times at all, had no frame. Their frames
are known by their place in the decoder's output after the keyframe's packet
(`FrameIndex.ordinal`, as AVI's are), the file is sought by bytes
(`ExactDecoder.BYTE_SEEK_FORMATS`), and packets without times are one frame of the stream's
rate apart in decode order, where ffmpeg shows them.

A frame's place after a keyframe is its place in the video only when nothing decoded after the
keyframe is shown before it. An open-GOP keyframe (H.264's I-frame with a recovery point,
HEVC's CRA or BLA with leading pictures) has such pictures; a decode that starts there drops
them, and every frame after it was numbered 2-4 frames early (x264 `open-gop`, x265
`open-gop`). Where the stream keeps no times, only a closed keyframe (IDR) is a place to start
decoding (`closed_keyframe`); reads between two IDRs decode from the IDR before them.
"""

from __future__ import annotations

import re
from fractions import Fraction

ELEMENTARY_FORMATS = frozenset({"h264", "hevc", "mpegvideo", "vvc", "cavsvideo", "avs2",
                                "avs3", "vc1", "h261", "h263"})
_START = re.compile(rb"\x00\x00\x01")
# H.264 NAL types of a picture's slices: 1 (non-IDR), 5 (IDR)
_H264_SLICES = {1, 5}
# HEVC NAL types of a random access picture's slices (16-21) and of other pictures' (0-9):
# only IDR_N_LP (20) and BLA_N_LP (18) have no leading picture; IDR_W_RADL (19) may have
# decodable ones, which the decoder shows first (`ExactDecoder._identify` then refuses the
# place and decodes from the start), so it is a place to start too
_HEVC_CLOSED = {18, 19, 20}
_HEVC_SLICES = set(range(0, 10)) | set(range(16, 22))


def elementary(container) -> bool:
    """Whether `container` (an open PyAV container) is an elementary stream."""
    return bool(set(str(container.format.name or "").split(",")) & ELEMENTARY_FORMATS)


def tick_step(stream, tb: Fraction) -> int:
    """One frame at the stream's rate (25 fps where FFmpeg guesses none), in ticks of `tb`."""
    rates = (stream.guessed_rate, stream.average_rate)
    rate = next((float(r) for r in rates if r and float(r) > 0), 25.0)
    return max(1, round(1.0 / (rate * float(tb))))


def closed_keyframe(codec: str | None, data: bytes) -> bool:
    """Whether the keyframe packet `data` (Annex B) of an H.264 or HEVC stream is an IDR, whose
    decode shows nothing before it (other codecs: True). Its first picture slice decides."""
    if codec not in ("h264", "hevc"):
        return True
    for m in _START.finditer(data):
        at = m.end()
        if at >= len(data):
            break
        if codec == "h264":
            kind = data[at] & 0x1F
            if kind in _H264_SLICES:
                return kind == 5
        else:
            kind = data[at] >> 1 & 0x3F
            if kind in _HEVC_SLICES:
                return kind in _HEVC_CLOSED
    return True
