"""The reader's view of a line's public part: what `withhold` and `verify` test after the
shape-by-shape patterns (`secrets.scan_line`, `secrets_public.scan_public`) found nothing.

Each QA pass since session 27 split a key in a way no pattern had seen (a member's name and
its value, three members at a JWT's dots, zero width spaces every 4 characters, an action's
text and the next observation), and each session added that shape. This module reads the line
as a person or a parser does instead, and tests what it reads (QA s31 T10, issue 15):

- the line's strings in document order (parsed, so every JSON escape is undone), each with
  its Unicode format characters removed (zero width space, joiner, word joiner, soft hyphen,
  BOM, bidi marks: they draw nothing, and `glpat-` broken by them is `glpat-` to the reader);
- joined where a key may be cut: a member's name with its string value, a string value with
  the next one of the line (at any depth, member names between skipped), a line break
  inside a string with what follows, each with nothing between and with a dot between (a
  JWT's three parts), up to four pieces, bounded (`_RUN` characters a side);
- tested for (a) every key family of one table (`FAMILIES`: a prefix and a shape; a match
  must cross a join, or lie in a string whose format characters were removed, since the
  string as written was scanned already), (b) a family's head at a string's end (the rest of
  the key is elsewhere: the head is a leak by itself), and (c) a **high-entropy run**: 20-128
  characters of a key's alphabet holding upper and lower case and 2+ digits, whose Shannon
  entropy per character is at least the 1st percentile of uniformly random keys of its length
  (the null model, `_FLOOR`), and that is no identifier an honest log carries (`_honest`).
  (c) names a key of a family no table holds; it is a warning in `verify` and a refusal in
  `withhold`, like every `scan_public` hit.

What (c) never flags (tests/formats/test_secrets_read.py): hex (hashes, git SHAs, UUIDs: no
upper and lower case together), words and identifiers (low entropy, or under 2 digits), key
combos, a base64 payload (a run past 128 characters), a value under a name saying it is an id
or a digest, and ids of the model APIs (`msg_`, `chatcmpl-`, `toolu_`, `call_` ...).

Bounded: at most `_STRINGS` strings of a line are read, as many joins and runs tested, `_RUN`
characters a side of a join; every regex has bounded repeats. A key after 4,096 decoy runs of
one line is not looked for by (c) (docs/rules-community.md).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Iterator

import orjson

from moderator_app.core.formats.secrets import _PATTERNS, SecretHit, _redact, _stem, markers_of
from moderator_app.core.formats.secrets_chance import B64_MAP, in_escaped_payload
from moderator_app.core.formats.secrets_decode import b64_text
from moderator_app.core.formats.secrets_entropy import _MAX, _mixed, high_entropy
from moderator_app.core.formats.secrets_entropy import _words as _words  # (secrets_split)

# Key families beyond `secrets._PATTERNS` (which the trajectory's per-line scan also uses):
# (marker, label, pattern). A prefix and a shape each; every repeat bounded.
_MORE = (
    (b"rk_live_", "Stripe restricted key", rb"(?<![A-Za-z0-9])rk_live_[A-Za-z0-9]{20,247}"),
    (b"k_test_", "Stripe test key", rb"(?<![A-Za-z0-9])[rs]k_test_[A-Za-z0-9]{20,247}"),
    (b"glrt-", "GitLab runner token", rb"glrt-[A-Za-z0-9_\-]{20,64}"),
    (b"gldt-", "GitLab deploy token", rb"gldt-[A-Za-z0-9_\-]{20,64}"),
    (b"eyJ", "JSON web token",
     rb"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,2048}\.eyJ[A-Za-z0-9_\-]{8,2048}"
     rb"\.[A-Za-z0-9_\-]{8,2048}"),
    (b"npm_", "npm token", rb"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}"),
    (b"pypi-AgE", "PyPI token", rb"pypi-AgE[A-Za-z0-9_\-]{50,256}"),
    (b"gho_", "GitHub token", rb"gh[ousr]_[A-Za-z0-9]{36}"),
    (b"ghu_", "GitHub token", rb"gh[ousr]_[A-Za-z0-9]{36}"),
    (b"ghs_", "GitHub token", rb"gh[ousr]_[A-Za-z0-9]{36}"),
    (b"ghr_", "GitHub token", rb"gh[ousr]_[A-Za-z0-9]{36}"),
    (b"xapp-", "Slack app token", rb"xapp-[0-9]-[A-Za-z0-9\-]{40,160}"),
    (b"hooks.slack.com", "Slack webhook",
     rb"hooks\.slack\.com/services/T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{20,32}"),
    (b"_v1_", "DigitalOcean token", rb"do[opr]_v1_[a-f0-9]{64}"),
    (b"shp", "Shopify token", rb"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
    (b"ASIA", "AWS access key id", rb"(?<![A-Z0-9])(?:ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Z])"),
    (b"GOCSPX-", "Google OAuth client secret", rb"GOCSPX-[A-Za-z0-9_\-]{24,40}"),
    (b"ya29.", "Google OAuth token", rb"ya29\.[A-Za-z0-9_\-]{30,512}"),
    (b"AGE-SECRET-KEY-1", "age secret key", rb"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
    (b"dckr_pat_", "Docker token", rb"dckr_pat_[A-Za-z0-9_\-]{27,64}"),
    (b"hvs.", "Vault token", rb"hv[sb]\.[A-Za-z0-9_\-]{24,256}"),
    (b"hvb.", "Vault token", rb"hv[sb]\.[A-Za-z0-9_\-]{24,256}"),
    (b"sq0", "Square token", rb"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,60}"),
    (b"lin_api_", "Linear key", rb"lin_api_[A-Za-z0-9]{40}"),
    (b"PMAK-", "Postman key", rb"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    (b"ATATT3", "Atlassian token", rb"ATATT3[A-Za-z0-9_\-=]{100,250}"),
    (b"glc_", "Grafana token", rb"glc_[A-Za-z0-9_+/=]{32,400}"),
    (b"glsa_", "Grafana token", rb"glsa_[A-Za-z0-9_]{32,64}"),
    (b"r8_", "Replicate token", rb"(?<![A-Za-z0-9])r8_[A-Za-z0-9]{37}"),
    (b"gsk_", "Groq key", rb"gsk_[A-Za-z0-9]{48,52}"),
    (b"xai-", "xAI key", rb"(?<![A-Za-z0-9])xai-[A-Za-z0-9]{70,90}"),
    (b"pplx-", "Perplexity key", rb"pplx-[A-Za-z0-9]{48}"),
    (b"dapi", "Databricks token", rb"(?<![A-Za-z0-9])dapi[a-f0-9]{32}"),
    (b"key-", "Mailgun key", rb"(?<![A-Za-z0-9])key-[0-9a-f]{32}"),
    (b"sntrys_", "Sentry token", rb"sntrys_[A-Za-z0-9_+/=]{60,300}"),
    (b"NRAK-", "New Relic key", rb"NRAK-[A-Z0-9]{27}"),
    (b"tskey-", "Tailscale key", rb"tskey-[a-z]{3,8}-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,40}"),
    (b"figd_", "Figma token", rb"figd_[A-Za-z0-9_\-]{40}"),
    (b"pscale_", "PlanetScale token", rb"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64}"),
    (b"rubygems_", "RubyGems key", rb"rubygems_[a-f0-9]{48}"),
    (b"sbp_", "Supabase token", rb"sbp_[a-f0-9]{40}"),
    (b"nfp_", "Netlify token", rb"nfp_[A-Za-z0-9]{36}"),
    (b"fo1_", "Fly.io token", rb"fo1_[A-Za-z0-9_\-]{43}"),
    (b"api_org_", "Hugging Face token", rb"api_org_[A-Za-z0-9]{34}"),
    (b"LTAI", "Alibaba key id", rb"(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])"),
    (b"xkeysib-", "Brevo key", rb"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    (b":AA", "Telegram bot token", rb"(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}"),
)

#: Every key family the product knows, one table: the trajectory's patterns, then the rest.
#: `withhold` and `verify` test the reader's view against all of them.
FAMILIES = tuple(_PATTERNS) + _MORE


@functools.cache
def _families() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    return tuple((m.decode(), label, re.compile(p.decode())) for m, label, p in FAMILIES)


# Unicode format characters a screen draws as nothing (category Cf in the BMP's usual ranges:
# soft hyphen, Mongolian vowel separator, zero width space / non-joiner / joiner, LRM / RLM,
# bidi embeddings and isolates, word joiner, invisible operators, BOM).
_FORMAT = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                     "\ufeff]")
#: The same as UTF-8 bytes (the public part `scan_public` gets is escape-decoded).
FORMAT_BYTES = re.compile(rb"\xc2\xad|\xe1\xa0\x8e|\xe2\x80[\x8b-\x8f\xaa-\xae]"
                          rb"|\xe2\x81[\xa0-\xa4\xa6-\xa9]|\xef\xbb\xbf")

_TOKEN = "A-Za-z0-9_\\-"
_HEAD = re.compile(f"[{_TOKEN}.]{{1,128}}")
# A maximal run of a key's alphabet (a base64 key's `+` `/` `=` too): its start is no such
# character, and a run past 4096 (a payload) is skipped whole by its length. Its pieces
# between `/` are what is tested, as `secrets_public`'s gate reads them: model ids
# (`unsloth/DeepSeek-R1-Distill-Qwen-32B-GGUF`) and paths are words between slashes
# (session 32's review of 5e90ce4); a run past `_MAX` with them is a payload, not tested.
_RUNS = re.compile(f"(?<![{_TOKEN}+/])[{_TOKEN}+/]{{20,4096}}={{0,2}}")
# Base64 wrapped at a fixed width (`base64.encodebytes`: 76 a line; PEM 64): one payload to a
# reader, joined before it is read (docs/rules-community.md: base64 payloads are never flagged).
# (Anchored at a line's start: unanchored, each character of a long run began a 76-character
# try, 0.8 s a MiB.)
# (Either alphabet, `-` and `_` too: a key's shape written over a wrapped blob's characters,
# QA s43 T7's h43_16 and e_pem64 line 6, cut the blob there, and the two lines joined read
# as a key cut at a line break; the raw line's own scan asks the key's place in the blob,
# `secrets_chance.in_binary_base64` over the breaks.)
# (Any width from MIME's 60 up to `_MAX`, the longest run the high-entropy rule reads: QA s44
# T8, h44_16's `base64 -w 80` blobs of gzip were read line by line, each line an 80-character
# "high-entropy run", 60 honest lines refused; a line past `_MAX` is a payload already. One
# width all through, as before (`_unwrap.join`). Session 45, redact.)
_WRAP_LEAST = 60
_WRAPPED = re.compile(rf"(?m)^((?:[A-Za-z0-9+/_\-]{{{_WRAP_LEAST},{_MAX}}}\r?\n){{1,65536}})"
                      rf"([A-Za-z0-9+/_\-]{{0,{_MAX}}}={{0,2}})(?![A-Za-z0-9+/=_\-])")
_RUN = 128
_STRINGS = 4096
# (`_RUNS`' character class is `secrets_chance.B64_MAP`'s, `a` in a run and a space out of
# one: `run_spans` scans an ASCII text's bytes so mapped)
_RUN_LEAST = b"a" * 20


def run_spans(text: str) -> Iterator[tuple[int, str]]:
    """(start, match) of each `_RUNS` match in `text`, in order, as `_RUNS.finditer` gives
    them. An ASCII text's runs are found with substring searches over its bytes mapped by
    `B64_MAP`: sre tries the look-behind at every character, ~0.2 ms a 16 KB screenshot's
    base64 (QA s41 e_png64, session 43, speed). A match is a maximal run's first 4,096
    characters, and up to two `=` after a run no longer than that."""
    if not text.isascii():
        yield from ((m.start(), m.group()) for m in _RUNS.finditer(text))
        return
    mapped = text.encode("ascii").translate(B64_MAP)
    n = len(mapped)
    start = mapped.find(_RUN_LEAST)
    while start >= 0:  # (a maximal run starts here: the search began at a non-run byte)
        end = mapped.find(b" ", start)
        end = n if end < 0 else end
        stop = min(end, start + 4096)
        if stop == end:
            stop += 2 if text.startswith("==", stop) else text.startswith("=", stop)
        yield start, text[start:stop]
        start = mapped.find(_RUN_LEAST, end)


# Ids an honest model API log carries (a response's, a tool call's, a message's): random, not
# secret. And member names saying a value is an id, a digest or a public nonce.
_ID_PREFIXES = ("msg_", "chatcmpl-", "cmpl-", "toolu_", "call_", "resp_", "req_", "run_",
                "file-", "file_", "asst_", "thread_", "batch_", "gen-", "evt_", "srvtoolu_",
                "rs_", "fc_", "ws_", "sha256-", "sha384-", "sha512-")
_ID_NAME = re.compile(r"(?i)(?:\A|[_\-.])(?:id|ids|uuid|guid|hash|sha\d*|digest|checksum|etag|"
                      r"commit|rev|revision|nonce|trace|span|request|fingerprint)\Z"
                      r"|[a-z](?:Id|ID|Ids|Hash|Sha|Digest)\Z")


def _tail(text: str) -> str:
    """The run of token characters (and dots) ending `text`, at most `_RUN` of them (read
    reversed: a search anchored at the end would try every start)."""
    m = _HEAD.match(text[:-_RUN - 1:-1])
    return m.group()[::-1] if m is not None else ""


def _word_before(text: str, at: int) -> str:
    """What precedes `at` in its whitespace-delimited word (at most 256 characters): a data
    URI's `base64,`, a URL's `://`."""
    lo = max(0, at - 256)
    cut = max(text.rfind(" ", lo, at), text.rfind("\n", lo, at), text.rfind("\t", lo, at))
    return text[max(lo, cut + 1):at]


# A run that is a data URI's payload (`data:image/png;base64,iVBOR...`, a 1x1 PNG is 92
# characters), or whose base64 decodes to a file's magic bytes (PNG, JPEG, GIF, WebP/RIFF,
# PDF, zlib, gzip, bzip2, zstd, xz): a picture or a file, not a key.
_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"RIFF", b"%PDF", b"\x78\x9c", b"\x1f\x8b",
          b"OggS", b"ID3", b"fLaC", b"\x1a\x45\xdf\xa3", b"PK\x03\x04", b"wOF2", b"wOFF",
          b"II*\x00", b"MM\x00*", b"\x00\x00\x00\x18ftyp", b"\x00\x00\x00\x1cftyp",
          b"\x00\x00\x00\x20ftyp", b"BZh", b"\x28\xb5\x2f\xfd", b"\xfd7zXZ", b"]\x00\x00")
# (audio: Ogg, MP3's ID3, FLAC; WebM; zip; fonts; TIFF; MP4; bzip2, zstd, xz: session 44;
# `lzma -c`'s, read by `secrets_inflate` whole: session 45, spell, QA s44 h44_15 line 10)


def _honest(run: str, name: str, before: str = "") -> bool:
    """An id, a digest or a file's bytes, not a secret (above)."""
    if run.startswith(_ID_PREFIXES) or (bool(name) and _ID_NAME.search(name) is not None):
        return True
    if before.endswith("base64,") or "://" in before:
        return True  # (a picture; a URL's path or query: ids, a playlist, a video)
    if b64_text(run.encode()) is not None:
        return True  # (base64 of text: its decoded text is read instead, `secrets_decode`)
    import base64
    import binascii

    try:
        head = base64.b64decode(run[:12] + "=" * (-len(run[:12]) % 4))
    except (binascii.Error, ValueError):
        return False
    return head.startswith(_MAGIC)


