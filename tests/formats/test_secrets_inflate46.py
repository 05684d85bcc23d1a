"""A file's allowance of inflated bytes, a larger line budget, and hex / Adobe Ascii85 of a
compressed stream read (session 46, spell; issue 15, the lead's session 45 proposal, QA s45 T8
h45_15 line 5, QA s45 T7 / review s45 R4 h45_10 / h45_11). Each test here fails on main
aeca8af."""

from __future__ import annotations

import base64
import gzip
import random
import zlib

import orjson
import pytest
from secretshelp import START, obs_line, quiet, refused_and_named

from moderator_app.core.formats import native, secrets_inflate
from moderator_app.core.formats.secrets_inflate import INFLATED, SPENT, TOO_LARGE
from moderator_app.core.formats.withhold import WithholdError, withhold_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

KEY = "ghs_" + "QA46inflate0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"
_BOMB = base64.b64encode(gzip.compress(bytes(1 << 20), 9)).decode()  # (1,404 characters)


def _log(tmp_path, lines: list[bytes]):
    path = tmp_path / "agent-log.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in [START, *lines]))
    return path


def _secret_lines(path, monkeypatch, engine: str) -> list[tuple[int, str]]:
    with monkeypatch.context() as m:
        if engine == "python":
            m.setattr(native, "SKIM", None)
        rep = verify_paths([path], VerifyOptions(probe_video=False)).report
    found = orjson.loads(orjson.dumps(rep.to_dict()))["findings"]
    return [(f["line"], f["message"]) for f in found if f["rule"] == "secret.suspect"]


@pytest.mark.parametrize("engine", ["c", "python"])
def test_a_flood_of_bombs_is_read_to_the_files_allowance_then_refused(tmp_path, monkeypatch,
                                                                       engine):
    """Twelve lines each a 1 KB gzip bomb (1 MiB of zeros: within the line's budget, so main
    read each whole and published the log); with a file allowance of 4 MiB (plus 4x each
    stream's bytes) lines 2-5 are read, and from line 6 each is refused, the file's allowance
    spent, by `verify` (one finding for the 8 lines since session 47, the C skim and Python's)
    and by `withhold` (at line 6)."""
    monkeypatch.setattr(secrets_inflate, "FILE_FLOOR", 4 << 20)
    lines = [obs_line(f"$ gzip -c dump{i}.bin | base64 -w0\n" + _BOMB) for i in range(12)]
    path = _log(tmp_path, lines)
    found = _secret_lines(path, monkeypatch, engine)
    assert [n for n, _ in found] == [6]
    assert found[0][1].startswith("8 line(s), from line 6 to line 13, hold a stream of "
                                  "compressed data not read (gzip / zlib: 8): the file's "
                                  "allowance of inflated bytes (4 MiB beyond")
    with pytest.raises(WithholdError, match=rf"^line 6: .*\({SPENT}: "):
        withhold_log(path, tmp_path / "public.jsonl")
    assert not (tmp_path / "public.jsonl").exists()


def test_honest_streams_pay_their_own_way_past_the_floor(tmp_path, monkeypatch):
    """A log of 40 gzip blobs of text (~2.3x, as the escape logs' 1.3-3.4x) after a line whose
    zeros spend the floor (1 MiB here): every blob is still read whole (credited 4x its bytes)
    and the log published; a key in a last blob is named on its line."""
    monkeypatch.setattr(secrets_inflate, "FILE_FLOOR", 1 << 20)
    rng = random.Random(46)
    words = ["tide", "gem", "frame", "score", "lives", "drops", "gray", "turns"]

    def blob(tail: str = "") -> bytes:
        text = " ".join(rng.choice(words) + str(rng.randrange(10 ** 6)) for _ in range(2000))
        return obs_line("$ gzip -c notes.txt | base64 -w0\n"
                        + base64.b64encode(gzip.compress((text + tail).encode())).decode())
    spend = obs_line("ram: " + base64.b64encode(zlib.compress(bytes((1 << 20) - 4096), 9)).decode())
    lines = [spend, *(blob() for _ in range(40))]
    path = _log(tmp_path, lines)
    assert _secret_lines(path, monkeypatch, "c") == []
    withhold_log(path, tmp_path / "public.jsonl")
    path = _log(tmp_path, [*lines, blob(f"\nTOKEN={KEY}\n")])
    found = _secret_lines(path, monkeypatch, "c")
    assert [n for n, _ in found] == [43] and "GitHub token" in found[0][1]


def _counters(n: int) -> bytes:
    return b"".join(b"frame %06d: the tide turns under the drops, the gem is gray\n" % i
                    for i in range(n))


