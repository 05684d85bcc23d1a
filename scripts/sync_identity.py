"""The sync analysis' answers before and after a change meant to make it cheaper: `repr` of
what `analyze` returns, bit for bit, on every run of the real-game corpus and QA's sync runs
(issue 13's synccost work: a cut in the analysis' time must change no answer).

Three cells per run: bench's inputs (`analyze(times, signals)`: no offset, no kinds, no
run_end, as bench/bench_sync.py times it) and the CLI's (`sync.run.analyze_result` on the
verification's own result: the log's kinds, run_end and idle stretches) at `--offset auto`
and at the truth (truth.json's offset, plus QA's file shift where QA wrote one).

    python scripts/sync_identity.py prepare OUT_DIR [RUN_DIR...]  # the inputs, once
    python scripts/sync_identity.py answers OUT_DIR > answers.jsonl  # one line a cell
    python scripts/sync_identity.py compare BEFORE.jsonl AFTER.jsonl

`prepare` verifies each run once (`verify --scan` in-process, the scan's cache in OUT_DIR)
and keeps what the analysis reads (the scan's signals, the log's times, kinds, idle
stretches and run span) in OUT_DIR/<name>.pkl: `answers` then reads no video, so the
before and after trees see the very same input. Without RUN_DIRs: every run under
$MODERATOR_CORPUS_DIR/v2 and /work/main/.cache/qa-s2*/sync (QA's caches; heavy files stay
out of git). Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[1]


def _runs() -> list[Path]:
    corpus = Path(os.environ.get("MODERATOR_CORPUS_DIR", REPO / ".cache" / "corpus")) / "v2"
    qa = sorted(Path(p) for p in glob.glob("/work/main/.cache/qa-s2*/sync/*"))
    return [p for p in sorted(corpus.iterdir()) + qa if (p / "truth.json").is_file()]


def _name(run: Path) -> str:
    return f"{run.parent.parent.name}__{run.name}" if run.parent.name == "sync" else run.name


def prepare(out: Path, runs: list[Path]) -> int:
    """One verification per run; its analysis inputs pickled. Runs already prepared are
    skipped (a pass stopped half-way goes on)."""
    from moderator_app.core.formats.input_events import idle_stretches, inputs
    from moderator_app.core.sync.run import READ_FLOOR_S
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("MODERATOR_APP_CACHE", str(out / "appcache"))
    for run in runs:
        dest = out / f"{_name(run)}.pkl"
        if dest.exists():
            continue
        truth = json.loads((run / "truth.json").read_text())
        shift = 0.0
        if (run / "file_shift.json").is_file():
            shift = json.loads((run / "file_shift.json").read_text()).get("shift_s", 0.0)
        with tempfile.TemporaryDirectory() as tmp:
            result = verify_paths([run], VerifyOptions(offset=0.0, scan_video=True,
                                                       spool_dir=Path(tmp)))
            if result.video_path is None or result.scan is None:
                print(f"skipped {run}: no video or no whole scan", file=sys.stderr)
                continue
            times, kinds = inputs(result.submission)
            idle = idle_stretches(result.submission, READ_FLOOR_S)
            kept = {"run": str(run), "video_path": str(result.video_path),
                    "times": list(times), "kinds": None if kinds is None else list(kinds),
                    "idle": idle, "run_duration_s": result.run_duration_s,
                    "signals": result.scan.signals,
                    "truth_s": float(truth["offset_s"]) + float(shift)}
        dest.write_bytes(pickle.dumps(kept))
        print(f"prepared {dest.name}", file=sys.stderr, flush=True)
    return 0


def _cells(kept: dict):
    """(cell, repr) of the three analyses of one prepared run."""
    import numpy as np

    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.run import analyze_result
    from moderator_app.core.sync.signals import from_scan
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    yield "bench", repr(analyze(np.array(kept["times"]), from_scan(kept["signals"]),
                                DEFAULT_THRESHOLDS))
    result = SimpleNamespace(video_path=Path(kept["video_path"]), input_times=kept["times"],
                             input_kinds=kept["kinds"], log_idle=kept["idle"],
                             run_duration_s=kept["run_duration_s"],
                             scan=SimpleNamespace(signals=kept["signals"]))
    for cell, offset in (("auto", None), ("truth", kept["truth_s"])):
        try:
            yield cell, repr(analyze_result(result, DEFAULT_THRESHOLDS, offset))
        except Exception as exc:  # noqa: BLE001 - a refusal is an answer too
            yield cell, f"raised {type(exc).__name__}: {exc}"


def answers(out: Path) -> int:
    for p in sorted(out.glob("*.pkl")):
        kept = pickle.loads(p.read_bytes())
        for cell, text in _cells(kept):
            print(json.dumps({"run": p.stem, "cell": cell,
                              "sha": hashlib.sha256(text.encode()).hexdigest(),
                              "repr": text}), flush=True)
    return 0


def compare(before: Path, after: Path) -> int:
    def load(p: Path) -> dict:
        rows = (json.loads(line) for line in p.read_text().splitlines() if line.strip())
        return {(r["run"], r["cell"]): r["sha"] for r in rows}

    b, a = load(before), load(after)
    same = [k for k in b if a.get(k) == b[k]]
    changed = [k for k in b if k in a and a[k] != b[k]]
    missing = [k for k in b if k not in a] + [k for k in a if k not in b]
    runs = {k[0] for k in b}
    print(f"{len(b)} cells on {len(runs)} runs: {len(same)} identical, {len(changed)} changed, "
          f"{len(missing)} in one file only")
    for k in changed + missing:
        print("  differs:", *k)
    return 0 if not changed and not missing else 1


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "prepare":
        return prepare(Path(argv[1]), [Path(p) for p in argv[2:]] or _runs())
    if len(argv) == 2 and argv[0] == "answers":
        return answers(Path(argv[1]))
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
