"""The C accelerator's fast paths at their edges: UTF-8 validation (`utf8_run` in _jcs.c, a
character per 4-byte load) against Python's strict decoder at every position of a 64-byte
string, and the shortest-digits test of 16-17 digit float tokens where its first candidate
double misses (the side it then searches).

`_jcs.canonical` must decline a line exactly when a string in it is not valid UTF-8 (a stray
continuation byte, a cut sequence, an overlong form, a surrogate, a code point beyond
U+10FFFF), and otherwise give the reference bytes, in a member name and in a value, plain and
between escapes (the two scans that call the validator). A member name outside the BMP must
also be noted as such: it sorts differently in UTF-16, and the reference order checks it.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_native_fuzz import check_canonical, reference

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json

jcs = native.JCS
pytestmark = pytest.mark.skipif(jcs is None, reason="the C accelerator is not built here")

# valid characters of each length, the edges of each range included
GOOD = ["a", " ", "é", "\u0080", "\u07ff", "\u0800", "数", "語", "\ud7ff", "\ue000", "\uffff",
        "\U00010000", "\U0001f600", "\U0010ffff", "\x7f"]
# what strict UTF-8 refuses (RFC 3629): stray continuations, overlong forms, surrogates, beyond
# U+10FFFF, bytes never used, and sequences cut short by ASCII
BAD = [b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf",
       b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf",
       b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf7\xbf\xbf\xbf", b"\xf8\x88\x80\x80\x80",
       b"\xfe", b"\xff", b"\xe6\x95a", b"\xe6a", b"\xf0\x9f\x98a", b"\xc3a", b"\xe6\x95\xb0\xb0"]
# a 64-byte string of mixed lengths (3-byte CJK most), so each position is tried at each
# alignment against its neighbours
BASE = "数据训练é模型😀奖励 步骤x帧策略批次游戏ñab!"


def _line(text: bytes, where: str) -> bytes:
    """A line holding `text` as a member name, a value, or a value after an escape, next to a
    name outside the BMP and one just below it (their order depends on the name's flags)."""
    if where == "key":
        return b'{"\xee\x80\x80":1,"' + text + b'":2,"\xf0\x9f\x98\x80":3}'
    if where == "escaped":
        return b'{"v":"x\\n' + text + b'\\t"}'
    return b'{"v":"' + text + b'","w":"' + text + b'z"}'


def _check(text: bytes, where: str) -> None:
    line = _line(text, where)
    got = jcs.canonical(line)
    try:
        pairs = json.loads(line.decode("utf-8"), object_pairs_hook=lambda kv: kv)
    except UnicodeDecodeError:
        assert got is None, line
        return
    if len({k for k, _ in pairs}) < len(pairs):  # the name repeats a neighbour's
        assert got is None, line
        return
    value = dict(pairs)
    assert got is not None, line
    assert got[0] == canonical_json(value), line
    assert bool(got[1] & jcs.ST_ASCII) is (max(line) < 0x7f)  # ASCII: no byte >= 0x80, no DEL


def test_the_base_string_is_64_bytes_and_vouched_for_everywhere():
    base = BASE.encode()
    assert len(base) == 64
    for where in ("key", "value", "escaped"):
        got = jcs.canonical(_line(base, where))
        assert got is not None and got[0] == canonical_json(json.loads(_line(base, where)))


@pytest.mark.parametrize("where", ["key", "value", "escaped"])
@pytest.mark.parametrize("bad", BAD, ids=[b.hex() for b in BAD])
def test_invalid_utf8_is_declined_at_every_position(bad, where):
    base = BASE.encode()
    for i in range(len(base) + 1):
        _check(base[:i] + bad + base[i:], where)
        _check(base[:i] + bad, where)  # cut at the string's end as well


@pytest.mark.parametrize("where", ["key", "value", "escaped"])
@pytest.mark.parametrize("good", GOOD, ids=[g.encode().hex() for g in GOOD])
def test_every_valid_length_at_every_position(good, where):
    base = BASE.encode()
    for i in range(len(base) + 1):
        _check(base[:i] + good.encode() + base[i:], where)


def test_a_non_bmp_name_sorts_in_utf16_order_after_text_of_every_length():
    # the 4-byte character last, after 3-, 2- and 1-byte ones: the name must still be noted
    # as outside the BMP, so it sorts before U+E000 (UTF-16) and not after (code points)
    for prefix in ("", "a", "é", "数", "数据训练模型奖励步骤", "é数a😀"):
        name = (prefix + "\U0001f600").encode()
        got = jcs.canonical(b'{"' + prefix.encode() + b'\xee\x80\x80":1,"' + name + b'":2}')
        expected = canonical_json({prefix + "\ue000": 1, prefix + "\U0001f600": 2})
        assert got is not None and got[0] == expected
        assert got[0].index(name) < got[0].index(prefix.encode() + b"\xee\x80\x80")


_piece = st.one_of(st.sampled_from([g.encode() for g in GOOD]), st.sampled_from(BAD),
                   st.binary(min_size=1, max_size=4).filter(lambda b: not set(b) & set(b'"\\')
                                                            and min(b) >= 0x20))


@settings(max_examples=400, deadline=None)
@given(st.lists(_piece, max_size=40), st.sampled_from(["key", "value", "escaped"]))
def test_random_bytes_are_declined_exactly_when_python_refuses_them(pieces, where):
    _check(b"".join(pieces), where)


# -- 16-17 digit float tokens ---------------------------------------------------------------

def _first_candidate(token: str) -> tuple[float, float]:
    """(the double `token` names, the first candidate _jcs tries: D * 10^q or D / 10^-q in
    double arithmetic, D the token's digits as an integer)."""
    mant, _, exp = token.lstrip("-").partition("e")
    whole, _, frac = mant.partition(".")
    digits = (whole + frac).lstrip("0")
    q = int(exp or 0) - len(frac) + len(digits) - len(digits.rstrip("0"))
    d = int(digits.rstrip("0"))
    x0 = float(d) * float(f"1e{q}") if q >= 0 else float(d) / float(f"1e{-q}")
    return float(token.lstrip("-")), x0


def test_tokens_whose_first_candidate_misses_on_either_side():
    """Shortest 16-17 digit tokens whose first candidate double is one unit below or above
    theirs (the search then takes one side), with their neighbours one digit off (no
    writer's, often the same double): each comes out as the reference spells it, and none
    is declined."""
    rng = random.Random(1516)
    below = above = 0
    tokens = []
    while below < 300 or above < 300:
        x = rng.random() * 10.0 ** rng.randint(-30, 30)
        token = repr(x)
        if len(token.split("e")[0].replace(".", "").lstrip("0")) < 16:
            continue
        real, x0 = _first_candidate(token)
        if x0 == real:
            continue
        below += x0 < real
        above += x0 > real
        tokens.append(token)
        mant, e, exp = token.partition("e")
        tokens.append(mant[:-1] + str((int(mant[-1]) + 1) % 10) + e + exp)
        tokens.append("-" + token)
    for token in tokens:
        got = check_canonical(b'{"a":' + token.encode() + b"}")
        assert got is not None, token


@pytest.mark.parametrize("x", [4.1e-7, -4.1299974270514775e-07, 1.5e-8, 3e-9, 1.5e-10, 2.5e-6,
                               1e-5, 6.02e23, -1e21, 1e22, 1.7976931348623157e308, 5e-324,
                               2.2250738585072014e-308, 0.1, 1.2345678901234567e-300])
def test_each_writers_spelling_of_a_float_far_from_one_keeps_its_own_flags(x):
    """The token as RFC 8785, repr and orjson spell it: each is written in the RFC 8785 form,
    and a flag says which writers' spelling it is (repr pads `e-07` where the others write
    `e-7`; orjson and RFC 8785 part below 1e-5)."""
    import orjson

    from moderator_app.core.formats.canonical import es6_number

    spelled = {"es6": es6_number(x), "repr": repr(x), "orjson": orjson.dumps(x).decode()}
    for token in set(spelled.values()):
        got = jcs.canonical(b"[" + token.encode() + b"]")
        assert got is not None and got[0] == b"[" + spelled["es6"].encode() + b"]", token
        flags = got[1]
        assert bool(flags & jcs.ST_MIN) is (token == spelled["es6"]), token
        assert bool(flags & jcs.ST_F_REPR) is (token == spelled["repr"]), token
        assert bool(flags & jcs.ST_F_ORJSON) is (token == spelled["orjson"]), token


# -- number tokens: one scan of spans (parse_number's digit_run) ---------------------------
# trailing zeros across the point, leading zeros after it, digit runs of 15-17 and past 16
# (the scanner's window), more than 39 significant digits, every exponent form, the 2^53 edge
NUMBERS = ["0", "-0", "7", "0.1", "1.0", "1500.000", "100.5", "10.05", "0.000123", "0.0",
           "-0.0", "0e5", "0E-0", "1E+005", "1e-007", "-1.5e+0021", "4.1e-7", "6.02e+23",
           "1" + "0" * 20 + ".0", "1." + "0" * 45, "0." + "0" * 20 + "1", "0." + "0" * 16 + "5",
           "1234567890123456789012345678901234567890123.5", "0.1234567890123456789012345678",
           "9007199254740991", "9007199254740992", "-9007199254740991", "1234567890123456",
           "1.2345678901234567", "123456789.01234567", "0.30000000000000004",
           "12345678901234567.0", "1234567890123456.7", "0.0000000000000001234567890123456",
           "1e400", "-1e400", "1e-400", "0.0e-400", "1e99999999999", "5e-324", "2e-324",
           "17976931348623157e292", "1.7976931348623157e308"]
NOT_NUMBERS = ["1.", "1e", "1e+", ".5", "01", "-", "--1", "1.e5", "+1", "1.5e", "-01.5", "00",
               "1.5.5", "1e5.5", "-.5"]


def _integer_beyond_2_53(token: str) -> bool:
    return token.lstrip("-").isdigit() and abs(int(token)) > 2**53 - 1


@pytest.mark.parametrize("token", NUMBERS + NOT_NUMBERS)
def test_number_tokens_at_every_distance_from_the_line_end(token):
    """Each token as a member's value with 0-40 bytes after it before the line ends (the
    scanner takes 16 bytes at a time where the line has them, a byte at a time near its end),
    and in an array: the reference's bytes and flags, declined only where the reference
    refuses the token or where the 2^53 rule is the Python path's."""
    for pad in range(0, 41, 3):
        tail = b"" if pad == 0 else b',"z":"' + b"x" * pad + b'"'
        for text in (b'{"a":' + token.encode() + tail + b"}",
                     b"[" + token.encode() + b"," + token.encode() + b"]"):
            got = check_canonical(text)
            declines = reference(text) is None or _integer_beyond_2_53(token)
            assert (got is None) is declines, (text, got)


# -- member orders seen before (parse_object's KeyOrder cache) -------------------------------
# names that share a hash (same 8-byte prefix and length: `abcdefgh_1`/`abcdefgh_2`), names
# outside the BMP and just below (their UTF-16 order differs from code point order), a name
# spelled with an escape (`\u0061` is `a`: a repeat only once unescaped), and the empty name
NAMES = ["a", "b", "abcdefgh_1", "abcdefgh_2", "abcdefgh_1x", "abcdefgh", "\ue000", "😀",
         "😀a", "é", "", "zz"]


def _object(names: list[str], rng: random.Random) -> bytes:
    parts = []
    for name in names:
        spelled = json.dumps(name, ensure_ascii=False)
        if name == "a" and rng.random() < 0.2:
            spelled = '"\\u0061"'
        parts.append(spelled + ":" + str(rng.randint(0, 9)))
    return ("{" + ",".join(parts) + "}").encode()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.sampled_from(NAMES), min_size=2, max_size=18), min_size=1,
                max_size=4), st.integers(0, 2**32))
