"""`sk-` / `hf_` keys glued after a base64 letter are starred or named, never published; a
key's shape at a blob's first or last characters or across a wrapping's break is passed over
when the blob is dense data; a compressed payload is asked by `verify` as `withhold` reads it
(session 44, redact; issue 15, review s43 R4 / R6, QA s43 T7). Each case but the guards fails
on daf440b: R4's five were published whole with nothing named, the T7 shapes refused the
honest line, R6's payload was named by nobody in `verify` while `withhold` refused it."""

from __future__ import annotations

import base64
import gzip
import random
import zlib

import pytest
from secretshelp import START, obs_line, quiet, redacted_and_noted, refused_and_named

from moderator_app.core.formats.secrets import unescape_json
from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import public_secret_hits, withhold_log

SK = "sk-proj-jtEkDnNfribxUdl7dXTPyLsxPFkThf4VucSmEHgaKwVJ7faC"
HF = "hf_g37lExsYyv4G6SNrOuya4FxR6NZRVzCMt4"
# R4's B: base64 of 1,800 random bytes (seed 51: its character 900 is `+`, so a key written
# before it ends where the key does)
B = base64.b64encode(random.Random(51).randbytes(1800)).decode()


@pytest.mark.parametrize("key", [SK, HF])
def test_a_key_glued_at_a_binary_blob_s_end_is_starred(tmp_path, key):
    """Review s43 R4 (HIGH): the patterns' look-behind never let a match start after a
    letter, so the key was published whole and named by nobody. At the end of base64 of
    binary data exactly its characters are now `*`."""
    public = redacted_and_noted(tmp_path, obs_line(B + key), [key.encode()])
    assert public == obs_line(B + "*" * len(key))


@pytest.mark.parametrize("key, label", [(SK, "API key (sk-...)"), (HF, "Hugging Face token")])
def test_a_key_glued_inside_standard_base64_is_named(tmp_path, key, label):
    """R4's B[:900] + key + B[900:]: its `-` / `_` in the middle of a standard base64 run is
    no chance: named and refused, both."""
    refused_and_named(tmp_path, obs_line(B[:900] + key + B[900:]), None, label)


def test_a_key_glued_between_capitals_is_starred_to_its_own_bound(tmp_path):
    """R4's "Q"*64 + key + "Q"*64: the glued match is bounded by the key's length (160 after
    `sk-proj-`), so it takes the 64 capitals after it too, never a run to its end."""
    line = "Q" * 64 + SK + "Q" * 64
    public = redacted_and_noted(tmp_path, obs_line(line), [(SK + "Q" * 64).encode()])
    assert public == obs_line("Q" * 64 + "*" * (len(SK) + 64))


def test_a_key_glued_after_base64_of_text_is_named(tmp_path):
    """Outside base64 of binary data a glued key whose rest reads as random is named."""
    text = base64.b64encode(b"the lamp turns green when the birds flicker twice; " * 20)
    refused_and_named(tmp_path, obs_line(text.decode().rstrip("=") + SK), None,
                      "API key (sk-...)")


def test_words_glued_before_sk_are_no_key(tmp_path):
    """Guard: `risk-`, `task-` before a kebab-case name are words (`high_entropy`)."""
    quiet(tmp_path, obs_line("plan: risk-Level3-Assessment-2024-final, task-Renderer2-backlog"))


def _dense(seed: int, n: int = 3000) -> str:
    """Base64 of compressed noise: a picture's or a gzip stream's dense bytes."""
    return base64.b64encode(zlib.compress(random.Random(seed).randbytes(n), 1)).decode()


@pytest.mark.parametrize("shape, first", [
    ("xoxb-" + "A1b2C3d4E5" * 3, True), ("ghp_" + "k7Qm2Zx9" * 5, False),
    ("glpat-" + "Vb8nT3rW5y" * 2, True)])
def test_a_shape_at_a_picture_s_edge_is_starred(tmp_path, shape, first):
    """QA s43 T7, h43_16: a key's shape over a data URI's first or last characters; its `-` /
    `_` made the run hold both alphabets, so it was named although the 2 KB beside it are a
    picture's dense bytes (`_dense`)."""
    blob = _dense(7)
    # (a `/` after a first shape ends its match where the shape does)
    blob = shape + "/" + blob[len(shape) + 1:] if first else blob[:-len(shape)] + shape
    summary = "$ screenshot --base64\ndata:image/png;base64," + blob
    public = redacted_and_noted(tmp_path, obs_line(summary), [shape.encode()])
    assert public == obs_line(summary.replace(shape, "*" * len(shape)))


