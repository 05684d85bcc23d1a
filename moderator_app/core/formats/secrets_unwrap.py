"""What a base64 run's bytes hold when they are no text as they stand: UTF-16 text (a
PowerShell `-EncodedCommand`); read by `withhold` and `verify` alike (session 41, spell; issue
15, QA s40 T6 h40_01).

`pwsh -EncodedCommand JABlAG4AdgA6...` is base64 of the command's UTF-16LE bytes: every other
byte is zero, so the decoded run was no text (`secrets_text.is_text`) and the key in it
(`$env:GH_REFRESH_TOKEN = 'ghr_...'`) was read only by the byte patterns, which a key spelled
with zeros between its characters never matches: named by neither command, published by
`withhold`.

One table (`_WRAPPERS`): a wrapper is how it is told and how it is undone; what it undoes to is
read as the run's text only when it is text. (A gzip stream's row, inflating `H4sI...`, was
measured and left out: e_b64gz 1.16x; /work/brief/s41/spell-families-full.patch.)

Bounded: UTF-16 is told by a zero among the bytes' first four, then by counting zero bytes at
C speed (`bytes.count` of a slice).
"""

from __future__ import annotations

from collections.abc import Callable

UTF16 = "a base64 run of UTF-16 text in it is decoded"
_LEAST = 8  # characters of UTF-16 text (a key is longer)


def _utf16(data: bytes) -> bytes | None:
    """The text of UTF-16 bytes (little- or big-endian, a byte order mark allowed) whose
    characters are all under 256 (each high byte zero: a key is ASCII), as Latin-1 bytes
    re-encoded UTF-8; None otherwise."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        data = data[2:]
    if len(data) < 2 * _LEAST:
        return None
    whole = data[:len(data) // 2 * 2]
    for zeros, chars in ((whole[1::2], whole[0::2]), (whole[0::2], whole[1::2])):
        if zeros.count(0) == len(zeros) and chars.count(0) == 0:
            return chars.decode("latin-1").encode("utf-8")
    return None


def _is_utf16(data: bytes) -> bool:
    """Whether `data` may be UTF-16 of Latin-1 text: a zero among its first two bytes
    (one test before any slice of the run)."""
    return 0 in data[2:4] or data[:2] in (b"\xff\xfe", b"\xfe\xff")


# (how, whether the bytes may be so wrapped, how they are undone): a new wrapper is a row
_WRAPPERS: tuple[tuple[str, Callable[[bytes], bool], Callable[[bytes], bytes | None]], ...] = (
    (UTF16, _is_utf16, _utf16),
)


def unwrapped(data: bytes, is_text: Callable[[bytes], bool]) -> tuple[str, bytes] | None:
    """(how, text) of a base64 run's bytes `data` that are no text as they stand but text once
    unwrapped (`_WRAPPERS`), or None."""
    for how, told, undo in _WRAPPERS:
        if told(data) and (got := undo(data)) is not None and is_text(got):
            return how, got
    return None
