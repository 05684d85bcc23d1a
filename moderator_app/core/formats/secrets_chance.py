"""A key's shape inside a base64 run of binary data: chance, not a key in text (moved out of
`secrets`, session 42, redact: that module was 608 lines). `secrets._scan` (every pattern of
`scan_line`) and `secrets_public.plain_family` (every key family) ask it of each match, and
what it passes over is recorded for whoever asks (`passing_over`): `withhold` replaces those
characters with `*` and `verify` names them in a note (`secrets_redact`), so a key glued
inside a blob on purpose is never published whole (review s41 R2, QA s41 T7)."""

from __future__ import annotations

import binascii
import math
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from moderator_app.core.formats.secrets_text import is_text

# A key inside a base64 run of binary data is no key in text (session 41, spell; issue 15, QA
# s40 T7): base64 of compressed data spells `AIza` + 35 of the key's characters about once in
# 2 MB (e_b64gz's honest lines 3938, 4420, 5420, 7280: `withhold` refused the log). A match
# is passed over when the run of base64 or base64url characters around it (`+/` and `-_` both:
# QA s41 T6, h41_13's base64url runs; whatever character precedes the match, `/` and `-` are
# the run's own: 159 of its 160 chance runs were named when a letter or digit had to precede)
# holds `_IN_RUN` characters on each side of the match (review s41 R1: with 16 on either side,
# a key after 20 letters was passed over) or `_ONE_SIDE` of binary data on one (below), the run is no URL's path (`://` before it with only
# a path's characters between: R1's googleapis and S3 paths, told by their shape, not by the
# `/`), the run is written in one of the two alphabets (no chance spells `+` or `/` and `-`
# or `_` in one run: a Slack token `xoxb-...` glued in a screenshot's base64 is named), and
# the run decodes to no text (`secrets_text.is_text`). A key that starts a token, sits in a
# URL's path, in a run of both alphabets or in base64 of text, is named.
B64_MAP = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "+/-_") else 32
                 for c in range(256))
TO_STD = bytes.maketrans(b"-_", b"+/")  # (base64url decoded as base64: the same bits)
_IN_RUN = 64
# ... after a match's first `_KEY_SPAN` characters (a Google key's 39, a GitHub token's 40): a
# pattern that reads on (`sk-`'s `[A-Za-z0-9_-]{20,}`) eats a base64url run to its end
_KEY_SPAN = 40
_IN_WINDOW = 4096
# ... or, with fewer on one side (a match 24 characters after `data:image/png;base64,`, or
# within 64 of a blob's end: QA s42 T6, review s42 R6, h41_13's 11 of 160), this many on the
# other side that decode to binary data by themselves (session 43, redact): 1 KiB of base64 is
# 768 bytes, of which text keeps 97 % printable; R1's "blob QQQ...AIza... end" has neither.
_ONE_SIDE = 1024
# ... and a match whose own `-` / `_` make its run hold both alphabets is passed over only when
# its long side is this many characters (192 bytes) of dense data (`_dense`): chance never
# writes `-` or `_` in standard base64, so the bytes around it must show they are a file's.
_DENSE_MIN = 256
_DENSE = 6.0
# A wrapping's lines (MIME's 76 columns, PEM's 64) are this long at least: shorter lines
# broken by `\n` are a text's words, which decode to no text either.
_WRAP_MIN = 48
# A verdict decoded over `_IN_WINDOW` characters either side of a match serves the next
# matches of its run while they keep half that window on each side (review s41 R5: a line of
# glued keys, a match every 39 bytes, decoded 8 KB for each: 7x 434f08f on 1.25 MB).
_REUSE = _IN_WINDOW // 2
# A URL's path: `scheme://` then these characters only, up to the run (a query's `?`, `=`,
# `&`, a quote or a space ends it: base64 in a query or a `data:` URL is data). Looked for
# `_URL_BACK` bytes back.
_URL_PATH = bytes(c for c in range(33, 127) if chr(c) not in "\"'<>\\,;=?#&^`{|}")
_URL_BACK = 2048

_PASSED: ContextVar[list[tuple[bytes, int, int, str]] | None] = ContextVar(
    "secrets_passed_over", default=None)


@contextmanager
def passing_over() -> Iterator[list[tuple[bytes, int, int, str]]]:
    """Within it, each match `in_binary_base64` passes over is appended to the list it gives:
    (the bytes it was found in, start, end, the label of what it looks like). A context
    variable, so that two threads' scans keep their own lists."""
    got: list[tuple[bytes, int, int, str]] = []
    token = _PASSED.set(got)
    try:
        yield got
    finally:
        _PASSED.reset(token)


