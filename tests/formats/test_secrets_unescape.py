"""The escape views' decoders in C (`_unescape.c`, session 34, issue 15, review R16) against the
Python ones they replace (`secrets_decode._unquote_py`, `_unescape_py`): the same bytes on
every shape, on fuzzed escape-heavy bytes and on random bytes, and the same decoded views of a
line whose escapes straddle the 64 KiB pieces; a key in a 15.7 MB line of escapes is found
either way. In Python each escape cost ~0.13 s of CPU a MB (120 MB of `%41` lines: 15.3 s to
verify); the C pass is one loop over the bytes."""

from __future__ import annotations

import os
import random
import shutil
import sys
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import native
from moderator_app.core.formats import secrets as sec
from moderator_app.core.formats import secrets_bytes as sb
from moderator_app.core.formats import secrets_decode as sd
from moderator_app.core.formats import secrets_join as sj
from moderator_app.core.formats.secrets_public import scan_public

C = native.UNESCAPE
pytestmark = pytest.mark.skipif(C is None, reason="the C accelerator is not built")
FUZZ = settings(max_examples=400, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# the bytes an escape is made of, and a few that break one
ALPHABET = b"%\\&#;/xXu0123456789aAbBcCdDfFgG; z\xff\n{}"
GITHUB = "ghp_" + "S34unescapeTokenAbCdEfGhIjKlMnOpQrSt"

UNQUOTE = [
    (b"%41%42", b"AB"), (b"%%41", b"%A"), (b"%4%41", b"%4A"), (b"%4", b"%4"), (b"%", b"%"),
    (b"a%2fb%2F", b"a/b/"), (b"%g1%1g", b"%g1%1g"), (b"%ff", b"\xff"), (b"", b""),
    (b"%41\xff%", b"A\xff%"),
]
UNESCAPE = [
    (b"\\x41\\x42", b"AB"), (b"\\\\x41", b"A"), (b"\\\\\\x41", b"\\A"), (b"\\x4", b"\\x4"),
    (b"\\xff\\x41", b"\\xffA"), (b"\\\\xff", b"\\\\xff"), (b"&#65;&#066;", b"AB"),
    (b"&#6;", b"&#6;"), (b"&#1234;", b"&#1234;"), (b"&#200;", b"&#200;"), (b"&#65", b"&#65"),
    (b"&#x41;&#X42;", b"AB"), (b"&#x4;", b"&#x4;"), (b"&#xff;", b"&#xff;"), (b"&&#65;", b"&A"),
    (b"\\&#65;\\x41", b"\\AA"), (b"&#", b"&#"), (b"\\", b"\\"), (b"", b""),
]

UNICODE = [
    (b"\\u0041\\u0042", b"AB"), (b"\\\\u0041", b"A"), (b"\\\\\\u0041", b"\\A"),
    (b"\\u004", b"\\u004"), (b"\\u00e9\\u0041", b"\\u00e9A"), (b"\\\\u20ac", b"\\\\u20ac"),
    (b"\\u007F\\u007f", b"\x7f\x7f"), (b"\\u0g41", b"\\u0g41"), (b"\\uu0041", b"\\uu0041"),
    (b"\\", b"\\"), (b"", b""),
]


@pytest.mark.parametrize(("raw", "want"), UNICODE)
def test_unicode_decodes_each_u_escape_under_128_and_keeps_the_rest(raw, want):
    assert sd._unicode_py(raw) == want
    assert C.unicode(raw) == want

# ES6's `\u{XX}` (`_U_BRACE`: up to 4 zeros taken as they stand, then [0-7] and a hex digit)
UBRACE = [
    (b"\\u{41}\\u{0042}", b"\\u0041\\u0042"), (b"\\\\u{41}", b"\\\\u0041"),
    (b"u{41}", b"u{41}"), (b"\\\\\\u{41}", b"\\\\\\u0041"), (b"\\u{000041}", b"\\u0041"),
    (b"\\u{0000041}", b"\\u{0000041}"),
    (b"\\u{000000}", b"\\u0000"), (b"\\u{00000a}", b"\\u000a"), (b"\\u{07}", b"\\u{07}"),
    (b"\\u{0007}", b"\\u{0007}"), (b"\\u{7f}", b"\\u007f"), (b"\\u{80}", b"\\u{80}"),
    (b"\\u{1F600}", b"\\u{1F600}"), (b"\\u{41", b"\\u{41"), (b"\\u{\\u{41}", b"\\u{\\u0041"),
    (b"{41}", b"{41}"), (b"x{41}u{", b"x{41}u{"), (b"u{4g}", b"u{4g}"), (b"", b""),
]


@pytest.mark.parametrize(("raw", "want"), UBRACE)
def test_ubrace_writes_each_es6_escape_under_128_as_a_u_escape_and_keeps_the_rest(raw, want):
    assert sd._ubrace_py(raw) == want
    assert C.ubrace(raw) == want


# where two string literals meet (`secrets_join._BOUNDARY`): an operator or white space between
# quotes, or a shell's quotes side by side (`'a'"b"`, as a JSON line writes it `'a'\\"b\\"`)
JOINS = [
    (b"'a'\\\"b\\\"'c'", b"'abc'"), (b"'a'\"b\"", b"'ab\""), (b'"a" + "b"', b'"ab"'),
    (b"'a' || 'b'", b"'ab'"), (b'"a" .. "b"', b'"ab"'), (b'"a"\\n  "b"', b'"ab"'),
    (b'"a"' + b" " * 16 + b'+ "b"', b'"ab"'), (b'"a"' + b" " * 17 + b'+ "b"', b'"a"' + b" " * 17
                                                + b'+ "b"'),
    (b'"a"' + b" " * 17 + b'"b"', b'"a"' + b" " * 17 + b'"b"'), (b'"a"+ +"b"', b'"a"+ +"b"'),
    (b"\\'\\\"", b""), (b"\\\\'", b"\\\\'"), (b'"a"\\x"b"', b'"a"\\x"b"'), (b"", b""),
]


@pytest.mark.parametrize(("raw", "want"), JOINS)
def test_joins_removes_each_place_two_literals_meet(raw, want):
    assert sj._joins_py(raw) == want
    assert C.joins(raw) == want


@FUZZ
@given(st.lists(st.sampled_from(list(b"'\"\\     \t\n+.|nrtab")), max_size=70).map(bytes))
def test_c_and_python_agree_on_joins_of_quote_heavy_bytes(raw):
    assert C.joins(raw) == sj._joins_py(raw)


# lists of decimal bytes (`secrets_bytes.DECIMAL`): (text, (start, end) of its first list or None)
DECIMALS = [
    (b"1, 2, 3, 4, 5, 6, 7, 8", (0, 22)), (b"[1,2,3,4,5,6,7]", None),
    (b"x[1,2,3,4,5,6,7,8]", (2, 17)), (b"a1,2,3,4,5,6,7,8", None), (b"\\n1,2,3,4,5,6,7,8", (2, 17)),
    (b"-1,2,3,4,5,6,7,8,9", (3, 18)),
    (b"1234,1,2,3,4,5,6,7,8", (5, 20)), (b"1,2,3,4,5,6,7,8a", None), (b"1,2,3,4,5,6,7,8.5", None),
    (b"1 ,\\n  2,3,4,5,6,7,8", (0, 20)), (b"1," + b" " * 17 + b"2,3,4,5,6,7,8,9", (19, 34)),
]


@pytest.mark.parametrize(("raw", "want"), DECIMALS)
def test_decimal_finds_each_list_of_decimal_bytes_as_the_regex_does(raw, want):
    assert sb._decimal_search_py(raw, 0, len(raw)) == want
    assert C.decimal(raw, 0, len(raw)) == want


_NUMS = [b"1", b"25", b"300", b"0", b"1234", b"007", b"99"]
_DSEPS = [b",", b", ", b" , ", b",\\n  ", b",\n", b"," + b" " * 16, b"," + b" " * 17, b"  ,", b"a",
          b".", b"-", b"\\", b"n", b" ", b"["]


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(_NUMS), st.sampled_from(_DSEPS)), max_size=24),
       st.integers(0, 3), st.integers(0, 3))
