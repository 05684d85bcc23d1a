"""What the local offset track reads around a run's edit (issue 13, session 41, place; QA s40
T5, QA s39 T5): for a run built with ground truth (`truth.json` beside it: the wide set's,
a QA pass'), the sync analysis at an offset (the truth's by default, or `auto`), and

- the suggestion, its confidence and the reason when there is none;
- the track's windows that read an offset (run time, offset, z) and how many read none;
- the actions before and after the edit: how many the truth shows, how many the reader
  answers at the offset used, and those answers' offsets (video - run time) beside the
  truth's own offsets before and after the edit (a cut moves it down, an insertion up);
- every `sync.*` finding with its video span.

Why: a tampering "not placed" has several causes (too few reactions either side of the
edit, a threshold, a window); this prints the figures each diagnosis starts from, without a
sweep. Nothing here is imported by the app or the tests. The scan is read from the
product's own cache (`MODERATOR_APP_CACHE`: the wide set's `appcache/`, a QA pass'
`appcache-SHA/`), so a run costs only the analysis.

    PYTHONPATH=. .venv/bin/python scripts/edit_track.py RUN_DIR [OFFSET|auto]
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path


def _truth(run: Path) -> dict:
    return json.loads((run / "truth.json").read_text(encoding="utf-8"))


def _edit(t: dict) -> tuple[str, float | None, float | None, float]:
    """(kind, video start, run time, size) of the run's tampering (None: a genuine run)."""
    tam = t.get("tamper", {})
    return (str(tam.get("kind", "genuine")), tam.get("video_s", tam.get("video_start_s")),
            tam.get("run_s"), float(tam.get("size_s", 0.0)))


def report(run: Path, offset: float | None) -> list[str]:
    """The lines `main` prints for one run at `offset` (None: auto)."""
    from moderator_app.core.sync.run import analyze_result
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    t = _truth(run)
    kind, video_s, run_at, size = _edit(t)
    with tempfile.TemporaryDirectory(prefix="edit-track-") as tmp:
        res = verify_paths([run], VerifyOptions(offset=offset or 0.0, scan_video=True,
                                                spool_dir=Path(tmp)))
        a = analyze_result(res, None, offset)
    out = [f"== {run.name}: {kind} at video {video_s} s, run {run_at} s, size {size:+.2f} s; "
           f"truth offset {t['offset_s']}"]
    if a is None:
        return out + ["  no readable video"]
    out.append(f"  suggested {a.suggested_offset_s} at {a.confidence:.2f}"
               f"{'' if not a.reason else ' (' + a.reason + ')'}; used {a.offset_used_s}")
    read = [(p.run_s, round(p.offset_s, 3), round(p.z, 2)) for p in a.track
            if p.offset_s is not None]
    out.append(f"  track: {len(read)} of {len(a.track)} windows read an offset: {read}")
    shows = [x.get("shows_video_s") for x in t.get("actions", [])]
    at = float(run_at) if run_at is not None else float("inf")
    for side, keep in (("before", lambda s: s < at), ("after", lambda s: s >= at)):
        rs = [r for r in a.reactions if keep(r.run_s)]
        shown = [r for r in rs if r.index < len(shows) and shows[r.index] is not None]
        answers = [round(r.video_s - r.run_s, 3) for r in rs if r.video_s is not None]
        truth_off = float(t["offset_s"]) + (size if side == "after" and run_at is not None
                                            else 0.0)
        out.append(f"  {side}: {len(rs)} actions, {len(shown)} shown (truth offset "
                   f"{truth_off:.3f}), {len(answers)} answered at {answers}")
    out += [f"  {f.rule} video {f.video_start_s}-{f.video_end_s} run {f.run_start_s}-"
            f"{f.run_end_s}: {f.message[:120]}" for f in a.findings if f.rule.startswith("sync.")]
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    run = Path(argv[0])
    want = argv[1] if len(argv) > 1 else None
    offset = None if want == "auto" else float(want) if want else float(_truth(run)["offset_s"])
    print("\n".join(report(run, offset)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
