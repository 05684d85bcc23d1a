"""Keys in more spellings of a tool's output (session 40, spell; issue 15, QA s39 T6):
`base32`, `xxd -b`, `od -t d1`, Ascii85 and `uuencode` were each published by `withhold` and
named by no `verify` (and `od -t x4`'s words: not landed, its cost). Each family is read by
one table-driven view (`secrets_radix` for dumps of numbers in any radix, `secrets_basen` for
the base-N text encodings); every case goes through the engine
(`scan_public`), verify's gate and `withhold_log` (`refused_and_named`), and the honest
look-alikes stay quiet in all three."""

from __future__ import annotations

import base64
import binascii
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import native, secrets_basen, secrets_radix
from moderator_app.core.formats.secrets_basen import ASCII85, BASE32, UUENCODE
from moderator_app.core.formats.secrets_decode import is_text
from moderator_app.core.formats.secrets_radix import RADIX

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

KEYS = [("Square token", "sq0atp-" + "QA40radixWords0aB1cD2eF3gH4iJ5kL6mN7"),
        ("Grafana token", "glc_" + "QA40base32Grafana0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1w"),
        ("GitHub token", "ghu_" + "QA40odTd1decimal0aB1cD2eF3gH4iJ5kL6m"),
        ("Stripe test key", "rk_test_" + "QA40uuencode0aB1cD2eF3gH4iJ5kL6mN7oP8qR9")]
IDS = [k[0] for k in KEYS]
OD, XXD, BASENC = shutil.which("od"), shutil.which("xxd"), shutil.which("basenc")


def _run(tmp_path: Path, args: list[str], data: bytes) -> str:
    path = tmp_path / "key.txt"
    path.write_bytes(data)
    return subprocess.run([*args, str(path)], capture_output=True, check=True).stdout.decode()


def _xxencode(data: bytes) -> str:
    """xxencode's body (`begin 644 NAME`, rows led by their length in its alphabet)."""
    alpha = "+-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    rows = []
    for i in range(0, len(data), 45):
        uu = binascii.b2a_uu(data[i:i + 45]).decode().rstrip("\n")
        rows.append("".join(alpha[(ord(c) - 32) & 63] for c in uu))
    return "begin 644 key.txt\n" + "\n".join(rows) + "\n+\nend"


@pytest.mark.skipif(OD is None or XXD is None, reason="no od / xxd here")
@pytest.mark.parametrize("args", [
    ["od", "-t", "d1"], ["od", "-t", "u1"], ["od", "-An", "-t", "d1", "-w12"], ["od", "-d"],
    ["od", "-t", "d2"], ["od", "-t", "u4"], ["od", "-i"], ["od", "-t", "d8"], ["od", "-o"],
    ["od", "-t", "o4"], ["od", "-t", "d1z"], ["od", "--endian=big", "-t", "u2"],
    ["xxd", "-b"], ["xxd", "-b", "-g2"], ["xxd", "-b", "-c8"]])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_a_dump_of_decimal_octal_or_binary_numbers_is_refused(tmp_path, args, label,
                                                                       key):
    printed = _run(tmp_path, args, key.encode() + b"\n")
    refused_and_named(tmp_path, obs_line(f"$ {' '.join(args)} key.txt\n{printed}"), RADIX,
                      label)


@pytest.mark.skipif(BASENC is None, reason="no basenc here")
@pytest.mark.parametrize("args", [["basenc", "--base32"], ["basenc", "--base32hex"],
                                  ["basenc", "--base32", "-w", "0"],
                                  ["basenc", "--base32", "-w", "20"]])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_base32_either_alphabet_any_wrap_is_refused(tmp_path, args, label, key):
    printed = _run(tmp_path, args, key.encode() + b"\n")
    refused_and_named(tmp_path, obs_line(f"$ {' '.join(args)} key.txt\n{printed}"), BASE32,
                      label)


@pytest.mark.parametrize("spell", ["adobe", "wrapped"])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_ascii85_is_refused(tmp_path, spell, label, key):
    body = base64.a85encode(key.encode(), adobe=True, wrapcol=72 if spell == "adobe" else 20)
    refused_and_named(tmp_path, obs_line("tool python3 returned: " + body.decode()), ASCII85,
                      label)


@pytest.mark.parametrize("coder", ["uuencode", "xxencode"])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_a_uuencode_or_xxencode_body_is_refused(tmp_path, coder, label, key):
    data = key.encode() + b"\n"
    if coder == "uuencode":
        rows = "".join(binascii.b2a_uu(data[i:i + 45], backtick=True).decode()
                       for i in range(0, len(data), 45))
        body = f"begin 644 key.txt\n{rows}`\nend"
    else:
        body = _xxencode(data)
    refused_and_named(tmp_path, obs_line(f"$ {coder} key.txt key.txt\n{body}"), UUENCODE, label)


