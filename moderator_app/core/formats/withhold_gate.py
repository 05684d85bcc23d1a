"""`verify`'s test of a community log's public parts (`secret.suspect`): the lines of a block
that `withhold` would refuse, found by C passes over the block and asked what `withhold` asks
(moved out of `withhold`, session 43, redact: that module was 602 lines)."""

from __future__ import annotations

import binascii
import re

from moderator_app.core.formats.secrets import MARKERS, SecretHit, markers_of
from moderator_app.core.formats.secrets_basen import bignum_spots
from moderator_app.core.formats.secrets_bytes import HEX_DIGITS
from moderator_app.core.formats.secrets_chance import B64_MAP, TO_STD
from moderator_app.core.formats.secrets_decode import encoded_gates, encoded_spots
from moderator_app.core.formats.secrets_glued import FAMILY_MARKERS
from moderator_app.core.formats.secrets_inflate import told
from moderator_app.core.formats.secrets_parts import numbered_parts, numbered_parts_in
from moderator_app.core.formats.secrets_public import has_format, named_value_near, reader_spots
from moderator_app.core.formats.secrets_redact import public_hit
from moderator_app.core.formats.secrets_split import SplitWatch, split_hits
from moderator_app.core.formats.secrets_text import is_text
from moderator_app.core.formats.withhold_events import public_seen

# `verify` on a community log (`secret.suspect`) asks each line's public part what `withhold`
# asks it (`scan_public`, one engine: QA s30 T9 had `withhold` refuse a Slack token that
# `verify` never named), on the lines two C passes over the block point at: a secrets marker
# (`MARKERS`), or a piece of a word naming a secret in its usual spellings (`secret`,
# `SECRET`, `password`, `api_key`, `apiKey`, `API-KEY`, `access_key`, `accessKey`, `auth_token`,
# `private_key`, `privateKey` ...), a JSON web token's `eyJ`, a numbered part's `1":"`. The
# pieces are ordered so that each SIMD bucket holds one piece's case variants (lower, UPPER,
# then camel or kebab: a piece every 8th), which costs ~0.16 ns a byte where the 55 markers in
# one call cost 7. A URL's password and a secret in base64 are refused by `withhold` but not
# looked for by `verify`: `://` and a run of 24 base64 characters are in most blocks of an
# honest log, and each line they point at costs a parse.
_NAMED_PIECES = (b"ecret", b"assw", b"pi_k", b"ss_k", b"te_k", b"h_to", b"pike", b"sske",
                 b"ECRET", b"ASSW", b"PI_K", b"SS_K", b"TE_K", b"H_TO", b"PIKE", b"SSKE",
                 b"eyJh", b"eyJ0", b"pi-k", b"ss-k", b"te-k", b"hTok", b"piKe", b"cessK",
                 b"teKe", b"eyJr")
_PART_PIECES = (b'1":"', b'1": "', b'arts":', b'unks":', b'eces":', b'ents":')
# A model_request in the writer's own spelling: its public part is the envelope alone, so a
# marker in a base64 screenshot or a prompt costs no parse of the (40 KB) line. Anchored at
# the line's start, where no nested member can be.
_REQUEST = re.compile(rb'\{"seq":[0-9]{1,19},"at":"[^"\\]{0,64}","elapsedMs":[0-9.eE+\-]{1,32},'
                      rb'"type":"model_request","data":')
VERIFY_GATE = _NAMED_PIECES + _PART_PIECES
# (and the glued families' prefixes, `secrets_glued.FAMILY_MARKERS`: a line whose only long
# run is an escaped base64 payload opens no reader's spot, and `withhold` names a Stripe
# `rk_live_`, `npm_`, `r8_`, Alibaba `LTAI` or `xai-` key glued into it, which `verify` never
# asked: review s46 R2's "line gate markers"; session 47, redact)


