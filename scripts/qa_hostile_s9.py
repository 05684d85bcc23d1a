"""Issue 15 QA inputs of session 9 (docs/qa/session9.md): hostile submissions of the issue's
classes with bytes no test had used. Deterministic (fixed bytes, seeds and mtimes); written under
`.cache/qa-s9/hostile/`. `cases(root)` returns (id, commands) where a command is a CLI argument
list (run by scripts/qa_session9.py under prlimit and timeout).
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import tarfile
import zipfile
from pathlib import Path

import hostile_corpus as hc
import orjson
import zstandard

from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

MIB = 1 << 20
SECRET = "qa-s9-evaluator-secret-7f3a"
MARK = "QA-S9-PRIVATE"


def _events(n: int = 12, seed: int = 8) -> list[dict]:
    return [orjson.loads(x) for x in hc.valid_log_bytes(n, seed).splitlines()]


def _write_log(path: Path, events: list[dict], tail: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events) + tail)
    return path


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _video(out: Path, seconds: int = 30) -> Path:
    """A real 30 s H.264 recording (testsrc2), the log's 20 s fit in it."""
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", f"testsrc2=size=320x240:rate=30:duration={seconds}",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(out))
    return out


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[str(a) for a in c] for c in cmds]))

    def verify_both(p) -> tuple[list, list]:
        return ["verify", p], ["verify", p, "--json"]

    # h01: 96 MiB of CRLF in a few KB of zstd (a blank-line bomb with \r)
    d = root / "h01"
    p = d / "events.jsonl.zst"
    if not p.exists():
        d.mkdir(parents=True, exist_ok=True)
        with open(p, "wb") as fh, zstandard.ZstdCompressor(level=19).stream_writer(fh) as w:
            for _ in range(96):
                w.write(b"\r\n" * (MIB // 2))
    add("h01_crlf_bomb_zst", *verify_both(d))

    # h02: a valid start, then 48 MiB of tab-space-tab lines
    p = root / "h02" / "agent-log.jsonl"
    if not p.exists():
        _write_log(p, _events())
        with open(p, "ab") as fh:
            for _ in range(48):
                fh.write(b"\t \t\n" * (MIB // 4))
    add("h02_whitespace_flood", *verify_both(p.parent))

    # h03: a 400,000-deep array on one line (valid JSON), then a 200,000-deep object
    p = root / "h03" / "agent-log.jsonl"
    if not p.exists():
        ev = _events()
        deep = b"[" * 400_000 + b"]" * 400_000
        obj = b'{"a":' * 200_000 + b"1" + b"}" * 200_000
        _write_log(p, ev[:3], deep + b"\n" + obj + b"\n")
        with open(p, "ab") as fh:
            fh.write(b"".join(orjson.dumps(e) + b"\n" for e in ev[3:]))
    add("h03_deep_nesting", *verify_both(p.parent), ["withhold", p, "-o", root / "h03.pub"])

    # h04: a 6,000-digit integer, 1e400 and -0.0 where numbers are read
    p = root / "h04" / "agent-log.jsonl"
    if not p.exists():
        ev = _events()
        lines = [orjson.dumps(e) for e in ev]
        for i, e in enumerate(ev):
            if e["type"] == "action":
                lines[i] = lines[i].replace(b'"data":{', b'"data":{"frames":' + b"9" * 6000
                                            + b",", 1)
            if e["type"] == "observation":
                lines[i] = lines[i].replace(b'"elapsedMs":', b'"elapsedMs":1e400,"x":', 1)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"\n".join(lines) + b"\n")
    add("h04_huge_numbers", *verify_both(p.parent), ["withhold", p, "-o", root / "h04.pub"],
        ["decide", p.parent, "--reject", "--reason", "other", "--note", "huge numbers",
         "--store", root / "h04.sqlite3"])

    # h05: lone surrogates (escaped) in a response's text and in a member name
    p = root / "h05" / "agent-log.jsonl"
    if not p.exists():
        ev = _events()
        lines = [orjson.dumps(e) for e in ev]
        for i, e in enumerate(ev):
            if e["type"] == "model_response":
                lines[i] = lines[i].replace(b'"data":{', b'"data":{"\\udfff":"\\ud800x",', 1)
                break
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"\n".join(lines) + b"\n")
    add("h05_lone_surrogate", *verify_both(p.parent), ["withhold", p, "-o", root / "h05.pub"],
        ["decide", p.parent, "--accept", "--store", root / "h05.sqlite3"])

    # h06: a zip of 20,000 empty members in nested folders, the log last
    p = root / "h06.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            for i in range(20_000):
                hc._zip_add(zf, f"a/{i % 97}/{i:05d}", b"")
            hc._zip_add(zf, "agent-log.jsonl", hc.valid_log_bytes(12, 8))
    add("h06_zip_20k_members", *verify_both(p))

    # h07: a tar whose agent-log.jsonl is a symlink to /etc/passwd, and a hard link to it
    p = root / "h07.tar"
    if not p.exists():
        with tarfile.open(p, "w", format=tarfile.PAX_FORMAT) as tf:
            info = tarfile.TarInfo("agent-log.jsonl")
            info.type, info.linkname, info.mtime = tarfile.SYMTYPE, "/etc/passwd", hc.MTIME
            tf.addfile(info)
            info = tarfile.TarInfo("events.jsonl")
            info.type, info.linkname, info.mtime = tarfile.LNKTYPE, "../../etc/shadow", hc.MTIME
            tf.addfile(info)
    add("h07_tar_links", *verify_both(p))

    # h08: zip member names with an OSC 8 hyperlink, a C1 CSI (U+009B) and U+2067, with a log
    p = root / "h08.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            hc._zip_add(zf, "\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07.mp4", b"xx")
            hc._zip_add(zf, "\u009b2J\u009b31mred.mkv", b"yy")
            hc._zip_add(zf, "\u2067txt.exe\u2069.jsonl", b"{}\n")
            hc._zip_add(zf, "agent-log.jsonl", hc.valid_log_bytes(12, 8))
    add("h08_zip_escape_names", *verify_both(p),
        ["decide", p, "--reject", "--reason", "other", "--note", "names",
         "--store", root / "h08.sqlite3"])

    # h09: a folder and a video file with non-UTF-8 names (a real MKV)
    base = bytes(root) + b"/h09-run-\xe9\xff"
    vid = base + b"/vid\xff\xfe.mkv"
    if not os.path.exists(vid):
        os.makedirs(base, exist_ok=True)
        src = _video(root / "src30.mp4")
        _ffmpeg("-i", str(src), "-c", "copy", "-f", "matroska", os.fsdecode(vid))
        with open(base + b"/agent-log.jsonl", "wb") as fh:
            fh.write(hc.valid_log_bytes(40, 5))
    add("h09_latin1_mkv", *verify_both(os.fsdecode(base)),
        ["verify", os.fsdecode(base), "--scan", "--json"],
        ["frame", os.fsdecode(base), "--line", "10", "-o", root / "h09.png"])

    # h10: one frame whose timing claims 100,000 s (MKV and MOV), a 20 s log
    for ext in ("mkv", "mov"):
        d = root / f"h10{ext}"
        v = d / f"one.{ext}"
        if not v.exists():
            d.mkdir(parents=True, exist_ok=True)
            _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=1", "-frames:v", "1",
                    "-vf", "setpts=0", "-r", "1/100000", "-c:v", "libx264", "-pix_fmt",
                    "yuv420p", str(v))
            (d / "agent-log.jsonl").write_bytes(hc.valid_log_bytes(40, 5))
        add(f"h10_one_frame_{ext}", *verify_both(d))

    # h11: two frames only, at 0 s and 26 s (VFR MKV), a 20 s log
    d = root / "h11"
    v = d / "two.mkv"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=1", "-frames:v", "2",
                "-vf", "setpts=N*26/TB", "-fps_mode", "passthrough", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", str(v))
        (d / "agent-log.jsonl").write_bytes(hc.valid_log_bytes(40, 5))
    add("h11_two_frames_far", *verify_both(d), ["verify", d, "--offset", "0.5"])

    # h12: a YUV4MPEG stream claiming 30000x30000 (1.35 GB a frame) named .avi, 1 MB of data
    d = root / "h12"
    v = d / "run.avi"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        v.write_bytes(b"YUV4MPEG2 W30000 H30000 F30:1 Ip A1:1 C420jpeg\nFRAME\n"
                      + bytes(range(256)) * 4096)
        (d / "agent-log.jsonl").write_bytes(hc.valid_log_bytes(40, 5))
    add("h12_y4m_huge_dims", *verify_both(d), ["verify", d, "--scan", "--json"],
        ["frame", v, "--time", "0", "-o", root / "h12.png"])

    # h13: a real MP4 with its moov at the end, cut to its first 40 %
    d = root / "h13"
    v = d / "run.mp4"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        data = _video(root / "src30.mp4").read_bytes()
        v.write_bytes(data[: len(data) * 4 // 10])
        (d / "agent-log.jsonl").write_bytes(hc.valid_log_bytes(40, 5))
    add("h13_truncated_mp4", *verify_both(d), ["frame", v, "--time", "1", "-o", root / "h13.png"])

    # h14: a failing community log and a self-made valid events.jsonl, in a .tar.zst
    p = root / "h14.tar.zst"
    if not p.exists():
        ev = _events()
        for e in ev:
            if e["type"] == "action":
                e["data"]["call"] = "c999"  # no response asked for it
                break
        raw = io.BytesIO()
        traj = root / "h14-events.jsonl"
        write_trajectory(traj, make_run_events(10, seed=77))
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tf:
            hc._tar_add(tf, "sub/agent-log.jsonl", b"".join(orjson.dumps(e) + b"\n" for e in ev))
            hc._tar_add(tf, "sub/events.jsonl", traj.read_bytes())
        p.write_bytes(zstandard.ZstdCompressor(level=3).compress(raw.getvalue()))
    add("h14_forged_official_tar_zst", *verify_both(p),
        ["decide", p, "--accept", "--store", root / "h14.sqlite3"])

    # h15: private text in members the format does not list (top level and inside data)
    p = root / "h15" / "agent-log.jsonl"
    if not p.exists():
        ev = _events()
        for e in ev:
            if e["type"] == "model_request":
                e["system_prompt"] = f"{MARK}-SYSTEM"
                e["data"]["reasoning_trace"] = f"{MARK}-TRACE"
                e["data"]["messages"].append({"role": "system", "content": f"{MARK}-MSG",
                                              "secret_key": f"{MARK}-KEY"})
            elif e["type"] == "model_response":
                e["data"]["chain_of_thought"] = f"{MARK}-COT"
                e["meta"] = {"raw": f"{MARK}-META"}
            elif e["type"] == "action":
                e["data"]["args"] = {**e["data"].get("args", {}), "why": f"{MARK}-WHY"}
        _write_log(p, ev)
    add("h15_withhold_unlisted_members", ["withhold", p, "-o", root / "h15.pub"])

    # h16: an honest official run with integer seeds 3 and 100, matching commitments,
    # where 3 and 100 are a lives counter and a score
    d = root / "h16"
    seeds = root / "h16-seeds.txt"
    if not seeds.exists():
        d.mkdir(parents=True, exist_ok=True)
        events = make_run_events(14, seed=16, run_id="run_qa_s9_small", seeds=("3", "100"),
                                 secret=SECRET, variety=0.0)
        for e in events:
            if e["type"] == "observation":
                e["payload"].update(lives=3, score=100, stdout="lives 3 score 100 step 3")
        write_trajectory(d / "events.jsonl", events)
        seeds.write_text("3\n100\n")
    add("h16_small_seeds", ["verify", d, "--seeds", seeds], ["verify", d, "--seeds", seeds,
                                                              "--json"])

    # h17: the evaluator secret is not UTF-8 (env; see ENV below)
    add("h17_secret_not_utf8", ["verify", d, "--seeds", seeds, "--json"])

    # h18: --reviewer with an escape and a non-UTF-8 byte; --note with a C1 and bidi
    lg = root / "h18" / "agent-log.jsonl"
    if not lg.exists():
        _write_log(lg, _events())
    add("h18_reviewer_escape",
        ["decide", lg.parent, "--accept", "--reviewer",
         os.fsdecode(b"\x1b[2Jbob\xff"), "--store", root / "h18.sqlite3"],
        ["decide", lg.parent, "--reject", "--reason", "other", "--note",
         "\u009b31m\u202eevil", "--store", root / "h18.sqlite3"],
        ["decisions", "list", "--store", root / "h18.sqlite3"],
        ["decisions", "export", "--format", "csv", "--out", root / "h18.csv", "--store",
         root / "h18.sqlite3"],
        ["decisions", "verify", "--store", root / "h18.sqlite3"])

    # h19: export to a FIFO nobody reads (a device-like target)
    fifo = root / "h19.fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    add("h19_export_to_fifo",
        ["decide", lg.parent, "--accept", "--store", root / "h19.sqlite3"],
        ["decisions", "export", "--format", "csv", "--out", fifo, "--store", root / "h19.sqlite3"],
        ["withhold", lg, "-o", fifo])

    # h21: a .tar.gz made of 20,000 concatenated gzip members (one per 512-byte block)
    p = root / "h21.tar.gz"
    if not p.exists():
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tf:
            for i in range(5000):
                hc._tar_add(tf, f"n/{i:05d}", b"")
            hc._tar_add(tf, "agent-log.jsonl", hc.valid_log_bytes(12, 8))
        data = raw.getvalue()
        with open(p, "wb") as fh:
            for i in range(0, len(data), 512):
                fh.write(gzip.compress(data[i:i + 512], mtime=0))
    add("h21_gzip_multimember", *verify_both(p))

    # h22: events.jsonl.zst led by 200,000 empty skippable frames, then a valid trajectory
    d = root / "h22"
    p = d / "events.jsonl.zst"
    if not p.exists():
        d.mkdir(parents=True, exist_ok=True)
        traj = root / "h22-events.jsonl.zst"
        write_trajectory(traj, make_run_events(10, seed=22))
        skip = (0x184D2A50).to_bytes(4, "little") + (0).to_bytes(4, "little")
        p.write_bytes(skip * 200_000 + traj.read_bytes())
    add("h22_zstd_skippable_flood", *verify_both(d))

    # h23: zip whose agent-log.jsonl is deflated 1 GiB of "{}\n" ... no: of "[]\n" lines
    p = root / "h23.zip"
    if not p.exists():
        body = hc.valid_log_bytes(12, 8)
        with zipfile.ZipFile(p, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            info = zipfile.ZipInfo("agent-log.jsonl", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(info, "w", force_zip64=True) as w:
                w.write(body)
                chunk = b"[]\n" * (MIB // 3)
                for _ in range(300):
                    w.write(chunk)
    add("h23_zip_array_flood", *verify_both(p))
    return out


ENV = {"h16_small_seeds": {"ALE_EVALUATOR_SECRET": SECRET},
       "h17_secret_not_utf8": {"ALE_EVALUATOR_SECRET": os.fsdecode(b"\xc3(" + SECRET.encode())}}
SECRETS = [SECRET]
