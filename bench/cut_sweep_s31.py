"""`video.cut` on every set with a ground truth (session 31, issue 12: QA s30 T8): splices
found within 0.5 s, and candidates on honest video, per set, from the scans' caches.

    .venv/bin/python bench/cut_sweep_s31.py OUT.jsonl [SET...]   # rows, then the summary
    PYTHONPATH=<other checkout> .venv/bin/python bench/cut_sweep_s31.py BEFORE.jsonl

Sets: `corpus` (corpus v2, every built run of a splice kind or an honest kind), `qa` (QA
s26-s31's sync runs; s31 since session 32), `extra` (s25-splice, s25-splice2, s28-scroll), `wide` (session 32's wide training set, its `appcache`). Each scan is read from
its cache (MODERATOR_APP_CACHE as the set keeps it: the corpus' `scan-cache`, else the one
given); a scan not cached is decoded once. Only the analysis differs between checkouts."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

CACHE = Path("/work/main/.cache")
HONEST = ("genuine", "deleted", "human", "pause")
SPLICED = ("cut", "insert", "retake", "cutlong")
SETS = {"corpus": [CACHE / "corpus" / "v2"],
        "qa": [CACHE / f"qa-s{s}" / "sync" for s in range(26, 32)],
        "extra": [CACHE / "s25-splice", CACHE / "s25-splice2", CACHE / "s28-scroll" / "sync"],
        "wide": [CACHE / "wide" / "sync"]}


def runs(roots: list[Path]):
    """(name, video, splice times, honest) of each run with a truth."""
    for root in roots:
        for d in sorted(root.iterdir()) if root.is_dir() else ():
            tf = d / "truth.json"
            if not tf.is_file():
                continue
            t = json.loads(tf.read_text())
            video = d / t.get("video", "video.mp4")
            tam = t.get("tamper") or {}
            marks = [tam["video_s"]] + ([tam["video_end_s"]] if "video_end_s" in tam else []) \
                if t["kind"] in SPLICED else []
            honest = str(t["kind"]).startswith(HONEST)
            if video.is_file() and (marks or honest):
                yield f"{root.parent.name}/{d.name}", video, marks, honest


def main(argv: list[str]) -> int:
    from moderator_app.core.video.scan import run_scan

    out = Path(argv[0])
    rows = []
    for name in argv[1:] or list(SETS):
        for run, video, marks, honest in runs(SETS[name]):
            own = video.parent.parent / "scan-cache"
            shared = video.parent.parent.parent / "appcache"  # the wide set's (session 32)
            if own.is_dir():
                os.environ["MODERATOR_APP_CACHE"] = str(own)
            elif shared.is_dir():
                os.environ["MODERATOR_APP_CACHE"] = str(shared)
            cuts = [round(s.start_s, 3) for s in run_scan(video).spans if s.rule == "video.cut"]
            found = sum(any(abs(c - m) <= 0.5 for c in cuts) for m in marks)
            false = [c for c in cuts if all(abs(c - m) > 0.5 for m in marks)]
            rows.append({"set": name, "run": run, "splices": len(marks), "found": found,
                         "honest": honest, "false": false})
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for name in dict.fromkeys(r["set"] for r in rows):
        rs = [r for r in rows if r["set"] == name]
        hon = [r for r in rs if r["honest"]]
        print(f"{name}: splices {sum(r['found'] for r in rs)}/{sum(r['splices'] for r in rs)} "
              f"found; honest runs {len(hon)}: {sum(len(r['false']) for r in hon)} candidates "
              f"in {sum(bool(r['false']) for r in hon)} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
