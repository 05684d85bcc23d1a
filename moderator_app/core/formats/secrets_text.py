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
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return 100 * len(_CONTROL.findall(text)) <= 3 * len(text)
