"""The C accelerator's flat small objects (`flat_object`, _jcs.c; session 26, issue 15) held to
RFC 8785's exact bytes, to the general path's flags, and to the chain's verdicts.

An object of at most 64 bytes with 80 readable from its `{`, whose members are printable ASCII
names with `true`, `false`, `null`, a plain integer of up to 15 digits or an ASCII string
without escapes, is read from masks of its bytes and written member by member at its rank;
anything else is declined to the general path. Both are run on the same object here: alone or
with under 80 bytes after it (the general path), and followed by padding (the flat one), whose
bytes and flags must agree, and agree with `canonical_json`. The values that must be declined
(`-0`, `01`, floats, 16 digits, escapes, whitespace, names alike in 8 bytes, repeated names,
braces and quotes inside names and strings, invalid JSON) are mixed into the same objects.
"""

from __future__ import annotations

import json
import random

import pytest
from test_native_fuzz import _dump, assert_same_reports, check_canonical
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

PAD = b',"zz":"' + b"p" * 100 + b'"'  # after the object: its flat reading has room
SHORT_PAD = b',"zz":"p"'  # too little room after the object: the general path reads it

PLAIN = ["0", "7", "-7", "42", "-999", "123456789012345", "-123456789012345", "true",
         "false", "null", '""', '"x"', '"a,b}c:d"', '"sp ace"', '"q{r"', '"[1]"']
DECLINED = ["-0", "01", "-01", "00", "1.5", "-2.0", "1e3", "1E+3", "1234567890123456",
            "9007199254740991", "9007199254740993", "9999999999999999", "-9999999999999999",
            '"\\n"', '"\\u00e9"', '"\u00e9"', "tru", "nul", "falsey",
            "true1", "-", "--1", "1-", "[]", "{}", '{"a":1}', "[1,2]", '"a"1', "1\"a\"",
            "0x1", "+1", " 1", "1 ", ""]
NAMES = ["a", "b", "ab", "ba", "z", "y0", "abcdefgh", "abcdefgi", "q1234567890", "_", "A", "",
         "k:", "k,", "k}", "k{", "k]", "x y", "abcdefgh1", "abcdefgh2", "\u00e9", "t\\n"]


def _obj(names: list[str], values: list[str]) -> bytes:
    parts = []
    for k, v in zip(names, values, strict=True):
        name = f'"{k}"' if "\\" in k else json.dumps(k, ensure_ascii=False)
        parts.append(f"{name}:{v}")
    return ("{" + ",".join(parts) + "}").encode()


def _both(obj: bytes):
    """canonical() of the object with padding after it and with too little: the two results
    (or None each). Where the reference refuses the text both must decline."""
    wide = check_canonical(b'{"a":' + obj + PAD + b"}")
    narrow = check_canonical(b'{"a":' + obj + SHORT_PAD + b"}")
    return wide, narrow


def _agree(obj: bytes) -> bool:
    """The flat and the general readings give the same bytes (but for the padding) and the
    same flags, or both decline; whether the flat one held the object."""
    wide, narrow = _both(obj)
    assert (wide is None) == (narrow is None), obj
    if wide is None:
        return False
    assert wide[0].replace(PAD, SHORT_PAD) == narrow[0], obj
    assert wide[1] == narrow[1], (obj, wide[1], narrow[1])
    return True


def test_random_flat_objects_against_the_general_path():
    """5,000 objects of 1-17 members over plain and declined values and odd names, in random
    order: the reference's bytes and the general path's flags; the plain ones (distinct
    prefixes, no declined value) never declined."""
    rng = random.Random(2626)
    held = 0
    for _ in range(5000):
        n = rng.choice([1, 2, 3, 4, 5, 5, 6, 8, 12, 16, 17])
        plain = rng.random() < 0.6
        names = rng.sample(NAMES[:12] if plain else NAMES, min(n, 12 if plain else len(NAMES)))
        values = [rng.choice(PLAIN if plain or rng.random() < 0.7 else DECLINED)
                  for _ in names]
        obj = _obj(names, values)
        got = _agree(obj)
        held += got
        if plain and len(set(k[:8] for k in names)) == len(names):
            assert got, obj
    assert held > 2000


