"""Run the real application on a private Xvfb server (xcb platform, not offscreen).

Shared by tests/ui/test_xvfb_app.py and scripts/screenshots.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path


class Xvfb:
    """A private X server on a display number that Xvfb picks itself (-displayfd)."""

    def __init__(self, size: str = "1600x1000x24") -> None:
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", size,
                                      "-nolisten", "tcp"], pass_fds=[w],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        data = b""
        deadline = time.monotonic() + 60  # a hang guard: Xvfb starts slowly under load
        while not data.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(r, 64)
            if not chunk:
                break
            data += chunk
        os.close(r)
        if not data.strip():
            self.stop()
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + data.decode().strip()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def app_env(display: str, home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_RUNTIME_DIR": str(home / "runtime"),
        "MODERATOR_APP_STORE": str(home / "decisions.sqlite"),
    })
    (home / "runtime").mkdir(parents=True, exist_ok=True)
    os.chmod(home / "runtime", 0o700)
    return env


def start_app(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    fh = open(log, "wb")  # noqa: SIM115 - closed with the process by the caller's stop_app
    return subprocess.Popen([sys.executable, "-m", "moderator_app", *args], env=env,
                            stdout=fh, stderr=subprocess.STDOUT)


def window_titles(display: str) -> list[str]:
    out = subprocess.run(["xwininfo", "-root", "-tree", "-display", display],
                         capture_output=True, text=True, timeout=60).stdout
    titles = []
    for line in out.splitlines():
        line = line.strip()
        if '"' in line:
            titles.append(line.split('"', 2)[1])
    return titles


def wait_for_title(display: str, title: str, proc: subprocess.Popen,
                   timeout: float = 30) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"the application exited with code {proc.returncode}")
        if title in window_titles(display):
            return time.monotonic() - start
        time.sleep(0.2)
    raise TimeoutError(f"no window titled {title!r} within {timeout} s: "
                       f"{window_titles(display)}")


def screenshot(display: str, out: Path) -> Path:
    subprocess.run(["import", "-display", display, "-window", "root", str(out)], check=True,
                   timeout=30)
    return out


def stop_app(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def tools_missing() -> list[str]:
    return [t for t in ("Xvfb", "xwininfo", "import") if shutil.which(t) is None]
