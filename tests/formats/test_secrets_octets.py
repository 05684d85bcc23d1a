"""Keys printed by `od -b` (`od -t o1`, `hexdump -b`) as octal byte dumps (session 38, views;
issue 15, QA s37 T5 h37_01): `od -b ~/.sentryclirc.token` shows a key as three octal digits a
byte, and `withhold` published it, `verify` named nothing. The dump is read by
`secrets_octets`, alone, as `od -c`'s: refused and named alike."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_octets
from moderator_app.core.formats.secrets_octets import OCTETS

KEYS = [("Sentry token", "sntrys_" + "QA38odOctalDump0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6g"),
        ("GitHub token", "ghp_" + "QA38odbDump0aB1cD2eF3gH4iJ5kL6mN7oP8q"),
        ("Alibaba key id", "LTAI" + "5fQA38odbDump0aB1cD"),
        ("Stripe secret key", "sk_live_" + "QA38octets0aB1cD2eF3gH4iJ5kL6mN7oP8")]
OD = shutil.which("od")
HEXDUMP = shutil.which("hexdump")


def od_b(data: bytes, width: int = 16, offset: str | None = "{:07o}", pad: bool = False) -> str:
    """`od -b` of `data` as GNU od prints it (`offset` None as `-An`; `pad`: `hexdump -b`'s
    last row padded to the width)."""
    rows = []
    for i in range(0, len(data), width):
        cells = "".join(f" {c:03o}" for c in data[i:i + width])
        rows.append(("" if offset is None else offset.format(i))
                    + (cells.ljust(4 * width) if pad else cells))
    return "\n".join(rows + ([] if offset is None else [offset.format(len(data))]))


@pytest.mark.parametrize("command, width, offset, pad", [
    ("od -b", 16, "{:07o}", False), ("od -An -b", 16, None, False),
    ("od -b -w8", 8, "{:07o}", False), ("od -An -b -w4", 4, None, False),
    ("od -Ax -t o1", 16, "{:06x}", False), ("od -Ad -b -w32", 32, "{:07d}", False),
    ("hexdump -b", 16, "{:07x}", True)])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_an_octal_byte_dump_is_refused_and_named_alike(tmp_path, command, width,
                                                                  offset, pad, label, key):
    summary = f"$ {command} ~/.secrets/key\n{od_b(key.encode(), width, offset, pad)}\n$ ls"
    refused_and_named(tmp_path, obs_line(summary), OCTETS, label)


def test_qa_s37_h37_01_line_is_named_as_a_sentry_token(tmp_path):
    key = "sntrys_" + "QA37odOctalDump0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6g"
    summary = "$ od -b ~/.sentryclirc.token\n" + od_b(key.encode())
    hit = refused_and_named(tmp_path, obs_line(summary), OCTETS, "Sentry token")
    assert hit.excerpt.startswith("sntr"), hit


def test_a_named_value_in_a_dumped_env_file_is_refused(tmp_path):
    text = b"HOME=/root\nAWS_SECRET_ACCESS_KEY=QA38wJalrXUtnFEMIK7MDENGbPxRfiCY\n"
    hit = refused_and_named(tmp_path, obs_line(f"$ od -b .env\n{od_b(text)}\n"), OCTETS)
    assert hit.label in ("value named like a secret", "AWS secret access key"), hit


@pytest.mark.skipif(OD is None or HEXDUMP is None, reason="no od / hexdump here")
@pytest.mark.parametrize("args", [["od", "-b"], ["od", "-An", "-b", "-w4"], ["od", "-t", "o1z"],
                                  ["od", "-Ax", "-t", "o1", "-w12"], ["hexdump", "-b"]])
def test_real_od_of_a_binary_key_file_is_read_over_its_star_rows(tmp_path, args):
    """A key after a block of zeros (od prints `*` for the rows like the one before) and
    bytes that are no text: the dump's bytes, their printable stretch read as text."""
    key = KEYS[1][1].encode()
    data = b"\x00" * 64 + b"\x7fELF\x01\x02" + key + b"\xff\xfe\n"
    path = tmp_path / "key.bin"
    path.write_bytes(data)
    printed = subprocess.run([*args, str(path)], capture_output=True, check=True).stdout.decode()
    assert "*" in printed or "-w4" in args or "-w12" in args
    refused_and_named(tmp_path, obs_line(f"$ {' '.join(args)} key.bin\n{printed}"), OCTETS,
                      KEYS[1][0])


@pytest.mark.skipif(OD is None, reason="no od here")
@pytest.mark.parametrize("seed", range(12))
def test_real_od_dumps_decode_byte_exact(seed):
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(8, 400)))
    width = rng.choice([4, 8, 16, 20, 32])
    args = ["od", f"-w{width}"] + rng.choice([["-b"], ["-An", "-b"], ["-Ax", "-b"], ["-Ad", "-b"],
                                               ["-t", "o1z"], ["-An", "-t", "o1"]])
    printed = subprocess.run(args, input=data, capture_output=True, check=True).stdout.decode()
    raw = obs_line(printed)
    views = list(secrets_octets.octet_views(raw))
    assert [got for got, _ in views] == [data], args


def test_a_dump_decodes_each_row_kind():
    raw = (b'x\\n0000000 163 156 164 162  >sntr<\\n*\\n0000020 171 163 137'
           b'                    \\n0000027\\n')
    m = secrets_octets.DUMP.search(raw)
    assert m is not None
    assert secrets_octets.decoded(m.group(1)) == b"sntrys_"


@pytest.mark.parametrize("summary", [
    "$ od -b notes.txt\n" + od_b(b"level 3 unlocked: the porter waits at the gate\n"),
    "$ od -An -b save.bin\n" + od_b(bytes(range(0, 256, 3)), offset=None),
    "$ od -b random.bin\n" + od_b(bytes(random.Random(3).randrange(256) for _ in range(512))),
    "$ chmod 0755 run.sh; stat -c %a run.sh a.sh b.sh c.sh\n0755 0644 0700 0600 0755",
    "hosts 192.168.100.200 010.001.002.003 127.000.000.001 and 100 200 300 301 302 304",
    "C:\\100\\101\\102\\103\\104\\105\\106\\107 D:\\games\\001 002 003",
    "scores 100 120 133 101 017 200 311 277 and 102 103 104 105 106 107 110 111 112",
    "HTTP 200 301 302 304 307 308 and ports 123 137 138 139 161 162 177 179 389",
])
def test_honest_dumps_and_numbers_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))


def test_the_gate_is_shut_without_four_cells_in_a_row():
    assert not secrets_octets.octets_in(b"modes 0755 0644 0700 0600 and 100 200 389 400")
    assert secrets_octets.octets_in(b"0000000 163 156 164 162 171")
    assert not list(secrets_octets.octet_views(b"x 163 156 164 162 171"))  # (5 bytes: < 8)
