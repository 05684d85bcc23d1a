"""Key shapes glued to base64 characters on purpose, where the patterns' own boundaries never
let a match start or end (moved out of `secrets`, session 44, redact: that module was 586
lines). What is found here is asked of `secrets_chance.in_binary_base64` like any match: it is
recorded (starred by `withhold`, noted by `verify`) when it lies in base64 of binary data."""

from __future__ import annotations

import re

from moderator_app.core.formats.secrets_chance import in_binary_base64

# An AWS key id glued to capitals or digits on purpose (review s42 R3: "Q"*64 + an AKIA key +
# "Q"*64 was published whole, nothing named: the pattern's boundaries never hold there) is
# passed over inside base64 of binary data like any match there, so `withhold` writes it as
# `*` and `verify` notes it (`secrets_chance.passing_over`); elsewhere it is not named, as
# before. Chance glues AKIA and 16 capitals or digits about once in 10^11 base64 characters
# (none in e_png64, e_jpeg64, e_mime76 or h41_13; h42_13's 5 are QA's own). Not `sk-` or
# `hf_` glued after a letter: base64url spells `sk-` every ~260 KB, and their greedy patterns
# would star a screenshot's run to its end.
GLUED = {b"AKIA": re.compile(rb"AKIA[0-9A-Z]{16}")}
_GLUE = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def glued_over(raw: bytes, marker: bytes, label: str, mapped: list[object]) -> None:
    """Asks `in_binary_base64` (which records it) of each match of `GLUED[marker]` that its
    pattern's boundaries refused."""
    glued = GLUED[marker]
    i = raw.find(marker)
    while i >= 0:
        m = glued.match(raw, i)
        if m is not None and (i and raw[i - 1] in _GLUE or
                              m.end() < len(raw) and raw[m.end()] in _GLUE):
            in_binary_base64(raw, i, m.end(), mapped, label)
        i = raw.find(marker, i + 1)

