"""Session 28's splice readings (issue 13): every cut / insertion of the autosync sweep's sets
read at `--offset auto` and at the truth, or every genuine run at given offsets near the
truth, or QA s27's sync runs at auto, the truth, +0.1 s and -0.2 s; per reading the
suggestion, its error in frames, every sync finding with its span and size, and whether a
`sync.offset_jump` lies within 1 s of the splice (`found`) at its size within 2 frames.

    PYTHONPATH=. .venv/bin/python scripts/splice_readings_s28.py OUT.jsonl [--genuine | --qa27]
    PYTHONPATH=. .venv/bin/python scripts/splice_readings_s28.py --compare BEFORE AFTER

The runs and their reading are `autosync_sweep.py`'s (`read_run`: the log's inputs and kinds,
`within_reach`, `with_silent`), with an offset given. Nothing here is imported by the app or
the tests.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import autosync_sweep as sw  # noqa: E402

QA27 = sw.CACHE / "qa-s27"
SPLICES = ("cut", "cutlong", "insert")


def readings(mode: str) -> tuple[tuple[str, float | None], ...]:
    if mode == "--qa27":
        return (("auto", None), ("truth", 0.0), ("p01", 0.1), ("m02", -0.2))
    if mode == "--genuine":
        return (("truth", 0.0), ("p03", 0.3), ("m05", -0.5))
    return (("auto", None), ("truth", 0.0))


def wanted(kind: str, mode: str) -> bool:
    if mode == "--qa27":
        return True
    if mode == "--genuine":
        return kind.startswith(sw.GENUINE_KINDS)
    return kind in SPLICES


def row(d: Path, mode: str) -> dict:
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.inputs import idle_stretches, inputs
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.sync.silent import READ_FLOOR_S, with_silent
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    truth = json.loads((d / "truth.json").read_text())
    t = truth.get("tamper") or {}
    own = d.parent / "scan-cache"
    os.environ["MODERATOR_APP_CACHE"] = str(
        own if own.is_dir() else QA27 / "appcache-fa78e0f" if mode == "--qa27"
        else Path("/tmp/autosync-scan"))
    sub = load_submission([d / "agent-log.jsonl"])
    times, kinds = inputs(sub)
    idle = idle_stretches(sub, READ_FLOOR_S)
    ends = [json.loads(x)["elapsedMs"] / 1000 for x in (d / "agent-log.jsonl").read_bytes()
            .splitlines() if b'"run_end"' in x]
    sig = frame_signals(d / truth.get("video", "video.mp4"))
    span = float(sig.times[-1] - sig.times[0]) if len(sig.times) else 0.0
    kept = within_reach(times, span)
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) else None
    fps, vs, size = float(truth["fps"]), t.get("video_s"), t.get("size_s")
    out: dict = {"run": (f"{d.parent.name}/" if d.parent in sw.SPLICE_SETS else "") + d.name,
                 "kind": t.get("kind") or truth.get("kind", ""), "t0": truth["offset_s"],
                 "vs": vs, "ve": t.get("video_end_s"), "size": size, "fps": fps}
    for name, dx in readings(mode):
        given = None if dx is None else float(truth["offset_s"]) + dx
        c0 = time.process_time()
        a = with_silent(analyze(kept, sig, TH, given, ends[-1] if ends else None,
                                input_kinds=kinds), idle, TH.sync_activity_gap_s)
        fs = [(f.rule, None if f.video_start_s is None else round(f.video_start_s, 2),
               None if f.video_end_s is None else round(f.video_end_s, 2),
               None if f.size_s is None else round(f.size_s, 3)) for f in a.findings]
        near = [z for r, s, _, z in fs if r == "sync.offset_jump" and s is not None
                and vs is not None and abs(s - vs) <= 1.0]
        out[name] = {
            "sug": a.suggested_offset_s, "conf": round(a.confidence, 3),
            "err": None if a.suggested_offset_s is None
            else round((a.suggested_offset_s - truth["offset_s"]) * fps, 2),
            "found": bool(near),
            "sizeok": any(z is not None and size is not None and abs(z - size) <= 2 / fps + 1e-9
                          for z in near),
            "mis": sum(1 for r, s, _, _ in fs if r == "sync.offset_jump"
                       and (s is None or vs is None or abs(s - vs) > 1.0)),
            "fs": fs, "cpu": round(time.process_time() - c0, 3)}
    return out


def compare(a_path: str, b_path: str) -> None:
    def load(p: str) -> dict[str, dict]:
        return {r["run"]: r for r in map(json.loads, Path(p).read_text().splitlines())}

    a, b = load(a_path), load(b_path)
    common = sorted(a.keys() & b.keys())
    names = [k for k, v in a[common[0]].items() if isinstance(v, dict)] if common else []
    changed = 0
    for k in common:
        for o in names:
            x = {q: v for q, v in a[k][o].items() if q != "cpu"}
            y = {q: v for q, v in b[k][o].items() if q != "cpu"}
            if x != y:
                changed += 1
                print(f"{k} @ {o}: {x} -> {y}")
    for o in names:
        fig = [(sum(r[o]["found"] for r in rs.values()), sum(r[o]["mis"] for r in rs.values()),
                sum(any(f[0].startswith("sync.") for f in r[o]["fs"]) for r in rs.values()))
               for rs in (a, b)]
        print(f"{o}: found {fig[0][0]} -> {fig[1][0]}, misplaced jumps {fig[0][1]} -> "
              f"{fig[1][1]}, readings with a sync finding {fig[0][2]} -> {fig[1][2]}")
    print(f"{changed} readings changed over {len(common)} runs")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"]:
        compare(argv[1], argv[2])
        return 0
    out_path, mode = argv[0], (argv[1] if len(argv) > 1 else "")
    dirs = sorted(p for p in (QA27 / "sync").iterdir() if (p / "truth.json").is_file()) \
        if mode == "--qa27" else sw.runs([], True)
    with open(out_path, "w") as out:
        for d in dirs:
            truth = json.loads((d / "truth.json").read_text())
            kind = (truth.get("tamper") or {}).get("kind") or truth.get("kind", "")
            if wanted(str(kind), mode):
                out.write(json.dumps(row(d, mode)) + "\n")
                out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
