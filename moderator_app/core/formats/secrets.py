"""Things in a line that look like secrets (docs/DESIGN.md decision 10): where and what, redacted.

The trajectory must hold no API keys, private keys or bearer tokens. We cannot know a secret
when we see one, so this is a heuristic: warnings, never errors. It runs on every line of a
300 MB stream, so each precompiled pattern runs only on lines that contain its
literal marker (a C-speed substring test), and it reports a redacted excerpt, never the
suspected secret itself.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets_chance import in_binary_base64
from moderator_app.core.formats.secrets_escape import _ESCAPE as _ESCAPE
from moderator_app.core.formats.secrets_escape import _unescape_json_py as _unescape_json_py
from moderator_app.core.formats.secrets_escape import _unescaped as _unescaped
from moderator_app.core.formats.secrets_escape import unescape_json
from moderator_app.core.formats.secrets_glued import GLUED, glued_over

# (literal marker, label, pattern). A line is searched with a pattern only when it holds the
# pattern's marker, so the usual line costs a handful of C-speed substring tests.
_PATTERNS = (
    (b"PRIVATE KEY", "private key block", rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    (b"sk-", "API key (sk-...)", rb"(?<![A-Za-z0-9])sk-(?:ant-|proj-|live-|test-)?"
                                 rb"[A-Za-z0-9_\-]{20,}"),
    (b"AKIA", "AWS access key id", rb"(?<![A-Z0-9])AKIA[0-9A-Z]{16}(?![0-9A-Z])"),
    (b"ghp_", "GitHub token", rb"ghp_[A-Za-z0-9]{30,}"),
    (b"github_pat_", "GitHub token", rb"github_pat_[A-Za-z0-9_]{22,}"),
    (b"xox", "Slack token", rb"xox[abposr]-[A-Za-z0-9\-]{10,}"),
    (b"AIza", "Google API key", rb"AIza[0-9A-Za-z_\-]{35}"),
    (b"hf_", "Hugging Face token", rb"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"),
    (b"earer", "bearer token", rb"[Bb]earer\s+[A-Za-z0-9._~+/\-]{20,}=*"),
    # session 32 (QA s31 h31_02, h31_03, h31_06): a family each; the others of the table that
    # `withhold` and `verify --community` test are in `secrets_read.FAMILIES`
    (b"sk_live_", "Stripe secret key", rb"(?<![A-Za-z0-9])sk_live_[A-Za-z0-9]{20,247}"),
    (b"glpat-", "GitLab token", rb"glpat-[A-Za-z0-9_\-]{20,64}"),
    (b"SG.", "SendGrid key",
     rb"(?<![A-Za-z0-9])SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"),
    # session 33 (QA s32 h32_05: a connection string in an official `stdout`, wrapped by the
    # terminal inside its key; a line break inside it is removed by `_rejoined`)
    (b"AccountKey=", "Azure storage key", rb"AccountKey=[A-Za-z0-9+/]{86}=="),
)


# The regexes of this module are compiled on first use (`_compiled`, `_public_patterns`,
# `_regex`), not at import: a run whose lines hold no marker never needs them, and their
# compilation was ~1.3 ms of every command's start (issue 15: a small official run's whole
# start-up is ~0.3x of its floor).
@functools.cache
def _compiled() -> tuple[tuple[bytes, str, re.Pattern[bytes]], ...]:
    return tuple((marker, label, re.compile(p)) for marker, label, p in _PATTERNS)


@functools.cache
def _regex(pattern: bytes) -> re.Pattern[bytes]:
    """One of the module's own patterns (a source below), compiled once."""
    return re.compile(pattern)


