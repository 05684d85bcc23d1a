"""Keys spelled as their bytes or as a listed join (session 35, issue 15, QA s34 T6): `withhold`
published a Figma token declared as a C byte array (h34_02), a Fly.io token in a spaced hex
dump (h34_03) and a Docker token as `[...].join("")` (h34_05), and `verify` named none; a
Perplexity key written with `\\u` escapes and letters mixed (h34_01, in an observation) was
named by neither. Each case goes through the one engine (`scan_public`), verify's gate
(`public_secret_hits`) and `withhold_log`; the honest look-alikes stay quiet in all three."""

from __future__ import annotations

import hashlib

import pytest
from secretshelp import START, obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets import unescape_json
from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import public_secret_hits

FIGMA = "figd_" + "QA34cByteArray0aB1cD2eF3gH4iJ5kL6mN7oP8q"
FLY = "fo1_" + "QA34spacedHexDump0aB1cD2eF3gH4iJ5kL6mN7oP8q"
DOCKER = "dckr_pat_" + "QA34joinList0aB1cD2eF3gH4iJ"
PPLX = "pplx-" + "QA34uEscUpperMixed0aB1cD2eF3gH4iJ5kL6mN7oP8q9sTx"


def _pairs(key: str) -> list[str]:
    return [f"{c:02x}" for c in key.encode()]


def _rows(items: list[str], width: int) -> list[list[str]]:
    return [items[i:i + width] for i in range(0, len(items), width)]


def _hexdump_c(data: bytes) -> str:
    out = []
    for i in range(0, len(data), 16):
        piece = data[i:i + 16]
        cells = [f"{c:02x}" for c in piece]
        shown = "".join(chr(c) if 32 <= c < 127 else "." for c in piece)
        out.append(f"{i:08x}  {' '.join(cells[:8]):<23}  {' '.join(cells[8:]):<23}  |{shown}|")
    return "\n".join(out)


def _xxd(data: bytes) -> str:
    out = []
    for i in range(0, len(data), 16):
        digits = data[i:i + 16].hex()
        groups = " ".join(digits[j:j + 4] for j in range(0, len(digits), 4))
        out.append(f"{i:08x}: {groups:<39}  {data[i:i + 16].decode('ascii', 'replace')}")
    return "\n".join(out)


def _cut(key: str, parts: int) -> list[str]:
    size = len(key) // parts
    return [key[i * size:(i + 1) * size] for i in range(parts - 1)] + [key[(parts - 1) * size:]]


BYTES = "its byte array or hex dump is decoded"
LISTING = "its list of string literals is joined"
SPELLED = [
    ("h34_02: a C byte array over lines", "tool cat_header returned:\nstatic const uint8_t "
     "figma_token[] = {\n    " + ",\n    ".join(", ".join("0x" + p for p in row)
                                                for row in _rows(_pairs(FIGMA), 12)) + ",\n};",
     BYTES),
    ("Python bytes, 0X, no spaces", "KEY = bytes([" + ",".join(
        "0X" + p.upper() for p in _pairs(DOCKER)) + "])", BYTES),
    ("h34_03: a spaced dump with offsets", "Captured request body (hex):\n" + "\n".join(
        f"{16 * i:04x}  " + " ".join(row) for i, row in enumerate(
            _rows([p.upper() for p in _pairs(FLY)], 16))) + "\nend", BYTES),
    ("hexdump -C", "$ hexdump -C token\n" + _hexdump_c(FIGMA.encode()), BYTES),
    ("xxd", "$ xxd token\n" + _xxd(FLY.encode()), BYTES),
    ("colon-separated bytes", "bytes " + ":".join(_pairs(PPLX)), BYTES),
    (".NET BitConverter", "BitConverter: " + "-".join(_pairs(DOCKER)).upper(), BYTES),
    ("h34_05: a JavaScript list joined", "tool read_file ci.js returned: const pat = [" + ", ".join(
        f'"{p}"' for p in _cut(DOCKER, 5)) + '].join(""); docker.login({password: pat});',
     LISTING),
    ("Python ''.join of a tuple over lines", "token = ''.join((\n    " + ",\n    ".join(
        f"'{p}'" for p in _cut(FIGMA, 4)) + ",\n))", LISTING),
    ("h34_01: \\u escapes and letters mixed", "Set it: `PPLX_KEY = '" + "".join(
        f"\\u{ord(c):04X}" if i % 2 else c for i, c in enumerate(PPLX)) + "'` then call",
     "its \\u escapes are decoded"),
]


@pytest.mark.parametrize("why, summary, how", SPELLED, ids=[s[0] for s in SPELLED])
def test_a_key_spelled_as_bytes_or_a_list_is_refused_and_named_alike(tmp_path, why, summary,
                                                                     how):
    refused_and_named(tmp_path, obs_line(summary), how)


