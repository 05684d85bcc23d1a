"""Issue 11 point 8, the timings a moderator feels (session 15's UI engineer): the window's player
(bench/gui_playback.py, offscreen) on the issue's 10-minute 1280x720 H.264 run at 30 fps (the
encoder's default keyframes, as in the issue's walkthrough; the window at 1280x720) and on a
1080p60 H.264 one (the window at 1920x1080): open -> first frame, a selected event's exact frame
(what a finding click waits for: the same seek), the same while playing, keyframe previews
while dragging, and frames shown per second at 1x while the integrity scan runs; each beside a
bare OpenCV decode of the same file measured in the same run.

    .venv/bin/python scripts/qa_timings_s15_ui.py [720p|1080p ...]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "bench"), str(REPO)]

from bench_video import video_file  # noqa: E402 - after the path set-up
from gui_playback import bench_playback  # noqa: E402


def main(which: list[str]) -> int:
    for name in which or ["720p", "1080p"]:
        if name == "720p":
            bench_playback(video_file(600, "1280x720", rate=30, gop=None), 600.0,
                           size=(1280, 720))
        else:
            bench_playback(video_file(30), 30.0, size=(1920, 1080))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
