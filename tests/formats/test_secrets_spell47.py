"""Other spellings of a compressed key read (session 47, spell; issue 15, review s46 R5 / QA
s46 T5: `xxd`'s default layout, `od -An -tx1`, `\\xNN` escapes, of raw deflate too; review s46
R7: base58 / base62 of a text past the reader's 128 characters). Each secret case here is
published on main 419dbe2 (verify silent, withhold writes it); the honest ones stay quiet."""

from __future__ import annotations

import base64
import bz2
import gzip
import json
import lzma
import random
import zlib

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets_basen import BIGNUM
from moderator_app.core.formats.secrets_inflate import INFLATED, TOO_LARGE
from moderator_app.core.formats.secrets_public import scan_public

KEY = "glpat-" + "QA47spell0aB1cD2eF3g"
_ENV = (f"# deploy env\nREGION=eu-west-1\nTOKEN={KEY}\nRETRIES=3\n"
        + "note: the level loads\n" * 20).encode()
_NOTES = ("level 3 cleared in 41 s; score 12,300\n" * 40
          + "".join(f"frame {i} ok\n" for i in range(300))).encode()


def _rawdefl(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def _xxd(b: bytes) -> str:
    """`xxd`'s default layout: offset, eight 4-digit groups, the ASCII column."""
    out = []
    for i in range(0, len(b), 16):
        ch = b[i:i + 16]
        hx = " ".join(ch[j:j + 2].hex() for j in range(0, len(ch), 2))
        out.append(f"{i:08x}: {hx:<39}  " + "".join(chr(c) if 32 <= c < 127 else "." for c in ch))
    return "\n".join(out)


def _od(b: bytes) -> str:
    """`od -An -tx1`: 16 spaced bytes a row, no offset."""
    return "\n".join(" " + " ".join(f"{c:02x}" for c in b[i:i + 16]) for i in range(0, len(b), 16))


def _rows(s: str, width: int = 60) -> str:
    return "\n".join(s[i:i + width] for i in range(0, len(s), width))


def _hexdump_c(b: bytes) -> str:
    """`hexdump -C`: offset, two groups of eight spaced bytes, the ASCII column in `|...|`."""
    out = []
    for i in range(0, len(b), 16):
        ch = b[i:i + 16]
        hx = " ".join(f"{c:02x}" for c in ch[:8]) + "  " + " ".join(f"{c:02x}" for c in ch[8:])
        out.append(f"{i:08x}  {hx:<48}  |" + "".join(chr(c) if 32 <= c < 127 else "." for c in ch)
                   + "|")
    return "\n".join(out)


_CODECS = {"gzip": lambda b: gzip.compress(b, mtime=0), "zlib": zlib.compress,
           "xz": lzma.compress, "bzip2": bz2.compress, "rawdefl": _rawdefl}
_LAYOUTS = {"xxd": _xxd, "od": _od, "cesc": lambda b: "".join(f"\\x{c:02x}" for c in b),
            "repr": repr, "hexdump_c": _hexdump_c, "xxd_p": lambda b: _rows(b.hex()),
            "xxd_u_p": lambda b: _rows(b.hex().upper()),
            "json_xxd_u_p": lambda b: json.dumps({"exit": 0, "stdout": _rows(b.hex().upper()) + "\n"})}
_PUBLISHED_ON_MAIN = [(c, s) for c in _CODECS for s in ("xxd", "od", "cesc", "repr")] + [
    ("zlib", "json_xxd_u_p"), ("gzip", "json_xxd_u_p")]


@pytest.mark.parametrize(("codec", "layout"), _PUBLISHED_ON_MAIN,
                         ids=[f"{c}-{s}" for c, s in _PUBLISHED_ON_MAIN])
def test_review_s46_r5_other_layouts_of_a_compressed_key_are_inflated_and_named(
        tmp_path, codec, layout):
    """Review s46 R5 / QA s46 T5 (h46_11: `od -An -tx1` of gzip): a spaced dump's bytes and a
    run of `\\xNN` escapes (a C string, Python's `repr`; raw deflate too) were never
    inflated, and hex rows joined by a break escaped twice (a tool's JSON output quoted in
    the log, h46_14) were no one run: published, verify silent. Now named "hex of a secret"
    by the engine, verify's gate and `withhold`."""
    summary = f"$ cat deploy.env | {codec} | {layout}\n" + _LAYOUTS[layout](_CODECS[codec](_ENV))
    hit = refused_and_named(tmp_path, obs_line(summary), INFLATED)
    assert hit.how == f"{INFLATED} (GitLab token)"
    assert hit.label == "hex of a secret"


@pytest.mark.parametrize("layout", sorted(_LAYOUTS))
def test_the_same_layouts_of_honest_notes_and_of_random_bytes_stay_quiet(tmp_path, layout):
    """Honest look-alikes: each layout of compressed notes (every codec) and of random bytes
    after a fake zlib / gzip header: read and quiet."""
    rng = random.Random(47)
    payloads = [c(_NOTES) for c in _CODECS.values()] + [
        magic + bytes(rng.getrandbits(8) for _ in range(600))
        for magic in (b"\x78\x9c", b"\x1f\x8b\x08", b"")]
    for n, payload in enumerate(payloads):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line("$ dump blob.bin\n" + _LAYOUTS[layout](payload)))


