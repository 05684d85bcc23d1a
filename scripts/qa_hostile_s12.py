"""Issue 15 QA inputs of session 12 (docs/qa/session12.md): hostile classes that neither the
hostile corpus, sessions 9-11's QA nor s12-hostile's list had: other zip methods and flags, a
gzip header bomb, demuxers that name other files or the network (HLS, ffconcat, SDP), a log in
another encoding, duplicate keys, a ledger whose table is a view, a frame-count bomb and a FIFO
where the video should be. Deterministic (fixed bytes, seeds and mtimes); written under
`.cache/qa-s12/hostile/`. `cases(root)` returns (id, commands), a command being a CLI argument
list (run by scripts/qa_session12.py under prlimit and timeout); `POST_CHECKS` inspect what
the commands did beyond their output (files read outside the submission, sockets opened).
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import struct
import subprocess
import tarfile
import zipfile
import zlib
from pathlib import Path

import hostile_corpus as hc
from qa_hostile_s10 import _events, _ffmpeg, _write

MIB = 1 << 20
MARK = "QA-S12-PRIVATE"
SECRETS: list[str] = []
ENV: dict[str, dict[str, str]] = {}
REPO = Path(__file__).resolve().parents[1]
CLI = str(REPO / ".venv" / "bin" / "moderator-app")
SAMPLE = REPO / "resources" / "samples" / "community-sample"


def _outside_video(root: Path) -> Path:
    """A 30 s MPEG-TS video OUTSIDE every submission: if a report ever shows its 750 frames or
    30 s, the product read a file the submission only named."""
    p = root / "outside" / "secret.ts"
    if not p.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", "life=size=160x120:rate=25,trim=duration=30", "-c:v",
                "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-f", "mpegts", str(p))
    return p


def _ghost_dup_log() -> bytes:
    """A failing log (its first action names call c-ghost, which no response asked for) whose
    ghost line repeats "call": the ghost first, the real id after it."""
    ev = _events(16, 12)
    lines = []
    done = False
    for e in ev:
        line = json.dumps(e, separators=(",", ":"))
        if e["type"] == "action" and not done:
            real = e["data"]["call"]
            line = line.replace(f'"call":"{real}"', f'"call":"c-ghost","call":"{real}"', 1)
            done = True
        lines.append(line.encode())
    return b"\n".join(lines) + b"\n"


def _gzip_fname_bomb(tar_bytes: bytes, fname: int, comment: int) -> bytes:
    """A gzip member whose header carries an FNAME of `fname` bytes and an FCOMMENT of
    `comment` bytes (both legal, both unbounded in RFC 1952) before a valid deflate stream."""
    head = b"\x1f\x8b\x08" + bytes([0x08 | 0x10]) + struct.pack("<I", 1_780_000_000) + b"\x00\x03"
    co = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = co.compress(tar_bytes) + co.flush()
    tail = struct.pack("<II", zlib.crc32(tar_bytes), len(tar_bytes) & 0xFFFFFFFF)
    return head + b"A" * fname + b"\0" + b"C" * comment + b"\0" + body + tail


def _tar_of(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for name, data in members.items():
            hc._tar_add(tf, name, data)
    return buf.getvalue()


def _ledger_view(root: Path) -> Path:
    """A ledger of three decisions (accept, accept, reject last) whose `decisions` table was
    renamed and replaced by a VIEW that hides every reject (no trigger anywhere)."""
    d = root / "h08"
    db = d / "decisions.sqlite3"
    if db.exists():
        return db
    d.mkdir(parents=True, exist_ok=True)
    for args in (["--accept"], ["--accept", "--note", "second look"],
                 ["--reject", "--reason", "other", "--note", "splice at 0:12"]):
        subprocess.run([CLI, "decide", str(SAMPLE), *args, "--store", str(db)], check=True,
                       capture_output=True)
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE decisions RENAME TO decisions_all")
    con.execute("CREATE VIEW decisions AS SELECT * FROM decisions_all WHERE decision != 'reject'")
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return db


def _million_frames(root: Path) -> Path:
    """1,000,000 frames of 16x16 H.264 at 1000 fps (1000 s) in MKV: one 1,000-frame clip
    stream-copied 1,000 times (the packets are real; the file ~30 MB)."""
    d = root / "h09"
    p = d / "video.mkv"
    if p.exists():
        return d
    d.mkdir(parents=True, exist_ok=True)
    clip = root / "h09-clip.mkv"
    _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=16x16:rate=1000,trim=end_frame=1000", "-c:v",
            "libx264", "-preset", "ultrafast", "-g", "1000", "-pix_fmt", "yuv420p", str(clip))
    _ffmpeg("-stream_loop", "999", "-i", str(clip), "-c", "copy", str(p))
    clip.unlink()
    _write(d / "agent-log.jsonl", hc.valid_log_bytes(40, 9))
    return d


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[str(a) if not isinstance(a, bytes) else os.fsdecode(a) for a in c]
                           for c in cmds]))

    def both(p) -> tuple[list, list]:
        return ["verify", p], ["verify", p, "--json"]

    def dec(p, name: str) -> list:
        return ["decide", p, "--accept", "--store", root / f"{name}.decide.sqlite3"]

    # h01: a zip whose agent-log.jsonl is 3 GiB of zeros compressed with LZMA (method 14)
    p = root / "h01.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            zi = zipfile.ZipInfo("agent-log.jsonl", (2026, 5, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_LZMA
            with zf.open(zi, "w", force_zip64=True) as w:
                block = b"\0" * (64 * MIB)
                for _ in range(48):
                    w.write(block)
    add("h01_zip_lzma_zero_bomb", *both(p), dec(p, "h01"))

    # h02: a zip whose agent-log.jsonl carries the "encrypted" flag (bit 0) in both headers
    p = root / "h02.zip"
    if not p.exists():
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
            hc._zip_add(zf, "agent-log.jsonl", hc.valid_log_bytes(14, 22))
        data = bytearray(buf.getvalue())
        for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            i = data.find(sig)
            data[i + off] |= 1
        p.write_bytes(bytes(data))
    add("h02_zip_encrypted_log", *both(p), dec(p, "h02"))

    # h03: a .tar.gz whose gzip header holds a 48 MiB FNAME and a 16 MiB FCOMMENT
    p = root / "h03.tar.gz"
    if not p.exists():
        tar = _tar_of({"agent-log.jsonl": hc.valid_log_bytes(14, 23)})
        p.write_bytes(_gzip_fname_bomb(tar, 48 * MIB, 16 * MIB))
    add("h03_tgz_48mib_gzip_fname", *both(p), dec(p, "h03"))

    # h04: video.mp4 that is an HLS playlist naming a video outside the submission and a URL
    outside = _outside_video(root)
    d = root / "h04"
    if not d.exists():
        _write(d / "agent-log.jsonl", hc.valid_log_bytes(14, 24))
        rel = os.path.relpath(outside, d)
        _write(d / "video.mp4", (
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:30\n#EXT-X-MEDIA-SEQUENCE:0\n"
            f"#EXTINF:30.0,\n{rel}\n#EXTINF:30.0,\n{outside}\n"
            "#EXTINF:30.0,\nhttp://127.0.0.1:9/x.ts\n#EXT-X-ENDLIST\n").encode())
    add("h04_hls_playlist_video", *both(d), ["verify", d, "--scan", "--json"],
        ["frame", d, "--time", "5", "-o", root / "h04.png"])

    # h05: video.mkv that is an ffconcat script naming the outside video (relative, absolute)
    d = root / "h05"
    if not d.exists():
        _write(d / "agent-log.jsonl", hc.valid_log_bytes(14, 25))
        rel = os.path.relpath(outside, d)
        _write(d / "video.mkv", (f"ffconcat version 1.0\nfile '{rel}'\nfile '{outside}'\n"
                                 "file 'http://127.0.0.1:9/x.ts'\n").encode())
    add("h05_ffconcat_video", *both(d), ["verify", d, "--scan", "--json"],
        ["frame", d, "--time", "5", "-o", root / "h05.png"])

    # h06: agent-log.jsonl in UTF-16LE with a BOM (a Windows editor's "Unicode")
    p = root / "h06" / "agent-log.jsonl"
    if not p.exists():
        _write(p, b"\xff\xfe" + hc.valid_log_bytes(14, 26).decode().encode("utf-16-le"))
    add("h06_utf16_log", *both(p.parent), ["withhold", p, "-o", root / "h06.pub"],
        dec(p.parent, "h06"))

    # h07: a failing log whose ghost action repeats "call" (ghost first, the real id last)
    p = root / "h07" / "agent-log.jsonl"
    if not p.exists():
        _write(p, _ghost_dup_log())
    add("h07_duplicate_key_forge", *both(p.parent), ["withhold", p, "-o", root / "h07.pub"],
        dec(p.parent, "h07"))

    # h08: a ledger whose decisions table is a VIEW hiding every reject (the last decision)
    db = _ledger_view(root)
    add("h08_ledger_view_hides_rejects", ["decisions", "verify", "--store", db],
        ["decisions", "list", "--store", db],
        ["decisions", "export", "--format", "csv", "--out", root / "h08.csv", "--store", db],
        ["decide", SAMPLE, "--accept", "--store", db])

    # h09: 1,000,000 frames of 16x16 at 1000 fps in MKV beside a 40-event log
    d = _million_frames(root)
    add("h09_mkv_million_frames", *both(d), ["verify", d, "--scan", "--json"],
        ["frame", d, "--time", "500", "-o", root / "h09.png"])

    # h10: a folder whose video.mp4 is a named pipe nobody writes to
    d = root / "h10"
    if not d.exists():
        _write(d / "agent-log.jsonl", hc.valid_log_bytes(14, 27))
        os.mkfifo(d / "video.mp4")
    add("h10_fifo_video", *both(d), ["verify", d, "--scan", "--json"],
        ["frame", d, "--time", "1", "-o", root / "h10.png"], dec(d, "h10"))

    # h11: video.mp4 that is an SDP description (RTP over UDP on 127.0.0.1)
    d = root / "h11"
    if not d.exists():
        _write(d / "agent-log.jsonl", hc.valid_log_bytes(14, 28))
        _write(d / "video.mp4", b"v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=qa\r\n"
               b"c=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video 47123 RTP/AVP 96\r\n"
               b"a=rtpmap:96 H264/90000\r\n")
    add("h11_sdp_video", *both(d), ["verify", d, "--scan", "--json"],
        ["frame", d, "--time", "1", "-o", root / "h11.png"])
    # h12: the official sample with a duplicate "producer" on line 3 (the agent first, the
    # evaluator last): a parser that keeps the last value sees an evaluator's event
    d = root / "h12"
    if not d.exists():
        import zstandard

        src = SAMPLE.parent / "official-sample"
        with open(src / "events.jsonl.zst", "rb") as fh:  # every frame, not the first
            plain = zstandard.ZstdDecompressor().stream_reader(
                fh, read_across_frames=True).read()
        lines = plain.split(b"\n")
        lines[2] = lines[2].replace(b'"producer":"evaluator"',
                                    b'"producer":"agent","producer":"evaluator"', 1)
        _write(d / "events.jsonl", b"\n".join(lines))
        _write(d / "video.mp4", (src / "video.mp4").read_bytes())
    add("h12_official_duplicate_producer", *both(d), dec(d, "h12"))
    return out


def check_outside_reads(root: Path) -> dict:
    """h04, h05, h11 under strace: no open of the outside video, no AF_INET/AF_INET6 socket, and
    the report never shows the outside video's 750 frames / 30 s."""
    res: dict = {"check": "outside reads and sockets (h04, h05, h11)"}
    for name in ("h04", "h05", "h11"):
        log = root / f"{name}.strace"
        r = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,socket,connect,bind",
                            "-o", str(log), "timeout", "60", CLI, "verify", str(root / name),
                            "--json", "--scan"], capture_output=True, text=True)
        text = log.read_text(errors="replace") if log.exists() else ""
        try:
            video = json.loads(r.stdout).get("video") or {}
        except ValueError:
            video = {"unparsed": r.stdout[:200]}
        res[name] = {
            "exit": r.returncode,
            "opened_outside": sum("outside/secret.ts" in ln and "openat" in ln
                                  for ln in text.splitlines()),
            "inet_sockets": [ln[:160] for ln in text.splitlines()
                             if "socket(AF_INET" in ln or "connect(" in ln and "AF_INET" in ln],
            "video": {k: video.get(k) for k in ("ok", "frame_count", "duration_s", "codec")},
        }
    return res


