"""The secrets scan: warnings with a column and a redacted excerpt (docs/DESIGN.md decision 10)."""

from __future__ import annotations

import pytest

from moderator_app.core.formats.secrets import scan_line

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
    ("AccountKey=" + "Q1w2E3r4+/" * 8 + "AbCdEf==", "Azure storage key"),  # session 33
]


def test_a_connection_string_wrapped_inside_its_key_is_found():
    """QA s32 h32_05: an official `stdout` holding an Azure connection string the terminal
    wrapped at its 80th column, inside the AccountKey: `verify` named nothing (the family was
    the reader's only, which official trajectories are not read with)."""
    conn = "DefaultEndpointsProtocol=https;AccountName=s33;AccountKey=" + "Q1w2E3r4+/" * 8 \
        + "AbCdEf==;EndpointSuffix=core.windows.net"
    line = ('{"payload":{"stdout":"' + conn[:80] + "\\n" + conn[80:] + '"}}').encode()
    hits = scan_line(line)
    assert [(h.label, h.how) for h in hits] == [
        ("Azure storage key", "the escaped line breaks inside it are removed")]


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
    from moderator_app.core.formats.secrets import MARKERS, markers_in

    filler = b'{"t":"ordinary words, nothing to see"}\n' * 3000
    for pad in (0, 1):
        block = filler + b"x" * pad + secret.encode() + b"\n" + filler
        expected = tuple(m for m in MARKERS if m in block)
        assert expected and markers_in(block) == expected


def _finditer_everywhere(raw: bytes, limit: int) -> list:
    """The scan as it was: every pattern searched over the whole line."""
    from moderator_app.core.formats import secrets

    hits = [secrets.SecretHit(label, m.start() + 1, secrets._redact(m.group()))
            for _, label, pattern in secrets._compiled() for m in pattern.finditer(raw)]
    return sorted(hits, key=lambda h: h.column)[:limit]


@pytest.mark.parametrize("secret,label", [
    *KEYS, ("xoxoxb-1234567890-abcdef", "Slack token"), ("sk-sk-" + "Ab1" * 10, "API key (sk-...)"),
    ("bearer Bearer " + "t" * 30, "bearer token"), ("AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLF", "AWS access key id"),
])
def test_a_long_line_asks_the_c_side_which_markers_it_holds(monkeypatch, secret, label):
    """A line of 16 KiB or more (a base64 screenshot in an event) learns its markers from one
    `_jcs.markers` pass, and each pattern is tried where its marker is rather than searched
    over the line: nine substring searches and a regex search took 3.5 ms on a 667 KB line
    (session 16). The hits are those of every pattern searched everywhere, at any place in the
    line, next to markers in random base64, with or without the C side."""
    import base64
    import random

    from moderator_app.core.formats import secrets

    if secrets._markers is None:
        pytest.skip("the C accelerator is not built here")
    c_markers, calls = secrets._markers, []
    noise = base64.b64encode(random.Random(4).randbytes(30_000))  # holds `xox`, `AKIA`-like bytes
    for at in (0, 1, 17_000, len(noise)):
        line = noise[:at] + secrets.MARKERS[at % 3] + b" " + secret.encode() + b" " + noise[at:]
        want = _finditer_everywhere(line, 50)
        assert label in [h.label for h in want]
        monkeypatch.setattr(secrets, "_markers",
                            lambda raw, ms: calls.append(len(raw)) or c_markers(raw, ms))
        assert scan_line(line, limit=50) == want
        monkeypatch.setattr(secrets, "_markers", None)
        assert scan_line(line, limit=50) == want
    assert len(calls) == 4
