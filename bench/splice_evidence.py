"""What evidence a splice (footage cut or inserted) leaves for the sync analysis, per run:
the figures behind docs/DECISIONS.md, "Cuts and insertions on screens that move on their own"
(session 18, issue 13, QA s18 L2).

    .venv/bin/python bench/splice_evidence.py FOLDER...   # submission folders with truth.json

Each FOLDER holds a run of the QA scripts or the corpus (`agent-log.jsonl`, a video, the
generator's `truth.json`: the true offset and, for a tampering, the splice's run time and
size). Printed per run, on the analysis' own signals (the scan, its cache when built):

- `auto`: the suggested offset (frames from the truth) or "none", and which stage gave it
  (`plain`, or the fallback: `band`, `head`, `calm`, `rising`);
- `band`: the player's band chosen on the whole run and on its first half, each with its
  margin over the shuffled logs' best bands (`band.select`; the band analysis runs from
  `Thresholds.sync_band_min_null_z`);
- `support`: at the true offset, the actions before the splice and after it with a reaction
  standing out right after them (`track.supported`, 8x8), and the actions after it at the
  true offset after the splice (the truth's size added);
- `stretch`: the per-stretch band reading at the true offset (core/sync/band_splice.py);
- `rank`: how many shifts of +-60 s (|shift| >= 0.25 s, one per frame) support the actions
  after the splice as often as the true shift does (1 = the true shift alone).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

STAGES = ("_in_band", "_from_head", "_calm", "_rising")


def _stage_of(times, kinds, sig, th, run_s: float) -> tuple[float | None, str]:
    """(suggested offset, the stage that gave it): each fallback wrapped for this call."""
    from moderator_app.core.sync import analysis as A

    said: list[str] = []
    saved = {name: getattr(A, name) for name in STAGES}

    def wrap(name, fn):
        def inner(*a, **k):
            r = fn(*a, **k)
            if r is not None and r.suggested_offset_s is not None:
                said.append(name.strip("_").split("_")[-1])
            return r
        return inner

    try:
        for name, fn in saved.items():
            setattr(A, name, wrap(name, fn))
        res = A.analyze(times, sig, th, None, run_s, input_kinds=kinds)
    finally:
        for name, fn in saved.items():
            setattr(A, name, fn)
    if res.suggested_offset_s is None:
        return None, "none"
    return res.suggested_offset_s, said[-1] if said else "plain"


def evidence(folder: Path) -> dict:
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync import band, lookup, reactions, track
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    truth = json.loads((folder / "truth.json").read_text())
    times, kinds = inputs(load_submission([str(folder)]))
    video = next(p for p in sorted(folder.iterdir()) if p.name.startswith("video"))
    sig = frame_signals(video)
    fps, o = float(sig.fps), float(truth["offset_s"])
    off, stage = _stage_of(times, kinds, sig, TH, float(truth["run_s"]))
    row: dict = {"run": folder.name, "auto": "none" if off is None else
                 f"{(off - o) * float(truth['fps']):+.2f} fr ({stage})"}
    e = np.asarray(sorted(times), float)
    nov = reactions.novelty(sig)
    for part, ee in (("whole", e), ("head", e[:len(e) // 2])):
        tiles, margin = band.select(sig, nov, ee, 0.0, sig.grid)
        row[f"band_{part}"] = round(float(margin), 2)
    row["stretch"] = _stretch(e, sig, o, TH)
    t = truth.get("tamper") or {}
    if "size_s" not in t:
        return row
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    z, d = TH.sync_reaction_z, float(t["size_s"])
    split = float(t["run_s"]) + (abs(d) if d < 0 else 0.0)  # a cut's actions: no picture
    before, after = e[e < t["run_s"]], e[e > split]
    row["support"] = (f"before {int(track.supported(look, before, o, 1.0, z).sum())}/"
                      f"{len(before)}, after {int(track.supported(look, after, o, 1.0, z).sum())}"
                      f"/{len(after)} -> {int(track.supported(look, after, o + d, 1.0, z).sum())}"
                      " at the shift")
    shifts = np.arange(-60.0, 60.0 + 0.5 / fps, 1.0 / fps)
    shifts = shifts[np.abs(shifts) >= TH.sync_jump_s]
    count = np.array([int(track.supported(look, after, o + x, 1.0, z).sum()) for x in shifts])
    true = int(count[np.abs(shifts - d) <= 2.0 / fps].max())
    row["rank"] = f"{int((count >= true).sum())} of {len(shifts)} shifts"
    return row


def support(folder: Path, truth: dict) -> str:
    """The actions before the splice and after it answered at the true offset (8x8,
    `track.supported`), and those after it at the truth's shift (bench/cut_table.py --sweep)."""
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync import lookup, reactions, track
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    t = truth["tamper"]
    times, _ = inputs(load_submission([str(folder / "agent-log.jsonl")]))
    sig = frame_signals(folder / truth.get("video", "video.mp4"))
    e, o, d = np.asarray(sorted(times), float), float(truth["offset_s"]), float(t["size_s"])
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    z = TH.sync_reaction_z
    split = float(t["run_s"]) + (abs(d) if d < 0 else 0.0)  # a cut's actions: no picture
    before, after = e[e < t["run_s"]], e[e > split]
    n = [int(track.supported(look, x, oo, 1.0, z).sum())
         for x, oo in ((before, o), (after, o), (after, o + d))]
    return f"{n[0]}/{len(before)}, {n[1]}/{len(after)} -> {n[2]} at the shift"


def _stretch(e, sig, o: float, th) -> str:
    """The per-stretch band reading at the true offset (core/sync/band_splice.py): the best
    split's shift, its tail over shuffled gaps, the head's band at the offset, the picture."""
    from moderator_app.core.sync import band, band_splice, reactions

    found = band_splice._best_split(e, sig, o, th.sync_jump_s)
    if found is None:
        return "no split passes"
    s, shift, _, hb, _ = found
    z = band_splice._stands(e, sig, o, th.sync_jump_s, found)
    _, head = band.at_offset(sig, reactions.novelty(sig), e[:s], o, sig.grid)
    dated = band_splice._dated(e, sig, o, shift, hb)
    return (f"from run {e[s]:.2f} s: {shift / sig.fps:+.3f} s, {z:.2f} spreads over shuffled "
            f"gaps, head {head:.2f} at the offset, window rate {hb.mean():.3f}, "
            f"{'splice in the picture' if dated else 'no splice in the picture'}")


def main(argv: list[str]) -> int:
    for arg in argv:
        print(json.dumps(evidence(Path(arg))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
