"""The real application, started as a subprocess on a real X server (Xvfb, xcb platform).

Not skipped in CI: when CI=true and Xvfb (or xwininfo / ImageMagick's import) is missing, this
test fails, because it is the only test of the real display path.
"""

from __future__ import annotations

import math
import os
import time

import cv2
import pytest
from xvfb_helpers import (
    Xvfb,
    app_env,
    screenshot,
    start_app,
    stop_app,
    tools_missing,
    wait_for_title,
)

from moderator_app.core.samples.community import make_agent_log, make_video


def drawn(img) -> bool:
    """A painted window: not a blank screen, and many colours (text, video, widgets)."""
    return float(img.std()) > 10 and len({tuple(p) for p in img[::16, ::16].reshape(-1, 3)}) > 20


@pytest.fixture
def xserver():
    missing = tools_missing()
    if missing:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI must have these for the real-display test: {missing}")
        pytest.skip(f"not installed: {missing}")
    x = Xvfb()
    yield x
    x.stop()


def test_real_app_shows_titled_window_and_draws(xserver, tmp_path):
    sub = tmp_path / "speedrun-007"
    sub.mkdir()
    duration = make_agent_log(sub / "agent-log.jsonl", n_events=60)
    make_video(sub / "video.mp4", math.ceil(duration) + 1, fps=10.0, size=(320, 180))
    log = tmp_path / "app.log"
    proc = start_app([str(sub)], app_env(xserver.display, tmp_path / "home"), log)
    try:
        # The wait's own time limit only guards against a hang: no test asserts a duration.
        wait_for_title(xserver.display, "speedrun-007 — Moderator Workstation", proc, timeout=120)
        # The window is mapped before it is painted (and, on a loaded machine, long before):
        # screenshots are taken until one shows a drawn window, a hang guard bounding the wait.
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")
            img = cv2.imread(str(screenshot(xserver.display, tmp_path / "shot.png")))
            assert img is not None and img.shape[0] >= 600
            if drawn(img) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert float(img.std()) > 10  # not a blank screen
        assert len({tuple(p) for p in img[::16, ::16].reshape(-1, 3)}) > 20
    finally:
        stop_app(proc)
    output = log.read_text(errors="replace")
    assert "Traceback" not in output, output
