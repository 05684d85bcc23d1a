"""Keys in session 40's QA spellings, read by family (session 41, spell; issue 15, QA s40 T6,
T7): `od -t x8`'s 8-byte little-endian words (`secrets_words.wide_words`), base64 of UTF-16
text (`secrets_unwrap`) and base64 after an escaped line break. Each family is asked with keys and
spellings of its own (not QA's ids alone) through the engine (`scan_public`), verify's gate
and `withhold_log` (`refused_and_named`); honest look-alikes and base64 of compressed data
that spells a Google key by chance stay quiet in all three."""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from secretshelp import obs_line, quiet, redacted_and_noted, refused_and_named

from moderator_app.core.formats import secrets_unwrap, secrets_words
from moderator_app.core.formats.secrets import scan_line
from moderator_app.core.formats.secrets_chance import passing_over
from moderator_app.core.formats.secrets_decode import is_text
from moderator_app.core.formats.secrets_unwrap import UTF16
from moderator_app.core.formats.secrets_words import WORDS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

KEYS = [("Square token", "sq0atp-" + "QA41familyWords0aB1cD2eF3gH4iJ5kL6mN"),
        ("GitHub token", "ghu_" + "QA41family0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"),
        ("Stripe test key", "rk_test_" + "QA41family0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT")]
IDS = [k[0] for k in KEYS]
OD, XXD = shutil.which("od"), shutil.which("xxd")


def _run(tmp_path: Path, args: list[str], data: bytes) -> str:
    path = tmp_path / "key.txt"
    path.write_bytes(data)
    return subprocess.run([*args, str(path)], capture_output=True, check=True).stdout.decode()


@pytest.mark.skipif(OD is None or XXD is None, reason="no od / xxd here")
@pytest.mark.parametrize("args", [["od", "-t", "x8"], ["od", "-An", "-t", "x8"],
                                  ["od", "-t", "x8", "-w32"], ["od", "-x"]])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_od_little_endian_words_of_2_or_8_bytes_is_refused(tmp_path, args, label,
                                                                     key):
    printed = _run(tmp_path, args, f"[default]\ntoken = {key}\n".encode())
    refused_and_named(tmp_path, obs_line(f"$ {' '.join(args)} key.txt\n{printed}"), WORDS,
                      label)


