"""Issue 15 classes of session 20's QA pass (docs/qa/session20.md), for the shared runner
(scripts/qa_common.run_hostile) and the window (qa_session16.gui_hostile). Bytes no earlier pass
used (grep of scripts/qa_hostile_s*.py and tests/hostile_corpus.py):

- h20_01: the sample's video as an MP4 holding 200 copies of its video track;
- h20_02: the sample's video as MKV whose title, stream title and handler hold ESC[2J, OSC 52,
  BEL, C1 CSI (U+009B) and a bidi override;
- h20_03: `video.mp4` holding the agent log's own bytes;
- h20_04: the log is `{}` x 2,000,000 lines;
- h20_05: the sample's video remuxed to MKV and written twice end to end (two EBML segments);
- h20_06: an MKV whose first segment is 2 s of black and whose second is the honest footage;
- h20_07: a 3-decision ledger whose head file is rewritten as BOM + `SEQ HASH` + CRLF;
- h20_08: a 4-decision ledger with record 2 deleted and 3-4 renumbered (seq and head fixed).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import qa_hostile_s14 as qh

MARK = "QA-S20-PRIVATE"
SECRETS = ["qa20-evaluator-secret-5b1e"]
ENV: dict = {}
REPO = Path(__file__).resolve().parents[1]
CLI = [str(REPO / ".venv" / "bin" / "python"), "-m", "moderator_app"]
ESC_TITLE = "\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202egnp.exe qa20"


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(out)], check=True)


def _with_sample_log(d: Path) -> None:
    if not (d / "agent-log.jsonl").exists():
        os.link(qh.SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")


def _ledger(root: Path, name: str, n: int) -> Path:
    """A fresh SQLite ledger of `n` decisions on the sample, made by `moderator-app decide`."""
    store = root / f"{name}.store.sqlite3"
    if store.exists():
        return store
    env = {**os.environ, "MODERATOR_APP_STORE": str(store)}
    for i in range(n):
        subprocess.run([*CLI, "decide", str(qh.SAMPLE), "--reject", "--reason", "other",
                        "--note", f"qa20 ledger {i + 1}", "--offset", "0"], env=env,
                       capture_output=True, check=False)
    return store


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: PLR0915 - one table
    def cmds(d: Path, name: str) -> list[list[str]]:
        return [["verify", str(d)], ["verify", str(d), "--json", "--scan"],
                ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{name}.pub")],
                ["decide", str(d), "--reject", "--reason", "other", "--note",
                 "qa20 hostile", "--offset", "0"],
                ["decisions", "verify"]]

    out = []
    root.mkdir(parents=True, exist_ok=True)
    sample = qh.SAMPLE / "video.mp4"

    def add(name: str, d: Path) -> None:
        ENV[name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
        out.append((name, cmds(d, name[:6])))

    d = root / "h20_01_mp4_200_video_tracks"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", str(sample), *sum([["-map", "0:v"] for _ in range(200)], []), "-c", "copy",
             "-f", "mp4"], d / "video.mp4")
    _with_sample_log(d)
    add(d.name, d)

    d = root / "h20_02_mkv_metadata_escapes"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-i", str(sample), "-map", "0", "-c", "copy", "-metadata", f"title={ESC_TITLE}",
             "-metadata:s:v:0", f"title={ESC_TITLE}", "-metadata:s:v:0",
             f"handler_name={ESC_TITLE}", "-metadata", f"comment={ESC_TITLE}",
             "-f", "matroska"], d / "video.mkv")
    _with_sample_log(d)
    add(d.name, d)

    d = root / "h20_03_video_is_the_log"
    d.mkdir(exist_ok=True)
    if not (d / "video.mp4").exists():
        (d / "video.mp4").write_bytes((qh.SAMPLE / "agent-log.jsonl").read_bytes())
    _with_sample_log(d)
    add(d.name, d)

    d = qh._folder(root, "h20_04_log_2m_empty_objects", None)
    if not (d / "agent-log.jsonl").exists():
        (d / "agent-log.jsonl").write_bytes(b"{}\n" * 2_000_000)
    add(d.name, d)

    d = root / "h20_05_mkv_two_segments"
    d.mkdir(exist_ok=True)
    one = root / "sample.mkv"
    _ffmpeg(["-i", str(sample), "-map", "0", "-c", "copy", "-f", "matroska"], one)
    if not (d / "video.mkv").exists():
        (d / "video.mkv").write_bytes(one.read_bytes() * 2)
    _with_sample_log(d)
    add(d.name, d)

    d = root / "h20_06_mkv_second_segment_forged"
    d.mkdir(exist_ok=True)
    black = root / "black2s.mkv"
    _ffmpeg(["-f", "lavfi", "-i", "color=black:size=320x240:rate=30:duration=2", "-c:v",
             "mpeg4", "-f", "matroska"], black)
    if not (d / "video.mkv").exists():
        (d / "video.mkv").write_bytes(black.read_bytes() + one.read_bytes())
    _with_sample_log(d)
    add(d.name, d)

    # ledgers: the runner's store for a case is root/<case>.store.sqlite3
    name = "h20_07_ledger_head_bom_crlf"
    store = _ledger(root, name, 3)
    head = Path(str(store) + ".head")
    if head.exists() and not head.read_bytes().startswith(b"\xef\xbb\xbf"):
        head.write_bytes(b"\xef\xbb\xbf" + head.read_bytes().strip() + b"\r\n")
    ENV[name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
    out.append((name, [["decisions", "verify"], ["decisions", "list"],
                       ["decide", str(qh.SAMPLE), "--reject", "--reason", "other", "--note",
                        "qa20 after bom", "--offset", "0"], ["decisions", "verify"]]))

    name = "h20_08_ledger_deleted_renumbered"
    store = _ledger(root, name, 4)
    con = sqlite3.connect(store)
    if con.execute("SELECT count(*) FROM decisions").fetchone()[0] == 4:
        with con:
            con.execute("DELETE FROM decisions WHERE seq = 2")
            con.execute("UPDATE decisions SET seq = seq - 1 WHERE seq > 2")
        last = con.execute("SELECT seq, hash FROM decisions ORDER BY seq DESC").fetchone()
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        Path(str(store) + ".head").write_text(f"{last[0]} {last[1]}\n")
    con.close()
    ENV[name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
    out.append((name, [["decisions", "verify"], ["decisions", "list"],
                       ["decide", str(qh.SAMPLE), "--reject", "--reason", "other", "--note",
                        "qa20 after delete", "--offset", "0"], ["decisions", "verify"]]))
    return out


def _output_size(root: Path) -> dict:
    """h20_04: the size of `verify`'s and `verify --json`'s output (must stay bounded)."""
    d = root / "h20_04_log_2m_empty_objects"
    sizes = {}
    for extra in ([], ["--json"]):
        r = subprocess.run([*CLI, "verify", str(d), *extra], capture_output=True)
        sizes[" ".join(["verify", *extra])] = (r.returncode, len(r.stdout), len(r.stderr))
    return {"case": "h20_04_output_size", "sizes(exit,stdout,stderr)": sizes,
            "met": all(o + e < (1 << 20) for _, o, e in sizes.values())}


POST_CHECKS = (_output_size,)

if __name__ == "__main__":
    print(json.dumps(cases(Path(sys.argv[1]))))
