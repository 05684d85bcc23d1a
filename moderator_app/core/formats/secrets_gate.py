"""The decoded views' marker gate as one C call (session 44, speed; issue 15): a sound pre-pass
in front of `secrets_public.view_may_hold`'s tests, so that a text no test can open costs one
call, not ~15 SIMD passes, translates and their Python calls (~120 us a 3.6 KB text of prose,
spell's figure: the 4-byte word dumps of a README read 1.34x their floor so).

Every test of `_view_may_hold_py` opens only where a needle is in the text mapped by a table
(`bytes.translate(table, deleted)`): a marker in the text as written, a word in it lower-cased,
a run of N characters of a class (a needle of one repeated byte), a dump's cells. `passes` lists
those needles, each with its table, taken from the same tuples the tests read (those of
secrets_public's own tables from `secrets_public.gate_passes`), so a marker added there reaches
the C pass with no C change. `closer(...)(text)` is True only when no pass finds its needle: then
no test can open (each pass is a necessary condition of a test, or wider) and `view_may_hold`
answers False at once; otherwise the Python tests answer, exactly as before. The answers are the
same by construction; tests/formats/test_secrets_gate.py checks the C against `translate` and
`in`, and C closed => Python closed on a fuzz and on one opening text per Python test.

A test of a new shape added to `_view_may_hold_py` (not "a needle in the mapped text") needs its
pass here first: without it the C pass may close where the test opens.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Iterable
from typing import NamedTuple

from moderator_app.core.formats import (
    native,
    secrets,
    secrets_basen,
    secrets_bytes,
    secrets_chars,
    secrets_decode,
    secrets_octets,
    secrets_radix,
    secrets_runs,
)

# (table: 256 bytes or None for the text as written, deleted bytes, needles)
Pass = tuple[bytes | None, bytes, tuple[bytes, ...]]

_DFA, _RUN = 0, 1
_OPEN = 0xFFFF
_DELETED = 255
_WINDOWS = 16  # (`GATE_DFAS`: the automata the C pass holds)
LOWER = bytes(range(256)).lower()  # (a table: the text lower-cased)


def passes(own: tuple[Pass, ...]) -> tuple[Pass, ...]:
    """The necessary conditions of `secrets_public._view_may_hold_py`'s tests: `own`, those
    of the tables `secrets_public` holds (`secrets_public.gate_passes`), then these."""
    return (
        *own,
        (None, b"", (*secrets_decode.ENCODED_MARKERS, b"%", *secrets.MARKERS,
                     # encoded_gates: plain keys, octal escapes, the shells' quotes, Ascii85
                     # and uuencode
                     *secrets_decode.PLAIN_MARKERS, *secrets_decode.OCTAL_MARKERS,
                     *secrets_runs.SHELL_MARKERS, b"<~", b"begin ")),
        # encoded_gates: a dump of hex cells or the shells' quotes, a decimal list
        (secrets_bytes._DUMP_MAP, b"", secrets_bytes._NEEDLES),
        (secrets_bytes._DEC_MAP, secrets_bytes._DEC_DELETE, secrets_bytes._DEC_NEEDLES),
        (secrets_chars._MAP, b"", (secrets_chars._NEEDLE,)),
        (secrets_octets._MAP, b"", (secrets_octets._NEEDLE,)),
        # spelled_in: a base32 row (`_b32_open`'s needles each hold it), a dump of numbers
        (secrets_basen._B32_MAP, b"", (b"a" * secrets_basen._B32_ROW,)),
        (secrets_radix._GATE_MAP, b"", (b"a" * secrets_radix._GATE,)),
    )


def _classes(table: bytes, deleted: bytes, needles: Iterable[bytes]
             ) -> tuple[list[int], dict[int, int]]:
    """A raw byte's class (0: a byte of no needle once mapped; -1: deleted), and the class of
    each byte the needles hold (mapped bytes, from 1)."""
    of: dict[int, int] = {}
    for needle in needles:
        for c in needle:
            of.setdefault(c, len(of) + 1)
    gone = set(deleted)
    return [-1 if b in gone else of.get(table[b], 0) for b in range(256)], of


def _automaton(needles: tuple[bytes, ...], of: dict[int, int]) -> list[list[int]]:
    """The Aho-Corasick automaton of `needles` (mapped bytes) over the classes (`of`, and 0):
    each state's next state by class, -1 where a needle ends."""
    count = len(of) + 1
    goto: list[dict[int, int]] = [{}]
    ends = [False]
    for needle in needles:
        state = 0
        for c in needle:
            k = of[c]
            if k not in goto[state]:
                goto.append({})
                ends.append(False)
                goto[state][k] = len(goto) - 1
            state = goto[state][k]
        ends[state] = True
    rows = [[0] * count for _ in goto]
    fail = [0] * len(goto)
    order = list(goto[0].values())
    for k, to in goto[0].items():
        rows[0][k] = to
    for state in order:  # (breadth first: a state's fail is done before its children)
        ends[state] = ends[state] or ends[fail[state]]
        rows[state] = rows[fail[state]][:]  # (the fail state's row, then its own)
        for k, to in goto[state].items():
            fail[to] = rows[fail[state]][k]
            rows[state][k] = to
            order.append(to)
    return [[-1 if ends[to] else to for to in row] for row in rows]


