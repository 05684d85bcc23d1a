"""Keys of every family glued between pads are never published (session 46, redact; issue 15,
review s45 R2 HIGH, R1's last shape). The matrix is tests/gluedmatrix.py: 12 families x 6 pads
x 3 sides, 216 cases. On aeca8af, 77 of them were published whole, nothing named (Stripe
`sk_live_` / `rk_live_`, `npm_`, `r8_`, `dapi`, Mailgun `key-`, `LTAI`, an AWS key id glued to
digits or capitals, "ae"*5 + a bare `sk-`); each of those is now named with its family's
label at the key's column (or starred inside what reads as base64 of binary data), and every
case is kept from the public file by `verify` and `withhold` alike. Honest glued look-alikes
(`monkey-` / `sshkey-` + an md5, `task-` + a nanoid, `key-` + a SHA-256) stay quiet."""

from __future__ import annotations

import gluedmatrix
import orjson
import pytest
from secretshelp import START, obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets import unescape_json
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

# Published whole on aeca8af (the family x pad x side names of `gluedmatrix.cases`)
_PUBLISHED_BEFORE = frozenset(
    [f"{f}-{p}-{s}" for f in ("stripe", "stripe_rk")
     for p, s in (("Q64", "both"), ("Q64", "before"), ("x10", "both"), ("x10", "before"),
                  ("ae5", "both"), ("ae5", "before"), ("word", "both"), ("blob", "both"))]
    + [f"npm-{p}" for p in ("Q64-both", "Q64-before", "x10-both", "x10-before", "ae5-both",
                            "word-both", "blob-both")]
    + [f"replicate-{p}" for p in ("Q64-both", "Q64-before", "x10-both", "x10-before",
                                  "ae5-both", "ae5-before", "word-both", "blob-both")]
    + [f"databricks-{p}-{s}" for p in ("Q64", "x10", "ae5", "digits", "word")
       for s in ("both", "before")] + ["databricks-blob-both"]
    + [f"mailgun-{p}-{s}" for p in ("Q64", "x10", "ae5", "digits", "word")
       for s in ("both", "before", "after")] + ["mailgun-blob-both"]
    + [f"alibaba-{p}-{s}" for p in ("Q64", "x10", "ae5") for s in ("both", "before", "after")]
    + ["alibaba-word-both", "alibaba-blob-both", "openai48-ae5-both", "openai48-ae5-before",
       "openai48-word-both", "aws-Q64-before", "aws-Q64-after", "aws-digits-both",
       "aws-digits-before", "aws-digits-after"])
# Left open (docs/DECISIONS.md, session 46, redact): Mailgun's `key-` + 32 hex glued to a word
# is every honest `monkey-<md5>`; followed by digits it is `key-` + a longer hex id
_OPEN = frozenset({"mailgun-word-both", "mailgun-word-before", "mailgun-word-after",
                   "mailgun-digits-after"})
_CASES = list(gluedmatrix.cases())


def test_the_matrix_is_the_one_measured():
    """216 cases, and every name in the two sets above is one of them."""
    names = {c.name for c in _CASES}
    assert len(_CASES) == len(names) == 216
    assert names >= _PUBLISHED_BEFORE and _OPEN <= _PUBLISHED_BEFORE
    assert len(_PUBLISHED_BEFORE) == 77


def _kept(tmp_path, case: gluedmatrix.Case) -> None:
    """`verify` gives line 2 one finding; `withhold` refuses the line (a named key) or
    publishes it with the key starred (a note: base64 of binary data), never the key."""
    line = obs_line(case.text)
    found = public_secret_hits(START + b"\n" + line, 1)
    assert len(found) == 1 and found[0][0] == 2, (case.name, found)
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    if found[0][1].redact:
        withhold_log(src, out)
        assert case.key.encode() not in out.read_bytes(), case.name
    else:
        with pytest.raises(WithholdError):
            withhold_log(src, out)
        assert not out.exists()


@pytest.mark.parametrize("case", [c for c in _CASES if c.name not in _OPEN],
                         ids=lambda c: c.name)
def test_no_glued_key_is_published(tmp_path, case):
    """Every case but the four left open: verify and withhold keep the key out alike."""
    _kept(tmp_path, case)


@pytest.mark.parametrize("case", [c for c in _CASES
                                  if c.name in _PUBLISHED_BEFORE - _OPEN
                                  and "-blob-" not in c.name and "-Q64-both" not in c.name],
                         ids=lambda c: c.name)
def test_a_glued_key_once_published_is_named_by_its_family(tmp_path, case):
    """Those published on aeca8af, outside what reads as base64 of binary data: named with
    their family's label, at the key's column."""
    line = obs_line(case.text)
    hit = refused_and_named(tmp_path, line, None, case.label)
    assert hit.column == unescape_json(line).find(case.key.encode()) + 1


_MD5 = "5d41402abc4b2a76b9719d911017c592"
_SHA256 = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"


@pytest.mark.parametrize("text", [
    "cache hit for monkey-" + _MD5, "sshkey-" + _MD5, "hotkey-" + _MD5 + " pressed",
    "etag key-" + _SHA256, "ask-V1StGXR8Z5jdHi6BmyTaZ3kq", "kiosk-Xk93nf02LmQpR7sTuVw4",
    "pnpm_store_V1StGXR8Z5jdHi6BmyTaZ3kq", "ALTAIR-7 reached", "banana" + _MD5])
