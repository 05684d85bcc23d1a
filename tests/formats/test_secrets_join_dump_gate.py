"""The join gate shut on a character dump's quote rows (session 38, odc; issue 15): `od -c` of
binary prints a `"` byte as the cell `   "`, and at a row's end a JSON line writes it `   \\"`
then `\\n`, the marker of C's literals side by side over a line break (`"\\n`). That quote ends
no literal (a literal's last character is no space), so a range whose only join marker is
there opens no `CHAIN` search (`secrets_join.joins_open`); a real `"\\n` anywhere opens it."""

from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secretshelp import obs_line, refused_and_named

from moderator_app.core.formats import secrets_decode
from moderator_app.core.formats.secrets import markers_of
from moderator_app.core.formats.secrets_join import (
    _DUMP_QUOTE_ROW,
    CHAIN,
    CONCAT,
    JOIN_MARKERS,
    joins_open,
)

_SOUP = [b'"', b'\\"', b"'", b"ab", b"QA38x", b" ", b"   ", b"+", b" + ", b"\\n", b"\\t", b"\\",
         b"\\\\", b"\t", b"=", _DUMP_QUOTE_ROW, b'   \\"', b'"\\n']


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_SOUP), max_size=60).map(b"".join))
def test_no_chain_holds_a_dump_quote_row_and_a_shut_gate_misses_no_marked_chain(raw):
    quotes = set()
    at = raw.find(_DUMP_QUOTE_ROW)
    while at >= 0:
        quotes.add(at + 4)  # (the row's quote)
        at = raw.find(_DUMP_QUOTE_ROW, at + 1)
    for m in CHAIN.finditer(raw):
        assert not any(m.start() <= q < m.end() - 1 for q in quotes), (raw, m.span())
    if not joins_open(raw, markers_of(raw, JOIN_MARKERS)):
        # (no chain found holds a join marker: the gate shut only what no marker opened)
        for m in CHAIN.finditer(raw):
            assert not markers_of(m.group(), JOIN_MARKERS), (raw, m.group())


def _od_c_rows(rows: int) -> str:
    """`od -c` rows of random bytes, each ending in a `"` cell (as text)."""
    rng = random.Random(38)
    cells = ["   a", " 377", "  \\n", "   \\", "    ", " 001"]
    return "".join("%07o" % (16 * i) + "".join(rng.choice(cells) for _ in range(15)) + '   "\n'
                   for i in range(rows))


def _json(text: str) -> bytes:
    return orjson.dumps(text)[1:-1]


def test_the_gate_is_shut_on_dump_quote_rows_and_open_on_a_literal_line_break():
    dump = _json(_od_c_rows(40))
    assert markers_of(dump, JOIN_MARKERS) == (b'"\\n',)
    assert not joins_open(dump, (b'"\\n',))
    assert CONCAT not in [how for how, *_ in secrets_decode.views(dump)]
    chained = dump + b'x = \\"ab\\"\\n\\"cd\\"'
    assert joins_open(chained, (b'"\\n',))
    assert joins_open(dump[:64], (b'"\\n', b'" +'))  # (another marker: open as before)
    assert not joins_open(dump + b'"\\n', (b'"\\n',), 0, len(dump))  # (the range only)


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_key_in_literals_over_line_breaks_beside_dump_quote_rows_is_refused(tmp_path, where):
    key = "ghp_" + "QA38dumpQuoteRows0aB1cD2eF3gH4iJ5kL6m"
    chain = "\n".join(f'    "{key[i:i + 9]}"' for i in range(0, len(key), 9))
    rows = _od_c_rows(8)
    summary = (f"$ od -c a.bin\n{rows}\n$ cat k.c\nconst char *k =\n{chain};\n" if where == "before"
               else f"$ cat k.c\nconst char *k =\n{chain};\n$ od -c a.bin\n{rows}\n")
    refused_and_named(tmp_path, obs_line(summary), CONCAT, "GitHub token")
