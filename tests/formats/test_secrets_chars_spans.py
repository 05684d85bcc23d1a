"""`_unescape.dump_next`, the C finder of `secrets_chars.DUMP` (session 38, odc; issue 15): the
regex cost ~8 ns a byte of an od -c line of binary, read twice a line. The C read gives the
regex's matches, left to right as `finditer` finds them, of `least` cells or more (a cell
makes one byte: a match of fewer is skipped whole, as `finditer` goes on at its end)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secretshelp import obs_line
from test_secrets_chars import _SOUP, od_c

from moderator_app.core.formats import native, secrets_chars

pytestmark = pytest.mark.skipif(native.UNESCAPE is None, reason="the C accelerator is not built")

# (the cells' near misses too: a 4th octal digit 4-7 first, a 9-digit offset, a bare `\\r`)
_MORE = [" 477", " 38a", "   \x7f", "  \\\\x", "\\r", "\\n123456789", "\\n12345", "\\r\\n0000a0",
         "   \\\\\\\\", "    ", "     ", " 0", "\\n\\n"]


def _c_spans(raw: bytes, least: int) -> list[tuple[int, int]]:
    out, pos = [], 0
    while (span := native.UNESCAPE.dump_next(raw, pos, least)) is not None:
        out.append(span)
        pos = span[1]
    return out


def _regex_spans(raw: bytes, least: int) -> list[tuple[int, int]]:
    return [m.span() for m in secrets_chars.DUMP.finditer(raw)
            if len(secrets_chars._decoded_py(m.group())) >= least]


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_SOUP + _MORE), max_size=150).map(lambda s: "".join(s).encode()),
       st.sampled_from([1, 4, 5, 8, 30]))
def test_c_finds_the_regex_matches_in_a_soup_of_cells_and_near_misses(raw, least):
    assert _c_spans(raw, least) == _regex_spans(raw, least)


@pytest.mark.parametrize("least", [1, 8])
def test_c_finds_the_regex_matches_in_long_random_soups(least):
    """(hypothesis' lists are short: a 7-digit offset read as the least, 6, was missed there)"""
    rng = random.Random(38)
    for _ in range(3000):
        raw = "".join(rng.choice(_SOUP + _MORE) for _ in range(rng.randrange(150))).encode()
        assert _c_spans(raw, least) == _regex_spans(raw, least), raw


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(st.characters(max_codepoint=255), min_size=1, max_size=300),
       st.sampled_from([4, 8, 16]), st.sampled_from([None, "{:07o}", "{:06x}"]),
       st.text(" a\\\"n0", max_size=20))
def test_c_finds_the_regex_matches_in_od_c_lines(text, width, offset, around):
    raw = obs_line(f"{around}$ od -c f\n{od_c(text, width, offset)}\n{around}")
    assert _c_spans(raw, 8) == _regex_spans(raw, 8)


def test_an_od_c_line_of_random_bytes_is_one_match_and_its_views_are_the_regexs():
    rng = random.Random(38)
    text = bytes(rng.randrange(256) for _ in range(20000)).decode("latin-1")
    data = text.encode()  # (od_c dumps the text's UTF-8)
    raw = obs_line("$ od -c blob\n" + od_c(text, 16, "{:07o}") + "\n$ ls")
    spans = _c_spans(raw, 8)
    assert spans == _regex_spans(raw, 8)
    assert len(spans) == 1
    assert native.UNESCAPE.chars(raw[slice(*spans[0])]) == data + b"\n"
    assert list(secrets_chars.char_views(raw)) == [(data + b"\n", spans[0][0] + 1)]


def test_a_match_of_fewer_cells_is_skipped_whole_and_the_search_goes_on_at_its_end():
    raw = b"x   a   b   c   d   e y" + b"   a" * 9
    assert native.UNESCAPE.dump_next(raw, 0, 8) == (23, 23 + 36)
    assert native.UNESCAPE.dump_next(raw, 0, 5) == (1, 21)
    assert native.UNESCAPE.dump_next(raw, 2, 4) == secrets_chars.DUMP.search(raw, 2).span() == (5, 21)
    assert native.UNESCAPE.dump_next(raw, 0, 4) == (1, 21)
    assert native.UNESCAPE.dump_next(b"   a   b   c", 0, 1) is None
