"""A glued `hf_` / `sk-proj-` key padded by a repeated letter is named, never published, while
`task-` / `disk-` + an id stay words with their ids (session 45, redact; issue 15, review s44
R3 HIGH). Each named case fails on b8866bd: verify named nothing and `withhold` published the
key whole (the bounded match swallowed the pad, and its entropy with it; a glued key was
named only after 64 base64 characters). Base64 wrapped at 80-128 columns is one payload (QA
s44 T8): refused on b8866bd, published as written now; a key in it still named."""

from __future__ import annotations

import base64
import gzip
import random

import orjson
import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets import unescape_json

SK = "sk-proj-GLdAspsWYTteerm1JLm6PU3avQ6D6931DCDfU6H2PnKtoBdL"
HF = "hf_HzNBaW4jSqWM0zSROt75mhgBIeufaQgPyq"
# OpenAI's legacy shape: 20, its mark `T3BlbkFJ`, 20 (review s45 R1, a pad of vowels)
LEGACY = "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"
GHP = b"ghp_QA45wrappedEightyColumns0123456789ab"


@pytest.mark.parametrize("pad, key, label", [
    ("Q" * 64, HF, "Hugging Face token"), ("Q" * 10, HF, "Hugging Face token"),
    ("x" * 10, HF, "Hugging Face token"), ("x" * 10, SK, "API key (sk-...)"),
    ("QQ", SK, "API key (sk-...)"), ("Q" * 4, "sk-" + SK[8:], "API key (sk-...)"),
    ("e" * 10, LEGACY, "API key (sk-...)"), ("a" + "Q" * 12, LEGACY, "API key (sk-...)"),
    ("e" * 10, "sk-svcacct-" + SK[8:], "API key (sk-...)"),
    ("e" * 10, "sk-admin-" + SK[8:], "API key (sk-...)"),
    ("e" * 10, "sk-" + SK[8:], "API key (sk-...)"),
    ("e" * 10, "sk-test-" + SK[8:], "API key (sk-...)"),
    ("e" * 10, "sk-" + "5d41402abc4b2a76b9719d911017c592", "API key (sk-...)")])
def test_a_glued_key_padded_by_a_repeated_letter_is_named(tmp_path, pad, key, label):
    """Review s44 R3: pad + key + pad, the key's own head reads random (its Q's or x's do
    not), the glue before it holds no word, or the key is one by its kind or OpenAI's mark
    whatever glues it, or a pad of one character glues it (review s45 R1: "e"*10)."""
    line = obs_line(pad + key + pad)
    hit = refused_and_named(tmp_path, line, None, label)
    assert hit.column == unescape_json(line).find(key.encode()) + 1


@pytest.mark.parametrize("text", [
    "task-V1StGXR8Z5jdHi6BmyTaZ3kq", "disk-Xk93nf02LmQpR7sTuVw4", "flask-Zq81LmPw02XcVb7RtYuI",
    "task-test-V1StGXR8Z5jdHi6BmyTaZ3kq", "disk-5d41402abc4b2a76b9719d911017c592"])
def test_a_word_before_a_bare_sk_is_no_glue(tmp_path, text):
    """`task-` + a nanoid under an id's name is a word and its id (a vowel in the glue `ta`):
    not an `sk-` key glued to a pad."""
    line = orjson.dumps({"seq": 1, "at": "2026-12-06T06:00:01.000Z", "elapsedMs": 1000,
                         "type": "observation", "data": {"taskId": text}})
    assert text.encode() in quiet(tmp_path, line)


def _wrapped(data: bytes, width: int) -> str:
    text = base64.b64encode(data).decode()
    return "\n".join(text[i:i + width] for i in range(0, len(text), width))


@pytest.mark.parametrize("width", [80, 100, 128])
def test_base64_wrapped_at_80_to_128_columns_is_one_payload(tmp_path, width):
    """QA s44 T8 (h44_16): `base64 -w 80` of binary data was read line by line, each line a
    "high-entropy run": the honest line refused. Now published as written."""
    line = obs_line(f"$ head -c 3000 /dev/urandom | base64 -w {width}\n"
                    + _wrapped(random.Random(width).randbytes(3000), width))
    assert quiet(tmp_path, line).split(b"\n")[1] == line


def test_a_key_in_gzip_wrapped_at_80_columns_is_still_named(tmp_path):
    """The guard: the joined payload is still read (its gzip inflated)."""
    rng = random.Random(80)
    data = gzip.compress(rng.randbytes(600) + b"\nGITHUB_TOKEN=" + GHP + b"\n" + rng.randbytes(600))
    refused_and_named(tmp_path, obs_line("$ gzip -c env | base64 -w 80\n" + _wrapped(data, 80)),
                      None, "base64 of a secret")
