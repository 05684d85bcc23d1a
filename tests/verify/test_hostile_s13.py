"""Hostile inputs and conditions of session 13 (issue 15; docs/qa/session13-hostile.md).

Every test asserts the exact outcome (exit code, finding, message). Durations are never
asserted; timeouts are hang guards only.
"""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest
from conftest import SAMPLES
from hostile_corpus import run_cli

LEDGER_PATH_KINDS = ["fifo", "dev_null", "socket", "dir_in_place", "dangling_link", "link_loop"]


def _hostile_ledger_path(tmp_path: Path, kind: str) -> Path:
    """A store path at which no ledger can be read: what stands there instead."""
    path = tmp_path / "decisions.sqlite3"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_null":
        return Path("/dev/null")
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
    elif kind == "dir_in_place":  # `--store DIR`, where DIR/decisions.sqlite3 is a folder
        path.mkdir()
        return tmp_path
    elif kind == "dangling_link":
        os.symlink(tmp_path / "gone.sqlite3", path)
    else:
        os.symlink(tmp_path / "loop-b", path)
        os.symlink(path, tmp_path / "loop-b")
    return path


@pytest.mark.parametrize("kind", LEDGER_PATH_KINDS)
def test_every_decisions_command_exits_2_on_a_store_path_that_holds_no_ledger(
        capsys, tmp_path, kind):
    """Session 12 left `decisions verify` on a FIFO at exit 1 ("not intact") where `list`,
    `export` and `decide` said 2 ("not done"); a dangling link or a link loop was "no ledger
    yet (0 decisions)", exit 0, and `decide` would have created the file the link points to.
    Now every command exits 2 and names what stands there; nothing is created."""
    store = _hostile_ledger_path(tmp_path, kind)
    before = sorted(p.name for p in tmp_path.iterdir())
    commands = [("decisions", "verify"), ("decisions", "list"),
                ("decisions", "export", "--format", "jsonl", "--out", tmp_path / "out.jsonl"),
                ("decide", SAMPLES / "community-sample", "--reject", "--reason", "other",
                 "--note", "hostile store path")]
    for args in commands:
        code, out, err = run_cli(capsys, *args, "--store", store)
        assert code == 2, (args, code, out, err)
        expected = {"dangling_link": "is a symbolic link to a file that does not exist",
                    "link_loop": "Too many levels of symbolic links"}.get(kind, "is not a file")
        assert expected in err, (args, err)
        assert "intact" not in out and "No decisions" not in out, out
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no export, no ledger made
    if kind == "fifo":
        assert stat.S_ISFIFO(store.stat().st_mode)
    assert not (tmp_path / "gone.sqlite3").exists()


# -- SIGINT before main() (known item 2) ------------------------------------------------------
# A `sitecustomize` on PYTHONPATH (imported by `site`, before any code of ours) signals the
# process the moment `moderator_app.__main__` is looked up, i.e. after the package's first
# statement and before `main()`: on session 12's tree that was Python's KeyboardInterrupt
# traceback (exit 1 or -2); now the package itself holds the signal and the command ends
# with its own "interrupted", exit 130. Deterministic: no delay is guessed.
SIGNAL_AT_MAIN_LOOKUP = """
import os, signal, sys
class SignalAtMainLookup:
    def find_spec(self, name, path=None, target=None):
        if name == "moderator_app.__main__":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, SignalAtMainLookup())
"""


@pytest.mark.parametrize("entry", ["console_script", "python_m"])
def test_a_sigint_between_the_package_import_and_main_is_an_ordinary_interrupt(
        tmp_path, entry):
    import subprocess
    import sys

    (tmp_path / "sitecustomize.py").write_text(SIGNAL_AT_MAIN_LOOKUP)
    exe = Path(sys.executable).parent / "moderator-app"
    if entry == "console_script" and not exe.exists():
        pytest.skip("no console script (not installed by `make setup`)")
    cmd = ([str(exe)] if entry == "console_script" else [sys.executable, "-m", "moderator_app"])
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([*cmd, "verify", str(SAMPLES / "community-sample")], env=env,
                          capture_output=True, timeout=300, cwd=tmp_path)
    assert b"Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert proc.stderr.endswith(b"moderator-app: interrupted\n"), proc.stderr
    assert proc.stdout == b""


def test_the_package_imported_as_a_library_blocks_no_signal():
    """Only the program's own start holds signals: pytest (this process) imported the
    package, and SIGINT/SIGTERM must still reach it."""
    import signal

    import moderator_app

    assert moderator_app._started_as_the_program() is False
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert signal.SIGINT not in blocked and signal.SIGTERM not in blocked


