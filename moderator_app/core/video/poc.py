"""The order a decoder shows H.264 / HEVC pictures in, read from the bitstream (no decoding).

Why (session 47, issue 12): a program stream (MPEG-PS) stamps a pack, not a frame, so the
frames that start inside a pack already stamped carry no time at all, and with B-frames their
packets come in decode order, not the order they are shown in. Session 46 numbered such a
stream one frame a tick in decode order from its first stamp; that is only right for a
constant rate from the file's start (the lead then kept it to that): a stream stamped from
10 s, one that drops frames (VFR) or one with a 3 s gap were shown the wrong frame at 26-54 of
60 moments (review s46 R6), read by their stamps alone. The
picture order count (POC) in each picture's first slice header is the order the decoder shows
the pictures in; with it the stamped frames keep their own times and the others are placed
between them (`partly.PartlyStamped`).

Read: H.264 POC types 0, 1 and 2 of frame pictures (a field picture, PAFF, gives up: None),
HEVC's slice_pic_order_cnt_lsb of the base layer, a picture with pic_output_flag 0 or a RASL
picture of the first CRA (neither is shown) is no frame. An MMCO 5 (a POC reset inside a
sequence, which x264 and x265 never write) is not read: the stamps then disagree with the
order, and the caller reads the stream by its stamps (`partly._times`). Anything that does
not parse gives up (None) rather than guess: untrusted bytes never raise out of here.
"""

from __future__ import annotations

import re
from array import array

_START = re.compile(rb"\x00\x00\x01")
# the head of a NAL unit read: a slice header and a parameter set fit in it
_HEAD = 2048
# the NAL units of a packet read before its first slice (x264's IDR: SPS, PPS, SEI, slice)
_NALS = 64
# H.264 profiles whose SPS carries chroma format, bit depths and scaling lists
_H264_HIGH = {100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135}


class _Unreadable(Exception):
    """The bits end or say something this reader does not follow."""


class _Bits:
    """An RBSP (emulation prevention bytes removed) read bit by bit, MSB first."""

    def __init__(self, data: bytes) -> None:
        rbsp = data.replace(b"\x00\x00\x03", b"\x00\x00")
        self.value = int.from_bytes(rbsp, "big")
        self.size = len(rbsp) * 8
        self.at = 0

    def u(self, n: int) -> int:
        if n == 0:
            return 0
        if self.at + n > self.size:
            raise _Unreadable
        self.at += n
        return (self.value >> (self.size - self.at)) & ((1 << n) - 1)

    def ue(self) -> int:
        zeros = 0
        while self.u(1) == 0:
            zeros += 1
            if zeros > 31:
                raise _Unreadable
        return (1 << zeros) - 1 + self.u(zeros)

    def se(self) -> int:
        v = self.ue()
        return (v + 1) // 2 if v & 1 else -(v // 2)


def _nals(data):
    """The first `_HEAD` bytes of each Annex B NAL unit of a packet, in order (lazily: a
    reader stops at the first picture slice), at most `_NALS` of them: a picture's first
    slice comes after a few parameter sets and SEIs, and a hostile packet of a million start
    codes and no slice would be read a million times."""
    starts = _START.finditer(data)
    at = next(starts, None)
    for _ in range(_NALS):
        if at is None:
            return
        nxt = next(starts, None)
        end = len(data) if nxt is None else nxt.start()
        yield bytes(data[at.end():min(at.end() + _HEAD, end)])
        at = nxt
    raise _Unreadable


# a packet's place in the order shown: (sequence, POC); None: it shows no picture
Place = tuple[int, int] | None


