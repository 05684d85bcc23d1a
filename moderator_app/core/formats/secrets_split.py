"""A key split over consecutive events (session 33, issue 15, QA s32 T9: a Databricks token in
four parts of 10 characters over four observations, `withhold` published it).

No reading of one line can join a key cut over several events, and a part of 10 characters
carries no signal alone. What the product promises (docs/rules-community.md, "Split over
events"): a key **of a family in the table whose prefix opens the first part**, the first
part the last word of an event's text (the word ending its last string), the rest the words
opening or ending the next events **of the same type** (observations, actions ...: what a
reader of the public log reads in sequence; other events between are skipped), up to four
parts, within `_LINES` lines of the first. The parts joined are tested for the family's
pattern crossing a join, or for a prefix followed by 16+ random characters (upper and
lower case and 2+ digits, not words: `secrets._random`'s rule, as a head cut at a string's
end); a prefix alone is no finding. Session 33's review R14 (an honest "sent the key-press"
or a bare "sk-" ending an observation, then a message id or a git hash opening the next, was
refused): a first part whose rest is a lowercase word opens no chain (a one-case family's
pattern still read through it: `dapi` + `dccae`), and a first part that is the prefix alone
is a key only if what the joins add reads as random (`_random_rest`).

Read on the public lines as bytes (orjson's compact form, escapes decoded or not): an event's
type is its first `"type":"..."`, its last word the run of a key's characters before the
last string's closing quote, its first word the run opening the first string of `data`.
Bounded: a line is looked at only when its block holds a family's prefix (one SIMD pass a
block for each 16 prefixes) or a chain is open; at most `_OPEN` chains at once and
`_BUDGET` lines looked at a file; a chain's joined text at most 128 characters.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from moderator_app.core.formats.secrets import MARKERS, SecretHit, _redact, markers_of
from moderator_app.core.formats.secrets_read import FAMILIES, _families, _mixed, _words

_LINES = 256  # lines a chain waits for its next part
_OPEN = 8  # chains open at once (a new head replaces the oldest)
_BUDGET = 1 << 16  # lines looked at a file (a flood of heads: then no more chains)
_PARTS = 4
_RANDOM_REST = 16
_WORD = 128

_TYPE = re.compile(rb'"type":"([A-Za-z_]{1,32})"')
_LAST = re.compile(rb"[A-Za-z0-9_\-]{1,128}")  # (read reversed from the closing quote)
_FIRST = re.compile(rb'"data":(?:\{"[^"\\]{0,64}":|\[)*"([A-Za-z0-9_\-]{1,128})')


@functools.cache
def _prefixes() -> tuple[tuple[bytes, ...], tuple[tuple[bytes, ...], ...]]:
    """The families' markers: those of the trajectory's patterns (`secrets.MARKERS`, which
    the callers' gate looked for already), and the others in groups of 16 (one `markers_of`
    call each: 60 markers in one call cost ~3.7 ns a byte, groups of 16 ~0.3)."""
    markers = tuple(dict.fromkeys(m for m, _, _ in FAMILIES))
    known = tuple(m for m in markers if m in MARKERS)
    rest = tuple(m for m in markers if m not in MARKERS)
    return known, tuple(rest[i:i + 16] for i in range(0, len(rest), 16))


def prefixes_in(block: bytes | memoryview,
                known: tuple[bytes, ...] | None = None) -> tuple[bytes, ...]:
    """The families' prefixes (markers) `block` holds; `known`: the `secrets.MARKERS` the
    caller found in it (or in more than it), so that those are not looked for again."""
    mine, groups = _prefixes()
    found = tuple(m for m in known if m in mine) if known is not None \
        else markers_of(block, mine)
    return found + tuple(m for group in groups for m in markers_of(block, group))


def may_open(line: bytes, present: tuple[bytes, ...]) -> bool:
    """Whether a line (as written or public) may end with a first part: one of the
    `present` prefixes in its last `_WORD` + 8 bytes (a few substring tests)."""
    tail = line[-_WORD - 8:]
    return any(m in tail for m in present)


def _type(line: bytes) -> bytes:
    m = _TYPE.search(line)
    return m.group(1) if m is not None else b""


def last_word(line: bytes) -> str:
    """The word ending the event's last string ('' when its last member is no string)."""
    body = line.rstrip(b"} ]\t\r\n")
    if not body.endswith(b'"') or body.endswith(b'\\"'):
        return ""
    m = _LAST.match(body[-_WORD - 1:-1][::-1])
    return m.group()[::-1].decode("ascii") if m is not None else ""


