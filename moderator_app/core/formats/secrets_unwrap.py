"""What a base64 run's bytes hold when they are no text as they stand: UTF-16 text (a
PowerShell `-EncodedCommand`), a gzip / zlib stream, or nothing until the run's letters are
rotated back (`base64 | tr A-Za-z N-ZA-Mn-za-m`, rot13, or any other of the 25 rotations) (`gzip -c f | base64 -w0`, Python's
`base64.b64encode(zlib.compress(...))`); read by `withhold` and `verify` alike (session 41,
spell; issue 15, QA s40 T6 h40_01; session 42, spell: QA s40 h40_09, QA s41 h41_10).

`pwsh -EncodedCommand JABlAG4AdgA6...` is base64 of the command's UTF-16LE bytes: every other
byte is zero, so the decoded run was no text (`secrets_text.is_text`) and the key in it
(`$env:GH_REFRESH_TOKEN = 'ghr_...'`) was read only by the byte patterns, which a key spelled
with zeros between its characters never matches: named by neither command, published by
`withhold`. `H4sI...` (gzip) and `eJ...` (zlib) are compressed bytes: the key is there to anyone
who runs `base64 -d | gunzip`, and was likewise named by neither.

A rotated run (QA s41 h41_07) is base64 still, of bytes that are no text: each rotation is
tried on the run's first 16 characters, and the run is decoded whole only under a rotation
whose first 12 bytes are printable (binary data's are, by chance, about once in 10^5).

One table (`_WRAPPERS`): a wrapper is how it is told and how it is undone; what it undoes to is
read as the run's text only when it is text (the bytes of an honest compressed picture stay
bytes, read as before).

Bounded: a stream is told by its header (gzip's `1f 8b 08`, zlib's `78` and a valid check
byte) and inflated to its first 4 KiB, and on only when they are text, the stream is under 8
KiB and the rest holds a key's marker, to 64x its compressed size and 64 KiB (`decompressobj`'s
`max_length`: a decompression bomb costs that much, never more; session 43, spell, review s42
R4: a 4 KiB bound published a key after 4 KiB of comments); a cut or damaged stream gives what
inflated before the damage. UTF-16 is
told by a zero among the bytes' first four, then by counting zero bytes at C speed
(`bytes.count` of a slice).
"""

from __future__ import annotations

import binascii
import bz2
import lzma
import zlib
from collections.abc import Callable

import zstandard

from moderator_app.core.formats import secrets_text
from moderator_app.core.formats.secrets import markers_in
from moderator_app.core.formats.zstream import ZSTD_MAGIC

UTF16 = "a base64 run of UTF-16 text in it is decoded"
INFLATED = "a base64 run of gzip or zlib data in it is inflated"  # (xz, bzip2, zstd, raw deflate)
_INFLATE_HEAD = 1 << 12  # bytes a stream is inflated to first (all, unless they are text)
# A stream whose first 4 KiB are text is inflated on, to 64x its compressed size and 64 KiB
# (review s42 R4: a key after 5 KiB of comments, 57x, was published): text deflates 3-10x, a
# bomb's 1,000x (64 MiB of zeros in 64 KB), so the ratio reads an honest file and a bomb costs
# 64x its size; a line's text streams are bounded by its text left (1 MiB: 256 heads at most)
_INFLATE_RATIO = 64
_TAIL_MAX = 1 << 16
# A stream is inflated past its head only when it is under 8 KiB (a config, a note, an env
# file): inflating each of e_b64gz's 12 KB blobs whole (28 KB of text a
# line, no key) cost it 1.14x (8 pairs); larger streams are read to 4 KiB, as before
_TAIL_BLOB = 8 << 10
# a key past the head: one of `scan_line`'s markers, or a run of 16 of a key's characters (any
# family's key, `LTAI` + 12 letters too: FAMILIES' prefixes are `secrets_read`'s, which imports
# this module); prose's words are shorter
_TOKEN = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "_-") else 32
               for c in range(256))
