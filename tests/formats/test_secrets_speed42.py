"""Session 42 (speed; issue 15, QA s41 T8): the named-value pattern tried only where its words
are, and a value's line breaks split without sre. The same findings as the whole-line
searches they replace."""

from __future__ import annotations

import base64
import json
import random
import re

from moderator_app.core.formats.secrets_public import (
    _named_matches,
    _public_patterns,
    scan_public,
)
from moderator_app.core.formats.secrets_read import _line_parts

_NAMED = next(p for marker, _, p, _ in _public_patterns() if marker == b"?")
_PIECES = (b"secret", b"SECRET", b"Passw", b"passwd", b"password", b"api", b"API_KEY",
           b"api-key", b"access_key", b"AccessKey", b"auth_token", b"AUTH", b"private_key",
           b"privatekey", b"=", b":", b" ", b"\\\"", b"\"", b"\\n", b"abcdEFGH1234", b"x", b"9",
           b"_", b"secretsecret", b"apiapi")


def test_the_named_value_pattern_tried_at_its_words_finds_what_finditer_finds():
    rng = random.Random(42)
    for _ in range(20_000):
        raw = b"".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 25)))
        want = [(m.start(), m.end()) for m in _NAMED.finditer(raw)]
        assert [(m.start(), m.end()) for m in _named_matches(raw, raw.lower(), _NAMED)] \
            == want, raw


def test_a_named_value_after_a_screenshots_base64_is_named_at_its_column():
    """e_png64's shape: base64 of binary holding `api` twice by chance (no value after it),
    then a short value named `apiKey` (under 8 characters: not a secret), then one
    named `API_KEY`: named at its own column, as the whole-line search named it."""
    data = base64.b64encode(random.Random(7).randbytes(12_000)).decode()
    words = [data.lower().count(w) for w in ("api", "auth", "secret", "passw")]
    summary = ("$ screenshot --base64\ndata:image/png;base64," + data
               + "\napiKey=short; env: API_KEY=Zq81mNw02pLk")
    line = json.dumps({"type": "observation", "data": {"summary": summary}}).encode()
    hit = scan_public(line)
    assert words == [2, 0, 0, 0]
    assert hit is not None and hit.label == "value named like a secret"
    assert hit.column == line.find(b"API_KEY") + 1
    assert scan_public(line.replace(b"API_KEY=Zq81mNw02pLk", b"API_KEY=none")) is None


def test_a_values_lines_split_as_the_break_pattern_splits_them():
    rng = random.Random(42)
    for _ in range(20_000):
        text = "".join(rng.choice(("a", "\n", "\r", "b c", "\r\n", ""))
                       for _ in range(rng.randint(0, 12)))
        if "\n" in text or "\r" in text:
            assert _line_parts(text) == re.split(r"[\r\n]+", text), repr(text)
