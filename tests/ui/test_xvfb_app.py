"""The real application, started as a subprocess on a real X server (Xvfb, xcb platform).

Not skipped in CI: when CI=true and Xvfb (or xwininfo / ImageMagick's import) is missing, this
test fails, because it is the only test of the real display path.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time

import cv2
import pytest
from conftest import REPO
from ui_helpers import WAIT_MS
from xvfb_helpers import (
    Xvfb,
    app_env,
    screenshot,
    start_app,
    stop_app,
    tools_missing,
    wait_for_title,
)

from moderator_app.core.samples.community import make_agent_log, make_video

#: How long a child window below waits for its own work (a verification, a scan, a real run's
#: sync analysis) before it says what it shows: a guard against a hang, under the parent's
#: 4 x WAIT_MS. It was WAIT_MS: with the suite on both cores at a load of 20 (session 45), a
#: Pong run's sync was still "analysing" at 60 s and the test failed on a timing, not a fault.
CHILD_GUARD_S = 3 * WAIT_MS / 1000


def drawn(img) -> bool:
    """A painted window: not a blank screen, and many colours (text, video, widgets)."""
    return float(img.std()) > 10 and len({tuple(p) for p in img[::16, ::16].reshape(-1, 3)}) > 20


@pytest.fixture
def xserver():
    missing = tools_missing()
    if missing:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI must have these for the real-display test: {missing}")
        pytest.skip(f"not installed: {missing}")
    x = Xvfb()
    yield x
    x.stop()


def test_real_app_shows_titled_window_and_draws(xserver, tmp_path):
    sub = tmp_path / "speedrun-007"
    sub.mkdir()
    duration = make_agent_log(sub / "agent-log.jsonl", n_events=60)
    make_video(sub / "video.mp4", math.ceil(duration) + 1, fps=10.0, size=(320, 180))
    log = tmp_path / "app.log"
    proc = start_app([str(sub)], app_env(xserver.display, tmp_path / "home"), log)
    try:
        # The wait's own time limit only guards against a hang: no test asserts a duration.
        wait_for_title(xserver.display, "speedrun-007 — Moderator Workstation", proc, timeout=120)
        # The window is mapped before it is painted (and, on a loaded machine, long before):
        # screenshots are taken until one shows a drawn window, a hang guard bounding the wait.
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")
            img = cv2.imread(str(screenshot(xserver.display, tmp_path / "shot.png")))
            assert img is not None and img.shape[0] >= 600
            if drawn(img) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert float(img.std()) > 10  # not a blank screen
        assert len({tuple(p) for p in img[::16, ::16].reshape(-1, 3)}) > 20
    finally:
        stop_app(proc)
    output = log.read_text(errors="replace")
    assert "Traceback" not in output, output


AS_LIMIT = 512 << 20

CHILD = """
import json, os, resource, sys, time
limit = int(os.environ["AS_LIMIT"])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
from moderator_app.__main__ import main
deadline = time.monotonic() + float(os.environ["HANG_GUARD_S"])
state = {"played": False, "error": None}

def poll():
    windows = [w for w in app.topLevelWidgets() if hasattr(w, "session") and w.isVisible()]
    w = windows[0] if windows else None
    ready = (w is not None and w.session.result is not None and w.player.has_video
             and w.player.shown_frame >= 0)
    if ready and not state["played"]:  # then play: decoding ahead starts FFmpeg's threads
        state["played"] = True
        w.player.decoder_error.connect(lambda reason: state.update(error=reason))
        w.player.play()
        return
    done = state["played"] and (w.player.shown_frame >= 100 or state["error"] is not None)
    if done or time.monotonic() > deadline:
        report = w.session.result.report if w is not None and w.session.result else None
        print(json.dumps({
            "verdict": report.verdict if report else None,
            "rules": sorted({f.rule for f in report.findings}) if report else None,
            "has_video": bool(w and w.player.has_video),
            "played_100_frames": bool(w and w.player.shown_frame >= 100),
            "decoder_error": state["error"],
        }), flush=True)
        app.quit()

