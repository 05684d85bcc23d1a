"""Hostile inputs and conditions of QA session 12 (issue 15; docs/qa/session12-hostile.md).

Each test runs the real entry point in a child process and asserts the exact outcome.
Durations are never asserted; timeouts are hang guards only.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys

import hostile_corpus as H
import pytest
from conftest import REPO, SAMPLES
from test_hostile_inputs import CACHE, assert_clean, cached, cli, verify_json

PY = sys.executable
HANG_GUARD_S = 300
CACHE_S12 = CACHE / "s12"

# A SIGINT (or SIGTERM) sent to the process itself at the moment orjson's module
# initialisation imports `uuid`: a KeyboardInterrupt raised there left orjson half-built and
# the CLI died with SIGSEGV (what a Ctrl+C 0.01-0.25 s after start did in 10 of 40 runs).
# The moment is found by an import hook, so the test is deterministic.
AT_ORJSON_INIT = """
import os, signal, sys
SIG = getattr(signal, sys.argv[1])
class SignalInsideOrjsonInit:
    fired = False
    def find_spec(self, name, path=None, target=None):
        o = sys.modules.get("orjson")
        if not self.fired and o is not None and not hasattr(o, "dumps") and name == "uuid":
            self.fired = True
            os.kill(os.getpid(), SIG)
        return None
hook = SignalInsideOrjsonInit()
sys.meta_path.insert(0, hook)
from moderator_app.__main__ import main
rc = main(sys.argv[2:])
assert hook.fired, "orjson was imported before the hook could see it"
sys.exit(rc)
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_during_start_up_imports_is_an_ordinary_interrupt(sig):
    sample = SAMPLES / "community-sample"
    proc = subprocess.run([PY, "-c", AT_ORJSON_INIT, sig, "verify", str(sample)],
                          capture_output=True, timeout=HANG_GUARD_S, cwd=REPO)
    assert b"Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 128 + getattr(signal, sig), (proc.returncode, proc.stderr)
    if sig == "SIGINT":
        assert proc.stderr.endswith(b"moderator-app: interrupted\n"), proc.stderr
    assert proc.stdout == b""  # stopped before any verification work


# -- an archive's video member that compresses like no video (known item 2) -------------------
@pytest.mark.parametrize("fmt", ["gz", "zst", "zip"])
def test_a_video_member_that_compresses_like_no_video_is_not_copied_out(tmp_path, fmt):
    """96 MiB of "AB" repeated as `video.mp4` (0x41 768 MiB in a .tgz was written out in
    full, 49-59 s, before the probe said unreadable): refused once 64 MiB are decoded,
    nothing left in the temporary folder, a failing verdict that names why."""
    archive = cached(CACHE_S12, f"repeated-{fmt}", lambda d: H.make_archive_repeated_video(
        d, b"AB", 96 * H.MIB, fmt))[0]
    run = verify_json(tmp_path, archive)  # no traceback, no temp file, peak <= 512 MiB
    assert run.rc == 1
    found = [f for f in run.json()["findings"] if f["file"] == "video.mp4"]
    assert [f["rule"] for f in found] == ["video.unreadable"], found
    assert "64 MiB decoded while" in found[0]["message"], found  # not the probe's words
    assert "not copied out" in found[0]["message"]


# -- a tar whose listing stopped quietly at a damaged header -----------------------------------
@pytest.mark.parametrize("how", ["negative", "garbage"])
def test_a_damaged_header_after_the_first_member_is_named(tmp_path, how):
    """A second header with a negative base-256 size, or of garbage: tarfile took it for the
    archive's end, so the video and what followed were silently absent ("no video")."""
    tar = H.make_tar_damaged_second_header(tmp_path, how)
    run = verify_json(tmp_path, tar)
    assert run.rc == 1
    rules = run.rules()
    assert rules.get("archive.corrupt") == 1, rules
    msg = [f["message"] for f in run.json()["findings"] if f["rule"] == "archive.corrupt"][0]
    assert "cannot be read past 1 members" in msg, msg
    assert ("negative size" in msg) if how == "negative" else ("damaged header" in msg), msg


# -- classes first tried in session 12 that were handled: kept as tests -----------------------
def test_archives_inside_archives_are_not_opened(tmp_path):
    run = verify_json(tmp_path, H.make_nested_archives(tmp_path))
    assert run.rc == 2 and run.json()["verdict"] == "unreadable"
    assert b"found: inner.tar" in run.err, run.err


def test_device_fifo_and_hard_link_members_are_refused(tmp_path):
    run = verify_json(tmp_path, H.make_tar_special_members(tmp_path))
    assert run.rc == 2 and run.json()["verdict"] == "unreadable"
    assert b"found: nothing" in run.err, run.err


def test_a_symlink_loop_as_the_submission_is_unreadable(tmp_path):
    loop = tmp_path / "loop"
    os.symlink(tmp_path / "loop2", loop)
    os.symlink(loop, tmp_path / "loop2")
    run = verify_json(tmp_path, loop)
    assert run.rc == 2
    assert b"Too many levels of symbolic links" in run.err, run.err


def test_a_ledger_that_is_a_fifo_is_refused_and_left_a_fifo(tmp_path):
    """Nobody writes the FIFO: opening it would block for ever (the hang guard would say)."""
    fifo = tmp_path / "ledger.sqlite3"
    os.mkfifo(fifo)
    for args in (["decide", SAMPLES / "community-sample", "--accept"], ["decisions", "list"],
                 ["decisions", "verify"]):
        run = cli(tmp_path, *args, "--store", fifo)
        assert_clean(run)
        assert run.rc in (1, 2) and b"is not a file" in run.err, run.err
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_an_archive_whose_log_is_encrypted_says_so(tmp_path):
    """The only log of a zip flagged encrypted (session 12 QA, h02): the refusal names it, not
    just "found: nothing" (the archive.encrypted finding was lost on the unreadable path)."""
    import zipfile

    z = tmp_path / "sub.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("agent-log.jsonl", b'{"seq":0}\n')
    data = bytearray(z.read_bytes())
    for sig, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # general purpose flag bit 0
        i = data.index(sig)
        data[i + at] |= 1
    z.write_bytes(bytes(data))
    run = verify_json(tmp_path, z)
    assert run.rc == 2 and run.json()["verdict"] == "unreadable"
    assert b"(found: nothing); member 'agent-log.jsonl' is encrypted" in run.err, run.err