def test_objects_repeating_a_member_order_come_out_as_the_reference(templates, seed):
    """Arrays of objects whose name sequences repeat (the order is then taken from the first
    of them), repeat with one name changed past its first 8 bytes, with a name repeated, or in
    another order: every line is the reference's bytes or declined where the reference refuses
    it (a repeated name), never vouched for with the order of another sequence."""
    rng = random.Random(seed)
    objects = []
    for _ in range(40):
        names = list(rng.choice(templates))
        roll = rng.random()
        if roll < 0.1:
            names[rng.randrange(len(names))] = rng.choice(NAMES)
        elif roll < 0.2:
            rng.shuffle(names)
        objects.append(_object(names, rng))
    line = b"[" + b",".join(objects) + b"]"
    got = check_canonical(line)
    assert (got is None) is (reference(line) is None), line


def test_a_sequence_sharing_a_cached_orders_hash_is_checked_name_by_name():
    """`abcdefgh_1`, `abcdefgh_2` then `abcdefgh_1`, `abcdefgh_1`: the same prefixes and
    lengths (the same hash, the same slot), but the second repeats a name: declined, after the
    first was vouched for in the same call; and the other way round, a sequence first seen
    with a repeat does not make its unrepeated twin declined."""
    ok = b'{"abcdefgh_2":1,"abcdefgh_1":2}'
    twice = b'{"abcdefgh_1":1,"abcdefgh_1":2}'
    assert jcs.canonical(b"[" + ok + b"," + ok + b"]")[0] == (
        b'[{"abcdefgh_1":2,"abcdefgh_2":1},{"abcdefgh_1":2,"abcdefgh_2":1}]')
    assert jcs.canonical(b"[" + ok + b"," + twice + b"]") is None
    assert jcs.canonical(b"[" + twice + b"," + ok + b"]") is None  # (the repeat declines)
    # in order already, with the hash of one that is not: not reordered as that one was
    assert jcs.canonical(b"[" + ok + b"," + ok.replace(b"_2", b"_0") + b"]")[0] == (
        b'[{"abcdefgh_1":2,"abcdefgh_2":1},{"abcdefgh_0":1,"abcdefgh_1":2}]')


# -- short value strings (parse_string's one-load path) --------------------------------------
SHORT_PIECES = [b"", b"\x7f", b"\x01", b"\\n", b'\\"', b"\\u001b", b"\\u0041", b"\xc3\xa9",
                b"\xf0\x9f\x98\x80", b"\xff", b"\\", b'"']


@pytest.mark.parametrize("piece", SHORT_PIECES, ids=[p.hex() or "none" for p in SHORT_PIECES])
def test_short_values_with_each_piece_at_each_position(piece):
    """Value strings of 0-17 bytes (one 16-byte load holds the string and its closing quote
    up to 15 bytes) with the piece at every position, 0-20 bytes from the line's end: the
    reference's bytes and flags, declined exactly where the reference refuses the line."""
    for size in range(0, 18):
        for at in range(0, size + 1):
            text = b"abcdefghijklmnopq"[:at] + piece + b"abcdefghijklmnopq"[at:size]
            for tail in (b"", b",1", b',"z":"' + b"y" * 14 + b'"'):
                for line in (b'{"v":"' + text + b'"' + tail + b"}",
                             b'["' + text + b'","' + text + b'"' + tail + b"]"):
                    got = check_canonical(line)
                    assert (got is None) is (reference(line) is None), line
