"""A spent inflate allowance is one finding and never hides a key; the allowance is credited
by the compressed bytes a stream's decoder consumed (session 47, allow; issue 15, QA s46 T6,
review s46 R3's residual). Each test here fails on main 419dbe2."""

from __future__ import annotations

import base64
import bz2
import gzip
import io
import lzma
import random
import zipfile
import zlib

import orjson
import pytest
import zstandard
from secretshelp import START, obs_line, refused_and_named

from moderator_app.core.formats import native, secrets_inflate
from moderator_app.core.formats.secrets_inflate import (
    SPENT,
    TOO_LARGE,
    Allowance,
    inflated,
    reading_file,
    scanning,
)
from moderator_app.core.formats.withhold import WithholdError, withhold_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

KEY = "ghs_" + "QA47allow0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT"
_ZEROS = bytes(1 << 20)
_BOMBS = {"bzip2": ("x-bzip2", bz2.compress(_ZEROS, 9)), "xz": ("x-xz", lzma.compress(_ZEROS))}


def _log(tmp_path, lines: list[bytes]):
    path = tmp_path / "agent-log.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in [START, *lines]))
    return path


def _secret_lines(path, monkeypatch, engine: str = "c") -> list[tuple[int, str]]:
    with monkeypatch.context() as m:
        if engine == "python":
            m.setattr(native, "SKIM", None)
        rep = verify_paths([path], VerifyOptions(probe_video=False)).report
    found = orjson.loads(orjson.dumps(rep.to_dict()))["findings"]
    return [(f["line"], f["message"]) for f in found if f["rule"] == "secret.suspect"]


def _key_gz() -> str:
    return base64.b64encode(gzip.compress(f"NETLIFY={KEY}\n".encode(), mtime=0)).decode()


@pytest.mark.parametrize("engine", ["c", "python"])
def test_qa_s46_t6_a_spent_allowance_is_one_finding_and_the_key_after_it_is_named(
        tmp_path, monkeypatch, engine):
    """QA s46 T6 (h46_09's shape, smaller): 540 lines of 1 MiB bzip2 / xz bombs as data URIs,
    then a key in a small gzip. With a floor of 4 MiB, lines 2-5 are read and 536 refused,
    the file's allowance spent: main made a finding a line, and the rule's 500 kept findings
    ended at line 505, so the key's line 543 had none. Now the refused lines are one finding
    (count, first, last line, kinds) and the key is named on its line; `withhold` refuses the
    first refused line."""
    monkeypatch.setattr(secrets_inflate, "FILE_FLOOR", 4 << 20)
    lines = []
    for i in range(540):
        mime, bomb = _BOMBS["bzip2" if i % 2 == 0 else "xz"]
        lines.append(obs_line(f"$ dump --part {i}\ndata:application/{mime};base64,"
                              + base64.b64encode(bomb).decode()))
    lines += [obs_line("$ ls"), obs_line(f"$ gzip -c .env | base64 -w0\n{_key_gz()}")]
    path = _log(tmp_path, lines)
    found = _secret_lines(path, monkeypatch, engine)
    assert [n for n, _ in found] == [6, 543]
    assert found[0][1].startswith("536 line(s), from line 6 to line 541, hold a stream of "
                                  "compressed data not read (bzip2: 268, xz: 268): the file's "
                                  "allowance of inflated bytes (4 MiB beyond 4 bytes for "
                                  "each compressed byte a stream consumed) is spent")
    assert "GitHub token" in found[1][1]
    with pytest.raises(WithholdError, match=rf"^line 6: .*\({SPENT}: "):
        withhold_log(path, tmp_path / "public.jsonl")


