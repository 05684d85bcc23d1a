"""Serialiser spellings (`chain.respelled`): which known writers spell a line's bytes exactly."""

from __future__ import annotations

import json
import os
import re

import orjson

from moderator_app.core.formats.canonical import (
    CanonicalError,
    canonical_json_fast,
)
from moderator_app.core.formats.jsonline import raise_if_out_of_memory

# -- spelling -----------------------------------------------------------------------------
# The hash covers the canonical form, so a byte edit that keeps the JSON value (`1e-7` ->
# `1E-7`, `\u00e9` -> `\u00E9`, a space -> TAB) recomputes. Writers spell every line the
# way their serialiser does; no serialiser writes `1E-7`, an upper-case `\u00E9` or a TAB
# between tokens. Once an intact line shows the stream comes from a known serialiser, an
# intact line that no known serialiser spells is reported (`chain.respelled`, see
# docs/rules-official.md). The checker keeps the set of spellings that reproduced the lines
# so far (`TrajectoryChecker.spell`): only those are tried first, the others only when none
# of them reproduces a line. A line's facts carry `hint << SPELL_BITS | matched`: of the
# spellings in `hint`, those that reproduce its exact bytes (`matched` == 0 only when all
# were tried and none does).
SPELL_JCS, SPELL_ORJSON, SPELL_ORJSON_SORTED = 1, 2, 4
DUMPS_VARIANTS = tuple((sep, ea, sk) for sep in (None, (",", ":")) for ea in (True, False)
                        for sk in (False, True))
DUMPS_BIT = {v: 8 << i for i, v in enumerate(DUMPS_VARIANTS)}
SPELL_BITS = 3 + len(DUMPS_VARIANTS)
SPELL_ALL = (1 << SPELL_BITS) - 1
_D_ALL = SPELL_ALL & ~7
SPELL_NAMES = ("RFC 8785", "orjson compact", "orjson compact sorted", *(
    f"json.dumps(separators={'default' if sep is None else 'compact'}, ensure_ascii={ea}, "
    f"sort_keys={sk})" for sep, ea, sk in DUMPS_VARIANTS))
COMPACT = (",", ":")
# A plain, length-minimal line without a `\u` escape is orjson's compact form (its member
# order is the line's own); json.dumps compact unsorted spells it the same, with
# ensure_ascii too when the line is ASCII; sorted, it is also RFC 8785, orjson sorted and
# json.dumps compact sorted (tests/verify/test_trajectory_spelling.py holds these shortcuts to
# `spelling_mask`).
PLAIN_U = SPELL_ORJSON | DUMPS_BIT[(COMPACT, False, False)]
PLAIN_U_A = PLAIN_U | DUMPS_BIT[(COMPACT, True, False)]
PLAIN_S = SPELL_JCS | SPELL_ORJSON_SORTED | DUMPS_BIT[(COMPACT, False, True)]
PLAIN_S_A = PLAIN_S | DUMPS_BIT[(COMPACT, True, True)]


# On by default, as a warning (docs/DECISIONS.md): a one-byte edit that keeps the JSON value
# (`1e-7` -> `1E-7`, `\u00e9` -> `\u00E9`, a space -> TAB) leaves every hash intact, so only
# the spelling betrays it. It is not an error and not a chain break, because the hashed content
# is unchanged and a writer outside the known spellings (Go's encoding/json escapes `<` as
# `\u003c`) must not fail a valid stream. MODERATOR_APP_SPELLING_CHECK=0 turns it off.
SPELLING_CHECK = True


def spelling_check_default() -> bool:
    """Whether `chain.respelled` is checked when the caller does not say."""
    return os.environ.get("MODERATOR_APP_SPELLING_CHECK", "1" if SPELLING_CHECK else "0") not in (
        "0", "")


def spelling_names(mask: int) -> str:
    return ", ".join(name for i, name in enumerate(SPELL_NAMES) if mask >> i & 1)


ESCAPE_U = re.compile(rb"\\u")
# A `\u` escape no spelling above writes (session 44, speed; QA s43 T9 ttyspinner): each of
# them writes U+0008, U+0009, U+000A, U+000C, U+000D as `\b` `\t` `\n` `\f` `\r`, U+0020-U+007E
# as the character (`"` and `\` as `\"` and `\\`), and its hex digits in lower case. Go's
# encoding/json writes `\u0008` (a terminal's backspaces: ~100 a line), so each such line ran
# every json.dumps variant twice (`line_spelling`) to find none: 1.7 s of 3.0 a 3,000-line head.
_NO_WRITER = re.compile(rb"\\u(?:00(?:0[89aAcCdD]|[2-6][0-9a-fA-F]|7[0-9a-eA-E])"
                        rb"|(?=[0-9a-fA-F]{0,3}[A-F])[0-9a-fA-F]{4})")


