"""A block of lines checked column by column in pure Python (orjson): `Columns` holds the
facts of a block proven ordinary, and sums it up when it is consistent in itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial, reduce
from hashlib import sha256
from itertools import compress, repeat
from operator import add, and_, eq, itemgetter, le, lt, methodcaller
from typing import Any, cast

import orjson

from moderator_app.core.formats.canonical import (
    CanonicalError,
)
from moderator_app.core.formats.secrets import markers_in, scan_line
from moderator_app.core.verify.trajectory.canonical_event import (
    PLAIN_TYPES,
    SORTED_STRICT,
    FloatSpelling,
    event_canonical,
)
from moderator_app.core.verify.trajectory.facts import (
    OK,
    BlockSummary,
    Facts,
    ProducerSpan,
    make_facts,
    spell_runs,
)
from moderator_app.core.verify.trajectory.line import (
    SCORE_CLAIM_TYPES,
    LineContext,
    examine_line,
    split_lines,
)
from moderator_app.core.verify.trajectory.rules import AGENT, AGENT_TRUST, SCHEMA
from moderator_app.core.verify.trajectory.spelling import (
    ESCAPE_U,
    PLAIN_S,
    PLAIN_S_A,
    PLAIN_U,
    PLAIN_U_A,
    SPELL_ALL,
    SPELL_BITS,
    SPELL_ORJSON,
    line_spelling,
)
from moderator_app.core.verify.trajectory.walltime import block_wall_times, uniform_walls, wall_ms_z

_COLUMNS = tuple(map(itemgetter, ("schema", "producer_sequence", "wall_time", "run_id",
                                   "trust_level", "producer", "type", "payload", "prev_hash",
                                   "hash")))
SPECIAL_TYPES = SCORE_CLAIM_TYPES | {"seed_commitment"}
_DUMP_SORTED = partial(orjson.dumps, option=SORTED_STRICT)
HASH_MEMBER = len(b'"hash":"",') + 64
_EMPTY_SHA256 = sha256()
_POP_HASH = methodcaller("pop", "hash")



def _canonical_or_none(event: dict, non_ascii: bool, spelling: FloatSpelling) -> bytes | None:
    """The canonical bytes, or None when the event cannot be hashed (its line then goes
    through `examine_line`, which reports why)."""
    try:
        return event_canonical(event, non_ascii, spelling, True)
    except CanonicalError:
        return None


def _dump_sorted_or_none(event: dict) -> bytes | None:
    try:
        return orjson.dumps(event, option=SORTED_STRICT)
    except TypeError:  # an integer beyond 2^53, nesting beyond orjson's depth limit
        return None


def _non_bmp_key(payload: dict) -> bool:
    names = "".join(payload)
    return not names.isascii() and max(names) > "\uffff"


class Columns:
    """A block's events, column by column, once proven ordinary line by line (types, hash
    formats, wall_time shape); `redo` holds the lines `examine_line` must treat (score
    claims, commitments, possible secrets, lines not hashable the fast way)."""

    __slots__ = ("block", "_lines", "recorded", "prevs", "digests", "broken", "producers",
                 "trusts", "types", "seqs", "times", "walls", "run_ids", "redo", "spell")
    block: bytes
    recorded: list[str]  # each line's `hash`
    prevs: list[str]
    digests: bytes  # the recomputed hashes, 32 bytes each, joined
    broken: list[int]  # lines whose hash does not recompute
    producers: list[str]
    trusts: list[str]
    types: list[str]
    seqs: list[int]
    times: list[float | None] | None  # None: `walls` are uniform and order as their times
    walls: list[str]
    run_ids: list[str]
    redo: set[int]  # lines `examine_line` must treat
    spell: list[int | None] | None  # each line's `spell` fact; None when the check is off

    def __init__(self, block: bytes, lines: list[bytes] | None, **columns) -> None:
        self.block, self._lines = block, lines
        for name, value in columns.items():
            setattr(self, name, value)

    @property
    def lines(self) -> list[bytes]:
        """The block's lines, split when first needed (a block that sums up never is)."""
        if self._lines is None:
            self._lines = split_lines(self.block)
        return self._lines

    def facts(self, ctx: LineContext) -> list[tuple[int, Facts]]:
        recorded = self.recorded
        computed = recorded
        if self.broken:  # `digests`: the computed hashes, 32 bytes each, joined
            computed = list(recorded)
            digests = self.digests
            for i in self.broken:
                computed[i] = digests[32 * i:32 * i + 32].hex()
        lines = self.lines
        lengths = list(map(len, lines))
        times = self.times if self.times is not None else block_wall_times(self.walls)
        out = list(zip(lengths, map(make_facts, zip(
            repeat(OK), recorded, self.prevs, computed, repeat(True), repeat(None),
            self.producers, self.trusts, self.types, self.seqs, times, self.run_ids,
            repeat(None), repeat(None) if self.spell is None else self.spell)), strict=False))
        for i in self.redo:
            out[i] = (lengths[i], examine_line(lines[i], ctx))
        return out

    def summary(self) -> BlockSummary | None:
        """The block's summary when it is consistent in itself, or None."""
        recorded, prevs = self.recorded, self.prevs
        if (self.redo or self.broken or prevs[1:] != recorded[:-1]
                or len(set(self.run_ids)) != 1):
            return None
        spell = runs = None
        if self.spell is not None:
            # no line is redone nor broken here: every line has its `spell` fact
            spell = reduce(and_, cast("list[int]", self.spell))
            if not spell & SPELL_ALL:  # no spelling common to all: the line facts, as runs
                runs = spell_runs(self.spell)
        producers, types = self.producers, self.types
        # Uniform `…:SS.mmmZ` strings compare as their times do; converted only at the ends.
        times: Sequence[Any] = self.times if self.times is not None else self.walls
        to_t: Callable[[Any], float] = wall_ms_z if self.times is None else float
        if len(set(zip(producers, self.trusts, strict=True))) != len(set(producers)):
            return None
        trust_of = dict(zip(producers, self.trusts, strict=True))
        if len(trust_of) > 16:  # a pass per producer below: line facts stay linear instead
            return None
        seqs = self.seqs
        every = range(len(producers))
        prods = []
        for name in trust_of:  # a few producers: C-level passes over each one's events
            idx = list(compress(every, map(eq, producers, repeat(name))))
            seq = list(map(seqs.__getitem__, idx))
            ts = list(map(times.__getitem__, idx))
            if not (all(map(lt, seq, seq[1:])) and all(map(le, ts, ts[1:]))):
                return None
            prods.append(ProducerSpan(name, trust_of[name], len(idx), idx[0], idx[-1], seq[0],
                                      seq[-1], to_t(ts[0]), to_t(ts[-1])))
        t_start = to_t(times[types.index("run_start")]) if "run_start" in types else None
        t_end = (to_t(times[len(types) - 1 - types[::-1].index("run_end")])
                 if "run_end" in types else None)
        return BlockSummary(len(recorded), prevs[0], recorded[-1], self.run_ids[0], tuple(prods),
                            to_t(min(times)), to_t(max(times)), t_start, t_end, spell,
                            runs)