_KEY_RUN = b"a" * 16
_GZIP_HEAD = b"\x1f\x8b\x08"
_XZ_HEAD = b"\xfd7zXZ\x00"
# bzip2 (`BZh`, the block size in 100 kB, a block's magic: QA s43 h43_05) decodes a block whole
# before its first byte (a 49-byte stream of 40 MB of zeros: 3.5 ms, where gzip's 4 KiB head
# costs ~10 us), so a line pays each stream's block size out of `WORK_MAX` (`views`' budget):
# four streams of `bzip2 -9` a line at most, a line of 15,000 such bombs ~14 ms, not 53 s
_BZIP2_BLOCK = b"1AY&SY"
WORK_MAX = 4 << 20
# zstd (QA s43 h43_06): its window bounded (`zstd -19` of a pipe asks 8 MiB), one block (128
# KiB of output at most) decoded for the first 4 KiB: ~25 us a 1,300-byte stream of 40 MB
_ZSTD_WINDOW = 1 << 23
# raw deflate (no header: `zlib.deflateRaw`, PHP's gzdeflate; QA s42 h42_06) is tried on the
# run's first `_RAW_PROBE` bytes inflated: a picture's first byte is no deflate block (PNG's
# 0x89 a stored block whose length check fails, JPEG's 0xFF and GIF's `G` the reserved type),
# random bytes give 16 printable bytes about once in 10^7
_RAW_PROBE = 16
ROTATED = "a base64 run with its letters rotated (rot13) in it is decoded"
_UPPER, _LOWER = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz"
# (the 25 rotations back, rot13 first: `tr`'s everyday one; URL-safe base64's `-_` as `+/`)
_ROTATIONS = tuple(bytes.maketrans(_UPPER + _LOWER + b"-_", _UPPER[n:] + _UPPER[:n]
                                   + _LOWER[n:] + _LOWER[:n] + b"+/")
                   for n in (13, *range(1, 13), *range(14, 26)))
_HEAD = 16  # characters of a run tried under each rotation (12 bytes)
_PRINTABLE = bytes(range(32, 127)) + b"\t\n\r"
_LEAST = 8  # characters of UTF-16 text (a key is longer)
_STANDARD = _UPPER + _LOWER + b"0123456789+/"


def _allowed(place: int) -> frozenset[int]:
    """The 6-bit values a character at `place` (0-2) of a 4-character group can have when the
    bytes it helps spell are printable, whatever the group's other characters: byte 0 is
    v0 << 2 | v1 >> 4, byte 1 (v1 & 15) << 4 | v2 >> 2, byte 2 (v2 & 3) << 6 | v3."""
    def ok(values: range) -> bool:
        return any(b in _PRINTABLE for b in values)
    spans = (lambda v: (range(v << 2, (v << 2) + 4),),
             lambda v: (range((v & 15) << 4, ((v & 15) << 4) + 16),
                        range(v >> 4, 256, 4)),
             lambda v: (range((v & 3) << 6, ((v & 3) << 6) + 64), range(v >> 2, 256, 16)))
    return frozenset(v for v in range(64) if all(ok(r) for r in spans[place](v)))


def _rotation_masks(place: int) -> tuple[int, ...]:
    """For each byte, the rotations (bit i: `_ROTATIONS[i]`) under which it is a character
    `_allowed` at `place`; a byte out of base64's alphabet allows every rotation."""
    allowed = _allowed(place)
    every = (1 << len(_ROTATIONS)) - 1
    out = []
    for c in range(256):
        mask = every
        if c in _UPPER + _LOWER + b"0123456789+/-_":
            mask = sum(1 << i for i, t in enumerate(_ROTATIONS)
                       if _STANDARD.index(t[c]) in allowed)
        out.append(mask)
    return tuple(out)


# `unrotated`'s first test asked of the 25 rotations at once (a test each of them needs, not
# the test): the rotations under which each of the head's characters, at its place in its
# group, can spell printable bytes, intersected over the head; none left, and no rotation's 12
# bytes are all printable. QA s42 e_mime76's ~100 base64 runs a line each cost 25 decodes,
# ~7 us (session 43, speed); a run of random bytes is left with a rotation about once in 200.
_MASKS = tuple(_rotation_masks(p) for p in range(3))
_PLACES = tuple((g + p, _MASKS[p]) for g in range(0, _HEAD, 4) for p in range(3))


