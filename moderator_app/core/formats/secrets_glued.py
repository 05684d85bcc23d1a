"""Key shapes glued to base64 characters on purpose, where the patterns' own boundaries never
let a match start or end (moved out of `secrets`, session 44, redact: that module was 586
lines). What is found here is asked of `secrets_chance.in_binary_base64` like any match: it is
recorded (starred by `withhold`, noted by `verify`) when it lies in base64 of binary data."""

from __future__ import annotations

import re

from moderator_app.core.formats.secrets_chance import (
    _IN_RUN,
    B64_MAP,
    in_binary_base64,
    record_passed,
)
from moderator_app.core.formats.secrets_entropy import _words, high_entropy

# An AWS key id glued to capitals or digits on purpose (review s42 R3: "Q"*64 + an AKIA key +
# "Q"*64 was published whole, nothing named: the pattern's boundaries never hold there) is
# passed over inside base64 of binary data like any match there, so `withhold` writes it as
# `*` and `verify` notes it (`secrets_chance.passing_over`); elsewhere it is not named, as
# before. Chance glues AKIA and 16 capitals or digits about once in 10^11 base64 characters
# (none in e_png64, e_jpeg64, e_mime76 or h41_13; h42_13's 5 are QA's own).
#
# `sk-` and `hf_` glued after a letter or digit (review s43 R4 HIGH: B + `sk-proj-...`,
# B[:900] + key + B[900:], "Q"*64 + key + "Q"*64, the same with `hf_...`, B base64 of 1,800
# random bytes, were published whole, nothing named) the same way, bounded by the key's own
# length (an OpenAI project key is 164 characters, a Hugging Face token `hf_` + 34), never to
# the run's end: a base64url run of a screenshot spells `sk-` about once in 262,144 characters
# (`-` is base64url's alone: standard base64 spells neither `sk-` nor `hf_`, and a run of both
# alphabets is no base64 data: named) and is starred for the match's 160 characters at most.
# Outside base64 of binary data they are named only inside a run of 64+ base64 characters
# (`_in_blob`) and when the rest reads as random
# (`secrets_entropy.high_entropy`, the reader's own test): `risk-Level3-Assessment-2024` or
# `desk-2024-Q3-plan` glued after a word are words, not keys.
_UPPER = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALNUM = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# marker: (the bounded match, the bytes that glue it before (or after, for AKIA), whether a
# match outside base64 of binary data is named when its rest reads as random)
GLUED = {
    b"AKIA": (re.compile(rb"AKIA[0-9A-Z]{16}"), _UPPER, False),
    b"sk-": (re.compile(rb"sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{20,160}"), _ALNUM, True),
    b"hf_": (re.compile(rb"hf_[A-Za-z0-9]{30,64}"), _ALNUM, True),
}
# A glued match cut by a wrapping's escaped line break (QA s44 h44_11: an `sk-ant-` key glued
# inside a JPEG's 76-column MIME base64, its first 34 characters before a `\\r\\n`): starred up
# to the break, its 66 characters after it were published. Such a match is read on over the
# breaks (`_ACROSS`): when that reads as a key's random part it is starred whole, piece by
# piece with the breaks kept, where its first piece lies in base64 of binary data
# (`_over_binary`), and named elsewhere (verify refuses it, withhold writes nothing) (session
# 44, lead). Standard base64 spells neither `-` nor `_`; base64url wrapped at a width may spell
# a key shape cut by a break by chance (about once in 262,144 characters): starred, as above.
# (doubled in a JSON string holding JSON: PHP's `json_encode` of `chunk_split`, `\\\\r\\\\n`;
# QA s45 T5, h45_06: an `sk-` key across one was published whole; session 46, redact; and
# deeper, `secrets_chance._BREAK_AT`'s 8 backslashes: session 47, redact)
_BREAKS = rb"(?:\\{1,8}r)?\\{1,8}n"
_ACROSS = {
    b"sk-": re.compile(rb"sk-(?:ant-|proj-|live-|test-)?(?:[A-Za-z0-9_\-]|" + _BREAKS
                       + rb"){20,160}"),
    b"hf_": re.compile(rb"hf_(?:[A-Za-z0-9]|" + _BREAKS + rb"){30,64}"),
}
_BREAK = re.compile(_BREAKS)
# (the random part read by `high_entropy`: its 20-128 characters)
_TAIL = 128
# The least random part of each named glued pattern (its `{20,` / `{30,`): `_random_head`
# reads no shorter head.
_LEAST = {b"sk-": 20, b"hf_": 30}
# DeepSeek's `sk-` + 32 lower-case hex digits: random, but one case (`high_entropy` wants both)
# (review s45 R1 update: "e"*10 + it + "e"*10 was published whole); `_hidden` still decides
_HEX_KEY = re.compile(rb"[0-9a-f]{32}")
# `sk-` with a key's kind after it (OpenAI's `sk-proj-`, `sk-svcacct-`, `sk-admin-`,
# Anthropic's `sk-ant-`; not `live-` / `test-`, which an honest `task-test-<id>` or
# `disk-live-<id>` spells), or OpenAI's own mark inside it (`T3BlbkFJ`, base64 of "OpenAI",
# in its legacy `sk-` + 48 keys): a key by itself, whatever glues it (review s45 R1: a pad of
# vowels, "e"*10, hid these from the vowel rule below)
_KIND = re.compile(rb"sk-(?:ant|proj|svcacct|admin)-")
_OPENAI_MARK = b"T3BlbkFJ"
# A glue before a bare `sk-` that holds one of these is a word's start (`ta`sk-, `di`sk-)
_GLUE_VOWELS = frozenset(b"aeiouyAEIOUY")
# ... unless a pad glues it: 4 of one character just before the `sk-` or ending the match
# (review s45 R1 update: "e"*10 + `sk-` + 48 + "e"*10; no id ends so but 1 in 262,144)
_PAD = re.compile(rb"(.)\1{3}\Z")
# ... or a pad of two characters (review s45 R1: "ae"*5 + `sk-` + 48): a pair 4 times ending
# the glue (no word does; "banana" holds `an` twice); or a glue of vowels alone (3+)
_PADS = re.compile(rb"(.)\1{3}\Z|(..)\2{3}\Z")
_VOWEL_BYTES = bytes(_GLUE_VOWELS)