@pytest.mark.parametrize("kind", ["link_to_file", "link_to_dev_zero", "dangling_link", "fifo"])
def test_a_ledger_whose_wal_is_not_a_regular_file_is_named_and_never_opened(
        capsys, tmp_path, kind):
    """SQLite refused such a `-wal` with "unable to open database file", which the ledger
    reported as "corrupt or unreadable ... restore from a backup" (an intact ledger)."""
    store = tmp_path / "decisions.sqlite3"
    decide = ("decide", SAMPLES / "community-sample", "--reject", "--reason", "other",
              "--note", "wal", "--store", store)
    assert run_cli(capsys, *decide)[0] == 0
    wal = tmp_path / "decisions.sqlite3-wal"
    wal.unlink(missing_ok=True)
    target = tmp_path / "elsewhere.bin"
    target.write_bytes(b"precious")
    if kind == "fifo":
        os.mkfifo(wal)
    else:
        os.symlink({"link_to_file": target, "link_to_dev_zero": Path("/dev/zero"),
                    "dangling_link": tmp_path / "gone"}[kind], wal)
    what = "not a file" if kind == "fifo" else "a symbolic link"
    for args, code in ((("decisions", "verify"), 1), (("decisions", "list"), 2),
                       (decide[:-2], 2)):
        got, out, err = run_cli(capsys, *args, "--store", store)
        assert got == code, (args, got, out, err)
        assert f"decisions.sqlite3-wal is {what}" in err, err
        assert "corrupt" not in err and "intact" not in out
    assert target.read_bytes() == b"precious"
    assert not (tmp_path / "gone").exists()


# -- one role, two files: never a pass on the honest one (session 13 classes t07-t09) --------
def _sample_log_failing() -> tuple[bytes, bytes]:
    log = (SAMPLES / "community-sample" / "agent-log.jsonl").read_bytes()
    lines = log.splitlines()
    lines[2] = lines[2][: len(lines[2]) // 2]  # log.json on line 3
    return log, b"\n".join(lines) + b"\n"


def _tar(path: Path, members: list[tuple[str, bytes]]) -> Path:
    import io
    import tarfile

    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1_780_000_000
            tf.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("layout", ["depths", "nfc_nfd"])
@pytest.mark.parametrize("honest_first", [True, False])
def test_two_logs_in_one_submission_never_pass(capsys, tmp_path, layout, honest_first):
    """`agent-log.jsonl` twice: at two depths, or in two folders whose names differ only in
    Unicode normalisation (NFC 'runé' and NFD 'runé'). Whichever comes first, the verdict is
    fail with `input.several_logs`: a submitter cannot have the honest copy verified while
    the other is what a reader of the archive sees."""
    import json
    import unicodedata

    honest, failing = _sample_log_failing()
    first, second = (honest, failing) if honest_first else (failing, honest)
    video = (SAMPLES / "community-sample" / "video.mp4").read_bytes()
    if layout == "depths":
        names = ["agent-log.jsonl", "sub/agent-log.jsonl", "video.mp4"]
    else:
        nfc, nfd = (unicodedata.normalize(f, "runé") for f in ("NFC", "NFD"))
        names = [f"{nfc}/agent-log.jsonl", f"{nfd}/agent-log.jsonl", f"{nfc}/video.mp4"]
    tar = _tar(tmp_path / "sub.tar", list(zip(names, [first, second, video], strict=True)))
    code, out, _ = run_cli(capsys, "verify", "--json", tar)
    report = json.loads(out)
    assert code == 1 and report["verdict"] == "fail", report["verdict"]
    rules = {f["rule"] for f in report["findings"] if f["severity"] == "error"}
    assert "input.several_logs" in rules, rules


def test_a_zip_whose_directory_and_header_disagree_on_the_logs_name_does_not_pass(
        capsys, tmp_path):
    """The central directory says `agent-log.jsonl`, the local header `agent-log.jsonx`
    (over an honest log): the member is not read as the log on the directory's word. Since
    session 28 (d12a064, s28 hostile sweep) such a member is refused outright, as a
    streaming unzip would see another file: the submission is unreadable (exit 2), the
    message naming both names."""
    import io
    import json
    import struct
    import zipfile

    honest, _ = _sample_log_failing()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("agent-log.jsonl", honest)
        zf.writestr("video.mp4", (SAMPLES / "community-sample" / "video.mp4").read_bytes())
    data = bytearray(buf.getvalue())
    n = struct.unpack("<H", data[26:28])[0]
    assert bytes(data[30:30 + n]) == b"agent-log.jsonl"
    data[30:30 + n] = b"agent-log.jsonx"
    (tmp_path / "sub.zip").write_bytes(bytes(data))
    code, out, _ = run_cli(capsys, "verify", "--json", tmp_path / "sub.zip")
    report = json.loads(out)
    assert (code, report["verdict"]) == (2, "unreadable")
    assert "its local header names 'agent-log.jsonx'" in report["error"], report["error"]
