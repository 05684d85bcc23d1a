"""Sync analysis time against the integrity scan it reads, timed in the same run (best of 3,
interleaved), with the `ffmpeg -f null` decode floor beside both.

Issue 13: the analysis may add at most 20 % to the scan's time; issue 12: the scan stays within
1.3x the floor. Since the scan also yields sync's per-tile change counts, the video is decoded
once: the analysis column is all sync adds (`core.sync.signals.frame_signals` from the cache,
plus `analyze`). Runs on the real-game corpus (tests/corpus; built into .cache/corpus on first
use): three 40 s genuine runs, two 150 s ones sped up 4.4 % (`breakout-speedlong`,
`pong-speedlong`: Pong's is the costliest), whose drift search is the analysis' costliest part
and grows with the square of the run's length, the same two not sped up (`genuinelong`) and
two genuine runs of 300 s (`genuine300`, built on first use: about a minute each; their fits
go by FFT correlation) (issue 13, docs/DECISIONS.md). Usage: python bench/bench_sync.py
[GAME | RUN...] (a GAME is its genuine run; a RUN is a corpus name such as pong-speedlong).
`python bench/bench_sync.py hour`: the peak memory (ru_maxrss) of the analysis of a synthetic
hour at 60 fps, 3,000 actions, 16x16 tiles 5 % busy (no corpus needed; ~1.5 min CPU; session
26: 2,733 MiB before `fit.LEARNED_KEPT`).
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


def _children_cpu() -> float:
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of fn(); CPU counts this process and its reaped children."""
    r0, c0, t0 = _children_cpu(), time.process_time(), time.perf_counter()
    fn()
    return time.perf_counter() - t0, _children_cpu() - r0 + (time.process_time() - c0)


def _measure(run, e, sha: str) -> dict[str, list[tuple[float, float]]]:
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
    from moderator_app.core.video.scan import run_scan

    out: dict[str, list[tuple[float, float]]] = {"floor": [], "scan": [], "ana": []}
    for _ in range(3):
        out["floor"].append(_timed(lambda: subprocess.run(
            ["ffmpeg", "-loglevel", "error", "-i", str(run.video), "-f", "null", "-"],
            check=True)))
        out["scan"].append(_timed(lambda: run_scan(run.video, sha256=sha, cache=False)))
        run_scan(run.video, sha256=sha)  # into the cache, as verify --scan leaves it
        out["ana"].append(_timed(lambda: analyze(e, frame_signals(run.video, sha256=sha),
                                                 DEFAULT_THRESHOLDS)))
    return out


DEFAULT_RUNS = ("breakout", "pitfall", "pong", "breakout-speedlong", "pong-speedlong",
                "breakout-genuinelong", "pong-genuinelong", "breakout-genuine300",
                "pong-genuine300")


def main(games: list[str]) -> int:
    import corpus
    import numpy as np

    from moderator_app.core.video.scan import file_sha256

    why = corpus.available()
    if why:
        print(f"skipped: {why}")
        return 0
    os.environ["MODERATOR_APP_CACHE"] = tempfile.mkdtemp(prefix="bench-sync-")
    print("wall: best of 3, interleaved; cpu: CPU seconds (user+sys, the scan's isolated "
          "process and threads included), min of 3: steadier than wall on a loaded machine")
    print(f"{'run':18s} {'floor':>7s} {'scan':>7s} {'scan/floor':>10s} {'analysis':>9s} "
          f"{'analysis/scan':>13s} | {'cpu floor':>9s} {'cpu scan':>8s} {'cpu ana':>8s} "
          f"{'ana/scan':>8s}")
    for name in games or DEFAULT_RUNS:
        run = corpus.build(name if "-" in name else f"{name}-genuine")
        e = np.array(run.action_times)
        m = _measure(run, e, file_sha256(run.video))
        f, s, a = (min(x[0] for x in m[k]) for k in ("floor", "scan", "ana"))
        cf, cs, ca = (min(x[1] for x in m[k]) for k in ("floor", "scan", "ana"))
        print(f"{run.name:18s} {f:6.3f}s {s:6.3f}s {s / f:9.2f}x {a:8.3f}s "
              f"{a / s * 100:12.1f}% | {cf:8.3f}s {cs:7.3f}s {ca:7.3f}s {ca / cs * 100:7.1f}%",
              flush=True)
    return 0

def hour(seconds: int = 3600, fps: int = 60, actions: int = 3000) -> int:
    """The analysis' peak memory on a synthetic hour (FrameSignals from arrays, as the scan
    gives them: 16x16 uint8 tiles, 5 % of them changing at random, two tiles answering every
    action 3 frames late): the process's peak before and after, in MiB. No assertion."""
    import resource

    import numpy as np

    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.signals import from_scan
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    class _Scan:
        def __init__(self, times, tiles):
            self.times_s, self.sync_tiles, self.chroma_tiles = times, tiles, None

    rng = np.random.default_rng(3)
    n = seconds * fps
    fine = np.zeros((n, 16, 16), np.uint8)
    busy = rng.random((n, 16, 16)) < 0.05
    fine[busy] = rng.integers(1, 40, int(busy.sum())).astype(np.uint8)
    del busy
    fine[0] = 0
    run_s = np.sort(rng.uniform(1, seconds - 5, actions))
    ks = np.rint((run_s + 2.0) * fps).astype(int) + 3
    fine[ks, 14, 7], fine[ks, 14, 8] = 30, 25
    sig = from_scan(_Scan(np.arange(n) / fps, fine), 8)
    mib = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # noqa: E731
    before, c0 = mib(), time.process_time()
    a = analyze(list(map(float, run_s)), sig, DEFAULT_THRESHOLDS)
    print(f"synthetic {seconds} s at {fps} fps, {actions} actions: peak {mib():.0f} MiB "
          f"(signals built: {before:.0f} MiB), {time.process_time() - c0:.0f} s CPU; "
          f"offset {a.suggested_offset_s}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["hour"]:
        raise SystemExit(hour())
    raise SystemExit(main(sys.argv[1:]))
