"""The integrity scan's `video.frozen` on recordings with a ground truth (issue 12: "no false
video warnings on honest files; each inserted freeze reported within +-0.5 s").

    .venv/bin/python bench/freeze_table.py DIR [DIR...]   # run folders, or folders of them

A run folder holds `video.*` and `truth.json` (the real-game corpus, `.cache/corpus/v2/*`;
QA's `scripts/qa_session1*.py sync-build` runs). Scans are cached as the workstation caches
them (MODERATOR_APP_CACHE), so the first pass decodes and the next ones only judge: run the
table from two trees (a `git archive main` copy and a branch) on one cache for before/after.
Per run kind (the corpus name's middle part, `genuine` for genuine2/3): runs, `video.frozen`
warnings and notes on them, and for `freeze` runs how many inserted freezes a `video.frozen`
covers within 0.5 s at both ends. `-v` lists every run with its spans.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

NEAR_S = 0.5


def runs(dirs: list[Path]) -> list[Path]:
    out = []
    for d in dirs:
        if (d / "truth.json").is_file():
            out.append(d)
        else:
            out += sorted(p for p in d.iterdir() if (p / "truth.json").is_file())
    return out


def kind_of(name: str) -> str:
    k = name.split("@")[0].split("-", 1)[-1]
    return re.sub(r"\d+$", "", k)


def main(argv: list[str]) -> int:
    from moderator_app.core.video.isolate import VideoProcessError
    from moderator_app.core.video.scan import run_scan

    verbose = "-v" in argv
    dirs = [Path(a) for a in argv if a != "-v"]
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    lost = []
    for run in runs(dirs):
        videos = sorted(run.glob("video.*"))
        if not videos:
            continue
        truth = json.loads((run / "truth.json").read_text())
        try:
            r = run_scan(videos[0])
        except VideoProcessError as e:
            print(f"{run.name}: {e}", file=sys.stderr)
            continue
        frozen = [s for s in r.spans if s.rule == "video.frozen"]
        row = table[kind_of(run.name)]
        row[0] += 1
        row[1] += sum(s.severity == "warning" for s in frozen)
        row[2] += sum(s.severity != "warning" for s in frozen)
        tamper = truth.get("tamper") or {}
        if tamper.get("kind") == "freeze":
            a, b = tamper["video_start_s"], tamper["video_end_s"]
            row[3] += 1
            hit = any(abs(s.start_s - a) <= NEAR_S and abs(s.end_s - b) <= NEAR_S
                      for s in frozen)
            row[4] += hit
            if not hit:
                lost.append(f"{run.name} (truth {a:.2f}-{b:.2f})")
        if verbose:
            print(f"{run.name:40s} " + " ".join(
                f"{s.severity[0]}:{s.start_s:.2f}-{s.end_s:.2f}" for s in frozen))
    print(f"{'kind':12s} {'runs':>5s} {'warn':>5s} {'info':>5s} {'freezes':>8s} {'found':>6s}")
    for k in sorted(table):
        n, w, i, f, h = table[k]
        print(f"{k:12s} {n:5d} {w:5d} {i:5d} {f:8d} {h:6d}")
    tot = [sum(v[c] for v in table.values()) for c in range(5)]
    print(f"{'total':12s} {tot[0]:5d} {tot[1]:5d} {tot[2]:5d} {tot[3]:8d} {tot[4]:6d}")
    for x in lost:
        print(f"inserted freeze not found within {NEAR_S} s: {x}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
