"""Session 31 (signal, issue 13, QA s30 T4): why Gravitar, Kool-Aid Man and Solaris get "not
enough signal" at `--offset auto`, and what a response statistic locked to the frame after
each press (with a null model of its own) can and cannot say there. Measured on QA s30's sync
runs (now training data), QA s26-s29's and corpus v2's; nothing here is imported by the app
or the tests, and nothing is written outside /tmp unless OUT says so.

    PYTHONPATH=. .venv/bin/python scripts/signal_probe_s31.py gates RUN...
    PYTHONPATH=. .venv/bin/python scripts/signal_probe_s31.py shown RUN...
    PYTHONPATH=. .venv/bin/python scripts/signal_probe_s31.py locked SET[,SET...] [--mismatch]

RUN: a folder with truth.json, agent-log.jsonl and video.*, or a name under
.cache/qa-s30/sync (e.g. solaris-genuine@r54qtrle). SET: a folder of such runs relative to
/work/main/.cache (corpus/v2, qa-s26/sync ... qa-s30/sync).

`gates`: per reading (the 8x8 picture, 4x4, the scan's 16x16) the learned fit's error in
frames, its score, and the same fit's scores on 19 logs with the gaps shuffled
(`fit.permuted`, the significance test's null): the real score in spreads over them says why
the fit is refused (`significance` returns 0 as soon as one shuffled log does as well).
`shown`: per press the generator says shows (truth.json `shows_video_s`), the plain novelty's
standing (local spreads over the level, `reactions.Novelty`) on the shown frame and the next,
and its rank among all frames (1.0: the run's highest).
`locked`: the frame-locked statistic per run and tile scale (8x8, 4x4), as JSON lines:
S(offset) = the actions' standing summed over the LOCK_FRAMES frames from each expected one
(clipped to Z_CAP), searched every half frame; z over the offsets AWAY_S from the best;
null_z over NULL_LOGS shuffled logs' best S; support = actions standing
sync_reaction_z there beyond the mean at the other offsets. `--mismatch`: each genuine run's
video with the next genuine run's log of another game (no offset may stand).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO)]
CACHE = Path("/work/main/.cache") if Path("/work/main/.cache").is_dir() else REPO / ".cache"
QA30 = CACHE / "qa-s30" / "sync"

LOCK_FRAMES = 2    # an answer read on the frame expected and the next
Z_CAP = 6.0        # one frame's standing counts this many local spreads at most
NULL_LOGS = 39     # shuffled logs for the locked statistic's null
AWAY_S = 0.5       # offsets this far from the best are "the other offsets"


def run_dir(name: str) -> Path:
    p = Path(name)
    return p if (p / "truth.json").is_file() else QA30 / name


def load(d: Path, log: Path | None = None):
    """(truth, the log's input times within the footage's reach, the video's sync signals),
    the scan read from the set's own scan-cache when it has one (corpus v2)."""
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import frame_signals

    truth = json.loads((d / "truth.json").read_text())
    video = d / str(truth.get("video", ""))
    if not video.is_file():
        video = next(p for p in sorted(d.iterdir()) if p.name.startswith("video."))
    own = d.parent / "scan-cache"
    if own.is_dir():
        os.environ["MODERATOR_APP_CACHE"] = str(own)
    else:
        os.environ.pop("MODERATOR_APP_CACHE", None)
    times, _ = inputs(load_submission([(log or d) / "agent-log.jsonl"]))
    sig = frame_signals(video)
    kept = within_reach(times, float(sig.times[-1] - sig.times[0]))
    return truth, np.sort(np.asarray(kept, float)), sig


def gates(names: list[str]) -> None:
    from moderator_app.core.sync import fit, lookup, reactions
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    for name in names:
        truth, e, sig = load(run_dir(name))
        tr, fps = float(truth["offset_s"]), float(sig.fps)
        shown = sum(a["shows_video_s"] is not None for a in truth["actions"])
        print(f"{name}: {shown} of {len(truth['actions'])} presses show")
        for label, s in (("8x8", sig), ("4x4", sig.coarser(4)), ("16x16", sig.finer())):
            if s is None:
                continue
            nov = reactions.novelty(s)
            look = lookup.Lookup(s, lookup.lookahead(s, nov))
            q = reactions.background_rates(s, nov)
            f = fit.learned_fit(s, nov, look, q, e, 1.0, TH)[0]
            rng = np.random.default_rng(len(e))  # the significance test's own seed
            null = np.array([fit.learned_fit(s, nov, look, q, fit.permuted(e, rng), 1.0,
                                             TH)[0].score for _ in range(fit.NULL_SETS)])
            over = (f.score - null.mean()) / max(float(null.std()), 1e-6)
            print(f"  {label:5s} fit {(f.offset_s - tr) * fps:+8.1f} fr  z {f.z:4.1f} over "
                  f"offsets; score {f.score:6.2f}, shuffled logs {null.mean():6.2f} +- "
                  f"{null.std():4.2f} (best {null.max():6.2f}): {over:+.1f} spreads", flush=True)


def shown(names: list[str]) -> None:
    from moderator_app.core.sync import reactions

    for name in names:
        truth, _, sig = load(run_dir(name))
        s = sig.finer() or sig
        z = reactions.novelty(s).excess / reactions.novelty(s).spread
        z2 = np.maximum(z, np.r_[z[1:], z[-1:]])
        rank = np.argsort(np.argsort(z2, kind="stable"), kind="stable") / max(len(z2) - 1, 1)
        rows = []
        for a in truth["actions"]:
            if a["shows_video_s"] is None:
                continue
            k = min(int(np.searchsorted(s.times, a["shows_video_s"] - 1e-6)), len(z2) - 1)
            rows.append((float(z2[k]), float(rank[k])))
        st = np.array([r[0] for r in rows]) if rows else np.zeros(0)
        rk = np.array([r[1] for r in rows]) if rows else np.zeros(0)
        print(f"{name}: {len(rows)} shown; standing >= 2.5 on {int((st >= 2.5).sum())}; "
              f"rank median {np.median(rk) if len(rk) else float('nan'):.2f}, "
              f">= 0.95 on {int((rk >= 0.95).sum())} (chance: {0.05 * len(rows):.1f})")


def _frames(times: np.ndarray, fps: float, e: np.ndarray, offs: np.ndarray) -> np.ndarray:
    t = offs[:, None] + e[None, :]
    k = np.searchsorted(times, t - 1e-6)
    k[t < float(times[0]) - 0.5 / fps] = len(times)  # before the footage: off it
    return k


def _curve(times, fps, stand, e) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(offsets every half frame putting the middle action on the footage, S per offset,
    the frames (offsets, actions))."""
    from moderator_app.core.sync.stats import median

    mid, step = median(e), 0.5 / fps
    offs = np.arange(float(times[0]) - mid, float(times[-1]) - mid + step, step)
    k = _frames(times, fps, e, offs)
    n = len(stand)
    return offs, np.where(k < n, stand[np.minimum(k, n - 1)], 0.0).sum(axis=1), k


def locked_read(sig, e: np.ndarray, th) -> dict | None:
    """The frame-locked statistic of these actions on `sig`'s plain novelty."""
    from moderator_app.core.sync import fit, reactions

    if len(e) < th.sync_min_actions or len(sig) < 2:
        return None
    nov = reactions.novelty(sig)
    z = np.clip(nov.excess / nov.spread, 0.0, Z_CAP)
    stand = z.copy()
    for d in range(1, LOCK_FRAMES):
        np.maximum(stand[:-d], z[d:], out=stand[:-d])
    times, fps = np.asarray(sig.times, float), float(sig.fps)
    offs, curve, k = _curve(times, fps, stand, e)
    b = int(np.argmax(curve))
    away = np.abs(offs - offs[b]) >= AWAY_S
    if np.count_nonzero(away) < 2:
        return None
    zz = (curve[b] - curve[away].mean()) / max(float(curve[away].std()), 1e-6)
    rng = np.random.default_rng(len(e))
    null = np.array([_curve(times, fps, stand, fit.permuted(e, rng))[1].max()
                     for _ in range(NULL_LOGS)])
    null_z = (curve[b] - null.mean()) / max(float(null.std()), 1e-6)
    n = len(stand)
    hits = (np.where(k < n, stand[np.minimum(k, n - 1)], 0.0) >= th.sync_reaction_z).sum(axis=1)
    support = int(np.floor(hits[b] - hits[away].mean()))
    return {"offset_s": round(float(offs[b]), 4), "z": round(float(zz), 2),
            "null_z": round(float(null_z), 2), "support": support,
            "stands": bool(zz >= th.sync_min_z and null_z >= th.sync_min_null_z and
                           support >= th.sync_min_actions)}


def locked(sets: list[str], mismatch: bool) -> None:
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    ds = [d for s in sets for d in sorted((CACHE / s).iterdir()) if (d / "truth.json").is_file()]
    games = {d: json.loads((d / "truth.json").read_text()) for d in ds}
    if mismatch:
        ds = [d for d in ds if str(games[d].get("kind", "genuine")).startswith(("genuine",
                                                                                 "pause"))]
    for i, d in enumerate(ds):
        log = None
        if mismatch:
            j = (i + 1) % len(ds)
            while games[ds[j]]["game"] == games[d]["game"] and j != i:
                j = (j + 1) % len(ds)
            log = ds[j]
        try:
            truth, e, sig = load(d, log)
        except (OSError, ValueError, StopIteration) as exc:
            print(json.dumps({"run": d.name, "error": str(exc)[:100]}), flush=True)
            continue
        row: dict = {"run": f"{d.parent.name}/{d.name}", "game": truth.get("game"),
                     "kind": truth.get("kind"), "log": None if log is None else log.name}
        for label, s in (("8x8", sig), ("4x4", sig.coarser(4))):
            r = locked_read(s, e, TH)
            if r is not None:
                r["err_frames"] = round((r["offset_s"] - float(truth["offset_s"])) * sig.fps, 2)
            row[label] = r
        print(json.dumps(row), flush=True)


def main(argv: list[str]) -> int:
    cmd, rest = (argv[0] if argv else ""), argv[1:]
    if cmd == "gates" and rest:
        gates(rest)
    elif cmd == "shown" and rest:
        shown(rest)
    elif cmd == "locked" and rest:
        locked(rest[0].split(","), "--mismatch" in rest[1:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
