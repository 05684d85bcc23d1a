"""Issue 15 classes of session 18's QA pass (docs/qa/session18.md), for the shared runner
(scripts/qa_common.run_hostile) and the window (qa_session16.gui_hostile). Bytes no earlier pass
used (grep of scripts/qa_hostile_s*.py and tests/hostile_corpus.py):

- h18_01: an animated GIF as the video, two pictures 30 s apart (a 3,000 cs GIF delay);
- h18_02: an MP4 whose edit list starts the picture 60 s in (an empty edit);
- h18_03: an FLV (H.264): 1 s of pictures, 28 s with none, 1 s;
- h18_04: the sample log in UTF-16LE with a BOM;
- h18_05: an observation holding 200,000 nested arrays;
- h18_06: a zip holding `agent-log.jsonl` twice (a/b: the passing log first/last, a log with an
  unanswered press the other);
- h18_07: a `seq` of 50,000 digits and an `elapsedMs` of 1e999;
- h18_08: the sample in a folder whose name holds OSC (ESC ] 0;), BEL and U+202E;
- h18_09: an MJPEG AVI whose headers claim 1/100,000 fps and 4,000 s per frame (this pass'
  phoenix-genuine@r15mjpeg, built by `qa_session18.py sync-build`), beside its own log.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import qa_hostile_s14 as qh

MARK = "QA-S18-PRIVATE"
SECRETS = ["qa18-evaluator-secret-4c7a"]
ENV: dict = {}


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(out)], check=True)


def _with_sample_log(d: Path) -> None:
    if not (d / "agent-log.jsonl").exists():
        os.link(qh.SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:
    def cmds(d: Path, name: str, log: Path | None = None) -> list[list[str]]:
        return [["verify", str(d)], ["verify", str(d), "--json", "--scan"],
                ["withhold", str(log or d / "agent-log.jsonl"), "-o", str(root / f"{name}.pub")],
                ["decide", str(d), "--reject", "--reason", "other", "--note",
                 "qa18 hostile", "--offset", "0"],
                ["frame", str(d), "--line", "5", "--offset", "0", "-o",
                 str(root / f"{name}.png")],
                ["decisions", "verify"]]

    out = []
    root.mkdir(parents=True, exist_ok=True)

    def add(name: str, d: Path, log: Path | None = None) -> None:
        ENV[name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
        out.append((name, cmds(d, name[:6], log)))

    d = root / "h18_01_gif_two_pictures_30s"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=1/30:duration=60", "-frames:v",
             "2", "-f", "gif"], d / "video.gif")
    _with_sample_log(d)
    add(d.name, d)

    d = root / "h18_02_mp4_edit_list_60s"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-itsoffset", "60", "-i", str(qh.SAMPLE / "video.mp4"), "-c", "copy",
             "-movflags", "+faststart"], d / "video.mp4")
    _with_sample_log(d)
    add(d.name, d)

    d = root / "h18_03_flv_28s_gap"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=30", "-vf",
             "select='lt(n\\,30)+gte(n\\,870)'", "-fps_mode", "passthrough", "-c:v", "libx264",
             "-preset", "ultrafast", "-threads", "1", "-f", "flv"], d / "video.flv")
    _with_sample_log(d)
    add(d.name, d)

    text = (qh.SAMPLE / "agent-log.jsonl").read_bytes().decode()
    d = qh._folder(root, "h18_04_utf16_bom_log", text.encode("utf-16"))
    add(d.name, d)

    evs = qh._lines()
    lines = qh._dump(evs).splitlines()
    at = next(i for i, e in enumerate(evs) if e["type"] == "observation") \
        if any(e["type"] == "observation" for e in evs) else 2
    e = dict(evs[at])
    e["data"] = "@NEST@"
    nest = b"[" * 200_000 + b"]" * 200_000
    lines[at] = json.dumps(e, separators=(",", ":")).encode().replace(b'"@NEST@"', nest)
    d = qh._folder(root, "h18_05_deep_nesting", b"\n".join(lines) + b"\n")
    add(d.name, d)

    good = (qh.SAMPLE / "agent-log.jsonl").read_bytes()
    bad = qh._dump(qh._ghost_after(qh._lines(), 6))
    for tag, first, last in (("a_good_first", good, bad), ("b_good_last", bad, good)):
        d = root / f"h18_06{tag}_zip_duplicate_member"
        d.mkdir(exist_ok=True)
        z = d / "submission.zip"
        if not z.exists():
            import warnings

            with warnings.catch_warnings(), zipfile.ZipFile(z, "w") as zf:
                warnings.simplefilter("ignore")
                zf.writestr("agent-log.jsonl", first)
                zf.writestr("agent-log.jsonl", last)
                zf.write(qh.SAMPLE / "video.mp4", "video.mp4")
        ENV[d.name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
        out.append((d.name, [["verify", str(z)], ["verify", str(z), "--json", "--scan"],
                             ["decide", str(z), "--accept", "--offset", "0"],
                             ["decisions", "verify"]]))

    lines = qh._dump(qh._lines()).splitlines()
    lines[3] = lines[3].replace(b'"seq":3', b'"seq":' + b"7" * 50_000, 1)
    e = json.loads(lines[4])
    lines[4] = lines[4].replace(f'"elapsedMs":{e["elapsedMs"]}'.encode(), b'"elapsedMs":1e999',
                                1)
    d = qh._folder(root, "h18_07_huge_int_seq", b"\n".join(lines) + b"\n")
    add(d.name, d)

    d = root / "h18_08_osc_\x1b]0;pwned\x07_bel_\u202eevil"
    if not d.exists():
        shutil.copytree(qh.SAMPLE, d, copy_function=os.link)
    add("h18_08_ctrl_in_folder_name", d)

    src = root.parent / "sync" / "phoenix-genuine@r15mjpeg"
    if (src / "video.avi").exists():
        import struct

        d = root / "h18_09_avi_rate_1e-5"
        d.mkdir(exist_ok=True)
        if not (d / "video.avi").exists():
            b = bytearray((src / "video.avi").read_bytes())
            i, j = b.find(b"avih"), b.find(b"strh")
            struct.pack_into("<I", b, i + 8, 4_000_000_000)  # microseconds per frame
            struct.pack_into("<II", b, j + 8 + 20, 100_000, 1)  # the video's scale, rate
            (d / "video.avi").write_bytes(bytes(b))
            os.link(src / "agent-log.jsonl", d / "agent-log.jsonl")
        add(d.name, d)
    return out
