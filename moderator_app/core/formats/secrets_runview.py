"""Base64 and hex runs of a line decoded (`secrets_decode.views`' last views; split from
`secrets_decode`, session 44, spell, module size): each base64 run of 24+ characters and each
hex run of 32+ digits (a dump wrapped at a fixed width, `xxd -p`, read over its line breaks:
`_hex_runs`) decoded; a decoded run that is text (`is_text`) is read as text, one that is no
text as it stands but is once unwrapped (`secrets_unwrap`: UTF-16, a compressed stream,
rotated letters) as that text, and bytes (a picture, a digest) by the byte patterns only.
Bounded: at most `_BYTES_MAX` decoded bytes a line, text read until `_TEXT_MAX`."""

from __future__ import annotations

import binascii
import functools
import re
from collections.abc import Iterable, Iterator

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets_chance import B64_MAP, wrapped_run
from moderator_app.core.formats.secrets_inflate import Budget, line_budget
from moderator_app.core.formats.secrets_text import is_text
from moderator_app.core.formats.secrets_unwrap import (
    may_unwrap,
    stream_views,
    unwrapped,
)

BASE64 = "a base64 run in it is decoded"
HEX = "a hex run in it is decoded"

# base64 (either alphabet) and hex runs, found at C speed: each run character mapped to `a`,
# a run of the minimum found by a substring search, then read whole
_B64_CHARS = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "+/_-") else 32
                   for c in range(256))
_HEX_CHARS = bytes(97 if chr(c) in "0123456789abcdefABCDEF" else 32 for c in range(256))
_NOT_HEX = b"0123456789abcdefABCDEF"
_NOT_LOWER = bytes(c for c in range(256) if not 97 <= c <= 122)
_B64_MIN = 24
_BREAKS = (b"\\n", b"\\r")  # (escaped line breaks after a base64 line: `openssl base64`'s)
_HEX_MIN = 32
_TEXT_MAX = 1 << 20  # decoded text of base64 / hex runs a line read by the detectors
_BYTES_MAX = 16 << 20  # bytes decoded from base64 / hex runs a line
_RUN_MAX = 16 << 20


def _runs(data: bytes, table: bytes, least: int) -> Iterable[tuple[int, int]]:
    """(start, end) of each maximal run of `table`'s characters (`_B64_CHARS` or
    `_HEX_CHARS`) of `least` or more: one C pass where `_unescape` is built (`runs`; the
    mapping, the search and ~1.5 us of Python a run cost ~0.4 ms a 16 KiB `xxd -p`
    observation, whose 270 lines are 270 base64 runs; session 35, escape)."""
    if native.UNESCAPE is not None:
        return native.UNESCAPE.runs(data, 1 if table is _HEX_CHARS else 0, least)
    return _runs_py(data, table, least)


def _runs_py(data: bytes, table: bytes, least: int) -> Iterator[tuple[int, int]]:
    """`_runs` in Python: each run character mapped to `a`, a run found by a substring
    search."""
    mapped = data.translate(table)
    needle = b"a" * least
    i = mapped.find(needle)
    while i >= 0:
        start = mapped.rfind(b" ", 0, i) + 1
        end = mapped.find(b" ", i)
        end = len(mapped) if end < 0 else end
        yield start, end
        i = mapped.find(needle, end)


def b64_text(run: bytes) -> bytes | None:
    """The text a base64 run (either alphabet, its padding optional) decodes to, or None
    when it is no base64 or its bytes are no text (`is_text`). (Not through `unwrapped`: the
    high-entropy rule asks it of every 20-128-character piece of a screenshot's base64, and
    the wrappers' tests cost e_jpeg64 ~8 %; a compressed stream is told by its magic,
    `secrets_read._MAGIC`.)"""
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

