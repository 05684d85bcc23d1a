"""GUI benchmark: every figure is printed with a reference measured in the same run.

1. Opening a 1,000,000-event agent log: time until the window answers (event loop turns) and
   until every view is loaded, against the bare core verification of the same file (no GUI).
2. Timeline repaint at full zoom-out with those events, against the same widget with no events
   and against a 60 Hz frame (16.7 ms).
3. The verification's own process (core/verify/isolated.py, issue 15): the result in the
   window's process, against the same verification run in that process, on the sample and
   on the large log; cold (a process started for it) and started ahead (as the window does).
4. The window's player (bench/gui_playback.py) on a 1080p60 H.264 file and an HEVC one,
   each beside a bare OpenCV decode of it: playback at 1x while the integrity scan runs in its child process, a selected
   event's exact frame after the first open, keyframe previews while dragging.
(The decoder alone, seeks and the integrity scan: bench/bench_video.py.)

Usage: python bench/bench_gui.py [--events N] [--quick] [--playback-only]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CACHE = Path(tempfile.gettempdir()) / "moderator-bench-cache"


def log_file(n: int) -> Path:
    from moderator_app.core.samples.community import make_agent_log

    CACHE.mkdir(exist_ok=True)
    p = CACHE / f"agent-log-{n}.jsonl"
    if not p.exists():
        t = time.perf_counter()
        make_agent_log(p.with_suffix(".tmp"), n_events=n, seed=1)
        p.with_suffix(".tmp").rename(p)
        print(f"  (generated {n:,} events, {p.stat().st_size / 1e6:.0f} MB, in "
              f"{time.perf_counter() - t:.1f} s)")
    return p


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b > 0 else "n/a"


def bench_open(n: int) -> None:
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths
    from moderator_app.ui.main_window import MainWindow

    path = log_file(n)
    print(f"-- open a {n:,}-event log ({path.stat().st_size / 1e6:.0f} MB)")
    t = time.perf_counter()
    with tempfile.TemporaryDirectory() as spool:
        ref = verify_paths([path], VerifyOptions(build_index=True, spool_dir=Path(spool)))
    bare = time.perf_counter() - t
    ref.index.close()
    del ref

    app = QApplication.instance() or QApplication([])
    settings_dir = tempfile.mkdtemp()
    settings = QSettings(str(Path(settings_dir) / "s.ini"), QSettings.Format.IniFormat)
    import gc

    gc.collect()  # the reference run's garbage must not be collected during the GUI run
    t0 = time.perf_counter()
    w = MainWindow(settings=settings)
    w.resize(1600, 1000)
    w.show()
    w.open_paths([path])
    answered: list[float] = []
    QTimer.singleShot(0, lambda: answered.append(time.perf_counter() - t0))
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    while w.session.result is None and w.is_verifying():
        app.processEvents()
        time.sleep(0.002)
    app.processEvents()
    loaded = time.perf_counter() - t0
    timer.stop()
    gaps = sorted((b - a for a, b in zip(ticks, ticks[1:], strict=False)), reverse=True) or [0.0]
    t = time.perf_counter()
    w.apply_result(w.session.result)  # again, to time the views alone
    apply_s = time.perf_counter() - t
    print(f"  window interactive after   {answered[0] * 1000:8.1f} ms (event loop turning)")
    print(f"  fully loaded after         {loaded:8.2f} s   bare core verify {bare:.2f} s "
          f"-> ratio {ratio(loaded, bare)}")
    print(f"  views filled (table, timeline, plots, findings) in {apply_s * 1000:.0f} ms")
    print(f"  GUI responsiveness while verifying ({len(ticks)} ticks of a 10 ms timer): "
          f"longest gaps {', '.join(f'{g * 1000:.0f}' for g in gaps[:3])} ms, "
          f"median {statistics.median(gaps) * 1000:.1f} ms")

    tl = w.timeline
    tl.resize(1600, 240)
    tl.fit()
    tl.grab()
    reps = 20
    t = time.perf_counter()
    for _ in range(reps):
        tl.grab()
    full = (time.perf_counter() - t) / reps
    index = tl.lane_times
    tl.lane_times = [x[:0] for x in index]
    tl.grab()
    t = time.perf_counter()
    for _ in range(reps):
        tl.grab()
    empty = (time.perf_counter() - t) / reps
    tl.lane_times = index
    print(f"-- timeline repaint, full zoom-out, {n:,} events: {full * 1000:.2f} ms; "
          f"empty timeline {empty * 1000:.2f} ms -> ratio {ratio(full, empty)}; "
          f"{full * 1000 / 16.7:.2f} of a 60 Hz frame")
    w.close()
    shutil.rmtree(settings_dir, ignore_errors=True)


def bench_child(n: int, reps: int) -> None:
    from moderator_app.core.verify import isolated
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    sample = Path(__file__).resolve().parents[1] / "resources" / "samples" / "community-sample"
    for name, path, k in (("the community sample", sample, reps), (f"{n:,} events", log_file(n),
                                                                    1)):
        times: dict[str, list[float]] = {"here": [], "cold": [], "ahead": []}
        for _ in range(k):
            for how in times:
                with tempfile.TemporaryDirectory() as spool:
                    options = VerifyOptions(build_index=True, spool_dir=Path(spool))
                    if how == "ahead":
                        isolated.prestart()
                        time.sleep(1.0)  # the moderator reads the previous submission
                    else:
                        isolated.discard_spare()
                    t = time.perf_counter()
                    if how == "here":
                        result = verify_paths([path], options)
                    else:
                        result = isolated.verify_isolated([path], options)
                    times[how].append(time.perf_counter() - t)
                    if result.index is not None:
                        result.index.close()
                    del result
        med = {how: statistics.median(v) for how, v in times.items()}
        print(f"-- verification process, {name} (median of {k}): in this process "
              f"{med['here'] * 1000:.0f} ms; child started ahead {med['ahead'] * 1000:.0f} ms "
              f"-> ratio {ratio(med['ahead'], med['here'])}; child started cold "
              f"{med['cold'] * 1000:.0f} ms -> ratio {ratio(med['cold'], med['here'])}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="100,000 events, fewer seeks")
    parser.add_argument("--playback-only", action="store_true", help="step 4 only")
    args, _ = parser.parse_known_args()
    n = 100_000 if args.quick else args.events
    if shutil.which("ffmpeg"):
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_video import video_file
        from gui_playback import bench_playback

        bench_playback(video_file(30), 30.0)
        # HEVC 1080p60 (frame threads again since session 14: the deadlock was PyAV's log
        # callback), the same measurements; bench/playback_codecs.py plays both interleaved
        bench_playback(video_file(30, codec="hevc"), 30.0)
    else:
        print("-- the window's player: ffmpeg CLI not installed, skipped")
    if args.playback_only:
        return 0
    bench_child(n, 3 if args.quick else 7)
    bench_open(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