def public_secret_hits(data: bytes, first: int, lo: int = 0, hi: int | None = None,
                       watch: SplitWatch | None = None) -> list[tuple[int, SecretHit]]:
    """(line number, hit) of each line of `data[lo:hi]` (whole lines joined by newlines, the
    first numbered `first`) whose public part `withhold` would refuse to publish, in line
    order. A line that cannot be parsed is asked as written (`withhold` refuses it whole).
    Looked at in chunks of whole lines (`_CHUNK`), a chunk's lines one by one only when the
    chunk holds a marker, without copies but of a line asked, and newlines counted only up to
    a hit: a base64 screenshot holds a marker every few 100 KB, and a substring search for
    each cost ~1 ns a byte. `watch` (the file's, kept between calls) joins the ends of
    consecutive events (`secrets_split.split_hits`)."""
    hi = len(data) if hi is None else hi
    view = memoryview(data)
    present = markers_of(view[lo:hi], MARKERS) + markers_of(view[lo:hi], VERIFY_GATE) \
        + markers_of(view[lo:hi], FAMILY_MARKERS)
    formats = has_format(view[lo:hi])
    out: list[tuple[int, SecretHit]] = []
    line, at, pos = first, lo, lo
    while pos < hi:
        end = data.find(b"\n", pos + _CHUNK, hi)
        end = hi if end < 0 else end
        here = markers_of(view[pos:end], present) if present else ()
        if here and all(m in _WORDS for m in here) and not named_value_near(view[pos:end]):
            here = ()  # (words naming a secret, none followed by `=` or `:`: one C pass)
        # the lines the reader's view (`secrets_read`) may find a key in, whatever their
        # markers: their starts
        reads = _line_starts(data, pos, _reader_spots(data, view, pos, end, formats))
        starts = iter(reads) if not here else None
        start = pos if here else next(starts, end)  # type: ignore[arg-type]
        while start < end:
            stop = data.find(b"\n", start, end)
            stop = end if stop < 0 else stop
            if _REQUEST.match(data, start, stop) is None:  # (a request: no parse)
                found = markers_of(view[start:stop], here) if here else ()
                read = start in reads
                raw = data[start:stop] if found or read else b""
                if (found and _worth_asking(found, raw)) or read:
                    hit = _public_hit(raw[:-1] if raw.endswith(b"\r") else raw)
                    if hit is not None:
                        line += data.count(b"\n", at, start)
                        at = start
                        out.append((line, hit))
            start = stop + 1 if starts is None else next(starts, end)
        pos = end + 1
    if watch is not None:
        split = split_hits(watch, data, first, lo, hi, _split_public,
                           _segments(data, lo, hi, _SPLIT_REQUEST), present)
        if split:
            out = sorted(out + split, key=lambda x: x[0])
    return out


def _split_public(raw: bytes) -> bytes | None:
    """A line's public part for `split_hits` (None for a model request: its public part is
    the envelope, no part of a key)."""
    if _REQUEST.match(raw) is not None:
        return None
    return public_seen(raw[:-1] if raw.endswith(b"\r") else raw)


_REQUEST_TYPE = b'"type":"model_request","data":'
# (split_hits' ranges leave out requests of 16 KiB or more only: a range costs four SIMD
# calls, and a log of 2 KB requests cut into thousands of ranges doubled verify's time)
_SPLIT_REQUEST = 16 << 10


def _reader_spots(data: bytes, view: memoryview, pos: int, end: int,
                  formats: bool) -> list[int]:
    """`reader_spots`, `payload_spots` and `encoded_spots` of `data[pos:end]`, the model
    requests of 1 KB or more left out (`_segments`)."""
    spots: list[int] = []
    encoded: list[int] = []  # (percent or character escapes: `secrets_decode.encoded_spots`)
    # (the gates `encoded_spots` asks, asked once: a spaced hex dump has no marker,
    # `secrets_bytes`; a chunk holding `%` asks them in `encoded_spots` only)
    gates = None if data.find(b"%", pos, end) >= 0 else encoded_gates(view[pos:end])
    escapes = gates is None or gates.open
    for at, stop in _segments(data, pos, end):
        spots += [at - pos + k for k in reader_spots(view[at:stop], formats, lines=True)]
        spots += [at - pos + k for k in payload_spots(data, at, stop, MARKERS)]
        spots += [at - pos + k for k in hex_stream_spots(data, view, at, stop)]
        spots += [at - pos + k for k in bignum_spots(data, at, stop)]
        if escapes:  # (asked a chunk at once: a log of 2 KB requests has thousands of ranges)
            whole = gates if (at, stop) == (pos, end) else None
            encoded += [at - pos + k for k in encoded_spots(data, at, stop, whole)]
    return sorted(spots + encoded)