def record_passed(raw: bytes, start: int, end: int, label: str) -> None:
    """Records `raw[start:end]` as passed over (as `in_binary_base64` does for a match it
    passes over): a piece of a match `in_binary_base64` passed over on its first piece, the
    rest written after an escaped line break (`secrets_glued`)."""
    got = _PASSED.get()
    if got is not None:
        got.append((raw, start, end, label))


def _no_data(raw: bytes, lo: int, hi: int) -> bool:
    """Whether the run `raw[lo:hi]` is no base64 data: it continues a URL's path
    (`s3://bucket/...`: the run starts at the `//` after the scheme's colon), or it holds
    characters of both alphabets (`_mixed`)."""
    return _url_path(raw, lo) or _mixed(raw, lo, hi, lo, lo)


def _url_path(raw: bytes, lo: int) -> bool:
    """Whether the run at `lo` continues a URL's path (above)."""
    k = raw.rfind(b"://", max(0, lo - _URL_BACK), lo + 2)
    return k >= 0 and not raw[k + 3:lo].translate(None, _URL_PATH)


def _mixed(raw: bytes, lo: int, hi: int, start: int, end: int) -> bool:
    """Whether `raw[lo:hi]` outside `raw[start:end]` holds characters of both alphabets."""
    def has(chars: bytes) -> bool:
        return any(raw.find(c, a, b) >= 0 for c in (chars[:1], chars[1:])
                   for a, b in ((lo, start), (end, hi)))

    return has(b"+/") and has(b"-_")


def in_binary_base64(raw: bytes, start: int, end: int, cache: list[object],
                     label: str = "") -> bool:
    """Whether `raw[start:end]` lies inside a base64 run of binary data (above); recorded
    when it does (`passing_over`, `label` for the note). The run is found by `find`s on the
    line mapped once a scan (`cache`, C speed) and remembered there with whether it is no
    data (`_no_data`), so the matches of one run find its ends once (review s41 R5: a line of 128,000 glued
    keys found them for every match, 18.4 s for 5 MB); `_IN_WINDOW` bytes of it either side
    of the match are decoded, and the verdict is remembered with the window (`_REUSE`): a 16
    MB line of such matches costs a map and a decoding every ~2 KB of matches. A run goes on
    over escaped MIME line breaks (`_joined`), and a match with fewer than `_IN_RUN` run
    characters on one side is passed over when the other side holds `_ONE_SIDE` that decode
    to binary data by themselves (`_side_binary`)."""
    if start <= 0:
        return False  # (it starts the line: no run before it)
    if not cache:
        cache.append(map_run(raw))
    mapped = cache[0]
    assert isinstance(mapped, bytes)
    if mapped.find(b" ", start, end) >= 0:
        return False
    last = cache[1] if len(cache) > 1 else None
    if isinstance(last, tuple) and last[0] <= start and end <= last[1]:
        lo, hi, named = last  # (the same run as the last match's: no space lies between them)
    else:
        lo = mapped.rfind(b" ", 0, start) + 1
        if lo and raw[lo - 1] == 92 and raw[lo] in b"nrt":
            lo += 1  # (an escaped line break's letter)
        hi = mapped.find(b" ", end)
        hi = len(raw) if hi < 0 else hi
        named = _no_data(raw, lo, hi)
        cache[1:] = [(lo, hi, named), None]
    dense = False
    if named:
        if not _mixed(raw, lo, hi, start, end) and not _url_path(raw, lo) and (
                start - lo < _IN_RUN or hi - min(end, start + _KEY_SPAN) < _IN_RUN):
            # both alphabets by the match's own `-` / `_` (a key shape in standard base64: no
            # chance writes it; QA s43 T7: h43_16's `xoxb-`, `ghp_` at a picture's first or
            # last characters, or across a wrapping's break), within `_IN_RUN` of its piece's
            # edge: passed over only where the rest is dense data (`_dense`); in the middle of
            # a run it is named (a Slack token glued inside a screenshot, session 42)
            dense = True
        else:
            return False  # (a URL's path, both alphabets: no run of data around it)
    before, after = start - lo, hi - min(end, start + _KEY_SPAN)
    joined = None
    if (before < _IN_RUN or after < _IN_RUN) and (
            _break_before(raw, lo) or _break_after(raw, hi)):
        joined = _joined(raw, mapped, lo, hi, start, end)
        if joined is not None:
            before = joined[1]
            after = len(joined[0]) - before - min(end - start, _KEY_SPAN)
    if before < _IN_RUN and after < _ONE_SIDE or after < _IN_RUN and before < _ONE_SIDE:
        return False  # (a key glued to a word: no run of data on either side)
    if dense:
        side = _side(raw, lo, hi, start, end, joined, before >= after)
        binary = len(side) >= _DENSE_MIN and _dense(side)
    elif joined is not None or before < _IN_RUN or after < _IN_RUN:
        binary = _side_binary(raw, lo, hi, start, end, joined, before >= after)
    else:
        binary = _window_binary(raw, lo, hi, start, end, cache)
    if binary:
        got = _PASSED.get()
        if got is not None:
            got.append((raw, start, end, label))
    return binary


