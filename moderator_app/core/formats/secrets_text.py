"""Whether decoded bytes are text: the one test every decoded view and spelling asks (moved
out of `secrets_decode`, session 41, spell: `secrets_chance.in_binary_base64` asks it too, and
`secrets_decode` imports `secrets`)."""

from __future__ import annotations

import re

_PRINTABLE = bytes(range(32, 127)) + b"\t\r\n"
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")


def is_text(data: bytes) -> bool:
    """Whether decoded bytes read as text: UTF-8, 97%+ of the characters printable (tabs and
    line breaks count). Random bytes of 12+ are not UTF-8 (a digest, a key's bytes, a picture)."""
    if len(data) < 12:
        return False
    if data.isascii():  # (C speed: a 4 MB text is no Python loop)
        return 100 * len(data.translate(None, _PRINTABLE)) <= 3 * len(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return 100 * _controls(data) <= 3 * len(data.translate(None, _LEADS))


# `_CONTROL`'s characters counted in valid UTF-8 at C speed (session 45, spell): the regex over
# the decoded text cost ~2.5 ms a 29 KB mail (e_mime76's gzip blobs, read whole since session
# 45: 0.3 s of 3.5): ASCII's by `translate`, C1's (`c2 80`-`c2 9f`) by a search led by `c2`,
# the four others by `count`; a text's characters are its bytes but the continuation ones
_LEADS = bytes(range(0x80, 0xC0))  # (deleted: what is left is one byte a character)
_ASCII_CONTROL = bytes([*range(0, 9), 11, 12, *range(14, 32), 127])
_KEEP_CONTROL = bytes(c for c in range(256) if c not in _ASCII_CONTROL)
_C1 = re.compile(rb"\xc2[\x80-\x9f]")
_WIDE = ("\u2028", "\u2029", "\ufffe", "\uffff")
_WIDE_BYTES = tuple(c.encode() for c in _WIDE)


def _controls(data: bytes) -> int:
    """`len(_CONTROL.findall(data.decode()))` of valid UTF-8 `data`."""
    n = len(data.translate(None, _KEEP_CONTROL))
    if b"\xc2" in data:
        n += len(_C1.findall(data))
    if b"\xe2\x80" in data or b"\xef\xbf" in data:
        n += sum(data.count(c) for c in _WIDE_BYTES)
    return n