@dataclass(frozen=True, slots=True)
class SecretHit:
    """A suspected secret: what it looks like, where (1-based byte column), a redacted excerpt."""

    label: str
    column: int
    excerpt: str
    escaped: bool = False  # found only once the line is read another way (`how`)
    tags: bool = False  # found only once its Unicode TAG characters are read as ASCII
    how: str = ""  # that reading, for the finding: "once <how>" (DECODED, UNWRAPPED, ...)
    # not named but passed over: where (start, end in the line read) a key's shape lies inside
    # base64 of binary data (`secrets_redact.public_hit`): `withhold` redacts, `verify` notes
    redact: tuple[tuple[int, int], ...] = ()


def _redact(token: bytes) -> str:
    text = token.decode("utf-8", "replace")
    keep = 4 if len(text) > 12 else 2
    return text[:keep] + "…" + f"[{len(text)} chars]"


# A line this long asks `_jcs.markers` which markers it holds (one SIMD pass) rather than
# nine substring searches: a 667 KB base64 screenshot took 2.7 ms in those (4 ns a byte,
# where the floor's zstd + SHA-256 is ~1.2), ~30x its share of the run (session 16).
_LONG_LINE = 1 << 14
# ... and so does a line past this, for which markers it holds (session 39, dumps): the SIMD
# pass costs ~6 us a call, the substring searches ~15 ns a byte of each line (23 markers): 170
# us an 11 KB `od -x` line and its 5.5 KB text, ~20 % of e_odx's verify
_SIMD_LINE = 1 << 9


# Where a pattern's match starts, before its marker: 0 for those that begin with it (after a
# lookbehind, which `match` at a position still sees), 1 for `[Bb]earer`; None: anywhere (a
# private key block's marker ends its pattern).
_BACK: dict[bytes, int | None] = {b"earer": 1, b"PRIVATE KEY": None}


def _at_markers(raw: bytes, marker: bytes, pattern: re.Pattern[bytes],
                back: int) -> Iterator[re.Match[bytes]]:
    """`pattern.finditer(raw)` for a pattern whose matches start `back` bytes before an
    occurrence of `marker`: tried at those places only, in order, none inside the previous
    match (as finditer goes on from a match's end), instead of a search of the whole line
    (a regex search over a 667 KB line for each marker it holds; session 16)."""
    end = 0
    i = raw.find(marker)
    while i >= 0:
        start = i - back
        if start >= end:
            m = pattern.match(raw, start)
            if m is not None:
                yield m
                end = m.end()
        i = raw.find(marker, i + 1)


def scan_line(raw: bytes, limit: int = 3) -> list[SecretHit]:
    """Suspected secrets in one line (at most `limit`), by column; [] fast for a usual line.
    A line holding a JSON escape of a printable character is also scanned with its escapes
    decoded (one level: `\\u005c` makes another escape, never a deeper scan), and then (or
    else) with the cuts inside a token that starts at a marker removed (`_rejoined`: escaped
    line breaks, a member or element boundary): what is found so is said with how it was read
    (`SecretHit.how`), since its column in that text is not one in the file."""
    hits = _scan(raw, limit)
    if hits:
        return hits
    shown = raw
    how: tuple[str, ...] = ()
    if b"\\u00" in raw and _regex(_HIDING).search(raw):
        # a secret spelled with JSON escapes (`sk\u002dproj-...`) is the secret itself to
        # any parser
        shown, how = unescape_json(raw), (DECODED,)
    joined = _rejoined(shown)
    if joined is not None:
        shown, how = joined[0], (*how, *joined[1])
    if how:
        hits = _scan(shown, limit)
        if hits:
            return [SecretHit(h.label, 0, h.excerpt, True, how=" and ".join(how))
                    for h in hits]
    if markers_of(raw, TAG_MARKERS):  # (one SIMD pass: four `in`s cost ~2 ns a byte each on
        # a line of `\u` escapes; session 35, escape)
        tagged = _TAG.sub(_tag_ascii, raw)
        if tagged != raw:
            hits = [SecretHit(h.label, 0, h.excerpt, True, True,
                              "its invisible TAG characters are read as the ASCII they mirror")
                    for h in _scan(tagged, limit)]
            if hits:
                return hits
    return _cut_heads(shown, limit, " and ".join(how))


