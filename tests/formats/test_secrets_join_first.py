"""`secrets_join.CHAIN` spelled with its first literal's first byte a literal in each branch
(session 37, mendods; issue 15, review R3): `re` skips to a quote or a backslash before trying
it (0.18 -> 0.04 s an 11 MB `od -c` line of random bytes); the chains it finds are the old
pattern's, the same spans."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import secrets_join
from moderator_app.core.formats.secrets_join import _LIT, _SEP, CHAIN

BEFORE = re.compile(_LIT + rb"(?:" + _SEP + _LIT + rb"){1,63}")  # (the spelling before)

_SOUP = [b'"', b'\\"', b"'", b"ab", b"QA37x", b" ", b"  ", b"+", b" + ", b"..", b"||",
         b"\\n", b"\\t", b"\\", b"\\\\", b"\t", b"\n", b"=", b"   \\\\", b"   \\\""]


@settings(max_examples=800, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_SOUP), max_size=60).map(b"".join))
def test_chains_are_found_where_the_old_spelling_found_them(raw):
    assert [m.span() for m in CHAIN.finditer(raw)] == [m.span() for m in BEFORE.finditer(raw)]


def test_a_chain_after_an_escaped_quote_and_backslashes_is_found_whole():
    raw = b'od: \\\\ \\"x y=\\"ghp_QA37\\" + \\"ab\\" \'cd\'"more'
    got = [(m.start(), m.group()) for m in secrets_join.chains(raw)]
    assert got == [(raw.index(b'\\"ghp'), b'\\"ghp_QA37\\" + \\"ab\\" \'cd\'')]
