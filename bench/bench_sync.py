"""Sync analysis time against the scans, timed in the same run (best of 3, interleaved).

Issue 13: the analysis may add at most 20 % to the scan's time. Two baselines: the integrity
scan (`core.video.scan.run_scan`, uncached) and the frame signals sync reads
(`core.sync.signals.frame_signals`). Runs on the real-game corpus (tests/corpus; built into
.cache/corpus on first use).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))


def main() -> int:
    import corpus
    import numpy as np
    import orjson

    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
    from moderator_app.core.video.scan import run_scan

    why = corpus.available()
    if why:
        print(f"skipped: {why}")
        return 0
    for name in ("breakout-genuine", "pitfall-genuine", "pong-genuine"):
        run = corpus.build(name)
        acts = [orjson.loads(line) for line in run.log.read_bytes().splitlines()]
        e = np.array([a["elapsedMs"] / 1000 for a in acts if a["type"] == "action"])
        scan = ana = integrity = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            run_scan(run.video, cache=False)
            integrity = min(integrity, time.perf_counter() - t)
            t = time.perf_counter()
            sig = frame_signals(run.video)
            scan = min(scan, time.perf_counter() - t)
            t = time.perf_counter()
            analyze(e, sig, DEFAULT_THRESHOLDS)
            ana = min(ana, time.perf_counter() - t)
        print(f"{name:18s} integrity scan {integrity:.3f} s  sync signals {scan:.3f} s  "
              f"analysis {ana:.3f} s  analysis/integrity scan {ana / integrity:.2f}x  "
              f"analysis/signals {ana / scan:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
