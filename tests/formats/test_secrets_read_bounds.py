"""The reader's view is linear in its line (session 32's review of 5e90ce4): a line holding a
format character had every key family's pattern search a 2,416-character window at each of
its markers, so a 6 MB line of one zero width space then "ASIA" x 1.5 million cost `withhold`
38 s of CPU (issue 15 bounds an input at 30 s). Now a family's windows are searched once each
and the next starts past the last (`secrets_read._family_across`): the bound is by
construction, and asserted here as the characters the patterns are given to search (no
duration), with the key after the decoys still found, wherever a window ends."""

from __future__ import annotations

import json

import pytest

from moderator_app.core.formats import secrets_read
from moderator_app.core.formats.secrets_public import scan_public

KEY = "ASIA\u200bT31QZ7K2M9XB4WDR"  # an AWS key id cut by a zero width space (not a real one)


def _line(text: str) -> bytes:
    return json.dumps({"type": "observation", "data": {"summary": text}},
                      ensure_ascii=False).encode()


class _Counted:
    """A family's pattern that adds up the characters each search is given."""

    def __init__(self, pattern, seen):
        self.pattern, self.seen = pattern, seen

    def finditer(self, text, lo, hi):
        self.seen.append(hi - lo)
        return self.pattern.finditer(text, lo, hi)

    def __getattr__(self, name):
        return getattr(self.pattern, name)


@pytest.mark.parametrize("decoy", ["ASIA", "eyJhbGciOi ", "glpat- ", "k_live_", ":AA"])
def test_a_line_of_decoy_prefixes_is_searched_about_once(monkeypatch, decoy):
    """3 MB of one family's prefix after a zero width space, then a key: found, and the
    patterns were given at most 1 + 1/7 times the line per family (was 2,416 characters per
    decoy: 2,400 times the line)."""
    seen: list[int] = []
    families = secrets_read._families()
    monkeypatch.setattr(secrets_read, "_families",
                        lambda: tuple((m, lab, _Counted(p, seen)) for m, lab, p in families))
    text = "\u200b" + decoy * (3_000_000 // len(decoy)) + " " + KEY + " done"
    hit = scan_public(_line(text))
    assert (hit.label, hit.excerpt, hit.how) == (
        "AWS access key id", "ASIA…[20 chars]", secrets_read.FORMAT_READ)
    assert sum(seen) <= 2 * len(text)


@pytest.mark.parametrize("gap", range(secrets_read._SPAN - secrets_read._REACH - 40,
                                      secrets_read._SPAN - secrets_read._REACH + 40, 9))
def test_a_key_at_a_windows_end_is_read_whole(gap):
    """A key whose marker lies where one window ends and the next begins: the window's end,
    read as the string's end, never cuts it (and a longer run is no key: `ASIA` + 18)."""
    hit = scan_public(_line("\u200bASIA " + "x" * gap + " " + KEY))
    assert (hit.label, hit.excerpt) == ("AWS access key id", "ASIA…[20 chars]")
    assert scan_public(_line("\u200bASIA " + "x" * gap + " " + KEY + "Q7")) is None