def block_columns(block: bytes, lines: list[bytes], ctx: LineContext) -> Columns | None:
    """The columns of a block in which every line is an ordinary event, or None."""
    if b"\r" in block or (ctx.leak is not None and ctx.leak.block_hit(block)):
        return None
    try:
        events = orjson.loads(b"[" + b",".join(lines) + b"]")
    except orjson.JSONDecodeError:
        return None
    n = len(lines)
    # One value per line (a line holding `{..},{..}` would need a blank line elsewhere to
    # keep the count, and a blank line is not valid inside the array).
    if len(events) != n or set(map(type, events)) != {dict}:
        return None
    try:  # one C-level pass per member: cheaper than a tuple per event, then transposed
        (schemas, seqs, walls, run_ids, trusts, producers, types, payloads, prevs,
         recorded) = [list(map(get, events)) for get in _COLUMNS]
    except KeyError:
        return None
    if (set(schemas) != {SCHEMA} or set(map(type, seqs)) != {int}
            or set(map(type, walls)) != {str} or set(map(type, payloads)) != {dict}):
        return None
    for column in (run_ids, trusts, producers, types, prevs, recorded):
        if set(map(type, column)) != {str}:
            return None
    rec_bin = b""
    for column in (prevs, recorded):
        if set(map(len, column)) != {64}:
            return None
        joined = "".join(column)
        if joined != joined.lower() or not joined.isascii():
            return None
        try:
            rec_bin = bytes.fromhex(joined)
        except ValueError:
            return None
        if len(rec_bin) != 32 * n:  # whitespace would be skipped
            return None
    for producer, trust in set(zip(producers, trusts, strict=True)):
        if producer == AGENT and trust != AGENT_TRUST:
            return None
    if uniform_walls(walls):
        times = None  # the strings order as the times do: converted only where needed
    else:
        times = block_wall_times(walls)
        if None in times:
            return None
    lengths = list(map(len, lines))
    redo: set[int] = set()
    # "Plain" events: the ten envelope members, a flat payload without floats (hence no
    # float token on the line: orjson parses every `.`/`e` number, and integers beyond
    # 2^64, as floats) and no member name outside the BMP. Every token of such a line is
    # spelled at least as long as orjson spells it, so a sorted dump exactly as long as
    # the line proves no member was repeated (a dropped duplicate shortens the dump) and
    # the dump, `hash` cut off, is the RFC 8785 form.
    plain = list(map(PLAIN_TYPES.issuperset, map(map, repeat(type), map(dict.values, payloads))))
    if set(map(len, events)) != {10}:
        plain = [ok and len(ev) == 10 for ok, ev in zip(plain, events, strict=True)]
    if not block.isascii():
        for i, raw in enumerate(lines):
            if plain[i] and not raw.isascii() and _non_bmp_key(payloads[i]):
                plain[i] = False
    plain_idx: Sequence[int]
    if all(plain):
        plain_idx = range(n)
        chosen = events
    else:
        plain_idx = [i for i, ok in enumerate(plain) if ok]
        chosen = list(map(events.__getitem__, plain_idx))
    for _ in map(_POP_HASH, chosen):  # `recorded` holds them
        pass
    dumped: Sequence[bytes | None]
    try:
        bodies = list(map(_DUMP_SORTED, chosen))
        # A plain dump is the line less its `"hash":"<64 hex>",` (74 bytes), or shorter.
        same = list(map(add, map(len, bodies), repeat(HASH_MEMBER))) == (
            lengths if len(chosen) == n else [lengths[i] for i in plain_idx])
        dumped = bodies
    except TypeError:  # an integer beyond 2^53: that line goes through examine_line
        dumped = list(map(_dump_sorted_or_none, chosen))
        same = False
    if len(chosen) < n or not same:
        bodies = [b""] * n
        for i, d in zip(plain_idx, dumped, strict=True):
            if d is None or len(d) + HASH_MEMBER != lengths[i]:
                redo.add(i)
            else:
                bodies[i] = d
    if len(chosen) < n:
        spelling = ctx.spelling
        for i, ok in enumerate(plain):
            if ok:
                continue
            ev, raw = events[i], lines[i]
            try:
                if orjson.dumps(ev) != raw:  # not compact, or a member repeated
                    redo.add(i)
                    continue
            except TypeError:  # nesting beyond orjson's limit
                redo.add(i)
                continue
            del ev["hash"]
            body = _canonical_or_none(ev, not raw.isascii(), spelling)
            if body is None:
                redo.add(i)
            else:
                bodies[i] = body
    # Copying an empty context skips OpenSSL 3's per-object digest fetch (~1 us an event).
    new_hash = _EMPTY_SHA256.copy
    digests: list[bytes] = []
    append = digests.append
    for prev, body in zip(prevs, bodies, strict=True):
        h = new_hash()
        h.update(prev.encode())
        h.update(body)
        append(h.digest())
    computed = b"".join(digests)
    broken = [] if computed == rec_bin else [
        i for i, d in enumerate(digests) if d != rec_bin[32 * i:32 * i + 32]]
    # Lines that need the full per-line treatment: score claims and commitments (extra
    # facts), possible secrets, events that cannot be hashed the fast way.
    special = set(types) & SPECIAL_TYPES
    if special:
        redo.update(i for i, etype in enumerate(types) if etype in special)
    if any(map(dict.__contains__, payloads, repeat("seed_commitment"))):
        redo.update(i for i, pl in enumerate(payloads) if "seed_commitment" in pl)
    markers = markers_in(block)
    if markers:  # only a line the secrets scan finds something in (see native_columns)
        redo.update(i for i, raw in enumerate(lines)
                    if any(m in raw for m in markers) and scan_line(raw))
    hint = ctx.spell_hint
    spell = None
    if hint:
        spell = block_spelling(hint, lines, events, plain, bodies, recorded, broken, redo,
                                block)
    return Columns(block, lines, recorded=recorded, prevs=prevs, broken=broken, digests=computed,
                    producers=producers, trusts=trusts, types=types, seqs=seqs, times=times,
                    walls=walls, run_ids=run_ids, redo=redo, spell=spell)


