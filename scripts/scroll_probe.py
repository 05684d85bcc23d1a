"""Session 28 (scroll, issue 13): why Defender and Journey Escape (a small figure over a
picture that moves on its own; QA s27 T4, s26 T5) get no offset at `--offset auto`, measured
on more seeds and recorders than QA's one run each. Nothing here is imported by the app or the
tests; heavy files go to `.cache/s28-scroll/` (gitignored).

    PYTHONPATH=. .venv/bin/python scripts/scroll_probe.py build [RUN...]
    PYTHONPATH=. .venv/bin/python scripts/scroll_probe.py read [RUN...]      # auto + per grid
    PYTHONPATH=. .venv/bin/python scripts/scroll_probe.py mismatch           # another log

RUN: {game}-{kind}@{recorder}, the games and recorders of QA s26/s27 (`qa_session27`'s
agents: defender seed 273, journey_escape 263; kinds genuine, genuine2, genuine3 (other
seeds), genuinelong (150 s); recorders r20av1mkv, r25mjpegmov, r30hevcmp4).

`read` prints, per run, the analysis at auto as `verify --offset auto` makes it (error in
frames of the video, confidence, findings), then per reading of the picture (the 8x8 grid,
4x4, the scan's 16x16, and 16x16 with blinks and broad rows dropped, `narrow.narrowed`): the
fit's offset error, its spreads over the other offsets (z; sync_min_z 4 needed), over 19
shuffled logs (null; sync_min_null_z 5 needed), and how many presses have a standing reaction
(reactions.measure at sync_reaction_z) within the support window at the true offset.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO / "bench")]
CACHE = (Path("/work/main/.cache") if Path("/work/main/.cache").is_dir() else REPO / ".cache") \
    / "s28-scroll"
RUNS = [f"defender-{k}@{r}" for r in ("r20av1mkv", "r25mjpegmov", "r30hevcmp4")
        for k in ("genuine", "genuine2", "genuine3")] + \
    ["defender-genuinelong@r20av1mkv"] + \
    [f"journey_escape-{k}@{r}" for r in ("r25mjpegmov", "r20av1mkv", "r30hevcmp4")
     for k in ("genuine", "genuine2", "genuine3")] + ["journey_escape-genuinelong@r25mjpegmov"]


def build(names: list[str]) -> None:
    import qa_session27 as q27
    for mod in list(sys.modules.values()):  # every QA module builds into this folder
        if getattr(mod, "__name__", "").startswith("qa_session") and hasattr(mod, "CACHE"):
            mod.CACHE = CACHE
    q27._install()
    for name in names:
        print(q27.s25.build_sync_run(name), flush=True)


def _load(d: Path, log: Path | None = None):
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import frame_signals

    sub = load_submission([(log or d) / "agent-log.jsonl"])
    times, kinds = inputs(sub)
    sig = frame_signals(next(p for p in d.iterdir() if p.name.startswith("video.")))
    kept = within_reach(times, float(sig.times[-1] - sig.times[0]))
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) else None
    return np.asarray(kept, float), kinds, sig


def read(names: list[str]) -> None:
    from moderator_app.core.sync import lookup, narrow, reactions
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.fit import _supported, significance
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    for name in names:
        d = CACHE / "sync" / name
        if not (d / "truth.json").is_file():
            print(f"{name}: not built")
            continue
        truth = json.loads((d / "truth.json").read_text())
        t, kinds, sig = _load(d)
        tr, fps = float(truth["offset_s"]), float(sig.fps)
        a = analyze(t, sig, TH, None, input_kinds=kinds)
        got = "none" if a.suggested_offset_s is None else \
            f"{(a.suggested_offset_s - tr) * fps:+.2f} fr at {a.confidence:.3f}"
        shown = sum(x["shows_video_s"] is not None for x in truth["actions"])
        print(f"{name}: shown {shown}/{len(t)}; auto {got}; findings "
              f"{[f.rule for f in a.findings]}")
        e = np.sort(t)
        fine = sig.finer()
        for label, s in (("8x8", sig), ("4x4", sig.coarser(4)), ("16x16", fine),
                         ("16x16 narrowed", None if fine is None else narrow.narrowed(fine))):
            if s is None:
                continue
            nov = reactions.novelty(s)
            look = lookup.Lookup(s, lookup.lookahead(s, nov))
            f, null_z = significance(s, nov, look, reactions.background_rates(s, nov), e, 1.0,
                                     TH)
            print(f"  {label:15s} fit {(f.offset_s - tr) * fps:+7.1f} fr  z {f.z:4.1f}  null "
                  f"{null_z:4.1f}  standing at the truth {_supported(s, nov, e, tr, 1.0, TH)}",
                  flush=True)


def mismatch() -> None:
    """Each built genuine video against the next built run's log of another seed or game."""
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    built = [CACHE / "sync" / n for n in RUNS if (CACHE / "sync" / n / "truth.json").is_file()]
    for i, d in enumerate(built):
        log = built[(i + 1) % len(built)]
        t, kinds, sig = _load(d, log)
        a = analyze(t, sig, TH, None, input_kinds=kinds)
        print(f"{d.name} + log of {log.name}: {a.suggested_offset_s} at {a.confidence}",
              flush=True)


def main(argv: list[str]) -> int:
    os.environ.setdefault("MODERATOR_APP_CACHE", str(CACHE / "scan-cache"))
    cmd, names = (argv[0] if argv else "read"), (argv[1:] or RUNS)
    if cmd == "build":
        build(names)
    elif cmd == "read":
        read(names)
    elif cmd == "mismatch":
        mismatch()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
