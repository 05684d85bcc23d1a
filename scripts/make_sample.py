"""Regenerate the bundled sample community submission, deterministically.

    .venv/bin/python scripts/make_sample.py [OUT_DIR]

Writes OUT_DIR/agent-log.jsonl (a few dozen events of a realistic run) and OUT_DIR/video.mp4
(a short mp4v video, one frame per 100 ms, each showing its number and time) that covers the
run, so that `moderator-app verify OUT_DIR` passes. The default OUT_DIR is the bundled
resources/samples/community-sample/.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from moderator_app.core.samples.community import make_agent_log, make_video  # noqa: E402

SEED = 2026
N_EVENTS = 48
FPS = 10
SIZE = (320, 180)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else REPO / "resources" / "samples" / "community-sample"
    out.mkdir(parents=True, exist_ok=True)
    duration = make_agent_log(out / "agent-log.jsonl", n_events=N_EVENTS, seed=SEED)
    # One second of footage before the run would need an offset; keep the run at video time 0
    # and let the video run one second past run_end, as a recording that is stopped by hand.
    make_video(out / "video.mp4", duration + 1.0, fps=FPS, size=SIZE, fourcc="mp4v")
    print(f"wrote {out}: run {duration:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