class _H264:
    """H.264 pictures in decode order (8.2.1 of the standard): each one's `Place`."""

    def __init__(self) -> None:
        self.sps: dict[int, dict] = {}
        self.pps: dict[int, tuple[int, bool]] = {}
        self.seq = 0  # + 1 at each IDR (POC starts again)
        self.prev_msb = self.prev_lsb = 0
        self.prev_offset = self.prev_frame_num = 0

    def _sps(self, b: _Bits) -> None:
        profile = b.u(8)
        b.u(16)
        sid = b.ue()
        s: dict = {"sep": False}
        if profile in _H264_HIGH:
            chroma = b.ue()
            if chroma == 3:
                s["sep"] = bool(b.u(1))
            b.ue()
            b.ue()
            b.u(1)
            if b.u(1):  # scaling matrices: skipped, their length is in them
                for i in range(12 if chroma == 3 else 8):
                    if b.u(1):
                        last = nxt = 8
                        for _ in range(16 if i < 6 else 64):
                            if nxt:
                                nxt = (last + b.se() + 256) % 256
                            last = nxt or last
        s["frame_num_bits"] = b.ue() + 4
        s["type"] = b.ue()
        if s["type"] == 0:
            s["lsb_bits"] = b.ue() + 4
        elif s["type"] == 1:
            s["always_zero"] = bool(b.u(1))
            s["non_ref"] = b.se()
            s["top_bottom"] = b.se()
            n = b.ue()
            if n > 255:
                raise _Unreadable
            s["cycle"] = [b.se() for _ in range(n)]
        elif s["type"] != 2:
            raise _Unreadable
        b.ue()
        b.u(1)
        b.ue()
        b.ue()
        s["frame_mbs_only"] = bool(b.u(1))
        if s["frame_num_bits"] > 16 or s.get("lsb_bits", 4) > 16:
            raise _Unreadable
        self.sps[sid] = s

    def picture(self, data) -> Place:
        for nal in _nals(data):
            if not nal:
                continue
            kind, ref = nal[0] & 0x1F, nal[0] >> 5 & 3
            b = _Bits(nal[1:])
            if kind == 7:
                self._sps(b)
            elif kind == 8:
                pid, sid = b.ue(), b.ue()
                b.u(1)
                self.pps[pid] = (sid, bool(b.u(1)))
            elif kind in (1, 5):
                return self._slice(b, kind == 5, ref)
        return None

    def _slice(self, b: _Bits, idr: bool, ref: int) -> Place:
        b.ue()
        b.ue()
        sid, bottom_present = self.pps[b.ue()]
        s = self.sps[sid]
        if s["sep"]:
            b.u(2)
        frame_num = b.u(s["frame_num_bits"])
        if not s["frame_mbs_only"] and b.u(1):
            raise _Unreadable  # a field picture (PAFF): two packets a frame, not read
        if idr:
            b.ue()
            self.seq += 1
            self.prev_msb = self.prev_lsb = self.prev_offset = self.prev_frame_num = 0
        if s["type"] == 0:
            lsb = b.u(s["lsb_bits"])
            bottom = b.se() if bottom_present else 0
            half = 1 << (s["lsb_bits"] - 1)
            msb = self.prev_msb
            if lsb < self.prev_lsb and self.prev_lsb - lsb >= half:
                msb += 2 * half
            elif lsb > self.prev_lsb and lsb - self.prev_lsb > half:
                msb -= 2 * half
            poc = msb + lsb + min(0, bottom)
            if ref:
                self.prev_msb, self.prev_lsb = msb, lsb
            return self.seq, poc
        offset = 0 if idr else self.prev_offset + (
            1 << s["frame_num_bits"] if self.prev_frame_num > frame_num else 0)
        self.prev_offset, self.prev_frame_num = offset, frame_num
        if s["type"] == 2:
            poc = 0 if idr else 2 * (offset + frame_num) - (ref == 0)
            return self.seq, poc
        cycle = s["cycle"]
        d0 = d1 = 0
        if not s["always_zero"]:
            d0 = b.se()
            d1 = b.se() if bottom_present else 0
        absolute = offset + frame_num if cycle else 0
        if ref == 0 and absolute > 0:
            absolute -= 1
        expected = 0
        if absolute > 0:
            count, within = divmod(absolute - 1, len(cycle))
            expected = count * sum(cycle) + sum(cycle[:within + 1])
        if ref == 0:
            expected += s["non_ref"]
        top = expected + d0
        return self.seq, min(top, top + s["top_bottom"] + d1)


