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
