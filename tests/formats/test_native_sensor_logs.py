"""The C accelerator on a sensor log as Python's `json.dumps` writes it (QA s37 `sensorjcs`;
session 38, issue 15): member names in `\\uXXXX` escapes (surrogate pairs beyond the BMP),
remembered once decoded (`KeyMemo` in _jcs.c), and whole floats spelled `21.0` / `-0.0`,
written without building their three spellings.

Held to the reference (`canonical_json`) byte for byte, with the spelling facts checked; a
name's second reading (from the memo) gives the facts its first gave; a chain of such lines
reports the same on every engine.
"""

from __future__ import annotations

import json
import random

import pytest
from test_native_fuzz import ST, assert_same_reports, check_canonical, reference
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

LEVELS = list(range(min(JCS.simd(), 2) + 1)) if JCS is not None else []

# names: ASCII, BMP (2 and 3 UTF-8 bytes), beyond the BMP (a surrogate pair each), one escape
# alone (6 bytes: shorter than the memo's 8-byte hash load), names about the memo's 48-byte
# bound spelled, and names whose escapes u_run does not take (`"`, `\\`, a control character)
_NAMES = ["temp_c", "\u0394p_hPa", "\u00b5g_m3", "\uff5a_axis", "\U0001d6fc_rad", "CO\u2082",
          "\u00e9", "e", "\U0001f321_state", "z", "\u00e9\u00e9", "\U0001f321",
          "\u00e9" * 7 + "x" * 4, "\u00e9" * 7 + "x" * 5, "\u00e9" * 7 + "x" * 6,
          "\u00e9" * 8, "\U0001f321" * 3 + "ab", "q\u00e9\"x", "\u00e9\\", "\u00e9\n",
          "\u00e9\u00e8", "\u00e8\u00e9", "\uffee", "\ue000k"]

#: float and integer tokens as writers spell them (`21.0`, `-0.0`: json.dumps' whole floats)
_TOKENS = ["-0.0", "0.0", "21.0", "-183.0", "100.0", "999999999999999.0", "-999999999999999.0",
           "1234567890123456.0", "9999999999999999.0", "9007199254740993.0", "1e21", "1e+21", "5e-324", "-0", "0", "1E3", "1.0", "1e-05",
           "1e-5", "0.00001", "9007199254740991", "9007199254740992", "0.30000000000000004",
           "7.404962534920277e+22", "-9.005264483619131e-08", "1.5e-323", "-0.00", "0.10",
           "21.00", "21.5", "1.7976931348623157e+308", "-76", "4925758830275706", "true",
           "1.5e-07", "-1.5e-07", "1e-08", "-9.005264483619131e-08", "1e-09", "1.5e-7",
           "1.5e-10", "1e-06", "1.5e-007", "1.5E-07", "1e+022", "2.5e-08", "3e-09", "3.5e-05",
           "-3.5e-05", "1.5e-06", "9.006349033914973e-06", "3.5e-5", "3.5e-6", "1.5e-006",
           "3.50e-05", "0.35e-04", "35e-06", "1e-04", "1.5e-04", "1.5e-09", "1.5e-10"]


def _spell_name(name: str, rng: random.Random) -> str:
    """json.dumps' spelling mostly (ensure_ascii); at times the raw UTF-8, or uppercase hex
    (no known writer's)."""
    r = rng.random()
    if r < 0.75:
        return json.dumps(name)
    if r < 0.9:
        return json.dumps(name, ensure_ascii=False)
    return "".join(c.upper() if c in "abcdef" and i > 0 and name and not name.isascii() else c
                   for i, c in enumerate(json.dumps(name)))


def _row(rng: random.Random) -> bytes:
    sep, col = (", ", ": ") if rng.random() < 0.7 else (",", ":")
    spelled = {n: _spell_name(n, rng) for n in _NAMES}  # one spelling a name a row

    def obj(k: int) -> str:
        names = rng.sample(_NAMES, k)
        return "{" + sep.join(spelled[n] + col + rng.choice(_TOKENS) for n in names) + "}"

    readings = sep.join(obj(rng.randint(1, 7)) for _ in range(rng.randint(2, 9)))
    return ("{" + f'"readings"{col}[{readings}]{sep}"ok"{col}true' + "}").encode()


@pytest.fixture(params=LEVELS, ids=[f"simd{n}" for n in LEVELS])
def simd(request):
    was = JCS.set_simd(request.param)
    yield request.param
    JCS.set_simd(was)


def test_differential_sensor_rows(simd):
    """Rows of 2-9 objects of 1-7 members whose names repeat within the row (the memo's
    hits), spelled as json.dumps writes them and otherwise, each value a token from _TOKENS:
    C's bytes and facts are the reference's, or C declines (an integer past 2^53 - 1)."""
    rng = random.Random(3800 + simd)
    rows = taken = 0
    for _ in range(600):
        rows += 1
        taken += check_canonical(_row(rng)) is not None
    assert rows == 600 and taken >= 200, (rows, taken)


