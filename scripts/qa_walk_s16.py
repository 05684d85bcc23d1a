"""Issue 11 walk of session 16's QA pass (docs/qa/session16.md): session 13's walk
(scripts/qa_walk_s13_review.py: open, play, every finding, an uncovering offset and back,
auto-sync, decide, GUI record against `moderator-app decide`) on real-game runs no walk opened,
as recorded (no re-encoding): Adventure with 4 s cut from the footage (H.264 4:2:2 MOV, 48 fps;
rejected with reason `other`), Kung-Fu Master genuine (another seed; VP8 WebM 25 fps, the game
centred in 1280x720; accepted) and, with --freeze, Adventure frozen 4 s (the VP8 recorder;
rejected). The runs are built by `qa_session16.py sync-build` in the s16-qa worktree.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s16.py walk OUT 1280 720
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

#: the runs (read-only; hard-linked into OUT): this worktree's, or QA16_RUNS (a fresh clone)
w14.RUNS = Path(os.environ.get("QA16_RUNS", REPO / ".cache" / "qa-s16" / "sync"))
w14.PICK = {"adventure-h264-422-mov-48-cut": "adventure-cut@r48h422mov",
            "kung-fu-vp8-webm-25-genuine": "kung_fu_master-genuine2@r25vp8pb"}
if "--freeze" in sys.argv:
    w14.PICK["adventure-vp8-webm-25-freeze"] = "adventure-freeze@r25vp8pb"
w13.DECISIONS = {
    "adventure-h264-422-mov-48-cut": (
        "reject", "other", "4 s of the footage are missing: the picture jumps near the cut; "
        "resubmit the whole recording", ()),
    "kung-fu-vp8-webm-25-genuine": ("accept", "ok", "", ()),
    "adventure-vp8-webm-25-freeze": (
        "reject", "video-coverage", "the picture is frozen for 4 s", ()),
}

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in w14.build(Path(sys.argv[2]))))
    else:
        w13.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))  # [--freeze]
