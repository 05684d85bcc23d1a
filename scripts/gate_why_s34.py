"""Session 34's gate diagnosis (issue 13): for each wide genuine run a sweep left without an
offset, which gate of the fit refused it, and how many of the reader's answers at the TRUE
offset were right (within 1 frame of the truth's `shows_video_s`, the first frame that shows
the press). A run refused with enough right answers is a gate too strict; one with few is the
reaction reader's job (`core/sync/reactions.py`).

    PYTHONPATH=. .venv/bin/python scripts/gate_why_s34.py [SWEEP.jsonl] [--runs a,b] [--json OUT]
    PYTHONPATH=. .venv/bin/python scripts/gate_why_s34.py --relax 4.0   # the bar lowered

Per run and tile scale (the signals' own 8x8 and the coarse 4x4, as `analysis._analyze` reads
them): the whole log's learned fit (its offset, and whether it is the truth's: within
PEAK_NEAR_S), its z at the truth (`align.z_at`), the whole log's z over its shuffled logs
(`fit.significance`), the support `fit.first_offset` finds at the truth, and the first
reading's reason (`reading.analyze_at`). The gate named is the first of those that fails on
the scale nearest to passing: "peak elsewhere" (the score's peak is not at the truth on either
scale: the reader), "shuffled logs" (sync_min_null_z), "peak z" (sync_min_z), "support"
(sync_min_actions), or the reading's own reason (head at chance, presses precede, ...).
Right answers are read at the truth with nothing suggested (`analyze_at(..., fixed=True)`, the
fine scale). "oracle": the same shuffled-log test on the presses the truth shows alone (what
the gate would say if the reader answered no unshown press): PASS when a scale's fit is
within 2 frames of the truth there and stands sync_min_null_z. "kinds": the same on the
presses of the buttons the truth shows at least half the time in this run (the most a gate that
chose the buttons a game answers could keep; chosen with the truth, so an upper bound).
`--relax Z`: the whole analysis at auto, in process, with sync_min_null_z = Z against the
default, over every wide run (genuine counts within / nosignal / confwrong / unconfwrong as
`wide_corpus.py table` counts them; the genuine runs whose sync findings change; the tampered
runs whose suggestion or findings change). Runs load as `holds_sweep_s28.py` loads them (the wide set's appcache: no decode).
Deterministic; nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import holds_sweep_s28 as holds  # noqa: E402

WIDE = Path(os.environ.get("MODERATOR_WIDE_DIR", "/work/main/.cache/wide"))
BASE = WIDE / "sweeps" / "base-764de5b.jsonl"
PEAK_NEAR_S = 0.1  # the fit's own "away from the peak" (align.fit_of's margin)
ENOUGH_RIGHT = 6   # right answers at the truth that would carry sync_min_actions' support


def no_offset_rows(sweep: Path, only: set[str] | None) -> list[dict]:
    rows = [json.loads(line) for line in sweep.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["kind"] in ("genuine", "genuine2") and r["auto"]["sug"] is None
            and (only is None or r["run"] in only)]


def _scale(kept, sig, th, truth: float) -> dict:
    import numpy as np

    from moderator_app.core.sync import align, lookup, reactions
    from moderator_app.core.sync.fit import first_offset, learned_fit, significance
    from moderator_app.core.sync.reading import analyze_at

    run_s = np.sort(np.asarray(kept, float))
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    memo: dict = {}
    fit, nov, look, _w = learned_fit(sig, nov1, look1, q, run_s, 1.0, th, memo)
    null_z = significance(sig, nov1, look1, q, run_s, 1.0, th, memo)[1]
    support = first_offset(run_s, sig, nov, (nov1, look1), truth, 1.0, th)[1]
    a = analyze_at(kept, sig, th, None)
    return {"fit_s": round(fit.offset_s, 4), "at_truth": abs(fit.offset_s - truth) <= PEAK_NEAR_S,
            "fit_z": round(fit.z, 2), "z_truth": round(align.z_at(sig, look, run_s, 1.0, truth), 2),
            "null_z": round(null_z, 2), "support": support, "reason": a.reason,
            "sug": a.suggested_offset_s}


def _gate(scales: list[dict], th) -> str:
    at = [s for s in scales if s["at_truth"]]
    if not at:
        return "peak elsewhere"
    best = max(at, key=lambda s: (s["null_z"] >= th.sync_min_null_z, s["fit_z"] >= th.sync_min_z,
                                  s["support"] >= th.sync_min_actions, s["null_z"]))
    if best["null_z"] < th.sync_min_null_z:
        return "shuffled logs"
    if best["fit_z"] < th.sync_min_z:
        return "peak z"
    if best["support"] < th.sync_min_actions:
        return "support"
    if best["sug"] is not None:
        return "later step (rival/combine)"
    return "reading: " + (best["reason"] or "?")[:48]


def why(row: dict) -> dict:
    from moderator_app.core.sync.reading import analyze_at
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    folder = WIDE / "sync" / row["run"]
    os.environ["MODERATOR_APP_CACHE"] = str(WIDE / "appcache")
    truth_j, kept, _kinds, _end, sig, _scan, _name = holds.load(folder)
    truth, shift, fps = float(row["truth_s"]), float(row.get("shift_s") or 0.0), float(sig.fps)
    shows = {round(a["elapsed_ms"] / 1000, 3): a["shows_video_s"] for a in truth_j["actions"]}
    at = analyze_at(kept, sig, th, truth, fixed=True)
    right = shown = answered = 0
    for r in at.reactions:
        s = shows.get(round(r.run_s, 3))
        shown += s is not None
        answered += r.video_s is not None
        if s is not None and r.video_s is not None and abs(r.video_s - (s + shift)) * fps <= 1.0 + 1e-6:
            right += 1
    grids = [sig] + ([sig.coarser(4)] if sig.grid > 4 and not sig.grid % 4 else [])
    scales = [_scale(kept, s, th, truth) for s in grids]
    return {"run": row["run"], "fps": fps, "actions": len(kept), "shown": shown,
            "answered": answered, "right": right, "gate": _gate(scales, th), "scales": scales,
            "oracle": _oracle(kept, shows, grids, th, truth),
            "kinds": _oracle(kept, _kind_shows(truth_j), grids, th, truth)}


def _kind_shows(truth_j: dict) -> dict:
    """`shows` with every press of a button the truth shows at least half the time marked
    shown, the others not."""
    n: Counter = Counter()
    k: Counter = Counter()
    for a in truth_j["actions"]:
        n[a["button"]] += 1
        k[a["button"]] += a["shows_video_s"] is not None
    good = {b for b in n if k[b] >= 0.5 * n[b]}
    return {round(a["elapsed_ms"] / 1000, 3): (1.0 if a["button"] in good else None)
            for a in truth_j["actions"]}


def _oracle(kept, shows: dict, grids, th, truth: float) -> bool:
    """Whether the presses the truth shows, alone, stand the shuffled-log test at the truth
    (within 2 frames, sync_min_null_z) on either scale."""
    import numpy as np

    from moderator_app.core.sync import lookup, reactions
    from moderator_app.core.sync.fit import significance

    e = np.array(sorted(t for t in kept if shows.get(round(t, 3)) is not None))
    if len(e) < th.sync_min_actions:
        return False
    for s in grids:
        nov1 = reactions.novelty(s)
        look1 = lookup.Lookup(s, lookup.lookahead(s, nov1))
        f, zz = significance(s, nov1, look1, reactions.background_rates(s, nov1), e, 1.0, th,
                             {})
        if abs(f.offset_s - truth) * s.fps <= 2.0 and zz >= th.sync_min_null_z:
            return True
    return False


def _outcome(sug, conf, truth: float, fps: float) -> str:
    if sug is None:
        return "nosignal"
    if abs(sug - truth) * fps <= 1.0:
        return "within"
    return "confwrong" if conf >= 0.5 else "unconfwrong"


def relax(sweep: Path, bar: float) -> None:
    """The whole analysis at auto with sync_min_null_z = `bar` against the default."""
    from dataclasses import replace

    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    os.environ["MODERATOR_APP_CACHE"] = str(WIDE / "appcache")
    low = replace(th, sync_min_null_z=bar)
    counts: dict = {"default": Counter(), "relaxed": Counter()}
    for line in sweep.read_text().splitlines():
        row = json.loads(line)
        _t, kept, kinds, end, sig, _scan, _name = holds.load(WIDE / "sync" / row["run"])
        got = []
        for t in (th, low):
            a = analyze(kept, sig, t, None, end, input_kinds=kinds)
            got.append((a.suggested_offset_s, a.confidence,
                        [(f.rule, f.video_start_s) for f in a.findings
                         if f.rule.startswith("sync.")]))
        genuine = row["kind"] in ("genuine", "genuine2")
        outs = [_outcome(g[0], g[1], float(row["truth_s"]), float(row["fps"])) for g in got]
        if genuine:
            counts["default"][outs[0]] += 1
            counts["relaxed"][outs[1]] += 1
        if got[0] != got[1] and (outs[0] != outs[1] or not genuine or got[0][2] != got[1][2]):
            print(f"{row['run']:42s} {outs[0]:11s} -> {outs[1]:11s} "
                  f"{got[0][0]} @ {got[0][1]} -> {got[1][0]} @ {got[1][1]} "
                  f"sync {got[0][2]} -> {got[1][2]}", flush=True)
    for k, c in counts.items():
        print(k, dict(sorted(c.items())))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sweep", nargs="?", default=str(BASE))
    ap.add_argument("--runs")
    ap.add_argument("--json")
    ap.add_argument("--relax", type=float)
    ns = ap.parse_args()
    if ns.relax is not None:
        relax(Path(ns.sweep), ns.relax)
        return
    only = set(ns.runs.split(",")) if ns.runs else None
    out = []
    for row in no_offset_rows(Path(ns.sweep), only):
        w = why(row)
        out.append(w)
        s = " | ".join(f"fit {x['fit_s']:.3f}{'*' if x['at_truth'] else ''} z {x['fit_z']} "
                       f"zT {x['z_truth']} null {x['null_z']} sup {x['support']}"
                       for x in w["scales"])
        print(f"{w['run']:42s} {w['fps']:5.1f} right {w['right']:2d}/{w['shown']:2d} "
              f"(answered {w['answered']:2d}) {w['gate']:14s} "
              f"{'oracle PASS' if w['oracle'] else 'oracle -   '} {s}", flush=True)
    if ns.json:
        Path(ns.json).write_text("".join(json.dumps(w) + "\n" for w in out))
    table: Counter = Counter()
    for w in out:
        table[(w["gate"], w["right"] >= ENOUGH_RIGHT, w["oracle"])] += 1
    print(f"\n{len(out)} runs; gate x (right answers at the truth >= {ENOUGH_RIGHT}) x (the "
          "shown presses alone stand the test)")
    for (gate, enough, oracle), k in sorted(table.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {gate:28s} {'enough' if enough else 'few   '} "
              f"{'oracle PASS' if oracle else 'oracle -   '} {k}")
    print(f"  the shown presses alone stand the test: {sum(w['oracle'] for w in out)}; the "
          f"presses of the buttons shown at least half the time: {sum(w['kinds'] for w in out)}")
    for cls in sorted({w["gate"] for w in out}):
        ws = [w for w in out if w["gate"] == cls]
        print(f"  {cls}: right {sum(w['right'] for w in ws)} of {sum(w['shown'] for w in ws)} "
              f"shown, {sum(w['answered'] for w in ws)} answered")


if __name__ == "__main__":
    main()
