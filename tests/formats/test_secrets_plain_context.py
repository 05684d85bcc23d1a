"""A key family spelled as honest text is spelled needs its context (session 35's review V8):
Mailgun's legacy `key-` + 32 hex is also every `key-<md5>` cache key and ETag in tool output.
Session 35 named plain keys of every family (`plain_family`), and "cache hit for key-<md5>"
failed an honest run in verify and was refused by withhold. Such a key is named written as it
is only with the word Mailgun, `api:key-`, or an assignment to a credential's name; verify and
withhold still agree line for line."""

from __future__ import annotations

import pytest
from secretshelp import obs_line, quiet, refused_and_named

KEY = "key-" + "9dd4e461268c8034f5c8564e155c67a6"


@pytest.mark.parametrize("summary", [
    f"cache hit for {KEY}", f"etag {KEY} stored", f"idempotency {KEY}; retry 2",
    f"memo[{KEY}] = 12 frames", f"keys: {KEY}, {KEY.replace('9', '8')}"])
def test_an_honest_key_dash_digest_is_published(tmp_path, summary):
    assert KEY.encode() in quiet(tmp_path, obs_line(summary))


@pytest.mark.parametrize("summary", [
    f"export TOKEN={KEY} # set by ci", f"curl --user api:{KEY} https://api.mailgun.net/v3",
    f"mailgun sandbox: {KEY}", f"cache hit for {KEY}; then dckr_pat_" + "QA35ctx0aB1cD2eF3gH4iJ5kL6"])
def test_a_key_with_its_context_or_another_family_is_refused_alike(tmp_path, summary):
    refused_and_named(tmp_path, obs_line(summary))