def run_views(raw: bytes, budget: Budget | None = None
              ) -> Iterator[tuple[str, bytes, bool, int]]:
    """`secrets_decode.views`' base64 and hex views of `raw` (the module's docstring); a run
    whose bytes are a compressed stream is read as what it inflates to (`stream_views`, out of
    the line's `budget`); a stream too large to read (`TOO_LARGE`, `SPENT`: the line is
    refused) ends no views: a key in a later run is still named (session 47, allow)."""
    budget = line_budget() if budget is None else budget
    text_left, bytes_left = _TEXT_MAX, _BYTES_MAX
    mapped, after = b"", 0
    for how, table, least in ((BASE64, _B64_CHARS, _B64_MIN), (HEX, _HEX_CHARS, _HEX_MIN)):
        for start, end in (_runs(raw, table, least) if how is BASE64 else _hex_runs(raw)):
            if bytes_left <= 0:
                break
            if start < after:
                continue  # (a wrapped blob's later lines: read with its first)
            if end - start > _RUN_MAX:
                continue
            if start and raw[start - 1] == 92 and raw[start] in b"nrt" \
                    and raw[start + 1:end].translate(None, _NOT_LOWER):
                start += 1  # (an escaped line break's letter: `-w0\\nH4sI...`, h40_09; a
                # run of no lower case after it is a base32 row, e_base32's: not base64)
            run = raw[start:end] if how is BASE64 else raw[start:end].translate(None, _WRAP_BYTES)
            got = _b64(run) if how is BASE64 else _hex(run)
            if got is None:
                continue
            if how is BASE64 and raw[end:end + 2] in _BREAKS and may_unwrap(got):
                # (a compressed blob wrapped at 64 or 76 columns: its first line's bytes tell
                # its wrapper, its key is lines on; read whole, QA s43 h43_07, QA s42 h42_07)
                mapped = mapped or raw.translate(B64_MAP)
                blob = wrapped_run(raw, mapped, start, end, _RUN_MAX)
                if blob is not None and (whole := _b64(blob[0])) is not None:
                    run, got, after = blob[0], whole, blob[1]
            bytes_left -= len(got)
            text = text_left > 0 and is_text(got)
            if not text and (opened := stream_views(got, start + 1, run, budget,
                                                     how is BASE64)) is not None:
                # (gzip, zlib, xz, bzip2, zstd, a ZIP, raw deflate; hex of a stream with a
                # header: `zlib-flate -compress | xxd -p`, QA s45 h45_10, session 46)
                for view in opened:
                    text_left -= len(view[1]) if view[2] else 0
                    yield view
                if how is HEX or b"-" in run or b"_" in run:
                    continue
                yield how, got, False, start + 1  # (its bytes, as any run's: after a damage)
                continue
            if not text and how is BASE64 and text_left > 0 and (
                    inner := unwrapped(got, is_text, run)) is not None:  # (UTF-16, rot13)
                how_in, got, text = inner[0], inner[1], True
            else:
                how_in = how
            if text:
                text_left -= len(got)
            elif how is HEX or b"-" in run or b"_" in run:
                continue  # (bytes: a digest, or a token's dashes read as URL-safe base64)
            yield how_in, got, text, start + 1


# A hex dump wrapped at a fixed width (`xxd -p`: 60 digits a line; QA s33 h33_01 cut a
# Grafana token so): each line break (as text, or escaped as a JSON line writes it) between
# pieces of one width, the last piece shorter or as long; a break escaped twice too (a tool's JSON
# output quoted in the log, `"stdout":"78DA...\\\\n482D..."`: QA s46 h46_14, session 47)
_HEX_WRAP = re.compile(rb"\r?\n|\\\\?r\\\\?n|\\\\?n")
# A wrapped run holds hex digits and those line breaks only, none of whose bytes is a hex
# digit: deleting these bytes is `_HEX_WRAP.sub(b"", run)` at C speed (the regex, with no
# literal to search for, cost ~50 ns a byte: 0.8 s of 16 MiB of `xxd -p` lines; session 35)
_WRAP_BYTES = b"\r\n\\rn"
_HEX_NEXT = re.compile(rb"(?:\r?\n|\\\\?r\\\\?n|\\\\?n)([0-9A-Fa-f]{2,})(?![0-9A-Za-z_.:\-])")
_HEX_PIECE = rb"(?:\r?\n|\\\\?r\\\\?n|\\\\?n)[0-9A-Fa-f]{%d}(?![0-9A-Za-z_.:\-])"


@functools.lru_cache(maxsize=64)
def _hex_wrap(width: int) -> re.Pattern[bytes]:
    """A dump's pieces after its first, of `width` (even, 32+) digits: as many of that width
    as follow, then one narrower (2+): the loop over `_HEX_NEXT` matches of `_hex_runs_py` in
    one regex call (~270 Python steps a 16 KiB `xxd -p` observation)."""
    return re.compile(b"(?:%s)*(?:%s)?" % (_HEX_PIECE % width,
                                            _HEX_PIECE.replace(b"{%d}", b"{2,%d}") % (width - 1)))


def _hex_runs(raw: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each hex run of `_HEX_MIN` digits or more, a run wrapped at a fixed
    width over line breaks (`_HEX_WRAP`) read whole: pieces of the first piece's width (an
    even one, 32+), then one no wider. Two digests on two lines are joined so too: bytes, read
    by the byte patterns only, as each alone. A dump's pieces are matched in one regex call
    and its runs skipped (`_hex_runs_py` matched a piece at a time: the same runs, the same
    ends)."""
    after = 0
    for start, end in _runs(raw, _HEX_CHARS, _HEX_MIN):
        if start < after:
            continue
        width = end - start
        if width % 2 == 0:
            end = _hex_wrap(width).match(raw, end).end()  # type: ignore[union-attr]
        after = end
        yield start, end


def _hex_runs_py(raw: bytes) -> Iterator[tuple[int, int]]:
    """`_hex_runs` as a loop over the runs and their pieces (the reference its tests hold
    it to)."""
    after = 0
    for start, end in _runs_py(raw, _HEX_CHARS, _HEX_MIN):
        if start < after:
            continue
        width = end - start
        while width % 2 == 0 and (m := _HEX_NEXT.match(raw, end)) is not None \
                and m.end(1) - m.start(1) <= width:
            end = m.end(1)
            if m.end(1) - m.start(1) < width:
                break
        after = end
        yield start, end


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
