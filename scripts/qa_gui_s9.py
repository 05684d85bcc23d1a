"""Issue 11 QA of session 9 (docs/qa/session9.md): the workstation's verdict at three sync
offsets on one run (Frostbite, new to the corpus) against `verify --offset --json` and the
record `decide --offset` makes; screenshots. Run on a display (xvfb-run):

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_gui_s9.py RUN OUT_DIR W H
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
    for off in (round(truth["offset_s"], 3), 6.0, 9.5):
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
    win.shutdown()


def open_hostile(out: str, paths: list[str]) -> None:
    """Open each hostile submission in one workstation: it must answer (a verdict or a
    refusal in the window), never die; a screenshot of each. The app's entry point caps
    glibc's arenas first thing (core/arenas.py); this window is built here, so it does the
    same, else a run under `prlimit --as=512MiB` fails for the tool's reasons (MemoryError,
    "cannot allocate memory for thread-local data", session 12)."""
    import os

    from moderator_app.core.arenas import lean_address_space

    lean_address_space()
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    outd = Path(out)
    outd.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(outd / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, store_path=outd / "gui.sqlite3")
    win.resize(1280, 720)
    win.show()
    for i, p in enumerate(paths):
        win.open_paths([Path(os.fsdecode(os.fsencode(p)))])
        t0 = time.monotonic()
        wait(app, lambda t0=t0: win.session.result is not None or time.monotonic() - t0 > 30)
        for _ in range(50):
            app.processEvents()
            time.sleep(0.02)
        res = win.session.result
        win.grab().save(str(outd / f"hostile-{i}.png"))
        print(json.dumps({"path": p[-60:], "verdict": res and res.report.verdict,
                          "title": win.windowTitle()[:80],
                          "status": win.status_label.text()[:120]}), flush=True)
    win.shutdown()


if __name__ == "__main__":
    if sys.argv[1] == "hostile":
        open_hostile(sys.argv[2], sys.argv[3:])
    else:
        main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