def glued_over(raw: bytes, marker: bytes, label: str, mapped: list[object]
               ) -> list[re.Match[bytes]]:
    """Asks `in_binary_base64` (which records it) of each match of `GLUED[marker]` that its
    pattern's boundaries refused (glued before it; AKIA: or after it); gives those to name:
    not inside base64 of binary data, and random after their marker (above)."""
    glued, glue, named = GLUED[marker]
    found: list[re.Match[bytes]] = []
    i = raw.find(marker)
    while i >= 0:
        m = glued.match(raw, i)
        if named and i and raw[i - 1] in glue:
            over = _across(raw, marker, i, None if m is None else m.end())
            if over is not None:
                if not _over_binary(raw, over, mapped, label) and _hidden(raw, marker, over):
                    found.append(over)
                i = raw.find(marker, over.end())
                continue
        if m is not None and (i and raw[i - 1] in glue or not named and
                              m.end() < len(raw) and raw[m.end()] in glue) \
                and not in_binary_base64(raw, i, m.end(), mapped, label) and named \
                and _hidden(raw, marker, m) and _random_head(marker, m.group()[len(marker):]):
            found.append(m)
            i = raw.find(marker, m.end())
            continue
        i = raw.find(marker, i + 1)
    return found


def _across(raw: bytes, marker: bytes, at: int, end: int | None) -> re.Match[bytes] | None:
    """The glued match at `at` read on over escaped line breaks (`_ACROSS`) when its bounded
    match stops at one (`end`) or is cut too short by one to match (None), and the whole reads
    as a key's random part; else None."""
    if end is not None and _BREAK.match(raw, end) is None:
        return None
    over = _ACROSS[marker].match(raw, at)
    brk = None if over is None else _BREAK.search(raw, at, over.end())
    if over is None or brk is None or over.end() <= brk.end():
        return None
    rest = _BREAK.sub(b"", over.group()[len(marker):])
    return over if _random_head(marker, rest) else None