timer = QTimer()
timer.timeout.connect(poll)
timer.start(100)
sys.exit(main([sys.argv[1]]))
"""


def test_the_sample_opens_plays_and_passes_under_a_512_mib_address_space(xserver, tmp_path):
    """The workstation under `prlimit --as=536870912`, as the hostile-input judges run it
    (issue 15): the honest sample must still open, play and pass. Before the malloc arena
    cap (`core/arenas.py`) glibc reserved 64 MiB of address space per thread arena: the GUI
    process reached 784 MiB on X, a 4 MiB pipe read raised MemoryError and the sample's
    video was `video.unreadable` (FAIL). Then, playing, the video process's FFmpeg threads
    (8 MiB of stack each, 28 threads) ran out: "BlockingIOError" after 15 frames. The app
    runs through its real entry point (`moderator_app.__main__.main`); a timer in the child
    presses play once the report and the first frame are there, and reports when 100 frames
    were shown or the decoder failed, then quits (the wait is a hang guard)."""
    sample = REPO / "resources" / "samples" / "community-sample"
    env = {**app_env(xserver.display, tmp_path / "home"), "AS_LIMIT": str(AS_LIMIT),
           "HANG_GUARD_S": str(CHILD_GUARD_S), "HOME": str(tmp_path / "home"),
           "TMPDIR": str(tmp_path)}
    env.pop("MALLOC_ARENA_MAX", None)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(sample)], env=env,
                          capture_output=True, text=True, timeout=4 * WAIT_MS / 1000)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert lines, (proc.returncode, proc.stdout, proc.stderr)
    seen = json.loads(lines[-1])
    assert seen == {"verdict": "pass", "rules": ["coverage.extra"], "has_video": True,
                    "played_100_frames": True, "decoder_error": None}, proc.stderr


OPEN_CHILD = """
import json, os, resource, sys, time
limit = int(os.environ["AS_LIMIT"])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
from moderator_app.__main__ import main
deadline = time.monotonic() + float(os.environ["HANG_GUARD_S"])
state = {}

def poll():
    windows = [w for w in app.topLevelWidgets() if hasattr(w, "session") and w.isVisible()]
    w = windows[0] if windows else None
    result = w.session.result if w is not None else None
    failed = w is not None and w.status_label.text().startswith("Cannot open")
    if result is not None and "row" not in state:  # show the big line: table row and detail
        state["row"] = result.index.row_for_line(int(os.environ["BIG_LINE"]))
        w.nav.select_event(state["row"])
        w.table.scrollTo(w.table_model.index(state["row"], 0))
        return
    detail = w.detail.text.toPlainText() if w is not None else ""
    if (result is not None and detail) or failed or time.monotonic() > deadline:
        report = result.report if result is not None else None
        print(json.dumps({
            "rules": [[f.rule, f.line] for f in report.findings] if report else None,
            "status": w.status_label.text() if w is not None else None,
            "detail": detail[:120],
        }), flush=True)
        app.quit()

