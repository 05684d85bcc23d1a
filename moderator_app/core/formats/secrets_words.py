"""A secret printed as little-endian 2-byte words: the view `withhold` and `verify` read with
`od -x`'s words put back in byte order (session 39, dumps; issue 15, QA s38 T5 h38_03).

`od -x stripe.key` (`od -t x2`, `hexdump` with no option) prints the file two bytes a word,
each word a number read little-endian, so each pair of characters shows swapped:

    0000000 6b72 6c5f 7669 5f65 4151 3833 646f 7758
    0000020 726f 7364 6130 3142 4463 6532 3346 4867

`rk_live_QA38odXwords...` is there to anyone who reads the words back to front, but the hex
dump view (`secrets_bytes`) reads 4-digit groups as `xxd` prints them, big-endian, and finds
`kr_ilev_...`: no family's key (h38_03 and e_odx's last line: unflagged, published).

The words are read where the dump view found a dump whose first piece is 4-digit groups (its
rows, offsets and breaks already matched: `secrets_bytes._dump_runs`), and only when what it
spans is `od`'s shape: groups of exactly 4 hex digits between spaces (one, or `hexdump -x`'s
four), row breaks (real or escaped) each followed by an offset of 6-8 digits or none (`-An`),
`od -t x2z`'s `  >text<` column, nothing else (an `xxd` dump's `00000010: ` and its text
column are big-endian: the dump view reads them). Each word's two bytes are swapped; what
that decodes to is read **alone**, as `od -b`'s and `od -c`'s views are (`secrets_octets`,
`secrets_chars`): text for the families and the patterns, bytes by the byte patterns and their
printable stretches. An honest `od -x` of a text is that text read again; of binary data,
bytes; a table of 4-digit numbers decodes to bytes no pattern holds.

Bounded: no regex of its own on the line; the span is cut at C speed (`re.sub` of its columns
and breaks, `translate`s and `find`s for its shape, `fromhex`, two slice assignments).
"""

from __future__ import annotations

import re

from moderator_app.core.formats import secrets_octets

WORDS = "its od -x little-endian words are decoded"

_HEX = b"0123456789abcdefABCDEF"
# a row's break and the next row's offset (6-8 digits: od's octal or -Ad's decimal 7, -Ax's
# 6, hexdump's 7 hex), or none; a real line break is first written as a JSON line writes it
_BREAKS = re.compile(rb"\\(?:r\\)?n(?:\*\\(?:r\\)?n)?(?:[0-9A-Fa-f]{6,8}+(?![0-9A-Fa-f]))?")
# the words' shape checked at C speed: a hex digit mapped to `a`, a space kept, anything else
# `x`; then no byte but those, and no run of digits but four (a regex a word cost ~13 ns a byte
# of e_odx's lines, ~30 % of their dump view)
_MAP = bytes(97 if c in _HEX else 32 if c == 32 else 120 for c in range(256))
_NOT_WORDS = (b"x", b"aaaaa", b" a ", b" aa ", b" aaa ")
_LEAST = 8  # bytes the words decode to, to be read (a key is longer)


def is_words(raw: bytes, start: int) -> bool:
    """Whether the dump `secrets_bytes.DUMP` found at `start` opens with a 4-digit group
    (`6b72 6c5f ...`: its fifth byte a space), the only shape of `od -x`'s first row."""
    head = raw[start:start + 5]
    return len(head) == 5 and head[4] == 32 and not head[:4].translate(None, _HEX)


def swapped(span: bytes) -> bytes | None:
    """The bytes `od -x`'s words in `span` (a dump from its first word to its end) stand for,
    each word's two bytes swapped back; None when `span` is no `od -x` shape (the module's
    docstring) or decodes to fewer than `_LEAST` bytes."""
    if b"\n" in span:  # (real line breaks: a decoded text's; written as a JSON line's)
        span = span.replace(b"\r\n", b"\\r\\n").replace(b"\n", b"\\n")
    if b">" in span:
        span = secrets_octets._COLUMNS.sub(b"", span)
    rows = b" " + _BREAKS.sub(b" ", span) + b" "
    mapped = rows.translate(_MAP)
    if any(bad in mapped for bad in _NOT_WORDS):
        return None
    digits = rows.translate(None, b" ")
    if len(digits) % 4:
        return None
    got = bytearray(bytes.fromhex(digits.decode("ascii")))
    if len(got) < _LEAST:
        return None
    got[0::2], got[1::2] = got[1::2], got[0::2]
    if got[-1:] == b"\0":  # (od pads a file of odd length with a zero byte)
        del got[-1]
    return bytes(got)