def _over_binary(raw: bytes, over: re.Match[bytes], mapped: list[object], label: str) -> bool:
    """Whether a glued match read over escaped breaks lies in base64 of binary data, asked of
    its first piece (`in_binary_base64`, which records it); then its pieces after the breaks
    are recorded too, so `withhold` stars them all, the breaks kept."""
    pieces, at = [], over.start()
    for brk in _BREAK.finditer(raw, over.start(), over.end()):
        pieces.append((at, brk.start()))
        at = brk.end()
    pieces.append((at, over.end()))
    first, rest = pieces[0], [p for p in pieces[1:] if p[1] > p[0]]
    if first[1] <= first[0] or not in_binary_base64(raw, first[0], first[1], mapped, label):
        return False
    for start, end in rest:
        record_passed(raw, start, end, label)
    return True


def _in_blob(raw: bytes, at: int) -> bool:
    """Whether `_IN_RUN` base64 characters glue the match at `at` from before: a key hidden
    inside a blob, not a word's tail (`task-task-ghp_...`: `sk-` after `ta` is a word, the
    token it runs into is named by its own pattern)."""
    return at >= _IN_RUN and b" " not in raw[at - _IN_RUN:at].translate(B64_MAP)


def _hidden(raw: bytes, marker: bytes, m: re.Match[bytes]) -> bool:
    """Whether a glued match outside base64 of binary data is a key hidden by its glue, not a
    word's tail (review s44 R3 HIGH: "Q"*10 / "x"*10 + `hf_` or `sk-proj-` + the same pad was
    published whole, nothing named, when only a 64+ run of base64 before counted). Inside a
    64+ run (`_in_blob`); a `hf_`, an `sk-` of a kind or with OpenAI's mark (`_KIND`) after
    any letter or digit (glued so and reading random, none is in an honest log:
    docs/DECISIONS.md, session 45, redact); another `sk-` only when its glue is a pad
    (`padded`: "ae"*5, review s45 R1's last shape) or its last character, the one before
    `sk-`, is no vowel (`QQQQ`, `123456789`, a word pad `monkeybusiness`): `task-`, `disk-`,
    `risk-`, `kiosk-`, `ask-` + an id are words with their ids, and an English word ends in
    `sk` after a vowel only (`_GLUE_VOWELS`; `Minsk-`, `Omsk-` + a random id are named)."""
    if _in_blob(raw, m.start()) or marker == b"hf_" or _KIND.match(raw, m.start()) \
            or _OPENAI_MARK in m.group():
        return True
    glue = _glue(raw, m.start())
    return padded(glue) or glue[-1] not in _GLUE_VOWELS \
        or _PAD.search(m.group(), len(m.group()) - 4) is not None


def _glue(raw: bytes, at: int) -> bytes:
    """The letters and digits glued before `at`, up to `_IN_RUN` of them."""
    lo = at
    while lo > max(0, at - _IN_RUN) and raw[lo - 1] in _ALNUM:
        lo -= 1
    return raw[lo:at]


def padded(glue: bytes) -> bool:
    """Whether a glue before a key is a pad, no word's start: 4+ characters with no vowel
    (`QQQQ`, `xxxx`, `123456789`; `ssh`key-, `gpg`key- + an md5 are words), 3+ vowels alone
    (review s45 R1's "ae"*5, "e"*10), or one or two characters repeated 4 times ending it
    (`_PADS`: "a" + "Q"*12, "xY"*4). A word holds a vowel and a consonant and repeats no pair
    four times (`ta`sk-, `mon`key-)."""
    return bool(glue) and ((len(glue) >= 4 and _GLUE_VOWELS.isdisjoint(glue))
                           or (len(glue) >= 3 and not glue.translate(None, _VOWEL_BYTES))
                           or _PADS.search(glue) is not None)


