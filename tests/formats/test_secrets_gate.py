"""The decoded views' marker gate in C (`secrets_gate`, `_unescape.gate_open`; session 44,
speed): the C pass runs its spec exactly as the tables' `translate` and substring tests do,
closes only where `view_may_hold`'s Python tests close (never a view the tests would read
left unread), and does close on prose (it is no gate that is always open)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from moderator_app.core.formats import native, secrets_gate, secrets_public

UNESCAPE = native.UNESCAPE
pytestmark = pytest.mark.skipif(UNESCAPE is None, reason="the C accelerator is not built")
ROOT = Path(__file__).resolve().parents[2]


WORDS = ("zodiac", "dunk", "court", "à", "score", "flag", "captured", "the", "room", "level",
         "pass", "porter", "eel", "—", "jump")


def _reference(spec, text: bytes) -> int:
    """The first pass whose needle is in `text` through its table (-1: none), in Python."""
    for k, (table, deleted, needles) in enumerate(spec):
        mapped = text.translate(table, deleted)
        if any(needle in mapped for needle in needles):
            return k
    return -1


def _texts(seed: int, n: int):
    """Texts near every pass's needles: each needle whole, cut by a byte, its run one short,
    a decimal list with the bytes its pass deletes, prose and random bytes around."""
    rng = random.Random(seed)
    prose = " ".join(rng.choice(WORDS) for _ in range(2000)).encode()
    prose += (ROOT / "docs" / "architecture.md").read_bytes()[:4000]
    pieces = []
    for table, deleted, needles in secrets_public.gate_passes():
        back = {} if table is None else {t: b for b, t in reversed(list(enumerate(table)))}
        for needle in needles:
            raw = bytes(back.get(c, c) for c in needle)  # (a raw spelling of the mapped needle)
            pieces += [raw, raw[:-1], raw[1:], raw[:len(raw) // 2] + b" " + raw[len(raw) // 2:]]
            if deleted:
                pieces.append(b"".join(bytes([c, rng.choice(deleted)]) for c in raw))
    pieces += [b"ghp_", b"AKIA", b"sk-", b"-----BEGIN", b"\\u200b", b"\xe2\x80\x8b", b"%41"]
    for piece in pieces:  # (each alone in prose, as written and in each case)
        at = rng.randrange(len(prose) - 3000)
        for spelled in (piece, piece.upper(), piece.lower()):
            yield prose[at:at + rng.randrange(0, 2000)] + spelled + prose[at:at + 30]
    for _ in range(n):
        at = rng.randrange(len(prose) - 3000)
        parts = [prose[at:at + rng.randrange(0, 3000)]]
        for _ in range(rng.randrange(0, 3)):
            piece = rng.choice(pieces)
            if rng.random() < 0.3:
                piece = piece.upper() if rng.random() < 0.5 else piece.lower()
            parts.append(piece)
            parts.append(rng.choice([b"", b" ", b"\n", b"x", bytes(rng.randrange(256)
                                                               for _ in range(rng.randrange(8)))]))
        rng.shuffle(parts)
        yield b"".join(parts)


def test_gate_open_runs_its_spec_as_translate_and_find_do():
    spec = secrets_public.gate_passes()
    compiled = secrets_gate.compile_spec(spec)
    opened = 0
    for text in _texts(44, 1500):
        want = _reference(spec, text) >= 0
        assert (UNESCAPE.gate_open(compiled, text) >= 0) == want, text[:200]
        opened += want
    assert 1000 < opened < 3000  # (both answers asked many times)


def test_closed_only_where_the_python_tests_close():
    closed = 0
    for text in _texts(45, 1500):
        if secrets_public._gate_closed(text):
            closed += 1
            assert not secrets_public._view_may_hold_py(text), text[:200]
        assert secrets_public.view_may_hold(text) == secrets_public._view_may_hold_py(text)
    assert closed > 1000


def test_each_pass_opens_on_its_needle_and_prose_stays_closed():
    rng = random.Random(4)
    prose = " ".join(rng.choice(WORDS) for _ in range(600)).encode()  # (e_odtx4's decoded words)
    assert secrets_public._gate_closed(prose) and not secrets_public._view_may_hold_py(prose)
    spec = secrets_public.gate_passes()
    compiled = secrets_gate.compile_spec(spec)
    for k, (table, _, needles) in enumerate(spec):
        back = {} if table is None else {t: b for b, t in reversed(list(enumerate(table)))}
        raw = bytes(back.get(c, c) for c in needles[-1])
        assert _reference(spec, raw) >= 0, (k, raw)
        for text in (raw, b"\x01" + raw + b"\x01", prose[:999] + raw + prose[999:]):
            assert UNESCAPE.gate_open(compiled, text) >= 0, (k, raw)
    # a memoryview is read in place, as `markers_of` reads it
    assert UNESCAPE.gate_open(compiled, memoryview(b"..ghp_..")[1:]) >= 0
    assert UNESCAPE.gate_open(compiled, memoryview(b"..ghp_..")[3:]) == -1


HEAD = 4 + 2 * 65536 + 2 * 256  # (passes, pairs, ones: `gate_open`'s layout)


def _one_pass(kind: int, size: int, classes: int, cls: bytes, cells: bytes = b"") -> bytes:
    return ((1).to_bytes(4, "little") + bytes(HEAD - 4)
            + b"".join(v.to_bytes(4, "little") for v in (kind, size, classes, 0, 0)) + cls + cells)


@pytest.mark.parametrize("spec", [
    b"", b"\x01\x00\x00\x00", (1).to_bytes(4, "little") + bytes(HEAD - 4),
    _one_pass(0, 0, 1, bytes(256)),  # (an automaton of no state)
    _one_pass(7, 1, 1, bytes(256)),  # (no such kind)
    _one_pass(1, 0, 2, bytes(256)),  # (a run of 0)
    _one_pass(0, 1, 2, bytes(255) + b"\x02", bytes(4)),  # (a class past the classes)
    _one_pass(0, 1, 1, bytes(256), (5).to_bytes(2, "little")),  # (a cell past the last row)
    _one_pass(0, 2, 1, bytes(256), bytes(2)),  # (cells cut short)
])
def test_a_malformed_spec_is_a_value_error(spec):
    with pytest.raises(ValueError):
        UNESCAPE.gate_open(spec, b"text")


def test_a_spec_cut_short_is_a_value_error():
    good = secrets_gate.compile_spec(secrets_public.gate_passes())
    for cut in (5, HEAD - 1, HEAD + 280, len(good) - 1):
        with pytest.raises(ValueError):
            UNESCAPE.gate_open(good[:cut], b"no needle of any pass here \x01" * 4)


# One text each of `_view_may_hold_py`'s tests opens on, written out (not taken from
# `gate_passes`, whose passes they check)
OPENERS = {
    "escape": b"\\\\x41\\\\x4b", "percent": b"100%", "scan_line marker": b"ghp_",
    "family": b"LTAI", "plain family": b"dapi", "octal escape": b"\\101",
    "shell quotes": b"'\\\"'", "ascii85": b"<~", "uuencode": b"begin 644 k",
    "hex dump": b" de ad be ef 01 02 03 04 05 06", "xxd": b" dead beef 0102 0304 ",
    "decimal list": b"104, 101, 108, 108, 111", "char dump": b"   a   b   c   d   e   f",
    "octal dump": b" 101 102 103 104 105", "base32 row": b" MFRGGZDFMZTWQ2LKNNWG23TP ",
    "numbers": b" " + b"1 2 3 4 5 6 7 8 9 " * 3, "token head": b"EyJ", "key block": b"PRIVATE KEY",
    "url": b"://", "named": b"Passw", "base64 run": b"abcd/efgh/ijkl/mnop/qrst/uvwx",
    "reader run": b"ab-cd_EF+gh=ij-k1", "format": b"\xe2\x80\x8b", "format escaped": b"\\u200b",
}


@pytest.mark.parametrize("name", sorted(OPENERS))
def test_the_c_pass_is_open_where_each_python_test_opens(name):
    rng = random.Random(name)
    prose = " ".join(rng.choice(WORDS) for _ in range(300)).encode()
    text = prose[:900] + OPENERS[name] + prose[900:]
    assert secrets_public._gate_closed(prose)
    assert secrets_public._view_may_hold_py(text)
    assert not secrets_public._gate_closed(text)
    assert secrets_public.view_may_hold(text)
