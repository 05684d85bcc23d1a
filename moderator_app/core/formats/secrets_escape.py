"""JSON escapes decoded as any parser decodes them: a secret spelled `sk\\u002dproj-...` is
the secret itself (moved out of `secrets`, session 44, redact: that module was 586 lines and
grows by the glued keys; `secrets.unescape_json` is still importable from there)."""

from __future__ import annotations

import functools
import re

from moderator_app.core.formats import native

_ESCAPE = (rb"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
           rb"|\\u([0-9a-fA-F]{4})|\\/|\\\\")


@functools.cache
def _escape_regex() -> re.Pattern[bytes]:
    """`_ESCAPE` compiled once, on first use (as `secrets._regex` did: no compile at import)."""
    return re.compile(_ESCAPE)


def _unescaped(m: re.Match[bytes]) -> bytes:
    high, low, one = m.groups()
    if high is not None:  # a UTF-16 pair: one character past U+FFFF (a TAG character too)
        code = 0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00
        return chr(code).encode("utf-8")
    if one is None:
        return m.group() if m.group() == b"\\\\" else b"/"
    return chr(int(one, 16)).encode("utf-8", "surrogatepass")


def unescape_json(raw: bytes) -> bytes:
    """`raw` with its JSON `\\uXXXX` and `\\/` escapes decoded (others kept): a secret
    spelled `sk\\u002dproj-...` is published as one, since any parser decodes it. Textual, so
    no nesting depth limits it. An escaped backslash is kept as written, whole: `\\\\u0067`
    is the text `\\u0067` (a tool's JSON quoted in the log), read so by the `\\u` view
    (`secrets_decode`); decoding its `\\u0067` left `\\g\\s\\k...` between the key's
    characters, which no detector read (QA s33 h33_02, session 34). A line past `_PIECE`
    bytes is decoded a piece at a time (a 15.7 MB line of `\\\\u0041` held 2.2 million
    pieces at once: 640 MB, out of memory under 512 MiB), each cut where the whole line's
    decoding would pass (no escape is longer than `_REACH` bytes). In C where `_unescape.c`
    is built (one pass, one buffer no longer than the line: 2.2 million regex callbacks took
    ~1.5 s of CPU on that line; session 34, escape, R16), the same bytes."""
    if native.UNESCAPE is not None:
        return native.UNESCAPE.json_unescape(raw)
    return _unescape_json_py(raw)


def _unescape_json_py(raw: bytes) -> bytes:
    """`unescape_json` without the C accelerator."""
    pattern = _escape_regex()
    if len(raw) <= _PIECE:
        return pattern.sub(_unescaped, raw)
    out: list[bytes] = []
    at = 0
    while len(raw) - at > _PIECE:
        safe = at + _PIECE - _REACH
        parts: list[bytes] = []
        prev = at
        for m in pattern.finditer(raw, at, at + _PIECE):
            if m.start() >= safe:
                break
            parts += (raw[prev:m.start()], _unescaped(m))
            prev = m.end()
        cut = max(prev, safe)
        parts.append(raw[prev:cut])
        out.append(b"".join(parts))
        at = cut
    out.append(pattern.sub(_unescaped, raw[at:]))
    return b"".join(out)


_PIECE = 1 << 16
_REACH = 12  # the longest escape `_ESCAPE` reads: a UTF-16 pair
