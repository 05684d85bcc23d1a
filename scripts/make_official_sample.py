"""Write resources/samples/official-sample/: a small valid official run (issue 3).

    .venv/bin/python scripts/make_official_sample.py

events.jsonl.zst: 120 events of a realistic run (harness run_start, evaluator seed
commitments, agent tool calls and messages, harness observations, proxy requests, the
evaluator's eval_result, run_end), hash-chained, in two zstd frames. The seeds and the
evaluator secret are the public test values below, so that a reviewer can try
`moderator-app verify resources/samples/official-sample --seeds
resources/samples/official-sample-seeds.txt` with
ALE_EVALUATOR_SECRET=sample-evaluator-secret (they protect nothing).
video.mp4: a real mp4v video as long as the run (59.5 s at 4 fps).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory  # noqa: E402

OUT = ROOT / "resources" / "samples" / "official-sample"
SEEDS = ("sample-seed-0001", "sample-seed-0002")
SECRET = "sample-evaluator-secret"  # a public test value, not a real secret
EVENTS = 120
STEP_S = 0.5


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    events = make_run_events(EVENTS, seed=2026, run_id="run_official_sample", step_s=STEP_S,
                             text_bytes=160, variety=0.1, seeds=SEEDS, secret=SECRET)
    stats = write_trajectory(OUT / "events.jsonl.zst", events, frames=2)
    # The seeds stay OUTSIDE the submission: a bundle must never carry raw seeds.
    (OUT.parent / "official-sample-seeds.txt").write_text("\n".join(SEEDS) + "\n",
                                                          encoding="utf-8")
    duration = (EVENTS - 1) * STEP_S
    try:
        from moderator_app.core.samples.community import make_video
    except ImportError:  # samples.py not there: the same with cv2 directly
        make_video = _make_video
    make_video(OUT / "video.mp4", duration, fps=4.0)
    print(f"wrote {stats.path} ({stats.events} events, head {stats.head[:16]}…) and "
          f"{OUT / 'video.mp4'} ({duration:.1f} s)")
    return 0


def _make_video(path: Path, duration_s: float, fps: float = 4.0) -> Path:
    import cv2
    import numpy as np

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (160, 90))
    for i in range(max(1, round(duration_s * fps))):
        frame = np.zeros((90, 160, 3), np.uint8)
        cv2.putText(frame, str(i), (10, 50), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
        writer.write(frame)
    writer.release()
    return path


if __name__ == "__main__":
    sys.exit(main())
