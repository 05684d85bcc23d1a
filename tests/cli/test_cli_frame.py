"""`moderator-app frame` and `verify --scan` through the real command line (subprocess)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import cv2
import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.formats.event_index import EventIndex  # noqa: F401 (import check)
from moderator_app.core.samples.community import make_agent_log

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "moderator_app", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def code_of(png):
    img = cv2.imread(str(png), cv2.IMREAD_COLOR)
    return vc.read_code(img)


def test_frame_at_a_time_on_a_video(tmp_path):
    video = vc.build(vc.RECIPES["mkv_nocues"])
    out = tmp_path / "f.png"
    r = cli("frame", video, "--time", "0:12.51", "-o", out)
    assert r.returncode == 0, r.stderr
    assert code_of(out) == 375  # 12.51 s at 30 fps: frame 375 is on screen
    assert "frame 375" in r.stdout


@pytest.mark.parametrize("when", ["30.0", "-0.5", "1:00"])
def test_no_footage_exits_1_and_writes_nothing(tmp_path, when):
    video = vc.build(vc.RECIPES["mp4"])
    out = tmp_path / "f.png"
    r = cli("frame", video, f"--time={when}", "-o", out)
    assert r.returncode == 1
    assert "no footage at video time" in r.stderr and not out.exists()


def test_no_footage_far_past_the_end_names_the_time_briefly(tmp_path):
    """`--time 1e308` printed a 300-digit time (QA, session 8)."""
    video = vc.build(vc.RECIPES["mp4"])
    r = cli("frame", video, "--time", "1e308", "-o", tmp_path / "f.png")
    assert r.returncode == 1
    assert "no footage at video time 1e+308 s (the video spans" in r.stderr


def test_frame_for_an_event_line_with_an_offset(tmp_path):
    make_agent_log(tmp_path / "agent-log.jsonl", n_events=12, seed=3)
    shutil.copyfile(vc.build(vc.RECIPES["cut"]), tmp_path / "run.mp4")
    lines = (tmp_path / "agent-log.jsonl").read_text().splitlines()
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths
    res = verify_paths([tmp_path], VerifyOptions(build_index=True))
    row = res.index.row_for_line(7)
    run_t = res.index.times[row]
    out = tmp_path / "ev.png"
    r = cli("frame", tmp_path, "--line", 7, "--offset", "1.25", "-o", out)
    assert r.returncode == 0, r.stderr
    # the cut starts at source frame 150; video time = run time + offset
    assert code_of(out) == 150 + int((run_t + 1.25) * 30 + 1e-6)
    assert len(lines) == 12 and "line 7" in r.stdout


def test_frame_of_a_line_without_event(tmp_path):
    make_agent_log(tmp_path / "agent-log.jsonl", n_events=6, seed=3)
    shutil.copyfile(vc.build(vc.RECIPES["mp4"]), tmp_path / "run.mp4")
    r = cli("frame", tmp_path, "--line", 99, "-o", tmp_path / "x.png")
    assert r.returncode == 2 and "no event on line 99" in r.stderr


def test_an_unreadable_video_is_said_once(tmp_path):
    """Session 9 QA: a video FFmpeg cannot open (a YUV4MPEG header claiming 30000x30000
    pictures) printed "the video cannot be read: the video cannot be read: ..."."""
    video = tmp_path / "run.avi"
    video.write_bytes(b"YUV4MPEG2 W30000 H30000 F30:1 Ip A1:1 C420jpeg\nFRAME\n"
                      + bytes(range(256)) * 64)
    out = tmp_path / "f.png"
    r = cli("frame", video, "--time", "0", "-o", out)
    assert r.returncode == 2 and not out.exists()
    assert r.stderr.count("the video cannot be read") == 1, r.stderr


def test_verify_scan_section(tmp_path):
    dur = make_agent_log(tmp_path / "agent-log.jsonl", n_events=12, seed=1)
    assert dur < 55
    shutil.copyfile(vc.build(vc.RECIPES["scan"]), tmp_path / "run.mp4")
    plain = json.loads(cli("verify", tmp_path, "--json").stdout)
    assert plain["video_scan"] == {"ran": False,
                                   "reason": "not requested (verify --scan runs it)"}
    env_cache = tmp_path / "cache"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "verify", str(tmp_path),
                        "--json", "--scan"], capture_output=True, text=True,
                       env={**__import__("os").environ, "MODERATOR_APP_CACHE": str(env_cache)})
    rep = json.loads(r.stdout)
    scan = rep["video_scan"]
    assert scan["ran"] is True and scan["frames"] == 1800
    got = {(f["rule"], round(f["start_s"]), round(f["end_s"])) for f in scan["findings"]}
    assert {("video.frozen", 10, 14), ("video.black", 20, 23), ("video.cut", 40, 40)} <= got
    assert any(f["rule"] == "video.frozen" and f["severity"] == "warning"
               for f in rep["findings"])
    assert np.isfinite(rep["video"]["duration_s"])
    assert scan["complete"] is True


def test_verify_scan_budget(tmp_path):
    # --scan-budget: past it the scan stops where it is (the first look at the budget is at
    # frame 256: 8.533 s at 30 fps), says so, and is not cached; 0 means no bound
    make_agent_log(tmp_path / "agent-log.jsonl", n_events=12, seed=1)
    shutil.copyfile(vc.build(vc.RECIPES["scan"]), tmp_path / "run.mp4")
    env = {**__import__("os").environ, "MODERATOR_APP_CACHE": str(tmp_path / "cache")}

    def verify(*extra):
        return subprocess.run([sys.executable, "-m", "moderator_app", "verify", str(tmp_path),
                               "--scan", *extra], capture_output=True, text=True, env=env)

    r = verify("--scan-budget", "0.000001", "--json")
    assert r.returncode == 0, r.stderr
    scan = json.loads(r.stdout)["video_scan"]
    assert scan["complete"] is False and scan["frames"] == 256
    assert [(f["rule"], f["start_s"]) for f in scan["findings"]] == [
        ("video.scan_stopped", 8.533)]
    text = verify("--scan-budget", "0.000001").stdout
    assert "Scan: 256 frames decoded (STOPPED at its CPU budget, at 8.533 s)" in text
    assert "info     video.scan_stopped  the scan stopped at 8.533 s" in text
    whole = json.loads(verify("--scan-budget", "0", "--json").stdout)["video_scan"]
    assert whole["complete"] is True and whole["frames"] == 1800
    assert not whole["from_cache"]
    bad = verify("--scan-budget", "-1")
    assert bad.returncode == 2 and "a budget is 0 (no bound) or more seconds" in bad.stderr
