"""The C reader of repeated member names (`_skim.first_duplicate`, used by
`jsonline.find_duplicate_member`) names the one the stdlib's parse names, or declines."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import native
from moderator_app.core.formats.jsonline import find_duplicate_member

pytestmark = pytest.mark.skipif(native.SKIM is None, reason="the C accelerator is not built")


def _stdlib(raw: bytes, monkeypatch) -> str | None:
    with monkeypatch.context() as m:
        m.setattr(native, "SKIM", None)
        return find_duplicate_member(raw)


CASES = [
    (b'{"a":1,"a":2}', "a"),
    (b'{"a":{"b":1,"b":2},"a":3}', "b"),  # the inner object closes first
    (b'{"a":1,"b":{"c":[{"d":1,"d":2}]},"a":2}', "d"),
    (b'{"x":[{"a":1},{"b":1,"c":2,"b":3}],"y":{"q":1,"q":2}}', "b"),
    (b'{"a":1,"b":2,"b":3,"a":4}', "b"),  # the earliest second occurrence
    (b'{"a":1,"b":2,"a":3,"b":4}', "a"),
    (b'[{"k":1},{"k":2}]', None),
    (b' {"a" : 1 , "a" : 2} ', "a"),
    (b'{"\\u00e9":1,"\xc3\xa9":2}', "é"),  # an escaped name: the stdlib judges
    (b"{" + b",".join(b'"k%d":0' % (i % 40 if i > 30 else i) for i in range(100)) + b"}",
     "k0"),
    (b"{" + b",".join(b'"k%d":0' % i for i in range(50_000)) + b',"k49999":1,"k7":1}',
     "k49999"),
    (b'{"x":' + b"[" * 70 + b'{"a":1,"a":2}' + b"]" * 70 + b"}", "a"),  # past 64 levels
]


@pytest.mark.parametrize(("raw", "want"), CASES)
def test_first_duplicate_as_the_stdlib(raw, want, monkeypatch):
    json.loads(raw)
    assert _stdlib(raw, monkeypatch) == want
    assert find_duplicate_member(raw) == want


names = st.sampled_from(["a", "b", "c", "é", "", "k1", "\u2028"])
values = st.recursive(
    st.none() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3)
    | st.lists(st.tuples(names, inner), max_size=6).map(lambda ps: ("obj", ps)),
    max_leaves=20)


def _write(v) -> str:
    if isinstance(v, tuple) and v and v[0] == "obj":
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _write(x)
                              for k, x in v[1]) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_write(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(names, values), max_size=8))
def test_random_objects_same_name_as_the_stdlib(pairs):
    raw = _write(("obj", pairs)).encode()
    got = native.SKIM.first_duplicate(raw)
    import moderator_app.core.formats.jsonline as jl

    try:
        json.loads(raw, object_pairs_hook=jl._no_duplicates)
        want = None
    except jl._Duplicate as d:
        want = d.args[0]
    assert got is False or got == want