def _random_head(marker: bytes, rest: bytes) -> bool:
    """Whether a glued match's rest, or its head of a key's length, reads as a key's random
    part, not words: the bounded match is greedy and swallows a pad glued after the key
    (review s44 R3: `hf_` + 34 + "Q"*30 reads as 64 characters, its Q's under the entropy
    floor), so its heads from the longest down to the pattern's own least length are read
    until one reads random."""
    text = rest[:_TAIL].decode("ascii")
    least = _LEAST[marker]
    return any(high_entropy(text[:n]) for n in range(len(text), least - 1, -1)) \
        or marker == b"sk-" and _HEX_KEY.match(rest) is not None


# Review s45 R2 (HIGH, pre-existing): a key of another family glued between pads ("Q"*64 +
# `sk_live_` + 24 + "Q"*64, "x"*10 + `npm_` + 36 + "x"*10, "ae"*5 + `dapi` + 32 hex ...)
# was published whole: each family's pattern (`secrets_read.FAMILIES`) opens with a
# look-behind, and the high-entropy rule reads no run past 128 characters or one whose pad
# lowers its entropy. Such a match is named here (`secrets_public.scan_public`, after the
# families as written) when it is glued (a letter or digit before its prefix; or after its
# longest match, for a pattern that ends with a look-ahead), its random part reads random
# (`_random_part`), and its glue is one of the family's:
# - `_ANY`: any letter or digit. A prefix with `_` (`sk_live_`, `rk_live_`, `npm_`, `r8_`)
#   is spelled by no word and by no standard base64 (base64url of binary data spells it by
#   chance: starred, as `sk-` / `hf_`); `dapi` + 32 hex and `LTAI` + a mixed-case random
#   part are no word's tail either (no English word ends in `dapi`; `ltAI` is no `LTAI`).
# - `_PADDED`: a pad (`padded`) or a 64+ run of base64 before it (`_in_blob`): Mailgun's
#   `key-` + 32 hex is every honest `monkey-` / `hotkey-` / `sshkey-` + an md5, and an AWS key
#   id glued to capitals is named only where a pad glues it (a word or an id glued to a key id
#   reads as one).
_ANY, _PADDED = 0, 1
_HEX_BODY = 0  # (a least random part of 0: the body is lower-case hex, `_hex_random`)
_FAMILY_GLUED = (
    (b"sk_live_", "Stripe secret key", rb"sk_live_[A-Za-z0-9]{20,247}", 20, _ANY, False),
    (b"rk_live_", "Stripe restricted key", rb"rk_live_[A-Za-z0-9]{20,247}", 20, _ANY, False),
    (b"npm_", "npm token", rb"npm_[A-Za-z0-9]{36}", 36, _ANY, False),
    (b"r8_", "Replicate token", rb"r8_[A-Za-z0-9]{37}", 37, _ANY, False),
    (b"dapi", "Databricks token", rb"dapi[a-f0-9]{32}", _HEX_BODY, _ANY, False),
    (b"LTAI", "Alibaba key id", rb"LTAI[A-Za-z0-9]{12,20}", 12, _ANY, True),
    (b"key-", "Mailgun key", rb"key-[0-9a-f]{32}", _HEX_BODY, _PADDED, True),
    (b"AKIA", "AWS access key id", rb"AKIA[0-9A-Z]{16}", 16, _PADDED, True),
    # (review s46 R2, left by the rows above: 7 of 36 pad cells of `xai-` + 80, 17 of `ASIA`
    # and 18 of Stripe's test keys published whole. `xai-` + 70-90 random is no word's tail;
    # `task_test_` + an id is a test name, and `ASIA` glued to capitals an id, as `AKIA`)
    (b"xai-", "xAI key", rb"xai-[A-Za-z0-9]{70,90}", 20, _ANY, False),
    (b"sk_test_", "Stripe test key", rb"sk_test_[A-Za-z0-9]{20,247}", 20, _PADDED, False),
    (b"rk_test_", "Stripe test key", rb"rk_test_[A-Za-z0-9]{20,247}", 20, _PADDED, False),
    (b"ASIA", "AWS access key id", rb"ASIA[0-9A-Z]{16}", 16, _PADDED, True),
)
FAMILY_MARKERS = tuple(marker for marker, *_ in _FAMILY_GLUED)


