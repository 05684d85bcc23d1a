"""A secret written as adjacent string literals joined in code: the view `withhold` and
`verify` read with each such chain joined (session 34, issue 15, QA s33 h33_03).

`const key = "PMAK-65f1" + "a9c0d3e4b5a6" + "f7c8d9e0-" + ...` is the key to anyone who
reads the line (or runs it), but no piece is long enough for a detector, and the `" + "`
between them ends every token. The languages' own ways of joining literals are read: `+`
(JavaScript, Java, Python, C#), `..` (Lua), `||` (SQL), and literals side by side with only
white space between (C, Python: `"abc" "def"`, over line breaks too). A line holding a
*chain* (`CHAIN`: 2 to 64 literals, each 1-256 characters with no white space, quote or
backslash, in double quotes, written `\\"` inside a JSON string, or single quotes, joined
so) is read with every join removed (`_BOUNDARY`: a quote, the operator or white space, a
quote): `api_key = "..." + "..."` then reads as one literal after its name.

A list of literals joined by an empty string (session 35, QA s34 h34_05: `const pat =
["dckr_pa", "t_QA34j", ...].join("")`) is read as the literal it makes too (`listed`):
JavaScript's `[...].join("")` / `.join('')`, Python's `"".join([...])` / `''.join((...))`,
2-4,096 literals between commas (white space and line breaks around them, a comma after
the last; an item may be empty: session 36, review V4), the gate's marker `.join(`
(`LIST_MARKERS`).

Not read: a literal joined to a variable (`"sk-" + suffix`), template strings, a list joined
by a separator that is not empty or held in a variable, PHP's or Perl's `.`, `concat(...)`,
a chain inside a literal holding white space.

Read only where `JOIN_MARKERS` are (one SIMD pass), so not: `".."` (Lua unspaced), `'..'`,
`"||"`, `'a' 'b'`, an operator after two or more spaces or a tab. Bounded: the chain pattern
is linear (possessive white space, no nested repeats); the view is made `_PIECE` bytes at a
time.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from moderator_app.core.formats import native

CONCAT = "its adjacent string literals are joined"
LISTING = "its list of string literals is joined"

_WS = rb"(?:[ \t\r\n]|\\[nrt])"
_LIT = rb"(?:\\?\"[^\"\s\\]{1,256}\\?\"|'[^'\s\\]{1,256}')"
# (a shell's quotes side by side, one kind after the other: `'api_org_'"QA35..."'tes0a...'`
# is one word to `sh`, QA s35 h35_05; session 36)
_SEP = (rb"(?:" + _WS + rb"{0,16}+(?:\+|\.\.|\|\|)" + _WS + rb"{0,16}+|" + _WS + rb"{1,16}+"
        rb"|(?<=')(?=\\?\")|(?<=\")(?='))")
# The first literal spelled with its first byte a literal in each branch (`\\?\"` as `\\\"|\"`,
# the same order): `re` then skips to a quote or backslash before trying it; opening with
# `\\?`, it tried the whole pattern at every byte (~17 ns a byte: 0.19 s an 11 MB od -c line
# of random bytes, asked twice a line; session 37, mendods)
_FIRST = rb"(?:\\\"[^\"\s\\]{1,256}\\?\"|\"[^\"\s\\]{1,256}\\?\"|'[^'\s\\]{1,256}')"
CHAIN = re.compile(_FIRST + rb"(?:" + _SEP + _LIT + rb"){1,63}")
# where two literals of a chain meet (a literal holds no quote: each is one such place)
_BOUNDARY = re.compile(rb"\\?[\"']" + _SEP + rb"\\?[\"']")
# Where a line is read so (the gate of `verify` and `withhold` alike, `encoded_spots`): a
# closing quote then `+` (either quote, spaced or not), ` ..` (Lua, a double quote) or ` ||`
# (SQL, a single quote), or a double quote then a space or an escaped line break before the
# next (C's and Python's literals side by side). Eight, as written in a JSON line (`\"`) or
# a public part: one SIMD pass with the escapes' three costs ~0.12 ns a byte, with 18 0.5
# (verify of the bench's honest logs 1.11-1.14x its CPU with 18).
JOIN_MARKERS = (b'"+', b'" +', b"'+", b"' +", b'" ..', b"' ||", b'" \\"', b'"\\n')
# A shell's quotes side by side (above), as written in a JSON line: not among the escapes'
# SIMD markers (two more, `'\"` and `\"'`, made that pass ~9x slower on corpus v2's logs),
# gated by the dump gate's one pass instead (`secrets_bytes._SHELL_NEEDLES`), looked for in a
# line asked (`secrets_decode.views`) by `in`
SHELL_MARKERS = (b"'\\\"", b"\\\"'")
# `"\n` in a character dump (`secrets_chars`): od's quote cell at a row's end, `   \"` then the
# escaped line break. Its quote ends no literal (a literal's last character is no space), so a
# range whose only join marker is this opens no chain of its own; an od -c of binary holds one
# every ~16 KB and so tried `CHAIN` over each 11 MB line twice (~0.08 s a line, ~14 % of
# odbin's withhold; session 38, odc)
_DUMP_QUOTE_ROW = b'   \\"\\n'
# A list of literals joined by an empty string (above): JavaScript's and Python's
_EMPTY = rb"(?:\\?\"\\?\"|'')"
# (an item may be empty and a list hold 4,096 (session 36, review V4): one `""` ended the list,
# and so did a 257th item, and either hid a key; `_unescape.c`'s `items_at` reads the same)
_ITEM = rb"(?:\\?\"[^\"\s\\]{0,256}+\\?\"|'[^'\s\\]{0,256}+')"
_ITEMS = (_ITEM + rb"(?:" + _WS + rb"{0,16}+," + _WS + rb"{0,16}+" + _ITEM + rb"){1,4095}+"
          + _WS + rb"{0,16}+,?" + _WS + rb"{0,16}+")
_LISTED = (rb"\[" + _WS + rb"{0,16}+(" + _ITEMS + rb")\]" + _WS + rb"{0,16}+\.join\("
           + _WS + rb"{0,16}+" + _EMPTY + _WS + rb"{0,16}+\)"
           rb"|" + _EMPTY + rb"\.join\(" + _WS + rb"{0,16}+[\[(]" + _WS + rb"{0,16}+("
           + _ITEMS + rb")[\])]" + _WS + rb"{0,16}+\)")


@functools.cache
def listed() -> re.Pattern[bytes]:
    """`_LISTED` compiled when first asked (~9 ms: every process that verifies paid it)."""
    return re.compile(_LISTED)


LIST_MARKERS = (b".join(",)
_SEPARATORS = b"\"',\\ \t\r\n"
_PIECE = 1 << 16
_BACK = 256
_JOIN_BYTES = frozenset(b"\"'\\ \t\r\n+.|")
_ESCAPED_WS = frozenset(b"nrt")


def joins_open(data: bytes, found: tuple[bytes, ...], lo: int = 0,
               hi: int | None = None) -> bool:
    """Whether `data[lo:hi]`, whose markers of the SIMD pass are `found`, may hold a chain
    for `CHAIN` to look for: a join marker other than `"\\n`, or a `"\\n` that is not a
    character dump's quote cell at a row's end (`_DUMP_QUOTE_ROW`). Two counts at C speed
    (~1.4 ns a byte) where the marker is only `"\\n`, against `CHAIN.search`'s ~3.5."""
    joins = [m for m in found if m in JOIN_MARKERS]
    if joins != [b'"\\n']:
        return bool(joins)
    hi = len(data) if hi is None else hi
    return data.count(b'"\\n', lo, hi) != data.count(_DUMP_QUOTE_ROW, lo, hi)


