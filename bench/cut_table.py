"""The integrity scan's `video.cut` on every corpus run against its ground truth (issue 12):
how many splices inside game footage it finds, and how many candidates it gives on honest
footage, with how far the picture signals at each splice stand above the run's honest events.

    .venv/bin/python bench/cut_table.py [NAME...]     # default: every corpus run built

By default only the runs already built are read (`make corpus`, or `cd tests &&
../.venv/bin/python -m corpus NAME`); the scans are cached as the workstation caches them
(MODERATOR_APP_CACHE). Judged as issue 12 says it will be judged: a splice (`cut`: one,
`insert`: its two edges, `retake`: one) is found when a `video.cut` starts within 0.5 s of it;
on a run whose video is honest (`genuine*`, `deleted`, `human`: any tampering is in the log,
the video is as recorded) every candidate is false; elsewhere a
candidate more than 0.5 s from every splice is false. `freeze`, `speed*` and `slow` runs are
counted apart (a freeze's end is a real jump in the game's state).

The signal columns say why no threshold separates: for each splice, the largest value within
0.5 s of it as a ratio to the largest value on the same run's frames away from any tampering
(the run's own honest events). Above 1 the splice stands out in its own run; the honest
events of other runs are not even compared. `motion`: motion energy over the median of the 15
frames either side (the frame and its two neighbours left out, floor 1: the cut rule's kind of
measure); `changed`: the share of sample points that changed over the 90th percentile of the
same frames (floor 1 %).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

HONEST = ("genuine", "genuine2", "genuine3", "deleted", "human")
SPLICED = ("cut", "insert", "retake")
NEAR_S = 0.5


def splices(truth: dict) -> list[float]:
    """Video times of the splices a run's tampering made (none on honest video)."""
    t = truth["tamper"]
    if truth["kind"] in SPLICED:
        return [t["video_s"]] + ([t["video_end_s"]] if "video_end_s" in t else [])
    return []


def tampered_span(truth: dict, times: np.ndarray) -> np.ndarray:
    """Frames within NEAR_S of what the tampering touched (splices, a frozen stretch)."""
    near = np.zeros(times.shape[0], bool)
    for s in splices(truth):
        near |= np.abs(times - s) <= NEAR_S
    t = truth["tamper"]
    if truth["kind"] == "freeze":
        near |= (times >= t["video_start_s"] - NEAR_S) & (times <= t["video_end_s"] + NEAR_S)
    return near


def _local(x: np.ndarray, half: int, stat, floor: float) -> np.ndarray:
    """x over `stat` of its neighbours within `half` frames (itself and its two neighbours
    left out), that at least `floor` (the rule's own floors: 1.0 motion, 1 % of the points)."""
    out = np.zeros(x.shape[0])
    for i in range(1, x.shape[0]):
        win = np.concatenate((x[max(1, i - half):max(1, i - 1)], x[i + 2:i + half + 2]))
        if win.shape[0]:
            out[i] = x[i] / max(float(stat(win)), floor)
    return out


def signal_ratios(sig, truth: dict) -> dict[str, list[float]]:
    """Per splice and signal: its peak near the splice over the run's peak elsewhere."""
    from moderator_app.core.thresholds import DEFAULT_SCAN_THRESHOLDS
    motion = np.nan_to_num(sig.motion)
    changed = np.nan_to_num(sig.changed)
    feats = {"motion": _local(motion, 15, np.median, 1.0),
             "changed": _local(changed, 15, lambda w: np.percentile(w, 90), 0.01)}
    near = tampered_span(truth, sig.times_s)
    ctx = DEFAULT_SCAN_THRESHOLDS.cut_context_frames  # the rule's own: nothing around to judge
    for f in feats.values():
        f[:ctx] = 0.0
        f[f.shape[0] - ctx:] = 0.0
    out: dict[str, list[float]] = {}
    for name, f in feats.items():
        honest_peak = float(f[~near].max()) if (~near).any() else 0.0
        out[name] = [float(f[np.abs(sig.times_s - s) <= NEAR_S].max(initial=0.0)) /
                     max(honest_peak, 1e-6) for s in splices(truth)]
    return out


def main(argv: list[str]) -> int:
    import corpus

    from moderator_app.core.video.scan import run_scan

    names = argv or [n for n in (*corpus.NAMES, *corpus.HELD_OUT_NAMES)
                     if (corpus.cache_dir() / n / "truth.json").exists()]
    tot = {"honest": [0, 0, 0], "spliced": [0, 0, 0, 0], "other": [0, 0]}
    ratios: dict[str, list[float]] = {"motion": [], "changed": []}
    for name in names:
        run = corpus.build(name)
        truth = run.truth
        res = run_scan(run.video)
        cuts = [s.start_s for s in res.spans if s.rule == "video.cut"]
        marks = splices(truth)
        found = sum(any(abs(c - m) <= NEAR_S for c in cuts) for m in marks)
        false = [c for c in cuts if all(abs(c - m) > NEAR_S for m in marks)]
        kind = truth["kind"]
        line = f"{name:34s} {kind:9s} candidates {len(cuts):2d}"
        if kind in SPLICED:
            r = signal_ratios(res.signals, truth)
            for k in ratios:
                ratios[k] += r[k]
            t = tot["spliced"]
            t[0] += 1
            t[1] += len(marks)
            t[2] += found
            t[3] += len(false)
            line += (f"  splices found {found}/{len(marks)}  false {len(false)}  at the splice "
                     + "  ".join(f"{k} {' '.join(f'{v:.2f}' for v in r[k])}" for k in r))
        elif kind in HONEST:
            t = tot["honest"]
            t[0] += 1
            t[1] += len(false)
            t[2] += bool(false)
            line += f"  false {len(false)}"
        else:
            tot["other"][0] += 1
            tot["other"][1] += len(cuts)
        print(line + "".join(f"  {c:.2f}s" for c in false[:4]), flush=True)
    h, s, o = tot["honest"], tot["spliced"], tot["other"]
    print(f"honest video: {h[0]} runs, {h[1]} false candidates in {h[2]} runs")
    print(f"spliced: {s[0]} runs, {s[2]} of {s[1]} splices found within {NEAR_S} s, "
          f"{s[3]} other candidates")
    print(f"freeze/speed/slow: {o[0]} runs, {o[1]} candidates")
    for k, v in ratios.items():
        if v:
            a = np.asarray(v)
            print(f"{k:8s} splice peak / the run's honest peak: median {np.median(a):.2f}, "
                  f"above 1 at {int((a > 1).sum())} of {a.shape[0]} splices")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
