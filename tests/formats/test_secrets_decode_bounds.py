"""The decoded views' bounds (session 33's review of d0e0dac, R4, R5, R10): a 15.7 MB line of
percent-escapes made a 5 MB view at one Python call an escape (verify and withhold "out of
memory" at 512 MiB: nothing judged); 64 ordinary runs (commit hashes, identifiers) before an
encoded key used up a count of runs and hid it; base64 inside percent-escapes or `\\x`
escapes was never decoded twice. Never a duration: the huge lines go through the CLI in a
child limited to 512 MiB of address space, and must be judged, the key at the line's end
named."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys

import orjson
import pytest

from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

GITHUB = "ghp_" + "S33mendsecBoundsTokenAbCdEfGhIjKlMnOp"
START = b'{"seq":0,"at":"2026-12-05T20:00:00.000Z","elapsedMs":0,"type":"run_start","data":{}}'
MIB = 1 << 20


def _line(text: str) -> bytes:
    return orjson.dumps({"seq": 1, "at": "2026-12-05T20:00:01.000Z", "elapsedMs": 1000,
                         "type": "observation", "data": {"summary": text}})


def _pct(text: str) -> str:
    return "".join(f"%{b:02X}" for b in text.encode())


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


HUGE = {  # R4's shapes, each under the 16 MiB line bound, the key at the line's end
    "percent": "%41" * (5 * MIB),
    "percent runs": " ".join("%41%42%43%44" for _ in range(15 * MIB // 13)),
}
# The child limits itself before it imports anything (as tests/verify/test_hostile_inputs.py):
# issue 15's bound is 512 MiB of address space.
WRAPPER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))
from moderator_app.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("shape", HUGE)
def test_a_huge_line_of_escapes_is_judged_whole_under_512_mib(tmp_path, shape):
    run = tmp_path / "run"
    run.mkdir()
    line = _line(HUGE[shape] + " p=" + _pct(GITHUB))
    assert 15 * MIB < len(line) < 16 * MIB
    (run / "agent-log.jsonl").write_bytes(START + b"\n" + line + b"\n")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    verify = subprocess.run([sys.executable, "-c", WRAPPER, "verify", "--json", str(run)],
                            capture_output=True, env=env, timeout=600)
    assert verify.returncode == 1, verify.stderr[-300:]  # (main: 2, "out of memory")
    found = orjson.loads(verify.stdout)["findings"]
    assert {(f["rule"], f.get("line")) for f in found if "secret" in f["rule"]} == {
        ("secret.suspect", 2)}
    held = subprocess.run([sys.executable, "-c", WRAPPER, "withhold",
                           str(run / "agent-log.jsonl"), "-o", str(tmp_path / "public.jsonl")],
                          capture_output=True, env=env, timeout=600)
    assert held.returncode == 1 and b"line 2: " in held.stderr, held.stderr[-300:]
    assert b"GitHub token" in held.stderr
    assert not (tmp_path / "public.jsonl").exists()


def test_a_key_after_a_mebibyte_of_escapes_is_named():
    line = _line("a" * 10 + "%78" * (MIB + 10) + " " + _pct(GITHUB))
    hit = scan_public(line)
    assert hit is not None and hit.label == "GitHub token"


def test_a_key_opening_a_huge_line_of_escapes_is_named():
    line = _line("pass=" + _pct(GITHUB) + "&#65;" * (3 * MIB))
    hit = scan_public(line)
    assert hit is not None and hit.label == "GitHub token"


DECOYS = {  # R5: ordinary runs before the encoded key
    "64 sha1 digests": " ".join(hashlib.sha1(bytes([i])).hexdigest() for i in range(64))
    + " tok " + GITHUB.encode().hex(),
    "300 sha1 digests": " ".join(hashlib.sha1(bytes([i % 256, i // 256])).hexdigest()
                                 for i in range(300)) + " tok " + GITHUB.encode().hex(),
    "64 identifiers": " ".join(f"theQuickBrownFoxJumpsOverLazyDogIdentifier{i:03d}"
                               for i in range(64)) + " token: " + _b64("token=" + GITHUB),
}


@pytest.mark.parametrize("shape", DECOYS)
def test_ordinary_runs_before_an_encoded_key_do_not_hide_it(tmp_path, shape):
    line = _line(DECOYS[shape])
    hit = scan_public(line)
    assert hit is not None and hit.label in ("hex of a secret", "base64 of a secret"), hit
    assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    with pytest.raises(WithholdError, match=r"^line 2: "):
        withhold_log(src, tmp_path / "public.jsonl")


NESTED = {  # R10: base64 inside the escape views
    "percent of base64": "url ?d=" + _pct(_b64(GITHUB)),
    "\\x of base64": "b'" + "".join(f"\\x{b:02x}" for b in _b64(GITHUB).encode()) + "'",
    "html of base64": "<i>" + "".join(f"&#{b};" for b in _b64(GITHUB).encode()) + "</i>",
}


@pytest.mark.parametrize("shape", NESTED)
def test_base64_inside_escapes_is_decoded_twice(tmp_path, shape):
    line = _line(NESTED[shape])
    hit = scan_public(line)
    assert hit is not None and hit.label == "base64 of a secret", hit
    assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    with pytest.raises(WithholdError, match=r"^line 2: "):
        withhold_log(src, tmp_path / "public.jsonl")



ESCAPED = {  # a key's escapes across the 64 KiB cut of the escape views' decoding
    "percent": _pct,
    "\\x": lambda text: "".join(f"\\x{b:02x}" for b in text.encode()),
    "html": lambda text: "".join(f"&#{b};" for b in text.encode()),
}


@pytest.mark.parametrize("shape", ESCAPED)
@pytest.mark.parametrize("shift", range(0, 240, 7))
def test_a_key_across_a_piece_cut_is_named(shape, shift):
    line = _line("a" * (65536 - 120 + shift) + " " + ESCAPED[shape](GITHUB))
    hit = scan_public(line)
    assert hit is not None and hit.label == "GitHub token", (shape, shift)


UNKNOWN = "zq9T4mK2vX8pL5nR7wQ3jH6bY1cF0dG"  # no family: 31 random characters
_WORD = _b64("abcdefghijklmnopqr")  # 24 characters decoding to text, as R15's line
_FLAT = _b64("x " + "a" * 22)  # text holding a 22-character run of no entropy


def _among(filler: str, key: str, at: int, n: int = 20_000) -> str:
    return " ".join(key if i == at else filler for i in range(n))


AMONG = {  # session 33's review R15: the short text runs are read together, 64 KiB at a time
    "a family key, run 12,345 of 20,000": _among(_WORD, _b64("token=" + GITHUB), 12_345),
    "a family key, the first run": _among(_WORD, _b64("token=" + GITHUB), 0),
    "a family key, the last run": _among(_WORD, _b64("token=" + GITHUB), 19_999),
    "base64 of base64 of a key, run 7,001": _among(_WORD, _b64(_b64(GITHUB)), 7_001),
    "a random run, run 9,999": _among(_WORD, _b64("KEY=" + UNKNOWN), 9_999),
    "a random run after 9,999 flat runs": _among(_FLAT, _b64("KEY=" + UNKNOWN), 9_999),
    "a named value, run 15,000": _among(_WORD, _b64("password: " + UNKNOWN), 15_000),
}


@pytest.mark.parametrize("shape", AMONG)
def test_a_key_among_many_short_text_runs_is_named(tmp_path, shape):
    line = _line(AMONG[shape])
    hit = scan_public(line)
    assert hit is not None and hit.label == "base64 of a secret", hit
    assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    with pytest.raises(WithholdError, match=r"^line 2: "):
        withhold_log(src, tmp_path / "public.jsonl")


def test_short_text_runs_alone_stay_quiet():
    assert scan_public(_line(_among(_WORD, _WORD, 0))) is None
    assert scan_public(_line(_among(_FLAT, _FLAT, 0))) is None
