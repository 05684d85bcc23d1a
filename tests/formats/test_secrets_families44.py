"""The spellings still published after session 43, by family (session 44, spell; issue 15, QA
s43 T6, QA s42 T5, review s43 R3): base64 of bzip2, zstd and raw deflate. Each family is asked
with keys of its own through the engine (`scan_public`), verify's gate and `withhold_log`
(`refused_and_named`); honest look-alikes stay quiet in all three. Each key here is published
on 97c1811 (the family's test fails there)."""

from __future__ import annotations

import base64
import bz2
import gzip
import random
import sys
import zlib
from pathlib import Path

import pytest
import zstandard
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_chance, secrets_inflate
from moderator_app.core.formats.secrets_unwrap import INFLATED

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

PROSE = b"press fire when the gem turns green, then take the west stair to the bell tower\n"

KEYS = [("Docker token", "dckr_pat_" + "QA44familyBz0aB1cD2eF3gH4iJ5kL"),
        ("GitHub token", "ghs_" + "QA44family0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"),
        ("Slack app token", "xapp-1-A04QA44FAM-" + "1234567890123-" + "0aB1cD2eF3gH4iJ5kL6mN7oP8qR9")]


def _comments(n: int) -> str:
    """`n` lines of varied comment words (a config's head)."""
    rng = random.Random(44)
    words = ("the", "gem", "turns", "green", "press", "fire", "west", "stair", "bell", "tower")
    return "".join("# " + " ".join(rng.choice(words) for _ in range(9)) + "\n" for _ in range(n))


def _raw_deflate(data: bytes) -> bytes:
    pack = zlib.compressobj(9, zlib.DEFLATED, -15)
    return pack.compress(data) + pack.flush()


PACKS = {"bzip2": lambda d: bz2.compress(d, 9),
         "zstd": lambda d: zstandard.ZstdCompressor(level=3).compress(d),
         "raw deflate": _raw_deflate}


@pytest.mark.parametrize("pack", list(PACKS))
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_base64_of_bzip2_zstd_or_raw_deflate_is_refused(tmp_path, pack, label, key):
    """QA s43 h43_05 (`bzip2 -c docker.env | base64 -w0`), h43_06 (`zstd -c`), QA s42 h42_06
    (node's `zlib.deflateRawSync`, no header): bzip2 and zstd told by their magic, raw deflate
    by its first 16 bytes inflated printable; their first 4 KiB read as the run's text."""
    blob = base64.b64encode(PACKS[pack](f"# env\nTOKEN={key}\n".encode() + PROSE)).decode()
    hit = refused_and_named(tmp_path, obs_line(f"$ {pack} k.env | base64 -w0\n{blob}"),
                            INFLATED, "base64 of a secret")
    assert hit.how == f"{INFLATED} ({label})"


def test_qa_s43_and_s42_lines_are_named_with_their_keys(tmp_path):
    import qa_hostile_s42 as h42
    import qa_hostile_s43 as h43

    for n, summary in enumerate([h43.DCKR_B, h43.PYPI_Z, h42.GHS_D]):
        (tmp_path / str(n)).mkdir()
        refused_and_named(tmp_path / str(n), obs_line(summary), INFLATED)


def test_honest_bzip2_zstd_raw_deflate_and_pictures_are_published(tmp_path):
    noise = random.Random(44).randbytes(3000)
    # (raw deflate of short prose, under 128 characters of base64, is still a high-entropy
    # run, as on 97c1811: it has no magic to tell it by, and reading every screenshot piece
    # through the wrappers cost e_jpeg64 ~8 %)
    summaries = [f"$ {name} notes.txt | base64 -w0\n"
                 + base64.b64encode(pack(PROSE * 5)).decode() for name, pack in PACKS.items()
                 if name != "raw deflate"]
    summaries += [f"frame {name} " + base64.b64encode(pack(noise)).decode()
                  for name, pack in PACKS.items()]
    summaries.append("png " + base64.b64encode(b"\x89PNG\r\n\x1a\n" + noise).decode())
    for n, summary in enumerate(summaries):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line(summary))