def _walk(obj: object) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(name, string value) of each member whose value is a string, and (name, string) of
    every string value in document order (an array's elements under its member's name),
    iteratively, at most `_STRINGS` of each."""
    members: list[tuple[str, str]] = []
    values: list[tuple[str, str]] = []
    stack: list[tuple[str, object]] = [("", obj)]
    while stack and len(values) < _STRINGS:
        name, cur = stack.pop()
        if type(cur) is str:
            values.append((name, cur))
        elif type(cur) is dict:
            items = list(cur.items())
            for k, v in reversed(items):
                stack.append((k, v))
            members.extend((k, v) for k, v in items[:_STRINGS] if type(v) is str)
        elif type(cur) is list:
            stack.extend((name, v) for v in reversed(cur[:_STRINGS]))
    return members[:_STRINGS], values


# `_family_across`'s windows: a family's match is looked for from 16 characters before its
# marker to `_REACH` after it (a key is at most ~2,400 characters here); windows `_SPAN` long
# are searched, and the next one starts at a marker at least `_SPAN - _REACH` further on.
_REACH = 2400
_SPAN = 8 * _REACH


def _family_across(text: str, cut: int,
                   present: frozenset[str] | None = None) -> tuple[str, str] | None:
    """The first family match in `text` crossing position `cut` (0: anywhere), as (label,
    the match).

    Linear by construction (session 32's review: a 6 MB string of one zero width space then
    "ASIA" x 1.5 million searched a 2,416-character window at each of its 1.5 million markers,
    38 s): each family's pattern searches a window of `_SPAN` characters from 16 before a
    marker, and the next marker is looked for from `_REACH` before that window's end, so a
    character is searched at most 1 + 1/7 times per family; a match whose marker lies in a
    window's last `_REACH` characters is taken from the next window (the window's end, read as
