"""Issue 11 walkthrough of session 13's UI engineer (docs/qa/session13-ui.md): session 12's walk
(scripts/qa_walk_s12_ui.py) on two submissions no test or earlier walk opened, at the screen's
size, with a screenshot of every step, each recorded decision compared with `moderator-app
decide` on the same input and offset (every field but `decided_at`); at the offset that leaves
the run uncovered, the `coverage.missing` finding is clicked (its moment must be "no footage").

    .venv/bin/python scripts/qa_walk_s13_review.py build OUT
    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s13_review.py walk OUT 1280 720

The inputs are re-encodings (ffmpeg, deterministic settings) of real-game corpus runs
(`.cache/corpus/v2`, `make corpus`):

- `riverraid-1080p60-h264-deleted`: River Raid with 8.9 s of the run deleted from the footage
  (corpus `riverraid-deleted`), 1920x1080 H.264 at 60 fps, pillarboxed (as OBS records an
  emulator full screen); rejected with reason `other` (a note is required);
- `kangaroo-720p30-hevc-genuine`: Kangaroo genuine, 1280x720 HEVC (x265) MP4 at 30 fps; accepted.

Each step prints one JSON line of what the screen said; screenshots go to OUT/shots-WxH/.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / ".cache" / "corpus" / "v2"
CLI = str(REPO / ".venv" / "bin" / "moderator-app")

#: name: (corpus run, video file, ffmpeg output arguments)
SUBMISSIONS = {
    "riverraid-1080p60-h264-deleted": ("riverraid-deleted", "video.mp4", [
        "-vf", "scale=823:1080:flags=neighbor,pad=1920:1080:548:0,format=yuv420p",
        "-r", "60", "-c:v", "libx264", "-preset", "medium", "-crf", "20", "-g", "120",
        "-threads", "1", "-movflags", "+faststart"]),
    "kangaroo-720p30-hevc-genuine": ("kangaroo-genuine", "video.mp4", [
        "-vf", "fps=30,scale=-2:720:flags=neighbor,pad=1280:720:(ow-iw)/2:0",
        "-c:v", "libx265", "-preset", "ultrafast", "-crf", "26", "-tag:v", "hvc1",
        "-pix_fmt", "yuv420p", "-x265-params", "log-level=error:pools=1",
        "-movflags", "+faststart"]),
}


def build(out: Path) -> list[Path]:
    """The submissions, in the order walked (deterministic; built once)."""
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    out.mkdir(parents=True, exist_ok=True)
    subs = []
    for name, (run, video, args) in SUBMISSIONS.items():
        dst = out / name
        subs.append(dst)
        if (dst / "truth.json").exists():
            continue
        tmp = out / f".{name}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        src = CORPUS / run
        subprocess.run(["nice", "-n", "10", "ffmpeg", "-nostdin", "-y", "-loglevel", "error",
                        "-i", str(src / "video.mp4"), *args, str(tmp / video)], check=True)
        truth = json.loads((src / "truth.json").read_text())
        truth["video"] = video
        if name.startswith("official-"):
            write_trajectory(tmp / "events.jsonl.zst",
                             make_run_events(1000, seed=1212, step_s=0.04))  # 40 s
        else:
            shutil.copy(src / "agent-log.jsonl", tmp / "agent-log.jsonl")
        (tmp / "truth.json").write_text(json.dumps(truth))
        tmp.rename(dst)
    return subs


#: The decision per submission: (decision, reason, note, walkthrough items ticked). River Raid
#: is rejected with reason `other`, first without a note (it must be refused).
DECISIONS = {
    "riverraid-1080p60-h264-deleted": (
        "reject", "other", "8.9 s of the run (18.0-27.0 s) are not in the footage: the picture "
        "jumps at video 19.6 s; resubmit the whole recording", ()),
    "kangaroo-720p30-hevc-genuine": ("accept", "ok", "", ()),
}


def wait(app, cond, guard_s: float = 120.0) -> bool:
    """Process events until `cond()` holds (a hang guard, not a speed bound)."""
    end = time.monotonic() + guard_s
    while not cond():
        app.processEvents()
        time.sleep(0.01)
        if time.monotonic() > end:
            return False
    return True


def cli_record(sub: Path, decision: str, reason: str, note: str, offset: float,
               checks: tuple[str, ...], store: Path) -> dict:
    """What `moderator-app decide` records for the same input and offset."""
    store.unlink(missing_ok=True)
    cmd = [CLI, "decide", str(sub), f"--{decision}", "--reviewer", "qa", "--offset",
           repr(offset), "--store", str(store)]
    if decision == "reject":
        cmd += ["--reason", reason]
    if note:
        cmd += ["--note", note]
    for c in checks:
        cmd += ["--check", c]
    subprocess.run(cmd, capture_output=True, text=True, check=False)
    from moderator_app.core.ledger.store import Ledger
    with Ledger(store, create=False) as led:
        return [d.record.to_dict() for d in led.list()][-1]


def walk(out: Path, w: int, h: int) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from moderator_app.core.ledger.store import Ledger
    from moderator_app.ui.main_window import MainWindow

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
    panel = win.decision_panel
    panel.reviewer.setText("qa")
    panel.confirm = lambda _title, _text: True
    queue = list(subs[1:])
    win.next_submission_provider = lambda: [queue.pop(0)] if queue else None
    step = [0]

    def settle(k: int = 25) -> None:
        for _ in range(k):
            app.processEvents()
            time.sleep(0.01)

    def shot(tag: str) -> str:
        settle()
        step[0] += 1
        name = f"{n}-{step[0]:02d}-{tag}.png"
        screen.grabWindow(0).save(str(shots / name))
        return name

    def say(what: str, **kw) -> None:
        print(json.dumps({"size": f"{w}x{h}", "sub": subs[n].name, "step": what, **kw},
                         ensure_ascii=True, default=str), flush=True)

    def table_line():
        cur = win.table.currentIndex()
        if not cur.isValid():
            return None
        return win.session.result.index.lines[win.table_model.source_row(cur.row())]

    def screen_says() -> dict:
        return {"status": win.status_label.text(), "header": win.findings.summary.text(),
                "decision": panel.summary.text(), "coverage": win.sync.coverage_label.text(),
                "label": win.player.position_label.text(), "table_line": table_line(),
                "playhead": win.timeline.playhead}

    t0 = time.monotonic()
    win.open_paths([subs[0]])
    for n in range(len(subs)):
        step[0] = 0
        sub = subs[n]
        truth = json.loads((sub / "truth.json").read_text())
        wait(app, lambda: win.session.result is not None and not win.is_verifying())
        t_report = time.monotonic() - t0
        wait(app, lambda: win.player.has_video and win.player.shown_frame >= 0, 120)
        t_frame = time.monotonic() - t0
        geo = win.frameGeometry()
        say("open", name=win.session.result.submission.display_name,
            window=[geo.width(), geo.height()],
            fits=geo.width() <= screen.size().width() and geo.height() <= screen.size().height(),
            video_view=[win.player.view.width(), win.player.view.height()],
            report_s=round(t_report, 2), first_frame_s=round(t_frame, 2),
            shot=shot("open"), **screen_says())
        # play 3 s from the start of the run
        win.sync.spin.setValue(round(truth["offset_s"], 3))
        win.player.play()
        wait(app, lambda: False, 3.0)
        win.player.pause()
        say("play", shot=shot("play"), **screen_says())
        # the scan's findings join the list when it is done (a moderator sees them appear)
        t1 = time.monotonic()
        wait(app, lambda: win.player.scan_result is not None, 400)
        say("scanned", scan_s=round(time.monotonic() - t1, 1),
            findings=[f.rule for f in win.findings.findings], shot=shot("scanned"))
        # each finding: its moment on the picture, the playhead and the table
        for i, f in enumerate(list(win.findings.findings)):
            win.player.seek_frame(0)
            settle(5)
            t1 = time.monotonic()
            win.select_finding(i)
            target = win.nav.finding_time(i)
            ok = wait(app, lambda: (not win.player.in_footage)
                      or win.player.shown_frame == win.player.current_frame, 30)
            dt = time.monotonic() - t1
            say("finding", i=i, rule=f.rule, line=f.line, severity=f.severity.value,
                message=f.message[:140], run_time=target, shown=ok, shown_s=round(dt, 3),
                in_footage=win.player.in_footage,
                shot=shot(f"finding{i}") if i < 10 else None, **screen_says())
        # an offset that leaves the run uncovered, and back
        for tag, off in (("uncovering", round(truth["offset_s"] + 11.0, 3)),
                         ("back", round(truth["offset_s"], 3))):
            before = (win.player.current_time, win.player.shown_frame)
            win.sync.spin.setValue(off)
            settle()
            say(f"offset-{tag}", offset=win.session.offset_s,
                verdict=win.session.report.verdict, picture_kept=before == (
                    win.player.current_time, win.player.shown_frame),
                shot=shot(f"offset-{tag}"), **screen_says())
            rules = [f.rule for f in win.findings.findings]
            if tag == "uncovering" and "coverage.missing" in rules:
                i = rules.index("coverage.missing")
                win.select_finding(i)
                settle()
                say("coverage-missing-click", run_time=win.nav.finding_time(i),
                    in_footage=win.player.in_footage, frame=win.player.shown_frame,
                    shot=shot("coverage-missing"), **screen_says())
        wait(app, lambda: not win.auto_sync.label.text().startswith("auto-sync: analysing"), 300)
        say("autosync", text=win.auto_sync.label.text(), truth=truth["offset_s"],
            shot=shot("autosync"))
        # the decision
        decision, reason, note, checks = DECISIONS[sub.name]
        win.decision_dock.raise_()
        if win.session.result.report.kind.has_checklist:
            panel.checklist.set_ticked(list(checks))
        i = panel.reason.findData(reason) if decision == "reject" else -1
        if i >= 0:
            panel.reason.setCurrentIndex(i)
        if reason == "other":
            refused = panel.decide(decision)
            say("decide-without-note", recorded=refused is not None,
                status=panel.status.text(), shot=shot("other-without-note"))
        panel.note.setPlainText(note)
        stored = panel.decide(decision)
        say("decided", seq=stored and stored.seq, status=panel.status.text(),
            note_left=panel.note.toPlainText(), next=panel.next_button.text(),
            next_visible=panel.next_button.isVisible(), shot=shot("decided"))
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
    win.shutdown()


if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in build(Path(sys.argv[2]))))
    else:
        walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