def _wrapped(head: str, width: int, brk: str, shape: str) -> str:
    """`head`, then base64 of a gzip member of noise wrapped at `width` columns by `brk`, with
    `shape` written over a break (half on either side)."""
    enc = base64.b64encode(gzip.compress(random.Random(9).randbytes(2400), 1, mtime=0)).decode()
    at = 20 * width - len(shape) // 2
    enc = enc[:at] + shape + enc[at + len(shape):]
    return head + brk.join(enc[i:i + width] for i in range(0, len(enc), width))


@pytest.mark.parametrize("head, width, brk, shape", [
    ("$ gzip -c frame.raw | openssl base64\n", 64, "\n", "ghp_" + "k7Qm2Zx9" * 5),
    ("$ gzip -c frame.raw | base64 -w 72\r\n", 72, "\r\n", "AIza" + "Sy7Qm2Zx9k" * 4),
    ("-----BEGIN CERTIFICATE-----\n", 64, "\n", "ghp_" + "Tf3Wq8Lp" * 5)])
def test_a_shape_across_a_wrapping_s_break_is_passed_over(tmp_path, head, width, brk, shape):
    """QA s43 T7: h43_16's 64 / 72-column breaks and e_pem64's line 6: the text before the
    blob (a command's last word, a PEM header) was read as a piece of another width, so the
    run was not read over the breaks; and the reader joined the two lines around a `ghp_`
    into a GitHub token. Noted, not refused, and no 16 characters of it published."""
    line = obs_line(_wrapped(head, width, brk, shape))
    assert scan_public(unescape_json(line)) is None
    found = public_secret_hits(START + b"\n" + line, 1)
    assert [n for n, h in found] == [2] and found[0][1].redact
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    assert withhold_log(src, out).redacted == (2,)
    public = out.read_bytes().split(b"\n")[1].replace(b"\\r", b"").replace(b"\\n", b"")
    assert not any(shape[i:i + 16].encode() in public for i in range(len(shape) - 15))


@pytest.mark.parametrize("width, brk, cut", [(76, "\r\n", 34), (64, "\n", 12)])
def test_a_key_glued_across_a_wrapping_s_break_is_starred_whole(tmp_path, width, brk, cut):
    """QA s44 h44_11: an `sk-` key glued inside base64 of binary data wrapped at a width, cut
    by the break after `cut` characters: the glued match stopped at the break, so its first
    characters were starred and the rest published (or, cut before 20 characters, nothing
    matched). Read on over the break, every piece of it is starred (to the glued match's own
    bound), the break kept (session 44, lead)."""
    enc = base64.b64encode(gzip.compress(random.Random(9).randbytes(2400), 1, mtime=0)).decode()
    at = 20 * width - cut
    enc = enc[:at - 1] + "x" + SK + enc[at + len(SK):]
    line = obs_line(brk.join(enc[i:i + width] for i in range(0, len(enc), width)))
    found = public_secret_hits(START + b"\n" + line, 1)
    assert [n for n, h in found] == [2] and found[0][1].redact
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    assert withhold_log(src, out).redacted == (2,)
    public = out.read_bytes().split(b"\n")[1]
    esc = brk.replace("\r", "\\r").replace("\n", "\\n").encode()
    assert public.count(esc) == line.count(esc)
    joined = public.replace(esc, b"")
    assert b"x" + b"*" * len(SK) in joined
    assert not any(SK[i:i + 16].encode() in joined for i in range(len(SK) - 15))


def test_a_key_glued_across_a_break_after_base64_of_text_is_named(tmp_path):
    """Outside base64 of binary data the same key read over the break is named and refused."""
    text = base64.b64encode(b"the lamp turns green when the birds flicker twice; " * 20).decode()
    text = text[:1500] + "x" + SK[:30] + "\n" + SK[30:] + text[1500:]
    refused_and_named(tmp_path, obs_line(text), None, "API key (sk-...)")


def test_a_few_bytes_repeated_are_no_dense_data(tmp_path):
    """Guard: a key shape whose `-` makes the run hold both alphabets, beside 300 characters
    of 3 bytes repeated, is named as at daf440b (`_dense`: 1.6 bits a byte)."""
    refused_and_named(tmp_path, obs_line("ab/+" * 75 + "xoxb-" + "A1b2C3d4E5" * 2),
                      None, "Slack token")


def test_a_key_in_a_gzip_data_uri_is_named_by_verify_as_withhold_refuses_it(tmp_path):
    """Review s43 R6: base64 of gzip (3 KB of printable noise, a key, 9 KB) in a data URI is
    a payload `verify`'s gate skipped (its bytes hold no marker), while `withhold` inflates
    it."""
    rng = random.Random(6)
    noise = bytes(range(33, 127))
    data = gzip.compress(bytes(rng.choices(noise, k=3000)) + b"\nKEY=" + SK.encode() + b"\n"
                         + bytes(rng.choices(noise, k=9000)), mtime=0)
    uri = "data:application/gzip;base64," + base64.b64encode(data).decode()
    refused_and_named(tmp_path, obs_line(uri))