the string's end by a trailing look-ahead, may cut it there). `present`, when given: the
markers `text` holds (the other families are not searched: none matches without its marker)."""
    n = len(text)
    for marker, label, pattern in _families():
        if present is not None and marker not in present:
            continue
        at = text.find(marker)
        while at >= 0:
            lo = max(0, at - 16)
            hi = min(n, lo + _SPAN)
            for m in pattern.finditer(text, lo, hi):
                if hi < n and m.start() >= hi - _REACH:
                    break  # (the next window reads it whole: `hi` may cut it)
                if not cut or m.start() < cut < m.end():
                    return label, m.group()
            if hi >= n:
                break
            at = text.find(marker, max(at + 1, hi - _REACH))
    return None


# Each family's marker once (60: one `markers_of` call, at most 64).
_FAMILY_MARKERS = tuple(dict.fromkeys(m for m, _, _ in FAMILIES))


def family_in(text: str, raw: bytes | None = None) -> tuple[str, str] | None:
    """The first key family match anywhere in `text` (a decoded view), as (label, match).
    `raw`, the bytes `text` was decoded from (UTF-8, errors replaced: an ASCII marker is in
    one where it is in the other), lets one SIMD pass (`markers_of`) say which markers are
    there, so only their families are searched: 60 `str.find`s of a 2 MB view of `AAAA...`
    (a line of `%41`) took ~80 ms, each prefix that starts with `A` matching at every
    character (session 34, escape; R16)."""
    if raw is None:
        return _family_across(text, 0)
    present = frozenset(m.decode() for m in markers_of(raw, _FAMILY_MARKERS))
    return _family_across(text, 0, present) if present else None


def random_run(text: str) -> str | None:
    """The first high-entropy run (c) of free text (a decoded view) that is no id, digest,
    file or payload (`_honest`), or None; at most `_STRINGS` runs tested."""
    for n, (at, whole) in enumerate(run_spans(text)):
        if n >= _STRINGS:
            break
        if len(whole) <= _MAX and any(high_entropy(run) for run in whole.split("/")) \
                and not _honest(whole, "", _word_before(text, at)):
            return whole
    return None


def random_run_among(texts: list[str], sep: str) -> bool:
    """Whether any of `texts` holds a `random_run` (session 33's review R15: 58,000 short
    decoded texts a line, each read alone): one `_RUNS` pass over their join by `sep` (no
    run character in it) finds the candidates, a run of `_MAX` or fewer characters with a
    piece of high entropy; only a text holding one is tested whole, by `random_run` itself."""
    joined = sep.join(texts)
    ends = list(itertools.accumulate(len(t) + len(sep) for t in texts))
    tested = -1
    for at, whole in run_spans(joined):
        if len(whole) > _MAX or not any(high_entropy(run) for run in whole.split("/")):
            continue
        i = bisect.bisect_right(ends, at)
        if i != tested and i < len(texts):
            tested = i
            if random_run(texts[i]) is not None:
                return True
    return False


def _cut_head(text: str) -> tuple[str, str] | None:
    """A family's head ending `text` (16+ random characters after its prefix, the pattern
    unmatched but matched had the string gone on): the key's rest is elsewhere."""
    run = _tail(text)
    if not run:
        return None
    filled = run + "0" * 64 + "a" * 64
    for marker, label, pattern in _families():
        at = run.find(marker)
        if at < 0 or len(run) - at - len(marker) < 16 or not _mixed(run[at + len(marker):]):
            continue
        for start in range(at, max(-1, at - 3), -1):  # (`sk_live_`'s marker is `k_live_`)
            if pattern.match(run, start) is not None:
                break  # a whole key: the string as written was scanned for it
            m = pattern.match(filled, start)  # (its look-behind sees the run before it)
            if m is not None and m.end() > len(run):
                return f"{label} cut at its string's end", run[start:]
    return None


