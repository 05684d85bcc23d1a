"""Keys spelled as `\\u` escapes in text, as a wrapped hex dump, or as joined string literals
(session 34, issue 15, QA s33 T8): `withhold` published a Groq key written `\\u0067\\u0073...`
inside a tool's JSON output (h33_02), and `verify` named neither it, a Grafana token dumped by
`xxd -p` (h33_01, which `withhold` refused) nor a Postman key cut into five `+`-joined
literals (h33_03's shape). Each case goes through the one engine both use (`scan_public`), the
verify gate (`public_secret_hits`) and `withhold_log`; the honest cases stay quiet in all
three."""

from __future__ import annotations

import hashlib
import uuid

import orjson
import pytest
from secretshelp import START, obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets import unescape_json
from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import public_secret_hits

GROQ = "gsk_" + "QA34uEscapedJsonTextaB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV"
POSTMAN = "PMAK-" + "65f1a9c0d3e4b5a6f7c8d9e0" + "-" + "c3d4e5f60718293a4b5c6d7e8f9a0b1c2d"
GRAFANA = "glsa_" + "QA34hexXxdWrapped0aB1cD2eF3gH4iJ5" + "_9f3e1c7a"


def _u(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in text)


def _xxd(text: str, width: int = 60, brk: str = "\n") -> str:
    digits = text.encode().hex()
    return brk.join(digits[i:i + width] for i in range(0, len(digits), width))


def _cut(key: str, parts: int) -> list[str]:
    size = len(key) // parts
    return [key[i * size:(i + 1) * size] for i in range(parts - 1)] + [key[(parts - 1) * size:]]


SPELLED = [
    ("h33_02: \\u text in a tool's JSON", 'tool read_config returned: {"provider": "groq", '
     '"api_key": "' + _u(GROQ) + '"}', "its \\u escapes are decoded"),
    ("\\u escapes in Java source", 'String k = "' + _u(POSTMAN).upper().replace("\\U", "\\u")
     + '";', "its \\u escapes are decoded"),
    ("h33_01: xxd -p, 60 digits a line", "$ xxd -p ~/.config/grafana/sa-token\n"
     + _xxd(GRAFANA) + "\n$ ", "a hex run in it is decoded (Grafana token)"),
    ("xxd -p -c 16, 32 digits a line", "$ xxd -p -c 16 k\n" + _xxd(GROQ, 32),
     "a hex run in it is decoded (Groq key)"),
    ("hex wrapped by CR LF", "dump:\r\n" + _xxd(POSTMAN, 64, "\r\n"),
     "a hex run in it is decoded (Postman key)"),
    ("h33_03: five + joined literals", 'const key = ' + " + ".join(
        f'"{p}"' for p in _cut(POSTMAN, 5)) + "; fetch(api, {headers: {'X-Api-Key': key}});",
     "its adjacent string literals are joined"),
    ("Lua ..", "local k = " + " .. ".join(f'"{p}"' for p in _cut(GROQ, 3)),
     "its adjacent string literals are joined"),
    ("SQL ||", "select " + " || ".join(f"'{p}'" for p in _cut(GRAFANA, 4)) + ";",
     "its adjacent string literals are joined"),
    ("Python literals over lines", "KEY = (" + "\n       ".join(
        f'"{p}"' for p in _cut(GROQ, 3)) + ")", "its adjacent string literals are joined"),
    ("C literals side by side", "char *k = " + " ".join(f'"{p}"' for p in _cut(POSTMAN, 4))
     + ";", "its adjacent string literals are joined"),
]


@pytest.mark.parametrize("why, summary, how", SPELLED, ids=[s[0] for s in SPELLED])
def test_a_spelled_key_is_refused_and_named_alike(tmp_path, why, summary, how):
    refused_and_named(tmp_path, obs_line(summary), how)


def test_an_escaped_backslash_is_kept_so_u_text_reads_as_written():
    # (JSON `\\u0067` is the text `\u0067`: decoding its `\u0067` as well left `\g`)
    assert unescape_json(rb'"a\\u0067\\u0073" "b\u0067" "c\\\u0067"') == \
        b'"a\\\\u0067\\\\u0073" "bg" "c\\\\g"'