def test_every_length_up_to_the_window_and_past_it():
    """Objects growing a member at a time from 2 to ~90 bytes (past the 64-byte window) and
    names of every length, in and out of order, with the padding starting 0-40 bytes later:
    the reference's bytes, never declined."""
    for size in range(1, 14):
        names = [f"{chr(ord('m') - i)}{'x' * (i % 3)}" for i in range(size)]
        for values in (["1"] * size, ["true"] * size, ['"abc"'] * size,
                       [str(i * 37 - 100) for i in range(size)]):
            for order in (names, sorted(names), list(reversed(names))):
                obj = _obj(order, values)
                assert _agree(obj), obj
                for extra in range(0, 41, 3):
                    text = b'{"a":' + obj + b',"zz":"' + b"p" * extra + b'"}'
                    assert check_canonical(text) is not None, text


def test_each_declined_value_and_name_alone():
    """Each value that the flat reading must not take, between plain members, in both orders:
    what the reference says (declined, or its bytes through the general path)."""
    for bad in DECLINED:
        for obj in (_obj(["b", "a", "c"], ["1", bad, "true"]), _obj(["a", "b"], [bad, "2"]),
                    _obj(["z", "y"], ["null", bad])):
            _agree(obj)
    for bad in ("k:", "k,", "k}", "k{", "k]", "x y", "\u00e9", "t\\n", ""):
        for obj in (_obj(["b", bad], ["1", "2"]), _obj([bad, "a"], ["1", "2"])):
            assert _agree(obj) == (json.loads(obj.decode()) is not None), obj
    for obj in (b'{"a":1,"a":2}', b'{"b":1,"a":2,"b":3}', b'{"abcdefgh1":1,"abcdefgh0":2}',
                b'{"a":1 ,"b":2}', b'{"a" :1}', b'{"a":1,}', b'{"a"1}', b'{a:1}',
                b'{"a":1"b":2}', b'{"a":"x"y,"b":1}', b'{"a":"x}', b'{"a":1\t}',
                b'{"a":"x";"b":1}', b'{"a":"x"y"b":1}', b'{"b":2,"a":"x"y}', b'{"a"x1}',
                b'{"a";true,"b":2}', b'{"b":1,"a" null}'):
        _agree(obj)


def test_flat_objects_among_spaced_separators():
    """A flat object (bare separators) in a line spelled with json.dumps' spaced ones: a line
    mixing the two is declined, whichever path reads the object; spaced inside, the general
    path reads it and the line is said spaced."""
    for obj in (b'{"b":1,"a":2}', b'{"a":true}', b'{"b": 1, "a": 2}'):
        wide = JCS.canonical(b'{"a": ' + obj + b', "zz": "' + b"p" * 100 + b'"}')
        narrow = JCS.canonical(b'{"a": ' + obj + b', "zz": "p"}')
        assert (wide is None) == (narrow is None) == (b": " not in obj), obj
        if wide is not None:
            assert wide[1] == narrow[1] and wide[1] & JCS.ST_SPACED, obj


def test_flat_objects_in_order_keep_the_sorted_flags():
    """An object already in RFC 8785 order is said sorted, one out of order is not, as the
    general path says (the spelling facts of sorted writers)."""
    sorted_bits = JCS.ST_SORTED_CP | JCS.ST_SORTED_U16
    for names in (["a", "b", "c"], ["c", "b", "a"], ["a", "c", "b"], ["A", "_", "a"],
                  ["ab", "b"], ["b", "ab"]):
        obj = _obj(names, ["1", "true", '"s"'][:len(names)])
        out, flags = check_canonical(b'{"a":' + obj + PAD + b"}")
        inner = canonical_json(json.loads(obj))
        assert (flags & sorted_bits == sorted_bits) == (inner == obj), obj


def test_flat_objects_in_a_chain(monkeypatch):
    """Flat objects in a valid chain (every engine passes it), then one integer changed in
    line 9: chain.edited there alone."""
    rng = random.Random(26)
    events = make_run_events(24, seed=9, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {"rows": [
            {rng.choice("abcdefgh") + str(j): rng.choice([rng.randrange(-50, 300), True, None,
                                                         "ok"]) for j in range(4)}
            for _ in range(20)]}
    lines = [_dump(e) for e in chain_events(events)]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    text = lines[8]
    at = text.index(b":null")
    lines[8] = text[:at] + b":0" + text[at + 5:]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "fail"
    edits = [f for f in rep["findings"] if f["rule"] == "chain.edited"]
    assert [f["line"] for f in edits] == [9], rep["findings"]
