"""The video process forked from the CLI (issue 12 point 5, session 20; core/video/forking.py):
`verify --scan` gets the findings a started child gets, to the frame and the millisecond, and
the forked child keeps the guarantees of one started as a new interpreter (issue 15): a crash,
a hang and a memory cap are plain reasons, it holds none of the CLI's files, and a SIGTERM
ends it rather than running the CLI's handler.

Each case runs in a fresh single-threaded interpreter, as the CLI is: the test process itself
may hold threads of other tests, where `can_fork` rightly refuses.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.video.scan import run_scan

pytestmark = [
    pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux"),
]

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = """
import json, os, sys
from moderator_app.core.arenas import one_blas_thread
one_blas_thread()  # as `moderator_app.__main__` before a CLI command
from moderator_app.core.video import isolate
forked = []
real = isolate.fork_video_child
def counting(sock):
    child = real(sock)
    forked.append(child is not None)
    return child
isolate.fork_video_child = counting
"""


def _run(script: str, tmp_path: Path, **env: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PRELUDE + script],
        env={**os.environ, "PYTHONPATH": str(ROOT), "MODERATOR_APP_CACHE": str(tmp_path / "c"),
             **env},
        capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1])


VERIFY = """
import resource
cap = 512 << 20  # the judges' `prlimit --as=536870912`: the forked child inherits the CLI's
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from pathlib import Path
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
report = verify_paths([Path(os.environ["FOLDER"])], VerifyOptions(scan_video=True)).report
scan = report.video_scan
print(json.dumps({"forked": forked, "frames": scan.frames, "packets": scan.packets,
                  "complete": scan.complete,
                  "findings": [[f.rule, f.start_s, f.end_s, f.message] for f in scan.findings]}))
"""


@pytest.mark.parametrize("shape", ["scan", "audio_gap", "gap"])
def test_verify_scan_in_a_forked_child_finds_what_a_started_one_finds(tmp_path, shape):
    folder = tmp_path / "sub"
    folder.mkdir()
    make_agent_log(folder / "agent-log.jsonl", n_events=12, seed=1)
    video = vc.build(vc.RECIPES[shape])
    shutil.copyfile(video, folder / f"run{video.suffix}")
    got = _run(VERIFY, tmp_path, FOLDER=str(folder))
    alone = run_scan(folder / f"run{video.suffix}", cache=False)  # a started child, as before
    assert got["forked"] == [True]  # one process, forked: the probe's and the scan's
    assert got["complete"] and got["frames"] == alone.signals.frame_count
    assert got["packets"] == alone.packets
    assert got["findings"] == [[s.rule, round(s.start_s, 3), round(s.end_s, 3), s.message]
                               for s in alone.spans]
    assert got["findings"]  # each shape has something to find


FAULT = """
from moderator_app.core.video.forking import ForkedChild
from moderator_app.core.video.isolate import VideoProcess, VideoProcessError
try:
    with VideoProcess(os.environ["CLIP"], timeout_s=3.0, fork=True) as vp:
        kind = type(vp.proc).__name__
        vp.request({"op": "probe"})
    reason = None
except VideoProcessError as exc:
    reason = exc.reason
print(json.dumps({"forked": forked, "kind": kind, "reason": reason}))
"""


@pytest.mark.parametrize(("fault", "reason"), [
    ("crash", "the video decoder crashed (SIGSEGV) on this file"),
    ("hang", "the video took longer than 3 s to read (stopped)"),
])
def test_a_forked_child_that_crashes_or_hangs_is_a_plain_reason(tmp_path, fault, reason):
    clip = vc.build(vc.RECIPES["mp4"])
    got = _run(FAULT, tmp_path, CLIP=str(clip), MODERATOR_VIDEO_FAULT=fault)
    assert got == {"forked": [True], "kind": "ForkedChild", "reason": reason}


def test_a_forked_child_over_its_memory_cap_is_a_plain_reason(tmp_path):
    # 64 MiB: less than the CLI's address space already holds, so PyAV cannot even load in
    # the child; the parent gets a sentence, not the child's traceback
    clip = vc.build(vc.RECIPES["mp4"])
    got = _run(FAULT, tmp_path, CLIP=str(clip), MODERATOR_VIDEO_MEM=str(64 << 20))
    assert got == {"forked": [True], "kind": "ForkedChild",
                   "reason": "the video reader exited with status 70 on this file"}


ISOLATION = """
import signal, time
from moderator_app.core.video.isolate import VideoProcess
mine = open(os.environ["MARK"] + ".open", "w")  # a file the CLI holds open
def handler(*_):  # the CLI's SIGTERM handler removes its temporary files
    open(os.environ["MARK"], "w").close()
signal.signal(signal.SIGTERM, handler)
with VideoProcess(os.environ["CLIP"], fork=True) as vp:
    ok = vp.request({"op": "probe", "keep": True}).header["ok"]
    pid = vp.proc.pid
    fds = sorted(int(f) for f in os.listdir(f"/proc/{pid}/fd"))
    names = [os.readlink(f"/proc/{pid}/fd/{f}") for f in fds]
    session = os.getsid(pid) == pid
    os.kill(pid, signal.SIGTERM)
    code = vp.proc.wait(timeout=30)
