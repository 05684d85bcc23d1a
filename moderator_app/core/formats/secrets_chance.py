"""A key's shape inside a base64 run of binary data: chance, not a key in text (moved out of
`secrets`, session 42, redact: that module was 608 lines). `secrets._scan` (every pattern of
`scan_line`) and `secrets_public.plain_family` (every key family) ask it of each match."""

from __future__ import annotations

import binascii

from moderator_app.core.formats.secrets_text import is_text

# A key inside a base64 run of binary data is no key in text (session 41, spell; issue 15, QA
# s40 T7): base64 of compressed data spells `AIza` + 35 of the key's characters about once in
# 2 MB (e_b64gz's honest lines 3938, 4420, 5420, 7280: `withhold` refused the log). A match
# is passed over when the character before it is a letter or digit continuing a base64 run
# (so it starts no token, and no path segment: `/` before or after it), the run holds
# `_IN_RUN` characters on each side of the match (review s41 R1: with 16 on either side, a key
# in a URL's or an S3 path's segments, or after 20 letters, was passed over and published),
# and the run decodes to no text (`secrets_text.is_text`); a key that starts a token or a
# segment, or sits in base64 of text, is named.
_B64_MAP = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "+/") else 32
                 for c in range(256))
_IN_RUN = 64
_IN_WINDOW = 4096


def in_binary_base64(raw: bytes, start: int, end: int, cache: list[object]) -> bool:
    """Whether `raw[start:end]` lies inside a base64 run of binary data (above). The run is
    found by `find`s on the line mapped once a scan (`cache`, C speed) and remembered there,
    so the matches of one run find its ends once (review s41 R5: a line of 128,000 glued
    keys found them for every match, 18.4 s for 5 MB); `_IN_WINDOW` bytes of it either side
    of the match are decoded: a 16 MB line of such matches costs a map and ~10 us a match,
    never a run's decoding a match."""
    if start <= 0 or not raw[start - 1:start].isalnum() or raw[end:end + 1] == b"/":
        return False  # (the usual match: it starts a token, or a path's segment)
    if not cache:
        cache.append(raw.translate(_B64_MAP))
    mapped = cache[0]
    assert isinstance(mapped, bytes)
    if mapped.find(b" ", start, end) >= 0:
        return False
    last = cache[1] if len(cache) > 1 else None
    if isinstance(last, tuple) and last[0] <= start and end <= last[1]:
        lo, hi = last  # (the same run as the last match's: no space lies between them)
    else:
        lo = mapped.rfind(b" ", 0, start) + 1
        if lo and raw[lo - 1] == 92 and raw[lo] in b"nrt":
            lo += 1  # (an escaped line break's letter)
        hi = mapped.find(b" ", end)
        hi = len(raw) if hi < 0 else hi
        cache[1:] = [(lo, hi)]
    if start - lo < _IN_RUN or hi - end < _IN_RUN:
        return False  # (a key glued to a word, a path's segments: no run of data around it)
    a = lo + max(0, start - lo - _IN_WINDOW) // 4 * 4  # (the run's own 4-character groups)
    b = min(hi, end + _IN_WINDOW)
    try:
        decoded = binascii.a2b_base64(raw[a:a + (b - a) // 4 * 4])
    except (binascii.Error, ValueError):
        return False
    return not is_text(decoded)