def _utf16(data: bytes) -> bytes | None:
    """The text of UTF-16 bytes (little- or big-endian, a byte order mark allowed) whose
    characters are all under 256 (each high byte zero: a key is ASCII), as Latin-1 bytes
    re-encoded UTF-8; None otherwise."""
    if data[:4] in (b"\xff\xfe\0\0", b"\0\0\xfe\xff"):
        return _utf32(data[4:])  # (UTF-32's byte order marks)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        data = data[2:]
    if len(data) < 2 * _LEAST:
        return None
    whole = data[:len(data) // 2 * 2]
    for zeros, chars in ((whole[1::2], whole[0::2]), (whole[0::2], whole[1::2])):
        if zeros.count(0) == len(zeros) and chars.count(0) == 0:
            return chars.decode("latin-1").encode("utf-8")
    return _utf32(data)


def _utf32(data: bytes) -> bytes | None:
    """The text of UTF-32 bytes (`iconv -t UTF-32LE`, or big-endian; session 43, spell, QA s42
    h42_05), as `_utf16` reads UTF-16: three zero bytes a character."""
    whole = data[:len(data) // 4 * 4]
    if len(whole) < 4 * _LEAST:
        return None
    for at in (0, 3):  # (little-endian: each character's first byte; big-endian: its last)
        chars = whole[at::4]
        if chars.count(0) == 0 and whole.count(0) == 3 * len(chars):
            return chars.decode("latin-1").encode("utf-8")
    return None


def _is_deflated(data: bytes) -> bool:
    """Whether `data` opens as a gzip member or a zlib stream (`78`, deflate with a window of
    32 KiB, and the header's check: its two bytes a multiple of 31; RFC 1950)."""
    return data[:3] == _GZIP_HEAD or (
        len(data) > 2 and data[0] == 0x78 and (data[0] << 8 | data[1]) % 31 == 0)


def _inflated(data: bytes, limit: int = _TAIL_MAX, wbits: int = 47) -> bytes | None:
    """What a gzip or zlib stream inflates to (what inflated before a cut or damaged stream's
    damage), or None when nothing does: its first `_INFLATE_HEAD` bytes, and when they are
    text and the rest may hold a key (`_KEY_RUN`, `secrets.markers_in`), on to `_INFLATE_RATIO`
    times `data`'s size (`data` under `_TAIL_BLOB`), `_TAIL_MAX` and `limit` (the line's text
    left, `secrets_decode.views`) at most. `wbits`: 47 a 32 KiB window, either header told
    from the data; -15 raw deflate."""
    inflate = zlib.decompressobj(wbits)
    try:
        got = inflate.decompress(data, _INFLATE_HEAD)
        more = min(_INFLATE_RATIO * len(data), _TAIL_MAX, limit) - len(got) \
            if len(data) <= _TAIL_BLOB else 0
        if more > 0 and inflate.unconsumed_tail and _text_head(got):
            tail = inflate.decompress(inflate.unconsumed_tail, more)
            if markers_in(tail) or _KEY_RUN in tail.translate(_TOKEN):
                got += tail  # (past its head, a stream is read where a key may be)
    except zlib.error:
        return None
    return got or None


def _text_head(got: bytes) -> bool:
    """Whether a stream's first bytes `got` are text, a character cut at their end dropped."""
    cut = len(got)
    for i in range(len(got) - 1, max(len(got) - 4, -1), -1):
        if got[i] < 0x80 or got[i] >= 0xC0:
            cut = i if got[i] >= 0xC0 else cut
            break
    return secrets_text.is_text(got[:cut])


def _unxz(data: bytes, limit: int) -> bytes | None:
    """The first `_INFLATE_HEAD` bytes an xz stream (`xz -c f | base64`; session 43, spell,
    QA s42 h42_08) decompresses to, as `_inflated`'s head, or None."""
    try:
        return lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(data, _INFLATE_HEAD) or None
    except lzma.LZMAError:
        return None


def _is_bzip2(data: bytes) -> bool:
    """Whether `data` opens as a bzip2 stream: `BZh`, a block size 1-9, a block's magic."""
    return len(data) >= 10 and data[:3] == b"BZh" and 0x31 <= data[3] <= 0x39 \
        and data[4:10] == _BZIP2_BLOCK


def _unbzip2(data: bytes, limit: int, budget: list[int]) -> bytes | None:
    """The first `_INFLATE_HEAD` bytes a bzip2 stream decodes to, or None: its block size
    (`BZh9`: 900 kB) paid out of the line's `budget` first, None when that is spent."""
    cost = (data[3] - 0x30) * 100_000
    if budget[0] < cost:
        return None
    budget[0] -= cost
    try:
        return bz2.BZ2Decompressor().decompress(data, _INFLATE_HEAD) or None
    except (OSError, EOFError, ValueError):
        return None


def _unzstd(data: bytes, limit: int, budget: list[int]) -> bytes | None:
    """The first `_INFLATE_HEAD` bytes a zstd frame decodes to (what decoded before a cut or
    damaged frame's damage), or None."""
    reader = _zstd().stream_reader(data, read_across_frames=False)
    got = b""
    try:
        while len(got) < _INFLATE_HEAD and (piece := reader.read(_INFLATE_HEAD - len(got))):
            got += piece
    except zstandard.ZstdError:
        pass
    return got or None


_ZSTD: list[zstandard.ZstdDecompressor] = []


def _zstd() -> zstandard.ZstdDecompressor:
    """One decompressor a process (its context reused: ~2 us a stream, 5 with a new one)."""
    if not _ZSTD:
        _ZSTD.append(zstandard.ZstdDecompressor(max_window_size=_ZSTD_WINDOW))
    return _ZSTD[0]


def _is_raw_deflate(data: bytes) -> bool:
    """Whether `data` may be a raw deflate stream of text: its first block's type no reserved
    one and a stored block's length check kept (JPEG's 0xFF, PNG's 0x89: no inflater made),
    then its first `_RAW_PROBE` inflated bytes printable (of its first 512 bytes: no copy of
    a screenshot's tail as the inflater's unconsumed input)."""
    if len(data) < 5:
        return False
    kind = data[0] >> 1 & 3
    if kind == 3 or (kind == 0 and (data[1] ^ data[3] != 255 or data[2] ^ data[4] != 255)):
        return False
    try:
        head = zlib.decompressobj(-15).decompress(data[:512], _RAW_PROBE)
    except zlib.error:
        return False
    return len(head) == _RAW_PROBE and not head.translate(None, _PRINTABLE)


def _is_utf16(data: bytes) -> bool:
    """Whether `data` may be UTF-16 or UTF-32 of Latin-1 text: a zero among its bytes 2-3, or
    a byte order mark (one test before any slice of the run)."""
    return 0 in data[2:4] or data[:2] in (b"\xff\xfe", b"\xfe\xff", b"\0\0")


# (how, whether the bytes may be so wrapped, how they are undone to at most so many bytes):
# a new wrapper is a row
# (a new wrapper is a row; undone with the line's text left and its `WORK_MAX` budget)
_Undo = Callable[[bytes, int, list[int]], bytes | None]
_WRAPPERS: tuple[tuple[str, Callable[[bytes], bool], _Undo], ...] = (
    (UTF16, _is_utf16, lambda data, limit, budget: _utf16(data)),
    (INFLATED, _is_deflated, lambda data, limit, budget: _inflated(data, limit)),
    (INFLATED, lambda data: data[:6] == _XZ_HEAD, lambda data, limit, budget: _unxz(data, limit)),
    (INFLATED, _is_bzip2, _unbzip2),
    (INFLATED, lambda data: data[:4] == ZSTD_MAGIC, _unzstd),
    (INFLATED, _is_raw_deflate, lambda data, limit, budget: _inflated(data, limit, -15)),
)


def may_unwrap(data: bytes) -> bool:
    """Whether a wrapper of `_WRAPPERS` tells `data` as its own (a header, a magic, UTF-16's
    zeros, raw deflate's printable head): a wrapped blob's first line is read on whole."""
    return any(told(data) for _, told, _ in _WRAPPERS)


def unwrapped(data: bytes, is_text: Callable[[bytes], bool], run: bytes = b"",
              limit: int = _TAIL_MAX, budget: list[int] | None = None
              ) -> tuple[str, bytes] | None:
    """(how, text) of a base64 run's bytes `data` (the run `run`) that are no text as they
    stand but text once unwrapped (`_WRAPPERS`; `limit`: the line's text left to read;
    `budget`: the line's decompression work left, `WORK_MAX` a line) or rotated back
    (`unrotated`), or None."""
    budget = [WORK_MAX] if budget is None else budget
    for how, told, undo in _WRAPPERS:
        if told(data) and (got := undo(data, limit, budget)) is not None and (
                is_text(got) if len(got) <= _INFLATE_HEAD else _text_head(got[:_INFLATE_HEAD])):
            return how, got  # (a stream inflated past its head: its head was text)
    got = unrotated(run, is_text)
    return None if got is None else (ROTATED, got)


def unrotated(run: bytes, is_text: Callable[[bytes], bool]) -> bytes | None:
    """The text base64 `run` decodes to with its letters rotated back (the module's
    docstring), or None."""
    if len(run) < _HEAD:
        return None
    head = run[:_HEAD]
    left = -1
    for at, masks in _PLACES:
        left &= masks[head[at]]
        if not left:
            return None  # (no rotation can pass the test below: `_MASKS`)
    for table in _ROTATIONS:
        try:
            if binascii.a2b_base64(head.translate(table)).translate(None, _PRINTABLE):
                continue
            body = run.rstrip(b"=").translate(table)
            got = binascii.a2b_base64(body + b"=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            continue
        if is_text(got):
            return got
    return None
