"""Keys spelled as a shell's quotes side by side and as ES6 `\\u{..}` escapes (session 36, issue
15, QA s35 T6 h35_05 / h35_06): `export HF_TOKEN='api_org_'"QA35shellQuo"'tes0a...'` is one
word to `sh`, and `"\\u{78}\\u{61}\\u{69}..."` one string to JavaScript; `withhold` published
both and `verify` named neither. The quotes are read as joined literals (`secrets_join`), the
braces as `\\u` escapes (`secrets_decode`); the gates are the dump gate's one pass (quotes)
and the escapes' `\\\\u` marker (braces)."""

from __future__ import annotations

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_decode
from moderator_app.core.formats.secrets_join import CONCAT

KEYS = [("Hugging Face token", "api_org_" + "QAshellQuotesaBcDeFgHiJkLmNoPqRsTuV"),
        ("xAI key", "xai-" + "QA36es6braces0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3a4b5c6d7e8f9g0h1i2j3k4l5m6"),
        ("Docker token", "dckr_pat_" + "QA36shellQuotes0aB1cD2eF3gH"),
        ("GitHub token", "ghp_" + "QA36shellQuotes0aB1cD2eF3gH4iJ5kL6m")]


def _quoted(key: str, cuts: tuple[int, ...]) -> str:
    at = (0, *cuts, len(key))
    return "".join(f"'{key[a:b]}'" if i % 2 == 0 else f'"{key[a:b]}"'
                   for i, (a, b) in enumerate(zip(at, at[1:], strict=False)))


@pytest.mark.parametrize("cuts", [(3,), (8, 20), (2, 9, 21, 30)])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_shell_quotes_side_by_side_is_refused_and_named_alike(tmp_path, cuts, label,
                                                                       key):
    summary = f"$ cat .envrc\nexport TOKEN={_quoted(key, cuts)}\n"
    refused_and_named(tmp_path, obs_line(summary), CONCAT, label)


@pytest.mark.parametrize("mixed", [False, True])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_es6_brace_escapes_is_refused_and_named_alike(tmp_path, mixed, label, key):
    spelled = "".join(c if mixed and i % 2 else f"\\u{{{ord(c):x}}}" for i, c in enumerate(key))
    summary = f'tool read_file client.js returned: const K = "{spelled}"; fetch(url)'
    refused_and_named(tmp_path, obs_line(summary), secrets_decode.UNICODE, label)


@pytest.mark.parametrize("summary", [
    """echo 'it'"'"'s level 3'; printf '%s'"\\n" "$score" """,
    """sh -c 'echo '"$HOME"'/saves/'"slot_2"'.sav'""",
    """alias go='cd '"/home/player/games"' && ./run'""",
    'const s = "caf\\u{e9} na\\u{ef}ve \\u{1F600}"; const t = "\\u{48}\\u{69}!";',
    'regex /[\\u{41}-\\u{5A}\\u{61}-\\u{7A}]+/u matches letters',
])
def test_honest_shell_quotes_and_brace_escapes_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))
