"""The sample tables of an MP4/MOV (and a Matroska's attachments), read in Python before any
decoder sees the file.

FFmpeg's MP4 demuxer builds its whole sample index when the file is opened, from the counts
the file states, whatever the file's size (our frame cap applies only later, to our own
index). A 284 KB MP4 whose `stsz` says 10,000,000 samples of 1 byte (12 bytes of table)
made the video process take 1,012 MB and 49 s, and under a 512 MiB cap the report said "no
frame of the video can be decoded" (session 16 hostile pass): a false reason, and a memory
bomb. So the counts are read here first (box headers and the `stsz` tables only) and two
shapes are refused with the reason:

- a track whose samples add up to more bytes than the file holds (a recorder writes each
  sample's bytes once; samples that are not in the file cannot be footage);
- more samples in all tracks than the index cap (`VideoLimits.max_index_frames`, 2,097,152:
  9.7 h of 60 fps video alone), whose index alone would not fit the memory bound (a table of
  4,000,000 1-byte samples, its bytes in the file: 68 s and a "header damaged" under 512 MiB).
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

MP4_FIRST = {b"ftyp", b"moov", b"mdat", b"free", b"skip", b"wide", b"pnot", b"uuid"}
# boxes on the way from `moov` to a track's sample tables
_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}
_MAX_BOXES = 100_000  # per level, as `truncation._mp4_truncation` walks the top level
_CHUNK = 1 << 20  # stsz entries read at a time (4 MiB)


def _boxes(fh, start: int, end: int):
    """(type, body start, body end) of each box between `start` and `end` (clipped to it)."""
    pos, n = start, 0
    while pos + 8 <= end and n < _MAX_BOXES:
        fh.seek(pos)
        head = fh.read(16)
        if len(head) < 8:
            return
        size, kind = struct.unpack(">I4s", head[:8])
        body = pos + 8
        if size == 1:
            if len(head) < 16:
                return
            size, body = struct.unpack(">Q", head[8:16])[0], pos + 16
        elif size == 0:
            size = end - pos
        if size < body - pos:
            return
        yield kind, body, min(pos + size, end)
        pos += size
        n += 1


def _stsz(fh, body: int, end: int) -> tuple[int, int, bool]:
    """(sample count, bytes of all samples, one size for all) of one `stsz` box (entries
    past its end: not counted in the bytes, as no reader can use them)."""
    fh.seek(body)
    head = fh.read(12)
    if len(head) < 12:
        return 0, 0, False
    size, count = struct.unpack(">4xII", head)
    if size:
        return count, size * count, True
    total, done, pos = 0, 0, body + 12
    room = max(0, (end - pos) // 4)
    while done < min(count, room):
        n = min(_CHUNK, count - done, room - done)
        fh.seek(pos + 4 * done)
        data = fh.read(4 * n)
        total += int(np.frombuffer(data[: len(data) // 4 * 4], ">u4").sum(dtype=np.uint64))
        done += n
    return count, total, False


# FFmpeg's MOV demuxer indexes uncompressed audio (a sound track whose `stts` is one run of
# duration 1: each PCM sample one tick) by chunk, not by sample, in pieces of at least 160
# samples (`mov_build_index`: 1,024 samples, or whole frames of `samples_per_frame`, which is
# 160 for GSM and at most 1,024 otherwise). A capture card's MOV with 48 kHz PCM lists
# 2,400,000 samples in 50 s: counted as samples, the index cap refused it whole (QA s26 T1);
# FFmpeg holds ~2,400 entries for it. The pieces are counted from `stsc` as FFmpeg walks it,
# so a table stating 4e9 samples in a chunk is still a bomb refused.
_MIN_PIECE = 160


def _full_box(fh, body: int, end: int, entry: int, limit: int) -> tuple[int, bytes]:
    """(entry count, the first min(count, limit) entries' bytes) of a full box whose body is
    version/flags then a count then `entry`-byte entries (the entries cut at the box's end)."""
    fh.seek(body)
    head = fh.read(8)
    if len(head) < 8:
        return 0, b""
    count = struct.unpack(">4xI", head)[0]
    n = min(count, limit, max(0, (end - body - 8) // entry))
    return count, fh.read(n * entry)


def _audio_pieces(fh, boxes: dict[bytes, tuple[int, int]], cap: int) -> int | None:
    """How many index entries FFmpeg makes for a track it demuxes by chunk, or None when it
    indexes this track sample by sample (not a sound track, or its `stts` is not one run of
    duration 1, or its sample sizes are a table)."""
    if b"stts" not in boxes or b"stsc" not in boxes:
        return None
    count, raw = _full_box(fh, *boxes[b"stts"], 8, 1)
    if count != 1 or len(raw) < 8 or struct.unpack(">II", raw)[1] != 1:
        return None
    chunks = 0
    for kind, width in ((b"stco", 4), (b"co64", 8)):
        if kind in boxes:
            chunks = max(chunks, _full_box(fh, *boxes[kind], width, 0)[0])
    runs, raw = _full_box(fh, *boxes[b"stsc"], 12, cap + 1)
    if runs > cap:
        return cap + 1  # more runs than the cap: FFmpeg holds each one
    table = np.frombuffer(raw[: len(raw) // 12 * 12], ">u4").reshape(-1, 3).astype(np.int64)
    first, per_chunk = table[:, 0], table[:, 1]
    pieces = -(-per_chunk // _MIN_PIECE)  # ceil: a chunk's samples in pieces of >= 160
    if len(first) and first[0] == 1 and bool(np.all(np.diff(first) > 0)):
        # run i holds the chunks from first[i] up to first[i + 1] (the last: to the end)
        upto = np.minimum(np.append(first[1:], chunks + 1), chunks + 1)
        spans = np.maximum(upto - np.minimum(first, chunks + 1), 0)
        return int(min(int((spans * pieces).sum()), cap + 1)) + len(first)
    # runs out of order (FFmpeg then stays on one run for the rest): the most any run allows
    return int(min(chunks * int(pieces.max(initial=0)), cap + 1)) + len(first)


def _tracks(fh, size: int):
    """For each `trak` in the first `moov`: its handler type and the (body, end) of the
    sample-table boxes this module reads. FFmpeg skips any later `moov` ("duplicated MOOV
    atom"); so does this walk, which ends at the first: a fragmented MP4's 100,000
    `moof`/`mdat` pairs after it are not walked in Python (session 27 hostile sweep)."""
    wanted = {b"hdlr", b"stsz", b"stts", b"stsc", b"stco", b"co64"}
    for kind, b, e in _boxes(fh, 0, size):
        if kind != b"moov":
            continue
        for tkind, tb, te in _boxes(fh, b, e):
            if tkind != b"trak":
                continue
            found: dict[bytes, tuple[int, int]] = {}
            stack = [(tb, te)]
            while stack:
                sb, se = stack.pop()
                for k, bb, ee in _boxes(fh, sb, se):
                    if k in _CONTAINERS:
                        stack.append((bb, ee))
                    elif k in wanted and k not in found:
                        found[k] = (bb, ee)
            handler = b""
            if b"hdlr" in found:
                fh.seek(found[b"hdlr"][0] + 8)
                handler = fh.read(4)
            yield handler, found
        return


# A track whose samples add up to more bytes than the file holds is a truncated file (an
# upload or a recording cut short, its index in front: `+faststart`), or a table that lies.
# FFmpeg indexes every sample the table states (session 16: 1,000,000 one-byte samples, 351 MB
# and 62-82 s), so such a table is read only up to this many samples in the track (an index of
# ~100 MB at most: 24 min of 60 fps video with its AAC sound, 36 min at 30 fps); the probe
# then reads what the file holds and `video.truncated` says where it ends (QA s23 Q2: a
# 30 s MP4 cut at 55 % was refused whole where 16.2 s of it decode).
MAX_SAMPLES_NOT_IN_FILE = 262_144


def sample_table_problem(path: Path, max_samples: int) -> str | None:
    """Why this MP4/MOV's sample tables cannot be handed to the demuxer, or None (fine, or
    not an MP4). Reads box headers and the sample tables only. A track's "samples" are the
    entries FFmpeg's index makes for it: one per sample, or per piece of a chunk for
    uncompressed sound (`_audio_pieces`)."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            if fh.read(8)[4:8] not in MP4_FIRST:
                return None
            total = 0
            for track, (handler, boxes) in enumerate(_tracks(fh, size), 1):
                if b"stsz" not in boxes:
                    continue
                count, nbytes, constant = _stsz(fh, *boxes[b"stsz"])
                if constant and handler == b"soun":
                    pieces = _audio_pieces(fh, boxes, max_samples)
                    count = count if pieces is None else pieces
                total += count
                if nbytes > size and count > MAX_SAMPLES_NOT_IN_FILE:
                    return (f"track {track}'s sample table lists {count:,} samples of "
                            f"{nbytes:,} bytes in all, in a file of {size:,} bytes: samples "
                            "that are not in the file; not read")
                if total > max_samples:
                    return (f"the sample tables list {total:,} samples or more (limit "
                            f"{max_samples:,}): the index alone would exceed the memory "
                            "bound; not read")
    except OSError:
        return None
    return None


# Matroska attachments (fonts, covers, any file): FFmpeg's demuxer reads each one whole into
# memory when the file is opened, several times over at the peak: a 100 MB attachment took
# ffprobe to 460 MB and the workstation's video process to 754 MB (session 16 hostile pass).
# Honest attachments are subtitle fonts and cover pictures, a few MB.
MAX_ATTACHMENTS = 32 << 20
_SEGMENT, _ATTACHMENTS, _CLUSTER = 0x18538067, 0x1941A469, 0x1F43B675


def _ebml_id(fh) -> int | None:
    first = fh.read(1)
    if not first:
        return None
    length = 1
    while length <= 4 and not first[0] & (0x80 >> (length - 1)):
        length += 1
    if length > 4:
        return None
    rest = fh.read(length - 1)
    return int.from_bytes(first + rest, "big") if len(rest) == length - 1 else None


def _ebml_size(fh) -> int | None:
    first = fh.read(1)
    if not first:
        return None
    length = 1
    while length <= 8 and not first[0] & (0x80 >> (length - 1)):
        length += 1
    if length > 8:
        return None
    rest = fh.read(length - 1)
    if len(rest) < length - 1:
        return None
    value = first[0] & (0xFF >> length)
    for x in rest:
        value = (value << 8) | x
    return None if value == (1 << (7 * length)) - 1 else value


def attachments_problem(path: Path, limit: int = MAX_ATTACHMENTS) -> str | None:
    """Why this Matroska's attachments are too large to hand to the demuxer, or None. Walks
    the segment's top-level elements up to the first cluster (where muxers put attachments);
    reads element headers only."""
    try:
        with open(path, "rb") as fh:
            if fh.read(4) != b"\x1a\x45\xdf\xa3":
                return None
            head = _ebml_size(fh)
            if head is None:
                return None
            fh.seek(head, 1)
            if _ebml_id(fh) != _SEGMENT:
                return None
            _ebml_size(fh)  # the segment's own size (unknown when recorded live): not needed
            total = 0
            for _ in range(_MAX_BOXES):
                kind = _ebml_id(fh)
                size = _ebml_size(fh)
                if kind is None or size is None or kind == _CLUSTER:
                    break
                if kind == _ATTACHMENTS:
                    total += size
                fh.seek(size, 1)
            if total > limit:
                return (f"the file carries {total:,} bytes of attachments (limit {limit:,}): "
                        "the demuxer would hold them in memory several times over; not read")
    except OSError:
        return None
    return None
