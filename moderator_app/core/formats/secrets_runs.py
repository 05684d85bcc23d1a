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

# PowerShell's `` `u{HHHH} `` (session 39, mixed; QA s38 T5 h38_05: `"`u{67}`u{6c}..."`, a
# PowerShell 7 string): its backtick read as the backslash (`ps_as_u`, the same length: columns
# kept), then as ES6's `\u{XX}` above; gated by `` `u{ `` (`PS_WRITTEN`: 4+ in a row, as JSON
# writes them: a backtick is no JSON escape)
PS = (b"`u{",)
PS_WRITTEN = re.compile(rb"`u\{0{0,4}+[0-7][0-9A-Fa-f]\}(?:[^\\\s\"'`]{0,3}+"
                         rb"`u\{0{0,4}+[0-7][0-9A-Fa-f]\}){3}")
# fish's `\XHH` (session 39, mixed; QA s38 T5 h38_06: `set -gx TOKEN AT\x41\X54\124...`,
# unquoted, `\xHH`, `\XHH` and octal by turns): the same byte as `\xHH`, read so (`fish_as_x`,
# the same length) by the `\x` and mixed views; the marker `\X` counts as `\x` does
FISH = (b"\\X",)
# The two shells' markers, in a SIMD pass of their own: with `\\X` among `ENCODED_MARKERS`
# that pass cost 2.5x (63 -> 156 ms a 32 MB range of `\\x` escapes), alone 2.3 ms
SHELL_MARKERS = (*FISH, *PS)
# `_unescape.esc_run`'s kinds (a mask): `x[2-7]H`, `uHHHH`, a printable octal code, `u00[2-7]H`,
# and filler after the fourth escape too (`_U_RUN`)
K_X, K_U, K_O, K_U00, K_TAIL = 1, 2, 4, 8, 16
# `_ESC_RUN`'s HTML alternatives (no backslash: their regex, after its literal `&#`)
_HTML_MAX = 24  # (4 of `&#NNN;` or `&#xHH;`)
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
    `esc_run` (`kinds`), its HTML ones (`html`, `HTML_RUN`: the only one) by `html_run`, the
    leftmost of the two (at one position only one can match: a backslash or `&`); `pattern`
    itself where `_unescape` is not built."""

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
        # (an HTML run is 24 bytes at most: one starting before `got` ends within 24 of it; the
        # search over the rest of the range cost a scan of it a line, 4.7 s a 32 MB range of
        # `\\x` lines, `encoded_spots` finding one a line)
        html_hi = hi if got is None else min(hi, got[0] + _HTML_MAX)
        # (`HTML_RUN` by `html_run`, the same span: the regex read each reference of a group
        # of 3 up to 3 times, ~7 % of e_mixlong's `withhold`; session 40, speed)
        if self.html is not None and (html := native.UNESCAPE.html_run(
                data, pos, html_hi)) is not None and (got is None or html[0] < got[0]):
            return Span(*html)
        return None if got is None else Span(*got)


def ps_as_u(data: bytes) -> bytes:
    """`data` with PowerShell's `` `u{ `` written `\\u{` (the same length)."""
    return data.replace(b"`u{", b"\\u{")


def fish_as_x(data: bytes) -> bytes:
    """`data` with fish's `\\X` written `\\x` (the same length)."""
    return data.replace(b"\\X", b"\\x")


def spots_of(seg: bytes, finders: tuple[tuple[Finder, bool], ...]) -> list[int]:
    """Offsets in `seg` of each line holding a run of each finder present (`encoded_spots`' loop,
    one a line; `seg` a copy of a range with fish's `\\X` written `\\x`, `fish_as_x`: the same
    length, so the offsets are the range's)."""
    spots: list[int] = []
    for finder, present in finders:
        pos = 0
        while present and (m := finder.search(seg, pos)) is not None:
            spots.append(m.start())
            pos = seg.find(b"\n", m.end()) + 1
            if not pos:
                break
    return spots
