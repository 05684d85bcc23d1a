"""The integrity scan's `video.cut` on every corpus run against its ground truth (issue 12):
how many splices inside game footage it finds, and how many candidates it gives on honest
footage, with how far the picture signals at each splice stand above the run's honest events.

    .venv/bin/python bench/cut_table.py [NAME...]     # default: every corpus run built
    .venv/bin/python bench/cut_table.py --sweep [READINGS.jsonl]   # the autosync sweep's runs

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

import json
import os
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


def sweep_table(readings: str | None) -> int:
    """Session 29 (issue 13): the autosync sweep's splice runs (`autosync_sweep.py --splice`:
    the corpus' cuts, long cuts and insertions and s25-splice's) and its genuine runs, each
    scan read from the sweep's cache. Per splice: the nearest `video.cut` candidate and its
    distance (a candidate within 0.5 s is the scan's find, with its level), the signal
    ratios above, the actions answered at the truth before and after it (8x8,
    `splice_evidence.support`), and, from READINGS (`scripts/splice_readings_s28.py OUT`),
    whether a `sync.offset_jump` lies within 1 s of it at auto and at the truth. Per genuine
    run: the candidates (every one is false)."""
    sys.path.insert(0, str(REPO / "scripts"))
    sys.path.insert(0, str(REPO / "bench"))
    import autosync_sweep as sw
    import splice_evidence as se

    from moderator_app.core.video.scan import run_scan

    read = {}
    if readings:
        read = {r["run"]: r for r in map(json.loads, Path(readings).read_text().splitlines())}
    tot = {"splices": 0, "near": 0, "runs": 0, "genuine": 0, "false": 0, "false_runs": 0,
           "near_found": 0, "near_not": 0, "far_found": 0, "far_not": 0}
    print("| run | kind | splice (video s) | nearest video.cut | answered before / after "
          "(truth) | motion | changed | jump at auto | at truth |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in sw.runs([], True):
        truth = json.loads((d / "truth.json").read_text())
        t = truth.get("tamper") or {}
        kind = str(t.get("kind") or truth.get("kind", ""))
        name = (f"{d.parent.name}/" if d.parent in sw.SPLICE_SETS else "") + d.name
        is_gen = kind.startswith(sw.GENUINE_KINDS)
        if kind not in ("cut", "cutlong", "insert") and not is_gen:
            continue
        own = d.parent / "scan-cache"
        os.environ["MODERATOR_APP_CACHE"] = str(own if own.is_dir() else
                                                Path("/tmp/autosync-scan"))
        res = run_scan(d / truth.get("video", "video.mp4"))
        cuts = [(s.start_s, s.message) for s in res.spans if s.rule == "video.cut"]
        if is_gen:
            tot["genuine"] += 1
            tot["false"] += len(cuts)
            tot["false_runs"] += bool(cuts)
            if cuts:
                print(f"| {name} | {kind} | - | {len(cuts)} false: "
                      + ", ".join(f"{c:.2f}" for c, _ in cuts[:4]) + " | | | | | |")
            continue
        marks = [t["video_s"]] + ([t["video_end_s"]] if "video_end_s" in t else [])
        r = signal_ratios(res.signals, {"kind": "cut", "tamper": t})
        sup = se.support(d, truth)
        rd = read.get(name, {})
        tot["runs"] += 1
        for j, m in enumerate(marks):
            near = min(cuts, key=lambda c: abs(c[0] - m), default=None)
            hit = near is not None and abs(near[0] - m) <= NEAR_S
            tot["splices"] += 1
            tot["near"] += hit
            auto = rd.get("auto", {}).get("found")
            if j == 0 and auto is not None:
                tot[("near_" if hit else "far_") + ("found" if auto else "not")] += 1
            what = "-" if near is None else (
                f"{near[0] - m:+.2f} s" + (": " + near[1].split(": ", 1)[-1] if hit else ""))
            print(f"| {name} | {kind} | {m:.2f} | {what} | {sup if j == 0 else ''} | "
                  f"{r['motion'][j]:.2f} | {r['changed'][j]:.2f} | "
                  f"{_yes(rd, 'auto') if j == 0 else ''} | {_yes(rd, 'truth') if j == 0 else ''} |")
    print(f"\nsplices {tot['splices']} in {tot['runs']} runs: a video.cut within {NEAR_S} s at "
          f"{tot['near']}; genuine runs {tot['genuine']}: {tot['false']} candidates in "
          f"{tot['false_runs']} runs")
    if read:
        print(f"first splice of a run, jump within 1 s at auto: with a video.cut near "
              f"{tot['near_found']} of {tot['near_found'] + tot['near_not']}, without "
              f"{tot['far_found']} of {tot['far_found'] + tot['far_not']}")
    return 0


def _yes(row: dict, name: str) -> str:
    r = row.get(name)
    if not r:
        return "?"
    return ("jump" if r["found"] else "-") + ("" if r["err"] is None else f" ({r['err']:+.1f} fr)")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--sweep"]:
        return sweep_table(argv[1] if len(argv) > 1 else None)
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
