"""Hostile submissions (issue 15): each input goes through the real CLI in a child process
under an address-space limit, and the test asserts the exact outcome (exit code, findings),
no traceback, no raw control character on stdout/stderr, peak memory at most 512 MiB, and no
temporary file left behind. Durations are never asserted; `timeout` is only a hang guard.

Inputs come from the deterministic generators in `tests/hostile_corpus.py`. The heavy ones
(bombs: small on disk, gigabytes when read) are built once under `.cache/hostile/`.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

import hostile_corpus as H
import pytest
from conftest import REPO

PY = sys.executable
CACHE = REPO / ".cache" / "hostile"
PEAK_LIMIT_MIB = 512
AS_LIMIT = 3 << 30  # a guard against runaway allocation; the bound asserted is the peak RSS
HANG_GUARD_S = 300

# The limits are set by the child itself, first thing, before it imports anything: a
# `preexec_fn` runs between fork and exec in a process that may have threads (not safe).
WRAPPER = """
import os, resource, sys
_as = int(os.environ.get("HOSTILE_AS_LIMIT", "0"))
if _as:
    resource.setrlimit(resource.RLIMIT_AS, (_as, _as))
os.nice(int(os.environ.get("HOSTILE_NICE", "0")))
from moderator_app.cli import main
try:
    rc = main(sys.argv[1:])
except SystemExit as exc:
    rc = exc.code
