"""The C accelerator's member ranks (`prefix_ranks`, `prefix_ranks_u16` and their AVX2 form
`ranks_avx2` in _jcs.c; session 37, issue 15) held to RFC 8785's member order.

An object whose names differ in their first 8 bytes is written member by member at its rank,
the count of names whose prefix sorts below its own; from 5 members on, and where the CPU has
AVX2, those counts are four 64-bit compares an instruction. Objects of 2-17 members (both
sides of the 5 and 16 edges), their names ASCII, non-ASCII below U+E000, in U+E000-U+FFFF and
outside the BMP (UTF-16's order differs from code points' there), with 8-byte prefixes
distinct or shared, in shuffled, code point and UTF-16 order, are held to the reference at
each SIMD level this CPU has: the same bytes, and the sorted facts exact.
"""

from __future__ import annotations

import json
import random

import pytest
from test_native_fuzz import ST, check_canonical, reference

from moderator_app.core.formats import native

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

#: each level this CPU has up to AVX2 (0: no SSSE3 path, 1 SSSE3, 2 AVX2; 3 takes AVX2's ranks)
LEVELS = list(range(min(JCS.simd(), 2) + 1)) if JCS is not None else []

# first characters of each range: ASCII, Latin, CJK, halfwidth (U+E000-U+FFFF), non-BMP
_STARTS = ["a", "z", "A", "_", "é", "ß", "字", "ｱ", "ｶ", "\uffee", "\U0001f47e", "\U0001d11e",
           "\U00010000", "\U0010fffd"]


def _names(rng: random.Random, n: int, shared: bool) -> list[str]:
    """n distinct names; `shared`: some alike in their first 8 bytes (sort_mems decides)."""
    names: set[str] = set()
    while len(names) < n:
        name = "".join(rng.choice(_STARTS) for _ in range(rng.randint(1, 4)))
        if shared and rng.random() < 0.3:
            name = "prefix__" + name
        names.add(name)
    return list(names)


def _u16(name: str) -> bytes:
    return name.encode("utf-16-be")


@pytest.fixture(params=LEVELS, ids=[f"simd{n}" for n in LEVELS])
def simd(request):
    was = JCS.set_simd(request.param)
    yield request.param
    JCS.set_simd(was)


@pytest.mark.parametrize("shared", [False, True])
def test_objects_of_2_to_17_members_in_every_order(simd, shared):
    rng = random.Random(37 + shared)
    for n in range(2, 18):
        for _ in range(12):
            names = _names(rng, n, shared)
            for order in ("shuffled", "cp", "u16"):
                if order == "shuffled":
                    rng.shuffle(names)
                else:
                    names.sort(key=_u16 if order == "u16" else None)
                value = {"m": {k: rng.choice([1, "x", True, None, -7]) for k in names}}
                for text in (json.dumps(value, ensure_ascii=False, separators=(",", ":")),
                             json.dumps(value, ensure_ascii=False)):
                    raw = text.encode()
                    got = check_canonical(raw)
                    assert got is not None and got[0] == reference(raw), (simd, names)
                    in_u16 = names == sorted(names, key=_u16)
                    in_cp = names == sorted(names)
                    assert bool(got[1] & ST["ST_SORTED_U16"]) == in_u16, (simd, names)
                    assert bool(got[1] & ST["ST_SORTED_CP"]) == in_cp, (simd, names)


def test_top_bit_prefixes_rank_above_ascii(simd):
    """Names whose first byte is 0x80 or more (the prefix's top bit, the compare's sign):
    after every ASCII name, in each order, at 5-16 members."""
    for n in range(5, 17):
        names = [chr(0x61 + i) for i in range(n // 2)] + ["é" + chr(0x61 + i)
                                                          for i in range(n - n // 2)]
        for names_in in (names, names[::-1], names[1::2] + names[::2]):
            raw = json.dumps({k: 0 for k in names_in}, ensure_ascii=False).encode()
            assert check_canonical(raw)[0] == reference(raw), (simd, names_in)


# number tokens spelled as writers do and as no writer does, each with its RFC 8785 form in
# the reference: small and big integers (2^53 and past it: the Python path's), floats at the
# spelling edges, -0, an upper-case exponent, a zero fraction
_TOKENS = [b"0", b"7", b"-12", b"255", b"9007199254740991", b"9007199254740992",
           b"18446744073709551616", b"1e21", b"1e+21", b"5e-324", b"4.9e-324", b"-0", b"-0.0",
           b"1E3", b"1.0", b"1e-7", b"0.000001", b"123456789012345680000", b"-249.7535",
           b"[1,[2,[3,[4]]]]", b"[]", b'"x"', b"true", b"null"]


def test_differential_objects_of_tricky_numbers_under_astral_names(simd):
    """A differential fuzz of what the ranks order: objects of 2-16 members under names from
    every range (UTF-16 order apart from code points' past U+E000), each value a token from
    _TOKENS, nested one or two deep, in shuffled and UTF-16 order: C's bytes and facts are the
    reference's, or C declines (the Python path's: integers past 2^53 - 1, among others)."""
    rng = random.Random(3700 + simd)
    rows = taken = 0
    for _ in range(400):
        names = _names(rng, rng.randint(2, 16), rng.random() < 0.2)
        if rng.random() < 0.5:
            names.sort(key=_u16)
        else:
            rng.shuffle(names)
        members = []
        for k in names:
            token = rng.choice(_TOKENS)
            if rng.random() < 0.2:  # an object inside, ranked on its own
                token = b'{"' + rng.choice(_STARTS).encode() + b'":' + token + b',"a":1}'
            members.append(json.dumps(k, ensure_ascii=rng.random() < 0.3).encode() + b":" + token)
        raw = b'{"m":{' + b",".join(members) + b'},"n":[' + rng.choice(_TOKENS) + b"]}"
        rows += 1
        taken += check_canonical(raw) is not None
    assert rows == 400 and taken >= 80, (rows, taken)  # (101-108 of 400 at levels 0-2)
