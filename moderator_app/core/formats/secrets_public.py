"""What `withhold` refuses to publish besides `secrets.scan_line`'s patterns: shapes too
costly or too loose for the trajectory's per-line warning scan, but cheap on the public part of
a line about to be posted (`scan_public`), and the C-speed gates that keep a block of honest
lines from being scanned line by line. Split from `secrets` (session 31, module size)."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Iterator

from moderator_app.core.formats import secrets_gate
from moderator_app.core.formats.secrets import (
    UNWRAPPED,
    SecretHit,
    _redact,
    _regex,
    markers_in,
    markers_of,
    scan_line,
)
from moderator_app.core.formats.secrets_across import across_breaks, column_in_line
from moderator_app.core.formats.secrets_basen import (
    BIGNUM,
    LONG,
    bignum_texts,
    blanked,
    explained,
    long_bignum_in,
)
from moderator_app.core.formats.secrets_bytes import DECIMALS, HEX_DIGITS
from moderator_app.core.formats.secrets_chance import in_binary_base64
from moderator_app.core.formats.secrets_decode import (
    BASE64,
    ENCODED_MARKERS,
    ESCAPE_VIEWS,
    HEX,
    PLAIN_MARKERS,
    encoded_gates,
    encoded_spots,
    is_text,
    views,
)
from moderator_app.core.formats.secrets_glued import (
    FAMILY_MARKERS,
    glued_families,
    glued_telegram,
)
from moderator_app.core.formats.secrets_inflate import REFUSED, line_budget, scanning
from moderator_app.core.formats.secrets_parts import numbered_parts
from moderator_app.core.formats.secrets_read import (
    ENTROPY,
    FAMILIES,
    FORMAT_BYTES,
    family_in,
    random_run,
    random_run_among,
    reader_hit,
)
from moderator_app.core.formats.secrets_spots import (  # noqa: F401 - (its names, as before)
    _FORMAT_ESCAPED,
    _FORMAT_LEADS,
    _READER_MAX,
    _READER_NEEDLE,
    _READER_RUN,
    _SPOTS_MAX,
    FORMAT_MARKERS,
    _format_escaped_in,
    _line_end,
    _reader_runs,
    _string_around,
    has_format,
    reader_candidate,
    reader_spots,
)
from moderator_app.core.formats.secrets_unwrap import INFLATED, ROTATED, TOO_LARGE, UTF16

# What `withhold` also refuses to publish (session 26's hostile sweep published each of these
# from an action's arguments or an observation): shapes too costly or too loose for the
# trajectory's per-line warning scan (`secrets.scan_line`), but cheap on the public part of
# a line about to be posted. A value named like a secret must hold a digit or be 20 characters long, so that
# `"api_key": "<redacted>"` stays publishable; an escaped line break or tab after its `=` is
# the whitespace it is once parsed (QA s30 h30_04: `aws_secret_access_key =\r\n` then the
# key, wrapped). Each is linear in the line (session 31's review: `"secret" * 10000`, 60 KB, took
# 12 s, and `scan_public` of 120 KB 48 s, since an unbounded run after a word that repeats was
# walked again from each repeat): a name runs at most 64 characters past its word, a URL's
# scheme at most 32, and a token is tried from the first `eyJ` of a run of its characters only
# (a later one in that run ends where it does, shorter: it cannot match where the first failed).
# (the token's marker `.eyj`, not `eyj`: the pattern needs `.eyJ`, and `eyj` is in 2.4 MB of
# random bytes, an od -c view's, where the pattern, opening with a lookbehind, cost 0.07 s;
# session 37, mendods)
_PUBLIC_SOURCES = (
    (b".eyj", "JSON web token",
     rb"(?<![A-Za-z0-9_\-])(?>[A-Za-z0-9_\-]*?(?P<at>eyJ))"
     rb"[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", None),
    (b"private key", "private key block",
     rb"-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----", None),  # a block split over lines
    (b"://", "password in a URL",
     rb"[A-Za-z][A-Za-z0-9+.\-]{0,31}://[^\s/:@\"'\\]+:([^\s/@\"'\\]{3,})@", 1),
    (b"?", "value named like a secret",
     rb"(?i)(?:secret|passw(?:or)?d|api[_\-]?key|access[_\-]?key|auth[_\-]?token|"
     rb"private[_\-]?key)[A-Za-z0-9_]{0,64}\\?\"?\s*[=:](?:\s|\\[rnt])*\\?\"?"
     rb"([^\s\"'\\,;&]{8,})", 1),
)


@functools.cache
def _public_patterns() -> tuple[tuple[bytes, str, re.Pattern[bytes], int | None], ...]:
    return tuple((marker, label, re.compile(p), group)
                 for marker, label, p, group in _PUBLIC_SOURCES)


# C-speed tests before any of those regexes runs on a line (withhold of a million short
# lines: 5.7 -> 13.6 s of CPU with every regex on every line): the words a named secret's
# name holds, and a run of 24 base64 characters (each mapped to `a`, anything else to ` `).


def _named_words_in(lower: bytes) -> bool:
    """Whether `lower` holds a word of a named secret's name (`_NAMED_STARTS`): one SIMD pass
    (`markers_of`); six `in`s took ~100 ms on a 6 MB line (session 34, escape; R16)."""
    return bool(markers_of(lower, _NAMED_STARTS))

_B64_RUN = bytes(97 if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "+/") else 32
                 for c in range(256))
_B64_NEEDLE = b"a" * 24


# Where a value named like a secret may be, in a line as written (escapes not decoded) and
# lowered: a word of its name, at most 80 bytes of a name, quotes, escapes and spaces, then `=`
# or `:` (or one escaped, `\u003d`). `verify` asks a block whose only markers are such words
# this before it goes line by line, and such a line before it parses it (session 31's review:
# on 400,000 lines of honest text naming a secret door or a password prompt, verify took 2.1 ->
# 7.9 s, each line parsed and scanned for nothing). Tried at each word found at C speed (the
# pattern searched over a block cost ~38 ns a byte).
_NAMED_AT = (rb"(?:secret|passw(?:or)?d|api[_\-]?key|access[_\-]?key|auth[_\-]?token|"
             rb"private[_\-]?key)[a-z0-9_\"\\\s]{0,80}\s*(?:[=:]|\\u003[ad])")
_NAMED_STARTS = (b"secret", b"passw", b"api", b"access", b"auth", b"private")


def named_value_near(raw: bytes | memoryview) -> bool:
    """Whether a line (or block) as written may hold a value named like a secret
    (`_NAMED_AT`)."""
    lower = bytes(raw).lower()
    at = _regex(_NAMED_AT)
    for word in _NAMED_STARTS:
        i = lower.find(word)
        while i >= 0:
            if at.match(lower, i) is not None:
                return True
            i = lower.find(word, i + len(word))
    return False


def _named_value_ok(value: bytes) -> bool:
    return any(48 <= c <= 57 for c in value) or len(value) >= 20


def _named_matches(raw: bytes, lower: bytes,
                   pattern: re.Pattern[bytes]) -> Iterator[re.Match[bytes]]:
    """`pattern.finditer(raw)` of the named-value pattern (`_PUBLIC_SOURCES`' `?`), tried only
    where `lower` holds a word of `_NAMED_STARTS`: a match starts with one (ASCII case folded,
    as `bytes.lower`), so the same matches. sre's search over the whole line tried its six
    alternatives at every byte: ~1 ms a 16 KB line of base64 holding `api` by chance (QA s41
    e_png64, session 42, speed); the words are found by `find` at C speed."""
    starts: list[int] = []
    for word in markers_of(lower, _NAMED_STARTS):
        at = lower.find(word)
        while at >= 0:
            starts.append(at)
            at = lower.find(word, at + 1)
    end = 0
    for at in sorted(starts):
        if at < end:
            continue  # (inside the last match: finditer goes on from its end)
        m = pattern.match(raw, at)
        if m is not None:
            yield m
            end = m.end()


def _pattern_hit(raw: bytes, lower: bytes) -> SecretHit | None:
    for marker, label, pattern, group in _public_patterns():
        if marker == b"?":
            found: Iterable[re.Match[bytes]] = _named_matches(raw, lower, pattern)
        elif marker not in lower:
            continue
        else:
            found = pattern.finditer(raw)
        for m in found:
            value = m.group(group) if group else m.group()
            if group and label.startswith("value") and not _named_value_ok(value):
                continue
            at = m.start("at") if "at" in pattern.groupindex else m.start()
            return SecretHit(label, at + 1, _redact(raw[at:m.end()]))
    return None


def scan_public(raw: bytes) -> SecretHit | None:
    """The first thing in a line's public bytes that looks like a secret: `scan_line`'s
    patterns, a JSON web token, a URL's password, a value named like a secret (an env dump's
    `AWS_SECRET_ACCESS_KEY=...`), any of these or a key of any family in a decoded view
    (base64, hex, percent-escapes, character escapes: `secrets_decode`), then the reader's
    view (`secrets_read`)."""
    hits = scan_line(raw, limit=1)
    if hits:
        return hits[0]
    lower = raw.lower()
    if b"eyj" in lower or b"private key" in lower or b"://" in lower or \
            _named_words_in(lower):
        hit = _pattern_hit(raw, lower)
        if hit is not None:
            return hit
    hit = numbered_parts(raw)
    if hit is not None:
        return hit
    candidate = reader_candidate(raw)  # (once: on a line of `\\u` text it costs a regex)
    hit = plain_family(raw, candidate)
    if hit is None:
        hit = glued_family(raw, candidate)
    if hit is None:
        hit = _across_hit(raw)
    if hit is not None:
        return hit
    with scanning(len(raw)):  # (the line's streams inflate out of one budget: `secrets_inflate`)
        hit = _decoded_hit(raw)
    if hit is None and candidate:  # (base32 runs of text blanked: `secrets_basen.explained`)
        plain = explained(raw, is_text)
        hit = reader_hit(plain) if plain is raw or reader_candidate(plain) else None
        if hit is not None and (texts := bignum_texts(plain)):  # (base58 / base62 of text:
            for start, _, text in texts:  # its text read, the run no key as it is written)
                found = _one_hit(raw, BIGNUM, text, True, start + 1, 0)
                if found is not None:
                    return found
            plain = blanked(plain, [(start, end) for start, end, _ in texts])
            hit = reader_hit(plain) if reader_candidate(plain) else None
    if hit is None and long_bignum_in(raw):  # (base58 / base62 past the reader's reach)
        for start, _, text in bignum_texts(raw, LONG):
            found = _one_hit(raw, BIGNUM, text, True, start + 1, 0)
            if found is not None:
                return found
    return hit


# A key of a family the trajectory's patterns (`scan_line`) do not hold, written as it is
# (session 35): the line read for every family (`family_in`) where a parser or a person reads
# one: a line the reader's gate points at (`reader_candidate`: a 16-character run holding upper
# case and a digit) or holding the prefix of a family whose keys may have neither (lower-case
# hex after the prefix: Databricks, Mailgun, DigitalOcean, RubyGems, Supabase, Shopify, Brevo,
# Tailscale). Before, such a key was named only by the high-entropy rule: a plain Postman,
# Databricks, New Relic, AWS `ASIA` or age key never (20 of 20 each in a probe, QA s34's pass
# had none), `withhold` published them. The same two tests are verify's gate
# (`secrets_decode.encoded_spots` asks for `PLAIN_MARKERS`), so both name the same lines.


# A family whose keys are spelled as honest text is spelled: Mailgun's legacy `key-` + 32 hex is
# also every `key-<md5>` cache key, ETag or idempotency key in tool output (session 35's review
# V8: "cache hit for key-9dd4..." failed an honest run). Written as it is, such a key is named
# only with its context: the word Mailgun, Mailgun's basic-auth `api:key-`, or an assignment
# to a credential's name (`MAILGUN_KEY=`, `TOKEN: `, `"api_key": "`); without it, as before
# this session, the high-entropy rule alone may name it.
_CONTEXT_FAMILIES = frozenset({"Mailgun key"})
_CREDENTIAL_CONTEXT = re.compile(
    rb"(?i)mailgun|api:key-|(?:token|secret|api_?key|apikey|passw(?:or)?d|auth|credential)"
    rb"[A-Za-z0-9_]{0,32}[\"']?\s{0,4}[=:]\s{0,4}[\"']?key-")
_TRIES = 8


def plain_family(raw: bytes, candidate: bool) -> SecretHit | None:
    """The first key of any family in `raw` as written (above), or None; `candidate`:
    `reader_candidate(raw)`. A key of `_CONTEXT_FAMILIES` without its context is passed over
    (blanked, and the line read again: at most `_TRIES` times, then nothing is named)."""
    if not candidate and not markers_of(raw, PLAIN_MARKERS):
        return None
    if markers_of(raw, FORMAT_MARKERS) and FORMAT_BYTES.search(raw) is not None:
        return None  # (the reader's view reads every family in the line so cleaned: once)
    text, view = raw.decode("utf-8", "replace"), raw
    mapped: list[object] = []
    for _ in range(_TRIES):
        found = family_in(text, view)
        if found is None:
            return None
        key = found[1].encode()
        at = _outside_binary(raw, key, mapped, found[0])
        if at < 0 and key in raw:
            pass  # (every place is inside base64 of binary data: `secrets_chance`)
        elif found[0] not in _CONTEXT_FAMILIES or _CREDENTIAL_CONTEXT.search(raw) is not None:
            return SecretHit(found[0], at + 1 if at >= 0 else 0, _redact(found[1].encode()))
        text = text.replace(found[1], " " * len(found[1]))
        view = view.replace(found[1].encode(), b" " * len(found[1].encode()))
    return None


def _outside_binary(raw: bytes, key: bytes, mapped: list[object], label: str) -> int:
    """The first place `key` is written in `raw` outside base64 of binary data, or -1 (every
    place is inside it, each recorded by `in_binary_base64`: base64 of binary data spells it by
    chance). Each place is asked (session 42, redact: only the first was, so a key written
    again outside a blob after a chance copy in it was blanked and published)."""
    at = raw.find(key)
    while at >= 0 and in_binary_base64(raw, at, at + len(key), mapped, label):
        at = raw.find(key, at + 1)
    return at


def _across_hit(raw: bytes) -> SecretHit | None:
    """A key of any family glued into a wrapped blob across its escaped line breaks
    (`secrets_across`). Each shape read there in base64 of binary data is recorded
    (`in_binary_base64`: starred, noted); where one is not, the line so read is read by
    `scan_line`'s patterns and every family as written and glued, which name it or not as in
    a line with no break; its column the line's."""
    joined = across_breaks(raw)
    if joined is None:
        return None
    view = joined.view
    mapped: list[object] = []
    if all(in_binary_base64(view, start, end, mapped, label)
           for label, start, end in joined.shapes):
        return None
    hits = scan_line(view, limit=1)
    hit = hits[0] if hits else plain_family(view, True) or glued_family(view, True)
    if hit is None:
        return None
    return SecretHit(hit.label, column_in_line(hit.column, joined.cuts), hit.excerpt, True,
                     how=UNWRAPPED)


