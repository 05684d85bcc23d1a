"""`verify --json --scan` against its decode floor across file sizes (issue 12: "the scan's time
as a ratio to the decode floor, measured side by side; target <= 1.3x that floor").

Why a sweep: on 1080p60 the scan is ~1.08x its floor, on the bench's 10 s 160x210 file ~2.5x;
the difference is a fixed cost (two processes' start-up, the numpy and PyAV imports, the log,
the report), so the ratio depends on how much decoding there is to pay it back. Each cell is
the whole `moderator-app verify --json --scan` (both processes, a fresh scan cache every run)
against `ffmpeg -v error -i V -map 0:v:0 -f null -` on the same file, pairs interleaved across
every cell, round by round, so that the machine's load weighs on each alike. Printed per cell:
the medians of the pairwise wall and CPU ratios (whole process trees, from wait4), the floor's
CPU, and the scan's CPU over the floor's in seconds (its extra cost). Then per picture size a
straight line through its cells' (floor CPU, verify CPU): the intercept is the fixed cost in
CPU seconds, the slope the ratio long files tend to (the per-frame work beside decoding, which
is larger on small pictures), and where that line crosses 1.3x.

Usage: python bench/bench_scan_sizes.py [--quick] [--pairs N] [--sizes A,B] [--durations S,T]
(--quick: 160x210 and 640x480 at 5 and 20 s only.)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZES = ("160x210", "640x480", "1280x720")  # an Atari game's picture, SD, 720p; all 60 fps
DURATIONS = (5, 20, 60, 180)
TARGET = 1.3


def sweep(cells: list[tuple[str, int]], pairs: int) -> list[dict]:
    """Per cell (size, seconds): medians of `pairs` interleaved verify/floor pairs."""
    from _common import compile_tree, timed_verify
    from _common import timed as timed_process
    from bench_video import small_submission

    compile_tree()
    folders = {cell: small_submission(cell[1], cell[0]) for cell in cells}
    rows = {cell: {"wall": [], "cpu": [], "floor": [], "verify": [], "main": []}
            for cell in cells}
    for cell in cells:  # warm the page cache and the libraries
        timed_process(_floor_cmd(folders[cell]))
    for _ in range(pairs):
        for cell in cells:
            with tempfile.TemporaryDirectory() as cache:
                t, _, _, _, c, m = timed_verify(
                    ["verify", "--json", "--scan", str(folders[cell])],
                    {"MODERATOR_APP_CACHE": cache})
            ft, _, _, _, fc = timed_process(_floor_cmd(folders[cell]))
            r = rows[cell]
            r["wall"].append(t / ft)
            r["cpu"].append(c / fc)
            r["floor"].append(fc)
            r["verify"].append(c)
            r["main"].append(m)
    out = []
    for (size, seconds), r in rows.items():
        med = {k: statistics.median(v) for k, v in r.items()}
        med.update(size=size, seconds=seconds,
                   kb=(folders[(size, seconds)] / "video.mp4").stat().st_size // 1024,
                   cpu_range=(min(r["cpu"]), max(r["cpu"])))
        out.append(med)
    return out


def _floor_cmd(folder: Path) -> list[str]:
    return ["ffmpeg", "-v", "error", "-i", str(folder / "video.mp4"), "-map", "0:v:0", "-f",
            "null", "-"]


def fixed_cost(rows: list[dict]) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line verify CPU = a + b * floor CPU over
    `rows` (one picture size's cells)."""
    xs = [r["floor"] for r in rows]
    ys = [r["verify"] for r in rows]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    return my - b * mx, b


def report(rows: list[dict], pairs: int) -> None:
    print(f"-- verify --json --scan against ffmpeg -f null by file size ({pairs} pairs per "
          "cell, interleaved; medians; CPU = whole process trees)")
    print(f"  {'size':>9} {'s':>4} {'KB':>7} {'floor CPU':>10} {'verify CPU':>11} "
          f"{'extra':>7} {'main':>6} {'CPU ratio (range)':>20} {'wall':>6}")
    for r in rows:
        lo, hi = r["cpu_range"]
        mark = "" if r["cpu"] <= TARGET else "  > 1.3x"
        print(f"  {r['size']:>9} {r['seconds']:>4} {r['kb']:>7} {r['floor']:>9.3f}s "
              f"{r['verify']:>10.3f}s {r['verify'] - r['floor']:>6.3f}s {r['main']:>5.3f}s "
              f"{r['cpu']:>6.2f}x ({lo:.2f}-{hi:.2f}) {r['wall']:>5.2f}x{mark}")
    for size in dict.fromkeys(r["size"] for r in rows):
        cells = [r for r in rows if r["size"] == size]
        if len(cells) < 2:
            continue
        a, b = fixed_cost(cells)
        if b < TARGET and a > 0:
            where = (f"1.3x crossed where the floor's CPU reaches {a / (TARGET - b):.2f} s "
                     f"(~{a / (TARGET - b) / _floor_per_s(cells):.0f} s of this video)")
        else:
            where = "1.3x never crossed (the cost per decoded second is over it)"
        print(f"  {size}: verify CPU = {a:.3f} s + {b:.3f} x the floor's (the fixed cost, then "
              f"the ratio long files tend to): {where}")


def _floor_per_s(cells: list[dict]) -> float:
    """The floor's CPU per second of video at this size (the longest cell's)."""
    last = max(cells, key=lambda r: r["seconds"])
    return last["floor"] / last["seconds"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--pairs", type=int, default=0)
    ap.add_argument("--sizes", default="", help="comma-separated, e.g. 160x210,640x480")
    ap.add_argument("--durations", default="", help="comma-separated seconds, e.g. 5,20")
    args, _ = ap.parse_known_args()
    if shutil.which("ffmpeg") is None:
        print("-- scan sizes: ffmpeg CLI not installed, skipped")
        return 0
    sizes = args.sizes.split(",") if args.sizes else SIZES[:2] if args.quick else SIZES
    durations = ([int(d) for d in args.durations.split(",")] if args.durations
                 else DURATIONS[:2] if args.quick else DURATIONS)
    pairs = args.pairs or (3 if args.quick else 5)
    cells = [(size, seconds) for size in sizes for seconds in durations]
    report(sweep(cells, pairs), pairs)
    print(f"  load average {os.getloadavg()[0]:.1f} (the machine's, for the record)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
