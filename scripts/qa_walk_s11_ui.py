"""Issue 11 walkthrough of session 11 (docs/qa/session11-ui.md): the whole review loop walked as
a moderator on submissions no test opens, at the screen's size, with a screenshot of every
step: open, play, each finding, an offset, auto-sync, the Decision and Run tabs, a decision,
the next submission. The inputs are built by `build` from the real-game corpus
(`.cache/corpus/v2`, `make corpus`) and the trajectory writer (deterministic). Run on a display:

    .venv/bin/python scripts/qa_walk_s11_ui.py build OUT
    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s11_ui.py walk OUT 1280 720

Each step prints one JSON line of what the screen said; screenshots go to OUT/shots-WxH/.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / ".cache" / "corpus" / "v2"
#: (folder name, corpus run) of the community runs walked: 30 fps MP4, 48 fps MKV, a 60 fps
#: MP4 with 4 s of footage cut out.
COMMUNITY = (("skiing-30fps", "skiing-genuine@r30"), ("tennis-48fps-mkv", "tennis-genuine@r48mkv"),
             ("riverraid-60fps-cut", "riverraid-cut"))
#: What a hostile submitter writes where the screen shows it (markup, bidi, a long word).
HOSTILE_GAME = "<h1>BIG</h1><img src=x>"
HOSTILE_MODEL = "<a href='file:///etc/passwd'>provider</a>/\u202emodel" + "x" * 80


def build(out: Path) -> list[Path]:
    """The submissions, in the order walked (deterministic)."""
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    out.mkdir(parents=True, exist_ok=True)
    subs = []
    for name, run in COMMUNITY:
        dst = out / name
        if not dst.exists():
            shutil.copytree(CORPUS / run, dst)
        subs.append(dst)
    official = out / "official-kangaroo"
    if not official.exists():
        official.mkdir()
        write_trajectory(official / "events.jsonl.zst",
                         make_run_events(900, seed=1111, step_s=0.04))  # 36 s
        shutil.copy(CORPUS / "kangaroo-genuine" / "video.mp4", official / "video.mp4")
    subs.append(official)
    hostile = out / "<b>hostile<i> \u202ename"
    if not hostile.exists():
        hostile.mkdir()
        src = CORPUS / "freeway-genuine@r30"
        lines = (src / "agent-log.jsonl").read_bytes().splitlines()
        first = json.loads(lines[0])
        first["data"]["game"] = HOSTILE_GAME
        first["data"]["model"] = HOSTILE_MODEL
        lines[0] = json.dumps(first, ensure_ascii=False).encode()
        (hostile / "agent-log.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        shutil.copy(src / "video.mp4", hostile / "video.mp4")
        shutil.copy(src / "truth.json", hostile / "truth.json")
    subs.append(hostile)
    return subs


def wait(app, cond, guard_s: float = 120.0) -> bool:
    """Process events until `cond()` holds (a hang guard, not a speed bound)."""
    end = time.monotonic() + guard_s
    while not cond():
        app.processEvents()
        time.sleep(0.02)
        if time.monotonic() > end:
            return False
    return True


def walk(out: Path, w: int, h: int) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    subs = build(out)
    shots = out / f"shots-{w}x{h}"
    shutil.rmtree(shots, ignore_errors=True)
    shots.mkdir(parents=True)
    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(shots / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, store_path=shots / "gui.sqlite3")
    screen = QGuiApplication.primaryScreen()
    win.setGeometry(screen.availableGeometry())
    win.show()
    panel = win.decision_panel
    panel.reviewer.setText("qa")
    panel.confirm = lambda _title, _text: True
    queue = list(subs[1:])
    win.next_submission_provider = lambda: [queue.pop(0)] if queue else None

    def settle(n: int = 25) -> None:
        for _ in range(n):
            app.processEvents()
            time.sleep(0.01)

    def shot(tag: str) -> None:
        settle()
        screen.grabWindow(0).save(str(shots / f"{n:02d}-{tag}.png"))

    def say(step: str, **what) -> None:
        print(json.dumps({"size": f"{w}x{h}", "sub": n, "step": step, **what},
                         ensure_ascii=True, default=str), flush=True)

    win.open_paths([subs[0]])
    for n in range(len(subs)):
        wait(app, lambda: win.session.result is not None and not win.is_verifying())
        res = win.session.result
        if res.video_path is not None:
            wait(app, lambda: win.player.has_video and win.player.shown_frame >= 0, 60)
        win.sync_dock.raise_()
        geo = win.frameGeometry()
        say("open", name=res.submission.display_name, window=[geo.width(), geo.height()],
            fits=geo.width() <= screen.size().width() and geo.height() <= screen.size().height(),
            video_view=[win.player.view.width(), win.player.view.height()],
            status=win.status_label.text())
        shot("open")
        win.player.play()
        wait(app, lambda: False, 3.0)
        win.player.pause()
        say("play", label=win.player.position_label.text(), row=win.table.currentIndex().row())
        shot("play")
        fs = win.findings.findings
        for i, f in enumerate(fs[:8]):
            win.select_finding(i)
            settle(40)
            say("finding", rule=f.rule, line=f.line, label=win.player.position_label.text(),
                in_footage=win.player.in_footage, row=win.table.currentIndex().row())
            if i < 3:
                shot(f"finding{i}")
        if res.video_path is not None:
            truth = json.loads((res.submission.path / "truth.json").read_text()) \
                if (res.submission.path / "truth.json").exists() else {"offset_s": 0.0}
            win.sync.spin.setValue(round(truth["offset_s"] + 0.5, 3))
            settle()
            say("offset", report=win.session.report.verdict,
                coverage=win.sync.coverage_label.text())
            shot("offset")
            wait(app, lambda: win.auto_sync.analysis is not None, 120)
            win.auto_sync.apply_suggestion()
            settle()
            say("autosync", text=win.auto_sync.label.text(), offset=win.session.offset_s)
            shot("autosync")
        win.decision_dock.raise_()
        settle()
        say("decision", summary=panel.summary.text(),
            scrolled=win.decision_scroll.verticalScrollBar().value(),
            scroll_max=win.decision_scroll.verticalScrollBar().maximum())
        shot("decision")
        win.run_dock.raise_()
        shot("run")
        win.decision_dock.raise_()
        verdict = win.session.report.verdict
        if verdict == "pass":
            if res.report.kind.has_checklist:
                panel.checklist.set_ticked([b for b in panel.checklist.boxes])
            stored = panel.decide("accept")
        else:
            panel.note.setPlainText(f"walkthrough: {verdict}")
            stored = panel.decide("reject")
        say("decided", seq=stored and stored.seq, status=panel.status.text(),
            next=panel.next_button.text())
        shot("decided")
        if n + 1 < len(subs):
            panel.next_button.click()
            wait(app, lambda: win.session.result is None or win.is_verifying(), 30)
    win.shutdown()


if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in build(Path(sys.argv[2]))))
    else:
        walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
