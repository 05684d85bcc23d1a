"""Issue 11 walk of session 15's UI engineer: session 13's walk (scripts/qa_walk_s13_review.py:
open, play, the scan, every finding, an uncovering offset and back, auto-sync, a decision, the
next; each GUI record against `moderator-app decide` on the same input and offset) on three
submissions no walk opened, as recorded (no re-encoding):

- `pinball-insert-mkv`: Video Pinball with 4 s of another attempt inserted into the footage
  (20 fps MKV, 320x420; session 14 QA's `video_pinball-insert@r20mkv`, sync findings);
  rejected with reason `other` (a note is required);
- `scan-hevc-ts`: session 14 QA's scan input (HEVC + AAC in MPEG-TS, 24 fps, 320x240) with a
  frozen, a black, a cut and a timestamp-gap stretch: video-only findings, no line; rejected
  `video-coverage`; its run_start is at video 1.0 s (the QA pass' `--offset 1.0`);
- `official-time-pilot-freeze`: an official run (a trajectory of 1,000 events, seed 1515, every
  40 ms) beside Time Pilot's footage with a 4 s freeze (HEVC in MPEG-TS, 24 fps, 320x420);
  accepted with the walkthrough ticked.

    .venv/bin/python scripts/qa_walk_s15_ui.py build OUT
    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_walk_s15_ui.py walk OUT 1280 720

The inputs come from session 14 QA's cache (`QA14`, built by `scripts/qa_session14.py
sync-build` and `scan`). Each step prints one JSON line; screenshots go to OUT/shots-WxH/.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qa_walk_s13_review as base  # noqa: E402 - after the path set-up

QA14 = Path(os.environ.get("QA14", "/work/wt/s14-qa/.cache/qa-s14"))


def _checks() -> tuple[str, ...]:
    from moderator_app.core.ledger.records import CHECKLIST_IDS
    return CHECKLIST_IDS


base.DECISIONS = {
    "pinball-insert-mkv": (
        "reject", "other", "4 s of another attempt are in the footage (video 18.4-22.4 s): "
        "the reactions stop matching the log there; resubmit the real recording", ()),
    "scan-hevc-ts": ("reject", "video-coverage", "", ()),
    "official-time-pilot-freeze": ("accept", "ok", "", _checks()),
}


def build(out: Path) -> list[Path]:
    """The three submissions, in the order walked (deterministic; built once)."""
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    out.mkdir(parents=True, exist_ok=True)
    plan = {
        "pinball-insert-mkv": (QA14 / "sync" / "video_pinball-insert@r20mkv", None),
        "scan-hevc-ts": (QA14 / "video" / "scan_hevc_ts_24", 1.0),
        "official-time-pilot-freeze": (QA14 / "sync" / "time_pilot-freeze@r24hevcts", None),
    }
    subs = []
    for name, (src, offset) in plan.items():
        dst = out / name
        subs.append(dst)
        if (dst / "truth.json").exists():
            continue
        tmp = out / f".{name}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        for f in src.iterdir():
            if name.startswith("official-") and f.name == "agent-log.jsonl":
                continue
            shutil.copyfile(f, tmp / f.name)
        if name.startswith("official-"):
            write_trajectory(tmp / "events.jsonl.zst",
                             make_run_events(1000, seed=1515, step_s=0.04))  # 40 s
        if offset is not None:
            (tmp / "truth.json").write_text(json.dumps({"offset_s": offset}))
        tmp.rename(dst)
    return subs


base.build = build

if __name__ == "__main__":
    if sys.argv[1] == "build":
        print("\n".join(str(p) for p in build(Path(sys.argv[2]))))
    else:
        base.walk(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
