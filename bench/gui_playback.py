"""The player in the real window (issue 11 point 8), measured beside a bare OpenCV decode of the
same file in the same run: playback at 1x while the integrity scan runs in its child process,
the exact frame of a selected event after the first open (paused, and while playing: the
window pauses and asks for it while the stream runs; an event the play passed half a second
before), and keyframe previews while dragging. `bench_gui.py` calls `bench_playback`; bench_video.py measures the decoder alone.

Every figure is a ratio against the reference or a count of frames, printed with the
machine's load average (the machine is shared: wall times alone say little).
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path


def cv2_reference(path: Path, frames: int, targets: list[int]) -> tuple[float, float]:
    """Bare OpenCV: decoded frames per second (sequential, `frames` frames) and the median ms
    of a seek + read of each target (what any player pays at least for an exact frame)."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    t = time.perf_counter()
    for _ in range(frames):
        ok, _img = cap.read()
        if not ok:
            break
    fps = frames / (time.perf_counter() - t)
    seeks = []
    for k in targets:
        t = time.perf_counter()
        cap.set(cv2.CAP_PROP_POS_FRAMES, k)
        cap.read()
        seeks.append(time.perf_counter() - t)
    cap.release()
    return fps, statistics.median(seeks) * 1000


def _submission(folder: Path, video: Path, seconds: float) -> Path:
    """An official run as long as the video (one event every 50 ms) beside it."""
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    folder.mkdir(parents=True)
    n = int(seconds / 0.05)
    write_trajectory(folder / "events.jsonl.zst", make_run_events(n, seed=7, step_s=0.05))
    shutil.copyfile(video, folder / video.name)
    return folder


