"""Issue 15 classes of session 25's QA pass (docs/qa/session25.md), for the shared runner
(scripts/qa_common.run_hostile). Classes no earlier pass used (grep of scripts/qa_hostile_s*.py
and tests/hostile_corpus.py: no Theora/Ogg, DNxHR/MXF, Cinepak, Sorenson Spark/FLV, DV, Ut
Video, exponent-spelled log times):

- h25_01: Theora + Vorbis in Ogg (`video.ogv`);
- h25_02: DNxHR LB 1280x720 in MXF (OP1a, `video.mxf`);
- h25_03: Cinepak in AVI;
- h25_04: Sorenson Spark (flv1) + Nellymoser in FLV;
- h25_05: DV (PAL 720x576, dvvideo) in a raw `.dv` stream;
- h25_06: Ut Video (4:4:4, 10,000 x 8 picture: a strip) in MKV;
- h25_07: the sample's log with every `elapsedMs` spelled with an exponent or a fraction
  (`1.2e4`, `12000.0`, `-0.0` for the first) and `NaN` / `Infinity` tokens in a payload (not
  JSON); also through `withhold`;
- h25_08: the same exponent / fraction spelling of every `elapsedMs` without the non-JSON
  tokens (valid JSON: the times' values unchanged).
Deterministic (ffmpeg from the bundled sample, fixed settings, one thread); written under
`.cache/qa-s25/hostile/`. Each command: `verify`, `verify --json --scan`, `frame --time 5`
(or `withhold` for the log class), `decide --reject other` (under prlimit 512 MiB, timeout
60 s, no traceback / raw control character / secret).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import qa_hostile_s14 as qh
import qa_hostile_s20 as h20

MARK = "QA-S25-PRIVATE"
SECRETS = ["qa25-evaluator-secret-41c9"]
ENV: dict = {}


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        part = out.with_name(out.name + ".part" + out.suffix)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(part)], check=True)
        part.rename(out)


def _spell(m: re.Match) -> str:
    n = int(m.group(1))
    if n == 0:
        return '"elapsedMs":-0.0'
    return f'"elapsedMs":{n / 1000:.6g}e3' if n % 3 else f'"elapsedMs":{n}.0'


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:
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
                              "qa25 hostile", "--offset", "0"]]))

    enc = ["-threads", "1", "-g", "30"]
    d = root / "h25_01_ogv_theora_vorbis"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-c:v", "libtheora", "-q:v", "6", "-c:a", "libvorbis", *enc,
             "-f", "ogg"], d / "video.ogv")
    add(d)

    d = root / "h25_02_mxf_dnxhr_720p"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-vf", "scale=1280:720,fps=25", "-c:v", "dnxhd", "-profile:v",
             "dnxhr_lb", "-pix_fmt", "yuv422p", "-threads", "1", "-f", "mxf"], d / "video.mxf")
    add(d)

    d = root / "h25_03_avi_cinepak"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-c:v", "cinepak", "-threads", "1", "-f", "avi"],
            d / "video.avi")
    add(d)

    d = root / "h25_04_flv_sorenson_nellymoser"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-c:v", "flv", "-q:v", "5", "-c:a", "nellymoser", "-ar", "22050",
             "-ac", "1", *enc, "-f", "flv"], d / "video.flv")
    add(d)

    d = root / "h25_05_dv_pal"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-vf", "scale=720:576,fps=25,setsar=16/15", "-c:v", "dvvideo",
             "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-ar", "48000", "-ac", "2",
             "-threads", "1", "-f", "dv"], d / "video.dv")
    add(d)

    d = root / "h25_06_mkv_utvideo_10000x8"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", sample, "-an", "-vf", "scale=10000:8", "-c:v", "utvideo", "-pix_fmt",
             "yuv444p", "-threads", "1", "-f", "matroska"], d / "video.mkv")
    add(d)

    d = root / "h25_07_log_exponent_times_nan"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        lines = (qh.SAMPLE / "agent-log.jsonl").read_text(encoding="utf-8").splitlines()
        new = []
        for i, line in enumerate(lines):
            line = re.sub(r'"elapsedMs":\s*(\d+)', _spell, line)
            if i == 3:  # a payload with non-JSON number tokens
                row = json.loads(lines[i])
                row.setdefault("data", {})["qa25"] = "__NANS__"
                line = json.dumps(row).replace('"__NANS__"', "[NaN, Infinity, -Infinity, 1e999]")
                line = re.sub(r'"elapsedMs":\s*(\d+)', _spell, line)
            new.append(line)
        log.write_text("\n".join(new) + "\n", encoding="utf-8")
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)

    d = root / "h25_08_log_exponent_times"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        lines = (qh.SAMPLE / "agent-log.jsonl").read_text(encoding="utf-8").splitlines()
        log.write_text("\n".join(re.sub(r'"elapsedMs":\s*(\d+)', _spell, x) for x in lines)
                       + "\n", encoding="utf-8")
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)
    return out
