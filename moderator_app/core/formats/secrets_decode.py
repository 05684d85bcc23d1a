"""Secrets spelled in an encoding: the decoders `withhold` and `verify` run on a line's public
part before the same detectors (session 33, issue 15, QA s32 T9).

A key base64-encoded in a Kubernetes Secret (`token: c2hwYXRf...`), percent-encoded in a URL
(`pass=%70%79%70%69%2D...`) or hex-encoded in a dump is the key to anyone who decodes it,
as the secret scanners do (gitleaks' and trufflehog's decoders: base64, percent, hex, escapes,
then the same detectors on the decoded text). Each decoder here gives a *view* of the line:

- **percent**: the line with its `%XX` escapes decoded, when it holds a run of 4+ escapes
  or an escape of a character no URL needs escaped (a letter, a digit, `-._~`: `%41` for `A`
  is hiding; `%20` and `%2F` are ordinary);
- **character escapes**: `\\xNN` (a Python or C string written into JSON) and HTML
  `&#NNN;` / `&#xNN;`, decoded when 4+ of them stand in a row;
- **base64** (standard or URL-safe): each run of 24+ characters (at most `_RUNS` a line)
  decoded; **hex**: each run of 32+ hex digits decoded. A decoded run that is text (UTF-8,
  97%+ printable) is read as text; one that is bytes (a picture, a digest, random bytes) is
  read only by the byte patterns (`secrets.scan_line`), as before this module.

A view is tested by the callers (`secrets_public.scan_public`) for every key family, the
named-value and URL patterns and, for text decoded from base64 or hex, the high-entropy rule
(`secrets_read`); a text view is decoded again once (base64 inside base64: a Docker config's
`auth` in a Kubernetes Secret), no deeper.

Bounded: the views of a line are made by regexes with bounded repeats or at C speed
(`bytes.translate` and `find` before any regex on a long line), at most `_RUNS` runs decoded
a line, and at most `_TEXT_MAX` bytes of decoded text a line read by the detectors.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator

from moderator_app.core.formats.secrets import markers_of

# percent: an escape of a character no URL needs escaped (a letter, a digit, `-._~`), or 4+
# escapes in a row (a key cut into escapes)
_PCT = re.compile(rb"%[0-9A-Fa-f]{2}")
_PCT_RUN = re.compile(rb"(?:%[0-9A-Fa-f]{2}){4}"
                      rb"|%(?:2[DdEe]|3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])")
_ESC = re.compile(rb"\\\\?x([0-9A-Fa-f]{2})|&#([0-9]{2,3});|&#[xX]([0-9A-Fa-f]{2});")
_ESC_RUN = re.compile(rb"(?:\\\\?x[0-9A-Fa-f]{2}){4}|(?:&#[0-9]{2,3};){4}"
                      rb"|(?:&#[xX][0-9A-Fa-f]{2};){4}")
# base64 (either alphabet) and hex runs, found at C speed: each run character mapped to `a`,
# a run of the minimum found by a substring search, then read whole
_B64_CHARS = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "+/_-") else 32
                   for c in range(256))
_HEX_CHARS = bytes(97 if chr(c) in "0123456789abcdefABCDEF" else 32 for c in range(256))
_NOT_HEX = b"0123456789abcdefABCDEF"
_PRINTABLE = bytes(range(32, 127)) + b"\t\r\n"
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")
_B64_MIN = 24
_HEX_MIN = 32
_RUNS = 64  # runs decoded a line, of each kind
_TEXT_MAX = 1 << 20  # decoded text a line read by the detectors
_RUN_MAX = 16 << 20

PERCENT = "its percent-escapes are decoded"
ESCAPES = "its \\x or HTML character escapes are decoded"
BASE64 = "a base64 run in it is decoded"
HEX = "a hex run in it is decoded"


def _runs(data: bytes, table: bytes, least: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each maximal run of `table`'s characters of `least` or more."""
    mapped = data.translate(table)
    needle = b"a" * least
    i = mapped.find(needle)
    while i >= 0:
        start = mapped.rfind(b" ", 0, i) + 1
        end = mapped.find(b" ", i)
        end = len(mapped) if end < 0 else end
        yield start, end
        i = mapped.find(needle, end)


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


