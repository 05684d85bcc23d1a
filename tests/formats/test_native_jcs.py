"""The C accelerator (moderator_app/core/formats/_jcs.c) against the Python reference, piece by piece.

It may decline any line (the Python path then decides), but every line it vouches for must
hash exactly as `chain.event_hash`, and every fact it reports (spellings, summaries, secrets
markers) must be the one the Python path derives. Whole reports on both engines are compared
by the modules that use `conftest.engine`; tests/formats/test_native_fuzz.py attacks it at random.
"""

from __future__ import annotations

import json
import os
import re
import shutil

import orjson
import pytest
from conftest import es6_float_lines, need_testdata
from hypothesis import given, settings
from hypothesis import strategies as st
from trajhelp import chain_lines, join

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json, es6_number
from moderator_app.core.formats.chain import event_hash
from moderator_app.core.formats.secrets import MARKERS
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events
from moderator_app.core.verify import trajectory as traj

jcs = native.JCS
needs_jcs = pytest.mark.skipif(jcs is None, reason="the C accelerator is not built here")
SCHEMA = traj.SCHEMA
_INT = re.compile(rb"[:,\[]-?(\d{16,})(?=[,}\]])")


def big_int(raw: bytes) -> bool:
    """Whether `raw` holds an integer token `_jcs` declines: beyond 2^53 - 1."""
    return any(int(m.group(1)) > 2**53 - 1 for m in _INT.finditer(raw))


def test_the_accelerator_is_built_wherever_a_c_compiler_is():
    """`make setup` builds it; a silent fallback would only show as a slow verifier."""
    if os.environ.get("MODERATOR_APP_NATIVE") == "0":
        pytest.skip("turned off by MODERATOR_APP_NATIVE=0")
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler here: the pure-Python path is the engine")
    assert jcs is not None
    assert jcs.sha_backend() == "libcrypto"


@pytest.mark.parametrize("abi", [None, native.JCS_ABI - 1])
def test_a_build_older_than_its_source_is_not_used(monkeypatch, abi):
    """A checkout that moved on without `make setup` kept a `_jcs` returning 12 values where
    13 are read: `verify` of any trajectory ended in an internal error. A build of another
    ABI is left unused (the Python path gives the same verdicts)."""
    import sys
    import types

    stale = types.ModuleType("moderator_app.core.formats._jcs")
    if abi is not None:
        stale.ABI = abi  # type: ignore[attr-defined]
    import moderator_app.core.formats as formats

    monkeypatch.setitem(sys.modules, "moderator_app.core.formats._jcs", stale)
    monkeypatch.setattr(formats, "_jcs", stale, raising=False)
    assert native.load() is None


def _scan(block: bytes):
    names = ("keys", "digests", "recorded", "prevs", "producers", "trusts", "types", "seqs",
             "walls", "run_ids", "declined", "broken", "seeded")
    got = dict(zip(names, jcs.scan(block, SCHEMA), strict=True))
    got["keys"] = list(memoryview(got["keys"]).cast("H"))
    return got


# -- canonical form ---------------------------------------------------------------------------

@needs_jcs
@pytest.mark.parametrize("name", ["arrays", "french", "structures", "unicode", "values", "weird"])
def test_jcs_vectors(name):
    d = need_testdata("jcs")
    value = json.loads((d / "input" / f"{name}.json").read_text(encoding="utf-8"))
    expected = (d / "output" / f"{name}.json").read_bytes()
    if not isinstance(value, dict):
        value = {"v": value}
        expected = b'{"v":' + expected + b"}"
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
    assert jcs.canonical(compact)[0] == expected


@needs_jcs
def test_es6_float_file_100k_both_number_paths():
    """Every float of the file spelled as repr (short tokens take the C digit path, long ones
    Python's dtoa) and by `float_spellings`."""
    bad = []
    n = 0
    for x, expected in es6_float_lines():
        n += 1
        got = jcs.canonical(b'{"x":' + repr(x).encode() + b"}")
        if got is None or got[0] != b'{"x":' + expected.encode() + b"}" or (
                jcs.float_spellings(x)[0] != expected):
            bad.append((x, expected, got))
    assert n == 100_000
    assert bad == []