def glued_family(raw: bytes, candidate: bool) -> SecretHit | None:
    """A key of a family glued between pads (`secrets_glued.glued_families`; review s45 R2),
    asked of every line holding a glued family's prefix, and (a Telegram token) of the lines
    `plain_family` reads (a reader's candidate or a family's prefix). Gated on a reader's
    candidate as well, a key glued into PHP-escaped (`\\/`) base64 was never asked: the
    reader has no candidate on a line whose only long run is an escaped payload, and
    `PLAIN_MARKERS` holds no `sk_live_` / `npm_` / `r8_` / `xai-` (review s46 R2)."""
    present = markers_of(raw, FAMILY_MARKERS)
    found = glued_families(raw, present, []) if present else None
    if found is None and b":" in raw and (candidate or markers_of(raw, PLAIN_MARKERS)):
        found = glued_telegram(raw)
    if found is None:
        return None
    label, start, end = found
    return SecretHit(label, start + 1, _redact(raw[start:end]))


def _decoded_hit(raw: bytes, depth: int = 0,
                 read: set[tuple[int, bytes]] | None = None) -> SecretHit | None:
    """A secret in a decoded view of the line (`secrets_decode.views`: percent-escapes,
    character escapes, base64 and hex runs), or None. A text view is decoded once more
    (`depth`; base64 in percent-escapes or `\\x` escapes too, the review's R10: they were
    published); what is found in base64 or hex is named so, its excerpt the encoded run's.
    The views of base64 and hex runs (bytes, and text under `_ALONE`) are read together, up
    to `_BATCH` bytes (`_batch_hit`), and one by one, in order, only when together they hold
    something: with no count of runs bounding a line (R5), a 6 MB line of 250,000 short runs
    read one by one took 6.4 s (bytes) and ~2.8 s (text, session 33's review R15). A text
    escape view is read once a depth (`read`, digests: the decoders commute, and e_mixlong's
    percent view's octal view is its octal view's percent view; session 40, speed).
    A compressed stream too large to read (`REFUSED`) refuses the line, but ends no reading:
    the line's other views are read on, and a key in one is named before the refusal (the
    refusal is only what is left; session 47, allow: a spent allowance never hides a key)."""
    pending: list[tuple[str, bytes, bool, int]] = []
    size = 0
    read = set() if read is None else read
    refused: SecretHit | None = None
    for how, decoded, text, column in views(raw):
        if how in REFUSED:  # (a compressed stream with more to give than it may: unread)
            if refused is None:  # (`SPENT`: its kind, for verify's one finding of them)
                refused = SecretHit(how, column, _redact(decoded), True, how=INFLATED
                                    if how is TOO_LARGE else line_budget().spent or "")
            continue
        if text and (how not in _BATCHED or len(decoded) > _ALONE):
            found = _batch_hit(raw, pending, depth)
            pending, size = [], 0
            key = (depth, hashlib.blake2b(decoded, digest_size=16).digest()) \
                if how in ESCAPE_VIEWS else None
            if found is None and key not in read:
                if key is not None:
                    read.add(key)
                found = _one_hit(raw, how, decoded, text, column, depth, read)
        else:
            pending.append((how, decoded, text, column))
            size += len(decoded)
            if size < _BATCH:
                continue
            found = _batch_hit(raw, pending, depth)
            pending, size = [], 0
        if found is not None and found.label not in REFUSED:
            return found
        refused = refused or found
    found = _batch_hit(raw, pending, depth)
    return found if found is not None and found.label not in REFUSED else refused or found