timer = QTimer()
timer.timeout.connect(poll)
timer.start(100)
sys.exit(main([sys.argv[1]]))
"""


@pytest.mark.parametrize("make", ["make_wide_member_line", "make_big_string_line"])
def test_lines_that_need_memory_are_judged_as_the_cli_judges_them_under_512_mib(
        xserver, tmp_path, capsys, make):
    """Issue 15, as the judges run it: the workstation under `prlimit --as=536870912` (X, so
    Qt's libraries hold their real share of the address space) opens a community log whose
    second line holds 300,000 more members, or a 15 MiB string, and shows that line (table
    row and detail pane). Before the verification ran in a process of its own, the first
    crashed the window (SIGSEGV in `orjson.dumps`, exit -11; again when the table showed the
    row, before it was shown raw) and the second showed a wrong `log.json` "Not enough memory
    to allocate buffer for parsing". Now the window lives (the scripted open exits 0) and
    shows the CLI's findings, line for line."""
    import hostile_corpus
    from hostile_corpus import run_cli

    folder = getattr(hostile_corpus, make)(tmp_path / "in")
    code, out, _ = run_cli(capsys, "verify", "--json", folder)
    assert code == 1
    cli_rules = [[f["rule"], f["line"]] for f in json.loads(out)["findings"]]
    assert cli_rules == [["input.no_video", None]]  # the line itself is valid
    env = {**app_env(xserver.display, tmp_path / "home"), "AS_LIMIT": str(AS_LIMIT),
           "BIG_LINE": "2",
           "HANG_GUARD_S": str(CHILD_GUARD_S), "HOME": str(tmp_path / "home"),
           "TMPDIR": str(tmp_path)}
    env.pop("MALLOC_ARENA_MAX", None)
    proc = subprocess.run([sys.executable, "-c", OPEN_CHILD, str(folder)], env=env,
                          capture_output=True, text=True, timeout=4 * WAIT_MS / 1000)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert lines, (proc.returncode, proc.stdout, proc.stderr)
    seen = json.loads(lines[-1])
    assert seen["rules"] == cli_rules, seen
    assert seen["status"].startswith("FAIL"), seen
    # The line as written, after the pane's note: it shows the first 64 KiB of a long line
    # (session 10: a 5-15 MiB line blocked the window 1.5-2.5 s while it was wrapped).
    note, _, line = seen["detail"].partition("\n")
    assert note.startswith("[line is ") and note.endswith(
        " MiB, shown in part (the first 64 KiB); Copy line copies all]"), seen
    assert line.startswith('{"seq":1,'), seen


SYNC_CHILD = """
import json, os, resource, sys, time
limit = int(os.environ["AS_LIMIT"])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
from moderator_app.__main__ import main
deadline = time.monotonic() + float(os.environ["HANG_GUARD_S"])

def poll():
    windows = [w for w in app.topLevelWidgets() if hasattr(w, "session") and w.isVisible()]
    w = windows[0] if windows else None
    said = w.auto_sync.label.text() if w is not None else ""
    ready = (w is not None and w.session.result is not None
             and said.startswith(("auto-sync: run_start", "auto-sync: not")))
    if ready or time.monotonic() > deadline:
        print(json.dumps({"sync": said, "status": w.status_label.text() if w else None}),
              flush=True)
        app.quit()

timer = QTimer()
timer.timeout.connect(poll)
timer.start(100)
sys.exit(main([sys.argv[1]]))
"""


def test_the_sync_suggestion_survives_a_15_mib_line_under_512_mib(xserver, tmp_path,
                                                                   monkeypatch):
    """Issue 15: the sync analysis read and parsed the log in the window's own process, so
    under `prlimit --as=536870912` a log with a valid 15 MiB string line (a real Pong run's
    log, its video beside it) verified in the child and then said "auto-sync: not run:
    MemoryError: Not enough memory to allocate buffer for parsing", no offset suggested.
    The actions' times now come from the verification's process with the report: the window
    suggests the very offset it suggests for the run without that line."""
    import shutil

    import corpus
    import orjson

    if corpus.available() is not None:
        pytest.skip(f"corpus cannot be built: {corpus.available()}")
    run = corpus.build("pong-genuine")
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    honest_dir, folder = tmp_path / "honest", tmp_path / "big-line"
    lines = run.log.read_bytes().splitlines()
    for d in (honest_dir, folder):
        d.mkdir()
        shutil.copy(run.video, d / "video.mp4")
    (honest_dir / "agent-log.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    ev = orjson.loads(lines[1])
    ev.setdefault("data", {})["s"] = "a" * (15 << 20)
    lines[1] = orjson.dumps(ev)
    (folder / "agent-log.jsonl").write_bytes(b"\n".join(lines) + b"\n")

    def sync_said(path) -> dict:
        env = {**app_env(xserver.display, tmp_path / "home"), "AS_LIMIT": str(AS_LIMIT),
               "HANG_GUARD_S": str(CHILD_GUARD_S), "HOME": str(tmp_path / "home"),
               "TMPDIR": str(tmp_path), "MODERATOR_APP_CACHE": str(tmp_path / "cache")}
        env.pop("MALLOC_ARENA_MAX", None)
        proc = subprocess.run([sys.executable, "-c", SYNC_CHILD, str(path)], env=env,
                              capture_output=True, text=True, timeout=4 * WAIT_MS / 1000)
        assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
        assert "Traceback" not in proc.stderr, proc.stderr
        got = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        assert got, (proc.returncode, proc.stdout, proc.stderr)
        return json.loads(got[-1])

    honest = sync_said(honest_dir)
    assert honest["sync"].startswith("auto-sync: run_start at "), honest
    seen = sync_said(folder)
    assert seen["sync"] == honest["sync"], seen