# How a hit found in a line read another way was read (the finding says it: "looks like a
# GitHub token once ...").
DECODED = "its JSON escapes are decoded"
UNWRAPPED = "the escaped line breaks inside it are removed"
JOINED = "the adjacent strings it is split over are joined"

# A writer that wraps long strings at a fixed width (PEM-like) puts an escaped line break
# (`\\n`, `\\r`) inside a token: `ghp_QA29wrappedToken\\nXYZ0123...` (QA s29 h29_07) was
# published by `withhold` and raised nothing in `verify`. A token may also be cut over two
# adjacent strings of one object or array (`"key_a": "sk-proj-QA30", "key_b":
# "splitKey..."`: the shape QA s29's h29_08 used for an AWS key). A run of token characters
# that starts at a marker and is cut so, right after the marker or later, is read again with
# the cut removed; a member or element boundary counts only when the first string starts with
# the marker and the next looks like the rest of a token (`_piece_ok`), so two honest strings
# side by side are not read as one. The patterns' own look-behinds keep
# `my task-list\\nrisk-assessment` silent.
_TOKEN_RUN = rb"[A-Za-z0-9_\-]*"
_BREAKS = rb"(?:\\[nr])+(?=[A-Za-z0-9_\-])"
# A base64 key's run and breaks (session 33, QA s32 h32_05: an Azure key wrapped after its
# first `+`): the run goes on over `+` and `/`
_BASE64_RUNS = {b"AccountKey=": (rb"[A-Za-z0-9+/]*", rb"(?:\\[nr])+(?=[A-Za-z0-9+/])")}
_BOUNDARY = (rb'"((?:[ \t]*(?:[,\[\]{}]|"[^"\\\n]{1,64}"[ \t]*:)){1,12})[ \t]*"'
             rb"(?=[A-Za-z0-9_\-])")
_GAP_NAME = rb'"([^"\\\n]{1,64})"[ \t]*:'
_NAME_BEFORE = rb'"([^"\\\n]{1,64})"[ \t]*:[ \t]*\Z'
# A member name's stem: the name without a last part number or letter (`key_part1`,
# `key_b`, `a` -> `key`, `key`, ``).
_NAME_TAIL = rb"[_\-]?(?:part)?[_\-]?(?:[0-9]{1,3}|[A-Za-z])\Z"

# A string joined to the one before must look like the rest of a token, not a word or a
# name beside a locale: the first string holds 4+ token characters after its marker
# (`"sk-SK", "sk-SK-ViktoriaNeural"` or `["sk-SK", "cs-CZ", ...]` is a list of locales); the
# two are elements of one array or members whose names share a stem (`"key_a"`, `"key_b"`;
# `"voice": "sk-SK-Filip", "session": "4f9c2b7e1a3d"` are two things); the next is a whole
# string of 8+ token characters that looks random: upper and lower case and 2+ digits, no
# marker of its own (`"sk-SK-LukasNeural2"`, `"kisses4you"`, `"tensorflow-datasets"` stay
# names).
_PIECE_HEAD = 4
_PIECE_MIN = 8
# Where a run is long enough to decide (the patterns need at most ~60 characters after their
# marker): a run is not followed past this many token characters or cuts, so a 15 MB line
# `"sk-abcd\nx\nx..."` costs 16 cuts, not 5 million (1.33 GB peak; session 30's review).
_RUN_CHARS = 256
_RUN_CUTS = 16
# Bytes before a marker that fail its pattern's own look-behind (or, for `earer`, the byte
# its match needs): `task-list\nrisk` is no `sk-` run, so no line is scanned twice for it.
_ALNUM = bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123))
_NOT_BEFORE = {b"sk-": _ALNUM, b"hf_": _ALNUM, b"AKIA": _ALNUM[:36], b"sk_live_": _ALNUM,
               b"SG.": _ALNUM}


