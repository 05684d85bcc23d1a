"""Issue 11 walk of session 17's QA pass (docs/qa/session17.md): session 13's walk
(scripts/qa_walk_s13_review.py: open, play, every finding, an uncovering offset and back,
auto-sync, decide, GUI record against `moderator-app decide`) on real-game runs no walk opened,
as recorded (no re-encoding): Zaxxon with 4 s cut from the footage (VFR H.264 MKV, 4:3
pillar-boxed in 1920x1080; rejected with reason `other`), Othello genuine (another seed; NTSC
29.97 fps ProRes 422 MOV; accepted) and, with --freeze, Othello frozen 4 s (the ProRes
recorder; rejected). The runs are built by `qa_session17.py sync-build` in the s17-qa worktree.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s17.py walk OUT 1280 720
    ... walk OUT 1920 1080 --freeze
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts")]
import qa_walk_s13_review as w13  # noqa: E402
import qa_walk_s14 as w14  # noqa: E402

#: the runs (read-only; hard-linked into OUT): this worktree's, or QA17_RUNS (a fresh clone)
w14.RUNS = Path(os.environ.get("QA17_RUNS", REPO / ".cache" / "qa-s17" / "sync"))
w14.PICK = {"zaxxon-vfr-1080-mkv-cut": "zaxxon-cut@r30vfr1080",
            "othello-prores-2997-genuine": "othello-genuine2@r2997prores"}
if "--freeze" in sys.argv:
    w14.PICK["othello-prores-2997-freeze"] = "othello-freeze@r2997prores"
w13.DECISIONS = {
    "zaxxon-vfr-1080-mkv-cut": (
        "reject", "other", "4 s of the footage are missing: the picture jumps near the cut; "
        "resubmit the whole recording", ()),
    "othello-prores-2997-genuine": ("accept", "ok", "", ()),
    "othello-prores-2997-freeze": (
        "reject", "video-coverage", "the picture is frozen for 4 s", ()),
}

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in w14.build(Path(sys.argv[2]))))
    else:
        w13.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))  # [--freeze]