def test_qa_s45_h45_15_line_5_an_honest_line_of_1_5_mib_is_read_and_published(tmp_path):
    """QA s45 T8 (a regression since 6b3acfe): an honest tool output holding 300 KiB of text in
    xz and 1.2 MiB of JSON lines in zlib (1.5 MiB inflated in one line) was refused as too
    large to read by the line's 1 MiB; now read and published, and a key after the same
    1.2 MiB named."""
    import lzma
    rows = b"".join(b'{"step":%d,"score":%d,"lives":3,"note":"the gem is gray"}\n' % (i, i * 7)
                    for i in range(21_000))  # (1.2 MiB)
    assert len(rows) > 1_200_000
    summary = ("$ xz -c sweep.log | base64 -w0\n"
               + base64.b64encode(lzma.compress(_counters(5000))).decode()
               + "\n$ zlib-flate -compress < steps.jsonl | base64 -w0\n"
               + base64.b64encode(zlib.compress(rows, 9)).decode())
    public = quiet(tmp_path, obs_line(summary))
    assert base64.b64encode(zlib.compress(rows, 9))[:40] in public
    (tmp_path / "k").mkdir()
    hit = refused_and_named(tmp_path / "k", obs_line(
        "$ zlib-flate -compress < steps.jsonl | base64 -w0\n"
        + base64.b64encode(zlib.compress(rows + f"DOCKER={KEY}\n".encode(), 9)).decode()), INFLATED)
    assert hit.how == f"{INFLATED} (GitHub token)"


def test_a_key_after_3_mib_of_text_is_named_and_past_4_mib_too_large(tmp_path):
    """The line's budget is 4 MiB: a key after 3.5 MiB of counters in gzip is named (main: too
    large to read), after 4 MiB of `#` refused as too large to read."""
    hit = refused_and_named(tmp_path, obs_line("$ gzip -c run.log | base64 -w0\n" + base64.b64encode(
        gzip.compress(_counters(58_000) + f"TOKEN={KEY}\n".encode())).decode()), INFLATED)
    assert hit.how == f"{INFLATED} (GitHub token)"
    (tmp_path / "big").mkdir()
    hit = refused_and_named(tmp_path / "big", obs_line("$ gzip -c pad | base64 -w0\n" + base64.b64encode(
        gzip.compress(b"#" * (4 << 20) + f" key={KEY}\n".encode())).decode()), INFLATED, TOO_LARGE)


def _xxd_p(data: bytes) -> str:
    """`xxd -p`: 60 hex digits a line."""
    text = data.hex()
    return "\n".join(text[i:i + 60] for i in range(0, len(text), 60))


_ENV = f"TS_AUTHKEY={KEY}\nTS_HOSTNAME=arcade-7\n".encode()


@pytest.mark.parametrize("spelling", ["zlib_xxd", "gzip_xxd", "xz_hex_one_line", "gzip_a85",
                                      "gzip_a85_wrapped"])
def test_qa_s45_t7_hex_and_adobe_ascii85_of_a_stream_are_inflated_and_named(tmp_path, spelling):
    """QA s45 T7 / review s45 R4: hex of zlib (`zlib-flate -compress | xxd -p`, h45_10) and
    Adobe Ascii85 `<~ ~>` of gzip (h45_11; its header's four zero bytes are `z`, which the span's
    pattern left out) were never inflated: published with the key inside (main: verify silent,
    withhold wrote it)."""
    import lzma
    a85 = base64.a85encode(gzip.compress(_ENV, mtime=0), adobe=True).decode()
    summary = {
        "zlib_xxd": "$ zlib-flate -compress < ts.env | xxd -p\n" + _xxd_p(zlib.compress(_ENV)),
        "gzip_xxd": "$ gzip -c ts.env | xxd -p\n" + _xxd_p(gzip.compress(_ENV, mtime=0)),
        "xz_hex_one_line": "hex: " + lzma.compress(_ENV).hex(),
        "gzip_a85": "$ a85 < ts.env.gz\n" + base64.a85encode(gzip.compress(_ENV, mtime=0),
                                                             adobe=True).decode(),
        "gzip_a85_wrapped": "\n".join(a85[i:i + 72] for i in range(0, len(a85), 72)),
    }[spelling]
    hit = refused_and_named(tmp_path, obs_line(summary), INFLATED)
    assert hit.how == f"{INFLATED} (GitHub token)"
    assert hit.label == ("Ascii85" if "a85" in spelling else "hex") + " of a secret"
    assert hit.excerpt[:2] == {"zlib_xxd": "78", "gzip_xxd": "1f", "xz_hex_one_line": "fd"}.get(
        spelling, "<~")  # (the run's head: an Ascii85 excerpt was empty)