# How often a byte is in a text the gate closes (prose, a dump's decoded words): a needle's
# window is keyed by its pair of bytes least often there (speed only; any pair is sound)
_OFTEN = bytes(20 if c == 32 else 12 if chr(c) in "etaoinshr" else 8 if 97 <= c <= 122
               else 3 if c in (10, 0xC3, 0xE2, 0x80) else 2 if 48 <= c <= 57 or 65 <= c <= 90
               else 1 for c in range(256))


def _dfa(table: bytes, deleted: bytes, needles: tuple[bytes, ...]) -> list[Automaton]:
    """The C automata of a pass's needles (split in two while its cells pass u16)."""
    cls, of = _classes(table, deleted, needles)
    rows = _automaton(needles, of)
    count = len(of) + 1 + bool(deleted)  # (a deleted byte's class: each state to itself)
    if len(rows) * count >= _OPEN:
        half = len(needles) // 2
        return _dfa(table, deleted, needles[:half]) + _dfa(table, deleted, needles[half:])
    cells = []
    for state, row in enumerate(rows):
        cells += [_OPEN if to < 0 else to * count for to in row]
        if deleted:
            cells.append(state * count)
    classes = bytes(count - 1 if c < 0 else c for c in cls)
    raw: dict[int, list[int]] = {}
    for b, c in enumerate(cls):
        raw.setdefault(c, []).append(b)
    ones: list[int] = []
    pairs: list[tuple[int, int]] = []
    back = ahead = 0
    if not deleted:  # (a window: each needle's rarest pair of bytes, or its one byte)
        ahead = max(map(len, needles))
        for needle in needles:
            ks = [of[c] for c in needle]
            if len(ks) == 1:
                ones += raw.get(ks[0], [])
                continue
            j = min(range(len(ks) - 1), key=lambda j: sum(_OFTEN[b] for b in raw.get(ks[j], []))
                    * sum(_OFTEN[b] for b in raw.get(ks[j + 1], [])))
            back = max(back, j)
            pairs += [(x, y) for x in raw.get(ks[j], []) for y in raw.get(ks[j + 1], [])]
    head = struct.pack("=IIIII", _DFA, len(rows), count, back, ahead) + classes
    return [Automaton(head + struct.pack(f"={len(cells)}H", *cells), not deleted, tuple(ones),
                      tuple(pairs))]


class Automaton(NamedTuple):
    """A C pass of kind `_DFA`, and the bytes and pairs where its window opens."""

    spec: bytes
    windowed: bool
    ones: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]


def _is_run(needles: tuple[bytes, ...]) -> bool:
    return len(needles) == 1 and len(set(needles[0])) == 1


def compile_spec(spec: Iterable[Pass]) -> bytes:
    """The C spec of `spec` (`_unescape.gate_open`: its layout there): a run a counter, the
    needles of one table one automaton."""
    out = []
    ones, pairs = [0] * 256, [0] * 65536
    windows = 0
    merged: dict[tuple[bytes, bytes], tuple[bytes, ...]] = {}
    for table, deleted, needles in spec:
        table = bytes(range(256)) if table is None else table
        if _is_run(needles):
            gone = set(deleted)
            run = bytes(_DELETED if b in gone else int(table[b] == needles[0][0])
                        for b in range(256))
            out.append(struct.pack("=IIIII", _RUN, len(needles[0]), 2, 0, 0) + run)
        else:
            merged[table, deleted] = merged.get((table, deleted), ()) + needles
    for (table, deleted), needles in merged.items():
        for automaton in _dfa(table, deleted, needles):
            out.append(automaton.spec)
            if automaton.windowed:  # (`gate_scan` numbers these in order)
                bit = 1 << windows
                windows += 1
                for b in automaton.ones:
                    ones[b] |= bit
                for x, y in automaton.pairs:
                    pairs[x << 8 | y] |= bit
    if windows > _WINDOWS:
        raise ValueError(f"{windows} automata with a window: the C pass holds {_WINDOWS}")
    return (struct.pack("=I", len(out)) + struct.pack("=65536H", *pairs)
            + struct.pack("=256H", *ones) + b"".join(out))


def closer(own: Callable[[], tuple[Pass, ...]]
           ) -> Callable[[bytes | memoryview], bool] | None:
    """`closed(text)`: True when no pass of `passes(own())` finds its needle in `text` (one C
    call; the spec built at the first); None without the accelerator (the Python tests alone
    answer, as before)."""
    unescape = native.UNESCAPE
    if unescape is None:
        return None

    @functools.cache
    def spec() -> bytes:
        return compile_spec(passes(own()))

    def closed(text: bytes | memoryview) -> bool:
        return unescape.gate_open(spec(), text) < 0

    return closed
