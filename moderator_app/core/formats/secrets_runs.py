"""The escape views' runs found in one C pass (session 39, mixed; issue 15, review s38 R6).

`secrets_decode`'s run patterns (`_ESC_RUN`, `_U_RUN`, `_O_RUN`, `_MIX_RUN`: 4 escapes of a kind
in a row, up to 3 filler bytes between) start at a backslash, and `re` tried each backslash of
a line at ~100 ns: four of them cost ~1.0 s a 12 MB line of `$'\\101x\\x41...'` (no run of one
kind in it) and ~1.6 s of `\\101\\x41\\u0041A\\n` (no run at all): 76-151 s per 512 MiB
against issue 15's 30 (review s38 R6). `Finder` asks `_unescape.esc_run` where it is built: one
pass, one try an escape, the same (start, end) as the regex
(tests/formats/test_secrets_esc_run.py holds them to it, fuzzed from any position to any end).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from moderator_app.core.formats import native

# `_unescape.esc_run`'s kinds (a mask): `x[2-7]H`, `uHHHH`, a printable octal code, `u00[2-7]H`,
# and filler after the fourth escape too (`_U_RUN`)
K_X, K_U, K_O, K_U00, K_TAIL = 1, 2, 4, 8, 16
# `_ESC_RUN`'s HTML alternatives (no backslash: their regex, after its literal `&#`)
HTML_RUN = re.compile(rb"&#[0-9]{2,3};(?:&#[0-9]{2,3};){3}"
                      rb"|&#[xX][0-9A-Fa-f]{2};(?:&#[xX][0-9A-Fa-f]{2};){3}")


class Span(NamedTuple):
    """Where a run was found (`Finder.search`), read as a match is (`start()`, `end()`)."""

    lo: int
    hi: int

    def start(self) -> int:
        return self.lo

    def end(self) -> int:
        return self.hi


class Finder:
    """A run pattern searched at C speed where `_unescape` is built: its backslash runs by
    `esc_run` (`kinds`), its HTML ones (`html`) by their regex, the leftmost of the two (at one
    position only one can match: a backslash or `&`); `pattern` itself where `_unescape` is
    not built."""

    __slots__ = ("pattern", "kinds", "html")

    def __init__(self, pattern: re.Pattern[bytes], kinds: int,
                 html: re.Pattern[bytes] | None = None) -> None:
        self.pattern, self.kinds, self.html = pattern, kinds, html

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None) -> Span | None:
        """`pattern.search(data, pos, endpos)`'s span, or None."""
        hi = len(data) if endpos is None else endpos
        if native.UNESCAPE is None:
            m = self.pattern.search(data, pos, hi)
            return None if m is None else Span(m.start(), m.end())
        got = native.UNESCAPE.esc_run(data, pos, hi, self.kinds)
        if self.html is not None and (m := self.html.search(data, pos, hi)) is not None \
                and (got is None or m.start() < got[0]):
            return Span(m.start(), m.end())
        return None if got is None else Span(*got)