@pytest.mark.parametrize("refusal", ["spent", "too_large"])
def test_a_key_after_a_refused_stream_on_its_line_is_named(tmp_path, monkeypatch, refusal):
    """A refused stream ended the line's reading: a key in base64 after it on the same line
    was never named (the line was refused as too large all the same). The uncompressed text
    is always read, only inflation stops: the key is named, by `verify` and `withhold`."""
    if refusal == "spent":
        monkeypatch.setattr(secrets_inflate, "FILE_FLOOR", 1 << 20)
        bomb = gzip.compress(_ZEROS, 9)  # (the floor spends on line 2, line 3's is refused)
    else:
        bomb = gzip.compress(bytes(5 << 20), 9)  # (more than a line's 4 MiB)
    b64key = base64.b64encode(f"export TOKEN={KEY}\n".encode()).decode()
    first = obs_line("$ gzip -c zeros | base64 -w0\n"
                     + base64.b64encode(gzip.compress(_ZEROS, 9)).decode())
    line = obs_line(f"$ gzip -c z | base64 -w0\n{base64.b64encode(bomb).decode()}\n"
                    f"$ base64 -w0 .env\n{b64key}")
    path = _log(tmp_path, [first, line])
    found = _secret_lines(path, monkeypatch)
    assert [n for n, _ in found] == [3]
    assert "base64 of a secret" in found[0][1] and "GitHub token" in found[0][1]
    with pytest.raises(WithholdError, match=r"^line 3: .*\(base64 of a secret: "):
        withhold_log(path, tmp_path / "public.jsonl")


