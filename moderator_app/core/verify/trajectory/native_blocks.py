"""The glue to the C accelerator (`formats.native`, `_jcs.c`): a block's columns, summary and
spellings from `_jcs.scan`/`_jcs.summarise`; lines it declines take `examine_line`."""

from __future__ import annotations

from functools import reduce
from operator import and_

import orjson

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets import MARKERS, scan_line
from moderator_app.core.verify.trajectory.columns import SPECIAL_TYPES, Columns
from moderator_app.core.verify.trajectory.facts import BlockSummary, ProducerSpan
from moderator_app.core.verify.trajectory.line import LineContext
from moderator_app.core.verify.trajectory.rules import AGENT, AGENT_TRUST, SCHEMA
from moderator_app.core.verify.trajectory.spelling import (
    COMPACT,
    DUMPS_BIT,
    DUMPS_VARIANTS,
    SPELL_ALL,
    SPELL_BITS,
    SPELL_JCS,
    SPELL_ORJSON,
    SPELL_ORJSON_SORTED,
    line_spelling,
)
from moderator_app.core.verify.trajectory.walltime import (
    block_wall_times,
    minute_epoch,
    uniform_walls,
    wall_ms_z,
)


def native_columns(block: bytes, ctx: LineContext, jcs) -> Columns | None:
    """`block_columns` by `_jcs.scan` (see _jcs.c). The lines it declines, like those the
    per-line rules must see (score claims, commitments, possible secrets), go through
    `examine_line`. The block is split into lines only when some line needs it."""
    if ctx.leak is not None and ctx.leak.block_hit(block):
        return None
    (keys, digests, recorded, prevs, producers, trusts, types, seqs, walls, run_ids,
     declined, broken, seeded) = jcs.scan(block, SCHEMA)
    redo = set(declined)
    redo.update(seeded)
    if any(p == AGENT and t != AGENT_TRUST for p, t in set(zip(producers, trusts, strict=True))):
        redo.update(i for i, (p, t) in enumerate(zip(producers, trusts, strict=True))
                    if p == AGENT and t != AGENT_TRUST)
    if uniform_walls(walls):
        times = None  # the strings order as the times do: converted only where needed
    else:
        times = block_wall_times(walls)
        if None in times:
            redo.update(i for i, t in enumerate(times) if t is None)
    special = set(types) & SPECIAL_TYPES
    if special:
        redo.update(i for i, etype in enumerate(types) if etype in special)
    cols = Columns(block, None, recorded=recorded, prevs=prevs, broken=broken,
                    digests=digests, producers=producers, trusts=trusts, types=types, seqs=seqs,
                    times=times, walls=walls, run_ids=run_ids, redo=redo, spell=None)
    markers = jcs.markers(block, MARKERS)
    if markers:  # (`cols.lines`: the block is split only here and for the spellings)
        # A line holding a marker (random text such as a base64 screenshot holds one every
        # few hundred lines) takes the per-line secrets scan, the very call `examine_line`
        # makes, as `native_summary` does: only a line with a hit goes through `examine_line`,
        # which words the finding; the others' facts are the columns' (issue 15: the GUI's
        # index path sent every such line through `examine_line`).
        redo.update(i for i, raw in enumerate(cols.lines)
                    if any(m in raw for m in markers) and scan_line(raw))
    if ctx.spell_hint:
        cols.spell = _native_spelling(ctx.spell_hint, cols, memoryview(keys).cast("H"),
                                      recorded, redo.union(broken) if broken else redo)
    return cols


