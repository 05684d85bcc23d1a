"""Issue 11 walkthrough of session 14's UI engineer: session 13's walk
(scripts/qa_walk_s13_review.py: open, play, the scan, every finding, an uncovering offset and
back, auto-sync, a decision, the next; each record against `moderator-app decide` on the same
input and offset) on the bundled sample and two corpus runs, one with a coverage gap (Breakout
with 4 s cut out of the footage: it ends 3 s before run_end, a `coverage.partial` whose moment
is the exact end of the footage, O2 of docs/qa/session13.md).

    .venv/bin/python scripts/qa_walk_s14_ui.py build OUT
    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s14_ui.py walk OUT 1280 720

The corpus runs come from `MODERATOR_CORPUS_DIR` (tests/corpus: `python -m corpus breakout-cut
riverraid-deleted`). Each step prints one JSON line; screenshots go to OUT/shots-WxH/.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qa_walk_s13_review as base  # noqa: E402 - after the path set-up

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "resources" / "samples" / "community-sample"
base.CORPUS = Path(os.environ.get("MODERATOR_CORPUS_DIR", REPO / ".cache" / "corpus")) / "v2"
base.SUBMISSIONS = {
    "breakout-cut-native": ("breakout-cut", "video.mp4", [
        "-c:v", "copy"]),
    "riverraid-1080p60-h264-deleted": base.SUBMISSIONS["riverraid-1080p60-h264-deleted"],
}
base.DECISIONS = {
    "community-sample": ("accept", "ok", "", ()),
    "breakout-cut-native": (
        "reject", "video-coverage", "the footage ends 3 s before run_end", ()),
    "riverraid-1080p60-h264-deleted": base.DECISIONS["riverraid-1080p60-h264-deleted"],
}


def build(out: Path) -> list[Path]:
    """The bundled sample (offset 0: its video starts at run_start), then the corpus runs."""
    out.mkdir(parents=True, exist_ok=True)
    sample = out / "community-sample"
    if not (sample / "truth.json").exists():
        shutil.rmtree(sample, ignore_errors=True)
        shutil.copytree(SAMPLE, sample)
        (sample / "truth.json").write_text(json.dumps({"offset_s": 0.0, "video": "video.mp4"}))
    return [sample, *base_build(out)]


base_build = base.build
base.build = build

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in build(Path(sys.argv[2]))))
    else:
        base.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
