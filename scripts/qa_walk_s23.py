"""Issue 11 walk of session 23 (s23-walk): the review loop as a new moderator walks it, on the
bundled samples (`make run`'s relative path, the official run), real-game corpus runs and
broken ones, with real key presses (QTest through the window's shortcuts), a screenshot per
step and each GUI decision's ledger record compared with `moderator-app decide` at the same
offset (every field but `decided_at`).

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s23.py OUT 1280 720

Inputs are read-only (.cache/qa-s21, .cache/corpus/v2); the cut-video run is built once into
OUT (ffmpeg -t, stream copy). Prints one JSON line per step; screenshots in OUT/shots-WxH/.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAIN = Path("/work/main")
CACHE = MAIN / ".cache"
CLI = str(REPO / ".venv" / "bin" / "moderator-app")
sys.path[:0] = [str(REPO / "scripts")]
from qa_walk_s13_review import cli_record, wait  # noqa: E402


def build(out: Path) -> list[tuple[Path, tuple]]:
    """(submission, (decision, reason, note)) in the order walked; WALK_SUBS (paths, ':'
    between them) walks those instead, each rejected with reason `other`."""
    if os.environ.get("WALK_SUBS"):
        return [(Path(p), ("reject", "other", "walked")) for p in
                os.environ["WALK_SUBS"].split(":")]
    cut = out / "breakout-genuine-cut20"
    if not (cut / "video.mp4").exists():
        cut.mkdir(parents=True, exist_ok=True)
        src = CACHE / "corpus" / "v2" / "breakout-genuine"
        shutil.copy(src / "agent-log.jsonl", cut / "agent-log.jsonl")
        subprocess.run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-i",
                        str(src / "video.mp4"), "-t", "20", "-c", "copy",
                        str(cut / "video.mp4")], check=True)
    return [
        (Path("resources/samples/community-sample"), ("reject", "video-coverage", "", 10.0)),
        (REPO / "resources" / "samples" / "official-sample", ("accept", "ok", "")),
        (CACHE / "corpus" / "v2" / "breakout-deleted",
         ("reject", "other", "about 9.4 s of play are missing from the video at 19.7 s")),
        (CACHE / "qa-s21" / "segments" / "seg_mkv_h264_res_change",
         ("reject", "video-coverage", "")),
        (cut, ("reject", "other", "the video stops at 20 s; the run goes on to 40 s")),
    ]


def main(out: Path, w: int, h: int) -> None:
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    os.chdir(REPO)
    subs = build(out)
    shots = out / f"shots-{w}x{h}"
    shutil.rmtree(shots, ignore_errors=True)
    shots.mkdir(parents=True)
    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(shots / "settings.ini"), QSettings.Format.IniFormat)
    gui_store = shots / "gui.sqlite3"
    win = MainWindow(settings=settings, store_path=gui_store)
    screen = QGuiApplication.primaryScreen()
    win.setGeometry(screen.availableGeometry())
    win.show()
    win.showMaximized()
    win.activateWindow()
    QTest.qWaitForWindowActive(win, 5000)
    panel = win.decision_panel
    panel.reviewer.setText("qa")
    asked: list[str] = []
    panel.confirm = lambda _title, text: asked.append(text) or True
    queue = [s for s, _ in subs[1:]]
    win.next_submission_provider = lambda: [queue.pop(0)] if queue else None
    step = [0]
    cur = [0]

    def settle(k: int = 25) -> None:
        for _ in range(k):
            app.processEvents()
            time.sleep(0.01)

    def shot(tag: str) -> str:
        settle()
        step[0] += 1
        name = f"{cur[0]}-{step[0]:02d}-{tag}.png"
        screen.grabWindow(0).save(str(shots / name))
        return name

    def say(what: str, **kw) -> None:
        print(json.dumps({"size": f"{w}x{h}", "sub": subs[cur[0]][0].name, "step": what, **kw},
                         ensure_ascii=True, default=str), flush=True)

    def table_line():
        cur = win.table.currentIndex()
        if not cur.isValid():
            return None
        return win.session.result.index.lines[win.table_model.source_row(cur.row())]

    def screen_says() -> dict:
        return {"status": win.status_label.text(), "header": win.findings.summary.text(),
                "decision": panel.summary.text()[:160],
                "coverage": win.sync.coverage_label.text(),
                "label": win.player.position_label.text(), "table_line": table_line(),
                "playhead": win.timeline.playhead, "focus": type(app.focusWidget()).__name__}

    def key(k, mod=Qt.KeyboardModifier.NoModifier, target=None) -> None:
        if not win.isActiveWindow():
            win.activateWindow()
            QTest.qWaitForWindowActive(win, 5000)
        QTest.keyClick(target or app.focusWidget() or win, k, mod)
        settle(10)

    try:
        walk(win, app, subs, shots, screen, panel, asked, step, settle, shot, say, table_line,
             screen_says, key, gui_store, cur)
    finally:
        win.shutdown()


def walk(win, app, subs, shots, screen, panel, asked, step, settle, shot, say, table_line,
         screen_says, key, gui_store, cur) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    from moderator_app.core.ledger.store import Ledger
    from moderator_app.ui.export import export_findings

    t0 = time.monotonic()
    win.open_paths([subs[0][0]])
    for n in range(len(subs)):
        cur[0] = n
        step[0] = 0
        sub, (decision, reason, note, *off) = subs[n]
        wait(app, lambda: win.session.result is not None and not win.is_verifying())
        t_report = time.monotonic() - t0
        has_video = bool(win.session.result.submission.videos)
        if has_video:
            wait(app, lambda: win.player.has_video and win.player.shown_frame >= 0, 120)
        t_frame = time.monotonic() - t0
        geo = win.frameGeometry()
        say("open", name=win.session.result.submission.display_name,
            window=[geo.width(), geo.height()],
            fits=geo.width() <= screen.size().width() and geo.height() <= screen.size().height(),
            video_view=[win.player.view.width(), win.player.view.height()],
            slider_w=win.player.slider.width(), findings_rows_h=win.findings.height(),
            report_s=round(t_report, 2), first_frame_s=round(t_frame, 2),
            recent=win.recent()[:2], shot=shot("open"), **screen_says())
        # event contents as the table shows them (first 5 rows)
        model = win.table.model()
        cols = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
        rows = [[model.index(r, c).data() for c in range(model.columnCount())]
                for r in range(min(5, model.rowCount()))]
        say("events", columns=cols, rows=rows, n=model.rowCount())
        win.focus_player()
        settle()
        # play with Space, 3 s; the view follows the video
        key(Qt.Key.Key_Space)
        wait(app, lambda: False, 3.0)
        playing_line = table_line()
        key(Qt.Key.Key_Space)
        say("play-space", line_while_playing=playing_line,
            current_row=win.nav.current_row_at(win.nav.run_time()),
            shot=shot("play"), **screen_says())
        # step with . and , (exact frames)
        f0 = win.player.shown_frame
        key(Qt.Key.Key_Period)
        wait(app, lambda: not win.player.frame_pending, 10)
        f1 = win.player.shown_frame
        key(Qt.Key.Key_Comma)
        wait(app, lambda: not win.player.frame_pending, 10)
        say("step", frames=[f0, f1, win.player.shown_frame], **screen_says())
        # 5 -> 50 %, Home, End
        for k, tag in ((Qt.Key.Key_5, "50pc"), (Qt.Key.Key_End, "end"), (Qt.Key.Key_Home, "home")):
            key(k)
            wait(app, lambda: not win.player.frame_pending, 10)
            say(f"key-{tag}", t=win.player.current_time, frame=win.player.shown_frame,
                in_footage=win.player.in_footage, shot=shot(tag) if tag == "end" else None,
                **screen_says())
        # type in the offset box, Enter, then `.` must step, not type
        if has_video:
            off0 = win.session.offset_s
            win.sync.spin.setFocus()
            settle()
            win.sync.spin.selectAll()
            QTest.keyClicks(win.sync.spin, f"{off0:.3f}")
            key(Qt.Key.Key_Return, target=win.sync.spin)
            fb = win.player.shown_frame
            key(Qt.Key.Key_Period)
            wait(app, lambda: not win.player.frame_pending, 10)
            say("offset-enter-then-dot", focus_after_enter=type(app.focusWidget()).__name__,
                frames=[fb, win.player.shown_frame], spin=win.sync.spin.text())
            win.sync.spin.setFocus()
            settle()
            QTest.mouseClick(win.player.view, Qt.MouseButton.LeftButton,
                             Qt.KeyboardModifier.NoModifier, QPoint(20, 20))
            settle()
            say("click-video", focus=type(app.focusWidget()).__name__,
                playing=win.player.playing if hasattr(win.player, "playing") else None)
            if getattr(win.player, "playing", False):
                win.player.pause()
        # Ctrl+F, type, Escape: the keys go back to the player (`.` steps, not types)
        key(Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        in_search = type(app.focusWidget()).__name__
        QTest.keyClicks(app.focusWidget(), "press")
        key(Qt.Key.Key_Escape)
        fb = win.player.current_frame
        key(Qt.Key.Key_Period)
        say("search-escape-dot", focus_in_search=in_search,
            focus_after=type(app.focusWidget()).__name__, search=win.search.text(),
            frames=[fb, win.player.current_frame])
        win.search.clear()
        settle(30)
        # f (full screen video) and back, m (mute)
        muted0 = getattr(win.player, "muted", None)
        key(Qt.Key.Key_M)
        key(Qt.Key.Key_F)
        full = win.fullscreen.active if hasattr(win.fullscreen, "active") else None
        fs_shot = shot("fullscreen")
        key(Qt.Key.Key_F)
        key(Qt.Key.Key_M)
        say("f-m", muted=[muted0, getattr(win.player, "muted", None)], fullscreen=full,
            shot=fs_shot, focus=type(app.focusWidget()).__name__)
        # i / o must not set retime marks
        key(Qt.Key.Key_I)
        key(Qt.Key.Key_O)
        say("i-o", retime=panel._retime_text() if hasattr(panel, "_retime_text") else None)
        # scan, then each finding
        if has_video:
            t1 = time.monotonic()
            wait(app, lambda: win.player.scan_result is not None, 400)
            say("scanned", scan_s=round(time.monotonic() - t1, 1))
        for i, f in enumerate(list(win.findings.findings)):
            if has_video:
                win.player.seek_frame(0)
            settle(5)
            t1 = time.monotonic()
            win.select_finding(i)
            ok = wait(app, lambda: (not win.player.has_video) or (not win.player.in_footage)
                      or win.player.shown_frame == win.player.current_frame, 30)
            say("finding", i=i, rule=f.rule, line=f.line, severity=f.severity.value,
                message=f.message[:160], run_time=win.nav.finding_time(i), shown=ok,
                shown_s=round(time.monotonic() - t1, 3),
                in_footage=win.player.in_footage if has_video else None,
                shot=shot(f"finding{i}") if i < 6 else None, **screen_says())
        # N / Shift+N
        win.focus_player()
        key(Qt.Key.Key_N)
        say("key-N", sel=win.findings.current(),
            **screen_says())
        # export findings
        ex = export_findings(win, shots / f"export-{n}")
        md = ex[1].read_text() if ex else None
        say("export", files=[str(p) for p in ex] if ex else None, md_head=md[:600] if md else None)
        # copy finding
        if win.findings.findings:
            win.select_finding(0)
            say("copy", text=win.copy_finding())
        # decide (at an uncovering offset where one is given)
        if off:
            win.sync.spin.setValue(off[0])
            wait(app, lambda: not win.is_verifying() and not win.busy(), 60)
            settle(50)
            say("offset-set", offset=win.session.offset_s, verdict=win.session.report.verdict,
                shot=shot("offset"), **screen_says())
        win.decision_dock.raise_()
        checks: tuple[str, ...] = ()
        if win.session.result.report.kind.has_checklist:  # an official run: all ticked
            from moderator_app.core.ledger.records import CHECKLIST_IDS
            checks = tuple(CHECKLIST_IDS)
            panel.checklist.set_ticked(list(checks))
        i = panel.reason.findData(reason) if decision == "reject" else -1
        if i >= 0:
            panel.reason.setCurrentIndex(i)
        if reason == "other":
            refused = panel.decide(decision)
            say("decide-without-note", recorded=refused is not None,
                status=panel.status.text(), shot=shot("other-without-note"))
        panel.note.setPlainText(note)
        asked.clear()
        stored = panel.decide(decision)
        say("decided", seq=stored and stored.seq, asked=asked[:1], status=panel.status.text(),
            note_left=panel.note.toPlainText(), next=panel.next_button.text(),
            next_visible=panel.next_button.isVisible(), shot=shot("decided"))
        if stored is not None:
            with Ledger(gui_store, create=False) as led:
                gui = [d.record.to_dict() for d in led.list()][-1]
            cli = cli_record(sub, decision, reason, note, win.session.offset_s, checks,
                             shots / f"cli-{n}.sqlite3")
            diff = {k: (gui.get(k), cli.get(k)) for k in set(gui) | set(cli)
                    if k != "decided_at" and gui.get(k) != cli.get(k)}
            say("gui-vs-cli", equal=not diff, diff=diff, verdict=gui["summary"]["verdict"],
                offset=gui["sync_offset_s"], decision=gui["decision"], reason=gui["reason"])
        if n + 1 < len(subs):
            t0 = time.monotonic()
            panel.next_button.click()
            wait(app, lambda: win.session.result is None or win.is_verifying(), 30)
    # Open Recent from another folder: the first entry must open
    rec = win.recent()
    os.chdir("/tmp")
    say("recent", entries=rec)
    acts = [a for a in win.recent_menu.actions() if a.text()]
    if acts:
        last = acts[-1]
        text = last.text()
        last.trigger()
        wait(app, lambda: win.session.result is not None and not win.is_verifying(), 60)
        say("recent-opened", text=text, status=win.status_label.text(),
            shot=shot("recent"))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