@needs_jcs
@pytest.mark.parametrize("token,es6,is_min", [
    (b"56.0", b"56", False), (b"1e-7", b"1e-7", True), (b"1E-7", b"1e-7", False),
    (b"0.0000095", b"0.0000095", True), (b"9.5e-6", b"0.0000095", False),
    (b"1e+16", b"10000000000000000", False), (b"1e21", b"1e+21", False),
    (b"-0.0", b"0", False), (b"-0", b"0", False), (b"0.10", b"0.1", False),
    (b"123456789012345", b"123456789012345", True), (b"0.1e1", b"1", False),
    (b"1752156002500000", b"1752156002500000", True), (b"-9007199254740991", b"-9007199254740991", True),
    (b"[9007199254740991,1752156002500000]", b"[9007199254740991,1752156002500000]", True),
    (b"0.30000000000000004", b"0.30000000000000004", True), (b"0.0001", b"0.0001", True),
    (b"0.00001", b"0.00001", True), (b"1234567890123456.7", b"1234567890123456.8", False),
    (b"12345678901234567.5", b"12345678901234568", False), (b"0.50", b"0.5", False),
    (b"5e-324", b"5e-324", True), (b"1.7976931348623157e308", b"1.7976931348623157e+308", False),
])
def test_number_tokens(token, es6, is_min):
    got = jcs.canonical(b'{"x":' + token + b"}")
    assert got[0] == b'{"x":' + es6 + b"}"
    assert bool(got[1] & jcs.ST_MIN) is is_min


@needs_jcs
def test_members_sort_by_utf16_code_units_and_escapes_are_minimal():
    line = '{"\ue000":1,"\U0001f600":2,"a\\u0062":"\\/\\u00e9\\u001F\\t","\\u0000":[]}'.encode()
    got, flags = jcs.canonical(line)
    assert got == canonical_json(json.loads(line))
    assert got == '{"\\u0000":[],"ab":"/é\\u001f\\t","\U0001f600":2,"\ue000":1}'.encode()
    assert not flags & jcs.ST_MIN and not flags & jcs.ST_SORTED_U16


_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**15) + 1, 10**15 - 1),
              st.floats(allow_nan=False, allow_infinity=False),
              st.text(st.characters(exclude_categories=("Cs",)), max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(st.characters(exclude_categories=("Cs",)), max_size=6), inner,
                        max_size=4)),
    max_leaves=20)


@needs_jcs
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6).filter(lambda k: k < "\ud800" or k > "\udfff"),
                       _json, max_size=6),
       st.sampled_from(["orjson", "json_ascii", "json", "jcs"]))
def test_any_object_in_any_spelling_gives_the_reference_bytes(value, writer):
    try:
        expected = canonical_json(value)
    except ValueError:
        return  # a lone surrogate in a key: not text
    line = {"orjson": orjson.dumps, "jcs": canonical_json,
            "json_ascii": lambda v: json.dumps(v, separators=(",", ":")).encode(),
            "json": lambda v: json.dumps(v, separators=(",", ":"),
                                         ensure_ascii=False).encode()}[writer](value)
    got = jcs.canonical(line)
    if got is None:  # declined only for an integer token beyond 2^53 - 1
        assert big_int(line), line
        return
    assert got[0] == expected
    if writer == "jcs":
        assert got[1] & jcs.ST_MIN and got[1] & jcs.ST_SORTED_U16