def native_summary(block: bytes, ctx: LineContext, jcs) -> BlockSummary | None:
    """`Columns.summary()` of the block straight from `_jcs.summarise` (no Python object per
    line), or None: then the columns decide, line by line where needed. The checks here are
    those of `native_columns` and `summary` that need the whole block's facts: no line for the
    per-line rules (score claims, commitments, possible secrets, a trusted agent), dates that
    exist. tests/formats/test_native_jcs.py holds the two to the
    same summaries."""
    if ctx.leak is not None and ctx.leak.block_hit(block):
        return None
    got = jcs.summarise(block, SCHEMA, MARKERS)
    if got is None:
        return None
    (events, first_prev, last_hash, run_id, prods, wmin, wmax, wstart, wend, types, minutes,
     keys, suspects) = got
    # Lines holding a secrets marker (random text such as a base64 screenshot holds one every
    # few hundred lines): the per-line secrets scan, exactly as `examine_line` runs it; a
    # block with a finding takes the columns, which word it.
    for start, end in suspects:
        if scan_line(bytes(block[start:end])):
            return None
    if SPECIAL_TYPES.intersection(types) or None in map(minute_epoch, minutes):
        return None
    for name, trust, *_ in prods:
        if name == AGENT and trust != AGENT_TRUST:
            return None
    spell = runs = None
    hint = ctx.spell_hint
    if hint:
        table = _native_spell_table(hint)
        values = [table[k] for k in keys]
        if _NAT_SLOW in values:
            return None
        spell = reduce(and_, values)
        if not spell & SPELL_ALL:  # no spelling common to all lines: their facts count
            if len(set(values)) != 1:  # (`keys` are the distinct ones: no line order here)
                return None
            # no line spelled as any writer spells it (PHP's `\/`): one run, the same fact
            runs = ((events, spell),)
    spans = tuple(ProducerSpan(name, trust, count, first, last, seq0, seq1, wall_ms_z(w0),
                               wall_ms_z(w1))
                  for name, trust, count, first, last, seq0, seq1, w0, w1 in prods)
    return BlockSummary(events, first_prev, last_hash, run_id, spans, wall_ms_z(wmin),
                        wall_ms_z(wmax), None if wstart is None else wall_ms_z(wstart),
                        None if wend is None else wall_ms_z(wend), spell, runs)


def _nat_mask(key: int, bits: dict[str, int], orjson_floats: bool) -> int | None:
    """The spellings that reproduce a line of `_jcs` status key `key`, or None where the key
    does not tell. A line spelled minimally but for its floats (no whitespace, every string
    and integer as RFC 8785 spells it) is orjson's compact form when its floats are spelled as
    orjson writes them, and json.dumps' compact one when they are spelled as repr
    (ensure_ascii too when the line is ASCII without DEL); with members in code point order at
    every level, also their sorted forms; spelled minimally throughout with members in UTF-16
    order, RFC 8785. EA (strings as ensure_ascii writes them, `\u00e9`): json.dumps'
    ensure_ascii forms. SPACED (one space after every `,` and `:`): the json.dumps forms of
    the same tokens with its default separators, and no other writer's. NOWRITER: none.
    `orjson_floats`:
    whether `_jcs` spells floats as the installed orjson does (else those lines take
    `line_spelling`). tests/formats/test_native_jcs.py holds this to `spelling_mask`."""
    if not key & bits["ST_OK"]:
        return None
    if key & bits.get("ST_NOWRITER", 0):
        return 0  # an escape none of them writes (`\/`, `\u003c`, `\u00E9`)
    floats = bool(key & bits["ST_FLOAT"])
    sorted_cp = bool(key & bits["ST_SORTED_CP"])
    m: int | None = None
    if key & bits["ST_MINX"] and (orjson_floats or not floats):
        m = 0
        if not floats or key & bits["ST_F_ORJSON"]:
            m |= SPELL_ORJSON | (SPELL_ORJSON_SORTED if sorted_cp else 0)
        if not floats or key & bits["ST_F_REPR"]:
            m |= DUMPS_BIT[(COMPACT, False, False)] | (DUMPS_BIT[(COMPACT, False, True)] if sorted_cp else 0)
            if key & bits["ST_ASCII"]:
                m |= DUMPS_BIT[(COMPACT, True, False)] | (DUMPS_BIT[(COMPACT, True, True)] if sorted_cp else 0)
        if key & bits["ST_MIN"] and key & bits["ST_SORTED_U16"]:
            m |= SPELL_JCS
    if key & bits.get("ST_EA", 0) and (not floats or key & bits["ST_F_REPR"]):
        m = (m or 0) | DUMPS_BIT[(COMPACT, True, False)] | (
            DUMPS_BIT[(COMPACT, True, True)] if sorted_cp else 0)
    if m is not None and key & bits.get("ST_SPACED", 0):
        m = sum(DUMPS_BIT[(None, ea, sk)] for sep, ea, sk in DUMPS_VARIANTS
                if sep == COMPACT and m & DUMPS_BIT[(sep, ea, sk)])
    return m