@pytest.mark.parametrize("name", _NAMES)
@pytest.mark.parametrize("spelling", ["dumps", "utf8", "upper"])
def test_a_remembered_name_gives_the_facts_of_its_first_reading(simd, name, spelling):
    """A name read twice in a call (the second from the memo) writes what its first did and
    leaves the line's facts as one reading of it does (ASCII, MIN, MINX, EA, NOWRITER,
    the sort facts)."""
    spelled = {"dumps": json.dumps(name), "utf8": json.dumps(name, ensure_ascii=False),
               "upper": json.dumps(name).replace("\\ud", "\\uD")}[spelling]
    pad = '"pad": "' + "x" * 80 + '"'  # (the memo reads 64 bytes on from a name)
    for tail in ("1", "21.0", '"x"'):
        once = f'{{"a": {{{spelled}: {tail}}}, "b": {{"z": {tail}}}, {pad}}}'.encode()
        twice = f'{{"a": {{{spelled}: {tail}}}, "b": {{{spelled}: {tail}}}, {pad}}}'.encode()
        got1, got2 = check_canonical(once), check_canonical(twice)
        assert got1 is not None and got2 is not None, (once, twice)
        assert got2[0] == reference(twice)
        assert got2[1] == got1[1], (twice, got1[1], got2[1])


@pytest.mark.parametrize("token", ["21.0", "-183.0", "0.0", "-0.0", "100.0",
                                   "999999999999999.0", "-999999999999999.0"])
def test_whole_floats_keep_the_writers_facts(token):
    """`ddd.0` is how json.dumps and orjson both spell a whole float: written as its integer
    digits (`0` for either zero), the line stays theirs (F_REPR, F_ORJSON) and is a float
    line, only RFC 8785's own spelling (MIN) lost."""
    text = f'{{"a":{token},"b":[{token}]}}'.encode()
    out, flags = check_canonical(text)
    assert out == reference(text)
    assert flags & ST["ST_F_REPR"] and flags & ST["ST_F_ORJSON"] and flags & ST["ST_FLOAT"]
    assert not flags & ST["ST_MIN"] and flags & ST["ST_MINX"]


@pytest.mark.parametrize("token", ["1.5e-07", "-1.5e-07", "1e-08", "-9.005264483619131e-08",
                                   "1e-09", "2.5e-08", "3.5e-05", "-3.5e-05", "1e-05",
                                   "1.5e-06", "9.006349033914973e-06"])
def test_repr_tiny_exponents_keep_repr_only(token):
    """`1.5e-07`, `3.5e-05` are repr's spellings alone (RFC 8785 writes `1.5e-7` and
    `0.000035`): the ES6 spelling is written, the line stays json.dumps' (F_REPR), not
    orjson's nor minimal."""
    text = f'{{"a":{token},"b":[{token}]}}'.encode()
    out, flags = check_canonical(text)
    assert out == reference(text)
    assert flags & ST["ST_F_REPR"] and flags & ST["ST_FLOAT"] and flags & ST["ST_MINX"]
    assert not flags & ST["ST_MIN"] and not flags & ST["ST_F_ORJSON"]


def _sensor(rng: random.Random, i: int) -> dict:
    names = rng.sample([n for n in _NAMES if n.isprintable()], 5)
    values = [-0.0, 21.0, -183.0, 1e21, 5e-324, 1e-05, 7.404962534920277e+22, 0.1 + 0.2, 3,
              2**53 - 1]
    return {"sensor": f"s-{i}", "readings": [{n: rng.choice(values) for n in names[:k]}
                                             for k in (2, 3, 5)], "ok": True}


@pytest.mark.parametrize("block", [700, 1 << 20])
def test_reports_identical_on_a_dumps_spelled_sensor_chain(monkeypatch, block):
    """A chain of sensor lines spelled by json.dumps (the memo carried from line to line
    within a block), valid and with one reading edited: every engine reports the same, the
    edit at its line."""
    rng = random.Random(38)
    events = make_run_events(30, seed=38, text_bytes=60)
    for i in range(4, 26):
        events[i]["payload"] = _sensor(rng, i)
    lines = [json.dumps(e).encode() for e in chain_events(events)]
    rep = assert_same_reports(join(lines), monkeypatch, block)
    assert rep["verdict"] == "pass"
    edited = json.loads(lines[12])
    edited["payload"]["readings"][0][next(iter(edited["payload"]["readings"][0]))] = 22.0
    lines[12] = json.dumps(edited).encode()
    rep = assert_same_reports(join(lines), monkeypatch, block)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [13]


def test_a_block_gives_each_line_the_facts_it_has_alone():
    """In a block the memo carries names from line to line, so most of a line's names come
    from it: each line's facts (its status key: spelled by json.dumps with ensure_ascii, not
    ASCII in RFC 8785's form, its floats repr's) are those the line has summarised alone,
    where every name is decoded afresh."""
    import moderator_app.core.verify.trajectory as traj
    from moderator_app.core.formats.secrets import MARKERS

    rng = random.Random(3801)
    events = make_run_events(30, seed=38, text_bytes=60)
    for i in range(4, 26):
        events[i]["payload"] = _sensor(rng, i)
    lines = [json.dumps(e).encode() for e in chain_events(events)][4:26]
    whole = JCS.summarise(join(lines), traj.SCHEMA, MARKERS)
    assert whole is not None and whole[0] == len(lines)
    alone = set()
    for line in lines:
        got = JCS.summarise(join([line]), traj.SCHEMA, MARKERS)
        assert got is not None
        alone.update(got[11])
    assert sorted(whole[11]) == sorted(alone)