_BATCH = 1 << 16
_ALONE = 1 << 12  # a text view longer is read alone (its own call costs little beside it)
# The views read together first: base64 and hex runs, and decimal lists (`String.fromCharCode`
# code lists of text: 46 lists a 25 KB line of QA s36's T6 log, each read alone cost 33.9 s per
# 512 MiB, over issue 15's bar; a key in one is still named by that list alone, in order)
_BATCHED = (BASE64, HEX, DECIMALS)
# Between the texts read together: no pattern crosses it (no token character, no quote to
# end a string, `\x00` no `\s` a named value's `=` may follow), and the high-entropy rule's
# word before a run ends at its line breaks, as at a text's start.
_SEP = b"\n\x00\n"


def _batch_hit(raw: bytes, pending: list[tuple[str, bytes, bool, int]],
               depth: int) -> SecretHit | None:
    """The first hit of `pending`'s views read one by one (`_one_hit`), asked only when
    together they may hold one (`_together`)."""
    if not pending or (len(pending) > 1 and not _together(pending, depth)):
        return None
    refused = None
    for how, decoded, text, column in pending:
        found = _one_hit(raw, how, decoded, text, column, depth)
        if found is not None and found.label not in REFUSED:
            return found
        refused = refused or found
    return refused


def _together(pending: list[tuple[str, bytes, bool, int]], depth: int) -> bool:
    """Whether any of `pending`'s views may hold what `_one_hit` finds, read together: the
    bytes views joined by line breaks through the byte patterns; the texts joined by `_SEP`
    through `scan_line`, the public patterns, every key family and (depth 0) their decoded
    views, one pass each (each text alone: ~30 us, R15); and the high-entropy rule, per text
    (it tests at most `_STRINGS` runs a text: joined, texts could hide one) but only for a
    text holding a candidate run (`random_run_among`). A match across `_SEP` or the texts'
    join only costs the reading one by one."""
    blobs = [decoded for _, decoded, text, _ in pending if not text]
    if blobs and _view_hit(b"\n".join(blobs), False, BASE64) is not None:
        return True
    texts = [decoded for _, decoded, text, _ in pending if text]
    if not texts:
        return False
    joined = _SEP.join(texts)
    if not view_may_hold(joined):  # (the marker gate: `_one_hit`)
        return False
    if _view_hit(joined, True, "") is not None:
        return True
    if not depth and _decoded_hit(joined, depth + 1) is not None:
        return True
    return random_run_among([t.decode("utf-8", "replace") for t in texts], _SEP.decode())


