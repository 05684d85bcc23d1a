"""Issue 11 walk of session 19's QA pass (docs/qa/session19.md): session 13's walk
(scripts/qa_walk_s13_review.py: open, play, every finding, an uncovering offset and back,
auto-sync, decide, GUI record against `moderator-app decide`) on real-game runs no walk opened,
as recorded (no re-encoding): Beam Rider with 4 s cut from the footage (23.976 fps VP9 + Opus in
Matroska; rejected with reason `other`), 3-D Tic-Tac-Toe genuine (120 fps x264rgb lossless, 3x
nearest, MP4; accepted) and, with --freeze, 3-D Tic-Tac-Toe frozen 4 s (the 120 fps recorder;
rejected). The runs are built by `qa_session19.py sync-build` in the s19-qa worktree.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s19.py walk OUT 1280 720
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

#: the runs (read-only; hard-linked into OUT): this worktree's, or QA19_RUNS (a fresh clone)
w14.RUNS = Path(os.environ.get("QA19_RUNS", REPO / ".cache" / "qa-s19" / "sync"))
w14.PICK = {"beam-rider-vp9-2398-cut": "beam_rider-cut@r2398vp9opus",
            "tictactoe-rgb-120-genuine": "tic_tac_toe_3d-genuine@r120rgb3x"}
if "--freeze" in sys.argv:
    w14.PICK["tictactoe-rgb-120-freeze"] = "tic_tac_toe_3d-freeze@r120rgb3x"
w13.DECISIONS = {
    "beam-rider-vp9-2398-cut": (
        "reject", "other", "4 s of the footage are missing: the beams and enemies jump near "
        "the cut; resubmit the whole recording", ()),
    "tictactoe-rgb-120-genuine": ("accept", "ok", "", ()),
    "tictactoe-rgb-120-freeze": (
        "reject", "video-coverage", "the picture is frozen for 4 s", ()),
}

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in w14.build(Path(sys.argv[2]))))
    else:
        w13.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))  # [--freeze]
