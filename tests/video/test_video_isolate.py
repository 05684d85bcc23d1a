"""Children of the isolated video process started ahead (`isolate.prestart`): one imports
PyAV and numpy before its file is known and is handed the file's descriptor when a
`VideoProcess` starts, so the start-up runs beside other work. What must hold: the child
started ahead is the one that reads the file; one started under other settings (a fault
switch, a nice value) is never used; one never given a file goes away."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from moderator_app.core.video import isolate
from moderator_app.core.video.isolate import VideoProcess
from moderator_app.core.video.probe import probe_video

pytestmark = [pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg"),
              pytest.mark.skipif(not isolate.FD_PASSING, reason="Linux descriptor passing")]


@pytest.fixture(autouse=True)
def no_spares_left():
    isolate.discard_spares()
    yield
    isolate.discard_spares()


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    out = tmp_path_factory.mktemp("iso") / "clip é.mp4"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=160x120:rate=30", "-frames:v", "45", "-c:v", "libx264",
                    "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(out)], check=True)
    return out


def test_the_child_started_ahead_reads_the_file_it_is_given(clip):
    isolate.prestart(1, wait=True)
    (spare,) = isolate._SPARES
    with VideoProcess(clip) as vp:
        assert vp.proc.pid == spare.proc.pid
        msg = vp.request({"op": "probe"})
    assert msg.header["ok"] and msg.header["first_decodes"]
    assert isolate._SPARES == []
    assert probe_video(clip, clip.name).frame_count == 45  # and one started on the spot


def test_two_started_ahead_serve_two_processes_in_turn(clip):
    isolate.prestart(2)
    pids = [sp.proc.pid for sp in isolate._SPARES]
    assert len(pids) == 2
    got = []
    for _ in range(2):
        with VideoProcess(clip) as vp:
            got.append(vp.proc.pid)
            assert vp.request({"op": "probe"}).header["ok"]
    assert got == pids and isolate._SPARES == []


def test_a_child_started_under_other_settings_is_not_used(clip, monkeypatch):
    isolate.prestart(1, wait=True)
    (spare,) = isolate._SPARES
    monkeypatch.setenv("MODERATOR_VIDEO_FAULT", "crash")  # the next child must crash
    p = probe_video(clip, clip.name)
    assert not p.ok and "crashed (SIGSEGV)" in p.findings[0].message
    assert spare.proc.poll() is not None and isolate._SPARES == []


def test_a_child_never_given_a_file_exits_by_itself(clip):
    isolate.prestart(1, wait=True)
    (spare,) = isolate._SPARES
    spare.sock.close()  # what the parent's exit does to it
    assert spare.proc.wait(timeout=30) == 0
