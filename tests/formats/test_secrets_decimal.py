"""Keys spelled as decimal bytes (session 36, issue 15, QA s35 T6 h35_02, review V4): Python's
`bytes([115, 98, ...])`, Node's `{"type":"Buffer","data":[...]}` and `new Uint8Array([...])`
were published by `withhold` and named by neither command. Each list of 8+ numbers between
commas is decoded, alone, and read for the families; honest decimal lists (scores,
coordinates, RGB triples, pixel rows, byte counts, a sentence's bytes, a list named like a
secret) decode to no family's key and stay quiet."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_bytes
from moderator_app.core.formats.secrets import unescape_json
from moderator_app.core.formats.secrets_public import scan_public

SUPABASE = "sbp_" + "3a5f0c1e9d7b2a4c6e8f0a1b3c5d7e9f1a2b4c6d"
KEYS = [("Supabase token", SUPABASE),
        ("Figma token", "figd_" + "QA36decimalBytes0aB1cD2eF3gH4iJ5kL6mN7oP8q"),
        ("Docker token", "dckr_pat_" + "QA36decimalList0aB1cD2eF3gH"),
        ("GitHub token", "ghp_" + "QA36decimalBytes0aB1cD2eF3gH4iJ5kL6m"),
        ("New Relic key", "NRAK-" + "QA36DECIMALBYTES0ABCDEF1234")]


def _rows(key: str, width: int) -> str:
    codes = [str(c) for c in key.encode()]
    return ",\n    ".join(", ".join(codes[i:i + width]) for i in range(0, len(codes), width))


SPELLINGS = {
    "h35_02: Python bytes over rows": lambda k: (
        "tool read_file keys.py returned:\nKEY = bytes([\n    " + _rows(k, 16)
        + ",\n]).decode()"),
    "Node Buffer JSON": lambda k: 'tool returned: {"type":"Buffer","data":['
    + ",".join(str(c) for c in k.encode()) + "]}",
    "Uint8Array": lambda k: "const k = new Uint8Array([" + ",".join(
        str(c) for c in k.encode()) + "]);",
    "a printed list": lambda k: "list(key) = [" + ", ".join(str(c) for c in k.encode()) + "]",
    # (review V4: the gate read `,` or `, ` only; these three were published)
    "Node's console.log(new Uint8Array(b)), columns padded": lambda k: (
        f"Uint8Array({len(k)}) [\n  " + ",\n  ".join(
            ", ".join(f"{c:>3}" for c in k.encode()[i:i + 9]) for i in range(0, len(k), 9))
        + "\n]"),
    "JSON.stringify(b, null, 2), one a line": lambda k: (
        '{\n  "type": "Buffer",\n  "data": [\n    '
        + ",\n    ".join(str(c) for c in k.encode()) + "\n  ]\n}"),
    "pprint.pformat(list(b)), one a line": lambda k: (
        "[" + ",\n ".join(str(c) for c in k.encode()) + "]"),
}


@pytest.mark.parametrize("spelling", list(SPELLINGS))
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_as_decimal_bytes_is_refused_and_named_alike(tmp_path, spelling, label, key):
    refused_and_named(tmp_path, obs_line(SPELLINGS[spelling](key)), secrets_bytes.DECIMALS,
                      label)


def _honest(rnd: random.Random) -> list[str]:
    words = ["rotate", "the", "piece", "left", "drop", "frame", "12", "level", "3", "4200"]
    sentence = " ".join(rnd.choice(words) for _ in range(10))
    return [
        "scores = [" + ", ".join(str(rnd.randint(0, 100)) for _ in range(32)) + "]",
        "path = [" + ", ".join(f"[{rnd.randint(0, 320)}, {rnd.randint(0, 240)}]"
                               for _ in range(20)) + "]",
        "xs = [" + ",".join(str(rnd.randint(32, 126)) for _ in range(40)) + "]",
        "palette = [" + ", ".join(f"({rnd.randrange(256)}, {rnd.randrange(256)}, "
                                  f"{rnd.randrange(256)})" for _ in range(16)) + "]",
        "row 7: [" + ", ".join(str(rnd.randrange(256)) for _ in range(64)) + "]",
        "bytes read: [" + ", ".join(str(rnd.choice([128, 256, 512, 4096, 70000]))
                                    for _ in range(16)) + "]",
        "list(b'...') = [" + ", ".join(str(c) for c in sentence.encode()) + "]",
        '{"type":"Buffer","data":[' + ",".join(str(c) for c in sentence.encode()) + "]}",
        # (put back in its line, this list read `password_attempts = [xP...`: a value named
        # like a secret; read alone, it is 40 random characters of no family)
        "password_attempts = [" + ", ".join(str(rnd.randint(32, 126)) for _ in range(40)) + "]",
        "new Uint8Array([" + ",".join(str(rnd.randrange(256)) for _ in range(32)) + "])",
    ]


@pytest.mark.parametrize("seed", range(5))
def test_honest_decimal_lists_stay_quiet(tmp_path, seed):
    for k, summary in enumerate(_honest(random.Random(seed))):
        sub = tmp_path / str(k)
        sub.mkdir()
        quiet(sub, obs_line(summary))


def test_a_key_after_a_long_list_and_failed_runs_is_named():
    # (300,000 numbers of one list, then runs that fail: 1,000s (no byte), 7 items, floats)
    decoys = (", ".join("65" for _ in range(300_000)) + "; " + " ".join(
        "1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000;" for _ in range(2000))
        + " ".join("1, 2, 3, 4, 5, 6, 7;" for _ in range(2000))
        + " ".join("1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5;" for _ in range(2000)))
    line = obs_line(decoys + " k = [" + ", ".join(str(c) for c in SUPABASE.encode()) + "]")
    hit = scan_public(unescape_json(line))
    assert hit is not None and hit.label == "Supabase token"


@pytest.mark.parametrize("run, got", [
    (b"115, 98, 112, 95, 51, 97, 53, 102", b"sbp_3a5f"),
    (b"115,\\n    98, 112, 95, 51, 97, 53, 102", b"sbp_3a5f"),
    (b"1115, 98, 112, 95, 51, 97, 53, 102, 48", b"bp_3a5f0"),  # (a number's tail: no byte)
])
def test_the_decimal_pattern_reads_a_list_from_its_first_whole_number(run, got):
    m = secrets_bytes.DECIMAL.search(run)
    assert m is not None and secrets_bytes._decimal_bytes(m.group()) == got


# the separators `DECIMAL` reads around a comma (up to 16 spaces, tabs, line breaks, real or
# escaped as a JSON line writes them)
_SEPS = [b",", b", ", b",  ", b",   ", b" , ", b",\\n  ", b",\\n    ", b",\\n ", b",\n ",
         b",\t", b"\\n,\\n", b"," + b" " * 16, b",\\r\\n  "]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(32, 126), st.sampled_from(_SEPS)), min_size=8, max_size=20))
def test_the_gate_opens_wherever_the_pattern_reads_a_list_of_a_keys_bytes(items):
    """Review V4: the gate (`_gates`) is as wide as `DECIMAL` for bytes a key is made of."""
    line = b"data: [" + b"".join(b"%d%s" % (n, sep) for n, sep in items) + b"1]"
    assert secrets_bytes.DECIMAL.search(line) is not None
    assert secrets_bytes._gates(line)[1]


@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
@pytest.mark.parametrize("at", [0, 23, 45])
def test_a_key_among_many_text_code_lists_is_named_by_its_own_list(tmp_path, label, key, at):
    """QA s36 T6: a line of 46 `String.fromCharCode` lists of honest text is read with the
    lists together first (base64 and hex runs are so), then one by one only when together
    they may hold a key; the key in one of them, first, middle or last, is still named and
    refused, by its family, as the decimal list's."""
    words = "captured room - shot the porter ladder, court porter, zodiac level "
    lists = [", ".join(str(c) for c in (words * 2)[k:k + 120].encode()) for k in range(46)]
    lists[at] = ", ".join(str(c) for c in key.encode())
    line = "; ".join(f"String.fromCharCode({x})" for x in lists)
    refused_and_named(tmp_path, obs_line(line), secrets_bytes.DECIMALS, label)


def test_many_text_code_lists_with_no_key_are_quiet(tmp_path):
    words = "captured room - shot the porter ladder, court porter, zodiac level "
    lists = [", ".join(str(c) for c in (words * 2)[k:k + 120].encode()) for k in range(46)]
    quiet(tmp_path, obs_line("; ".join(f"String.fromCharCode({x})" for x in lists)))
