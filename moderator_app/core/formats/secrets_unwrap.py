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

A compressed stream (gzip, zlib, xz, bzip2, zstd, a ZIP, raw deflate) is read by
`secrets_inflate` (session 45, spell): whole, or refused as too large to read; what it inflates
to is read as text when it is text, else as bytes and its printable stretches (`stream_views`).
UTF-16 is told by a zero among the bytes' first four, then by counting zero bytes at C speed
(`bytes.count` of a slice).
"""

from __future__ import annotations

import binascii
from collections.abc import Callable

from moderator_app.core.formats.secrets_bytes import _printable
from moderator_app.core.formats.secrets_inflate import (  # noqa: F401 - (its names, as before)
    INFLATED,
    REFUSED,
    SPENT,
    TOO_LARGE,
    Budget,
    _is_bzip2,
    _is_deflated,
    _is_raw_deflate,
    inflated,
    line_budget,
    told,
)
from moderator_app.core.formats.secrets_text import is_text as _is_text

UTF16 = "a base64 run of UTF-16 text in it is decoded"
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


def _is_utf16(data: bytes) -> bool:
    """Whether `data` may be UTF-16 or UTF-32 of Latin-1 text: a zero among its bytes 2-3, or
    a byte order mark (one test before any slice of the run)."""
    return 0 in data[2:4] or data[:2] in (b"\xff\xfe", b"\xfe\xff", b"\0\0")


def may_unwrap(data: bytes) -> bool:
    """Whether `data` may be UTF-16 text or opens as a compressed stream (a header, a magic,
    raw deflate's printable head): a wrapped blob's first line is read on whole."""
    return _is_utf16(data) or told(data)


def stream_views(data: bytes, column: int, run: bytes, budget: Budget | None = None,
                 raw: bool = True) -> list[tuple[str, bytes, bool, int]] | None:
    """(how, view, whether it is text, column) of what a compressed stream `data` (a run's
    decoded bytes; `run`, the run as written) inflates to, or None when it is none
    (`secrets_inflate.told`): its text; or its bytes and their printable stretches (a key
    after 3 KB of noise in a zstd data URI, QA s44 h44_14); or, when it has more to give than
    it may (`secrets_inflate.inflated`), `TOO_LARGE` with the run, which refuses the line
    (`SPENT` when the file's allowance refused it, not the line's budget). `raw`: False, a
    stream with a header only (hex runs)."""
    budget = line_budget() if budget is None else budget
    opened = inflated(data, budget, raw)
    if opened is None:
        return None
    got, whole = opened
    if not whole:
        return [(SPENT if budget.spent else TOO_LARGE, run, False, column)]
    if _is_text(got) if len(got) <= _TEXT_HEAD else _text_head(got[:_TEXT_HEAD]):
        return [(INFLATED, got, True, column)]
    printable = _printable(got)
    return [(INFLATED, got, False, column)] + ([(INFLATED, printable, True, column)]
                                                if printable else [])


# A stream's text is told by its first 4 KiB (its tail is read as text whatever it holds: the
# text detectors read bytes too), not by all of it: `is_text` of e_b64gz's 28 KB of inflated
# text cost ~0.5 ms a line (session 45)
_TEXT_HEAD = 1 << 12


def _text_head(got: bytes) -> bool:
    """Whether a stream's first bytes `got` are text, a character cut at their end dropped."""
    cut = len(got)
    for i in range(len(got) - 1, max(len(got) - 4, -1), -1):
        if got[i] < 0x80 or got[i] >= 0xC0:
            cut = i if got[i] >= 0xC0 else cut
            break
    return _is_text(got[:cut])


def unwrapped(data: bytes, is_text: Callable[[bytes], bool], run: bytes = b""
              ) -> tuple[str, bytes] | None:
    """(how, text) of a base64 run's bytes `data` (the run `run`) that are no text as they
    stand but UTF-16 or UTF-32 text, or text once rotated back (`unrotated`), or None."""
    if _is_utf16(data) and (got := _utf16(data)) is not None and is_text(got):
        return UTF16, got
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
