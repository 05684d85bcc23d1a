"""Hostile inputs from the session-8 independent pass (issue 15, "as the judges will run it"):
the shapes that found bugs, each asserting the exact outcome through the CLI. The pass's
corpus and runner are qa/hostile_s8.py and qa/run_hostile.py (kept outside the suite)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile

import pytest
from conftest import REPO
from hostile_corpus import run_cli, valid_log_bytes

META = (1 << 20) + 512  # one block over the bound on a long name or a pax header


def _tar(path, headers: list[tuple[str, bytes, bytes]]) -> None:
    """A tar of (name, type, data) members, each header written as given."""
    with open(path, "wb") as fh:
        for name, kind, data in headers:
            info = tarfile.TarInfo(name)
            info.type, info.size, info.mtime = kind, len(data), 1_780_000_000
            fh.write(info.tobuf(format=tarfile.USTAR_FORMAT))
            fh.write(data + b"\0" * (-len(data) % 512))
        fh.write(b"\0" * 1024)


@pytest.mark.parametrize("kind,what", [(tarfile.GNUTYPE_LONGNAME, "long name/link"),
                                       (tarfile.XHDTYPE, "pax")])
def test_a_huge_long_name_or_pax_header_is_refused_before_it_is_read(capsys, tmp_path, kind,
                                                                     what):
    """tarfile reads a GNU long name or a pax header whole into memory: a 600 MiB one (2.7 MB
    as .tar.gz) ended in `internal error (MemoryError)`, exit 2, under the 512 MiB limit, for
    verify, `--json` and decide. Such a header is now refused by its size field, unread:
    first in the archive, the archive is unreadable; after the log, the listing stops there
    (archive.corrupt) and the log is still verified."""
    big = b"a" * (META - 1) + b"\n" if kind == tarfile.XHDTYPE else b"a" * META
    if kind == tarfile.XHDTYPE:  # a pax record is "<length> key=value\n"
        body = b" comment=" + big
        n = len(body) + 7
        big = str(n).encode() + body
        assert len(big) == n
    log = valid_log_bytes()
    first = tmp_path / "first.tar"
    _tar(first, [("././@Meta", kind, big), ("agent-log.jsonl", tarfile.REGTYPE, log)])
    refusal = (f"a {what} header of {len(big)} bytes (more than 1048576 bytes): refused, "
               "not read")
    code, out, err = run_cli(capsys, "verify", first)
    assert code == 2 and err == f"moderator-app: {first}: not a readable tar archive: {refusal}\n"
    code, out, err = run_cli(capsys, "verify", "--json", first)
    assert code == 2 and json.loads(out)["verdict"] == "unreadable"
    after = tmp_path / "after.tar"
    _tar(after, [("agent-log.jsonl", tarfile.REGTYPE, log), ("././@Meta", kind, big),
                 ("video.mp4", tarfile.REGTYPE, b"x")])
    code, out, _ = run_cli(capsys, "verify", "--json", after)
    report = json.loads(out)
    corrupt = [f["message"] for f in report["findings"] if f["rule"] == "archive.corrupt"]
    assert corrupt == [f"the archive cannot be read past 1 members: {refusal}"]
    assert report["events"] == log.count(b"\n") and code == 1


def test_a_long_name_of_honest_length_is_still_read(capsys, tmp_path):
    """The bound leaves honest long names alone: a 300-character folder name (GNU format)."""
    buf = io.BytesIO()
    name = "d" * 300 + "/agent-log.jsonl"
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        info = tarfile.TarInfo(name)
        data = valid_log_bytes()
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    path = tmp_path / "long.tar"
    path.write_bytes(buf.getvalue())
    code, out, _ = run_cli(capsys, "verify", "--json", path)
    report = json.loads(out)
    assert report["events"] == data.count(b"\n")
    assert not [f for f in report["findings"] if f["rule"].startswith("archive.")]


def _ro_mount_works() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _ro_mount_works(), reason="needs root and mount namespaces")
def test_deciding_into_a_read_only_ledger_says_read_only_not_corrupt(capsys, tmp_path):
    """`decide` into a ledger on a read-only mount said the ledger "is corrupt or unreadable
    (unable to open database file) ... Move it aside and restore from a backup": advice to
    replace an intact ledger. It now says the ledger is read-only, and records nothing."""
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "agent-log.jsonl").write_bytes(valid_log_bytes())
    folder = tmp_path / "ro"
    folder.mkdir()
    store = folder / "decisions.sqlite3"
    decide = (f"{sys.executable} -m moderator_app decide {sub} --reject --reason other "
              f"--note n --store {store}")
    assert run_cli(capsys, *decide.split()[3:])[0] == 0
    script = f"mount --bind -o ro {folder} {folder} && {decide}"
    r = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True,
                       cwd=REPO, timeout=120)
    assert r.returncode == 2
    assert r.stderr == (f"moderator-app: decision NOT recorded: the decision ledger {store} is "
                        "read-only (the file, its folder or its mount cannot be written): "
                        "nothing can be recorded there. `decisions list`, `export` and "
                        "`verify` still read it; record in a writable ledger (--store).\n")
    code, out, _ = run_cli(capsys, "decisions", "verify", "--store", store)
    assert code == 0 and "intact: 1 decisions" in out


def test_a_linked_video_in_a_folder_is_named_not_only_missing(capsys, tmp_path):
    """A folder whose video is a symbolic link said only `input.no_video`; the link is now
    named (`input.link`, a warning) and still never followed (QA, session 8)."""
    elsewhere = tmp_path / "elsewhere.mp4"
    elsewhere.write_bytes(b"\0" * 64)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "agent-log.jsonl").write_bytes(valid_log_bytes())
    (sub / "run.mp4").symlink_to(elsewhere)
    code, out, _ = run_cli(capsys, "verify", "--json", sub)
    assert code == 1
    found = [(f["rule"], f["severity"], f["file"]) for f in json.loads(out)["findings"]]
    assert ("input.link", "warning", "run.mp4") in found
    assert ("input.no_video", "error", None) in found


def test_a_linked_log_in_a_folder_is_named_not_only_missing(capsys, tmp_path):
    """A folder whose agent-log.jsonl is a symbolic link (to /proc/self/environ here) said
    only "no agent-log.jsonl ... found (found: video.mp4)" while `ls` shows it; the link is
    now named in the error, and still never followed (QA session 14, G6)."""
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "video.mp4").write_bytes(b"\0" * 64)
    (sub / "agent-log.jsonl").symlink_to("/proc/self/environ")
    code, _, err = run_cli(capsys, "verify", sub)
    assert code == 2
    assert err == (f"moderator-app: {sub}: no agent-log.jsonl or events.jsonl(.zst) found "
                   "(found: video.mp4); agent-log.jsonl is a symbolic link: refused, never "
                   "followed\n")


def test_withhold_into_a_missing_folder_names_the_output_not_a_temp_file(capsys, tmp_path):
    """The error named our hidden temporary file (`.x.jsonl.lo_z0m1o.tmp`), QA session 8."""
    log = tmp_path / "agent-log.jsonl"
    log.write_bytes(valid_log_bytes())
    out = tmp_path / "missing" / "x.jsonl"
    code, _, err = run_cli(capsys, "withhold", log, "-o", out)
    assert code == 2
    assert f"cannot write {out}: No such file or directory" in err
    assert ".tmp" not in err
