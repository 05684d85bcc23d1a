"""A Matroska file written again at another TimecodeScale (test data for issue 12's joins of
another clock).

FFmpeg's Matroska muxer always writes a TimecodeScale of 1,000,000 ns (1 ms ticks); mkvmerge
(`--timestamp-scale`), GStreamer and others may write another, and mkvmerge is not installed
on the development machine. So a file ffmpeg wrote (`-write_crc32 0`, clusters of at most
`-cluster_time_limit` ms so that every block's 16-bit relative time fits at the new scale) is
parsed as an EBML tree and written again with every time in the new ticks: the Segment
Info's TimecodeScale and Duration, each Cluster's Timecode, each block's relative time,
BlockDuration, ReferenceBlock and CueTime. Sizes are written 8 bytes wide, so the Cues' and
SeekHead's positions are worked out again once (CueRelativePosition dropped: it pointed into
the old layout). `drop_index`: no Cues, no SeekHead (a capture stopped hard)."""

from __future__ import annotations

import struct

_SEGMENT, _INFO, _CLUSTER, _CUES, _SEEKHEAD = (0x18538067, 0x1549A966, 0x1F43B675,
                                               0x1C53BB6B, 0x114D9B74)
_MASTERS = {_SEGMENT, _SEEKHEAD, 0x4DBB, _INFO, 0x1654AE6B, 0xAE, 0xE0, _CLUSTER, 0xA0,
            _CUES, 0xBB, 0xB7, 0x1254C367, 0x7373, 0x63C0, 0x67C8, 0x1A45DFA3}


def _vint(d: bytes, i: int, marker: bool) -> tuple[int, int]:
    n = 9 - d[i].bit_length()
    v = int.from_bytes(d[i:i + n], "big")
    if not marker:
        v &= (1 << (7 * n)) - 1
        if v == (1 << (7 * n)) - 1:
            v = -1  # unknown size
    return v, n


def _parse(d: bytes, lo: int, hi: int) -> list[list]:
    """[id, children or bytes, byte where it starts] for each element in [lo, hi)."""
    out = []
    while lo < hi:
        eid, a = _vint(d, lo, True)
        size, b = _vint(d, lo + a, False)
        s = lo + a + b
        e = hi if size < 0 else s + size
        out.append([eid, _parse(d, s, e) if eid in _MASTERS else d[s:e], lo])
        lo = e
    return out


def _ser(el: list) -> bytes:
    body = el[1]
    data = b"".join(_ser(c) for c in body) if isinstance(body, list) else body
    return el[0].to_bytes((el[0].bit_length() + 7) // 8, "big") + \
        (len(data) | (1 << 56)).to_bytes(8, "big") + data


def _uint(v: int, width: int = 0) -> bytes:
    return v.to_bytes(width or max(1, (v.bit_length() + 7) // 8), "big")


def _retime(el: list, k: float) -> None:
    """Every time inside a Cluster or Info element in the new ticks (`k` new ticks an old)."""
    for c in el[1]:
        if el[0] == _INFO and c[0] == 0x2AD7B1:
            continue  # TimecodeScale: set by the caller
        if el[0] == _INFO and c[0] == 0x4489:  # Duration, a float in ticks
            f = struct.unpack(">d" if len(c[1]) == 8 else ">f", c[1])[0]
            c[1] = struct.pack(">d", f * k)
        elif c[0] == 0xE7:  # the Cluster's Timecode
            c[1] = _uint(round(int.from_bytes(c[1], "big") * k))
        elif c[0] in (0xA3, 0xA0):  # SimpleBlock, BlockGroup
            for b in [c] if c[0] == 0xA3 else c[1]:
                if b[0] in (0xA3, 0xA1):  # its relative time, after the track number
                    _, n = _vint(b[1], 0, False)
                    rel = struct.unpack(">h", b[1][n:n + 2])[0]
                    b[1] = b[1][:n] + struct.pack(">h", round(rel * k)) + b[1][n + 2:]
                elif b[0] == 0x9B:  # BlockDuration
                    b[1] = _uint(round(int.from_bytes(b[1], "big") * k))
                elif b[0] == 0xFB:  # ReferenceBlock, signed
                    v = int.from_bytes(b[1], "big", signed=True)
                    b[1] = round(v * k).to_bytes(8, "big", signed=True)


def rescale(data: bytes, scale_ns: int, drop_index: bool = False) -> bytes:
    """`data` (one Matroska file ffmpeg wrote) with a TimecodeScale of `scale_ns`."""
    k = 1_000_000 / scale_ns
    top = _parse(data, 0, len(data))
    seg = next(e for e in top if e[0] == _SEGMENT)
    seg_data = seg[2] + 4 + _vint(data, seg[2] + 4, False)[1]
    body = [e for e in seg[1] if e[0] != 0xEC and  # no Void
            not (drop_index and e[0] in (_CUES, _SEEKHEAD))]
    positions = []  # [element, its old position in the segment]: Cues' and SeekHead's
    for el in body:
        if el[0] == _INFO:
            for c in el[1]:
                if c[0] == 0x2AD7B1:
                    c[1] = _uint(scale_ns)
            _retime(el, k)
        elif el[0] == _CLUSTER:
            _retime(el, k)
        elif el[0] == _CUES:
            for point in el[1]:
                for c in point[1]:
                    if c[0] == 0xB3:  # CueTime
                        c[1] = _uint(round(int.from_bytes(c[1], "big") * k), 8)
                    elif c[0] == 0xB7:  # CueTrackPositions
                        c[1] = [p for p in c[1] if p[0] != 0xF0]
                        positions += [[p, int.from_bytes(p[1], "big")] for p in c[1]
                                      if p[0] == 0xF1]
        elif el[0] == _SEEKHEAD:
            for s in el[1]:
                positions += [[p, int.from_bytes(p[1], "big")] for p in s[1] if p[0] == 0x53AC]
    for p, _ in positions:
        p[1] = _uint(0, 8)  # 8 bytes wide: the layout does not depend on the values
    new_at, at = {}, 0
    for el in body:
        new_at[el[2] - seg_data] = at
        at += len(_ser(el))
    for p, old in positions:
        p[1] = _uint(new_at.get(old, 0), 8)
    seg_body = b"".join(_ser(e) for e in body)
    head = b"".join(_ser(e) for e in top if e[0] != _SEGMENT)
    return head + _ser([_SEGMENT, seg_body, 0])
