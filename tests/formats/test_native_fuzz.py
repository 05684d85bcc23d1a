"""Adversarial differential tests of the C accelerator `moderator_app.core.formats._jcs` (_jcs.c).

The accelerator must never vouch for a line wrongly: every line it accepts must have exactly
the canonical bytes of `canonical.canonical_json` (hence the hash of `chain.event_hash`), and
anything it is unsure of must be declined. Here it is held, on generated and hand-written
nasty inputs, to:

1. `_jcs.canonical(text)` against `canonical_json(json.loads(text))` (duplicates rejected), and
   the spelling flags it reports against the serialisers they name;
2. whole verification reports, accelerator on, off (orjson columns) and line by line;
3. `_jcs.markers` against the substring tests it replaces;
4. `_jcs.float_spellings` against `es6_number`, `repr` and orjson.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from trajhelp import join, verify_bytes

import moderator_app.core.verify.trajectory as traj
from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json, es6_number
from moderator_app.core.formats.chain import event_hash
from moderator_app.core.formats.jsonline import underflowing_number
from moderator_app.core.formats.secrets import MARKERS
from moderator_app.core.samples.payload_heldout import php_spelling
from moderator_app.core.samples.payload_shapes import SHAPES
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

ST = {k: getattr(JCS, k) for k in dir(JCS) if k.startswith("ST_")} if JCS is not None else {}
FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- the reference --------------------------------------------------------------------------
class _Duplicate(ValueError):
    pass


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def reference(text: bytes) -> bytes | None:
    """canonical_json of the strictly parsed text (valid UTF-8, no repeated member, no NaN),
    or None where the reference refuses the text."""
    try:
        value = json.loads(text.decode("utf-8"), object_pairs_hook=_no_duplicates,
                           parse_constant=_no_constant)
        if underflowing_number(text) is not None:  # 1e-400: no double holds it
            return None
        return canonical_json(value)
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeError, CanonicalError
        return None


def check_canonical(text: bytes) -> tuple | None:
    """Hold `_jcs.canonical(text)` to the reference; returns what C returned."""
    got = JCS.canonical(text)
    want = reference(text)
    if got is None:
        return None  # declining is always allowed
    out, flags = got
    assert want is not None, f"C accepted what the reference refuses: {text!r} -> {out!r}"
    assert out == want, f"{text!r}: C {out!r} != reference {want!r}"
    check_flags(text, flags)
    return got


def check_flags(text: bytes, flags: int) -> None:
    """The spelling facts `_nat_masks` turns into spellings must hold."""
    if flags & ST["ST_MIN"] and flags & ST["ST_SORTED_U16"]:
        assert text == reference(text), f"MIN|SORTED_U16 but not RFC 8785: {text!r}"
    if flags & ST["ST_ASCII"]:
        assert text.isascii() and b"\x7f" not in text, text
    if flags & ST["ST_NOWRITER"]:  # an escape no known writer uses: none spells the text
        value = json.loads(text)
        assert orjson.dumps(value) != text and canonical_json(value) != text, text
        for sep in (None, (",", ":")):
            for ea in (False, True):
                assert json.dumps(value, separators=sep, ensure_ascii=ea).encode() != text, text
    floats = bool(flags & ST["ST_FLOAT"])
    spaced = bool(flags & ST["ST_SPACED"])  # json.dumps' default separators
    seps = (", ", ": ") if spaced else (",", ":")
    assert not (spaced and flags & ST["ST_MIN"]), text
    if flags & ST["ST_EA"] and (not floats or flags & ST["ST_F_REPR"]):
        value = json.loads(text)
        assert json.dumps(value, separators=seps).encode() == text, (
            f"EA but not json.dumps(ensure_ascii=True)'s: {text!r}")
        if flags & ST["ST_SORTED_CP"]:
            assert json.dumps(value, separators=seps, sort_keys=True).encode() == text, text
    if not flags & ST["ST_MINX"]:
        return
    if (not spaced and (not floats or flags & ST["ST_F_ORJSON"])
            and traj.native_blocks.orjson_floats_agree(JCS)):
        value = orjson.loads(text)
        assert orjson.dumps(value) == text, f"MINX|F_ORJSON but not orjson's: {text!r}"
        if flags & ST["ST_SORTED_CP"]:
            assert orjson.dumps(value, option=orjson.OPT_SORT_KEYS) == text, text
    if not floats or flags & ST["ST_F_REPR"]:
        value = json.loads(text)
        for ea in (False, True) if flags & ST["ST_ASCII"] else (False,):
            assert json.dumps(value, separators=seps, ensure_ascii=ea).encode() == text, (
                f"MINX|F_REPR (ensure_ascii={ea}) but not json.dumps': {text!r}")
            if flags & ST["ST_SORTED_CP"]:
                assert json.dumps(value, separators=seps, ensure_ascii=ea,
                                  sort_keys=True).encode() == text, text


# -- a writer that spells the same value many ways ------------------------------------------
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
          "\t": "\\t"}


def _u(cp: int, rng: random.Random) -> str:
    s = f"\\u{cp:04x}"
    return s.upper().replace("\\U", "\\u") if rng.random() < 0.3 else s


def spell_str(s: str, rng: random.Random, esc: float) -> str:
    out = ['"']
    for ch in s:
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF:  # a lone surrogate: only as an escape
            out.append(_u(cp, rng))
        elif ch in "\"\\":
            out.append(_u(cp, rng) if rng.random() < esc else _SHORT[ch])
        elif cp < 0x20:
            out.append(_SHORT[ch] if ch in _SHORT and rng.random() < 0.7 else _u(cp, rng))
        elif ch == "/" and rng.random() < esc:
            out.append("\\/")
        elif rng.random() < esc:
            if cp > 0xFFFF:
                v = cp - 0x10000
                out.append(_u(0xD800 + (v >> 10), rng) + _u(0xDC00 + (v & 0x3FF), rng))
            else:
                out.append(_u(cp, rng))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def float_forms(x: float, rng: random.Random) -> list[str]:
    """Spellings of numbers that parse to exactly the double x (sign of zero included)."""
    if x == 0:
        forms = ["0.0", "0e0", "0E+5", "0.000e-3", "0." + "0" * 40, "0e-999"]
        return [("-" + f) if math.copysign(1, x) < 0 else f for f in forms]
    neg = "-" if x < 0 else ""
    r = repr(abs(x))
    mant, _, exp = r.partition("e")
    ip, _, fp = mant.partition(".")
    digits = (ip + fp).lstrip("0")
    lead = len(ip + fp) - len((ip + fp).lstrip("0"))
    n = len(ip) + (int(exp) if exp else 0) - lead  # value = 0.digits * 10**n
    d = digits.rstrip("0") or "0"
    k = len(d)
    cands = [repr(abs(x)), es6_number(abs(x)), orjson.dumps(abs(x)).decode(),
             f"{d}e{n - k}", f"{d}E{n - k}", f"{d}e+{n - k}" if n - k >= 0 else f"{d}e{n - k}",
             f"0.{d}e{n}", f"{d[0]}.{d[1:] or '0'}E{n - 1:+d}"]
    for z in (1, 3, rng.choice((20, 250, 300, 320, 330, 400))):
        cands.append(f"0.{'0' * z}{d}e{n + z}")
        cands.append(f"{d}{'0' * z}e{n - k - z}")
        cands.append(f"{d}.{'0' * z}e{n - k}")
    if -30 < n < 30:  # plain decimals
        if n <= 0:
            cands.append("0." + "0" * (-n) + d)
        elif n >= k:
            cands.append(d + "0" * (n - k) + ".0")
        else:
            cands.append(d[:n] + "." + d[n:])
    # other decimals that round to the same double (the shortest digits are not the only)
    for alt in (d + "1", d + "49", d[:-1] + str(max(0, int(d[-1]) - 1)), d + "0" * 20 + "1"):
        if alt and alt[0] != "0":
            cands.append(f"{alt}e{n - len(alt)}")
            cands.append(f"0.{'0' * 300}{alt}e{n + 300}")
    out = []
    for c in cands:
        try:
            if float(c) == abs(x) and c not in out:
                out.append(c)
        except ValueError:
            pass
    return [neg + c for c in out]


def spell(value, rng: random.Random, opts: dict) -> str:
    """One spelling of value: opts ws (whitespace chance), esc (escape chance), order
    ('keep', 'cp', 'u16', 'shuffle', 'reverse'), dup (chance to repeat a member), nums."""
    ws = opts.get("ws", 0.0)

    def sp() -> str:
        return rng.choice((" ", "\n", "\t", "\r", "  ")) if rng.random() < ws else ""

    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        if value == 0 and rng.random() < opts.get("nums", 0):
            return "-0"
        return str(value)
    if isinstance(value, float):
        if rng.random() < opts.get("nums", 0):
            return rng.choice(float_forms(value, rng))
        return repr(value) if rng.random() < 0.5 else orjson.dumps(value).decode()
    if isinstance(value, str):
        return spell_str(value, rng, opts.get("esc", 0.0))
    if isinstance(value, list):
        return "[" + sp() + ("," + sp()).join(spell(v, rng, opts) + sp() for v in value) + "]"
    items = list(value.items())
    order = opts.get("order", "keep")
    if order == "cp":
        items.sort()
    elif order == "u16":
        items.sort(key=lambda kv: kv[0].encode("utf-16-be", "surrogatepass"))
    elif order == "shuffle":
        rng.shuffle(items)
    elif order == "reverse":
        items.reverse()
    if items and rng.random() < opts.get("dup", 0.0):
        k, v = rng.choice(items)
        items.insert(rng.randrange(len(items) + 1), (k, rng.choice((v, 1, "x"))))
    members = [sp() + spell_str(k, rng, opts.get("esc", 0.0)) + sp() + ":" + sp()
               + spell(v, rng, opts) + sp() for k, v in items]
    return "{" + ",".join(members) + (sp() if not members else "") + "}"


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a raw lone surrogate stays invalid UTF-8


# -- generated values -----------------------------------------------------------------------
_KEY_CHARS = ("a", "b", "z", "A", "_", "/", '"', "\\", "\x00", "\x1f", "\x7f", "\n", "é",
              "\u2028", "\ud7ff", "\ue000", "\uffff", "\ufffd", "\U00010000", "\U0001f600",
              "\U0010ffff", "𝄞", "日", "\ud83d", "\ude00", "h", "s")
_KEYS = st.one_of(st.sampled_from(("hash", "payload", "", "a", "aa", "ab", "b", "\ue000",
                                   "\U0001f600", "\uffff", "\U00010000", "a" * 9, "a" * 8,
                                   "abcdefgh\x00", "abcdefgh")),
                  st.text(st.sampled_from(_KEY_CHARS), max_size=5))
_FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from((1e5, 1e-7, -0.0, 0.0, 1.0, 5e-324, 1e308, 1.7976931348623157e308,
                     2.2250738585072014e-308, 1e21, 1e-6, 1e-5, 1e15, 1e16, 9007199254740992.0,
                     0.1, 123.456, 56.0, 9.5e-6, 1e22, 2.5e-5, 4.9406564584124654e-310)))
_INTS = st.one_of(st.integers(-1000, 1000),
                  st.integers(-(2**63), 2**63),
                  st.sampled_from((2**53 - 1, 2**53, 2**53 + 1, -(2**53) + 1, 10**15 - 1,
                                   10**15, 999999999999999, 10**16, 2**64, 0)))
_SCALARS = st.one_of(st.none(), st.booleans(), _INTS, _FLOATS,
                     st.text(st.sampled_from(_KEY_CHARS + ("x", " ", "'")), max_size=8),
                     st.text(max_size=6))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=6)), max_leaves=20)
_OBJECTS = st.dictionaries(_KEYS, _VALUES, max_size=8)
_OPTS = st.fixed_dictionaries({
    "ws": st.sampled_from((0.0, 0.0, 0.05)), "esc": st.sampled_from((0.0, 0.0, 0.2, 1.0)),
    "order": st.sampled_from(("keep", "cp", "u16", "u16", "shuffle", "reverse")),
    "dup": st.sampled_from((0.0, 0.0, 0.3)), "nums": st.sampled_from((0.0, 0.5, 1.0))})


@FUZZ
@given(value=_OBJECTS, opts=_OPTS, seed=st.integers(0, 2**32))
def test_canonical_matches_reference(value, opts, seed):
    text = encode(spell(value, random.Random(seed), opts))
    check_canonical(text)


@FUZZ
@given(value=_OBJECTS)
def test_canonical_accepts_and_keeps_rfc8785_text(value):
    """The RFC 8785 text of a value is accepted unchanged (lone surrogates, integers of 16 or
    more digits and nesting beyond MAX_DEPTH excepted: those it declines by design)."""
    want = reference(encode(spell(value, random.Random(0), {})))
    if want is None:
        return
    got = check_canonical(want)
    if re.search(rb"\d{16}", want) is None:
        assert got is not None, f"declined the canonical text {want!r}"
        out, flags = got
        assert out == want
        assert flags & ST["ST_MIN"] and flags & ST["ST_SORTED_U16"], (want, flags)


@FUZZ
@given(value=_OBJECTS, opts=_OPTS, seed=st.integers(0, 2**32), cut=st.integers(0, 10**6),
       byte=st.integers(0, 255), how=st.sampled_from(("flip", "insert", "delete", "cut")))
def test_canonical_on_damaged_text(value, opts, seed, cut, byte, how):
    text = encode(spell(value, random.Random(seed), opts))
    i = cut % (len(text) + 1)
    if how == "flip" and i < len(text):
        text = text[:i] + bytes([byte]) + text[i + 1:]
    elif how == "insert":
        text = text[:i] + bytes([byte]) + text[i:]
    elif how == "delete":
        text = text[:i] + text[i + 1:]
    else:
        text = text[:i]
    check_canonical(text)


def _deep(n: int, open_: str = "[", close: str = "]") -> bytes:
    return (open_ * n + "1" + close * n).encode()


NASTY = [
    # escapes in names and values
    b'{"\\u00e9":1,"e":2}', b'{"\\u00E9":1}', b'{"\\/":1,"/":2}', b'{"a\\/b":"\\/"}',
    b'{"\\ud83d\\ude00":1,"\\ue000":2}', b'{"\\uD83D\\uDE00":1}', b'{"\\ud83d":1}',
    b'{"\\ude00":1}', b'{"\\ud83d\\u0041":1}', b'{"a":"\\ud83d"}', b'{"a":"\\udfff\\ud800"}',
    b'{"\\u0000":1,"":2}', b'{"a\\u0000":1,"a":2}', b'{"a":"\\u001f\\u001F\\u000a\\n"}',
    b'{"a":"\\u007f\x7f"}', b'{"a":"\\u2028\xe2\x80\xa8"}', b'{"a":"\\b\\f\\r\\t\\"\\\\"}',
    b'{"a":"\\x41"}', b'{"a":"\\u12"}', b'{"a":"\\u12G4"}', b'{"a":"\\', b'{"a":"\\u"}',
    # UTF-16 versus code point order
    b'{"\xf0\x9f\x98\x80":1,"\xee\x80\x80":2}', b'{"\xee\x80\x80":2,"\xf0\x9f\x98\x80":1}',
    b'{"\xef\xbf\xbf":1,"\xf0\x90\x80\x80":2}', b'{"a\xf0\x90\x80\x80":1,"a\xef\xbf\xbf":2}',
    b'{"\xf4\x8f\xbf\xbf":1,"\xf0\x90\x80\x80":2,"\xed\x9f\xbf":3,"\xee\x80\x80":4}',
    b'{"abcdefgh\xf0\x9f\x98\x80":1,"abcdefgh\xee\x80\x80":2,"abcdefgh":3}',
    # repeated members, spelled the same or not
    b'{"a":1,"a":1}', b'{"a":1,"b":2,"a":1}', b'{"a":1,"\\u0061":1}', b'{"\\u0061":1,"a":2}',
    b'{"b":{"x":1,"x":2},"a":0}', b'{"\xf0\x9f\x98\x80":1,"\\ud83d\\ude00":2}',
    b'{' + b",".join(b'"k%d":%d' % (i % 13, i) for i in range(40)) + b'}',
    b'{"hash":1,"hash":1}', b'{"' + b'a' * 20 + b'":1,"' + b'a' * 20 + b'":2}',
    # numbers of every notation
    b'{"a":1E5}', b'{"a":1e5}', b'{"a":1e+5}', b'{"a":1e-7}', b'{"a":1E-7}', b'{"a":-0.0}',
    b'{"a":-0}', b'{"a":0.1e1}', b'{"a":5e-324}', b'{"a":4e-324}', b'{"a":2e-324}',
    b'{"a":1e-400}', b'{"a":1e308}', b'{"a":1.7976931348623157e308}',
    b'{"a":1.7976931348623159e308}', b'{"a":1e309}', b'{"a":1e400}', b'{"a":-1e400}',
    b'{"a":1e0000000000000000000000000000001}', b'{"a":1e-00000000000000000000000001}',
    b'{"a":123456789012345}', b'{"a":1234567890123456}', b'{"a":9007199254740991}',
    b'{"a":9007199254740992}', b'{"a":9007199254740993}', b'{"a":-999999999999999}',
    b'{"a":9007199254740993.0}', b'{"a":1.0000000000000001}', b'{"a":0.30000000000000004}',
    b'{"a":100000000000000000000.0}', b'{"a":1e21}', b'{"a":0.000001}', b'{"a":0.0000001}',
    b'{"a":01}', b'{"a":1.}', b'{"a":.5}', b'{"a":+1}', b'{"a":1e}', b'{"a":1e+}',
    b'{"a":-}', b'{"a":NaN}', b'{"a":Infinity}', b'{"a":-Infinity}', b'{"a":0x10}',
    b'{"a":' + b'9' * 400 + b'.0}', b'{"a":1' + b'0' * 38 + b'e249}',
    b'{"a":0.' + b'0' * 500 + b'1}', b'{"a":1.' + b'0' * 500 + b'1}',
    # whitespace anywhere, control characters, invalid UTF-8, DEL
    b' {"a":1}', b'{"a":1} ', b'{ "a":1}', b'{"a" :1}', b'{"a": 1}', b'{"a":1 }',
    b'{"a":[1, 2]}', b'{"a":\t1}', b'{"a":\n1}', b'{"a":\r1}', b'{"a":"\t"}', b'{"a":"\x00"}',
    b'{"a":"\x1f"}', b'{"a":"\x7f"}', b'{"\x7f":"\x7f"}', b'{"a":"\xff"}', b'{"a":"\xc0\xaf"}',
    b'{"a":"\xe0\x80\xaf"}', b'{"a":"\xed\xa0\x80"}', b'{"a":"\xf4\x90\x80\x80"}',
    b'{"a":"\xf0\x9f\x98"}', b'{"a":"\xc3"}', b'\xef\xbb\xbf{"a":1}', b'{"a\xff":1}',
    b'{\x00"a":1}', b'{"a":1}\x00',
    # structure
    b'{}', b'[]', b'{"a":{}}', b'{"a":[]}', b'{"a":[{}]}', b'{"a":[[],[[]]]}', b'{"a":1,}',
    b'{,}', b'{"a"}', b'{"a":}', b'{"a":1 "b":2}', b'{"a":1}{"b":2}', b'{"a":1}]', b'',
    b'{', b'}', b'"a"', b'1', b'null', b'true', b'[1,]', b'[,1]', b'{"a":tru}',
    b'{"a":nul}', b'{"a":falsey}', b'{1:2}', b"{'a':1}",
    _deep(63), _deep(64), _deep(65), _deep(200), _deep(63, "{\"a\":", "}"),
    _deep(64, "{\"a\":", "}"), _deep(65, "{\"a\":", "}"), _deep(3000),
    _deep(253), _deep(254), _deep(255), _deep(256), _deep(254, "{\"a\":", "}"),
    _deep(255, "{\"a\":", "}"), _deep(127, "{\"b\":1,\"a\":[", "]}"),
]


@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
def test_canonical_nasty(text):
    check_canonical(text)


def test_canonical_accepts_what_it_should():
    """Not everything may be declined: these are spelled canonically, or merely unusually."""
    for text, want in [
        (b'{"b":1,"a":[1E5,"\\u00e9"]}', b'{"a":[100000,"\xc3\xa9"],"b":1}'),
        (b'{"\xf0\x9f\x98\x80":1,"\xee\x80\x80":2}', b'{"\xf0\x9f\x98\x80":1,"\xee\x80\x80":2}'),
        (b'{"\xee\x80\x80":2,"\\ud83d\\ude00":1}', b'{"\xf0\x9f\x98\x80":1,"\xee\x80\x80":2}'),
        (b'{"a":-0.0,"b":0.1e1,"c":1e-7,"d":5e-324}', b'{"a":0,"b":1,"c":1e-7,"d":5e-324}'),
        (b'{"a":"\\/\\u001F\\u000a"}', b'{"a":"/\\u001f\\n"}'),
        (b'{}', b'{}'),
    ]:
        got = check_canonical(text)
        assert got is not None and got[0] == want, (text, got)


# Underflow: a float token whose digits are few but whose leading zeros put its value among
# the subnormals (or below them) once took the "15 significant digits" fast path of
# parse_number, which checked the exponent token (e10 > -250) but not the value's magnitude
# (found by this file; the bound is now on the value's decimal exponent).
UNDERFLOW = [
    (b'{"a":0.' + b"0" * 323 + b"4}", b'{"a":5e-324}'),
    (b'{"a":0.' + b"0" * 400 + b"1}", None),  # not zero, but no double holds it: refused
    (b'{"a":0.' + b"0" * 60 + b"123456789012345e-249}", b'{"a":1.23456789012346e-310}'),
    (b'{"a":0.' + b"0" * 300 + b"3e-20}", b'{"a":3e-321}'),
]


@pytest.mark.parametrize("text,want", UNDERFLOW, ids=range(len(UNDERFLOW)))
def test_canonical_subnormal_tokens_with_leading_zeros(text, want):
    assert reference(text) == want
    got = check_canonical(text)
    assert (got is None) == (want is None)


@FUZZ
@given(x=_FLOATS, seed=st.integers(0, 2**32))
@example(x=5e-324, seed=0)
@example(x=2.2250738585072014e-308, seed=1)
def test_canonical_float_respellings(x, seed):
    """Every spelling of a number that parses to x: the canonical form is x's."""
    rng = random.Random(seed)
    for form in float_forms(x, rng):
        check_canonical(b'{"a":' + form.encode() + b"}")
        check_canonical(b"[" + form.encode() + b"]")