def _honest() -> list[str]:
    digest = hashlib.sha256(b"save").digest()
    text = b"rotate the piece left then drop it on frame 12 of level 3, score 4200"
    return [
        # (h34_06's: a PNG signature as a C array, a TCP header dumped: bytes, not text)
        "static const uint8_t png_sig[] = {0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a};\n"
        "0000  C3 50 01 BB 5E 2A 7F 10 00 00 00 00 A0 02 FA F0\n0010  FE 30 00 00 02 04 05 B4",
        "palette = [0xFF00FF, 0x00FF00, 0x1E90FF, 0xFFD700, 0x8B0000, 0x2F4F4F, 0xC0C0C0, "
        "0x000000, 0xFFFFFF]; css: #ff00ff #00ff00 #1e90ff #ffd700",
        "sha256 bytes: " + ", ".join(f"0x{c:02x}" for c in digest),
        "ssh fingerprint MD5:" + ":".join(f"{c:02x}" for c in digest[:16]),
        "MACs 3c:22:fb:1a:9e:07 and a4:83:e7:11:22:33, IPv6 fe80::1ff:fe23:4567:890a",
        "$ hexdump -C notes.txt\n" + _hexdump_c(text),
        "$ xxd frame.png\n" + _xxd(bytes(range(7, 247, 5))),
        "bytes read: 128, 256, 512, 1024, 2048, 4096, 8192, 16384; scores 12 34 56 78 90 11 22 "
        "33 44 55 66 77 88 99",
        'path = os.path.join("sprites", "ship_01.png"); ", ".join(["left", "right", "up"])',
        'label = "".join(["Level", "3", "Frame", "24"]); ids = ["b2ea6ec9", "663147087"].join("")',
        "grid 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ff ff ff ff",
        "Le niveau est termin\\u00e9, bien jou\\u00e9 \\u2014 score \\u00e0 1200",
    ]


@pytest.mark.parametrize("summary", _honest())
def test_honest_bytes_dumps_and_lists_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))


@pytest.mark.parametrize("decoys", [
    ", ".join("0x41" for _ in range(300_000)),  # (1.8 MB of one array before the key's)
    "\n".join(f"{16 * i:08x}  " + " ".join(["00"] * 16) for i in range(4096)),
    " ".join('["a", "b"].join("")' for _ in range(20_000)),
])
def test_a_key_after_decoys_is_named(decoys):
    for spelled in (", ".join("0x" + p for p in _pairs(FIGMA)),
                    "\n" + "\n".join(" ".join(r) for r in _rows(_pairs(FLY), 16)),
                    "[" + ", ".join(f'"{p}"' for p in _cut(DOCKER, 4)) + "].join('')"):
        line = obs_line(decoys + "; k = " + spelled)
        assert scan_public(unescape_json(line)) is not None
        assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]


PLAIN = [("Postman key", "PMAK-" + "95af4570ca96c2587cb0a1b2" + "-" + "c3d4e5f60718293a4b5c6d7e8f9a0b1c2d"),
         ("Databricks token", "dapi" + "687c1ed38ff15f638da9aa11bb22cc33"),
         ("Mailgun key", "key-" + "b03f924ace509eea0c41d2e3f4a5b6c7"),
         ("New Relic key", "NRAK-" + "ISBSA5L8PJJQ156WU1LQA35ABCD"),
         ("AWS access key id", "ASIA" + "QW33UJ36UHZ88YXN"),
         ("DigitalOcean token", "dop_v1_" + "b6e15a68a3d411d06" * 3 + "0123456789abc"),
         ("Supabase token", "sbp_" + "5bf9499186171f508784" * 2)]


@pytest.mark.parametrize("label, key", PLAIN, ids=[p[0] for p in PLAIN])
def test_a_plain_key_of_any_family_is_refused_and_named_alike(tmp_path, label, key):
    # (session 35: a plain key of a family the trajectory's patterns do not hold was named by
    # the high-entropy rule only; these never were, and `withhold` published them)
    refused_and_named(tmp_path, obs_line(f"tool env returned: export TOKEN={key} # set by ci"),
                      label=label)


def test_a_key_dumped_after_a_block_of_zeros_is_named():
    # (one dump run of zeros and the key's bytes is bytes, not text: its printable stretch is
    # read as text, as `strings` shows it; the families are not among the byte patterns)
    zeros = "\n".join(f"{16 * i:08x}  " + " ".join(["00"] * 16) for i in range(64))
    line = obs_line("$ hexdump blob\n" + zeros + "\n" + "\n".join(
        " ".join(row) for row in _rows(_pairs(FIGMA), 16)))
    assert scan_public(unescape_json(line)) is not None
    assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]