def first_word(line: bytes) -> str:
    """The word opening the first string of the event's `data` ('' when none)."""
    i = line.find(b'"data":')
    m = _FIRST.match(line, i) if i >= 0 else None
    return m.group(1).decode("ascii") if m is not None else ""


@dataclass
class _Chain:
    line: int
    kind: bytes
    head: str  # the first part: from the family's prefix to the end of its word
    # (label, pattern, prefix length, whether its prefix then random characters is read)
    labels: tuple[tuple[str, re.Pattern[str], int, bool], ...]
    texts: list[str] = field(default_factory=list)  # every joining so far (2 ways a part)
    lines: list[int] = field(default_factory=list)
    waited: int = 0


def _head(word: str, present: tuple[bytes, ...] | None = None
          ) -> tuple[str, tuple[tuple[str, re.Pattern[str], int, bool], ...]] | None:
    """The first part a word may be: from the first family prefix in it (its marker at the
    word's start or after a character no key holds, or 1-3 letters before it where the
    family's pattern reads them: `sk_live_`'s marker is `k_live_`) to the word's end, with
    the families it may be, each prefix's length and whether the prefix then random
    characters is read; None when no prefix opens it, or when a family's pattern matches it
    whole (the line's own tests read that). A family whose prefix is followed by a word
    (`_worded`: `key-press`, `key-frame`; session 33's review R14: an honest "sent the
    key-press" then an observation opening with a message id was refused) is left out, unless
    it is of one case and its pattern goes on through the word (`dapi` + `dccae`: 6 hex
    letters read as a word 1 time in 100): then only its pattern is read. `present`: the
    prefixes the line's block holds (only those families are tried)."""
    found: list[tuple[int, str, re.Pattern[str], int, bool]] = []
    filled = word + "0" * 64 + "a" * 64
    for marker, label, pattern in _families():
        if present is not None and marker.encode() not in present:
            continue
        at = word.find(marker)
        if at < 0:
            continue
        if pattern.search(word) is not None:
            return None  # a whole key: found by the line's own tests
        begin = next((b for b in range(at - 1, max(-1, at - 4), -1)
                      if pattern.match(filled, b) is not None), None)
        if begin is None:
            if at and word[at - 1].isalnum():
                continue  # (inside a word: `monkey-`, `rasp-`)
            begin = at
        rest = word[at + len(marker):]
        loose = not _worded(rest)
        if not loose and (pattern.match(filled, begin) is None or pattern.match(
                word[:at + len(marker)] + rest.upper() + filled[len(word):], begin) is not None):
            continue  # (a word after the prefix, no one-case key's start: review R14)
        found.append((begin, label, pattern, at + len(marker) - begin, loose))
    if not found:
        return None
    first = min(f[0] for f in found)
    return word[first:], tuple((label, pattern, n, loose) for b, label, pattern, n, loose
                               in found if b == first)


