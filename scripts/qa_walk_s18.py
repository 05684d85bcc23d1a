"""Issue 11 walk of session 18's QA pass (docs/qa/session18.md): session 13's walk
(scripts/qa_walk_s13_review.py: open, play, every finding, an uncovering offset and back,
auto-sync, decide, GUI record against `moderator-app decide`) on real-game runs no walk opened,
as recorded (no re-encoding): Phoenix with 4 s cut from the footage (59.94 fps H.264 open GOP
with B-frames and AAC in MP4; rejected with reason `other`), Video Checkers genuine (15 fps
MJPEG AVI letterboxed in 640x480, PCM audio; accepted) and, with --freeze, Video Checkers
frozen 4 s (the MJPEG recorder; rejected). The runs are built by `qa_session18.py sync-build`
in the s18-qa worktree.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s18.py walk OUT 1280 720
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

#: the runs (read-only; hard-linked into OUT): this worktree's, or QA18_RUNS (a fresh clone)
w14.RUNS = Path(os.environ.get("QA18_RUNS", REPO / ".cache" / "qa-s18" / "sync"))
w14.PICK = {"phoenix-5994-mp4-cut": "phoenix-cut@r5994bfaac",
            "checkers-mjpeg-15-genuine": "video_checkers-genuine@r15mjpeg"}
if "--freeze" in sys.argv:
    w14.PICK["checkers-mjpeg-15-freeze"] = "video_checkers-freeze@r15mjpeg"
w13.DECISIONS = {
    "phoenix-5994-mp4-cut": (
        "reject", "other", "4 s of the footage are missing: the birds jump near the cut; "
        "resubmit the whole recording", ()),
    "checkers-mjpeg-15-genuine": ("accept", "ok", "", ()),
    "checkers-mjpeg-15-freeze": (
        "reject", "video-coverage", "the picture is frozen for 4 s", ()),
}

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in w14.build(Path(sys.argv[2]))))
    else:
        w13.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))  # [--freeze]
