"""First run from a terminal: a closed pipe is a quiet exit, a machine with no display gets a
plain "no display" (not Qt's xcb-cursor hint), and the README says both."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import REPO, SAMPLES

from moderator_app.ui.app import no_display_reason


def test_a_closed_pipe_is_a_quiet_exit():
    """`moderator-app verify --json … | head -0`: the reader is gone before the first write."""
    p = subprocess.Popen([sys.executable, "-m", "moderator_app", "verify", "--json",
                          str(SAMPLES / "community-sample")], cwd=REPO,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 141
    assert err == b""  # no BrokenPipeError traceback, no "Exception ignored" line


def test_no_display_is_said_plainly():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-m", "moderator_app", str(SAMPLES / "community-sample")],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert r.stderr.startswith("moderator-app: no display (DISPLAY and WAYLAND_DISPLAY are not "
                               "set)")
    assert "xcb" not in r.stderr and "moderator-app verify PATH" in r.stderr


def test_no_display_reason():
    assert no_display_reason({"DISPLAY": ":99"}) is None
    assert no_display_reason({"WAYLAND_DISPLAY": "wayland-0"}) is None
    assert no_display_reason({"QT_QPA_PLATFORM": "offscreen"}) is None
    if sys.platform.startswith("linux"):
        assert no_display_reason({}) == "DISPLAY and WAYLAND_DISPLAY are not set"


def test_readme_first_run_points():
    # Words are matched with the README's line breaks folded to spaces: a
    # rewrap of a paragraph must not fail this test (stop 24 failed on that).
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    for words in ('"no display"', "one to two minutes", "about 780 MB",
                  "only the very first time", "decisions.sqlite3", "absolute paths"):
        assert words in readme, words
    assert "decisions list |" not in readme  # three commands, not something like a pipe
