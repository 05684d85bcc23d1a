"""Issue 15 classes of session 23's QA pass (docs/qa/session23.md), for the shared runner
(scripts/qa_common.run_hostile). Bytes no earlier pass used (grep of scripts/qa_hostile_s*.py
and tests/hostile_corpus.py: no display rotation, 4:4:4 10-bit, interlacing, alpha, chapters,
sample aspect ratio):

- h23_01: the sample's video in MP4 with a display matrix rotating it 90 degrees;
- h23_02: the sample's video as H.264 High 4:4:4 Predictive, 10-bit (yuv444p10le), MKV;
- h23_03: the sample's video as interlaced H.264 (field-coded, top field first), MP4;
- h23_04: the sample's video as VP9 with an alpha plane (yuva420p), WebM;
- h23_05: the sample's video in MKV with 5,000 chapters whose titles hold ESC[2J and U+202E;
- h23_06: the sample's video as H.264 with a sample aspect ratio of 200:1 (a display 64,000 px
  wide).
Deterministic (ffmpeg from the bundled sample, fixed settings, one thread); written under
`.cache/qa-s23/hostile/`. Each command: `verify`, `verify --json --scan`, `frame --time 5`,
`decide --reject other` (under prlimit 512 MiB, timeout 60 s, no traceback / raw control
character / secret).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import qa_hostile_s14 as qh
import qa_hostile_s20 as h20

MARK = "QA-S23-PRIVATE"
SECRETS = ["qa23-evaluator-secret-4c2a"]
ENV: dict = {}
ESC = "\x1b[2J\u202eqa23"


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        part = out.with_name(out.name + ".part")
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(part)], check=True)
        part.rename(out)


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:
    root.mkdir(parents=True, exist_ok=True)
    sample = str(qh.SAMPLE / "video.mp4")
    out = []

    def add(d: Path) -> None:
        h20._with_sample_log(d)
        ENV[d.name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
        out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json", "--scan"],
                             ["frame", str(d), "--time", "5", "--offset", "0", "-o",
                              str(root / f"{d.name[:6]}.png")],
                             ["decide", str(d), "--reject", "--reason", "other", "--note",
                              "qa23 hostile", "--offset", "0"]]))

    enc = ["-threads", "1", "-g", "30"]
    d = root / "h23_01_mp4_rotated_90"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-c", "copy", "-metadata:s:v:0", "rotate=90", "-f", "mp4"],
            d / "video.mp4")
    add(d)

    d = root / "h23_02_h264_444_10bit_mkv"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt",
             "yuv444p10le", *enc, "-f", "matroska"], d / "video.mkv")
    add(d)

    d = root / "h23_03_h264_interlaced_mp4"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-vf", "scale=320:240,setfield=tff", "-c:v", "libx264",
             "-preset", "veryfast", "-flags", "+ildct+ilme", "-x264-params", "tff=1",
             "-pix_fmt", "yuv420p", *enc, "-f", "mp4"], d / "video.mp4")
    add(d)

    d = root / "h23_04_vp9_alpha_webm"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-vf", "format=yuva420p,geq=lum='lum(X,Y)':cb='cb(X,Y)':"
             "cr='cr(X,Y)':a='if(lt(X,160),255,64)'", "-c:v", "libvpx-vp9", "-deadline",
             "realtime", "-cpu-used", "8", "-b:v", "400k", "-pix_fmt", "yuva420p", *enc,
             "-f", "webm"], d / "video.webm")
    add(d)

    d = root / "h23_05_mkv_5000_chapters"
    d.mkdir(exist_ok=True)
    meta = root / "chapters5000.txt"
    if not meta.exists():
        lines = [";FFMETADATA1"]
        for i in range(5000):
            lines += ["[CHAPTER]", "TIMEBASE=1/1000", f"START={i * 5}", f"END={i * 5 + 5}",
                      f"title=ch{i} {ESC}".replace("=", "\\=", 0)]
        meta.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _ffmpeg(["-i", sample, "-i", str(meta), "-map", "0", "-map_chapters", "1", "-c", "copy",
             "-f", "matroska"], d / "video.mkv")
    add(d)

    d = root / "h23_06_h264_sar_200_1"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-vf", "setsar=200/1", "-c:v", "libx264", "-preset",
             "veryfast", "-pix_fmt", "yuv420p", *enc, "-f", "mp4"], d / "video.mp4")
    add(d)
    return out
