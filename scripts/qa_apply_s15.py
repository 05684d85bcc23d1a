"""Session 15 QA (docs/qa/session15.md, H1 in the workstation): open a run offscreen, wait for
auto-sync, click "Apply suggested offset", and compare with `verify --scan --offset auto`.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/qa_apply_s15.py RUN_FOLDER
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(run: Path) -> dict:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    r = subprocess.run([str(REPO / ".venv" / "bin" / "moderator-app"), "verify", str(run),
                        "--scan", "--offset", "auto", "--json"], capture_output=True, text=True)
    cli = (json.loads(r.stdout) if r.stdout.startswith("{") else {}).get("sync") or {}
    app = QApplication.instance() or QApplication([])
    out = REPO / ".cache" / "qa-s15" / "apply"
    out.mkdir(parents=True, exist_ok=True)
    win = MainWindow(settings=QSettings(str(out / "s.ini"), QSettings.Format.IniFormat),
                     store_path=out / "g.sqlite3")
    win.resize(1280, 720)
    win.show()
    win.open_paths([run])

    def wait(cond, guard_s: float = 300.0) -> bool:  # a hang guard, not a speed bound
        end = time.monotonic() + guard_s
        while not cond() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)
        return cond()

    wait(lambda: win.session.result is not None and not win.is_verifying())
    wait(lambda: win.auto_sync.apply.isEnabled() or "not enough" in win.auto_sync.label.text())
    label, enabled = win.auto_sync.label.text(), win.auto_sync.apply.isEnabled()
    if enabled:
        win.auto_sync.apply.click()
        wait(lambda: False, 0.5)
    res = {"run": run.name, "cli_suggested": cli.get("suggested_offset_s"),
           "cli_confidence": cli.get("confidence"), "gui_label": label,
           "apply_enabled": enabled, "gui_offset_after": win.session.offset_s,
           "spin": win.sync.spin.value()}
    print(json.dumps(res), flush=True)
    win.shutdown()
    return res


if __name__ == "__main__":
    main(Path(sys.argv[1]))