# -- float spellings ------------------------------------------------------------------------
@settings(max_examples=400, deadline=None, derandomize=True)
@given(x=_FLOATS)
@example(x=1e-7)
@example(x=-0.0)
@example(x=1e16)
@example(x=1e-5)
@example(x=123456789012345680.0)
def test_float_spellings(x):
    assert JCS.float_spellings(x) == (es6_number(x), repr(x), orjson.dumps(x).decode())


def test_canonical_seventeen_digit_tokens():
    """16- and 17-digit tokens, shortest (as every writer spells them) and one digit off (no
    writer's, often the same double): `_jcs` takes the first as they stand only when they are
    the shortest spelling, and both must come out as the reference spells them."""
    rng = random.Random(17)
    taken = 0
    for i in range(6000):
        x = rng.random() * 10.0 ** rng.randint(-12, 22)
        token = repr(x) if rng.random() < 0.5 else repr(-x)
        if i % 2 and "e" not in token:
            token = token[:-1] + str(rng.randint(0, 9))
        got = check_canonical(b'{"a":' + token.encode() + b"}")
        taken += got is not None
    assert taken == 6000  # nothing declined: a 17-digit float is no reason to take the slow path


def test_canonical_tokens_beyond_ten_to_the_22():
    """Shortest tokens far from 1 (1.2345678901234567e-08, the subnormals, near the largest
    double) are taken as they stand, without a parse, when a candidate double near D * 10^q
    has them as its shortest digits; a token one digit off, or spelled with 17 digits where
    fewer do, is not its double's shortest form and must still come out as the reference
    spells it. Every token a double holds is taken (none declined); one digit off can make a
    subnormal token underflow (`2e-324`), which no double holds: that one is declined."""
    rng = random.Random(22)
    tokens = ["5e-324", "-5e-324", "2.2250738585072014e-308", "1.7976931348623157e+308",
              "4.9406564584124654e-324", "2.225073858507201e-308", "1e-320", "1.5e-323",
              "8.98846567431158e+307", "1.2345678901234567e-08", "1.2345678901234567e+40"]
    for i in range(6000):
        x = rng.random() * 10.0 ** rng.randint(-330, 300)
        if not 0 < x < math.inf:
            continue
        token = repr(x) if i % 3 else f"{x:.17g}"
        if "e" not in token and "." not in token:
            token += "e0"  # a float token (an integer beyond 2^53 - 1 is declined)
        if i % 5 == 1 and "e" in token:
            mant, exp = token.split("e")
            token = mant[:-1] + str(rng.randint(0, 9)) + "e" + exp
        tokens.append(token if rng.random() < 0.5 else "-" + token)
    underflows = 0
    for token in tokens:
        got = check_canonical(b'{"a":' + token.encode() + b"}")
        if float(token) == 0:
            underflows += 1
            assert got is None, token
        else:
            assert got is not None, token
    assert 0 < underflows < 10


