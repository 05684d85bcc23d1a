"""Session 33's splice reasons (issue 13): for each cut / insertion run given, what the sync
analysis at the true offset reads across the splice, so a miss can be told apart as "no
readings" (the reaction reader answers nothing on the game) or "a step the rule rejected".

    PYTHONPATH=. .venv/bin/python scripts/splice_why_s33.py RUN_FOLDER...

Per run: the truth's presses shown before the splice and after it (a cut's removed presses,
shown nowhere, left out), the suggestion at the truth, the segments, the track's windows that
read the offset before the splice and the one after it (within 0.15 s) and the others, and
every `sync.*` finding (rule, video span). Runs are read as `holds_sweep_s28.py` loads them
(its scan caches: the wide set's appcache, corpus v2's scan-cache, QA's appcache-holds).
Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import holds_sweep_s28 as holds  # noqa: E402

SAME_S = 0.15  # a window reads a side's offset this near


def _cache(folder: Path) -> str:
    if folder.parent.name == "sync" and folder.parents[1].name == "wide":
        return str(folder.parents[1] / "appcache")
    if folder.parent.name == "v2":
        return str(folder.parent / "scan-cache")
    return str(folder.parents[1] / "appcache-holds")


def why(folder: Path) -> str:
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    os.environ["MODERATOR_APP_CACHE"] = _cache(folder)
    truth, kept, kinds, run_end, sig, _scan, _name = holds.load(folder)
    tam, t0 = truth["tamper"], float(truth["offset_s"])
    size, at = float(tam["size_s"]), float(tam["run_s"])
    acts = truth["actions"]
    pre = [a for a in acts if a["elapsed_ms"] / 1000 < at]
    post = [a for a in acts if a["elapsed_ms"] / 1000 >= at + max(-size, 0.0)]

    def shown(xs: list[dict]) -> str:
        return f"{sum(a['shows_video_s'] is not None for a in xs)}/{len(xs)}"

    res = analyze(kept, sig, DEFAULT_THRESHOLDS, t0, run_end, input_kinds=kinds)
    reads = [p.offset_s for p in res.track if p.offset_s is not None]
    before = sum(abs(o - t0) < SAME_S for o in reads)
    after = sum(abs(o - (t0 + size)) < SAME_S for o in reads)
    found = [(f.rule, f.video_start_s, f.video_end_s) for f in res.findings
             if f.rule.startswith("sync.")]
    return (f"{folder.name} {tam['kind']} at video {float(tam['video_s']):.2f} s: shown before "
            f"{shown(pre)}, after {shown(post)} | suggested {res.suggested_offset_s}, "
            f"segments {len(res.segments)} | windows at the offset before {before}, after "
            f"{after}, other {len(reads) - before - after} | {found}")


def main() -> None:
    for arg in sys.argv[1:]:
        print(why(Path(arg)), flush=True)


if __name__ == "__main__":
    main()