def test_c_and_python_agree_on_decimal_lists(pairs, pos, short):
    raw = b"".join(a + b for a, b in pairs)
    hi = max(len(raw) - short, 0)
    assert C.decimal(raw, pos, hi) == sb._decimal_search_py(raw, pos, hi)
    span = sb._decimal_search_py(raw, 0, len(raw))
    if span is not None:
        run = raw[span[0]:span[1]]
        assert sb._decimal_bytes(run) == sb._decimal_bytes_py(run.translate(None, sb._DEC_SEPS))


def test_decimal_lists_reads_each_list_of_a_line_as_its_bytes_or_none():
    """A line's lists in one call (session 37): each from the last one's end, a list with a
    number past 255 None, one with leading zeros read as its numbers."""
    raw = b"x 104,105,32,116,104,101,114,101 y 1,2,3,4,5,6,7,256 z 007,65,066,10,0,1,2,3"
    want = [(2, 32, b"hi there"), (35, 52, None), (55, 76, b"\x07A\x42\n\x00\x01\x02\x03")]
    assert list(sb._decimal_lists_py(raw)) == want
    assert C.decimal_lists(raw) == want
    assert C.decimal_lists(b"no list 1,2,3") == []


@FUZZ
@given(st.lists(st.tuples(st.sampled_from([*_NUMS, b"255", b"256", b"00", b"065"]),
                          st.sampled_from(_DSEPS)), max_size=48))