class _NatMasks(dict):
    """`_nat_mask` per status key, worked out at a key's first use (a block holds a few keys;
    the 8,192 possible ones are not built at start-up)."""

    def __init__(self, bits: dict[str, int], orjson_floats: bool) -> None:
        super().__init__()
        self._bits, self._orjson_floats = bits, orjson_floats

    def __missing__(self, key: int) -> int | None:
        m = self[key] = _nat_mask(key, self._bits, self._orjson_floats)
        return m


def orjson_floats_agree(jcs) -> bool:
    """Whether `_jcs` spells floats exactly as the installed orjson writes them (orjson's
    notation has changed between releases): probed at the edges of each notation."""
    probes = (0.1, 1e-7, 1e-6, 1e-5, 2.5e-5, 1e-4, 0.001, 1e15, 1e16, 1.5e16, 56.0, 1e21,
              1e22, 5e-324, 1.7976931348623157e308, -0.0, 0.0, -3.25, 123456789012345680.0)
    try:
        return all(jcs.float_spellings(x)[2] == orjson.dumps(x).decode() for x in probes)
    except Exception:  # noqa: BLE001 - any doubt: the Python path decides
        return False


_NAT_BITS = {k: getattr(native.JCS, k) for k in dir(native.JCS) if k.startswith("ST_")} if (
    native.JCS is not None) else {}
NATIVE_MASKS = _NatMasks(_NAT_BITS, native.JCS is not None and orjson_floats_agree(native.JCS))
_NAT_SLOW = object()
_NAT_SPELL: dict[int, _SpellTable] = {}


class _SpellTable(dict):
    """The `spell` fact of a line per status key, for the spellings in a hint; `_NAT_SLOW`
    where `line_spelling` must decide (worked out at a key's first use)."""

    def __init__(self, hint: int) -> None:
        super().__init__()
        self._hint = hint

    def __missing__(self, key: int) -> object:
        m = NATIVE_MASKS[key]
        hint = self._hint
        if m is None:
            v: object = _NAT_SLOW
        elif m & hint:
            v = hint << SPELL_BITS | m & hint
        else:  # as `line_spelling` words it: every spelling tried, these (or none) reproduce it
            v = SPELL_ALL << SPELL_BITS | m
        self[key] = v
        return v


def _native_spell_table(hint: int) -> _SpellTable:
    """The spell table for `hint` (one per hint, kept)."""
    table = _NAT_SPELL.get(hint)
    if table is None:
        table = _NAT_SPELL[hint] = _SpellTable(hint)
    return table


def _native_spelling(hint: int, cols: Columns, keys, recorded, skip) -> list:
    """`examine_line`'s `spell` fact for each line from `_jcs.scan`'s status keys; lines the
    keys do not settle (whitespace, escapes no writer here uses) take `line_spelling`."""
    spell = list(map(_native_spell_table(hint).__getitem__, keys))
    for i in skip:
        spell[i] = None
    if _NAT_SLOW in spell:
        lines = cols.lines
        for i, v in enumerate(spell):
            if v is _NAT_SLOW:
                raw = lines[i]
                spell[i] = line_spelling(raw, hint, orjson.dumps(orjson.loads(raw)) == raw,
                                         None, recorded[i], None)
    return spell
