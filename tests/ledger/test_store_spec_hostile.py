"""Store paths and addresses that name no usable ledger (session 14, issue 15, QA F5).

Every command that takes a store (`decide`, `decisions list/verify/export/copy`, `queue`,
`claim`, `release`) and the workstation's `--store` refuse them with exit 2 and a plain
message: nothing is created (not in the current folder either), and an address that may
hold a password is never printed. Before: `--store ""` was the current folder
(./decisions.sqlite3, exit 0), `postgresql+psycopg://u:PW@h/db` and four other shapes were
SQLite paths printed with the password (exit 0), and `decisions verify` under a regular
file said "cannot be opened: Not a directory" without naming the file in the way.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import SAMPLES
from hostile_corpus import run_cli

SUB = SAMPLES / "community-sample"
SECRET = "s3cr3t-Pw"


def _commands(tmp_path: Path) -> dict[str, tuple]:
    """Each command that takes a store, without its `--store` (appended by the caller)."""
    return {
        "verify": ("decisions", "verify"),
        "list": ("decisions", "list"),
        "export": ("decisions", "export", "--format", "csv", "--out", tmp_path / "o.csv"),
        "decide": ("decide", SUB, "--reject", "--reason", "other", "--note", "f5"),
        "claim": ("claim", SUB, "--reviewer", "ann"),
        "release": ("release", SUB, "--reviewer", "ann"),
        "queue": ("queue", SAMPLES),
    }


# What stands at the store, and the words that must name it.
PATH_KINDS = {
    "empty": ("", "the store path is empty or blank"),
    "blank": ("  ", "the store path is empty or blank"),
    "under_a_file": ("afile/ledger.sqlite3",
                     "afile is a file, not a folder: no ledger can be read or recorded at"),
    "two_under_a_file": ("afile/sub/ledger.sqlite3",
                         "afile is a file, not a folder: no ledger can be read or recorded at"),
    # `Path.is_dir` raised ENAMETOOLONG: an internal error (QA session 14's r08 input)
    "name_too_long": ("x" * 5000, "cannot be opened: File name too long"),
}


def _listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("command", list(_commands(Path("x"))))
@pytest.mark.parametrize("kind", list(PATH_KINDS))
def test_a_store_path_that_names_no_place_is_exit_2_for_every_command(
        capsys, tmp_path, monkeypatch, kind, command):
    """Fails before the fix: `--store ""` exits 0 and makes ./decisions.sqlite3 (decide,
    claim, release) or reads it as "no ledger yet"; `afile/...` is "cannot be opened: Not a
    directory", which does not say which part is in the way."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_bytes(b"")
    before = _listing(tmp_path)
    store, words = PATH_KINDS[kind]
    args = _commands(tmp_path)[command]
    code, out, err = run_cli(capsys, *args, "--store", store)
    assert code == 2, (code, out, err)
    assert words in err, err
    assert "Recorded" not in out and "No decisions" not in out and "intact" not in out
    assert _listing(tmp_path) == before  # no ledger, no head file, no export


@pytest.mark.parametrize("side", ["from", "to"])
@pytest.mark.parametrize("kind", list(PATH_KINDS))
def test_decisions_copy_refuses_a_store_path_that_names_no_place(
        capsys, tmp_path, monkeypatch, kind, side):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_bytes(b"")
    good = tmp_path / "good.sqlite3"
    assert run_cli(capsys, "decide", SUB, "--reject", "--reason", "other", "--note", "f5",
                   "--store", good)[0] == 0
    before = _listing(tmp_path)
    store, words = PATH_KINDS[kind]
    src, dst = (store, tmp_path / "copy.sqlite3") if side == "from" else (good, store)
    code, out, err = run_cli(capsys, "decisions", "copy", "--from", src, "--to", dst)
    assert code == 2, (code, out, err)
    assert err.startswith("moderator-app: not copied: ") and words in err, err
    assert _listing(tmp_path) == before


def test_a_nul_in_the_store_file_is_refused_not_a_traceback(capsys, tmp_path, monkeypatch):
    """A store file is the one way a NUL reaches the store path (argv and the environment
    cannot hold one): `os.stat` raised ValueError, an internal error, before."""
    monkeypatch.chdir(tmp_path)
    store_file = tmp_path / "store.conf"
    store_file.write_bytes(b"led\x00ger.sqlite3\n")
    store_file.chmod(0o600)
    for args in _commands(tmp_path).values():
        code, out, err = run_cli(capsys, *args, "--store-file", store_file)
        assert code == 2, (args, code, out, err)
        assert "the store path holds a NUL character" in err, err
    assert _listing(tmp_path) == ["store.conf"]


