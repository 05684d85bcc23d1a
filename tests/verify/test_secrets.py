"""The secrets scan: warnings with a column and a redacted excerpt (docs/DESIGN.md decision 10)."""

from __future__ import annotations

import pytest

from moderator_app.core.verify.secrets import scan_line

KEYS = [
    ("sk-proj-" + "Ab1" * 10, "API key (sk-...)"),
    ("sk-ant-api03-" + "x9" * 20, "API key (sk-...)"),
    ("AKIAIOSFODNN7EXAMPLE", "AWS access key id"),
    ("ghp_" + "a1B2" * 9, "GitHub token"),
    ("github_pat_" + "Z" * 30, "GitHub token"),
    ("xoxb-1234567890-abcdef", "Slack token"),
    ("AIza" + "S" * 35, "Google API key"),
    ("hf_" + "q" * 34, "Hugging Face token"),
    ("-----BEGIN RSA PRIVATE KEY-----", "private key block"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----", "private key block"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "bearer token"),
]


@pytest.mark.parametrize("secret,label", KEYS)
def test_each_kind_is_found_with_its_column(secret, label):
    line = ('{"payload":{"text":"prefix ' + secret + ' suffix"}}').encode()
    hits = scan_line(line)
    assert [h.label for h in hits] == [label]
    assert hits[0].column == line.index(secret.encode()[:4]) + 1 or label == "bearer token"
    assert secret not in hits[0].excerpt and len(hits[0].excerpt) < 30


@pytest.mark.parametrize("text", [
    "task-list for the right thigh", "risk-averse", "AKIA", "sk-short", "the bearer of news",
    "ghp_short", "hf_abc", "0123456789" * 10,
])
def test_ordinary_text_is_not_a_secret(text):
    assert scan_line(('{"t":"' + text + '"}').encode()) == []


def test_hits_are_capped_and_ordered():
    line = " ".join(["AKIAIOSFODNN7EXAMPLE"] * 10).encode()
    hits = scan_line(line, limit=3)
    assert len(hits) == 3 and hits[0].column == 1


@pytest.mark.parametrize("secret,label", KEYS)
def test_block_prefilter_never_hides_a_marker(secret, label):
    from moderator_app.core.verify.secrets import MARKERS, markers_in

    filler = b'{"t":"ordinary words, nothing to see"}\n' * 3000
    for pad in (0, 1):
        block = filler + b"x" * pad + secret.encode() + b"\n" + filler
        expected = tuple(m for m in MARKERS if m in block)
        assert expected and markers_in(block) == expected
