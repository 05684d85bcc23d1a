"""A chance key's shape near a blob's edge or in MIME-wrapped base64 is redacted, not refused;
a key in a screenshot's bytes is named by `verify` as `withhold` refuses it (session 43,
redact; issue 15, review s42 R6, QA s42 T6 / T7). Each case but the guards fails on 7f3538f:
the match within 64 run characters of its run's edge (h41_13's 11 of 160, e_png64's line 130,
e_mime76's line 13151) was named and the honest log refused; verify named nothing in e_jpeg64's
JPEG comment segment."""

from __future__ import annotations

import base64
import gzip
import random
import zlib

import pytest
from secretshelp import obs_line, quiet, redacted_and_noted, refused_and_named

KEY = "AIzaSyDU8JZpDE0iGXlD6gNCFbaEPFjbD0kH8Oo"


def _blob(seed: int, n: int = 3000) -> str:
    """Base64 of compressed noise: binary data, as a screenshot's."""
    return base64.b64encode(zlib.compress(random.Random(seed).randbytes(n), 1)).decode()


def test_a_chance_key_just_after_a_data_uri_prefix_is_redacted(tmp_path):
    """QA s42 T6 / review s42 R6: e_png64's line 130, an AIza run 24 characters after
    `data:image/png;base64,`: the 4 KB after it decode to binary data by themselves."""
    blob = _blob(1)
    summary = "screenshot: data:image/png;base64," + blob[:24] + KEY + blob[24:]
    public = redacted_and_noted(tmp_path, obs_line(summary), [KEY.encode()])
    assert public == obs_line(summary.replace(KEY, "*" * 39))


@pytest.mark.parametrize("tail", [0, 30, 63])
def test_a_chance_key_near_a_blob_s_end_is_redacted(tmp_path, tail):
    """h41_13's runs within 64 characters of the blob's end (lines 12, 22, ... 147): the run
    before the match decides."""
    blob = _blob(2)
    summary = "$ base64 -w0 frame.bin\n" + blob[:2000] + KEY + blob[2000:2000 + tail]
    public = redacted_and_noted(tmp_path, obs_line(summary), [KEY.encode()])
    assert public == obs_line(summary.replace(KEY, "*" * 39))


def _wrapped(seed: int, at: int, brk: str, width: int) -> str:
    """Base64 of a gzip member of noise wrapped at `width` columns by `brk`, `KEY` written
    over the characters at `at` (inside one line)."""
    enc = base64.b64encode(gzip.compress(random.Random(seed).randbytes(6000), 1)).decode()
    enc = enc[:at] + KEY + enc[at + len(KEY):]
    return brk.join(enc[i:i + width] for i in range(0, len(enc), width))


@pytest.mark.parametrize("brk, width", [("\r\n", 76), ("\n", 64)])
def test_a_chance_key_in_mime_wrapped_base64_is_redacted(tmp_path, brk, width):
    """QA s42's e_mime76 line 13151: honest gzip base64 in 76-column `\\r\\n` lines (escaped
    in the JSON string) cut the run at every break, so a chance AIza 28 characters into a
    line had 28 and 9 run characters on its sides; the run is now read across the breaks."""
    body = _wrapped(3, 76 * 40 + 28 if width == 76 else 64 * 40 + 20, brk, width)
    summary = "Content-Transfer-Encoding: base64\r\n\r\n" + body
    public = redacted_and_noted(tmp_path, obs_line(summary), [KEY.encode()])
    assert public == obs_line(summary.replace(KEY, "*" * 39))


def test_short_lines_are_no_wrapping(tmp_path):
    """Guard: pieces under 48 columns are a text's words or a table, not one run of data: a
    key between two such lines is named and refused, as at 7f3538f."""
    line = "\n".join(["QUJDREVGR0hJSktMTU5PUFFSU1RVVldY"] * 40 + [KEY]
                     + ["WFlaYWJjZGVmZ2hpamtsbW5vcHFyc3R1"] * 40)
    refused_and_named(tmp_path, obs_line(line), None, "Google API key")


@pytest.mark.parametrize("summary", [
    # R1's third case and its one-sided variants: neither side 1 KiB of data
    "blob " + "Q" * 20 + KEY + " end",
    "blob " + "Q" * 900 + KEY + " end",
    "blob " + KEY + "Q" * 900 + " end"])
def test_a_key_with_no_kib_of_data_on_either_side_is_still_refused(tmp_path, summary):
    """Guard (review s41 R1): a key glued to a word, or after a short run, is named."""
    refused_and_named(tmp_path, obs_line(summary), None, "Google API key")


def _jpeg_with_comment(text: bytes, seed: int) -> bytes:
    """A JPEG's start, a COM segment holding `text`, then 9 KB of noise (its scan data)."""
    com = b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text
    return b"\xff\xd8" + com + random.Random(seed).randbytes(9000) + b"\xff\xd9"


def test_a_key_in_a_jpeg_comment_is_named_by_verify_as_withhold_refuses_it(tmp_path):
    """QA s42 T7 (e_jpeg64's last line): `withhold` refused an `sk-proj-` key in a 9 KB JPEG
    data URI's COM segment, `verify` named nothing (the reader's gate skips a payload of
    4,096+ characters). Verify's gate now asks a payload whose decoded bytes hold a key
    pattern's marker (`withhold_gate.payload_spots`): both name line 2."""
    key = b"sk-proj-T7jpegCommentKey0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV"
    uri = base64.b64encode(_jpeg_with_comment(b"OPENAI_API_KEY=" + key, 7)).decode()
    line = obs_line('tool env returned: {"KEY": "data:image/jpeg;base64,' + uri + '"}')
    hit = refused_and_named(tmp_path, line, None, "base64 of a secret")
    assert hit.column == line.index(b"/9j/") + 1


def test_an_honest_jpeg_payload_is_quiet(tmp_path):
    """Guard: a payload whose bytes hold no marker (a comment of honest text) is not named."""
    uri = base64.b64encode(_jpeg_with_comment(b"Lavc59.37.100 frame 42", 7)).decode()
    quiet(tmp_path, obs_line("data:image/jpeg;base64," + uri))


@pytest.mark.parametrize("before, after", [("Q" * 64, "Q" * 64), ("Q" * 64, "/" + "a" * 63),
                                           ("ab+/" * 16, "9" + "Q" * 63)])
def test_an_aws_key_id_glued_to_capitals_in_base64_is_redacted(tmp_path, before, after):
    """Review s42 R3: akq64 ("Q"*64 + an AKIA key id + "Q"*64) was published whole with nothing
    named: the pattern's boundaries (no capital or digit either side) never hold when it is
    glued. Inside base64 of binary data it is now passed over and written as `*`."""
    key = "AKIADZDOCIS2JHTLGMXG"
    public = redacted_and_noted(tmp_path, obs_line(before + key + after), [key.encode()])
    assert public == obs_line(before + "*" * 20 + after)


def test_an_aws_key_id_glued_in_text_is_not_named(tmp_path):
    """Guard: glued to capitals outside base64 of data (an upper-case identifier), no note and
    no refusal, as at 7f3538f."""
    quiet(tmp_path, obs_line("build MYAKIADZDOCIS2JHTLGMXG done"))
