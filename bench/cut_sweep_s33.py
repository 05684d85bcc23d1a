"""`video.cut` per set, with the wide set held out by halves (session 33, issue 12: QA s32 T6):
splice edges found within 0.5 s, and notes on honest video per honest minute.

    .venv/bin/python bench/cut_sweep_s33.py OUT.jsonl [SET...]      # rows, then the table
    PYTHONPATH=<other checkout> .venv/bin/python bench/cut_sweep_s33.py BEFORE.jsonl
    .venv/bin/python bench/cut_sweep_s33.py --table A.jsonl [B.jsonl]
    .venv/bin/python bench/cut_sweep_s33.py --edges [SET...]      # why each edge is missed
    .venv/bin/python bench/cut_sweep_s33.py --separation [SET...] # does a statistic separate?

Sets: bench/cut_sweep_s31.py's (`corpus`, `qa`, `extra`, `wide`), `qa` with QA s32's sync
runs, and `qacuts`: QA s30-s32's cut cases (`qa_session3N.py build cuts`, each folder's
`cut_truth.json`: Kool-Aid Man beside flashes, Sir Lancelot, Venture, Tetris, Miniature Golf).
The wide set's rows are split by `crc32(game) % 2` (half 0: the half thresholds may be chosen
on; half 1: held out) and by `tuned` (the game is in corpus v2 or a QA sync set:
`wide_corpus.TUNED` and `TUNED_QA`, fixed lists since session 34). Why per minute: a
moderator shown 30 honest candidates stops reading them; a run's count says little when the
runs are 20 s or an hour. Each scan is read from its cache as cut_sweep_s31 does: only the
analysis differs between checkouts."""

from __future__ import annotations

import json
import os
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import cut_sweep_s31 as s31  # noqa: E402 - the s31 sweep's sets and runs

s31.SETS["qa"] = [s31.CACHE / f"qa-s{s}" / "sync" for s in range(26, 33)]
QACUTS = [s31.CACHE / f"qa-s{s}" / "cuts" for s in range(30, 33)]


def qa_cuts():
    """(name, video, [cut s], False) of each QA cut case built."""
    for root in QACUTS:
        for d in sorted(root.iterdir()) if root.is_dir() else ():
            tf = d / "cut_truth.json"
            videos = sorted(p for p in d.glob("video.*") if ".part" not in p.name)
            if tf.is_file() and videos:
                yield f"{root.parent.name}/{d.name}", videos[0], \
                    [float(json.loads(tf.read_text())["cut_s"])], False


def game_of(run: str) -> str:
    """The game of a run's name (`set/[sNN-]game-kind@recorder`, or a QA case's)."""
    name = run.split("/")[-1]
    if name.startswith("c3"):
        return name.split("_same_scene_")[-1].rsplit("_", 1)[0] if "_same_scene_" in name \
            else "koolaid"
    import re
    return re.sub(r"^s\d+-", "", name).split("@")[0].split("-")[0]


