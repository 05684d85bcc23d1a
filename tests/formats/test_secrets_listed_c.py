"""The listed-join view in C (session 36, escape; issue 15): `_unescape.listed` writes each list
of string literals joined by an empty string as the one literal it makes, byte for byte as the
regex and Python of `secrets_join._listed_view_py` do. A line made only of tiny lists
(`["ab", "cd"].join("")`) cost ~45 s of CPU per 512 MiB to verify with the regex, the bar 30 s.
Exact shapes at the pattern's edges (16 / 17 spaces, 255 / 256 items, 256 / 257 characters, an
escaped quote on one side) and fuzzed lines of the pattern's own pieces."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import native
from moderator_app.core.formats import secrets_join as sj

C = native.UNESCAPE
needs_c = pytest.mark.skipif(C is None, reason="the C accelerator is not built")
FUZZ = settings(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PIECES = [b"[", b"]", b"(", b")", b'"', b"'", b"\\", b",", b" ", b"\t", b"\n", b"\\n", b"\\t",
          b"\\r", b"\x0b", b"a", b"ab", b"x,y", b".join(", b'.join("")', b'""', b"''", b'\\"',
          b"n", b'["ab", "cd"]', b'"".join([', b"''.join((", b"a" * 256, b"a" * 257]
LIT = [b'"ab"', b"'cd'", b'\\"ef\\"', b'"g\'h"', b"'i\"j'", b'"k,l"', b'"m\\"', b'\\"n"']
SEP = [b",", b", ", b" , ", b",\\n    ", b",\n", b"," + b" " * 16, b"," + b" " * 17, b"\t,\t"]


def _both(data: bytes) -> tuple[object, object]:
    return C.listed(data), sj._listed_view_py(data)


@needs_c
@pytest.mark.parametrize(("data", "want"), [
    (b'x = ["ab", "cd"].join("") y', (b'x = "abcd" y', 5)),
    (b"t = ''.join((\\n    'ab',\\n    'cd',\\n)) ok", (b't = "abcd" ok', 5)),
    (b'[\\"ab\\", \\"cd\\"].join(\\"\\")', (b'"abcd"', 1)),
    (b'["a,b", "c\'d"].join("")', (b'"abcd"', 1)),  # (what Python's translate removes)
    (b'["ab", "cd"].join(",")', None),
    (b'["ab"].join("")', None),  # (one literal: not a list)
    (b"[" + b" " * 17 + b'"ab", "cd"].join("")', None),
    (b"[" + b" " * 16 + b'"ab", "cd"].join("")', (b'"abcd"', 1)),
    (b"[" + b", ".join([b'"a"'] * 256) + b'].join("")', (b'"' + b"a" * 256 + b'"', 1)),
    # (session 36, review V4: 4,096 items, not 256; an empty item is one)
    (b"[" + b", ".join([b'"a"'] * 4096) + b'].join("")', (b'"' + b"a" * 4096 + b'"', 1)),
    (b"[" + b", ".join([b'"a"'] * 4097) + b'].join("")', None),
    (b'["ab", "", \'\', "cd"].join("")', (b'"abcd"', 1)),
    (b'["", ""].join("")', (b'""', 1)),
    (b'"".join(["ab",""])', (b'"ab"', 1)),
    (b'["' + b"a" * 256 + b'", "b"].join("")', (b'"' + b"a" * 256 + b'b"', 1)),
    (b'["' + b"a" * 257 + b'", "b"].join("")', None),
    (b'[["ab", "cd"].join("")]', (b'["abcd"]', 2)),
])
def test_the_listed_view_in_c_is_the_python_view(data, want):
    assert _both(data) == (want, want)


@needs_c
def test_many_tiny_lists_and_a_key_after_them():
    rng = random.Random(36)
    lists = b"; ".join(b'["%s", "%s"].join("")' % (bytes(rng.choices(b"abcxyz", k=2)),
                                                    bytes(rng.choices(b"abcxyz", k=2)))
                       for _ in range(20000))
    data = lists + b'; k = ["GOCSPX-", "QA36lis", "tedJoin"].join("")'
    view, first = C.listed(data)
    assert (view, first) == sj._listed_view_py(data)
    assert view.endswith(b'k = "GOCSPX-QA36listedJoin"') and first == 1
    assert view.count(b"join") == 0


@needs_c
@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join))
def test_fuzzed_pieces_read_alike(data):
    a, b = _both(data)
    assert a == b


@needs_c
@FUZZ
@given(st.lists(st.tuples(st.sampled_from(LIT), st.sampled_from(SEP)), min_size=1,
                max_size=6),
       st.sampled_from([b'].join("")', b"].join('')", b'] .join( \\"\\" )', b").join('')",
                        b'],].join("")']),
       st.sampled_from([b"", b"x = [", b"["]), st.sampled_from([b"", b" ,", b"\\n"]))
def test_fuzzed_lists_read_alike(items, close, head, tail):
    body = b"".join(lit + sep for lit, sep in items[:-1]) + items[-1][0] + tail
    data = head + body + close
    python = b'"".join([' + body + b"])"
    assert _both(data)[0] == _both(data)[1]
    assert _both(python)[0] == _both(python)[1]