def test_qa_s39_h39_02_to_06_lines_are_named_with_their_keys(tmp_path):
    import qa_hostile_s39 as h39

    for summary, how, label in ((h39.GLC_B32, BASE32, "Grafana token"),
                                (h39.DOO_XB, RADIX, "DigitalOcean token"),
                                (h39.GHU_OD, RADIX, "GitHub token"),
                                (h39.SHP_85, ASCII85, "Shopify token"),
                                (h39.RKT_UU + "\n$ stripe status", UUENCODE,
                                 "Stripe test key")):
        refused_and_named(tmp_path, obs_line(summary), how, label)


HONEST = [
    "the porter waits at the gate, a strobe lit; meet at the north tower when the bell rings",
    "level 3: the beacon blinks twice, then the gate opens\nscore 4100, lives 3, frame 1200\n",
    bytes(range(256)).decode("latin-1"),
]


@pytest.mark.skipif(OD is None or XXD is None or BASENC is None, reason="no od / xxd / basenc")
@pytest.mark.parametrize("args", [["od", "-t", "x4"], ["od", "-t", "d1"], ["od", "-d"],
                                  ["od", "-t", "u4"], ["od", "-o"], ["xxd", "-b"],
                                  ["basenc", "--base32"], ["basenc", "--base32hex"]])
@pytest.mark.parametrize("text", range(len(HONEST)))
def test_honest_dumps_and_base32_of_text_and_bytes_are_published(tmp_path, args, text):
    printed = _run(tmp_path, args, HONEST[text].encode("latin-1" if text == 2 else "utf-8"))
    quiet(tmp_path, obs_line(f"$ {' '.join(args)} notes.txt\n{printed}"))


def test_honest_tables_digests_and_encodings_are_published(tmp_path):
    table = "\n".join(f"{i:7d} {i * 37 % 1000:5d} {i * i:9d} {-i * 13:6d}" for i in range(40))
    digest = hashlib.sha256(b"run 7").hexdigest().upper()
    shots = base64.b64encode(bytes(range(256)) * 8).decode()
    lines = [table, "sha256 " + digest + " " + hashlib.sha512(b"x").hexdigest().upper(),
             "MAX_RETRIES_COUNT_FOR_THE_UPLOAD_WORKER_QUEUE = 5", shots,
             "tool python3 returned: " + base64.a85encode(b"the level is clear, score 4100",
                                                           adobe=True).decode(),
             "$ uuencode notes.txt notes.txt\nbegin 644 notes.txt\n"
             + binascii.b2a_uu(b"the gate opens at dawn\n", backtick=True).decode() + "`\nend"]
    for summary in lines:
        quiet(tmp_path, obs_line(summary))


def test_the_views_decode_byte_exact():
    """Each family's decoder on known bytes (all 256 byte values)."""
    data = bytes(range(256))
    b32 = base64.b32encode(data)
    assert secrets_basen._base32(b32) == data
    assert secrets_basen._base32(base64.b32hexencode(data)) == data
    assert [got for how, got, _ in secrets_basen.basen_views(
        b"<~" + base64.a85encode(data) + b"~>") if how == ASCII85] == [data]
    dec = " ".join(str(b - 256 if b > 127 else b) for b in data).encode()
    assert [got for got, _ in secrets_radix.radix_views(b"0000000 " + dec)] == [data]
    bits = b" ".join(b"%08d" % int(bin(b)[2:]) for b in data)
    assert [got for got, _ in secrets_radix.radix_views(b"00000000: " + bits + b"  ....")] \
        == [data]


def test_a_gate_shut_reads_nothing():
    """Prose and a hex dump's rows of digits alone (od -t x4's 4 words, -w32's 8) open no
    view of numbers."""
    assert not secrets_radix.radix_in(b"the gate opens at dawn, 12 34 56 78 " * 40)
    row = b"0000020 20747275 74706163 64657275 61702064\\n0000040 6c206b6e 65206b6e"
    assert not secrets_radix.radix_in(row)
    wide = b"0000040 " + b" ".join([b"20747275", b"74706163", b"64657275", b"61702064"] * 2)
    assert secrets_radix.radix_in(wide) and list(secrets_radix.radix_views(wide)) == []
    assert is_text(secrets_basen._base32(base64.b32encode(b"meet at the north tower")) or b"")


