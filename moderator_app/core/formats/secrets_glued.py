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
from moderator_app.core.formats.secrets_entropy import high_entropy

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
_BREAKS = rb"(?:\\r)?\\n"
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
    rest = over.group()[len(marker):].replace(b"\\r", b"").replace(b"\\n", b"")
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
    docs/DECISIONS.md, session 45, redact); another `sk-` only when its glue holds no vowel (`QQQQ`, `xxxx`, `123456789`): `task-`,
    `disk-`, `risk-`, `mask-` + an id are words with their ids (`_GLUE_VOWELS`)."""
    if _in_blob(raw, m.start()) or marker == b"hf_" or _KIND.match(raw, m.start()) \
            or _OPENAI_MARK in m.group():
        return True
    lo = m.start()
    while lo > max(0, m.start() - _IN_RUN) and raw[lo - 1] in _ALNUM:
        lo -= 1
    return _GLUE_VOWELS.isdisjoint(raw[lo:m.start()]) \
        or _PAD.match(raw, max(lo, m.start() - 4), m.start()) is not None \
        or _PAD.search(m.group(), len(m.group()) - 4) is not None


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