def check_ledger_view(root: Path) -> dict:
    """h08: the reject the view hides must show as loss (`decisions verify` not intact)."""
    db = root / "h08" / "decisions.sqlite3"
    v = subprocess.run([CLI, "decisions", "verify", "--store", str(db)], capture_output=True,
                       text=True)
    return {"check": "h08 view hides the last decision", "exit": v.returncode,
            "out": (v.stdout + v.stderr)[-300:], "ok": v.returncode != 0}


POST_CHECKS = [check_outside_reads, check_ledger_view]


def check_ledger_doc_rows(root: Path) -> dict:
    """The rows of docs/decisions-ledger.md "What `decisions verify` detects" that sessions 9-11
    did not try, each on a fresh 3-decision ledger: an older copy of the database put back, the
    head file emptied, the head file replaced by a FIFO / a directory / a symlink to /dev/zero,
    a middle record deleted, two records swapped. Each must be "not intact" (exit 1), in
    bounded time, and `decide` must refuse to append after the first five."""
    import shutil

    res: dict = {"check": "ledger rows the docs say are detected"}

    def fresh(label: str) -> Path:
        d = root / "ledger-rows" / label
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        db = d / "decisions.sqlite3"
        for args in (["--accept"], ["--accept", "--note", "b"],
                     ["--reject", "--reason", "other", "--note", "c"]):
            subprocess.run([CLI, "decide", str(SAMPLE), *args, "--store", str(db)], check=True,
                           capture_output=True)
        return db

    def run(*args: str) -> dict:
        r = subprocess.run(["timeout", "30", CLI, *args], capture_output=True, text=True)
        return {"exit": r.returncode, "out": (r.stdout + r.stderr).strip()[-200:]}

    for label in ("older_copy", "head_emptied", "head_fifo", "head_dir", "head_symlink_zero",
                  "middle_deleted", "swapped"):
        db = fresh(label)
        head = Path(str(db) + ".head")
        if label == "older_copy":
            old = db.parent / "old"
            old.mkdir()
            subprocess.run([CLI, "decide", str(SAMPLE), "--accept", "--store", str(old / "x.sqlite3")],
                           check=True, capture_output=True)
            # the state after two decisions, put back over the three-decision database
            con = sqlite3.connect(db)
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            con.close()
            two = db.parent / "two.sqlite3"
            con = sqlite3.connect(db)
            con.execute(f"VACUUM INTO '{two}'")
            con.close()
            con = sqlite3.connect(two)
            con.execute("DELETE FROM decisions WHERE seq = (SELECT max(seq) FROM decisions)")
            con.commit()
            con.close()
            for f in db.parent.glob("decisions.sqlite3-*"):
                f.unlink()
            shutil.copy(two, db)
        elif label == "head_emptied":
            head.write_bytes(b"")
        elif label == "head_fifo":
            head.unlink()
            os.mkfifo(head)
        elif label == "head_dir":
            head.unlink()
            head.mkdir()
        elif label == "head_symlink_zero":
            head.unlink()
            head.symlink_to("/dev/zero")
        elif label in ("middle_deleted", "swapped"):
            con = sqlite3.connect(db)
            if label == "middle_deleted":
                con.execute("DELETE FROM decisions WHERE seq = 2")
            else:
                a, b = (con.execute("SELECT record_json FROM decisions WHERE seq = ?", (s,))
                        .fetchone()[0] for s in (1, 2))
                con.execute("UPDATE decisions SET record_json = ? WHERE seq = 1", (b,))
                con.execute("UPDATE decisions SET record_json = ? WHERE seq = 2", (a,))
            con.commit()
            con.close()
        v = run("decisions", "verify", "--store", str(db))
        d = run("decide", str(SAMPLE), "--accept", "--store", str(db))
        res[label] = {"verify": v, "decide": d, "detected": v["exit"] == 1,
                      "decide_refused": d["exit"] != 0}
    return res


POST_CHECKS.append(check_ledger_doc_rows)