# (a string's body as spelled, whether that spelling is already RFC 8785's: None when invalid)
_ESCAPED_BODIES = [
    ('\\n\\tline\\r\\n\\"q\\" \\\\ \\b\\f\\u0000\\u001f\\u000b\\u0010é😀\x7f', True),
    ('a\\n', True), ('é\\n', True), ('\\n' * 40 + 'x' * 40 + '\\t', True),
    ('a\\u001F', False), ('a\\u000a', False), ('a\\u0008', False), ('a\\/', False),
    ('a\\u0041', False), ('a\\u00e9', False), ('a\\ud83d\\ude00', False),
    ('a\\n\\u001F', False), ('a\\n\\/', False), ('a\\n\\u000D', False),
    ('a\\n\\x', None), ('a\\n\\u00', None), ('a\\n\x01', None), ('a\\n\\', None)]


@pytest.mark.parametrize("body,as_is", _ESCAPED_BODIES, ids=range(len(_ESCAPED_BODIES)))
def test_canonical_escapes_as_they_stand_or_respelled(body, as_is):
    """A value string whose escapes are all RFC 8785's own is copied as it stands (no decoding,
    no re-escaping): exactly the reference's bytes, with the same spelling facts; any other
    escape (`\\/`, `\\u0041`, uppercase hex, a short escape spelled `\\u`, a surrogate pair)
    is respelled by the general loop, and invalid text is refused."""
    text = ('"' + body + '"').encode()
    got = check_canonical(text)
    if as_is is None:
        assert got is None and reference(text) is None
        return
    assert got is not None
    assert (got[0] == text) is as_is
    assert bool(got[1] & ST["ST_MIN"]) is as_is
    assert check_canonical(('{"k":"' + body + '","a":["' + body + '",1]}').encode()) is not None