def _one_hit(raw: bytes, how: str, decoded: bytes, text: bool, column: int,
             depth: int, read: set[tuple[int, bytes]] | None = None) -> SecretHit | None:
    """What one view holds, named as `_decoded_hit` says. A text view is read only past the
    marker gate (`view_may_hold`): a text no detector and no view of it can apply to is read
    by nothing. An escape view is the line with one kind of escapes decoded: the others are
    still in it, so the gate opens on it (e_mixlong: 495 of 495) and would only add its
    passes (2.4-2.9 % of e_mixlong's CPU)."""
    if text and how not in ESCAPE_VIEWS and not view_may_hold(decoded):
        return None
    inner = _view_hit(decoded, text, how)
    if inner is None and text and not depth:
        inner = _decoded_hit(decoded, depth + 1, read)
    if inner is None:
        return None
    if inner.label in REFUSED:  # (a stream in it unread: no secret's spelling, review s46 R3
        return inner  # LOW: "base64 of a secret" named a line whose nested stream was unread)
    if how in (BASE64, HEX, UTF16, INFLATED, ROTATED):  # (a run's unwrapped text: its base64's)
        run = raw[column - 1:column - 1 + 2 * len(decoded) + 4]
        return SecretHit(f"{_spelling(run, how)} of a secret", column, _redact(_run_of(run)),
                         True, how=f"{how} ({inner.label})")
    return SecretHit(inner.label, 0, inner.excerpt, True, how=how)