def _segments(data: bytes, pos: int, end: int,
              least: int = 1024) -> list[tuple[int, int]]:
    """The ranges of `data[pos:end]` without its model requests of `least` bytes or more
    (their public part is the envelope; a request carrying a base64 screenshot made the gate's
    passes ~40 % of `verify`'s time on such a log). Looked for until the first shorter request
    (a log of short requests pays one search a chunk)."""
    out: list[tuple[int, int]] = []
    at = pos
    i = data.find(_REQUEST_TYPE, pos, end)
    while i >= 0:
        start = data.rfind(b"\n", pos, i) + 1 or pos
        stop = data.find(b"\n", i, end)
        stop = end if stop < 0 else stop
        if stop - start < least:
            break
        if _REQUEST.match(data, start, stop) is not None:
            if start > at:
                out.append((at, start))
            at = stop
        i = data.find(_REQUEST_TYPE, stop, end)
    if at < end:
        out.append((at, end))
    return out


def _line_starts(data: bytes, lo: int, spots: list[int]) -> dict[int, None]:
    """The start of the line holding each of `spots` (offsets from `lo`, in order), once.
    Linear: a spot inside the line found last is skipped, and a line's start is looked for
    back to the end of that line only (a 5 MB line of 43,000 hex runs looked back over the
    whole line for each: 1.9 s)."""
    out: dict[int, None] = {}
    floor, stop = lo, -1
    for at in spots:
        at += lo
        if at <= stop:
            continue
        start = data.rfind(b"\n", floor, at) + 1 or floor
        out[start] = None
        stop = data.find(b"\n", at)
        if stop < 0:
            break
        floor = stop + 1
    return out


_CHUNK = 1 << 16
_WORDS = frozenset(_NAMED_PIECES) - {b"eyJh", b"eyJ0", b"eyJr"}


def _worth_asking(found: tuple[bytes, ...], raw: bytes) -> bool:
    """Whether a line whose `found` markers the gate saw may hold what `withhold` refuses, so
    that it is worth parsing (~20 us): a secrets marker or a token's `eyJ` always; numbered
    parts when their names end in a stem word (`numbered_parts_in`: `"x1":"left"` is no part
    of a named secret) and, in a line with no escape, the parts are read in it as written; a
    word naming a secret when it is followed by `=` or `:` (`named_value_near`). Session 31's
    review: lines of honest text naming a secret door, a password prompt, or numbered
    `key_partN` members too short for a key were each parsed (verify of 400,000 lines: 2.1 s
    -> 7.9 and 10.9 s)."""
    words = parts = False
    for m in found:
        if m in _WORDS:
            words = True
        elif m in _PART_PIECES:
            parts = True
        else:
            return True
    if parts and numbered_parts_in(raw) and (b"\\" in raw or numbered_parts(raw) is not None):
        return True
    return words and named_value_near(raw)


def _public_hit(raw: bytes) -> SecretHit | None:
    """`withhold`'s test of one line's public part (`_refuse_secrets`), or of the line as
    written when it is no event `withhold` could publish."""
    return public_hit(public_seen(raw))