def _spin(app, cond, timeout: float) -> bool:
    """Turn the event loop until `cond()` (a hang guard, not a measurement)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        app.processEvents()
        time.sleep(0.001)
    return True


def bench_playback(video: Path, seconds: float, play_s: float = 6.0,
                   size: tuple[int, int] = (1920, 1080)) -> None:
    import os
    import random

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="bench-playback-"))
    try:
        folder = _submission(tmp / "run", video, seconds)
        settings = QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat)
        w = MainWindow(settings=settings, store_path=tmp / "gui.sqlite3")
        w.resize(*size)
        w.show()
        t0 = time.perf_counter()
        w.open_paths([folder])
        player = w.player
        _spin(app, lambda: player.has_video and player.shown_frame >= 0, 300)
        first = (time.perf_counter() - t0) * 1000
        times = player.times
        rate = 1.0 / times.index.frame_duration_s
        n = times.frame_count
        # each figure has frames of its own: a frame the player has received before is shown
        # from its kept frames (ui/frame_cache.py), which `revisit` below measures
        pool = random.Random(3).sample(range(n // 10, n - 1), 36)
        targets, playing_targets, drag_targets = pool[:12], pool[12:18], pool[18:24]
        played_targets, warm_targets = pool[24:30], pool[30:]
        print(f"-- the window's player, {video.name}: {n} frames at {rate:.0f} fps, "
              f"the window at {size[0]}x{size[1]} (video "
              f"{player.view.width()}x{player.view.height()})")
        print(f"  first picture after open          {first:7.0f} ms (verification, probe, "
              f"decoder start)")

        # 1. playback at 1x while the scan runs in its child process
        shown: list[int] = []
        first_at: list[float] = []
        player.frame_shown.connect(shown.append)
        player.frame_shown.connect(lambda _n: first_at or first_at.append(time.perf_counter()))
        scanning_at_start = player.scan_result is None
        player.set_speed(1.0)
        v0 = player.current_time
        t = time.perf_counter()
        player.play()
        _spin(app, lambda: time.perf_counter() - t > play_s or not player.playing, play_s + 5)
        wall = time.perf_counter() - t
        advanced = player.current_time - v0
        player.pause()
        scanning_at_end = player.scan_result is None
        player.frame_shown.disconnect(shown.append)
        distinct = len(set(shown))
        fps = distinct / wall
        scan = ("the scan ran throughout" if scanning_at_start and scanning_at_end else
                "the scan ran at the start" if scanning_at_start else "the scan had finished")
        bare_fps, bare_seek = cv2_reference(player.path, min(n, 360), targets)
        print(f"  bare OpenCV decode (reference)    {bare_fps:7.1f} frames/s; seek+read "
              f"{bare_seek:6.1f} ms median")
        print(f"  playback at 1x, frames shown      {fps:7.1f} frames/s -> {fps / rate:.2f}x the "
              f"video's {rate:.0f} fps, {advanced / wall:.2f}x real time; "
              f"{fps / bare_fps:.2f}x the bare decode ({scan})")
        # the isolated decoder alone, asked frame after frame as the player asks (no window,
        # no clock): what the window's loop loses on top of the decoder
        from bench_video import playback_fps

        alone = playback_fps(player.path, times.index.to_bytes(), min(n, 360))
        if first_at:
            print(f"  first frame of the play            {(first_at[0] - t) * 1000:6.1f} ms after "
                  f"Play (the clock starts with it)")
        print(f"  the isolated decoder alone        {alone:7.1f} frames/s -> {alone / rate:.2f}x "
              f"the video's fps; the window shows {fps / alone:.2f}x of it")

        # 2. a selected event's exact frame (the player paused, the decoder open)
        def exact(k: int) -> float:
            t = time.perf_counter()
            player.seek_frame(k)
            _spin(app, lambda: player.shown_frame == k, 60)
            return (time.perf_counter() - t) * 1000

        scanning = player.scan_result is None
        sel = [exact(k) for k in targets]
        med = statistics.median(sel)
        print(f"  selected event, exact frame       {med:7.1f} ms median, {max(sel):.1f} ms "
              f"worst of {len(sel)} (target < 150 ms) -> {med / bare_seek:.2f}x OpenCV's "
              f"seek+read{' (the scan running)' if scanning else ''}")

        # 2b. the same while playing: the window pauses and asks for the event's frame (as
        # navigation.select_event does); the playback stream is running when it is asked
        def while_playing(k: int) -> float:
            player.play()
            _spin(app, lambda: player._worker.anchor() is not None, 60)
            start = time.perf_counter()
            _spin(app, lambda: time.perf_counter() - start > 0.5, 5)
            t = time.perf_counter()
            player.pause()
            player.seek_frame(k)
            _spin(app, lambda: player.shown_frame == k, 60)
            return (time.perf_counter() - t) * 1000

        sel_play = [while_playing(k) for k in playing_targets]
        mp = statistics.median(sel_play)
        print(f"  selected while playing, exact     {mp:7.1f} ms median, {max(sel_play):.1f} ms "
              f"worst of {len(sel_play)} -> {mp / bare_seek:.2f}x OpenCV's seek+read, "
              f"{mp / med:.2f}x the same selection paused")

        # 2c. an event the play just passed (the one highlighted while playing: the moderator
        # pauses and selects it, or steps back to it): its frame was streamed a moment ago
        def just_played(k: int) -> float:
            player.seek_frame(k)
            _spin(app, lambda: player.shown_frame == k, 60)
            got: list[int] = []

            def on_shown(m: int) -> None:
                if player.playing:
                    got.append(m)
            player.frame_shown.connect(on_shown)
            player.play()
            start = time.perf_counter()
            _spin(app, lambda: time.perf_counter() - start > 1.0, 5)
            player.pause()
            player.frame_shown.disconnect(on_shown)
            j = got[len(got) // 2] if got else k
            t = time.perf_counter()
            player.seek_frame(j)
            _spin(app, lambda: player.shown_frame == j, 60)
            return (time.perf_counter() - t) * 1000

        sel_back = [just_played(k) for k in played_targets]
        mb = statistics.median(sel_back)
        print(f"  an event played 0.5 s before      {mb:7.1f} ms median, {max(sel_back):.1f} ms "
              f"worst of {len(sel_back)} -> {mb / med:.2f}x a selection elsewhere")
        # 2d. going back to an event selected before (the first six of step 2)
        revisit = [exact(k) for k in targets[:6]]
        mr = statistics.median(revisit)
        print(f"  an event selected before, again   {mr:7.1f} ms median, {max(revisit):.1f} ms "
              f"worst of {len(revisit)} -> {mr / med:.2f}x the first selection")

        # 2e. a neighbouring event or finding, warmed while the moderator read (the navigator
        # hints them after each selection: ui/navigation.py)
        def warmed(k: int) -> float:
            player.prefetch_times([times.time_of(k)])
            _spin(app, lambda: k in player._worker.warmed, 60)
            return exact(k)

        sel_warm = [warmed(k) for k in warm_targets]
        mw = statistics.median(sel_warm)
        print(f"  a warmed neighbour                {mw:7.1f} ms median, {max(sel_warm):.1f} ms "
              f"worst of {len(sel_warm)} -> {mw / med:.2f}x a selection elsewhere")

        # 3. dragging: a keyframe preview for each position, the exact frame on release
        previews = []
        player.set_scrubbing(True)
        for k in drag_targets:
            player.view.image = None
            t = time.perf_counter()
            player.seek_frame(k)
            ok = _spin(app, lambda: player.view.image is not None
                       and player.view.approximate, 30)
            previews.append((time.perf_counter() - t) * 1000 if ok else float("inf"))
        last = drag_targets[-1]
        t = time.perf_counter()
        player.set_scrubbing(False)
        _spin(app, lambda: player.shown_frame == last and not player.view.approximate, 60)
        release = (time.perf_counter() - t) * 1000
        pm = statistics.median(previews)
        print(f"  dragging: keyframe preview        {pm:7.1f} ms median ({sum(p != float('inf') for p in previews)}"
              f"/{len(previews)} positions previewed) -> {pm / bare_seek:.2f}x OpenCV's "
              f"seek+read; exact frame on release {release:.1f} ms")
        print(f"  load average {os.getloadavg()[0]:.1f} (the machine's, for the record)")
        w.shutdown()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