def main(argv: list[str]) -> int:
    from moderator_app.core.video.scan import run_scan

    if argv and argv[0] == "--edges":
        for name in argv[1:] or [*s31.SETS, "qacuts"]:
            for run, video, marks, _ in qa_cuts() if name == "qacuts" else \
                    s31.runs(s31.SETS[name]):
                if marks:
                    _cache_for(video)
                    print(f"{run[:48]:48s}", edges(run_scan(video).signals, marks))
        return 0
    if argv and argv[0] == "--separation":
        tops: dict[str, tuple[list[float], list[float]]] = {}
        for name in argv[1:] or [*s31.SETS, "qacuts"]:
            for _, video, marks, honest in qa_cuts() if name == "qacuts" else \
                    s31.runs(s31.SETS[name]):
                if not (marks or honest):
                    continue
                _cache_for(video)
                sig = run_scan(video).signals
                for key, x in statistics(sig).items():
                    tops.setdefault(key, ([], []))
                    tops[key][0 if marks else 1].append(standing(x, sig.times_s, marks))
        for key, (spliced, honest) in tops.items():
            print(f"{key:10s} splice runs {len(spliced)}, honest {len(honest)}: " + "  ".join(
                f"{r}x {sum(v >= r for v in spliced)} / {sum(v >= r for v in honest)}"
                for r in (1.5, 2.0, 3.0)))
        return 0
    if argv and argv[0] == "--table":
        for f in argv[1:]:
            print(f"== {f}")
            table([json.loads(x) for x in Path(f).read_text().splitlines()])
        return 0
    out = Path(argv[0])
    rows = []
    for name in argv[1:] or [*s31.SETS, "qacuts"]:
        items = qa_cuts() if name == "qacuts" else s31.runs(s31.SETS[name])
        for run, video, marks, honest in items:
            _cache_for(video)
            result = run_scan(video)
            cuts = [round(s.start_s, 3) for s in result.spans if s.rule == "video.cut"]
            t = result.signals.times_s
            rows.append({"set": name, "run": run, "game": game_of(run), "marks": marks,
                         "found": sum(any(abs(c - m) <= 0.5 for c in cuts) for m in marks),
                         # the nearest note's signed distance from each edge (s; + after it)
                         "offsets": [round(min(cuts, key=lambda c, m=m: abs(c - m)) - m, 3)
                                     if cuts else None for m in marks],
                         "honest": honest, "minutes": float(t[-1] - t[0]) / 60 if len(t) else 0.0,
                         "false": [c for c in cuts if all(abs(c - m) > 0.5 for m in marks)]})
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    table(rows)
    return 0


def _cache_for(video: Path) -> None:
    """The set's scan cache (cut_sweep_s31's choice; QA's cut cases one of their own)."""
    own, shared = video.parent.parent / "scan-cache", video.parent.parent.parent / "appcache"
    os.environ["MODERATOR_APP_CACHE"] = str(
        own if own.is_dir() else shared if shared.is_dir() else
        s31.CACHE / "qa-s32" / "appcache-cuts")


def edges(sig, marks: list[float]) -> str:
    """Each splice edge against what each rule asks (within 0.5 s of the edge, the frame each
    rule would pick): the step rule's step against its bar (the file's second largest step
    more than 0.5 s away) and the motion its isolated-peak test needs (3x the local level,
    the level floored at 1.0: motion 3.0 at least); the jump against the file's largest
    other; the motion against the cut rule's floor (`cut_min_motion`)."""
    import numpy as np

    from moderator_app.core.thresholds import DEFAULT_SCAN_THRESHOLDS as th
    from moderator_app.core.video.scan_cut_jumps import jumps
    from moderator_app.core.video.scan_cut_steps import _bar, _peaks, lighting, steps

    t, n = sig.times_s, sig.frame_count
    m = np.asarray(sig.motion, np.float64)
    ok = np.isfinite(m)
    m = np.where(ok, m, 0.0)
    lit = lighting(sig, th)
    grid = np.asarray(sig.tiles, np.float64).reshape(n, -1)
    step = steps(grid, th.cut_window_frames, ok & ~lit)
    step[lit] = steps(grid, th.cut_window_frames, ok)[lit]
    ctx = th.cut_context_frames
    step[:ctx] = step[n - ctx:] = 0.0
    jump = jumps(sig.sync_tiles).astype(np.float64)
    jump[~ok | lit] = 0.0
    peaks = _peaks(step, t, 4)
    out = []
    for mark in marks:
        near = np.nonzero(np.abs(t - mark) <= 0.5)[0]
        if not near.shape[0]:
            out.append(f"@{mark:.2f} no frame")
            continue
        i = int(near[np.argmax(step[near])])
        bar = _bar(step, peaks, t, i)
        j = int(near[np.argmax(jump[near])])
        other = jump[np.abs(t - t[j]) > 0.5].max(initial=0.0)
        k = int(near[np.argmax(m[near])])
        out.append(f"@{mark:.2f} step {step[i]:.2f} = {step[i] / max(bar, 1e-9):.1f}x its bar "
                   f"(motion {m[i]:.2f}), jump {jump[j]:.0f} against {other:.0f}, motion "
                   f"{m[k]:.1f} (floor {th.cut_min_motion:.0f})")
    return " | ".join(out)


