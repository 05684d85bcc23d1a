"""A secret split over two strings of one line (QA s29 T7, session 30): what `withhold`
refuses and `secrets.scan_line` finds, what stays publishable, and that the readings stay
linear (a counting test: the house forbids duration asserts)."""

from __future__ import annotations

import json

import pytest

from moderator_app.core.formats import secrets
from moderator_app.core.formats.secrets import scan_line, scan_public
from moderator_app.core.formats.withhold import WithholdError, withhold_log

AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYQA30SPLITKEY"
KEY = "sk-proj-QA30splitKey0123bbbbCCCCdddd4567"
START = b'{"seq":0,"type":"run_start","data":{}}\n'


def _withhold(tmp_path, data: dict, spaced: bool = False):
    src = tmp_path / "agent-log.jsonl"
    obs = {"seq": 1, "type": "observation", "data": data}
    line = json.dumps(obs) if spaced else json.dumps(obs, separators=(",", ":"))
    src.write_bytes(START + line.encode() + b"\n")
    dst = tmp_path / "public.jsonl"
    withhold_log(src, dst)
    return dst


@pytest.mark.parametrize("names", [("key_part1", "key_part2"), ("token_0", "token_1"),
                                   ("pwd1", "pwd2", "pwd3")])
@pytest.mark.parametrize("spaced", [False, True])
def test_a_value_named_like_a_secret_in_numbered_parts_is_refused(tmp_path, names, spaced):
    """QA s29 h29_08: an AWS secret key in `key_part1` / `key_part2` of one object was
    published, both halves. Numbered members of one stem naming a key, token or secret are
    joined and held to the named-secret rule; the message never holds a part."""
    cut = len(AWS) // len(names)
    parts = [AWS[i * cut:(i + 1) * cut if i < len(names) - 1 else None]
             for i in range(len(names))]
    env = {**dict(zip(names, parts, strict=True)), "region": "us-east-1"}
    with pytest.raises(WithholdError) as err:
        _withhold(tmp_path, {"env": env}, spaced)
    assert str(err.value) == (
        "line 2: its public part holds what looks like a secret (value named like a secret, "
        "split over numbered members: wJal…[42 chars]); remove it from the log and withhold "
        "again; nothing written")
    assert not any(p in str(err.value) for p in parts[1:]) and AWS[4:21] not in str(err.value)
    assert not (tmp_path / "public.jsonl").exists()


def test_a_key_cut_over_two_strings_after_its_marker_is_refused(tmp_path):
    with pytest.raises(WithholdError, match=r"API key \(sk-\.\.\.\): sk-p…\[40 chars\]"):
        _withhold(tmp_path, {"env": {"a": KEY[:12], "b": KEY[12:]}}, spaced=True)


@pytest.mark.parametrize("data", [
    {"key1": "ArrowLeft", "key2": "ArrowRight", "key3": "ArrowUp"},  # no digit
    {"key_part1": "ab1", "key_part2": "cd2"},  # too short
    {"hash1": "9f86d081884c7d659a2feaa0c55ad015", "hash2": "a3bf4f1b2b0b822cd15d6c15b0f00a08"},
    {"key1": "abc123defgh", "other2": "ijk456lmnop"},  # not one stem
    {"key1": "abc123defgh", "key3": "ijk456lmnop"},  # not consecutive
    {"note": "task-", "x": "abcdefghijklmnopqrstuvwxyz0123"},
    {"note": "ask sk-", "x": "abcdefghijklmnopqrstuvwxyz0123"},  # the string does not start
    {"text": "my task-\nlist\nrisk-assessment sk-\nabc ghp_\nxyz"},
])
def test_honest_neighbours_stay_publishable(tmp_path, data):
    assert _withhold(tmp_path, data).exists()


@pytest.mark.parametrize("line", [
    b'{"a":"' + b"task-" * 16_000 + b'\\nx"}',
    b'{"a":"' + b'sk-", "b":"' * 8_000 + b'x"}',
    b'{"a":"' + b"ghp_\\n" * 16_000 + b'"}',
])
def test_the_rejoining_reads_each_run_once(monkeypatch, line):
    """Counting, not timing: the regex matches `_rejoined` makes on an 80 KB line of markers
    and cuts grow with the line's cuts, never with markers x cuts (session 29's 46 s)."""
    calls = 0

    class Counted:
        def __init__(self, pattern):
            self.pattern = pattern

        def match(self, *args):
            nonlocal calls
            calls += 1
            return self.pattern.match(*args)

    real = secrets._regex
    monkeypatch.setattr(secrets, "_regex", lambda p: Counted(real(p)))
    secrets._rejoined(line)
    cuts = line.count(b"\\n") + line.count(b'", "')
    assert calls <= 3 * cuts + 4 * len(secrets._PATTERNS)


def test_a_split_key_message_names_how_the_line_was_read():
    hits = scan_line(b'{"a":"sk-proj-QA30", "b":"' + KEY[12:].encode() + b'"}')
    assert [(h.label, h.column, h.excerpt, h.how) for h in hits] == [
        ("API key (sk-...)", 0, "sk-p…[40 chars]",
         "the adjacent strings it is split over are joined")]
    assert scan_public(b'{"env":{"token1":"abcdefgh1234","token2":"ijklmnop5678"}}') \
        is not None
