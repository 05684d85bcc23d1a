"""A key's shape inside base64 of binary data is redacted by `withhold` and noted by `verify`,
never published whole and never a refusal (session 42, redact; review s41 R2, QA s41 T6, T7).
Each case fails on 5c44424: R2's glued keys were published, h41_13's chance runs after `/` or
`-` were named (and `withhold` refused the honest log)."""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest
from secretshelp import START, obs_line, redacted_and_noted, refused_and_named

from moderator_app.core.formats.withhold import withhold_log
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

KEY = b"AIzaSyDU8JZpDE0iGXlD6gNCFbaEPFjbD0kH8Oo"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _glue(kind: str) -> tuple[str, str]:
    """Review s41 R2's four glues, 64 characters either side of the key."""
    rng = random.Random(kind)
    if kind == "r64":
        return tuple("".join(rng.choice(_ALNUM + "+") for _ in range(64))  # type: ignore
                     for _ in range(2))
    c = {"q64": "Q", "a64": "A", "k64": "k"}[kind]
    return c * 64, c * 64


@pytest.mark.parametrize("kind", ["q64", "r64", "a64", "k64"])
def test_a_key_glued_inside_base64_is_published_redacted(tmp_path, kind):
    """R2: published whole at 5c44424; now exactly its 39 characters are `*`, the glue kept."""
    before, after = _glue(kind)
    public = redacted_and_noted(tmp_path, obs_line(before + KEY.decode() + after), [KEY])
    assert public == obs_line(before + "*" * 39 + after)


@pytest.mark.parametrize("summary, label", [
    # R1's three, and the URL's path with 64+ characters of segments either side of the key
    ("GET https://www.googleapis.com/v1/projects/demoproject/apikeys/" + KEY.decode()
     + "/lookup", "Google API key"),
    ("s3://mybucket/exports/backups/AKIADZDOCIS2JHTLGMXG/data", "AWS access key id"),
    ("blob " + "Q" * 20 + KEY.decode() + " end", None),
    ("GET https://example.com/" + "a" * 70 + "/" + KEY.decode() + "/" + "b" * 70,
     "Google API key"),
    ("s3://bucket/" + "Q" * 70 + "/AKIADZDOCIS2JHTLGMXG/" + "Q" * 70, "AWS access key id"),
    # a Slack token (its `-` is base64url's) glued inside standard base64 (`/`, `+`): no
    # chance writes both alphabets in one run
    ("iVBOR" + "ab/+" * 30 + "xoxb-" + "A1b2C3d4E5" * 2 + "cd/+" * 30, "Slack token")])
def test_a_key_in_a_path_or_a_mixed_run_is_still_refused(tmp_path, summary, label):
    """R1's cases stay refused, told by the URL's shape (`://`, a path's characters up to the
    run), not by a `/` before or after the key."""
    refused_and_named(tmp_path, obs_line(summary), None, label)


def _chance(rng: random.Random, prefix: str, n: int, url: bool) -> tuple[str, str]:
    """QA s41 h41_13's shape: base64 (or unpadded base64url) of zlib of noise with `qqq/` (or
    `qqq-`) + prefix + n letters and digits at a 4-aligned place of the encoded text; the
    blob and the key-shaped run."""
    raw = bytearray(zlib.compress(rng.randbytes(1500), 1))
    run = ("qqq-" if url else "qqq/") + prefix + "".join(rng.choice(_ALNUM) for _ in range(n))
    run += "a" * (-len(run) % 4)
    dec = base64.urlsafe_b64decode(run) if url else base64.b64decode(run)
    raw[600:600 + len(dec)] = dec
    enc = (base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=") if url
           else base64.b64encode(bytes(raw)).decode())
    assert run in enc
    return enc, run[4:4 + len(prefix) + n]


@pytest.mark.parametrize("prefix, n, url", [("AIza", 35, False), ("ghp_", 36, True),
                                            ("glpat-", 24, True), ("npm_", 36, True),
                                            ("sk-", 40, True), ("hf_", 34, True)])