def statistics(sig) -> dict:
    """Per-frame statistics a cut rule could judge by (0 where no rule judges: the first and
    last frames, a lighting step, after a timestamp hole): motion energy; a frame's change over
    the largest of its 2 neighbours either side (`iso2`), the same for the share of points
    changed (`iso2share`); the step (scan_cut_steps.steps) over 2 and 15 frames; the jump."""
    import numpy as np

    from moderator_app.core.thresholds import DEFAULT_SCAN_THRESHOLDS as th
    from moderator_app.core.video.scan_cut_jumps import jumps
    from moderator_app.core.video.scan_cut_steps import lighting, steps

    t, n = sig.times_s, sig.frame_count
    m = np.nan_to_num(np.asarray(sig.motion, np.float64))
    share = np.nan_to_num(np.asarray(sig.changed, np.float64))
    ok = np.isfinite(np.asarray(sig.motion, np.float64))
    lit = lighting(sig, th)
    bad = ~ok | lit
    if n > 1:
        bad[1:] |= np.diff(t) > 1.5 * sig.frame_duration_s
    bad[:th.cut_context_frames] = bad[n - th.cut_context_frames:] = True

    def around(x: np.ndarray, k: int) -> np.ndarray:
        out = np.zeros(n)
        for d in range(1, k + 1):
            out[d:] = np.maximum(out[d:], x[:-d])
            out[:-d] = np.maximum(out[:-d], x[d:])
        return out

    grid = np.nan_to_num(np.asarray(sig.tiles, np.float64)).reshape(n, -1)
    out = {"motion": m, "iso2": m / np.maximum(around(m, 2), 0.01),
           "iso2share": share / np.maximum(around(share, 2), 1e-4),
           "step2": steps(grid, 2, ok & ~lit), "step15": steps(grid, 15, ok & ~lit),
           "jump": jumps(sig.sync_tiles).astype(np.float64)}
    return {k: np.where(bad, 0.0, v) for k, v in out.items()}


def standing(x, t, marks: list[float]) -> float:
    """How many times the frame a statistic ranks first stands over the file's largest value
    more than 0.5 s away (an insertion's other edge passed over); 0 for a splice run whose
    first is no edge (the rule would note the wrong place)."""
    import numpy as np

    i = int(np.argmax(x))
    far = np.abs(t - t[i]) > 0.5
    if marks:
        if all(abs(float(t[i]) - m) > 0.5 for m in marks):
            return 0.0
        for m in marks:
            far &= np.abs(t - m) > 0.5
    return float(x[i]) / max(float(x[far].max(initial=0.0)), 1e-9)


def table(rows: list[dict]) -> None:
    """Per set (the wide set per half and tuned/untuned): edges found, honest notes, notes per
    honest minute."""
    try:
        from wide_corpus import TUNED, TUNED_QA
        tuned = set(TUNED) | set(TUNED_QA)
    except Exception:  # noqa: BLE001 - the table without the split
        tuned = set()
    groups: dict[str, list[dict]] = {}
    for r in rows:
        keys = [r["set"]]
        if r["set"] == "wide":
            half = zlib.crc32(r["game"].encode()) % 2
            keys += [f"wide h{half}", f"wide h{half} {'tuned' if r['game'] in tuned else 'untuned'}"]
        for k in keys:
            groups.setdefault(k, []).append(r)
    for k, rs in groups.items():
        hon = [r for r in rs if r["honest"]]
        notes = sum(len(r["false"]) for r in hon)
        minutes = sum(r["minutes"] for r in hon)
        near = [o for r in rs for o in r.get("offsets", []) if o is not None and abs(o) <= 0.5]
        where = f" (found {min(near):+.3f} .. {max(near):+.3f} s from the edge)" if near else ""
        print(f"{k:18s} edges {sum(r['found'] for r in rs)}/{sum(len(r['marks']) for r in rs)}"
              f"{where}"
              f"  honest runs {len(hon)}: {notes} notes in {sum(bool(r['false']) for r in hon)},"
              f" {minutes:.1f} min, {notes / minutes if minutes else 0:.2f}/min")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