# (what sits at a 32-byte window's edge in the escaped-string check: RFC 8785's own escapes
# stay as they stand, anything else is respelled or refused)
_EDGE_PIECES = [("\\n", True), ("\\\\", True), ('\\"', True), ("\\u001f", True),
                ("\x7f", True), ("é", True), ("😀", True), ("\\u00e9", False),
                ("\\/", False), ("\\u000a", False), ("\x01", None), ("\\x", None),
                # `\u00xx` for a control character is taken inside the window (session 11):
                # each form it must not take, beside those it must
                ("\\u001b[32m", True), ("\\u0000", True), ("\\u0010\\u001b", True),
                ("\\u001B", False), ("\\u0008", False), ("\\u000d", False),
                ("\\u0009", False), ("\\u000c", False), ("\\u007f", False), ("\\u0020", False),
                ("\\u0100", False), ("\\u001g", None)]


@pytest.mark.parametrize("piece,as_is", _EDGE_PIECES, ids=range(len(_EDGE_PIECES)))
def test_canonical_escapes_at_every_window_offset(piece, as_is):
    """A piece after a first escape at every offset across two 32-byte windows (the last
    window's escape ending past it, the string's end inside the next or past the 33 bytes the
    window needs): the same bytes and facts as the reference, or refused with it."""
    for off in range(0, 72):
        for tail in ("", "ab", "x" * 40, "\\t" * 20):
            body = "\\n" + "y" * off + piece + tail
            text = ('"' + body + '"').encode()
            got = check_canonical(text)
            if as_is is None:
                assert got is None and reference(text) is None, text
                continue
            assert got is not None, text
            assert (got[0] == text) is as_is, text
            if as_is:
                assert bool(got[1] & ST["ST_ASCII"]) is (text.isascii() and b"\x7f" not in text)


# (Go's encoding/json spelling `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`, beside what
# the general loop's fast steps must and must not take: short escapes, `\u00XX` of `"`, `\`,
# DEL, a control character, uppercase hex, a surrogate pair, invalid or cut escapes)
_GO_PIECES = ["\\u003c", "\\u003e", "\\u0026", "\\u0020", "\\u007e", "\\u0041", "\\n",
              '\\"', "\\\\", "\\t", "\\u0022", "\\u005c", "\\u005C", "\\u007f", "\\u001f",
              "\\u001F", "\\u003C", "\\u00e9", "\\u2028", "\\ud83d\\ude00", "\\u00zz",
              "\\u0", "\\u00", "\\u003", "\\/", "é", "\x7f"]


@pytest.mark.parametrize("piece", _GO_PIECES, ids=range(len(_GO_PIECES)))
def test_go_escapes_of_ascii_at_every_offset(piece):
    """Go's `\\u003c` escapes (the general loop's fast step writes the character, session
    31) and their neighbours after a first `\\u003c`, at every offset across two 32-byte
    windows, in a value and a member name, with members out of order: the reference's bytes
    and facts, or refused with it."""
    for off in range(0, 40):
        for tail in ("", "\\u0026\\u0026", "x" * 20):
            body = "go \\u003e " + "y" * off + piece + tail
            for text in (('"' + body + '"').encode(),
                         ('{"z":1,"' + body + '":"' + body + '","a":[{"b":2,"a":"' + body +
                          '"}]}').encode()):
                got = check_canonical(text)  # (the bytes: the reference's)
                if got is None:  # declined (a lone escape, invalid text): the Python path's
                    continue
                out, flags = got
                assert flags & ST["ST_NOWRITER"], text  # Go's `\\u003e`: no writer known
                assert not flags & (ST["ST_MIN"] | ST["ST_MINX"] | ST["ST_EA"]), text