def _line_parts(text: str) -> list[str]:
    """`re.split(r"[\\r\\n]+", text)` by str splits (a run of breaks is one cut; an empty
    first or last part kept): sre's class scan took ~0.4 ms a 16 KB value of base64 (QA s41
    e_png64, session 42, speed)."""
    parts = text.replace("\r", "\n").split("\n")
    if len(parts) < 3:
        return parts
    return [parts[0], *(p for p in parts[1:-1] if p), parts[-1]]


def _pieces(members, values) -> list[tuple[str, str, str, bool]]:
    """(left, right, the name of the right piece, whether the two may be joined with nothing
    between) of each place a key may be cut: a member's name and its value, a string value
    and the next, a line break inside a string. Two values join with nothing between only
    under one name or names of one stem (`key_a`, `key_b`; `secrets._stem`): `"voice":
    "sk-SK-Filip", "session": "Ab12..."` are two things (session 30's honest neighbours); a
    dot between (a JWT's members `header`, `claims`, `signature`) joins any."""
    out = [(k, v, k, True) for k, v in members]
    flat: list[tuple[str, str]] = []
    for name, text in values:
        parts = _line_parts(text) if ("\n" in text or "\r" in text) else [text]
        flat.extend((name, p) for p in parts[:64])
    for i in range(min(len(flat) - 1, _STRINGS)):
        (a, left), (b, right) = flat[i], flat[i + 1]
        out.append((left, right, b, a == b or _stem(a.encode()) == _stem(b.encode())))
    return out