def test_a_line_of_bzip2_bombs_ends_at_its_first_and_a_zstd_bomb_is_too_large(monkeypatch):
    """(session 45, `secrets_inflate`; was: four bzip2 blocks a line, a zstd bomb's 4 KiB)
    bzip2 decodes a block whole before its first byte (a 49-byte stream of 40 MB of zeros:
    ~3.5 ms): the first bomb of a line is too large to read, and the line's later streams are
    refused unread (one decoder made); since session 47 the line's views read on (its runs'
    bytes: a key after a refused stream is still named)."""
    from moderator_app.core.formats.secrets_decode import BASE64
    from moderator_app.core.formats.secrets_runview import run_views
    from moderator_app.core.formats.secrets_unwrap import TOO_LARGE

    made = []
    real = bz2.BZ2Decompressor
    monkeypatch.setattr(secrets_inflate.bz2, "BZ2Decompressor",
                        lambda: made.append(1) or real())
    bomb = base64.b64encode(bz2.compress(bytes(40 << 20), 9))
    line = b" ".join([bomb] * 5)
    columns = [1 + i * (len(bomb) + 1) for i in range(5)]
    assert [(how, column) for how, _, _, column in run_views(line)] == [
        view for column in columns for view in ((TOO_LARGE, column), (BASE64, column))]
    assert len(made) == 1
    monkeypatch.undo()
    small = bz2.compress(PROSE, 1)
    budget = secrets_inflate.Budget()
    assert [secrets_inflate.inflated(small, budget) for _ in range(6)] == [(PROSE, True)] * 6
    zbomb = zstandard.ZstdCompressor(level=19).compress(bytes(64 << 20))
    assert len(zbomb) < 4096  # (its allowance: the line's `LINE_MAX`, whatever its ratio)
    assert secrets_inflate.inflated(zbomb, secrets_inflate.Budget()) == (
        bytes(secrets_inflate.LINE_MAX), False)


def _wrapped(blob: bytes, width: int, brk: str = "\n") -> str:
    text = base64.b64encode(blob).decode()
    return brk.join(text[i:i + width] for i in range(0, len(text), width))


@pytest.mark.parametrize("width, brk", [(64, "\n"), (76, "\n"), (76, "\r\n"), (72, "\n")])
def test_a_key_in_a_wrapped_gzip_blob_is_refused(tmp_path, width, brk):
    """QA s43 h43_07 (`gzip -c | openssl base64`: 64 columns), QA s42 h42_07 (`base64`: 76):
    the gzip header on the blob's first line, the key lines on; the lines read as one run."""
    key = "ghs_" + "QA44wrapped0aB1cD2eF3gH4iJ5kL6mN7oP8qR"
    blob = gzip.compress(_comments(8).encode() + f"TOKEN={key}\n".encode())
    summary = "$ gzip -c k.env | openssl base64\n" + _wrapped(blob, width, brk)
    assert summary.count(brk) >= 3
    hit = refused_and_named(tmp_path, obs_line(summary), INFLATED, "base64 of a secret")
    assert hit.how == f"{INFLATED} (GitHub token)"


def test_qa_s43_h43_07_and_s42_h42_07_are_named(tmp_path):
    import qa_hostile_s42 as h42
    import qa_hostile_s43 as h43

    for n, summary in enumerate([h43.XAPP_G, h42.GOC_G]):
        (tmp_path / str(n)).mkdir()
        refused_and_named(tmp_path / str(n), obs_line(summary), INFLATED)


def test_honest_wrapped_gzip_and_pictures_are_published(tmp_path):
    noise = random.Random(45).randbytes(2000)
    for n, summary in enumerate([
            "$ gzip -c notes.txt | openssl base64\n" + _wrapped(gzip.compress(PROSE * 40), 64),
            "$ base64 shot.png\n" + _wrapped(b"\x89PNG\r\n\x1a\n" + noise, 76),
            "$ gzip -c blob | base64\n" + _wrapped(gzip.compress(noise), 76, "\r\n")]):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line(summary))