class SplitWatch:
    """The chains open over a file's public lines, fed in order (`feed`); one per file, kept
    by the caller between blocks (`withhold`'s blocks, `verify`'s chunks)."""

    def __init__(self) -> None:
        self.chains: list[_Chain] = []
        self.budget = _BUDGET

    def wants(self, block: bytes | memoryview) -> tuple[bytes, ...] | None:
        """None when no line of `block` needs feeding; else the prefixes it holds (a line is
        fed when `may_open` says so, or while a chain is open: `open`)."""
        if self.budget <= 0:
            return None
        present = prefixes_in(block)
        return present if present or self.chains else None

    @property
    def open(self) -> bool:
        return bool(self.chains)

    def wait(self) -> None:
        """A line of no open chain's type: each chain waits one line more."""
        for chain in list(self.chains):
            chain.waited += 1
            if chain.waited > _LINES:
                self.chains.remove(chain)

    def feed(self, line: int, public: bytes,
             present: tuple[bytes, ...] | None = None) -> tuple[int, SecretHit] | None:
        """One public line (its number); (the first part's line, the finding) when a chain
        it ends reads as a key. `present`: the prefixes its block holds (`wants`)."""
        if self.budget <= 0:
            return None
        self.budget -= 1
        kind = _type(public)
        hit = None
        for chain in list(self.chains):
            if chain.kind != kind:
                chain.waited += 1
                if chain.waited > _LINES:
                    self.chains.remove(chain)
                continue
            hit = hit or self._extend(chain, line, public)
        last = last_word(public)
        if last:
            head = _head(last, present)
            if head is not None:
                self.chains.append(_Chain(line, kind, head[0], head[1], [head[0]], [line]))
                del self.chains[:-_OPEN]
        return hit

    def _extend(self, chain: _Chain, line: int,
                public: bytes) -> tuple[int, SecretHit] | None:
        words = {w for w in (first_word(public), last_word(public)) if _piece(w)}
        texts = [t + w for t in chain.texts for w in words if len(t + w) <= _WORD]
        chain.lines.append(line)
        chain.waited = 0
        if not texts or len(chain.lines) >= _PARTS:
            self.chains.remove(chain)
        chain.texts = texts
        for text in texts:
            label = _reads_as_key(text, chain)
            if label is not None:
                if chain in self.chains:
                    self.chains.remove(chain)
                where = ", ".join(str(n) for n in chain.lines)
                return chain.line, SecretHit(
                    label, 0, _redact(text.encode()), True,
                    how=f"the words ending or opening {len(chain.lines)} consecutive "
                        f"{chain.kind.decode()} events are joined (lines {where})")
        return None


def _piece(word: str) -> bool:
    """Whether a next event's word may be a part of a key: it holds a digit, or is 8+
    characters of both cases that do not read as words (`row`, `Score`, `ready` are words: an
    event's text opening or ending with one is no key's part; a random part of 10 characters
    of a key's alphabet has no digit 17 times in 100, and then almost always both cases)."""
    if any(c.isdigit() for c in word):
        return True
    return len(word) >= 8 and not word.islower() and not word.isupper() and not _words(word)


def _worded(rest: str) -> bool:
    """Whether what follows a prefix in a head is a word: lowercase letters that read as
    words (`press`, `value`, `frame`, `down`: `secrets_read._words`), not the start of a
    key's random part (`_head`). 6 random characters of [A-Za-z0-9] are so ~0.5 times in 100
    (14 of 9,000 split keys of 9 families in session 33's probe); `SK`, `AbCdEf`, `x7` are
    not."""
    return rest.isascii() and rest.isalpha() and rest.islower() and _words(rest)


def _random_rest(text: str, prefix: int, end: int, pattern: re.Pattern[str]) -> bool:
    """Whether a family's match across a join, `text[:end]`, reads as a key past its prefix:
    the rest `_mixed` (upper and lower case and 2+ digits, `secrets._random`'s rule) and not
    words, as a key of a mixed-case family's random part is (an OpenAI key); or the family is
    of one case, its pattern failing with the rest's case swapped (Databricks' and Mailgun's
    lowercase hex, AWS's capitals): then its shape is the test. Review R14: "sk-" ending an
    event then a 40-digit git hash opening the next matched `sk-`'s pattern and was refused."""
    rest = text[prefix:end]
    if _mixed(rest) and not _words(rest):
        return True
    return pattern.match(text[:prefix] + rest.swapcase() + text[end:]) is None


def _reads_as_key(text: str, chain: _Chain) -> str | None:
    """The label a joined chain reads as, or None: the family's pattern matching across the
    first join (when the first part is its prefix alone, what the joins add must read as
    random: `_random_rest`; a first part holding a key's characters past its prefix is
    evidence enough, and holding those to `_mixed` too left out 13-15 in 1,000 split 36-
    character `ghp_` / `npm_` keys, those with fewer than 2 digits), or (unless the first
    part's rest is a word) its prefix then 16+ random characters that are not words, the
    first part holding fewer than 16 of them (a word of 16+ after a prefix is read alone, as a
    head cut at its string's end: `secrets_read._cut_head`; a base64 cursor `eyJwYWdl...` then
    the next event's first word is no key)."""
    for label, pattern, prefix, loose in chain.labels:
        m = pattern.match(text)
        if m is not None and m.end() > len(chain.head) and (
                len(chain.head) > prefix or _random_rest(text, prefix, m.end(), pattern)):
            return label
        rest = text[prefix:]
        if loose and len(chain.head) - prefix < _RANDOM_REST <= len(rest) and _mixed(rest) \
                and not _words(rest):
            return f"{label}'s prefix then {len(rest)} random characters"
    return None


