"""Issue 11 QA of session 10 (docs/qa/session10.md): the workstation's verdict at three sync
offsets on one run of a game new to the corpus (Kangaroo) against `verify --offset --json` and
the record `decide --offset` makes; then the loop walked at the window's size (fits the screen,
a finding without a line reaches its moment, an event outside the footage says so, the table
follows the video while playing); screenshots. Run on a display (xvfb-run):

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_gui_s10.py RUN OUT_DIR W H
"""


from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def wait(app, cond, guard_s: float = 120.0) -> None:
    """Process events until `cond()` holds (a hang guard, not a speed bound)."""
    end = time.monotonic() + guard_s
    while not cond():
        app.processEvents()
        time.sleep(0.02)
        if time.monotonic() > end:
            raise TimeoutError("condition never held")


def OFFSETS(truth: dict) -> tuple[float, ...]:  # noqa: N802 - a table
    """The truth (pass), +4.5 s (part of the run not covered, under the 5 s: pass with
    coverage.missing), +11 s (fail: not covered)."""
    o = round(truth["offset_s"], 3)
    return (o, round(o + 4.5, 3), round(o + 11.0, 3))


def walk(app, win, outd: Path, w: int, h: int) -> None:
    """The loop at this screen size, each step a JSON line of what was seen."""
    from PySide6.QtGui import QGuiApplication

    def settle(n: int = 30) -> None:
        for _ in range(n):
            app.processEvents()
            time.sleep(0.01)

    scr = QGuiApplication.primaryScreen().availableGeometry()
    win.showMaximized()
    settle()
    geo = win.frameGeometry()
    out: dict = {"screen": [scr.width(), scr.height()], "window": [geo.width(), geo.height()],
                 "fits": geo.width() <= scr.width() and geo.height() <= scr.height(),
                 "video_view": [win.player.view.width(), win.player.view.height()]}
    win.grab().save(str(outd / f"walk-maximized-{w}x{h}.png"))
    # the last offset leaves the end of the run without footage: its last event says so
    rows = win.table.model().rowCount()
    win.select_event(rows - 1)
    wait(app, lambda: not win.player.in_footage or win.player.shown_frame >= 0, 20)
    settle()
    out["last_event_label"] = win.player.position_label.text()
    out["last_event_no_footage"] = not win.player.in_footage
    win.grab().save(str(outd / f"walk-no-footage-{w}x{h}.png"))
    # a finding with no line (coverage.missing or a video finding) goes to its moment
    fs = win.findings.findings
    jumped = []
    for i, f in enumerate(fs):
        if f.line is None and f.rule.startswith(("coverage.", "video.", "sync.")):
            win.select_event(0)
            settle()
            before = (win.player.current_time, win.player.position_label.text())
            win.select_finding(i)
            settle(40)
            after = (win.player.current_time, win.player.position_label.text())
            jumped.append({"rule": f.rule, "moment": str(win.findings.moment(i))[:120],
                           "before": before, "after": after, "moved": before != after})
    out["line_less_findings"] = jumped
    win.grab().save(str(outd / f"walk-finding-{w}x{h}.png"))
    # play from the truth offset's first event: the table's current row follows
    win.select_event(5)
    settle()
    row0 = win.table.currentIndex().row()
    win.player.play()
    t_end = time.monotonic() + 6
    seen_rows = set()
    while time.monotonic() < t_end:  # hang guard, not a speed bound: play ~6 s of wall time
        app.processEvents()
        time.sleep(0.02)
        seen_rows.add(win.table.currentIndex().row())
    win.player.pause()
    settle()
    out["follow_rows_seen"] = sorted(seen_rows)[:20]
    out["follow_moved"] = len(seen_rows - {row0}) > 0
    win.grab().save(str(outd / f"walk-playing-{w}x{h}.png"))
    print(json.dumps({"walk": out}), flush=True)


def main(run: str, out: str, w: int, h: int) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.core.ledger.records import ACCEPT
    from moderator_app.core.ledger.store import Ledger
    from moderator_app.ui.main_window import MainWindow

    outd = Path(out)
    outd.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(outd / "settings.ini"), QSettings.Format.IniFormat)
    gui_store = outd / "gui.sqlite3"
    win = MainWindow(settings=settings, store_path=gui_store)
    win.resize(w, h)
    win.show()
    win.decision_panel.reviewer.setText("qa")
    win.decision_panel.confirm = lambda title, text: True
    win.open_paths([Path(run)])
    wait(app, lambda: win.session.result is not None)
    wait(app, lambda: win.player.has_video and win.player.times.complete
         and win.player.shown_frame >= 0)
    truth = json.loads((Path(run) / "truth.json").read_text())
    rows = []
    for off in OFFSETS(truth):
        win.sync.spin.setValue(off)
        wait(app, lambda off=off: win.session.report.offset == off)
        for _ in range(20):
            app.processEvents()
        rep = win.session.report
        gui = {"report": rep.verdict, "findings_header": win.findings.summary.text()[:60],
               "status": win.status_label.text()[:60],
               "decision_panel": win.decision_panel.summary.text()[:120],
               "coverage": win.sync.coverage_label.text()[:80],
               "rules": sorted({f.rule for f in win.findings.findings})}
        win.grab().save(str(outd / f"offset-{off:.3f}-{w}x{h}.png"))
        before = 0
        with Ledger(gui_store, create=False) as led:
            before = len(list(led.list()))
        stored = win.decision_panel.decide(ACCEPT)
        with Ledger(gui_store, create=False) as led:
            recs = [d.record.to_dict() for d in led.list()]
        gui_rec = recs[-1] if stored is not None and len(recs) > before else None
        cli_store = outd / f"cli-{off:.3f}.sqlite3"
        cli_store.unlink(missing_ok=True)
        v = subprocess.run([str(REPO / ".venv/bin/moderator-app"), "verify", run, "--json",
                            "--offset", str(off)], capture_output=True, text=True)
        d = subprocess.run([str(REPO / ".venv/bin/moderator-app"), "decide", run, "--accept",
                            "--reviewer", "qa", "--offset", str(off), "--store", str(cli_store)],
                           capture_output=True, text=True)
        with Ledger(cli_store, create=False) as led:
            cli_rec = [x.record.to_dict() for x in led.list()][-1]
        cli_v = json.loads(v.stdout)
        strip = lambda r: {k: v for k, v in r.items() if k != "decided_at"}  # noqa: E731
        rows.append({"offset": off, "gui": gui, "cli_verify": cli_v["verdict"],
                     "cli_rules": sorted({f["rule"] for f in cli_v["findings"]}),
                     "decide_exit": d.returncode,
                     "gui_record_verdict": gui_rec and gui_rec["summary"]["verdict"],
                     "cli_record_verdict": cli_rec["summary"]["verdict"],
                     "records_equal": gui_rec is not None and strip(gui_rec) == strip(cli_rec),
                     "record_diff": None if gui_rec is None else
                     {k: (gui_rec.get(k), cli_rec.get(k)) for k in set(gui_rec) | set(cli_rec)
                      if k != "decided_at" and gui_rec.get(k) != cli_rec.get(k)}})
        print(json.dumps(rows[-1]), flush=True)
    walk(app, win, outd, w, h)
    win.shutdown()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
