"""Where the reader's view (`secrets_read.reader_hit`) is worth asking in a line or a block:
the gate `withhold` (`secrets_public.scan_public`) and `verify`
(`withhold_gate.public_secret_hits`) share, so the two ask the same lines. Split from
`secrets_public` (session 45, spell: module size, 586 lines), no behaviour change; its names
are importable from there as before."""

from __future__ import annotations

import re

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets import markers_of
from moderator_app.core.formats.secrets_decode import hex_text
from moderator_app.core.formats.secrets_read import FORMAT_BYTES

# Where the reader's view (`secrets_read.reader_hit`) is worth asking: a format character
# (decoded or, as `verify` reads a line, escaped), or a run of 16+ characters of a key's
# alphabet (`/` and `.` not counted) under 4,096 (a payload) holding upper case and a digit,
# or hex of text (`secrets_decode.hex_text`: a hash is not asked):
# what a key's part, head or high-entropy run the reader names has (a base64 key cut by `/`
# into pieces all under 16 is not asked). An honest line's long runs are words, paths, model
# ids, lower-case hex and base64 payloads. Told at C speed: each such character mapped to `a`
# (`translate`), a run found by a substring search for 16 of them, its bytes tested by
# deleting the others; Python touches each long run, never each byte (`verify` of 75 MB of
# message histories spent 0.5 s in a regex over every line so).
_READER_RUN = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "_-+=")
                    else 32 for c in range(256))  # (`/` and `.` end a run: paths, model ids)
_READER_NEEDLE = b"a" * 16
_READER_MAX = 4096
_SPOTS_MAX = 1 << 16
_FORMAT_ESCAPED = re.compile(rb"\\u(?:00[aA][dD]|180[eE]|200[b-fB-F]|202[a-eA-E]"
                             rb"|206[0-46-9]|[fF][eE][fF][fF])")
# The format characters' UTF-8 (`secrets_read._FORMAT`), whole: their first two bytes start
# most typographic punctuation (`…`, `’`, `—`).
FORMAT_MARKERS = (b"\xc2\xad", b"\xe1\xa0\x8e", *(b"\xe2\x80" + bytes([c]) for c in (
    0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0xaa, 0xab, 0xac, 0xad, 0xae)), *(b"\xe2\x81" + bytes([c])
    for c in (0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa6, 0xa7, 0xa8, 0xa9)), b"\xef\xbb\xbf")
_NOT_DIGITS = bytes(range(48)) + bytes(range(58, 256))
_NOT_UPPER = bytes(range(65)) + bytes(range(91, 256))


def has_format(data: bytes | memoryview) -> bool:
    """Whether `data` may hold a format character, raw or escaped (one SIMD pass, a
    substring test and, only then, a regex: the regex alone cost ~11 ns a byte on text with
    accents and arrows)."""
    found = markers_of(data, (*FORMAT_MARKERS, b"\\u"))
    return bool(found) and (found != (b"\\u",) or _format_escaped_in(data))


# The starts `_FORMAT_ESCAPED` can match at: asked in one SIMD pass before the regex, which
# tries each `\u` of a line (a 48 KB line of `\u0063` text, QA s34's e_uescape: ~0.5 ms, ~7 us
# so; session 35, escape)
_FORMAT_LEADS = (b"\\u00a", b"\\u00A", b"\\u180", b"\\u200", b"\\u202", b"\\u206", b"\\ufe",
                 b"\\ufE", b"\\uFe", b"\\uFE")


def _format_escaped_in(data: bytes | memoryview) -> bool:
    """Whether `data` holds an escaped format character (`_FORMAT_ESCAPED`)."""
    return bool(markers_of(data, _FORMAT_LEADS)) and _FORMAT_ESCAPED.search(data) is not None