def _unspelled(raw: bytes) -> bool:
    """Whether `raw` holds an escape (`\\u` after an even run of backslashes) that no spelling
    of `SPELL_NAMES` writes: then none reproduces the line."""
    if b"\\u" not in raw:
        return False
    for m in _NO_WRITER.finditer(raw):
        at = before = m.start()
        while before and raw[before - 1] == 92:  # (the backslashes before this one)
            before -= 1
        if (at - before) % 2 == 0:
            return True
    return False


def line_spelling(raw: bytes, hint: int, compact: bool, body: bytes | None = None,
                  recorded: str | None = None, keys=None) -> int:
    """A line's `spell` fact: `spelling_mask` over `hint`, and over every other spelling
    when none in `hint` reproduces the line."""
    if _unspelled(raw):  # (`spelling_mask`'s answer to both, asked once)
        m = SPELL_ORJSON if compact else 0
        return hint << SPELL_BITS | m & hint if m & hint or hint == SPELL_ALL \
            else SPELL_ALL << SPELL_BITS | m
    m = spelling_mask(raw, hint, compact, body, recorded, keys)
    if m or hint == SPELL_ALL:
        return hint << SPELL_BITS | m
    return SPELL_ALL << SPELL_BITS | m | spelling_mask(raw, SPELL_ALL & ~hint, compact, body,
                                                       recorded, keys)


def spelling_mask(raw: bytes, hint: int, compact: bool, body: bytes | None = None,
                  recorded: str | None = None, keys=None) -> int:
    """The candidate spellings in `hint` whose bytes of the line's value are exactly `raw`.

    `compact`: `raw` is orjson's compact form (known from parsing). `body`, `recorded` and
    `keys`: the canonical form without `hash`, the hash and the other member names, which
    make the RFC 8785 test a byte comparison when `hash` sorts first. Cheap tests come first;
    json.dumps runs only for the variants still in `hint` that the bytes do not rule out."""
    m = SPELL_ORJSON if compact else 0
    if _unspelled(raw):
        return m & hint
    ev = None
    if hint & SPELL_ORJSON_SORTED:
        try:
            ev = orjson.loads(raw)
            if orjson.dumps(ev, option=orjson.OPT_SORT_KEYS) == raw:
                m |= SPELL_ORJSON_SORTED
        except orjson.JSONDecodeError as exc:
            raise_if_out_of_memory(str(exc))  # a failed allocation decides no spelling
        except TypeError:
            pass
    if hint & SPELL_JCS:
        if body is not None and recorded is not None and keys is not None and all(
                k > "hash" for k in keys):  # against ASCII "hash", UTF-16 order = code points
            line = (b'{"hash":"' + recorded.encode() + b'",' + body[1:] if len(body) > 2
                    else b'{"hash":"' + recorded.encode() + b'"}')
            if line == raw:
                m |= SPELL_JCS
        else:
            try:
                if canonical_json_fast(orjson.loads(raw)) == raw:
                    m |= SPELL_JCS
            except orjson.JSONDecodeError as exc:
                raise_if_out_of_memory(str(exc))
            except (CanonicalError, TypeError, RecursionError):
                pass
    if hint & _D_ALL:
        try:
            if ev is None:
                ev = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise_if_out_of_memory(str(exc))
            return m & hint
        ascii_ = raw.isascii()
        # ensure_ascii changes nothing (it escapes DEL too)
        same_ea = ascii_ and b"\\u" not in raw and b"\x7f" not in raw
        top_sorted = list(ev) == sorted(ev)
        spaced = b'": ' in raw
        memo: dict = {}
        for (sep, ea, sk), bit in DUMPS_BIT.items():
            if (not hint & bit or (sep is None and not spaced) or (ea and not ascii_)
                    or (sk and not top_sorted)):
                continue
            key = (sep, ea and not same_ea, sk)
            out = memo.get(key)
            if out is None:
                try:
                    out = memo[key] = json.dumps(ev, separators=sep, ensure_ascii=ea,
                                                 sort_keys=sk).encode()
                except (ValueError, TypeError, RecursionError):
                    out = memo[key] = b""
            if out == raw:
                m |= bit
    return m & hint