def glued_sources() -> tuple[tuple[bytes, str, bytes], ...]:
    """(prefix, label, pattern) of each family `glued_families` reads (`secrets_across`)."""
    return tuple((marker, label, source) for marker, label, source, *_ in _FAMILY_GLUED)


def glued_families(raw: bytes, present: tuple[bytes, ...], mapped: list[object]
                   ) -> tuple[str, int, int] | None:
    """The first key of `_FAMILY_GLUED` glued in `raw` (above), as (label, start, end), or
    None; `present`: those of `FAMILY_MARKERS` the line holds. One in base64 of binary data is
    recorded (`in_binary_base64`: starred by `withhold`), not named."""
    for marker, label, source, least, rule, ahead in _FAMILY_GLUED:
        if marker not in present:
            continue
        pattern = _family_regex(source)
        glue = _UPPER if marker in (b"AKIA", b"ASIA") else _ALNUM
        i = raw.find(marker)
        while i >= 0:
            m = pattern.match(raw, i)
            if m is None:
                i = raw.find(marker, i + 1)
                continue
            before = i > 0 and raw[i - 1] in glue
            after = ahead and m.end() < len(raw) and raw[m.end()] in glue
            if (before or after) and _random_part(m.group()[len(marker):], least,
                                                  _lean(marker, rule)) \
                    and (rule == _ANY and before or _padded_around(raw, m, before, after)) \
                    and not in_binary_base64(raw, i, m.end(), mapped, label):
                return label, i, m.end()
            i = raw.find(marker, i + 1)
    return None


_FAMILY_REGEX: dict[bytes, re.Pattern[bytes]] = {}


def _family_regex(source: bytes) -> re.Pattern[bytes]:
    """A pattern of `_FAMILY_GLUED`, compiled once (on first use, as `secrets._compiled`)."""
    pattern = _FAMILY_REGEX.get(source)
    if pattern is None:
        pattern = _FAMILY_REGEX[source] = re.compile(source)
    return pattern


def _padded_around(raw: bytes, m: re.Match[bytes], before: bool, after: bool) -> bool:
    """Whether a pad glues the match `m` before it (or a 64+ base64 run does) or after it
    (its glue after, read backwards, is a pad)."""
    if before and (_in_blob(raw, m.start()) or padded(_glue(raw, m.start()))):
        return True
    if not after:
        return False
    hi = m.end()
    while hi < min(len(raw), m.end() + _IN_RUN) and raw[hi] in _ALNUM:
        hi += 1
    glue = raw[m.end():hi]
    # (hex read on past a hex key's 32 is a longer hex id, `key-` + a SHA-1: no glue, unless
    # it repeats one or two characters, "ae"*5)
    back = glue[::-1]
    return padded(back) and (not (m.group().islower() and _HEX_RUN.fullmatch(glue))
                             or _PADS.search(back) is not None)


_HEX_RUN = re.compile(rb"[0-9a-f]+")


def _lean(marker: bytes, rule: int) -> int:
    """How lean a glued family key's random part may read (`_random_part`): 0 as any run; 1
    (a family named after any letter or digit, `_ANY`) fewer digits; 2 (such a prefix holding
    `_` or `-`, spelled by no word and no standard base64) also `_SLACK` bits under the
    null model's floor."""
    if rule != _ANY:
        return 0
    return 2 if b"_" in marker or b"-" in marker else 1


