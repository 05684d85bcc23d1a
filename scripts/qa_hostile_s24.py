"""Issue 15 classes of session 24's QA pass (docs/qa/session24.md), for the shared runner
(scripts/qa_common.run_hostile). Classes no earlier pass used (grep of scripts/qa_hostile_s*.py
and tests/hostile_corpus.py: no subtitle events, QuickTime Animation, timecode track, FFV1,
ASF/WMV, H.263, timestamps past 10^8 s, CR-only log lines):

- h24_01: the sample's video in MKV with an ASS subtitle track of 20,000 events whose text
  holds ESC[2J, BEL and U+202E;
- h24_02: QuickTime Animation (qtrle, RGB 24) in MOV with a timecode (tmcd) track at
  23:59:59:00;
- h24_03: FFV1 (level 3, 4 slices) in MKV with 48 audio streams;
- h24_04: WMV 8 (wmv2) + WMA 2 in ASF (`video.wmv`);
- h24_05: H.264 in MP4 whose timestamps start at 100,000,000 s (-output_ts_offset 1e8);
- h24_06: H.263 352x288 in AVI;
- h24_07: the sample's log with CR-only line ends (no LF anywhere) and an event holding a
  1 MB string of U+2028 / U+2029 (also through `withhold`).
Deterministic (ffmpeg from the bundled sample, fixed settings, one thread); written under
`.cache/qa-s24/hostile/`. Each command: `verify`, `verify --json --scan`, `frame --time 5`
(or `withhold` for the log class), `decide --reject other` (under prlimit 512 MiB, timeout
60 s, no traceback / raw control character / secret).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import qa_hostile_s14 as qh
import qa_hostile_s20 as h20

MARK = "QA-S24-PRIVATE"
SECRETS = ["qa24-evaluator-secret-7d1e"]
ENV: dict = {}
ESC = "\x1b[2J\x07\u202eqa24"


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        part = out.with_name(out.name + ".part")
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(part)], check=True)
        part.rename(out)


def _ass(path: Path, n: int) -> None:
    if path.exists():
        return
    head = ("[Script Info]\nScriptType: v4.00+\nPlayResX: 320\nPlayResY: 180\n\n[V4+ Styles]\n"
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
            "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
            "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
            "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,"
            "100,0,0,1,1,0,2,10,10,10,1\n\n[Events]\nFormat: Layer, Start, End, Style, Name, "
            "MarginL, MarginR, MarginV, Effect, Text\n")
    lines = []
    for i in range(n):
        cs = i % 6000  # centiseconds: events stacked over the first 60 s
        t0 = f"0:{cs // 6000:02d}:{(cs // 100) % 60:02d}.{cs % 100:02d}"
        t1 = f"0:{(cs + 50) // 6000:02d}:{((cs + 50) // 100) % 60:02d}.{(cs + 50) % 100:02d}"
        lines.append(f"Dialogue: 0,{t0},{t1},Default,,0,0,0,,ev{i} {ESC}")
    path.write_text(head + "\n".join(lines) + "\n", encoding="utf-8")


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    sample = str(qh.SAMPLE / "video.mp4")
    out = []

    def add(d: Path, log_class: bool = False) -> None:
        h20._with_sample_log(d)
        ENV[d.name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
        third = (["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{d.name[:6]}.pub")]
                 if log_class else
                 ["frame", str(d), "--time", "5", "--offset", "0", "-o",
                  str(root / f"{d.name[:6]}.png")])
        out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json", "--scan"], third,
                             ["decide", str(d), "--reject", "--reason", "other", "--note",
                              "qa24 hostile", "--offset", "0"]]))

    enc = ["-threads", "1", "-g", "30"]
    d = root / "h24_01_mkv_ass_20000_events"
    d.mkdir(exist_ok=True)
    ass = root / "events20000.ass"
    _ass(ass, 20_000)
    _ffmpeg(["-i", sample, "-i", str(ass), "-map", "0", "-map", "1", "-c", "copy", "-c:s", "ass",
             "-f", "matroska"], d / "video.mkv")
    add(d)

    d = root / "h24_02_mov_qtrle_timecode"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-c:v", "qtrle", "-pix_fmt", "rgb24", "-timecode",
             "23:59:59:00", *enc, "-f", "mov"], d / "video.mov")
    add(d)

    d = root / "h24_03_mkv_ffv1_48_audio"
    d.mkdir(exist_ok=True)
    maps = []
    for _ in range(48):
        maps += ["-map", "1:a"]
    _ffmpeg(["-i", sample, "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-map", "0:v",
             *maps, "-shortest", "-c:v", "ffv1", "-level", "3", "-slices", "4", "-c:a",
             "pcm_s16le", *enc, "-f", "matroska"], d / "video.mkv")
    add(d)

    d = root / "h24_04_wmv_asf"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-c:v", "wmv2", "-b:v", "600k", "-c:a", "wmav2", "-ar", "44100",
             *enc, "-f", "asf"], d / "video.wmv")
    add(d)

    d = root / "h24_05_mp4_pts_from_1e8_s"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt",
             "yuv420p", *enc, "-output_ts_offset", "100000000", "-f", "mp4"], d / "video.mp4")
    add(d)

    d = root / "h24_06_h263_avi"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-vf", "scale=352:288", "-c:v", "h263", "-q:v", "5", *enc,
             "-f", "avi"], d / "video.avi")
    add(d)

    d = root / "h24_07_log_cr_only_u2028"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        rows = [json.loads(x) for x in (qh.SAMPLE / "agent-log.jsonl").read_bytes().splitlines()]
        big = ("\u2028\u2029" * 262_144) + "qa24-end"
        for r in rows:
            if r.get("type") == "model_request":
                r["data"]["messages"].append({"role": "user", "content": big})
                break
        log.write_bytes(b"\r".join(json.dumps(r, ensure_ascii=False).encode() for r in rows)
                        + b"\r")
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)
    return out
