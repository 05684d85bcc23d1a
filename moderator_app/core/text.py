"""The one escaping of untrusted text for every output path (stdout, stderr, logs, JSON,
exception messages shown to a person).

Submitted bytes reach output as file and member names, JSON values and error messages. A
terminal interprets some characters instead of showing them: C0 and C1 controls (`ESC ] 0;`
retitles the window, `ESC [2J` clears it, U+009B is a one-byte CSI, `\\r` overwrites the
line), and bidi controls reorder what is shown (U+202E makes `txt.exe` read `exe.txt`).
Names taken from a file system may hold bytes that are not UTF-8 (Python keeps them as lone
surrogates, which cannot be printed or written as JSON). Each of these is shown as a visible
escape: `\\u001b`, `\\u202e`, and `\\xe9` for an undecodable byte. So is every character
that draws nothing (session 27: `agent-log.jsonl` + U+200B printed as `agent-log.jsonl`),
except the joiners and selectors honest text needs where they join or select (`_kept`:
Persian ZWNJ, emoji ZWJ sequences and U+FE0F, a flag's tags); docs/moderator-guide.md.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

import orjson

# DEL and C1; then the bidi and line-separator format characters; then lone surrogates.
_C1 = "\x7f-\x9f"
_FORMAT = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_SURROGATES = "\ud800-\udfff"
# Characters that draw nothing (Unicode's default-ignorable code points): a name ending in
# U+200B prints as `agent-log.jsonl`. Soft hyphen, combining grapheme joiner, Hangul fillers,
# Khmer inherent vowels, Mongolian selectors, ZWSP/ZWNJ/ZWJ, word joiner and invisible
# operators, deprecated format controls, variation selectors, BOM, interlinear annotation,
# shorthand and musical format controls, tags and the rest of plane 14.
_INVISIBLE = ("\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d"
              "\u2060-\u2065\u206a-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
              "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff")
_FIELD = re.compile(f"[\x00-\x1f{_C1}{_FORMAT}{_INVISIBLE}{_SURROGATES}]")
_STREAM = re.compile(f"[\x00-\x08\x0b-\x1f{_C1}{_FORMAT}{_INVISIBLE}{_SURROGATES}]")  # keeps \t, \n
_JSON = re.compile(f"[{_C1}{_FORMAT}{_INVISIBLE}]")  # orjson already escapes C0 inside strings
_SURROGATE = re.compile(f"[{_SURROGATES}]")

# Of the invisible characters, those honest text needs, kept where they do their work:
# ZWNJ / ZWJ (U+200C/D: Persian, Indic scripts, emoji sequences) between two visible non-ASCII
# characters; a variation selector (emoji presentation U+FE0F, CJK and Mongolian variants)
# right after a visible non-ASCII character, or in a keycap (`1` U+FE0F U+20E3); tags only in
# a flag sequence (U+1F3F4, tag letters, U+E007F: the flag of Scotland). Anywhere else (at an
# end, beside ASCII, doubled) they hide something and are escaped.
_JOINERS = "\u200c\u200d"
_SELECTORS = "[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]"
# (at most 32 tag letters: subdivision flags use 4 to 7; the bound keeps a run of a million
# tags linear, each looked at from at most 32 places)
_MAX_TAGS = 32
_FLAG = f"\U0001f3f4[\U000e0020-\U000e007e]{{1,{_MAX_TAGS}}}\U000e007f"


@functools.cache
def _regex(pattern: str) -> re.Pattern[str]:
    """A pattern of this module that only some calls need (`_SELECTORS`, `_FLAG`, the
    reversible and visible forms'), compiled on first use rather than at import: their
    compilation was ~0.9 ms of every command's start (issue 15)."""
    return re.compile(pattern)


def _base(s: str, i: int) -> bool:
    """Whether s[i] is a visible non-ASCII character another one may join or modify."""
    if not 0 <= i < len(s):
        return False
    c = s[i]
    return c > "\xa0" and not _FIELD.match(c) and not unicodedata.category(c).startswith(
        ("Z", "C"))


def _kept(s: str, i: int) -> bool:
    """Whether the invisible character at s[i] is honest text's own (see _JOINERS)."""
    c = s[i]
    if c in _JOINERS:
        before = _base(s, i - 1) or (i > 0 and _regex(_SELECTORS).match(s[i - 1]) is not None
                                     and _kept(s, i - 1))
        return before and _base(s, i + 1)
    if _regex(_SELECTORS).match(c):
        return _base(s, i - 1) or (c in "\ufe0e\ufe0f" and i > 0 and s[i - 1] in "#*0123456789"
                                   and s[i + 1:i + 2] == "\u20e3")
    if "\U000e0020" <= c <= "\U000e007f":
        start = s.rfind("\U0001f3f4", max(0, i - _MAX_TAGS - 1), i)  # (C speed: a run of a
        flag = _regex(_FLAG).match(s, start) if start >= 0 else None  # million tags stays linear)
        return flag is not None and flag.end() > i
    return False


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    if code > 0x7F and _kept(m.string, m.start()):
        return m.group()
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _json_escape(m: re.Match[str]) -> str:
    """As `_escape`, in JSON's spelling: a character past U+FFFF as its UTF-16 pair."""
    code = ord(m.group())
    if _kept(m.string, m.start()):
        return m.group()
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def safe_text(text: object) -> str:
    """One untrusted value (a name, a message, a note) for a single line of output: every
    control and bidi character, newlines included, is shown as an escape."""
    return _FIELD.sub(_escape, str(text))


def safe_output(text: str) -> str:
    """Whole output text: like `safe_text`, but the program's own line breaks and tabs stay
    (a value that could hold a newline must have gone through `safe_text` first)."""
    return _STREAM.sub(_escape, text)


# An escape as `safe_text` spells it (and as `repr` does): `\\x1b`, `\\u202e`, `\\U000e0041`.
_SPELLED = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")


def safe_cut(text: object, limit: int) -> str:
    """`safe_text(text)` in at most `limit` characters, never cut inside an escape: `decisions
    list` cut each escaped note at 80 characters, so a note could end in `\\x1` or `\\u20`
    (s27 hostile open item), a spelling that reads as a different character or as none. Nor
    is a kept joiner or a flag's tag left at the end, where it would no longer be kept: the
    cut is shortened until it is its own escaping (a few characters at most)."""
    shown = safe_text(text)
    if len(shown) <= limit:
        return shown
    cut = limit
    for m in _SPELLED.finditer(shown, max(0, limit - 9), limit + 9):
        if m.start() < limit < m.end():
            cut = m.start()
            break
    out = shown[:cut]
    while safe_text(out) != out:
        out = out[:-1]
    return out


# What `reversible_text` escapes: what safe_text does, and a backslash before a `u` (so that a
# literal `\u0041` in the text cannot be taken for an escape when read back).
_REVERSIBLE = f"[\x00-\x1f{_C1}{_FORMAT}{_INVISIBLE}{_SURROGATES}]|\\\\(?=u)"
_REVERSE = r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})|\\u([0-9a-f]{4})"