def test_go_escapes_are_taken_by_the_fast_step():
    """The lines of a Go writer are accepted, not declined (what the fast step is for)."""
    for piece in ("\\u003c", "\\u0026", "\\u0020", "\\n", '\\"', "\\u007e", "\\u0041"):
        text = ('{"output":"a \\u003c b' + piece + 'c \\u0026\\u0026 d","tool":"bash"}').encode()
        got = check_canonical(text)
        assert got is not None, text
        assert got[0] == canonical_json(json.loads(text)), text


def test_float_spellings_refuse_non_finite():
    for x in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError):
            JCS.float_spellings(x)


# -- markers --------------------------------------------------------------------------------
_PIECES = st.one_of(st.sampled_from(MARKERS), st.binary(max_size=3),
                    st.sampled_from((b"s", b"k", b"-", b"sk", b"k-", b"AKI", b"earer", b"e",
                                     b"PRIVATE KE", b"\x00", b"\xff", b"x" * 15, b"y" * 17)))
_BLOCKS = st.lists(_PIECES, max_size=40).map(b"".join)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(block=_BLOCKS)
def test_markers_match_substring_tests(block):
    assert JCS.markers(block, MARKERS) == tuple(m for m in MARKERS if m in block)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(block=_BLOCKS, pad=st.integers(0, 40),
       markers=st.lists(st.binary(min_size=2, max_size=6), min_size=1, max_size=64,
                        unique=True))
