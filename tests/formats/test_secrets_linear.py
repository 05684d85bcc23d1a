"""`scan_public` is linear in its line (session 31's review of 6e6274b): `verify` runs it on
community lines holding a secret word, and three of its regexes walked an unbounded run again
from each repeat of the word that starts them (`"secret" * 10000`, 60 KB: 12 s; 120 KB: 48 s;
issue 15 bounds an input at 30 s). Each case is 200 KB of one repeat: seconds if linear, hours
if quadratic, so a regression times CI out; the findings are asserted exactly. The bounded
forms still find what they found (a long name, a scheme after a long run, a token after `%20`
or after an earlier `eyJ` of its run)."""

from __future__ import annotations

import json

import pytest

from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

N = 200_000
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0MzEifQ.T31sigAbCdEfGhIjKlMnOp"


def _line(repeat: bytes) -> bytes:
    return b'{"summary":"' + repeat * (N // len(repeat)) + b'://"}'


@pytest.mark.parametrize("repeat", [b"secret", b"Secret_", b"password", b"API_KEY", b"a",
                                    b"eyJ", b"x://", b"secret\\\"", b"-----END A ",
                                    b"://a:", b"key_part1"])
def test_a_long_line_of_repeats_is_read_once(repeat):
    assert scan_public(_line(repeat)) is None


def test_a_long_line_of_a_named_secret_is_found_at_its_start():
    hit = scan_public(_line(b"secret="))
    assert (hit.label, hit.column, hit.excerpt) == (
        "value named like a secret", 13, f"secr…[{N // 7 * 7 + 3} chars]")  # to the `"`


@pytest.mark.parametrize("text, label, index, excerpt", [
    # a 36-character name after its word (64 at most)
    ("config aws_secret_access_key_for_the_production_build = T31abcdefgh",
     "value named like a secret", 11, "secr…[56 chars]"),
    # the scheme read as the 32 characters before `://`
    ("a" * 5000 + "https://user:T31pass@example.org/",
     "password in a URL", 5005 - 32, "aaaa…[48 chars]"),
    ("Authorization: Bearer%20" + JWT, "JSON web token", 24, "eyJh…[62 chars]"),
    ("tok=eyJx" + JWT, "JSON web token", 4, "eyJx…[66 chars]"),
])
def test_the_bounded_forms_still_find_their_secret(text, label, index, excerpt):
    hit = scan_public(json.dumps({"summary": text}).encode())  # `{"summary": "`: 13 bytes
    assert (hit.label, hit.column, hit.excerpt) == (label, 13 + index + 1, excerpt)


def test_verify_of_a_long_line_of_secret_words_finds_nothing_to_refuse(tmp_path):
    """The reviewer's repro (`"secret" * 10000` in an observation, 12 s), five times longer."""
    head = {"seq": 0, "at": "2026-11-30T20:00:00.000Z", "elapsedMs": 0, "type": "run_start",
            "data": {"game": "x", "category": "any-percent", "model": "p/m",
                     "scaffold": {"name": "a"}}}
    obs = {"seq": 1, "at": "2026-11-30T20:00:00.010Z", "elapsedMs": 10,
           "type": "observation", "data": {"summary": "secret" * 50_000}}
    end = {"seq": 2, "at": "2026-11-30T20:00:00.020Z", "elapsedMs": 20, "type": "run_end",
           "data": {"reason": "done"}}
    path = tmp_path / "agent-log.jsonl"
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n"
                            for e in (head, obs, end)))
    rep = verify_paths([path], VerifyOptions(probe_video=False)).report.to_dict()
    assert [f for f in rep["findings"] if f["rule"] == "secret.suspect"] == []


HONEST = [b'{"summary":"found the secret door; password prompt shown"}',
          b'{"summary":"the API docs; access granted; auth ok; private room"}',
          b'{"key_part1":"ABCDEFGHabcdefgh","key_part2":"ijklmnop","hint":"secret"}']
NAMED = [b'{"summary":"note: api_key = notreallyakey_but_long_value_here12"}',
         b'{"env":"SECRET_TOKEN\\u003dT31abcdefgh9"}',
         b'{"summary":"the game shows PASSWORD: XJ7Q9L2M on its continue screen"}']


def test_verify_parses_only_lines_where_a_secret_may_be_named(monkeypatch):
    """Session 31's review: `verify` parsed each line of honest text naming a secret door or
    a password prompt, or numbered `key_partN` members too short for a key (400,000 lines:
    2.1 -> 7.9 and 10.9 s). Now a word naming a secret is asked only when `=` or `:` follows
    it, numbered parts only when they are read in the line as written; the named ones are
    still found (a game's on-screen password too: docs/rules-community.md)."""
    from moderator_app.core.formats import withhold_gate as withhold

    asked = []
    real = withhold._public_hit
    monkeypatch.setattr(withhold, "_public_hit", lambda raw: asked.append(raw) or real(raw))
    data = b"\n".join(HONEST * 3 + NAMED)
    hits = withhold.public_secret_hits(data, 1)
    assert asked == NAMED
    assert [(n, h.label) for n, h in hits] == [(10, "value named like a secret"),
                                               (11, "value named like a secret"),
                                               (12, "value named like a secret")]
    asked.clear()
    assert withhold.public_secret_hits(b"\n".join(HONEST * 3), 1) == [] and asked == []