def _chain(pieces: list[tuple[str, str, str, bool]], i: int,
           glue: str) -> tuple[str, int] | None:
    """The tail of piece i's left joined by `glue` to its right's head, continued over the next
    pieces while each right is one whole run (a JWT's three members), and where the first cut
    is; None when a side has no run, or nothing joins them (above: a right joined with nothing
    between must look random, `_mixed`: `"sk-SK-ViktoriaNeural", "sk-SK-LukasNeural2"` are two
    voices)."""
    left, right, _, plain = pieces[i]
    tail = _tail(left)
    head = _HEAD.match(right)
    if not tail or head is None or (not glue and not (plain and _mixed(head.group()))):
        return None
    text, cut = tail + glue + head.group(), len(tail)
    k = i
    while head.end() == len(right) and k + 1 < len(pieces) and len(text) < 3 * _RUN \
            and pieces[k + 1][0] == right and k - i < 3:
        k += 1
        right = pieces[k][1]
        head = _HEAD.match(right)
        if head is None or (not glue and not (pieces[k][3] and _mixed(head.group()))):
            break
        text += glue + head.group()
    return text, cut


def _unwrap(text: str) -> str:
    """`text` with each base64 payload wrapped at a fixed width joined into one run: its full
    lines of one width, and its last line when the whole is base64's length (a multiple of
    4: a key on the line after a payload is not taken into it 3 times in 4)."""
    if "\n" not in text:
        return text
    start = 0  # (a line `_WRAPPED` can begin with: 60-128 characters, `\r`, `\n`; without
    while True:  # one its sub would scan every character for nothing)
        end = text.find("\n", start)
        if end < 0:
            return text
        if _WRAP_LEAST <= end - start <= _MAX + 1:
            break
        start = end + 1

    def join(m: re.Match[str]) -> str:
        lines = m.group(1).split()
        if len({len(line) for line in lines}) != 1 or len(lines[0]) % 4:
            return m.group()
        full = "".join(lines)
        last = m.group(2)
        return full + last if not (len(full) + len(last)) % 4 else full + "\n" + last

    return _WRAPPED.sub(join, text)


