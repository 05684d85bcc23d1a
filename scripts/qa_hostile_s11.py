"""Issue 15 QA inputs of session 11 (docs/qa/session11.md): hostile submissions of the issue's
classes with bytes neither the tests nor sessions 9 and 10's QA had used. Deterministic (fixed
bytes, seeds and mtimes); written under `.cache/qa-s11/hostile/`. `cases(root)` returns
(id, commands), a command being a CLI argument list (run by scripts/qa_session11.py under
prlimit and timeout); `POST_CHECKS` inspect what the commands left.
"""

from __future__ import annotations

import gzip
import io
import os
import sqlite3
import stat
import struct
import subprocess
import tarfile
import zipfile
from pathlib import Path

import hostile_corpus as hc
import zstandard
from qa_hostile_s10 import _events, _ffmpeg, _log_bytes, _write

from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

MIB = 1 << 20
SECRET = "qa-s11-evaluator-secret-77f3"
MARK = "QA-S11-PRIVATE"


def _failing_log() -> bytes:
    ev = _events(16, 11)
    for e in ev:
        if e["type"] == "action":
            e["data"]["call"] = "c-ghost"  # no response asked for it: a human press
            break
    return _log_bytes(ev)


def _vp9(out: Path, seconds: int = 30) -> Path:
    """A real VP9 WebM recording (cellauto: not the testsrc2/mandelbrot of sessions 9, 10)."""
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", f"cellauto=size=192x144:rate=20,trim=duration={seconds}",
                "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k",
                "-pix_fmt", "yuv420p", str(out))
    return out


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[str(a) if not isinstance(a, bytes) else os.fsdecode(a) for a in c]
                           for c in cmds]))

    def both(p) -> tuple[list, list]:
        return ["verify", p], ["verify", p, "--json"]

    # h01: agent-log.jsonl.zst: a valid log, then 96 MiB of CRLF (blank lines ending in CR)
    d = root / "h01"
    p = d / "agent-log.jsonl.zst"
    if not p.exists():
        d.mkdir(parents=True, exist_ok=True)
        with open(p, "wb") as fh, zstandard.ZstdCompressor(level=19).stream_writer(fh) as w:
            w.write(hc.valid_log_bytes(14, 21))
            for _ in range(96):
                w.write(b"\r\n" * (MIB // 2))
    add("h01_crlf_bomb_zst", *both(d))

    # h02: a zip of 12,000 members all named agent-log.jsonl (duplicates), one real
    p = root / "h02.zip"
    if not p.exists():
        import warnings
        warnings.simplefilter("ignore")  # zipfile warns on duplicate names
        with zipfile.ZipFile(p, "w") as zf:
            hc._zip_add(zf, "agent-log.jsonl", hc.valid_log_bytes(14, 22))
            for _ in range(12_000):
                hc._zip_add(zf, "agent-log.jsonl", b"")
    add("h02_zip_12000_duplicate_names", *both(p))

    # h03: a tar of 4,000 symlinks (to /etc/shadow, ../../.., itself) and the log
    p = root / "h03.tar"
    if not p.exists():
        with tarfile.open(p, "w", format=tarfile.GNU_FORMAT) as tf:
            for i in range(4_000):
                info = tarfile.TarInfo(f"s/{i:05d}.jsonl" if i % 2 else "agent-log.jsonl")
                info.type, info.mtime = tarfile.SYMTYPE, hc.MTIME
                info.linkname = ("/etc/shadow", "../../../../etc/passwd", info.name)[i % 3]
                tf.addfile(info)
            hc._tar_add(tf, "run/agent-log.jsonl", hc.valid_log_bytes(14, 23))
    add("h03_tar_4000_symlinks", *both(p))

    # h04: a .tgz of a 768 MiB zero member named video.mp4 beside a log (a video to extract)
    p = root / "h04.tgz"
    if not p.exists():
        with open(p, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                 compresslevel=6) as gz, \
                tarfile.open(fileobj=gz, mode="w|", format=tarfile.PAX_FORMAT) as tf:
            hc._tar_add(tf, "agent-log.jsonl", hc.valid_log_bytes(14, 24))
            info = tarfile.TarInfo("video.mp4")
            info.size, info.mtime = 768 * MIB, hc.MTIME

            class _Zero(io.RawIOBase):
                left = 768 * MIB

                def readable(self) -> bool:
                    return True

                def readinto(self, b) -> int:
                    n = min(len(b), self.left)
                    b[:n] = bytes(n)
                    self.left -= n
                    return n
            tf.addfile(info, io.BufferedReader(_Zero(), MIB))
    add("h04_tgz_768mib_zero_video", *both(p),
        ["decide", p, "--accept", "--store", root / "h04.sqlite3"])

    # h05: a zip whose only entry claims (zip64) 2^62 bytes uncompressed, stored
    p = root / "h05.zip"
    if not p.exists():
        body = hc.valid_log_bytes(14, 25)
        import zlib
        crc = zlib.crc32(body)
        name = b"agent-log.jsonl"
        z64 = struct.pack("<HHQQ", 1, 16, 1 << 62, len(body))
        buf = io.BytesIO()
        buf.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 45, 0, 0, 0, 0x21, crc, 0xFFFFFFFF,
                              0xFFFFFFFF, len(name), len(z64)) + name + z64 + body)
        start = buf.tell()
        cd = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 45, 45, 0, 0, 0, 0x21, crc, 0xFFFFFFFF,
                         0xFFFFFFFF, len(name), len(z64), 0, 0, 0, 0o100644 << 16, 0) + name + z64
        buf.write(cd)
        buf.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(cd), start, 0))
        p.write_bytes(buf.getvalue())
    add("h05_zip64_lying_size", *both(p))

    # h06: a plain log: valid start, then 48 MiB of whitespace-only lines (" \t \n")
    p = root / "h06" / "agent-log.jsonl"
    if not p.exists():
        _write(p, hc.valid_log_bytes(14, 26))
        with open(p, "ab") as fh:
            for _ in range(48):
                fh.write(b" \t \n" * (MIB // 4))
    add("h06_whitespace_lines_48mib", *both(p.parent), ["withhold", p, "-o", root / "h06.pub"])

    # h07: a plain trajectory (events.jsonl): 4 valid events then 3,000,000 lines of `x`
    d = root / "h07"
    if not (d / "events.jsonl").exists():
        d.mkdir(parents=True, exist_ok=True)
        write_trajectory(d / "events.jsonl", make_run_events(4, seed=127))
        with open(d / "events.jsonl", "ab") as fh:
            fh.write(b"x\n" * 3_000_000)
    add("h07_official_invalid_flood", *both(d))

    # h08: zip member names holding ESC [2J, OSC 8 hyperlink, U+2066 and a NUL
    p = root / "h08.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            hc._zip_add(zf, "agent-log.jsonl", _failing_log())
            hc._zip_add(zf, "\x1b[2J\x1b]8;;http://x.invalid\x07clip\x1b]8;;\x07.mp4", b"\0" * 99)
            hc._zip_add(zf, "notes\u2066\u202e.txt", b"n")
        data = bytearray(p.read_bytes())
        i = data.find(b"notes")
        while i >= 0:  # a NUL inside the name, in the local header and the central directory
            data[i + 2] = 0
            i = data.find(b"notes", i + 1)
        p.write_bytes(bytes(data))
    add("h08_zip_escape_names", *both(p),
        ["decide", p, "--reject", "--reason", "other", "--note", "names",
         "--store", root / "h08.sqlite3"],
        ["decisions", "list", "--store", root / "h08.sqlite3"])

    # h09: a folder named with bytes \xff\xfe and a BEL holding a VP9 WebM and a log
    base = bytes(root) + b"/h09-\xff\xfe\x07run"
    vid = base + b"/clip\x9b.webm"
    if not os.path.exists(vid):
        os.makedirs(base, exist_ok=True)
        with open(vid, "wb") as fh:
            fh.write(_vp9(root / "src-vp9.webm").read_bytes())
        with open(base + b"/agent-log.jsonl", "wb") as fh:
            fh.write(hc.valid_log_bytes(40, 29))
    add("h09_nonutf8_folder_vp9", ["verify", base], ["verify", base, "--json"],
        ["verify", base, "--scan", "--json"],
        ["frame", base, "--line", "7", "-o", root / "h09.png"],
        ["decide", base, "--accept", "--store", root / "h09.sqlite3"],
        ["decisions", "list", "--store", root / "h09.sqlite3"])

    # h10: an MKV whose pixel size is patched to 65,535 x 65,535 (EBML PixelWidth/Height)
    d = root / "h10"
    v = d / "run.mkv"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        good = root / "h10-good.mkv"
        _ffmpeg("-f", "lavfi", "-i", "cellauto=size=160x120:rate=10,trim=duration=4",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(good))
        data = bytearray(good.read_bytes())
        for tag, val in ((b"\xb0\x82", 160), (b"\xba\x82", 120)):  # 2-byte sizes
            i = data.find(tag + struct.pack(">H", val))
            if i >= 0:
                data[i + 2:i + 4] = b"\xff\xff"
        v.write_bytes(bytes(data))
        (d / "agent-log.jsonl").write_bytes(hc.valid_log_bytes(12, 30))
    add("h10_mkv_65535_square", *both(d), ["verify", d, "--scan", "--json"],
        ["frame", v, "--time", "1", "-o", root / "h10.png"])

    # h11: MKV (VFR): two frames, at 0 s and 24 s; a 22 s log (one picture "covers" the run)
    d = root / "h11"
    v = d / "two.mkv"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", "cellauto=size=128x96:rate=1", "-frames:v", "2",
                "-vf", "setpts='N*24/TB'", "-fps_mode", "passthrough", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", str(v))
        from moderator_app.core.samples.community import make_agent_log
        make_agent_log(d / "agent-log.jsonl", 50, 31, min_duration_s=22.0)
    add("h11_mkv_two_frames_24s_apart", *both(d), ["verify", d, "--offset", "0.5", "--json"])

    # h12: private text in members the format does not list (new names than s9/s10)
    p = root / "h12" / "agent-log.jsonl"
    if not p.exists():
        ev = _events(16, 12)
        for e in ev:
            if e["type"] == "model_request":
                e["messages_full"] = [{"role": "system", "content": f"{MARK}-SYS"}]
                e["data"]["extra_body"] = {"secret_plan": f"{MARK}-PLAN"}
            elif e["type"] == "model_response":
                e["data"]["reasoning_content"] = f"{MARK}-REASON"
            elif e["type"] == "action":
                e["data"]["_comment"] = f"{MARK}-ACTION"
        _write(p, _log_bytes(ev))
    add("h12_withhold_new_private_members", ["withhold", p, "-o", root / "h12.pub"])

    # h13: an honest official run with seeds "0" and "99" shown as score/lives/frame in text
    d = root / "h13"
    seeds = root / "h13-seeds.txt"
    if not seeds.exists():
        d.mkdir(parents=True, exist_ok=True)
        events = make_run_events(16, seed=133, run_id="run_qa_s11_tiny", seeds=("0", "99"),
                                 secret=SECRET, variety=0.0)
        for e in events:
            if e["type"] == "observation":
                e["payload"].update(lives=0, score=99, frame="99",
                                    stdout="score 99, 0 lives, seed? 0 or 99")
        write_trajectory(d / "events.jsonl", events)
        seeds.write_text("0\n99\n")
    add("h13_small_seeds_0_99", ["verify", d, "--seeds", seeds],
        ["verify", d, "--seeds", seeds, "--json"])

    # h14: the evaluator secret is NOT valid UTF-8 (see ENV: surrogate-escaped bytes)
    add("h14_secret_not_utf8", ["verify", d, "--seeds", seeds, "--json"],
        ["verify", d, "--seeds", seeds])

    # h15: --note '-', a non-UTF-8 note, an ESC reviewer, reason other with a tab-only note
    lg = root / "h15" / "agent-log.jsonl"
    if not lg.exists():
        _write(lg, hc.valid_log_bytes(14, 35))
    st = root / "h15.sqlite3"
    add("h15_note_and_reviewer_bytes",
        ["decide", lg.parent, "--reject", "--reason", "other", "--note", "-", "--store", st],
        ["decide", lg.parent, "--reject", "--reason", "other", "--note", b"caf\xe9", "--store",
         st],
        ["decide", lg.parent, "--reject", "--reason", "other", "--note", "\t", "--store", st],
        ["decide", lg.parent, "--accept", "--reviewer", "\x1b[41mroot", "--store", st],
        ["decisions", "list", "--store", st],
        ["decisions", "export", "--format", "csv", "--out", root / "h15.csv", "--store", st])

    # h16: a failing community log at the top, a self-made valid trajectory (zstd) deep inside
    d = root / "h16"
    if not (d / "agent-log.jsonl").exists():
        d.mkdir(parents=True, exist_ok=True)
        _write(d / "agent-log.jsonl", _failing_log())
        plain = root / "h16-events.jsonl"
        write_trajectory(plain, make_run_events(10, seed=136))
        t = d / "a" / "b" / "events.jsonl.zst"
        t.parent.mkdir(parents=True, exist_ok=True)
        t.write_bytes(zstandard.ZstdCompressor(level=3).compress(plain.read_bytes()))
    add("h16_forged_official_nested_zst", *both(d),
        ["decide", d, "--accept", "--store", root / "h16.sqlite3"])

    # h17: export and withhold aimed at a character device of our own (a /dev/null twin)
    dev = root / "nulldev"
    if not dev.exists():
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    st = root / "h17.sqlite3"
    add("h17_export_to_char_device",
        ["decide", lg.parent, "--accept", "--store", st],
        ["decisions", "export", "--format", "jsonl", "--out", dev, "--store", st],
        ["withhold", lg, "-o", dev])

    # h18: a ledger of 3 decisions (POST_CHECKS: -wal and -shm deleted; the last row deleted)
    st = root / "h18" / "decisions.sqlite3"
    add("h18_ledger_three", *[["decide", lg.parent, "--accept", "--note", f"m{i}", "--store", st]
                              for i in range(3)],
        ["decisions", "verify", "--store", st])

    # h19: a zstd file of 1,000,000 skippable frames, then a valid trajectory frame
    d = root / "h19"
    p = d / "events.jsonl.zst"
    if not p.exists():
        d.mkdir(parents=True, exist_ok=True)
        plain = root / "h19-plain.jsonl"
        write_trajectory(plain, make_run_events(12, seed=139))
        with open(p, "wb") as fh:
            fh.write(struct.pack("<II", 0x184D2A50, 0) * 1_000_000)
            fh.write(zstandard.ZstdCompressor(level=3).compress(plain.read_bytes()))
    add("h19_zst_million_skippable_frames", *both(d))

    # h20: a community log whose request holds a 4 MiB base64 "screenshot" on each of 40 lines
    p = root / "h20" / "agent-log.jsonl"
    if not p.exists():
        import base64
        ev = _events(40, 20)
        blob = base64.b64encode(bytes(range(256)) * (3 * MIB // 256)).decode()
        for e in ev:
            if e["type"] == "model_request":
                e["data"]["screenshot_b64"] = blob
        _write(p, _log_bytes(ev))
    add("h20_base64_screenshots_160mib", *both(p.parent),
        ["withhold", p, "-o", root / "h20.pub"])

    # h21: a tar whose member size is written in base-256 as 2^62 (a lying header)
    p = root / "h21.tar"
    if not p.exists():
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
            hc._tar_add(tf, "agent-log.jsonl", hc.valid_log_bytes(14, 41))
            hc._tar_add(tf, "video.mp4", b"\0" * 512)
        data = bytearray(buf.getvalue())
        i = data.find(b"video.mp4")
        data[i + 124:i + 136] = b"\x80" + (1 << 62).to_bytes(11, "big")
        chk = sum(data[i:i + 148]) + 8 * 32 + sum(data[i + 156:i + 512])
        data[i + 148:i + 156] = f"{chk:06o}\0 ".encode()
        p.write_bytes(bytes(data))
    add("h21_tar_base256_size", *both(p))

    # h22: an official line with an array of 1,500,000 zeros (wide, not deep; under the cap?)
    d = root / "h22"
    if not (d / "events.jsonl").exists():
        d.mkdir(parents=True, exist_ok=True)
        write_trajectory(d / "events.jsonl", make_run_events(8, seed=142))
        lines = (d / "events.jsonl").read_bytes().splitlines()
        lines.insert(4, b'{"w":[' + b"0," * 1_500_000 + b"0]}")
        (d / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    add("h22_wide_official_line", *both(d))
    return out


def check_device(root: Path) -> dict:
    """h17: our /dev/null twin must still be a character device."""
    dev = root / "nulldev"
    return {"check": "h17 char device still a char device",
            "ok": dev.exists() and stat.S_ISCHR(os.stat(dev).st_mode)}


def check_ledger_loss(root: Path) -> dict:
    """h18: on copies, (a) the -wal and -shm files deleted, (b) the last decision deleted with
    SQL: `decisions verify` must not say intact where the docs say the loss is detected."""
    import shutil

    st = root / "h18" / "decisions.sqlite3"
    cli = str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "moderator-app")
    res: dict = {"check": "h18 ledger loss"}
    if not st.exists():
        return {**res, "ok": None, "why": "ledger not built"}
    out = {}
    for label in ("wal_deleted", "last_row_deleted"):
        copy = root / f"h18-{label}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(st.parent, copy)
        db = copy / "decisions.sqlite3"
        if label == "wal_deleted":
            for f in copy.glob("decisions.sqlite3-*"):
                f.unlink()
        else:
            con = sqlite3.connect(db)
            tables = [r[0] for r in con.execute("select name from sqlite_master where type='table'")]
            try:
                con.execute("delete from decisions where rowid=(select max(rowid) from decisions)")
                con.commit()
            except sqlite3.DatabaseError as e:
                out[label + "_sql"] = str(e)
            con.close()
            out["tables"] = tables
        v = subprocess.run([cli, "decisions", "verify", "--store", str(db)], capture_output=True,
                           text=True)
        out[label] = {"exit": v.returncode, "out": (v.stdout + v.stderr)[-240:]}
    res.update(out)
    return res


POST_CHECKS = [check_device, check_ledger_loss]
ENV = {"h13_small_seeds_0_99": {"ALE_EVALUATOR_SECRET": SECRET},
       "h14_secret_not_utf8": {"ALE_EVALUATOR_SECRET": os.fsdecode(b"qa\xc3\x28s11\xff-sec")}}
SECRETS = [SECRET, "s11\ufffd-sec", "(s11", "\udcff-sec"]
