"""Is the video file cut short? Read from the container's own structure: an MP4 box, the AVI
RIFF chunk or the Matroska segment that claims more bytes than the file has.

Why apart from `probe`: this is exact and reads a few bytes in Python, in the calling process
(no decoder); `probe` runs the rest in the isolated video process and asks this first.
"""

from __future__ import annotations

import struct
from pathlib import Path

from .joined_headers import ebml_vint
from .mp4_tables import MP4_FIRST

_MP4_FIRST = MP4_FIRST


def _mp4_truncation(fh, size: int) -> str | None:
    pos, seen_moov, boxes = 0, False, 0
    while pos < size and boxes < 100_000:
        fh.seek(pos)
        head = fh.read(16)
        if len(head) < 8:
            return f"an MP4 box header at byte {pos} is cut off by the end of the file"
        box_size, kind = struct.unpack(">I4s", head[:8])
        if box_size == 1:
            if len(head) < 16:
                return f"an MP4 box header at byte {pos} is cut off by the end of the file"
            box_size = struct.unpack(">Q", head[8:16])[0]
        elif box_size == 0:
            box_size = size - pos  # extends to the end of the file
        if box_size < 8:
            return f"MP4 box at byte {pos} has an impossible size {box_size}"
        if kind == b"moov":
            seen_moov = True
        if pos + box_size > size:
            name = kind.decode("latin-1")
            return (f"MP4 box {name!r} at byte {pos} claims {box_size} bytes but the file ends "
                    f"{pos + box_size - size} bytes short")
        pos += box_size
        boxes += 1
    if not seen_moov:
        return "the MP4 has no 'moov' box (the index written when recording ends)"
    return None


def _mkv_truncation(fh, size: int) -> str | None:
    cut = "the Matroska header is cut off by the end of the file"
    fh.seek(4)
    got = ebml_vint(fh.read(8), 0, False)
    if got is None:
        return cut
    hsize, hlen = got
    if hsize < 0:
        return None
    pos = 4 + hlen + hsize
    fh.seek(pos)
    if fh.read(4) != b"\x18\x53\x80\x67":
        return None  # not the layout we know; let the decoder judge
    got = ebml_vint(fh.read(8), 0, False)
    if got is None:
        return cut
    ssize, slen = got
    if ssize < 0:
        return None  # live-recorded, size unknown
    end = pos + 4 + slen + ssize
    if end > size:
        return (f"the Matroska segment claims {ssize} bytes but the file ends {end - size} "
                "bytes short")
    return None


#: The RIFF size an AVI muxer writes first and fills in at the end (FFmpeg's `ff_start_tag`):
#: still there, the muxer never went back (written to a pipe, or stopped before it could).
AVI_UNKNOWN_SIZE = 0xFFFFFFFF


def avi_unfinished(path: Path) -> bool:
    """Whether `path` is an AVI whose header was never filled in (RIFF size `AVI_UNKNOWN_SIZE`).
    Its lengths are placeholders (FFmpeg writes 0x40000000 frames) and the duration FFmpeg
    reports is its estimate from them: an honest 20 s MJPEG + PCM AVI written to a pipe "said
    60248.6 s" (a false `video.header_mismatch`) and "claimed 4294967295 bytes" (a false
    `video.truncated`, an error), as a Matroska of unknown size never did (session 18)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(12)
    except OSError:
        return False
    return head[:4] == b"RIFF" and head[8:12] == b"AVI " and \
        struct.unpack("<I", head[4:8])[0] == AVI_UNKNOWN_SIZE


def container_truncation(path: Path) -> str | None:
    """Why the file is cut short, from its container structure, or None (complete/unknown)."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(12)
            if head[:4] == b"RIFF" and head[8:12] == b"AVI ":
                riff = struct.unpack("<I", head[4:8])[0]
                if riff == AVI_UNKNOWN_SIZE:
                    return None  # written to a pipe, size unknown (`avi_unfinished`)
                if 8 + riff > size:
                    return (f"the AVI RIFF chunk claims {riff} bytes but the file ends "
                            f"{8 + riff - size} bytes short")
                return None
            if head[:4] == b"\x1a\x45\xdf\xa3":
                return _mkv_truncation(fh, size)
            if head[4:8] in _MP4_FIRST:
                return _mp4_truncation(fh, size)
    except OSError:
        return None
    return None