def reversible_text(text: str) -> str:
    """Text for a data file a person may also print or open (the CSV export): every character
    `safe_text` escapes, newlines and tabs included, as `\\uXXXX` (lowercase hex), and a
    backslash followed by `u` as `\\u005c`. Nothing else changes (other backslashes stay), and
    `unescape_reversible` gives the text back exactly."""
    return _regex(_REVERSIBLE).sub(
        lambda m: "\\u005c" if m.group() == "\\" else _json_escape(m), text)


def unescape_reversible(text: str) -> str:
    """The inverse of `reversible_text`: each `\\uXXXX`, left to right, is its character."""
    return _regex(_REVERSE).sub(_unpair, text)


def _paired(high: int, low: int) -> str:
    """The character a UTF-16 surrogate pair spells (the reverse of `_json_escape`'s)."""
    return chr(0x10000 + ((high - 0xD800) << 10) + low - 0xDC00)


def _unpair(m: re.Match[str]) -> str:
    if m[3]:
        return chr(int(m[3], 16))
    return _paired(int(m[1], 16), int(m[2], 16))


# A `\uXXXX` escape of one of the characters `terminal_safe_json` escapes, after an even
# number of backslashes (so not the text `\\u0080` of an escaped backslash).
_JSON_ESCAPED = re.compile(
    rb"(?<!\\)((?:\\\\)*)\\u(007f|008[0-9a-f]|009[0-9a-f]|061c|200[b-f]|202[89a-e]|206[0-9a-f]|"
    rb"00ad|034f|115f|1160|17b[45]|180[b-f]|3164|fe0[0-9a-f]|feff|ffa0|fff[0-9ab]|"
    rb"d82f\\udca[0-3]|d834\\udd7[3-9a]|db4[0-3]\\ud[c-f][0-9a-f]{2})")


