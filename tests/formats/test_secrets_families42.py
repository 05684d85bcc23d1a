"""Keys in QA s40-s41's unread spellings of base64, read by family (session 42, spell; issue 15,
QA s41 T5 h41_07 / h41_10, QA s40 h40_09): base64 of a gzip or zlib stream inflated and base64
whose letters were rotated (`secrets_unwrap`). Each family is asked with
keys and tools of its own (not QA's ids alone) through the engine (`scan_public`), verify's
gate and `withhold_log` (`refused_and_named`); honest look-alikes stay quiet in all three.
Each of these keys is published on 9f8c1c3 (the family's test fails there)."""

from __future__ import annotations

import base64
import gzip
import sys
import zlib
from pathlib import Path

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_inflate, secrets_unwrap
from moderator_app.core.formats.secrets_decode import is_text
from moderator_app.core.formats.secrets_unwrap import INFLATED, ROTATED

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

KEYS = [("Square token", "sq0atp-" + "QA42familyWords0aB1cD2eF3gH4iJ5kL6mN"),
        ("GitHub token", "ghu_" + "QA42family0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"),
        ("Stripe test key", "rk_test_" + "QA42family0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT"),
        ("AWS access key id", "AKIA" + "QA42FAMILYWORDS7")]
IDS = [k[0] for k in KEYS]


@pytest.mark.parametrize("pack", ["gzip", "zlib", "zlib-9"])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_base64_of_gzip_or_zlib_is_inflated_and_refused(tmp_path, pack, label, key):
    data = f'{{"host": "example.org", "token": "{key}"}}\n'.encode()
    packed = gzip.compress(data) if pack == "gzip" else zlib.compress(data, 9 if pack[-1] == "9"
                                                                      else 6)
    hit = refused_and_named(tmp_path, obs_line("$ gzip -c cfg.json | base64 -w0\n"
                                               + base64.b64encode(packed).decode()),
                            INFLATED, "base64 of a secret")
    assert hit.how == f"{INFLATED} ({label})"


def test_a_bomb_is_too_large_to_read_and_a_damaged_stream_is_read_to_its_damage():
    """(session 45: a stream is read whole or not at all, `secrets_inflate`; was: its first
    4 KiB)"""
    bomb = zlib.compress(bytes(64 << 20), 9)  # (64 MiB of zeros in 64 KB: the line's 4 MiB)
    assert secrets_inflate.inflated(bomb, secrets_inflate.Budget()) == (
        bytes(secrets_inflate.LINE_MAX), False)
    text = b"the gate opens at dawn; " * 100
    got, whole = secrets_inflate.inflated(gzip.compress(text)[:60], secrets_inflate.Budget())
    assert got.startswith(b"the gate opens") and whole
    assert secrets_inflate.inflated(b"\x78\x9c" + bytes(20), secrets_inflate.Budget()) == (b"", True)
    assert not secrets_unwrap._is_deflated(b"\x78\x9d")  # (no zlib header: 0x789d % 31)


@pytest.mark.parametrize("turn", [13, 1, 25])
@pytest.mark.parametrize("label, key", KEYS, ids=IDS)
def test_a_key_in_base64_with_its_letters_rotated_is_refused(tmp_path, turn, label, key):
    up, low = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
    rot = str.maketrans(up + low, up[turn:] + up[:turn] + low[turn:] + low[:turn])
    spelled = base64.b64encode(f"export TOKEN={key}\n".encode()).decode().translate(rot)
    hit = refused_and_named(tmp_path, obs_line("$ base64 -w0 t.env | tr A-Za-z N-ZA-Mn-za-m\n"
                                               + spelled), ROTATED, "base64 of a secret")
    assert hit.how == f"{ROTATED} ({label})"


def test_qa_lines_are_named_with_their_keys(tmp_path):
    import qa_hostile_s40 as h40
    import qa_hostile_s41 as h41

    for n, (summary, how) in enumerate([(h41.NFP_R, ROTATED), (h41.SNT_Z, INFLATED),
                                        (h40.XAPP_GZ, INFLATED)]):
        (tmp_path / str(n)).mkdir()
        refused_and_named(tmp_path / str(n), obs_line(summary), how)


def test_honest_compressed_rotated_and_binary_base64_is_published(tmp_path):
    lines = ["$ python3 -c '...zlib...' < state.json\n"
             + base64.b64encode(zlib.compress(b'{"lives": 3, "tint": "green"}')).decode(),
             "$ gzip -c notes.txt | base64 -w0\n"
             + base64.b64encode(gzip.compress(b"press fire when the gem turns green\n" * 9))
             .decode(),
             "$ base64 -w0 hint.txt | tr A-Za-z N-ZA-Mn-za-m\n" + base64.b64encode(
                 b"press fire when the gem turns green").decode().translate(str.maketrans(
                     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                     "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm")),
             "frame " + base64.b64encode(zlib.compress(bytes(range(256)) * 8)).decode()]
    for n, summary in enumerate(lines):
        (tmp_path / str(n)).mkdir()
        quiet(tmp_path / str(n), obs_line(summary))
    assert secrets_unwrap.unrotated(base64.b64encode(bytes(range(200))), is_text) is None