def test_a_wrapped_run_is_its_lines_of_one_width_joined():
    """`secrets_chance.wrapped_run`: from the first line, over escaped breaks, lines of one
    width (a multiple of 4, 48+) and a last no wider; the end of the last line in the line."""
    lines = [b"A" * 64, b"B" * 64, b"C" * 20]
    raw = b'{"s": "head\\n' + b"\\n".join(lines) + b'"}'
    lo = raw.index(b"A")
    mapped = raw.translate(secrets_chance.B64_MAP)
    run, end = secrets_chance.wrapped_run(raw, mapped, lo, lo + 64, 1 << 20)
    assert run == b"".join(lines) and raw[end:] == b'"}'
    two = b'"' + b"A" * 76 + b"\\r\\n" + b"B" * 60 + b'"'  # (h42_07: two lines, the first counted)
    assert secrets_chance.wrapped_run(two, two.translate(secrets_chance.B64_MAP), 1, 77,
                                      1 << 20) == (b"A" * 76 + b"B" * 60, len(two) - 1)
    for bad in (b'"' + b"A" * 64 + b"\\n" + b"B" * 60 + b"\\n" + b"C" * 10 + b'"',  # (widths)
                b'"' + b"A" * 64 + b"\\n" + b"B" * 70 + b'"',  # (the last wider)
                b'"' + b"A" * 40 + b"\\n" + b"B" * 40 + b"\\n" + b"C" * 4 + b'"',  # (under 48)
                b'"' + b"A" * 64 + b'"'):  # (no break)
        assert secrets_chance.wrapped_run(bad, bad.translate(secrets_chance.B64_MAP), 1, 65,
                                          1 << 20) is None, bad


def _words(data: bytes) -> list[int]:
    data += b"\0" * (len(data) % 2)
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]  # (little-endian)


def od_o2(data: bytes) -> str:
    """`od -A x -t o2`: hex offsets 6 wide, 2-byte words in octal 6 wide (as wide as them)."""
    w = _words(data)
    rows = [f"{8 * i * 2:06x}" + "".join(f" {v:06o}" for v in w[8 * i:8 * i + 8])
            for i in range((len(w) + 7) // 8)]
    return "\n".join([*rows, f"{len(data):06x}"])


def hexdump_x(data: bytes) -> str:
    """`hexdump -x`: offsets 7 wide, 2-byte words in hex, 4 spaces apart."""
    w = _words(data)
    rows = [f"{16 * i:07x}" + "".join(f"    {v:04x}" for v in w[8 * i:8 * i + 8])
            for i in range((len(w) + 7) // 8)]
    return "\n".join([*rows, f"{len(data):07x}"])


WORD_KEYS = [("GitLab runner token", "glrt-" + "QA44odWords0aB1cD2eF3gH4iJ5kL"),
             ("GitHub token", "github_pat_11" + "QA44HEXDUMPX0aB1cD2eF3_" + "gH4iJ5kL6mN7oP8qR9sT0uV1"
              "wX2yZ3aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV4wX5"),
             ("Stripe restricted key", "rk_live_" + "QA44odWords0aB1cD2eF3gH4iJ5kL6mN7oP8q")]


@pytest.mark.parametrize("spell", [od_o2, hexdump_x], ids=["od -A x -t o2", "hexdump -x"])
@pytest.mark.parametrize("label, key", WORD_KEYS, ids=[k[0] for k in WORD_KEYS])
def test_a_key_in_2_byte_words_of_od_o2_or_hexdump_x_is_refused(tmp_path, spell, label, key):
    """QA s43 h43_01 (`od -A x -t o2`: the offsets as wide as the octal words were read as
    words, two bytes between every 16 of the key's) and QA s42 h42_02 (`hexdump -x`: groups 4
    spaces apart were no dump's)."""
    body = f"TOKEN={key}\n".encode()
    hit = refused_and_named(tmp_path, obs_line(f"$ dump k.env\n{spell(body)}"))
    assert hit.label == label, hit


def test_qa_s43_h43_01_and_s42_h42_02_are_named(tmp_path):
    import qa_hostile_s42 as h42
    import qa_hostile_s43 as h43

    for n, summary in enumerate([h43.GLRT_X, h42.GHPAT_X]):
        (tmp_path / str(n)).mkdir()
        refused_and_named(tmp_path / str(n), obs_line(summary))


def test_honest_word_dumps_are_published(tmp_path):
    for n, summary in enumerate([od_o2(PROSE * 3), hexdump_x(PROSE * 3),
                                 hexdump_x(random.Random(46).randbytes(400)),
                                 "year    2019    2020    2021    2022    2023    2024"]):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line(summary))