# A chain starts at a quote, or at the backslash before a double one (`_FIRST`); `re` tries it
# at every backslash too: a 33 KB line of escapes (QA s39 T7's e_mixlong, a shell's
# `'...\"'` opening the gate) cost ~0.3 ms a search, four a line (the line and its decoded
# views), ~9 % of `withhold`'s CPU (session 40, speed). Where backslashes outnumber quotes
# `_BACKSLASHES` to one, the chain is matched at each quote instead (~0.03 ms): the same first
# match, the starts tried in the same order.
_BACKSLASHES = 8
_SAMPLE = 4096  # (a count of a byte that stands every few bytes costs ~0.4 ns a byte)


def chain_search(raw: bytes, pos: int = 0, endpos: int | None = None) -> re.Match[bytes] | None:
    """`CHAIN.search(raw, pos, endpos)`, tried only where a chain may start on a line of many
    backslashes and few quotes (above; each quote found by `find`: a regex's class search cost
    ~6 ns a byte)."""
    hi = len(raw) if endpos is None else min(endpos, len(raw))
    dq, sq = raw.find(b'"', pos, hi), raw.find(b"'", pos, hi)
    if dq < 0 and sq < 0:
        return None
    end = min(hi, pos + _SAMPLE)  # (which way is faster, told from a sample: the same match)
    if (raw.count(b'"', pos, end) + raw.count(b"'", pos, end)) * _BACKSLASHES \
            >= raw.count(b"\\", pos, end):
        return CHAIN.search(raw, pos, hi)
    while dq >= 0 or sq >= 0:
        at = sq if dq < 0 or 0 <= sq < dq else dq
        if at > pos and raw[at - 1] == 92 and (m := CHAIN.match(raw, at - 1, hi)) is not None:
            return m
        if (m := CHAIN.match(raw, at, hi)) is not None:
            return m
        if at == dq:
            dq = raw.find(b'"', at + 1, hi)
        else:
            sq = raw.find(b"'", at + 1, hi)
    return None


