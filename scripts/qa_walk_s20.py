"""Issue 11 walk of session 20's QA pass (docs/qa/session20.md): session 13's walk
(scripts/qa_walk_s13_review.py: open, play, every finding, an uncovering offset and back,
auto-sync, decide, GUI record against `moderator-app decide`) on real-game runs no walk opened,
as recorded (40 fps MPEG-4 Part 2 (libxvid, B-frames) + MP3 in AVI, 2x nearest, 3.3 s lead-in):
Frogger frozen 4 s (rejected, `video-coverage`), Pooyan genuine (accepted) and, with --freeze,
Frogger with 9 s of the log deleted (rejected, `other`). The runs are built by
`qa_session20.py sync-build` in the s20-qa worktree (the cut runs have no finding to click: M3).

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s20.py walk OUT 1280 720
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

#: the runs (read-only; hard-linked into OUT): this worktree's, or QA20_RUNS (a fresh clone)
w14.RUNS = Path(os.environ.get("QA20_RUNS", REPO / ".cache" / "qa-s20" / "sync"))
w14.PICK = {"frogger-xvid-40-freeze": "frogger-freeze@r40xvidavi",
            "pooyan-xvid-40-genuine": "pooyan-genuine@r40xvidavi"}
if "--freeze" in sys.argv:
    w14.PICK["frogger-xvid-40-deleted"] = "frogger-deleted@r40xvidavi"
w13.DECISIONS = {
    "frogger-xvid-40-freeze": (
        "reject", "video-coverage", "the picture is frozen for 4 s", ()),
    "pooyan-xvid-40-genuine": ("accept", "ok", "", ()),
    "frogger-xvid-40-deleted": (
        "reject", "other", "9 s of the log are missing while the frog keeps hopping", ()),
}

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in w14.build(Path(sys.argv[2]))))
    else:
        w13.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))  # [--freeze]
