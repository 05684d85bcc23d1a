"""Issue 13's speed tamperings (session 28): every cached run sped up or slowed (corpus v2's
`*-speed*` / `*-slow*`, QA s26's and s27's kept sync runs), read at `--offset auto` (the
sweep's `read_run`) and at the true offset, with the `sync.drift` findings (% and span).

    PYTHONPATH=. .venv/bin/python scripts/speed_runs.py OUT.jsonl [SUBSTR...]
    PYTHONPATH=. .venv/bin/python scripts/speed_runs.py --compare BEFORE.jsonl AFTER.jsonl

Per run: the truth's percent, the drifts said at auto and at the truth, the suggestion, its
error in frames and confidence, the reason when none; `--compare` prints the changed rows and
how many runs read a drift within 1 point (issue 13's bar). Nothing here is imported by the
app or the tests.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import autosync_sweep as sw  # noqa: E402

ROOTS = (sw.CACHE / "corpus" / "v2", sw.CACHE / "qa-s26" / "sync", sw.CACHE / "qa-s27" / "sync")


def speed_dirs() -> list[Path]:
    out = []
    for root in ROOTS:
        if not root.is_dir():
            continue
        for d in sorted(root.iterdir()):
            t = d / "truth.json"
            if t.is_file() and json.loads(t.read_text()).get("kind", "").startswith(
                    ("speed", "slow")):
                out.append(d)
    return out


def at_truth(d: Path):
    """`verify --offset <truth>`'s analysis of run folder `d`."""
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.inputs import idle_stretches, inputs
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.sync.silent import READ_FLOOR_S, with_silent
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH
    truth = json.loads((d / "truth.json").read_text())
    own = d.parent / "scan-cache"
    os.environ["MODERATOR_APP_CACHE"] = str(own if own.is_dir() else Path("/tmp/autosync-scan"))
    sub = load_submission([d / "agent-log.jsonl"])
    times, kinds = inputs(sub)
    idle = idle_stretches(sub, READ_FLOOR_S)
    ends = [json.loads(x)["elapsedMs"] / 1000 for x in (d / "agent-log.jsonl").read_bytes()
            .splitlines() if b'"run_end"' in x]
    sig = frame_signals(d / truth.get("video", "video.mp4"))
    kept = within_reach(times, float(sig.times[-1] - sig.times[0]))
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) else None
    return with_silent(analyze(kept, sig, TH, truth["offset_s"], ends[-1] if ends else None,
                               input_kinds=kinds), idle, TH.sync_activity_gap_s)


def within(pct: float, drifts: list[float]) -> bool:
    return any(abs(d - pct) <= 1.0 for d in drifts)


def compare(a_path: str, b_path: str) -> None:
    def load(p: str) -> dict:
        return {r["run"]: r for r in map(json.loads, Path(p).read_text().splitlines())}
    a, b = load(a_path), load(b_path)
    for k in sorted(a.keys() & b.keys()):
        x, y = a[k], b[k]
        if (x["auto_drift"], x["truth_drift"], x["auto_sugg"]) != \
                (y["auto_drift"], y["truth_drift"], y["auto_sugg"]):
            print(f"{k}: {x['pct']:+.2f} auto {x['auto_drift']} -> {y['auto_drift']} "
                  f"({y['auto_verdict']} {y['auto_err']} @{y['auto_conf']}); truth "
                  f"{[t[2] for t in x['truth_drift']]} -> {[t[2] for t in y['truth_drift']]}")
    for name, rows in (("before", a), ("after", b)):
        print(f"{name}: within 1 point at auto {sum(within(r['pct'], r['auto_drift']) for r in rows.values())}"
              f", at the truth {sum(within(r['pct'], [t[2] for t in r['truth_drift']]) for r in rows.values())}"
              f" of {len(rows)}")


def main() -> None:
    if sys.argv[1:2] == ["--compare"]:
        compare(sys.argv[2], sys.argv[3])
        return
    out_path, only = sys.argv[1], sys.argv[2:]
    with open(out_path, "w") as out:
        for d in speed_dirs():
            if only and not any(s in d.name for s in only):
                continue
            truth = json.loads((d / "truth.json").read_text())
            t0 = time.process_time()
            r = sw.read_run(d)
            a = at_truth(d)
            row = {"run": d.name, "pct": truth["tamper"]["percent"], "fps": truth["fps"],
                   "auto_drift": [f[2] for f in r["findings"] if f[0] == "sync.drift"],
                   "auto_sugg": r["suggested"], "auto_err": r["err_frames"],
                   "auto_conf": r["confidence"], "auto_verdict": r["verdict"],
                   "reason": r["reason"],
                   "truth_drift": [(f.video_start_s, f.video_end_s, f.percent)
                                   for f in a.findings if f.rule == "sync.drift"],
                   "cpu_s": round(time.process_time() - t0, 2)}
            print(json.dumps(row), flush=True)
            out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