@needs_jcs
@pytest.mark.parametrize("line", [
    b'{"a":1, "b":2}', b'{"a":1}\r', b' {"a":1}', b'{"a":9007199254740993}',
    b'{"a":9007199254740992}', b'{"a":[-9007199254740992,1]}', b'{"a":"\\ud800"}', b'{"a":"\\udc00x"}', b'{"a":1,"a":2}',
    b'{"b":{"x":1,"y":2,"x":3}}', b'{"a":1e400}', b'{"a":1E-400}', b'{"a":-2e-324}',
    b'{"a":0.' + b'0' * 330 + b'1}', b'{"a":NaN}', b'{"a":"\x01"}',
    b'{"a":"\xff"}', b'{"a":"\xed\xa0\x80"}', b'{"a":"\xc0\xaf"}', b'{"a":01}', b'{"a":1.}',
    b'{"a":.5}', b'{"a":tru}', b'{"a":[1,]}', b'{"a":1,}', b'{"a"}', b'{"a":1}x',
    b'[' * 255 + b']' * 255,  # one level past MAX_DEPTH (orjson's 254)
])
def test_the_canonical_writer_declines_what_it_cannot_vouch_for(line):
    assert jcs.canonical(line) is None


# -- scanning a block -------------------------------------------------------------------------

def _lines(n: int = 60, seed: int = 3, variety: float = 0.8) -> list[bytes]:
    return chain_lines(n, seed=seed, variety=variety)


@needs_jcs
def test_every_hash_is_the_chain_rule_and_every_column_the_parsed_value():
    lines = _lines(120)
    got = _scan(join(lines))
    assert got["declined"] == [] and got["broken"] == []
    events = [orjson.loads(raw) for raw in lines]
    for i, ev in enumerate(events):
        recorded = ev.pop("hash")
        assert got["digests"][32 * i:32 * i + 32].hex() == event_hash(ev["prev_hash"], ev) \
            == recorded
    assert got["recorded"] == [orjson.loads(raw)["hash"] for raw in lines]
    for column, member in (("prevs", "prev_hash"), ("producers", "producer"),
                           ("trusts", "trust_level"), ("types", "type"),
                           ("seqs", "producer_sequence"), ("walls", "wall_time"),
                           ("run_ids", "run_id")):
        assert got[column] == [ev[member] for ev in events], column
    seeded = [i for i, ev in enumerate(events) if "seed_commitment" in ev["payload"]]
    assert seeded and got["seeded"] == seeded


ENVELOPE = ("schema", "producer_sequence", "wall_time", "run_id", "trust_level", "producer",
            "type", "payload", "prev_hash", "hash")


def _envelope_orders() -> list[tuple[str, ...]]:
    """The writer's order, its rotations, reversed, RFC 8785's, and 30 seeded shuffles."""
    import random

    orders = [ENVELOPE[i:] + ENVELOPE[:i] for i in range(len(ENVELOPE))]
    orders += [ENVELOPE[::-1], tuple(sorted(ENVELOPE))]
    rng = random.Random(18)
    for _ in range(30):
        order = list(ENVELOPE)
        rng.shuffle(order)
        orders.append(tuple(order))
    return orders


@needs_jcs
@pytest.mark.parametrize("order", _envelope_orders(), ids=lambda o: ",".join(m[:4] for m in o))
def test_the_envelope_in_any_order_hashes_as_the_chain_rule(order):
    """The top level is put in canonical order by each member's rank (session 18: no sort):
    any order of the ten members gives the chain rule's digest, the summary, and the sorted
    flags only for RFC 8785's order; a line missing a member or repeating one is declined."""
    written = [orjson.dumps(e) for e in chain_events(make_run_events(120, seed=4, variety=0.5))]
    lines = [orjson.dumps({k: ev[k] for k in order}) for ev in map(orjson.loads, written)]
    got = _scan(join(lines))
    assert got["declined"] == [] and got["broken"] == []
    for i, raw in enumerate(lines):
        ev = orjson.loads(raw)
        recorded = ev.pop("hash")
        assert got["digests"][32 * i:32 * i + 32].hex() == event_hash(ev["prev_hash"], ev) \
            == recorded
    if list(order) != sorted(order):  # (in order, the payloads' own orders decide)
        assert not any(k & (jcs.ST_SORTED_CP | jcs.ST_SORTED_U16) for k in got["keys"])
    summed = 0
    for start in range(0, len(lines), 37):  # the summary of each block, but for its flags
        theirs = jcs.summarise(join(written[start:start + 37]), SCHEMA, MARKERS)
        ours = jcs.summarise(join(lines[start:start + 37]), SCHEMA, MARKERS)
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert ours[:11] == theirs[:11] and len(ours[12]) == len(theirs[12])
            summed += 1
    assert summed >= 2
    missing = orjson.loads(lines[3])
    del missing[order[4]]
    repeated = orjson.dumps(orjson.loads(lines[5]))[:-1] + b',"' + order[2].encode() + b'":"x"}'
    bad = lines[:3] + [orjson.dumps(missing)] + lines[4:5] + [repeated] + lines[6:20]
    assert _scan(join(bad))["declined"] == [3, 5]


