"""Are the per-action reader's answers above the picture's own chance? (issue 13, session 46,
place: the lever session 45's diagnosis named for 17 of 19 unplaced cuts and insertions.)

For a run built with ground truth (`truth.json` beside it: the wide set's, a QA pass'), each
press is read as the product's per-action reader reads it (`reactions.answers`, the
thresholds' readers), and beside it the chance that a press at that place is "answered" with
no press at all: the share of answering frames (`reactions.answering`) over the LOCAL_S either
side of its window, its own window left out, turned into the chance of at least one in a
window of its frames (1 - (1 - p)^w). Printed per run, as (answered, by chance, presses,
spreads over chance):
- a genuine run: at the truth's offset and 2 s / 4 s off it (the reader's answers at a wrong
  offset are the picture's own motion);
- a cut or an insertion: the presses before and after the edit, at the offset before it
  ("old") and after it ("new").
Why: a press "answered" at the old offset after a cut counts as evidence for that offset in
every reading; where the picture's own motion answers half the presses anywhere, the answers
carry no evidence either way. Nothing here is imported by the app or the tests; the scan is
read from the product's cache (`MODERATOR_APP_CACHE`: the wide set's `appcache/`).

    PYTHONPATH=. .venv/bin/python scripts/answer_chance.py RUN_DIR[=OFFSET] ...

OFFSET: the truth's offset as the product reads it (the wide set's sweep row `truth_s`: its
file shift added), by default truth.json's `offset_s`.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np


def _signals(run: Path):
    """(press times within reach, the frame signals) of `run`, read as `verify --scan`."""
    from moderator_app.core.sync.run import inputs, within_reach
    from moderator_app.core.sync.signals import from_scan
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    with tempfile.TemporaryDirectory(prefix="answer-chance-") as tmp:
        res = verify_paths([run], VerifyOptions(offset=0.0, scan_video=True,
                                                spool_dir=Path(tmp)))
        times, _kinds = inputs(res.submission)
        sig = from_scan(res.scan.signals)
    return np.asarray(within_reach(times, float(sig.times[-1] - sig.times[0])), float), sig


def per_press(sig, run_s: np.ndarray, offset: float) -> tuple[np.ndarray, np.ndarray]:
    """(answered, chance) per press at `offset` (see the module's docstring)."""
    from moderator_app.core.sync import reactions
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    nov = reactions.novelty(sig)
    coarse, fine = reactions.answering(sig, nov, th.sync_reaction_z, th.sync_finer_reader)
    ok = coarse if fine is None else coarse | fine
    rs = reactions.answers(sig, run_s, offset, 1.0, th.sync_reaction_z, nov=nov,
                           finer=th.sync_finer_reader)
    t = np.asarray(sig.times, float)
    n = len(t)
    c = np.r_[0, np.cumsum(ok)]
    half = int(round(reactions.LOCAL_S * sig.fps))
    chance = []
    for e in offset + run_s:
        k0 = max(0, int(np.searchsorted(t, e - 1e-6)) - reactions.EARLY_FRAMES)
        k1 = min(n, int(np.searchsorted(t, e + reactions.ANSWER_MAX_S + 1e-6)))
        w = max(1, k1 - k0)
        lo, hi = max(0, k0 - half), min(n, k1 + half)
        p = ((c[hi] - c[lo]) - (c[k1] - c[k0])) / max(1, (hi - lo) - (k1 - k0))
        chance.append(1 - (1 - p) ** w)
    return np.array([r.video_s is not None for r in rs]), np.array(chance)


def _cell(hit: np.ndarray, ch: np.ndarray) -> tuple[int, float, int, float]:
    sp = float(np.sqrt((ch * (1 - ch)).sum()))
    z = (float(hit.sum()) - float(ch.sum())) / sp if sp > 0 else float("nan")
    return int(hit.sum()), round(float(ch.sum()), 1), len(hit), round(z, 2)


def row(run: Path, truth_s: float | None) -> dict:
    """The run's cells (see the module's docstring)."""
    t = json.loads((run / "truth.json").read_text(encoding="utf-8"))
    truth_s = float(t["offset_s"]) if truth_s is None else truth_s
    e, sig = _signals(run)
    tam = t.get("tamper") or {}
    out: dict = {"run": run.name, "truth_s": truth_s}
    if tam.get("kind") not in ("cut", "insert") or tam.get("run_s") is None:
        for name, off in (("truth", truth_s), ("-2s", truth_s - 2), ("+2s", truth_s + 2),
                          ("-4s", truth_s - 4)):
            out[name] = _cell(*per_press(sig, e, off))
        return out
    after = e >= float(tam["run_s"])
    for name, off in (("old", truth_s), ("new", truth_s + float(tam["size_s"]))):
        hit, ch = per_press(sig, e, off)
        for side, m in (("before", ~after), ("after", after)):
            out[f"{name}-{side}"] = _cell(hit[m], ch[m])
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    for arg in argv:
        path, _, off = arg.partition("=")
        print(json.dumps(row(Path(path), float(off) if off else None)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