def _piece_ok(raw: bytes, start: int, end: int) -> bool:
    """A whole string of 8+ token characters with no marker of its own, mixing two of upper
    case, lower case and digits (`kisses4you` may pass here; the run's whole continuation is
    held to `_random`)."""
    piece = raw[start:end]
    if end - start < _PIECE_MIN or raw[end:end + 1] != b'"':
        return False
    kinds = sum(_regex(c).search(piece) is not None for c in (rb"[A-Z]", rb"[a-z]", rb"[0-9]"))
    return kinds >= 2 and not any(m in piece for m, _, _ in _PATTERNS)


def _random(text: bytes) -> bool:
    """Upper and lower case and 2+ digits: what a key's random part holds and a name or a
    word rarely does (`enterprise-plan-2024`, `4f9c2b7e1a3d`, `ViktoriaNeural`)."""
    return (len(_regex(rb"[0-9]").findall(text, 0, 256)) >= 2
            and _regex(rb"[A-Z]").search(text) is not None
            and _regex(rb"[a-z]").search(text) is not None)


def _stem(name: bytes) -> bytes:
    return _regex(_NAME_TAIL).sub(b"", name, 1)


def _joined_ok(raw: bytes, quote: int, m: re.Match[bytes], nxt: int) -> bool:
    """Whether the string opened at `quote` and a later one (the boundary `m`, its rest
    ending at `nxt`) are one token cut in pieces: elements of arrays or members, at any depth
    of one value, where every member name the cut crosses and the first string's own share a
    stem (`"a"`, `"b": {"c": [..]}`; `"key_a"`, `"key_b"`: QA s30 h30_01 put a key's three
    parts at three depths; `"voice"`, `"session"` are two things), and the piece looks like
    part of a token (`_piece_ok`). An element followed by members is a list then another
    thing: not joined."""
    before = _regex(_NAME_BEFORE).search(raw, max(0, quote - 72), quote)
    names = _regex(_GAP_NAME).findall(m.group(1))
    if before is None and names:
        return False
    stems = {_stem(n) for n in names}
    if before is not None:
        stems.add(_stem(before.group(1)))
    return len(stems) <= 1 and _piece_ok(raw, m.end(), nxt)


def _starts(raw: bytes, i: int, marker: bytes, back: int) -> bool:
    """Whether a pattern's match can start at the marker at `i` (its look-behind holds)."""
    if back:
        return i > 0 and raw[i - 1] in b"Bb"
    bad = _NOT_BEFORE.get(marker)
    return bad is None or i == 0 or raw[i - 1] not in bad


_PATTERN_MARKERS = tuple(m for m, _, _ in _PATTERNS)
_WRAP_MARKERS = (*_PATTERN_MARKERS, b"\\n", b"\\r")


