"""A spaced hex dump's rows of bytes alone read many at a time (session 36, escape; issue 15,
QA s35 T7): `secrets_bytes._dump_runs` reads the rows that hold two-digit bytes only
(openssl's, 15 a row, each ending in its separator) in one `_PAIR_ROWS` call, and any other row
(an offset, an ASCII column, four-digit groups) with `_NEXT` as `_dump_runs_py` reads every row
(~28 s per 512 MiB of openssl colon hex to verify, 360 rows an observation). The same runs, ends
and bytes on exact dump shapes and on fuzzed pieces."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import native
from moderator_app.core.formats import secrets_bytes as sb

FUZZ = settings(max_examples=400, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PIECES = [b"4e_", b"4e", b"a1", b"ff", b"00", b":", b"-", b" ", b"  ", b"\\n", b"\n", b"\r\n",
          b"\\r\\n", b"    ", b"\t", b"0010", b"00000010: ", b"0010  ", b"abcdef ", b"|ab.c|",
          b"   ab.c", b"z", b"\\\"", b"|", b"4e:52:a1:ff:00:11:22:33:",
          b"41 41 41 41 41 41 41 41", b"4142 4344 4546 4748 ", b"_"]
KEY = b"xkeysib-0f1e2d3c4b5a69788796a5b4c3d2e1f0-QA36rows"


def _openssl(data: bytes, sep: bytes) -> bytes:
    return (sep + b"\\n").join(b"    " + sep.join(b"%02x" % c for c in data[i:i + 15])
                               for i in range(0, len(data), 15))


def _hexdump_c(data: bytes) -> bytes:
    rows = []
    for i in range(0, len(data), 16):
        cells = [b"%02x" % c for c in data[i:i + 16]]
        shown = bytes(c if 32 <= c < 127 and c != 124 else 46 for c in data[i:i + 16])
        rows.append(b"%08x  %-23s  %-23s  |%s|" % (i, b" ".join(cells[:8]), b" ".join(cells[8:]),
                                                   shown))
    return b"\\n".join(rows)


@pytest.mark.parametrize("line", [
    b'{"summary": "$ openssl rsa -text\\n' + _openssl(KEY, b":") + b'"}',
    b'{"summary": "' + _openssl(KEY, b":") + b'z"}',  # (the last byte runs on into a word)
    b'{"summary": "' + _openssl(KEY, b":") + b'_"}',
    b'{"summary": "' + _openssl(KEY, b"-").upper() + b'"}',
    b'{"summary": "' + _openssl(KEY, b" ") + b'"}',
    b'{"summary": "' + _hexdump_c(KEY) + b'"}',
    b"dump:\n" + _hexdump_c(KEY).replace(b"\\n", b"\r\n"),
    b'{"summary": "' + _openssl(bytes(range(256)) * 4, b":") + b'"}',
    b'{"summary": "' + _openssl(KEY, b":") + b'\\n\\n' + _openssl(KEY[::-1], b":") + b'"}',
    b'{"summary": "' + _openssl(KEY, b":").replace(b"\\n    ", b"\\n0010: ", 1) + b'"}',
])
def test_rows_many_at_a_time_are_the_rows_one_by_one(line):
    want = list(sb._dump_runs_py(line))
    assert want  # (each shape is a dump)
    assert list(sb._dump_runs(line)) == want


def test_a_key_across_openssl_rows_is_one_run():
    line = b'{"summary": "' + _openssl(b"\x00" * 300 + KEY, b":") + b'"}'
    runs = list(sb._dump_runs(line))
    assert len(runs) == 1 and runs[0][2].endswith(KEY)


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from([1, 1, 2, 8])),
                max_size=80).map(lambda ps: b"".join(p * k for p, k in ps)))
def test_fuzzed_dumps_read_alike(data):
    assert list(sb._dump_runs(data)) == list(sb._dump_runs_py(data))


@pytest.mark.skipif(native.UNESCAPE is None, reason="the C accelerator is not built")
@FUZZ
@given(st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from([1, 1, 2, 8])),
                max_size=80).map(lambda ps: b"".join(p * k for p, k in ps)),
       st.integers(0, 40))
def test_the_rows_in_c_are_the_regex_rows(data, pos):
    assert native.UNESCAPE.pair_rows(data, pos) == sb._pair_rows_py(data, min(pos, len(data)))


def test_the_rows_in_python_are_the_rows_one_by_one(monkeypatch):
    monkeypatch.setattr(sb, "_pair_rows", sb._pair_rows_py)
    line = b'{"summary": "' + _openssl(KEY, b":") + b'\\n0010  41 42|AB|\\n' + b'"}'
    assert list(sb._dump_runs(line)) == list(sb._dump_runs_py(line))
    assert list(sb._dump_runs(line))[0][2] == KEY + b"AB"  # (the offset row read by _NEXT)


def test_random_rows_read_alike():
    rng = random.Random(36)
    for _ in range(300):
        data = b"".join(rng.choice(PIECES) * rng.choice([1, 1, 2, 8])
                        for _ in range(rng.choice([20, 80, 200])))
        assert list(sb._dump_runs(data)) == list(sb._dump_runs_py(data))


# `DUMP` as written before session 37 (its lookbehinds first, `re` trying them at every byte):
# the reference its digit-first spelling must match span for span.
_LOOKBEHIND_FIRST = re.compile(
    rb"(?:(?<![0-9A-Za-z_])|(?<=\\[nrt]))"
    rb"(?:[0-9A-Fa-f]{2}(?:" + sb._DSEP + rb"[0-9A-Fa-f]{2}" + sb._END + rb"){7,}+"
    rb"|[0-9A-Fa-f]{4}(?: [0-9A-Fa-f]{4}" + sb._END + rb"){3,}+"
    rb"|[0-9A-Fa-f]{8}(?: [0-9A-Fa-f]{8}" + sb._END + rb"){2,}+)")
_PIECES = [b"0", b"a", b"F", b"9", b" ", b"  ", b":", b"-", b"g", b"_", b"\\n", b"\\t", b"\\",
           b"n", b"x", b"\n", b"12", b"ab ", b"1234 ", b"deadbeef ", b"41 ", b"4f:", b"z12"]


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=60))
def test_dump_pieces_start_where_the_lookbehind_first_pattern_did(pieces):
    raw = b"".join(pieces)
    assert ([m.span() for m in sb.DUMP.finditer(raw)]
            == [m.span() for m in _LOOKBEHIND_FIRST.finditer(raw)])


def test_dump_pieces_start_after_an_escaped_break_and_not_inside_a_word():
    raw = b"x\\n66 6f 6f 20 62 61 72 21 zz66 6f 6f 20 62 61 72 21 -1234 5678 9abc def0"
    assert [m.span() for m in sb.DUMP.finditer(raw)] == [(3, 26), (54, 73)]


# `_NEXT`'s rows in C (session 39, dumps; QA s38 T6): od -x's and hexdump -C's rows were a
# `_NEXT.match` each. The same end and digits as the regex read row after row, on the pieces
# above and on pieces of every choice `_NEXT` makes (columns of both forms, offsets of 4-9
# digits with `:`, one to five blanks, groups of 1-9 digits, escaped quotes and backslashes).
_ROW_PIECES = PIECES + [b"0000020 ", b"000020 ", b"00000010  ", b"0010:", b"0010:  ", b"abcd",
                        b"abcdef", b"abcdefab", b"abcdefab1", b"1", b"  |", b"   ", b"\\\\",
                        b"\\/", b"\\\"", b"\r", b"\\r", b" 6b72 6c5f", b">", b"|abcdefghijklmnop|",
                        b"   abcdefghijklmnopq", b"     "]


def _rows_by_regex(data: bytes, pos: int) -> tuple[int, bytes]:
    digits, end = [], pos
    while (nxt := sb._NEXT.match(data, end)) is not None:
        digits.append(nxt.group(1).translate(None, sb._NOT_HEX))
        end = nxt.end()
    return end, b"".join(digits)


@pytest.mark.skipif(native.UNESCAPE is None, reason="the C accelerator is not built")
@FUZZ
@given(st.lists(st.tuples(st.sampled_from(_ROW_PIECES), st.sampled_from([1, 1, 2, 8])),
                max_size=80).map(lambda ps: b"".join(p * k for p, k in ps)),
       st.integers(0, 40))
def test_the_dump_rows_in_c_are_next_row_after_row(data, pos):
    pos = min(pos, len(data))
    assert native.UNESCAPE.dump_rows(data, pos) == _rows_by_regex(data, pos)


@pytest.mark.skipif(native.UNESCAPE is None, reason="the C accelerator is not built")
def test_random_dump_rows_in_c_are_next_row_after_row():
    rng = random.Random(39)
    for _ in range(20000):
        data = b"".join(rng.choice(_ROW_PIECES) * rng.choice([1, 1, 2, 3])
                        for _ in range(rng.choice([4, 12, 40])))
        pos = rng.randrange(len(data) + 1)
        assert native.UNESCAPE.dump_rows(data, pos) == _rows_by_regex(data, pos), (data, pos)
    od_x = b"6b72 6c5f\\n0000020 7669 5f65 4151 3833\\n0000024"
    assert native.UNESCAPE.dump_rows(od_x, 9) == (len(od_x), b"7669" b"5f65" b"4151" b"3833"
                                                  b"0000024")
