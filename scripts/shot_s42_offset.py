"""Session 42 (the decision's offset, QA s41's GUI walk): the confirmation of an accept on a
run whose auto-sync finds no offset, the offset never set. The line under the verdict says the
offset recorded, that nobody set it and what auto-sync said.

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/shot_s42_offset.py \
        .cache/qa-s41/sync/synth_tint-genuine@r48dnxmxf OUT.png

The screenshot is taken with `import -window root` while the confirmation is open (the
dialog is modal: a timer takes it, prints the dialog's text, then cancels it).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def wait(app, cond, guard_s: float = 600.0) -> bool:
    """Process events until `cond()` holds (a hang guard, not a speed bound)."""
    end = time.monotonic() + guard_s  # duration-ok: a hang guard
    while not cond():
        app.processEvents()
        time.sleep(0.01)
        if time.monotonic() > end:  # duration-ok: a hang guard
            return False
    return True


def main(run: Path, out: Path) -> int:
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QMessageBox

    from moderator_app.ui.main_window import MainWindow

    tmp = Path(tempfile.mkdtemp(prefix="s42-offset-"))
    app = QApplication.instance() or QApplication([])
    win = MainWindow(settings=QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat),
                     store_path=tmp / "gui.sqlite3")
    win.setGeometry(QGuiApplication.primaryScreen().availableGeometry())
    win.show()
    win.open_paths([run])
    ok = wait(app, lambda: win.session.result is not None) and \
        wait(app, lambda: win.busy() == ())
    win.decision_panel.reviewer.setText("mod1")
    said: list[str] = []

    def shoot() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            said.append(box.text())
            for _ in range(30):
                app.processEvents()
                time.sleep(0.01)
            subprocess.run(["import", "-window", "root", str(out)], check=False)
            box.reject()
        else:
            QTimer.singleShot(200, shoot)

    QTimer.singleShot(500, shoot)
    win.decision_panel.decide("accept")
    print(f"ok={ok} auto-sync: {win.auto_sync.label.text()!r}")
    print("\n".join(said))
    print(f"status: {win.decision_panel.status.text()!r}; wrote {out}")
    win.shutdown()
    return 0 if ok and said else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
