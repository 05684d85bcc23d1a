"""Children of the isolated video process started ahead (`isolate.prestart`): one imports
PyAV and numpy before its file is known and is handed the file's descriptor when a
`VideoProcess` starts, so the start-up runs beside other work. What must hold: the child
started ahead is the one that reads the file; one started under other settings (a fault
switch, a nice value) is never used; one never given a file goes away."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading

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


def _in_thread_at(nice: int, fn):
    """fn() on a thread lowered to `nice` (as the workstation's background lanes are)."""
    from moderator_app.core.priority import lower_this_thread
    out: list = []

    def run() -> None:
        lower_this_thread(nice)
        out.append(fn())
    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out[0]


LOWER = os.nice(0) + 5  # a background thread's nice value, relative to the test's own


@pytest.mark.skipif(LOWER > 19, reason="the tests already run at the lowest priority")
def test_a_background_thread_takes_a_child_started_at_full_priority_and_lowers_it(clip):
    # the workstation starts children on the GUI thread; the scan runs on a lowered thread
    isolate.prestart(1, wait=True)
    (spare,) = isolate._SPARES

    def scan_like():
        with VideoProcess(clip) as vp:
            assert vp.request({"op": "probe"}).header["ok"]
            return vp.proc.pid, os.getpriority(os.PRIO_PROCESS, vp.proc.pid)
    assert _in_thread_at(LOWER, scan_like) == (spare.proc.pid, LOWER)


def _group_line(pid: int) -> str:
    """The process's autogroup line, "/autogroup-123 nice 0"; empty where its session has no
    autogroup of its own (a session the kernel left in the root group, as a CI runner's is)."""
    with open(f"/proc/{pid}/autogroup") as f:
        return f.read()


def _group_nice(pid: int) -> int:
    line = _group_line(pid)
    if not line.strip():
        pytest.skip(f"process {pid}'s session has no autogroup of its own")
    return int(line.split()[-1])


@pytest.mark.skipif(LOWER > 19, reason="the tests already run at the lowest priority")
@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"), reason="no autogroup scheduling")
def test_a_child_taken_by_a_background_thread_lowers_its_scheduling_group_too(clip):
    """With autogroup scheduling each session is a group and a nice value counts only inside
    it: a child in a session of its own must lower its group, or it takes the CPU at the
    player's weight whatever its nice value (`priority.lower_group`)."""
    isolate.prestart(1, wait=True)
    (spare,) = isolate._SPARES
    assert _group_nice(spare.proc.pid) == 0

    def scan_like():
        with VideoProcess(clip) as vp:
            return vp.proc.pid, _group_nice(vp.proc.pid)
    assert _in_thread_at(LOWER, scan_like) == (spare.proc.pid, LOWER)


@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"), reason="no autogroup scheduling")
@pytest.mark.skipif(os.getsid(0) == os.getpid(), reason="the tests lead their own session")
def test_a_process_that_shares_its_session_never_lowers_the_group():
    from moderator_app.core.priority import lower_group
    before = _group_line(os.getpid())  # empty where the session has no autogroup: still True
    assert lower_group(None, 19) is False  # the group is this session's: the whole terminal's
    assert _group_line(os.getpid()) == before


@pytest.mark.skipif(LOWER > 19, reason="the tests already run at the lowest priority")
def test_a_child_started_by_a_background_thread_never_serves_full_priority(clip):
    _in_thread_at(LOWER, lambda: isolate.prestart(1, wait=True))
    (spare,) = isolate._SPARES
    with VideoProcess(clip) as vp:  # this thread's priority, as the player's
        assert vp.proc.pid != spare.proc.pid
        assert os.getpriority(os.PRIO_PROCESS, vp.proc.pid) == os.nice(0)
    assert len(isolate._SPARES) == 1 and isolate._SPARES[0] is spare  # left for its thread
    assert spare.proc.poll() is None


def test_each_thread_starts_ahead_what_it_will_use_and_takes_its_own_first(clip):
    """The GUI thread starts two (the player's, the scan's); the verification's thread,
    at the same priority here (tests may run at one nice value for all), still starts its
    probe's and takes that one; the GUI thread then finds both of its own."""
    isolate.prestart(2)
    gui = [sp.proc.pid for sp in isolate._SPARES]

    def verification():
        isolate.prestart(1)
        (own,) = [sp.proc.pid for sp in isolate._SPARES if sp.proc.pid not in gui]
        with VideoProcess(clip) as vp:
            assert vp.request({"op": "probe"}).header["ok"]
            return own, vp.proc.pid
    own, probe = _in_thread_at(os.nice(0), verification)
    assert probe == own and own not in gui
    assert [sp.proc.pid for sp in isolate._SPARES] == gui
    isolate.prestart(2)  # asked again (the next open): its two are waiting, none started
    assert [sp.proc.pid for sp in isolate._SPARES] == gui


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


def test_a_child_that_died_while_waiting_is_replaced(clip):
    """A child killed while it waited (out of memory, a stray signal) is no spare: the next
    prestart starts one in its place, so the next decoder does not start cold."""
    isolate.prestart(1, wait=True)
    (dead,) = isolate._SPARES
    os.killpg(dead.proc.pid, 9)
    dead.proc.wait(timeout=30)
    isolate.prestart(1)
    (fresh,) = isolate._SPARES
    assert fresh.proc.pid != dead.proc.pid and fresh.proc.poll() is None
    with VideoProcess(clip) as vp:
        assert vp.proc.pid == fresh.proc.pid


def test_a_folder_holding_a_moderator_app_package_never_runs_in_the_child(clip, tmp_path,
                                                                            monkeypatch):
    """Started from a folder that holds a `moderator_app/` (an unpacked submission, another
    checkout), the child runs its parent's code: `python -m` would have put that folder first
    on the path (QA s22 P4: a worktree's older copy ran in the children)."""
    marker = tmp_path / "ran"
    shadow = tmp_path / "here" / "moderator_app"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (shadow / "__main__.py").write_text("raise SystemExit(3)\n")
    monkeypatch.chdir(shadow.parent)
    with VideoProcess(clip) as vp:
        msg = vp.request({"op": "probe"})
    assert msg.header["ok"] and msg.header["first_decodes"]
    assert not marker.exists()
