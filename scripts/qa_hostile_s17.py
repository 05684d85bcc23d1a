"""Issue 15 classes of session 17's QA pass (docs/qa/session17.md), for the shared runner
(scripts/qa_common.run_hostile) and the window (qa_session16.gui_hostile):

- h17_01: terminal sequences no earlier pass used in a log's text fields: DCS (`ESC P`), APC
  (`ESC _`), the alternate screen (`CSI ?1049h`), C1 DCS/OSC (U+0090, U+009D), a bidi override
  (U+202E) and a Unicode line separator, in an observation and a model response's text;
- h17_02: a ProRes 422 MOV (index at the front) cut to 10 % of its bytes: the index promises
  1,286 frames, the data holds ~130 (a recorder killed mid-write, or a crafted claim);
- h17_03: a Matroska whose frame timestamps jump 10^6 s ahead after 2 s and come back (a
  crafted "100,000 s" recording holding 2 s of pictures at each end), beside the sample log.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import qa_hostile_s14 as qh

MARK = "QA-S17-PRIVATE"
SECRETS = ["qa17-evaluator-secret-9b1e"]
ENV: dict = {}
PRORES = Path(__file__).resolve().parents[1] / ".cache" / "qa-s17" / "sync" / \
    "othello-genuine@r2997prores" / "video.mov"


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:
    def cmds(d: Path, name: str) -> list[list[str]]:
        return [["verify", str(d)], ["verify", str(d), "--json", "--scan"],
                ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{name}.pub")],
                ["decide", str(d), "--reject", "--reason", "other", "--note",
                 "qa17 hostile", "--offset", "0"],
                ["frame", str(d), "--line", "5", "--offset", "0", "-o",
                 str(root / f"{name}.png")],
                ["decisions", "verify"]]

    out = []
    evs = [dict(e) for e in qh._lines()]
    nasty = ("a\x1bPq#0;2;0;0;0\x1b\\b \x1b_apc-payload\x1b\\ \x1b[?1049h\x1b[2J "
             "\x90dcs\x9c \x9d0;title\x9c \u202emoc.live\u202c \u2028 end")
    for e in evs:
        if e["type"] == "observation":
            e["data"] = {**e["data"], "text": nasty}
        if e["type"] == "model_response" and isinstance(e.get("data"), dict):
            e["data"] = {**e["data"], "text": nasty}
    d = qh._folder(root, "h17_01_dcs_apc_c1", qh._dump(evs))
    ENV["h17_01_dcs_apc_c1"] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
    out.append(("h17_01_dcs_apc_c1", cmds(d, "h17_01")))

    d = root / "h17_02_prores_cut_10pct"
    d.mkdir(parents=True, exist_ok=True)
    v = d / "video.mov"
    if not v.exists():
        full = d / "full.mov"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(PRORES), "-c", "copy",
                        "-movflags", "+faststart", str(full)], check=True)
        data = full.read_bytes()
        v.write_bytes(data[: len(data) // 10])
        full.unlink()
    if not (d / "agent-log.jsonl").exists():
        os.link(qh.SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
    ENV["h17_02_prores_cut_10pct"] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
    out.append(("h17_02_prores_cut_10pct", cmds(d, "h17_02")))

    d = root / "h17_03_mkv_pts_jump"
    d.mkdir(parents=True, exist_ok=True)
    v = d / "video.mkv"
    if not v.exists():
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=size=320x240:rate=30:duration=4", "-vf",
                        "setpts=if(between(N\\,60\\,89)\\,PTS+1000000/TB\\,PTS)",
                        "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "ultrafast",
                        "-threads", "1", str(v)], check=True)
    if not (d / "agent-log.jsonl").exists():
        os.link(qh.SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
    ENV["h17_03_mkv_pts_jump"] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
    out.append(("h17_03_mkv_pts_jump", cmds(d, "h17_03")))
    return out