def _rejoined(raw: bytes) -> tuple[bytes, tuple[str, ...]] | None:
    """`raw` with the cuts inside marker-led token runs removed, and how (UNWRAPPED, JOINED),
    or None when no such run is cut. Linear: each run of token characters is read once, not
    once per marker inside it (`task-task-...` over 80 KB took 46 s so; the s29 review), and
    each cut is a `match` at a place, never a regex search of the line. Bounded: a run is
    followed for `_RUN_CUTS` cuts or `_RUN_CHARS` characters at most, the cuts are kept as
    two integer arrays, and the line is spliced once into one buffer."""
    from array import array
    from heapq import merge

    boundary = _regex(_BOUNDARY)
    per_marker: list[tuple[array[int], array[int]]] = []
    hows: set[str] = set()
    # the markers the line holds, in one SIMD pass: a `find` a marker cost ~0.6 ns a byte, 40
    # ms on a 6 MB line of escapes (session 34, escape; R16)
    present = markers_of(raw, _WRAP_MARKERS)  # (and whether an escaped break is: one pass)
    wraps = b"\\n" in present or b"\\r" in present
    for marker, _, _ in _PATTERNS:
        if marker not in present:
            continue
        run_of, breaks_of = _BASE64_RUNS.get(marker, (_TOKEN_RUN, _BREAKS))
        run, breaks = _regex(run_of), _regex(breaks_of)
        back = _BACK.get(marker, 0)
        if back is None or (back and not wraps):
            continue  # a private key block's marker ends its pattern; `Bearer` needs a space
        # with no escaped break in the line, only a string that starts with the marker can be
        # cut (at its end): those are looked for, `"sk-`, not every `task-`
        lead = b"" if wraps else b'"'
        starts, ends = array("q"), array("q")
        i = raw.find(lead + marker)
        if i >= 0:
            i += len(lead)
        while i >= 0:
            if not _starts(raw, i, marker, back):  # `task-`: the next marker, C speed
                i = raw.find(lead + marker, i + 1)
                if i >= 0:
                    i += len(lead)
                continue
            pos = run.match(raw, i + len(marker)).end()  # type: ignore[union-attr]
            quote = i - back - 1
            quoted = quote >= 0 and raw[quote] == 34  # the string starts with it
            length, count = pos - i - len(marker), 0
            cuts: list[tuple[int, int, str]] = []
            pieces = bytearray()  # what the joined strings add: held to `_random`
            while count < _RUN_CUTS and length < _RUN_CHARS:
                m = breaks.match(raw, pos) if wraps else None
                how = UNWRAPPED
                if m is None and quoted and pos - i - len(marker) >= _PIECE_HEAD:
                    m = boundary.match(raw, pos)
                    how = JOINED
                if m is None:
                    break
                nxt = run.match(raw, m.end()).end()  # type: ignore[union-attr]
                if how is JOINED:
                    if not _joined_ok(raw, quote, m, nxt):
                        break
                    pieces += raw[m.end():nxt]
                cuts.append((m.start(), m.end(), how))
                length, count, pos = length + nxt - m.end(), count + 1, nxt
            if pieces and not _random(bytes(pieces)):
                # strings side by side that do not look like a key's random rest: the run
                # stops at its first join
                cuts = cuts[:next(k for k, c in enumerate(cuts) if c[2] is JOINED)]
            for start, end, how in cuts:
                starts.append(start)
                ends.append(end)
                hows.add(how)
            # a marker further inside this run starts a shorter run with the same end: go on
            # past the run
            i = raw.find(lead + marker, max(i + 1, pos - len(marker) + 1))
            if i >= 0:
                i += len(lead)
        if starts:
            per_marker.append((starts, ends))
    if not per_marker:
        return None
    view, out, at = memoryview(raw), bytearray(), 0
    for start, end in merge(*(zip(s, e, strict=True) for s, e in per_marker)):
        if start < at:
            continue  # inside a cut already removed (two markers' runs overlap)
        out += view[at:start]
        at = end
    out += view[at:]
    return bytes(out), tuple(h for h in (UNWRAPPED, JOINED) if h in hows)


# A key whose string ends before its pattern does (QA s30 h30_05: `key=AIzaSyQA30_summaryTh`
# ends one observation's summary, the rest of the key opens the next event's list) is the
# start of a key cut there: no reading of one line can join it to a rest in another line or
# member, and its 16+ characters are a leak by themselves (a key's half must be rotated). A
# marker-led run that reaches its string's closing quote, that its pattern does not match,
# whose part after the marker is 16+ token characters holding upper and lower case and 2+
# digits (`_random`: `sk-SK-ViktoriaNeural` is a name), and that the pattern would read on
# had the string gone on (`_continued`), is that start.
_HEAD_MIN = 16


def _continued(pattern: re.Pattern[bytes], head: bytes) -> bool:
    """Whether `pattern` matches past `head` once it goes on in digits: the string ended the
    key, not a character its pattern refuses (`AKIAA1b2...` is no AWS key id cut short)."""
    m = pattern.match(head + b"0" * 64 + b'"')
    return m is not None and m.end() > len(head)