def test_honest_glued_look_alikes_stay_quiet(tmp_path, text):
    """A word glued to a family's prefix is a word with its id (a vowel and a consonant in
    its glue, no pad), and a hex id longer than a key is an id."""
    line = orjson.dumps({"seq": 1, "at": "2026-12-06T06:00:01.000Z", "elapsedMs": 1000,
                         "type": "observation", "data": {"taskId": text}})
    assert text.encode() in quiet(tmp_path, line)


def _php_b64(data: bytes, width: int | None = None) -> str:
    """PHP's `json_encode` of base64 (`\\/` for each `/`), chunk_split at `width` columns
    (an escaped `\\r\\n` after each line) when given, as printed into a tool's output."""
    import base64

    text = base64.b64encode(data).decode()
    if width is None:
        return text.replace("/", "\\/")
    return "".join(text[i:i + width].replace("/", "\\/") + "\\r\\n"
                   for i in range(0, len(text), width))


def test_chance_runs_in_escaped_base64_of_binary_data_are_starred(tmp_path):
    """QA s45 T6 (h45_16): a chance `AIza` run inside `\\/`-escaped base64 of binary data
    was cut from its run by the escapes and refused the honest log (named, a warning); now it
    is passed over as chance in binary data: starred and noted, as the unescaped one is."""
    import random

    rng = random.Random("redact46-t6")
    run = "AIza" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789")
                           for _ in range(35))
    text = _php_b64(rng.randbytes(3000))
    at = text.find("\\/", 1800) + 2  # (just after an escape: the run before it was short)
    text = text[:at] + run + text[at + len(run):]
    line = obs_line("$ php -r 'echo json_encode([\"raw\" => base64_encode($f)]);'\n"
                    '{"raw":"' + text + '"}')
    from secretshelp import redacted_and_noted

    redacted_and_noted(tmp_path, line, [run.encode()])


def test_a_glued_key_across_a_php_chunk_split_break_is_kept_out(tmp_path):
    """QA s45 T5 (h45_06): an `sk-` key glued inside binary data's base64, printed by PHP's
    `json_encode` of `chunk_split` (`\\/` escapes, an escaped `\\r\\n` every 76 columns; in
    the log's JSON string both doubled), the key across a break: verify said nothing and
    withhold published it whole. Now both of its pieces are starred and noted."""
    import random

    rng = random.Random("redact46-t5")
    key = "sk-" + gluedmatrix.draw(rng, gluedmatrix.ALNUM, 48)
    import base64

    enc = base64.b64encode(rng.randbytes(3000)).decode()
    at = 76 * 11 - 20  # (20 of the key's characters before the break, 31 after it)
    enc = enc[:at - 1] + "k" + key + "m" + enc[at + len(key) + 1:]
    text = "".join(enc[i:i + 76].replace("/", "\\/") + "\\r\\n" for i in range(0, len(enc), 76))
    line = obs_line("$ php -r 'echo json_encode([\"jpg\" => chunk_split(base64_encode($j))]);'"
                    '\n{"jpg":"' + text + '"}')
    found = public_secret_hits(START + b"\n" + line, 1)
    assert [(n, h.label) for n, h in found] == [(2, "API key (sk-...)")]
    assert len(found[0][1].redact) >= 2  # (the key's pieces either side of the break)
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    assert withhold_log(src, out).redacted == (2,)
    public = out.read_bytes()
    assert key[:20].encode() not in public and key[20:].encode() not in public
    assert key[20:].encode() in line  # (the second piece is written whole after the break)


_TG = "7340912856:" + "Q9f_Wk2Lm-8ZtR4vXb1NcJ7pHs3Yd6GeUo0"  # (35 after `:`, no `AA`)


@pytest.mark.parametrize("text", ["Q" * 64 + _TG + "Q" * 64, "got " + _TG + "Q" * 64,
                                  "x" * 10 + _TG + "x" * 10, "got " + _TG + "ae" * 5])
def test_a_telegram_token_without_aa_glued_to_a_pad_is_named(tmp_path, text):
    """Review s45 R2: a bot token whose 35 do not open with `AA` (the family's pattern asks
    for it), a pad glued after it, was published whole; named now, at its digits' column."""
    line = obs_line(text)
    hit = refused_and_named(tmp_path, line, None, "Telegram bot token")
    assert hit.column == unescape_json(line).find(_TG.encode()) + 1


@pytest.mark.parametrize("text", [
    "at 1701234567:Zx81LmPw02XcVb7RtYuIq9WsE4rT6yU1oP3Zx81Lm9Qw2 done",
    "ts=1701234567:Zx81LmPw02XcVb7RtYuIq9WsE4rT6yU1oP3aSdF5gH7jKlMnBvCx"])
def test_a_timestamp_and_a_digest_are_no_telegram_token(tmp_path, text):
    """A 10-digit timestamp, `:`, then a random run longer than 35 (a digest): its glue after
    the 35 is the digest's rest, no pad (the first holds no vowel: named when the no-vowel
    rule of `padded` was asked, checked)."""
    line = obs_line(text)
    hits = public_secret_hits(START + b"\n" + line, 1)
    assert all(h.label != "Telegram bot token" for _, h in hits)
