"""The one escaping of untrusted text for every output path (stdout, stderr, logs, JSON,
exception messages shown to a person).

Submitted bytes reach output as file and member names, JSON values and error messages. A
terminal interprets some characters instead of showing them: C0 and C1 controls (`ESC ] 0;`
retitles the window, `ESC [2J` clears it, U+009B is a one-byte CSI, `\\r` overwrites the
line), and bidi controls reorder what is shown (U+202E makes `txt.exe` read `exe.txt`).
Names taken from a file system may hold bytes that are not UTF-8 (Python keeps them as lone
surrogates, which cannot be printed or written as JSON). Each of these is shown as a visible
escape: `\\u001b`, `\\u202e`, and `\\xe9` for an undecodable byte.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

# DEL and C1; then the bidi and line-separator format characters; then lone surrogates.
_C1 = "\x7f-\x9f"
_FORMAT = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_SURROGATES = "\ud800-\udfff"
_FIELD = re.compile(f"[\x00-\x1f{_C1}{_FORMAT}{_SURROGATES}]")
_STREAM = re.compile(f"[\x00-\x08\x0b-\x1f{_C1}{_FORMAT}{_SURROGATES}]")  # keeps \t and \n
_JSON = re.compile(f"[{_C1}{_FORMAT}]")  # orjson already escapes C0 inside strings
_SURROGATE = re.compile(f"[{_SURROGATES}]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def safe_text(text: object) -> str:
    """One untrusted value (a name, a message, a note) for a single line of output: every
    control and bidi character, newlines included, is shown as an escape."""
    return _FIELD.sub(_escape, str(text))


def safe_output(text: str) -> str:
    """Whole output text: like `safe_text`, but the program's own line breaks and tabs stay
    (a value that could hold a newline must have gone through `safe_text` first)."""
    return _STREAM.sub(_escape, text)


# What `reversible_text` escapes: what safe_text does, and a backslash before a `u` (so that a
# literal `\u0041` in the text cannot be taken for an escape when read back).
_REVERSIBLE = re.compile(f"[\x00-\x1f{_C1}{_FORMAT}{_SURROGATES}]|\\\\(?=u)")
_REVERSE = re.compile(r"\\u([0-9a-f]{4})")


def reversible_text(text: str) -> str:
    """Text for a data file a person may also print or open (the CSV export): every character
    `safe_text` escapes, newlines and tabs included, as `\\uXXXX` (lowercase hex), and a
    backslash followed by `u` as `\\u005c`. Nothing else changes (other backslashes stay), and
    `unescape_reversible` gives the text back exactly."""
    return _REVERSIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def unescape_reversible(text: str) -> str:
    """The inverse of `reversible_text`: each `\\uXXXX`, left to right, is its character."""
    return _REVERSE.sub(lambda m: chr(int(m[1], 16)), text)


# A `\uXXXX` escape of one of the characters `terminal_safe_json` escapes, after an even
# number of backslashes (so not the text `\\u0080` of an escaped backslash).
_JSON_ESCAPED = re.compile(rb"(?<!\\)((?:\\\\)*)\\u(007f|008[0-9a-f]|009[0-9a-f]|061c|200e|200f|"
                           rb"202[89a-e]|206[6-9])")


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
    return _JSON.sub(_escape, text).encode("utf-8") if _JSON.search(text) else raw


def unescape_terminal_safe(raw: bytes) -> bytes:
    """The inverse of `terminal_safe_json` (the ledger's JSONL export is checked as the
    canonical bytes it was made from)."""
    return _JSON_ESCAPED.sub(lambda m: m[1] + chr(int(m[2], 16)).encode("utf-8"), raw)


def printable_name(name: str) -> str:
    """A file or member name as valid Unicode: undecodable bytes (lone surrogates from
    `surrogateescape`) become `\\xNN` text. Other characters are kept, to be escaped on
    output; the name then works as a JSON string, in canonical JSON and in Qt."""
    return _SURROGATE.sub(_escape, name) if _SURROGATE.search(name) else name


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
    except TypeError:  # a lone surrogate somewhere
        data = orjson.dumps(_valid_unicode(obj), option=option)
    return _JSON.sub(_escape, data.decode("utf-8"))


def counted(n: object, word: str, plural: str | None = None) -> str:
    """`n` and the word it counts, plural by count: "1 error", "0 errors", "19,480 events".
    One helper for every count a person reads (the findings header, the status bar, the CLI's
    results, the exported summary): the screen said "1 errors" where each wrote its own. A
    count read from a submission may be anything (`"episodes": "many"`): shown as it is."""
    if isinstance(n, int) and not isinstance(n, bool):
        return f"{n:,} {word if n == 1 else (plural or word + 's')}"
    return f"{n} {plural or word + 's'}"