# A payload (a base64 run of `PAYLOAD` characters or more: a screenshot's data URI) is skipped
# by the reader's gate (`secrets_public.reader_spots`), which `verify` asks, while `withhold`
# reads every line's base64 runs decoded (`secrets_decode.views`): a key written in a JPEG's
# comment segment (QA s42 T7, e_jpeg64's last line) was refused by `withhold` and named by
# `verify` nowhere. A payload is asked when its decoded bytes are text or hold a marker of
# what `scan_public` finds in decoded bytes (`_view_hit`: the key patterns' and the JSON web
# token's, a private key block's, a URL's password's): chance writes a 3-byte marker in random
# bytes about once in 16 MB, so an honest screenshot log is asked a line in thousands.
# A compressed stream's payload is asked too (review s43 R6: `data:application/gzip;base64,`
# + base64 of gzip of 3 KB of noise, a key, 9 KB more: `withhold` inflates it and refused,
# `verify` named nothing): whatever `withhold` inflates (`secrets_inflate.told`, its one test:
# gzip, zlib, xz, bzip2, zstd, a ZIP, raw deflate; session 45, spell).
PAYLOAD = 4096
_DECODED_MARKERS = (b"eyJ", b"PRIVATE KEY", b"://")


def payload_spots(data: bytes, lo: int, hi: int, markers: tuple[bytes, ...]) -> list[int]:
    """Offsets from `lo` of the payloads of `data[lo:hi]` (above) worth asking: decoded from
    the run's start (its own 4-character groups), text, a compressed stream, or holding one of
    `markers` (the key patterns', `secrets.MARKERS`) or `_DECODED_MARKERS`. A `find` on the range mapped once
    (C speed), then each payload decoded once."""
    mapped = data[lo:hi].translate(B64_MAP)
    spots: list[int] = []
    i = mapped.find(_PAYLOAD_NEEDLE)
    while i >= 0:
        a = mapped.rfind(b" ", 0, i) + 1
        if a and data[lo + a - 1] == 92 and data[lo + a] in b"nrt":
            a += 1  # (an escaped line break's letter)
        b = mapped.find(b" ", i)
        b = len(mapped) if b < 0 else b
        run = data[lo + a:lo + a + (b - a) // 4 * 4]
        try:
            got = binascii.a2b_base64(run.translate(TO_STD))
        except (binascii.Error, ValueError):
            got = b""
        if got and (markers_of(got, markers) or markers_of(got, _DECODED_MARKERS)
                    or told(got) or is_text(got)):
            spots.append(a)
        i = mapped.find(_PAYLOAD_NEEDLE, b)
    return spots


_PAYLOAD_NEEDLE = b"a" * PAYLOAD


# Hex of a compressed stream (`zlib-flate -compress | xxd -p`, QA s45 h45_10; session 46,
# spell): `withhold` inflates a hex run whose bytes open with a header (`secrets_inflate.told`,
# raw deflate left out), but the reader's gate asks lower-case hex only when it is hex of text.
# A run is asked where it opens with a header's hex (lower case: upper-case hex holds upper
# case and digits, which the reader's gate asks anyway): one SIMD pass over the range, then a
# `find` for each head present (a 4-digit head is in a hex dump by chance once in 64 KiB).
_HEX_HEADS = (b"1f8b08", b"7801", b"785e", b"789c", b"78da", b"fd377a585a00", b"425a68",
              b"28b52ffd", b"504b0304", b"5d0000")
_HEX_DIGITS = frozenset(HEX_DIGITS)


def hex_stream_spots(data: bytes, view: memoryview, lo: int, hi: int) -> list[int]:
    """Offsets from `lo` of the hex runs of `data[lo:hi]` (32+ digits) whose bytes open as a
    compressed stream with a header (above)."""
    spots: list[int] = []
    for head in markers_of(view[lo:hi], _HEX_HEADS):
        i = data.find(head, lo, hi)
        while i >= 0:
            if (i == lo or data[i - 1] not in _HEX_DIGITS) and i + 32 <= hi \
                    and not data[i:i + 32].translate(None, HEX_DIGITS) \
                    and told(bytes.fromhex(data[i:i + 32].decode()), raw=False):
                spots.append(i - lo)
            i = data.find(head, i + len(head), hi)
    return spots


