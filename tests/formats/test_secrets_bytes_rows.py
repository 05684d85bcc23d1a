"""Byte arrays with a `//` comment a row or `;` between bytes, and `xxd -g4`'s eight-digit
groups (session 36, issue 15, review V4): each ended the array or dump where its key began,
and `withhold` published it. The honest look-alikes (a commented table of random bytes,
registers, CRC lists, `xxd -g4` of random bytes) decode to bytes and stay quiet."""

from __future__ import annotations

import random

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets_bytes import BYTES

KEYS = [("Figma token", "figd_" + "QA36byteRows0aB1cD2eF3gH4iJ5kL6mN7oP8qR9s"),
        ("Docker token", "dckr_pat_" + "QA36byteRows0aB1cD2eF3gH4iJ"),
        ("Supabase token", "sbp_" + "3a5f0c1e9d7b2a4c6e8f0a1b3c5d7e9f1a2b4c6d")]


def _commented(key: str) -> str:
    data = key.encode()
    rows = [data[i:i + 8] for i in range(0, len(data), 8)]
    return "static const uint8_t k[] = {\n" + "\n".join(
        "    " + ", ".join(f"0x{c:02x}" for c in row) + f", // row {r}: 0x{r:02x}"
        for r, row in enumerate(rows)) + "\n};"


def _xxd_g4(data: bytes) -> str:
    out = []
    for i in range(0, len(data), 16):
        digits = data[i:i + 16].hex()
        groups = " ".join(digits[j:j + 8] for j in range(0, len(digits), 8))
        out.append(f"{i:08x}: {groups:<35}  {data[i:i + 16].decode('ascii', 'replace')}")
    return "\n".join(out)


SPELLINGS = {
    "a comment a row": _commented,
    "; between bytes": lambda k: "regs " + ";".join(f"0x{c:02X}" for c in k.encode()),
    "xxd -g4": lambda k: "$ xxd -g4 token\n" + _xxd_g4(k.encode()),
}


@pytest.mark.parametrize("spelling", list(SPELLINGS))
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_commented_rows_semicolons_or_eight_digit_groups_is_refused_alike(
        tmp_path, spelling, label, key):
    refused_and_named(tmp_path, obs_line(SPELLINGS[spelling](key)), BYTES, label)


def _honest(rnd: random.Random) -> list[str]:
    return [
        "const uint8_t lut[] = {\n" + "\n".join(
            "    " + ", ".join(f"0x{rnd.randrange(256):02x}" for _ in range(8))
            + f", // row {r}" for r in range(4)) + "\n};",
        "regs " + ";".join(f"0x{rnd.randrange(256):02x}" for _ in range(24)),
        "crc32 " + " ".join(f"{rnd.randrange(1 << 32):08x}" for _ in range(8)),
        "$ xxd -g4 frame.bin\n" + _xxd_g4(bytes(rnd.randrange(256) for _ in range(64))),
    ]


@pytest.mark.parametrize("seed", range(5))
def test_honest_commented_tables_registers_and_groups_stay_quiet(tmp_path, seed):
    for k, summary in enumerate(_honest(random.Random(seed))):
        sub = tmp_path / str(k)
        sub.mkdir()
        quiet(sub, obs_line(summary))