time.sleep(0.2)  # a handler run by the child would have written its mark by now
print(json.dumps({"forked": forked, "ok": ok, "session": session, "code": code,
                  "names": names, "clip": os.environ["CLIP"] in names,
                  "mine": any(n.endswith(".open") for n in names),
                  "mark": os.path.exists(os.environ["MARK"])}))
"""


def test_a_forked_child_holds_none_of_the_cli_and_dies_by_sigterm(tmp_path):
    clip = vc.build(vc.RECIPES["mp4"])
    got = _run(ISOLATION, tmp_path, CLIP=str(clip), MARK=str(tmp_path / "mark"))
    names = got.pop("names")
    assert got == {"forked": [True], "ok": True, "session": True, "code": -15,
                   "clip": True, "mine": False, "mark": False}
    # its pipes, /dev/null for stderr, and the video (FFmpeg's, and the one received)
    assert [n.split(":")[0] for n in names[:3]] == ["pipe", "pipe", "/dev/null"]
    assert set(names[3:]) == {str(clip)}


LARGE = """
ballast = bytearray(300 << 20)  # this process's address space over MAX_PARENT_VM
from moderator_app.core.video.isolate import VideoProcess
with VideoProcess(os.environ["CLIP"], fork=True) as vp:
    kind = type(vp.proc).__name__
    ok = vp.request({"op": "probe"}).header["ok"]
print(json.dumps({"forked": forked, "kind": kind, "ok": ok}))
"""


def test_a_parent_with_a_large_address_space_starts_its_child(tmp_path):
    # a forked child inherits the parent's mappings, which its memory cap counts: a large
    # parent (a test process, a long-lived one) starts a fresh interpreter instead
    clip = vc.build(vc.RECIPES["mp4"])
    got = _run(LARGE, tmp_path, CLIP=str(clip))
    assert got == {"forked": [False], "kind": "Popen", "ok": True}


IMPORTS = """
parent = os.getpid()
def hook(event, args):  # audit hooks are inherited by a forked child
    if event == "import" and os.getpid() != parent:
        with open(os.environ["IMPORT_LOG"], "a") as fh:
            fh.write(args[0] + "\\n")
sys.addaudithook(hook)
from pathlib import Path
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
report = verify_paths([Path(os.environ["FOLDER"])], VerifyOptions(scan_video=True)).report
print(json.dumps({"forked": forked, "frames": report.video_scan.frames,
                  "parent_av": "av" in sys.modules}))
"""


def test_the_forked_child_imports_nothing_its_parent_imported_for_both(tmp_path):
    # `verify --scan` on a small file is mostly start-up (session 25: ~0.45 s of CPU against
    # a ~0.16 s decode floor): what both processes import (the index and its npz reader, the
    # signals) is imported once, before the fork; numpy.ma, which np.unique and np.median
    # imported in both, in neither (the next test)
    folder = tmp_path / "sub"
    folder.mkdir()
    make_agent_log(folder / "agent-log.jsonl", n_events=12, seed=1)
    video = vc.build(vc.RECIPES["scan"])
    shutil.copyfile(video, folder / f"run{video.suffix}")
    log = tmp_path / "child-imports.txt"
    got = _run(IMPORTS, tmp_path, FOLDER=str(folder), IMPORT_LOG=str(log))
    child = set(log.read_text().split())
    assert got["forked"] == [True] and got["frames"] > 0
    assert "av" in child and not got["parent_av"]  # PyAV in the child only, as before
    twice = {"numpy.ma", "numpy.ma.core", "zipfile", "fractions", "decimal",
             "moderator_app.core.video.index", "moderator_app.core.video.signals",
             "moderator_app.core.video.signals_rows", "moderator_app.core.video.chroma"}
    assert sorted(child & twice) == []


EVERY_IMPORT = """
def hook(event, args):  # audit hooks are inherited by a forked child: both processes log
    if event == "import":
        with open(os.environ["IMPORT_LOG"], "a") as fh:
            fh.write(f"{os.getpid()} {args[0]}\\n")
sys.addaudithook(hook)
from pathlib import Path
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
report = verify_paths([Path(os.environ["FOLDER"])], VerifyOptions(scan_video=True)).report
print(json.dumps({"forked": forked, "frames": report.video_scan.frames,
                  "findings": sorted(f.rule for f in report.findings)}))
"""


def test_verify_scan_imports_numpy_ma_in_neither_process(tmp_path):
    # `np.median` (the scan's analysis) and `np.unique` (the index's keyframes) imported
    # numpy.ma, ~6-8 ms of CPU of a small file's `verify --scan`; `core/video/middle.py`
    # gives their numbers without it (session 27). A video with a frozen stretch, so that
    # the analysis' medians run on spans too.
    folder = tmp_path / "sub"
    folder.mkdir()
    make_agent_log(folder / "agent-log.jsonl", n_events=12, seed=1)
    video = vc.build(vc.RECIPES["scan"])
    shutil.copyfile(video, folder / f"run{video.suffix}")
    log = tmp_path / "imports.txt"
    got = _run(EVERY_IMPORT, tmp_path, FOLDER=str(folder), IMPORT_LOG=str(log))
    lines = [line.split() for line in log.read_text().splitlines()]
    pids = {pid for pid, _ in lines}
    assert got["forked"] == [True] and got["frames"] > 0 and len(pids) == 2
    assert "video.frozen" in got["findings"]
    assert sorted({name for _, name in lines if name.split(".")[:2] == ["numpy", "ma"]}) == []

