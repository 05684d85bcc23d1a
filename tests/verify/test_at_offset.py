"""The report at another sync offset, computed without re-reading the evidence, is exactly
the report `verify --offset` makes (byte for byte), and finding moments are where they say."""

from __future__ import annotations

import math
import shutil

import orjson
import pytest
from conftest import SAMPLES

from moderator_app.core.rules import Finding, Severity
from moderator_app.core.verify.at_offset import report_at_offset, result_at_offset
from moderator_app.core.verify.moments import finding_moment
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

OFFSETS = (0.0, -7.5, -2.0, 0.5, 1.25, 3.0, 12.0, 40.0)


def as_bytes(report) -> bytes:
    return orjson.dumps(report.to_dict(), option=orjson.OPT_SORT_KEYS)


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    folder = tmp_path_factory.mktemp("s") / "community-sample"
    shutil.copytree(SAMPLES / "community-sample", folder)
    return folder


@pytest.fixture(scope="module")
def verified(sample):
    return {o: verify_paths([sample], VerifyOptions(offset=o)) for o in OFFSETS}


@pytest.mark.parametrize("start", (0.0, 12.0))
def test_report_at_offset_is_the_verified_report_byte_for_byte(verified, start):
    base = verified[start]
    for o in OFFSETS:
        again = report_at_offset(base.report, o, base.run_duration_s)
        assert as_bytes(again) == as_bytes(verified[o].report), o


def test_verdicts_change_with_the_offset_as_the_cli_says(verified):
    verdicts = {o: verified[o].report.verdict for o in OFFSETS}
    assert verdicts[0.0] == "pass" and verdicts[40.0] == "fail" and verdicts[-7.5] == "fail"
    base = verified[0.0]
    for o in OFFSETS:
        assert result_at_offset(base, o).report.verdict == verdicts[o]
    # The base report is not changed by asking for another offset.
    assert base.report.offset == 0.0 and base.report.verdict == "pass"


def test_same_offset_is_the_same_object(verified):
    base = verified[0.0]
    assert result_at_offset(base, 0.0) is base


def test_no_video_only_the_offset_changes(tmp_path):
    (tmp_path / "s").mkdir()
    shutil.copy(SAMPLES / "community-sample" / "agent-log.jsonl", tmp_path / "s")
    a = verify_paths([tmp_path / "s"], VerifyOptions(offset=0.0))
    b = verify_paths([tmp_path / "s"], VerifyOptions(offset=5.0))
    assert as_bytes(report_at_offset(a.report, 5.0, a.run_duration_s)) == as_bytes(b.report)


def test_non_finite_offset_is_refused(verified):
    with pytest.raises(ValueError):
        report_at_offset(verified[0.0].report, math.nan, verified[0.0].run_duration_s)


def test_coverage_missing_moment_is_the_first_missing_instant(verified):
    # run_start at video 12 s: the 27.6 s video ends 15.6 s into the 26.6 s run (at 40 s,
    # which this test used, the video ends before run_start: see the next test)
    late = verified[12.0]
    f = next(f for f in late.report.findings.sorted() if f.rule == "coverage.missing")
    m = finding_moment(f, late.index, 12.0)
    video_end = late.report.video.duration_s
    assert m.run_s == pytest.approx(video_end - 12.0)
    assert m.run_s > 0  # duration-ok: a moment inside the run, not a wall-clock time
    assert m.video_s == pytest.approx(video_end)
    early = verified[-7.5]  # the video starts 7.5 s after run_start
    f = next(f for f in early.report.findings.sorted() if f.rule == "coverage.missing")
    m = finding_moment(f, early.index, -7.5)
    assert (m.run_s, m.video_s) == (0.0, -7.5)


def test_coverage_missing_is_at_run_start_when_the_video_ends_before_it(verified):
    # Seen on Xvfb: a 28 s video at offset 30 s (all of it before run_start) sent the
    # playhead to run time -2 s, before the run, for "video misses 47 s of the run".
    base = verified[0.0]
    video_end = base.report.video.duration_s
    at = result_at_offset(base, video_end + 2.0)
    f = next(f for f in at.report.findings.sorted() if f.rule == "coverage.missing")
    m = finding_moment(f, at.index, video_end + 2.0)
    assert m.run_s == 0.0
    assert m.video_s == pytest.approx(video_end + 2.0)  # duration-ok: a video time


