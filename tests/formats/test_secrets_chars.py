"""Keys printed by `od -c` / `hexdump -c` and spelled as octal escapes (session 37, issue 15,
QA s36 T5 h36_02 / h36_03): `od -An -c ~/.gem/key` shows a key one character a four-wide
cell, and bash's `$'\\101\\107\\105...'` (C's `"\\163\\153..."`) one octal escape a
character; `withhold` published both and `verify` named neither. The dump is read by
`secrets_chars`, the escapes by `secrets_decode`'s octal view; both refused and named alike."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import native, secrets_chars, secrets_decode
from moderator_app.core.formats.secrets_chars import CHARS

KEYS = [("RubyGems key", "rubygems_" + "3f6a9c0e2b4d8f1a7c5e3b9d0f2a4c6e8b1d3f5a7c9e0b2d"),
        ("age secret key", "AGE-SECRET-KEY-" + "1QA36BASHOCTAL0ABCDEFGHJKLMNPQRSTUVWXYZ23456789ACDEFGHJKLMN"),
        ("GitHub token", "ghp_" + "QA37odcDump0aB1cD2eF3gH4iJ5kL6mN7oP8q"),
        ("Stripe secret key", "sk_live_" + "QA37octal0aB1cD2eF3gH4iJ5kL6mN7oP8")]

_ESC = {10: "\\n", 0: "\\0", 9: "\\t", 13: "\\r", 92: "\\\\"}


def _cell(b: int) -> str:
    if b in _ESC:
        return f"{_ESC[b]:>4}"
    return f"{chr(b):>4}" if 32 <= b < 127 else f" {b:03o}"


def od_c(text: str, width: int = 16, offset: str | None = None) -> str:
    """`od -c` of `text` and a line break: `offset` None as `-An`, else its format."""
    data = (text + "\n").encode()
    rows = [("" if offset is None else offset.format(i)) + "".join(map(_cell, data[i:i + width]))
            for i in range(0, len(data), width)]
    return "\n".join(rows + ([] if offset is None else [offset.format(len(data))]))


def octal(text: str, mixed: bool = False) -> str:
    """`text` as octal escapes (`mixed`: every other character as it is)."""
    return "".join(c if mixed and i % 2 else f"\\{ord(c):03o}" for i, c in enumerate(text))


@pytest.mark.parametrize("command, width, offset", [
    ("od -An -c", 16, None), ("od -c", 16, "{:07o}"), ("od -An -c -w8", 8, None),
    ("od -c -w32", 32, "{:07o}"), ("od -Ax -t c", 16, "{:06x}"), ("hexdump -c", 16, "{:07x}"),
    ("od -An -c -w4", 4, None)])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_a_character_dump_is_refused_and_named_alike(tmp_path, command, width, offset,
                                                              label, key):
    summary = f"$ {command} ~/.secrets/key\n{od_c(key, width, offset)}\n"
    refused_and_named(tmp_path, obs_line(summary), CHARS, label)


def test_a_named_value_in_a_dumped_env_file_is_refused(tmp_path):
    text = 'HOME=/root\n\tPATH="/usr/bin"\\\nAWS_SECRET_ACCESS_KEY=QA37wJalrXUtnFEMIK7MDENGbPxRfiCY'
    hit = refused_and_named(tmp_path, obs_line(f"$ od -c .env\n{od_c(text, 16, '{:07o}')}\n"),
                            CHARS)
    assert hit.label in ("value named like a secret", "AWS secret access key"), hit


def test_a_dump_decodes_each_cell_kind():
    """Printable characters, a quote, od's escapes (a backslash too), octal bytes, a space,
    over line breaks with and without offsets, as a JSON line writes them."""
    text = 'a "b"\\c\td\x01\x7f\xff  e'
    raw = obs_line(f"$ od -c f\n{od_c(text, 5, '{:07o}')}\n")
    m = secrets_chars.DUMP.search(raw)
    assert m is not None
    assert secrets_chars._decoded_py(m.group()) == (text + "\n").encode()
    if native.UNESCAPE is not None:
        assert native.UNESCAPE.chars(m.group()) == (text + "\n").encode()


# Cells and breaks as a JSON line writes them (od's escapes' backslash and a quote escaped).
_SOUP = ["   a", "   ~", '   \\"', "    ", "  \\\\n", "  \\\\0", "  \\\\t",
         "  \\\\v", "  \\\\\\\\", " 001", " 377", " 200", " 017", "\\n", "\\r\\n",
         "\\n0000020", "\\n00001a", "\\n0000000f", "  a", "   ", "x", "\\", "   \\\\"]


@pytest.mark.skipif(native.UNESCAPE is None, reason="the C accelerator is not built")
@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.text(st.characters(max_codepoint=255), min_size=4, max_size=200),
       st.sampled_from([4, 5, 8, 16, 32]),
       st.sampled_from([None, "{:07o}", "{:06x}", "{:07x}"]),
       st.lists(st.sampled_from(_SOUP), max_size=120))
def test_c_and_python_agree_on_dumps(text, width, offset, soup):
    """`_unescape.chars` against `_decoded_py` on each `DUMP` match (what `decoded` is asked
    of) of an od -c of random bytes in a JSON line, and of a soup of cells, breaks and bytes
    that are neither."""
    raw = obs_line(f"$ od -c f\n{od_c(text, width, offset)}\n") + "".join(soup).encode()
    runs = [m.group() for m in secrets_chars.DUMP.finditer(raw)]
    assert runs
    for run in runs:
        assert native.UNESCAPE.chars(run) == secrets_chars._decoded_py(run)
    assert secrets_chars._decoded_py(runs[0]) == (text + "\n").encode()


@pytest.mark.skipif(shutil.which("od") is None, reason="no od on this machine")
@pytest.mark.parametrize("flags", [["-c"], ["-An", "-c"], ["-c", "-w8"]])
def test_a_key_file_with_backslashes_dumped_by_real_od_is_one_dump_named_and_refused(tmp_path,
                                                                                    flags):
    """GNU od prints a backslash byte as `   \\` (no escape), which the grammar did not hold:
    the dump was cut at each backslash (an od -c of binary data into a dump every ~16 rows,
    ~9,000 a 11 MB line, review s37 R3). Now one dump, decoded to the file's bytes."""
    label, key = KEYS[2]
    data = f"C:\\Users\\qa\\.config\\gh\\hosts\n{key}\n\\\\srv\\share\n".encode()
    dump = subprocess.run(["od", *flags], input=data, capture_output=True, check=True,
                          env={"LC_ALL": "C"}).stdout.decode()
    assert "   \\" in dump  # (od's backslash cell, this machine's)
    raw = obs_line(f"$ od {' '.join(flags)} ~/.config/gh/hosts\n{dump}")
    runs = [m.group() for m in secrets_chars.DUMP.finditer(raw)]
    assert len(runs) == 1
    assert secrets_chars._decoded_py(runs[0]) == data
    assert secrets_chars.decoded(runs[0]) == data
    refused_and_named(tmp_path, raw, CHARS, label)