@needs_jcs
def test_the_libcrypto_and_hashlib_digests_agree():
    block = join(_lines(40))
    fast = jcs.scan(block, SCHEMA)[1]
    jcs.set_python_sha(True)
    try:
        assert jcs.sha_backend() == "hashlib"
        assert jcs.scan(block, SCHEMA)[1] == fast
    finally:
        jcs.set_python_sha(False)


def _replace(raw: bytes, old: bytes, new: bytes) -> bytes:
    assert old in raw
    return raw.replace(old, new, 1)


DECLINED = {
    "whitespace": lambda r: _replace(r, b'","', b'", "'),
    "unknown member": lambda r: _replace(r, b'{"schema"', b'{"extra":1,"schema"'),
    "repeated member": lambda r: _replace(r, b'{"schema"', b'{"type":"x","schema"'),
    "escaped producer": lambda r: _replace(r, b'"producer":"', b'"producer":"\\u0061'),
    "other schema": lambda r: _replace(r, b"ale-trajectory-event/v1", b"ale-trajectory-event/v2"),
    "uppercase hash": lambda r: r[:-3] + r[-3:-2].upper() + r[-2:] if r[-3:-2].islower()
    else r[:-3] + b"A" + r[-2:],
    "float sequence": lambda r: _replace(r, b'"producer_sequence":', b'"producer_sequence":1.0,'
                                         b'"x":'),
    "integer beyond 2^53 - 1": lambda r: _replace(r, b'"payload":{', b'"payload":{"n":9007199254740992,'),
    "payload not an object": lambda r: _replace(r, b'"payload":{', b'"payload":[{') .replace(
        b',"prev_hash"', b'],"prev_hash"', 1),
    "raw control character": lambda r: _replace(r, b'"run_', b'"run\x01_'),
    "invalid UTF-8": lambda r: _replace(r, b'"payload":{', b'"payload":{"\xff":1,'),
    "deep nesting": lambda r: _replace(r, b'"payload":{', b'"payload":{"d":' + b"[" * 260
                                       + b"]" * 260 + b","),
}


@needs_jcs
@pytest.mark.parametrize("case", sorted(DECLINED))
def test_unusual_lines_are_declined_alone(case):
    lines = _lines(20)
    lines[7] = DECLINED[case](lines[7])
    got = _scan(join(lines))
    assert got["declined"] == [7]
    assert got["keys"][7] == 0 and got["digests"][32 * 7:32 * 8] == bytes(32)
    assert all(k & jcs.ST_OK for i, k in enumerate(got["keys"]) if i != 7)


@needs_jcs
def test_an_edited_line_is_hashed_and_reported_broken():
    lines = _lines(20)
    lines[5] = _replace(lines[5], b'"wall_time":"2026', b'"wall_time":"2027')
    got = _scan(join(lines))
    assert got["declined"] == [] and got["broken"] == [5]


@needs_jcs
def test_a_block_without_final_newline_and_blank_lines():
    lines = _lines(12)
    got = _scan(join(lines[:5]) + b"\n" + join(lines[5:])[:-1])
    assert len(got["keys"]) == 13 and got["declined"] == [5]


# -- spelling facts ---------------------------------------------------------------------------

def _dumps(sep, ea, sk):
    return lambda e: json.dumps(e, separators=sep, ensure_ascii=ea, sort_keys=sk).encode()