def _run_of(at: bytes) -> bytes:
    """The encoded run at the start of `at`: an Ascii85 span's characters, else base64's."""
    pattern = rb"<~[!-uz\\]*" if at[:2] == b"<~" else rb"(?:\\\\?x[0-9A-Fa-f]{2})*" \
        if _escaped_hex(at) else rb"[A-Za-z0-9+/_\-]*"
    return _regex(pattern).match(at).group()  # type: ignore[union-attr]


def _escaped_hex(at: bytes) -> bool:
    """Whether `at` opens with a `\\xNN` escape (`secrets_bytes.XB_RUN`'s bytes)."""
    return at[:2] == b"\\x" or at[:3] == b"\\\\x"


def _spelling(at: bytes, how: str) -> str:
    """What a run at the start of `at` is written in, for its finding's label: hex, Ascii85 (a
    compressed stream in them is inflated since session 46: its label said base64), base64."""
    if how is HEX or (how is INFLATED and (_escaped_hex(at) or (
            (run := _run_of(at)) and not run.translate(None, HEX_DIGITS)))):
        return "hex"
    return "Ascii85" if at[:2] == b"<~" else "base64"



def _view_hit(decoded: bytes, text: bool, how: str) -> SecretHit | None:
    """What the detectors find in one decoded view: the byte patterns always (a key's bytes
    inside a decoded file); for text, the public patterns, every key family and, for text
    decoded from base64 or hex (not the line itself, read as written already), the
    high-entropy rule."""
    hits = scan_line(decoded, limit=1)
    if hits:
        return hits[0]
    if not text:
        lower = decoded.lower()  # (each pattern's marker first: the JSON web token's regex
        # tried at each byte of 1.5 MB of zeros took ~40 ms; session 34, escape, R16)
        for marker, label, pattern, group in _public_patterns()[:3]:
            if marker not in lower:
                continue
            m = pattern.search(decoded)
            if m is not None:
                return SecretHit(label, m.start() + 1, _redact(m.group(group or 0)))
        return None
    hit = _pattern_hit(decoded, decoded.lower())
    if hit is not None:
        return hit
    plain = decoded.decode("utf-8", "replace")
    found = family_in(plain, decoded)
    if found is not None and not (how in ESCAPE_VIEWS and _chance_only(decoded, found)):
        return SecretHit(found[0], 0, _redact(found[1].encode()))
    if how in (BASE64, HEX):
        run = random_run(plain)
        if run is not None:
            return SecretHit(ENTROPY, 0, _redact(run.encode()))
    return None




