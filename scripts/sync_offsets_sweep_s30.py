"""Session 30 (noreact): every cached real-game run with a true offset read as `verify
--sync` reads it (`analyze` + `with_silent`), at auto and at given offsets from the truth, one
JSON line per run and offset: the suggestion, the drift and every finding with its video span.

    PYTHONPATH=TREE .venv/bin/python scripts/sync_offsets_sweep_s30.py OUT.jsonl SET... \
        [--offsets auto,0,+2,-4]
    .venv/bin/python scripts/sync_offsets_sweep_s30.py --compare BEFORE.jsonl AFTER.jsonl

SET: a folder of run folders (each with truth.json), e.g. /work/main/.cache/corpus/v2,
/work/main/.cache/qa-s29/sync. Offsets: `auto`, or frames from truth.json's `offset_s`.
Run it with PYTHONPATH set to each tree for a before -> after. Nothing here is imported by the
app or the tests.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def _name(d: Path) -> str:
    """The run's set and name (QA's sets are all `qa-sNN/sync/RUN`)."""
    up = d.parent.parent.name + "/" if d.parent.name == "sync" else ""
    return f"{up}{d.parent.name}/{d.name}"


def read(d: Path, frames: str) -> dict:
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.inputs import idle_stretches, inputs
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.sync.silent import READ_FLOOR_S, with_silent
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    truth = json.loads((d / "truth.json").read_text())
    video = d / truth.get("video", "video.mp4")
    own = d.parent / "scan-cache"
    os.environ["MODERATOR_APP_CACHE"] = str(own if own.is_dir() else Path("/tmp/autosync-scan"))
    sub = load_submission([d / "agent-log.jsonl"])
    times, kinds = inputs(sub)
    idle = idle_stretches(sub, READ_FLOOR_S)
    ends = [json.loads(x)["elapsedMs"] / 1000 for x in (d / "agent-log.jsonl").read_bytes()
            .splitlines() if b'"run_end"' in x]
    sig = frame_signals(video)
    span = float(sig.times[-1] - sig.times[0]) if len(sig.times) else 0.0
    kept = within_reach(times, span)
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) else None
    fps = float(truth["fps"])
    off = None if frames == "auto" else float(truth["offset_s"]) + float(frames) / fps
    a = with_silent(analyze(kept, sig, TH, off, ends[-1] if ends else None, input_kinds=kinds),
                    idle, TH.sync_activity_gap_s)
    return {"run": _name(d), "at": frames,
            "kind": str(truth.get("kind", "")), "tamper": truth.get("tamper"),
            "truth": truth["offset_s"], "fps": fps,
            "suggested": a.suggested_offset_s, "confidence": a.confidence,
            "drift": a.drift_percent,
            "findings": sorted([f.rule, f.video_start_s, f.video_end_s, f.percent]
                               for f in a.findings)}


def compare(a_path: str, b_path: str) -> None:
    def load(p):
        # keyed by the run's folder name (no two sets share one)
        return {(r["run"].rsplit("/", 1)[-1], r["at"]): r
                for r in map(json.loads, Path(p).read_text().splitlines())}
    a, b = load(a_path), load(b_path)
    changed = 0
    for k in sorted(a.keys() & b.keys()):
        x, y = a[k], b[k]
        keys = ("suggested", "confidence", "drift", "findings")
        if any(x[j] != y[j] for j in keys):
            changed += 1
            print(k, {j: (x[j], y[j]) for j in keys if x[j] != y[j]})
    print(f"{len(a.keys() & b.keys())} rows compared, {changed} changed; "
          f"only before {len(a.keys() - b.keys())}, only after {len(b.keys() - a.keys())}")


def main(argv: list[str]) -> None:
    if argv[0] == "--compare":
        compare(argv[1], argv[2])
        return
    offsets = ["auto", "0", "+2", "-4"]
    if "--offsets" in argv:
        i = argv.index("--offsets")
        offsets = argv[i + 1].split(",")
        argv = argv[:i] + argv[i + 2:]
    out, sets = argv[0], argv[1:]
    with open(out, "w") as fh:
        for root in map(Path, sets):
            for d in sorted(root.iterdir()):
                if not (d / "truth.json").is_file():
                    continue
                for at in offsets:
                    try:
                        row = read(d, at)
                    except Exception as e:  # noqa: BLE001 - a sweep row, not the app
                        row = {"run": _name(d), "at": at, "error": repr(e),
                               "suggested": None, "confidence": None, "drift": None,
                               "findings": None}
                    fh.write(json.dumps(row) + "\n")
                    fh.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
