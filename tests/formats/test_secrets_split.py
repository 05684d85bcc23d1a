"""A secret split over two strings of one line (QA s29 T7, session 30): what `withhold`
refuses and `secrets.scan_line` finds, what stays publishable, and that the readings stay
linear (a counting test: the house forbids duration asserts)."""

from __future__ import annotations

import json

import pytest

from moderator_app.core.formats import secrets
from moderator_app.core.formats.secrets import scan_line
from moderator_app.core.formats.secrets_public import scan_public
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
    # session 30's review: honest neighbours the first rules joined
    {"voices": ["sk-SK-ViktoriaNeural", "sk-SK-LukasNeural2"]},  # a second name, a marker
    {"voice": "sk-SK-Filip", "session": "4f9c2b7e1a3d"},  # two members, no shared stem
    {"voice": "sk-proj-QA30", "session": "splitKey0123bbbbCCCCdddd4567"},
    {"words": ["xoxo-hugs", "kisses4you"]},  # a word, not random
    {"plans": ["sk-premium-tier", "enterprise-plan-2024"]},
    {"args": {"key1": "ControlLeft", "key2": "Numpad5"}},  # a key-combo press
    {"hotkey1": "CtrlShiftF12", "hotkey2": "AltTabLeft9"},
    {"monkey1": "banana2split", "monkey2": "coconut3milk"},
    {"key1": "abc1defgh", "key2": "ijklmn2op"},  # under 32 characters
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
    assert scan_public(b'{"env":{"token1":"abcdefgh1234qrstuvwx","token2":"ijklmnop5678yz90"}}') \
        is not None


def test_a_long_wrapped_run_is_followed_only_as_far_as_a_pattern_reads():
    """Counting, not timing (session 30's review: one 15 MB line `"sk-abcd" + "\\nx" x 5M`
    kept a cut and a piece each, 1.33 GB): a run is followed for 16 cuts at most, the rest
    of the line is kept as written, and the matches made do not grow with the line."""
    calls = 0

    class Counted:
        def __init__(self, pattern):
            self.pattern = pattern

        def match(self, *args):
            nonlocal calls
            calls += 1
            return self.pattern.match(*args)

        def __getattr__(self, name):
            return getattr(self.pattern, name)

    n = 100_000
    line = b'{"a":"sk-abcd' + b"\\nx" * n + b'"}'
    real = secrets._regex
    secrets._regex.cache_clear()
    joined, how = secrets._rejoined(line)
    assert joined == b'{"a":"sk-abcd' + b"x" * 16 + b"\\nx" * (n - 16) + b'"}'
    assert how == (secrets.UNWRAPPED,)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(secrets, "_regex", lambda p: Counted(real(p)))
        secrets._rejoined(line)
    assert calls == 1 + 2 * 16
    assert [h.how for h in scan_line(line)] == [secrets.UNWRAPPED]  # 20 characters: a key


@pytest.mark.parametrize("line", [
    b'{"a":"my task-list\\nrisk-assessment for disk-1","t":["sk-SK","task-1"]}',
    b'{"a":"DISKAKIA\\nABCDEFGHIJKLMNOP","b":"leafhf_\\nabc"}',
])
def test_a_marker_its_pattern_cannot_start_at_is_no_run(line):
    """`task-list\\nrisk`: `sk-` after a letter fails the pattern's own look-behind, so the
    line is not read a second time (a 59 MB trajectory of such lines: 2.4 -> 3.9 s)."""
    assert secrets._rejoined(line) is None
