"""`withhold`: the public version of a log verifies, and no prompt, text or reasoning survives."""

from __future__ import annotations

import base64
import json
import subprocess

import orjson
import pytest
from conftest import REPO

from moderator_app.core.formats.withhold import (
    WithholdError,
    WithholdStats,
    withhold_event,
    withhold_log,
)
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

CLI = str(REPO / ".venv" / "bin" / "moderator-app")


def test_withheld_log_verifies_and_leaks_nothing(tmp_path):
    src = tmp_path / "agent-log.jsonl"
    make_agent_log(src, n_events=80, seed=7)
    original = src.read_bytes()
    assert b"You play the game." in original and b'"reasoning"' in original
    pub_dir = tmp_path / "public"
    pub_dir.mkdir()
    dst = pub_dir / "agent-log.jsonl"
    stats = withhold_log(src, dst)
    requests = original.count(b'"type":"model_request"')
    responses = original.count(b'"type":"model_response"')
    assert stats == WithholdStats(80, requests, responses)
    public = dst.read_bytes()
    for secret in (b"You play the game.", b"Board state", b'"text"', b'"reasoning"',
                   b'"messages"', b"The piece fits"):
        assert secret not in public
    assert src.read_bytes() == original  # the input is untouched
    r = verify_paths([dst], VerifyOptions(probe_video=False)).report
    assert r.verdict == "pass" and [f.rule for f in r.findings] == []
    # Everything else is byte for byte the same: actions, observations, timing, seq.
    for a, b in zip(original.splitlines(), public.splitlines(), strict=True):
        e = orjson.loads(a)
        p = orjson.loads(b)
        if e["type"] == "model_request":
            assert p["data"] == {"withheld": True}
        elif e["type"] == "model_response":
            assert set(p["data"]) == {"id", "model", "usage", "actions"}
            assert p["data"]["actions"] == e["data"]["actions"]
        else:
            assert a == b
        assert {k: v for k, v in p.items() if k != "data"} == \
            {k: v for k, v in e.items() if k != "data"}
    # Withholding twice changes nothing.
    again = tmp_path / "again.jsonl"
    assert withhold_log(dst, again) == WithholdStats(80, 0, 0)
    assert again.read_bytes() == public


def test_withhold_event_rules():
    req = {"seq": 1, "type": "model_request", "data": {"messages": [], "withheld": True}}
    assert withhold_event(req)["data"] == {"withheld": True}
    resp = {"type": "model_response", "data": {"id": "c1", "model": "m", "text": "t",
                                               "reasoning": "r", "extra": 1}}
    assert withhold_event(resp)["data"] == {"id": "c1", "model": "m"}
    assert withhold_event({"type": "observation", "data": {"text": "seen"}}) is None


@pytest.mark.parametrize("bad, line", [(b"not json", 2), (b"\xff\xfe", 2), (b"[1]", 2),
                                      (b'{"a":' + b"[" * 300 + b"]" * 300 + b"}", 2)])
def test_unparseable_line_is_refused_with_its_line(tmp_path, bad, line):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n' + bad + b"\n{}\n")
    dst = tmp_path / "public.jsonl"
    with pytest.raises(WithholdError, match=f"line {line}"):
        withhold_log(src, dst)
    assert not dst.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["agent-log.jsonl"]  # no temp file left


def test_blank_lines_are_copied_not_refused(tmp_path):
    """A blank line holds nothing to withhold; refusing it would make a log that verifies
    (trailing blank lines are only a warning) impossible to publish."""
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b'{"seq":0,"type":"model_request","data":{"messages":["p"]}}\n \n\n')
    dst = tmp_path / "public.jsonl"
    withhold_log(src, dst)
    assert dst.read_bytes() == (b'{"seq":0,"type":"model_request","data":{"withheld":true}}\n'
                                b" \n\n")