WRITERS = {
    "jcs": canonical_json, "orjson": orjson.dumps,
    "orjson_sorted": lambda e: orjson.dumps(e, option=orjson.OPT_SORT_KEYS),
    **{f"json_{sep}_{ea}_{sk}": _dumps(sep, ea, sk) for sep, ea, sk in traj.spelling.DUMPS_VARIANTS},
    # Go's encoding/json: compact, `<`, `>` and `&` escaped (`\u003c`): no known writer's
    "go": lambda e: orjson.dumps(e).replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(
        b"&", b"\\u0026"),
}


@needs_jcs
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_the_spelling_table_equals_spelling_mask(writer):
    """Per line, the spellings `_jcs` status keys give (where they give any) are exactly those
    `spelling_mask` finds by writing the line every way."""
    evs = chain_events(make_run_events(40, seed=5, variety=1.0))
    for ev in evs[::3]:
        ev["payload"]["nested"] = {"z": [1.5, "\x7f", {"b": 1e-7, "a": 56.0}], "\U0001f600": 1,
                                   "\ue000": "é", "q": 1e21, "sh": "make && ./run > log < in"}
    lines = [WRITERS[writer](ev) for ev in chain_events(evs)]
    got = _scan(join(lines))
    compared = 0
    for raw, key in zip(lines, got["keys"], strict=True):
        mask = traj.native_blocks.NATIVE_MASKS[key]
        if mask is None:
            continue
        compact = orjson.dumps(orjson.loads(raw)) == raw
        assert mask == traj.spelling_mask(raw, traj.SPELL_ALL, compact), (writer, raw[:80])
        compared += 1
    # Covered: every line of every writer, json.dumps' default separators (", ", ": ") and
    # ensure_ascii's escapes (`\u00e9`) included (session 16: both were declined)
    # (RFC 8785 spells the float 1e16 as a 17-digit integer, a token `_jcs` declines)
    assert compared == sum(not big_int(raw) for raw in lines) > len(lines) // 2


@needs_jcs
@pytest.mark.parametrize("writer", [w for w in sorted(WRITERS) if w.startswith("json_None")]
                         + ["json_(',', ':')_True_False"])
def test_lines_json_dumps_writes_are_summarised_in_c(writer):
    """A Python producer's lines: json.dumps' default separators (one space after every `,`
    and `:`) and, by default, ensure_ascii's `\u00e9` escapes. `_jcs` declined every such line
    (any whitespace; an escape RFC 8785 does not write), so every block went line by line
    through Python: 2.96 s of CPU for 40,000 events where the same events written by orjson
    took 0.24 s (session 16). The C summary of their blocks now stands, with the spelling the
    columns find line by line."""
    evs = make_run_events(300, seed=2, variety=1.0)
    for ev in evs[::4]:
        ev["payload"]["nested"] = {"z": [1.5, "\x7f", {"b": 1e-7, "a": 56.0}], "\U0001f600": 1,
                                   "\ue000": "é\n", "q": [], "r": {}}
    evs = chain_events(evs)
    ctx = traj.LineContext()

    def summarised(write) -> list[int]:
        lines = [write(ev) for ev in evs]
        out = []
        for start in range(0, len(lines), 37):
            block = join(lines[start:start + 37])
            fast = traj.blocks.native_summary(block, ctx, jcs)
            assert fast == traj.native_blocks.native_columns(block, ctx, jcs).summary()
            if fast is not None and fast.spell is not None:
                out.append(start)
        return out

    # the blocks orjson's lines have summarised in C (not those holding run_start, run_end
    # and such, or an integer beyond 2^53 that RFC 8785 writes for 1e16)
    assert summarised(WRITERS[writer]) == summarised(orjson.dumps)
    assert len(summarised(orjson.dumps)) >= 5