# (review s46 R2's escaped-wrap cells, rebuilt: 3 `r8_` keys of 60 read 4.28-4.34 bits a
# character for the floor's 4.36 at 37 characters, the 1 key in 100 the floor misses)
_SLACK = 0.25


def _random_part(body: bytes, least: int, lean: int = 0) -> bool:
    """Whether a glued family key's part after its prefix, or a head of it down to `least`
    characters, reads as a key's random part: lower-case hex with 2+ digits and 2+ letters
    (`least` 0: an md5, not "0000..." or a pad of `a`s); 20+ characters by the high-entropy
    rule; 12-19 (Alibaba's, AWS's 16 capitals and digits) by `_varied`. `lean` (`_lean`): a
    family named after any letter or digit (`_ANY`), whose prefix no word spells, may hold
    fewer digits: 20+ characters none, 16-19 of both cases one (review s46 R2's last blob cells:
    `r8_` + 37 and `LTAI` + 20 with one digit, drawn so about 1 time in 100, were published
    whole; session 47, redact)."""
    text = body[:_TAIL].decode("ascii")
    if least == _HEX_BODY:
        digits = sum(c.isdigit() for c in text)
        return digits >= 2 and len(text) - digits >= 2 and len(set(text)) >= 8
    return any(high_entropy(text[:n], 0 if lean else 2, _SLACK if lean == 2 else 0.0)
               if n >= 20
               else _varied(text[:n], 1 if lean and n >= 16 else 2)
               for n in range(len(text), least - 1, -1))


def _varied(head: str, least: int = 2) -> bool:
    """A short random part (12-19 characters): 2+ digits (`least`; one asked of both cases
    only), 2+ letters, 3 in 4 characters distinct, and (in mixed case) no words
    (`secrets_entropy._words`, which reads a run of capitals as an acronym: an AWS key id's 16
    capitals and digits are no words)."""
    digits = sum(c.isdigit() for c in head)
    if least < 2 and (head.isupper() or head.islower()):
        least = 2
    return digits >= least and len(head) - digits >= 2 and 4 * len(set(head)) >= 3 * len(head) \
        and (head.isupper() or not _words(head))


# A Telegram bot token (`<8-10 digits>:<35>`) whose 35 do not open with `AA` (the family's
# pattern asks for it: `secrets_read`), a pad glued after it (review s45 R2: "Q"*64 + token
# + "Q"*64 was published whole; before the pad, the high-entropy rule names its 35). Named
# when the 35 read random and the glue after them is a pad of one or two characters repeated
# or of vowels (`padded` but its no-vowel rule: `1701234567:` + a SHA-256's 43 base64
# characters, a timestamp and a digest, leaves 8 after the 35 that hold no vowel 1 time in 5).
_TG_BODY = 35
_TG_CHARS = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-")
_DIGITS = frozenset(b"0123456789")


def glued_telegram(raw: bytes) -> tuple[str, int, int] | None:
    """The first Telegram bot token glued to a pad after it (above), as (label, start, end),
    or None. Each `:` of the line is asked (a `find` each): 8-10 digits before it, 35 token
    characters after it, then a letter or digit."""
    i = raw.find(b":")
    while i >= 0:
        lo = i
        while lo > max(0, i - 11) and raw[lo - 1] in _DIGITS:
            lo -= 1
        end = i + 1 + _TG_BODY
        if 8 <= i - lo <= 10 and end < len(raw) and raw[end] in _ALNUM \
                and all(c in _TG_CHARS for c in raw[i + 1:end]) \
                and high_entropy(raw[i + 1:end].decode("ascii")):
            hi = end
            while hi < min(len(raw), end + _IN_RUN) and raw[hi] in _ALNUM:
                hi += 1
            back = raw[end:hi][::-1]
            if _PADS.search(back) is not None or len(back) >= 3 \
                    and not back.translate(None, _VOWEL_BYTES):
                return "Telegram bot token", lo, end
        i = raw.find(b":", i + 1)
    return None