# Addresses that are not `postgresql://...` exactly, each holding the password. Each was an
# SQLite path before: printed whole (`No decisions in postgresql+psycopg:/u:PW@h/db`), and
# `decide` made folders named after it.
ADDRESSES = {
    "sqlalchemy_form": f"postgresql+psycopg://mod:{SECRET}@db.example/ledger",
    "space_before": f" postgresql://mod:{SECRET}@db.example/ledger",
    "one_slash": f"postgresql:/mod:{SECRET}@db.example/ledger",
    "other_scheme": f"mysql://mod:{SECRET}@db.example/ledger",
    "keyword_not_listed_before": f"target_session_attrs=any password={SECRET}",
    "password_not_first": f"dbname=ledger password={SECRET}",
    "sslpassword": f"sslpassword={SECRET} host=db.example",
}


@pytest.mark.parametrize("command", list(_commands(Path("x"))))
@pytest.mark.parametrize("kind", list(ADDRESSES))
def test_an_address_that_is_not_postgresql_is_refused_and_never_printed(
        capsys, tmp_path, monkeypatch, kind, command):
    monkeypatch.chdir(tmp_path)
    args = _commands(tmp_path)[command]
    code, out, err = run_cli(capsys, *args, "--store", ADDRESSES[kind])
    assert code == 2, (code, out, err)
    assert SECRET not in out + err
    assert "not shown: it may hold a password" in err, err
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("kind", list(ADDRESSES))
def test_the_same_addresses_from_the_environment_or_a_store_file(
        capsys, tmp_path, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)
    store_file = tmp_path / "store.conf"
    store_file.write_text(ADDRESSES[kind] + "\n")
    store_file.chmod(0o600)
    monkeypatch.setenv("MODERATOR_APP_STORE", ADDRESSES[kind])
    code, out, err = run_cli(capsys, "decisions", "list")
    assert code == 2 and SECRET not in out + err, (code, out, err)
    monkeypatch.delenv("MODERATOR_APP_STORE")
    if kind != "space_before":  # a store file's line is stripped: a valid team address
        code, out, err = run_cli(capsys, "decisions", "verify", "--store-file", store_file)
        assert code == 2 and SECRET not in out + err, (code, out, err)
    assert _listing(tmp_path) == ["store.conf"]


def test_an_empty_store_variable_means_the_default(capsys, tmp_path, monkeypatch):
    """`MODERATOR_APP_STORE= moderator-app ...` is the shell's way to unset it: the default
    per-user file, as before (documented); a blank one names no place and is refused."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MODERATOR_APP_STORE", "")
    code, out, _ = run_cli(capsys, "decisions", "list")
    assert code == 0 and "No decisions in " + str(tmp_path / "data") in out, out
    monkeypatch.setenv("MODERATOR_APP_STORE", "   ")
    code, _, err = run_cli(capsys, "decisions", "list")
    assert code == 2 and "the store path is empty or blank" in err, err
    assert _listing(tmp_path) == []


def test_an_unparsable_team_address_is_exit_2_in_decisions_verify(capsys, tmp_path):
    """`decisions verify` said 1 ("not intact") on an address it could not even parse."""
    code, out, err = run_cli(capsys, "decisions", "verify", "--store",
                             f"postgresql://mod:{SECRET}@[::1/ledger")
    assert code == 2, (code, out, err)
    assert "not a valid PostgreSQL connection string" in err and SECRET not in out + err


@pytest.mark.parametrize("store", ["", "  ", f"postgresql+psycopg://mod:{SECRET}@h/db"])
def test_the_workstation_refuses_the_same_store_before_opening_a_window(tmp_path, store):
    """`moderator-app --store ""` opened with the saved store instead (`args.store or ...`);
    the address forms were SQLite paths. Now exit 2 before Qt starts (no display needed)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY",
                                                              "QT_QPA_PLATFORM")}
    proc = subprocess.run([sys.executable, "-m", "moderator_app", "--store", store],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc
    assert "no display" not in proc.stderr and SECRET not in proc.stdout + proc.stderr
    assert ("empty or blank" in proc.stderr or "not shown" in proc.stderr), proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("host", ["h\u202e.invalid", "a" * 300 + ".invalid"])
def test_a_team_host_name_idna_cannot_encode_is_cannot_reach_not_an_internal_error(
        capsys, tmp_path, monkeypatch, host):
    """A bidi control (or a 300-letter label) in the host: the name lookup raised
    UnicodeError ("encoding with 'idna' codec failed"), an internal error in every command."""
    monkeypatch.chdir(tmp_path)
    dsn = f"postgresql://mod:{SECRET}@{host}/ledger"
    for name, args in _commands(tmp_path).items():
        code, out, err = run_cli(capsys, *args, "--store", dsn)
        assert code == (1 if name == "verify" else 2), (name, code, out, err)
        assert "cannot reach the team store" in err and SECRET not in out + err, err
    assert _listing(tmp_path) == []