def test_c_and_python_agree_on_a_lines_decimal_lists(pairs):
    raw = b"".join(a + b for a, b in pairs)
    assert C.decimal_lists(raw) == list(sb._decimal_lists_py(raw))


JSON = [
    (b"sk\\u002dproj", b"sk-proj"), (b"a\\/b", b"a/b"), (b"\\\\u0067", b"\\\\u0067"),
    (b"\\u00e9", "\u00e9".encode()), (b"\\u20AC", "\u20ac".encode()),
    (b"\\ud83d\\ude00", "\U0001f600".encode()), (b"\\uD83D\\uDE00", "\U0001f600".encode()),
    (b"\\ud83d", b"\xed\xa0\xbd"), (b"\\ude00\\ud83d", b"\xed\xb8\x80\xed\xa0\xbd"),
    (b"\\ud83d\\u0041", b"\xed\xa0\xbdA"), (b"\\u00", b"\\u00"), (b"\\n\\t", b"\\n\\t"),
    (b"\\", b"\\"), (b"\\\\\\/", b"\\\\/"), (b"", b""),
]


@pytest.mark.parametrize(("raw", "want"), JSON)
def test_json_unescape_decodes_u_escapes_pairs_and_slashes_and_keeps_an_escaped_backslash(raw, want):
    assert sec._unescape_json_py(raw) == want
    assert C.json_unescape(raw) == want


@pytest.mark.parametrize("seed", range(4))
def test_json_unescape_of_a_long_line_is_the_python_pieces(seed):
    """Past 64 KiB the Python path decodes a piece at a time (secrets, session 34); the C one
    in one pass: the same bytes wherever a cut falls."""
    rnd = random.Random(seed)
    pieces = [b"\\u0041", b"\\ud83d\\ude00", b"\\ud83d", b"\\/", b"\\\\", b"\\", b"x", b"\\u00e9"]
    raw = b"".join(rnd.choice(pieces) for _ in range(40_000))
    assert len(raw) > 1 << 17
    assert C.json_unescape(raw) == sec._unescape_json_py(raw)


@pytest.mark.parametrize(("raw", "want"), UNQUOTE)
def test_unquote_decodes_each_percent_escape_and_keeps_any_other_percent(raw, want):
    assert sd._unquote_py(raw) == want
    assert C.unquote(raw) == want


@pytest.mark.parametrize(("raw", "want"), UNESCAPE)
def test_unescape_decodes_each_character_escape_under_128_and_keeps_the_rest(raw, want):
    assert sd._unescape_py(raw) == want
    assert C.unescape(raw) == want


@FUZZ
@given(st.lists(st.sampled_from(list(ALPHABET)), max_size=40).map(bytes))
def test_c_and_python_agree_on_escape_heavy_bytes(raw):
    assert C.unquote(raw) == sd._unquote_py(raw)
    assert C.ubrace(raw) == sd._ubrace_py(raw)
    assert C.joins(raw) == sj._joins_py(raw)
    assert C.unescape(raw) == sd._unescape_py(raw)
    assert C.unicode(raw) == sd._unicode_py(raw)
    assert C.json_unescape(raw) == sec._unescape_json_py(raw)


@FUZZ
@given(st.binary(max_size=2000))
def test_c_and_python_agree_on_random_bytes(raw):
    assert C.unquote(raw) == sd._unquote_py(raw)
    assert C.ubrace(raw) == sd._ubrace_py(raw)
    assert C.joins(raw) == sj._joins_py(raw)
    assert C.unescape(raw) == sd._unescape_py(raw)
    assert C.unicode(raw) == sd._unicode_py(raw)
    assert C.json_unescape(raw) == sec._unescape_json_py(raw)


def test_c_takes_any_buffer():
    assert C.unquote(memoryview(b"x%41%42")[1:]) == b"AB"
    assert C.unescape(bytearray(b"&#65;")) == b"A"


