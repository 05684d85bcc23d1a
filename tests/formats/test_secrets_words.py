"""Keys printed by `od -x` (`od -t x2`, `hexdump`) as little-endian 2-byte words (session 39,
dumps; issue 15, QA s38 T5 h38_03): each pair of characters shows swapped in the hex, and the
hex dump view read the words big-endian (`kr_ilev_...`): `withhold` published the key, `verify`
named nothing. The words are read back in byte order by `secrets_words`, alone: refused and
named alike."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_bytes
from moderator_app.core.formats.secrets_decode import is_text
from moderator_app.core.formats.secrets_words import WORDS, swapped

KEYS = [("Stripe restricted key", "rk_live_" + "QA39odXwords0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"),
        ("GitHub token", "ghp_" + "QA39odxDump0aB1cD2eF3gH4iJ5kL6mN7oP8q"),
        ("Stripe secret key", "sk_live_" + "QA39words0aB1cD2eF3gH4iJ5kL6mN7oP8x"),
        ("AWS access key id", "AKIA" + "QA39ODXWORDS7EXA")]
OD = shutil.which("od")
HEXDUMP = shutil.which("hexdump")


def od_x(data: bytes, width: int = 16, offset: str | None = "{:07o}") -> str:
    """`od -x` of `data` as GNU od prints it (`offset` None as `-An`; a file of odd length
    padded with a zero byte; the last row the offset of the end)."""
    padded = data + b"\0" * (len(data) % 2)
    rows = []
    for i in range(0, len(padded), width):
        row = padded[i:i + width]
        words = "".join(f" {row[j + 1]:02x}{row[j]:02x}" for j in range(0, len(row), 2))
        rows.append(("" if offset is None else offset.format(i)) + words)
    return "\n".join(rows + ([] if offset is None else [offset.format(len(data))]))


@pytest.mark.parametrize("command, width, offset", [
    ("od -x", 16, "{:07o}"), ("od -An -x", 16, None), ("od -x -w8", 8, "{:07o}"),
    ("od -Ax -t x2", 16, "{:06x}"), ("od -Ad -t x2 -w32", 32, "{:07d}"),
    ("hexdump", 16, "{:07x}")])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_little_endian_words_is_refused_and_named_alike(tmp_path, command, width,
                                                                 offset, label, key):
    summary = f"$ {command} ~/.secrets/key\n{od_x(key.encode(), width, offset)}\n$ ls"
    refused_and_named(tmp_path, obs_line(summary), WORDS, label)


def test_qa_s38_h38_03_line_is_named_as_a_stripe_restricted_key(tmp_path):
    key = "rk_live_" + "QA38odXwords0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"
    hit = refused_and_named(tmp_path, obs_line("$ od -x stripe.key\n" + od_x(key.encode())),
                            WORDS, "Stripe restricted key")
    assert hit.excerpt.startswith("rk_l"), hit


def test_e_odx_last_line_a_key_in_a_tool_json_string_is_refused(tmp_path):
    key = "rk_live_" + "QA38odXwords0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"
    summary = 'tool env returned: {"KEY": "$ od -x stripe.key\n' + od_x(key.encode()) + '"}'
    refused_and_named(tmp_path, obs_line(summary), WORDS, "Stripe restricted key")


@pytest.mark.skipif(OD is None or HEXDUMP is None, reason="no od / hexdump here")
@pytest.mark.parametrize("args", [["od", "-x"], ["od", "-An", "-t", "x2", "-w8"],
                                  ["od", "-Ax", "-x", "-w12"], ["hexdump"]])
def test_real_od_of_a_binary_key_file_is_read_over_its_star_rows(tmp_path, args):
    """A key after a block of zeros (od prints `*` for the rows like the one before) and
    bytes that are no text: the words' bytes, their printable stretch read as text."""
    key = KEYS[1][1].encode()
    data = b"\x00" * 64 + b"\x7fELF\x01\x02" + key + b"\xff\xfe\n"
    path = tmp_path / "key.bin"
    path.write_bytes(data)
    printed = subprocess.run([*args, str(path)], capture_output=True, check=True).stdout.decode()
    refused_and_named(tmp_path, obs_line(f"$ {' '.join(args)} key.bin\n{printed}"), WORDS,
                      KEYS[1][0])


def _word_views(raw: bytes) -> list[bytes]:
    return [view for view, _, _, how in secrets_bytes.byte_views(raw, is_text) if how == WORDS]