@pytest.mark.parametrize("spelled", ["bash", "c", "printf", "mixed", "single", "echo"])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_octal_escapes_is_refused_and_named_alike(tmp_path, spelled, label, key):
    summary = {"bash": f"$ cat env.sh\nexport KEY=$'{octal(key)}'\nsops -d x",
               "c": f'static const char *key = "{octal(key)}";',
               "printf": f"printf '{octal(key)}' > ~/.token",
               "mixed": f"export KEY=$'{octal(key, True)}'",
               "single": f"export KEY=$'{octal(key)}'",
               "echo": f"echo -e '{octal(key).replace(chr(92), chr(92) + '0')}' > key"}[spelled]
    line = obs_line(summary)
    if spelled == "single":  # (one backslash: `\u005c` in the JSON line, decoded by its parser)
        line = line.replace(b"\\\\", b"\\u005c")
    refused_and_named(tmp_path, line, secrets_decode.OCTAL, label)


@pytest.mark.parametrize("summary", [
    # honest dumps: text, a save's bytes, a table four wide
    "$ od -c notes.txt\n" + od_c("level 3 cleared, score 1200; next: boss\n\tpress START", 16,
                                 "{:07o}"),
    "$ od -An -c save.bin\n" + od_c("".join(chr(c) for c in range(0, 256, 3)), 16),
    "   a   b   c   d   e   f   g   h\n8  r   n   b   q   k   b   n   r\n7  p   p   p   p",
    "x   y   z   w   1   2   3   4   5   6   7   8   9   0",
    # octal in file modes and paths, escapes of no key
    "$ chmod 0755 run.sh && stat -c %a run.sh\n0755\n$ umask 022; ls -l\n-rwxr-xr-x 1 root",
    "C:\\Users\\100\\saves\\101\\102\\103 slot\\1\\2 and \\0 and D:\\2024\\1231\\game",
    "echo -e '\\033[31mRed\\033[0m \\033[1;32mGreen\\033[0m' and printf '\\t\\n'",
    "printf '\\110\\145\\154\\154\\157\\054\\040\\167\\157\\162\\154\\144\\041\\n'",
    "regex (\\d+)\\1\\2\\3 backrefs \\100 \\101 \\102",
])
def test_honest_dumps_and_octal_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))