def _window_binary(raw: bytes, lo: int, hi: int, start: int, end: int,
                   cache: list[object]) -> bool:
    """Whether `_IN_WINDOW` characters of the run `raw[lo:hi]` either side of the match decode
    to binary data; the verdict is remembered with its window (`cache[2]`, `_REUSE`)."""
    seen = cache[2] if len(cache) > 2 else None
    if isinstance(seen, tuple) and seen[0] <= max(lo, start - _REUSE) \
            and min(hi, end + _REUSE) <= seen[1]:
        return bool(seen[2])  # (the last window decoded holds this match's half window)
    a = lo + max(0, start - lo - _IN_WINDOW) // 4 * 4  # (the run's own 4-character groups)
    b = min(hi, end + _IN_WINDOW)
    b = a + (b - a) // 4 * 4
    binary = _binary(raw[a:b])
    cache[2:] = [(a, b, binary)]
    return binary


def map_run(raw: bytes) -> bytes:
    """`raw` mapped by `B64_MAP`, an escaped `/` or `+` (below) mapped as run characters:
    QA s45 T6, h45_16's `\\/`-escaped base64 of binary data was cut at each escape into runs
    too short to be read as data, and 8 chance `AIza` / `AKIA` runs in it refused an honest
    log (session 46, redact); QA s46 T7, h46_16's `\\u002F`, JSON-in-JSON `\\\\\\/` and a
    URL query's `%2F` / `%2B` the same (session 47, redact). The same length as `raw`: a
    place in one is the place in the other."""
    if not _escapes_in(raw):
        return raw.translate(B64_MAP)
    for spelled in _SPELLINGS:  # (C-speed replacements, the same length: no callback)
        if spelled in raw:
            raw = raw.replace(spelled, (b"a" if spelled[:1] == b"%" else b"/") + spelled[1:])
    while b"\\/" in raw:  # (a backslash before a `/` is the escape's: any depth)
        raw = raw.replace(b"\\/", b"//")
    return raw.translate(B64_MAP)


# How a JSON writer or a URL spells base64's `/` and `+` (an "escape" below): `\/` (PHP),
# escaped again in JSON inside JSON at any depth (`\\\/`, `\\/` where the outer writer leaves
# `/` alone; `\\\\\\\/` three writers deep), `\u002F` / `\u002B` (.NET; its backslash escaped
# again too), `%2F` / `%2B` (a URL's query). `_ESCAPE_LEADS`: what a line holding one holds.
_ESCAPE_LEADS = (b"\\/", b"\\u002", b"%2")
_SPELLINGS = (b"\\u002F", b"\\u002f", b"\\u002B", b"\\u002b", b"%2F", b"%2f", b"%2B", b"%2b")
_SPELLED_SLASH = re.compile(rb"\\+u002[fF]|%2[fF]")
_SPELLED_PLUS = re.compile(rb"\\+u002[bB]|%2[bB]")


def _escapes_in(raw: bytes, lo: int = 0, hi: int | None = None) -> bool:
    """Whether `raw[lo:hi]` may hold an escaped `/` or `+` (above)."""
    return any(raw.find(lead, lo, hi) >= 0 for lead in _ESCAPE_LEADS)


def bare(run: bytes) -> bytes:
    """`run` with each escaped `/` or `+` (above) written as the character it spells,
    and no backslash left (C-speed replacements: a callback an escape cost ~0.3 us each, a
    window of PHP's base64 ~130 of them)."""
    if b"\\u002" in run or b"%2" in run:
        run = _SPELLED_PLUS.sub(b"+", _SPELLED_SLASH.sub(b"/", run))
    return run.replace(b"\\", b"")


