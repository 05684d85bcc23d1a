"""Every compressed payload read whole or refused as too large to read (session 45, spell;
issue 15, review s44 R7 / s43 R3, QA s44 T7 / T6 h44_06 / h44_08 / h44_09 / h44_10 / h44_14):
`secrets_inflate`. Each key here is published on main b8866bd (its test fails there); the
honest look-alikes stay quiet in the engine, verify's gate and `withhold` alike."""

from __future__ import annotations

import base64
import bz2
import gzip
import io
import lzma
import sys
import zipfile
from pathlib import Path

import pytest
import zstandard
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets_inflate import (
    INFLATED,
    LINE_MAX,
    TOO_LARGE,
    Budget,
    inflated,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

KEY = "ghs_" + "QA45inflate0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"
LINE = b"frame %05d: the tide turns under the drops, the gem is gray\n"


def _counters(n: int) -> bytes:
    """`n` lines of a game's counters (61 bytes each): 24x in gzip, 56x in bzip2, 131x in xz."""
    return b"".join(LINE % i for i in range(n))


def _blob(pack, data: bytes, lead: str = "$ pack k.env | base64 -w0\n") -> bytes:
    return obs_line(lead + base64.b64encode(pack(data)).decode())


def _zstd(data: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=3).compress(data)


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, _zstd, lzma.compress],
                         ids=["gzip", "bzip2", "zstd", "xz"])
def test_a_key_after_100_kib_of_text_is_named(tmp_path, pack):
    """Review s44 R7 (past70k, past300k), QA s44 h44_08 (101 KiB of text in bzip2): read
    whole, the key named by its family (main read 4 KiB, 64 KiB of a short stream)."""
    body = _counters(1800) + f"TOKEN={KEY}\n".encode()  # (~108 KB)
    hit = refused_and_named(tmp_path, _blob(pack, body), INFLATED, "base64 of a secret")
    assert hit.how == f"{INFLATED} (GitHub token)"


@pytest.mark.parametrize("pack, pad", [(gzip.compress, 70_000), (_zstd, 70_000),
                                       (bz2.compress, 300_000)], ids=["gzip", "zstd", "bzip2"])
def test_a_key_after_a_compressible_pad_is_named(tmp_path, pack, pad):
    """Review s44 R7's zeros70k (70 KB of `#` in 235 characters), a key after 70 KB of `#` in
    zstd and 300 KB in bzip2: read whole (the line's `LINE_MAX`; no bound on the ratio, the lead,
    review s45 R5), the key named (main read 4 KiB of it and published it)."""
    hit = refused_and_named(tmp_path, _blob(pack, b"#" * pad + f" key={KEY}\n".encode()),
                            INFLATED)
    assert hit.how == f"{INFLATED} (GitHub token)"


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, _zstd], ids=["gzip", "bzip2", "zstd"])
def test_a_key_past_the_lines_mib_of_pad_is_too_large_to_read(tmp_path, pack):
    """A key after `LINE_MAX` of `#` (bzip2: 46 characters; gzip, zstd): past the line's `LINE_MAX`,
    unread, the line refused as such, never published."""
    hit = refused_and_named(tmp_path, _blob(pack, b"#" * LINE_MAX + f" key={KEY}\n".encode()),
                            INFLATED, TOO_LARGE)
    assert hit.label == TOO_LARGE and hit.column > 1


def test_honest_payloads_that_compress_hundreds_of_times_are_read_and_quiet(tmp_path):
    """Review s45 R5 (HIGH): a 256x bound on the ratio refused these honest lines (verify
    secret.suspect or fail, withhold exit 1): a black 210x160 RGB frame (100,800 zero bytes,
    gzip -9: 180 characters of base64, ~560x), the same as a data URI, 160 KB of blank
    80-column lines in zlib, a 128 KiB memory dump of zeros but 128 random bytes in zlib."""
    import random
    import zlib

    frame = bytes(210 * 160 * 3)
    ram = bytearray(128 << 10)
    rng = random.Random(5)
    for _ in range(128):
        ram[rng.randrange(len(ram))] = rng.randrange(1, 256)
    lines = [_blob(lambda d: gzip.compress(d, 9), frame, "frame 0 (gzip, base64):\n"),
             obs_line("data:application/gzip;base64,"
                      + base64.b64encode(gzip.compress(frame, 9)).decode()),
             _blob(lambda d: zlib.compress(d, 9), (" " * 79 + "\n").encode() * 2000, "screen: "),
             _blob(lambda d: zlib.compress(d, 9), bytes(ram), "ram: ")]
    assert len(gzip.compress(frame, 9)) * 256 < len(frame)  # (past the old bound)
    for n, line in enumerate(lines):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), line)


def test_a_bomb_costs_its_allowance_and_is_refused(tmp_path):
    """16 MiB of zeros: gzip, bzip2, zstd, a data URI; each stops at its allowance (the line's
    `LINE_MAX`, 4 MiB since session 46) and refuses the line."""
    zeros = bytes(16 << 20)
    bombs = [_blob(gzip.compress, zeros), _blob(bz2.compress, zeros), _blob(_zstd, zeros),
             obs_line("data:application/gzip;base64,"
                      + base64.b64encode(gzip.compress(zeros)).decode())]
    for n, line in enumerate(bombs):
        (tmp_path / str(n)).mkdir()
        assert refused_and_named(tmp_path / str(n), line, label=TOO_LARGE)
    assert inflated(gzip.compress(zeros), Budget()) == (bytes(LINE_MAX), False)