def block_spelling(hint: int, lines, events, plain, bodies, recorded, broken, redo,
                    block: bytes) -> list:
    """`examine_line`'s `spell` fact for each line of a block (None for the lines it redoes
    and those whose hash does not recompute). A plain line, proven length-minimal, without a
    `\\u` escape needs no serialisation: see `PLAIN_U`."""
    n = len(lines)
    skip = redo.union(broken) if broken else redo
    # memchr for a backslash first: searching a 2-byte needle costs ~1.5 ms a MiB
    no_u = b"\\" not in block or ESCAPE_U.search(block) is None
    if hint == SPELL_ORJSON and no_u:  # an orjson stream's steady state: every line checked
        # here is orjson-compact (plain ones by their length, the others by a dump)
        v = SPELL_ORJSON << SPELL_BITS | SPELL_ORJSON
        if not skip:
            return [v] * n
        return [None if i in skip else v for i in range(n)]
    spell: list = [None] * n
    all_ascii = block.isascii() and b"\x7f" not in block  # ensure_ascii escapes DEL too
    sorted_bits = hint & PLAIN_S_A
    high = hint << SPELL_BITS
    for i in range(n):
        if i in skip:
            continue
        raw = lines[i]
        if plain[i] and (no_u or ESCAPE_U.search(raw) is None):
            a = all_ascii or (raw.isascii() and b"\x7f" not in raw)
            m = PLAIN_U_A if a else PLAIN_U
            if (sorted_bits and raw[:9] == b'{"hash":"'
                    and raw == b'{"hash":"' + recorded[i].encode() + b'",' + bodies[i][1:]):
                m |= PLAIN_S_A if a else PLAIN_S
            m &= hint
            spell[i] = high | m if m else line_spelling(raw, hint, True, bodies[i],
                                                         recorded[i], events[i].keys())
        elif plain[i]:  # same length as orjson's spelling, but `\u001F` is not orjson's
            spell[i] = line_spelling(raw, hint, orjson.dumps(orjson.loads(raw)) == raw,
                                     bodies[i], recorded[i], events[i].keys())
        else:  # an orjson-compact line (others are redone) with its canonical body
            spell[i] = line_spelling(raw, hint, True, bodies[i], recorded[i], events[i].keys())
    return spell
