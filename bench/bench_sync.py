"""Sync analysis time against the frame scan it reads (decode + per-frame signals), same run.

Issue 13: the analysis may add at most 20 % to the scan's time. Runs on the real-game corpus
(tests/corpus; built into .cache/corpus on first use). Best of 3, interleaved.
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

    why = corpus.available()
    if why:
        print(f"skipped: {why}")
        return 0
    for name in ("breakout-genuine", "pitfall-genuine", "pong-genuine"):
        run = corpus.build(name)
        acts = [orjson.loads(line) for line in run.log.read_bytes().splitlines()]
        e = np.array([a["elapsedMs"] / 1000 for a in acts if a["type"] == "action"])
        scan = ana = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            sig = frame_signals(run.video)
            scan = min(scan, time.perf_counter() - t)
            t = time.perf_counter()
            analyze(e, sig, DEFAULT_THRESHOLDS)
            ana = min(ana, time.perf_counter() - t)
        print(f"{name:18s} scan {scan:.3f} s  analysis {ana:.3f} s  "
              f"analysis/scan {ana / scan:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