# The markers whose pattern asks for more than `_HEAD_MIN` characters after them (a shorter
# one, `AKIA`'s 16 or `xox`'s 10, matches whatever such a head would be), and a head's
# search: a run of 16-64 token characters ending at a quote, possessive (no backtracking: a
# run of markers `sk-sk-sk-...` costs each start at most 64 steps).
_HEADS = (b"sk-", b"ghp_", b"github_pat_", b"AIza", b"hf_", b"sk_live_", b"glpat-", b"SG.")


@functools.cache
def _head_regex(marker: bytes) -> re.Pattern[bytes]:
    dot = b"." if marker == b"SG." else b""  # (a SendGrid key's two parts: cut at the dot)
    return re.compile(re.escape(marker) + rb"[A-Za-z0-9_\-%s]{%d,64}+(?=\")" % (dot, _HEAD_MIN))


def _cut_heads(raw: bytes, limit: int, how: str = "") -> list[SecretHit]:
    """Keys cut at their string's end (above), by column (0 when `how` says the line was read
    another way)."""
    hits: list[SecretHit] = []
    present = markers_of(raw, _HEADS)  # (five substring tests cost 3.4 us on a 1 KB line)
    for marker, label, pattern in _compiled():
        if marker not in present:
            continue
        for m in _head_regex(marker).finditer(raw):
            at = m.start()  # (the look-behind of `sk-`, `hf_`: not inside a word)
            if (at and raw[at - 1] in _ALNUM) or not _random(m.group()[len(marker):]):
                continue
            if pattern.match(raw, at) is None \
                    and _continued(pattern, m.group()):
                hits.append(SecretHit(f"{label} cut at its string's end",
                                      0 if how else at + 1, _redact(m.group()),
                                      bool(how), how=how))
    hits.sort(key=lambda h: h.column)
    return hits[:limit]


# Unicode TAG characters (U+E0020-U+E007E) mirror printable ASCII and draw nothing: a key
# spelled in them (`sk-proj-...` as U+E0073 U+E006B ...) reads as nothing on a screen and as
# the key to whoever maps them back; QA s28 h28_12: `withhold` published one, `verify` said
# nothing. A line holding one, raw (UTF-8 F3 A0 80/81 ..) or as a JSON surrogate pair
# (`\\udb40\\udc73`), is also scanned with its TAG characters read as that ASCII.
TAG_MARKERS = (b"\xf3\xa0\x80", b"\xf3\xa0\x81", b"\\udb40", b"\\uDB40")
_TAG = re.compile(rb"\xf3\xa0(?:\x80[\xa0-\xbf]|\x81[\x80-\xbe])"
                  rb"|\\u[dD][bB]40\\u[dD][cC]([2-7][0-9a-fA-F])")


def _tag_ascii(m: re.Match[bytes]) -> bytes:
    if m.group(1) is not None:
        code = int(m.group(1), 16)
        return bytes([code]) if code < 0x7F else m.group()
    return bytes([m.group()[3] & 0x3F | (m.group()[2] & 0x01) << 6])


def _scan(raw: bytes, limit: int) -> list[SecretHit]:
    hits: list[SecretHit] = []
    mapped: list[object] = []  # (the line mapped by `secrets_chance.B64_MAP` once, if asked)
    present = (_markers(raw, MARKERS) if _markers is not None and len(raw) >= _SIMD_LINE
               else None)  # (exactly the markers `in` the line: the same hits either way)
    for marker, label, pattern in _compiled():
        if marker not in (raw if present is None else present):
            continue
        back = _BACK.get(marker, 0)
        if back is None or len(raw) < _LONG_LINE:
            found = pattern.finditer(raw)
        else:
            found = _at_markers(raw, marker, pattern, back)
        for m in found:
            if in_binary_base64(raw, m.start(), m.end(), mapped, label):
                continue
            hits.append(SecretHit(label, m.start() + 1, _redact(m.group())))
        if marker in GLUED:
            hits += [SecretHit(label, g.start() + 1, _redact(g.group()))
                     for g in glued_over(raw, marker, label, mapped)]
    hits.sort(key=lambda h: h.column)
    return hits[:limit]