def test_a_chance_key_after_a_slash_or_a_dash_is_noted_not_refused(tmp_path, prefix, n, url):
    """QA s41 T6 (h41_13): 159 of 160 such runs were named and the honest log refused, a `/`
    or `-` before each; now the whole run around the match decides, whatever precedes it."""
    blob, shape = _chance(random.Random(prefix), prefix, n, url)
    tool = "$ basenc --base64url -w0 frame.bin | tr -d =\n" if url else "$ base64 -w0 f\n"
    # the pattern's match: a greedy one reads on over the run's letters and digits (and, for
    # `sk-`'s, base64url's `-_`: to the run's end)
    at = blob.index(shape)
    end = at + len(shape)
    tail = {"sk-": _ALNUM + "-_", "ghp_": _ALNUM, "hf_": _ALNUM, "glpat-": _ALNUM + "-_"}
    while prefix in tail and end < len(blob) and blob[end] in tail[prefix] \
            and (prefix != "glpat-" or end - at < 6 + 64):
        end += 1
    public = redacted_and_noted(tmp_path, obs_line(tool + blob), [blob[at:end].encode()])
    assert public == obs_line(tool + blob[:at] + "*" * (end - at) + blob[end:])


def test_a_key_written_again_outside_the_blob_is_named(tmp_path):
    """A key of a family only the family reader names (an AWS `ASIA` key id), spelled once
    inside base64 of binary data and again as text: 5c44424 asked only the first place,
    passed it over and blanked both, so the second was published (this one is named)."""
    blob = base64.b64encode(zlib.compress(random.Random(3).randbytes(900), 1)).decode()
    key = "ASIAQ7LMNBVCXZ2SDFGH"
    line = obs_line(blob[:300] + "q" + key + "a" + blob[300:600] + " id " + key + " ok")
    hit = refused_and_named(tmp_path, line, None, "AWS access key id")
    assert hit.column == line.rindex(key.encode()) + 1  # (the text's, 1-based)


def test_a_redacted_key_behind_escapes_and_before_blank_lines(tmp_path):
    """The public line as written holds PHP's `\\/` and a `\\u0041` inside the key: the places
    read with escapes decoded map back to the bytes written (`secrets_redact.redacted`), and
    a blank line after it is no write before the redaction."""
    before, after = "Q/" * 40, "/Q" * 40
    escaped = before.replace("/", "\\/") + "\\u0041" + KEY.decode()[1:] + after.replace(
        "/", "\\/")
    line = (b'{"seq":1,"at":"2026-12-06T06:00:01.000Z","elapsedMs":1000,"type":"observation",'
            b'"data":{"summary":"' + escaped.encode() + b'"}}')
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n\n" + line + b"\n")
    assert withhold_log(src, out).redacted == (2, 4)
    want = line.replace(b"\\u0041" + KEY[1:], b"*" * 39)
    assert out.read_bytes() == START + b"\n" + want + b"\n\n" + want + b"\n"


def test_verify_notes_it_and_passes(tmp_path):
    """`verify` on a valid log whose observation holds R2's q64 glue: an info note
    `secret.redacted` on that line, no `secret.suspect`, the verdict a pass."""
    before, after = _glue("q64")
    src = tmp_path / "agent-log.jsonl"
    make_agent_log(src, n_events=20, seed=3)
    lines = src.read_bytes().splitlines()
    n = next(i for i, raw in enumerate(lines) if b'"type":"observation"' in raw)
    ev = json.loads(lines[n])
    ev["data"] = {"summary": before + KEY.decode() + after}
    lines[n] = json.dumps(ev, separators=(",", ":")).encode()
    src.write_bytes(b"\n".join(lines) + b"\n")
    r = verify_paths([src], VerifyOptions(probe_video=False)).report
    got = [(f.rule, f.severity.value, f.line) for f in r.findings
           if f.rule.startswith("secret")]
    assert got == [("secret.redacted", "info", n + 1)]
    message = next(f.message for f in r.findings if f.rule == "secret.redacted")
    assert "Google API key's shape inside base64 of binary data (AIza…[39 chars])" in message
    assert KEY.decode() not in message
    assert r.verdict == "pass"