def reader_spots(data: bytes | memoryview, formats: bool = True,
                 limit: int = _SPOTS_MAX, lines: bool = False) -> list[int]:
    """Offsets in `data` (a line or a block, as written or escape-decoded) of each place the
    reader's view may show a key (above), in order; [] for most honest text. `formats`:
    False when the caller knows `data` holds no format character (`has_format`); at most
    `limit` runs (a line holding thousands is asked once either way). `lines`: the caller
    wants the lines (`withhold`'s gate), so a line's runs after its first run asked are
    not looked at (a screenshot's base64 after a shell prompt is ~190 runs a 16 KB line,
    each a piece between `/`s; session 43, speed)."""
    data = bytes(data)
    spots = ([m.start() for m in FORMAT_BYTES.finditer(data)]
             if formats and markers_of(data, FORMAT_MARKERS) else [])
    if formats and b"\\u" in data and markers_of(data, _FORMAT_LEADS):
        spots += [m.start() for m in _FORMAT_ESCAPED.finditer(data)]
    if spots and limit == 1:
        return spots[:1]
    if native.UNESCAPE is not None:
        return _reader_runs(data, spots, limit, native.UNESCAPE.reader_next, lines)
    runs = data.translate(_READER_RUN)
    last, payload = -1, False
    i = runs.find(_READER_NEEDLE)
    while i >= 0:
        start = runs.rfind(b" ", 0, i) + 1
        end = runs.find(b" ", i)
        end = len(runs) if end < 0 else end
        if end - start < _READER_MAX:
            run = data[start:end]
            if (run.translate(None, _NOT_DIGITS) and run.translate(None, _NOT_UPPER)) \
                    or hex_text(run) or (start and data[start - 1] == 92 and hex_text(run[1:])):
                # (hex after an escaped line break, `\n676c...`: `xxd -p` output in a string)
                # a piece of a payload (a base64 screenshot cut at each `/`): a string of
                # 4,096+ bytes without a space, skipped whole, at once
                if i >= last:  # (the string around it, found once a string: linear)
                    last, payload = _string_around(data, i)
                if not payload:
                    spots.append(start)
                    if len(spots) >= limit:
                        break
                    end = _line_end(data, end) if lines else end
                else:
                    end = last
        i = runs.find(_READER_NEEDLE, end)
    return sorted(spots)


def _string_around(data: bytes, i: int) -> tuple[int, bool]:
    """The end of the JSON string around offset `i` (its closing quote, or the data's end) and
    whether that string is a piece of a payload (`_READER_MAX`+ bytes without a space), for
    `reader_spots`' two loops (Python's and the one over `_unescape.reader_next`)."""
    first = data.rfind(b'"', 0, i)
    last = data.find(b'"', i)
    last = len(data) if last < 0 else last
    return last, last - first >= _READER_MAX and data.find(b" ", first + 1, last) < 0


def _line_end(data: bytes, at: int) -> int:
    """The offset of the line break at or after `at`, or the data's end (`reader_spots`'
    `lines`)."""
    end = data.find(b"\n", at)
    return len(data) if end < 0 else end


def _reader_runs(data: bytes, spots: list[int], limit: int, reader_next,
                 lines: bool = False) -> list[int]:
    """`reader_spots`' loop over the runs with the runs it does not ask skipped in C
    (`_unescape.reader_next`: the same runs, the same test), the string around a run asked
    looked at here as there (session 35, escape: the loop touched each run of 16+ in Python,
    ~4 us a run: 13.6 s of `withhold`'s CPU on 128 MiB of `xxd -p` output was ~45 % this)."""
    last, payload = -1, False
    got = reader_next(data, 0)
    while got is not None:
        start, end = got
        if start >= last:
            last, payload = _string_around(data, start)
        if not payload:
            spots.append(start)
            if len(spots) >= limit:
                break
            end = _line_end(data, end) if lines else end
        else:
            end = last
        got = reader_next(data, end)
    return sorted(spots)


def reader_candidate(raw: bytes) -> bool:
    """Whether a line is worth the reader's view (`reader_spots`): the one gate of `withhold`
    (`scan_public`) and `verify` (`withhold.public_secret_hits`), so the two ask the same
    lines."""
    return bool(reader_spots(raw, limit=1))
