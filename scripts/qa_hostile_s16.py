"""Issue 15 inputs of session 16's hostile task (docs/qa/session16-hostile.md): classes no
earlier pass had tried: MP4 sample tables that claim 10^6-10^7 samples in a small file, a
header duration of 2^63-1, a Matroska of subtitles only, one carrying a 100 MB attachment, an
MPEG-TS of 40 1080p streams, official chains whose `producer_sequence` wraps at 2^63 or 2^64,
agent logs of 16 MiB lines (just under the cap, 100 MB in all) and of one 100 MB line, and a
queue folder of 10,000 submissions with symlink loops. Deterministic (fixed bytes, ffmpeg's
lavfi sources; the attachment is a fixed-seed pattern); written under
`.cache/qa-s16-hostile/hostile/`. Run:

    .venv/bin/python scripts/qa_hostile_s16.py [ID-PREFIX...]

Each command goes through the shared runner (scripts/qa_common.run_hostile): prlimit 512 MiB,
timeout 60, time and peak RSS, no traceback / raw control character / secret / temp file.
The workstation is driven on the same folders by scripts/qa_gui_hostile_s16.py.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO)]

SECRET = "qa-s16-evaluator-secret-5e1d"
SECRETS = [SECRET, "s16-db-password"]
MARK = "QA-S16-PRIVATE"
ENV: dict[str, dict[str, str]] = {}
SAMPLE = REPO / "resources" / "samples" / "community-sample"
OFFICIAL = REPO / "resources" / "samples" / "official-sample"
CACHE = REPO / ".cache" / "qa-s16-hostile"
EXPECT: dict[str, set[int]] = {}
MAX_LINE = 16 << 20


def _fresh(d: Path) -> Path:
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def _community(d: Path, video_name: str | None = None) -> Path:
    _fresh(d)
    shutil.copy(SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
    if video_name is None:
        shutil.copy(SAMPLE / "video.mp4", d / "video.mp4")
    return d


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _video_cases(root: Path) -> list[tuple[str, list]]:
    sys.path.insert(0, str(REPO / "tests" / "video"))
    from test_video_sample_tables import rewritten

    out = []
    for name, count, pad in (("v01_stsz_10m_1byte", 10_000_000, 0),
                             ("v02_stsz_1m_1byte", 1_000_000, 0),
                             ("v03_stsz_2m_in_file", 2_000_000, 2_000_000),
                             ("v04_stsz_4m_in_file", 4_000_000, 4_000_000)):
        d = _community(root / name, video_name="video.mp4")
        rewritten(d / "video.mp4", count, pad=pad)
        out.append((name, [["verify", d], ["verify", "--json", d]]))
    d = _community(root / "v05_mvhd_2e63", video_name="video.mp4")
    data = bytearray((SAMPLE / "video.mp4").read_bytes())
    i = data.index(b"mvhd")  # version 0: duration at +20 (32 bits): the largest it holds
    struct.pack_into(">II", data, i + 16, 1, 0xFFFFFFFF)  # timescale 1, 136 years
    (d / "video.mp4").write_bytes(bytes(data))
    out.append(("v05_mvhd_2e63", [["verify", d], ["verify", "--json", d]]))
    d = _community(root / "v06_subtitles_only", video_name="video.mkv")
    (d / "s.srt").write_text("1\n00:00:00,000 --> 00:00:05,000\n\x1b]0;PWN\x07 \u202e<b>x</b>\n")
    _ffmpeg("-i", str(d / "s.srt"), "-c:s", "srt", str(d / "video.mkv"))
    (d / "s.srt").unlink()
    out.append(("v06_subtitles_only", [["verify", d], ["verify", "--json", d]]))
    d = _community(root / "v07_attachment_100mb", video_name="video.mkv")
    blob = d.parent / "attachment.bin"
    with open(blob, "wb") as fh:
        for k in range(100):
            fh.write(bytes((k * 7 + j) & 0xFF for j in range(256)) * 4096)
    _ffmpeg("-i", str(SAMPLE / "video.mp4"), "-attach", str(blob), "-metadata:s:t",
            "mimetype=application/octet-stream", "-c", "copy", str(d / "video.mkv"))
    blob.unlink()
    out.append(("v07_attachment_100mb", [["verify", d]]))
    d = _community(root / "v08_ts_40x1080p", video_name="video.ts")
    maps = [a for _ in range(40) for a in ("-map", "0:v")]
    _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=2", *maps,
            "-c:v", "libx264", "-preset", "ultrafast", "-crf", "40", "-f", "mpegts",
            str(d / "video.ts"))
    out.append(("v08_ts_40x1080p", [["verify", d], ["verify", "--json", "--scan", d]]))
    return out


def _chain_cases(root: Path) -> list[tuple[str, list]]:
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    def seqs(start: int, step: int, wrap: int):
        def apply(events):
            k: dict[str, int] = {}
            for e in events:
                n = k.get(e["producer"], 0)
                k[e["producer"]] = n + 1
                v = start + step * n
                e["producer_sequence"] = v - (1 << 64) if v >= wrap else v
        return apply

    out = []
    # steps of 2048: every value is exactly a double (an inexact one is refused on its own)
    for name, fix in (("t01_seq_wraps_2e63", seqs((1 << 63) - 4096, 2048, 1 << 63)),
                      ("t02_seq_wraps_2e64", seqs((1 << 64) - 4096, 2048, 1 << 64)),
                      ("t03_seq_near_2e53", seqs((1 << 53) - 100, 1, 1 << 64))):
        d = _fresh(root / name)
        events = make_run_events(40, seed=5)
        fix(events)
        write_trajectory(d / "events.jsonl.zst", events)
        shutil.copy(OFFICIAL / "video.mp4", d / "video.mp4")
        out.append((name, [["verify", d], ["verify", "--json", d]]))
    return out


def _line_cases(root: Path) -> list[tuple[str, list]]:
    import orjson

    lines = (SAMPLE / "agent-log.jsonl").read_bytes().splitlines()
    req = next(orjson.loads(raw) for raw in lines if b"model_request" in raw)
    out = []
    for name, n, size in (("l01_six_lines_under_cap", 6, MAX_LINE - 1),
                          ("l02_one_line_at_cap", 1, MAX_LINE),
                          ("l03_one_100mb_line", 1, 100 << 20)):
        d = _community(root / name)
        r = dict(req, data={"messages": [], "prompt": ""})
        r["data"]["prompt"] = "A" * (size - len(orjson.dumps(r)))
        big = orjson.dumps(r)
        with open(d / "agent-log.jsonl", "wb") as fh:
            fh.write(lines[0] + b"\n" + (big + b"\n") * n + b"\n".join(lines[1:]) + b"\n")
        out.append((name, [["verify", d], ["verify", "--json", d],
                           ["withhold", d / "agent-log.jsonl", "-o", d.parent / f"{name}.pub"],
                           ["decide", d, "--reject", "--reason", "other", "--note", "x",
                            "--reviewer", "qa"]]))
    return out


def _queue_cases(root: Path) -> list[tuple[str, list]]:
    d = _fresh(root / "q01_10000_submissions")
    for i in range(10_000):
        s = d / f"s{i:05d}"
        s.mkdir()
        if i % 2:
            os.link(SAMPLE / "agent-log.jsonl", s / "agent-log.jsonl")
    os.symlink(".", d / "loop")
    os.symlink("b", d / "a")
    os.symlink("a", d / "b")
    os.symlink(d, d / "s00000" / "up")
    cache = root / "q01.cache"
    cache.unlink(missing_ok=True)
    return [("q01_10000_submissions", [["queue", d, "--cache", cache],
                                       ["queue", "--json", d, "--cache", cache]])]


def cases(root: Path) -> list[tuple[str, list]]:
    built = CACHE / "built.json"
    if not built.exists():
        root.mkdir(parents=True, exist_ok=True)
        every = [*_video_cases(root), *_chain_cases(root), *_line_cases(root),
                 *_queue_cases(root)]
        built.write_text(json.dumps([(n, [[str(a) for a in c] for c in cmds])
                                     for n, cmds in every]))
    return [(n, cmds) for n, cmds in json.loads(built.read_text())]


def main(only: list[str]) -> int:
    from qa_common import run_hostile

    t0 = time.monotonic()
    results = run_hostile(sys.modules[__name__], CACHE, only)
    bad = 0
    for r in results:
        if r["problems"]:
            bad += 1
            print("PROBLEM", json.dumps(r), flush=True)
    worst_s = max((r["seconds"] or 0 for r in results), default=0)
    worst_mb = max((r["max_rss_kb"] or 0 for r in results), default=0) / 1024
    print(f"{len(results)} commands, {bad} with problems; slowest {worst_s:.1f} s, peak RSS "
          f"{worst_mb:.0f} MB; {time.monotonic() - t0:.0f} s in all", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