# A JSON escape of a character the patterns above are made of (letters, digits, space and
# `+-./=_~`), which no JSON writer needs: they escape `"`, `\`, control characters and, with
# ensure_ascii, non-ASCII, and Go's HTML-safe writer `<`, `>`, `&`, none of which a secret is
# made of. Such an escape can hide a marker or cut a pattern, so a line holding one is also
# scanned with its escapes decoded (`_HIDING`). The block paths send a line to `scan_line`
# when it holds a marker; ESCAPE_MARKERS add the escapes that can hide one (a letter, `_`,
# `-`, a space); an escape inside a key whose marker is spelled plainly is found by
# `scan_line` itself. Digits and Go's `\u003c` are left out of the markers: a block of such
# lines, declined by the C summary, verified 2.7x slower (session 27, s27-hostile).
ESCAPE_MARKERS = (b"\\u004", b"\\u005", b"\\u006", b"\\u007", b"\\u0020", b"\\u002d",
                  b"\\u002D")
_HIDING = rb"\\u00(?:2[0bBdDeEfF]|3[0-9dD]|[4-7][0-9a-fA-F])"
MARKERS = tuple(marker for marker, _, _ in _PATTERNS) + ESCAPE_MARKERS + TAG_MARKERS
_markers = native.JCS.markers if native.JCS is not None else None


# One rare two-byte piece of each marker (all but `earer`, whose pieces are common English):
# numpy compares a block against them as 16-bit words at both alignments, ~3x faster than
# nine substring searches. No piece present means no marker present; any piece present
# falls back to the exact substring tests.
_PIECES = (b"VA", b"k-", b"KI", b"hp", b"b_", b"xo", b"Iz", b"hf", b"u0", b"\xf3\xa0", b"ud",
           b"uD", b"k_", b"lp", b"G.", b"tK")
_NUMPY_MIN = 1 << 16
_codes = None


_EA, _RE = (int.from_bytes(p, "little") for p in (b"ea", b"re"))


def _pieces_absent(block: bytes) -> bool:
    """No rare piece, and no `ea` word followed by an `re` word (`earer` at an even or odd
    offset is one of these): numpy compares, ~2x faster than `b"earer" in block` (whose
    letters are common, so a substring search skips little)."""
    global _codes
    try:
        import numpy as np
    except ImportError:  # numpy comes with OpenCV; without it, the exact tests only
        return False
    if _codes is None:
        _codes = [np.uint16(int.from_bytes(p, "little")) for p in _PIECES]
    for off in (0, 1):
        words = np.frombuffer(block, np.uint16, count=(len(block) - off) // 2, offset=off)
        for code in _codes:
            if (words == code).any():
                return False
    for off in (0, 1):
        words = np.frombuffer(block, np.uint16, count=(len(block) - off) // 2, offset=off)
        ea = words[:-1] == _EA
        if ea.any() and (ea & (words[1:] == _RE)).any():
            return False
    return True


def markers_in(block: bytes) -> tuple[bytes, ...]:
    """The markers present anywhere in `block` (many lines): lines of a block without any
    need no scan at all."""
    if _markers is not None:  # one SIMD pass (`_jcs.markers`), ~0.2 ns a byte
        return _markers(block, MARKERS)
    if len(block) >= _NUMPY_MIN and _pieces_absent(block):
        return ()
    return tuple(m for m in MARKERS if m in block)


def markers_of(block: bytes | memoryview, markers: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """Those of `markers` (at most 64, each 2+ bytes) present in `block`: one SIMD pass with
    the C accelerator, a substring test each without."""
    if _markers is not None:
        return _markers(block, markers)
    block = bytes(block)  # (a memoryview: `in` would compare its items)
    return tuple(m for m in markers if m in block)
