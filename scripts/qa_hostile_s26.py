"""Issue 15 classes of session 26's QA pass (docs/qa/session26.md), for the shared runner
(scripts/qa_common.run_hostile). Classes no earlier pass used (grep of scripts/qa_hostile_s*.py,
scripts/hostile_sweep_s*.py and tests/hostile_corpus.py: no ZMBV, MS-MPEG4 v3, APNG, IVF,
M2TS, Snow, per-line BOMs, UTF-16 surrogate escapes in key names):

- h26_01: ZMBV (DOSBox's capture codec, zlib-compressed palette blocks) + PCM in AVI;
- h26_02: MS-MPEG4 v3 ("DivX ;-)") + MP3 in AVI;
- h26_03: an animated PNG (`video.apng`) as the recording;
- h26_04: AV1 (rav1e) in a bare IVF stream (`video.ivf`);
- h26_05: H.264 + AC-3 in a Blu-ray M2TS (192-byte packets with timecodes, `video.m2ts`);
- h26_06: Snow (the experimental wavelet codec) in Matroska;
- h26_07: the sample's log with a UTF-8 BOM at the start of every line (files written by a
  Windows tool concatenated): also through `withhold`;
- h26_08: the sample's log with each event's `data` keys spelled with \\uXXXX escapes, a lone
  surrogate (`\\ud800`) in one key and an escaped NUL (`\\u0000`) in another: also through
  `withhold`.
Deterministic (ffmpeg from the bundled sample, fixed settings, one thread); written under
`.cache/qa-s26/hostile/`. Each command: `verify`, `verify --json --scan`, `frame --time 5`
(or `withhold` for the log classes), `decide --reject other` (under prlimit 512 MiB, timeout
60 s, no traceback / raw control character / secret).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import qa_hostile_s14 as qh
import qa_hostile_s20 as h20

MARK = "QA-S26-PRIVATE"
SECRETS = ["qa26-evaluator-secret-7d02"]
ENV: dict = {}


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        part = out.with_name(out.name + ".part" + out.suffix)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(part)], check=True)
        part.rename(out)


def _escape_keys(obj):
    """Every key of `obj` (recursively) marked for \\uXXXX spelling (see _spell_keys)."""
    if isinstance(obj, dict):
        return {f"\x01{k}": _escape_keys(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_escape_keys(v) for v in obj]
    return obj


def _spell_keys(line: str) -> str:
    """The marked keys' characters written as \\uXXXX escapes (valid JSON; the same keys)."""
    out, i = [], 0
    while i < len(line):
        if line.startswith('"\\u0001', i):
            j = line.index('"', i + 7)
            key = json.loads('"' + line[i + 7:j] + '"')
            units = key.encode("utf-16-le", "surrogatepass")
            out.append('"' + "".join(f"\\u{int.from_bytes(units[k:k + 2], 'little'):04x}"
                                     for k in range(0, len(units), 2)) + '"')
            i = j + 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


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
                              "qa26 hostile", "--offset", "0"]]))

    def video(name: str, args: list[str], file: str) -> None:
        d = root / name
        d.mkdir(exist_ok=True)
        _ffmpeg(["-i", sample, *args], d / file)
        add(d)

    video("h26_01_avi_zmbv", ["-vf", "format=pal8", "-c:v", "zmbv", "-g", "30", "-c:a",
                              "pcm_s16le", "-ar", "22050", "-ac", "1", "-f", "avi"], "video.avi")
    video("h26_02_avi_msmpeg4v3", ["-c:v", "msmpeg4", "-q:v", "5", "-g", "30", "-threads", "1",
                                   "-c:a", "libmp3lame", "-b:a", "96k", "-f", "avi"],
          "video.avi")
    video("h26_03_apng", ["-an", "-vf", "fps=10,scale=160:-2", "-c:v", "apng", "-plays", "0",
                          "-f", "apng"], "video.apng")
    video("h26_04_ivf_av1", ["-an", "-vf", "scale=320:-2", "-c:v", "librav1e", "-speed", "10",
                             "-qp", "120", "-g", "30", "-rav1e-params", "threads=1",
                             "-f", "ivf"], "video.ivf")
    video("h26_05_m2ts_h264_ac3", ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
                                   "-bf", "2", "-threads", "1", "-c:a", "ac3", "-b:a", "192k",
                                   "-mpegts_m2ts_mode", "1", "-f", "mpegts"], "video.m2ts")
    video("h26_06_mkv_snow", ["-an", "-c:v", "snow", "-q:v", "4", "-g", "30", "-threads", "1",
                              "-f", "matroska"], "video.mkv")

    lines = (qh.SAMPLE / "agent-log.jsonl").read_text(encoding="utf-8").splitlines()
    d = root / "h26_07_log_bom_every_line"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        log.write_text("".join("\ufeff" + x + "\r\n" for x in lines), encoding="utf-8")
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)

    d = root / "h26_08_log_escaped_keys_surrogate"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        new = []
        for i, x in enumerate(lines):
            row = json.loads(x)
            if isinstance(row.get("data"), dict):
                data = _escape_keys(row["data"])
                if i == 3:
                    data["\x01qa26\ud800lone"] = "qa26"
                    data["\x01nul\x00key"] = "v"
                row["data"] = data
                x = _spell_keys(json.dumps(row, ensure_ascii=True))
            new.append(x)
        log.write_text("\n".join(new) + "\n", encoding="utf-8")
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)
    return out