@pytest.mark.skipif(OD is None, reason="no od here")
@pytest.mark.parametrize("seed", range(12))
def test_real_od_x_dumps_decode_byte_exact(seed):
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(8, 400) * 2))
    width = rng.choice([8, 16, 20, 32])  # (-w4: 2 words a row, no dump piece)
    args = ["od", f"-w{width}"] + rng.choice([["-x"], ["-An", "-x"], ["-Ax", "-x"], ["-Ad", "-x"],
                                               ["-t", "x2"], ["-An", "-t", "x2"]])
    printed = subprocess.run(args, input=data, capture_output=True, check=True).stdout.decode()
    if "*" in printed:
        return  # (a row repeated: od prints `*`; the dump view reads up to it)
    assert _word_views(obs_line(printed))[:1] == [data], args


def test_the_words_are_swapped_back_and_an_odd_files_pad_dropped():
    assert _word_views(b"$ od -x k\\n0000000 6b72 6c5f 7669 5f65\\n0000010 4151 0038\\n"
                       b"0000013") == [b"rk_live_QA8"]
    assert _word_views(b"$ od -An -x k\\n 6b72 6c5f 7669 5f65\\n 4151 3833") == [b"rk_live_QA38"]
    assert _word_views(b"$ od -x k\n0000000 6b72 6c5f 7669 5f65\n0000010 4151 3833\n") == [
        b"rk_live_QA38"]  # (real line breaks: a decoded text's)
    assert _word_views(b"$ od -x k\\n0000000 6b72 6c5f 7669 5f65\\n0000010") == [
        b"rk_live_"]
    assert swapped(b"6b72 6c5f 7669", bytes.fromhex("6b726c5f7669")) is None  # (6 bytes: < 8)


@pytest.mark.parametrize("line", [
    b"$ xxd k\\n00000000: 6b72 6c5f 7669 5f65 4151 3833  kr_ilev_QA38",  # (xxd: big-endian)
    b"k 6b72 6c5f 7669 5f65\\n 4151 41",  # (a group of two digits)
    b"k 6b72 6c5f 7669 5f65 4151\\n 41424344 4546",  # (a group of eight)
])
def test_what_is_no_od_x_shape_is_no_words_view(line):
    assert secrets_bytes._dump_runs(line)  # (the dump view reads it, big-endian)
    assert _word_views(line) == []


@pytest.mark.parametrize("summary", [
    "$ od -x notes.txt\n" + od_x(b"level 3 unlocked: the porter waits at the gate\n"),
    "$ od -An -x save.bin\n" + od_x(bytes(range(0, 256, 3)), offset=None),
    "$ od -x random.bin\n" + od_x(bytes(random.Random(3).randrange(256) for _ in range(512))),
    "$ od -x config.json\n" + od_x(b'{"password_hint": "the usual", "user": "porter"}'),
    "years 2019 2020 2021 2022 2023 2024 and ports 8080 8443 9000 9090 3000 5432",
    "uuid 550e8400-e29b-41d4-a716-446655440000 mac 00:1a:2b:3c:4d:5e sha 9f86d081884c7d65",
    "$ xxd notes.txt\n00000000: 6c65 7665 6c20 3320 756e 6c6f 636b 6564  level 3 unlocked",
])
def test_honest_dumps_and_numbers_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))


@pytest.mark.skipif(OD is None, reason="no od here")
@pytest.mark.parametrize("args", [["od", "--endian=big", "-x"],
                                  ["od", "-An", "--endian=big", "-t", "x2"]])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_big_endian_words_of_the_same_shape_are_still_read(tmp_path, args, label, key):
    """`od --endian=big -x` prints od -x's shape with the bytes in order: the dump view's
    big-endian reading names the key, as before the words view (review s39 R1: it was dropped
    where the words view read the dump, and such keys were published)."""
    printed = subprocess.run(args, input=f"API_KEY={key}\n".encode(), capture_output=True,
                             check=True).stdout.decode()
    hit = refused_and_named(tmp_path, obs_line(f"$ {' '.join(args)} .env\n{printed}"))
    assert hit.label in (label, "value named like a secret"), hit


def test_xxd_g2_groups_without_offset_or_column_are_still_read_big_endian(tmp_path):
    key = KEYS[1][1].encode()
    groups = " ".join(key[i:i + 2].hex() for i in range(0, len(key) - 1, 2))
    refused_and_named(tmp_path, obs_line(f"$ xxd -g2 k | cut -c11-50\n{groups}"), None,
                      KEYS[1][0])