def _chance_only(view: bytes, found: tuple[str, str]) -> bool:
    """Whether every place of a family's key `found` in an escape view (the line with one
    kind of escapes decoded) lies in base64 of binary data (`in_binary_base64`, which records
    it: starred and noted, as in the line as written; QA s46 T7, h46_16: a chance `AIza` in
    .NET's `\\u002F`-escaped base64 was named in the view with `\\u002F` read as `/`)."""
    key = found[1].encode()
    return _outside_binary(view, key, [], found[0]) < 0 and key in view


def may_hold_public_secret(block: bytes) -> bool:
    """False when no line of `block` (many public lines) can hold what `scan_public` finds:
    no marker, no word of a named secret, no run of 24 base64 characters. One pass over the
    block at C speed, so that a flood of short lines is not scanned line by line (withhold of
    a million of them: 5.7 s of CPU, 7.9 s with `scan_public` on each). Numbered parts of a
    value named like a secret are asked apart (`numbered_parts_in`, `numbered_parts`): a
    block of `"key1": "ArrowLeft"` lines needs no other scan."""
    return bool(markers_in(block) or _words_or_runs(block) or encoded_spots(block))


def _words_or_runs(block: bytes) -> bool:
    """The gates' tests past the markers (`may_hold_public_secret`, `view_may_hold`): a JWT's
    head, a private key, a URL, a named secret's word, a base64 run, a reader's spot."""
    lower = block.lower()
    return (b"eyj" in lower or b"private key" in lower or b"://" in lower
            or _named_words_in(lower)
            or _B64_NEEDLE in block.translate(_B64_RUN) or bool(reader_spots(block)))