def b64_text(run: bytes) -> bytes | None:
    """The text a base64 run (either alphabet, its padding optional) decodes to, or None
    when it is no base64 or its bytes are no text (`is_text`)."""
    decoded = _b64(run)
    return decoded if decoded is not None and is_text(decoded) else None


def _b64(run: bytes) -> bytes | None:
    body = run.rstrip(b"=")
    if len(body) % 4 == 1:
        return None
    if b"-" in body or b"_" in body:
        if b"+" in body or b"/" in body:
            return None  # (two alphabets: a token or a path, no base64)
        body = body.translate(bytes.maketrans(b"-_", b"+/"))
    try:
        return binascii.a2b_base64(body + b"=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        return None


def views(raw: bytes) -> Iterator[tuple[str, bytes, bool, int]]:
    """(how, decoded bytes, whether they are text, the column of the encoded spelling) of each
    decoded view of `raw` (the module's docstring), in that order; bounded (`_RUNS`,
    `_TEXT_MAX`)."""
    text_left = _TEXT_MAX
    if b"%" in raw:
        m = _PCT_RUN.search(raw)
        if m is not None:
            decoded = _PCT.sub(lambda e: bytes([int(e.group()[1:], 16)]), raw)
            text_left -= len(decoded)
            yield PERCENT, decoded, True, m.start() + 1
    if text_left > 0 and markers_of(raw, (b"\\x", b"&#")):
        m = _ESC_RUN.search(raw)
        if m is not None:
            decoded = _ESC.sub(_char, raw)
            text_left -= len(decoded)
            yield ESCAPES, decoded, True, m.start() + 1
    for how, table, least in ((BASE64, _B64_CHARS, _B64_MIN), (HEX, _HEX_CHARS, _HEX_MIN)):
        for n, (start, end) in enumerate(_runs(raw, table, least)):
            if n >= _RUNS:
                break
            if end - start > _RUN_MAX:
                continue
            run = raw[start:end]
            got = _b64(run) if how is BASE64 else _hex(run)
            if got is None:
                continue
            text = text_left > 0 and is_text(got)
            if text:
                text_left -= len(got)
            elif how is HEX or b"-" in run or b"_" in run:
                continue  # (bytes: a digest, or a token's dashes read as URL-safe base64)
            yield how, got, text, start + 1




def hex_text(run: bytes) -> bool:
    """Whether a run of 32+ characters is hex whose first 16 bytes are printable ASCII (hex
    of text; a digest's bytes are printable 16 in a row about once in 10 million): the
    gate's test (`secrets_public.reader_spots`), a run at a time."""
    if len(run) < _HEX_MIN or run[:32].translate(None, _NOT_HEX):
        return False
    head = bytes.fromhex(run[:32].decode("ascii"))
    return all(32 <= c < 127 for c in head)


def _hex(run: bytes) -> bytes | None:
    try:
        return bytes.fromhex(run[:len(run) // 2 * 2].decode("ascii"))
    except ValueError:
        return None


def _char(m: re.Match[bytes]) -> bytes:
    x, dec, hx = m.groups()
    code = int(x or hx, 16) if (x or hx) else int(dec)
    return bytes([code]) if code < 128 else m.group()


def encoded_spots(data: bytes, lo: int = 0, hi: int | None = None) -> list[int]:
    """Offsets from `lo` of each line of `data[lo:hi]` (lines as written) holding a run of
    percent-escapes or character escapes `views` would decode: where `verify` asks a line it
    would not ask otherwise (a base64 run is asked by the reader's gate already,
    `reader_spots`, and so is hex of text, `hex_text`). A `find` for `%` and one SIMD pass for
    `\\x` and `&#`, then a regex only in a range holding one, its first match a line (the
    next searched from the next line); no copy of the range."""
    hi = len(data) if hi is None else hi
    spots: list[int] = []
    for pattern, present in (
            (_PCT_RUN, data.find(b"%", lo, hi) >= 0),
            (_ESC_RUN, bool(markers_of(memoryview(data)[lo:hi], (b"\\x", b"&#"))))):
        pos = lo
        while present and (m := pattern.search(data, pos, hi)) is not None:
            spots.append(m.start() - lo)  # (one a line: the line is asked whole)
            pos = data.find(b"\n", m.end(), hi) + 1
            if not pos:
                break
    return sorted(spots)
