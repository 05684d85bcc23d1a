"""`moderator-app verify` on community submissions, end to end through the installed script:
exit codes 0/1/2, exactly one JSON object on stdout, the human output, the bundled sample."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import orjson
import pytest
from conftest import REPO, SAMPLES

from moderator_app.core.samples.community import make_agent_log, make_video

CLI = str(REPO / ".venv" / "bin" / "moderator-app")
SAMPLE = SAMPLES / "community-sample"


def verify(*args):
    return subprocess.run([CLI, "verify", *map(str, args)], capture_output=True, text=True)


def one_json(stdout: str) -> dict:
    """stdout holds exactly one JSON object and nothing else."""
    dec = json.JSONDecoder()
    obj, end = dec.raw_decode(stdout)
    assert stdout[end:].strip() == ""
    assert isinstance(obj, dict)
    return obj


@pytest.fixture
def submission(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    dur = make_agent_log(d / "agent-log.jsonl", n_events=30, seed=11)
    make_video(d / "gameplay.mp4", dur + 0.5, fps=5, size=(32, 18))
    return d


def test_sample_passes_json(tmp_path):
    proc = verify(SAMPLE, "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rep = one_json(proc.stdout)
    assert rep["schema"] == "moderator-app/report/v1"
    assert rep["kind"] == "community" and rep["verdict"] == "pass"
    assert rep["verification_level"] == "validated"
    assert rep["events"] == 48
    assert [f for f in rep["findings"] if f["severity"] != "info"] == []
    assert {f["name"] for f in rep["files"]} == {"agent-log.jsonl", "video.mp4"}
    assert rep["video"]["ok"] and rep["coverage"]["covered"]
    assert rep["run"]["game"] == "tetris-gb"


def test_sample_is_small_and_regenerates_identically(tmp_path):
    total = sum(p.stat().st_size for p in SAMPLE.iterdir())
    assert 50_000 < total < 600_000
    subprocess.run([sys.executable, str(REPO / "scripts" / "make_sample.py"), str(tmp_path)],
                   check=True, capture_output=True)
    assert (tmp_path / "agent-log.jsonl").read_bytes() == (SAMPLE / "agent-log.jsonl").read_bytes()
    # The encoder's bytes may differ between OpenCV builds; what it encodes may not.
    from moderator_app.core.verify.sections import VideoSection
    from moderator_app.core.video.probe import probe_video

    new, old = probe_video(tmp_path / "video.mp4", "v"), probe_video(SAMPLE / "video.mp4", "v")
    assert VideoSection.of(new) == VideoSection.of(old) and new.ok


def test_sample_human_output():
    proc = verify(SAMPLE)
    assert proc.returncode == 0
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("Verifying community submission")
    assert any(line.startswith("Read 48 log lines") for line in lines)
    assert any(line.startswith("Video video.mp4:") for line in lines)
    assert lines[-1] == "Verdict: PASS (validated)"


def test_files_given_separately(submission):
    proc = verify(submission / "agent-log.jsonl", submission / "gameplay.mp4", "--json")
    assert proc.returncode == 0, proc.stdout
    assert one_json(proc.stdout)["verdict"] == "pass"


def test_broken_log_fails_with_its_first_error_line(submission):
    log = submission / "agent-log.jsonl"
    lines = log.read_bytes().splitlines()
    ev = orjson.loads(lines[6])
    ev["seq"] = 60
    lines[6] = orjson.dumps(ev)
    lines[9] = b"{not json"
    log.write_bytes(b"\n".join(lines) + b"\n")
    proc = verify(submission, "--json")
    assert proc.returncode == 1
    rep = one_json(proc.stdout)
    assert rep["verdict"] == "fail" and rep["verification_level"] == "self_reported"
    assert rep["summary"]["first_error_line"] == 7
    assert rep["summary"]["first_error_rule"] == "log.seq"
    errs = [(f["rule"], f["line"], f["file"]) for f in rep["findings"] if f["severity"] == "error"]
    assert errs[:2] == [("log.seq", 7, "agent-log.jsonl"), ("log.json", 10, "agent-log.jsonl")]
    human = verify(submission)
    assert human.returncode == 1
    assert "  agent-log.jsonl:7  error    log.seq  seq is 60, expected 6" in human.stdout
    assert "  agent-log.jsonl:10  error    log.json  invalid JSON" in human.stdout
    assert human.stdout.strip().splitlines()[-1] == "Verdict: FAIL (self_reported)"


def test_missing_video_fails(submission):
    (submission / "gameplay.mp4").unlink()
    proc = verify(submission, "--json")
    assert proc.returncode == 1
    rep = one_json(proc.stdout)
    assert [f["rule"] for f in rep["findings"] if f["severity"] == "error"] == ["input.no_video"]


def test_unreadable_video_fails(submission):
    (submission / "gameplay.mp4").write_bytes(b"\x00" * 1000)
    proc = verify(submission, "--json")
    assert proc.returncode == 1
    rep = one_json(proc.stdout)
    assert [f["rule"] for f in rep["findings"] if f["severity"] == "error"] == \
        ["video.unreadable"]


def test_offset_moves_the_run_inside_the_video(submission):
    assert verify(submission, "--json", "--offset", "0.4").returncode == 0
    proc = verify(submission, "--json", "--offset", "6")
    assert proc.returncode == 1
    rep = one_json(proc.stdout)
    assert rep["sync_offset_s"] == 6.0
    assert [f["rule"] for f in rep["findings"] if f["severity"] == "error"] == \
        ["coverage.missing"]
    proc = verify(submission, "--json", "--offset", "-5.5")
    assert proc.returncode == 1


@pytest.mark.parametrize("bad", [["--offset=0x10"], ["--offset", "nan"], ["--bogus"],
                                 ["--scan-budget=-1"]])
def test_wrong_usage_with_json_still_prints_one_json_object(bad):
    """s28 hostile sweep: `verify --json --offset=0x10` printed the usage error on stderr
    and nothing on stdout (exit 2), where `--json` promises one JSON object whatever stopped
    the command; now the `unreadable` object, naming the usage error."""
    r = verify(SAMPLE, "--json", *bad)
    assert r.returncode == 2
    rep = one_json(r.stdout)
    assert rep["schema"] == "moderator-app/report/v1" and rep["verdict"] == "unreadable"
    assert rep["error"].startswith("wrong usage: ") and rep["error"][13:] in r.stderr
    without = verify(SAMPLE, *bad)  # no --json: stdout stays empty
    assert without.returncode == 2 and without.stdout == ""


def test_unreadable_input_exits_2(tmp_path):
    proc = verify(tmp_path / "nothing-here", "--json")
    assert proc.returncode == 2
    rep = one_json(proc.stdout)
    assert rep["verdict"] == "unreadable"
    (tmp_path / "notes.txt").write_text("hello")
    assert verify(tmp_path).returncode == 2
    assert subprocess.run([CLI, "verify"], capture_output=True).returncode == 2


def test_hostile_text_is_escaped_in_human_output(submission):
    log = submission / "agent-log.jsonl"
    lines = log.read_bytes().splitlines()
    ev = orjson.loads(lines[3])
    ev["type"] = "\x1b[31mred\u202e"
    lines[3] = orjson.dumps(ev)
    log.write_bytes(b"\n".join(lines) + b"\n")
    proc = verify(submission)
    assert proc.returncode == 1
    assert "\x1b" not in proc.stdout and "\u202e" not in proc.stdout
    assert "agent-log.jsonl:4" in proc.stdout


def test_sample_copy_in_an_archive_like_folder_name(tmp_path):
    """A folder whose name has spaces and unicode is fine; the video can have any name."""
    d = tmp_path / "my run ✓"
    shutil.copytree(SAMPLE, d)
    (d / "video.mp4").rename(d / "Recording 2026-10-22.mp4")
    proc = verify(d, "--json")
    assert proc.returncode == 0
    assert one_json(proc.stdout)["input"] == "my run ✓"


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "ten"])
def test_offset_must_be_a_finite_number(bad, tmp_path):
    # NaN would make every missing-footage sum 0 and pass any video: a usage error instead.
    from moderator_app.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["verify", str(SAMPLE), "--offset", bad])
    assert exc.value.code == 2


def test_coverage_refuses_non_finite_numbers():
    from moderator_app.core.verify.coverage import compute_coverage

    with pytest.raises(ValueError):
        compute_coverage(10.0, 10.0, float("nan"))
