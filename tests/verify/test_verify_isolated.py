"""The workstation's verification in a child process (`core/verify/isolated.py`, issue 15):
the same report as `verify_paths`, and every way the child can fail (a crash, MemoryError, a
hang, a cancel) a `VerificationStopped` or `Cancelled` in the parent, never its end."""

from __future__ import annotations

import io
import os
import pickle
import subprocess
import sys
import threading

import pytest
from conftest import REPO
from hostile_corpus import make_big_string_line

from moderator_app.core.errors import Cancelled, InputError
from moderator_app.core.progress import CancelToken
from moderator_app.core.verify import isolated
from moderator_app.core.verify.child import FAULT_ENV
from moderator_app.core.verify.isolated import VerificationStopped, verify_isolated
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

SAMPLES = REPO / "resources" / "samples"


@pytest.mark.parametrize("sample", ["community-sample", "official-sample"])
def test_the_child_gives_the_report_and_index_verify_paths_gives(sample, tmp_path):
    options = VerifyOptions(offset=0.5, build_index=True, spool_dir=tmp_path)
    here = verify_paths([SAMPLES / sample], options)
    seen = []
    there = verify_isolated([SAMPLES / sample], options, lambda d, t: seen.append((d, t)))
    assert there.report.to_dict() == here.report.to_dict()
    assert there.report.verdict == here.report.verdict
    assert there.run_duration_s == here.run_duration_s
    assert there.submission.display_name == here.submission.display_name == sample
    assert [m.name for m in there.submission.members] == [m.name for m in here.submission.members]
    assert there.index is not None and here.index is not None
    assert list(there.index.lines) == list(here.index.lines) and len(there.index) > 40
    assert list(there.index.offsets) == list(here.index.offsets)
    assert [there.index.read_raw(k) for k in (0, len(here.index) - 1)] == \
        [here.index.read_raw(k) for k in (0, len(here.index) - 1)]
    assert there.video_path == here.video_path
    assert there.video_probe is not None
    assert there.video_probe.frame_count == here.video_probe.frame_count
    there.index.close()
    here.index.close()


@pytest.mark.parametrize("sample", ["community-sample", "official-sample"])
def test_the_child_reads_the_inputs_times_the_sync_analysis_needs(sample, tmp_path,
                                                                  monkeypatch):
    """The window's sync analysis takes the actions' times from the verification's process
    (issue 15: reading them in the window parsed the whole log there, MemoryError on a
    15 MiB line under the 512 MiB limit): the very times `input_times` reads, and the
    analysis made from them is the one made from the log."""
    from moderator_app.core.sync.inputs import input_times, inputs
    from moderator_app.core.sync.run import analyze_result

    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    options = VerifyOptions(build_index=True, spool_dir=tmp_path)
    there = verify_isolated([SAMPLES / sample], options)
    here = verify_paths([SAMPLES / sample], options)
    want = input_times(here.submission)
    assert len(want) > 5 if sample == "community-sample" else want == []  # no input event
    assert list(there.input_times) == want
    assert list(there.input_kinds) == inputs(here.submission)[1]  # and their kinds beside
    assert here.input_times is None  # in process (the CLI): read when `--sync` asks
    assert repr(analyze_result(there)) == repr(analyze_result(here))


def test_inputs_the_child_could_not_read_are_the_analysis_reason_not_a_reread():
    """When the verification's process could not read the times (out of memory there), the
    analysis says so and never reads the log in the window."""
    from dataclasses import replace

    from moderator_app.core.sync.run import InputsUnreadable, analyze_result

    result = verify_paths([SAMPLES / "community-sample"])
    assert result.video_path is not None
    said = "the actions' times could not be read: out of memory"
    with pytest.raises(InputsUnreadable) as got:
        analyze_result(replace(result, input_times=said))
    assert str(got.value) == said


def test_an_unreadable_input_is_the_same_input_error(tmp_path):
    missing = tmp_path / "nothing-here"
    with pytest.raises(InputError) as here:
        verify_paths([missing])
    with pytest.raises(InputError) as there:
        verify_isolated([missing])
    assert str(there.value) == str(here.value) == f"{missing}: no such file or folder"
    assert not isinstance(there.value, VerificationStopped)


@pytest.mark.parametrize("fault,said", [
    ("crash", "the verification process crashed (SIGSEGV) on this submission"),
    ("memory", "the verification ran out of memory on this submission"),
])
def test_a_crash_or_memory_error_in_the_child_is_a_message(fault, said, monkeypatch):
    monkeypatch.setenv(FAULT_ENV, fault)
    with pytest.raises(VerificationStopped) as got:
        verify_isolated([SAMPLES / "community-sample"])
    assert str(got.value).startswith(said), str(got.value)


