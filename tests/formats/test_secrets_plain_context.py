"""A key family spelled as honest text is spelled needs its context (session 35's review V8):
Mailgun's legacy `key-` + 32 hex is also every `key-<md5>` cache key and ETag in tool output.
Session 35 named plain keys of every family (`plain_family`), and "cache hit for key-<md5>"
failed an honest run in verify and was refused by withhold. Such a key is named written as it
is only with the word Mailgun, `api:key-`, or an assignment to a credential's name; verify and
withhold still agree line for line."""

from __future__ import annotations

import orjson
import pytest

from moderator_app.core.formats.secrets import unescape_json
from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

KEY = "key-" + "9dd4e461268c8034f5c8564e155c67a6"
START = b'{"seq":0,"at":"2026-12-06T07:00:00.000Z","elapsedMs":0,"type":"run_start","data":{}}'


def _line(summary: str) -> bytes:
    return orjson.dumps({"seq": 1, "at": "2026-12-06T07:00:01.000Z", "elapsedMs": 1000,
                         "type": "observation", "data": {"summary": summary}})


@pytest.mark.parametrize("summary", [
    f"cache hit for {KEY}", f"etag {KEY} stored", f"idempotency {KEY}; retry 2",
    f"memo[{KEY}] = 12 frames", f"keys: {KEY}, {KEY.replace('9', '8')}"])
def test_an_honest_key_dash_digest_is_published(tmp_path, summary):
    line = _line(summary)
    assert scan_public(unescape_json(line)) is None
    assert public_secret_hits(START + b"\n" + line, 1) == []
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    withhold_log(src, out)
    assert KEY.encode() in out.read_bytes()


@pytest.mark.parametrize("summary", [
    f"export TOKEN={KEY} # set by ci", f"curl --user api:{KEY} https://api.mailgun.net/v3",
    f"mailgun sandbox: {KEY}", f"cache hit for {KEY}; then dckr_pat_" + "QA35ctx0aB1cD2eF3gH4iJ5kL6"])
def test_a_key_with_its_context_or_another_family_is_refused_alike(tmp_path, summary):
    line = _line(summary)
    hit = scan_public(unescape_json(line))
    assert hit is not None
    found = public_secret_hits(START + b"\n" + line, 1)
    assert [(n, h.label) for n, h in found] == [(2, hit.label)]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    with pytest.raises(WithholdError, match=r"^line 2: "):
        withhold_log(src, tmp_path / "public.jsonl")
