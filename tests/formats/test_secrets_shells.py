"""Keys in two shells' escapes (session 39, mixed; issue 15, QA s38 T5): PowerShell 7's
`` `u{HH} `` (h38_05: a GitLab deploy token as `` "`u{67}`u{6c}..." ``) is read as ES6's `\\u{HH}`,
and fish's unquoted `\\XHH` (h38_06: an Atlassian token as `AT\\x41\\X54\\124...`, literal
runs, `\\xHH`, `\\XHH` and octal by turns) as `\\xHH`: the engine, verify's gate and `withhold`
name and refuse them alike; honest look-alikes (colour codes, one `` `u{2714} ``, fish's `\\X41`
among spaces) stay quiet."""

from __future__ import annotations

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_decode
from moderator_app.core.formats.secrets_decode import ESCAPES, MIXED, UNICODE

KEYS = [("GitLab deploy token", "gldt-" + "QA38pwshUnicode0aB1cD2eF3gH4i"),
        ("Atlassian token", "ATATT3" + "xFfGF0QA39fishMixedEscapes0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0u"
         "V1wX2yZ3aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV4wX5yZ6a=7B8C9D0E"),
        ("GitHub token", "ghp_" + "QA39shellView0aB1cD2eF3gH4iJ5kL6mN7oP8q"),
        ("Stripe secret key", "sk_live_" + "QA39shell0aB1cD2eF3gH4iJ5kL6mN7oP8")]


def powershell(key: str, zeros: int = 0) -> str:
    return "".join(f"`u{{{'0' * zeros}{ord(c):x}}}" for c in key)


def fish(key: str) -> str:
    """QA s38's h38_06 spelling: 2 literal, `\\xNN`, `\\XNN`, `\\NNN` by turns."""
    out = []
    for i, c in enumerate(key):
        k = i % 5
        out.append(c if k < 2 and c.isalnum() else f"\\x{ord(c):02x}" if k == 2
                   else f"\\X{ord(c):02X}" if k == 3 else f"\\{ord(c):03o}")
    return "".join(out)


@pytest.mark.parametrize("zeros", [0, 2])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_powershell_escapes_is_refused_and_named(tmp_path, zeros, label, key):
    summary = f'PS> $env:CI_DEPLOY_TOKEN = "{powershell(key, zeros)}"\nPS> ./deploy.ps1'
    refused_and_named(tmp_path, obs_line(summary), UNICODE, label)


@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_fish_mixed_escapes_is_refused_and_named(tmp_path, label, key):
    summary = f"$ cat ~/.config/fish/conf.d/jira.fish\nset -gx JIRA_API_TOKEN {fish(key)}"
    refused_and_named(tmp_path, obs_line(summary), MIXED, label)


@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_fish_upper_hex_alone_is_read_by_the_x_view(tmp_path, label, key):
    summary = "set -gx TOKEN " + "".join(f"\\X{ord(c):02X}" for c in key)
    refused_and_named(tmp_path, obs_line(summary), ESCAPES, label)


@pytest.mark.parametrize("summary", [
    'PS> Write-Host "`e[32mOK`e[0m `u{2714} done"',
    'PS> Write-Host "`u{1F600}`u{2714}`u{00e9}`u{263A} smile"',
    'PS> "`u{41}`u{42} and `u{43}`u{44}" | Out-File abc.txt',
    "$ echo \\x1b\\[1mbold\\x1b\\[0m \\X41\\X42 \\101\\102\nbold AB AB",
    "C:\\Xilinx\\XAMPP\\X86\\XC4 and \\x41 \\X42",
    "set -gx GREETING H\\X65llo\\x20W\\157rld\\X21",
])
def test_honest_shell_escapes_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))


def test_the_rewrites_keep_the_length_and_columns():
    raw = b'x "`u{67}`u{6c}`u{64}`u{74}" \\X41'
    assert len(secrets_decode.runs.ps_as_u(raw)) == len(raw)
    assert secrets_decode.runs.fish_as_x(raw).endswith(b"\\x41")
    (how, view, text, column), = [v for v in secrets_decode.views(raw) if v[0] == UNICODE]
    assert (view, column) == (b'x "gldt" \\X41', 4)
