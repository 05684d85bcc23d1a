"""A glued `hf_` / `sk-proj-` key padded by a repeated letter is named, never published, while
`task-` / `disk-` + an id stay words with their ids (session 45, redact; issue 15, review s44
R3 HIGH). Each named case fails on b8866bd: verify named nothing and `withhold` published the
key whole (the bounded match swallowed the pad, and its entropy with it; a glued key was
named only after 64 base64 characters)."""

from __future__ import annotations

import orjson
import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets import unescape_json

SK = "sk-proj-GLdAspsWYTteerm1JLm6PU3avQ6D6931DCDfU6H2PnKtoBdL"
HF = "hf_HzNBaW4jSqWM0zSROt75mhgBIeufaQgPyq"


@pytest.mark.parametrize("pad, key, label", [
    ("Q" * 64, HF, "Hugging Face token"), ("Q" * 10, HF, "Hugging Face token"),
    ("x" * 10, HF, "Hugging Face token"), ("x" * 10, SK, "API key (sk-...)"),
    ("QQ", SK, "API key (sk-...)"), ("Q" * 4, "sk-" + SK[8:], "API key (sk-...)")])
def test_a_glued_key_padded_by_a_repeated_letter_is_named(tmp_path, pad, key, label):
    """Review s44 R3: pad + key + pad, the key's own head reads random (its Q's or x's do
    not), the glue before it holds no word."""
    line = obs_line(pad + key + pad)
    hit = refused_and_named(tmp_path, line, None, label)
    assert hit.column == unescape_json(line).find(key.encode()) + 1


@pytest.mark.parametrize("text", [
    "task-V1StGXR8Z5jdHi6BmyTaZ3kq", "disk-Xk93nf02LmQpR7sTuVw4", "flask-Zq81LmPw02XcVb7RtYuI"])
def test_a_word_before_a_bare_sk_is_no_glue(tmp_path, text):
    """`task-` + a nanoid under an id's name is a word and its id (a vowel in the glue `ta`):
    not an `sk-` key glued to a pad."""
    line = orjson.dumps({"seq": 1, "at": "2026-12-06T06:00:01.000Z", "elapsedMs": 1000,
                         "type": "observation", "data": {"taskId": text}})
    assert text.encode() in quiet(tmp_path, line)

