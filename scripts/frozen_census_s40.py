"""Session 40's scan census of `video.frozen` (issue 12, QA s39 T3/T4): for every run with a
truth in the sets, the scan's `video.frozen` spans (severity, start, end), the stream's
keyframe share and codec, and the edited freeze's span from the truth; at scan level
(`finer` off: the cached signals alone) or with the full-resolution pass (`--finer`).

    .venv/bin/python scripts/frozen_census_s40.py sweep OUT [--sets qa,wide,corpus]
        [--only SUBSTR] [--finer] [--cached-only]
    .venv/bin/python scripts/frozen_census_s40.py table BEFORE AFTER   # the runs that changed
    .venv/bin/python scripts/frozen_census_s40.py drifts FILE   # spans' mean-luma drift

The product is taken from PYTHONPATH (a worktree of main for the before, yours for the
after); the scans are the caches `holds_sweep_s28.py` reads (QA's appcache-holds, the wide
set's appcache, corpus v2's scan-cache). Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from holds_sweep_s28 import CORPUS, WIDE, runs  # noqa: E402


def _video(folder: Path) -> Path:
    return next(p for p in sorted(folder.iterdir()) if p.name.startswith("video."))


def row(name: str, folder: Path, finer: bool) -> dict:
    import numpy as np

    from moderator_app.core.video.scan import run_scan

    truth = json.loads((folder / "truth.json").read_text())
    scan = run_scan(_video(folder), finer=finer)
    tam = truth.get("tamper") or {}
    sig = scan.signals
    return {"run": name, "kind": str(tam.get("kind") or truth.get("kind") or ""),
            "edit": [tam.get("video_start_s"), tam.get("video_end_s")]
            if tam.get("kind") == "freeze" else None,
            "frames": sig.frame_count,
            "frozen": [(s.severity, round(s.start_s, 3), round(s.end_s, 3),
                        round(_drift(sig, s.start_s, s.end_s), 3))
                       for s in scan.spans if s.rule == "video.frozen"],
            "luma_range": float(np.ptp(sig.luma)) if sig.frame_count else 0.0}


def _drift(sig, a: float, b: float) -> float:
    """The most a span's mean luma drifts: its running median over 0.3 s, the range of that
    within 1 s around each frame (`scan_holds._drifting`'s measure, on the span's frames)."""
    import numpy as np

    idx = np.nonzero((sig.times_s >= a - 1e-6) & (sig.times_s < b - 1e-6))[0]
    y = np.asarray(sig.luma, np.float64)[idx]
    if y.shape[0] < 2 or not np.isfinite(y).all():
        return 0.0
    fd = max(sig.frame_duration_s, 1e-9)
    k = int(round(0.3 / fd)) // 2
    view = np.lib.stride_tricks.sliding_window_view
    med = np.median(view(np.pad(y, (k, k), mode="edge"), 2 * k + 1), axis=1) if k else y
    w = max(1, int(round(0.5 / fd)))
    win = view(np.pad(med, (w, w), mode="edge"), 2 * w + 1)
    return float((win.max(axis=1) - win.min(axis=1)).max())


def _cached(folder: Path) -> bool:
    """Is the run's scan in the cache (MODERATOR_APP_CACHE as set)? The census reads cached
    scans only when asked (`--cached-only`): a scan of a run not yet built is minutes."""
    from moderator_app.core.video.scan_cache import cache_file, cache_key, file_sha256

    video = _video(folder)
    return cache_file(cache_key(video, file_sha256(video))).exists()


def sweep(out: Path, sets: list[str], only: str | None, finer: bool,
          cached_only: bool = False) -> None:
    done = set()
    if out.exists():
        done = {json.loads(x)["run"] for x in out.read_text().splitlines() if x.strip()}
    with out.open("a") as fh:
        for name, folder in runs(sets):
            if name in done or (only and only not in name):
                continue
            if name.startswith("qa-"):
                os.environ["MODERATOR_APP_CACHE"] = str(folder.parents[1] / "appcache-holds")
            elif name.startswith("wide/"):
                os.environ["MODERATOR_APP_CACHE"] = str(WIDE / "appcache")
            else:
                os.environ["MODERATOR_APP_CACHE"] = str(CORPUS / "scan-cache")
            if cached_only and not _cached(folder):
                continue
            try:
                r = row(name, folder, finer)
            except Exception as exc:  # noqa: BLE001 - a run that cannot be read is a row
                r = {"run": name, "error": repr(exc)}
            fh.write(json.dumps(r) + "\n")
            fh.flush()


def _rows(p: Path) -> dict[str, dict]:
    return {json.loads(x)["run"]: json.loads(x) for x in p.read_text().splitlines() if x.strip()}


def table(before: Path, after: Path) -> None:
    b, a = _rows(before), _rows(after)
    both = sorted(set(b) & set(a))
    count = {k: [0, 0] for k in ("warning", "info")}
    moved = 0
    for name in both:
        x = [s[:3] for s in b[name].get("frozen", [])]
        y = [s[:3] for s in a[name].get("frozen", [])]
        for sev in count:
            count[sev][0] += sum(1 for s in x if s[0] == sev)
            count[sev][1] += sum(1 for s in y if s[0] == sev)
        if x != y:
            moved += 1
            print(f"| {name} | edit {a[name].get('edit')} | {x} -> {y} |")
    edits = [n for n in both if a[n].get("edit")]
    warned = [n for n in edits if any(
        s[0] == "warning" and s[1] < a[n]["edit"][1] and s[2] > a[n]["edit"][0]
        for s in a[n]["frozen"])]
    warned_b = [n for n in edits if any(
        s[0] == "warning" and s[1] < b[n]["edit"][1] and s[2] > b[n]["edit"][0]
        for s in b[n]["frozen"])]
    print(f"runs {len(both)}, changed {moved}; warnings {count['warning'][0]} -> "
          f"{count['warning'][1]}, notes {count['info'][0]} -> {count['info'][1]}; edited "
          f"freezes warned {len(warned_b)} -> {len(warned)} of {len(edits)}")


def drifts(path: Path) -> None:
    """The drift (`_drift`) of each span over an edited freeze and the spread of the rest."""
    over, rest = [], []
    for r in _rows(path).values():
        for s in r.get("frozen", []):
            e = r.get("edit")
            if e and s[1] < e[1] and s[2] > e[0]:
                over.append((s[3], r["run"], s[:3]))
            else:
                rest.append(s[3])
    for d, name, s in sorted(over):
        print(f"edit  {d:7.3f} {name} {s}")
    rest.sort()
    if rest:
        share = sum(1 for d in rest if d > 1.0) / len(rest)
        print(f"other spans {len(rest)}: median {rest[len(rest) // 2]:.3f}, "
              f"over 1.0: {share:.1%}, max {rest[-1]:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("sweep", "table", "drifts"))
    ap.add_argument("args", nargs="*")
    ap.add_argument("--sets", default="qa,wide,corpus")
    ap.add_argument("--only")
    ap.add_argument("--finer", action="store_true")
    ap.add_argument("--cached-only", action="store_true")
    ns = ap.parse_args()
    if ns.cmd == "sweep":
        sweep(Path(ns.args[0]), ns.sets.split(","), ns.only, ns.finer, ns.cached_only)
    elif ns.cmd == "drifts":
        drifts(Path(ns.args[0]))
    else:
        table(Path(ns.args[0]), Path(ns.args[1]))


if __name__ == "__main__":
    main()