@needs_jcs
@pytest.mark.parametrize("raw", [
    b'{"a": 1,"b": 2}', b'{"a":1, "b":2}', b'{"a":  1}', b'{"a" : 1}', b'{ "a": 1}',
    b'{"a": 1 }', b'[1,\t2]', b'[1, 2,3]', b'{"a": [1, 2]} ', b' {"a": 1}', b'{"a":\t1}',
    b'{"a": "\\u00E9"}', b'{"a": "\\u0041"}', b'{"a": "\\u000a"}', b'{"a": "\\/"}',
    b'{"a": "\\ud83D\\ude00"}',
])
def test_whitespace_and_escapes_json_dumps_never_writes_claim_no_dumps_spelling(raw):
    """Separators spaced in part, other whitespace, escapes ensure_ascii never writes: the line
    is declined, or vouched for without a json.dumps spelling (`spelling_mask` decides)."""
    from moderator_app.core.verify.trajectory.spelling import DUMPS_BIT, DUMPS_VARIANTS
    got = jcs.canonical(raw)
    if got is None:
        return
    out, flags = got
    assert out == canonical_json(json.loads(raw))
    mask = traj.native_blocks.NATIVE_MASKS[flags | jcs.ST_OK]
    value = json.loads(raw)
    for sep, ea, sk in DUMPS_VARIANTS:
        if mask and mask & DUMPS_BIT[(sep, ea, sk)]:
            assert json.dumps(value, separators=sep, ensure_ascii=ea, sort_keys=sk).encode() == raw


@needs_jcs
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_spell_facts_from_c_are_line_spellings_for_any_hint(writer):
    """The `spell` fact the status keys give (the columns' and the summary's) is the one
    `line_spelling` finds for each hint the checker may hold, a writer outside the hint or
    none included (Go's `\u003c`: every line of such a stream went through `line_spelling`,
    ~55 us each; session 16)."""
    evs = chain_events(make_run_events(40, seed=5, variety=1.0))
    for ev in evs[::2]:
        ev["payload"]["sh"] = "make && ./run > log < in"
    lines = [WRITERS[writer](ev) for ev in chain_events(evs)]
    keys = _scan(join(lines))["keys"]
    B = traj.spelling.SPELL_BITS
    slow = 0
    for hint in (traj.SPELL_ALL, traj.SPELL_ORJSON, traj.SPELL_JCS | traj.SPELL_ORJSON_SORTED,
                 traj.spelling.DUMPS_BIT[(None, True, False)]):
        table = traj.native_blocks._native_spell_table(hint)
        for raw, key in zip(lines, keys, strict=True):
            fact = table[key]
            if fact is traj.native_blocks._NAT_SLOW:
                slow += 1
                continue
            compact = orjson.dumps(orjson.loads(raw)) == raw
            assert fact == traj.spelling.line_spelling(raw, hint, compact), (writer, hint, raw[:80])
            assert fact >> B in (hint, traj.SPELL_ALL)
    assert slow == 4 * sum(big_int(raw) for raw in lines)  # (declined lines only)


# -- block summaries --------------------------------------------------------------------------

@needs_jcs
@pytest.mark.parametrize("seed,variety", [(1, 0.0), (2, 0.5), (3, 1.0)])
def test_summaries_from_c_equal_the_columns_summary(seed, variety):
    evs = make_run_events(300, seed=seed, variety=variety)
    lines = [orjson.dumps(e) for e in chain_events(evs)]
    ctx = traj.LineContext()
    compared = 0
    for start in range(0, len(lines), 37):
        block = join(lines[start:start + 37])
        fast = traj.blocks.native_summary(block, ctx, jcs)
        columns = traj.native_blocks.native_columns(block, ctx, jcs).summary()
        by_orjson = traj.columns.block_columns(block, traj.line.split_lines(block), ctx)
        assert fast == columns
        if by_orjson is not None:
            assert by_orjson.summary() == columns
        compared += fast is not None
    assert compared >= 5