# (every key family's prefix: `_view_hit` reads the families ungated, and a key with no digit,
# `LTAI` + 12 letters, opens no reader's run: 2 of 1,180 keys a spelling were lost without)
_FAMILY_MARKERS = tuple(marker for marker, _, _ in FAMILIES)


def gate_passes() -> tuple[secrets_gate.Pass, ...]:
    """The C pre-pass's needles (`secrets_gate.passes`) with those of this module's tables
    (`_view_may_hold_py`): a family's prefix, a format character; a token's head, a key block,
    a URL, a named secret's word, lowered; a base64 run, a reader's run."""
    return secrets_gate.passes((
        (None, b"", (*_FAMILY_MARKERS, *FORMAT_MARKERS, *_FORMAT_LEADS)),
        (secrets_gate.LOWER, b"", (b"eyj", b"private key", b"://", *_NAMED_STARTS)),
        (_B64_RUN, b"", (_B64_NEEDLE,)), (_READER_RUN, b"", (_READER_NEEDLE,))))


_gate_closed = secrets_gate.closer(gate_passes)


def view_may_hold(text: bytes) -> bool:
    """The marker gate of a decoded text view (`_view_may_hold_py`), its tests asked only where
    the C pre-pass (`secrets_gate.closer`: one call, each test's needles) is not closed: the
    same answers (session 44, speed)."""
    if _gate_closed is not None and _gate_closed(text):
        return False
    return _view_may_hold_py(text)


def _view_may_hold_py(text: bytes) -> bool:
    """The marker gate of a decoded text view (session 43, spell; `_one_hit`): False when
    neither the detectors (`_view_hit`) nor the text's own views (`_decoded_hit` at depth 1)
    can find anything in it. `may_hold_public_secret`'s tests with `encoded_spots` cut to its
    markers (`encoded_gates`, `%`), so never closed where that gate opens; cheapest first,
    so a view holding escapes (e_mixlong's: every view) costs two SIMD passes. A dump's or a
    decoded run's prose (`od -t x4` of a README) costs these passes, not a reading: ~0.4 ms a
    2.5 KB text read by the detectors and decoded again (session 42, spell). A test of a new
    shape needs its pass in `gate_passes` first (`view_may_hold` asks C before it)."""
    return bool(markers_of(text, ENCODED_MARKERS) or b"%" in text or markers_in(text)
                or markers_of(text, _FAMILY_MARKERS) or encoded_gates(text).open
                or _words_or_runs(text))