def terminal_safe_json(raw: bytes) -> bytes:
    """One line of JSON text (UTF-8) with DEL, C1, bidi and line-separator characters written
    as `\\uXXXX` escapes: the same JSON value, and nothing a terminal obeys or that reorders
    the line (files written to /dev/stdout reach a terminal raw; orjson and RFC 8785 escape
    only C0). Such characters can only stand inside strings. `unescape_terminal_safe` undoes
    it exactly for text that had none of these escapes before."""
    if raw.isascii() and b"\x7f" not in raw:  # (the usual line or block: C speed)
        return raw
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw
    return _JSON.sub(_json_escape, text).encode("utf-8") if _JSON.search(text) else raw


def unescape_terminal_safe(raw: bytes) -> bytes:
    """The inverse of `terminal_safe_json` (the ledger's JSONL export is checked as the
    canonical bytes it was made from)."""
    return _JSON_ESCAPED.sub(lambda m: m[1] + _unpair_bytes(m[2]).encode("utf-8"), raw)


def _unpair_bytes(hexes: bytes) -> str:
    """`200b` or a UTF-16 pair `db40\\udc01` (an escape's hex digits) as its character."""
    if len(hexes) == 4:
        return chr(int(hexes, 16))
    return _paired(int(hexes[:4], 16), int(hexes[6:], 16))


def printable_name(name: str) -> str:
    """A file or member name as valid Unicode: undecodable bytes (lone surrogates from
    `surrogateescape`) become `\\xNN` text. Other characters are kept, to be escaped on
    output; the name then works as a JSON string, in canonical JSON and in Qt."""
    return _SURROGATE.sub(_escape, name) if _SURROGATE.search(name) else name


_HIDDEN = f"[{_FORMAT}{_INVISIBLE}]"


def visible_form(text: str) -> str:
    """`text` without its format and invisible characters: what a person reads on a screen
    that draws them as nothing (`agent-log.jsonl` + U+200B reads `agent-log.jsonl`)."""
    return _regex(_HIDDEN).sub("", text)


def has_undecodable(text: str) -> bool:
    """Whether `text` came from bytes that are not UTF-8 (holds lone surrogates)."""
    return _SURROGATE.search(text) is not None


def _valid_unicode(obj: Any) -> Any:
    if isinstance(obj, str):
        return printable_name(obj)
    if isinstance(obj, dict):
        return {printable_name(str(k)): _valid_unicode(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_valid_unicode(v) for v in obj]
    return obj


def safe_json(obj: Any, indent: bool = False) -> str:
    """`obj` as JSON text that is safe on a terminal and still the same JSON value: C1, DEL
    and bidi characters inside strings are written as `\\uXXXX` escapes (orjson writes them
    raw), and strings holding undecodable bytes are written with `\\xNN` text."""
    option = orjson.OPT_INDENT_2 if indent else 0
    try:
        data = orjson.dumps(obj, option=option)
    except TypeError:  # a lone surrogate somewhere, or nesting orjson does not write
        try:
            valid = _valid_unicode(obj)
        except RecursionError:
            # orjson reads 1,024 levels and writes 254; between them the rebuild recursed
            # past Python's limit: the workstation's detail pane raised RecursionError on a
            # 900-deep payload (s28 hostile sweep). Callers handle a TypeError.
            raise TypeError("nested too deep to write as JSON here") from None
        data = orjson.dumps(valid, option=option)
    return _JSON.sub(_json_escape, data.decode("utf-8"))


def counted(n: object, word: str, plural: str | None = None) -> str:
    """`n` and the word it counts, plural by count: "1 error", "0 errors", "19,480 events".
    One helper for every count a person reads (the findings header, the status bar, the CLI's
    results, the exported summary): the screen said "1 errors" where each wrote its own. A
    count read from a submission may be anything (`"episodes": "many"`): shown as it is."""
    if isinstance(n, int) and not isinstance(n, bool):
        return f"{n:,} {word if n == 1 else (plural or word + 's')}"
    return f"{n} {plural or word + 's'}"
