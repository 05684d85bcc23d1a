"""The C accelerator on entity tables (QA s32's `uuidmap`, T8; session 33, issue 15): member
names of 32-63 bytes read by `short_name`'s long tail (`long_name`, _jcs.c) and flat objects
holding a short array of integers (`flat_object` with `short_int_array`), held to RFC 8785's
exact bytes, to the general path's flags and to the depth limit.

Each object is read twice, followed by room (the fast path) and by too little (the general
path): bytes, flags and declines must agree, and agree with `canonical_json`.
"""

from __future__ import annotations

import json
import random

import pytest
from test_native_flat_object import PAD, SHORT_PAD, _agree, _obj
from test_native_fuzz import check_canonical

from moderator_app.core.formats import native

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

ARRAYS = ["[]", "[0]", "[1,2]", "[-5,0,639]", "[123456789012]", "[-1,-22,-333]",
          "[7,7,7,7,7,7]"]
ARRAYS_DECLINED = ["[01]", "[-0]", "[1,]", "[,1]", "[1 ,2]", "[[1]]", '["a"]', "[1.5]",
                   "[1,2,3,4,5,6,7,8,9]", "[1,-]", "[1e3]", "[true]", "[1]]", "[1"]


def test_flat_objects_with_integer_arrays_against_the_general_path():
    """4,000 objects of 1-8 members mixing integer arrays with the flat values, in random
    order: the reference's bytes and the general path's flags; with plain arrays only (and
    distinct prefixes, within the 64-byte window) never declined."""
    rng = random.Random(3308)
    scalars = ["0", "42", "-7", "true", "false", "null", '"goblin"', '"[1]"']
    names = ["t", "p", "on", "hp", "box", "id", "zz", "a1", "b2"]
    held = 0
    for _ in range(4000):
        k = rng.randint(1, 8)
        plain = rng.random() < 0.6
        picked = rng.sample(names, k)
        values = [rng.choice(ARRAYS if plain or rng.random() < 0.6 else ARRAYS_DECLINED)
                  if rng.random() < 0.4 else rng.choice(scalars) for _ in picked]
        obj = _obj(picked, values)
        got = _agree(obj)
        held += got
        if plain and len(obj) <= 60:
            assert got, obj
    assert held > 1500


def test_the_uuidmap_entity_is_read_as_the_reference_reads_it():
    """QA s32's entity (`{"t":...,"p":[x,y],"on":...,"hp":...}`) in a table keyed by UUIDs:
    the reference's bytes, with room after it and without."""
    rng = random.Random(32)
    for _ in range(200):
        ents = {}
        for _ in range(rng.randint(1, 20)):
            h = f"{rng.getrandbits(128):032x}"
            ents[f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{h[16:20]}-{h[20:]}"] = {
                "t": rng.choice(["goblin", "coin"]), "p": [rng.randint(0, 639), rng.randint(-9, 479)],
                "on": rng.random() < 0.7, "hp": rng.randint(0, 9)}
        text = json.dumps({"frame": 1, "entities": ents}, separators=(",", ":")).encode()
        assert check_canonical(text) is not None, text
        assert check_canonical(text[:-1] + PAD + b"}") is not None


def test_an_array_inside_a_flat_object_at_the_depth_limit():
    """An object of integer arrays at the deepest level an object may be read at (its arrays
    one level deeper than the engine reads): declined as the general path declines it; one
    level up, read."""
    obj = b'{"p":[1,2],"a":3}'
    top = JCS.MAX_DEPTH
    for outer, held in ((top - 2, True), (top - 1, False)):  # obj at top - 1, then top
        for pad in (PAD, SHORT_PAD):
            text = b'{"a":' * outer + obj + (pad + b"}") * outer
            got = check_canonical(text)
            assert (got is not None) == held, (outer, pad)


@pytest.mark.parametrize("room", [0, 1, 2, 17, 33, 40, 100])
def test_names_of_every_length_up_to_70_bytes(room):
    """Names of 1-70 bytes (short_name's one and two loads, long_name's three and four, the
    general path past them), alone, in and out of order, with `room` bytes of the line after
    them: the reference's bytes, never declined."""
    for n in range(1, 71):
        name = "".join(chr(97 + (i * 7) % 26) for i in range(n))
        for names in ([name, "_"], ["_", name], [name, name + "x"], [name + "x", name]):
            body = ",".join(f'"{k}":{{"v":[{i}]}}' for i, k in enumerate(names))
            text = ("{" + body + ',"zz":"' + "p" * room + '"}').encode()
            assert check_canonical(text) is not None, text
    for bad in ('"' + "a" * 40 + '\\n":1', '"' + "a" * 40 + '\u00e9":1', '"' + "a" * 40 + '" :1',
                '"' + "a" * 50 + '"1'):
        text = ("{" + bad + ',"zz":"' + "p" * room + '"}').encode()
        check_canonical(text)


def test_flat_objects_whose_member_orders_repeat_change_and_come_back():
    """flat_object keeps the last object's ranking (session 35): runs of objects with the same
    names in the same order, in another order, with one name more or less, with names alike
    in their first 8 bytes (the general path's), one after another in a line and over lines:
    the reference's bytes and sound facts every time."""
    rng = random.Random(3508)
    orders = [["t", "p", "on", "hp"], ["hp", "on", "p", "t"], ["p", "t", "hp", "on"],
              ["t", "p", "on"], ["t", "p", "on", "hp", "id"], ["position_x", "position_y", "t"],
              ["tt", "p", "on", "hp"], ["a", "b"], ["b", "a"]]
    values = ["0", "42", "-7", "true", "null", '"goblin"', "[1,2]", "[-5,0,639]"]
    for _ in range(400):
        objs = []
        for _ in range(rng.randint(1, 12)):
            names = rng.choice(orders) if rng.random() < 0.4 or not objs else objs[-1][0]
            objs.append((names, [rng.choice(values) for _ in names]))
        text = ("{\"rows\":[" + ",".join(
            "{" + ",".join(f'"{k}":{v}' for k, v in zip(names, vals, strict=True)) + "}"
            for names, vals in objs) + "],\"n\":1}").encode()
        got = check_canonical(text)
        assert got is not None, text
        assert got[0] == json.dumps(json.loads(text), sort_keys=True,
                                    separators=(",", ":")).encode(), text