def test_markers_any_marker_set(block, pad, markers):
    markers = tuple(markers)
    # plant some of the markers, at every alignment near the SIMD strides and the end
    planted = b"q" * pad + block + b"".join(markers[: len(markers) // 3]) + markers[-1]
    for b in (block, planted, planted[:-1], planted[1:]):
        assert JCS.markers(b, markers) == tuple(m for m in markers if m in b)


def test_markers_kept_sets_answer_for_the_tuple_asked():
    """`markers` keeps the sets of the tuples it was asked with, found again by their items'
    identities (session 42, speed). Interleaved over 150 tuples (past the 64 kept: sets are
    replaced), each asked as itself, as a new tuple of the same items, as new bytes objects
    of the same values, and reversed: every answer is the substring tests' answer in the
    order of the tuple asked (a set kept for the same items in another order, or for a tuple
    of the same size, would answer in its own)."""
    rng = random.Random(42)
    alphabet = b"sk-_\\u0aAKI"
    sets = [tuple({bytes(rng.choice(alphabet) for _ in range(rng.randint(2, 6))): None
                   for _ in range(rng.randint(1, 64))}) for _ in range(150)]
    blocks = [bytes(rng.choice(alphabet + b" x") for _ in range(rng.randint(0, 300)))
              for _ in range(20)]
    for _ in range(3):
        for markers in rng.sample(sets, len(sets)):
            for asked in (markers, tuple(list(markers)),
                          tuple(bytes(bytearray(m)) for m in markers), markers[::-1]):
                block = rng.choice(blocks)
                assert JCS.markers(block, asked) == tuple(m for m in asked if m in block)


def test_markers_at_every_offset():
    for m in MARKERS:
        for size in (len(m), 15, 16, 17, 31, 32, 33, 64, 100):
            for at in range(0, size - len(m) + 1):
                block = b"." * at + m + b"." * (size - len(m) - at)
                assert JCS.markers(block, MARKERS) == (m,), (m, size, at)


def test_escape_markers_among_latin_escapes_at_every_offset():
    """Session 28 (s27 open item 3): a candidate whose fifth byte no marker of its bucket has
    (`\\u00e9` of ensure_ascii's Latin text, next to `\\u004`..`\\u007`, `\\u0020`) is dropped
    before the markers are compared. An escape marker among such escapes, cut or whole, at
    every offset and stride, is still found."""
    sea = b"\\u00e9\\u00e8\\u001b" * 8
    for m in (x for x in MARKERS if x.startswith(b"\\u00")):
        for at in range(len(sea) + 1):
            for block in (sea[:at] + m + sea[at:], sea[:at] + m, sea[:at] + m[:-1]):
                assert JCS.markers(block, MARKERS) == tuple(x for x in MARKERS if x in block)


@pytest.mark.parametrize("escaped", [False, True])
def test_a_key_spelled_in_unicode_tag_characters_is_warned_on_every_engine(monkeypatch,
                                                                         escaped):
    """QA s28 h28_12: a key spelled in TAG characters (U+E0073 U+E006B ... mirror `sk...`,
    and draw nothing) raised no finding, and `withhold` published it. A line holding TAG
    characters, raw or as JSON surrogate pairs, is scanned with them read as ASCII on every
    engine and block path; a flag's tags (Scotland) raise nothing."""
    key = "sk-proj-" + "Qa28" * 8
    events = make_run_events(60, seed=4, text_bytes=300, variety=0.0)
    events[30]["payload"]["text"] = "hidden " + "".join(chr(0xE0000 + ord(c)) for c in key)
    events[40]["payload"]["text"] = "flag \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063" \
        "\U000e0074\U000e007f"
    dump = (lambda e: json.dumps(e, separators=(",", ":")).encode()) if escaped else _dump
    lines = [dump(e) for e in chain_events(events)]
    assert (b"\\udb40\\udc73" in lines[30]) is escaped
    rep = assert_same_reports(join(lines), monkeypatch, 4096)
    hits = [f for f in rep["findings"] if f["rule"].startswith("secret")]
    assert [(f["rule"], f["line"]) for f in hits] == [("secret.suspect", 31)]
    assert hits[0]["message"] == ("looks like a API key (sk-...) once its invisible TAG "
                                  "characters are read as the ASCII they mirror: "
                                  "sk-p…[40 chars]")



def test_a_token_wrapped_by_escaped_line_breaks_is_warned_on_every_engine(monkeypatch):
    """QA s29 h29_07: a GitHub token wrapped at 20 characters by an escaped newline inside
    one string raised nothing. Its line is scanned with the escaped breaks removed on every
    engine and block path; `task-list` before a newline raises nothing."""
    token = "ghp_QA29wrappedTokenXYZ0123456789abcdef"
    events = make_run_events(60, seed=4, text_bytes=300, variety=0.0)
    events[30]["payload"]["text"] = f"wrapped {token[:20]}\n{token[20:]}"
    events[40]["payload"]["text"] = "my task-list\nrisk-assessment\n"
    rep = assert_same_reports(join([_dump(e) for e in chain_events(events)]), monkeypatch,
                              4096)
    hits = [f for f in rep["findings"] if f["rule"].startswith("secret")]
    assert [(f["rule"], f["line"]) for f in hits] == [("secret.suspect", 31)]
    assert hits[0]["message"] == ("looks like a GitHub token once the escaped line breaks "
                                  "inside it are removed: ghp_…[39 chars]")


@pytest.mark.parametrize("escape", [True, False])
def test_a_wrapped_token_with_an_escape_or_an_early_break_is_warned_on_every_engine(
        monkeypatch, escape):
    """Session 29's wrapped-token check missed a token when the line also held a `\\u`
    escape (that reading returned first) or when the break came under 8 characters after
    the marker; both are found on every engine, and the message says how the line was
    read."""
    token = "ghp_QA29wrappedTokenXYZ0123456789abcdef"
    events = make_run_events(60, seed=4, text_bytes=300, variety=0.0)
    events[30]["payload"]["text"] = (f"A wrapped {token[:20]}\n{token[20:]}" if escape
                                     else f"wrapped {token[:4]}\n{token[4:]}")
    events[40]["payload"]["text"] = "my task-\nlist\nrisk-assessment\n"
    lines = [_dump(e) for e in chain_events(events)]
    if escape:  # the same event (and hash) spelled with an escape a writer need not use
        lines[30] = lines[30].replace(b'"A wrapped ', b'"\\u0041 wrapped ')
        assert b"\\u0041 wrapped ghp_" in lines[30]
    rep = assert_same_reports(join(lines), monkeypatch, 4096)
    hits = [f for f in rep["findings"] if f["rule"].startswith("secret")]
    assert [(f["rule"], f["line"]) for f in hits] == [("secret.suspect", 31)]
    how = ("its JSON escapes are decoded and the escaped line breaks inside it are removed"
           if escape else "the escaped line breaks inside it are removed")
    assert hits[0]["message"] == f"looks like a GitHub token once {how}: ghp_…[39 chars]"


def test_a_token_split_over_two_adjacent_strings_is_warned_on_every_engine(monkeypatch):
    """A key cut over two members of one object (`"key_a": "sk-proj-QA30",
    "key_b": "splitKey..."`) or two elements of an array, the first starting with the
    marker, is read with the strings joined; two honest strings side by side raise
    nothing."""
    key = "sk-proj-QA30splitKey0123bbbbCCCCdddd4567"
    events = make_run_events(60, seed=4, text_bytes=300, variety=0.0)
    events[20]["payload"]["env"] = {"key_a": key[:12], "key_b": key[12:]}
    events[30]["payload"]["parts"] = [key[:20], key[20:]]
    events[40]["payload"]["env"] = {"a": "task-", "b": "abcdefghijklmnopqrstuvwxyz0123"}
    events[41]["payload"]["env"] = {"a": "risk-sk-", "b": "abcdefghijklmnopqrstuvwxyz0123"}
    rep = assert_same_reports(join([_dump(e) for e in chain_events(events)]), monkeypatch,
                              4096)
    hits = [f for f in rep["findings"] if f["rule"].startswith("secret")]
    assert [(f["rule"], f["line"]) for f in hits] == [("secret.suspect", 21),
                                                       ("secret.suspect", 31)]
    assert {f["message"] for f in hits} == {
        "looks like a API key (sk-...) once the adjacent strings it is split over are joined: "
        "sk-p…[40 chars]"}


# -- whole reports, accelerator on and off --------------------------------------------------
def _lines_only(block, ctx):
    return None


def _report(data: bytes, mode: str, monkeypatch, block: int, **kw) -> dict:
    with monkeypatch.context() as mp:
        mp.setattr(traj.stream, "BLOCK", block)
        if mode != "native":
            mp.setattr(native, "JCS", None)
        if mode == "lines":
            mp.setattr(traj.blocks, "columns_of", _lines_only)
        report = verify_bytes(data, parallel=False, **kw)
    d = report.to_dict()
    d["_events"] = report.events
    return d


def assert_same_reports(data: bytes, monkeypatch, block: int = 1 << 20, **kw) -> dict:
    lines = _report(data, "lines", monkeypatch, block, **kw)
    nat = _report(data, "native", monkeypatch, block, **kw)
    py = _report(data, "python", monkeypatch, block, **kw)
    assert json.dumps(nat, sort_keys=True) == json.dumps(lines, sort_keys=True), (
        "accelerator on != line by line", data[:3000])
    assert json.dumps(py, sort_keys=True) == json.dumps(lines, sort_keys=True), (
        "orjson columns != line by line", data[:3000])
    return nat


def _dump(ev: dict) -> bytes:
    try:
        return orjson.dumps(ev)
    except TypeError:  # an integer beyond 64 bits
        return json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()


_SECRET = "sk-" + "Ab3" * 8  # a made-up key shape, 24 characters after the marker
_PAYLOAD_EXTRAS = [
    {"seed_commitment": "0" * 64}, {"note": _SECRET}, {"note": "Bearer " + "x" * 24},
    {"\U0001f600k": 1, "\ue000k": 2, "k": 3}, {"f": 5e-324}, {"f": 1e-7}, {"f": -0.0},
    {"f": 1e308}, {"f": 1e21}, {"f": 9.5e-6}, {"n": 2**53}, {"n": 2**53 - 1},
    {"n": 10**15}, {"n": -(10**15) + 1}, {"s": "\x00\x1f\x7f\u2028\\\"/"}, {"deep": [[[[{}]]]]},
    {"e": {}}, {"e": []}, {"u": "\ud7ff\ue000\uffff\U0010ffff"}, {"PRIVATE KEY": "AKIA"},
]


def _mutate_event(ev: dict, rng: random.Random, i: int) -> None:
    kind = rng.randrange(12)
    if kind == 0:
        ev["extra"] = rng.choice((1, "x", None))  # an unknown envelope member
    elif kind == 1:
        ev["producer"], ev["trust_level"] = "agent", rng.choice(
            ("trusted_harness", "untrusted_agent"))
    elif kind == 2:
        ev["type"] = rng.choice(("seed_commitment", "eval_result", "score", "run_start",
                                 "run_end", "observation"))
    elif kind == 3:
        ev["wall_time"] = rng.choice(("2026-07-10T14:00:00Z", "2026-02-30T14:00:00.000Z",
                                      "2026-07-10T14:00:60.000Z", "2026-07-10T13:00:00.000Z",
                                      "2026-07-10T14:00:00.000+00:00", "garbage",
                                      "2026-07-10T24:00:00.000Z"))
    elif kind == 4:
        ev["producer_sequence"] = rng.choice((0, -1, 10**15 - 1, ev["producer_sequence"] + 5))
    elif kind == 5:
        ev["run_id"] = rng.choice(("other", "run_é", ev["run_id"] + "x"))
    elif kind == 6:
        ev["producer"] = f"p{rng.randrange(20)}"
    elif kind == 7:
        del ev[rng.choice(("type", "payload", "run_id", "wall_time"))]
    elif kind == 8:
        ev["schema"] = rng.choice(("ale-trajectory-event/v2", "ale-trajectory-event/v1 "))
    elif kind == 9:
        ev["payload"] = rng.choice(({}, [], "x"))
    else:
        ev["payload"].update(rng.choice(_PAYLOAD_EXTRAS))


def _respell_line(raw: bytes, rng: random.Random) -> bytes:
    """The same value spelled otherwise (its hash then still recomputes), or a repeat."""
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    opts = {"ws": rng.choice((0.0, 0.02)), "esc": rng.choice((0.0, 0.05)),
            "order": rng.choice(("keep", "cp", "u16", "shuffle")), "dup": rng.choice((0, 0.1)),
            "nums": rng.choice((0.0, 1.0))}
    return encode(spell(value, rng, opts))


def _mutate_lines(lines: list[bytes], rng: random.Random) -> list[bytes]:
    lines = list(lines)
    kind = rng.randrange(10)
    i = rng.randrange(len(lines))
    if kind == 0:
        raw = bytearray(lines[i])
        j = rng.randrange(len(raw))
        raw[j] ^= rng.choice((1, 0x20, 0x80, 0xFF))
        lines[i] = bytes(raw)
    elif kind in (1, 2, 3):
        lines[i] = _respell_line(lines[i], rng)
    elif kind == 4:
        lines.insert(i, rng.choice((lines[rng.randrange(len(lines))], b"", b"{}", b"[1]")))
    elif kind == 5 and len(lines) > 1:
        del lines[i]
    elif kind == 6:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 7:  # a float respelled in place: 9.5e-6 -> 9.5E-6, 1e-7 -> 1E-7
        lines[i] = re.sub(rb"(\d)e([-+]?\d)", rb"\1E\2", lines[i], count=1)
    elif kind == 8:
        lines[i] = lines[i] + rng.choice((b"\r", b" ", b"\t"))
    else:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return lines


SEEDS = ("seed-alpha-1234", "seed-beta-5678")
SEED_SECRET = "evaluator-secret-for-tests"


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(n=st.integers(10, 40), seed=st.integers(0, 2**32), ev_muts=st.integers(0, 3),
       line_muts=st.integers(0, 3), block=st.sampled_from((256, 1024, 4096, 1 << 20)),
       tail=st.sampled_from((False, False, True)), seeded=st.booleans())
def test_reports_identical_on_mutated_chains(monkeypatch, n, seed, ev_muts, line_muts, block,
                                             tail, seeded):
    rng = random.Random(seed)
    kw = {"seeds": SEEDS, "secret": SEED_SECRET} if seeded else {}
    events = make_run_events(n, seed=seed % 1000, variety=0.6, text_bytes=60, **kw)
    if seeded and rng.random() < 0.5:  # a seed leaked into a payload
        events[rng.randrange(4, n - 2)]["payload"]["note"] = rng.choice(SEEDS)
    for _ in range(ev_muts):
        i = rng.randrange(len(events))
        _mutate_event(events[i], rng, i)
    try:
        chained = chain_events(events)
    except ValueError:  # an event the reference cannot hash: not a chain this test makes
        return
    lines = [_dump(e) for e in chained]
    for _ in range(line_muts):
        lines = _mutate_lines(lines, rng)
    data = join(lines)
    if tail:
        data = data[:-1]
    assert_same_reports(data, monkeypatch, block, **kw)


def test_reports_identical_plain_chain(monkeypatch):
    """A valid chain in blocks small and large: the summary path is taken (middle blocks
    hold no commitment nor score claim) and agrees."""
    events = make_run_events(60, seed=3, variety=0.5, text_bytes=60)
    data = join([_dump(e) for e in chain_events(events)])
    summed = []
    real = traj.blocks.native_summary

    def counting(block, ctx, jcs):
        got = real(block, ctx, jcs)
        summed.append(got is not None)
        return got

    monkeypatch.setattr(traj.blocks, "native_summary", counting)
    for block in (512, 4096, 1 << 20):
        rep = assert_same_reports(data, monkeypatch, block)
        assert rep["verdict"] == "pass" and rep["_events"] == 60, rep["summary"]
    assert sum(summed) >= 3, summed


def _sealed_with_token(token: bytes, value: float) -> bytes:
    """A valid chain whose 12th line spells `value` as `token` (the hash recomputes: the
    value is the same double)."""
    events = make_run_events(30, seed=7, variety=0.0, text_bytes=40)
    events[11]["payload"]["f"] = value
    lines = [_dump(e) for e in chain_events(events)]
    spelled = orjson.dumps(value)
    assert spelled in lines[11]
    lines[11] = lines[11].replace(b'"f":' + spelled, b'"f":' + token, 1)
    assert json.loads(lines[11])["payload"]["f"] == value
    return join(lines)


@pytest.mark.parametrize("token,value", [
    (b"1E-7", 1e-7), (b"0.0000001", 1e-7), (b"1e-07", 1e-7), (b"-0", -0.0),
    (b"0.1e1", 1.0), (b"5E-324", 5e-324), (b"1e308", 1e308),
    # the underflow of the fast number path (see UNDERFLOW): same double, other digits
    (b"0." + b"0" * 323 + b"4", 5e-324),
    (b"0." + b"0" * 300 + b"3e-20", 3e-321),
    (b"0." + b"0" * 60 + b"123456789012345e-249", 1.23456789012345e-310),
], ids=range(10))
def test_reports_identical_respelled_float(monkeypatch, token, value):
    data = _sealed_with_token(token, value)
    for block in (2048, 1 << 20):
        rep = assert_same_reports(data, monkeypatch, block)
        assert not [f for f in rep["findings"] if f["rule"] == "chain.edited"], rep["findings"]


def test_reports_identical_forged_hash_for_c_spelling(monkeypatch):
    """A line whose recorded hash is that of the canonical form the C writer once gave
    (`4e-324` for the double 5e-324 spelled `0.000...4`), the rest of the chain sealed onto it:
    every verifier must call line 12 edited; with the accelerator on it must not pass."""
    events = make_run_events(30, seed=8, variety=0.0, text_bytes=40)
    events[11]["payload"]["f"] = 5e-324
    chained = chain_events(events)
    token = b"0." + b"0" * 323 + b"4"
    body = {k: v for k, v in chained[11].items() if k != "hash"}
    line = orjson.dumps(body).replace(b"5e-324", token)
    wrong = canonical_json(body).replace(b"5e-324", b"4e-324")
    forged = hashlib.sha256(body["prev_hash"].encode() + wrong).hexdigest()
    assert forged != event_hash(body["prev_hash"], body)
    assert JCS.canonical(line)[0] == canonical_json(body)
    lines = [_dump(e) for e in chained[:11]]
    lines.append(line[:-1] + b',"hash":"' + forged.encode() + b'"}')
    lines += [_dump(e) for e in chain_events(events[12:], prev_hash=forged)]
    rep = assert_same_reports(join(lines), monkeypatch)
    assert rep["verdict"] == "fail"
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [12]


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(payload=st.dictionaries(_KEYS, _VALUES, max_size=5), seed=st.integers(0, 2**32),
       block=st.sampled_from((512, 1 << 20)))
def test_reports_identical_generated_payloads(monkeypatch, payload, seed, block):
    """Generated payloads (nasty names, numbers, strings) inside an otherwise valid chain,
    each line spelled by orjson or respelled with the same value."""
    rng = random.Random(seed)
    events = make_run_events(16, seed=seed % 100, variety=0.3, text_bytes=40)
    for i in (5, 6, 9):
        events[i]["payload"] = dict(payload, **{"k": i})
    try:
        chained = chain_events(events)
    except ValueError:  # a lone surrogate, an inexact integer: the reference cannot hash
        return
    lines = []
    for e in chained:
        try:
            raw = _dump(e)
        except UnicodeEncodeError:
            return
        lines.append(_respell_line(raw, rng) if rng.random() < 0.3 else raw)
    assert_same_reports(join(lines), monkeypatch, block)


@pytest.mark.parametrize("text", [
    b'{"a":9007199254740992}', b'{"a":-9007199254740992}', b'{"a":9007199254740993}',
    b'{"a":1,"a":1}', b'{"b":0,"a":1,"a":1}', b'{"a":"\\ud83d"}', b'{"\\ude00":1}',
    b'{"a":  1}', b' {"a":1}', b'{"a":1}\n', _deep(255), b'{"a":1e400}', b'{"a":NaN}',
    b'{"a":"\xff"}', b'{"a":"\x01"}', b'{"a": 1,"b":2}', b'{"a":1 }',
], ids=range(17))
def test_canonical_declines_by_design(text):
    """What _jcs.c says it declines (integers beyond 2^53 - 1, repeats, lone surrogates,
    whitespace but json.dumps' one space after every separator, nesting beyond MAX_DEPTH,
    non-finite numbers, invalid text), it declines."""
    assert JCS.canonical(text) is None


@pytest.mark.parametrize("shape", [s for s in SHAPES if s != "plain"])
def test_reports_identical_every_payload_shape(monkeypatch, shape):
    """The bench's payload shapes (escapes, floats hard for RFC 8785, names outside the BMP,
    CJK, many members, deep nesting, integer arrays), valid and with one payload edited: the
    accelerator vouches for the valid blocks (a shape it declined would only be slow) and
    both engines give the same report."""
    events = make_run_events(40, seed=7, text_bytes=400, shape=shape)
    lines = [_dump(e) for e in chain_events(events)]
    if shape == "phpslashes":  # its spelling: every `/` as `\\/`, the schema's too
        lines = list(map(php_spelling, lines))
    if JCS is not None:
        block = join(lines[3:-2])  # no commitment nor score claim: a summary is possible
        assert JCS.summarise(block, traj.SCHEMA, MARKERS) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 4096)
    assert rep["verdict"] == "pass"
    edited = orjson.loads(lines[20])
    edited["payload"]["edited"] = 1.5e-7
    lines[20] = _dump(edited)
    rep = assert_same_reports(join(lines), monkeypatch, 4096)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [21]


@pytest.mark.parametrize(("php", "respelled"), [
    (range(40), []),  # PHP's writer throughout: no known writer, the check is off at line 2
    (range(20, 40), list(range(21, 41))),  # orjson's, then PHP's: each PHP line is edited
    (range(1), [1]),  # one PHP line, then orjson's: it is reported once line 2 is known
    (range(1, 40), list(range(2, 41))),  # orjson's run_start, then PHP's: each PHP line
])
def test_reports_identical_php_slashes(monkeypatch, php, respelled):
    """Lines written by PHP's json_encode (every `/` as `\\/`, the schema's too; QA s28's
    `phpslashes`, issue 15): the C scan takes them (it declined every line for its escaped
    schema, 30x the floor) and the summary carries the lines' spelling facts, which no writer
    explains (it declined such a block: line by line through Python); the spelling changing
    mid-file words the same `chain.respelled` findings in every engine."""
    lines = [_dump(e) for e in chain_events(make_run_events(40, seed=5, text_bytes=300,
                                                            shape="phpslashes"))]
    for i in php:
        lines[i] = php_spelling(lines[i])
    if JCS is not None and 25 in php:  # a block of PHP's lines: summarised, their facts too
        block = join(lines[25:35])
        assert JCS.summarise(block, traj.SCHEMA, MARKERS) is not None
        got = traj.blocks.native_summary(block, traj.LineContext(spelling=True), JCS)
        assert got is not None and got.spell_runs == ((10, got.spell),)
    for size in (4096, 1 << 20):
        rep = assert_same_reports(join(lines), monkeypatch, size, spelling=True)
        assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.respelled"] == \
            respelled
        assert not [f for f in rep["findings"] if f["rule"].startswith("chain.")
                    and f["rule"] != "chain.respelled"]


def test_reports_identical_screenshots_holding_secrets_markers(monkeypatch):
    """Base64 screenshots hold secrets markers by chance (`xox`, `AKIA`, `AIza`): the C
    summary carries those lines to the per-line secrets scan rather than declining the block
    (which sent it through Python line by line), and both engines give the same report: no
    finding for a near miss, the exact line for a real key beside it."""
    events = make_run_events(60, seed=3, text_bytes=600, shape="base64")
    for at, text in ((10, "xoxq"), (11, "AKIAxyz"), (12, "AIzaShort"), (13, "hf_x="),
                     (30, "xoxb-" + "A1b2C3d4E5" * 2), (31, "xox" * 200)):
        shot = events[at]["payload"]["screenshot"]
        shot["data"] = shot["data"][:100] + text + shot["data"][100:]
    lines = [_dump(e) for e in chain_events(events)]
    if JCS is not None:
        near = join(lines[5:25])  # near misses only: a summary, naming them
        spans = JCS.summarise(near, traj.SCHEMA, MARKERS)[12]
        assert [near[a:b] for a, b in spans] == lines[10:14]
        assert traj.blocks.native_summary(near, traj.LineContext(), JCS) is not None
        assert traj.blocks.native_summary(join(lines[25:35]), traj.LineContext(), JCS) is None
    rep = assert_same_reports(join(lines), monkeypatch, 4096)
    assert [(f["rule"], f["line"]) for f in rep["findings"] if f["rule"].startswith("secret")] \
        == [("secret.suspect", 31)]


@pytest.mark.parametrize("engine", ["native", "python"])
def test_index_path_scans_secrets_markers_without_examine_line(monkeypatch, engine):
    """The GUI's index path takes a block's columns (never its summary). A line holding a
    secrets marker by chance (base64 screenshots) takes the per-line secrets scan there too,
    as the C summary does, and only a line with a hit goes through `examine_line` (before,
    every marker line did: correct, and ~2.5x slower on the `base64` shape). The columns'
    facts are `examine_line`'s, and the index-building report is the line-by-line one."""
    if engine == "native" and JCS is None:
        pytest.skip("the C accelerator is not built")
    if engine == "python":
        monkeypatch.setattr(native, "JCS", None)
    events = make_run_events(60, seed=3, text_bytes=600, shape="base64")
    for at, text in ((10, "xoxq"), (11, "AKIAxyz"), (12, "AIzaShort"), (13, "hf_x="),
                     (30, "xoxb-" + "A1b2C3d4E5" * 2), (31, "xox" * 200)):
        shot = events[at]["payload"]["screenshot"]
        shot["data"] = shot["data"][:100] + text + shot["data"][100:]
    lines = [_dump(e) for e in chain_events(events)]
    ctx = traj.LineContext()
    near = traj.blocks.columns_of(join(lines[5:25]), ctx)
    assert near is not None and near.redo == set()  # was {5, 6, 7, 8}: the marker lines
    assert near.facts(ctx) == [(len(raw), traj.examine_line(raw, ctx)) for raw in lines[5:25]]
    hit = traj.blocks.columns_of(join(lines[25:35]), ctx)
    assert hit is not None and hit.redo == {5}  # line 31, the real key; not the `xox` run
    assert hit.facts(ctx) == [(len(raw), traj.examine_line(raw, ctx)) for raw in lines[25:35]]


def test_index_building_report_equals_the_summary_one_on_secrets_markers(monkeypatch):
    """The workstation's report (with the event index) and the CLI's (summaries) on
    screenshots holding markers and one real key: the same findings, line for line."""
    events = make_run_events(60, seed=3, text_bytes=600, shape="base64")
    for at, text in ((10, "xoxq"), (30, "xoxb-" + "A1b2C3d4E5" * 2)):
        shot = events[at]["payload"]["screenshot"]
        shot["data"] = shot["data"][:100] + text + shot["data"][100:]
    data = join([_dump(e) for e in chain_events(events)])
    gui = _report(data, "native", monkeypatch, 4096, build_index=True)
    cli = _report(data, "native", monkeypatch, 4096)
    assert gui["findings"] == cli["findings"]
    assert [(f["rule"], f["line"]) for f in gui["findings"] if f["rule"].startswith("secret")] \
        == [("secret.suspect", 31)]


@pytest.mark.parametrize("spell", [b"sk\\u002dproj", b"\\u0073k-proj", b"sk-\\u0070roj",
                                   b"\\u0073\\u006B\\u002D\\u0070roj"])
def test_a_secret_spelled_with_json_escapes_is_warned_at_its_line(monkeypatch, spell):
    """Any parser decodes `sk\\u002dproj-...` to the key, and `withhold` refuses it (session
    26); `verify` warned of the raw spelling only (s26-hostile open item 2). A line holding an
    escape of a printable character is scanned with its escapes decoded, on every engine and
    block path: the finding names the line and never the secret, and Go's HTML-safe escapes
    (`\\u003c`) and a `\\u005c` chain 50,000 deep raise nothing."""
    key = "sk-proj-" + "Qa27" * 8
    events = make_run_events(60, seed=3, text_bytes=300, variety=0.0)
    events[30]["payload"]["text"] = "export KEY=" + key
    events[40]["payload"]["text"] = "<b>bold</b> & more"
    events[41]["payload"]["text"] = "\\" + "u005c" * 50_000 + "u002d"
    lines = [_dump(e) for e in chain_events(events)]
    lines[41] = lines[41].replace(b"\\\\", b"\\u005c", 1)  # decoded once: another escape
    lines[30] = lines[30].replace(b"sk-proj", spell, 1)
    lines[40] = lines[40].replace(b"<", b"\\u003c").replace(b"&", b"\\u0026")
    assert key.encode() not in lines[30] and b"\\u003c" in lines[40]
    assert lines[41].count(b"\\u005cu005c") == 1
    rep = assert_same_reports(join(lines), monkeypatch, 4096)
    hits = [f for f in rep["findings"] if f["rule"].startswith("secret")]
    assert [(f["rule"], f["line"]) for f in hits] == [("secret.suspect", 31)]
    assert hits[0]["message"] == ("looks like a API key (sk-...) once its JSON escapes are "
                                  "decoded: sk-p…[40 chars]")
    assert rep["verdict"] == "pass"