def _hit(label: str, found: str, how: str) -> SecretHit:
    return SecretHit(label, 0, _redact(found.encode()), True, how=how)


JOINED_READ = "the strings it is split over are joined as a reader reads them"
FORMAT_READ = "its invisible format characters (zero width spaces ...) are removed"
ENTROPY = "high-entropy run (a key of a family no table holds?)"


def reader_hit(raw: bytes) -> SecretHit | None:
    """What the reader's view of a line's public part (JSON, escapes decoded) shows of a key
    (the module's docstring), or None. A line that does not parse is read as written by the
    callers' other tests only."""
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    members, values = _walk(obj)
    if b"\\n" in raw:  # (a wrapped base64 payload is one payload: `_WRAPPED`)
        values = [(n, _unwrap(v)) for n, v in values]
        members = [(k, _unwrap(v)) for k, v in members]
    # (every format character is non-ASCII: an ASCII line needs no regex over its bytes)
    cleaned = not raw.isascii() and FORMAT_BYTES.search(raw) is not None
    if cleaned:
        members = [(_FORMAT.sub("", k), _FORMAT.sub("", v)) for k, v in members]
        values = [(n, _FORMAT.sub("", v)) for n, v in values]
        for _, text in values:
            found = _family_across(text, 0)
            if found is not None:
                return _hit(found[0], found[1], FORMAT_READ)
    for _, text in values:
        found = _cut_head(text)
        if found is not None:
            return _hit(found[0], found[1], "")
    pieces = _pieces(members, values)
    for i in range(len(pieces)):
        for glue in ("", "."):
            chained = _chain(pieces, i, glue)
            if chained is None:
                continue
            text, cut = chained
            found = _family_across(text, cut)
            if found is not None:
                return _hit(found[0], found[1], JOINED_READ)
    tested = 0
    for name, text in values:
        escaped: list[object] | None = [] if ("\\" in text or "%" in text) \
            and text.isascii() else None  # (`in_escaped_payload`'s cache: escapes in ASCII)
        for at, whole in run_spans(text):
            if len(whole) <= _MAX and any(high_entropy(run) for run in whole.split("/")) \
                    and not _honest(whole, name, _word_before(text, at)) \
                    and not (escaped is not None and in_escaped_payload(
                        text, at, at + len(whole), escaped)):
                return _hit(ENTROPY, whole, FORMAT_READ if cleaned else "")
            tested += 1
            if tested >= _STRINGS:
                break
        else:
            continue
        break
    for left, right, name, plain in pieces:
        tail, head = _tail(left), _HEAD.match(right)
        if not plain or len(tail) < 8 or head is None or len(head.group()) < 8 \
                or not _mixed(head.group()) or not _mixed(tail):
            continue  # (`"completion": "chatcmpl-..."`: a word and an id)
        run = tail + head.group()
        if high_entropy(run) and not _honest(run, name) and not _honest(tail, "") \
                and not _honest(head.group(), ""):
            return _hit(ENTROPY, run, JOINED_READ)
    return None
