"""Session 39's latency diagnosis (issue 13, QA s38 T3): how much of a suggestion's error is the
game's own delay from press to picture, and how much the reader's choice of answers.

    PYTHONPATH=. .venv/bin/python scripts/latency_bias_s39.py runs FOLDER... [--json OUT]
    PYTHONPATH=. .venv/bin/python scripts/latency_bias_s39.py sweep SWEEP.jsonl [--min-fps 40]

The fit dates run_start by the supporting reactions' median delay less a latency prior
(`fit.INPUT_LATENCY_S`, 0.75 of a 60 Hz frame) and, at a capture whose rate does not divide
60, a capture lag (`cadence`). A game that draws a press later than that is dated late by the
difference, and nothing in one run's picture tells a constant delay from a later offset
(`precede`'s note on Othello). Per run this prints, in video frames: the suggestion's error
against the truth (with the file's time shift, as wide_corpus.py's table counts it), the
truth's latency (`actions[].shows_video_s` less run time less the truth's offset, over the
shown presses: p10 and median), and with `runs` (the analysis in process, as
holds_sweep_s28.py loads runs) the median latency of the reactions the suggestion rests on,
measured against the truth (`read`): read - truth median is the share the reader adds by
answering the later presses (QA s38's lantern: FIRE's palette step on a panning picture
never stands, UP's HUD bar 2.4 spreads against the 2.5 bar). `sweep` reads a wide_corpus.py
sweep's auto rows (no analysis; no `read`). Deterministic; nothing here is imported by the
app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import holds_sweep_s28 as holds  # noqa: E402

WIDE = holds.WIDE


def _shift(folder: Path, fps: float) -> float:
    """How much later than the generator's i / fps grid the product's clock shows the file's
    frames: QA's memo (`file_shift.json`, written by the QA scripts' sweeps) where there is
    one, else `wide_corpus.file_shift`'s ffprobe measure (memoised as `wide_shift.json`).
    Why never 0 by default: QA s38's `.divx` (msmpeg4v2 in AVI at 52 fps) stamps its frames
    0, 3, 4, ... / 52, so every frame stands 2 frames late; without it review s39 R3 read
    freezeend@r52's 1.8058 as +2.90 frames, where it is +0.90 in the file's time (session 40)."""
    p = folder / "file_shift.json"
    if p.exists():
        return float(json.loads(p.read_text()).get("shift_s", 0.0))
    import wide_corpus  # noqa: PLC0415 (ffprobe's helper; the sweep mode never needs it)

    return float(wide_corpus.file_shift(folder, fps, ""))


def truth_latency(folder: Path, fps: float, t0: float) -> tuple[float, float, int] | None:
    """(p10, median, count) of the shown presses' latency in video frames, or None."""
    t = json.loads((folder / "truth.json").read_text())
    lags = [(a["shows_video_s"] - a["elapsed_ms"] / 1000 - t0) * fps
            for a in t.get("actions", []) if a.get("shows_video_s") is not None]
    if len(lags) < 3:
        return None
    return float(np.percentile(lags, 10)), float(np.median(lags)), len(lags)


def _cache(folder: Path) -> str:
    if folder.parent.name == "sync" and folder.parents[1].name.startswith("qa-s"):
        return str(folder.parents[1] / "appcache-holds")
    if folder.parents[1] == WIDE:
        return str(WIDE / "appcache")
    return str(holds.CORPUS / "scan-cache")


def run_row(folder: Path) -> dict:
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.fit import SUPPORT_AFTER_S, SUPPORT_BEFORE_S
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    os.environ["MODERATOR_APP_CACHE"] = _cache(folder)
    truth, kept, kinds, run_end, sig, _scan, _name = holds.load(folder)
    fps = float(sig.fps)
    # The grid is the generator's: the truth's fps, not the container's (a VFR mp4 of a 60 fps
    # game says 15; review s40 R3: that memo turned video_cube-genuine@vfr confident wrong).
    shift = _shift(folder, float(truth.get("fps") or fps))
    t0 = float(truth["offset_s"]) + shift
    a = analyze(kept, sig, DEFAULT_THRESHOLDS, None, run_end, input_kinds=kinds)
    row: dict = {"run": folder.name, "fps": round(fps, 3), "sug": a.suggested_offset_s,
                 "conf": a.confidence, "note": a.confidence_note or ""}
    lat = truth_latency(folder, fps, t0 - shift)  # shows_video_s is on the generator's grid
    if lat is not None:
        row["truth_p10_f"], row["truth_med_f"], row["shown"] = round(lat[0], 2), \
            round(lat[1], 2), lat[2]
    if a.suggested_offset_s is not None:
        row["err_f"] = round((a.suggested_offset_s - t0) * fps, 2)
        read = [(r.video_s - r.run_s - t0) * fps for r in a.reactions
                if r.delay_s is not None and r.video_s is not None
                and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S + 1e-6]
        if read:
            row["read_med_f"] = round(float(np.median(read)), 2)
    return row


def sweep_rows(sweep: Path, min_fps: float, min_conf: float) -> list[dict]:
    out = []
    for line in sweep.read_text().splitlines():
        r = json.loads(line) if line.strip() else None
        if r is None or "auto" not in r or r["auto"]["sug"] is None or r["fps"] < min_fps or \
                (r["auto"]["conf"] or 0.0) < min_conf:
            continue
        fps, t0 = float(r["fps"]), float(r["truth_s"])  # the sweep's truth is in the file's time
        row = {"run": r["run"], "fps": fps, "sug": r["auto"]["sug"], "conf": r["auto"]["conf"],
               "err_f": round((r["auto"]["sug"] - t0) * fps, 2)}
        lat = truth_latency(WIDE / "sync" / r["run"], fps, t0 - float(r.get("shift_s") or 0.0))
        if lat is not None:
            row["truth_p10_f"], row["truth_med_f"], row["shown"] = round(lat[0], 2), \
                round(lat[1], 2), lat[2]
        out.append(row)
    return sorted(out, key=lambda x: x.get("truth_med_f", 0.0))


def _print(rows: list[dict]) -> None:
    for r in rows:
        print(f"{r['run'][:52]:52s} fps {r['fps']:6.2f} conf {r['conf']:.3f} "
              f"err {r.get('err_f', float('nan')):+7.2f}  truth p10 "
              f"{r.get('truth_p10_f', float('nan')):5.2f} med {r.get('truth_med_f', float('nan')):5.2f}"
              f"  read med {r.get('read_med_f', float('nan')):5.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cmd", choices=("runs", "sweep"))
    ap.add_argument("args", nargs="+")
    ap.add_argument("--min-fps", type=float, default=40.0)
    ap.add_argument("--min-conf", type=float, default=0.5)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    if a.cmd == "runs":
        rows = [run_row(Path(p)) for p in a.args]
    else:
        rows = sweep_rows(Path(a.args[0]), a.min_fps, a.min_conf)
    _print(rows)
    if a.json:
        a.json.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
