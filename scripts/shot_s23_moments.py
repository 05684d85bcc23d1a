"""Session 23 (no footage, one look): a screenshot of the workstation with a video that has a
footage gap (no frame from 2.0 to 8.0 s) and a joined recording that does not decode (10.0 to
13.0 s), with no finding selected: both spans hatched on the timeline and the lanes under it,
the player paused inside the gap (no footage, and no sound).

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/shot_s23_moments.py OUT.png
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))


def wait(app, cond, guard_s: float = 120.0) -> bool:
    """Process events until `cond()` holds (a hang guard, not a speed bound)."""
    end = time.monotonic() + guard_s
    while not cond():
        app.processEvents()
        time.sleep(0.01)
        if time.monotonic() > end:
            return False
    return True


def main(out: Path) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication
    from video_corpus import build_gap_and_join

    from moderator_app.core.samples.community import make_agent_log
    from moderator_app.ui.main_window import MainWindow

    tmp = Path(tempfile.mkdtemp(prefix="s23-moments-"))
    sub = tmp / "gap-join-run"
    sub.mkdir()
    build_gap_and_join(tmp).rename(sub / "video.mkv")
    make_agent_log(sub / "agent-log.jsonl", n_events=40, seed=3)
    app = QApplication.instance() or QApplication([])
    win = MainWindow(settings=QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat),
                     store_path=tmp / "gui.sqlite3")
    screen = QGuiApplication.primaryScreen()
    win.setGeometry(screen.availableGeometry())
    win.show()
    win.open_paths([sub])
    ok = wait(app, lambda: win.session.result is not None and win.player.has_video
              and win.player.shown_frame >= 0) and wait(app, lambda: win.busy() == ())
    win.player.seek_time(5.0)
    ok = ok and wait(app, lambda: not win.player.in_footage)
    for _ in range(50):
        app.processEvents()
        time.sleep(0.01)
    screen.grabWindow(0).save(str(out))
    bands = getattr(win.timeline, "no_footage_bands", lambda: "none (before s23)")()
    silent = getattr(win.player.times, "silent_spans", lambda: "none (before s23)")()
    print(f"ok={ok} bands (run time) {bands}; selected span {win.timeline.span}; player at "
          f"{win.player.current_time:.3f} s: {win.player.no_footage_why!r}; sound silent at "
          f"{silent}; wrote {out}")
    win.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