@pytest.mark.parametrize("tail", [b"", b"\\nM"])
def test_a_line_of_many_begin_lines_is_read_in_one_pass(tail):
    """Review s40 R1: each `begin ` searched for a line break to the line's end (20,000 of
    them: 33.6 s of withhold). A hang guard, no duration: the read ends within a generous
    join, and the body after the last `begin` is still read."""
    import threading

    body = binascii.b2a_uu(b"rk_test_QA40uuencode0aB1cD2eF3gH4iJ5kL6mN7oP").rstrip(b"\n")
    raw = b"begin " * 200_000 + tail + b"\\nbegin 644 k\\n" + body + b"\\n`\\nend"
    got: list = []
    worker = threading.Thread(target=lambda: got.extend(secrets_basen.basen_views(raw)),
                              daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive()
    assert [view for how, view, _ in got if how == UUENCODE][-1] == \
        b"rk_test_QA40uuencode0aB1cD2eF3gH4iJ5kL6mN7oP"


def test_base64_shuts_the_base32_gate_where_a_run_may_start_opens_it():
    """QA s40 T8: e_b64gz's 16 KB lines of base64 held runs of 16 upper-case letters and
    digits (135 of 200 lines), each opening base32's regex for nothing (1.43-1.52x the
    CPU). A run starts only where nothing of base64's alphabet is before it (or an escaped
    break is, or the text starts): base64 with such runs inside shuts the gate; a run at
    each place it may start opens it, and verify is pointed at its first character."""
    b64 = base64.b64encode(bytes(range(255)) * 3) + b"QA40ABCDEFGHIJKLMNOPQRSTUVWXYZ234567aB+/"
    line = b'{"summary":"$ gzip -c n | base64 -w0\\n' + b64 + b'"}'
    assert b"A" * 16 in line.translate(bytes.maketrans(b"BCDEFGHIJKLMNOPQRSTUVWXYZ234567QA0",
                                                       b"A" * 34))  # (the former needle)
    assert not secrets_basen.basen_in(line)
    assert secrets_basen.spots(line, 0, len(line), True) == []
    run = base64.b32encode(b"glc_QA40base32Grafana0aB1cD2eF3gH4iJ5kL6mN7")
    for before in (b"", b'{"s":"', b"x\\n", b"key = ", b"a\\r\\n", b"row\n"):
        raw = before + run + b'"}'
        assert secrets_basen.basen_in(raw), before
        assert secrets_basen.spots(raw, 0, len(raw), True) == [len(before)], before
        assert [got for how, got, _ in secrets_basen.basen_views(raw) if how == BASE32] == \
            [b"glc_QA40base32Grafana0aB1cD2eF3gH4iJ5kL6mN7"], before


def test_the_base32_gate_shuts_no_line_the_regex_reads():
    """The gate against the regex it guards, and the C gate against the Python one
    (`_unescape.spelled_gate`, `_gate_py`: both bits, base32's and a dump's), on 20,000 seeded
    lines of base32 runs, base64's other characters, digits, blanks, escaped and real breaks,
    padding and punctuation: wherever `_B32` matches, the line's gate is open and verify is
    pointed inside that line."""
    import random

    rng = random.Random(41)
    pieces = [b"a", b"n", b"t", b"+", b"/", b"=", b" ", b"\\", b"\\n", b"\\r\\n", b"-", b'"',
              b"\t", b"_", b"\xe9", b"0000000  103 104 117  95  81  65", b" -12   7"]
    matched, both = 0, [0, 0, 0, 0]
    for _ in range(20_000):
        raw = b"".join(
            bytes(rng.choice(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(rng.randint(1, 40)))
            if rng.random() < 0.5 else rng.choice(pieces) * rng.randint(1, 3)
            for _ in range(rng.randint(1, 10)))
        gate = secrets_basen._gate_py(raw)
        both[gate] += 1
        if native.UNESCAPE is not None:
            assert native.UNESCAPE.spelled_gate(raw) == gate, raw
            assert native.UNESCAPE.spelled_gate(memoryview(raw)) == gate, raw
        if secrets_basen._B32.search(raw) is None:
            continue
        matched += 1
        assert gate & 1 and secrets_basen.basen_in(raw), raw
        assert secrets_basen.spots(raw, 0, len(raw), True), raw
    assert matched > 5_000 and min(both) > 300  # (each of the four answers asked)


@pytest.mark.skipif(native.UNESCAPE is None, reason="the C accelerator is not built")
@given(st.binary(max_size=200))
@settings(max_examples=400, deadline=None)
def test_the_c_gate_is_the_python_gate_on_any_bytes(raw):
    assert native.UNESCAPE.spelled_gate(raw) == secrets_basen._gate_py(raw)
