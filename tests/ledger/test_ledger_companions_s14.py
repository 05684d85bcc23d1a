"""The ledger's companions made hostile (session 14 sweep, docs/qa/session14-hostile.md):
session 13 tested a `-wal` symlink or FIFO; here the `-shm` and `-journal`, a `-wal` that is
a folder or a link to itself, a `-shm` on /dev/zero, and the head file as a symlink. Every
command names the file, exits as documented (verify 1, others 2), and writes nothing where
a link points."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import SAMPLES
from hostile_corpus import run_cli

PRECIOUS = b"precious " * 100
DECIDE = ("decide", SAMPLES / "community-sample", "--reject", "--reason", "other", "--note",
          "companions")


def _store(capsys, tmp_path: Path, suffix: str, kind: str) -> tuple[Path, Path]:
    store = tmp_path / "decisions.sqlite3"
    assert run_cli(capsys, *DECIDE, "--store", store)[0] == 0
    other = Path(str(store) + suffix)
    target = tmp_path / "elsewhere.bin"
    target.write_bytes(PRECIOUS)
    other.unlink(missing_ok=True)
    if kind == "link_to_file":
        os.symlink(target, other)
    elif kind == "link_to_itself":
        os.symlink(other, other)
    elif kind == "folder":
        other.mkdir()
    elif kind == "fifo":
        os.mkfifo(other)
    elif kind == "link_to_dev_zero":
        os.symlink("/dev/zero", other)
    return store, target


@pytest.mark.parametrize(("suffix", "kind", "what"), [
    ("-shm", "link_to_file", "a symbolic link"), ("-journal", "link_to_file", "a symbolic link"),
    ("-wal", "link_to_itself", "a symbolic link"), ("-wal", "folder", "not a file"),
    ("-shm", "fifo", "not a file"), ("-shm", "link_to_dev_zero", "a symbolic link")])
def test_every_companion_of_the_ledger_must_be_a_regular_file(capsys, tmp_path, suffix, kind,
                                                              what):
    store, target = _store(capsys, tmp_path, suffix, kind)
    for args, code in ((("decisions", "verify"), 1), (("decisions", "list"), 2),
                       (("decisions", "export", "--format", "jsonl", "--out",
                         tmp_path / "e.jsonl"), 2), (DECIDE, 2)):
        got, out, err = run_cli(capsys, *args, "--store", store)
        assert got == code, (args, got, out, err)
        assert f"decisions.sqlite3{suffix} is {what}" in err, err
        assert "corrupt" not in err and "intact" not in out
    assert target.read_bytes() == PRECIOUS
    assert not (tmp_path / "e.jsonl").exists()


def test_a_head_file_that_is_a_symlink_is_named_without_a_record_number(capsys, tmp_path):
    """`decisions verify` said "first bad record seq None: the head file ... is unreadable"
    (no record is at fault); now "ledger NOT intact: the head file ...". Fails on s14-int."""
    store = tmp_path / "decisions.sqlite3"
    assert run_cli(capsys, *DECIDE, "--store", store)[0] == 0
    head = Path(str(store) + ".head")
    target = tmp_path / "head-elsewhere"
    original = head.read_bytes()
    target.write_bytes(original)
    head.unlink()
    os.symlink(target, head)
    code, out, _ = run_cli(capsys, "decisions", "verify", "--store", store)
    assert code == 1, out
    assert "ledger NOT intact: the head file decisions.sqlite3.head is unreadable" in out, out
    assert "seq None" not in out
    code, _, err = run_cli(capsys, *DECIDE, "--store", store)
    assert code == 2 and "cannot write the head file" in err and "a symlink" in err, err
    assert target.read_bytes() == original  # nothing written through the link