def test_a_child_that_stops_answering_is_stopped(monkeypatch):
    monkeypatch.setenv(FAULT_ENV, "hang")
    with pytest.raises(VerificationStopped) as got:
        verify_isolated([SAMPLES / "community-sample"], stall_s=1.0)
    assert str(got.value) == ("the verification made no progress for 1 s on this submission "
                              "and was stopped")


def test_cancel_kills_the_child(monkeypatch):
    monkeypatch.setenv(FAULT_ENV, "hang")
    token = CancelToken()
    threading.Timer(0.5, token.cancel).start()
    with pytest.raises(Cancelled):
        verify_isolated([SAMPLES / "community-sample"], cancel=token)


def test_a_spare_started_ahead_is_used_once(monkeypatch):
    isolated.discard_spare()
    isolated.prestart()
    spare = isolated._SPARE
    assert spare is not None
    result = verify_isolated([SAMPLES / "community-sample"])
    assert result.report.verdict == "pass"
    assert isolated._SPARE is None and spare.poll() is not None  # used, then ended
    # a spare started with another environment (a fault switch) is not taken
    isolated.prestart()
    monkeypatch.setenv(FAULT_ENV, "crash")
    with pytest.raises(VerificationStopped, match="crashed"):
        verify_isolated([SAMPLES / "community-sample"])


def test_only_the_classes_of_a_result_are_unpickled():
    class Evil:
        def __reduce__(self):
            return (os.system, ("true",))

    with pytest.raises(pickle.UnpicklingError, match="posix.system is not part of"):
        isolated._ResultUnpickler(io.BytesIO(pickle.dumps(Evil()))).load()


OOM_CHILD = """
import resource, sys
from pathlib import Path
from moderator_app.core.formats.jsonline import parse_line
raw = (Path(sys.argv[1]) / "agent-log.jsonl").read_bytes().splitlines()[1]
size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + (24 << 20),) * 2)  # room for Python, not orjson
try:
    got = parse_line(raw)
except MemoryError as exc:
    print("MemoryError", exc)
else:
    print("parsed", type(got).__name__, getattr(got, "message", "")[:80])
"""


def test_a_parse_buffer_that_cannot_be_allocated_is_memory_error_not_invalid_json(tmp_path):
    """orjson says "Not enough memory to allocate buffer for parsing" as a JSONDecodeError:
    under the workstation's limit a valid 15 MiB line was `log.json` "invalid JSON". Now it
    is MemoryError, which the verification process reports as what it is."""
    folder = make_big_string_line(tmp_path)
    out = subprocess.run([sys.executable, "-c", OOM_CHILD, str(folder)], capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.startswith("MemoryError Not enough memory to allocate buffer"), \
        (out.stdout, out.stderr)


def test_the_cli_says_out_of_memory_not_internal_error(capsys, monkeypatch):
    """A MemoryError in a command (the child's words, `verify` under a tight limit) is said
    as what it is, exit 2 and no report, never "internal error ... please report it"."""
    from hostile_corpus import run_cli

    from moderator_app.core.verify import pipeline

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(pipeline, "verify_paths", no_memory)
    code, out, err = run_cli(capsys, "verify", "--json", SAMPLES / "community-sample")
    assert (code, out) == (2, "")
    assert err == ("moderator-app: out of memory: this command needed more memory than this "
                   "process may use; nothing was judged or recorded\n")


def test_the_window_takes_the_childs_listing_never_lists_the_archive_itself(tmp_path,
                                                                            monkeypatch):
    """Issue 15: after the child's verification the window listed the submission again in
    its own process (a zip of 100,000 members with 1,000-byte names: 260 MiB, more than the
    window has left under a 512 MiB limit). It now keeps the child's listing: the evidence
    and the videos (extras are the report's business), and a member still opens."""
    import zipfile

    sample = SAMPLES / "community-sample"
    archive = tmp_path / "run.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(sample / "agent-log.jsonl", "agent-log.jsonl")
        zf.write(sample / "video.mp4", "video.mp4")
        for i in range(40):
            zf.writestr(f"extra/{i:03d}-" + "n" * 300, b"")

    def no_listing_here(*args, **kwargs):
        raise AssertionError("the window listed the submission itself")

    monkeypatch.setattr(isolated, "load_submission", no_listing_here)
    there = verify_isolated([archive], VerifyOptions(build_index=True, spool_dir=tmp_path))
    assert [(m.name, m.role) for m in there.submission.members] == [
        ("agent-log.jsonl", "agent_log"), ("video.mp4", "video")]
    assert there.submission.display_name == "run.zip"
    assert there.report.verdict == "pass"
    monkeypatch.undo()
    with there.submission.evidence.open() as fh:  # listed again only when a view opens one
        assert fh.read() == (sample / "agent-log.jsonl").read_bytes()
