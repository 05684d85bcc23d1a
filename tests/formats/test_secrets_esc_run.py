"""The escape views' runs found in one C pass (`_unescape.esc_run`, session 39, mixed; issue 15,
review s38 R6): `secrets_decode`'s finders (`ESC_RUNS`, `U_RUNS`, `O_RUNS`, `MIX_RUNS`) give the
(start, end) their regexes (`_ESC_RUN`, `_U_RUN`, `_O_RUN`, `_MIX_RUN`) give, from any position
to any end, on exact shapes and fuzzed lines of escapes of every kind, near misses, filler,
quotes and white space. The regexes tried every backslash of a line: a 12 MB line of
`$'\\101x\\x41...'` cost ~1.0 s in them, 76 s per 512 MiB to verify."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import native
from moderator_app.core.formats import secrets_decode as sd

C = native.UNESCAPE
needs_c = pytest.mark.skipif(C is None, reason="the C accelerator is not built")
FUZZ = settings(max_examples=600, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FINDERS = [(sd.ESC_RUNS, sd._ESC_RUN), (sd.U_RUNS, sd._U_RUN), (sd.O_RUNS, sd._O_RUN),
           (sd.MIX_RUNS, sd._MIX_RUN)]
PIECES = [b"\\", b"\\\\", b"x41", b"x7f", b"x1b", b"x8", b"u0041", b"u00e9", b"u004", b"u{41}",
          b"101", b"0101", b"040", b"177", b"0", b"1", b"7", b"x", b"u", b"a", b"Z", b"_",
          b" ", b"\t", b"\n", b"\x0b", b'"', b"'", b"\xff", b"&#65;", b"&#x4A;", b"&#", b";"]


def _spans(finder, data: bytes, pos: int, endpos: int) -> tuple[object, object]:
    m = finder.pattern.search(data, pos, endpos)
    got = finder.search(data, pos, endpos)
    return (None if m is None else m.span()), (None if got is None else (got.start(), got.end()))


@needs_c
@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join), st.integers(0, 12),
       st.integers(0, 12))
def test_the_c_finders_find_what_the_run_patterns_find(line, cut_lo, cut_hi):
    pos, endpos = min(cut_lo, len(line)), max(0, len(line) - cut_hi)
    for finder, _ in FINDERS:
        want, got = _spans(finder, line, pos, endpos)
        assert got == want, (finder.pattern.pattern, line, pos, endpos)


@needs_c
@pytest.mark.parametrize(("finder", "line", "span"), [
    (sd.ESC_RUNS, b"a \\x41\\\\x42\\x43\\x44 &#65;", (2, 19)),
    (sd.ESC_RUNS, b"a &#65;&#066;&#67;&#68; \\x41\\x41\\x41\\x41", (2, 23)),
    (sd.ESC_RUNS, b"\\x41\\x41\\x41 \\x41\\x41ab\\x41\\x41\\x41", (13, 31)),
    (sd.U_RUNS, b"x \\u0067\\u0073\\\\u006bq\\u0041yz' y", (2, 30)),
    (sd.O_RUNS, b"$'\\101x\\0102\\\\103\\104'", (2, 21)),
    (sd.O_RUNS, b"\\101\\102\\103\\x41\\104", None),
    (sd.MIX_RUNS, b"$'L\\124\\x41I\\065\\x66Q'", (3, 20)),
    (sd.MIX_RUNS, b"\\101\\x41\\u0041A\\n" * 3, None),  # (review R6's shape: 3 in a row, never 4)
    (sd.MIX_RUNS, b"\\101x\\x41" * 3, (0, 18)),
    # a run right after a failed start's backslashes: the C pass must step back to the third
    # backslash, not one byte past it (review s39 R2: the mutant `i = stop + 1` passed the fuzz)
    (sd.ESC_RUNS, b"\\\\\\x41\\x42\\x43\\x44", (1, 18)),
    (sd.MIX_RUNS, b"\\\\\\x41\\x42\\x43\\x44", (1, 18)),
    (sd.U_RUNS, b"\\\\\\u0041\\u0042\\u0043\\u0044", (1, 26)),
])
def test_a_run_is_found_where_the_regex_finds_it(finder, line, span):
    got = finder.search(line)
    assert (None if got is None else (got.start(), got.end())) == span
    m = finder.pattern.search(line)
    assert (None if m is None else m.span()) == span


def test_without_the_c_build_the_finders_are_the_regexes(monkeypatch):
    monkeypatch.setattr(native, "UNESCAPE", None)
    line = b"x $'L\\124\\x41I\\065\\x66Q' \\u0041\\u0042\\u0043\\u0044"
    for finder, pattern in FINDERS:
        want = pattern.search(line)
        got = finder.search(line)
        assert (None if got is None else (got.start(), got.end())) == \
            (None if want is None else want.span())


HTML_PIECES = [b"&#65;", b"&#066;", b"&#6;", b"&#0650;", b"&#x4A;", b"&#X4a;", b"&#x4;",
               b"&#xG1;", b"&#", b"&", b"#", b";", b"6", b"x", b"a", b" ", b"\\x41"]


@needs_c
@FUZZ
@given(st.lists(st.sampled_from(HTML_PIECES), max_size=40).map(b"".join), st.integers(0, 12),
       st.integers(0, 12))
def test_html_run_finds_what_the_html_pattern_finds(line, cut_lo, cut_hi):
    """`_unescape.html_run` (session 40) = `secrets_runs.HTML_RUN.search`, from any position to
    any end, on references of both kinds, too short, too long, broken and mixed."""
    from moderator_app.core.formats import secrets_runs as runs

    pos, endpos = min(cut_lo, len(line)), max(0, len(line) - cut_hi)
    m = runs.HTML_RUN.search(line, pos, endpos)
    assert C.html_run(line, pos, endpos) == (None if m is None else m.span()), (line, pos, endpos)


@needs_c
@pytest.mark.parametrize(("line", "span"), [
    (b"&#116;&#32;&#100;%75&#65;&#66;&#67;&#68;", (20, 40)),  # e_mixlong's 3, then a run
    (b"&#65;&#66;&#67;&#x44;&#65;&#66;&#67;&#68;", (21, 41)),  # a kind change ends a run
    (b"&#x41;&#x42;&#x43;&#x44;", (0, 24)),
    (b"&#65;&#66;&#67;&#6;&#68;", None),  # one digit is no reference
    (b"&#65;&#66;&#67;&#6800;", None),  # four digits neither
    (b"&&#65;&#66;&#67;&#68;", (1, 21)),
])
def test_html_run_steps_to_where_a_run_failed(line, span):
    from moderator_app.core.formats import secrets_runs as runs

    assert C.html_run(line, 0, len(line)) == span
    m = runs.HTML_RUN.search(line)
    assert (None if m is None else m.span()) == span
