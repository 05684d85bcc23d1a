"""Session 44's measure of QA s43 T1 (issue 13): does the reader lose a run's answers, or would
the answers, every one seen, still date run_start late by the game's own delay?

    PYTHONPATH=. .venv/bin/python scripts/perfect_reading_s44.py runs FOLDER... [--lost]
    PYTHONPATH=. .venv/bin/python scripts/perfect_reading_s44.py wide [--out FILE] [--lost]

Per run (a folder with truth.json, agent-log.jsonl and its video, as the QA passes keep them):
- `auto`: the analysis as `verify --offset auto` makes it (`analysis.analyze`, no offset), its
  error against the truth in video frames and its confidence;
- `perfect`: the same analysis on a perfect reading of the answers: every press the truth
  says shows (`actions[].shows_video_s`, the generator's NOOP counterfactual) drawn in a still
  tile of its own from its first visible frame for its hold, nothing else moving. What the
  product's whole dating chain (fit, refine, cadence, calibrate, the spread bound) reads when
  no answer is lost: an error here is the game's delay, which no reader of the picture can
  take off (records.DATING_NOTE);
- with `--lost`: where the shown answers are lost, per stage of the run when it is QA s43's
  synth_loom (`LOOM_STAGES`), in gray (the luma's tiles) and in colour (`coloured()`): the
  answer's frame (or the one either side) stands over the local motion (`stand`), has an
  onset that does not stand (`drowned`), has moving tiles but no onset (the tile was already
  moving: `moving`, the flicker's or the scroll's), or nothing moved (`unseen`).
`wide`: the wide set's genuine and genuine2 rows (`.cache/wide/sync`, the scans in its
`appcache`), `auto` read from the baseline sweep (tip-be92f40.jsonl), `perfect` computed; the
verdicts as autosync_sweep.py's (ok, low, WRONG, wrong-low, none) and their cross-count; with
`--lost`, the shown answers' readings (`lost`) summed over the rows of each auto -> perfect pair.
Deterministic; nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import zlib
from pathlib import Path

import numpy as np

WIDE = Path("/work/main/.cache/wide")
BASE_SWEEP = WIDE / "sweeps" / "tip-be92f40.jsonl"
# synth_loom's stages in video seconds (scripts/qa_session43.py: frames from reset / 60)
LOOM_STAGES = ((11.0, "flicker"), (17.0, "swing"), (22.0, "red"), (26.0, "white"),
               (1e9, "scroll"))


def load(d: Path):
    """(truth, input times, their kinds, the video's FrameSignals), as `verify` reads them."""
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.signals import frame_signals

    truth = json.loads((d / "truth.json").read_text())
    video = d / truth.get("video", next(p.name for p in d.iterdir()
                                        if p.name.startswith("video.")))
    times, kinds = inputs(load_submission([d / "agent-log.jsonl"]))
    return truth, np.asarray(times, float), kinds, frame_signals(video)


def perfect(truth: dict, run_s, kinds, sig, shift_s: float = 0.0):
    """The analysis at auto on a perfect reading of the shown answers (see the docstring)."""
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.signals import FrameSignals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    tiles = np.zeros((len(sig), 64), np.uint16)
    for i, a in enumerate(truth["actions"]):
        s = a.get("shows_video_s")
        if s is None:
            continue
        s += shift_s
        k = int(np.searchsorted(sig.times, s - 1e-6))
        k1 = int(np.searchsorted(sig.times, s + a.get("hold", 6) / 60 - 1e-6))
        tiles[k:max(k1, k + 1), (zlib.crc32(a["button"].encode()) % 30) * 2 + i % 2] = 6
    return analyze(run_s, FrameSignals(sig.times, tiles, sig.fps), DEFAULT_THRESHOLDS, None,
                   input_kinds=kinds)


def auto(run_s, kinds, sig):
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    return analyze(run_s, sig, DEFAULT_THRESHOLDS, None, input_kinds=kinds)


def verdict(x, conf: float, truth_s: float, fps: float) -> tuple[str, float | None]:
    from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE

    if x is None:
        return "none", None
    err = (float(x) - truth_s) * fps
    if abs(err) <= 1.0:
        return ("ok" if conf >= APPLY_MIN_CONFIDENCE else "low"), round(err, 2)
    return ("WRONG" if conf >= APPLY_MIN_CONFIDENCE else "wrong-low"), round(err, 2)


def lost(truth: dict, sig) -> dict[str, collections.Counter]:
    """Per stage (synth_loom's, else one), per picture (gray, colour): how each shown answer
    reads at its first visible frame (stand / drowned / moving / unseen)."""
    from moderator_app.core.sync import reactions
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    out: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for name, s in (("gray", sig), ("colour", sig.coloured())):
        if s is None:
            continue
        nov = reactions.novelty(s)
        nxt = nov.next_standing(DEFAULT_THRESHOLDS.sync_reaction_z)
        for a in truth["actions"]:
            v = a.get("shows_video_s")
            if a["button"] == "NOOP" or v is None:
                continue
            k = int(np.searchsorted(s.times, v - 1e-6))
            ks = range(max(0, k - 1), min(len(s), k + 2))
            stage = next(n for end, n in LOOM_STAGES if v < end) \
                if truth.get("game") == "synth_loom" else "run"
            how = "stand" if any(nxt[j] == j for j in ks) else \
                "drowned" if any(nov.onsets[j].any() for j in ks) else \
                "moving" if any(s.tiles[j].any() for j in ks) else "unseen"
            out[f"{name} {stage}"][how] += 1
    return out


def runs(folders: list[str], show_lost: bool) -> None:
    for f in folders:
        d = Path(f)
        truth, run_s, kinds, sig = load(d)
        o, fps = float(truth["offset_s"]), sig.fps
        a = auto(run_s, kinds, sig)
        p = perfect(truth, run_s, kinds, sig)
        print(f"{d.name}: {fps:.0f} fps, auto {verdict(a.suggested_offset_s, a.confidence, o, fps)}"
              f" at {a.confidence}; perfect {verdict(p.suggested_offset_s, p.confidence, o, fps)}"
              f" at {p.confidence} on {p.supporting_actions}")
        if show_lost:
            for k, c in sorted(lost(truth, sig).items()):
                print(f"  {k}: {dict(c)}")


def wide(out: str | None, show_lost: bool) -> None:
    os.environ["MODERATOR_APP_CACHE"] = str(WIDE / "appcache")
    rows = [json.loads(x) for x in BASE_SWEEP.read_text().splitlines() if x.strip()]
    got = []
    sums: dict[tuple, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in rows:
        if r["kind"] not in ("genuine", "genuine2"):
            continue
        truth, run_s, kinds, sig = load(WIDE / "sync" / r["run"])
        t, fps = r["truth_s"] + r["shift_s"], sig.fps
        p = perfect(truth, run_s, kinds, sig, r["shift_s"])
        got.append({"run": r["run"], "fps": r["fps"], "shown": r["wide"].get("shown"),
                     "presses": r["wide"].get("presses"),
                     "auto": verdict(r["auto"]["sug"], r["auto"]["conf"], t, fps),
                     "perfect": verdict(p.suggested_offset_s, p.confidence, t, fps),
                     "perfect_conf": p.confidence})
        print(json.dumps(got[-1]), flush=True)
        if show_lost:
            pair = (got[-1]["auto"][0], got[-1]["perfect"][0])
            for k, c in lost(truth, sig).items():
                sums[(*pair, k.split()[0])].update(c)
    if out:
        Path(out).write_text("".join(json.dumps(g) + "\n" for g in got))
    cross = collections.Counter((g["auto"][0], g["perfect"][0]) for g in got)
    print(f"{len(got)} rows; auto -> perfect:")
    for (a, p), n in sorted(cross.items()):
        print(f"  {a:9} -> {p:9} {n}")
        for pic in ("gray", "colour"):
            if (a, p, pic) in sums:
                print(f"      {pic}: {dict(sums[(a, p, pic)])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("runs")
    r.add_argument("folders", nargs="+")
    r.add_argument("--lost", action="store_true")
    w = sub.add_parser("wide")
    w.add_argument("--out")
    w.add_argument("--lost", action="store_true")
    args = ap.parse_args()
    if args.cmd == "runs":
        runs(args.folders, args.lost)
    else:
        wide(args.out, args.lost)


if __name__ == "__main__":
    sys.exit(main())
