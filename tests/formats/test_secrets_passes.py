"""The decoding and gate passes over escape-heavy and hex-heavy lines (session 35, escape; issue
15, QA s34 T8) against the loops they replace: the reader's gate (`secrets_public.reader_spots`)
with its runs skipped in C (`_unescape.reader_next`) gives the spots of the Python loop, and the
hex runs read over a dump's line breaks (`secrets_decode._hex_runs`, one regex a dump) are
`_hex_runs_py`'s, on exact shapes and on fuzzed bytes. 128 MiB of `xxd -p` output took 54 s of
CPU scaled to 512 MiB to withhold, the bar 30 s."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import native
from moderator_app.core.formats import secrets_decode as sd
from moderator_app.core.formats import secrets_public as sp

C = native.UNESCAPE
FUZZ = settings(max_examples=400, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# what the gate's runs and a dump's pieces are made of, and what ends them
PIECES = [b"a", b"A", b"0", b"f", b"9", b"\\", b"n", b"r", b'"', b" ", b"/", b"_", b"=", b"-",
          b"\r", b"\n", b"g", b".", b":",
          b"746f6b656e2d616263646566676869", b"4232c8703fe08b40c59f3247e148f099",
          b"ABCdef0123456789xyz", b"\\u00ad", b"\xe2\x80\x8b"]
TEXT_HEX = b"grafana-token-abcdef".hex().encode()  # hex of text: the gate asks it
DIGEST = bytes(range(200, 232)).hex().encode()  # hex of bytes: it does not


def _python_spots(data: bytes, formats: bool, limit: int, monkeypatch) -> list[int]:
    with monkeypatch.context() as m:
        m.setattr(native, "UNESCAPE", None)
        return sp.reader_spots(data, formats, limit)


def _line(rng: random.Random, size: int) -> bytes:
    return b"".join(rng.choice(PIECES) * rng.choice([1, 1, 2, 40]) for _ in range(size))


needs_c = pytest.mark.skipif(C is None, reason="the C accelerator is not built")


@needs_c
@pytest.mark.parametrize(("data", "want"), [
    (b'{"a": "' + DIGEST + b'"}', []),
    (b'{"a": "' + TEXT_HEX + b'"}', [7]),
    (b'{"a": "x\\n' + TEXT_HEX + b'"}', [9]),  # (`\n` then the hex: the run starts at `n`)
    (b'{"a": "abcdefghijklmnopq", "b": "abcdefghijklmnop7Q"}', [33]),
    (b'{"a": "' + b"Ab1" * 2000 + b'"}', []),  # (a run of 4,096+: a payload, not asked)
    (b'{"a": "' + b"Ab1xAb1xAb1xAb1xAb1x/" * 300 + b'"}', []),  # (one string of 4,096+
    # without a space: a payload's pieces, not asked)
    (b'{"a": "' + b"Ab1xAb1xAb1xAb1xAb1x/" * 300 + b' x"}', list(range(7, 6307, 21))),
])
def test_the_reader_gate_in_c_names_the_runs_the_python_loop_names(data, want, monkeypatch):
    assert sp.reader_spots(data) == want
    assert _python_spots(data, True, sp._SPOTS_MAX, monkeypatch) == want


@needs_c
@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join),
       st.sampled_from([1, 2, sp._SPOTS_MAX]), st.booleans())
def test_the_reader_gate_in_c_and_python_agree_on_fuzzed_lines(data, limit, formats):
    with pytest.MonkeyPatch.context() as m:
        want = _python_spots(data, formats, limit, m)
    assert sp.reader_spots(data, formats, limit) == want


@needs_c
@pytest.mark.parametrize("seed", range(4))
def test_the_reader_gate_in_c_and_python_agree_on_long_lines(seed, monkeypatch):
    line = _line(random.Random(seed), 3000)
    assert sp.reader_spots(line) == _python_spots(line, True, sp._SPOTS_MAX, monkeypatch)
    assert sp.reader_spots(line, limit=1) == _python_spots(line, True, 1, monkeypatch)


def test_a_wrapped_dump_is_one_hex_run_read_whole():
    text = b" ".join(random.Random(1).choice([b"flag", b"level", b"score"]) for _ in range(3000))
    hexed = text.hex().encode()
    dump = b"\\n".join(hexed[i:i + 60] for i in range(0, len(hexed), 60))
    line = b'{"summary": "$ xxd -p chunk.bin\\n' + dump + b'"}'
    start = line.index(dump)
    assert list(sd._hex_runs(line)) == [(start, start + len(dump))]
    assert list(sd._hex_runs_py(line)) == [(start, start + len(dump))]
    how, got, is_text, column = [v for v in sd.views(line) if v[0] == sd.HEX][0]
    assert (got, is_text, column) == (text, True, start + 1)


@pytest.mark.parametrize(("tail", "end"), [
    (b"\\n" + b"ab" * 31, 62),  # (a piece wider than the first: not of the dump)
    (b"\\n" + b"ab" * 30 + b"g", 62),  # (a piece that runs into a word)
    (b"\\n" + b"ab" * 10 + b"\\n" + b"ab" * 30, 84),  # (a narrower piece ends the dump)
    (b"\r\n" + b"ab" * 30 + b"\\r\\n" + b"ab" * 30, 188),
])
def test_a_dump_ends_where_the_loop_over_its_pieces_ends(tail, end):
    line = b"x " + b"cd" * 30 + tail + b" y"
    runs = list(sd._hex_runs(line))
    assert runs[0] == (2, end)
    assert runs == list(sd._hex_runs_py(line))
    first = line[2:end]
    assert first.translate(None, sd._WRAP_BYTES) == sd._HEX_WRAP.sub(b"", first)


@FUZZ
@given(st.lists(st.sampled_from([b"\n", b"\r\n", b"\\n", b"\\r\\n", b"\r", b" ", b"\\", b"g",
                                 b"_", b"-", b".", b":", b'"', b"x", b"ab" * 16, b"cd" * 16,
                                 b"ef" * 8, b"01", b"a"]), max_size=40).map(b"".join))
def test_hex_runs_and_the_loop_over_pieces_agree_on_fuzzed_lines(line):
    runs = list(sd._hex_runs(line))
    assert runs == list(sd._hex_runs_py(line))
    for start, end in runs:
        run = line[start:end]
        assert run.translate(None, sd._WRAP_BYTES) == sd._HEX_WRAP.sub(b"", run)


# The run patterns as they were written before session 35 (a group repeated first: `re` tried
# it at every byte), the reference the literal-first ones are held to
_OLD_RUNS = {
    "_U_RUN": rb"(?:\\\\?u[0-9A-Fa-f]{4}[^\\\s\"']{0,3}+){4}",
    "_U_WRITTEN": rb"(?:\\\\u[0-9A-Fa-f]{4}[^\\\s\"']{0,3}+){4}",
    "_ESC_RUN": rb"(?:\\\\?x[0-9A-Fa-f]{2}){4}|(?:&#[0-9]{2,3};){4}|(?:&#[xX][0-9A-Fa-f]{2};){4}",
    "_PCT_RUN": rb"(?:%[0-9A-Fa-f]{2}){4}"
                rb"|%(?:2[DdEe]|3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])",
}
ESCAPES = [b"\\u0041", b"\\\\u00e9", b"\\u00", b"\\x4f", b"\\\\x41", b"&#65;", b"&#x4A;",
           b"&#123;", b"%41", b"%2f", b"%", b"\\", b"ab", b"a", b'"', b" ", b"'", b"\n", b"z"]


@FUZZ
@given(st.lists(st.sampled_from(ESCAPES), max_size=30).map(b"".join))
def test_the_run_patterns_match_where_the_group_first_ones_did(line):
    import re

    for name, old in _OLD_RUNS.items():
        new = getattr(sd, name)
        assert [m.span() for m in new.finditer(line)] == \
            [m.span() for m in re.compile(old).finditer(line)], name


@pytest.mark.parametrize(("name", "line", "span"), [
    ("_U_RUN", b"x \\u0067\\u0073\\\\u006bq\\u0041 y", (2, 28)),
    ("_U_WRITTEN", b"x \\\\u0067\\\\u0073\\\\u006b\\\\u0041 y", (2, 30)),
    ("_ESC_RUN", b"a \\x41\\\\x42\\x43\\x44 &#65;", (2, 19)),
    ("_ESC_RUN", b"a &#65;&#066;&#67;&#68; b", (2, 23)),
    ("_PCT_RUN", b"a %20%20%20%20 b", (2, 14)),
    ("_PCT_RUN", b"a %20 %41", (6, 9)),
])
def test_a_run_of_escapes_is_found_where_it_starts(name, line, span):
    assert getattr(sd, name).search(line).span() == span


@pytest.mark.parametrize(("line", "escaped"), [
    (b"ab\\u00ad cd", True), (b"\\u200B", True), (b"x\\uFEFF", True), (b"\\u2063", True),
    (b"\\u0063" * 9000, False), (b"\\u00e9\\u2014\\u180f", False), (b"\\u2065", False),
])
def test_an_escaped_format_character_is_found_past_the_leads_gate(line, escaped):
    assert sp._format_escaped_in(line) is escaped
    assert bool(sp.reader_spots(line)) is escaped
    assert sp.has_format(line) is escaped


def test_an_xxd_dump_is_no_spaced_dump_and_a_spaced_one_is():
    from moderator_app.core.formats import secrets_bytes as sb

    assert not sb.dump_in(b"\\n".join([b"4232c8703fe08b40c59f3247e148f099ee3e3522047daa"] * 300))
    assert sb.dump_in(b"x 00000000: 66 69 67 64 5f 61 62 63  64 65 66 |figd_abcdef|")
    assert sb.dump_in(b"x 6669 6764 5f61 6263 y")


@needs_c
@FUZZ
@given(st.lists(st.sampled_from([b"a", b"Z", b"0", b"f", b"+", b"/", b"_", b"-", b"=", b" ",
                                 b"\\", b"n", b"g", b"\xff", b"ab" * 20, b"x" * 30]),
                max_size=50).map(b"".join), st.sampled_from([1, 4, 24, 32]))
def test_the_runs_found_in_c_are_the_mapped_searches_runs(line, least):
    for table in (sd._B64_CHARS, sd._HEX_CHARS):
        assert list(sd._runs(line, table, least)) == list(sd._runs_py(line, table, least))


@needs_c
def test_a_base64_and_a_hex_run_are_found_whole():
    line = b'{"k": "' + b"QUJD" * 8 + b'", "h": "' + b"0f" * 20 + b'"} ' + b"x" * 23
    assert sd._runs(line, sd._B64_CHARS, 24) == [(7, 39), (48, 88)]
    assert sd._runs(line, sd._HEX_CHARS, 32) == [(48, 88)]
