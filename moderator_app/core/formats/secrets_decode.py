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
- **`\\u` escapes as text** (session 34): `\\uXXXX` that are text once the line is parsed (a
  tool's JSON quoted in an observation, a Java string), decoded when 4+ stand in a row (ES6's
  `\\u{XX}` and PowerShell's `` `u{XX} `` too, session 39);
- **octal** and **mixed** escapes (sessions 37, 38): `\\NNN`, and `\\xHH` / `\\u00HH` / octal
  by turns (fish's `\\XHH` read as `\\xHH`, session 39); runs found in C (`secrets_runs`);
- **base64** (standard or URL-safe): each run of 24+ characters decoded; **hex**: each run of
  32+ hex digits decoded, a dump wrapped at a fixed width (`xxd -p`) read over its line
  breaks (`_hex_runs`). A decoded run that is text (UTF-8,
  97%+ printable) is read as text; one that is bytes (a picture, a digest, random bytes) is
  read only by the byte patterns (`secrets.scan_line`), as before this module;
- **joined string literals** (`secrets_join`, session 34): `"ab" + "cd"` read as `"abcd"`.

A view is tested by the callers (`secrets_public.scan_public`) for every key family, the
named-value and URL patterns and, for text decoded from base64 or hex, the high-entropy rule
(`secrets_read`); a text view is decoded again once (base64 inside base64: a Docker config's
`auth` in a Kubernetes Secret), no deeper.

Bounded (`views`): an escape view decodes its line `_PIECE` bytes at a time (a line past
`_ESC_MAX`: windows around its runs), base64 and hex at most `_BYTES_MAX` decoded bytes a
line, text read until `_TEXT_MAX`; runs are found at C speed (`bytes.translate` and `find`
before any regex on a long line).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from moderator_app.core.formats import native, secrets_bytes, secrets_chars, secrets_octets
from moderator_app.core.formats import secrets_runs as runs
from moderator_app.core.formats.secrets import markers_of
from moderator_app.core.formats.secrets_basen import spelled_in, spelled_spots, spelled_views
from moderator_app.core.formats.secrets_bytes import byte_views
from moderator_app.core.formats.secrets_chars import char_views
from moderator_app.core.formats.secrets_join import (
    CHAIN,
    CHAINS,
    CONCAT,
    JOIN_MARKERS,
    LIST_MARKERS,
    LISTING,
    SHELL_MARKERS,
    joined_views,
    joins_open,
    listed,
    listed_view,
)
from moderator_app.core.formats.secrets_octets import octet_views
from moderator_app.core.formats.secrets_runview import (  # noqa: F401 - (its names, as before)
    _B64_CHARS,
    _HEX_CHARS,
    _HEX_WRAP,
    _WRAP_BYTES,
    BASE64,
    HEX,
    _b64,
    _hex,
    _hex_runs,
    _hex_runs_py,
    _runs,
    _runs_py,
    b64_text,
    hex_text,
    run_views,
)
from moderator_app.core.formats.secrets_text import is_text
from moderator_app.core.formats.secrets_unwrap import stream_views

# Each run pattern below starts with its first escape's first byte, not a group repeated
# (`(?:%[0-9A-Fa-f]{2}){4}` matches the same strings at the same places): `re` then skips to
# that byte at C speed, where it tried the group at every byte, ~70 ns a byte of a line
# without the run (a `\u` view of 8.6 KB: 0.6 ms a search; session 35, escape).
#
# percent: an escape of a character no URL needs escaped (a letter, a digit, `-._~`), or 4+
# escapes in a row (a key cut into escapes)
_PCT_RUN = re.compile(rb"%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2}){3}"
                      rb"|%(?:2[DdEe]|3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])")
# `\xNN` / HTML escapes, 4+ in a row; `\xNN` of printable codes (`\x20`-`\x7f`) each followed by
# up to 3 characters that are no escape, quote or white space (session 38, mendviews; review
# R2: bash's `$'\x67h\x70_\x75B...'`, escapes and letters by turns, as the octal and `\u`
# runs read them). Printable codes only: `\x1b[0m` colour codes are no run (a `password:`
# before them made a value of control characters); the pattern stays one alternative (a
# second at each backslash cost ~3-5 % of e_bashhex's engine; this one measured 0)
_ESC = re.compile(rb"\\\\?x([0-9A-Fa-f]{2})|&#([0-9]{2,3});|&#[xX]([0-9A-Fa-f]{2});")
_ESC_RUN = re.compile(rb"\\(?:\\?x[2-7][0-9A-Fa-f][^\\\s\"']{0,3}+\\){3}\\?x[2-7][0-9A-Fa-f]"
                      rb"|&#[0-9]{2,3};(?:&#[0-9]{2,3};){3}"
                      rb"|&#[xX][0-9A-Fa-f]{2};(?:&#[xX][0-9A-Fa-f]{2};){3}")
# `\uXXXX` escapes written as text (a tool's JSON output quoted in the log: the line spells
# `\\u0067\\u0073...`, which JSON decodes to the text `\u0067\u0073...`, QA s33 h33_02), 4+ in
# a row, each followed by up to 3 characters that are no escape, quote or white space (QA s34
# h34_01: `p\u0070l\u0078-\u0051A...`, escapes and letters mixed); as written in a JSON line
# (`encoded_spots`) their backslash is itself escaped
_U = re.compile(rb"\\\\?u([0-9A-Fa-f]{4})")
_U_RUN = re.compile(rb"\\(?:\\?u[0-9A-Fa-f]{4}[^\\\s\"']{0,3}+\\){3}\\?u[0-9A-Fa-f]{4}[^\\\s\"']{0,3}+")
_U_WRITTEN = re.compile(rb"\\\\u[0-9A-Fa-f]{4}[^\\\s\"']{0,3}+(?:\\\\u[0-9A-Fa-f]{4}[^\\\s\"']{0,3}+){3}")
# ES6's `\u{XX}` (QA s35 h35_06: `"\u{78}\u{61}\u{69}..."`, a JavaScript string): each escape
# of a code under 128 (leading zeros allowed) rewritten `\u00XX` (`_ubrace`), then read as the
# `\u` escapes are, mixed with them and with letters; gated as they are written in a JSON line
# (`\\u{`), 4+ in a row
_U_BRACE = re.compile(rb"(\\\\?)u\{0{0,4}+([0-7][0-9A-Fa-f])\}")
_U_BRACE_WRITTEN = re.compile(rb"\\\\u\{0{0,4}+[0-7][0-9A-Fa-f]\}[^\\\s\"']{0,3}+"
                              rb"(?:\\\\u\{0{0,4}+[0-7][0-9A-Fa-f]\}[^\\\s\"']{0,3}+){3}")
_BRACE, _BRACE_WRITTEN = (b"\\u{",), (b"\\\\u{",)
# C and bash octal escapes `\NNN` (session 37, QA s36 T5 h36_03: bash's ANSI-C quoting
# `export AGE_KEY=$'\101\107\105...'`, a C string `"\163\153..."`): each of a printable code
# (040-176: a key's characters and the space; `\033` and `\000` are kept as written, so a
# colour code decoded never makes a named value the line as written does not hold), one
# backslash or two (a JSON line writes `\\101`), 4+ in a row, each followed by up to 3
# characters that are no escape, quote or white space (as the `\u` view: escapes and letters
# mixed). `echo -e`'s `\0NNN` too (a `0` before the code): `\0101` is `A` to `echo -e`,
# and `\010` then `1` (no printable code) to bash, so the two readings never disagree on a
# printable character. Gated by `\0`/`\1` (`OCTAL_MARKERS`, one SIMD pass of their own).
_PRINTABLE_OCT = rb"(?:0[4-7][0-7]|1[0-6][0-7]|17[0-6])"
_OCT_CODE = rb"(?:" + _PRINTABLE_OCT + rb"|0" + _PRINTABLE_OCT + rb")"
_O = re.compile(rb"\\\\?(" + _OCT_CODE + rb")")
_O_RUN = re.compile(rb"\\(?:\\?" + _OCT_CODE + rb"[^\\\s\"']{0,3}+\\){3}\\?" + _OCT_CODE)
OCTAL_MARKERS = (b"\\0", b"\\1")
_O_CHARS = {form % c: bytes([c]) for c in range(32, 127) for form in (b"%03o", b"%04o")}
# Escapes of every kind in one string (session 38, views; QA s37 T5 h37_05: bash's
# `$'L\124\x41I\065\x66Q...'`, literal characters, octal and hex escapes by turns): each kind's
# run above is broken by an escape of another kind, so no view read it. `\xHH`, `\u00HH` and
# the octal codes of printable characters (a colour code `\x1b[0m` is no run's), 4+ in a row,
# each followed by up to 3 characters that are no escape, quote or white space; decoded in the line by the three decoders in turn
# (`_mixed`). Asked only where a line holds 2+ kinds (`views`, `encoded_spots`): a line of one
# kind is its own view's, and e_bashhex's `\x` lines pay nothing.
_MIX_ESC = rb"\\?(?:x[2-7][0-9A-Fa-f]|u00[2-7][0-9A-Fa-f]|" + _OCT_CODE + rb")"
_MIX_RUN = re.compile(rb"\\(?:" + _MIX_ESC + rb"[^\\\s\"']{0,3}+\\){3}" + _MIX_ESC)

# The runs above found in one C pass where `_unescape` is built (`secrets_runs`, session 39)
ESC_RUNS = runs.Finder(_ESC_RUN, runs.K_X, runs.HTML_RUN)
U_RUNS = runs.Finder(_U_RUN, runs.K_U | runs.K_TAIL)
O_RUNS = runs.Finder(_O_RUN, runs.K_O)
MIX_RUNS = runs.Finder(_MIX_RUN, runs.K_X | runs.K_U00 | runs.K_O)
_ESC_MAX = 16 << 20  # bytes of a line each escape view decodes (the line bound)
_CTX = 4096  # bytes an escape view decodes either side of a run past `_ESC_MAX`
_PIECE = 1 << 16  # bytes of a line decoded at a time

_X_MARKERS = (b"\\x", b"&#", *secrets_bytes.XB_LINE)  # (one SIMD pass: `views`)
PERCENT = "its percent-escapes are decoded"
ESCAPES = "its \\x or HTML character escapes are decoded"
UNICODE = "its \\u escapes are decoded"
OCTAL = "its octal escapes are decoded"
MIXED = "its escapes of several kinds are decoded"
ESCAPE_VIEWS = (PERCENT, ESCAPES, UNICODE, OCTAL, MIXED)  # (whose decoders commute)


def views(raw: bytes) -> Iterator[tuple[str, bytes, bool, int]]:
    """(how, decoded bytes, whether they are text, the column of the encoded spelling) of each
    decoded view of `raw` (the module's docstring), in that order; bounded before anything
    is decoded (session 33's review R4, R5): the escape views decode the line (up to
    `_ESC_MAX`, the line bound) a piece at a time, no Python object an escape held for the
    line; base64 and hex runs at most `_BYTES_MAX` decoded bytes a line, text views until
    `_TEXT_MAX` of text is read. No bound counts runs: a line's ordinary runs (digests,
    identifiers) do not use it up (64 of them hid a key, R5)."""
    if b"%" in raw:
        windows, column = _windows(raw, _PCT_RUN)
        if windows:
            yield PERCENT, _decode(raw, windows, _unquote, b"%", 2), True, column
    hexes = markers_of(raw, _X_MARKERS)
    shells = markers_of(raw, runs.SHELL_MARKERS)  # (a pass of their own: `SHELL_MARKERS`)
    fish = runs.FISH[0] in shells
    xsrc = runs.fish_as_x(raw) if fish else raw
    if hexes or fish:
        windows, column = _windows(xsrc, ESC_RUNS)
        if windows:
            yield ESCAPES, _decode(xsrc, windows, _unescape, b"\\&", 6), True, column
    ps = runs.PS[0] in shells
    unicode = ps or b"\\u" in raw
    kinds = (b"\\x" in hexes or fish) + unicode  # (the kinds: `_MIX_RUN`)
    if unicode:
        # (one SIMD pass: `in` cost ~1.4 ns a byte of a `\u` line, each `\u` a near miss)
        src = runs.ps_as_u(raw) if ps else raw
        src = _ubrace(src) if markers_of(src, _BRACE) else src
        windows, column = _windows(src, U_RUNS)
        if windows:
            yield UNICODE, _decode(src, windows, _unicode, b"\\", 7), True, column
    if markers_of(raw, OCTAL_MARKERS):
        kinds += 1
        windows, column = _windows(raw, O_RUNS)
        if windows:
            yield OCTAL, _decode(raw, windows, _octal, b"\\", 5), True, column
    if kinds >= 2:  # (a `$'...'` mixing kinds: `_MIX_RUN`)
        windows, column = _windows(xsrc, MIX_RUNS)
        if windows:
            yield MIXED, _decode(xsrc, windows, _mixed, b"\\", 7), True, column
    # (the shell's markers by a SIMD pass of their own: two `in`s cost ~1.3-2 ns a byte of a
    # line of quotes and backslashes, 15 ms an 11 MB od -c line of binary; with the join
    # markers in one pass, corpus v2's lines cost ~6x)
    if joins_open(raw, markers_of(raw, JOIN_MARKERS)) or markers_of(raw, SHELL_MARKERS):
        for view, column in joined_views(raw):
            yield CONCAT, view, True, column
    if b".join(" in raw and (joined := listed_view(raw)) is not None:
        yield LISTING, joined[0], True, joined[1]
    for view, text, column, how in byte_views(raw, is_text):
        if not text and how is secrets_bytes.BYTES and (opened := stream_views(
                view, column, raw[column - 1:column + 63])) is not None:
            yield from opened  # (a dump of a compressed stream: `xxd`, `od -An -tx1`; one
            continue  # too large to read ends no views: session 47, allow)
        yield how, view, text, column
    if any(m in hexes for m in secrets_bytes.XB_LINE):  # (a compressed stream in `\xNN`
        # escapes: `secrets_bytes.XB_RUN`)
        for column, got in secrets_bytes.xbyte_streams(raw):
            yield from stream_views(got, column, raw[column - 1:column + 63]) or []
    for view, column in char_views(raw):
        yield secrets_chars.CHARS, view, is_text(view), column
    for view, column in octet_views(raw):  # (`od -b`: bytes, and their printable stretches)
        text = is_text(view)
        yield secrets_octets.OCTETS, view, text, column
        if not text and (printable := secrets_bytes._printable(view)):
            yield secrets_octets.OCTETS, printable, True, column
    yield from spelled_views(raw, is_text)  # (base32, Ascii85, uuencode; numbers' dumps)
    yield from run_views(raw)


def _windows(raw: bytes, run: runs.Finder | re.Pattern[bytes]) -> tuple[list[tuple[int, int]], int]:
    """The (start, end) ranges of `raw` an escape view decodes, and the column of the first
    run of escapes (`run`): none when no run is; the whole line when it is `_ESC_MAX` bytes
    or shorter; else `_CTX` bytes either side of each run found, adjacent ranges merged,
    until `_ESC_MAX` bytes are taken (a 15.7 MB line of `%41` made a 5 MB view at one Python
    call an escape: 557 MB and out of memory under the 512 MiB limit, R4)."""
    m = run.search(raw)
    if m is None:
        return [], 0
    column = m.start() + 1
    if len(raw) <= _ESC_MAX:
        return [(0, len(raw))], column
    out: list[tuple[int, int]] = []
    left = _ESC_MAX
    while m is not None and left > 0:
        lo = max(out[-1][1] if out else 0, m.start() - _CTX)
        hi = min(len(raw), m.end() + _CTX, lo + left)
        if out and out[-1][1] == lo:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
        left -= hi - lo
        m = run.search(raw, hi) if hi < len(raw) else None
    return out, column


def _decode(raw: bytes, windows: list[tuple[int, int]], decode: Callable[[bytes], bytes],
            starts: bytes, reach: int) -> bytes:
    """The windows of `raw` decoded by `decode`, `_PIECE` bytes at a time (the temporaries of
    a piece, never of the line: a regex callback or a split of a 15.7 MB line held millions of
    objects at once, R4), each cut moved back before an escape it would split (a character
    of `starts` within `reach` bytes); the windows joined by line breaks."""
    out = []
    for lo, hi in windows:
        at = lo
        while at < hi:
            cut = min(hi, at + _PIECE)
            if cut < hi:
                back = max(raw.rfind(bytes([c]), cut - reach, cut) for c in starts)
                if back > at:
                    cut = back
                    if cut - 1 > at and raw[cut - 1] == 92:  # (`\\x41`: both backslashes)
                        cut -= 1
            out.append(decode(raw[at:cut]))
            at = cut
        out.append(b"\n")
    return b"".join(out[:-1])


def _unescape_py(data: bytes) -> bytes:
    """`data` with its `\\xNN` and HTML character escapes of a code under 128 decoded (the
    pure-Python path: `_unescape.c` gives the same bytes)."""
    return _ESC.sub(_char, data)


def _unicode_py(data: bytes) -> bytes:
    """`data` with its `\\uXXXX` escapes (one backslash or two) of code < 128 decoded; others
    kept as written (a key is ASCII; as `_unescape` keeps `\\xNN` of 128 or more). The
    pure-Python path: `_unescape.c` gives the same bytes."""
    return _U.sub(_u_char, data)


def _ubrace_py(data: bytes) -> bytes:
    """`data` with each ES6 `\\u{XX}` of a code under 128 written `\\u00XX` (`_U_BRACE`): the
    pure-Python path and the tests' reference. A template with group references is expanded
    in Python a match (~4.6 us): 85 s per 512 MiB of `\\u{41}` lines and 456 MB of pieces from
    one 16.7 MB line (session 36's review V5); `_unescape.ubrace` gives the same bytes in one
    pass."""
    return _U_BRACE.sub(rb"\1u00\2", data)


def _octal_py(data: bytes) -> bytes:
    """`data` with its octal escapes `\\NNN` (one backslash or two) of a printable code
    decoded (`_O`); others kept as written."""
    return _O.sub(_o_char, data)


def _o_char(m: re.Match[bytes]) -> bytes:
    return _O_CHARS[m.group(1)]


# (in C where built, `_unescape.octal`: the same bytes; a regex callback an escape cost ~10 s
# of CPU a 128 MiB log of octal escapes)
_octal: Callable[[bytes], bytes] = (native.UNESCAPE.octal if native.UNESCAPE is not None
                                    else _octal_py)


def _mixed(data: bytes) -> bytes:
    """`data` with its `\\xHH`, `\\uHHHH` and octal escapes decoded (`_MIX_RUN`'s kinds): the
    three decoders in turn, each at C speed where built. (A `\\` one decodes, `\\x5c`, may
    so make an escape of what follows it, `\\101`, which bash would print as written: a
    wider view, never a narrower one.)"""
    return _octal(_unicode(_unescape(data)))


def _u_char(m: re.Match[bytes]) -> bytes:
    code = int(m.group(1), 16)
    return bytes([code]) if code < 128 else m.group()


_HEX_PAIRS = {f"{a}{b}".encode(): bytes([int(a + b, 16)])
              for a in "0123456789abcdefABCDEF" for b in "0123456789abcdefABCDEF"}


def _unquote_py(data: bytes) -> bytes:
    """`data` with its `%XX` escapes decoded (the pure-Python path, one list comprehension
    over its `%` pieces: no regex callback an escape; `_unescape.c` gives the same bytes)."""
    parts = data.split(b"%")
    pairs = _HEX_PAIRS
    return parts[0] + b"".join([(pairs.get(p[:2]) or b"%" + p[:2]) + p[2:]
                                for p in parts[1:]])


# The escape decoders at C speed where `_unescape.c` is built (the Python ones cost ~0.13 s of
# CPU a MB of escapes: session 33's review R16), else the Python ones; the same bytes either way.
_unquote: Callable[[bytes], bytes] = (native.UNESCAPE.unquote if native.UNESCAPE is not None
                                      else _unquote_py)
_unescape: Callable[[bytes], bytes] = (native.UNESCAPE.unescape if native.UNESCAPE is not None
                                       else _unescape_py)
_unicode: Callable[[bytes], bytes] = (native.UNESCAPE.unicode if native.UNESCAPE is not None
                                      else _unicode_py)
_ubrace: Callable[[bytes], bytes] = (native.UNESCAPE.ubrace if native.UNESCAPE is not None
                                     else _ubrace_py)


def _char(m: re.Match[bytes]) -> bytes:
    x, dec, hx = m.groups()
    code = int(x or hx, 16) if (x or hx) else int(dec)
    return bytes([code]) if code < 128 else m.group()


class EncodedGates(NamedTuple):
    """What `encoded_spots` asks of a range before any regex: the markers of `ENCODED_MARKERS`
    and of `PLAIN_MARKERS` there, the byte views' gates (`secrets_bytes._gates`: a dump, a
    decimal list, a shell's quotes), whether `OCTAL_MARKERS` are, whether a character dump
    may be (`secrets_chars.chars_in`) and an octal byte dump (`secrets_octets.octets_in`).
    Asked once a range: `verify`'s chunk asked each of them twice, once to know whether to
    call `encoded_spots` and once in it (session 37, unescape: ~0.06 s a 16 MiB slice of `\\x`
    escapes, 1.9 s per 512 MiB)."""

    found: tuple[bytes, ...]
    plain: tuple[bytes, ...]
    byte_gates: tuple[bool, bool, bool]
    octal: bool
    chars: bool
    octets: bool = False
    shells: tuple[bytes, ...] = ()  # (`secrets_runs.SHELL_MARKERS`: a pass of their own)
    spelled: bool = False  # (`secrets_basen.spelled_in`: base-N runs, dumps of numbers)

    @property
    def open(self) -> bool:
        """Whether any of them may lead `encoded_spots` to a line (`%` apart)."""
        return bool(self.found or self.plain or any(self.byte_gates) or self.octal
                    or self.chars or self.octets or self.shells or self.spelled)


def encoded_gates(window: bytes | memoryview) -> EncodedGates:
    """`EncodedGates` of `window`: eight SIMD passes and up to four `translate`s of it."""
    return EncodedGates(markers_of(window, ENCODED_MARKERS), markers_of(window, PLAIN_MARKERS),
                        secrets_bytes.gates(window), bool(markers_of(window, OCTAL_MARKERS)),
                        secrets_chars.chars_in(window), secrets_octets.octets_in(window),
                        markers_of(window, runs.SHELL_MARKERS), spelled_in(window))


def encoded_spots(data: bytes, lo: int = 0, hi: int | None = None,
                  gates: EncodedGates | None = None) -> list[int]:
    """Offsets from `lo` of each line of `data[lo:hi]` (lines as written) holding a run of
    percent-escapes, character escapes or `\\u` escapes written as text, or a chain of
    joined string literals (`secrets_join`), that `views` would read: where `verify` asks a
    line it would not ask otherwise (a base64 run is asked by the reader's gate already,
    `reader_spots`, and so is hex of text, `hex_text`). A `find` for `%` and one SIMD pass
    for the others' markers, then a regex only in a range holding one, its first match a
    line (the next searched from the next line); no copy of the range. `gates`: the range's
    `encoded_gates`, when the caller has them."""
    hi = len(data) if hi is None else hi
    spots: list[int] = []
    window = memoryview(data)[lo:hi]
    if gates is None:
        gates = encoded_gates(window)
    found = gates.found
    joins = joins_open(data, found, lo, hi)
    spots += secrets_bytes.spots(data, lo, hi, any(m in secrets_bytes.MARKERS for m in found),
                                 gates.byte_gates)
    spots += secrets_chars.spots(data, lo, hi, gates.chars)
    spots += secrets_octets.spots(data, lo, hi, gates.octets)
    spots += spelled_spots(data, lo, hi, gates.spelled)
    if b"\\x" in found:  # (a compressed stream in `\xNN` escapes)
        spots += secrets_bytes.xbyte_spots(data, lo, hi)
    if gates.plain:  # (a plain key of a lower-case family, `secrets_public.plain_family`; a
        # SIMD pass apart: with them, 22 markers in one pass cost 1.7 ns a byte, 14 0.5)
        spots += _plain_spots(data, lo, hi, gates.plain)
    fish = runs.FISH[0] in gates.shells  # (`\X` read as `\x`: in a copy of the range)
    for pattern, present in (
            (_PCT_RUN, data.find(b"%", lo, hi) >= 0),
            (ESC_RUNS, not fish and (b"\\x" in found or b"&#" in found)),
            (runs.PS_WRITTEN, runs.PS[0] in gates.shells),
            (_U_WRITTEN, b"\\\\u" in found),
            (_U_BRACE_WRITTEN, b"\\\\u" in found and bool(markers_of(window, _BRACE_WRITTEN))),
            (O_RUNS, gates.octal),
            (MIX_RUNS, not fish and (b"\\x" in found) + (b"\\\\u" in found) + gates.octal >= 2),
            (CHAINS, joins),
            (listed() if b".join(" in found else CHAIN, b".join(" in found)):
        pos = lo
        while present and (m := pattern.search(data, pos, hi)) is not None:
            spots.append(m.start() - lo)  # (one a line: the line is asked whole)
            pos = data.find(b"\n", m.end(), hi) + 1
            if not pos:
                break
    if fish:  # (the `\\x` and mixed runs: `secrets_runs.spots_of`)
        spots += runs.spots_of(runs.fish_as_x(data[lo:hi]), ((ESC_RUNS, True), (
            MIX_RUNS, 1 + (b"\\\\u" in found) + gates.octal >= 2)))
    return sorted(spots)


# The prefixes of the families whose keys may hold no upper case or no digit
# (`secrets_public.plain_family`, whose gate this is too)
PLAIN_MARKERS = (b"dapi", b"key-", b"_v1_", b"rubygems_", b"sbp_", b"shp", b"xkeysib-",
                 b"tskey-")


def _plain_spots(data: bytes, lo: int, hi: int, present: tuple[bytes, ...]) -> list[int]:
    """Offsets from `lo` of each line of `data[lo:hi]` holding one of `present` (those of
    `PLAIN_MARKERS` there)."""
    out: list[int] = []
    for marker in present:
        i = data.find(marker, lo, hi)
        while i >= 0:
            out.append(i - lo)
            nxt = data.find(b"\n", i, hi)
            i = data.find(marker, nxt, hi) if nxt >= 0 else -1
    return out


# what `encoded_spots` looks for past `%`: `\\x`, HTML's `&#`, `\\u` written as text in a JSON
# line (its backslash escaped)
ENCODED_MARKERS = (b"\\x", b"&#", b"\\\\u", *JOIN_MARKERS, *LIST_MARKERS,
                   *secrets_bytes.MARKERS)
