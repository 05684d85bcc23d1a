"""Stress of the player's warm-ups and interrupts (session 20, issue 11): a real `VideoPlayer`
(offscreen), random seeks with neighbour hints, plays and pauses, over seeds; the protocol
trace (`MODERATOR_VIDEO_TRACE`) of every run read back for what went wrong.

    PYTHONPATH=. QT_QPA_PLATFORM=offscreen .venv/bin/python bench/stress_warm.py \
        --seeds 1-5 --rounds 150

Counted, per seed and in all (version-independent: read from the workstation's trace, so the
same harness measures any main):
- warm-ups: answers to a warm-up request read;
- wasted: a warm-up answered `interrupted` although the workstation sent no interrupt between
  its request and its answer (a stale interrupt, meant for the warm-up before, stopped it);
- wasted_empty: of those, the ones that warmed nothing (`done == []`);
- give-ups: "warm given up" (an interrupted warm-up not answering in 5 s: its child ended);
- late: seeks whose exact frame was not on screen within 30 s.
Not in bench/run.py's set (not a bench_*.py): it is a stress, minutes long.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("STRESS_TESTS_DIR", str(ROOT / "tests")))


def _seeds(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def run_seed(app, path: Path, seed: int, rounds: int) -> dict:
    from PySide6.QtCore import QCoreApplication

    from moderator_app.ui.video_player import VideoPlayer

    rng = random.Random(seed)
    late = 0

    def wait(cond, ms: int) -> bool:
        end = time.monotonic() + ms / 1000
        while time.monotonic() < end:
            QCoreApplication.processEvents()
            if cond():
                return True
            time.sleep(0.002)
        return cond()

    w = VideoPlayer()
    w.resize(640, 400)
    w.show()
    assert w.load(path)
    assert w.wait_for_timestamps(60000)
    wait(lambda: w.shown_frame == 0 and w.times.complete, 60000)
    count = len(w.times)
    for _ in range(rounds):
        act = rng.random()
        if act < 0.6:  # a selection and its neighbours, as the navigator hands them
            n = rng.randrange(count)
            w.seek_frame(n)
            hints = [min(count - 1, max(0, n + rng.randint(-400, 400))) for _ in range(8)]
            w.prefetch_times([w.times.time_of(k) for k in hints])
            if not wait(lambda n=n: w.shown_frame == n, 30000):
                late += 1
            wait(lambda: False, rng.choice((0, 5, 20, 60, 150)))  # idle: the warm-up runs
        elif act < 0.8:
            w.play()
            wait(lambda: False, rng.choice((30, 100, 300)))
            w.pause()
        else:  # a second selection soon after the first (the interrupt's race)
            n = rng.randrange(count)
            w.seek_frame(n)
            wait(lambda: False, rng.choice((1, 3, 10)))
    w.pause()
    wait(lambda: False, 200)
    w.unload()
    w.deleteLater()
    QCoreApplication.processEvents()
    return {"late": late}


_SEND = re.compile(r"child=(\d+) send rid=\d+ op=warm")
_READ = re.compile(r"child=(\d+) read .*done=(\[[^\]]*\]).*interrupted=(True|False)")
_INT = re.compile(r"child=(\d+) interrupt")


def read_trace(folder: Path) -> dict:
    lines = []
    for f in folder.glob("parent-*.log"):
        for line in f.read_text(errors="replace").splitlines():
            t, _, rest = line.partition(" ")
            lines.append((float(t), rest))
    lines.sort()
    flight: dict[str, int] = {}  # child -> interrupts sent during its warm-up in flight
    out = {"warm_ups": 0, "wasted": 0, "wasted_empty": 0, "give_ups": 0, "interrupted": 0}
    for _, rest in lines:
        if "warm given up" in rest:
            out["give_ups"] += 1
        if m := _SEND.search(rest):
            flight[m.group(1)] = 0
        elif (m := _INT.search(rest)) and m.group(1) in flight:
            flight[m.group(1)] += 1
        elif (m := _READ.search(rest)) and m.group(1) in flight:
            sent = flight.pop(m.group(1))
            out["warm_ups"] += 1
            if m.group(3) == "True":
                out["interrupted"] += 1
                if sent == 0:
                    out["wasted"] += 1
                    out["wasted_empty"] += m.group(2) == "[]"
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="1-3")
    ap.add_argument("--rounds", type=int, default=150)
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import video_corpus as vc
    from PySide6.QtWidgets import QApplication

    path = vc.build(vc.RECIPES["scan"])
    app = QApplication.instance() or QApplication([])
    total: dict[str, int] = {}
    for seed in _seeds(args.seeds):
        with tempfile.TemporaryDirectory() as folder:
            os.environ["MODERATOR_VIDEO_TRACE"] = folder
            got = run_seed(app, path, seed, args.rounds)
            os.environ.pop("MODERATOR_VIDEO_TRACE")
            got.update(read_trace(Path(folder)))
        print(f"seed {seed}: " + " ".join(f"{k}={v}" for k, v in got.items()), flush=True)
        for k, v in got.items():
            total[k] = total.get(k, 0) + v
    print("total: " + " ".join(f"{k}={v}" for k, v in total.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