@needs_jcs
@pytest.mark.parametrize("edit", [
    lambda ls: ls.__setitem__(3, _replace(ls[3], b'"wall_time":"2026-07-10T14:00:0',
                                          b'"wall_time":"2026-07-10T13:00:0')),
    lambda ls: ls.__setitem__(4, ls[5]),
    lambda ls: ls.__setitem__(6, _replace(ls[6], b'"run_id":"run_', b'"run_id":"rux_')),
    lambda ls: ls.__setitem__(2, _replace(ls[2], b'"wall_time":"', b'"wall_time":"x')),
])
def test_a_block_that_does_not_hold_together_has_no_summary(edit):
    evs = make_run_events(40, seed=9, variety=0.0, text_bytes=20)
    lines = [orjson.dumps(e) for e in chain_events(evs)][8:30]
    block = join(lines)
    assert traj.blocks.native_summary(block, traj.LineContext(), jcs) is not None
    edit(lines)
    assert jcs.summarise(join(lines), SCHEMA) is None


@needs_jcs
@pytest.mark.parametrize("marker", MARKERS)
def test_a_block_with_a_possible_secret_names_its_lines(marker):
    """A line holding a secrets marker must meet the per-line secrets scan: the C summary names
    it (its span), for any marker, at any line, the last included (the scan runs line by
    line), and the block's summary stands only when that scan finds nothing in it."""
    evs = make_run_events(40, seed=9, variety=0.0, text_bytes=20)
    # a TAG character's first three bytes (secrets.TAG_MARKERS) are written as a whole one
    text = (marker + b"\xb3").decode() if marker.startswith(b"\xf3") else marker.decode()
    for at in (10, 29):
        evs[at]["payload"]["note"] = "token " + text + "A1b2C3d4E5f6G7h8I9j0K1l2M3"
    lines = [orjson.dumps(e) for e in chain_events(evs)][8:30]
    block = join(lines)
    assert jcs.summarise(block, SCHEMA)[12] == ()
    spans = jcs.summarise(block, SCHEMA, MARKERS)[12]
    assert [block[a:b] for a, b in spans] == [lines[2], lines[21]]
    assert [block[a:b] for a, b in jcs.summarise(join(lines[:-1]), SCHEMA, MARKERS)[12]] == [
        lines[2]]
    assert jcs.summarise(join(lines[3:-1]), SCHEMA, MARKERS)[12] == ()
    found = bool(traj.line.scan_line(lines[2]))
    # the others: too short a token, except where 26 random characters end the string
    # before the pattern's length: a key cut at its string's end (session 31); a Stripe or
    # GitLab key of 26 is a whole one (session 32), a SendGrid key needs its second part
    assert found is (marker in (b"sk-", b"github_pat_", b"ghp_", b"AIza", b"hf_", b"sk_live_",
                                b"glpat-"))
    assert (traj.blocks.native_summary(block, traj.LineContext(), jcs) is None) is found


@needs_jcs
def test_a_block_with_too_many_possible_secrets_has_no_summary():
    """Past 64 lines holding a marker the summary declines: the columns take the block."""
    evs = make_run_events(80, seed=9, variety=0.0, text_bytes=20)
    for ev in evs[5:75]:
        ev["payload"]["note"] = "xoxo"
    lines = [orjson.dumps(e) for e in chain_events(evs)][5:75]
    assert jcs.summarise(join(lines[:64]), SCHEMA, MARKERS) is not None
    assert jcs.summarise(join(lines[:65]), SCHEMA, MARKERS) is None


# -- secrets markers --------------------------------------------------------------------------

@needs_jcs
@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(MARKERS), st.binary(max_size=40),
                          st.text("abesk-_hfxAKIPRVEYGz ", max_size=40).map(str.encode)),
                max_size=12))
def test_markers_equal_substring_tests(parts):
    block = b"".join(parts)
    assert jcs.markers(block, MARKERS) == tuple(m for m in MARKERS if m in block)


_ESCAPES = (b"\\u003c", b"\\u003e", b"\\u0026", b"\\u0027", b"\\u002f", b"\\u00e9",
            b"\\u0041", b"\\u0020", b"\\u002d", b"\\u002D", b"\\u0073k-", b"\\n", b"&& x",
            b"\\u005", b"\\u00", b"\\u")


@needs_jcs
@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(MARKERS), st.sampled_from(_ESCAPES),
                          st.binary(max_size=8)), max_size=40))
