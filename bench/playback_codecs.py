"""Playback at 1x of HEVC 1080p60 against H.264 1080p60 (the control), interleaved (issue 12,
session 14). For each file, in rounds that alternate the order: the window's player plays
10 s at 1x while the integrity scan runs in its own process (frames shown per second of wall
time), and beside it a bare PyAV decode of 300 frames of the same file with the threading the
workstation's decoder uses for that codec (what one decoder gets on this machine), and the same
decode plus the player's conversion to the view's size. Every figure is printed with the load
average. Session 14's figures and the HEVC threading decision: docs/DECISIONS.md.

Run under Xvfb (the window is real):
  xvfb-run -s "-screen 0 1920x1080x24" env QT_QPA_PLATFORM=xcb \
      .venv/bin/python bench/playback_codecs.py [--rounds 3] [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def decoder_thread_type(path: Path) -> str:
    """The thread type the workstation's decoder gives this file's stream."""
    from moderator_app.core.video.decoder import ExactDecoder, open_container
    from moderator_app.core.video.probe import probe_video

    p = probe_video(path, path.name)
    assert p.index is not None
    c = open_container(str(path))
    try:
        return ExactDecoder(c, p.index).stream.thread_type.name
    finally:
        c.close()


def bare_decode(path: Path, frames: int, thread_type: str,
                size: tuple[int, int] | None = None) -> float:
    """Frames per second of a bare PyAV decode of the first `frames` frames (and, with `size`,
    the player's conversion to RGB at that size: `pixels.to_rgb`)."""
    import av

    from moderator_app.core.video.orient import IDENTITY
    from moderator_app.core.video.pixels import to_rgb
    with av.open(str(path)) as c:
        s = c.streams.video[0]
        s.thread_type = thread_type
        n = 0
        t = time.perf_counter()
        for f in c.decode(s):
            if size is not None:
                to_rgb(f, size[0], size[1], IDENTITY)
            n += 1
            if n >= frames:
                break
        return n / (time.perf_counter() - t)


def play(app, w, folder: Path, seconds: float) -> tuple[float, float, int, tuple[int, int], bool]:
    """Open `folder` in the window and play `seconds` at 1x from the start: frames shown per
    second, real-time factor of the playhead, frames the view dropped (video frames passed
    over), the view's size and whether the scan ran throughout."""
    from gui_playback import _spin

    w.open_paths([folder])
    player = w.player
    _spin(app, lambda: player.has_video and player.shown_frame >= 0, 300)
    # the integrity scan starts with the open, in its own process at nice 10: playback is
    # measured while it runs (issue 11 point 8's condition), as the window plays
    scanning = player.scan_result is None
    shown: list[int] = []
    player.frame_shown.connect(shown.append)
    player.set_speed(1.0)
    v0 = player.current_time
    t = time.perf_counter()
    player.play()
    _spin(app, lambda: time.perf_counter() - t > seconds or not player.playing, seconds + 5)
    wall = time.perf_counter() - t
    advanced = player.current_time - v0
    player.pause()
    player.frame_shown.disconnect(shown.append)
    distinct = sorted(set(shown))
    span = (distinct[-1] - distinct[0] + 1) if distinct else 0
    return len(distinct) / wall, advanced / wall, span - len(distinct), \
        (player.view.width(), player.view.height()), scanning and player.scan_result is None


def main() -> int:
    from bench_video import video_file
    from gui_playback import _submission
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    files = {"h264": video_file(30), "hevc": video_file(30, codec="hevc")}
    threads = {k: decoder_thread_type(p) for k, p in files.items()}
    print(f"-- playback at 1x, {args.seconds:.0f} s, 1080p60, {args.rounds} rounds interleaved; "
          f"decoder threading: {threads}; platform {os.environ.get('QT_QPA_PLATFORM')}")
    app = QApplication.instance() or QApplication([])
    rows: dict[str, list] = {k: [] for k in files}
    for r in range(args.rounds):
        order = list(files) if r % 2 == 0 else list(reversed(list(files)))
        for codec in order:
            tmp = Path(tempfile.mkdtemp(prefix="bench-codecs-"))
            try:
                folder = _submission(tmp / "run", files[codec], 30.0)
                settings = QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat)
                w = MainWindow(settings=settings, store_path=tmp / "gui.sqlite3")
                w.resize(1920, 1080)
                w.show()
                load0 = os.getloadavg()[0]
                fps, rt, dropped, view, scan = play(app, w, folder, args.seconds)
                w.shutdown()
                w.close()
                n = 300
                bare = bare_decode(files[codec], n, threads[codec])
                conv = bare_decode(files[codec], n, threads[codec], view)
                load1 = os.getloadavg()[0]
                rows[codec].append((fps, bare, conv))
                print(f"  round {r + 1} {codec:4s}: shown {fps:5.1f} frames/s ({fps / 60:.2f}x of "
                      f"60, playhead {rt:.2f}x real time, {dropped} frames passed over); bare "
                      f"PyAV decode {bare:6.1f} frames/s, + conversion to {view[0]}x{view[1]} "
                      f"{conv:6.1f}; shown/decode+conversion {fps / conv:.2f}; scan running "
                      f"{'throughout' if scan else 'not throughout'}; load "
                      f"{load0:.1f}-{load1:.1f}", flush=True)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    for codec, rs in rows.items():
        med = [sorted(x)[len(x) // 2] for x in zip(*rs, strict=True)]
        print(f"  median {codec:4s}: shown {med[0]:5.1f} frames/s, bare decode {med[1]:6.1f}, "
              f"+ conversion {med[2]:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
