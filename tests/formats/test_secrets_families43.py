"""One marker gate over the decoded text views, then the spellings still published, by family
(session 43, spell; issue 15, QA s42 T5, review s42 R4). Each family is asked with keys and
tools of its own through the engine (`scan_public`), verify's gate and `withhold_log`
(`refused_and_named`); honest look-alikes stay quiet in all three. Each key here is published
on 7f3538f (the family's test fails there)."""

from __future__ import annotations

import base64
import gzip
import lzma
import random
import sys
import zlib
from pathlib import Path

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_public
from moderator_app.core.formats.secrets_decode import BASE64
from moderator_app.core.formats.secrets_public import view_may_hold
from moderator_app.core.formats.secrets_unwrap import INFLATED, UTF16

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

PROSE = b"press fire when the gem turns green, then take the west stair to the bell tower\n"


def _counted(monkeypatch) -> list[bytes]:
    texts: list[bytes] = []
    read = secrets_public._view_hit

    def counted(decoded, text, how):
        texts.append(decoded)
        return read(decoded, text, how)

    monkeypatch.setattr(secrets_public, "_view_hit", counted)
    return texts


def test_a_decoded_view_with_no_marker_is_read_by_nothing(monkeypatch, tmp_path):
    """Base64 of prose: its text holds no detector's or view's marker, so neither the
    detectors nor its own views read it (main read it twice: joined, then its views)."""
    texts = _counted(monkeypatch)
    line = obs_line("$ base64 -w0 hint.txt\n" + base64.b64encode(PROSE * 3).decode())
    assert not view_may_hold(PROSE * 3)
    quiet(tmp_path, line)
    assert texts == []


def test_the_gate_opens_on_each_kind_of_marker_and_a_key_behind_it_is_named(monkeypatch,
                                                                               tmp_path):
    key = "ghp_" + "QA43gateKey0aB1cD2eF3gH4iJ5kL6mN7oP8q"
    for inner in (f"token = {key}", "see https://example.org/help",
                  "the key is 6768705f" + key[4:].encode().hex(),
                  "AWS_SECRET_ACCESS_KEY=" + "k" * 12):
        assert view_may_hold(PROSE + inner.encode()), inner
    texts = _counted(monkeypatch)
    hit = refused_and_named(tmp_path, obs_line("$ base64 -w0 k\n" + base64.b64encode(
        PROSE + f"token = {key}\n".encode()).decode()), BASE64, "base64 of a secret")
    assert hit.how == f"{BASE64} (GitHub token)" and texts


def _comments(n: int) -> str:
    """`n` lines of varied comment words (a config's head: deflates ~4x, as honest text does)."""
    rng = random.Random(43)
    words = ("the", "gem", "turns", "green", "press", "fire", "west", "stair", "bell", "tower",
             "level", "score", "é")
    return "".join("# " + " ".join(rng.choice(words) for _ in range(9)) + "\n" for _ in range(n))


@pytest.mark.parametrize("pack", [gzip.compress, zlib.compress])
def test_a_key_after_4_kib_of_text_in_a_compressed_blob_is_refused(tmp_path, pack):
    """Review s42 R4: the stream was inflated to 4 KiB, so a key after 4 KiB of comments was
    published; a stream under 8 KiB is inflated on, to 64x its size and 64 KiB."""
    key = "ghp_" + "QA43pastKey0aB1cD2eF3gH4iJ5kL6mN7oP8qR"
    blob = pack((_comments(110) + f"token = {key}\n").encode())
    assert len(_comments(110).encode()) > 5000 and len(blob) < 1500
    hit = refused_and_named(tmp_path, obs_line("$ gzip -c k | base64 -w0\n"
                                               + base64.b64encode(blob).decode()), INFLATED)
    assert hit.how == f"{INFLATED} (GitHub token)" and hit.column > 1