def test_a_line_finding_is_at_its_event(tmp_path):
    folder = tmp_path / "bad"
    shutil.copytree(SAMPLES / "community-sample", folder)
    log = folder / "agent-log.jsonl"
    lines = log.read_bytes().splitlines()
    ev = orjson.loads(lines[6])
    ev["type"] = "nonsense"
    lines[6] = orjson.dumps(ev)
    log.write_bytes(b"\n".join(lines) + b"\n")
    result = verify_paths([folder], VerifyOptions(offset=1.0, build_index=True))
    f = next(f for f in result.report.findings.sorted() if f.line == 7)
    m = finding_moment(f, result.index, 1.0)
    assert m.run_s == pytest.approx(ev["elapsedMs"] / 1000, abs=0.002)
    assert m.video_s == pytest.approx(m.run_s + 1.0)


def test_cli_offset_auto_reports_what_verify_at_that_offset_reports():
    """`verify --offset auto` re-evaluates the report at the suggested offset without reading
    the evidence again: the result is `verify --offset <that offset>` plus the sync section."""
    import subprocess
    import sys

    corpus = pytest.importorskip("corpus")
    run = corpus.build("breakout-genuine")

    def verify_json(*args):
        out = subprocess.run([sys.executable, "-m", "moderator_app", "verify", str(run.folder),
                              "--json", *args], capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        return orjson.loads(out.stdout)

    auto = verify_json("--offset", "auto")
    fixed = verify_json("--offset", repr(auto["sync_offset_s"]))
    assert auto.pop("sync") is not None and fixed.pop("sync") is None
    assert auto == fixed


def test_whole_file_findings_lead_somewhere():
    """A click on `seed.not_checked` left the playhead where it was (issue 11 point 3): it is
    now at the first seed_commitment event; other whole-file findings at run_start."""
    official = SAMPLES / "official-sample"
    result = verify_paths([official], VerifyOptions(offset=2.0, build_index=True))
    f = next(f for f in result.report.findings.sorted() if f.rule == "seed.not_checked")
    m = finding_moment(f, result.index, 2.0)
    index = result.index
    first = next(r for r in range(len(index)) if index.kind_of(r) == "seed_commitment")
    assert index.lines[first] == 2
    assert (m.run_s, m.video_s) == (index.times[first], index.times[first] + 2.0)
    assert m.run_s == 0.5  # line 2 of the sample is at 00:00.500
    ambiguous = Finding(Severity.ERROR, "input.several_logs", "two logs")
    m = finding_moment(ambiguous, index, 2.0)
    assert (m.run_s, m.video_s) == (0.0, 2.0)


def test_the_first_missing_instant_is_no_footage_at_every_offset(verified):
    # QA session 12 (Alien at offset 10.033): the coverage finding's moment, the video's end
    # (rounded to 1 µs by the probe) minus the offset plus the offset again, fell a few
    # 1e-15 s either side of the end of the last frame's display interval: the last frame at
    # one offset, "no footage at this time" at the next. The rule (FrameIndex.frame_at): a
    # moment at or past that end is no footage, compared at 1 µs; the core and the player
    # both ask frame_for_time.
    from moderator_app.core.video.export import frame_for_time
    base = verified[0.0]
    index = base.video_probe.index
    last = index.frame_count - 1
    seen = 0
    for k in range(101):
        o = round(10.0 + k / 1000, 3)
        at = result_at_offset(base, o)
        f = next(f for f in at.report.findings.sorted() if f.rule == "coverage.missing")
        m = finding_moment(f, at.index, o)
        assert frame_for_time(index, m.video_s) is None, o
        # half a frame earlier is the last frame's own display interval
        assert frame_for_time(index, m.video_s - index.frame_duration_s / 2) == last, o
        seen += 1
    assert seen == 101