def test_markers_among_go_escapes_equal_substring_tests(parts):
    """Go's `\\u003c` / `\\u0026` and other `\\u00XX` escapes share their first four bytes
    (and `\\u0026` its fifth) with the escapes that can hide a marker: the search drops them
    on the fifth byte and compares the rest with their bucket's markers only (session 31)."""
    block = b"".join(parts)
    assert jcs.markers(block, MARKERS) == tuple(m for m in MARKERS if m in block)


@needs_jcs
def test_a_marker_at_every_place_among_go_escapes():
    """Each marker at each offset of 80 bytes of Go-escaped text and at the block's very end
    (the 16- and 32-byte windows' edges, the tail loop): found, and only it."""
    filler = b"a \\u003c b \\u0026\\u0026 c \\u003e\\n" * 8
    for m in MARKERS:
        for at in range(0, 80):
            for block in (filler[:at] + m + filler[at:], filler[:at] + m):
                want = tuple(x for x in MARKERS if x in block)
                assert m in want
                assert jcs.markers(block, MARKERS) == want, (m, at, len(block))


@needs_jcs
def test_float_spellings_of_every_writer():
    for x in (0.1, 1e-7, 1e-5, 2.5e-5, 1e16, 1e15, 56.0, -0.0, 5e-324, 1.7976931348623157e308,
              123456789012345680.0, 0.30000000000000004):
        assert jcs.float_spellings(x) == (es6_number(x), repr(x), orjson.dumps(x).decode())


# -- line bounds ------------------------------------------------------------------------------

@needs_jcs
@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60).map(lambda b: b.replace(b"\x00", b"\n")), st.integers(1, 12))
def test_line_cut_equals_the_python_one(data, n):
    from moderator_app.core.formats.streams import python_line_cut

    assert jcs.line_cut(data, n) == python_line_cut(data, n)


def test_pow5_header_is_what_its_generator_writes():
    """`_jcs_pow5.h` (Ryu's tables) is generated: it must be exactly the script's output."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("gen_pow5", root / "scripts" / "gen_pow5_tables.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert (root / "moderator_app" / "core" / "formats" / "_jcs_pow5.h").read_text() == gen.header()


# -- escapes around the SIMD windows -----------------------------------------------------------
# A value string is read from its first backslash in windows of 64 bytes (AVX2) or 32 (SSE2);
# each escape, backslash run, `\u` escape, control character, DEL and non-ASCII character is put
# at every offset across two windows, so that each straddles a window's end somewhere.
_AROUND = (b'\\n', b'\\"', b'\\\\', b'\\\\\\\\', b'\\\\\\"', b'\\u001b', b'\\u001B', b'\\u0041',
           b'\\/', b'\\ud83d\\ude00', b'\\x', b'\xc3\xa9', b'\x7f', b'\x01', b'"')


@needs_jcs
@pytest.mark.parametrize("piece", _AROUND)
def test_escapes_at_every_offset_of_the_windows(piece):
    """The canonical bytes and the MIN and ASCII flags are the reference's wherever the piece
    falls; a line that is not JSON (a raw control character, a stray quote, `\\x`) is
    declined. Passes on the scalar and 32-byte windows as on the 64-byte one (session 17):
    it holds the new window to them."""
    for offset in range(140):
        for tail in (b"", b"y" * 80, b"\\t" * 40):
            line = b'{"a":"\\t' + b"x" * offset + piece + tail + b'"}'
            try:
                value = orjson.loads(line)
            except orjson.JSONDecodeError:
                assert jcs.canonical(line) is None, (offset, line)
                continue
            got = jcs.canonical(line)
            expected = canonical_json(value)
            assert got is not None and got[0] == expected, (offset, line)
            assert bool(got[1] & jcs.ST_MIN) == (expected == line), (offset, line)
            # (ASCII speaks of the text: an escape of a character beyond it clears it too)
            assert bool(got[1] & jcs.ST_ASCII) == (max(expected) < 0x7f), (offset, line)