def test_a_stream_is_read_whole_to_the_lines_budget():
    """(session 45, `secrets_inflate`; was: 4 KiB, on to 64x and 64 KiB for a short text) A
    stream gives at most what the line's budget has left (`LINE_MAX`, 4 MiB since session 46), whatever its ratio
    (review s45 R5: honest zeros compress as a bomb does); more to give is too large to read
    (`False`)."""
    from moderator_app.core.formats.secrets_inflate import LINE_MAX, Budget, inflated

    zeros = zlib.compress(bytes(64 << 20), 9)  # (64 MiB of zeros in 64 KB: the line's 4 MiB)
    assert inflated(zeros, Budget()) == (bytes(LINE_MAX), False)
    prose = b"".join(b"frame %05d: " % i + PROSE for i in range(9000))  # (~830 KB, 20-30x)
    assert inflated(zlib.compress(prose, 9), Budget()) == (prose, True)
    many = PROSE * 5000  # (400 KB, ~1,000x: read whole)
    assert inflated(zlib.compress(many, 9), Budget()) == (many, True)
    marked = b"a" * 99 + b" AKIA\n"
    text = zlib.compress(marked * 45_000, 9)  # (4,725,000 bytes in ~15 KB: past 4 MiB)
    assert inflated(text, Budget()) == ((marked * 45_000)[:LINE_MAX], False)
    budget = Budget(5000)  # (what the line has left)
    assert inflated(zlib.compress(marked * 100, 9), budget) == ((marked * 100)[:5000], False)
    assert budget.left == 0
    hexed = random.Random(4).randbytes(1 << 13).hex().encode()  # (8 KiB deflated: whole)
    body = hexed[:8000] + marked + hexed
    assert inflated(zlib.compress(body), Budget()) == (body, True)


KEYS = [("Square token", "sq0atp-" + "QA43familyWords0aB1cD2eF3gH4iJ5kL6mN"),
        ("GitHub token", "ghu_" + "QA43family0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"),
        ("Vault token", "hvs." + "CAESIQA43family0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gH7")]


@pytest.mark.parametrize("order", ["utf-32-le", "utf-32-be", "utf-32"])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_base64_of_utf32_text_is_refused(tmp_path, order, label, key):
    """QA s42 h42_05 (`iconv -t UTF-32LE vault.env | base64 -w0`): three zeros a character,
    so no UTF-16; read as the UTF-16 row reads its text (`utf-32`: a byte order mark)."""
    blob = base64.b64encode(f"VAULT_TOKEN={key}\n".encode(order)).decode()
    hit = refused_and_named(tmp_path, obs_line(f"$ iconv -t {order} v.env | base64 -w0\n{blob}"),
                            UTF16, "base64 of a secret")
    assert hit.how == f"{UTF16} ({label})"


@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_base64_of_xz_is_refused(tmp_path, label, key):
    """QA s42 h42_08 (`xz -c shop.env | base64 -w0`): told by xz's magic, its first 4 KiB read."""
    blob = base64.b64encode(lzma.compress(f"TOKEN={key}\n".encode())).decode()
    hit = refused_and_named(tmp_path, obs_line(f"$ xz -c k.env | base64 -w0\n{blob}"),
                            INFLATED, "base64 of a secret")
    assert hit.how == f"{INFLATED} ({label})"


def test_qa_s42_lines_are_named_with_their_keys(tmp_path):
    import qa_hostile_s42 as h42

    for n, (summary, how) in enumerate([(h42.HVS_32, UTF16), (h42.SHP_X, INFLATED)]):
        (tmp_path / str(n)).mkdir()
        refused_and_named(tmp_path / str(n), obs_line(summary), how)


def test_honest_utf32_and_xz_are_published(tmp_path):
    for n, summary in enumerate([
            "$ iconv -t UTF-32LE notes.txt | base64 -w0\n"
            + base64.b64encode(PROSE.decode().encode("utf-32-le")).decode(),
            "$ xz -c notes.txt | base64 -w0\n" + base64.b64encode(lzma.compress(PROSE)).decode(),
            "frame " + base64.b64encode(lzma.compress(random.Random(5).randbytes(3000))).decode()]):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line(summary))