def test_honest_hex_and_ascii85_of_streams_and_digests_stay_quiet(tmp_path):
    """Honest look-alikes: hex / Ascii85 of compressed notes, a sha256 digest that opens as a
    zlib header (`78da`), `xxd -p` of a PNG: read (or asked) and quiet."""
    import hashlib
    notes = b"".join(b"level %d: the tide turns, score %d\n" % (i, i * 31) for i in range(400))
    digest = "78da" + hashlib.sha256(b"run 46").hexdigest()[4:]
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    for n, summary in enumerate([
            "$ zlib-flate -compress < notes.txt | xxd -p\n" + _xxd_p(zlib.compress(notes)),
            "$ gzip -c notes.txt | xxd -p\n" + _xxd_p(gzip.compress(notes, mtime=0)),
            base64.a85encode(gzip.compress(notes, mtime=0), adobe=True).decode(),
            f"sha256 {digest}  build.tar\nsha256 {digest[::-1]}  other.tar",
            "$ xxd -p frame.png\n" + _xxd_p(png)]):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line(summary))


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _bigint(b: bytes, alphabet: str) -> str:
    n, out = int.from_bytes(b, "big"), ""
    while n:
        n, r = divmod(n, len(alphabet))
        out = alphabet[r] + out
    return out


@pytest.mark.parametrize("alphabet", [_B58, _B62, _B62[:10] + _B62[36:] + _B62[10:36]],
                         ids=["base58", "base62", "base62_lower_first"])
def test_base58_and_base62_of_text_are_read_as_text(tmp_path, alphabet):
    """QA s44 h44_15 line 19 (`base58 < seed-phrase-hint.txt`) and QA s41 h41_12 line 15
    (base62 of a sentence) were refused as a high-entropy run: now read as the text they
    spell, which is honest (published) or holds a key (named by its family; main: a
    high-entropy run)."""
    from moderator_app.core.formats.secrets_basen import BIGNUM
    quiet(tmp_path, obs_line("$ base58 < seed-phrase-hint.txt\n"
                             + _bigint(b"the tide is high, the gem is green", alphabet)
                             + "\ntool python3 returned: "
                             + _bigint(b"the pip turns red at noon", alphabet)))
    (tmp_path / "k").mkdir()
    hit = refused_and_named(tmp_path / "k", obs_line(
        "tool python3 returned: " + _bigint(f"GH_TOKEN={KEY}".encode(), alphabet)), BIGNUM)
    assert hit.label == "GitHub token", hit


def test_a_random_base58_key_is_still_named_as_a_high_entropy_run(tmp_path):
    """A key of no family in base58's letters decodes to bytes that are no text: still named
    by the reader (not explained away)."""
    rng = random.Random(58)
    key = "".join(rng.choice(_B58) for _ in range(44))
    hit = refused_and_named(tmp_path, obs_line(f"wallet: {key}"))
    assert hit.label.startswith("high-entropy run"), hit


@pytest.mark.parametrize("engine", ["c", "python"])
def test_a_nested_stream_credits_the_allowance_by_no_more_than_its_line(tmp_path, monkeypatch,
                                                                         engine):
    """Review s46 R3 (HIGH): a stream found in another stream's inflated text was credited
    `FILE_RATIO` times its own length, bytes the log never held: one 18 KB line of
    base64(gzip(base64(3 MB of identical 1 KB gzip members))) raised the allowance by ~8 MB
    (itself refused as too large), so 11 more 1 MiB bombs after it were read whole. A line
    now credits at most `FILE_RATIO` times its own length: with a floor of 8 MiB, the nested
    line spends its 4 MiB, the next four bombs are read, and each after is refused (one
    finding for the 26 since session 47)."""
    monkeypatch.setattr(secrets_inflate, "FILE_FLOOR", 8 << 20)
    members = gzip.compress(bytes(1024), 9) * 100_000
    nested = obs_line("$ cat dumps.b64.gz | base64 -w0\n" + base64.b64encode(
        gzip.compress(base64.b64encode(members), 9)).decode())
    assert len(nested) < 20_000
    path = _log(tmp_path, [nested, *(obs_line(f"$ gzip -c z{i}.bin | base64 -w0\n" + _BOMB)
                                     for i in range(30))])
    found = _secret_lines(path, monkeypatch, engine)
    assert [n for n, _ in found] == [2, 7]
    assert TOO_LARGE in found[0][1]
    assert found[1][1].startswith("26 line(s), from line 7 to line 32, hold a stream of "
                                  "compressed data not read (gzip / zlib: 26)")
