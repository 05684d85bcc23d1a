"""Keys in a bash `$'...'` or a C string whose escapes are of several kinds (session 38, views;
issue 15, QA s37 T5 h37_05): `$'L\\124\\x41I\\065\\x66Q...'` mixes literal characters, octal
and hex escapes, so each kind's run (the `\\x`, `\\u` and octal views) is broken by the next
kind's escape and `withhold` published it. The mixed view (`secrets_decode.MIXED`) decodes
the three kinds in one line."""

from __future__ import annotations

import random

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_decode
from moderator_app.core.formats.secrets_decode import ESCAPES, MIXED

KEYS = [("Alibaba key id", "LTAI" + "5fQA38mixedEsc0aB1cD"),
        ("GitHub token", "ghp_" + "QA38mixedView0aB1cD2eF3gH4iJ5kL6mN7oP8q"),
        ("Stripe secret key", "sk_live_" + "QA38mixed0aB1cD2eF3gH4iJ5kL6mN7oP8"),
        ("Sentry token", "sntrys_" + "QA38mixedView0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gHi")]


def _o(c: str) -> str:
    return f"\\{ord(c):03o}"


def _x(c: str) -> str:
    return f"\\x{ord(c):02x}"


def _u(c: str) -> str:
    return f"\\u{ord(c):04x}"


def by_turns(key: str) -> str:
    """QA s37's h37_05 spelling: every third character literal, the others octal or hex by
    turns."""
    return "".join(c if i % 3 == 0 else _o(c) if i % 3 == 1 else _x(c) for i, c in enumerate(key))


def at_random(key: str, seed: int = 38) -> str:
    """Each character literal (at most 3 in a row), octal, hex or `\\u`, drawn at random."""
    rng, out, letters = random.Random(seed), [], 0
    for c in key:
        kind = rng.choice("loxu" if letters < 3 else "oxu")
        letters = letters + 1 if kind == "l" else 0
        out.append(c if kind == "l" else {"o": _o, "x": _x, "u": _u}[kind](c))
    return "".join(out)


@pytest.mark.parametrize("spelled", ["turns", "random", "c", "u_x", "newlines"])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_mixed_escapes_is_refused_and_named_alike(tmp_path, spelled, label, key):
    summary = {"turns": f"$ cat ~/.aliyunrc\nexport ACCESS_KEY_ID=$'{by_turns(key)}'\nexport R=1",
               "random": f"export KEY=$'{at_random(key)}'",
               "c": f'static const char *k = "{at_random(key, 7)}";',
               "u_x": "export KEY=$'" + "".join(_u(c) if i % 2 else _x(c)
                                                for i, c in enumerate(key)) + "'",
               "newlines": f"printf $'user=admin\\n\\ttoken={at_random(key, 3)}\\n'"}[spelled]
    # (a line whose one kind runs 4+ in a row may be named by that kind's view, the rest of
    # its escapes decoded by the view's second reading: either way once)
    refused_and_named(tmp_path, obs_line(summary), MIXED if spelled == "turns" else None, label)


def test_qa_s37_h37_05_line_is_named_as_an_alibaba_key(tmp_path):
    summary = ("$ cat ~/.aliyunrc\nexport ALIBABA_CLOUD_ACCESS_KEY_ID=$'L\\124\\x41I\\065\\x66Q"
               "\\101\\x337\\155\\x69x\\145\\x64E\\163\\x630\\141\\x421\\143\\x44'\n"
               "export REGION=cn-hangzhou")
    hit = refused_and_named(tmp_path, obs_line(summary), MIXED, "Alibaba key id")
    assert hit.excerpt.startswith("LTAI"), hit


@pytest.mark.parametrize("summary", [
    "$ PS1=$'\\x1b[1m\\u@\\h\\x1b[0m $ '\n$ printf '\\t\\101\\102\\n' | cat -A",
    '$ echo -e "\\033[32mok\\033[0m done\\n\\0101 grade"\nok done',
    "$ export GREETING=$'Caf\\u00e9 cr\\xe8me\\tnow open'\n$ echo \"$GREETING\"",
    "$ printf $'H\\x65llo\\041 W\\157rld \\u0021\\x21\\n'",
    "password: \\x1b[1m\\x1b[0m\\x1b[2m\\x1b[0m hunter \\x1b[1m*****\\x1b[0m\\x1b[0m",
    "$ printf $'\\x1b[1mPassword\\x1b[0m: \\x2a\\x2a\\x2a\\x2a\\101\\102\\u0043 ok'",
    "C:\\Users\\x41ll\\101dmin\\x20docs\\u0041pp\\101 and \\x1b[0m",
])
def test_honest_mixed_escapes_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))


def test_mixed_decodes_each_kind_in_one_line():
    raw = b"L\\124\\x41I\\\\065\\\\x66\\u0051\\\\u0041\\0101 \\033[0m \\xe8 \\u00e9"
    assert secrets_decode._mixed(raw) == b"LTAI5fQAA \\033[0m \\xe8 \\u00e9"


def test_one_kind_alone_opens_no_mixed_view():
    """A line of one kind is that kind's view's: the mixed view is asked only where 2+ kinds
    are (e_bashhex's `\\x` lines pay nothing for it)."""
    raw = b"export K=$'" + "".join(_x(c) for c in KEYS[1][1]).encode() + b"'"
    assert [how for how, *_ in secrets_decode.views(raw)] == [ESCAPES]


def with_gaps(key: str, gap: int) -> str:
    """One character in every `gap` + 1 a `\\xHH` escape, the others literal (review R2 of
    session 38: `$'\\x67h\\x70_\\x75B...'`, bash's commonest hex spelling)."""
    return "".join(_x(c) if i % (gap + 1) == 0 else c for i, c in enumerate(key))


@pytest.mark.parametrize("gap", [1, 2, 3])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_hex_escapes_with_literals_between_is_refused_and_named(tmp_path, gap, label,
                                                                        key):
    summary = f"$ cat ~/.env\nexport KEY=$'{with_gaps(key, gap)}'\nexport R=1"
    refused_and_named(tmp_path, obs_line(summary), ESCAPES, label)


def test_hex_escapes_four_literals_apart_are_no_run():
    """The `\\x` view's run allows 0-3 literals between escapes, as the octal view's does;
    four apart is no run (documented in docs/rules-community.md, "Not read")."""
    assert secrets_decode._ESC_RUN.search(with_gaps(KEYS[1][1], 3).encode())
    assert not secrets_decode._ESC_RUN.search(with_gaps(KEYS[1][1], 4).encode())


@pytest.mark.parametrize("summary", [
    "$ printf $'\\x1b[0m\\x1b[1m\\x1b[0m\\x1b[2mok\\x1b[0m\\n'",
    "$ PS1=$'\\x1b[32m\\x5b\\x75@\\x68\\x5d\\x1b[0m $ '",
    "$ echo -e 'Caf\\xc3\\xa9 cr\\xc3\\xa8me br\\xc3\\xbbl\\xc3\\xa9e'",
    "$ printf 'H\\x65llo W\\x6frld\\x21 \\x41BC\\x44 done'",
])
def test_honest_hex_escapes_with_literals_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))