def test_the_gate_is_shut_on_text_without_four_wide_cells():
    assert not secrets_chars.chars_in(b"row ........ row   a  b   c   d   e f")
    assert secrets_chars.chars_in(b"x   r   u   b   y   g")


OCTAL = [
    (b"\\101\\102", b"AB"), (b"\\\\101", b"A"), (b"\\\\\\101", b"\\A"), (b"\\10", b"\\10"),
    (b"\\040\\176\\177", b" ~\\177"), (b"\\033[0m\\000", b"\\033[0m\\000"),
    (b"\\0101\\0060", b"A0"), (b"\\0401", b" 1"), (b"\\0010", b"\\0010"), (b"\\200", b"\\200"),
    (b"\\1011", b"A1"), (b"\\", b"\\"), (b"", b""), (b"\\\\", b"\\\\"),
]


@pytest.mark.parametrize(("raw", "want"), OCTAL)
def test_octal_decodes_each_printable_escape_and_keeps_the_rest(raw, want):
    assert secrets_decode._octal_py(raw) == want
    if native.UNESCAPE is not None:
        assert native.UNESCAPE.octal(raw) == want


@pytest.mark.skipif(native.UNESCAPE is None, reason="the C accelerator is not built")
@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.one_of(st.lists(st.sampled_from(list(b"\\\\01234567 8a\"")), max_size=40).map(bytes),
                 st.binary(max_size=400)))
def test_c_and_python_agree_on_octal_escapes(raw):
    assert native.UNESCAPE.octal(raw) == secrets_decode._octal_py(raw)


@pytest.mark.parametrize("text", [True, False])
def test_a_json_web_token_in_a_dump_is_refused_by_its_dotted_marker(tmp_path, text):
    """The token's pattern is asked where `.eyj` is (session 37, mendods: `eyj` alone, in the
    view of an od -c of binary data, tried it at every byte): a token in a dumped text file,
    and in a dumped binary one (a view that is no text), is still named."""
    token = ("eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiJRQTM3bWVuZG9kcyJ9"
             + ".QA37sig0aB1cD2eF3gH4iJ5kL6mN7oP8")
    body = f"auth {token}\n" if text else "\x00\x01\xff\xfe eyJ \x80 " + token + " \x02\x03"
    summary = f"$ od -c session.bin\n{od_c(body, 16, '{:07o}')}\n"
    refused_and_named(tmp_path, obs_line(summary), CHARS, "JSON web token")