finally:
    # VmHWM, not RUSAGE_SELF: a child started without preexec_fn is vfork'd, and Linux
    # keeps the parent's (pytest's) high-water mark in ru_maxrss across the exec
    with open("/proc/self/status") as st:
        hwm = [int(x.split()[1]) for x in st if x.startswith("VmHWM:")][0]
    peak = max(hwm, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    with open(os.environ["HOSTILE_PEAK_FILE"], "w") as fh:
        fh.write(str(peak))
sys.exit(rc)
"""


@dataclass
class Run:
    rc: int
    out: bytes
    err: bytes
    peak_mib: float
    tmp_left: list[str]

    def json(self) -> dict:
        return json.loads(self.out)

    def rules(self) -> dict[str, int]:
        return self.json()["summary"]["findings_by_rule"]


def cli(work: Path, *args: str | bytes | os.PathLike, env: dict | None = None) -> Run:
    """Run `moderator-app ARGS` in a child process with its own empty TMPDIR."""
    tmp = work / "tmpdir"
    tmp.mkdir(parents=True, exist_ok=True)
    peak = work / "peak"
    base = {**os.environ, "TMPDIR": str(tmp), "HOSTILE_PEAK_FILE": str(peak),
            "HOSTILE_AS_LIMIT": str(AS_LIMIT)}
    base.pop("MODERATOR_APP_DEBUG", None)
    full = {os.fsencode(k): os.fsencode(v) for k, v in {**base, **(env or {})}.items()}
    argv = [os.fsencode(a) if isinstance(a, os.PathLike) else a for a in args]
    proc = subprocess.run([PY, "-c", WRAPPER, *argv], env=full, capture_output=True,
                          timeout=HANG_GUARD_S)
    left = sorted(p.name for p in tmp.iterdir())
    return Run(proc.returncode, proc.stdout, proc.stderr, int(peak.read_text()) / 1024, left)


_RAW_BYTES = bytes(c for c in range(32) if c not in (9, 10)) + b"\x7f"


def assert_clean(run: Run) -> None:
    """No traceback, nothing a terminal would interpret, bounded memory, no temp files."""
    assert b"Traceback" not in run.err, run.err.decode("utf-8", "replace")
    assert run.rc in (0, 1, 2), (run.rc, run.err)
    for stream in (run.out, run.err):
        assert not any(b in _RAW_BYTES for b in stream), stream[:300]
        text = stream.decode("utf-8")  # valid UTF-8: no undecodable byte passed through
        bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs")
               and c not in "\t\n"]
        assert not bad, bad
    assert run.peak_mib <= PEAK_LIMIT_MIB, run.peak_mib
    assert run.tmp_left == []


def verify_json(work: Path, *paths, env: dict | None = None) -> Run:
    run = cli(work, "verify", "--json", *paths, env=env)
    assert_clean(run)
    human = cli(work, "verify", *paths, env=env)
    assert_clean(human)
    assert human.rc == run.rc
    return run


@pytest.fixture(scope="module")
def cache() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    return CACHE


def cached(cache: Path, name: str, build) -> list[Path]:
    """Build an input once (generators are deterministic); `build(folder)` -> path(s). The
    stamp names them relative to `folder`, and a path that is gone is built again: stamps of
    absolute paths written through another worktree's `.cache` named files that no longer
    existed (every bomb test then failed with "no such file")."""
    folder = cache / name
    done = folder / ".built"
    if done.exists():
        paths = [folder / p for p in json.loads(done.read_text())]
        if paths and all(p.exists() for p in paths):
            return paths
    folder.mkdir(parents=True, exist_ok=True)
    got = build(folder)
    got = [got] if isinstance(got, (str, Path)) else list(got)
    done.write_text(json.dumps([os.path.relpath(os.fsdecode(p), folder) for p in got]))
    return [folder / os.path.relpath(os.fsdecode(p), folder) for p in got]


# -- 1. forged passes ------------------------------------------------------------------------
def test_a_self_made_trajectory_does_not_make_a_failing_community_run_pass(tmp_path):
    sub = H.make_forged_official(tmp_path)[0]
    run = verify_json(tmp_path, sub)
    rep = run.json()
    assert run.rc == 1
    assert rep["verdict"] == "fail" and rep["verification_level"] == "self_reported"
    assert rep["summary"]["findings_by_rule"]["input.ambiguous_kind"] == 1


def test_withhold_publishes_only_what_the_format_lists(tmp_path):
    src = H.make_withhold_private_toplevel(tmp_path)
    out = tmp_path / "public.jsonl"
    run = cli(tmp_path, "withhold", src, "-o", out)
    assert_clean(run)
    assert run.rc == 0
    public = out.read_bytes()
    assert b"PRIVATE" not in public
    events = [json.loads(line) for line in public.splitlines()]
    assert len(events) == len(src.read_bytes().splitlines())
    for ev in events:
        assert set(ev) == {"seq", "at", "elapsedMs", "type", "data"}
        if ev["type"] == "model_request":
            assert ev["data"] == {"withheld": True}
        if ev["type"] == "model_response":
            assert set(ev["data"]) <= {"id", "model", "usage", "actions"}


def test_withhold_refuses_an_event_type_it_cannot_judge(tmp_path):
    lines = H.valid_log_bytes().splitlines()
    ev = json.loads(lines[2])
    ev["type"] = "scratchpad"
    lines[2] = json.dumps(ev).encode()
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b"\n".join(lines) + b"\n")
    run = cli(tmp_path, "withhold", src, "-o", tmp_path / "public.jsonl")
    assert_clean(run)
    assert run.rc == 1 and b"line 3: unknown event type 'scratchpad'" in run.err
    assert not (tmp_path / "public.jsonl").exists()


SECRET_ENV = {"ALE_EVALUATOR_SECRET": H.SEED_SECRET}


def test_small_numeric_seeds_in_scores_and_counters_are_not_leaks(tmp_path):
    sub, seeds = H.make_small_seeds(tmp_path)
    run = verify_json(tmp_path, sub, "--seeds", seeds, env=SECRET_ENV)
    assert run.rc == 0, run.rules()
    assert run.json()["run"]["seeds"] == {"commitments": 2, "checked": True}


def test_a_small_seed_in_a_seed_member_is_a_leak_at_its_line(tmp_path):
    sub, seeds = H.make_real_seed_leak(tmp_path)
    lines = (sub / "events.jsonl").read_bytes().splitlines()
    line = next(i for i, raw in enumerate(lines, 1) if b'"seed":42' in raw)
    run = verify_json(tmp_path, sub, "--seeds", seeds, env=SECRET_ENV)
    assert run.rc == 1
    leaks = [f for f in run.json()["findings"] if f["rule"] == "seed.leak"]
    assert [(f["line"], "seed #1" in f["message"]) for f in leaks] == [(line, True)]
    assert b"42" not in b"".join(f["message"].encode() for f in leaks)


# -- 2. crashes -----------------------------------------------------------------------------
def test_non_utf8_member_names_in_verify_json_and_decide(tmp_path):
    tar = H.make_tar_latin1_name(tmp_path)
    run = verify_json(tmp_path, tar)
    rep = run.json()
    assert run.rc == 1 and rep["summary"]["findings_by_rule"] == {"input.no_video": 1}
    assert [f["name"] for f in rep["files"]] == ["r\\xe9sum\\xe9/agent-log.jsonl"]
    store = tmp_path / "ledger.db"
    dec = cli(tmp_path, "decide", tar, "--reject", "--reason", "video-coverage",
              "--reviewer", "r", "--store", store)
    assert_clean(dec)
    assert dec.rc == 0 and b"Recorded decision #1" in dec.out
    listed = cli(tmp_path, "decisions", "list", "--store", store)
    assert_clean(listed)
    assert listed.rc == 0 and b"latin1-names.tar" in listed.out


def test_non_utf8_folder_and_file_names(tmp_path):
    folder = H.make_folder_latin1(tmp_path)
    run = verify_json(tmp_path, folder)
    rep = run.json()
    assert rep["input"] == "dossier-\\xe9"
    assert run.rc == 1 and rep["summary"]["findings_by_rule"] == {"input.no_video": 1}
    dec = cli(tmp_path, "decide", folder, "--reject", "--reason", "video-coverage",
              "--reviewer", "r", "--store", tmp_path / "l.db")
    assert_clean(dec)
    assert dec.rc == 0


@pytest.fixture
def log_folder(tmp_path) -> Path:
    sub = tmp_path / "ok"
    sub.mkdir()
    (sub / "agent-log.jsonl").write_bytes(H.valid_log_bytes())
    return sub


@pytest.mark.parametrize("option", ["--note", "--reviewer", "--override-note"])
def test_non_utf8_text_options_are_usage_errors(tmp_path, log_folder, option):
    args = ["decide", log_folder, "--reject", "--reason", "other", option, b"caf\xe9",
            "--store", tmp_path / "l.db"]
    if option != "--reviewer":
        args += ["--reviewer", "r"]
    run = cli(tmp_path, *args)
    assert_clean(run)
    assert run.rc == 2
    assert b"not valid UTF-8 text: 'caf\\\\xe9'" in run.err
    assert not (tmp_path / "l.db").exists()


def test_a_note_that_starts_with_a_dash_is_a_note(tmp_path, log_folder):
    store = tmp_path / "l.db"
    run = cli(tmp_path, "decide", log_folder, "--reject", "--reason", "other", "--note", "-x",
              "--reviewer", "-r-", "--store", store)
    assert_clean(run)
    assert run.rc == 0, run.err
    out = tmp_path / "d.jsonl"
    exp = cli(tmp_path, "decisions", "export", "--format", "jsonl", "--out", out,
              "--store", store)
    assert exp.rc == 0
    rec = json.loads(out.read_bytes().splitlines()[0])
    assert (rec["note"], rec["reviewer"]) == ("-x", "-r-")
    # an option name after --note is not taken as the note: argparse says the text is missing
    bad = cli(tmp_path, "decide", log_folder, "--note", "--reject", "--reason", "other",
              "--store", store)
    assert_clean(bad)
    assert bad.rc == 2 and b"expected one argument" in bad.err


def test_non_utf8_evaluator_secret_is_a_clean_error_that_hides_it(tmp_path):
    sub, seeds = H.make_small_seeds(tmp_path)
    run = cli(tmp_path, "verify", sub, "--seeds", seeds,
              env={"ALE_EVALUATOR_SECRET": os.fsdecode(b"s3cr\xe9t-value")})
    assert_clean(run)
    assert run.rc == 2
    assert b"evaluator secret from $ALE_EVALUATOR_SECRET is not valid UTF-8" in run.err
    assert b"s3cr" not in run.err + run.out


# -- 3. bombs -------------------------------------------------------------------------------
MIB = 1 << 20
TOO_MANY = "input.too_many_errors"

# (id, builder, {rule: count or None for "present"}, exit code)
BOMBS = [
    # a run of blank lines is one finding, however long, and no event (traj.empty)
    ("newlines-zst-64MiB", lambda d: H.make_newline_bomb_zst(d, 64 * MIB),
     {"traj.blank": 1, "traj.empty": 1}, 1),
    ("traj-blank-32MiB", lambda d: H.make_line_flood(d, "blank", 32 * MIB),
     {"traj.blank": 1, "traj.empty": 1}, 1),
    ("traj-invalid-32MiB", lambda d: H.make_line_flood(d, "invalid", 32 * MIB),
     {"traj.json": None, TOO_MANY: 1}, 1),
    ("traj-tiny-32MiB", lambda d: H.make_line_flood(d, "tiny", 32 * MIB),
     {TOO_MANY: 1}, 1),
    ("log-blank-32MiB", lambda d: H.make_log_flood(d, "blank", 32 * MIB),
     {"log.trailing_blank": 1, "input.no_video": 1}, 1),
    ("log-invalid-32MiB", lambda d: H.make_log_flood(d, "invalid", 32 * MIB),
     {"log.json": None, TOO_MANY: 1}, 1),
    ("log-tiny-32MiB", lambda d: H.make_log_flood(d, "tiny", 32 * MIB),
     {TOO_MANY: 1}, 1),
    ("zip-blank-64MiB", lambda d: H.make_zip_flood(d, "blank", 64 * MIB),
     {"log.trailing_blank": 1, "input.no_video": 1}, 1),
    ("zip-invalid-64MiB", lambda d: H.make_zip_flood(d, "invalid", 64 * MIB),
     {"log.json": None, TOO_MANY: 1}, 1),
    ("zip-9000-members", lambda d: H.make_zip_many(d, 9000), {"input.no_video": 1}, 1),
    ("zip-100000-members", lambda d: H.make_zip_many(d, 100_000),
     {"archive.too_many_members": 1, "input.no_video": 1}, 1),
    ("tar-2000-members", lambda d: H.make_tar_many(d, 2000), {"input.no_video": 1}, 1),
    ("tar.zst-64MiB-zero-member", lambda d: H.make_tar_zst_zero(d, 64 * MIB),
     {"input.no_video": 1}, 1),
    ("tar.gz-1GiB-zero-member", lambda d: H.make_tar_gz_zero(d, 1 << 30),
     {"input.no_video": 1}, 1),
    ("tar-sparse-16GiB", lambda d: H.make_tar_sparse(d, 16 << 30),
     {"archive.sparse": 1, "input.no_video": 1}, 1),
    ("folder-sparse-32GiB-video", H.make_sparse_files,
     {"archive.sparse": 1, "input.no_video": 1}, 1),
    ("files-sparse-32GiB-video",
     lambda d: [H.make_sparse_files(d) / n for n in ("agent-log.jsonl", "video.mp4")],
     {"archive.sparse": 1, "input.no_video": 1}, 1),
    ("zstd-long31-window", H.make_zstd_long31, {"traj.zstd_window": 1}, 1),
    ("zst-3GiB-of-zeros", H.make_zst_zero_bomb, {"traj.too_large": 1}, 1),
    ("zip-log-3GiB-of-zeros", H.make_zip_zero_bomb, {"input.unreadable": 1}, 1),
]


@pytest.mark.parametrize(("builder", "expected", "rc"), [b[1:] for b in BOMBS],
                         ids=[b[0] for b in BOMBS])
def test_bombs_are_bounded_and_reported(cache, tmp_path, request, builder, expected, rc):
    paths = cached(cache, request.node.callspec.id, builder)
    run = verify_json(tmp_path, *paths)
    assert run.rc == rc, run.err
    rules = run.rules()
    for rule_id, count in expected.items():
        assert rule_id in rules, rules
        if count is not None:
            assert rules[rule_id] == count, rules
    if TOO_MANY in expected:
        assert run.json()["complete"] is False


def test_too_many_tar_members_is_unreadable_and_says_why(cache, tmp_path):
    paths = cached(cache, "tar-100000-members", lambda d: H.make_tar_many(d, 100_000))
    run = cli(tmp_path, "verify", "--json", *paths)
    assert_clean(run)
    assert run.rc == 2
    assert "more than 10000 members" in run.json()["error"]


def test_a_folder_past_the_member_cap_does_not_claim_its_video_is_absent(tmp_path):
    """QA session 14 (G1): a folder of 10,001 extra files named between the log and the video
    was listed up to the cap and then told "no video in the submission" with video.mp4 in
    it. The cap stays an error; what was not looked at is not said to be missing."""
    import shutil

    folder = tmp_path / "wide"
    shutil.copytree(REPO / "resources" / "samples" / "community-sample", folder)
    for i in range(10_001):  # 'b...' sorts after agent-log.jsonl, before video.mp4
        (folder / f"b{i:05d}.txt").touch()
    run = cli(tmp_path, "verify", "--json", folder)
    assert_clean(run)
    assert run.rc == 1
    assert run.rules()["archive.too_many_members"] == 1
    [missing] = [f for f in run.json()["findings"] if f["rule"] == "input.no_video"]
    assert missing["message"].startswith(
        "no video among the members listed (the listing stopped at its cap; the rest were not "
        "looked at)"), missing["message"]


def test_a_sparse_log_is_refused_and_the_error_says_so(tmp_path):
    run = cli(tmp_path, "verify", "--json", H.make_sparse_files(tmp_path, "agent-log.jsonl"))
    assert_clean(run)
    assert run.rc == 2
    assert "'agent-log.jsonl' is a sparse file (34359738368 bytes" in run.json()["error"]


def test_a_sparse_file_no_role_reads_costs_nothing_and_fails_nothing(tmp_path):
    """Only the files a role reads are refused: an extra sparse file is listed, never read."""
    sparse = verify_json(tmp_path / "a", H.make_sparse_files(tmp_path / "a", "disk.img"))
    plain = H.make_sparse_files(tmp_path / "b", "disk.img", size=0)
    assert sparse.rules() == verify_json(tmp_path / "b", plain).rules()
    assert "archive.sparse" not in sparse.rules()


def test_actions_claiming_ages_of_elapsed_time_leave_the_sync_analysis_bounded(tmp_path):
    """Before: 48-53 s, then out of memory under the 512 MiB bound (exit 2, no report)."""
    run = cli(tmp_path, "verify", "--json", "--sync", "--offset", "0",
              H.make_ages_of_elapsed_time(tmp_path))
    assert_clean(run)
    assert run.rc == 1
    sync = run.json()["sync"]
    assert (sync["actions"], len(sync["offset_track"])) == (15, 8)  # the sample's 16, less 1
    assert run.rules()["log.elapsed_drift"] == 6


def test_overlapping_zip_entries_are_refused(tmp_path):
    run = cli(tmp_path, "verify", "--json", H.make_zip_overlap(tmp_path))
    assert_clean(run)
    assert run.rc == 2
    assert "2000 zip entries overlap" not in run.json()["error"]  # 1999 follow the first
    assert "1999 zip entries overlap the data of another entry" in run.json()["error"]


def test_an_honest_long_window_stream_is_not_called_corrupt(cache, tmp_path):
    paths = cached(cache, "zstd-long31-window", H.make_zstd_long31)
    run = cli(tmp_path, "verify", "--json", *paths)
    msg = [f["message"] for f in run.json()["findings"] if f["rule"] == "traj.zstd_window"]
    assert msg and "needs a 2048 MiB decoding window" in msg[0] and "corrupt" not in msg[0]


@pytest.fixture(scope="module")
def video(cache) -> Path:
    v = cache / "small.mp4"
    if not v.exists():
        from moderator_app.core.samples.community import make_video

        make_video(v, 3.0)
    return v


def test_a_video_copied_out_of_a_zip_is_removed_when_the_run_fails(tmp_path, video):
    z = H.make_zip_with_video_failing(tmp_path, video)
    run = verify_json(tmp_path, z)  # asserts the temporary folder is empty afterwards
    assert run.rc == 1
    assert run.json()["video"]["ok"] is True
    dec = cli(tmp_path, "decide", z, "--reject", "--reason", "other", "--note", "n", "--reviewer", "r",
              "--store", tmp_path / "l.db")
    assert_clean(dec)


VIDEO_MIB = 400  # the stored "video": copying it out of the zip takes a while


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_temporary_files_are_removed_on_interrupt(tmp_path, sig):
    """The signal must come while the video is being copied out of the zip. Seeing the copy
    start and then signalling is a race: a test descheduled between the two (a loaded
    machine) signalled a command that had meanwhile finished copying, probed and exited
    with its verdict (exit 1), or was already in this test's wrapper after `main` returned
    (exit -2, a traceback from the wrapper). So the command is stopped (SIGSTOP) before
    the copy is looked at: the copy is known to be unfinished while the signal is sent,
    and it resumes (SIGCONT) with the signal pending. A copy found finished is let run
    and started again (never counted)."""
    z = tmp_path / "big.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("agent-log.jsonl", H.valid_log_bytes())
        with zf.open("run.mp4", "w", force_zip64=True) as fh:
            block = os.urandom(MIB)
            for _ in range(VIDEO_MIB):
                fh.write(block)
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp), "HOSTILE_PEAK_FILE": str(tmp_path / "peak"),
           "HOSTILE_NICE": "19"}
    for _attempt in range(5):
        proc = subprocess.Popen([PY, "-c", WRAPPER, "verify", str(z)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + HANG_GUARD_S
        copying = False
        while proc.poll() is None:
            assert time.monotonic() < deadline
            if any(tmp.rglob("member.mp4")):
                proc.send_signal(signal.SIGSTOP)
                copied = sum(p.stat().st_size for p in tmp.rglob("member.mp4"))
                # at least two chunks (1 MiB) to go: `main` is still in the copy's loop
                copying = copied <= (VIDEO_MIB - 2) * MIB
                if copying:
                    proc.send_signal(sig)
                proc.send_signal(signal.SIGCONT)
                break
            time.sleep(0.005)
        if copying:
            break
        proc.communicate(timeout=HANG_GUARD_S)
        assert list(tmp.iterdir()) == []
    else:
        pytest.fail("the copy was never caught unfinished, five times")
    out, err = proc.communicate(timeout=HANG_GUARD_S)
    assert b"Traceback" not in err, err
    if sig == signal.SIGINT:  # (SIGTERM unwinds as SystemExit(143), silently)
        assert err.endswith(b"moderator-app: interrupted\n"), err
    assert proc.returncode == 128 + sig
    assert list(tmp.iterdir()) == []


# -- 4. output ------------------------------------------------------------------------------
def test_escapes_in_member_names_never_reach_the_terminal(tmp_path):
    z = H.make_zip_escape_names(tmp_path)
    run = cli(tmp_path, "verify", z)
    assert_clean(run)
    assert run.rc == 2 and b"\\u001b]0;pwned\\u0007" in run.err and b"\\u202e" in run.err
    js = cli(tmp_path, "verify", "--json", z)
    assert_clean(js)
    assert "\\u001b]0;pwned\\u0007" in js.json()["error"]  # escaped once, at the source


def test_escapes_in_refused_member_names_are_shown_escaped(tmp_path):
    z = H.make_zip_escape_names_with_log(tmp_path)
    run = verify_json(tmp_path, z)
    assert run.rc == 1
    assert run.rules()["archive.unsafe_path"] == len(H.ESCAPES)
    human = cli(tmp_path, "verify", z)
    assert b"'../up1\\x1b[2J.txt' refused" in human.out and b"\\x9b31m" in human.out


# -- 5. output to a device ------------------------------------------------------------------
def test_withhold_and_export_to_a_character_device_keep_the_device(tmp_path, log_folder):
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    run = cli(tmp_path, "withhold", log_folder / "agent-log.jsonl", "-o", "/dev/null")
    assert_clean(run)
    assert run.rc == 0
    store = tmp_path / "l.db"
    assert cli(tmp_path, "decide", log_folder, "--reject", "--reason", "other", "--note", "n",
               "--reviewer", "r", "--store", store).rc == 0
    exp = cli(tmp_path, "decisions", "export", "--format", "csv", "--out", "/dev/null",
              "--store", store)
    assert_clean(exp)
    assert exp.rc == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_output_to_a_fifo_is_written_in_place(tmp_path, log_folder):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    run = cli(tmp_path, "withhold", log_folder / "agent-log.jsonl", "-o", fifo)
    got = reader.communicate(timeout=HANG_GUARD_S)[0]
    assert_clean(run)
    assert run.rc == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert len(got.splitlines()) == len(H.valid_log_bytes().splitlines())


def test_output_over_a_directory_is_refused(tmp_path, log_folder):
    target = tmp_path / "dir"
    target.mkdir()
    run = cli(tmp_path, "withhold", log_folder / "agent-log.jsonl", "-o", target)
    assert_clean(run)
    assert run.rc == 2 and b"is a directory: refusing to replace it" in run.err
    assert target.is_dir()


def test_a_zip_of_more_entries_than_the_cap_is_refused_before_parsing(cache, tmp_path):
    paths = cached(cache, "zip-250000-members", lambda d: H.make_zip_many(d, 250_000))
    run = cli(tmp_path, "verify", *paths)
    assert_clean(run)
    assert run.rc == 2
    assert b"has 250001 entries, more than the 200000 this tool reads: refused" in run.err


def test_output_to_a_fifo_nobody_reads_is_an_error_not_a_hang(tmp_path, log_folder):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    run = cli(tmp_path, "withhold", log_folder / "agent-log.jsonl", "-o", fifo)
    assert_clean(run)
    assert run.rc == 2 and b"No such device or address" in run.err


def test_a_device_given_as_the_log_is_refused_not_read_forever(tmp_path):
    link = tmp_path / "agent-log.jsonl"
    link.symlink_to("/dev/zero")
    run = cli(tmp_path, "verify", "--json", link)
    assert_clean(run)
    assert run.rc == 2 and "not a regular file" in run.json()["error"]


def test_withhold_refuses_a_device_as_its_input(tmp_path):
    run = cli(tmp_path, "withhold", "/dev/zero", "-o", tmp_path / "public.jsonl")
    assert_clean(run)
    assert run.rc == 2 and b"/dev/zero: not a regular file" in run.err