class _HEVC:
    """HEVC pictures of the base layer in decode order (8.3.1 of the standard)."""

    def __init__(self) -> None:
        self.sps: dict[int, tuple[bool, int]] = {}
        self.pps: dict[int, tuple[int, bool, bool, int]] = {}
        self.seq = 0  # + 1 at each IDR (POC starts again)
        self.prev = 0  # POC of the previous picture of temporal layer 0
        self.rasl_shown = False  # the last IRAP shows its RASL pictures (a CRA mid-stream)
        self.started = False  # a picture was read

    def _sps(self, b: _Bits) -> None:
        b.u(4)
        sub = b.u(3)
        b.u(1)
        b.u(88)
        b.u(8)
        present = [(b.u(1), b.u(1)) for _ in range(sub)]
        if sub:
            b.u(2 * (8 - sub))
        for profile, level in present:
            b.u(88 if profile else 0)
            b.u(8 if level else 0)
        sid = b.ue()
        sep = False
        if b.ue() == 3:
            sep = bool(b.u(1))
        b.ue()
        b.ue()
        if b.u(1):
            for _ in range(4):
                b.ue()
        b.ue()
        b.ue()
        bits = b.ue() + 4
        if bits > 16:
            raise _Unreadable
        self.sps[sid] = (sep, bits)

    def picture(self, data) -> Place:
        for nal in _nals(data):
            if len(nal) < 2:
                continue
            kind, layer, tid = nal[0] >> 1 & 0x3F, (nal[0] & 1) << 5 | nal[1] >> 3, \
                (nal[1] & 7) - 1
            if layer:
                continue
            b = _Bits(nal[2:])
            if kind == 33:
                self._sps(b)
            elif kind == 34:
                pid, sid = b.ue(), b.ue()
                dependent, output = bool(b.u(1)), bool(b.u(1))
                self.pps[pid] = (sid, dependent, output, b.u(3))
            elif kind <= 9 or 16 <= kind <= 21:
                if not b.u(1):
                    raise _Unreadable  # a picture's first slice segment comes first
                return self._slice(b, kind, tid)
        return None

    def _slice(self, b: _Bits, kind: int, tid: int) -> Place:
        irap = 16 <= kind <= 21
        if irap:
            b.u(1)
        sid, _, output_present, extra = self.pps[b.ue()]
        sep, bits = self.sps[sid]
        b.u(extra)
        b.ue()
        shown = bool(b.u(1)) if output_present else True
        if sep:
            b.u(2)
        lsb = 0 if kind in (19, 20) else b.u(bits)
        fresh = kind in (16, 17, 18, 19, 20) or (kind == 21 and not self.started)
        self.started = True
        if irap:
            self.rasl_shown = not fresh
        if fresh:
            self.seq += 1
            poc = lsb
        else:
            half = 1 << (bits - 1)
            prev_lsb = self.prev & (2 * half - 1)
            msb = self.prev - prev_lsb
            if lsb < prev_lsb and prev_lsb - lsb >= half:
                msb += 2 * half
            elif lsb > prev_lsb and lsb - prev_lsb > half:
                msb -= 2 * half
            poc = msb + lsb
        if tid == 0 and not 6 <= kind <= 9 and not (kind <= 14 and kind % 2 == 0):
            self.prev = poc
        if kind in (8, 9) and not self.rasl_shown:
            shown = False  # a RASL picture of a CRA decoded first: the decoder drops it
        return (self.seq, poc) if shown else None


def pictures(codec: str, packets) -> tuple[array, array] | None:
    """Where each packet (Annex B bytes, any buffer) of an H.264 or HEVC stream in decode
    order is shown: its sequence (from 0 at each IDR; -1: the packet shows no picture) and
    its POC in it, as machine integers (a stream's every packet: no Python object each).
    None when the stream says something this reader does not follow (it orders nothing)."""
    reader = _H264() if codec == "h264" else _HEVC() if codec == "hevc" else None
    if reader is None:
        return None
    seq, poc = array("q"), array("q")
    try:
        for data in packets:
            place = reader.picture(data)
            seq.append(-1 if place is None else place[0])
            poc.append(0 if place is None else place[1])
    except (_Unreadable, KeyError, IndexError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return seq, poc
