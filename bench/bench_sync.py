"""Sync analysis time against the integrity scan it reads, timed in the same run (best of 3,
interleaved), with the `ffmpeg -f null` decode floor beside both.

Issue 13: the analysis may add at most 20 % to the scan's time; issue 12: the scan stays within
1.3x the floor. Since the scan also yields sync's per-tile change counts, the video is decoded
once: the analysis column is all sync adds (`core.sync.signals.frame_signals` from the cache,
plus `analyze`). Runs on the real-game corpus (tests/corpus; built into .cache/corpus on first
use). Usage: python bench/bench_sync.py [GAME...]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))


def main(games: list[str]) -> int:
    import corpus
    import numpy as np
    import orjson

    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
    from moderator_app.core.video.scan import file_sha256, run_scan

    why = corpus.available()
    if why:
        print(f"skipped: {why}")
        return 0
    os.environ["MODERATOR_APP_CACHE"] = tempfile.mkdtemp(prefix="bench-sync-")
    print(f"{'run':18s} {'floor':>7s} {'scan':>7s} {'scan/floor':>10s} {'analysis':>9s} "
          f"{'analysis/scan':>13s}")
    for game in games or ("breakout", "pitfall", "pong"):
        run = corpus.build(f"{game}-genuine")
        acts = [orjson.loads(line) for line in run.log.read_bytes().splitlines()]
        e = np.array([a["elapsedMs"] / 1000 for a in acts if a["type"] == "action"])
        sha = file_sha256(run.video)
        floor = scan = ana = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run(["ffmpeg", "-loglevel", "error", "-i", str(run.video), "-f", "null",
                            "-"], check=True)
            floor = min(floor, time.perf_counter() - t)
            t = time.perf_counter()
            run_scan(run.video, sha256=sha, cache=False)
            scan = min(scan, time.perf_counter() - t)
            run_scan(run.video, sha256=sha)  # into the cache, as verify --scan leaves it
            t = time.perf_counter()
            analyze(e, frame_signals(run.video, sha256=sha), DEFAULT_THRESHOLDS)
            ana = min(ana, time.perf_counter() - t)
        print(f"{run.name:18s} {floor:6.3f}s {scan:6.3f}s {scan / floor:9.2f}x {ana:8.3f}s "
              f"{ana / scan * 100:12.1f}%", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