def test_qa_s44_h44_08_09_10_14_and_06_are_named(tmp_path):
    """QA s44's lines as written: a key after 101 KiB of text in bzip2 (h44_08), in a ZIP data
    URI (h44_09: raw deflate behind a local header), base32 of zlib (h44_10), after 3 KB of
    noise in a zstd and a bzip2 data URI (h44_14), in `lzma -c` (h44_06); a key written
    `NETLIFY_AUTH_TOKEN=`, `POSTMAN_API_KEY=`, `XAI_API_KEY=` is named by its name first."""
    import qa_hostile_s44 as h44

    for n, (summary, label) in enumerate([
            (h44.NFP_B, "value named like a secret"), (h44.FO1_Z, "Fly.io token"),
            (h44.PMAK_Z, "value named like a secret"), (h44.URI_14, "Grafana token"),
            (h44.URI_14.split("\n$ ")[1], "value named like a secret"),
            (h44.SBP_L, "Supabase token")]):
        (tmp_path / str(n)).mkdir()
        hit = refused_and_named(tmp_path / str(n), obs_line(summary), INFLATED)
        assert hit.how == f"{INFLATED} ({label})", (n, hit)


def test_a_key_in_a_later_member_or_frame_is_named(tmp_path):
    """`cat a.gz b.gz` (gunzip prints both), two bzip2 streams, two zstd frames: the second
    holds the key (main read the first only)."""
    first, second = b"# notes\n" + LINE * 3, f"TOKEN={KEY}\n".encode()
    for n, pack in enumerate((gzip.compress, bz2.compress, _zstd)):
        (tmp_path / str(n)).mkdir()
        line = obs_line("$ cat a b | base64 -w0\n"
                        + base64.b64encode(pack(first) + pack(second)).decode())
        assert refused_and_named(tmp_path / str(n), line, INFLATED).how.endswith("(GitHub token)")


def test_a_zstd_frame_asking_a_larger_window_is_too_large_to_read(tmp_path):
    """`zstd --long=27`: a decoder of 8 MiB calls it corrupt; its key unread (main: nothing
    read, published)."""
    params = zstandard.ZstdCompressionParameters.from_level(3, window_log=27,
                                                            write_content_size=False)
    out = io.BytesIO()
    with zstandard.ZstdCompressor(compression_params=params).stream_writer(
            out, closefd=False) as w:
        w.write(f"TOKEN={KEY}\n".encode())
    hit = refused_and_named(tmp_path, _blob(lambda d: out.getvalue(), b""), label=TOO_LARGE)
    assert hit.column > 1


def _zip(name: str, data: bytes, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr("notes.txt", LINE * 4)
        z.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED,
                                    zipfile.ZIP_BZIP2], ids=["deflate", "stored", "bzip2"])
def test_a_key_in_a_zip_member_is_named(tmp_path, method):
    noise = bytes(range(256)) * 12  # (binary before the key: read by its printable stretches)
    line = obs_line("data:application/zip;base64," + base64.b64encode(
        _zip("fly.env", noise + f"\nTOKEN={KEY}\n".encode() + noise, method)).decode())
    assert refused_and_named(tmp_path, line, INFLATED).how == f"{INFLATED} (GitHub token)"


def test_honest_streams_are_read_whole_and_published(tmp_path):
    """A game's counters (6,000 lines, 366 KB: 24x in gzip, 131x in xz), binary noise in zstd
    and bzip2 data URIs, a ZIP of notes, QA s44 h44_15 line 10's honest `lzma -c` blob: read
    whole, nothing named."""
    import random

    import qa_hostile_s44 as h44

    counters = _counters(6000)
    noise = random.Random(45).randbytes(12_000)
    lines = [_blob(pack, counters) for pack in (gzip.compress, lzma.compress, bz2.compress,
                                                _zstd)]
    lines += [obs_line(f"data:application/{kind};base64," + base64.b64encode(pack(noise)).decode())
              for kind, pack in (("zstd", _zstd), ("x-bzip2", bz2.compress))]
    lines.append(obs_line("data:application/zip;base64,"
                          + base64.b64encode(_zip("more.txt", counters[:5000])).decode()))
    lines.append(obs_line("$ lzma -c notes.txt | base64 -w0\n" + base64.b64encode(
        h44._lzma_alone(b"the drops come back after 22 s\n" * 5)).decode()))  # (h44_15's)
    for n, line in enumerate(lines):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), line)
    assert inflated(lzma.compress(counters), Budget()) == (counters, True)


def test_is_text_counts_controls_of_utf8_as_the_regex_does():
    """`secrets_text._controls` (C-speed counts, session 45: a 29 KB mail inflated whole cost
    ~2.5 ms in the regex) against `_CONTROL.findall` of the decoded text, on texts mixing each
    control class, accents, CJK and emoji."""
    import random

    from moderator_app.core.formats import secrets_text

    rng = random.Random(45)
    alphabet = [chr(c) for c in (*range(0x300), 0x2028, 0x2029, 0xFFFE, 0xFFFF, 0x4E00, 0x1F600)]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) if rng.random() < 0.2 else rng.choice("ab \n")
                       for _ in range(rng.randint(12, 60)))
        data = text.encode()
        found = len(secrets_text._CONTROL.findall(text))
        assert secrets_text._controls(data) == found, text
        assert secrets_text.is_text(data) == (100 * found <= 3 * len(text)), text