def split_hits(watch: SplitWatch, data: bytes, first: int, lo: int, hi: int,
               public_of: Callable[[bytes], bytes | None],
               segments: list[tuple[int, int]] | None = None,
               known: tuple[bytes, ...] | None = None) -> list[tuple[int, SecretHit]]:
    """`verify`'s side of the watch: (first part's line, finding) of each chain ending in
    the lines of `data[lo:hi]` (the first numbered `first`), whose public parts `public_of`
    gives (None: a line no chain reads). `segments`: the ranges that may hold a public word
    (the caller leaves long model requests out); `known`: `prefixes_in`'s. A block is looked at only when they hold a
    prefix or a chain is open; then only the lines whose end holds a prefix (`_openers`), and
    while a chain is open each line, a public part made only for a line that may open a chain
    or of an open chain's type."""
    out: list[tuple[int, SecretHit]] = []
    if watch.budget <= 0:
        return out
    view = memoryview(data)
    segments = [(lo, hi)] if segments is None else segments
    present = tuple(dict.fromkeys(m for a, b in segments
                                  for m in prefixes_in(view[a:b], known)))
    if not present and not watch.open:
        return out
    openers = (at for a, b in segments for at in _openers(data, a, b, present))
    line, start = first, lo
    while start < hi and watch.budget > 0:
        if not watch.open:
            at = next((i for i in openers if i >= start), -1)
            if at < 0:
                break
            line += data.count(b"\n", start, at)
            start = at
        stop = data.find(b"\n", start, hi)
        stop = hi if stop < 0 else stop
        raw = data[start:stop]
        if may_open(raw, present) or (watch.open and _type(raw) in {c.kind for c in watch.chains}):
            public = public_of(raw)
            if public is not None:
                got = watch.feed(line, public, present)
                if got is not None:
                    out.append(got)
        elif watch.open:
            watch.wait()
        line += 1
        start = stop + 1
    return out


def _openers(data: bytes, lo: int, hi: int, present: tuple[bytes, ...]) -> Iterator[int]:
    """The starts of the lines of `data[lo:hi]` whose end holds one of `present`, in order.
    Linear either way it is told: line by line (each line's last bytes tested) when lines are
    long or prefixes many (a base64 screenshot holds a 3-letter prefix every ~250 KB: each
    prefix looked for over the whole block cost 60 passes), else from each prefix's next
    place, found once and kept (many short lines)."""
    if not present:
        return
    sample = min(hi, lo + (1 << 16))  # (lines counted in the first 64 KiB: a whole count of
    lines = (data.count(b"\n", lo, sample) + 1) * (hi - lo) // max(1, sample - lo)  # 55 MB: 0.1 s)
    if lines * 2000 < len(present) * (hi - lo):
        start = lo
        while start < hi:
            stop = data.find(b"\n", start, hi)
            stop = hi if stop < 0 else stop
            if may_open(data[max(start, stop - _WORD - 8):stop], present):
                yield start
            start = stop + 1
        return
    ahead = {m: data.find(m, lo, hi) for m in present}
    start = lo
    while True:
        nxt = min((i for i in ahead.values() if i >= 0), default=-1)
        if nxt < 0:
            return
        at = data.rfind(b"\n", lo, nxt) + 1 or lo
        stop = data.find(b"\n", nxt, hi)
        stop = hi if stop < 0 else stop
        if may_open(data[max(at, stop - _WORD - 8):stop], present):
            yield at
        start = stop + 1
        for m, i in ahead.items():
            if 0 <= i < start:
                ahead[m] = data.find(m, start, hi)
