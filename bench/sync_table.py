"""The sync analysis on every corpus run against its ground truth: the table in the
submitter guide (game x tampering -> found/missed, offset error on genuine runs).

    .venv/bin/python bench/sync_table.py [GAME...]
    .venv/bin/python bench/sync_table.py --held-out [GAME...]  # the second held-out set
    SYNC_GRID=16 .venv/bin/python bench/sync_table.py   # the analysis from finer tiles

Judged as issue 13 does: a genuine run passes with its offset within one frame (or "not enough
signal") and no sync warning; a tampering is found when the right finding is reported within
1 s of its place (an offset jump also within 2 frames of its size; speed: drift within 1
point); "ok+extra" when other sync findings come with it. A splice from a second attempt
(`retake`, held-out set) is found by any sync finding starting within 1 s of the splice. A
`pause` run is genuine (its agent idles 9 s: a long log gap with no input on screen).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))


def judge(truth: dict, a) -> str:
    """'ok ...' or 'MISSED ...' / 'WRONG ...' with what was found."""
    kind, t, fps = truth["kind"], truth["tamper"], truth["fps"]
    rules = sorted(f.rule for f in a.findings)
    off = a.suggested_offset_s
    err = None if off is None else (off - truth["offset_s"]) * fps
    where = f"offset {'none' if err is None else f'{err:+.2f} fr'} {rules}"
    if kind.startswith("genuine") or kind in ("pause", "pauselong"):  # genuine, idle 9 or 30 s
        if err is not None and abs(err) > 1:
            return f"WRONG {where}"
        return ("ok " if not rules else "WARN ") + where
    if kind == "retake":
        hits = [f for f in a.findings
                if f.video_start_s is not None and abs(f.video_start_s - t["video_s"]) <= 1.0]
        if hits:
            return ("ok " if len(hits) == len(rules) else "ok+extra ") + where
        return f"MISSED {where}"
    want = {"cut": "sync.offset_jump", "cutlong": "sync.offset_jump", "insert": "sync.offset_jump",
            "freeze": "sync.no_reaction", "speed": "sync.drift", "speed2": "sync.drift",
            "speed6": "sync.drift", "speedlong": "sync.drift", "slow": "sync.drift",
            "deleted": "sync.activity_without_actions",
            "deletedlong": "sync.activity_without_actions",
            "human": "sync.activity_without_actions"}[kind]
    hits = [f for f in a.findings if f.rule == want]
    for f in hits:
        if kind in ("speed", "speed2", "speed6", "speedlong", "slow"):
            good = abs(f.percent - t["percent"]) <= 1.0
        elif kind in ("cut", "cutlong", "insert"):
            # a clock's shift (core/sync/clock.py) has a place and no size: judged by place
            good = abs(f.video_start_s - t["video_s"]) <= 1.0 and \
                (f.size_s is None or abs(f.size_s - t["size_s"]) <= 2 / fps)
        else:
            s0, s1 = t["video_start_s"], t["video_end_s"]
            good = s0 - 1.0 <= f.video_start_s <= s1 + 1.0 and \
                s0 - 1.0 <= (f.video_end_s or f.video_start_s) <= s1 + 1.0
        if good:
            extra = [r for r in rules if r != want]
            return ("ok " if not extra else "ok+extra ") + where
    return f"MISSED {where}"


GRID = int(os.environ.get("SYNC_GRID", "8"))


def main(games: list[str]) -> int:
    import corpus

    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    why = corpus.available()
    if why:
        print(f"skipped: {why}")
        return 0
    bad = 0
    names = corpus.NAMES
    if games[:1] == ["--held-out"]:
        games, names = games[1:], corpus.HELD_OUT_NAMES
    for name in names:
        if games and name.split("-")[0] not in games:
            continue
        run = corpus.build(name)
        e = run.action_times
        sig = frame_signals(run.video, grid=GRID)
        verdict = judge(run.truth, analyze(e, sig, DEFAULT_THRESHOLDS,
                                           run_duration_s=run.run_end_s))
        bad += not verdict.startswith("ok")
        print(f"{name:28s} {verdict}", flush=True)
    print(f"{bad} not ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
