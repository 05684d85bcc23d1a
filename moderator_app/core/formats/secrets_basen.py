"""A secret in a base-N text encoding other than base64 and hex: base32 (RFC 4648 and its
`hex` alphabet), Ascii85 (Adobe's `<~...~>`), uuencode and xxencode; read by
`withhold` and `verify` alike (session 40, spell; issue 15, QA s39 T6 h39_02/05/06).

`base32 cloud.token` wraps its output at 76 characters; `uuencode` writes `begin 644 name`,
then rows led by their length (`M` for 45 bytes); Python's `a85encode(adobe=True)` writes
`<~...~>`. Each is the key to anyone who decodes it; the base64 view read base32's rows as
base64 (no text) and none of the others: `withhold` published all three, `verify` named none.

One view, table-driven (`_FAMILIES`): a family is its marker (or, for base32, a run of its
characters) and its finder, which cuts a run of its breaks (real or escaped) and decodes it. What decodes to text is read for the families and patterns; bytes by the byte
patterns and their printable stretches, as `od -b`'s are. An honest base32 or uuencode of a
text is that text read again.

Bounded: each family's gate is a substring search (a uuencode's `begin `; Ascii85's `<~`) or
one C pass shared with the number dumps' (`_gate`: a run of `_B32_ROW` base32 characters
where a run may start; base64 shuts it), its rows found by one regex a run, at most
`_DECODED_MAX` decoded bytes a line.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Callable, Iterator

from moderator_app.core.formats import native, secrets_radix
from moderator_app.core.formats.secrets_bytes import HEX_DIGITS, _printable
from moderator_app.core.formats.secrets_inflate import told
from moderator_app.core.formats.secrets_text import is_text
from moderator_app.core.formats.secrets_unwrap import stream_views

BASE32 = "a base32 run in it is decoded"
ASCII85 = "an Ascii85 span in it is decoded"
UUENCODE = "a uuencode or xxencode body in it is decoded"

_BR = rb"(?:\r?\n|\\r\\n|\\n)"
_B32_MIN = 24  # characters of a run (a key's 15+ bytes)
_B32_ROW = 16  # characters of a row, the gate's needle (`basenc -w 16`: the run is wrapped)
# a base32 run: upper-case letters and 2-7 (or base32hex's 0-9 and A-V), rows of one width
# broken as a file's lines are (coreutils: 76), `=` padding at its end; one case throughout
_B32 = re.compile(rb"[A-Z0-9](?:(?<![A-Za-z0-9+/][A-Z0-9])|(?<=\\[nrt][A-Z0-9])|(?<=^[A-Z0-9]))"
                  rb"(?:[A-Z0-9]{15,127}" + _BR + rb"(?:[A-Z0-9]{16,128}" + _BR + rb")*"
                  rb"[A-Z0-9]{2,128}|[A-Z0-9]{23,})=*(?![A-Za-z0-9+/])")
# The gate's map (`_b32_open`): base32's characters to `a`, base64's others to `b` (`n`, `r`,
# `t` to `c`: an escaped break's letter), all else to `x`. A run starts where the regex's
# lookbehind lets it: after no base64 character (`x`), an escaped break (a backslash, `x`, then `c`)
# or at the text's start, so its first `_B32_ROW` characters follow an `x`, an `xc` or
# nothing. Base64 is all of one run (its lower case `b`): e_b64gz's 16 KB lines opened the
# gate's former needle, 16 `a`s anywhere, at 135 of 200 lines, and the regex cost 1.1 ms a
# line there (QA s40 T8: 1.43-1.52x the CPU of its base), no run found
_B32_MAP = bytes(97 if (65 <= c <= 90 or 48 <= c <= 57) else 99 if c in b"nrt"
                 else 98 if (97 <= c <= 122 or c in b"+/") else 120 for c in range(256))
_B32_STARTS = (b"x" + b"a" * _B32_ROW, b"xc" + b"a" * _B32_ROW)
_B32_ALPHA = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_B32HEX_ALPHA = b"0123456789ABCDEFGHIJKLMNOPQRSTUV"
_B32_AS_INT = bytes.maketrans(_B32_ALPHA, b"0123456789abcdefghijklmnopqrstuv")
_BREAK = re.compile(_BR)
# (a row: characters of either alphabet, a backslash only as a JSON line escapes one; so an
# escaped line break ends it: the zero-length row "`" then `end` were one row, h39_06's log)
_UU_ROW = re.compile(rb"(?:" + _BR + rb")((?:[ -\[\]-z]|\\[\\\"/]){1,90}?)(?=" + _BR + rb"|$)")
_JSON_ESCAPE = re.compile(rb'\\([nrt"\\/])')  # (a row as a JSON line writes it)
_UU_ALPHA = bytes(range(32, 97))
_XX_ALPHA = b"+-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_XX_AS_UU = bytes.maketrans(_XX_ALPHA, bytes(range(32, 96)).replace(b" ", b"`"))
# (`z`: four zero bytes, as Adobe's and Python's encoders write them; a gzip header's mtime is
# four zeros, so a span of gzip was never matched: QA s45 h45_11, session 46)
_A85 = re.compile(rb"<~([!-uz \r\n]*?)~>")
_BREAKS = b"\r\n\\nr"  # (a run is upper case: `n` and `r` are its escaped breaks)
_DECODED_MAX = 1 << 20
_A85_MAX = 1 << 16  # bytes of an Ascii85 span decoded
_LEAST = 8
_ALNUM = bytes(c for c in range(256) if chr(c).isascii() and chr(c).isalnum())


def basen_in(data: bytes | memoryview) -> bool:
    """Whether `data` may hold a run of any family here: `<~`, a `begin ` line, or a run of
    `_B32_ROW` upper-case letters and digits (base32's, or a digest's: the regex decides)."""
    raw = bytes(data)
    return b"<~" in raw or b"begin " in raw or bool(_gate(raw) & 1)


def _b32_open(mapped: bytes) -> bool:
    """Whether `mapped` (a text through `_B32_MAP`) holds the first `_B32_ROW` characters of
    a run the regex (`_B32`) may match: where it may start, as its lookbehind says."""
    return (mapped.startswith(b"a" * _B32_ROW)
            or any(start in mapped for start in _B32_STARTS))


def _gate_py(raw: bytes) -> int:
    """1 when a base32 run may start in `raw` (`_b32_open`), | 2 when a dump of numbers may
    be there (`secrets_radix.radix_in`): `_unescape.spelled_gate`'s reference."""
    return _b32_open(raw.translate(_B32_MAP)) | secrets_radix.radix_in(raw) << 1