def _honest() -> list[str]:
    digests = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(6)]
    commits = [hashlib.sha1(str(i).encode()).hexdigest() for i in range(8)]
    text = "rotate the piece left then drop it on frame 12 of level 3, score 4200"
    return [
        "\n".join(f"{d}  frame{i}.png" for i, d in enumerate(digests)),
        "\n".join(commits),
        " ".join(str(uuid.UUID(int=i * 7919 + 12345)) for i in range(5)),
        "$ xxd -p blob\n" + _xxd(bytes(range(7, 247, 3)).hex() * 2),
        "$ xxd -p notes.txt\n" + _xxd(text),
        'tool returned: {"title": "' + _u("テトリス・レベル九 éàü") + '"}',
        "regex: /[\\u0041-\\u005A\\u0061-\\u007A\\u00C0-\\u00FF]+/g",
        'url = "https://api.example.org/v2/" + "items/" + "3f2a9c01" + "?page=" + "12"',
        "msg = 'Hello, ' + 'player_42' + '! Level ' + 'L3Frame24' + ' ready'",
        'x = "b2ea6ec9852d"+"663147087"+"TheLeft24";',
        "select 'frame_' || '0012' || '.png';",
        'local path = "sprites/" .. "ship_" .. "01" .. ".png"',
        'printf("%s" "%d\\n", "ScoreBoard", 42)',
    ]


@pytest.mark.parametrize("summary", _honest())
def test_honest_digests_dumps_and_joins_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))


@pytest.mark.parametrize("decoys", [
    " ".join(" + ".join(f'"{w}{i}"' for w in ("left", "right", "frame")) for i in range(64)),
    " ".join(_u(f"honest text {i} here") for i in range(64)),
    "\n".join(hashlib.sha256(str(i).encode()).hexdigest() + f"  f{i}" for i in range(64)),
    '"a"+' * 300_000 + '"a";',  # (1.5 MB of chains: no budget of chains a line)
])
def test_a_spelled_key_after_decoys_is_named(decoys):
    for spelled in ('k = ' + " + ".join(f'"{p}"' for p in _cut(GROQ, 4)), _u(GROQ),
                    "$ xxd -p k\n" + _xxd(GROQ)):
        line = obs_line(decoys + "\n" + spelled)
        assert scan_public(unescape_json(line)) is not None
        assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]


@pytest.mark.parametrize("shift", range(0, 48, 3))
def test_a_spelled_key_across_the_64_kib_cut_is_named(shift):
    # (`unescape_json` and the joined view read a long line 64 KiB at a time: a cut inside a
    # `\\u0067` or a `" + "` must not lose the key)
    for spelled in (_u(GROQ), " + ".join(f'"{p}"' for p in _cut(GROQ, 8))):
        written = len(orjson.dumps(spelled)) - 2
        pad = "x" * (65536 - 120 - written // 2 + shift)
        line = obs_line(pad + " " + spelled)
        assert scan_public(unescape_json(line)) is not None, shift
        assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]


def test_unescape_json_of_a_long_line_is_that_of_its_pieces_joined():
    pieces = [b"\\\\", b"\\u0041", b"\\ud83d\\ude00", b"\\/", b"a", b"\\", b"u0", b"\\\\u0067"]
    raw = b"".join(pieces[(i * 7 + i // 5) % len(pieces)] for i in range(60_000))
    expected = b"".join(_whole_unescape(raw))
    assert unescape_json(raw) == expected


def _whole_unescape(raw: bytes) -> list[bytes]:
    """The reference: JSON's escapes read left to right, one at a time."""
    out, i = [], 0
    while i < len(raw):
        if raw[i:i + 2] == b"\\\\":
            out.append(b"\\\\")
            i += 2
        elif raw[i:i + 2] == b"\\/":
            out.append(b"/")
            i += 2
        elif raw[i:i + 2] == b"\\u" and len(raw[i + 2:i + 6]) == 4 and all(
                c in b"0123456789abcdefABCDEF" for c in raw[i + 2:i + 6]):
            code = int(raw[i + 2:i + 6], 16)
            low = raw[i + 6:i + 12]
            if 0xD800 <= code < 0xDC00 and low[:2] == b"\\u" and len(low) == 6 \
                    and 0xDC00 <= int(low[2:], 16) < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + int(low[2:], 16) - 0xDC00
                i += 6
            out.append(chr(code).encode("utf-8", "surrogatepass"))
            i += 6
        else:
            out.append(raw[i:i + 1])
            i += 1
    return out
