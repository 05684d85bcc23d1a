"""Issue 11 walk of session 15's QA pass (docs/qa/session15.md): session 13's walk
(scripts/qa_walk_s13_review.py: open, play, every finding, an uncovering offset and back,
auto-sync, decide, GUI record against `moderator-app decide`) on two real-game runs no walk
opened, as recorded (no re-encoding): Centipede with 4 s cut from the footage (MPEG-2 in
MPEG-TS, 50 fps; rejected with reason `other`) and Private Eye genuine (another seed; AV1 4:4:4
at 321x421, 30 fps, Matroska; accepted). The runs are built by `qa_session15.py sync-build`.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s15.py walk OUT 1280 720
    ... walk OUT 1280 720 --freeze  # a third: Private Eye frozen 4 s (MPEG-2 TS), rejected
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts")]
import qa_walk_s13_review as w13  # noqa: E402
import qa_walk_s14 as w14  # noqa: E402

w14.RUNS = REPO / ".cache" / "qa-s15" / "sync"
w14.PICK = {"centipede-mpeg2-ts-50-cut": "centipede-cut@r50m2ts",
            "private-eye-av1-444-odd-genuine": "private_eye-genuine2@r30av1odd"}
if "--freeze" in sys.argv:  # added 12:35: a run with scan and sync findings to jump to
    w14.PICK["private-eye-mpeg2-ts-50-freeze"] = "private_eye-freeze@r50m2ts"
w13.DECISIONS = {
    "centipede-mpeg2-ts-50-cut": (
        "reject", "other", "4 s of the footage are missing: the picture jumps near the cut; "
        "resubmit the whole recording", ()),
    "private-eye-av1-444-odd-genuine": ("accept", "ok", "", ()),
    "private-eye-mpeg2-ts-50-freeze": (
        "reject", "video-coverage", "the picture is frozen for 4 s at video 20.6 s", ()),
}

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in w14.build(Path(sys.argv[2]))))
    else:
        w13.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))  # [--freeze]