def test_public_lines_are_written_a_block_at_a_time_in_order_and_terminal_safe(tmp_path):
    """Session 27 (issue 15: withhold at ~4.3 us a line on a flood): public lines are told by
    two key-set tests, parsed with one loads and one dumps, and escaped and written a block at
    a time. The output is byte for byte what line-by-line writing gave: blank lines in their
    places, BiDi and C1 characters escaped in public text, a member the format does not list
    dropped, a line not in orjson's spelling (a space) copied as it is, and blocks of 1 MiB
    joined without a lost or doubled line."""
    lines = [b'{"seq":0,"type":"error","data":{"message":"a\xe2\x80\xaeb\xc2\x9bc"}}',
             b"",
             b'{"seq":1, "type":"run_end","data":{"reason":"done"}}',
             b'{"seq":2,"type":"action","data":{"call":"c","name":"n","args":{}},"x":1}',
             b'{"seq":3,"type":"observation","data":{"any":[1,{"k":"v"}]}}']
    flood = [b'{"seq":%d,"type":"error","data":{"message":"%s"}}' % (k, b"m" * 200)
             for k in range(4, 12_000)]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b"\n".join(lines + flood) + b"\n")
    dst = tmp_path / "public.jsonl"
    stats = withhold_log(src, dst)
    assert stats == WithholdStats(12_000 + 1, 0, 1)
    assert dst.read_bytes() == b"\n".join([
        b'{"seq":0,"type":"error","data":{"message":"a\\u202eb\\u009bc"}}',
        b"",
        b'{"seq":1, "type":"run_end","data":{"reason":"done"}}',
        b'{"seq":2,"type":"action","data":{"call":"c","name":"n","args":{}}}',
        b'{"seq":3,"type":"observation","data":{"any":[1,{"k":"v"}]}}', *flood]) + b"\n"


@pytest.mark.parametrize("at,spell", [(3001, b"sk-"), (4999, b"sk\\u002d"), (1, b"sk-")])
def test_a_secret_inside_a_run_of_public_lines_is_refused_at_its_line(tmp_path, at, spell):
    """Runs of lines public as they are are read at once (session 27): a key in one of them
    is still refused naming its own line, escaped or not, first or deep in a run."""
    line = b'{"seq":%d,"type":"error","data":{"message":"%s"}}'
    rows = [line % (k, b"m" * 100) for k in range(5000)]
    rows[at - 1] = line % (at - 1, b"key " + spell + b"proj-" + b"Qa27" * 8)
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b"\n".join(rows) + b"\n")
    with pytest.raises(WithholdError) as err:
        withhold_log(src, tmp_path / "public.jsonl")
    assert str(err.value) == (f"line {at}: its public part holds what looks like a secret (API "
                              "key (sk-...): sk-p…[40 chars]); remove it from the log and "
                              "withhold again; nothing written")
    assert not (tmp_path / "public.jsonl").exists()


def test_failed_withhold_keeps_an_existing_output(tmp_path):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b"{broken\n")
    dst = tmp_path / "public.jsonl"
    dst.write_bytes(b"previous\n")
    with pytest.raises(WithholdError):
        withhold_log(src, dst)
    assert dst.read_bytes() == b"previous\n"


def test_cli_withhold(tmp_path):
    src = tmp_path / "agent-log.jsonl"
    make_agent_log(src, n_events=20, seed=3)
    dst = tmp_path / "public.jsonl"
    proc = subprocess.run([CLI, "withhold", str(src), "-o", str(dst)], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Wrote" in proc.stdout and "20 lines" in proc.stdout
    assert b'"withheld":true' in dst.read_bytes()
    src.write_bytes(src.read_bytes() + b"oops\n")
    proc = subprocess.run([CLI, "withhold", str(src), "-o", str(dst)], capture_output=True,
                          text=True)
    assert proc.returncode == 1
    assert "line 21" in proc.stderr
    proc = subprocess.run([CLI, "withhold", str(tmp_path / "missing.jsonl"), "-o", str(dst)],
                          capture_output=True, text=True)
    assert proc.returncode == 2



def test_withhold_past_a_file_size_limit_names_the_file_and_writes_nothing(tmp_path):
    """s29 hostile sweep: under `prlimit --fsize=8192` (a full disk's stand-in) the CLI said
    only "moderator-app: [Errno 27] File too large". It names the output and says nothing
    was written; the previous output and no temporary file are left."""
    import resource

    src = tmp_path / "agent-log.jsonl"
    make_agent_log(src, n_events=200, seed=4)
    dst = tmp_path / "public.jsonl"
    dst.write_bytes(b"previous\n")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    proc = subprocess.run([CLI, "withhold", str(src), "-o", str(dst)], capture_output=True,
                          text=True, preexec_fn=limit)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (f"moderator-app: cannot write the public version of {src} to "
                           f"{dst}: File too large; nothing was written\n")
    assert dst.read_bytes() == b"previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agent-log.jsonl", "public.jsonl"]

KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"


@pytest.mark.parametrize("where, line", [
    # An action's arguments and an observation are published as written.
    ({"seq": 1, "type": "action", "data": {"call": "c1", "name": "type",
                                          "args": {"text": f"export KEY={KEY}"}}}, 2),
    ({"seq": 1, "type": "observation", "data": {"text": f"Authorization: Bearer {KEY}x"}}, 2),
    # A response's actions stay public too.
    ({"seq": 1, "type": "model_response",
      "data": {"id": "c1", "model": "m", "text": "ok",
               "actions": [{"name": "type", "args": {"text": KEY}}]}}, 2),
])
def test_a_secret_in_a_public_part_is_refused_and_never_printed(tmp_path, where, line):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n' + orjson.dumps(where) + b"\n")
    dst = tmp_path / "public.jsonl"
    with pytest.raises(WithholdError, match=f"^line {line}: its public part holds what looks "
                                            r"like a secret \((API key \(sk-\.\.\.\)|bearer token): "
                                            ) as exc:
        withhold_log(src, dst)
    assert KEY not in str(exc.value) and KEY[:12] not in str(exc.value)
    assert "nothing written" in str(exc.value)
    assert not dst.exists()
    proc = subprocess.run([CLI, "withhold", str(src), "-o", str(dst)], capture_output=True,
                          text=True)
    assert proc.returncode == 1 and f"line {line}" in proc.stderr
    assert KEY not in proc.stderr + proc.stdout


def test_a_secret_only_in_what_is_withheld_does_not_stop_the_public_version(tmp_path):
    """A key in a prompt or the model's text is withheld with them: nothing of it is published,
    so there is nothing to refuse."""
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(
        b'{"seq":0,"type":"run_start","data":{}}\n'
        + orjson.dumps({"seq": 1, "type": "model_request",
                        "data": {"messages": [{"role": "system", "content": KEY}]}}) + b"\n"
        + orjson.dumps({"seq": 2, "type": "model_response",
                        "data": {"id": "c1", "model": "m", "reasoning": KEY}}) + b"\n")
    dst = tmp_path / "public.jsonl"
    assert withhold_log(src, dst) == WithholdStats(3, 1, 1)
    assert KEY.encode() not in dst.read_bytes()


_JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyMTIzIn0.Zm9vYmFyYmF6cXV4MTIzNDU2"
_PASS = "Tr0ub4dor-and-3"
_AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


@pytest.mark.parametrize("data, secret, label", [
    # session 26's hostile sweep: each was published as written
    ({"text": f"Authorization: JWT {_JWT}"}, _JWT, "JSON web token"),
    ({"text": f"git clone https://deploy:{_PASS}@git.example.com/r.git"}, _PASS,
     "password in a URL"),
    ({"text": f"HOME=/root\nAWS_SECRET_ACCESS_KEY={_AWS}\n"}, _AWS, "value named like a secret"),
    ({"password": _PASS}, _PASS, "value named like a secret"),
    ({"text": "b64: " + base64.b64encode(KEY.encode()).decode()},
     base64.b64encode(KEY.encode()).decode(), "base64 of a secret"),
    ({"text": "MIIEvAIBADANBgkqhkiG9w0BAQEFAASC\n-----END RSA PRIVATE KEY-----"}, "MIIEvAIBADAN",
     "private key block"),
])
def test_other_secrets_in_a_public_part_are_refused(tmp_path, data, secret, label):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n' + orjson.dumps(
        {"seq": 1, "type": "observation", "data": data}) + b"\n")
    dst = tmp_path / "public.jsonl"
    with pytest.raises(WithholdError, match=f"^line 2: .*looks like a secret \\({label}: "
                       ) as exc:
        withhold_log(src, dst)
    assert secret not in str(exc.value) and secret[:8] not in str(exc.value)
    assert not dst.exists()


def test_secret_looking_names_with_placeholder_values_are_published(tmp_path):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n' + orjson.dumps(
        {"seq": 1, "type": "observation", "data": {
            "text": "api_key: <redacted> password=hidden see https://example.com/a:b@c",
            "frame": "aGVsbG8gd29ybGQgdGhpcyBpcyBwbGFpbiB0ZXh0"}}) + b"\n")
    dst = tmp_path / "public.jsonl"
    assert withhold_log(src, dst) == WithholdStats(2, 0, 0)