@pytest.mark.parametrize("wrap", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_base64_of_utf16_text_is_refused(tmp_path, wrap, label, key):
    data = f"$env:TOKEN = '{key}'; Invoke-Thing".encode(wrap)
    line = obs_line("$ pwsh -EncodedCommand " + base64.b64encode(data).decode())
    hit = refused_and_named(tmp_path, line, UTF16, "base64 of a secret")
    assert hit.how.endswith(f"({label})")


def test_a_base64_run_after_an_escaped_line_break_is_read_from_its_first_character(tmp_path):
    """The run started at the `n` of `\\n` (`base64 -w0` printed on the summary's next line),
    so no base64 after a line break in a JSON string was decoded whole."""
    key = "ghu_" + "QA41afterBreak0aB1cD2eF3gH4iJ5kL6mN7oP8q"
    encoded = base64.b64encode(f"token: {key}\n".encode()).decode()
    refused_and_named(tmp_path, obs_line("$ base64 -w0 token.txt\n" + encoded), None,
                      "base64 of a secret")


def test_qa_s40_lines_are_named_with_their_keys(tmp_path):
    import qa_hostile_s40 as h40

    refused_and_named(tmp_path, obs_line(h40.GHR_PS), UTF16, "base64 of a secret")
    hit = refused_and_named(tmp_path, obs_line(h40.ASIA_OD), WORDS)
    assert hit.excerpt.startswith("acce")  # (its `aws_secret_access_key = ...` line)


def test_qa_s40_and_s39_honest_look_alikes_are_published(tmp_path):
    import orjson
    import qa_hostile_s39 as h39
    import qa_hostile_s40 as h40

    for event in h40._honest_events() + h39._honest_events():
        if event.get("type") == "observation":
            quiet(tmp_path, orjson.dumps(event))


def test_base64_of_compressed_data_that_spells_a_google_key_is_no_key(tmp_path):
    """QA s40 T7: `AIza` + 35 found by chance inside base64 of compressed bytes is passed over
    (the run decodes to no text): not named, but redacted by `withhold` and noted by `verify`
    (session 42, review s41 R2); a key that starts a token, or in base64 of text, is named."""
    key = "AIza" + "SyQA41chanceInBase64xxxxxxxxxxxxxxx"
    blob = base64.b64encode(zlib.compress(bytes(range(256)) * 4)).decode()
    chance = blob[:200] + key + blob[200:400]
    assert not is_text(base64.b64decode(chance[:len(chance) // 4 * 4]))
    assert scan_line(chance.encode()) == []
    (tmp_path / "quiet").mkdir()
    public = redacted_and_noted(tmp_path / "quiet",
                                obs_line("$ gzip -c notes.txt | base64 -w0\n" + chance),
                                [key.encode()])
    assert public.endswith(f"{blob[:200]}{'*' * 39}{blob[200:400]}\"}}}}".encode())
    refused_and_named(tmp_path, obs_line("GOOGLE_KEY " + key + " " + blob[:200]), None,
                      "Google API key")


@pytest.mark.parametrize("summary, label", [
    ("GET https://www.googleapis.com/v1/projects/demoproject/apikeys/"
     "AIzaSyDU8JZpDE0iGXlD6gNCFbaEPFjbD0kH8Oo/lookup", "Google API key"),
    ("s3://mybucket/exports/backups/AKIADZDOCIS2JHTLGMXG/data", "AWS access key id"),
    ("blob QQQQQQQQQQQQQQQQQQQQAIzaSyDU8JZpDE0iGXlD6gNCFbaEPFjbD0kH8Oo end", None)])
def test_a_key_in_a_path_or_after_a_short_glue_is_still_refused(tmp_path, summary, label):
    """Review s41 R1 (HIGH): a key in a URL's or an S3 path's segments, or after 20 letters,
    was passed over as base64 of binary data and published."""
    refused_and_named(tmp_path, obs_line(summary), None, label)


def test_honest_compressed_and_utf16_text_is_published(tmp_path):
    lines = ["ts 2026-10-22T18:00:01.040Z sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c",
             "$ pwsh -EncodedCommand "
             + base64.b64encode("Get-ChildItem C:\\games | Sort-Object".encode("utf-16-le")).decode(),
             "$ od -t x8 notes.txt\n0000000 6874206e69207473 6e75742065746167\n0000020 000a6e776164"]
    for summary in lines:
        quiet(tmp_path, obs_line(summary))


def test_the_decoders_are_byte_exact_and_bounded():
    assert secrets_unwrap.unwrapped("hello, the gate".encode("utf-16-le"), is_text) == \
        (UTF16, b"hello, the gate")
    assert secrets_unwrap.unwrapped(b"\x1f\x8b\x08" + bytes(40), is_text) is None
    row = b"0000000 746c75616665645b 63615f7377610a5d\\n0000020 79656b5f73736563"
    assert [got for _, got in secrets_words.wide_words(row)][0] == b"[default]\naws_access_key"


def test_a_line_of_glued_keys_is_passed_over_whole():
    """Review s41 R5: a line that is one base64 run of glued keys (no separator) found the
    run's ends again for every match (5 MB: 18.4 s a scan, quadratic); the run's ends are now
    remembered (4 MB: 13.1 -> 3.6 s CPU in the lead's paired run: no timing is asserted here).
    Since session 43 (redact; review s42 R6) a match with under 64 run characters on one side
    is passed over when the other side's 1 KiB decodes to binary data: the first, second and
    last keys (named at 7f3538f) are passed over too, each one recorded, so `withhold` writes
    all 25,000 as `*` and nothing is published."""
    keys = [f"AIzaSy{i:02d}glued" + "x" * 26 + "Q" for i in range(8)]
    line = ("blob " + "".join(keys[i % 8] for i in range(25_000))).encode()
    with passing_over() as passed:
        hits = scan_line(line)
    assert hits == []
    assert [start for _, start, _, _ in passed] == [5 + 40 * i for i in range(25_000)]