# Both gates of a text in one C pass, no copy: the two `translate`s and three substring
# searches, asked of every view of every line, cost e_mixlong's lines ~15 % (session 41)
_gate: Callable[[bytes], int] = (native.UNESCAPE.spelled_gate if native.UNESCAPE is not None
                                 else _gate_py)


def spots(data: bytes, lo: int, hi: int, gate: bool) -> list[int]:
    """Offsets from `lo` of the first place of each line of `data[lo:hi]` where `basen_in`
    opens (verify asks those lines); `gate`: the range's `basen_in`."""
    if not gate:
        return []
    out: list[int] = []
    mapped = data[lo:hi].translate(_B32_MAP)
    if mapped.startswith(b"a" * _B32_ROW):
        out.append(0)
    # (a run's needle holds the byte or two before it, `\n` when it starts a line: skipped)
    for needle, hay, base, skip in ((b"<~", data, lo, 0), (b"begin ", data, lo, 0),
                                    *((start, mapped, 0, len(start) - _B32_ROW)
                                      for start in _B32_STARTS)):
        end = hi - lo + base
        i = hay.find(needle, base, end)
        while i >= 0:
            out.append(i - base + skip)
            nxt = data.find(b"\n", i - base + lo + skip, hi)
            if nxt < 0:
                break
            i = hay.find(needle, nxt - lo + base, end)
    return out