def _zip(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.txt", data)
    return out.getvalue()


_COUNTERS = b"".join(b"frame %05d: score %d\n" % (i, i * 7 % 1000) for i in range(2_000))
_NOISE = random.Random(47).randbytes(30_000).hex().encode()  # (gzip: ~2x)
_PACK = {
    "gzip": lambda b: gzip.compress(b, mtime=0),
    "zlib": zlib.compress,
    "xz": lzma.compress,
    "bzip2": bz2.compress,
    "zstd": lambda b: zstandard.ZstdCompressor().compress(b),
}


@pytest.mark.parametrize("kind", sorted(_PACK))
def test_a_stream_pays_by_the_bytes_its_decoder_consumed_not_the_junk_after_it(kind):
    """Review s46 R3's residual (MED): a stream credited the file's allowance 4x the bytes of
    its run, junk after its end too (base64 of a 25-byte gzip member and 1 MB of junk: 4 MB).
    With nothing left of the floor, a log of counters (5-50x) with junk after it 12x its
    size was read whole on main; now it pays 4x what its decoder consumed (a zstd stream
    with bytes after its frames: nothing, its reader tells no place) and is refused, the
    file's allowance spent, as it is without the junk. Hex noise (~2x) is read whole."""
    stream = _PACK[kind](_COUNTERS)
    junk = random.Random(5).randbytes(12 * len(_COUNTERS))
    for data in (stream + junk, stream):
        with reading_file(Allowance(0)), scanning(len(data)) as budget:
            got, whole = inflated(data)
        assert whole is False
        assert budget.spent == ("gzip / zlib" if kind in ("gzip", "zlib") else kind)
    with reading_file(Allowance(0)), scanning(10 ** 6):
        assert inflated(_PACK[kind](_NOISE)) == (_NOISE, True)


@pytest.mark.parametrize("after", [b"\n", b"-- end of dump --\n" * 40])
def test_a_key_in_zstd_with_bytes_after_its_frame_is_named(tmp_path, after):
    """zstd's reader across frames errs on bytes after the last frame before it gives any
    byte: a key in `zstd -c .env` with a line break or a trailer after it in the same base64
    run was never read, and the line published (`zstd -d` prints the frame, then complains).
    Its frames are now read to their end (walked by their headers)."""
    data = zstandard.ZstdCompressor(level=19).compress(f"TOKEN={KEY}\n".encode()) + after
    hit = refused_and_named(tmp_path, obs_line("$ zstd -c .env; echo | base64 -w0\n"
                                               + base64.b64encode(data).decode()))
    assert "GitHub token" in hit.how


def test_a_streams_surplus_pays_for_no_other():
    """A stream that inflates less than 4x what it consumed kept the rest for any other
    stream of the file (gzip of 1 MB of random bytes, or 1 MB of empty stored deflate blocks,
    funded 3-4 MB of text elsewhere): with nothing left of the floor, hex noise (~2x) is read,
    and a log of counters after it (~20x) is refused; on main the noise's surplus paid."""
    noise, counters = gzip.compress(_NOISE), gzip.compress(_COUNTERS)
    allowance = Allowance(0)
    with reading_file(allowance):
        with scanning(len(noise)):
            assert inflated(noise) == (_NOISE, True)
        assert allowance.left == 0
        with scanning(len(counters)):
            assert inflated(counters)[1] is False


def test_a_zip_pays_by_its_members_not_its_directory():
    """A ZIP's members read whole are what it consumed: its central directory after them, or
    zeros, pay for nothing."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.txt", _COUNTERS)
    data = out.getvalue()
    member = data.index(b"PK\x01\x02")  # (the central directory's first entry)
    spent = len(_COUNTERS) + 7 - 4 * member  # (its name and two line breaks: "a.txt\n...\n")
    assert spent > 0
    with reading_file(allowance := Allowance(spent + 10)), scanning(len(data) + 500_000):
        assert inflated(data + bytes(500_000)) == (b"a.txt\n" + _COUNTERS + b"\n", True)
    assert allowance.left == 10


def test_cheap_funding_lines_no_longer_pay_for_a_line_of_text(tmp_path, monkeypatch):
    """Review s46 R3's residual, its shape: lines each base64 of a tiny gzip member and 300
    KB of junk (credited 1.2 MB each on main) before a line of gzip of 2.5 MiB of text (a
    counter's log, ~25x: read through the detectors): with a floor of 1 MiB main read it
    (the funding paid), quiet; now nothing funded it, and it is refused, the allowance spent.
    Without the funding lines main refused it too."""
    monkeypatch.setattr(secrets_inflate, "FILE_FLOOR", 1 << 20)
    rng = random.Random(3)
    fund = obs_line("$ tar c save | base64 -w0\n" + base64.b64encode(
        gzip.compress(b"hello", mtime=0) + rng.randbytes(300_000)).decode())
    body = "".join(f"frame {i:06d}: score {i * 7 % 1000}\n" for i in range(120_000)).encode()
    assert len(body) > 5 << 19
    spend = obs_line("$ gzip -c frames.log | base64 -w0\n"
                     + base64.b64encode(gzip.compress(body, 9, mtime=0)).decode())
    for lines in ([fund, fund, fund, spend], [spend]):
        path = _log(tmp_path, lines)
        at = len(lines) + 1
        found = _secret_lines(path, monkeypatch)
        assert [(n, m.startswith(f"1 line(s), from line {at} to line {at}, hold a stream "))
                for n, m in found] == [(at, True)]


def test_a_bomb_that_overdraws_leaves_no_debt_for_the_key_after_it(tmp_path, monkeypatch):
    """A bomb whose run holds junk after it may inflate up to 4x the run's bytes, and is
    refused when its decoder consumed too little to pay for it: the allowance falls to
    nothing, never below, so the small gzip of a key on the next line (its bytes pay for
    it) is still read and named."""
    monkeypatch.setattr(secrets_inflate, "FILE_FLOOR", 0)
    bomb = gzip.compress(bytes(800_000), 9)
    line = obs_line("$ base64 -w0 blob\n" + base64.b64encode(
        bomb + random.Random(5).randbytes(250_000)).decode())
    path = _log(tmp_path, [line, obs_line(f"$ gzip -c .env | base64 -w0\n{_key_gz()}")])
    found = _secret_lines(path, monkeypatch)
    assert [n for n, _ in found] == [2, 3]
    assert found[0][1].startswith("1 line(s), from line 2 to line 2")
    assert "GitHub token" in found[1][1] and TOO_LARGE not in found[1][1]


def test_review_s47_r1_a_stream_of_many_empty_members_is_too_large_not_quadratic(monkeypatch):
    """Review s47 R1 (HIGH): a stream of 200,000 empty gzip members (4 MB) was read whole,
    each member copying the rest of the stream (10 s of CPU, nothing inflated, nothing of any
    allowance spent). Each member after the first now costs 1 KiB of the line's budget: the
    stream is too large to read after 4,096 members (4,097 decoders made), while a stream of
    a few honest members (`cat a.gz b.gz`, BGZF's 64 KiB blocks) is read whole."""
    made = []
    real = zlib.decompressobj
    monkeypatch.setattr(secrets_inflate.zlib, "decompressobj",
                        lambda *a: made.append(1) or real(*a))
    assert inflated(gzip.compress(b"") * 200_000, secrets_inflate.Budget()) == (b"", False)
    assert len(made) == 4097
    monkeypatch.undo()
    block = b"".join(b"frame %06d\n" % i for i in range(5_000))
    members = b"".join(gzip.compress(block[i:i + 1 << 16], mtime=0)
                       for i in range(0, len(block), 1 << 16))
    assert inflated(members * 20, secrets_inflate.Budget()) == (block * 20, True)