def test_a_secret_after_a_megabyte_of_clean_lines_is_refused_at_its_line(tmp_path):
    """Public lines are looked at a block (1 MiB) at a time, line by line only in a block
    that may hold one (a flood of short lines: 5.7 s of CPU a million before, 4.3 s after)."""
    src = tmp_path / "agent-log.jsonl"
    clean = b"".join(orjson.dumps({"seq": i, "type": "observation", "data": {
        "text": f"frame {i} ok"}}) + b"\n" for i in range(1, 30_001))
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n' + clean + orjson.dumps(
        {"seq": 30_001, "type": "observation", "data": {"text": "JWT " + _JWT}}) + b"\n")
    assert len(clean) > 1 << 20
    dst = tmp_path / "public.jsonl"
    with pytest.raises(WithholdError, match=r"^line 30002: .*\(JSON web token: "):
        withhold_log(src, dst)
    assert not dst.exists()


@pytest.mark.parametrize("text, label", [
    (KEY.replace("sk-", "sk\\u002d"), r"API key \(sk-\.\.\.\)"),
    ("JWT \\u0065" + _JWT[1:], "JSON web token"),
    (f"https:\\/\\/deploy:{_PASS}@git.example.com\\/r.git", "password in a URL"),
])
def test_a_secret_spelled_with_json_escapes_is_refused(tmp_path, text, label):
    """`sk\\u002dproj-...` is the key once parsed; the byte scan missed it and the line, with
    nothing to withhold, was published byte for byte (session 26)."""
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n{"seq":1,"type":"observation",'
                    b'"data":{"text":"' + text.encode() + b'"}}\n')
    dst = tmp_path / "public.jsonl"
    with pytest.raises(WithholdError, match=f"^line 2: .*looks like a secret \\({label}: "):
        withhold_log(src, dst)
    assert not dst.exists()


@pytest.mark.parametrize("spell", ["raw", "escaped"])
def test_a_key_spelled_in_unicode_tag_characters_is_refused(tmp_path, spell):
    """QA s28 h28_12: an API key spelled in TAG characters (they mirror ASCII and draw
    nothing) was published, as JSON surrogate escapes; any reader mapping them back has the
    key. Refused like the key itself, raw or escaped, never printed."""
    tags = "".join(chr(0xE0000 + ord(c)) for c in KEY)
    text = (json.dumps(tags)[1:-1] if spell == "escaped" else tags).encode()
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n{"seq":1,"type":"observation",'
                    b'"data":{"text":"' + text + b'"}}\n')
    dst = tmp_path / "public.jsonl"
    with pytest.raises(WithholdError, match=r"^line 2: .*looks like a secret \(API key ") as err:
        withhold_log(src, dst)
    assert KEY not in str(err.value) and not dst.exists()


@pytest.mark.parametrize("breaks", ["\n", "\r\n", "\n\n"])
def test_a_token_wrapped_by_escaped_line_breaks_is_refused(tmp_path, breaks):
    """QA s29 h29_07: a GitHub token wrapped at 20 characters by an escaped newline inside
    one string (a PEM-like wrap) was published, both halves. Its line is also scanned with
    its escaped line breaks removed, so it is refused like the token itself, never printed;
    `task-list` and `risk-assessment` followed by a newline raise nothing."""
    token = "ghp_QA29wrappedTokenXYZ0123456789abcdef"
    src = tmp_path / "agent-log.jsonl"
    obs = {"seq": 1, "type": "observation",
           "data": {"text": f"token: {token[:20]}{breaks}{token[20:]} task-list\nrisk-x\n"}}
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n'
                    + json.dumps(obs).encode() + b"\n")
    dst = tmp_path / "public.jsonl"
    with pytest.raises(WithholdError) as err:
        withhold_log(src, dst)
    assert str(err.value) == ("line 2: its public part holds what looks like a secret "
                              "(GitHub token: ghp_…[39 chars]); remove it from the log and "
                              "withhold again; nothing written")
    assert token[:20] not in str(err.value) and not dst.exists()
    honest = {"seq": 1, "type": "observation",
              "data": {"text": "my task-list\nrisk-assessment\r\nsk-\nabc ghp_\nxyz"}}
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n'
                    + json.dumps(honest).encode() + b"\n")
    withhold_log(src, dst)
    assert dst.exists()
