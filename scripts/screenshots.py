"""`make screenshots`: start the real workstation under Xvfb on the bundled sample and save
docs/screenshots/workstation.png (the README's picture), so it always shows the current app."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from xvfb_helpers import (  # noqa: E402 - after the path set-up
    Xvfb,
    app_env,
    screenshot,
    start_app,
    stop_app,
    tools_missing,
    wait_for_title,
)

SAMPLE = REPO / "resources" / "samples" / "community-sample"
OUT = REPO / "docs" / "screenshots" / "workstation.png"


def _show_an_action(display: str, title: str) -> None:
    """With xdotool (optional), step to an `action` event so the picture shows the table,
    the detail pane and the video in sync mid-run; without it, the run_start is shown."""
    if shutil.which("xdotool") is None:
        return
    env = {"DISPLAY": display, "PATH": os.environ.get("PATH", "")}
    found = subprocess.run(["xdotool", "search", "--name", f"^{title}$"],
                           capture_output=True, text=True, env=env).stdout.split()
    if not found:
        return
    subprocess.run(["xdotool", "windowfocus", "--sync", found[0]], env=env, check=False,
                   stderr=subprocess.DEVNULL)
    for _ in range(11):
        subprocess.run(["xdotool", "key", "Right"], env=env, check=False,
                       stderr=subprocess.DEVNULL)
        time.sleep(0.05)
    time.sleep(1.0)


def main() -> int:
    missing = tools_missing()
    if missing:
        print(f"screenshots need: {', '.join(missing)}", file=sys.stderr)
        return 1
    home = Path(tempfile.mkdtemp(prefix="moderator-shot-"))
    x = Xvfb("1440x900x24")
    proc = None
    try:
        proc = start_app([str(SAMPLE)], app_env(x.display, home), home / "app.log")
        title = f"{SAMPLE.name} — Moderator Workstation"
        wait_for_title(x.display, title, proc)
        time.sleep(3.0)  # verification, first frame and timestamp scan
        _show_an_action(x.display, title)
        OUT.parent.mkdir(parents=True, exist_ok=True)
        screenshot(x.display, OUT)
        print(f"wrote {OUT.relative_to(REPO)}")
        help_shots(x.display, home)
        return 0
    finally:
        if proc is not None:
            stop_app(proc)
        x.stop()
        log = (home / "app.log").read_text(errors="replace") if (home / "app.log").exists() \
            else ""
        if "Traceback" in log:
            print(log, file=sys.stderr)
        shutil.rmtree(home, ignore_errors=True)


# --- Help dialogs (docs/moderator-guide.md): the real dialogs on the same X server ---------------

HELP_SHOTS = (  # (function in moderator_app.ui.help, window title, file under docs/screenshots)
    ("show_shortcuts", "Keyboard shortcuts", "help-shortcuts.png"),
    ("show_formats", "Formats and rules", "help-formats.png"),
)
_DIALOG_CHILD = """
import sys
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
from moderator_app.ui.theme import apply_theme
from moderator_app.ui.icons import app_icon
from moderator_app.ui import help as h
apply_theme(app)
app.setWindowIcon(app_icon())
dialog = getattr(h, sys.argv[1])(None)
app.exec()
"""


def help_shots(display: str, home: Path) -> None:
    """Open each Help dialog alone, themed as in the app, and save that window."""
    import subprocess

    from xvfb_helpers import app_env as _env

    env = _env(display, home)
    env["PYTHONPATH"] = str(REPO)
    for func, title, name in HELP_SHOTS:
        log = open(home / f"{func}.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen([sys.executable, "-c", _DIALOG_CHILD, func], env=env,
                                stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_title(display, title, proc)
            time.sleep(1.0)
            out = OUT.parent / name
            subprocess.run(["import", "-display", display, "-window", title, str(out)],
                           check=True, timeout=30)
            print(f"wrote {out.relative_to(REPO)}")
        finally:
            stop_app(proc)
            log.close()


if __name__ == "__main__":
    sys.exit(main())