def test_a_bomb_in_xxd_and_in_escapes_is_too_large_to_read():
    """A gzip bomb (16 MiB of zeros) spelled as `xxd` or `\\xNN` escapes: read to the line's
    budget and refused as too large to read, never published part-read."""
    bomb = gzip.compress(bytes(16 << 20), 9, mtime=0)
    for layout in ("xxd", "cesc"):
        line = json.dumps({"summary": _LAYOUTS[layout](bomb)}).encode()
        hit = scan_public(line)
        assert hit is not None and hit.label == TOO_LARGE, (layout, hit)


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _bigint(b: bytes, alphabet: str) -> str:
    n, out = int.from_bytes(b, "big"), ""
    while n:
        n, r = divmod(n, len(alphabet))
        out = alphabet[r] + out
    return out


@pytest.mark.parametrize("alphabet", [_B58, _B62], ids=["base58", "base62"])
@pytest.mark.parametrize("pad", [60, 200, 300])
def test_review_s46_r7_base58_and_base62_past_128_characters_are_read(tmp_path, alphabet, pad):
    """Review s46 R7: base58 / base62 of a .env whose comment makes the run 165-512
    characters long, a payload the reader never names, so its text was never read: published,
    verify silent (8 of 8). Now read on any line holding such a run: named by its family."""
    text = ("# " + "the deploy token, rotate monthly; " * 10)[:pad] + f"\nGITHUB_TOKEN=ghp_{'Q47r7' * 7}x\n"
    run = _bigint(text.encode(), alphabet)
    assert 128 < len(run) <= 512
    hit = refused_and_named(tmp_path, obs_line(f"$ base58 < .env\n{run}"), BIGNUM)
    assert hit.label == "GitHub token", hit


def test_long_base58_of_notes_and_long_random_runs_stay_quiet(tmp_path):
    """Honest: base58 / base62 of notes past 128 characters read and quiet; a 300-character
    random base58 run (no text) left as before, a payload: quiet."""
    rng = random.Random(7)
    notes = b"level 12: score 40,210, 3 lives; level 13: score 41,002, 2 lives; the tide is high\n" * 3
    for n, summary in enumerate([_bigint(notes, _B58), _bigint(notes, _B62),
                                 "".join(rng.choice(_B58) for _ in range(300))]):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line(f"$ base58 < notes.txt\n{summary}"))


def _scores(n: int) -> bytes:
    rng = random.Random(n)
    return "".join(f"level {rng.randint(1, 40)}: score {rng.randint(0, 99999)}, "
                   f"{rng.randint(0, 9)} lives, {rng.random():.3f} s\n" for _ in range(n)).encode()


@pytest.mark.parametrize("lines", [140, 240, 480, 640, 800])
def test_review_s46_r4_honest_adobe_ascii85_of_gzip_is_published(tmp_path, lines):
    """Review s46 R4: an honest `<~ ~>` of gzip of scores (spans of 1.7-8.5 KB; 5 of 12 sizes
    tried) was refused as a "high-entropy run" on main: its own characters, 57 of 85 letters
    or digits, hold a 20-character run of them by chance every ~3 KB, though its stream was
    read whole and quiet. Now the span of a stream read is blanked for the reader, as
    base64's payloads are exempt."""
    a85 = base64.a85encode(gzip.compress(_scores(lines), mtime=0), adobe=True).decode()
    quiet(tmp_path, obs_line("$ gzip -c scores.txt | ascii85\n" + _rows(a85, 75)))


def test_a85_of_gzip_is_left_to_the_reader_as_before():
    """(A guard of what this session did not change: Adobe Ascii85 of a compressed key, named
    since session 46.)"""
    a85 = base64.a85encode(gzip.compress(_ENV, mtime=0), adobe=True).decode()
    hit = scan_public(obs_line(a85))
    assert hit is not None and hit.label == "Ascii85 of a secret"


def _env_whose_dump_column_holds(codec: str, chars: bytes) -> bytes:
    """The first deploy.env (filler lines drawn from seeds 0, 1, ...) whose compressed bytes
    hold each of `chars` before its last 16 bytes: a row's ASCII column then shows them."""
    for seed in range(10_000):
        rng = random.Random(seed)
        env = _ENV + "".join(f"SLOT_{rng.randrange(10**6)}={rng.randrange(10**9)}\n"
                             for _ in range(12)).encode()
        packed = _CODECS[codec](env)
        if all(c in packed[:-16] for c in chars):
            return env
    raise AssertionError("no seed")


@pytest.mark.parametrize("codec", ["gzip", "zlib", "xz", "bzip2"])
def test_review_s47_r4_hexdump_c_whose_column_holds_a_quote_a_backslash_or_a_bar_is_read(
        tmp_path, codec):
    """Review s47 R4: `hexdump -C`'s ASCII column prints `"`, `\\` and `|` where the bytes are
    those (a JSON line writes the first two escaped, `\\"` / `\\\\`); the dump's rows were cut
    there, the stream inflated only to the cut and read "whole", its key published (37 of 40
    realistic dumps at 0afece0). Each row's column is now one to 16 characters, escapes and
    bars among them, up to the `|` before the line break (`secrets_bytes._NEXT`, in C too)."""
    dump = _hexdump_c(_CODECS[codec](_env_whose_dump_column_holds(codec, b'"\\|')))
    assert all(c in dump.replace("|\n", "\n").split("|", 1)[1] for c in '"\\|')
    hit = refused_and_named(tmp_path, obs_line(f"$ {codec} -c deploy.env | hexdump -C\n" + dump),
                            INFLATED)
    assert hit.how == f"{INFLATED} (GitLab token)"
    assert hit.label == "hex of a secret"