class _Chains:
    """`CHAIN`'s `search(data, pos, endpos)` seam by `chain_search`: the gates' loops
    (`secrets_decode.encoded_spots`, `secrets_bytes.spots`) take it as they take a regex."""

    search = staticmethod(chain_search)


CHAINS = _Chains()


def chains(raw: bytes, lo: int = 0, hi: int | None = None) -> Iterator[re.Match[bytes]]:
    """The chains of joined literals (above) in `raw[lo:hi]`, as regex matches."""
    hi = len(raw) if hi is None else hi
    return CHAIN.finditer(raw, lo, hi)


def joined_views(raw: bytes) -> Iterator[tuple[bytes, int]]:
    """The view of `raw` with its literals joined where they meet (`_BOUNDARY` removed: a
    chain `"ab" + "cd"` reads `"abcd"`, its name before it kept), and the column of its first
    chain; nothing when `raw` holds no chain (`CHAIN`). The whole line is read, `_PIECE`
    bytes at a time (no count or budget of chains, where a key after decoys would hide; the
    temporaries of a piece only), each cut after a character no join holds (`_cut`)."""
    first = chain_search(raw)
    if first is None:
        return
    out: list[bytes] = []
    at = 0
    while len(raw) - at > _PIECE:
        cut = _cut(raw, at + _PIECE)
        out.append(_joins(raw[at:cut]))
        at = cut
    out.append(_joins(raw[at:]))
    yield b"".join(out), first.start() + 1


def _joins_py(piece: bytes) -> bytes:
    """`piece` with each place two literals meet removed (`_BOUNDARY`): the pure-Python path and
    the tests' reference. The regex tries its four separators at every quote, ~160 ns a quote
    (a shell's `'a'"b"`, a quote every 1.75 bytes: ~47 s per 512 MiB, session 36's review V5);
    `_unescape.joins` gives the same bytes in one pass."""
    return _BOUNDARY.sub(b"", piece)


_joins: Callable[[bytes], bytes] = (native.UNESCAPE.joins if native.UNESCAPE is not None
                                    else _joins_py)


def _cut(raw: bytes, at: int) -> int:
    """A place at or before `at` that no join spans: after a character no `_BOUNDARY` holds
    (a join is quotes, backslashes, white space, escaped white space and operators), looked
    for over `_BACK` bytes; with none there no literal's content is near enough to be joined
    across `at`."""
    for k in range(at - 1, max(at - _BACK, 0), -1):
        c = raw[k]
        if c not in _JOIN_BYTES and not (c in _ESCAPED_WS and raw[k - 1] == 92):
            return k + 1
    return at


def listed_view(raw: bytes) -> tuple[bytes, int] | None:
    """`raw` with each list of literals joined by an empty string (`listed`) written as the
    one literal it makes (`["ab", "cd"].join("")` reads `"abcd"`, its name before it kept),
    and the column of the first; None when `raw` holds none. The lists are at most 4,096
    literals of 256 characters (a match is bounded), found left to right: linear. In C
    (`_unescape.listed`, session 36) where built: the regex and ~1.5 us of Python a list cost
    ~45 s per 512 MiB of a line made of tiny lists; `_listed_view_py` is the fallback and
    the tests' reference, byte for byte."""
    if native.UNESCAPE is not None:
        return native.UNESCAPE.listed(raw)
    return _listed_view_py(raw)


def _listed_view_py(raw: bytes) -> tuple[bytes, int] | None:
    """`listed_view` in Python: the regex `listed`, each match's items' separators removed."""
    out = bytearray()  # (no list of pieces: 600,000 short lists of a 15.7 MB line held 350 MB)
    at, first = 0, 0
    for m in listed().finditer(raw):
        items = m.group(1) if m.group(1) is not None else m.group(2)
        # (a literal holds no quote, white space or backslash: what is left between them is
        # separators, escaped white space included)
        inner = items.replace(b"\\n", b"").replace(b"\\r", b"").replace(b"\\t", b"")
        out += raw[at:m.start()]
        out += b'"' + inner.translate(None, _SEPARATORS) + b'"'
        first = first or m.start() + 1
        at = m.end()
    if not first:
        return None
    out += raw[at:]
    return bytes(out), first
