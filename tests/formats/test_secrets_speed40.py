"""Session 40 (speed; issue 15, QA s39 T7): e_mixlong's lines of escapes of five kinds cost
less, read the same. `secrets_join.chain_search` gives `CHAIN.search`'s first match, from any
position to any end, on lines of many backslashes and few quotes (where it tries the chain at
each quote only) and the others; `scan_public` reads a text view once a depth (its percent
view's octal view is its octal view's percent view) and still names a key only that view
shows."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import secrets_public
from moderator_app.core.formats.secrets_join import CHAIN, chain_search
from moderator_app.core.formats.secrets_public import scan_public

# backslash-heavy soup: runs of escapes, literals, joins, both quotes
_SOUP = [b"\\\\x{41}", b"\\\\101", b"\\\\\\\\", b"\\x41", b"&#65;", b"%41", b'"', b'\\"', b"'",
         b"ab", b"QA40x", b" ", b" + ", b"..", b"||", b"\\n", b"\\", b"\t", b"="]


def _span(m):
    return None if m is None else m.span()


@settings(max_examples=800, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_SOUP), max_size=60).map(b"".join), st.integers(0, 12),
       st.integers(0, 12))
def test_chain_search_finds_what_the_chain_pattern_finds(raw, cut_lo, cut_hi):
    pos, endpos = min(cut_lo, len(raw)), max(0, len(raw) - cut_hi)
    assert _span(chain_search(raw, pos, endpos)) == _span(CHAIN.search(raw, pos, endpos))
    assert _span(chain_search(raw)) == _span(CHAIN.search(raw))


def test_chain_search_on_a_line_of_escapes_finds_the_chain_after_them():
    pad = b"\\\\x{41}\\\\101" * 400  # (4,800 backslashes, 4 quotes: each quote tried)
    raw = b"$ perl -e 'print \\\"" + pad + b"\\\"' k=\\\"ghp_QA40\\\" + \\\"ab\\\" " + pad
    at = raw.index(b'\\"ghp')
    assert _span(chain_search(raw)) == _span(CHAIN.search(raw)) == (at, at + 21)
    # (from the quote on: the chain without its backslash, as the pattern reads it)
    assert _span(chain_search(raw, at + 1)) == _span(CHAIN.search(raw, at + 1)) == (at + 1, at + 21)
    assert _span(chain_search(raw, 0, at + 12)) == _span(CHAIN.search(raw, 0, at + 12)) is None


def _mix(s: str) -> str:
    """QA s39's e_mixlong spelling: literal, Perl `\\x{..}`, HTML, URL `%NN`, octal by turns."""
    out = []
    for i, c in enumerate(s):
        k = (i // 3) % 5
        if k == 0 and c.isalnum():
            out.append(c)
        elif k == 1:
            out.append(f"\\x{{{ord(c):x}}}")
        elif k == 2:
            out.append(f"&#{ord(c)};")
        elif k == 3:
            out.append(f"%{ord(c):02X}")
        else:
            out.append(f"\\{ord(c):03o}")
    return "".join(out)


def _line(text: str) -> bytes:
    import json

    return json.dumps({"type": "observation", "data": {"summary": text}}).encode()


def test_a_view_two_decoders_make_alike_is_read_once(monkeypatch):
    rng = random.Random(40)
    words = " ".join(rng.choice(["the", "court", "scores", "chapter", "eel"]) for _ in range(400))
    line = _line("$ perl -e 'print \"" + _mix(words) + "\"'")
    texts: list[bytes] = []
    read = secrets_public._view_hit

    def counted(decoded, text, how):
        texts.append(decoded)
        return read(decoded, text, how)

    monkeypatch.setattr(secrets_public, "_view_hit", counted)
    assert scan_public(line) is None
    # (percent, octal, mixed; then percent's octal and mixed views: octal's percent view and
    # mixed's percent view are those two again, not read)
    assert len(texts) == 5 == len(set(texts))


def test_a_key_only_the_percent_and_octal_views_together_show_is_named():
    key = "ghp_" + "QA40dedupKeyZ9xw7Lm2Np4Rs6Tv8Xy0Ab1Cd3"[:36]
    spelled = "".join(f"%{ord(c):02X}" if i % 2 else f"\\{ord(c):03o}" for i, c in enumerate(key))
    hit = scan_public(_line("$ printf '" + spelled + "' | tee k"))
    assert hit is not None and hit.label == "GitHub token"
