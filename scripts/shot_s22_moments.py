"""Session 22 (finding times): a screenshot of the workstation after a click on a
`video.footage_gap` finding, on a 20 s video with no frame from 3.0 to 12.0 s (10 fps,
320x240) and a 40-event log, at offset 0.

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python scripts/shot_s22_moments.py OUT.png
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def build(folder: Path) -> Path:
    from moderator_app.core.samples.community import make_agent_log

    sub = folder / "gap-run"
    sub.mkdir(parents=True, exist_ok=True)
    make_agent_log(sub / "agent-log.jsonl", n_events=40, seed=3)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc=s=320x240:r=10", "-frames:v", "110", "-vf",
                    "setpts='if(gte(N,30),N+90,N)'", "-fps_mode", "passthrough", "-c:v",
                    "libx264", "-g", "10", "-pix_fmt", "yuv420p", str(sub / "video.mkv")],
                   check=True)
    return sub


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

    from moderator_app.ui.main_window import MainWindow

    tmp = Path(tempfile.mkdtemp(prefix="s22-moments-"))
    sub = build(tmp)
    app = QApplication.instance() or QApplication([])
    win = MainWindow(settings=QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat),
                     store_path=tmp / "gui.sqlite3")
    screen = QGuiApplication.primaryScreen()
    win.setGeometry(screen.availableGeometry())
    win.show()
    win.open_paths([sub])
    ok = wait(app, lambda: win.session.result is not None and win.player.has_video
              and win.player.shown_frame >= 0) and wait(app, lambda: win.busy() == ())
    panel = win.findings
    i = next(i for i, f in enumerate(panel.findings) if f.rule == "video.footage_gap")
    win.nav.select_finding(i)
    ok = ok and wait(app, lambda: win.player.shown_frame == 29)
    for _ in range(50):
        app.processEvents()
        time.sleep(0.01)
    screen.grabWindow(0).save(str(out))
    f = panel.findings[i]
    print(f"ok={ok} finding={f.rule} video {f.video_start_s}-{f.video_end_s} s; player "
          f"time {win.player.current_time:.3f} frame {win.player.shown_frame}; timeline span "
          f"{win.timeline.span}; playhead {win.timeline.playhead:.3f}; wrote {out}")
    win.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