def _escaped_line(rnd: random.Random, size: int) -> bytes:
    """A line of every escape spelling, broken escapes among them, a key percent-, `\\x`- and
    HTML-escaped somewhere in it."""
    pieces = [b"%41", b"%4", b"%%", b"\\x41", b"\\\\x42", b"\\x4", b"&#65;", b"&#x41;",
              b"&#1234;", b"&#6;", b"&", b"\\", b"%2F", b"word ", b"\xff", b"\\u0041",
              b"\\\\u0042", b"\\u20ac", b"\\u00"]
    key = GITHUB.encode()
    keys = [b"".join(b"%%%02X" % b for b in key), b"".join(b"\\x%02x" % b for b in key),
            b"".join(b"&#%d;" % b for b in key), b"".join(b"\\u%04x" % b for b in key)]
    out: list[bytes] = []
    n = 0
    while n < size:
        p = rnd.choice(keys) if rnd.random() < 0.001 else rnd.choice(pieces)
        out.append(p)
        n += len(p)
    return b"".join(out)


@pytest.mark.parametrize("seed", range(6))
def test_the_views_of_a_long_escaped_line_are_the_same_in_c_and_python(monkeypatch, seed):
    """300 KB: five 64 KiB pieces, their cuts landing inside escapes of every spelling."""
    raw = _escaped_line(random.Random(seed), 300_000)
    fast = list(sd.views(raw))
    monkeypatch.setattr(sd, "_unquote", sd._unquote_py)
    monkeypatch.setattr(sd, "_unescape", sd._unescape_py)
    monkeypatch.setattr(sd, "_unicode", sd._unicode_py)
    slow = list(sd.views(raw))
    assert [v[0] for v in fast] == [sd.PERCENT, sd.ESCAPES, sd.UNICODE, sd.MIXED]
    assert fast == slow


@pytest.mark.parametrize("spell", ["%%%02X", "\\x%02x", "&#%d;", "\\u%04x"])
def test_a_key_after_15_mb_of_escapes_is_found_by_the_c_path(spell):
    """R4's shape (a 15.7 MB line, under the 16 MiB line bound) with the key at its end: the C
    decoder reads the whole line, as the Python one did."""
    filler = (spell % 0x41).encode()
    raw = filler * (15_700_000 // len(filler)) + b" " + b"".join(
        (spell % b).encode() for b in GITHUB.encode())
    assert sd._unquote is C.unquote and sd._unescape is C.unescape and sd._unicode is C.unicode
    hit = scan_public(raw)
    assert hit is not None and "GitHub" in hit.label


def test_the_decoders_are_c_wherever_a_c_compiler_is():
    """`make setup` builds it; a silent fallback would only show as a slow `withhold`."""
    if os.environ.get("MODERATOR_APP_NATIVE") == "0":
        pytest.skip("turned off by MODERATOR_APP_NATIVE=0")
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler here: the pure-Python path is the engine")
    assert sd._unquote is C.unquote
    assert sd._unescape is C.unescape
    assert sd._unicode is C.unicode
    assert sd._ubrace is C.ubrace
    assert sj._joins is C.joins
    assert sb._decimal_search is C.decimal
    assert sb._decimal_lists is C.decimal_lists


@pytest.mark.parametrize("abi", [None, native.UNESCAPE_ABI + 1])
def test_a_build_of_another_abi_is_not_used(monkeypatch, abi):
    stale = types.ModuleType("moderator_app.core.formats._unescape")
    if abi is not None:
        stale.ABI = abi  # type: ignore[attr-defined]
    import moderator_app.core.formats as formats

    monkeypatch.setitem(sys.modules, "moderator_app.core.formats._unescape", stale)
    monkeypatch.setattr(formats, "_unescape", stale, raising=False)
    assert native.load_unescape() is None


# -- the markers asked before the detectors (session 34, escape): the same findings ------------
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzMzRlc2NhcGUifQ."
       "c2lnbmF0dXJlUzM0ZXNjYXBlWFlaMTIz")
KEY_END = "-----END OPENSSH PRIVATE KEY-----"
URL = "https://deploy:Hunter2Pass9x@git.example.org/repo"


@pytest.mark.parametrize(("inside", "label"), [(JWT, "JSON web token"),
                                               (KEY_END, "private key block"),
                                               (URL, "password in a URL")])
def test_a_pattern_in_a_base64_run_of_bytes_is_found(inside, label):
    """Base64 of bytes (no text: a picture's header, zeros) holding a token, a key block's end
    or a URL's password: each public pattern is asked only when its marker is there, and is."""
    import base64

    blob = b"\x89PNG\r\n\x1a\n" + bytes(3000) + b" " + inside.encode() + b" " + bytes(3000)
    raw = b'{"type":"observation","data":{"image":"' + base64.b64encode(blob) + b'"}}'
    hit = scan_public(raw)
    assert hit is not None and hit.label == "base64 of a secret"
    assert hit.how == f"{sd.BASE64} ({label})"