def _base32(run: bytes) -> bytes | None:
    """The bytes a base32 run (either alphabet, wrapped) stands for, or None: its characters
    mapped to `int`'s base-32 digits and read as one number (C speed; `base64.b32decode` is
    a Python loop, ~7 ms a 5.5 KB run: e_base32's line)."""
    body = run.translate(None, _BREAKS).rstrip(b"=")
    if len(body) % 8 in (1, 3, 6) or len(body) < _B32_MIN:
        return None
    if body.translate(None, _B32_ALPHA):
        if body.translate(None, _B32HEX_ALPHA):
            return None
        digits = body.lower()  # (base32hex's alphabet is `int`'s)
    else:
        digits = body.translate(_B32_AS_INT)
    bits = 5 * len(body)
    return (int(digits, 32) >> (bits % 8)).to_bytes(bits // 8, "big")


def _unjson(data: bytes) -> bytes:
    """`data` with a JSON string's escapes undone (`\\\\`, `\\"`, `\\/`) and its escaped
    line breaks and tabs dropped: a body's rows as a JSON line writes them."""
    return _JSON_ESCAPE.sub(lambda m: b"" if m.group(1) in b"nrt" else m.group(1), data)


def _uu(rows: list[bytes]) -> bytes | None:
    """The bytes of a uuencode (or xxencode: its alphabet mapped to uuencode's) body's rows,
    each led by its length, or None when a row is no such row."""
    rows = [_unjson(row) if 92 in row else row for row in rows]
    xx = any(row.translate(None, _UU_ALPHA) for row in rows)  # (lower case: xxencode's)
    out = []
    for row in rows:
        if xx:
            row = row.translate(_XX_AS_UU)
        try:
            out.append(binascii.a2b_uu(row))
        except binascii.Error:
            return None
    return b"".join(out)


def _uu_bodies(raw: bytes) -> Iterator[tuple[int, bytes]]:
    """(column, bytes) of each uuencode / xxencode body after a `begin MODE NAME` line.
    Linear (review s40 R1: a line of 20,000 `begin ` took 33.6 s): the next `begin` is looked
    for past the break and rows this one read (a `begin` before that break has the same rows),
    and none is looked for once no break follows."""
    at = raw.find(b"begin ")
    while at >= 0:
        rows, brk = [], _BREAK.search(raw, at)
        if brk is None:
            return  # (no break after it: no later `begin` has rows either)
        pos = brk.start()
        while (m := _UU_ROW.match(raw, pos)) is not None and m.group(1) != b"end" \
                and not m.group(1).startswith(b"begin "):  # (the next body's, or a line's)
            row = m.group(1)
            if row in (b"`", b" ", b"+"):
                break  # (a zero-length row: the body's end)
            rows.append(row)
            pos = m.end()
        if rows and (got := _uu(rows)) is not None:
            yield at + 1, got
        at = raw.find(b"begin ", max(at + 6, pos))


def _a85(raw: bytes) -> Iterator[tuple[int, bytes]]:
    """(column, bytes) of each Adobe Ascii85 span `<~...~>`."""
    return ((column, got) for column, _, got in _a85_spans(raw))


def _a85_spans(raw: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(column, end, bytes) of each Adobe Ascii85 span `<~...~>`."""
    for m in _A85.finditer(raw):
        if m.end() - m.start() > _A85_MAX:
            continue  # (`a85decode` is a Python loop; a key's span is short)
        body = _unjson(m.group(1)).translate(None, b"\r\n\t ")
        try:
            yield m.start() + 1, m.end(), base64.a85decode(body)
        except ValueError:
            continue


@functools.lru_cache(maxsize=4)
def _b32_runs(raw: bytes) -> tuple[tuple[int, int, bytes], ...]:
    """(start, end, bytes) of each base32 run of `raw` (asked by `basen_views` and by
    `explained` of one line: found and decoded once)."""
    if not _gate(raw) & 1:
        return ()
    return tuple((m.start(), m.end(), got) for m in _B32.finditer(raw)
                 if m.end() - m.start() >= _B32_MIN and (got := _base32(m.group())) is not None)


def explained(raw: bytes, is_text: Callable[[bytes], bool]) -> bytes:
    """`raw` with each base32 run that decodes to text blanked (spaces: a JSON line stays
    one), for the reader's view (`secrets_read.reader_hit`): such a run is an encoding, its
    text read by `basen_views`, no key written as it is; its rows read as high-entropy
    runs were ~60 % of a line's cost (e_base32, QA s39 T7). A key's characters decode to
    bytes that are no text: its run is kept. An Adobe Ascii85 span `<~...~>` of text or of a
    compressed stream is blanked too (review s46 R4): its stream was read whole by the views
    before the reader is asked (`secrets_public.scan_public`: a key there is named, a stream
    too large refuses the line), but 57 of Ascii85's 85 characters are letters and digits, so
    its own characters held a "high-entropy run" by chance every ~3 KB (11 of 21 honest spans
    of gzip refused), as base64's payloads would without their exemption."""
    runs = [(start, end) for start, end, got in _b32_runs(raw) if is_text(got)]
    if b"<~" in raw:
        runs += [(column - 1, end) for column, end, got in _a85_spans(raw)
                 if told(got) or is_text(got)]
    return blanked(raw, runs)


def blanked(raw: bytes, runs: list[tuple[int, int]]) -> bytes:
    """`raw` with each of `runs` (start, end) made spaces (a JSON line stays one)."""
    if not runs:
        return raw
    out = bytearray(raw)
    for start, end in runs:
        out[start:end] = b" " * (end - start)
    return bytes(out)


# Base58 (Bitcoin's alphabet: `base58 < hint.txt`) and base62 (0-9A-Za-z or 0-9a-zA-Z) of text
# (session 46, spell; QA s44 h44_15 line 19, QA s41 h41_12 line 15): a whole number written in
# letters and digits, so a run of 22-512 of them standing alone (no base64 character either
# side: a screenshot's pieces between `/` are not asked) read as one is bytes; text there is an
# encoding whose text is read by every detector (`bignum_texts`), not a key written as it is.
# Random letters (a key) decode to bytes that are no text, and are kept for the reader.
BIGNUM = "a base58 or base62 run in it is decoded"
_BIG_MIN, _BIG_MAX = 22, 512
_BIG_TRIES = 8  # runs a line decoded (a mail's 76-column rows are pure letters one in ten)
_B58 = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B62 = (b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGIT_OF = {alphabet: bytes.maketrans(alphabet, bytes(range(len(alphabet))))
             for alphabet in (_B58, *_B62)}
_NOT_B58 = b"0OIl"
_B64_RUN = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "+/_-=") else 32
                 for c in range(256))
_BIG_RUN = re.compile(rb"a{%d,}" % _BIG_MIN)


def _bignum(run: bytes, alphabet: bytes) -> bytes:
    """`run` read as one number in `alphabet`'s digits, its bytes (big-endian)."""
    n, base = 0, len(alphabet)
    for digit in run.translate(_DIGIT_OF[alphabet]):
        n = n * base + digit
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


def bignum_texts(raw: bytes, least: int = _BIG_MIN) -> tuple[tuple[int, int, bytes], ...]:
    """(start, end, text) of each run of `raw` (above) that is base58 or base62 of text: asked
    only of a line the reader names (`secrets_public.scan_public`), so an honest log pays
    for it on those lines alone (read on every line the reader was asked, it cost e_mime76's
    wrapped mail ~20 %); and, from `least` = `LONG` characters (a run the reader never names:
    a payload), of every line holding one (`long_bignum_in`; review s46 R7)."""
    found: list[tuple[int, int, bytes]] = []
    for start, end, run in _bignum_runs(raw, least):
        for alphabet in (_B58, *_B62) if run.translate(None, _NOT_B58) == run else _B62:
            if not _head_text(run, alphabet):
                continue  # (its leading bytes are no text: no full reading)
            got = _bignum(run, alphabet)
            if len(got) >= _LEAST and is_text(got):
                found.append((start, end, got))
                break
    return tuple(found)


# Base58 / base62 of a text longer than ~95 bytes is a run past the high-entropy rule's 128
# characters, a payload the reader never names, so `bignum_texts` was never asked of it and a key
# in such a text was published (review s46 R7: 8 of 8 with a comment line before the key). Such
# a run, `LONG` to `_BIG_MAX` characters (~375 bytes of text), is read on any line that holds
# one, by `withhold` and by `verify`'s gate (`bignum_spots`) alike; past `_BIG_MAX` (a run read
# as one number costs its length squared) it is left as before: a payload, unread.
LONG = 129
_HEAD_DIGITS = 24  # (58^24 ~ 2^140: the number's first 8 bytes told from its first 24 digits)
_HEAD_BYTES = 8
_TEXTISH = bytes(range(32, 127)) + b"\t\n\r"


def _head_text(run: bytes, alphabet: bytes) -> bool:
    """Whether the number `run` spells in `alphabet` may be text: its first `_HEAD_BYTES`
    bytes, told from its first `_HEAD_DIGITS` digits (the rest's carry may change the last of
    them), printable but for two (a UTF-8 text's accents). Random letters pass ~1 in 100: a
    full reading of a 512-character run costs ~140 us, this ~10 (review s46 R7's bound)."""
    base, head = len(alphabet), run[:_HEAD_DIGITS]
    n = 0
    for digit in head.translate(_DIGIT_OF[alphabet]):
        n = n * base + digit
    n *= base ** (len(run) - len(head))
    size = (n.bit_length() + 7) // 8
    top = (n >> 8 * max(0, size - _HEAD_BYTES)).to_bytes(min(size, _HEAD_BYTES), "big")
    return len(top.translate(None, _TEXTISH)) <= 2


def _bignum_runs(raw: bytes, least: int) -> Iterator[tuple[int, int, bytes]]:
    """(start, end, run) of each run `bignum_texts` reads (22-512 letters and digits standing
    alone, above; `least` characters or more), at most `_BIG_TRIES` a line."""
    tries = _BIG_TRIES
    mapped = raw.translate(_B64_RUN)
    for m in (_BIG_RUN if least == _BIG_MIN else _long_run(least)).finditer(mapped):
        start, end = m.start(), m.end()
        if start and raw[start - 1] == 92 and raw[start] in b"nrt":
            start += 1  # (an escaped line break's letter: `\\n<run>`)
        run = raw[start:end]
        if not least <= len(run) <= _BIG_MAX or run.translate(None, _ALNUM) \
                or not run.translate(None, HEX_DIGITS) or _wrapped(raw, mapped, start, end):
            continue  # (a base64 piece or row, too long or short, or hex: read by their views)
        tries -= 1
        if tries < 0:
            return  # (the rest are left to the reader, as before: named, never published)
        yield start, end, run


@functools.lru_cache(maxsize=4)
def _long_run(least: int) -> re.Pattern[bytes]:
    return re.compile(rb"a{%d,}" % least)


_LONG_NEEDLE = b"a" * LONG


def _long_runs(data: bytes | memoryview) -> list[tuple[int, int]]:
    """(start, end) of each run of `LONG`+ base64 characters of `data` (`_unescape.runs`, one
    C pass, ~0.6 ns a byte; else a `translate` and a `find` a run): where base58 / base62 past
    the reader's reach may be."""
    if native.UNESCAPE is not None:
        return list(native.UNESCAPE.runs(data, 0, LONG))
    mapped = bytes(data).translate(_B64_RUN)
    out: list[tuple[int, int]] = []
    i = mapped.find(_LONG_NEEDLE)
    while i >= 0:
        end = mapped.find(b" ", i)
        end = len(mapped) if end < 0 else end
        out.append((i, end))
        i = mapped.find(_LONG_NEEDLE, end)
    return out


def _alnum_runs(data: bytes | memoryview) -> list[int]:
    """Starts of the runs of `_long_runs(data)` of `LONG` to `_BIG_MAX` letters and
    digits alone: a base64 blob's run (a screenshot's, 16 KB a line of e_b64gz) is longer or
    holds `+/`, and is passed over at a length test (read, each cost e_b64gz ~5 %)."""
    return [start for start, end in _long_runs(data) if end - start <= _BIG_MAX
            and not bytes(data[start:end]).translate(None, _ALNUM)]


def long_bignum_in(raw: bytes) -> bool:
    """Whether `raw` holds a run `bignum_texts` reads from `LONG` (`_alnum_runs`): the line
    may hold base58 / base62 past the reader's reach."""
    return bool(_alnum_runs(raw))


def bignum_spots(data: bytes, lo: int, hi: int) -> list[int]:
    """Offsets from `lo` of each line of `data[lo:hi]` holding a run past the reader's reach
    that is base58 / base62 of text (`bignum_texts` from `LONG`): verify asks those lines.
    One C pass over the range (`_alnum_runs`); a line holding such a run read alone."""
    out: list[int] = []
    after = lo
    for start in _alnum_runs(memoryview(data)[lo:hi]):
        if lo + start < after:
            continue  # (a run of a line read already)
        a = data.rfind(b"\n", lo, lo + start) + 1 or lo
        b = data.find(b"\n", lo + start, hi)
        b = hi if b < 0 else b
        if bignum_texts(data[a:b], LONG):
            out.append(a - lo)
        after = b
    return out


def _wrapped(raw: bytes, mapped: bytes, start: int, end: int) -> bool:
    """Whether `raw[start:end]` is a row of a wrapped blob: a line break (real or escaped)
    then 16 base64 characters after it, or 16 and a line break before it (a mail's 76-column
    base64 rows are pure letters one in ten; each read as a number cost e_mime76 ~20 %)."""
    at = end
    while raw[at:at + 2] in _ESCAPED_BREAKS or raw[at:at + 1] in _REAL_BREAKS:
        at += 2 if raw[at:at + 1] == b"\\" else 1
    if at > end and mapped[at:at + 16] == _SIXTEEN:
        return True
    at = start
    while raw[at - 2:at] in _ESCAPED_BREAKS or raw[at - 1:at] in _REAL_BREAKS:
        at -= 2 if raw[at - 2:at - 1] == b"\\" else 1
    return at < start and mapped[max(0, at - 16):at] == _SIXTEEN


_ESCAPED_BREAKS = (b"\\n", b"\\r")
_REAL_BREAKS = (b"\r", b"\n")
_SIXTEEN = b"a" * 16


def _b32_found(raw: bytes) -> Iterator[tuple[int, bytes]]:
    """(column, bytes) of each base32 run (`_b32_runs`)."""
    return ((start + 1, got) for start, _, got in _b32_runs(raw))


# The families: (how, the marker a line must hold, or None for `_B32_MAP`'s run; the finder
# of (column, bytes) a run). A new encoding is a row here and its finder.
_FAMILIES = ((ASCII85, b"<~", _a85), (UUENCODE, b"begin ", _uu_bodies),
             (BASE32, None, _b32_found))


def basen_views(raw: bytes) -> Iterator[tuple[str, bytes, int]]:
    """(how, bytes, column) of each run of the families here (`_FAMILIES`) that decodes to
    `_LEAST`+ bytes, at most `_DECODED_MAX` bytes a line."""
    left = _DECODED_MAX
    for how, marker, finder in _FAMILIES:
        if marker is not None and marker not in raw:
            continue
        for column, got in finder(raw):
            if len(got) < _LEAST:
                continue
            left -= len(got)
            if left < 0:
                return
            yield how, got, column


def spelled_in(data: bytes | memoryview) -> bool:
    """Whether `data` may hold a run of this module's families or a dump of numbers
    (`secrets_radix`): verify's gate for both (`secrets_decode.encoded_gates`)."""
    raw = bytes(data)
    return b"<~" in raw or b"begin " in raw or _gate(raw) != 0


def spelled_spots(data: bytes, lo: int, hi: int, gate: bool) -> list[int]:
    """`spots` of both (verify asks those lines; `gate`: the range's `spelled_in`)."""
    if not gate:
        return []
    raw = data[lo:hi]
    gates = _gate(raw)
    basen = b"<~" in raw or b"begin " in raw or bool(gates & 1)
    return spots(data, lo, hi, basen) + secrets_radix.spots(data, lo, hi, bool(gates & 2))


def spelled_views(raw: bytes, is_text: Callable[[bytes], bool]
                  ) -> Iterator[tuple[str, bytes, bool, int]]:
    """(how, view, whether it is text, column) of each run of this module's families and each
    dump of numbers in `raw`, read alone: a view that is no text is read as bytes, then its
    16+ printable stretches as text (as `od -b`'s are, `secrets_octets`); a compressed stream
    as what it inflates to (`secrets_unwrap.stream_views`, session 45)."""
    found = [(secrets_radix.RADIX, got, column) for got, column in secrets_radix.radix_views(raw)
             ] if _gate(raw) & 2 else []
    found += list(basen_views(raw))
    for how, got, column in found:
        text = is_text(got)
        if not text and (opened := stream_views(got, column, raw[column - 1:column + 63])):
            yield from opened  # (a compressed stream: base32 of zlib, QA s44 h44_10; one
            continue  # too large to read ends no views: session 47, allow)
        yield how, got, text, column
        if not text and (printable := _printable(got)):
            yield how, printable, True, column