def _binary(run: bytes) -> bool:
    """Whether base64 (or base64url) characters, 4-aligned, decode to no text. A run holding
    escaped slashes or pluses (`map_run`) is read with each written as its character
    (`bare`), at each of its 4 alignments (an escape shifts them): binary data when none
    decodes to text (base64 of text read out of step is noise, in step text)."""
    if b"\\" in run or b"%" in run:
        plain = bare(run).replace(b"%", b"")  # (an escape cut by a window)
        return all(_decodes_binary(plain[k:k + (len(plain) - k) // 4 * 4]) for k in range(4))
    return _decodes_binary(run)


def _decodes_binary(run: bytes) -> bool:
    """Whether base64 characters with no escape, 4-aligned, decode to no text."""
    try:
        return not is_text(binascii.a2b_base64(run.translate(TO_STD)))
    except (binascii.Error, ValueError):
        return False


# Escaped line breaks a wrapping's lines end with inside a JSON string: `\\r\\n`, `\\n`,
# doubled in a JSON string holding JSON (QA s45 T5, h45_06: PHP's `json_encode` of
# `chunk_split`), or escaped again, deeper (QA s46 T4, h46_07; session 47, redact: up to 8
# backslashes before each letter, four writers deep); and a line break itself, in a view
# with the line's escapes decoded (`\\u002F`'s view decodes `\\r\\n` too: QA s46 T7)
_BREAK_AT = re.compile(rb"(?:\\{1,8}r)?\\{1,8}n")


def _break_before(raw: bytes, k: int) -> int:
    """The length of the escaped line break ending at `k` (`_BREAK_AT`), or 0 (one slice
    where there is none: asked once a line of a blob)."""
    if raw[k - 2:k] != b"\\n":
        return (2 if raw[k - 2:k - 1] == b"\r" else 1) if raw[k - 1:k] == b"\n" else 0
    j = k - 2
    while j > max(0, k - 9) and raw[j - 1] == 92:
        j -= 1
    if raw[j - 1:j] == b"r" and j >= 2 and raw[j - 2] == 92:
        i = j - 2
        while i > max(0, j - 9) and raw[i - 1] == 92:
            i -= 1
        return k - i
    return k - j


def _break_after(raw: bytes, k: int) -> int:
    """The length of the escaped line break starting at `k` (`_BREAK_AT`), or 0."""
    two = raw[k:k + 2]
    if two == b"\\n":
        return 2
    if two == b"\\r":
        return 4 if raw[k + 2:k + 4] == b"\\n" else 0
    if two[:1] != b"\\":
        return 1 if two[:1] == b"\n" else 2 if two == b"\r\n" else 0
    m = _BREAK_AT.match(raw, k)  # (escaped again: `\\\\n`, `\\\\r\\\\n`, deeper)
    return 0 if m is None else m.end() - k


def _joined(raw: bytes, mapped: bytes, lo: int, hi: int, start: int, end: int
            ) -> tuple[bytes, int] | None:
    """The run `raw[lo:hi]` read on over escaped MIME line breaks (`\\r\\n` or `\\n` inside a
    JSON string: base64 wrapped at 76 or 64 columns, QA s42's e_mime76) up to `_IN_WINDOW`
    characters either side of the match: (its characters without the breaks, where the match
    starts in them); None when the pieces are no wrapping's lines (all but the last and the
    match's of one length, a multiple of 4 and `_WRAP_MIN` or more; the last no longer)."""
    pieces = _pieces(raw, mapped, lo, hi, start, end, _IN_WINDOW)
    # (the text before a blob is no line of it: a command's last word, `openssl base64\n`, or
    # a PEM header, `-----BEGIN CERTIFICATE-----\n` (QA s43 T7: h43_16's 64 / 72-column
    # breaks, e_pem64's line 6): a first piece of another width than the blob's lines is left)
    inner = [b - a for a, b in pieces[1:-1] if (a, b) != (lo, hi)]
    if pieces[0] != (lo, hi) and inner and pieces[0][1] - pieces[0][0] != inner[0]:
        del pieces[0]
    # (the match's own piece may be longer: a view that removed the breaks inside a token,
    # `secrets._rejoined`, reads it; and so may another piece twice or 3 times the width, the
    # view removed the breaks inside another marker-led run: QA s43 h43_16 line 147)
    if not _one_width(pieces, (lo, hi), multiples=True, raw=raw):
        return None  # (lines of text, or no wrapping's: not one run)
    run = b"".join(raw[a:b] for a, b in pieces)
    at = sum(b - a for a, b in pieces if b <= start) + start - next(
        a for a, b in pieces if a <= start < b)
    return run, at


def wrapped_run(raw: bytes, mapped: bytes, lo: int, hi: int, ahead: int
                ) -> tuple[bytes, int] | None:
    """A base64 blob wrapped over escaped line breaks read whole from its first line
    `raw[lo:hi]` (`mapped`: `raw.translate(B64_MAP)`), up to `ahead` characters past it:
    (its characters without the breaks, the end of its last line in `raw`), or None when no
    break follows or the lines are no wrapping's (`_joined`'s test, the first line counted;
    session 44, spell: `secrets_decode.views` reads a 64- or 76-column gzip blob so, QA s43
    h43_07, QA s42 h42_07)."""
    pieces = _pieces(raw, mapped, lo, hi, hi, hi, ahead, back=False)
    if len(pieces) < 2 or not _one_width(pieces, raw=raw):
        return None
    return b"".join(raw[a:b] for a, b in pieces), pieces[-1][1]


def _one_width(pieces: list[tuple[int, int]], own: tuple[int, int] | None = None,
               multiples: bool = False, raw: bytes = b"") -> bool:
    """Whether `pieces` are a wrapping's lines: all but the last (and `own`) of one width (or,
    `multiples`, of multiples of the narrowest), a multiple of 4 and `_WRAP_MIN` or more, the
    last no wider. A width is counted in base64 characters: the backslashes of escaped
    slashes in `raw` (`map_run`) are no column of the wrapping."""
    if raw and _escapes_in(raw, pieces[0][0], pieces[-1][1]):
        widths = {_width(raw, a, b) for a, b in pieces[:-1] if (a, b) != own}
        last = _width(raw, *pieces[-1]) if pieces[-1] != own else 0
    else:  # (no escaped slash: the pieces' lengths, as before)
        widths = {b - a for a, b in pieces[:-1] if (a, b) != own}
        last = pieces[-1][1] - pieces[-1][0] if pieces[-1] != own else 0
    width = min(widths, default=0)
    return (len(widths) == 1 or multiples and not any(w % width for w in widths)) \
        and width >= _WRAP_MIN and not width % 4 and last <= width


# The reader's high-entropy rule (`secrets_read.reader_hit`) reads no base64 payload (a run
# past 128 characters), but a payload cut by escapes is pieces under 128: base64 of binary
# data printed with `\\/` or `\\u002F` for each `/`, `%2F` / `%2B` in a URL's query, or wrapped
# at 64 / 76 columns over escaped breaks in a JSON string, its blob under 4 KiB (a longer one
# is a payload to `secrets_spots`' gate already): QA s46 T7, h46_16's honest chance runs and
# every short escaped-wrapped blob were "high-entropy runs" and refused (session 47, redact).
# A piece is read as the payload's when the run it lies in, its escaped `/` and `+` read and
# its wrapping's lines joined (`_pieces`, lines of one width, `_one_width`), spells more than
# `_PAYLOAD_LEAST` base64 characters that decode to binary data (`_binary`): what a payload
# holds is read by the families and the glued rules, as a plain payload's is.
_PAYLOAD_LEAST = 129


def in_escaped_payload(text: str, start: int, end: int, cache: list[object]) -> bool:
    """Whether `text[start:end]` (an ASCII text's run the reader's rule would name) is a
    piece of base64 of binary data cut by escapes (above). `cache`: the text's bytes and map,
    and its last payload's ends and verdict (the pieces of one payload are asked in turn: it
    is read once)."""
    if not cache:
        cache += [text.encode("ascii"), None]
        cache[1] = map_run(cache[0])  # type: ignore[arg-type]
    raw, mapped = cache[0], cache[1]
    assert isinstance(raw, bytes) and isinstance(mapped, bytes)
    last = cache[2] if len(cache) > 2 else None
    if isinstance(last, tuple) and last[0] <= start and end <= last[1]:
        return bool(last[2])
    lo = mapped.rfind(b" ", 0, start) + 1
    if lo and raw[lo - 1] == 92 and raw[lo] in b"nr":
        lo += 1  # (an escaped line break's letter)
    hi = mapped.find(b" ", end)
    hi = len(raw) if hi < 0 else hi
    pieces = _pieces(raw, mapped, lo, hi, lo, hi, _IN_WINDOW)
    if len(pieces) > 1 and not _one_width(pieces, raw=raw):
        pieces = [(lo, hi)]
    if len(pieces) == 1 and not _escapes_in(raw, lo, hi):
        verdict = False  # (no escape cuts it: the reader's own bounds hold)
    else:
        plain = bare(b"".join(raw[a:b] for a, b in pieces))
        window = plain[:2 * _IN_WINDOW]  # (its 4 alignments: a run may start in a group)
        verdict = len(plain) >= _PAYLOAD_LEAST and all(
            _decodes_binary(window[k:k + (len(window) - k) // 4 * 4]) for k in range(4))
    cache[2:] = [(pieces[0][0], pieces[-1][1], verdict)]
    return verdict


def _width(raw: bytes, a: int, b: int) -> int:
    """The base64 characters `raw[a:b]` spells (its escapes read, as `bare` reads them: each
    `\\`-escaped `/` one character, its backslashes none; `\\u002F` one, `%2F` one), by
    counts at C speed (`bare` a piece cost ~5 us: a wrapping's 64 pieces a match)."""
    return b - a - raw.count(b"\\", a, b) - 4 * raw.count(b"\\u002", a, b) \
        - 2 * raw.count(b"%2", a, b)


def _pieces(raw: bytes, mapped: bytes, lo: int, hi: int, start: int, end: int, reach: int,
            back: bool = True) -> list[tuple[int, int]]:
    """The run `raw[lo:hi]` and the runs before (`back`) and after it over escaped line
    breaks, up to `reach` characters either side of `raw[start:end]`: (start, end) each."""
    pieces = [(lo, hi)]
    while back and pieces[0][0] >= 4 and start - pieces[0][0] < reach:
        k = pieces[0][0]
        brk = _break_before(raw, k)
        if not brk:
            break
        a = mapped.rfind(b" ", 0, k - brk) + 1
        if raw[a - 1:a] == b"\\" and raw[a:a + 1] in (b"n", b"r"):
            a += 1
        if a >= k - brk:
            break
        pieces.insert(0, (a, k - brk))
    while end - pieces[-1][1] > -reach and pieces[-1][1] < len(raw):
        k = pieces[-1][1]
        brk = _break_after(raw, k)
        if not brk:
            break
        b = mapped.find(b" ", k + brk)
        b = len(raw) if b < 0 else b
        if b <= k + brk:
            break
        pieces.append((k + brk, b))
    return pieces


def _side(raw: bytes, lo: int, hi: int, start: int, end: int,
          joined: tuple[bytes, int] | None, left: bool) -> bytes:
    """The long side of the match (`left`: before it): up to `_IN_WINDOW` of its characters,
    in the run's own 4-character groups (from the run's start), the match's own characters
    not read."""
    run, at = joined if joined is not None else (raw[lo:hi], start - lo)
    stop = at + min(end - start, _KEY_SPAN)
    if left:
        b = at // 4 * 4
        a = max(0, b - _IN_WINDOW // 4 * 4)
    else:
        a = -(-stop // 4) * 4
        b = a + (min(len(run), a + _IN_WINDOW) - a) // 4 * 4
    return run[a:b]


def _side_binary(raw: bytes, lo: int, hi: int, start: int, end: int,
                 joined: tuple[bytes, int] | None, left: bool) -> bool:
    """Whether the long side of the match (`_side`) decodes to binary data by itself."""
    side = _side(raw, lo, hi, start, end, joined, left)
    return len(side) >= _ONE_SIDE - 4 and _binary(side)


def _dense(side: bytes) -> bool:
    """Whether base64 characters decode to dense data: a picture's or a compressed stream's
    bytes, `_DENSE` bits a byte or more (random bytes hold ~7.1 over 192 bytes, a PNG's or
    GIF's 300-3,000 ~7.5-7.9), not a few bytes repeated (`ab/+` * 30 or "Q" * 900: 1.6)."""
    plain = bare(side)  # (escaped slashes: `map_run`)
    try:
        data = binascii.a2b_base64(plain[:len(plain) // 4 * 4].translate(TO_STD))
    except (binascii.Error, ValueError):
        return False
    if not data:
        return False
    counts = Counter(data)
    n = len(data)
    return -sum(k / n * math.log2(k / n) for k in counts.values()) >= _DENSE

