"""Issue 11 walk of session 14's QA pass (docs/qa/session14.md): session 13's walk
(scripts/qa_walk_s13_review.py: open, play, every finding, an uncovering offset and back,
auto-sync, decide, GUI record against `moderator-app decide`) on two real-game runs no walk
opened, as recorded (no re-encoding): Montezuma's Revenge with 4 s cut from the footage (HEVC in
MPEG-TS, 24 fps; rejected with reason `other`) and Time Pilot genuine (another seed, the same
recorder; accepted). The runs are built by `qa_session14.py sync-build`.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s14.py walk OUT 1280 720
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts")]
import qa_walk_s13_review as w13  # noqa: E402

RUNS = REPO / ".cache" / "qa-s14" / "sync"
PICK = {"montezuma-hevc-ts-24-cut": "montezuma_revenge-cut@r24hevcts",
        "time-pilot-hevc-ts-24-genuine": "time_pilot-genuine2@r24hevcts"}
w13.DECISIONS = {
    "montezuma-hevc-ts-24-cut": (
        "reject", "other", "4 s of the footage are missing: the picture jumps near the cut; "
        "resubmit the whole recording", ()),
    "time-pilot-hevc-ts-24-genuine": ("accept", "ok", "", ()),
}


def build(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    subs = []
    for name, run in PICK.items():
        dst = out / name
        subs.append(dst)
        if (dst / "truth.json").exists():
            continue
        tmp = out / f".{name}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        for f in (RUNS / run).iterdir():
            os.link(f, tmp / f.name)
        json.loads((tmp / "truth.json").read_text())
        tmp.rename(dst)
    return subs


w13.build = build

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in build(Path(sys.argv[2]))))
    else:
        w13.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
