"""A spaced hex dump whose last byte runs on into a word (`... 6e 7a z`): session 35's review
V3 found the dump's pattern tested the run's end after the whole run, so such a run failed
whole and was read again from each of its bytes (O(n^2) a line: 55 s of CPU for a 180 KB
line, in verify and withhold alike) and the key it held was never decoded. Each byte now ends
where no word character follows it: the run ends one byte sooner and its key is named."""

from __future__ import annotations

import pytest
from secretshelp import obs_line, refused_and_named

from moderator_app.core.formats import secrets_bytes

FLY = "fo1_" + "QA35runOnHexDumpX0aB1cD2eF3gH4iJ5kL6mN7oP8q"


def test_a_dumped_key_whose_last_byte_runs_into_a_word_is_named_and_refused(tmp_path):
    # the key's bytes, then one more byte glued to a word: the run ends before that byte
    summary = "memory at 0x7ffe: " + " ".join(f"{c:02x}" for c in FLY.encode()) + " 20zz done"
    refused_and_named(tmp_path, obs_line(summary), secrets_bytes.BYTES)


@pytest.mark.parametrize("sep, width", [(b" ", 2), (b":", 2), (b"-", 2), (b" ", 4)])
def test_a_long_run_on_run_is_one_spot_at_its_start(sep, width):
    # 20,000 bytes then a word character (review V3's shape: read once, not once a byte)
    run = sep.join([b"41" * (width // 2)] * 20_000) + b"z"
    data = b"dump " + run + b"\n"
    assert secrets_bytes.DUMP.search(data) is not None
    assert secrets_bytes.spots(data, 0, len(data), False) == [5]
